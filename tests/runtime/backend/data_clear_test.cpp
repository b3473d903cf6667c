// A device's clears, by the ClearView conversion rules of the API reference, and
// its depth-stencil, UAV, discard and offer behaviour, byte for byte.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "data_support.h"

using namespace data_tests;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

struct ConversionRow {
    DXGI_FORMAT format;
    float color[4];
    Bytes texel;
};

// What ClearView writes, one texel per row of the table.
const ConversionRow kConversions[] = {
    // UNORM: clamped to [0, 1], NaN to 0, scaled by 255 and rounded.
    {DXGI_FORMAT_R8G8B8A8_UNORM, {0.5f, -1.0f, 2.0f, kNaN}, {0x80, 0x00, 0xFF, 0x00}},
    {DXGI_FORMAT_R8G8B8A8_UNORM, {kInf, -kInf, 0.25f, 1.0f}, {0xFF, 0x00, 0x40, 0xFF}},
    {DXGI_FORMAT_R16_UNORM, {0.3f, 0, 0, 0}, {0xCD, 0x4C}},
    {DXGI_FORMAT_R10G10B10A2_UNORM, {1.0f, 0.0f, 0.5f, 1.0f / 3.0f}, {0xFF, 0x03, 0x00, 0x60}},
    {DXGI_FORMAT_B8G8R8A8_UNORM, {1.0f, 0.5f, 0.0f, 0.25f}, {0x00, 0x80, 0xFF, 0x40}},
    {DXGI_FORMAT_B5G6R5_UNORM, {1.0f, 0.0f, 1.0f, 0.0f}, {0x1F, 0xF8}},
    // sRGB: linear to sRGB first (alpha stays linear).
    {DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, {0.5f, 0.0f, 1.0f, 0.5f}, {0xBC, 0x00, 0xFF, 0x80}},
    // SNORM: clamped to [-1, 1], NaN to 0; -1 is -127, never -128.
    {DXGI_FORMAT_R8G8B8A8_SNORM, {-1.0f, -2.0f, 0.5f, kNaN}, {0x81, 0x81, 0x40, 0x00}},
    {DXGI_FORMAT_R16G16B16A16_SNORM,
     {-1.5f, 1.0f, kNaN, -0.25f},
     {0x01, 0x80, 0xFF, 0x7F, 0x00, 0x00, 0x00, 0xE0}},
    // Integers: truncated toward zero, clamped to the range, NaN to 0.
    {DXGI_FORMAT_R8G8B8A8_UINT, {235.0f, 235.9f, -3.5f, 300.0f}, {0xEB, 0xEB, 0x00, 0xFF}},
    {DXGI_FORMAT_R8G8B8A8_SINT, {-3.7f, 3.7f, 200.0f, -200.0f}, {0xFD, 0x03, 0x7F, 0x80}},
    {DXGI_FORMAT_R16G16_UINT, {70000.0f, kNaN, 0, 0}, {0xFF, 0xFF, 0x00, 0x00}},
    {DXGI_FORMAT_R16G16_SINT, {-1.9f, kInf, 0, 0}, {0xFF, 0xFF, 0xFF, 0x7F}},
    {DXGI_FORMAT_R32_UINT, {-1.0f, 0, 0, 0}, {0x00, 0x00, 0x00, 0x00}},
    {DXGI_FORMAT_R32_UINT, {4.9f, 0, 0, 0}, {0x04, 0x00, 0x00, 0x00}},
    {DXGI_FORMAT_R32_UINT, {kInf, 0, 0, 0}, {0xFF, 0xFF, 0xFF, 0xFF}},
    {DXGI_FORMAT_R32_SINT, {-3.0e9f, 0, 0, 0}, {0x00, 0x00, 0x00, 0x80}},
    {DXGI_FORMAT_R32_SINT, {kNaN, 0, 0, 0}, {0x00, 0x00, 0x00, 0x00}},
    {DXGI_FORMAT_R8_UINT, {255.99f, 0, 0, 0}, {0xFF}},
    {DXGI_FORMAT_R8_SINT, {-128.5f, 0, 0, 0}, {0x80}},
    // Floats: half and 11/10-bit floats round to nearest even; NaN stays NaN in 32 bits.
    {DXGI_FORMAT_R16_FLOAT, {-2.0f, 0, 0, 0}, {0x00, 0xC0}},
    {DXGI_FORMAT_R16_FLOAT, {65520.0f, 0, 0, 0}, {0x00, 0x7C}},
    {DXGI_FORMAT_R16_FLOAT, {65504.0f, 0, 0, 0}, {0xFF, 0x7B}},
    {DXGI_FORMAT_R11G11B10_FLOAT, {1.0f, -1.0f, 0.5f, 0}, {0xC0, 0x03, 0x00, 0x70}},
    {DXGI_FORMAT_R11G11B10_FLOAT, {kNaN, kInf, 70000.0f, 0}, {0xE0, 0x07, 0x3E, 0xF8}},
    {DXGI_FORMAT_R32_FLOAT, {kNaN, 0, 0, 0}, {0x00, 0x00, 0xC0, 0x7F}},
    // XR_BIAS: code = value * 510 + 384.
    {DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM, {1.0f, 0.0f, -0.5f, 1.0f}, {0x7E, 0x03, 0x16, 0xC8}},
    // A depth-only DSV: the red value is the depth.
    {DXGI_FORMAT_D16_UNORM, {0.5f, 0, 0, 0}, {0x00, 0x80}},
};

