// How the Vulkan device records draws and dispatches, as a D3D11 driver
// does: draws to the same targets share one render pass instance, work
// waits (a barrier) only for earlier work whose writes it touches, and a
// stage binding the same buffers with other constant-buffer windows keeps
// its descriptor set. Counted with the device's recording counts; the
// results are checked too, under synchronization validation.
#include <catch2/catch.hpp>
#include <cstring>
#include <future>
#include <mutex>
#include <thread>

#include "draw_support.h"
#include "runtime/backend/backend.h"
#include "runtime/inspection.h"

using namespace object_tests;
using namespace execution_tests;
using d3dcap::runtime::backend::RecordingCounts;

namespace {

// Adds 1 to the first word of u1 (one pixel: one invocation per draw).
constexpr const char* kCountingPs = R"(ps_5_0
.input SV_Position0 v0.xyzw float
.input COLOR0 v1.xyzw float
.output SV_Target0 o0.xyzw float
dcl_uav_raw u1
dcl_output o0.xyzw
dcl_temps 1
ld_raw r0.x, l(0), u1.xxxx
iadd r0.x, r0.x, l(1)
store_raw u1.x, l(0), r0.x
mov o0.xyzw, l(0.000000, 0.000000, 1.000000, 1.000000)
ret
)";

// u0[i] = t0[i] + cb0[0].x, 64 words.
constexpr const char* kAddCs = R"(cs_5_0
dcl_constantbuffer cb0[1], immediateIndexed
dcl_resource_raw t0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 64, 1, 1
ishl r0.x, vThreadID.x, l(2)
ld_raw r0.y, r0.x, t0.xxxx
iadd r0.y, r0.y, cb0[0].x
store_raw u0.x, r0.x, r0.y
ret
)";

d3dcap::runtime::backend::Backend& backend_of(TestDevice& test) {
    d3dcap::runtime::backend::Backend* backend = d3dcap::runtime::device_backend(test.device.get());
    REQUIRE(backend != nullptr);
    return *backend;
}

RecordingCounts since(const RecordingCounts& before, const RecordingCounts& now) {
    return {now.render_passes - before.render_passes, now.barriers - before.barriers,
            now.descriptor_sets - before.descriptor_sets, now.submissions - before.submissions};
}

Com<ID3D11ShaderResourceView> raw_srv(TestDevice& test, ID3D11Buffer* buffer, UINT words) {
    D3D11_SHADER_RESOURCE_VIEW_DESC desc{};
    desc.Format = DXGI_FORMAT_R32_TYPELESS;
    desc.ViewDimension = D3D11_SRV_DIMENSION_BUFFEREX;
    desc.BufferEx = {0, words, D3D11_BUFFEREX_SRV_FLAG_RAW};
    Com<ID3D11ShaderResourceView> view;
    REQUIRE(test.device->CreateShaderResourceView(buffer, &desc, view.out()) == S_OK);
    return view;
}

// Colours add; alpha is the source's.
Com<ID3D11BlendState> additive_blend(TestDevice& test) {
    D3D11_BLEND_DESC add{};
    add.RenderTarget[0] = {TRUE,
                           D3D11_BLEND_ONE,
                           D3D11_BLEND_ONE,
                           D3D11_BLEND_OP_ADD,
                           D3D11_BLEND_ONE,
                           D3D11_BLEND_ZERO,
                           D3D11_BLEND_OP_ADD,
                           D3D11_COLOR_WRITE_ENABLE_ALL};
    Com<ID3D11BlendState> additive;
    REQUIRE(test.device->CreateBlendState(&add, additive.out()) == S_OK);
    return additive;
}

// Four quads of six vertices: the target's top left, top right, bottom
// left and bottom right quarters.
enum Quadrant : UINT { kTopLeft, kTopRight, kBottomLeft, kBottomRight };
Com<ID3D11Buffer> quadrants(TestDevice& test) {
    std::vector<Vertex> quads;
    for (const auto& [x0, y0] :
         {std::pair{-1.0f, 0.0f}, {0.0f, 0.0f}, {-1.0f, -1.0f}, {0.0f, -1.0f}})
        for (const Vertex& v : quad(x0, y0, x0 + 1, y0 + 1, 0.5f, {0, 0, 0, 0})) quads.push_back(v);
    return test.buffer(static_cast<UINT>(quads.size() * sizeof(Vertex)), D3D11_BIND_VERTEX_BUFFER,
                       D3D11_USAGE_DEFAULT, 0, 0, 0, quads.data());
}

