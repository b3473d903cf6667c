// Render-target formats that the Vulkan device keeps in another shape than
// D3D11 gives them: B8G8R8X8 (kept with an alpha byte, whose alpha D3D11
// reads as 1 in blending) and A8_UNORM (kept as one red channel, which the
// pixel shader's alpha and the alpha blend factors must reach).
#include "draw_support.h"

using namespace execution_tests;

namespace {

Com<ID3D11BlendState> blend_state(TestDevice& test, const D3D11_RENDER_TARGET_BLEND_DESC& target) {
    D3D11_BLEND_DESC desc{};
    desc.RenderTarget[0] = target;
    Com<ID3D11BlendState> state;
    REQUIRE(test.device->CreateBlendState(&desc, state.out()) == S_OK);
    test.context->OMSetBlendState(state.get(), nullptr, 0xffffffff);
    return state;
}

// The 16 bytes of a 4x4 texture of 1-byte texels, row by row.
std::vector<std::uint8_t> bytes_4x4(TestDevice& test, ID3D11Texture2D* texture,
                                    DXGI_FORMAT format) {
    auto staging =
        test.texture2d(4, 4, format, 0, 1, 1, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ);
    test.context->CopyResource(staging.get(), texture);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(test.context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    std::vector<std::uint8_t> out(16);
    for (UINT y = 0; y < 4; ++y)
        std::memcpy(&out[y * 4],
                    static_cast<const std::uint8_t*>(mapped.pData) + y * mapped.RowPitch, 4);
    test.context->Unmap(staging.get(), 0);
    return out;
}

}  // namespace

TEST_CASE("Blending into B8G8R8X8 reads the destination's alpha as 1", "[draw][blend]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    auto target = test.texture2d(4, 4, DXGI_FORMAT_B8G8R8X8_UNORM, D3D11_BIND_RENDER_TARGET);
    Com<ID3D11RenderTargetView> rtv;
    REQUIRE(test.device->CreateRenderTargetView(target.get(), nullptr, rtv.out()) == S_OK);
    // The clear's alpha of 0 is not a D3D11 alpha: the format has none.
    const float clear[4] = {0.25f, 0.75f, 0, 0};
    test.context->ClearRenderTargetView(rtv.get(), clear);
    ID3D11RenderTargetView* targets[] = {rtv.get()};
    test.context->OMSetRenderTargets(1, targets, nullptr);
    // Red * (1 - 1) + destination * 1: the destination stays.
    const auto blend = blend_state(test, {TRUE, D3D11_BLEND_INV_DEST_ALPHA, D3D11_BLEND_DEST_ALPHA,
                                          D3D11_BLEND_OP_ADD, D3D11_BLEND_ONE, D3D11_BLEND_ZERO,
                                          D3D11_BLEND_OP_ADD, D3D11_COLOR_WRITE_ENABLE_ALL});
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {1, 0, 0, 1}));
    scene.draw(6);
    // B, G, R bytes (0.75 * 255 = 191, 0.25 * 255 = 64); the X byte is not
    // the format's.
    auto texels = texels_4x4(test, target.get(), DXGI_FORMAT_B8G8R8X8_UNORM);
    for (std::uint32_t& texel : texels) texel &= 0x00ffffff;
    CHECK(texels == std::vector<std::uint32_t>(16, 0x0040bf00));

    // SRC_ALPHA_SAT for colour is min(As, 1 - Ad) = 0 there: red * 0 + destination.
    const auto saturate = blend_state(test, {TRUE, D3D11_BLEND_SRC_ALPHA_SAT, D3D11_BLEND_ONE,
                                             D3D11_BLEND_OP_ADD, D3D11_BLEND_ONE, D3D11_BLEND_ZERO,
                                             D3D11_BLEND_OP_ADD, D3D11_COLOR_WRITE_ENABLE_ALL});
    scene.draw(6);
    texels = texels_4x4(test, target.get(), DXGI_FORMAT_B8G8R8X8_UNORM);
    for (std::uint32_t& texel : texels) texel &= 0x00ffffff;
    CHECK(texels == std::vector<std::uint32_t>(16, 0x0040bf00));
    check_validation_clean();
}

TEST_CASE("An A8_UNORM target takes the pixel shader's alpha, blended by the alpha factors",
          "[draw][blend]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    auto target = test.texture2d(4, 4, DXGI_FORMAT_A8_UNORM,
                                 D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE);
    Com<ID3D11RenderTargetView> rtv;
    REQUIRE(test.device->CreateRenderTargetView(target.get(), nullptr, rtv.out()) == S_OK);
    const float clear[4] = {1, 1, 1, 0.25f};  // 0.25 * 255 = 64
    test.context->ClearRenderTargetView(rtv.get(), clear);
    CHECK(bytes_4x4(test, target.get(), DXGI_FORMAT_A8_UNORM) == std::vector<std::uint8_t>(16, 64));
    ID3D11RenderTargetView* targets[] = {rtv.get()};
    test.context->OMSetRenderTargets(1, targets, nullptr);

    // No blending: the alpha of 0.75 (191), not the red of 0.
    auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {0, 1, 1, 0.75f}));
    scene.draw(6);
    CHECK(bytes_4x4(test, target.get(), DXGI_FORMAT_A8_UNORM) ==
          std::vector<std::uint8_t>(16, 191));

    // Alpha 0.25 * destination alpha + 0: 0.25 * 191 = 47.75, 48. The colour
    // factors (INV_SRC_COLOR) would give other bytes, and a write mask
    // without alpha writes nothing.
    const auto blend =
        blend_state(test, {TRUE, D3D11_BLEND_INV_SRC_COLOR, D3D11_BLEND_ONE, D3D11_BLEND_OP_ADD,
                           D3D11_BLEND_DEST_ALPHA, D3D11_BLEND_ZERO, D3D11_BLEND_OP_ADD,
                           D3D11_COLOR_WRITE_ENABLE_ALL});
    vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {0, 1, 1, 0.25f}));
    scene.draw(6);
    CHECK(bytes_4x4(test, target.get(), DXGI_FORMAT_A8_UNORM) == std::vector<std::uint8_t>(16, 48));
    const auto colour_only = blend_state(
        test, {FALSE, D3D11_BLEND_ONE, D3D11_BLEND_ZERO, D3D11_BLEND_OP_ADD, D3D11_BLEND_ONE,
               D3D11_BLEND_ZERO, D3D11_BLEND_OP_ADD, D3D11_COLOR_WRITE_ENABLE_RED});
    scene.draw(6);
    CHECK(bytes_4x4(test, target.get(), DXGI_FORMAT_A8_UNORM) == std::vector<std::uint8_t>(16, 48));
    check_validation_clean();
}
