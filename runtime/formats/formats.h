// Facts about DXGI formats that the runtime needs: sizes, blocks, kinds.
#pragma once

#include <dxgiformat.h>

#include <cstdint>
#include <string>

namespace d3dcap::runtime::formats {

enum class Kind : std::uint8_t {
    Unknown,
    Unorm,
    Snorm,
    Uint,
    Sint,
    Float,
    Typeless,
    UnormSrgb,
    Depth,       // depth or depth-stencil
    Compressed,  // BC1-BC7
    Video,       // planar and packed video formats
    Other,       // shared-exponent, packed 4:2:2, R1, ...
};

// An element is one texel, one 4x4 block of a BC format, or one 2x1 pair of
// a packed 4:2:2 format (R8G8_B8G8, G8R8_G8B8, YUY2, Y210, Y216). Planar
// video formats (NV12, P010, P016, 420_OPAQUE, NV11) give their average bits
// per texel over all planes.
struct FormatInfo {
    DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;
    Kind kind = Kind::Unknown;
    std::uint16_t bits_per_element = 0;  // per texel, or per block (see above)
    std::uint8_t block_width = 1;        // 4 for BC formats, 2 for packed 4:2:2
    std::uint8_t block_height = 1;       // 4 for BC formats
    std::uint8_t channels = 0;
    // R, G, B, A by meaning, whatever the memory order (B5G6R5 is {5, 6, 5, 0});
    // depth then stencil for depth formats; 0 for BC formats, whose blocks
    // have no fixed channel widths; for video formats, the Y/U/V(/A) widths.
    std::uint8_t channel_bits[4] = {};
    const char* name = "";  // "DXGI_FORMAT_R8G8B8A8_UNORM"
    // For Kind::Compressed, what the blocks hold: Typeless, Unorm, UnormSrgb,
    // Snorm or Float (BC6H); Kind::Unknown for every other format.
    Kind block_kind = Kind::Unknown;
};

// Facts about a format; Kind::Unknown for values that are not DXGI formats.
const FormatInfo& info(DXGI_FORMAT format);

// Bytes of one row of blocks (or texels) of a width in texels; partial blocks
// count whole. For planar video formats, the pitch of the luma plane.
std::uint64_t row_pitch(DXGI_FORMAT format, std::uint32_t width);
// Rows of blocks (or texels) of a height in texels. For planar video formats,
// the rows of all planes, so that row_pitch * row_count is the whole image.
std::uint32_t row_count(DXGI_FORMAT format, std::uint32_t height);

// NV12, P010, P016, 420_OPAQUE and NV11: a luma plane then chroma rows, whose
// bytes only row_pitch and row_count give (bits_per_element is an average).
bool is_planar(DXGI_FORMAT format);

// "DXGI_FORMAT_R32G32B32_FLOAT (6)", or "DXGI_FORMAT value 130 (unknown)";
// for messages.
std::string describe(DXGI_FORMAT format);
// The name without its DXGI_FORMAT_ prefix ("R8G8B8A8_UNORM"); "format 200"
// for a value that is no DXGI format.
std::string short_name(DXGI_FORMAT format);

}  // namespace d3dcap::runtime::formats