Bytes slice(const Bytes& bytes, std::size_t from, std::size_t count) {
    return Bytes(bytes.begin() + from, bytes.begin() + from + count);
}

}  // namespace

TEST_CASE("ClearView converts colors by the documented rules", "[data][clear]") {
    for (const ConversionRow& row : kConversions) {
        DataDevice device;
        device.create(texture2d(1, 2, 1, row.format));
        // Only texel 1: the rectangle leaves texel 0 alone.
        const D3D11_RECT rect{1, 0, 2, 1};
        device.backend->clear_view(view_of(1, row.format), row.color, &rect, 1);
        const Bytes image = device.read(1);
        const std::size_t size = row.texel.size();
        INFO("format " << row.format << " color " << row.color[0] << ", " << row.color[1] << ", "
                       << row.color[2] << ", " << row.color[3]);
        REQUIRE(image.size() == 2 * size);
        CHECK(slice(image, 0, size) == Bytes(size, 0));
        CHECK(slice(image, size, size) == row.texel);
    }
}

TEST_CASE("ClearView clears every rectangle and skips empty ones", "[data][clear]") {
    DataDevice device;
    device.create(texture2d(1, 4, 4, DXGI_FORMAT_R8_UNORM));
    const D3D11_RECT rects[] = {{0, 0, 2, 1}, {1, 2, 4, 4}, {3, 0, 3, 4}, {-5, 3, 1, 9}};
    const float one[4] = {1.0f, 0, 0, 0};
    device.backend->clear_view(view_of(1, DXGI_FORMAT_R8_UNORM), one, rects, 4);
    CHECK(device.read(1) == Bytes{0xFF, 0xFF, 0x00, 0x00,  //
                                  0x00, 0x00, 0x00, 0x00,  //
                                  0x00, 0xFF, 0xFF, 0xFF,  //
                                  0xFF, 0xFF, 0xFF, 0xFF});
}

TEST_CASE("ClearRenderTargetView clears only the view's mip and slice", "[data][clear]") {
    DataDevice device;
    device.create(texture2d(1, 4, 4, DXGI_FORMAT_R8_UNORM, 3, 2));
    const float quarter[4] = {0.25f, 0, 0, 0};
    device.backend->clear_render_target(view_of(1, DXGI_FORMAT_R8_UNORM, 1, 1), quarter);
    for (std::uint32_t sub = 0; sub < 6; ++sub) {
        INFO("subresource " << sub);
        const Bytes bytes = device.read(1, sub);
        CHECK(bytes == Bytes(bytes.size(), sub == 4 ? 0x40 : 0x00));  // mip 1 + slice 1 * 3 mips
    }
}

