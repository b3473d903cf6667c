// Draws into what is not a plain 2D colour target: one W slice of a 3D
// texture, and the stencil test (a mask drawn, then drawn through), with
// expected texels computed here.
#include "draw_support.h"

using namespace execution_tests;

namespace {

Com<ID3D11DepthStencilState> depth_stencil_state(TestDevice& test, D3D11_COMPARISON_FUNC function,
                                                 D3D11_STENCIL_OP pass) {
    D3D11_DEPTH_STENCIL_DESC desc{};
    desc.DepthEnable = FALSE;
    desc.DepthWriteMask = D3D11_DEPTH_WRITE_MASK_ZERO;
    desc.DepthFunc = D3D11_COMPARISON_ALWAYS;
    desc.StencilEnable = TRUE;
    desc.StencilReadMask = 0xff;
    desc.StencilWriteMask = 0xff;
    desc.FrontFace = {D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP, pass, function};
    desc.BackFace = desc.FrontFace;
    Com<ID3D11DepthStencilState> state;
    REQUIRE(test.device->CreateDepthStencilState(&desc, state.out()) == S_OK);
    return state;
}

}  // namespace

TEST_CASE("A render-target view of one W slice of a 3D texture draws into that slice only",
          "[draw][texture3d]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    D3D11_TEXTURE3D_DESC desc{
        4, 4, 4, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET,
        0, 0};
    Com<ID3D11Texture3D> volume;
    REQUIRE(test.device->CreateTexture3D(&desc, nullptr, volume.out()) == S_OK);
    D3D11_RENDER_TARGET_VIEW_DESC view{};
    view.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    view.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE3D;
    view.Texture3D = {0, 2, 1};  // mip 0, W slice 2
    Com<ID3D11RenderTargetView> rtv;
    REQUIRE(test.device->CreateRenderTargetView(volume.get(), &view, rtv.out()) == S_OK);
    ID3D11RenderTargetView* targets[] = {rtv.get()};
    test.context->OMSetRenderTargets(1, targets, nullptr);
    const auto vb = scene.vertices(quad(-1, 0, 1, 1, 0.5f, {1, 0, 0, 1}));  // the top half
    scene.draw(6);

    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    Com<ID3D11Texture3D> staging;
    REQUIRE(test.device->CreateTexture3D(&desc, nullptr, staging.out()) == S_OK);
    test.context->CopyResource(staging.get(), volume.get());
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(test.context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    std::vector<std::uint32_t> slices[4];
    for (UINT z = 0; z < 4; ++z)
        for (UINT y = 0; y < 4; ++y) {
            const auto* row = static_cast<const std::uint8_t*>(mapped.pData) +
                              z * mapped.DepthPitch + y * mapped.RowPitch;
            for (UINT x = 0; x < 4; ++x) {
                std::uint32_t texel;
                std::memcpy(&texel, row + 4 * x, 4);
                slices[z].push_back(texel);
            }
        }
    test.context->Unmap(staging.get(), 0);
    const std::vector<std::uint32_t> untouched(16, 0);
    CHECK(slices[0] == untouched);
    CHECK(slices[1] == untouched);
    CHECK(slices[2] == rows(2, rgba(255, 0, 0, 255), 0));
    CHECK(slices[3] == untouched);
    check_validation_clean();
}

