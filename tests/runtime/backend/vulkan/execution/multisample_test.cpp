// MSAA on the Vulkan device: a draw covers the samples of an edge pixel
// that lie inside it (D3D11's standard 4x pattern), each sample is read back
// in the canonical layout (each texel's samples in order), clears reach
// every sample, ResolveSubresource averages them, and a compute shader reads
// one sample of a Texture2DMS view.
#include "draw_support.h"

using namespace execution_tests;

namespace {

constexpr UINT kSamples = 4;

// The samples of texel row `y` of a 4x4 R32_FLOAT 4x texture, as the
// device keeps them.
std::vector<float> samples_of_row(TestDevice& test, ID3D11Texture2D* texture, UINT y) {
    (void)test;
    std::vector<std::uint8_t> bytes;
    REQUIRE(d3dcap::runtime::resource_contents(texture, 0, bytes));
    REQUIRE(bytes.size() == 4 * 4 * kSamples * 4);
    std::vector<float> row(4 * kSamples);
    std::memcpy(row.data(), bytes.data() + y * 4 * kSamples * 4, row.size() * 4);
    return row;
}

}  // namespace

TEST_CASE("A 4x MSAA target keeps each sample a draw covers, and resolves to their mean",
          "[draw][msaa]") {
    TestDevice& test = *hardware_device();
    UINT levels = 0;
    REQUIRE(test.device->CheckMultisampleQualityLevels(DXGI_FORMAT_R32_FLOAT, kSamples, &levels) ==
            S_OK);
    REQUIRE(levels > 0);
    // The colour shaders write red into an R32_FLOAT target: 1 where covered.
    Scene scene(test);
    auto target = test.texture2d(4, 4, DXGI_FORMAT_R32_FLOAT,
                                 D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE, 1, 1,
                                 D3D11_USAGE_DEFAULT, 0, 0, kSamples);
    Com<ID3D11RenderTargetView> rtv;
    REQUIRE(test.device->CreateRenderTargetView(target.get(), nullptr, rtv.out()) == S_OK);
    const float quarter[4] = {0.25f, 0, 0, 0};
    test.context->ClearRenderTargetView(rtv.get(), quarter);
    CHECK(samples_of_row(test, target.get(), 3) == std::vector<float>(16, 0.25f));

    // A quad from the left edge to x = 1.5 pixels: column 1's samples at x
    // offsets 6/16 and 2/16 left of its centre... the standard pattern puts
    // samples 0 and 2 left of x = 1.5, samples 1 and 3 right of it.
    ID3D11RenderTargetView* targets[] = {rtv.get()};
    test.context->OMSetRenderTargets(1, targets, nullptr);
    const auto vb = scene.vertices(quad(-1, -1, -0.25f, 1, 0.5f, {1, 0, 0, 1}));
    scene.draw(6);
    const float q = 0.25f;
    CHECK(samples_of_row(test, target.get(), 2) ==
          std::vector<float>{1, 1, 1, 1, 1, q, 1, q, q, q, q, q, q, q, q, q});

    auto resolved = test.texture2d(4, 4, DXGI_FORMAT_R32_FLOAT, 0);
    test.context->ResolveSubresource(resolved.get(), 0, target.get(), 0, DXGI_FORMAT_R32_FLOAT);
    auto staging = test.texture2d(4, 4, DXGI_FORMAT_R32_FLOAT, 0, 1, 1, D3D11_USAGE_STAGING,
                                  D3D11_CPU_ACCESS_READ);
    test.context->CopyResource(staging.get(), resolved.get());
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(test.context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    float row[4];
    std::memcpy(row, static_cast<const std::uint8_t*>(mapped.pData) + mapped.RowPitch, 16);
    test.context->Unmap(staging.get(), 0);
    CHECK(std::vector<float>(row, row + 4) == std::vector<float>{1, 0.625f, q, q});

    // Sample 1 of texel (1, 0) through a Texture2DMS view: not covered.
    Com<ID3D11ShaderResourceView> view;
    REQUIRE(test.device->CreateShaderResourceView(target.get(), nullptr, view.out()) == S_OK);
    const auto shader = compute_shader(test, R"(cs_5_0
dcl_resource_texture2dms(4) (float,float,float,float) t0
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 1, 1, 1
ld2dms_indexable(texture2dms)(float,float,float,float) r0.x, l(1, 0, 0, 0), t0.xyzw, l(1)
ld2dms_indexable(texture2dms)(float,float,float,float) r0.y, l(1, 0, 0, 0), t0.yxzw, l(2)
store_raw u0.xy, l(0), r0.xyxx
ret
)");
    auto out = test.buffer(8, D3D11_BIND_UNORDERED_ACCESS, D3D11_USAGE_DEFAULT, 0,
                           D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS);
    const auto uav = raw_uav(test, out.get(), 2);
    test.context->CSSetShader(shader.get(), nullptr, 0);
    ID3D11ShaderResourceView* views[] = {view.get()};
    test.context->CSSetShaderResources(0, 1, views);
    ID3D11UnorderedAccessView* uavs[] = {uav.get()};
    test.context->CSSetUnorderedAccessViews(0, 1, uavs, nullptr);
    test.clear_messages();
    test.context->Dispatch(1, 1, 1);
    INFO(test.last_message());
    CHECK(test.messages().empty());
    const auto words = read_words(test, out.get(), 8);
    CHECK(as_float(words[0]) == q);
    CHECK(as_float(words[1]) == 1.0f);
    check_validation_clean();
}

TEST_CASE("A 4x MSAA depth buffer tests each sample, and its samples read back exactly",
          "[draw][msaa][depth]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    auto target = test.texture2d(4, 4, DXGI_FORMAT_R32_FLOAT, D3D11_BIND_RENDER_TARGET, 1, 1,
                                 D3D11_USAGE_DEFAULT, 0, 0, kSamples);
    auto depth = test.texture2d(4, 4, DXGI_FORMAT_D32_FLOAT, D3D11_BIND_DEPTH_STENCIL, 1, 1,
                                D3D11_USAGE_DEFAULT, 0, 0, kSamples);
    Com<ID3D11RenderTargetView> rtv;
    Com<ID3D11DepthStencilView> dsv;
    REQUIRE(test.device->CreateRenderTargetView(target.get(), nullptr, rtv.out()) == S_OK);
    REQUIRE(test.device->CreateDepthStencilView(depth.get(), nullptr, dsv.out()) == S_OK);
    test.context->ClearDepthStencilView(dsv.get(), D3D11_CLEAR_DEPTH, 1.0f, 0);
    ID3D11RenderTargetView* targets[] = {rtv.get()};
    test.context->OMSetRenderTargets(1, targets, dsv.get());
    // Near (1.0 at depth 0.25) up to x = 1.5 pixels, then far (0.5 at
    // depth 0.75) over everything: the far quad shows where the near one
    // left samples uncovered.
    auto vertices = quad(-1, -1, -0.25f, 1, 0.25f, {1, 0, 0, 1});
    const auto far = quad(-1, -1, 1, 1, 0.75f, {0.5f, 0, 0, 1});
    vertices.insert(vertices.end(), far.begin(), far.end());
    const auto vb = scene.vertices(vertices);
    scene.draw(12);
    const float h = 0.5f;
    CHECK(samples_of_row(test, target.get(), 1) ==
          std::vector<float>{1, 1, 1, 1, 1, h, 1, h, h, h, h, h, h, h, h, h});
    const float n = 0.25f, f = 0.75f;
    CHECK(samples_of_row(test, depth.get(), 1) ==
          std::vector<float>{n, n, n, n, n, f, n, f, f, f, f, f, f, f, f, f});

    // D24S8: a stencil clear reaches every sample (depth 1.0 is 0xffffff).
    auto stencil = test.texture2d(4, 4, DXGI_FORMAT_D24_UNORM_S8_UINT, D3D11_BIND_DEPTH_STENCIL, 1,
                                  1, D3D11_USAGE_DEFAULT, 0, 0, kSamples);
    Com<ID3D11DepthStencilView> stencil_view;
    REQUIRE(test.device->CreateDepthStencilView(stencil.get(), nullptr, stencil_view.out()) ==
            S_OK);
    test.context->ClearDepthStencilView(stencil_view.get(), D3D11_CLEAR_DEPTH | D3D11_CLEAR_STENCIL,
                                        1.0f, 5);
    std::vector<std::uint8_t> bytes;
    REQUIRE(d3dcap::runtime::resource_contents(stencil.get(), 0, bytes));
    std::vector<std::uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    CHECK(words == std::vector<std::uint32_t>(4 * 4 * kSamples, 0x05ffffffu));
    check_validation_clean();
}