// The quadrants' buffer, bound at slot 0.
Com<ID3D11Buffer> bound_quadrants(TestDevice& test) {
    auto vb = quadrants(test);
    ID3D11Buffer* vertices[] = {vb.get()};
    const UINT stride = sizeof(Vertex), offset = 0;
    test.context->IASetVertexBuffers(0, 1, vertices, &stride, &offset);
    return vb;
}

// A 4x4 target's texels, one value per quarter.
std::vector<std::uint32_t> quarters(std::uint32_t top_left, std::uint32_t top_right,
                                    std::uint32_t bottom_left, std::uint32_t bottom_right) {
    std::vector<std::uint32_t> texels(16);
    for (int i = 0; i < 16; ++i) {
        const bool top = i < 8, left = i % 4 < 2;
        texels[i] = top && left ? top_left : top ? top_right : left ? bottom_left : bottom_right;
    }
    return texels;
}

}  // namespace

namespace {

// Sixteen draws with a constant-buffer window each and a blend state every
// fourth, recorded into one render pass with no barrier and no new set.
void check_draws_share_one_pass(TestDevice& test) {
    d3dcap::runtime::backend::Backend& backend = backend_of(test);
    Scene scene(test, kConstantPs);
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {0, 0, 0, 0}));
    // 16 windows of 16 constants; window w's first constant is its colour.
    std::vector<float> constants(16 * 16 * 4, 0.0f);
    for (int w = 0; w < 16; ++w) {
        float* colour = &constants[w * 64];
        colour[0] = (w % 2) * 1.0f, colour[1] = (w % 3 == 0) * 1.0f, colour[2] = 1.0f;
        colour[3] = 1.0f;
    }
    auto cb = test.buffer(static_cast<UINT>(constants.size() * 4), D3D11_BIND_CONSTANT_BUFFER,
                          D3D11_USAGE_DEFAULT, 0, 0, 0, constants.data());
    D3D11_BLEND_DESC blend{};
    blend.RenderTarget[0].RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL;
    blend.RenderTarget[0].SrcBlend = blend.RenderTarget[0].SrcBlendAlpha = D3D11_BLEND_ONE;
    blend.RenderTarget[0].DestBlend = blend.RenderTarget[0].DestBlendAlpha = D3D11_BLEND_ZERO;
    blend.RenderTarget[0].BlendOp = blend.RenderTarget[0].BlendOpAlpha = D3D11_BLEND_OP_ADD;
    Com<ID3D11BlendState> opaque, blended;
    REQUIRE(test.device->CreateBlendState(&blend, opaque.out()) == S_OK);
    blend.RenderTarget[0].BlendEnable = TRUE;
    REQUIRE(test.device->CreateBlendState(&blend, blended.out()) == S_OK);
    ID3D11Buffer* buffers[] = {cb.get()};
    auto draw_window = [&](UINT window) {
        const UINT first = window * 16, count = 16;
        test.context->PSSetConstantBuffers1(0, 1, buffers, &first, &count);
        test.context->OMSetBlendState(window % 4 == 3 ? blended.get() : opaque.get(), nullptr, ~0u);
        scene.draw(6);
    };
    draw_window(0);
    draw_window(3);  // both pipelines made, both windows' sets written
    const RecordingCounts before = backend.recording_counts();
    for (UINT window = 1; window < 16; ++window) draw_window(window);
    const RecordingCounts counts = since(before, backend.recording_counts());
    CHECK(counts.render_passes == 0);
    CHECK(counts.barriers == 0);
    CHECK(counts.descriptor_sets == 0);
    // The last window (15: red 1, green 1, blue 1) drawn opaquely (blend ONE, ZERO).
    CHECK(scene.texels() == std::vector<std::uint32_t>(16, rgba(255, 255, 255, 255)));
    check_validation_clean();
}

}  // namespace

TEST_CASE("Draws to the same target share one render pass, with no barrier or new set between them",
          "[recording]") {
    check_draws_share_one_pass(*hardware_device());
}

TEST_CASE("A device created for one thread records draws as a free-threaded one does",
          "[recording]") {
    // D3D11_CREATE_DEVICE_SINGLETHREADED: its calls take no lock.
    TestDevice single(D3D_DRIVER_TYPE_HARDWARE, D3D_FEATURE_LEVEL_11_1,
                      D3D11_CREATE_DEVICE_SINGLETHREADED);
    REQUIRE(single.device);
    check_draws_share_one_pass(single);
}