TEST_CASE("The stencil test: a mask drawn with REPLACE, then drawn through with EQUAL",
          "[draw][stencil]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    auto depth = test.texture2d(4, 4, DXGI_FORMAT_D24_UNORM_S8_UINT, D3D11_BIND_DEPTH_STENCIL);
    Com<ID3D11DepthStencilView> dsv;
    REQUIRE(test.device->CreateDepthStencilView(depth.get(), nullptr, dsv.out()) == S_OK);
    test.context->ClearDepthStencilView(dsv.get(), D3D11_CLEAR_DEPTH | D3D11_CLEAR_STENCIL, 1.0f,
                                        0);
    ID3D11RenderTargetView* targets[] = {scene.rtv.get()};
    test.context->OMSetRenderTargets(1, targets, dsv.get());
    // The left half writes stencil 7 (and red); green over everything
    // passes only where the stencil is 7.
    auto vertices = quad(-1, -1, 0, 1, 0.5f, {1, 0, 0, 1});
    const auto whole = quad(-1, -1, 1, 1, 0.5f, {0, 1, 0, 1});
    vertices.insert(vertices.end(), whole.begin(), whole.end());
    const auto vb = scene.vertices(vertices);
    const auto mask = depth_stencil_state(test, D3D11_COMPARISON_ALWAYS, D3D11_STENCIL_OP_REPLACE);
    test.context->OMSetDepthStencilState(mask.get(), 7);
    scene.draw(6);
    const auto through = depth_stencil_state(test, D3D11_COMPARISON_EQUAL, D3D11_STENCIL_OP_KEEP);
    test.context->OMSetDepthStencilState(through.get(), 7);
    test.context->Draw(6, 6);
    std::vector<std::uint32_t> expected;
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x)
            expected.push_back(x < 2 ? rgba(0, 255, 0, 255) : rgba(0, 0, 0, 255));
    CHECK(scene.texels() == expected);

    // The stencil plane holds 7 on the left, 0 on the right (D24S8: the
    // stencil is the top byte of each texel).
    std::vector<std::uint32_t> stencil, expected_stencil;
    for (std::uint32_t texel : texels_4x4(test, depth.get(), DXGI_FORMAT_D24_UNORM_S8_UINT))
        stencil.push_back(texel >> 24);
    for (int texel = 0; texel < 16; ++texel) expected_stencil.push_back(texel % 4 < 2 ? 7 : 0);
    CHECK(stencil == expected_stencil);
    check_validation_clean();
}

TEST_CASE("DepthBias moves a D32_FLOAT depth by that many units of its exponent", "[draw][depth]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    auto depth = test.texture2d(4, 4, DXGI_FORMAT_D32_FLOAT, D3D11_BIND_DEPTH_STENCIL);
    Com<ID3D11DepthStencilView> dsv;
    REQUIRE(test.device->CreateDepthStencilView(depth.get(), nullptr, dsv.out()) == S_OK);
    test.context->ClearDepthStencilView(dsv.get(), D3D11_CLEAR_DEPTH, 1.0f, 0);
    ID3D11RenderTargetView* targets[] = {scene.rtv.get()};
    test.context->OMSetRenderTargets(1, targets, dsv.get());
    D3D11_RASTERIZER_DESC desc{};
    desc.FillMode = D3D11_FILL_SOLID;
    desc.CullMode = D3D11_CULL_NONE;
    desc.DepthClipEnable = TRUE;
    desc.DepthBias = 1000;
    Com<ID3D11RasterizerState> rasterizer;
    REQUIRE(test.device->CreateRasterizerState(&desc, rasterizer.out()) == S_OK);
    test.context->RSSetState(rasterizer.get());
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {1, 1, 1, 1}));
    scene.draw(6);
    // A float depth's unit is 2^(e - 23) for the exponent e of the
    // primitive's largest depth: 2^-24 at 0.5.
    CHECK(as_float(texels_4x4(test, depth.get(), DXGI_FORMAT_D32_FLOAT)[0]) ==
          0.5f + 1000.0f / 16777216.0f);
    check_validation_clean();
}

