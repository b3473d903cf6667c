// The Vulkan device records calls into batches and waits only when the host
// needs results: work stays unsubmitted until Flush, Present, a readback or
// an EVENT query; GPU timestamps time each tagged step once done; Map
// WRITE_DISCARD of a buffer that pending work reads gets new memory; copies
// through staging memory past its ring still arrive; queries and hidden UAV
// counters count on the GPU, read only when their results are asked for.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <set>

#include "draw_support.h"
#include "runtime/backend/backend.h"

using namespace object_tests;
using namespace execution_tests;
using d3dcap::runtime::backend::WorkTime;
using d3dcap::runtime::backend::WorkTiming;

namespace {

d3dcap::runtime::backend::Backend& backend_of(TestDevice& test) {
    d3dcap::runtime::backend::Backend* backend = d3dcap::runtime::device_backend(test.device.get());
    REQUIRE(backend != nullptr);
    REQUIRE(backend->times_tagged_work());
    return *backend;
}

std::set<std::uint64_t> tags_of(const std::vector<WorkTime>& times) {
    std::set<std::uint64_t> tags;
    for (const WorkTime& time : times) tags.insert(time.tag);
    return tags;
}

// How many 4-byte texels of a texture are not `value`.
std::size_t texels_other_than(TestDevice& test, ID3D11Texture2D* texture, UINT width, UINT height,
                              DXGI_FORMAT format, std::uint32_t value) {
    auto staging =
        test.texture2d(width, height, format, 0, 1, 1, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ);
    test.context->CopyResource(staging.get(), texture);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(test.context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    std::size_t other = 0;
    for (UINT y = 0; y < height; ++y)
        for (UINT x = 0; x < width; ++x) {
            std::uint32_t texel = 0;
            std::memcpy(
                &texel,
                static_cast<const std::uint8_t*>(mapped.pData) + y * mapped.RowPitch + x * 4, 4);
            other += texel != value;
        }
    test.context->Unmap(staging.get(), 0);
    return other;
}

}  // namespace

TEST_CASE("Draws wait for nothing: they run at Flush, timed per tagged step", "[batch]") {
    TestDevice& test = *hardware_device();
    d3dcap::runtime::backend::Backend& backend = backend_of(test);
    Scene scene(test);
    const auto vb = scene.vertices(quad(-1, 0, 1, 1, 0.5f, {1.0f, 0.0f, 0.0f, 1.0f}));
    std::vector<WorkTime> times;
    backend.take_work_times(true, times);  // what the scene's setup did
    times.clear();

    backend.set_work_timing(WorkTiming::PerStep);
    for (std::uint64_t tag = 1001; tag <= 1003; ++tag) {
        backend.tag_work(tag);
        scene.draw(6);
    }
    // Recorded, not submitted: the first draw's work is not done.
    CHECK(backend.take_work_times(false, times) == 1001);
    CHECK(times.empty());
    test.context->Flush();
    CHECK(backend.take_work_times(true, times) == UINT64_MAX);
    CHECK(tags_of(times) == std::set<std::uint64_t>{1001, 1002, 1003});

    // Per submission: the batch's whole time goes to its last tag.
    backend.set_work_timing(WorkTiming::PerSubmission);
    times.clear();
    for (std::uint64_t tag = 2001; tag <= 2003; ++tag) {
        backend.tag_work(tag);
        scene.draw(6);
    }
    test.context->Flush();
    CHECK(backend.take_work_times(true, times) == UINT64_MAX);
    CHECK(tags_of(times) == std::set<std::uint64_t>{2003});
    backend.set_work_timing(WorkTiming::PerStep);
    CHECK(scene.texels() == rows(2, rgba(255, 0, 0, 255), rgba(0, 0, 0, 255)));
    check_validation_clean();
}

TEST_CASE("An EVENT query is done when the GPU is: nothing is left pending", "[batch]") {
    TestDevice& test = *hardware_device();
    d3dcap::runtime::backend::Backend& backend = backend_of(test);
    Scene scene(test);
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {0.0f, 1.0f, 0.0f, 1.0f}));
    backend.tag_work(3001);
    scene.draw(6);
    const D3D11_QUERY_DESC desc{D3D11_QUERY_EVENT, 0};
    Com<ID3D11Query> event;
    REQUIRE(test.device->CreateQuery(&desc, event.out()) == S_OK);
    test.context->End(event.get());
    BOOL done = FALSE;
    CHECK(test.context->GetData(event.get(), &done, sizeof done, 0) == S_OK);
    CHECK(done == TRUE);
    std::vector<WorkTime> times;
    CHECK(backend.take_work_times(false, times) == UINT64_MAX);
    CHECK(tags_of(times).count(3001) == 1);
    check_validation_clean();
}