TEST_CASE("2-byte texels: a 4x R16_FLOAT target and a 4x D16 depth buffer keep every sample",
          "[draw][msaa]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    auto target = test.texture2d(4, 4, DXGI_FORMAT_R16_FLOAT, D3D11_BIND_RENDER_TARGET, 1, 1,
                                 D3D11_USAGE_DEFAULT, 0, 0, kSamples);
    auto depth = test.texture2d(4, 4, DXGI_FORMAT_D16_UNORM, D3D11_BIND_DEPTH_STENCIL, 1, 1,
                                D3D11_USAGE_DEFAULT, 0, 0, kSamples);
    Com<ID3D11RenderTargetView> rtv;
    Com<ID3D11DepthStencilView> dsv;
    REQUIRE(test.device->CreateRenderTargetView(target.get(), nullptr, rtv.out()) == S_OK);
    REQUIRE(test.device->CreateDepthStencilView(depth.get(), nullptr, dsv.out()) == S_OK);
    const float quarter[4] = {0.25f, 0, 0, 0};
    test.context->ClearRenderTargetView(rtv.get(), quarter);
    test.context->ClearDepthStencilView(dsv.get(), D3D11_CLEAR_DEPTH, 1.0f, 0);
    ID3D11RenderTargetView* targets[] = {rtv.get()};
    test.context->OMSetRenderTargets(1, targets, dsv.get());
    const auto vb = scene.vertices(quad(-1, -1, -0.25f, 1, 0.25f, {1, 0, 0, 1}));
    scene.draw(6);
    // Row 0's samples: half floats 1.0 (0x3c00) where covered, 0.25
    // (0x3400) elsewhere; depth 0.25 is 16384 of 65535, 1.0 is 0xffff.
    auto row_of = [](ID3D11Texture2D* texture) {
        std::vector<std::uint8_t> bytes;
        REQUIRE(d3dcap::runtime::resource_contents(texture, 0, bytes));
        REQUIRE(bytes.size() == 4 * 4 * kSamples * 2);
        std::vector<std::uint16_t> row(4 * kSamples);
        std::memcpy(row.data(), bytes.data(), row.size() * 2);
        return row;
    };
    const std::uint16_t one = 0x3c00, q = 0x3400, near = 0x4000, far = 0xffff;
    CHECK(row_of(target.get()) ==
          std::vector<std::uint16_t>{one, one, one, one, one, q, one, q, q, q, q, q, q, q, q, q});
    CHECK(row_of(depth.get()) == std::vector<std::uint16_t>{near, near, near, near, near, far, near,
                                                            far, far, far, far, far, far, far, far,
                                                            far});
    check_validation_clean();
}

