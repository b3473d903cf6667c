// The DXGI format table: sizes, kinds, channels and names of a sample of
// formats, and the row arithmetic of block, packed and planar formats.
#include "runtime/formats/formats.h"

#include <catch2/catch.hpp>
#include <string>

namespace {

using d3dcap::runtime::formats::FormatInfo;
using d3dcap::runtime::formats::Kind;
namespace formats = d3dcap::runtime::formats;

struct ExpectedFormat {
    DXGI_FORMAT format;
    const char* name;
    Kind kind;
    unsigned bits;
    unsigned block_width, block_height;
    unsigned channels;
    unsigned r, g, b, a;
};

// Hand-written from the DXGI format documentation.
const ExpectedFormat kExpected[] = {
    {DXGI_FORMAT_UNKNOWN, "DXGI_FORMAT_UNKNOWN", Kind::Unknown, 0, 1, 1, 0, 0, 0, 0, 0},
    {DXGI_FORMAT_R32G32B32A32_TYPELESS, "DXGI_FORMAT_R32G32B32A32_TYPELESS", Kind::Typeless, 128, 1,
     1, 4, 32, 32, 32, 32},
    {DXGI_FORMAT_R32G32B32A32_FLOAT, "DXGI_FORMAT_R32G32B32A32_FLOAT", Kind::Float, 128, 1, 1, 4,
     32, 32, 32, 32},
    {DXGI_FORMAT_R32G32B32_FLOAT, "DXGI_FORMAT_R32G32B32_FLOAT", Kind::Float, 96, 1, 1, 3, 32, 32,
     32, 0},
    {DXGI_FORMAT_R16G16B16A16_SNORM, "DXGI_FORMAT_R16G16B16A16_SNORM", Kind::Snorm, 64, 1, 1, 4, 16,
     16, 16, 16},
    {DXGI_FORMAT_R32G8X24_TYPELESS, "DXGI_FORMAT_R32G8X24_TYPELESS", Kind::Typeless, 64, 1, 1, 2,
     32, 8, 0, 0},
    {DXGI_FORMAT_D32_FLOAT_S8X24_UINT, "DXGI_FORMAT_D32_FLOAT_S8X24_UINT", Kind::Depth, 64, 1, 1, 2,
     32, 8, 0, 0},
    {DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS, "DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS", Kind::Float, 64,
     1, 1, 1, 32, 0, 0, 0},
    {DXGI_FORMAT_X32_TYPELESS_G8X24_UINT, "DXGI_FORMAT_X32_TYPELESS_G8X24_UINT", Kind::Uint, 64, 1,
     1, 1, 0, 8, 0, 0},
    {DXGI_FORMAT_R10G10B10A2_UINT, "DXGI_FORMAT_R10G10B10A2_UINT", Kind::Uint, 32, 1, 1, 4, 10, 10,
     10, 2},
    {DXGI_FORMAT_R11G11B10_FLOAT, "DXGI_FORMAT_R11G11B10_FLOAT", Kind::Float, 32, 1, 1, 3, 11, 11,
     10, 0},
    {DXGI_FORMAT_R8G8B8A8_UNORM, "DXGI_FORMAT_R8G8B8A8_UNORM", Kind::Unorm, 32, 1, 1, 4, 8, 8, 8,
     8},
    {DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, "DXGI_FORMAT_R8G8B8A8_UNORM_SRGB", Kind::UnormSrgb, 32, 1, 1,
     4, 8, 8, 8, 8},
    {DXGI_FORMAT_R16G16_SINT, "DXGI_FORMAT_R16G16_SINT", Kind::Sint, 32, 1, 1, 2, 16, 16, 0, 0},
    {DXGI_FORMAT_D32_FLOAT, "DXGI_FORMAT_D32_FLOAT", Kind::Depth, 32, 1, 1, 1, 32, 0, 0, 0},
    {DXGI_FORMAT_R24G8_TYPELESS, "DXGI_FORMAT_R24G8_TYPELESS", Kind::Typeless, 32, 1, 1, 2, 24, 8,
     0, 0},
    {DXGI_FORMAT_D24_UNORM_S8_UINT, "DXGI_FORMAT_D24_UNORM_S8_UINT", Kind::Depth, 32, 1, 1, 2, 24,
     8, 0, 0},
    {DXGI_FORMAT_R24_UNORM_X8_TYPELESS, "DXGI_FORMAT_R24_UNORM_X8_TYPELESS", Kind::Unorm, 32, 1, 1,
     1, 24, 0, 0, 0},
    {DXGI_FORMAT_X24_TYPELESS_G8_UINT, "DXGI_FORMAT_X24_TYPELESS_G8_UINT", Kind::Uint, 32, 1, 1, 1,
     0, 8, 0, 0},
    {DXGI_FORMAT_R8G8_SNORM, "DXGI_FORMAT_R8G8_SNORM", Kind::Snorm, 16, 1, 1, 2, 8, 8, 0, 0},
    {DXGI_FORMAT_R16_FLOAT, "DXGI_FORMAT_R16_FLOAT", Kind::Float, 16, 1, 1, 1, 16, 0, 0, 0},
    {DXGI_FORMAT_D16_UNORM, "DXGI_FORMAT_D16_UNORM", Kind::Depth, 16, 1, 1, 1, 16, 0, 0, 0},
    {DXGI_FORMAT_R8_UINT, "DXGI_FORMAT_R8_UINT", Kind::Uint, 8, 1, 1, 1, 8, 0, 0, 0},
    {DXGI_FORMAT_A8_UNORM, "DXGI_FORMAT_A8_UNORM", Kind::Unorm, 8, 1, 1, 1, 0, 0, 0, 8},
    {DXGI_FORMAT_R1_UNORM, "DXGI_FORMAT_R1_UNORM", Kind::Other, 1, 1, 1, 1, 1, 0, 0, 0},
    {DXGI_FORMAT_R9G9B9E5_SHAREDEXP, "DXGI_FORMAT_R9G9B9E5_SHAREDEXP", Kind::Other, 32, 1, 1, 3, 9,
     9, 9, 0},
    {DXGI_FORMAT_R8G8_B8G8_UNORM, "DXGI_FORMAT_R8G8_B8G8_UNORM", Kind::Other, 32, 2, 1, 3, 8, 8, 8,
     0},
    {DXGI_FORMAT_G8R8_G8B8_UNORM, "DXGI_FORMAT_G8R8_G8B8_UNORM", Kind::Other, 32, 2, 1, 3, 8, 8, 8,
     0},
    {DXGI_FORMAT_BC1_UNORM, "DXGI_FORMAT_BC1_UNORM", Kind::Compressed, 64, 4, 4, 4, 0, 0, 0, 0},
    {DXGI_FORMAT_BC2_UNORM_SRGB, "DXGI_FORMAT_BC2_UNORM_SRGB", Kind::Compressed, 128, 4, 4, 4, 0, 0,
     0, 0},
    {DXGI_FORMAT_BC3_TYPELESS, "DXGI_FORMAT_BC3_TYPELESS", Kind::Compressed, 128, 4, 4, 4, 0, 0, 0,
     0},
    {DXGI_FORMAT_BC4_SNORM, "DXGI_FORMAT_BC4_SNORM", Kind::Compressed, 64, 4, 4, 1, 0, 0, 0, 0},
    {DXGI_FORMAT_BC5_UNORM, "DXGI_FORMAT_BC5_UNORM", Kind::Compressed, 128, 4, 4, 2, 0, 0, 0, 0},
    {DXGI_FORMAT_B5G6R5_UNORM, "DXGI_FORMAT_B5G6R5_UNORM", Kind::Unorm, 16, 1, 1, 3, 5, 6, 5, 0},
    {DXGI_FORMAT_B5G5R5A1_UNORM, "DXGI_FORMAT_B5G5R5A1_UNORM", Kind::Unorm, 16, 1, 1, 4, 5, 5, 5,
     1},
    {DXGI_FORMAT_B8G8R8X8_UNORM, "DXGI_FORMAT_B8G8R8X8_UNORM", Kind::Unorm, 32, 1, 1, 3, 8, 8, 8,
     0},
    {DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM, "DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM", Kind::Unorm,
     32, 1, 1, 4, 10, 10, 10, 2},
    {DXGI_FORMAT_B8G8R8A8_UNORM_SRGB, "DXGI_FORMAT_B8G8R8A8_UNORM_SRGB", Kind::UnormSrgb, 32, 1, 1,
     4, 8, 8, 8, 8},
    {DXGI_FORMAT_BC6H_SF16, "DXGI_FORMAT_BC6H_SF16", Kind::Compressed, 128, 4, 4, 3, 0, 0, 0, 0},
    {DXGI_FORMAT_BC7_UNORM, "DXGI_FORMAT_BC7_UNORM", Kind::Compressed, 128, 4, 4, 4, 0, 0, 0, 0},
    {DXGI_FORMAT_AYUV, "DXGI_FORMAT_AYUV", Kind::Video, 32, 1, 1, 4, 8, 8, 8, 8},
    {DXGI_FORMAT_Y416, "DXGI_FORMAT_Y416", Kind::Video, 64, 1, 1, 4, 16, 16, 16, 16},
    {DXGI_FORMAT_NV12, "DXGI_FORMAT_NV12", Kind::Video, 12, 1, 1, 3, 8, 8, 8, 0},
    {DXGI_FORMAT_P010, "DXGI_FORMAT_P010", Kind::Video, 24, 1, 1, 3, 10, 10, 10, 0},
    {DXGI_FORMAT_420_OPAQUE, "DXGI_FORMAT_420_OPAQUE", Kind::Video, 12, 1, 1, 3, 8, 8, 8, 0},
    {DXGI_FORMAT_YUY2, "DXGI_FORMAT_YUY2", Kind::Video, 32, 2, 1, 3, 8, 8, 8, 0},
    {DXGI_FORMAT_Y210, "DXGI_FORMAT_Y210", Kind::Video, 64, 2, 1, 3, 10, 10, 10, 0},
    {DXGI_FORMAT_AI44, "DXGI_FORMAT_AI44", Kind::Video, 8, 1, 1, 2, 4, 0, 0, 4},
    {DXGI_FORMAT_A8P8, "DXGI_FORMAT_A8P8", Kind::Video, 16, 1, 1, 2, 8, 0, 0, 8},
    {DXGI_FORMAT_B4G4R4A4_UNORM, "DXGI_FORMAT_B4G4R4A4_UNORM", Kind::Unorm, 16, 1, 1, 4, 4, 4, 4,
     4},
};

}  // namespace

