// The texel decoder: values and codes of every kind of format, hand-built BC
// blocks worked out from the block compression specification, the status-bar
// text, the bulk RGBA path against the per-texel one, and refusals.
#include "runtime/formats/texel_decode.h"

#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "runtime/formats/formats.h"

using d3dcap::runtime::formats::ChannelKind;
using d3dcap::runtime::formats::Texel;
using Bytes = std::vector<std::uint8_t>;

namespace {

// The texel at (x, y) of tightly packed rows; fails the test if refused.
Texel texel_at(DXGI_FORMAT format, const Bytes& bytes, std::uint32_t width, std::uint32_t height,
               std::uint32_t x = 0, std::uint32_t y = 0) {
    Texel texel;
    std::string error;
    const std::uint64_t pitch = d3dcap::runtime::formats::row_pitch(format, width);
    INFO(d3dcap::runtime::formats::describe(format));
    REQUIRE(d3dcap::runtime::formats::decode_texel(format, bytes, pitch, width, height, x, y, texel,
                                                   &error));
    CHECK(error.empty());
    return texel;
}

Texel one_texel(DXGI_FORMAT format, const Bytes& bytes) {
    return texel_at(format, bytes, 1, 1);
}

std::string describe(DXGI_FORMAT format, const Bytes& bytes) {
    return d3dcap::runtime::formats::describe_texel(one_texel(format, bytes));
}

// Values converted at float precision (the reference device's conversions).
Approx near(double expected) {
    return Approx(expected).epsilon(1e-6).margin(1e-7);
}

// Sets `count` bits at bit `position` of a block, lowest bit first: one
// field of the specification's block layouts.
void put(Bytes& block, unsigned position, unsigned count, std::uint32_t value) {
    for (unsigned i = 0; i < count; ++i) {
        if ((value >> i) & 1) block[(position + i) / 8] |= std::uint8_t(1u << ((position + i) % 8));
    }
}

std::array<Texel, 16> block_of(DXGI_FORMAT format, const Bytes& block) {
    std::array<Texel, 16> texels;
    std::string error;
    REQUIRE(d3dcap::runtime::formats::decode_block(format, block, texels, &error));
    return texels;
}

// A half float's value, computed here independently of the decoder.
double half(std::uint32_t bits) {
    const double sign = (bits & 0x8000) ? -1.0 : 1.0;
    const int exponent = (bits >> 10) & 31;
    const int mantissa = bits & 1023;
    if (exponent == 0) return sign * std::ldexp(mantissa, -24);
    return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

void check_codes(const Texel& texel, std::initializer_list<std::int64_t> codes) {
    unsigned c = 0;
    for (std::int64_t code : codes) {
        INFO("channel " << c);
        CHECK(texel.channels[c].integer == code);
        ++c;
    }
}

}  // namespace

TEST_CASE("UNORM channels are code / (2^bits - 1)", "[texel_decode]") {
    const Texel rgba = one_texel(DXGI_FORMAT_R8G8B8A8_UNORM, {128, 0, 255, 64});
    check_codes(rgba, {128, 0, 255, 64});
    CHECK(rgba.channels[0].kind == ChannelKind::Unorm);
    CHECK(rgba.channels[0].bits == 8);
    CHECK(rgba.channels[0].value == near(128.0 / 255.0));
    CHECK(rgba.channels[1].value == 0.0);
    CHECK(rgba.channels[2].value == 1.0);
    CHECK(rgba.channels[3].value == near(64.0 / 255.0));

    // BGRA: R is the third byte.
    const Texel bgra = one_texel(DXGI_FORMAT_B8G8R8A8_UNORM, {10, 20, 30, 40});
    check_codes(bgra, {30, 20, 10, 40});
    const Texel r16 = one_texel(DXGI_FORMAT_R16G16_UNORM, {0xff, 0xff, 0x00, 0x80});
    CHECK(r16.channels[0].value == 1.0);
    CHECK(r16.channels[1].value == near(32768.0 / 65535.0));
    CHECK_FALSE(r16.channels[2].present());

    // A8 has alpha alone.
    const Texel a8 = one_texel(DXGI_FORMAT_A8_UNORM, {51});
    CHECK_FALSE(a8.channels[0].present());
    CHECK(a8.channels[3].value == near(0.2));
}

TEST_CASE("SNORM channels clamp the most negative code to -1", "[texel_decode]") {
    const Texel texel = one_texel(DXGI_FORMAT_R8G8B8A8_SNORM, {0x80, 0x81, 0x7f, 0xc0});
    check_codes(texel, {-128, -127, 127, -64});
    CHECK(texel.channels[0].code == 0x80);
    CHECK(texel.channels[0].value == -1.0);
    CHECK(texel.channels[1].value == -1.0);
    CHECK(texel.channels[2].value == 1.0);
    CHECK(texel.channels[3].value == near(-64.0 / 127.0));
    const Texel r16 = one_texel(DXGI_FORMAT_R16_SNORM, {0x00, 0x80});
    CHECK(r16.channels[0].integer == -32768);
    CHECK(r16.channels[0].value == -1.0);
}

TEST_CASE("Float channels: 32-bit, half, 11/10-bit and shared exponent", "[texel_decode]") {
    CHECK(one_texel(DXGI_FORMAT_R32_FLOAT, {0x00, 0x00, 0x80, 0x3f}).channels[0].value == 1.0);

    // -2, +infinity, the smallest denormal 2^-24, the largest finite 65504.
    const Texel half4 =
        one_texel(DXGI_FORMAT_R16G16B16A16_FLOAT, {0x00, 0xc0, 0x00, 0x7c, 0x01, 0x00, 0xff, 0x7b});
    CHECK(half4.channels[0].value == -2.0);
    CHECK(half4.channels[1].value == std::numeric_limits<double>::infinity());
    CHECK(half4.channels[2].value == std::ldexp(1.0, -24));
    CHECK(half4.channels[3].value == 65504.0);
    CHECK(half4.channels[0].code == 0xc000);

    // R11G11B10: R = 1.0 (exponent 15: 0x3c0), G = 0.5 (0x380), B = 2.0 (10 bits,
    // exponent 16: 0x200); the word 0x3c0 | 0x380 << 11 | 0x200 << 22 = 0x801c03c0.
    const Texel small = one_texel(DXGI_FORMAT_R11G11B10_FLOAT, {0xc0, 0x03, 0x1c, 0x80});
    CHECK(small.channels[0].value == 1.0);
    CHECK(small.channels[1].value == 0.5);
    CHECK(small.channels[2].value == 2.0);
    check_codes(small, {0x3c0, 0x380, 0x200});
    CHECK(small.channels[0].bits == 11);
    CHECK(small.channels[2].bits == 10);

    // R9G9B9E5: mantissas 256, 128, 0 with exponent 16: m * 2^(16 - 24).
    // The word 256 | 128 << 9 | 16 << 27 = 0x80010100.
    const Texel shared = one_texel(DXGI_FORMAT_R9G9B9E5_SHAREDEXP, {0x00, 0x01, 0x01, 0x80});
    CHECK(shared.shared_exponent == 16);
    CHECK(shared.channels[0].value == 1.0);
    CHECK(shared.channels[1].value == 0.5);
    CHECK(shared.channels[2].value == 0.0);
    check_codes(shared, {256, 128, 0});
    CHECK_FALSE(shared.channels[3].present());
}

TEST_CASE("UINT and SINT channels are exact integers", "[texel_decode]") {
    const Texel uint4 =
        one_texel(DXGI_FORMAT_R32G32B32A32_UINT,
                  {0, 0, 0, 0, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x39, 0x30, 0, 0});
    check_codes(uint4, {0, 1, 4294967295, 12345});
    CHECK(uint4.channels[2].value == 4294967295.0);
    CHECK(uint4.channels[2].kind == ChannelKind::Uint);

    const Texel sint2 =
        one_texel(DXGI_FORMAT_R32G32_SINT, {0x00, 0x00, 0x00, 0x80, 0xff, 0xff, 0xff, 0x7f});
    check_codes(sint2, {-2147483648LL, 2147483647});
    CHECK(sint2.channels[0].code == 0x80000000u);
    CHECK(sint2.channels[0].value == -2147483648.0);

    const Texel sint8 = one_texel(DXGI_FORMAT_R8G8_SINT, {0x80, 0x7f});
    check_codes(sint8, {-128, 127});
    const Texel uint10 = one_texel(DXGI_FORMAT_R10G10B10A2_UINT, {0xff, 0xff, 0xff, 0xff});
    check_codes(uint10, {1023, 1023, 1023, 3});
}

TEST_CASE("sRGB channels are linear values after the curve and alpha stays linear",
          "[texel_decode]") {
    const Texel texel = one_texel(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, {188, 0, 255, 188});
    const double srgb = 188.0 / 255.0;
    const double linear = std::pow((srgb + 0.055) / 1.055, 2.4);  // about 0.5029
    CHECK(texel.channels[0].kind == ChannelKind::Srgb);
    CHECK(texel.channels[0].integer == 188);
    CHECK(texel.channels[0].value == Approx(linear).epsilon(1e-6));
    CHECK(texel.channels[1].value == 0.0);
    CHECK(texel.channels[2].value == Approx(1.0).epsilon(1e-6));
    CHECK(texel.channels[3].kind == ChannelKind::Unorm);
    CHECK(texel.channels[3].value == near(srgb));
    const Texel bgra = one_texel(DXGI_FORMAT_B8G8R8A8_UNORM_SRGB, {0, 0, 188, 255});
    CHECK(bgra.channels[0].value == Approx(linear).epsilon(1e-6));
}

TEST_CASE("Depth formats: depth in channel 0, stencil in channel 1", "[texel_decode]") {
    // D24S8: depth 0x7fffff in the low 24 bits, stencil 3 above.
    const Texel d24 = one_texel(DXGI_FORMAT_D24_UNORM_S8_UINT, {0xff, 0xff, 0x7f, 0x03});
    CHECK(d24.depth_stencil);
    CHECK(d24.channels[0].code == 0x7fffff);
    CHECK(d24.channels[0].bits == 24);
    CHECK(d24.channels[0].value == near(8388607.0 / 16777215.0));
    CHECK(d24.channels[1].kind == ChannelKind::Uint);
    CHECK(d24.channels[1].integer == 3);

    // The views of its planes.
    const Texel depth_view = one_texel(DXGI_FORMAT_R24_UNORM_X8_TYPELESS, {0xff, 0xff, 0x7f, 0x03});
    CHECK(depth_view.depth_stencil);
    CHECK(depth_view.channels[0].code == 0x7fffff);
    CHECK_FALSE(depth_view.channels[1].present());
    const Texel stencil_view =
        one_texel(DXGI_FORMAT_X24_TYPELESS_G8_UINT, {0xff, 0xff, 0x7f, 0x03});
    CHECK_FALSE(stencil_view.channels[0].present());
    CHECK(stencil_view.channels[1].integer == 3);

    // D32S8X24: float depth 0.25, stencil 171, 24 unused bits that do not count.
    const Bytes d32s8 = {0x00, 0x00, 0x80, 0x3e, 0xab, 0xff, 0xff, 0xff};
    const Texel d32 = one_texel(DXGI_FORMAT_D32_FLOAT_S8X24_UINT, d32s8);
    CHECK(d32.depth_stencil);
    CHECK(d32.channels[0].value == 0.25);
    CHECK(d32.channels[1].integer == 171);
    CHECK(one_texel(DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS, d32s8).channels[0].value == 0.25);
    CHECK(one_texel(DXGI_FORMAT_X32_TYPELESS_G8X24_UINT, d32s8).channels[1].integer == 171);

    const Texel d16 = one_texel(DXGI_FORMAT_D16_UNORM, {0x00, 0x80});
    CHECK(d16.depth_stencil);
    CHECK(d16.channels[0].value == near(32768.0 / 65535.0));
    CHECK(one_texel(DXGI_FORMAT_D32_FLOAT, {0, 0, 0x80, 0x3f}).channels[0].value == 1.0);
    // A color format of the same group is no depth.
    CHECK_FALSE(one_texel(DXGI_FORMAT_R32_FLOAT, {0, 0, 0x80, 0x3f}).depth_stencil);
}

TEST_CASE("Packed 16-bit and 10-bit formats", "[texel_decode]") {
    // B5G6R5: R = 31 (bits 11-15), G = 32 (bits 5-10), B = 1: 0xfc01.
    const Texel b5g6r5 = one_texel(DXGI_FORMAT_B5G6R5_UNORM, {0x01, 0xfc});
    check_codes(b5g6r5, {31, 32, 1});
    CHECK(b5g6r5.channels[0].value == 1.0);
    CHECK(b5g6r5.channels[1].value == near(32.0 / 63.0));
    CHECK(b5g6r5.channels[2].value == near(1.0 / 31.0));
    CHECK_FALSE(b5g6r5.channels[3].present());

    // B5G5R5A1: A = 1, R = 16, G = 0, B = 31: 0x801f | 16 << 10 = 0xc01f.
    check_codes(one_texel(DXGI_FORMAT_B5G5R5A1_UNORM, {0x1f, 0xc0}), {16, 0, 31, 1});
    // B4G4R4A4: A = 0xc, R = 0x3, G = 0x2, B = 0x1.
    check_codes(one_texel(DXGI_FORMAT_B4G4R4A4_UNORM, {0x21, 0xc3}), {3, 2, 1, 12});

    // R10G10B10A2: 1023, 0, 512, 2: 0x3ff | 512 << 20 | 2 << 30 = 0xa00003ff.
    const Texel rgb10 = one_texel(DXGI_FORMAT_R10G10B10A2_UNORM, {0xff, 0x03, 0x00, 0xa0});
    check_codes(rgb10, {1023, 0, 512, 2});
    CHECK(rgb10.channels[2].value == near(512.0 / 1023.0));
    CHECK(rgb10.channels[3].value == near(2.0 / 3.0));

    // XR_BIAS: (code - 384) / 510; 894 is 1.0, 384 is 0, 0 is -0.7529.
    // 894 | 384 << 10 | 0 << 20 | 3 << 30 = 0xc006037e.
    const Texel xr = one_texel(DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM, {0x7e, 0x03, 0x06, 0xc0});
    CHECK(xr.channels[0].kind == ChannelKind::XrBias);
    check_codes(xr, {894, 384, 0, 3});
    CHECK(xr.channels[0].value == near(1.0));
    CHECK(xr.channels[1].value == 0.0);
    CHECK(xr.channels[2].value == near(-384.0 / 510.0));
    CHECK(xr.channels[3].value == 1.0);
}

TEST_CASE("Typeless formats read as UINT of their channel widths", "[texel_decode]") {
    const Texel rgba = one_texel(DXGI_FORMAT_R8G8B8A8_TYPELESS, {128, 0, 255, 7});
    CHECK(rgba.typeless);
    CHECK(rgba.channels[0].kind == ChannelKind::Uint);
    check_codes(rgba, {128, 0, 255, 7});
    CHECK(rgba.channels[0].value == 128.0);

    const Texel r24g8 = one_texel(DXGI_FORMAT_R24G8_TYPELESS, {0xff, 0xff, 0x7f, 0x03});
    CHECK(r24g8.typeless);
    CHECK_FALSE(r24g8.depth_stencil);
    check_codes(r24g8, {0x7fffff, 3});
    const Texel r32g8 =
        one_texel(DXGI_FORMAT_R32G8X24_TYPELESS, {0x00, 0x00, 0x80, 0x3e, 0xab, 0xff, 0xff, 0xff});
    check_codes(r32g8, {0x3e800000, 0xab});
    CHECK(one_texel(DXGI_FORMAT_B8G8R8A8_TYPELESS, {1, 2, 3, 4}).channels[0].integer == 3);
}

TEST_CASE("Packed pairs share R and B between two texels", "[texel_decode]") {
    const Bytes pair = {10, 20, 30, 40};
    check_codes(texel_at(DXGI_FORMAT_R8G8_B8G8_UNORM, pair, 2, 1, 0), {10, 20, 30});
    check_codes(texel_at(DXGI_FORMAT_R8G8_B8G8_UNORM, pair, 2, 1, 1), {10, 40, 30});
    check_codes(texel_at(DXGI_FORMAT_G8R8_G8B8_UNORM, pair, 2, 1, 0), {20, 10, 40});
    check_codes(texel_at(DXGI_FORMAT_G8R8_G8B8_UNORM, pair, 2, 1, 1), {20, 30, 40});
}

TEST_CASE("BC1: four colors, or three and transparent black", "[texel_decode][bc]") {
    // color_0 = 0xf800 (red), color_1 = 0x001f (blue), each row's indices 0, 1, 2, 3.
    // color_0 > color_1: color_2 = 2/3 c0 + 1/3 c1, color_3 = 1/3 c0 + 2/3 c1.
    const Bytes four = {0x00, 0xf8, 0x1f, 0x00, 0xe4, 0xe4, 0xe4, 0xe4};
    const auto texels = block_of(DXGI_FORMAT_BC1_UNORM, four);
    for (unsigned y = 0; y < 4; ++y) {
        INFO("row " << y);
        check_codes(texels[4 * y + 0], {255, 0, 0, 255});
        check_codes(texels[4 * y + 1], {0, 0, 255, 255});
        check_codes(texels[4 * y + 2], {170, 0, 85, 255});
        check_codes(texels[4 * y + 3], {85, 0, 170, 255});
    }
    CHECK(texels[2].compressed);
    CHECK(texels[2].channels[0].value == Approx(2.0 / 3.0).epsilon(1e-12));
    CHECK(texels[2].channels[2].value == Approx(1.0 / 3.0).epsilon(1e-12));
    CHECK(texels[3].channels[3].value == 1.0);

    // color_0 = 0x001f <= color_1 = 0xf800: color_2 is the mean, color_3 transparent black.
    const Bytes three = {0x1f, 0x00, 0x00, 0xf8, 0xe4, 0xe4, 0xe4, 0xe4};
    const auto mean = block_of(DXGI_FORMAT_BC1_UNORM, three);
    check_codes(mean[0], {0, 0, 255, 255});
    check_codes(mean[1], {255, 0, 0, 255});
    check_codes(mean[2], {128, 0, 128, 255});  // 0.5 * 255 = 127.5 rounds up
    CHECK(mean[2].channels[0].value == 0.5);
    check_codes(mean[3], {0, 0, 0, 0});
    CHECK(mean[3].channels[3].value == 0.0);

    // BC3's colors have no three-color mode: the same endpoints interpolate.
    Bytes bc3(16, 0);
    std::copy(three.begin(), three.end(), bc3.begin() + 8);
    bc3[0] = 255;  // alpha_0, indices 0: alpha 1
    const auto bc3_texels = block_of(DXGI_FORMAT_BC3_UNORM, bc3);
    check_codes(bc3_texels[2], {85, 0, 170, 255});
    check_codes(bc3_texels[3], {170, 0, 85, 255});
}

TEST_CASE("BC2 and BC3 alpha", "[texel_decode][bc]") {
    // BC2: explicit 4-bit alphas, texel i has alpha i.
    Bytes bc2(16, 0);
    for (unsigned i = 0; i < 16; ++i) put(bc2, 4 * i, 4, i);
    const auto explicit_alpha = block_of(DXGI_FORMAT_BC2_UNORM, bc2);
    for (unsigned i = 0; i < 16; ++i) {
        CHECK(explicit_alpha[i].channels[3].integer == 17 * i);
        CHECK(explicit_alpha[i].channels[3].value == Approx(i / 15.0).epsilon(1e-12));
    }

    // BC3: alpha_0 = 200 > alpha_1 = 100: six interpolated alphas,
    // alpha_k = ((8 - k) * 200 + (k - 1) * 100) / 7 for k = 2..7; texel i has index i % 8.
    Bytes bc3(16, 0);
    bc3[0] = 200;
    bc3[1] = 100;
    for (unsigned i = 0; i < 16; ++i) put(bc3, 16 + 3 * i, 3, i % 8);
    const auto six = block_of(DXGI_FORMAT_BC3_UNORM, bc3);
    const std::int64_t codes[8] = {200, 100, 186, 171, 157, 143, 129, 114};
    for (unsigned i = 0; i < 16; ++i) {
        const unsigned k = i % 8;
        INFO("texel " << i);
        CHECK(six[i].channels[3].integer == codes[k]);
        const double expected = k < 2 ? (k == 0 ? 200 : 100) / 255.0
                                      : ((8.0 - k) * 200 + (k - 1.0) * 100) / (7 * 255.0);
        CHECK(six[i].channels[3].value == Approx(expected).epsilon(1e-12));
    }

    // alpha_0 = 0 <= alpha_1 = 255: four interpolated, then 0 and 1.
    bc3[0] = 0;
    bc3[1] = 255;
    const auto four = block_of(DXGI_FORMAT_BC3_UNORM, bc3);
    CHECK(four[2].channels[3].integer == 51);  // (4 * 0 + 255) / 5
    CHECK(four[2].channels[3].value == Approx(0.2).epsilon(1e-12));
    CHECK(four[6].channels[3].value == 0.0);
    CHECK(four[7].channels[3].value == 1.0);
}

TEST_CASE("BC4 SNORM and BC5", "[texel_decode][bc]") {
    // red_0 = -128 (reads as -127, -1.0), red_1 = 64: not red_0 > red_1, so four
    // interpolated: red_k = ((6 - k) * -127 + (k - 1) * 64) / 5 for k = 2..5, then -1, 1.
    Bytes bc4 = {0x80, 0x40, 0, 0, 0, 0, 0, 0};
    for (unsigned i = 0; i < 16; ++i) put(bc4, 16 + 3 * i, 3, i % 8);
    const auto texels = block_of(DXGI_FORMAT_BC4_SNORM, bc4);
    const std::int64_t codes[8] = {-127, 64, -89, -51, -12, 26, -127, 127};
    for (unsigned k = 0; k < 8; ++k) {
        INFO("index " << k);
        CHECK(texels[k].channels[0].kind == ChannelKind::Snorm);
        CHECK(texels[k].channels[0].integer == codes[k]);
        CHECK_FALSE(texels[k].channels[1].present());
    }
    CHECK(texels[0].channels[0].value == -1.0);
    CHECK(texels[1].channels[0].value == Approx(64.0 / 127.0).epsilon(1e-12));
    CHECK(texels[2].channels[0].value == Approx(-444.0 / 635.0).epsilon(1e-12));
    CHECK(texels[6].channels[0].value == -1.0);
    CHECK(texels[7].channels[0].value == 1.0);
    CHECK(texels[2].channels[0].code == 0xa7);  // -89 in 8 bits

    // red_0 = 100 > red_1 = -50: six interpolated, red_2 = (6 * 100 - 50) / 7.
    bc4[0] = 100;
    bc4[1] = static_cast<std::uint8_t>(-50);
    const auto six = block_of(DXGI_FORMAT_BC4_SNORM, bc4);
    CHECK(six[2].channels[0].integer == 79);
    CHECK(six[2].channels[0].value == Approx(550.0 / 889.0).epsilon(1e-12));

    // BC5: red 255 > 0 with every index 2 (6/7), green 0 <= 255 with every index 7 (1.0).
    Bytes bc5(16, 0);
    bc5[0] = 255;
    bc5[9] = 255;
    for (unsigned i = 0; i < 16; ++i) {
        put(bc5, 16 + 3 * i, 3, 2);
        put(bc5, 64 + 16 + 3 * i, 3, 7);
    }
    const auto two = block_of(DXGI_FORMAT_BC5_UNORM, bc5);
    check_codes(two[5], {219, 255});
    CHECK(two[5].channels[0].value == Approx(6.0 / 7.0).epsilon(1e-12));
    CHECK(two[5].channels[1].value == 1.0);
    CHECK_FALSE(two[5].channels[2].present());
    CHECK_FALSE(two[5].channels[3].present());
}

TEST_CASE("BC6H UF16, one subset of 10-bit endpoints (mode 11)", "[texel_decode][bc]") {
    // Mode bits 00011; endpoints R 0..1023, G 495..495, B 100..300 at bits 5-64;
    // 4-bit indices from bit 65 (texel 0's with 3 bits).
    Bytes block(16, 0);
    put(block, 0, 5, 0b00011);
    put(block, 5, 10, 0);
    put(block, 15, 10, 495);
    put(block, 25, 10, 100);
    put(block, 35, 10, 1023);
    put(block, 45, 10, 495);
    put(block, 55, 10, 300);
    put(block, 65, 3, 0);            // texel 0: index 0
    put(block, 68, 4, 8);            // texel 1: index 8, weight 34
    put(block, 68 + 4 * 14, 4, 15);  // texel 15: index 15, weight 64
    // Unquantized: 0 -> 0, 1023 -> 0xffff, else (c << 16 | 0x8000) >> 10 = 64c + 32:
    // G 31712, B 6432 and 19232. Interpolated (a(64 - w) + bw + 32) >> 6, then * 31 >> 6:
    //   texel 0:  R 0, G 31712 -> 0x3c00 (1.0), B 6432 -> 0x0c2b;
    //   texel 1:  R (65535 * 34 + 32) >> 6 = 34815 -> 0x41df, B 13232 -> 0x1909;
    //   texel 15: R 65535 -> 0x7bff (65504), B 19232 -> 0x2463.
    const auto texels = block_of(DXGI_FORMAT_BC6H_UF16, block);
    check_codes(texels[0], {0x0000, 0x3c00, 0x0c2b});
    check_codes(texels[1], {0x41df, 0x3c00, 0x1909});
    check_codes(texels[15], {0x7bff, 0x3c00, 0x2463});
    check_codes(texels[7], {0x0000, 0x3c00, 0x0c2b});
    CHECK(texels[1].channels[0].value == half(0x41df));  // 2.935546875
    CHECK(texels[1].channels[0].value == 2.935546875);
    CHECK(texels[1].channels[1].value == 1.0);
    CHECK(texels[15].channels[0].value == 65504.0);
    CHECK(texels[15].channels[2].value == half(0x2463));
    CHECK(texels[0].channels[0].kind == ChannelKind::Float);
    CHECK(texels[0].channels[0].bits == 16);
    CHECK_FALSE(texels[0].channels[3].present());
}

TEST_CASE("BC6H SF16, two subsets with transformed endpoints (mode 1)", "[texel_decode][bc]") {
    // Mode bits 00: 10-bit endpoint 0, 5-bit signed offsets. R: 100, then -4, +10,
    // -16 (R1 bits 35-39, R2 65-69, R3 71-75); B: -100 (bits 25-34), offsets 0;
    // G all 0. Partition 13 (texels 8-15 in subset 1, anchor 15) at bits 77-81.
    Bytes block(16, 0);
    put(block, 5, 10, 100);
    put(block, 25, 10, 1024 - 100);
    put(block, 35, 5, 32 - 4);
    put(block, 65, 5, 10);
    put(block, 71, 5, 32 - 16);
    put(block, 77, 5, 13);
    // 3-bit indices from bit 82; texels 0 and 15 (the anchors) have 2 bits.
    put(block, 82, 2, 3);
    for (unsigned i = 1; i < 15; ++i) put(block, 84 + 3 * (i - 1), 3, i < 8 ? 3 : 5);
    put(block, 126, 2, 2);
    // Endpoints R 100, 96 | 110, 84 and B -100 everywhere; unquantized
    // ((|c| << 15) + 0x4000) >> 9: 6432, 6176 | 7072, 5408, B -6432.
    //   texel 0 (weight 27): R (6432 * 37 + 6176 * 27 + 32) >> 6 = 6324, * 31 >> 5 = 0x17ee;
    //                        B -6432 -> -(6432 * 31 >> 5) = -6231 -> 0x9857.
    //   texel 8 (weight 46): R (7072 * 18 + 5408 * 46 + 32) >> 6 = 5876 -> 0x163c.
    //   texel 15 (weight 18): R (7072 * 46 + 5408 * 18 + 32) >> 6 = 6604 -> 0x18fd.
    const auto texels = block_of(DXGI_FORMAT_BC6H_SF16, block);
    check_codes(texels[0], {0x17ee, 0x0000, 0x9857});
    check_codes(texels[7], {0x17ee, 0x0000, 0x9857});
    check_codes(texels[8], {0x163c, 0x0000, 0x9857});
    check_codes(texels[15], {0x18fd, 0x0000, 0x9857});
    CHECK(texels[0].channels[2].value == half(0x9857));
    CHECK(texels[0].channels[2].value < 0.0);
    CHECK(texels[8].channels[0].value == half(0x163c));

    // A reserved mode (10011) decodes to black.
    Bytes reserved(16, 0xff);
    reserved[0] = 0b10011;
    const auto black = block_of(DXGI_FORMAT_BC6H_UF16, reserved);
    check_codes(black[9], {0, 0, 0});
}

TEST_CASE("BC7 mode 6: one subset, 7-bit RGBA endpoints with P-bits", "[texel_decode][bc]") {
    // Mode bit 6; R 127, 0; G 0, 64; B 32, 96; A 127, 127; P-bits 1, 0.
    // Endpoints (value << 1 | P): (255, 1, 65, 255) and (0, 128, 192, 254).
    Bytes block(16, 0);
    put(block, 0, 7, 0x40);
    put(block, 7, 7, 127);
    put(block, 14, 7, 0);
    put(block, 21, 7, 0);
    put(block, 28, 7, 64);
    put(block, 35, 7, 32);
    put(block, 42, 7, 96);
    put(block, 49, 7, 127);
    put(block, 56, 7, 127);
    put(block, 63, 1, 1);
    put(block, 64, 1, 0);
    // 4-bit indices from bit 65 (texel 0's with 3 bits): texel 1 index 7
    // (weight 30), texel 15 index 15; ((64 - w) e0 + w e1 + 32) >> 6.
    put(block, 68, 4, 7);
    put(block, 68 + 4 * 14, 4, 15);
    const auto texels = block_of(DXGI_FORMAT_BC7_UNORM, block);
    check_codes(texels[0], {255, 1, 65, 255});
    check_codes(texels[1], {135, 61, 125, 255});
    check_codes(texels[15], {0, 128, 192, 254});
    check_codes(texels[9], {255, 1, 65, 255});
    CHECK(texels[1].channels[0].value == near(135.0 / 255.0));

    // The sRGB variant keeps the codes and linearizes R, G, B.
    const auto srgb = block_of(DXGI_FORMAT_BC7_UNORM_SRGB, block);
    check_codes(srgb[1], {135, 61, 125, 255});
    CHECK(srgb[1].channels[0].kind == ChannelKind::Srgb);
    CHECK(srgb[1].channels[0].value ==
          Approx(std::pow((135.0 / 255.0 + 0.055) / 1.055, 2.4)).epsilon(1e-6));
    CHECK(srgb[15].channels[3].value == near(254.0 / 255.0));

    // A first byte of 0 is reserved: every channel 0.
    const auto zero = block_of(DXGI_FORMAT_BC7_UNORM, Bytes(16, 0));
    check_codes(zero[3], {0, 0, 0, 0});
}

TEST_CASE("BC7 mode 1: two subsets, shared P-bits, a middle anchor", "[texel_decode][bc]") {
    // Mode bits 01, partition 17 (texels 1, 2, 3, 7 in subset 1; its anchor is texel 2).
    // 6-bit channels of endpoints 0-3: R 63, 0, 0, 10; G 0, 63, 0, 20; B 0, 0, 32, 63;
    // shared P-bits 1 (subset 0) and 0 (subset 1). Each (c << 1 | P) to 8 bits by
    // repeating its top bit: subset 0 (255, 2, 2) and (2, 255, 2), subset 1 (0, 0, 129)
    // and (40, 80, 253).
    Bytes block(16, 0);
    put(block, 0, 2, 0b10);
    put(block, 2, 6, 17);
    const std::uint32_t channels[3][4] = {{63, 0, 0, 10}, {0, 63, 0, 20}, {0, 0, 32, 63}};
    for (unsigned c = 0; c < 3; ++c) {
        for (unsigned k = 0; k < 4; ++k) put(block, 8 + 24 * c + 6 * k, 6, channels[c][k]);
    }
    put(block, 80, 1, 1);
    put(block, 81, 1, 0);
    // 3-bit indices from bit 82; texels 0 and 2 (the anchors) have 2 bits.
    put(block, 82, 2, 3);           // texel 0: weight 27
    put(block, 87, 2, 1);           // texel 2: weight 9
    put(block, 92 + 3 * 3, 3, 7);   // texel 7: weight 64
    put(block, 92 + 3 * 11, 3, 4);  // texel 15: weight 37
    const auto texels = block_of(DXGI_FORMAT_BC7_UNORM, block);
    check_codes(texels[0], {148, 109, 2, 255});  // (37 * 255 + 27 * 2 + 32) >> 6 = 148
    check_codes(texels[1], {0, 0, 129, 255});
    check_codes(texels[2], {6, 11, 146, 255});  // (55 * 129 + 9 * 253 + 32) >> 6 = 146
    check_codes(texels[4], {255, 2, 2, 255});
    check_codes(texels[7], {40, 80, 253, 255});
    check_codes(texels[15], {109, 148, 2, 255});
}

TEST_CASE("BC7 mode 2: three subsets, two anchors besides texel 0", "[texel_decode][bc]") {
    // Mode bits 001, partition 6 (rows 0022, 0022, 1111, 1111; anchors 15 and 3).
    // 5-bit channels: R of endpoints 0, 1 = 31, 0; G of 2, 3 = 31, 0; B of 4, 5 = 31, 16
    // (to 8 bits: 255, 132); everything else 0.
    Bytes block(16, 0);
    put(block, 0, 3, 0b100);
    put(block, 3, 6, 6);
    put(block, 9, 5, 31);
    put(block, 39 + 10, 5, 31);
    put(block, 69 + 20, 5, 31);
    put(block, 69 + 25, 5, 16);
    // 2-bit indices from bit 99; texels 0, 3 and 15 have 1 bit.
    put(block, 99, 1, 1);           // texel 0: weight 21
    put(block, 102, 2, 3);          // texel 2: weight 64
    put(block, 104, 1, 1);          // texel 3: weight 21
    put(block, 105 + 2 * 5, 2, 2);  // texel 9: weight 43 (bits 115-116)
    put(block, 127, 1, 1);          // texel 15: weight 21
    const auto texels = block_of(DXGI_FORMAT_BC7_UNORM, block);
    check_codes(texels[0], {171, 0, 0, 255});  // (43 * 255 + 32) >> 6
    check_codes(texels[1], {255, 0, 0, 255});
    check_codes(texels[2], {0, 0, 132, 255});
    check_codes(texels[3], {0, 0, 215, 255});  // (43 * 255 + 21 * 132 + 32) >> 6
    check_codes(texels[9], {0, 84, 0, 255});   // (21 * 255 + 32) >> 6
    check_codes(texels[15], {0, 171, 0, 255});
}

TEST_CASE("BC7 mode 5: separate alpha indices and a channel rotation", "[texel_decode][bc]") {
    // Mode bit 5, rotation 1 (swap R and A); R 127, 0 -> 255, 0; B 64, 64 -> 129;
    // A 10, 200 (8 bits). Color indices from bit 66, alpha indices from bit 97
    // (2 bits each, texel 0's 1 bit).
    Bytes block(16, 0);
    put(block, 0, 6, 0b100000);
    put(block, 6, 2, 1);
    put(block, 8, 7, 127);
    put(block, 36, 7, 64);
    put(block, 43, 7, 64);
    put(block, 50, 8, 10);
    put(block, 58, 8, 200);
    put(block, 67, 2, 2);  // texel 1 color: weight 43
    put(block, 97, 1, 1);  // texel 0 alpha: weight 21
    put(block, 98, 2, 1);  // texel 1 alpha: weight 21
    // Texel 1 before rotation: R (21 * 255 + 32) >> 6 = 84, A (43 * 10 + 21 * 200 + 32) >> 6 = 72.
    const auto texels = block_of(DXGI_FORMAT_BC7_UNORM, block);
    check_codes(texels[0], {72, 0, 129, 255});
    check_codes(texels[1], {72, 0, 129, 84});
}

TEST_CASE("Texel text for the status bar", "[texel_decode]") {
    CHECK(describe(DXGI_FORMAT_R8G8B8A8_UNORM, {128, 0, 255, 255}) ==
          "R 0.502 (128) G 0.000 (0) B 1.000 (255) A 1.000 (255)");
    CHECK(describe(DXGI_FORMAT_D24_UNORM_S8_UINT, {0xff, 0xff, 0x7f, 0x03}) ==
          "D 0.500000 (0x7fffff) S 3");
    CHECK(describe(DXGI_FORMAT_R16_FLOAT, {0x00, 0x3e}) == "R 1.5 (0x3e00)");
    CHECK(describe(DXGI_FORMAT_R8G8_SNORM, {0x80, 0x40}) == "R -1.000 (-128) G 0.504 (64)");
    CHECK(describe(DXGI_FORMAT_R32G32_SINT, {0x00, 0x00, 0x00, 0x80, 0xff, 0xff, 0xff, 0xff}) ==
          "R -2147483648 G -1");
    CHECK(describe(DXGI_FORMAT_D32_FLOAT_S8X24_UINT, {0, 0, 0x80, 0x3f, 7, 0, 0, 0}) ==
          "D 1 (0x3f800000) S 7");
    CHECK(describe(DXGI_FORMAT_R11G11B10_FLOAT, {0xc0, 0x03, 0x1c, 0x80}) ==
          "R 1 (0x3c0) G 0.5 (0x380) B 2 (0x200)");
    CHECK(describe(DXGI_FORMAT_R9G9B9E5_SHAREDEXP, {0x00, 0x01, 0x01, 0x80}) ==
          "R 1 (256) G 0.5 (128) B 0 (0) E 16");
    CHECK(describe(DXGI_FORMAT_R8G8B8A8_TYPELESS, {1, 2, 3, 4}) == "R 1 G 2 B 3 A 4 (typeless)");
    CHECK(describe(DXGI_FORMAT_A8_UNORM, {128}) == "A 0.502 (128)");
    CHECK(describe(DXGI_FORMAT_R32_FLOAT, {0x00, 0x00, 0xc0, 0x7f}) == "R nan (0x7fc00000)");

    const Bytes bc1 = {0x00, 0xf8, 0x1f, 0x00, 0xe4, 0xe4, 0xe4, 0xe4};
    Texel texel = texel_at(DXGI_FORMAT_BC1_TYPELESS, bc1, 4, 4, 2, 1);
    CHECK(texel.decoded_as == DXGI_FORMAT_BC1_UNORM);
    CHECK(d3dcap::runtime::formats::describe_texel(texel) ==
          "R 0.667 (170) G 0.000 (0) B 0.333 (85) A 1.000 (255) (typeless, as BC1_UNORM)");
}

TEST_CASE("decode_rgba: rows with padding, missing channels, depth and blocks", "[texel_decode]") {
    // 3x2 RGBA8 with a row pitch of 16 (4 bytes of padding per row).
    Bytes bytes(32, 0xee);
    for (unsigned y = 0; y < 2; ++y) {
        for (unsigned x = 0; x < 3; ++x) {
            for (unsigned c = 0; c < 4; ++c)
                bytes[y * 16 + x * 4 + c] = std::uint8_t(10 * (y * 3 + x) + c);
        }
    }
    std::vector<float> rgba;
    std::string error;
    REQUIRE(d3dcap::runtime::formats::decode_rgba(DXGI_FORMAT_R8G8B8A8_UNORM, bytes, 16, 3, 2, rgba,
                                                  &error));
    REQUIRE(rgba.size() == 24);
    for (unsigned i = 0; i < 6; ++i) {
        for (unsigned c = 0; c < 4; ++c) CHECK(rgba[4 * i + c] == float((10 * i + c) / 255.0));
    }

    // R8G8: blue 0, alpha 1.
    REQUIRE(d3dcap::runtime::formats::decode_rgba(DXGI_FORMAT_R8G8_UNORM, Bytes{255, 0}, 2, 1, 1,
                                                  rgba));
    CHECK(rgba == std::vector<float>{1.0f, 0.0f, 0.0f, 1.0f});
    // Depth to R, stencil to G as its integer.
    REQUIRE(d3dcap::runtime::formats::decode_rgba(DXGI_FORMAT_D24_UNORM_S8_UINT,
                                                  Bytes{0xff, 0xff, 0xff, 0x05}, 4, 1, 1, rgba));
    CHECK(rgba == std::vector<float>{1.0f, 5.0f, 0.0f, 1.0f});

    // BC1 5x3: two blocks across, the texels past the edge dropped.
    const Bytes blocks = {0x00, 0xf8, 0x1f, 0x00, 0xe4, 0xe4, 0xe4, 0xe4,
                          0x1f, 0x00, 0x00, 0xf8, 0xe4, 0xe4, 0xe4, 0xe4};
    REQUIRE(d3dcap::runtime::formats::decode_rgba(DXGI_FORMAT_BC1_UNORM, blocks, 16, 5, 3, rgba,
                                                  &error));
    REQUIRE(rgba.size() == 5 * 3 * 4);
    const float* row2 = rgba.data() + 2 * 5 * 4;
    CHECK(row2[2 * 4 + 0] == float(2.0 / 3.0));  // (2, 2): color_2 of the first block
    CHECK(row2[4 * 4 + 2] == 1.0f);              // (4, 2): color_0 of the second, blue
}

TEST_CASE("decode_rgba gives what decode_texel gives, for every decodable format",
          "[texel_decode]") {
    std::mt19937 generator(7);
    for (unsigned value = 1; value <= DXGI_FORMAT_B4G4R4A4_UNORM; ++value) {
        const auto format = static_cast<DXGI_FORMAT>(value);
        if (!d3dcap::runtime::formats::texel_decodable(format)) continue;
        INFO(d3dcap::runtime::formats::describe(format));
        const std::uint32_t width = 9, height = 6;
        const std::uint64_t pitch = d3dcap::runtime::formats::row_pitch(format, width) + 3;
        Bytes bytes(pitch * d3dcap::runtime::formats::row_count(format, height));
        for (std::uint8_t& byte : bytes) byte = std::uint8_t(generator());
        std::vector<float> rgba;
        std::string error;
        REQUIRE(d3dcap::runtime::formats::decode_rgba(format, bytes, pitch, width, height, rgba,
                                                      &error));
        for (std::uint32_t y = 0; y < height; ++y) {
            for (std::uint32_t x = 0; x < width; ++x) {
                Texel texel;
                REQUIRE(d3dcap::runtime::formats::decode_texel(format, bytes, pitch, width, height,
                                                               x, y, texel, &error));
                for (unsigned c = 0; c < 4; ++c) {
                    const auto& channel = texel.channels[c];
                    const float expected =
                        channel.present() ? float(channel.value) : (c == 3 ? 1.0f : 0.0f);
                    const float got = rgba[(std::size_t{y} * width + x) * 4 + c];
                    INFO("texel " << x << ", " << y << " channel " << c);
                    if (std::isnan(expected)) {
                        CHECK(std::isnan(got));
                    } else {
                        CHECK(got == expected);
                    }
                }
            }
        }
    }
}

TEST_CASE("Bad input is refused with the reason", "[texel_decode]") {
    std::string error;
    Texel texel;
    const Bytes four(4, 0);
    CHECK_FALSE(d3dcap::runtime::formats::decode_texel(static_cast<DXGI_FORMAT>(200), four, 4, 1, 1,
                                                       0, 0, texel, &error));
    CHECK(error == "DXGI_FORMAT value 200 (unknown): not a DXGI format the runtime knows");
    CHECK_FALSE(d3dcap::runtime::formats::texel_decodable(DXGI_FORMAT_UNKNOWN, &error));
    CHECK(error == "DXGI_FORMAT_UNKNOWN (0): no texels to decode");
    CHECK_FALSE(d3dcap::runtime::formats::texel_decodable(DXGI_FORMAT_NV12, &error));
    CHECK(error == "DXGI_FORMAT_NV12 (103): video formats are not decoded");
    CHECK_FALSE(d3dcap::runtime::formats::texel_decodable(DXGI_FORMAT_R1_UNORM, &error));
    CHECK(error == "DXGI_FORMAT_R1_UNORM (66): 1-bit texels are not decoded");

    // 4x4 RGBA8 needs 64 bytes.
    const Bytes short_buffer(63, 0);
    CHECK_FALSE(d3dcap::runtime::formats::decode_texel(DXGI_FORMAT_R8G8B8A8_UNORM, short_buffer, 16,
                                                       4, 4, 0, 0, texel, &error));
    CHECK(error ==
          "4x4 DXGI_FORMAT_R8G8B8A8_UNORM (28) at a row pitch of 16 needs 64 bytes, got 63");
    std::vector<float> rgba;
    CHECK_FALSE(d3dcap::runtime::formats::decode_rgba(DXGI_FORMAT_BC7_UNORM, Bytes(31, 0), 32, 8, 4,
                                                      rgba, &error));
    CHECK(error == "8x4 DXGI_FORMAT_BC7_UNORM (98) at a row pitch of 32 needs 32 bytes, got 31");
    CHECK_FALSE(d3dcap::runtime::formats::decode_rgba(DXGI_FORMAT_R8G8B8A8_UNORM, Bytes(64, 0), 12,
                                                      4, 4, rgba, &error));
    CHECK(error ==
          "4x4 DXGI_FORMAT_R8G8B8A8_UNORM (28): a row pitch of 12 bytes is less than a "
          "row of 16");
    CHECK_FALSE(d3dcap::runtime::formats::decode_texel(DXGI_FORMAT_R8G8B8A8_UNORM, Bytes(64, 0), 16,
                                                       4, 4, 4, 0, texel, &error));
    CHECK(error == "texel (4, 0) is outside the 4x4 subresource");
    std::vector<float> small(15);
    CHECK_FALSE(d3dcap::runtime::formats::decode_rgba(DXGI_FORMAT_R8G8B8A8_UNORM, Bytes(64, 0), 16,
                                                      2, 2, std::span<float>(small), &error));
    CHECK(error == "the output holds 15 floats, 2x2 texels need 16");
    CHECK_FALSE(d3dcap::runtime::formats::decode_rgba(DXGI_FORMAT_R8_UNORM, Bytes(1, 0), 1, 65536,
                                                      65536, rgba, &error));
    CHECK(error == "65536x65536 DXGI_FORMAT_R8_UNORM (61): larger than any Direct3D 11 texture");

    std::array<Texel, 16> texels;
    CHECK_FALSE(
        d3dcap::runtime::formats::decode_block(DXGI_FORMAT_R8G8B8A8_UNORM, four, texels, &error));
    CHECK(error == "DXGI_FORMAT_R8G8B8A8_UNORM (28): not a block-compressed format");
    CHECK_FALSE(
        d3dcap::runtime::formats::decode_block(DXGI_FORMAT_BC3_UNORM, Bytes(8, 0), texels, &error));
    CHECK(error == "DXGI_FORMAT_BC3_UNORM (77): a block is 16 bytes, got 8");

    // Nothing to read is fine; no error pointer is fine.
    CHECK(
        d3dcap::runtime::formats::decode_rgba(DXGI_FORMAT_R8G8B8A8_UNORM, Bytes{}, 0, 0, 0, rgba));
    CHECK(rgba.empty());
    CHECK_FALSE(
        d3dcap::runtime::formats::decode_texel(DXGI_FORMAT_NV12, four, 4, 1, 1, 0, 0, texel));
}