TEST_CASE("1-byte texels: 4x and 2x R8_UNORM targets keep every sample", "[draw][msaa]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    const auto vb = scene.vertices(quad(-1, -1, -0.25f, 1, 0.25f, {1, 0, 0, 1}));
    // Row 0's samples after clearing to 0.25 (64) and drawing 1.0 (255) over
    // the left 1.5 texels, at D3D11's standard sample positions.
    auto row_after_draw = [&](UINT samples) {
        auto target = test.texture2d(4, 4, DXGI_FORMAT_R8_UNORM, D3D11_BIND_RENDER_TARGET, 1, 1,
                                     D3D11_USAGE_DEFAULT, 0, 0, samples);
        Com<ID3D11RenderTargetView> rtv;
        REQUIRE(test.device->CreateRenderTargetView(target.get(), nullptr, rtv.out()) == S_OK);
        const float quarter[4] = {0.25f, 0, 0, 0};
        test.context->ClearRenderTargetView(rtv.get(), quarter);
        ID3D11RenderTargetView* targets[] = {rtv.get()};
        test.context->OMSetRenderTargets(1, targets, nullptr);
        scene.draw(6);
        // ClearView of the last texel: its samples read, replaced and written back.
        const float half[4] = {0.5f, 0, 0, 0};
        const D3D11_RECT last{3, 0, 4, 1};
        test.context->ClearView(rtv.get(), half, &last, 1);
        std::vector<std::uint8_t> bytes;
        REQUIRE(d3dcap::runtime::resource_contents(target.get(), 0, bytes));
        REQUIRE(bytes.size() == 4 * 4 * samples);
        return std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + 4 * samples);
    };
    const std::uint8_t one = 255, q = 64, h = 128;
    CHECK(row_after_draw(4) ==
          std::vector<std::uint8_t>{one, one, one, one, one, q, one, q, q, q, q, q, h, h, h, h});
    UINT levels = 0;
    REQUIRE(test.device->CheckMultisampleQualityLevels(DXGI_FORMAT_R8_UNORM, 2, &levels) == S_OK);
    if (levels > 0)  // two texels to a word: the samples are OR-ed into it
        CHECK(row_after_draw(2) == std::vector<std::uint8_t>{one, one, q, one, q, q, h, h});
    check_validation_clean();
}