// Replay calls each device from one thread: told so, a free-threaded
// device draws while another thread holds its per-call lock throughout
// (a call that took the lock would wait for ever), and still makes
// deferred contexts, which D3D11_CREATE_DEVICE_SINGLETHREADED forbids.
TEST_CASE("A device called from one thread takes no lock per call and keeps deferred contexts",
          "[recording]") {
    TestDevice test(D3D_DRIVER_TYPE_HARDWARE);
    REQUIRE(test.device);
    REQUIRE(d3dcap::runtime::set_calls_from_one_thread(test.device.get()));
    std::recursive_mutex* calls = backend_of(test).call_mutex();
    REQUIRE(calls != nullptr);
    std::promise<void> locked, done;
    std::thread holder([&] {
        const std::lock_guard hold(*calls);
        locked.set_value();
        done.get_future().wait();
    });
    locked.get_future().wait();
    check_draws_share_one_pass(test);
    Com<ID3D11DeviceContext> deferred;
    CHECK(test.device->CreateDeferredContext(0, deferred.out()) == S_OK);
    done.set_value();
    holder.join();
}

TEST_CASE("Draws writing the same UAV are ordered: each waits for the one before", "[recording]") {
    TestDevice& test = *hardware_device();
    d3dcap::runtime::backend::Backend& backend = backend_of(test);
    Scene scene(test, kCountingPs);
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {0, 0, 0, 0}));
    const D3D11_VIEWPORT pixel{0, 0, 1, 1, 0, 1};
    test.context->RSSetViewports(1, &pixel);
    auto counter = test.buffer(4, D3D11_BIND_UNORDERED_ACCESS, D3D11_USAGE_DEFAULT, 0,
                               D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS);
    const auto uav = raw_uav(test, counter.get(), 1);
    ID3D11RenderTargetView* targets[] = {scene.rtv.get()};
    ID3D11UnorderedAccessView* uavs[] = {uav.get()};
    test.context->OMSetRenderTargetsAndUnorderedAccessViews(1, targets, nullptr, 1, 1, uavs,
                                                            nullptr);
    scene.draw(6);
    const RecordingCounts before = backend.recording_counts();
    for (int draw = 0; draw < 4; ++draw) scene.draw(6);
    const RecordingCounts counts = since(before, backend.recording_counts());
    // Each draw reads and writes what the one before wrote: a barrier, and
    // the render pass begun again after it.
    CHECK(counts.barriers == 4);
    CHECK(counts.render_passes == 4);
    CHECK(read_words(test, counter.get(), 4) == std::vector<std::uint32_t>{5});
    check_validation_clean();
}

TEST_CASE("Dispatches wait only for the work whose writes they read", "[recording]") {
    TestDevice& test = *hardware_device();
    d3dcap::runtime::backend::Backend& backend = backend_of(test);
    const auto shader = compute_shader(test, kAddCs);
    constexpr UINT kWords = 64;
    std::vector<std::uint32_t> input(kWords);
    for (UINT i = 0; i < kWords; ++i) input[i] = 100 * i;
    const std::uint32_t add_one[4] = {1, 0, 0, 0};
    auto cb = test.buffer(16, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DEFAULT, 0, 0, 0, add_one);
    auto raw = [&](const void* data) {
        return test.buffer(kWords * 4, D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_UNORDERED_ACCESS,
                           D3D11_USAGE_DEFAULT, 0, D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0,
                           data);
    };
    auto source = raw(input.data()), first = raw(nullptr), second = raw(nullptr),
         third = raw(nullptr);
    const auto source_srv = raw_srv(test, source.get(), kWords);
    const auto first_srv = raw_srv(test, first.get(), kWords);
    const auto first_uav = raw_uav(test, first.get(), kWords);
    const auto second_uav = raw_uav(test, second.get(), kWords);
    const auto third_uav = raw_uav(test, third.get(), kWords);
    test.context->CSSetShader(shader.get(), nullptr, 0);
    ID3D11Buffer* cbs[] = {cb.get()};
    test.context->CSSetConstantBuffers(0, 1, cbs);
    auto dispatch = [&](ID3D11ShaderResourceView* srv, ID3D11UnorderedAccessView* uav) {
        ID3D11UnorderedAccessView* null_uav = nullptr;
        test.context->CSSetUnorderedAccessViews(0, 1, &null_uav, nullptr);  // unbinds it as SRV
        test.context->CSSetShaderResources(0, 1, &srv);
        test.context->CSSetUnorderedAccessViews(0, 1, &uav, nullptr);
        test.context->Dispatch(1, 1, 1);
    };
    dispatch(source_srv.get(), first_uav.get());
    const RecordingCounts before = backend.recording_counts();
    dispatch(source_srv.get(), second_uav.get());  // touches nothing the first wrote
    const RecordingCounts independent = since(before, backend.recording_counts());
    dispatch(first_srv.get(), third_uav.get());  // reads what the first wrote
    const RecordingCounts dependent = since(before, backend.recording_counts());
    CHECK(independent.barriers == 0);
    CHECK(dependent.barriers == 1);
    std::vector<std::uint32_t> expected(kWords);
    for (UINT i = 0; i < kWords; ++i) expected[i] = 100 * i + 2;
    CHECK(read_words(test, third.get(), kWords * 4) == expected);
    check_validation_clean();
}

