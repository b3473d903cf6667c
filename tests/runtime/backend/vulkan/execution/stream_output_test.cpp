// Stream output on the Vulkan device: what a draw streams, where (offsets,
// appending, several buffers with gaps), how much (SO statistics and
// overflow predicates), DrawAuto of what was streamed, and the declarations
// the device refuses at creation, naming the entry.
#include <algorithm>

#include "draw_support.h"

using namespace execution_tests;

namespace {

constexpr UINT kVertexBytes = sizeof(Vertex);

// SV_Position and COLOR0, packed into slot 0: a Vertex each.
const D3D11_SO_DECLARATION_ENTRY kPositionColour[] = {{0, "SV_Position", 0, 0, 4, 0},
                                                      {0, "COLOR", 0, 0, 4, 0}};

Com<ID3D11GeometryShader> stream_output_shader(TestDevice& test,
                                               const std::vector<std::uint8_t>& code,
                                               const D3D11_SO_DECLARATION_ENTRY* entries,
                                               UINT entry_count, std::vector<UINT> strides,
                                               UINT rasterized_stream = 0) {
    Com<ID3D11GeometryShader> gs;
    test.clear_messages();
    REQUIRE(test.device->CreateGeometryShaderWithStreamOutput(
                code.data(), code.size(), entries, entry_count, strides.data(),
                static_cast<UINT>(strides.size()), rasterized_stream, nullptr, gs.out()) == S_OK);
    INFO(test.last_message());
    CHECK(test.messages().empty());
    return gs;
}

// A stream-output (and vertex) buffer of `bytes`, every word 0xdeadbeef.
Com<ID3D11Buffer> target_buffer(TestDevice& test, UINT bytes) {
    const std::vector<std::uint32_t> fill(bytes / 4, 0xdeadbeefu);
    return test.buffer(bytes, D3D11_BIND_STREAM_OUTPUT | D3D11_BIND_VERTEX_BUFFER,
                       D3D11_USAGE_DEFAULT, 0, 0, 0, fill.data());
}

void set_target(TestDevice& test, ID3D11Buffer* buffer, UINT offset) {
    ID3D11Buffer* buffers[] = {buffer};
    test.context->SOSetTargets(1, buffers, &offset);
}

std::vector<std::uint32_t> words_of(const std::vector<Vertex>& vertices) {
    std::vector<std::uint32_t> words(vertices.size() * kVertexBytes / 4);
    std::memcpy(words.data(), vertices.data(), words.size() * 4);
    return words;
}

std::vector<std::uint32_t> slice(const std::vector<std::uint32_t>& words, std::size_t first,
                                 std::size_t count) {
    return {words.begin() + static_cast<std::ptrdiff_t>(first),
            words.begin() + static_cast<std::ptrdiff_t>(first + count)};
}

Com<ID3D11Query> query(TestDevice& test, D3D11_QUERY kind) {
    const D3D11_QUERY_DESC desc{kind, 0};
    Com<ID3D11Query> made;
    REQUIRE(test.device->CreateQuery(&desc, made.out()) == S_OK);
    return made;
}

D3D11_QUERY_DATA_SO_STATISTICS statistics_of(TestDevice& test, ID3D11Query* so) {
    D3D11_QUERY_DATA_SO_STATISTICS counts{};
    REQUIRE(test.context->GetData(so, &counts, sizeof counts, 0) == S_OK);
    return counts;
}

}  // namespace

TEST_CASE("A vertex shader's outputs stream out through a geometry shader made of its bytecode",
          "[draw][stream-output]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    const auto vs_code = assemble(kColourVs);
    const auto gs = stream_output_shader(test, vs_code, kPositionColour, 2, {kVertexBytes});
    const auto so_buffer = target_buffer(test, 8 * kVertexBytes);
    const auto vertices = quad(-1, 0, 1, 1, 0.5f, {1, 0, 0, 1});
    const auto vb = scene.vertices(vertices);
    test.context->GSSetShader(gs.get(), nullptr, 0);
    set_target(test, so_buffer.get(), 0);
    const auto so = query(test, D3D11_QUERY_SO_STATISTICS);
    test.context->Begin(so.get());
    scene.draw(6);
    test.context->End(so.get());
    const D3D11_QUERY_DATA_SO_STATISTICS counts = statistics_of(test, so.get());
    CHECK(counts.NumPrimitivesWritten == 2);
    CHECK(counts.PrimitivesStorageNeeded == 2);
    // The six vertices as the shader wrote them, then what the buffer held.
    const auto words = read_words(test, so_buffer.get(), 8 * kVertexBytes);
    CHECK(slice(words, 0, 48) == words_of(vertices));
    CHECK(slice(words, 48, 16) == std::vector<std::uint32_t>(16, 0xdeadbeefu));
    // Stream 0 is also rasterized.
    CHECK(scene.texels() == rows(2, rgba(255, 0, 0, 255), rgba(0, 0, 0, 255)));
    check_validation_clean();
}

