// Texels of any DXGI format the runtime knows, decoded to numbers for the
// viewer's contents view: one texel with its stored codes (decode_texel,
// described for a status bar by describe_texel), or a whole subresource as
// RGBA floats (decode_rgba).
//
// Values follow the Direct3D conversion rules through the reference device's
// own channel layouts and conversions (formats::pixel_layout and convert::),
// so the decoder and the oracle cannot disagree:
// - UNORM: code / (2^bits - 1). SNORM: code / (2^(bits-1) - 1), the most
//   negative code reading -1 too. sRGB: the linear value after the sRGB curve
//   (alpha stays linear); the code is the stored one.
// - FLOAT: 32-bit, half, the unsigned 11- and 10-bit floats of R11G11B10,
//   and R9G9B9E5's shared exponent (mantissa * 2^(exponent - 24)).
// - UINT and SINT: exact integers (TexelChannel::integer); value repeats them.
// - XR_BIAS: (code - 384) / 510.
// - Depth formats and their views: channel 0 is depth, channel 1 stencil.
// - Typeless formats: the channels of their cast group's layout, read as
//   UINT of the same widths (Texel::typeless). Typeless BC formats decode as
//   their UNORM (BC6H: UF16) member, which Texel::decoded_as names.
// - BC1-BC7: see runtime/bc_decode.h for what the codes of compressed texels are.
// R1_UNORM, video formats, UNKNOWN and values that are no DXGI format are
// refused with a message naming the format.
#pragma once

#include <dxgiformat.h>

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#ifndef D3DCAP_EXPORT
#define D3DCAP_EXPORT __attribute__((visibility("default")))
#endif

namespace d3dcap::runtime::formats {

enum class ChannelKind : std::uint8_t {
    Absent,
    Unorm,
    Snorm,
    Srgb,  // UNORM code, value after the sRGB curve
    Uint,
    Sint,
    Float,
    XrBias,          // R10G10B10_XR_BIAS_A2_UNORM's color channels
    SharedExponent,  // R9G9B9E5_SHAREDEXP: code is the 9-bit mantissa
};

struct TexelChannel {
    ChannelKind kind = ChannelKind::Absent;
    std::uint8_t bits = 0;     // width of the code
    std::uint64_t code = 0;    // the stored bits (two's complement for SNORM and SINT)
    std::int64_t integer = 0;  // the code as a number: sign-extended for SNORM and SINT
    double value = 0.0;        // what a shader reads
    bool present() const { return kind != ChannelKind::Absent; }
};

struct Texel {
    DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;      // the format asked for
    DXGI_FORMAT decoded_as = DXGI_FORMAT_UNKNOWN;  // whose rules gave the values
    bool typeless = false;                         // a typeless format, read as described above
    bool depth_stencil = false;                    // channels 0 and 1 are depth and stencil
    bool compressed = false;                       // from a BC block
    std::uint32_t shared_exponent = 0;             // R9G9B9E5_SHAREDEXP's 5-bit exponent
    std::array<TexelChannel, 4> channels;          // R, G, B, A (depth, stencil)
};

// Whether the decoder handles a format; if not, why (when `why` is not null).
D3DCAP_EXPORT bool texel_decodable(DXGI_FORMAT format, std::string* why = nullptr);

// A subresource's bytes: rows of elements (texels, 4x4 blocks of BC
// formats, 2x1 pairs of R8G8_B8G8/G8R8_G8B8) `row_pitch` bytes apart, for
// width x height texels. Every function below checks that `bytes` holds them
// all and returns false with a message in *error (when not null) otherwise.

// The texel at (x, y).
D3DCAP_EXPORT bool decode_texel(DXGI_FORMAT format, std::span<const std::uint8_t> bytes,
                                std::uint64_t row_pitch, std::uint32_t width, std::uint32_t height,
                                std::uint32_t x, std::uint32_t y, Texel& texel,
                                std::string* error = nullptr);

// The 16 texels (x + 4 * y) of one block of a BC format.
D3DCAP_EXPORT bool decode_block(DXGI_FORMAT format, std::span<const std::uint8_t> block,
                                std::array<Texel, 16>& texels, std::string* error = nullptr);

// Every texel as 4 floats R, G, B, A, rows of `width` texels top to bottom:
// absent channels read 0 and alpha 1; depth goes to R and stencil to G as
// its integer. `rgba` must hold width * height * 4 floats (the second form
// resizes the vector).
D3DCAP_EXPORT bool decode_rgba(DXGI_FORMAT format, std::span<const std::uint8_t> bytes,
                               std::uint64_t row_pitch, std::uint32_t width, std::uint32_t height,
                               std::span<float> rgba, std::string* error = nullptr);
D3DCAP_EXPORT bool decode_rgba(DXGI_FORMAT format, std::span<const std::uint8_t> bytes,
                               std::uint64_t row_pitch, std::uint32_t width, std::uint32_t height,
                               std::vector<float>& rgba, std::string* error = nullptr);

// A decoder made once for a format, for a subresource decoded piece by
// piece (a row of elements at a time): what decode_rgba builds at each
// call (the channels' lookup tables, up to 64K floats each) is built once.
class D3DCAP_EXPORT RgbaDecoder {
  public:
    // Null, with why in *error, for a format decode_rgba refuses.
    static std::unique_ptr<RgbaDecoder> make(DXGI_FORMAT format, std::string* error = nullptr);
    ~RgbaDecoder();
    RgbaDecoder(const RgbaDecoder&) = delete;
    RgbaDecoder& operator=(const RgbaDecoder&) = delete;
    // As decode_rgba's span form.
    bool decode(std::span<const std::uint8_t> bytes, std::uint64_t row_pitch, std::uint32_t width,
                std::uint32_t height, std::span<float> rgba, std::string* error = nullptr) const;

  private:
    struct Tables;
    explicit RgbaDecoder(std::unique_ptr<Tables> tables);
    std::unique_ptr<Tables> tables_;
};

// One line for a status bar: "<label> <value> (<code>)" per present channel,
// separated by single spaces. Labels are R G B A, or D and S for depth and
// stencil. Values:
// - UNORM, SNORM, sRGB, XR_BIAS: 3 decimals, the code in decimal (signed for
//   SNORM):      "R 0.502 (128) G 0.000 (0) B 1.000 (255) A 1.000 (255)"
// - UNORM depth: 6 decimals, the code in hex:  "D 0.500000 (0x7fffff) S 3"
// - FLOAT: the shortest text that reads back as the same float, the code in
//   hex padded to the channel's width:  "R 1.5 (0x3e00)", "D 1 (0x3f800000)"
// - UINT, SINT and stencil: the integer alone:  "R 4294967295 G -2147483648"
// - R9G9B9E5: each channel as FLOAT with its mantissa in decimal, then the
//   exponent:    "R 1 (256) G 0.5 (128) B 0 (0) E 16"
// Typeless texels end with " (typeless)", or for BC formats
// " (typeless, as BC1_UNORM)".
D3DCAP_EXPORT std::string describe_texel(const Texel& texel);

}  // namespace d3dcap::runtime::formats