TEST_CASE("formats: sizes, kinds, blocks, channels and names of 50 formats") {
    for (const ExpectedFormat& expected : kExpected) {
        const FormatInfo& facts = formats::info(expected.format);
        INFO(expected.name);
        CHECK(facts.format == expected.format);
        CHECK(std::string(facts.name) == expected.name);
        CHECK(facts.kind == expected.kind);
        CHECK(facts.bits_per_element == expected.bits);
        CHECK(facts.block_width == expected.block_width);
        CHECK(facts.block_height == expected.block_height);
        CHECK(facts.channels == expected.channels);
        CHECK(facts.channel_bits[0] == expected.r);
        CHECK(facts.channel_bits[1] == expected.g);
        CHECK(facts.channel_bits[2] == expected.b);
        CHECK(facts.channel_bits[3] == expected.a);
    }
}

TEST_CASE("formats: every value 0..115 is in the table under its own value and name") {
    for (unsigned value = 0; value <= 115; ++value) {
        const auto format = static_cast<DXGI_FORMAT>(value);
        const FormatInfo& facts = formats::info(format);
        INFO("value " << value << " " << facts.name);
        CHECK(facts.format == format);
        CHECK(std::string(facts.name).rfind("DXGI_FORMAT_", 0) == 0);
        CHECK((value == 0) == (facts.kind == Kind::Unknown));
        CHECK((value == 0) == (facts.bits_per_element == 0));
        if (facts.kind != Kind::Compressed && facts.kind != Kind::Video) {
            // Channels never need more bits than the element has, and each
            // channel counted has bits.
            unsigned channel_sum = 0, channels_with_bits = 0;
            for (auto bits : facts.channel_bits) {
                channel_sum += bits;
                channels_with_bits += bits != 0;
            }
            CHECK(channel_sum <= facts.bits_per_element);
            CHECK(channels_with_bits == facts.channels);
        }
    }
}