TEST_CASE("SOSetTargets' offset holds for one draw, and later draws and offset -1 append",
          "[draw][stream-output]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    const auto gs =
        stream_output_shader(test, assemble(kColourVs), kPositionColour, 2, {kVertexBytes});
    const auto so_buffer = target_buffer(test, 12 * kVertexBytes);
    const auto vertices = quad(-1, -1, 1, 1, 0.5f, {0, 1, 0, 1});
    const auto vb = scene.vertices(vertices);
    test.context->GSSetShader(gs.get(), nullptr, 0);
    set_target(test, so_buffer.get(), 2 * kVertexBytes);  // two vertices in
    scene.draw(3);                                        // vertices 0-2 at 2..4
    test.context->Draw(3, 3);                             // 3-5 appended at 5..7
    set_target(test, nullptr, 0);
    set_target(test, so_buffer.get(), ~0u);  // -1: after what stream output wrote
    test.context->Draw(3, 0);                // 0-2 again at 8..10
    const auto words = read_words(test, so_buffer.get(), 12 * kVertexBytes);
    const auto expected = words_of(vertices);
    CHECK(slice(words, 0, 16) == std::vector<std::uint32_t>(16, 0xdeadbeefu));
    CHECK(slice(words, 16, 48) == expected);
    CHECK(slice(words, 64, 24) == slice(expected, 0, 24));
    CHECK(slice(words, 88, 8) == std::vector<std::uint32_t>(8, 0xdeadbeefu));
    check_validation_clean();
}

TEST_CASE("Two buffers with a gap: each buffer packs its own entries at its own stride",
          "[draw][stream-output]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    // Slot 0: the position; slot 1: two skipped words, then the colour.
    const D3D11_SO_DECLARATION_ENTRY entries[] = {
        {0, "SV_Position", 0, 0, 4, 0}, {0, nullptr, 0, 0, 2, 1}, {0, "COLOR", 0, 0, 4, 1}};
    const auto gs = stream_output_shader(test, assemble(kColourVs), entries, 3, {16, 24});
    const auto positions = target_buffer(test, 3 * 16);
    const auto colours = target_buffer(test, 3 * 24);
    const auto vertices = quad(-1, -1, 1, 1, 0.5f, {0.25f, 0.5f, 0.75f, 1});
    const auto vb = scene.vertices(vertices);
    test.context->GSSetShader(gs.get(), nullptr, 0);
    ID3D11Buffer* targets[] = {positions.get(), colours.get()};
    const UINT offsets[] = {0, 0};
    test.context->SOSetTargets(2, targets, offsets);
    scene.draw(3);
    const auto position_words = read_words(test, positions.get(), 3 * 16);
    const auto colour_words = read_words(test, colours.get(), 3 * 24);
    const auto expected = words_of(vertices);
    for (std::size_t v = 0; v < 3; ++v) {
        INFO("vertex " << v);
        CHECK(slice(position_words, v * 4, 4) == slice(expected, v * 8, 4));
        CHECK(slice(colour_words, v * 6, 2) == std::vector<std::uint32_t>(2, 0xdeadbeefu));
        CHECK(slice(colour_words, v * 6 + 2, 4) == slice(expected, v * 8 + 4, 4));
    }
    check_validation_clean();
}