TEST_CASE("DepthBias moves a UNORM depth by that many steps of the format", "[draw][depth]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    D3D11_RASTERIZER_DESC desc{};
    desc.FillMode = D3D11_FILL_SOLID;
    desc.CullMode = D3D11_CULL_NONE;
    desc.DepthClipEnable = TRUE;
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.125f, {1, 1, 1, 1}));
    // r is 1 / 2^bits: z 0.125 is 0x200000 of 24 bits (0.125 * (2^24 - 1),
    // rounded), less 10000 steps; of 16 bits, 0x2000 less 1000.
    const struct {
        DXGI_FORMAT format;
        INT bias;
        std::uint32_t mask, expected;
    } cases[] = {{DXGI_FORMAT_D24_UNORM_S8_UINT, -10000, 0xffffff, 0x200000 - 10000},
                 {DXGI_FORMAT_D16_UNORM, -1000, 0xffff, 0x2000 - 1000}};
    for (const auto& c : cases) {
        desc.DepthBias = c.bias;
        Com<ID3D11RasterizerState> state;
        REQUIRE(test.device->CreateRasterizerState(&desc, state.out()) == S_OK);
        test.context->RSSetState(state.get());
        auto depth = test.texture2d(4, 4, c.format, D3D11_BIND_DEPTH_STENCIL);
        Com<ID3D11DepthStencilView> dsv;
        REQUIRE(test.device->CreateDepthStencilView(depth.get(), nullptr, dsv.out()) == S_OK);
        test.context->ClearDepthStencilView(dsv.get(), D3D11_CLEAR_DEPTH, 1.0f, 0);
        ID3D11RenderTargetView* targets[] = {scene.rtv.get()};
        test.context->OMSetRenderTargets(1, targets, dsv.get());
        scene.draw(6);
        std::vector<std::uint8_t> bytes;
        REQUIRE(d3dcap::runtime::resource_contents(depth.get(), 0, bytes));
        std::uint32_t first = 0;
        std::memcpy(&first, bytes.data(), c.format == DXGI_FORMAT_D16_UNORM ? 2 : 4);
        INFO(static_cast<int>(c.format));
        CHECK((first & c.mask) == c.expected);
    }
    check_validation_clean();
}

TEST_CASE("SetPredication skips clears, copies and updates as it skips draws", "[draw][query]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    const auto vb = scene.vertices(quad(2, 2, 3, 3, 0.5f, {1, 1, 1, 1}));  // outside the target
    const D3D11_QUERY_DESC desc{D3D11_QUERY_OCCLUSION_PREDICATE, 0};
    Com<ID3D11Predicate> nothing;
    REQUIRE(test.device->CreatePredicate(&desc, nothing.out()) == S_OK);
    test.context->Begin(nothing.get());
    scene.draw(6);
    test.context->End(nothing.get());
    // No sample passed: predicated on FALSE, each of these is skipped.
    const std::uint32_t black = rgba(0, 0, 0, 255), red = rgba(255, 0, 0, 255);
    auto other = test.texture2d(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_RENDER_TARGET);
    Com<ID3D11RenderTargetView> other_rtv;
    REQUIRE(test.device->CreateRenderTargetView(other.get(), nullptr, other_rtv.out()) == S_OK);
    const float red_colour[4] = {1, 0, 0, 1};
    test.context->ClearRenderTargetView(other_rtv.get(), red_colour);  // before: runs
    test.context->SetPredication(nothing.get(), FALSE);
    const float white[4] = {1, 1, 1, 1};
    test.context->ClearRenderTargetView(scene.rtv.get(), white);
    test.context->CopyResource(scene.target.get(), other.get());
    const std::vector<std::uint32_t> row(4, rgba(0, 255, 0, 255));
    const D3D11_BOX top_row{0, 0, 0, 4, 1, 1};
    test.context->UpdateSubresource(scene.target.get(), 0, &top_row, row.data(), 16, 0);
    test.context->SetPredication(nullptr, FALSE);  // the read back is a copy too
    CHECK(scene.texels() == std::vector<std::uint32_t>(16, black));
    // Predicated on TRUE the same copy runs.
    test.context->SetPredication(nothing.get(), TRUE);
    test.context->CopyResource(scene.target.get(), other.get());
    test.context->SetPredication(nullptr, FALSE);
    CHECK(scene.texels() == std::vector<std::uint32_t>(16, red));
    check_validation_clean();
}