TEST_CASE("formats: block-compressed formats say what their blocks hold") {
    CHECK(formats::info(DXGI_FORMAT_BC1_TYPELESS).block_kind == Kind::Typeless);
    CHECK(formats::info(DXGI_FORMAT_BC1_UNORM_SRGB).block_kind == Kind::UnormSrgb);
    CHECK(formats::info(DXGI_FORMAT_BC4_SNORM).block_kind == Kind::Snorm);
    CHECK(formats::info(DXGI_FORMAT_BC6H_UF16).block_kind == Kind::Float);
    CHECK(formats::info(DXGI_FORMAT_BC7_UNORM).block_kind == Kind::Unorm);
    CHECK(formats::info(DXGI_FORMAT_R8G8B8A8_UNORM).block_kind == Kind::Unknown);
}

TEST_CASE("formats: values past B4G4R4A4_UNORM are unknown") {
    for (unsigned value : {116u, 129u, 130u, 131u, 132u, 189u, 190u, 0xffffffffu}) {
        const FormatInfo& facts = formats::info(static_cast<DXGI_FORMAT>(value));
        INFO("value " << value);
        CHECK(facts.kind == Kind::Unknown);
        CHECK(facts.bits_per_element == 0);
    }
    CHECK(formats::describe(DXGI_FORMAT_P208) == "DXGI_FORMAT value 130 (unknown)");
    CHECK(formats::describe(DXGI_FORMAT_R32G32B32_FLOAT) == "DXGI_FORMAT_R32G32B32_FLOAT (6)");
    CHECK(formats::describe(DXGI_FORMAT_UNKNOWN) == "DXGI_FORMAT_UNKNOWN (0)");
}

