// Block-compressed texels (BC1-BC7) decoded to the 16 texels of a 4x4 block,
// by Direct3D 11's block compression formats ("Texture Block Compression in
// Direct3D 11", "BC6H Format", "BC7 Format"). Internal to libd3dcap: the
// texel decoder (runtime/texel_decode.h) is its interface.
#pragma once

#include <dxgiformat.h>

#include <cstdint>

namespace d3dcap::runtime::formats {

// The texels of one block, row by row (texel x + 4 * y), each as R, G, B, A.
// value: what a shader reads (sRGB channels already linear; absent channels
// 0, alpha 1). code: where the value came from, per format:
// - BC1, BC2, BC3 colors and alphas, BC4, BC5: the value interpolated exactly
//   (in double, by the documented formulas) rounded to an 8-bit UNORM code,
//   or for SNORM to a signed code in [-127, 127];
// - BC7: the 8-bit result of its integer interpolation (value = code / 255);
// - BC6H: the half-float bits the block decodes to.
struct BlockTexels {
    double value[16][4];
    std::int32_t code[16][4];
};

// Bytes per block: 8 for BC1 and BC4, 16 for the others; 0 for formats that
// are not typed BC formats (the *_TYPELESS ones included).
unsigned block_bytes(DXGI_FORMAT format);

// Decodes one block of a typed BC format (block_bytes(format) bytes); false
// for any other format. Reserved encodings decode as the specification says:
// a BC6H block of a reserved mode to (0, 0, 0, 1), a BC7 block whose first
// byte is 0 to (0, 0, 0, 0).
bool decode_block(DXGI_FORMAT format, const std::uint8_t* block, BlockTexels& out);

}  // namespace d3dcap::runtime::formats