TEST_CASE("an MSAA clear writes every sample", "[data][clear]") {
    DataDevice device;
    ResourceInfo info = texture2d(1, 2, 2, DXGI_FORMAT_R8G8B8A8_UNORM);
    info.sample_count = 4;
    device.create(info);
    const float color[4] = {1.0f, 0.0f, 0.5f, 1.0f};
    device.backend->clear_render_target(view_of(1, DXGI_FORMAT_R8G8B8A8_UNORM), color);
    Bytes expected;
    for (int sample = 0; sample < 16; ++sample)
        expected.insert(expected.end(), {0xFF, 0x00, 0x80, 0xFF});
    CHECK(device.read(1) == expected);
}

TEST_CASE("ClearDepthStencilView writes depth and stencil by the flags", "[data][clear]") {
    DataDevice device;
    ResourceInfo info = texture2d(1, 1, 1, DXGI_FORMAT_R24G8_TYPELESS);
    info.bind_flags = D3D11_BIND_DEPTH_STENCIL;
    device.create(info);
    const ViewInfo d24 = view_of(1, DXGI_FORMAT_D24_UNORM_S8_UINT);
    device.backend->clear_depth_stencil(d24, D3D11_CLEAR_DEPTH | D3D11_CLEAR_STENCIL, 1.0f, 7);
    CHECK(device.read(1) == Bytes{0xFF, 0xFF, 0xFF, 0x07});
    device.backend->clear_depth_stencil(d24, D3D11_CLEAR_DEPTH, 0.5f, 99);
    CHECK(device.read(1) == Bytes{0x00, 0x00, 0x80, 0x07});
    device.backend->clear_depth_stencil(d24, D3D11_CLEAR_STENCIL, 0.0f, 0x42);
    CHECK(device.read(1) == Bytes{0x00, 0x00, 0x80, 0x42});

    // D32_FLOAT_S8X24_UINT: the 24 unused bits stay as they were on the CPU
    // devices; a GPU's depth-stencil image has no such bits (they read zero).
    info = texture2d(2, 1, 1, DXGI_FORMAT_R32G8X24_TYPELESS);
    device.create_with(info, Bytes(8, 0xEE), 8);
    device.backend->clear_depth_stencil(view_of(2, DXGI_FORMAT_D32_FLOAT_S8X24_UINT),
                                        D3D11_CLEAR_DEPTH | D3D11_CLEAR_STENCIL, 0.25f, 3);
    const std::uint8_t unused = std::string(device.backend->name()) == "vulkan" ? 0x00 : 0xEE;
    CHECK(device.read(2) == Bytes{0x00, 0x00, 0x80, 0x3E, 0x03, unused, unused, unused});

    // Depth is clamped to [0, 1].
    device.create(texture2d(3, 1, 1, DXGI_FORMAT_D16_UNORM));
    device.backend->clear_depth_stencil(view_of(3, DXGI_FORMAT_D16_UNORM), D3D11_CLEAR_DEPTH, 2.0f,
                                        0);
    CHECK(device.read(3) == Bytes{0xFF, 0xFF});
    device.create(texture2d(4, 1, 1, DXGI_FORMAT_D32_FLOAT));
    device.backend->clear_depth_stencil(view_of(4, DXGI_FORMAT_D32_FLOAT), D3D11_CLEAR_DEPTH, 0.75f,
                                        0);
    CHECK(device.read(4) == Bytes{0x00, 0x00, 0x40, 0x3F});
}