TEST_CASE("A geometry shader's strips stream out as triangles, and DrawAuto draws them back",
          "[draw][stream-output][geometry]") {
    TestDevice& test = *hardware_device();
    const auto gs_code = assemble(kPointToSquareGs);
    Scene scene(test);
    // Streamed only: nothing is rasterized.
    const auto gs = stream_output_shader(test, gs_code, kPositionColour, 2, {kVertexBytes},
                                         D3D11_SO_NO_RASTERIZED_STREAM);
    const auto so_buffer = target_buffer(test, 12 * kVertexBytes);
    const std::vector<Vertex> points = {{-1, 1, 0.5f, 1, 1, 0, 0, 1}, {0, 0, 0.5f, 1, 0, 0, 1, 1}};
    const auto vb = scene.vertices(points);
    const auto rasterizer = scene.rasterizer(D3D11_CULL_NONE, FALSE, FALSE);
    test.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_POINTLIST);
    test.context->GSSetShader(gs.get(), nullptr, 0);
    set_target(test, so_buffer.get(), 0);
    const auto so = query(test, D3D11_QUERY_SO_STATISTICS_STREAM0);
    test.context->Begin(so.get());
    scene.draw(2);
    test.context->End(so.get());
    CHECK(statistics_of(test, so.get()).NumPrimitivesWritten == 4);
    const std::uint32_t black = rgba(0, 0, 0, 255), red = rgba(255, 0, 0, 255),
                        blue = rgba(0, 0, 255, 255);
    CHECK(scene.texels() == std::vector<std::uint32_t>(16, black));
    // The first strip's triangles: vertices 0, 1, 2, then 1, 2 and 3 (in
    // an order that keeps the winding).
    const auto words = read_words(test, so_buffer.get(), 12 * kVertexBytes);
    const Vertex corner[4] = {{-1, 1, 0.5f, 1, 1, 0, 0, 1},
                              {0, 1, 0.5f, 1, 1, 0, 0, 1},
                              {-1, 0, 0.5f, 1, 1, 0, 0, 1},
                              {0, 0, 0.5f, 1, 1, 0, 0, 1}};
    CHECK(slice(words, 0, 24) == words_of({corner[0], corner[1], corner[2]}));
    std::vector<std::vector<std::uint32_t>> second, expected_second;
    for (int v = 3; v < 6; ++v) second.push_back(slice(words, v * 8, 8));
    for (int c : {1, 2, 3}) expected_second.push_back(words_of({corner[c]}));
    std::sort(second.begin(), second.end());
    std::sort(expected_second.begin(), expected_second.end());
    CHECK(second == expected_second);

    // DrawAuto: the twelve streamed vertices as a triangle list, no shader
    // stage streaming any more.
    test.context->GSSetShader(nullptr, nullptr, 0);
    test.context->SOSetTargets(0, nullptr, nullptr);
    ID3D11Buffer* buffers[] = {so_buffer.get()};
    const UINT stride = kVertexBytes, offset = 0;
    test.context->IASetVertexBuffers(0, 1, buffers, &stride, &offset);
    test.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    test.clear_messages();
    test.context->DrawAuto();
    INFO(test.last_message());
    CHECK(test.messages().empty());
    std::vector<std::uint32_t> expected(16, black);
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 2; ++x) {
            expected[y * 4 + x] = red;
            expected[(y + 2) * 4 + x + 2] = blue;
        }
    CHECK(scene.texels() == expected);
    check_validation_clean();
}

TEST_CASE("A buffer too small overflows: what fits is written, the overflow predicate skips draws",
          "[draw][stream-output][query]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    const auto gs =
        stream_output_shader(test, assemble(kColourVs), kPositionColour, 2, {kVertexBytes});
    const auto so_buffer = target_buffer(test, 4 * kVertexBytes);  // one triangle and a bit
    const auto vertices = quad(-1, -1, 1, 1, 0.5f, {1, 1, 1, 1});
    const auto vb = scene.vertices(vertices);
    test.context->GSSetShader(gs.get(), nullptr, 0);
    set_target(test, so_buffer.get(), 0);
    const auto so = query(test, D3D11_QUERY_SO_STATISTICS);
    const D3D11_QUERY_DESC overflow_desc{D3D11_QUERY_SO_OVERFLOW_PREDICATE, 0};
    Com<ID3D11Predicate> overflow;
    REQUIRE(test.device->CreatePredicate(&overflow_desc, overflow.out()) == S_OK);
    test.context->Begin(so.get());
    test.context->Begin(overflow.get());
    scene.draw(6);
    test.context->End(overflow.get());
    test.context->End(so.get());
    // Predicated on TRUE before the program reads the predicate (the device
    // evaluates it), a draw is skipped while the predicate says overflow.
    test.context->GSSetShader(nullptr, nullptr, 0);
    const float black[4] = {0, 0, 0, 1};
    test.context->ClearRenderTargetView(scene.rtv.get(), black);
    test.context->SetPredication(overflow.get(), TRUE);
    test.context->Draw(6, 0);
    test.context->SetPredication(nullptr, FALSE);
    CHECK(scene.texels() == std::vector<std::uint32_t>(16, rgba(0, 0, 0, 255)));
    const D3D11_QUERY_DATA_SO_STATISTICS counts = statistics_of(test, so.get());
    CHECK(counts.NumPrimitivesWritten == 1);
    CHECK(counts.PrimitivesStorageNeeded == 2);
    BOOL overflowed = FALSE;
    REQUIRE(test.context->GetData(overflow.get(), &overflowed, sizeof overflowed, 0) == S_OK);
    CHECK(overflowed == TRUE);
    const auto words = read_words(test, so_buffer.get(), 4 * kVertexBytes);
    CHECK(slice(words, 0, 24) == slice(words_of(vertices), 0, 24));
    CHECK(slice(words, 24, 8) == std::vector<std::uint32_t>(8, 0xdeadbeefu));
    check_validation_clean();
}