TEST_CASE("Map WRITE_DISCARD between draws: each draw reads the contents it was given",
          "[batch][map]") {
    TestDevice& test = *hardware_device();
    Scene scene(test, kConstantPs);
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {0, 0, 0, 0}));
    auto constants =
        test.buffer(16, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DYNAMIC, D3D11_CPU_ACCESS_WRITE);
    ID3D11Buffer* buffers[] = {constants.get()};
    test.context->PSSetConstantBuffers(0, 1, buffers);
    const float colours[4][4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}};
    // Four draws, one row each, none of them run before the last Map.
    for (UINT row = 0; row < 4; ++row) {
        D3D11_MAPPED_SUBRESOURCE mapped{};
        REQUIRE(test.context->Map(constants.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
        std::memcpy(mapped.pData, colours[row], 16);
        test.context->Unmap(constants.get(), 0);
        const D3D11_VIEWPORT viewport{0, static_cast<float>(row), 4, 1, 0, 1};
        test.context->RSSetViewports(1, &viewport);
        scene.draw(6);
    }
    std::vector<std::uint32_t> expected;
    for (std::uint32_t colour : {rgba(255, 0, 0, 255), rgba(0, 255, 0, 255), rgba(0, 0, 255, 255),
                                 rgba(255, 255, 255, 255)})
        expected.insert(expected.end(), 4, colour);
    CHECK(scene.texels() == expected);
    check_validation_clean();
}

TEST_CASE("Uploads past the staging ring in one batch all arrive", "[batch][transfer]") {
    TestDevice& test = *hardware_device();
    // Five 20 MiB buffers: 100 MiB through 64 MiB of staging memory.
    constexpr UINT kBytes = 20u << 20;
    std::vector<Com<ID3D11Buffer>> buffers;
    std::vector<std::uint32_t> words(kBytes / 4);
    for (std::uint32_t b = 0; b < 5; ++b) {
        buffers.push_back(test.buffer(kBytes, D3D11_BIND_SHADER_RESOURCE));
        for (std::size_t i = 0; i < words.size(); ++i)
            words[i] = b << 24 | static_cast<std::uint32_t>(i);
        test.context->UpdateSubresource(buffers.back().get(), 0, nullptr, words.data(), 0, 0);
    }
    for (std::uint32_t b = 0; b < 5; ++b) {
        const std::vector<std::uint32_t> read = read_words(test, buffers[b].get(), kBytes);
        CHECK(read.front() == (b << 24));
        CHECK(read[12345] == (b << 24 | 12345u));
        CHECK(read.back() == (b << 24 | (kBytes / 4 - 1)));
    }
    check_validation_clean();
}

// The device stages a few rows of a clear's pattern and copies them over
// and over: colour and depth-stencil textures of many such bands, and a
// buffer of many copies.
TEST_CASE("Clears larger than the pattern staged for them fill every element",
          "[batch][transfer]") {
    TestDevice& test = *hardware_device();
    constexpr UINT kWidth = 300, kHeight = 301;  // 1200-byte rows: 54 rows a band
    auto texture =
        test.texture2d(kWidth, kHeight, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_RENDER_TARGET);
    Com<ID3D11RenderTargetView> rtv;
    REQUIRE(test.device->CreateRenderTargetView(texture.get(), nullptr, rtv.out()) == S_OK);
    const float colour[4] = {1.0f, 0.0f, 1.0f, 0.0f};
    test.context->ClearRenderTargetView(rtv.get(), colour);
    CHECK(texels_other_than(test, texture.get(), kWidth, kHeight, DXGI_FORMAT_R8G8B8A8_UNORM,
                            0x00ff00ffu) == 0);

    // Depth and stencil planes: 1000 staged bytes a row, 65 rows a band.
    constexpr UINT kDepthWidth = 200;
    auto depth = test.texture2d(kDepthWidth, kHeight, DXGI_FORMAT_D24_UNORM_S8_UINT,
                                D3D11_BIND_DEPTH_STENCIL);
    Com<ID3D11DepthStencilView> dsv;
    REQUIRE(test.device->CreateDepthStencilView(depth.get(), nullptr, dsv.out()) == S_OK);
    test.context->ClearDepthStencilView(dsv.get(), D3D11_CLEAR_DEPTH | D3D11_CLEAR_STENCIL, 1.0f,
                                        0x5a);
    // Depth 1.0 in 24 bits, the stencil on top.
    CHECK(texels_other_than(test, depth.get(), kDepthWidth, kHeight, DXGI_FORMAT_D24_UNORM_S8_UINT,
                            0x5affffffu) == 0);

    constexpr UINT kBytes = 1u << 20;  // 16 copies of the staged words
    auto buffer = test.buffer(kBytes, D3D11_BIND_UNORDERED_ACCESS, D3D11_USAGE_DEFAULT, 0,
                              D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS);
    D3D11_UNORDERED_ACCESS_VIEW_DESC desc{};
    desc.Format = DXGI_FORMAT_R32_TYPELESS;
    desc.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
    desc.Buffer = {0, kBytes / 4, D3D11_BUFFER_UAV_FLAG_RAW};
    Com<ID3D11UnorderedAccessView> uav;
    REQUIRE(test.device->CreateUnorderedAccessView(buffer.get(), &desc, uav.out()) == S_OK);
    const UINT values[4] = {0xdeadbeefu, 1, 2, 3};
    test.context->ClearUnorderedAccessViewUint(uav.get(), values);
    const std::vector<std::uint32_t> words = read_words(test, buffer.get(), kBytes);
    CHECK(std::count(words.begin(), words.end(), 0xdeadbeefu) == kBytes / 4);
    check_validation_clean();
}

TEST_CASE("Queries count in the command stream: the draws inside them wait for nothing",
          "[batch][query]") {
    TestDevice& test = *hardware_device();
    d3dcap::runtime::backend::Backend& backend = backend_of(test);
    Scene scene(test);
    const auto vb = scene.vertices(quad(-1, 0, 1, 1, 0.5f, {1, 0, 0, 1}));  // 8 samples each
    auto query = [&](D3D11_QUERY kind) {
        const D3D11_QUERY_DESC desc{kind, 0};
        Com<ID3D11Query> made;
        REQUIRE(test.device->CreateQuery(&desc, made.out()) == S_OK);
        return made;
    };
    std::vector<WorkTime> times;
    backend.take_work_times(true, times);
    // Two occlusion queries overlap (D3D11 allows it, one Vulkan query
    // could not), a statistics query runs around both, one of them spans
    // a Flush, and one is released before its result is read.
    auto outer = query(D3D11_QUERY_OCCLUSION), inner = query(D3D11_QUERY_OCCLUSION),
         released = query(D3D11_QUERY_OCCLUSION),
         statistics = query(D3D11_QUERY_PIPELINE_STATISTICS);
    test.context->Begin(statistics.get());
    test.context->Begin(outer.get());
    backend.tag_work(4001);
    scene.draw(6);
    test.context->Begin(inner.get());
    test.context->Begin(released.get());
    scene.draw(6);
    test.context->End(released.get());
    released.reset();
    test.context->Flush();
    scene.draw(6);
    test.context->End(inner.get());
    test.context->End(outer.get());
    test.context->End(statistics.get());
    // The last draw is recorded, not submitted: nothing waited for it.
    backend.tag_work(4002);
    scene.draw(6);
    CHECK(backend.take_work_times(false, times) == 4001);

    UINT64 samples = 0;
    REQUIRE(test.context->GetData(inner.get(), &samples, sizeof samples, 0) == S_OK);
    CHECK(samples == 16);
    // The result waited for the work, and all of it is done.
    CHECK(backend.take_work_times(false, times) == UINT64_MAX);
    REQUIRE(test.context->GetData(outer.get(), &samples, sizeof samples, 0) == S_OK);
    CHECK(samples == 24);
    D3D11_QUERY_DATA_PIPELINE_STATISTICS counts{};
    REQUIRE(test.context->GetData(statistics.get(), &counts, sizeof counts, 0) == S_OK);
    CHECK(counts.IAVertices == 18);
    CHECK(counts.IAPrimitives == 6);
    // Asked again, the same values.
    REQUIRE(test.context->GetData(inner.get(), &samples, sizeof samples, 0) == S_OK);
    CHECK(samples == 16);

    // Begin again: counting starts from zero; more draws than a pool of
    // Vulkan queries holds.
    test.context->Begin(inner.get());
    for (int i = 0; i < 1100; ++i) scene.draw(6);
    test.context->End(inner.get());
    REQUIRE(test.context->GetData(inner.get(), &samples, sizeof samples, 0) == S_OK);
    CHECK(samples == 1100 * 8);
    check_validation_clean();
}

TEST_CASE(
    "Draws predicated on a predicate not read yet are predicated on the GPU, waiting for nothing",
    "[batch][query]") {
    TestDevice& test = *hardware_device();
    d3dcap::runtime::backend::Backend& backend = backend_of(test);
    Scene scene(test);
    auto vertices = quad(-1, 0, 1, 1, 0.5f, {1, 0, 0, 1});       // the top half, red
    const auto hidden = quad(2, 2, 3, 3, 0.5f, {0, 1, 0, 1});    // outside the viewport
    const auto bottom = quad(-1, -1, 1, 0, 0.5f, {0, 0, 1, 1});  // the bottom half, blue
    vertices.insert(vertices.end(), hidden.begin(), hidden.end());
    vertices.insert(vertices.end(), bottom.begin(), bottom.end());
    const auto vb = scene.vertices(vertices);
    const D3D11_QUERY_DESC desc{D3D11_QUERY_OCCLUSION_PREDICATE, 0};
    Com<ID3D11Predicate> passed, nothing, split;
    REQUIRE(test.device->CreatePredicate(&desc, passed.out()) == S_OK);
    REQUIRE(test.device->CreatePredicate(&desc, nothing.out()) == S_OK);
    REQUIRE(test.device->CreatePredicate(&desc, split.out()) == S_OK);
    const auto unread = test.buffer(16, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DEFAULT, 0, 0, 0);
    const std::uint32_t words[4] = {1, 2, 3, 4};
    std::vector<WorkTime> times;
    backend.take_work_times(true, times);
    backend.tag_work(6001);
    // Two draws in each: the hidden quad, then (in `passed`) the top half.
    test.context->Begin(passed.get());
    test.context->Draw(6, 6);
    test.context->Draw(6, 0);
    test.context->End(passed.get());
    test.context->Begin(nothing.get());
    test.context->Draw(6, 6);
    test.context->Draw(6, 6);
    test.context->End(nothing.get());
    // The hidden quad, then the top half after an upload that ends the
    // render pass: counted in two query slots, of which only the second
    // saw samples.
    test.context->Begin(split.get());
    test.context->Draw(6, 6);
    test.context->UpdateSubresource(unread.get(), 0, nullptr, words, 0, 0);
    test.context->Draw(6, 0);
    test.context->End(split.get());
    // Skipped where the result equals the value given: TRUE (samples
    // passed), FALSE (none did).
    test.context->SetPredication(passed.get(), TRUE);
    test.context->Draw(6, 12);
    test.context->SetPredication(nothing.get(), FALSE);
    test.context->Draw(6, 12);
    test.context->SetPredication(split.get(), TRUE);
    test.context->Draw(6, 12);
    test.context->SetPredication(nullptr, FALSE);
    CHECK(backend.take_work_times(false, times) == 6001);  // recorded, nothing waited
    CHECK(scene.texels() == rows(2, rgba(255, 0, 0, 255), rgba(0, 0, 0, 255)));
    // Run where it differs, each way.
    const std::uint32_t blue = rgba(0, 0, 255, 255);
    for (ID3D11Predicate* predicate : {passed.get(), nothing.get(), split.get()}) {
        const float black[4] = {0, 0, 0, 1};
        test.context->ClearRenderTargetView(scene.rtv.get(), black);
        test.context->SetPredication(predicate, predicate == nothing.get());
        test.context->Draw(6, 12);
        test.context->SetPredication(nullptr, FALSE);
        CHECK(scene.texels() == rows(2, rgba(0, 0, 0, 255), blue));
    }
    check_validation_clean();
}

TEST_CASE("Hidden UAV counters stay on the GPU: appends, CopyStructureCount, no wait",
          "[batch][counter]") {
    TestDevice& test = *hardware_device();
    d3dcap::runtime::backend::Backend& backend = backend_of(test);
    const auto shader = compute_shader(test, kAppendThreadIdCs);
    constexpr UINT kElements = 256;
    auto target = test.buffer(kElements * 4, D3D11_BIND_UNORDERED_ACCESS, D3D11_USAGE_DEFAULT, 0,
                              D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4);
    const auto first = append_uav(test, target.get(), kElements),
               second = append_uav(test, target.get(), kElements);
    auto count = test.buffer(16, 0, D3D11_USAGE_DEFAULT);
    std::vector<WorkTime> times;
    backend.take_work_times(true, times);

    test.context->CSSetShader(shader.get(), nullptr, 0);
    ID3D11UnorderedAccessView* uavs[] = {first.get()};
    const UINT initial = 10, keep = 0xffffffffu;
    backend.tag_work(5001);
    test.context->CSSetUnorderedAccessViews(0, 1, uavs, &initial);
    test.context->Dispatch(1, 1, 1);
    test.context->CopyStructureCount(count.get(), 0, first.get());
    // -1 keeps the counter: the second dispatch appends after the first.
    test.context->CSSetUnorderedAccessViews(0, 1, uavs, &keep);
    test.context->Dispatch(2, 1, 1);
    test.context->CopyStructureCount(count.get(), 4, first.get());
    // A view that no work used and no initial count set: its counter is 0.
    test.context->CopyStructureCount(count.get(), 8, second.get());
    // An initial count recorded on a deferred context sets it when executed.
    Com<ID3D11DeviceContext> deferred;
    REQUIRE(test.device->CreateDeferredContext(0, deferred.out()) == S_OK);
    const UINT deferred_initial = 100;
    ID3D11UnorderedAccessView* second_uavs[] = {second.get()};
    deferred->CSSetUnorderedAccessViews(0, 1, second_uavs, &deferred_initial);
    Com<ID3D11CommandList> list;
    REQUIRE(deferred->FinishCommandList(FALSE, list.out()) == S_OK);
    test.context->ExecuteCommandList(list.get(), FALSE);
    test.context->CopyStructureCount(count.get(), 12, second.get());
    CHECK(backend.take_work_times(false, times) == 5001);  // recorded, nothing waited

    CHECK(read_words(test, count.get(), 16) == std::vector<std::uint32_t>{74, 202, 0, 100});
    // Into a dynamic buffer that WRITE_DISCARD moved while a copy into it
    // was pending: the count lands in what the program wrote.
    auto dynamic =
        test.buffer(16, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DYNAMIC, D3D11_CPU_ACCESS_WRITE);
    test.context->CopyStructureCount(dynamic.get(), 0, first.get());
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(test.context->Map(dynamic.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
    const std::uint32_t words[4] = {1, 2, 3, 4};
    std::memcpy(mapped.pData, words, sizeof words);
    test.context->Unmap(dynamic.get(), 0);
    test.context->CopyStructureCount(dynamic.get(), 4, first.get());
    CHECK(read_words(test, dynamic.get(), 16) == std::vector<std::uint32_t>{1, 202, 3, 4});
    check_validation_clean();
}

// (lavapipe never runs out of a pool's sets; the GPU does.)
TEST_CASE("Descriptor sets of a draw outlive the pool it fills when no batch was open", "[batch]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    const auto gs = scene.point_to_square_gs();
    const auto rasterizer = scene.rasterizer(D3D11_CULL_NONE, FALSE, FALSE);
    const std::vector<Vertex> points = {{-1, 1, 0.5f, 1, 1, 0, 0, 1}};
    const auto vb = scene.vertices(points);
    const D3D11_QUERY_DESC desc{D3D11_QUERY_EVENT, 0};
    Com<ID3D11Query> event;
    REQUIRE(test.device->CreateQuery(&desc, event.out()) == S_OK);
    // Three sets a draw (vertex, geometry, pixel), each draw after all work
    // is done: some draw's sets straddle two descriptor pools.
    for (int i = 0; i < 100; ++i) {
        scene.draw(1);
        test.context->End(event.get());
        BOOL done = FALSE;
        REQUIRE(test.context->GetData(event.get(), &done, sizeof done, 0) == S_OK);
    }
    std::vector<std::uint32_t> expected(16, rgba(0, 0, 0, 255));
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 2; ++x) expected[y * 4 + x] = rgba(255, 0, 0, 255);
    CHECK(scene.texels() == expected);
    check_validation_clean();
}