// A query begun between the draws counts only what follows it.
TEST_CASE("Draws inside the same queries share Vulkan queries", "[recording][query]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {0, 1, 0, 1}));
    const D3D11_QUERY_DESC occlusion{D3D11_QUERY_OCCLUSION, 0},
        statistics{D3D11_QUERY_PIPELINE_STATISTICS, 0};
    Com<ID3D11Query> first, second, counts;
    REQUIRE(test.device->CreateQuery(&occlusion, first.out()) == S_OK);
    REQUIRE(test.device->CreateQuery(&occlusion, second.out()) == S_OK);
    REQUIRE(test.device->CreateQuery(&statistics, counts.out()) == S_OK);
    test.context->Begin(first.get());
    test.context->Begin(counts.get());
    for (int draw = 0; draw < 4; ++draw) scene.draw(6);
    test.context->Begin(second.get());
    for (int draw = 0; draw < 3; ++draw) scene.draw(6);
    test.context->End(first.get());
    scene.draw(6);  // inside the second query only
    test.context->End(second.get());
    test.context->End(counts.get());
    UINT64 first_samples = 0, second_samples = 0;
    D3D11_QUERY_DATA_PIPELINE_STATISTICS counted{};
    while (test.context->GetData(first.get(), &first_samples, sizeof first_samples, 0) == S_FALSE) {
    }
    while (test.context->GetData(second.get(), &second_samples, sizeof second_samples, 0) ==
           S_FALSE) {
    }
    while (test.context->GetData(counts.get(), &counted, sizeof counted, 0) == S_FALSE) {
    }
    // Each draw covers the 16 texels of the 4x4 target with two triangles.
    CHECK(first_samples == 7 * 16);
    CHECK(second_samples == 4 * 16);
    CHECK(counted.IAPrimitives == 8 * 2);
    CHECK(counted.PSInvocations >= 8 * 16);
    check_validation_clean();
}

// The runtime gathers only the state that changed since the last draw:
// each kind of change between draws must reach the next one.
TEST_CASE("Every state change between draws reaches the next draw", "[recording]") {
    TestDevice& test = *hardware_device();
    Scene scene(test, kConstantPs);
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {0, 0, 0, 0}));
    // Windows of 16 constants: red, green, blue.
    std::vector<float> constants(3 * 64, 0.0f);
    for (int w = 0; w < 3; ++w) constants[w * 64 + w] = constants[w * 64 + 3] = 1.0f;
    auto cb = test.buffer(static_cast<UINT>(constants.size() * 4), D3D11_BIND_CONSTANT_BUFFER,
                          D3D11_USAGE_DEFAULT, 0, 0, 0, constants.data());
    ID3D11Buffer* buffers[] = {cb.get()};
    auto window = [&](UINT w) {
        const UINT first = w * 16, count = 16;
        test.context->PSSetConstantBuffers1(0, 1, buffers, &first, &count);
    };
    auto viewport = [&](float left, float width) {
        const D3D11_VIEWPORT v{left, 0, width, 4, 0, 1};
        test.context->RSSetViewports(1, &v);
    };
    const std::uint32_t red = rgba(255, 0, 0, 255), green = rgba(0, 255, 0, 255),
                        magenta = rgba(255, 0, 255, 255), cyan = rgba(0, 255, 255, 255);
    window(0), viewport(0, 2), scene.draw(6);  // left half red
    window(1), viewport(2, 2), scene.draw(6);  // right half green
    std::vector<std::uint32_t> halves(16);
    for (int i = 0; i < 16; ++i) halves[i] = i % 4 < 2 ? red : green;
    CHECK(scene.texels() == halves);

    const auto additive = additive_blend(test);
    test.context->OMSetBlendState(additive.get(), nullptr, ~0u);
    window(2), viewport(0, 4), scene.draw(6);  // blue added everywhere
    for (int i = 0; i < 16; ++i) halves[i] = i % 4 < 2 ? magenta : cyan;
    CHECK(scene.texels() == halves);

    // Another target, opaque again: the first keeps what it has.
    auto other = test.texture2d(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_RENDER_TARGET);
    Com<ID3D11RenderTargetView> other_view;
    REQUIRE(test.device->CreateRenderTargetView(other.get(), nullptr, other_view.out()) == S_OK);
    ID3D11RenderTargetView* targets[] = {other_view.get()};
    test.context->OMSetRenderTargets(1, targets, nullptr);
    test.context->OMSetBlendState(nullptr, nullptr, ~0u);
    window(1), scene.draw(6);
    CHECK(texels_4x4(test, other.get(), DXGI_FORMAT_R8G8B8A8_UNORM) ==
          std::vector<std::uint32_t>(16, green));
    CHECK(scene.texels() == halves);
    check_validation_clean();
}