TEST_CASE("A render-target view of a 1D texture draws one row", "[draw][texture1d]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    D3D11_TEXTURE1D_DESC desc{
        4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, D3D11_BIND_RENDER_TARGET, 0, 0};
    Com<ID3D11Texture1D> line;
    REQUIRE(test.device->CreateTexture1D(&desc, nullptr, line.out()) == S_OK);
    Com<ID3D11RenderTargetView> rtv;
    REQUIRE(test.device->CreateRenderTargetView(line.get(), nullptr, rtv.out()) == S_OK);
    ID3D11RenderTargetView* targets[] = {rtv.get()};
    test.context->OMSetRenderTargets(1, targets, nullptr);
    const D3D11_VIEWPORT viewport{0, 0, 4, 1, 0, 1};
    test.context->RSSetViewports(1, &viewport);
    const auto vb = scene.vertices(quad(-1, -1, 0, 1, 0.5f, {0, 0, 1, 1}));  // the left half
    scene.draw(6);
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    Com<ID3D11Texture1D> staging;
    REQUIRE(test.device->CreateTexture1D(&desc, nullptr, staging.out()) == S_OK);
    test.context->CopyResource(staging.get(), line.get());
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(test.context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    std::vector<std::uint32_t> texels(4);
    std::memcpy(texels.data(), mapped.pData, 16);
    test.context->Unmap(staging.get(), 0);
    const std::uint32_t blue = rgba(0, 0, 255, 255);
    CHECK(texels == std::vector<std::uint32_t>{blue, blue, 0, 0});
    check_validation_clean();
}

TEST_CASE("A pixel shader's last slots: cb13, t127 and the UAV at slot 63", "[draw][slots]") {
    TestDevice& test = *hardware_device();
    Scene scene(test, R"(ps_5_0
.input SV_Position0 v0.xyzw float
.output SV_Target0 o0.xyzw float
dcl_constantbuffer cb13[1], immediateIndexed
dcl_resource_raw t127
dcl_uav_raw u63
dcl_output o0.xyzw
dcl_temps 1
ld_raw r0.x, l(0), t127.xxxx
iadd r0.x, r0.x, cb13[0].x
store_raw u63.x, l(0), r0.x
mov o0.xyzw, l(0.000000, 1.000000, 0.000000, 1.000000)
ret
)");
    const std::uint32_t raw = 40, constants[4] = {2, 0, 0, 0};
    auto source = test.buffer(4, D3D11_BIND_SHADER_RESOURCE, D3D11_USAGE_DEFAULT, 0,
                              D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0, &raw);
    D3D11_SHADER_RESOURCE_VIEW_DESC raw_desc{};
    raw_desc.Format = DXGI_FORMAT_R32_TYPELESS;
    raw_desc.ViewDimension = D3D11_SRV_DIMENSION_BUFFEREX;
    raw_desc.BufferEx = {0, 1, D3D11_BUFFEREX_SRV_FLAG_RAW};
    Com<ID3D11ShaderResourceView> raw_view;
    REQUIRE(test.device->CreateShaderResourceView(source.get(), &raw_desc, raw_view.out()) == S_OK);
    auto cb = test.buffer(16, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DEFAULT, 0, 0, 0, constants);
    auto written = test.buffer(4, D3D11_BIND_UNORDERED_ACCESS, D3D11_USAGE_DEFAULT, 0,
                               D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS);
    const auto uav = raw_uav(test, written.get(), 1);
    ID3D11Buffer* cbs[] = {cb.get()};
    test.context->PSSetConstantBuffers(13, 1, cbs);
    ID3D11ShaderResourceView* views[] = {raw_view.get()};
    test.context->PSSetShaderResources(127, 1, views);
    ID3D11RenderTargetView* targets[] = {scene.rtv.get()};
    ID3D11UnorderedAccessView* uavs[] = {uav.get()};
    test.context->OMSetRenderTargetsAndUnorderedAccessViews(1, targets, nullptr, 63, 1, uavs,
                                                            nullptr);
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {1, 1, 1, 1}));
    scene.draw(6);
    CHECK(scene.texels() == std::vector<std::uint32_t>(16, rgba(0, 255, 0, 255)));
    CHECK(read_words(test, written.get(), 4) == std::vector<std::uint32_t>{42});
    check_validation_clean();
}
