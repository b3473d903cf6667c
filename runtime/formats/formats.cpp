// The DXGI format table: one entry per value from DXGI_FORMAT_UNKNOWN (0)
// through DXGI_FORMAT_B4G4R4A4_UNORM (115), indexed by the value itself.
// Sizes follow the DXGI format documentation.
#include "runtime/formats/formats.h"

#include <array>
#include <cstddef>

namespace d3dcap::runtime::formats {
namespace {

using Bits = std::uint8_t;

constexpr std::uint8_t count_channels(Bits r, Bits g, Bits b, Bits a) {
    return static_cast<std::uint8_t>((r != 0) + (g != 0) + (b != 0) + (a != 0));
}

// A format of whole texels; bits may exceed the channel sum (X padding).
constexpr FormatInfo texel(DXGI_FORMAT format, const char* name, Kind kind, std::uint16_t bits,
                           Bits r, Bits g = 0, Bits b = 0, Bits a = 0) {
    return FormatInfo{.format = format,
                      .kind = kind,
                      .bits_per_element = bits,
                      .block_width = 1,
                      .block_height = 1,
                      .channels = count_channels(r, g, b, a),
                      .channel_bits = {r, g, b, a},
                      .name = name,
                      .block_kind = Kind::Unknown};
}

// A packed format whose element is a 2x1 pair of texels sharing chroma.
constexpr FormatInfo pair(DXGI_FORMAT format, const char* name, Kind kind, std::uint16_t bits,
                          Bits r, Bits g, Bits b) {
    FormatInfo result = texel(format, name, kind, bits, r, g, b);
    result.block_width = 2;
    return result;
}

// A block-compressed format: bits per 4x4 block.
constexpr FormatInfo block(DXGI_FORMAT format, const char* name, Kind holds, std::uint16_t bits,
                           std::uint8_t channels) {
    return FormatInfo{.format = format,
                      .kind = Kind::Compressed,
                      .bits_per_element = bits,
                      .block_width = 4,
                      .block_height = 4,
                      .channels = channels,
                      .channel_bits = {},
                      .name = name,
                      .block_kind = holds};
}

// The enum value and its spelling together, so the two cannot disagree.
#define D3DCAP_FORMAT(suffix) DXGI_FORMAT_##suffix, "DXGI_FORMAT_" #suffix

constexpr Kind Unknown = Kind::Unknown, Unorm = Kind::Unorm, Snorm = Kind::Snorm, Uint = Kind::Uint,
               Sint = Kind::Sint, Float = Kind::Float, Typeless = Kind::Typeless,
               Srgb = Kind::UnormSrgb, Depth = Kind::Depth, Video = Kind::Video,
               Other = Kind::Other;

constexpr std::array kFormats = {
    texel(D3DCAP_FORMAT(UNKNOWN), Unknown, 0, 0),
    texel(D3DCAP_FORMAT(R32G32B32A32_TYPELESS), Typeless, 128, 32, 32, 32, 32),
    texel(D3DCAP_FORMAT(R32G32B32A32_FLOAT), Float, 128, 32, 32, 32, 32),
    texel(D3DCAP_FORMAT(R32G32B32A32_UINT), Uint, 128, 32, 32, 32, 32),
    texel(D3DCAP_FORMAT(R32G32B32A32_SINT), Sint, 128, 32, 32, 32, 32),
    texel(D3DCAP_FORMAT(R32G32B32_TYPELESS), Typeless, 96, 32, 32, 32),
    texel(D3DCAP_FORMAT(R32G32B32_FLOAT), Float, 96, 32, 32, 32),
    texel(D3DCAP_FORMAT(R32G32B32_UINT), Uint, 96, 32, 32, 32),
    texel(D3DCAP_FORMAT(R32G32B32_SINT), Sint, 96, 32, 32, 32),
    texel(D3DCAP_FORMAT(R16G16B16A16_TYPELESS), Typeless, 64, 16, 16, 16, 16),
    texel(D3DCAP_FORMAT(R16G16B16A16_FLOAT), Float, 64, 16, 16, 16, 16),
    texel(D3DCAP_FORMAT(R16G16B16A16_UNORM), Unorm, 64, 16, 16, 16, 16),
    texel(D3DCAP_FORMAT(R16G16B16A16_UINT), Uint, 64, 16, 16, 16, 16),
    texel(D3DCAP_FORMAT(R16G16B16A16_SNORM), Snorm, 64, 16, 16, 16, 16),
    texel(D3DCAP_FORMAT(R16G16B16A16_SINT), Sint, 64, 16, 16, 16, 16),
    texel(D3DCAP_FORMAT(R32G32_TYPELESS), Typeless, 64, 32, 32),
    texel(D3DCAP_FORMAT(R32G32_FLOAT), Float, 64, 32, 32),
    texel(D3DCAP_FORMAT(R32G32_UINT), Uint, 64, 32, 32),
    texel(D3DCAP_FORMAT(R32G32_SINT), Sint, 64, 32, 32),
    texel(D3DCAP_FORMAT(R32G8X24_TYPELESS), Typeless, 64, 32, 8),
    texel(D3DCAP_FORMAT(D32_FLOAT_S8X24_UINT), Depth, 64, 32, 8),
    // Views of the depth and the stencil of D32_FLOAT_S8X24_UINT.
    texel(D3DCAP_FORMAT(R32_FLOAT_X8X24_TYPELESS), Float, 64, 32),
    texel(D3DCAP_FORMAT(X32_TYPELESS_G8X24_UINT), Uint, 64, 0, 8),
    texel(D3DCAP_FORMAT(R10G10B10A2_TYPELESS), Typeless, 32, 10, 10, 10, 2),
    texel(D3DCAP_FORMAT(R10G10B10A2_UNORM), Unorm, 32, 10, 10, 10, 2),
    texel(D3DCAP_FORMAT(R10G10B10A2_UINT), Uint, 32, 10, 10, 10, 2),
    texel(D3DCAP_FORMAT(R11G11B10_FLOAT), Float, 32, 11, 11, 10),
    texel(D3DCAP_FORMAT(R8G8B8A8_TYPELESS), Typeless, 32, 8, 8, 8, 8),
    texel(D3DCAP_FORMAT(R8G8B8A8_UNORM), Unorm, 32, 8, 8, 8, 8),
    texel(D3DCAP_FORMAT(R8G8B8A8_UNORM_SRGB), Srgb, 32, 8, 8, 8, 8),
    texel(D3DCAP_FORMAT(R8G8B8A8_UINT), Uint, 32, 8, 8, 8, 8),
    texel(D3DCAP_FORMAT(R8G8B8A8_SNORM), Snorm, 32, 8, 8, 8, 8),
    texel(D3DCAP_FORMAT(R8G8B8A8_SINT), Sint, 32, 8, 8, 8, 8),
    texel(D3DCAP_FORMAT(R16G16_TYPELESS), Typeless, 32, 16, 16),
    texel(D3DCAP_FORMAT(R16G16_FLOAT), Float, 32, 16, 16),
    texel(D3DCAP_FORMAT(R16G16_UNORM), Unorm, 32, 16, 16),
    texel(D3DCAP_FORMAT(R16G16_UINT), Uint, 32, 16, 16),
    texel(D3DCAP_FORMAT(R16G16_SNORM), Snorm, 32, 16, 16),
    texel(D3DCAP_FORMAT(R16G16_SINT), Sint, 32, 16, 16),
    texel(D3DCAP_FORMAT(R32_TYPELESS), Typeless, 32, 32),
    texel(D3DCAP_FORMAT(D32_FLOAT), Depth, 32, 32),
    texel(D3DCAP_FORMAT(R32_FLOAT), Float, 32, 32),
    texel(D3DCAP_FORMAT(R32_UINT), Uint, 32, 32),
    texel(D3DCAP_FORMAT(R32_SINT), Sint, 32, 32),
    texel(D3DCAP_FORMAT(R24G8_TYPELESS), Typeless, 32, 24, 8),
    texel(D3DCAP_FORMAT(D24_UNORM_S8_UINT), Depth, 32, 24, 8),
    // Views of the depth and the stencil of D24_UNORM_S8_UINT.
    texel(D3DCAP_FORMAT(R24_UNORM_X8_TYPELESS), Unorm, 32, 24),
    texel(D3DCAP_FORMAT(X24_TYPELESS_G8_UINT), Uint, 32, 0, 8),
    texel(D3DCAP_FORMAT(R8G8_TYPELESS), Typeless, 16, 8, 8),
    texel(D3DCAP_FORMAT(R8G8_UNORM), Unorm, 16, 8, 8),
    texel(D3DCAP_FORMAT(R8G8_UINT), Uint, 16, 8, 8),
    texel(D3DCAP_FORMAT(R8G8_SNORM), Snorm, 16, 8, 8),
    texel(D3DCAP_FORMAT(R8G8_SINT), Sint, 16, 8, 8),
    texel(D3DCAP_FORMAT(R16_TYPELESS), Typeless, 16, 16),
    texel(D3DCAP_FORMAT(R16_FLOAT), Float, 16, 16),
    texel(D3DCAP_FORMAT(D16_UNORM), Depth, 16, 16),
    texel(D3DCAP_FORMAT(R16_UNORM), Unorm, 16, 16),
    texel(D3DCAP_FORMAT(R16_UINT), Uint, 16, 16),
    texel(D3DCAP_FORMAT(R16_SNORM), Snorm, 16, 16),
    texel(D3DCAP_FORMAT(R16_SINT), Sint, 16, 16),
    texel(D3DCAP_FORMAT(R8_TYPELESS), Typeless, 8, 8),
    texel(D3DCAP_FORMAT(R8_UNORM), Unorm, 8, 8),
    texel(D3DCAP_FORMAT(R8_UINT), Uint, 8, 8),
    texel(D3DCAP_FORMAT(R8_SNORM), Snorm, 8, 8),
    texel(D3DCAP_FORMAT(R8_SINT), Sint, 8, 8),
    texel(D3DCAP_FORMAT(A8_UNORM), Unorm, 8, 0, 0, 0, 8),
    texel(D3DCAP_FORMAT(R1_UNORM), Other, 1, 1),
    // Three 9-bit mantissas and one shared 5-bit exponent.
    texel(D3DCAP_FORMAT(R9G9B9E5_SHAREDEXP), Other, 32, 9, 9, 9),
    pair(D3DCAP_FORMAT(R8G8_B8G8_UNORM), Other, 32, 8, 8, 8),
    pair(D3DCAP_FORMAT(G8R8_G8B8_UNORM), Other, 32, 8, 8, 8),
    block(D3DCAP_FORMAT(BC1_TYPELESS), Typeless, 64, 4),
    block(D3DCAP_FORMAT(BC1_UNORM), Unorm, 64, 4),
    block(D3DCAP_FORMAT(BC1_UNORM_SRGB), Srgb, 64, 4),
    block(D3DCAP_FORMAT(BC2_TYPELESS), Typeless, 128, 4),
    block(D3DCAP_FORMAT(BC2_UNORM), Unorm, 128, 4),
    block(D3DCAP_FORMAT(BC2_UNORM_SRGB), Srgb, 128, 4),
    block(D3DCAP_FORMAT(BC3_TYPELESS), Typeless, 128, 4),
    block(D3DCAP_FORMAT(BC3_UNORM), Unorm, 128, 4),
    block(D3DCAP_FORMAT(BC3_UNORM_SRGB), Srgb, 128, 4),
    block(D3DCAP_FORMAT(BC4_TYPELESS), Typeless, 64, 1),
    block(D3DCAP_FORMAT(BC4_UNORM), Unorm, 64, 1),
    block(D3DCAP_FORMAT(BC4_SNORM), Snorm, 64, 1),
    block(D3DCAP_FORMAT(BC5_TYPELESS), Typeless, 128, 2),
    block(D3DCAP_FORMAT(BC5_UNORM), Unorm, 128, 2),
    block(D3DCAP_FORMAT(BC5_SNORM), Snorm, 128, 2),
    texel(D3DCAP_FORMAT(B5G6R5_UNORM), Unorm, 16, 5, 6, 5),
    texel(D3DCAP_FORMAT(B5G5R5A1_UNORM), Unorm, 16, 5, 5, 5, 1),
    texel(D3DCAP_FORMAT(B8G8R8A8_UNORM), Unorm, 32, 8, 8, 8, 8),
    texel(D3DCAP_FORMAT(B8G8R8X8_UNORM), Unorm, 32, 8, 8, 8),
    texel(D3DCAP_FORMAT(R10G10B10_XR_BIAS_A2_UNORM), Unorm, 32, 10, 10, 10, 2),
    texel(D3DCAP_FORMAT(B8G8R8A8_TYPELESS), Typeless, 32, 8, 8, 8, 8),
    texel(D3DCAP_FORMAT(B8G8R8A8_UNORM_SRGB), Srgb, 32, 8, 8, 8, 8),
    texel(D3DCAP_FORMAT(B8G8R8X8_TYPELESS), Typeless, 32, 8, 8, 8),
    texel(D3DCAP_FORMAT(B8G8R8X8_UNORM_SRGB), Srgb, 32, 8, 8, 8),
    block(D3DCAP_FORMAT(BC6H_TYPELESS), Typeless, 128, 3),
    block(D3DCAP_FORMAT(BC6H_UF16), Float, 128, 3),
    block(D3DCAP_FORMAT(BC6H_SF16), Float, 128, 3),
    block(D3DCAP_FORMAT(BC7_TYPELESS), Typeless, 128, 4),
    block(D3DCAP_FORMAT(BC7_UNORM), Unorm, 128, 4),
    block(D3DCAP_FORMAT(BC7_UNORM_SRGB), Srgb, 128, 4),
    // Video: channel widths are Y, U, V (and A) rather than R, G, B, A.
    texel(D3DCAP_FORMAT(AYUV), Video, 32, 8, 8, 8, 8),
    texel(D3DCAP_FORMAT(Y410), Video, 32, 10, 10, 10, 2),
    texel(D3DCAP_FORMAT(Y416), Video, 64, 16, 16, 16, 16),
    texel(D3DCAP_FORMAT(NV12), Video, 12, 8, 8, 8),
    texel(D3DCAP_FORMAT(P010), Video, 24, 10, 10, 10),
    texel(D3DCAP_FORMAT(P016), Video, 24, 16, 16, 16),
    texel(D3DCAP_FORMAT(420_OPAQUE), Video, 12, 8, 8, 8),
    pair(D3DCAP_FORMAT(YUY2), Video, 32, 8, 8, 8),
    pair(D3DCAP_FORMAT(Y210), Video, 64, 10, 10, 10),
    pair(D3DCAP_FORMAT(Y216), Video, 64, 16, 16, 16),
    texel(D3DCAP_FORMAT(NV11), Video, 12, 8, 8, 8),
    // Palettized subpicture formats: the index counts as R, the alpha as A.
    texel(D3DCAP_FORMAT(AI44), Video, 8, 4, 0, 0, 4),
    texel(D3DCAP_FORMAT(IA44), Video, 8, 4, 0, 0, 4),
    texel(D3DCAP_FORMAT(P8), Video, 8, 8),
    texel(D3DCAP_FORMAT(A8P8), Video, 16, 8, 0, 0, 8),
    texel(D3DCAP_FORMAT(B4G4R4A4_UNORM), Unorm, 16, 4, 4, 4, 4),
};

#undef D3DCAP_FORMAT

constexpr bool indexed_by_value() {
    for (std::size_t i = 0; i < kFormats.size(); ++i) {
        if (static_cast<std::size_t>(kFormats[i].format) != i) return false;
    }
    return true;
}
static_assert(kFormats.size() == DXGI_FORMAT_B4G4R4A4_UNORM + 1,
              "one entry per format from UNKNOWN through B4G4R4A4_UNORM");
static_assert(indexed_by_value(), "entry i must describe the format whose value is i");

constexpr FormatInfo kNotAFormat{};

std::uint64_t divide_round_up(std::uint64_t value, std::uint64_t divisor) {
    return (value + divisor - 1) / divisor;
}

}  // namespace

const FormatInfo& info(DXGI_FORMAT format) {
    const auto index = static_cast<std::uint32_t>(format);
    return index < kFormats.size() ? kFormats[index] : kNotAFormat;
}

std::uint64_t row_pitch(DXGI_FORMAT format, std::uint32_t width) {
    // Planar video: the luma plane, whose width the chroma subsampling rounds up.
    switch (format) {
        case DXGI_FORMAT_NV12:
        case DXGI_FORMAT_420_OPAQUE:
            return divide_round_up(width, 2) * 2;
        case DXGI_FORMAT_P010:
        case DXGI_FORMAT_P016:
            return divide_round_up(width, 2) * 4;
        case DXGI_FORMAT_NV11:
            return divide_round_up(width, 4) * 4;
        default:
            break;
    }
    const FormatInfo& facts = info(format);
    const std::uint64_t elements = divide_round_up(width, facts.block_width);
    return divide_round_up(elements * facts.bits_per_element, 8);
}

std::uint32_t row_count(DXGI_FORMAT format, std::uint32_t height) {
    // Planar video: the luma rows, then the chroma rows below them.
    switch (format) {
        case DXGI_FORMAT_NV12:
        case DXGI_FORMAT_420_OPAQUE:
        case DXGI_FORMAT_P010:
        case DXGI_FORMAT_P016:
            return height + static_cast<std::uint32_t>(divide_round_up(height, 2));
        case DXGI_FORMAT_NV11:
            return height * 2;
        default:
            break;
    }
    return static_cast<std::uint32_t>(divide_round_up(height, info(format).block_height));
}

bool is_planar(DXGI_FORMAT format) {
    switch (format) {
        case DXGI_FORMAT_NV12:
        case DXGI_FORMAT_P010:
        case DXGI_FORMAT_P016:
        case DXGI_FORMAT_420_OPAQUE:
        case DXGI_FORMAT_NV11:
            return true;
        default:
            return false;
    }
}

std::string describe(DXGI_FORMAT format) {
    const auto value = std::to_string(static_cast<std::uint32_t>(format));
    const FormatInfo& facts = info(format);
    if (facts.format != format) return "DXGI_FORMAT value " + value + " (unknown)";
    return std::string(facts.name) + " (" + value + ")";
}

std::string short_name(DXGI_FORMAT format) {
    std::string name = info(format).name;
    if (name.starts_with("DXGI_FORMAT_")) name.erase(0, 12);
    return name.empty() ? "format " + std::to_string(format) : name;
}

}  // namespace d3dcap::runtime::formats