// The device keeps what a draw resolved for the next one where no state
// changed; buffers written between them must still be read anew.
TEST_CASE("Buffers written between two draws with the same state are read anew", "[recording]") {
    TestDevice& test = *hardware_device();
    Scene scene(test, kConstantPs);
    const std::vector<Vertex> whole = quad(-1, -1, 1, 1, 0.5f, {0, 0, 0, 0});
    const std::vector<Vertex> left = quad(-1, -1, 0, 1, 0.5f, {0, 0, 0, 0});
    auto vb =
        test.buffer(static_cast<UINT>(whole.size() * sizeof(Vertex)), D3D11_BIND_VERTEX_BUFFER,
                    D3D11_USAGE_DYNAMIC, D3D11_CPU_ACCESS_WRITE, 0, 0, whole.data());
    ID3D11Buffer* vbs[] = {vb.get()};
    const UINT stride = sizeof(Vertex), offset = 0;
    test.context->IASetVertexBuffers(0, 1, vbs, &stride, &offset);
    const float red[4] = {1, 0, 0, 1};
    auto cb = test.buffer(16, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DYNAMIC,
                          D3D11_CPU_ACCESS_WRITE, 0, 0, red);
    ID3D11Buffer* cbs[] = {cb.get()};
    test.context->PSSetConstantBuffers(0, 1, cbs);
    auto write = [&](ID3D11Buffer* buffer, const void* data, std::size_t bytes) {
        D3D11_MAPPED_SUBRESOURCE mapped{};
        REQUIRE(test.context->Map(buffer, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
        std::memcpy(mapped.pData, data, bytes);
        test.context->Unmap(buffer, 0);
    };
    const std::uint32_t r = rgba(255, 0, 0, 255), g = rgba(0, 255, 0, 255),
                        b = rgba(0, 0, 255, 255);

    SECTION("Map WRITE_DISCARD of the vertex and constant buffers") {
        scene.draw(6);  // red everywhere
        const float green[4] = {0, 1, 0, 1};
        write(vb.get(), left.data(), left.size() * sizeof(Vertex));
        write(cb.get(), green, sizeof green);
        scene.draw(6);  // green on the left half
        std::vector<std::uint32_t> expected(16);
        for (int i = 0; i < 16; ++i) expected[i] = i % 4 < 2 ? g : r;
        CHECK(scene.texels() == expected);
    }
    SECTION("UpdateSubresource of a default constant buffer") {
        auto updated =
            test.buffer(16, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DEFAULT, 0, 0, 0, red);
        ID3D11Buffer* updated_cbs[] = {updated.get()};
        test.context->PSSetConstantBuffers(0, 1, updated_cbs);
        scene.draw(6);
        const float blue[4] = {0, 0, 1, 1};
        test.context->UpdateSubresource(updated.get(), 0, nullptr, blue, 0, 0);
        scene.draw(6);
        CHECK(scene.texels() == std::vector<std::uint32_t>(16, b));
    }
    check_validation_clean();
}

TEST_CASE("Writing a buffer no draw reads adds no barrier for the draws", "[recording]") {
    TestDevice& test = *hardware_device();
    d3dcap::runtime::backend::Backend& backend = backend_of(test);
    Scene scene(test, kConstantPs);
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {0, 0, 0, 0}));
    const float green[4] = {0, 1, 0, 1}, red[4] = {1, 0, 0, 1};
    auto cb = test.buffer(16, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DEFAULT, 0, 0, 0, green);
    auto other = test.buffer(16, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DEFAULT, 0, 0, 0, green);
    auto source = test.buffer(16, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DEFAULT, 0, 0, 0, red);
    ID3D11Buffer* cbs[] = {cb.get()};
    test.context->PSSetConstantBuffers(0, 1, cbs);
    scene.draw(6);
    const RecordingCounts before = backend.recording_counts();
    SECTION("UpdateSubresource") {
        test.context->UpdateSubresource(other.get(), 0, nullptr, red, 0, 0);
    }
    SECTION("CopyResource") {
        test.context->CopyResource(other.get(), source.get());
    }
    scene.draw(6);
    const RecordingCounts counts = since(before, backend.recording_counts());
    // The copy ends the render pass (Vulkan copies outside one); the next
    // pass waits for the one before on the target it writes, and for
    // nothing else.
    CHECK(counts.render_passes == 1);
    CHECK(counts.barriers == 1);
    CHECK(scene.texels() == std::vector<std::uint32_t>(16, rgba(0, 255, 0, 255)));
    check_validation_clean();
}