TEST_CASE("CheckMultisampleQualityLevels says 0 where the device cannot draw the samples",
          "[msaa]") {
    TestDevice& test = *hardware_device();
    UINT levels = 99;
    REQUIRE(test.device->CheckMultisampleQualityLevels(DXGI_FORMAT_R8G8B8A8_UNORM, 4, &levels) ==
            S_OK);
    CHECK(levels == 1);
    REQUIRE(test.device->CheckMultisampleQualityLevels(DXGI_FORMAT_R8_UNORM, 4, &levels) == S_OK);
    CHECK(levels == 1);
    // 12-byte texels: no MSAA.
    REQUIRE(test.device->CheckMultisampleQualityLevels(DXGI_FORMAT_R32G32B32_FLOAT, 4, &levels) ==
            S_OK);
    CHECK(levels == 0);
    REQUIRE(test.device->CheckMultisampleQualityLevels(DXGI_FORMAT_R32G32B32_FLOAT, 1, &levels) ==
            S_OK);
    CHECK(levels == 1);
}

TEST_CASE("samplepos and sampleinfo read the rasterizer's and a view's standard 4x pattern",
          "[draw][msaa]") {
    TestDevice& test = *hardware_device();
    // D3D11's standard 4x pattern in 1/16 pixel from the centre: (-2, -6),
    // (6, -2), (-6, 2), (2, 6); an index past the count reads zeros. The
    // shader carries the DWORD that Microsoft's assembler writes after
    // samplepos' operands.
    constexpr const char* kSamplePs = R"(ps_4_1
.input SV_Position0 v0.xyzw float
.input COLOR0 v1.xyzw float
.output SV_Target0 o0.xyzw float
dcl_resource_texture2dms(4) (float,float,float,float) t0
dcl_output o0.xyzw
dcl_temps 3
samplepos r0.xy, rasterizer.xyxx, l(1)
.dwords 0
sampleinfo r1.x, rasterizer.x
sampleinfo_uint r1.y, t0.x
samplepos r2.xy, t0.xyxx, l(3)
samplepos r2.zw, rasterizer.xxxy, l(4)
add r1.w, r2.z, r2.w
utof r1.y, r1.y
mov o0.xy, r0.xyxx
add o0.z, r1.x, r1.y
mad o0.w, r2.x, r2.y, r1.w
ret
)";
    Scene scene(test, kSamplePs);
    UINT levels = 0;
    REQUIRE(test.device->CheckMultisampleQualityLevels(DXGI_FORMAT_R32G32B32A32_FLOAT, kSamples,
                                                       &levels) == S_OK);
    REQUIRE(levels > 0);
    auto target = test.texture2d(4, 4, DXGI_FORMAT_R32G32B32A32_FLOAT, D3D11_BIND_RENDER_TARGET, 1,
                                 1, D3D11_USAGE_DEFAULT, 0, 0, kSamples);
    auto source = test.texture2d(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE, 1, 1,
                                 D3D11_USAGE_DEFAULT, 0, 0, kSamples);
    Com<ID3D11RenderTargetView> rtv;
    Com<ID3D11ShaderResourceView> view;
    REQUIRE(test.device->CreateRenderTargetView(target.get(), nullptr, rtv.out()) == S_OK);
    REQUIRE(test.device->CreateShaderResourceView(source.get(), nullptr, view.out()) == S_OK);
    ID3D11RenderTargetView* targets[] = {rtv.get()};
    test.context->OMSetRenderTargets(1, targets, nullptr);
    ID3D11ShaderResourceView* views[] = {view.get()};
    test.context->PSSetShaderResources(0, 1, views);
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {1, 0, 0, 1}));
    scene.draw(6);
    std::vector<std::uint8_t> bytes;
    REQUIRE(d3dcap::runtime::resource_contents(target.get(), 0, bytes));
    REQUIRE(bytes.size() == 4 * 4 * kSamples * 16);
    // Every sample of texel (2, 1): sample 1 of the rasterizer, 4 + 4
    // samples, sample 3 of the view (0.125 * 0.375) plus the zeros of index 4.
    std::array<float, 4> texel{};
    for (UINT sample = 0; sample < kSamples; ++sample) {
        std::memcpy(texel.data(), bytes.data() + ((1 * 4 + 2) * kSamples + sample) * 16, 16);
        CHECK(texel == std::array<float, 4>{0.375f, -0.125f, 8.0f, 0.046875f});
    }
    check_validation_clean();
}