TEST_CASE("Declarations the device cannot stream are named at creation", "[draw][stream-output]") {
    TestDevice& test = *hardware_device();
    const auto vs_code = assemble(kColourVs);
    auto refusal = [&](const D3D11_SO_DECLARATION_ENTRY& entry) {
        Com<ID3D11GeometryShader> gs;
        test.clear_messages();
        const UINT stride = 16;
        REQUIRE(test.device->CreateGeometryShaderWithStreamOutput(vs_code.data(), vs_code.size(),
                                                                  &entry, 1, &stride, 1, 0, nullptr,
                                                                  gs.out()) == S_OK);
        return test.last_message();
    };
    CHECK_THAT(refusal({0, "COLOR", 0, 0, 3, 0}),
               Catch::Contains("stream-output entry 0 (COLOR0) streams part of output register "
                               "o1, which vkd3d-shader 1.2 writes whole"));
    CHECK_THAT(refusal({0, "COLOR", 0, 1, 2, 0}), Catch::Contains("streams part of output"));
    CHECK_THAT(refusal({0, "TEXCOORD", 0, 0, 4, 0}),
               Catch::Contains("stream-output entry 0 (TEXCOORD0) names no output of the shader"));
    CHECK_THAT(refusal({0, "COLOR", 0, 0, 4, 0}), Catch::Equals(""));
    check_validation_clean();
}

TEST_CASE("A declaration that writes buffer slot 1 only needs no buffer in slot 0",
          "[draw][stream-output]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    const D3D11_SO_DECLARATION_ENTRY entries[] = {{0, "COLOR", 0, 0, 4, 1}};
    const auto gs = stream_output_shader(test, assemble(kColourVs), entries, 1, {0, 16});
    const auto colours = target_buffer(test, 3 * 16);
    const auto vertices = quad(-1, -1, 1, 1, 0.5f, {0.5f, 0.25f, 1, 1});
    const auto vb = scene.vertices(vertices);
    test.context->GSSetShader(gs.get(), nullptr, 0);
    ID3D11Buffer* targets[] = {nullptr, colours.get()};
    const UINT offsets[] = {0, 0};
    test.context->SOSetTargets(2, targets, offsets);
    scene.draw(3);
    const auto words = read_words(test, colours.get(), 3 * 16);
    const auto expected = words_of(vertices);
    for (std::size_t v = 0; v < 3; ++v)
        CHECK(slice(words, v * 4, 4) == slice(expected, v * 8 + 4, 4));
    check_validation_clean();
}

TEST_CASE("SO statistics count what would be streamed with no buffer bound, and End alone counts 0",
          "[draw][stream-output][query]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    const auto vs_code = assemble(kColourVs);
    const auto gs = stream_output_shader(test, vs_code, kPositionColour, 2, {kVertexBytes});
    auto vertices = quad(-1, 0, 1, 1, 0.5f, {1, 0, 0, 1});
    const auto lower = quad(-1, -1, 1, 0, 0.5f, {0, 0, 1, 1});
    vertices.insert(vertices.end(), lower.begin(), lower.end());
    const auto vb = scene.vertices(vertices);
    test.context->GSSetShader(gs.get(), nullptr, 0);
    const auto so = query(test, D3D11_QUERY_SO_STATISTICS);
    const auto stream0 = query(test, D3D11_QUERY_SO_STATISTICS_STREAM0);
    test.context->Begin(so.get());
    test.context->Begin(stream0.get());
    scene.draw(12);
    test.context->End(stream0.get());
    test.context->End(so.get());
    // Four triangles needed storage; none was written.
    for (ID3D11Query* q : {so.get(), stream0.get()}) {
        const D3D11_QUERY_DATA_SO_STATISTICS counts = statistics_of(test, q);
        CHECK(counts.NumPrimitivesWritten == 0);
        CHECK(counts.PrimitivesStorageNeeded == 4);
    }
    // The draw still rasterized stream 0.
    CHECK(scene.texels() == rows(2, rgba(255, 0, 0, 255), rgba(0, 0, 255, 255)));

    // End without Begin is a Begin and End with nothing between.
    test.clear_messages();
    scene.draw(12);
    test.context->End(so.get());
    CHECK(test.messages().empty());
    const D3D11_QUERY_DATA_SO_STATISTICS nothing = statistics_of(test, so.get());
    CHECK(nothing.NumPrimitivesWritten == 0);
    CHECK(nothing.PrimitivesStorageNeeded == 0);
    check_validation_clean();
}