// Each draw adds its texture's only texel into one quadrant; between draws
// one part of the state changes, and the draw after must see it.
TEST_CASE("Views or vertex buffers or the rasterizer changed between draws reach the next draw",
          "[recording]") {
    constexpr const char* kLoadPs = R"(ps_5_0
.input SV_Position0 v0.xyzw float
.input COLOR0 v1.xyzw float
.output SV_Target0 o0.xyzw float
dcl_resource_texture2d (float,float,float,float) t0
dcl_output o0.xyzw
ld_indexable(texture2d)(float,float,float,float) o0.xyzw, l(0, 0, 0, 0), t0.xyzw
ret
)";
    TestDevice& test = *hardware_device();
    Scene scene(test, kLoadPs);
    const auto vb = quadrants(test);
    auto at = [&](Quadrant q) {
        ID3D11Buffer* buffers[] = {vb.get()};
        const UINT stride = sizeof(Vertex), offset = q * 6 * sizeof(Vertex);
        test.context->IASetVertexBuffers(0, 1, buffers, &stride, &offset);
    };
    auto texel = [&](std::uint32_t value) {
        const D3D11_TEXTURE2D_DESC desc{1,
                                        1,
                                        1,
                                        1,
                                        DXGI_FORMAT_R8G8B8A8_UNORM,
                                        {1, 0},
                                        D3D11_USAGE_DEFAULT,
                                        D3D11_BIND_SHADER_RESOURCE,
                                        0,
                                        0};
        const D3D11_SUBRESOURCE_DATA initial{&value, 4, 0};
        Com<ID3D11Texture2D> texture;
        REQUIRE(test.device->CreateTexture2D(&desc, &initial, texture.out()) == S_OK);
        Com<ID3D11ShaderResourceView> view;
        REQUIRE(test.device->CreateShaderResourceView(texture.get(), nullptr, view.out()) == S_OK);
        return view;
    };
    const auto red = texel(rgba(64, 0, 0, 255)), green = texel(rgba(0, 64, 0, 255));
    auto bind = [&](ID3D11ShaderResourceView* view) {
        test.context->PSSetShaderResources(0, 1, &view);
    };
    const auto additive = additive_blend(test);
    test.context->OMSetBlendState(additive.get(), nullptr, ~0u);

    at(kTopLeft), bind(red.get()), scene.draw(6);
    at(kTopRight), scene.draw(6);      // the vertex buffer's offset only
    bind(green.get()), scene.draw(6);  // the view only
    at(kBottomLeft), scene.draw(6);
    // Culling the quads' front faces: nothing in the last quadrant.
    const auto cull_front = scene.rasterizer(D3D11_CULL_FRONT, FALSE, FALSE);
    at(kBottomRight), scene.draw(6);

    CHECK(scene.texels() == quarters(rgba(64, 0, 0, 255), rgba(64, 64, 0, 255), rgba(0, 64, 0, 255),
                                     rgba(0, 0, 0, 255)));
    check_validation_clean();
}

