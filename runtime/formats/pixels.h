// Texels of uncompressed formats as channels, and the D3D conversion rules
// between channel codes and numbers: what clears write and what decoders read.
#pragma once

#include <dxgiformat.h>

#include <cstdint>
#include <vector>

namespace d3dcap::runtime::formats {

// Per-channel conversions (the D3D conversion rules, as ClearView documents them).
namespace convert {
// Clamped to [0, 1] (NaN to 0), scaled by 2^bits - 1, rounded half up.
std::uint32_t float_to_unorm(float value, unsigned bits);
// Clamped to [-1, 1] (NaN to 0), scaled by 2^(bits-1) - 1, rounded half away from zero.
std::int32_t float_to_snorm(float value, unsigned bits);
// Truncated toward zero and clamped to the channel's range; NaN to 0.
std::uint32_t float_to_uint(float value, unsigned bits);
std::int32_t float_to_sint(float value, unsigned bits);
// Linear to sRGB and back (the sRGB curve, applied before UNORM encoding).
float linear_to_srgb(float value);
float srgb_to_linear(float value);
// A float with a 5-bit exponent: half (sign, 10-bit mantissa) or the unsigned
// 11- and 10-bit floats of R11G11B10 (6- and 5-bit mantissas). Round to nearest
// even, overflow to infinity, NaN stays NaN, negatives to 0 when unsigned.
std::uint32_t float_to_small_float(float value, unsigned mantissa_bits, bool has_sign);
float small_float_to_float(std::uint32_t bits, unsigned mantissa_bits, bool has_sign);
float unorm_to_float(std::uint32_t value, unsigned bits);
float snorm_to_float(std::int32_t value, unsigned bits);
}  // namespace convert

enum class ChannelType : std::uint8_t { Absent, Unorm, Snorm, Uint, Sint, Float, Srgb, XrBias };

struct ChannelLayout {
    std::uint8_t offset = 0, bits = 0;  // bit position in the texel (little-endian)
    ChannelType type = ChannelType::Absent;
};

// Where R, G, B and A (depth and stencil for depth formats) sit in a texel.
struct PixelLayout {
    std::uint32_t bytes = 0;  // 0: a format the reference device cannot convert to
    ChannelLayout channels[4];
};
PixelLayout pixel_layout(DXGI_FORMAT format);

// The `bits` bits at bit `offset` of a texel (little-endian), and one
// channel's code as a float by its type's rules (Uint and Sint as their
// integer value); the texel decoder reads channels through these too.
std::uint64_t get_bits(const std::uint8_t* bytes, unsigned offset, unsigned bits);
float decode_channel(const ChannelLayout& layout, std::uint64_t code);

// One texel from four floats by the conversion rules.
void encode_pixel(const PixelLayout& layout, const float rgba[4], std::uint8_t* out);
// One texel from four integers, each cut to its channel's low bits (ClearUAVUint).
void encode_pixel_bits(const PixelLayout& layout, const std::uint32_t rgba[4], std::uint8_t* out);
// Four floats from one texel (absent channels read 0, alpha 1).
void decode_pixel(const PixelLayout& layout, const std::uint8_t* in, float rgba[4]);

// decode_pixel with a table per channel of up to 16 bits, for whole mips.
class PixelDecoder {
  public:
    explicit PixelDecoder(const PixelLayout& layout);
    void decode(const std::uint8_t* in, float rgba[4]) const;

  private:
    PixelLayout layout_;
    std::vector<float> tables_[4];  // empty: decode that channel directly
};

}  // namespace d3dcap::runtime::formats