TEST_CASE("ClearUnorderedAccessViewUint copies bits and raw and structured buffers get values[0]",
          "[data][clear]") {
    DataDevice device;
    const std::uint32_t values[4] = {0x1FF, 2, 3, 0x104};
    device.create(texture2d(1, 1, 1, DXGI_FORMAT_R8G8B8A8_UINT));
    device.backend->clear_unordered_access_uint(view_of(1, DXGI_FORMAT_R8G8B8A8_UINT), values);
    CHECK(device.read(1) == Bytes{0xFF, 0x02, 0x03, 0x04});  // each cut to its low 8 bits

    const std::uint32_t one_bits[4] = {0x3F800000, 0, 0, 0};
    device.create(texture2d(2, 1, 1, DXGI_FORMAT_R32_FLOAT));
    device.backend->clear_unordered_access_uint(view_of(2, DXGI_FORMAT_R32_FLOAT), one_bits);
    CHECK(device.read(2) == Bytes{0x00, 0x00, 0x80, 0x3F});

    const std::uint32_t word[4] = {0xA1B2C3D4, 1, 2, 3};
    device.create(buffer(3, 16, D3D11_BIND_UNORDERED_ACCESS));
    ViewInfo raw = view_of(3, DXGI_FORMAT_R32_TYPELESS);
    raw.first_element = 1;
    raw.element_count = 2;
    device.backend->clear_unordered_access_uint(raw, word);
    CHECK(device.read(3) ==
          Bytes{0, 0, 0, 0, 0xD4, 0xC3, 0xB2, 0xA1, 0xD4, 0xC3, 0xB2, 0xA1, 0, 0, 0, 0});

    ResourceInfo structured = buffer(4, 24, D3D11_BIND_UNORDERED_ACCESS);
    structured.structure_stride = 8;
    device.create(structured);
    ViewInfo elements = view_of(4, DXGI_FORMAT_UNKNOWN);
    elements.first_element = 1;
    elements.element_count = 1;
    device.backend->clear_unordered_access_uint(elements, word);
    const Bytes bytes = device.read(4);
    CHECK(slice(bytes, 0, 8) == Bytes(8, 0));
    CHECK(slice(bytes, 8, 8) == Bytes{0xD4, 0xC3, 0xB2, 0xA1, 0xD4, 0xC3, 0xB2, 0xA1});
    CHECK(slice(bytes, 16, 8) == Bytes(8, 0));
}

TEST_CASE("ClearUnorderedAccessViewFloat converts to the view's format", "[data][clear]") {
    DataDevice device;
    device.create(texture2d(1, 1, 1, DXGI_FORMAT_R16G16B16A16_FLOAT));
    const float values[4] = {1.0f, -2.0f, 0.5f, 65504.0f};
    device.backend->clear_unordered_access_float(view_of(1, DXGI_FORMAT_R16G16B16A16_FLOAT),
                                                 values);
    CHECK(device.read(1) == Bytes{0x00, 0x3C, 0x00, 0xC0, 0x00, 0x38, 0xFF, 0x7B});

    // A typed buffer view: elements 1 and 2 of four R8G8_UNORM elements.
    device.create(buffer(2, 8, D3D11_BIND_UNORDERED_ACCESS));
    ViewInfo typed = view_of(2, DXGI_FORMAT_R8G8_UNORM);
    typed.first_element = 1;
    typed.element_count = 2;
    const float half_one[4] = {0.5f, 1.0f, 0, 0};
    device.backend->clear_unordered_access_float(typed, half_one);
    CHECK(device.read(2) == Bytes{0, 0, 0x80, 0xFF, 0x80, 0xFF, 0, 0});
}

TEST_CASE("Discard poisons what the view and rectangles select with 0xDD", "[data][clear]") {
    DataDevice device;
    device.create_with(texture2d(1, 4, 2, DXGI_FORMAT_R8_UNORM), Bytes(8, 0x11), 4);
    const D3D11_RECT rect{1, 1, 3, 2};
    device.backend->discard(view_of(1, DXGI_FORMAT_R8_UNORM), &rect, 1);
    CHECK(device.read(1) == Bytes{0x11, 0x11, 0x11, 0x11, 0x11, 0xDD, 0xDD, 0x11});

    // A whole resource: every mip and slice.
    const Bytes mip0(16, 0x22), mip1(4, 0x23);
    const D3D11_SUBRESOURCE_DATA mips[2] = {{mip0.data(), 8, 0}, {mip1.data(), 4, 0}};
    device.create(texture2d(2, 2, 2, DXGI_FORMAT_R8G8B8A8_UNORM, 2), mips);
    ViewInfo all = view_of(2, DXGI_FORMAT_R8G8B8A8_UNORM);
    all.mip_count = 2;
    device.backend->discard(all, nullptr, 0);
    CHECK(device.read(2, 0) == Bytes(16, 0xDD));
    CHECK(device.read(2, 1) == Bytes(4, 0xDD));

    device.create_with(buffer(3, 12), Bytes(12, 0x33), 0);
    device.backend->discard(view_of(3, DXGI_FORMAT_UNKNOWN), nullptr, 0);
    CHECK(device.read(3) == Bytes(12, 0xDD));
}