TEST_CASE("A constant-buffer window moved to another buffer or resized between draws is read there",
          "[recording]") {
    TestDevice& test = *hardware_device();
    d3dcap::runtime::backend::Backend& backend = backend_of(test);
    Scene scene(test, kConstantPs);
    const auto vb = bound_quadrants(test);
    // Windows of 16 constants: `two`'s first red, its second green; `one`'s blue.
    std::vector<float> two(2 * 64, 0.0f), one(64, 0.0f);
    two[0] = two[3] = 1.0f, two[64 + 1] = two[64 + 3] = 1.0f;
    one[2] = one[3] = 1.0f;
    const auto in_two =
        test.buffer(512, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DEFAULT, 0, 0, 0, two.data());
    const auto in_one =
        test.buffer(256, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DEFAULT, 0, 0, 0, one.data());
    auto window = [&](ID3D11Buffer* buffer, UINT first, UINT count) {
        test.context->PSSetConstantBuffers1(0, 1, &buffer, &first, &count);
    };
    // Both buffers read once first: their uploads are waited for there.
    window(in_one.get(), 0, 16), test.context->Draw(6, kBottomLeft * 6);
    window(in_two.get(), 0, 16), test.context->Draw(6, kTopLeft * 6);
    const RecordingCounts before = backend.recording_counts();
    window(in_two.get(), 16, 16), test.context->Draw(6, kTopRight * 6);    // moved in its buffer
    window(in_one.get(), 0, 16), test.context->Draw(6, kBottomLeft * 6);   // another buffer
    window(in_two.get(), 0, 32), test.context->Draw(6, kBottomRight * 6);  // twice the size
    CHECK(since(before, backend.recording_counts()).render_passes == 0);
    CHECK(scene.texels() == quarters(rgba(255, 0, 0, 255), rgba(0, 255, 0, 255),
                                     rgba(0, 0, 255, 255), rgba(255, 0, 0, 255)));
    check_validation_clean();
}

TEST_CASE("A constant buffer set alone between draws leaves the stage's other slots bound",
          "[recording]") {
    // o0 = cb0[0] + cb1[0].
    constexpr const char* kTwoBuffersPs = R"(ps_5_0
.input SV_Position0 v0.xyzw float
.input COLOR0 v1.xyzw float
.output SV_Target0 o0.xyzw float
dcl_constantbuffer cb0[1], immediateIndexed
dcl_constantbuffer cb1[1], immediateIndexed
dcl_output o0.xyzw
add o0.xyzw, cb0[0].xyzw, cb1[0].xyzw
ret
)";
    TestDevice& test = *hardware_device();
    Scene scene(test, kTwoBuffersPs);
    const auto vb = bound_quadrants(test);
    auto constants = [&](std::array<float, 4> value) {
        std::vector<float> window(64, 0.0f);
        std::copy(value.begin(), value.end(), window.begin());
        return test.buffer(256, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DEFAULT, 0, 0, 0,
                           window.data());
    };
    const auto red = constants({1, 0, 0, 1}), green = constants({0, 1, 0, 0}),
               blue = constants({0, 0, 1, 0});
    auto set = [&](UINT slot, ID3D11Buffer* buffer) {
        test.context->PSSetConstantBuffers(slot, 1, &buffer);
    };
    set(0, red.get()), set(1, green.get()), test.context->Draw(6, kTopLeft * 6);
    set(1, blue.get()), test.context->Draw(6, kTopRight * 6);     // slot 1 alone
    set(0, green.get()), test.context->Draw(6, kBottomLeft * 6);  // slot 0 alone
    set(2, red.get()), test.context->Draw(6, kBottomRight * 6);   // a slot it does not read
    CHECK(scene.texels() == quarters(rgba(255, 255, 0, 255), rgba(255, 0, 255, 255),
                                     rgba(0, 255, 255, 0), rgba(0, 255, 255, 0)));
    check_validation_clean();
}