TEST_CASE("formats: row pitch and row count of texel formats") {
    CHECK(formats::row_pitch(DXGI_FORMAT_R8G8B8A8_UNORM, 5) == 20);
    CHECK(formats::row_pitch(DXGI_FORMAT_R32G32B32_FLOAT, 3) == 36);
    CHECK(formats::row_pitch(DXGI_FORMAT_R32G32B32A32_FLOAT, 1024) == 16384);
    CHECK(formats::row_pitch(DXGI_FORMAT_R16_FLOAT, 7) == 14);
    CHECK(formats::row_pitch(DXGI_FORMAT_R8_UNORM, 1) == 1);
    CHECK(formats::row_pitch(DXGI_FORMAT_D32_FLOAT_S8X24_UINT, 2) == 16);
    CHECK(formats::row_count(DXGI_FORMAT_R8G8B8A8_UNORM, 7) == 7);
    // R1: eight texels a byte, a partial byte counted whole.
    CHECK(formats::row_pitch(DXGI_FORMAT_R1_UNORM, 8) == 1);
    CHECK(formats::row_pitch(DXGI_FORMAT_R1_UNORM, 9) == 2);
    CHECK(formats::row_pitch(DXGI_FORMAT_UNKNOWN, 64) == 0);
}

TEST_CASE("formats: block-compressed rows count partial blocks whole") {
    // Width 5 is 2 blocks.
    CHECK(formats::row_pitch(DXGI_FORMAT_BC1_UNORM, 5) == 16);
    CHECK(formats::row_pitch(DXGI_FORMAT_BC4_UNORM, 5) == 16);
    CHECK(formats::row_pitch(DXGI_FORMAT_BC3_UNORM, 5) == 32);
    CHECK(formats::row_pitch(DXGI_FORMAT_BC7_UNORM_SRGB, 5) == 32);
    CHECK(formats::row_pitch(DXGI_FORMAT_BC1_UNORM, 1) == 8);
    CHECK(formats::row_pitch(DXGI_FORMAT_BC2_UNORM, 512) == 2048);
    CHECK(formats::row_count(DXGI_FORMAT_BC1_UNORM, 5) == 2);
    CHECK(formats::row_count(DXGI_FORMAT_BC6H_UF16, 1) == 1);
    CHECK(formats::row_count(DXGI_FORMAT_BC5_SNORM, 256) == 64);
}

TEST_CASE("formats: packed 4:2:2 and planar video rows") {
    // A 2x1 pair is 4 bytes (8 for Y210/Y216); an odd width rounds up a pair.
    CHECK(formats::row_pitch(DXGI_FORMAT_R8G8_B8G8_UNORM, 3) == 8);
    CHECK(formats::row_pitch(DXGI_FORMAT_YUY2, 4) == 8);
    CHECK(formats::row_pitch(DXGI_FORMAT_Y216, 5) == 24);
    CHECK(formats::row_count(DXGI_FORMAT_YUY2, 3) == 3);
    // NV12: luma rows of width bytes (even), then half as many chroma rows.
    CHECK(formats::row_pitch(DXGI_FORMAT_NV12, 64) == 64);
    CHECK(formats::row_pitch(DXGI_FORMAT_NV12, 5) == 6);
    CHECK(formats::row_count(DXGI_FORMAT_NV12, 64) == 96);
    CHECK(formats::row_count(DXGI_FORMAT_NV12, 5) == 8);
    CHECK(formats::row_pitch(DXGI_FORMAT_P010, 64) == 128);
    CHECK(formats::row_count(DXGI_FORMAT_P016, 64) == 96);
    CHECK(formats::row_pitch(DXGI_FORMAT_NV11, 6) == 8);
    CHECK(formats::row_count(DXGI_FORMAT_NV11, 64) == 128);
    CHECK(formats::is_planar(DXGI_FORMAT_NV12));
    CHECK(formats::is_planar(DXGI_FORMAT_P010));
    CHECK(formats::is_planar(DXGI_FORMAT_NV11));
    CHECK_FALSE(formats::is_planar(DXGI_FORMAT_YUY2));
    CHECK_FALSE(formats::is_planar(DXGI_FORMAT_R8G8B8A8_UNORM));
}