TEST_CASE("offered resources come back poisoned and reclaim says so once", "[data][offer]") {
    DataDevice device;
    device.create_with(texture2d(1, 2, 2, DXGI_FORMAT_R8_UNORM), Bytes{1, 2, 3, 4}, 2);
    device.backend->offer(1);
    CHECK(device.backend->reclaim(1));
    CHECK(device.read(1) == Bytes(4, 0xDD));
    CHECK_FALSE(device.backend->reclaim(1));
}

TEST_CASE("GenerateMips averages 2x2 texels per level", "[data][mips]") {
    DataDevice device;
    // Red by rows; green is 255 - red; blue 0; alpha 255.
    const std::uint8_t red[16] = {0,   10,  20,  30,  43,  50,  60,  70,
                                  100, 110, 200, 210, 120, 130, 220, 254};
    Bytes mip0;
    for (std::uint8_t r : red)
        mip0.insert(mip0.end(), {r, static_cast<std::uint8_t>(255 - r), 0, 255});
    D3D11_SUBRESOURCE_DATA initial[3] = {{mip0.data(), 16, 0}, {nullptr, 0, 0}, {nullptr, 0, 0}};
    device.create(texture2d(1, 4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, 3), initial);
    ViewInfo view = view_of(1, DXGI_FORMAT_R8G8B8A8_UNORM);
    view.mip_count = 3;
    device.backend->generate_mips(view);
    // (0+10+43+50)/4 = 25.75, 180/4 = 45, 460/4 = 115, 884/4 = 221; green likewise.
    CHECK(device.read(1, 1) ==
          Bytes{26, 229, 0, 255, 45, 210, 0, 255, 115, 140, 0, 255, 221, 34, 0, 255});
    // (26+45+115+221)/4 = 101.75 and (229+210+140+34)/4 = 153.25.
    CHECK(device.read(1, 2) == Bytes{102, 153, 0, 255});
    CHECK(device.read(1, 0) == mip0);
}

TEST_CASE("GenerateMips averages sRGB in linear space and Texture3D over 2x2x2", "[data][mips]") {
    DataDevice device;
    const Bytes srgb{0, 188, 0, 0, 255, 188, 0, 255, 0, 188, 0, 0, 255, 188, 0, 255};
    D3D11_SUBRESOURCE_DATA initial[2] = {{srgb.data(), 8, 0}, {nullptr, 0, 0}};
    device.create(texture2d(1, 2, 2, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 2), initial);
    ViewInfo view = view_of(1, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB);
    view.mip_count = 2;
    device.backend->generate_mips(view);
    // Linear red 0.5 is sRGB 188; 188 stays 188; alpha is linear.
    CHECK(device.read(1, 1) == Bytes{188, 188, 0, 128});

    ResourceInfo volume = texture2d(2, 2, 2, DXGI_FORMAT_R8_UNORM, 2);
    volume.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    volume.depth = 2;
    const Bytes texels{0, 10, 20, 30, 40, 50, 60, 70};
    D3D11_SUBRESOURCE_DATA volume_data[2] = {{texels.data(), 2, 4}, {nullptr, 0, 0}};
    device.create(volume, volume_data);
    ViewInfo volume_view = view_of(2, DXGI_FORMAT_R8_UNORM);
    volume_view.mip_count = 2;
    device.backend->generate_mips(volume_view);
    CHECK(device.read(2, 1) == Bytes{35});
}