TEST_CASE("Draws between WRITE_DISCARDs of one constant buffer each read what was written for them",
          "[recording]") {
    TestDevice& test = *hardware_device();
    d3dcap::runtime::backend::Backend& backend = backend_of(test);
    Scene scene(test, kConstantPs);
    const auto vb = bound_quadrants(test);
    const auto additive = additive_blend(test);
    test.context->OMSetBlendState(additive.get(), nullptr, ~0u);
    const auto constants =
        test.buffer(16, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DYNAMIC, D3D11_CPU_ACCESS_WRITE);
    ID3D11Buffer* bound = constants.get();
    test.context->PSSetConstantBuffers(0, 1, &bound);
    // Draw i adds (i + 1) / 255 to the red of quadrant i % 4, in one render
    // pass with nothing waited for: 32 versions of the buffer in flight.
    const RecordingCounts before = backend.recording_counts();
    for (int i = 0; i < 32; ++i) {
        D3D11_MAPPED_SUBRESOURCE mapped{};
        REQUIRE(test.context->Map(bound, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
        const float red[4] = {(i + 1) / 255.0f, 0, 0, 1};
        std::memcpy(mapped.pData, red, sizeof red);
        test.context->Unmap(bound, 0);
        test.context->Draw(6, (i % 4) * 6);
    }
    CHECK(since(before, backend.recording_counts()).render_passes == 1);
    // 1 + 5 + ... + 29, 2 + 6 + ... + 30, and so on.
    CHECK(scene.texels() == quarters(rgba(120, 0, 0, 255), rgba(128, 0, 0, 255),
                                     rgba(136, 0, 0, 255), rgba(144, 0, 0, 255)));
    // A copy reads the last version.
    const auto staging = test.buffer(16, 0, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ);
    test.context->CopyResource(staging.get(), bound);
    D3D11_MAPPED_SUBRESOURCE read{};
    REQUIRE(test.context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &read) == S_OK);
    float last[4] = {};
    std::memcpy(last, read.pData, sizeof last);
    test.context->Unmap(staging.get(), 0);
    CHECK(last[0] == 32 / 255.0f);
    check_validation_clean();
}

TEST_CASE("Draws between WRITE_DISCARDs of vertex and index buffers each read what was written",
          "[recording]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    const auto additive = additive_blend(test);
    test.context->OMSetBlendState(additive.get(), nullptr, ~0u);
    const auto vb = test.buffer(12 * sizeof(Vertex), D3D11_BIND_VERTEX_BUFFER, D3D11_USAGE_DYNAMIC,
                                D3D11_CPU_ACCESS_WRITE);
    const auto ib = test.buffer(6 * sizeof(std::uint16_t), D3D11_BIND_INDEX_BUFFER,
                                D3D11_USAGE_DYNAMIC, D3D11_CPU_ACCESS_WRITE);
    ID3D11Buffer* vertices = vb.get();
    const UINT stride = sizeof(Vertex), offset = 0;
    test.context->IASetVertexBuffers(0, 1, &vertices, &stride, &offset);
    test.context->IASetIndexBuffer(ib.get(), DXGI_FORMAT_R16_UINT, 0);
    const std::pair<float, float> corners[] = {{-1, 0}, {0, 0}, {-1, -1}, {0, -1}};
    auto write = [&](ID3D11Buffer* buffer, const void* bytes, std::size_t size) {
        D3D11_MAPPED_SUBRESOURCE mapped{};
        REQUIRE(test.context->Map(buffer, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
        std::memcpy(mapped.pData, bytes, size);
        test.context->Unmap(buffer, 0);
    };
    // Draw i: vertices of two quarters in its colour (even draws red, odd
    // green, 8 (i + 1) / 255), and indices naming the first or the second.
    for (int i = 0; i < 8; ++i) {
        const float level = 8.0f * (i + 1) / 255;
        const std::array<float, 4> colour =
            i % 2 ? std::array<float, 4>{0, level, 0, 1} : std::array<float, 4>{level, 0, 0, 1};
        std::vector<Vertex> two;
        for (int q : {i / 2 % 4, (i / 2 + 2) % 4}) {
            const auto [x0, y0] = corners[q];
            const auto one = quad(x0, y0, x0 + 1, y0 + 1, 0.5f, colour);
            two.insert(two.end(), one.begin(), one.end());
        }
        write(vertices, two.data(), two.size() * sizeof(Vertex));
        std::uint16_t indices[6];
        for (std::uint16_t k = 0; k < 6; ++k)
            indices[k] = static_cast<std::uint16_t>(k + (i % 2) * 6);
        write(ib.get(), indices, sizeof indices);
        test.context->DrawIndexed(6, 0, 0);
    }
    // Top left: red of draw 0 and green of draw 5; top right: 2 and 7;
    // bottom left: 4 and 1; bottom right: 6 and 3.
    CHECK(scene.texels() == quarters(rgba(8, 48, 0, 255), rgba(24, 64, 0, 255),
                                     rgba(40, 16, 0, 255), rgba(56, 32, 0, 255)));
    check_validation_clean();
}
