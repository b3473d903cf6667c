// Texel conversions of the reference device: float colors to every channel
// type by the Direct3D conversion rules (as the ClearView reference documents them), and
// back for GenerateMips.
#include "runtime/formats/pixels.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace d3dcap::runtime::formats {
namespace convert {
namespace {

// 2^bits - 1 and 2^(bits-1) - 1 for channels of 1 to 32 bits.
double unsigned_max(unsigned bits) {
    return static_cast<double>((std::uint64_t{1} << bits) - 1);
}
double signed_max(unsigned bits) {
    return static_cast<double>((std::uint64_t{1} << (bits - 1)) - 1);
}

}  // namespace

std::uint32_t float_to_unorm(float value, unsigned bits) {
    if (std::isnan(value)) return 0;
    const double max = unsigned_max(bits);
    const double clamped = std::clamp(static_cast<double>(value), 0.0, 1.0);
    return static_cast<std::uint32_t>(std::floor(clamped * max + 0.5));
}

std::int32_t float_to_snorm(float value, unsigned bits) {
    if (std::isnan(value)) return 0;
    const double max = signed_max(bits);
    const double scaled = std::clamp(static_cast<double>(value), -1.0, 1.0) * max;
    return static_cast<std::int32_t>(scaled >= 0 ? std::floor(scaled + 0.5)
                                                 : std::ceil(scaled - 0.5));
}

std::uint32_t float_to_uint(float value, unsigned bits) {
    if (std::isnan(value)) return 0;
    const double max = unsigned_max(bits);
    return static_cast<std::uint32_t>(std::clamp(std::trunc(static_cast<double>(value)), 0.0, max));
}

std::int32_t float_to_sint(float value, unsigned bits) {
    if (std::isnan(value)) return 0;
    const double max = signed_max(bits);
    return static_cast<std::int32_t>(
        std::clamp(std::trunc(static_cast<double>(value)), -max - 1.0, max));
}

float linear_to_srgb(float value) {
    if (std::isnan(value)) return 0.0f;
    const float c = std::clamp(value, 0.0f, 1.0f);
    return c <= 0.0031308f ? c * 12.92f : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}

float srgb_to_linear(float value) {
    return value <= 0.04045f ? value / 12.92f : std::pow((value + 0.055f) / 1.055f, 2.4f);
}

std::uint32_t float_to_small_float(float value, unsigned mantissa_bits, bool has_sign) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    const std::uint32_t sign = has_sign ? (bits >> 31) << (5 + mantissa_bits) : 0;
    const std::uint32_t exponent = (bits >> 23) & 0xff;
    const std::uint32_t mantissa = bits & 0x7fffff;
    const std::uint32_t infinity = 0x1fu << mantissa_bits;
    if (exponent == 0xff && mantissa != 0) return sign | infinity | (1u << (mantissa_bits - 1));
    if (!has_sign && (bits >> 31) != 0) return 0;  // negatives (and -0, -INF) become 0
    if (exponent == 0xff) return sign | infinity;
    if (exponent == 0) return sign;  // float32 denormals are far below the smallest denormal here

    // Shift the 24-bit significand down to the target's, rounding to nearest even.
    const int target_exponent = static_cast<int>(exponent) - 127 + 15;
    const std::uint32_t significand = mantissa | 0x800000;
    int shift = 23 - static_cast<int>(mantissa_bits);
    std::uint32_t base = 0;  // the exponent field before the mantissa is added
    if (target_exponent <= 0) {
        shift += 1 - target_exponent;  // a denormal: the implicit one moves into the mantissa
        if (shift > 24) return sign;
    } else {
        base = static_cast<std::uint32_t>(target_exponent) << mantissa_bits;
        if (target_exponent >= 31) return sign | infinity;
    }
    std::uint32_t result = significand >> shift;
    const std::uint32_t rest = significand & ((1u << shift) - 1);
    const std::uint32_t half = 1u << (shift - 1);
    if (rest > half || (rest == half && (result & 1) != 0)) ++result;
    if (target_exponent > 0) result = base + (result - (1u << mantissa_bits));
    // A carry out of the mantissa steps the exponent; past the largest it is infinity.
    return sign | std::min(result, infinity);
}

float small_float_to_float(std::uint32_t bits, unsigned mantissa_bits, bool has_sign) {
    const bool negative = has_sign && ((bits >> (5 + mantissa_bits)) & 1) != 0;
    const std::uint32_t exponent = (bits >> mantissa_bits) & 0x1f;
    const std::uint32_t mantissa = bits & ((1u << mantissa_bits) - 1);
    float magnitude = 0.0f;
    if (exponent == 0x1f) {
        magnitude = mantissa != 0 ? std::nanf("") : INFINITY;
    } else if (exponent == 0) {
        magnitude = std::ldexp(static_cast<float>(mantissa), -14 - static_cast<int>(mantissa_bits));
    } else {
        magnitude = std::ldexp(static_cast<float>(mantissa | (1u << mantissa_bits)),
                               static_cast<int>(exponent) - 15 - static_cast<int>(mantissa_bits));
    }
    return negative ? -magnitude : magnitude;
}

float unorm_to_float(std::uint32_t value, unsigned bits) {
    return static_cast<float>(value / (unsigned_max(bits)));
}

float snorm_to_float(std::int32_t value, unsigned bits) {
    const double max = signed_max(bits);
    return static_cast<float>(std::max(value / max, -1.0));  // the most negative code is -1 too
}

}  // namespace convert

namespace {

constexpr ChannelLayout channel(std::uint8_t offset, std::uint8_t bits, ChannelType type) {
    return ChannelLayout{offset, bits, type};
}

// Channels in R, G, B, A memory order, each `bits` wide, of one type.
PixelLayout rgba(std::uint32_t count, std::uint8_t bits, ChannelType type) {
    PixelLayout layout;
    layout.bytes = count * bits / 8;
    for (std::uint32_t index = 0; index < count; ++index) {
        layout.channels[index] = channel(static_cast<std::uint8_t>(index * bits), bits, type);
    }
    return layout;
}

PixelLayout with(std::uint32_t bytes, ChannelLayout r, ChannelLayout g = {}, ChannelLayout b = {},
                 ChannelLayout a = {}) {
    PixelLayout layout;
    layout.bytes = bytes;
    layout.channels[0] = r;
    layout.channels[1] = g;
    layout.channels[2] = b;
    layout.channels[3] = a;
    return layout;
}

// Channels are at most 32 bits wide, so one channel spans at most 5 bytes.
std::uint64_t load_span(const std::uint8_t* bytes, unsigned first, unsigned count) {
    std::uint64_t value = 0;
    for (unsigned index = 0; index < count; ++index) {
        value |= std::uint64_t{bytes[first + index]} << (8 * index);
    }
    return value;
}

}  // namespace

std::uint64_t get_bits(const std::uint8_t* bytes, unsigned offset, unsigned bits) {
    const unsigned first = offset / 8, shift = offset % 8;
    const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
    return (load_span(bytes, first, (shift + bits + 7) / 8) >> shift) & mask;
}

namespace {

void set_bits(std::uint8_t* bytes, unsigned offset, unsigned bits, std::uint64_t value) {
    const unsigned first = offset / 8, shift = offset % 8, count = (shift + bits + 7) / 8;
    const std::uint64_t mask = ((std::uint64_t{1} << bits) - 1) << shift;
    const std::uint64_t merged =
        (load_span(bytes, first, count) & ~mask) | ((value << shift) & mask);
    for (unsigned index = 0; index < count; ++index) {
        bytes[first + index] = static_cast<std::uint8_t>(merged >> (8 * index));
    }
}

std::uint64_t encode_channel(const ChannelLayout& layout, float value) {
    const unsigned bits = layout.bits;
    const std::uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    switch (layout.type) {
        case ChannelType::Unorm:
            return convert::float_to_unorm(value, bits);
        case ChannelType::Srgb:
            return convert::float_to_unorm(convert::linear_to_srgb(value), bits);
        case ChannelType::Snorm:
            return static_cast<std::uint32_t>(convert::float_to_snorm(value, bits)) & mask;
        case ChannelType::Uint:
            return convert::float_to_uint(value, bits);
        case ChannelType::Sint:
            return static_cast<std::uint32_t>(convert::float_to_sint(value, bits)) & mask;
        case ChannelType::Float:
            if (bits == 32) return std::bit_cast<std::uint32_t>(value);
            return convert::float_to_small_float(value, bits - 5 - (bits == 16 ? 1 : 0),
                                                 bits == 16);
        case ChannelType::XrBias: {
            // R10G10B10_XR_BIAS: value = (code - 384) / 510.
            if (std::isnan(value)) return 384;
            const double code = std::floor(static_cast<double>(value) * 510.0 + 384.0 + 0.5);
            return static_cast<std::uint64_t>(std::clamp(code, 0.0, 1023.0));
        }
        case ChannelType::Absent:
            break;
    }
    return 0;
}

}  // namespace

float decode_channel(const ChannelLayout& layout, std::uint64_t code) {
    const unsigned bits = layout.bits;
    const auto sign_extended = [&] {
        const std::uint64_t sign = 1ull << (bits - 1);
        return static_cast<std::int32_t>(static_cast<std::int64_t>((code ^ sign)) -
                                         static_cast<std::int64_t>(sign));
    };
    switch (layout.type) {
        case ChannelType::Unorm:
            return convert::unorm_to_float(static_cast<std::uint32_t>(code), bits);
        case ChannelType::Srgb:
            return convert::srgb_to_linear(
                convert::unorm_to_float(static_cast<std::uint32_t>(code), bits));
        case ChannelType::Snorm:
            return convert::snorm_to_float(sign_extended(), bits);
        case ChannelType::Uint:
            return static_cast<float>(code);
        case ChannelType::Sint:
            return static_cast<float>(sign_extended());
        case ChannelType::Float:
            if (bits == 32) return std::bit_cast<float>(static_cast<std::uint32_t>(code));
            return convert::small_float_to_float(static_cast<std::uint32_t>(code),
                                                 bits - 5 - (bits == 16 ? 1 : 0), bits == 16);
        case ChannelType::XrBias:
            return static_cast<float>((static_cast<double>(code) - 384.0) / 510.0);
        case ChannelType::Absent:
            break;
    }
    return 0.0f;
}

PixelLayout pixel_layout(DXGI_FORMAT format) {
    using T = ChannelType;
    switch (format) {
        case DXGI_FORMAT_R32G32B32A32_FLOAT:
            return rgba(4, 32, T::Float);
        case DXGI_FORMAT_R32G32B32A32_UINT:
            return rgba(4, 32, T::Uint);
        case DXGI_FORMAT_R32G32B32A32_SINT:
            return rgba(4, 32, T::Sint);
        case DXGI_FORMAT_R32G32B32_FLOAT:
            return rgba(3, 32, T::Float);
        case DXGI_FORMAT_R32G32B32_UINT:
            return rgba(3, 32, T::Uint);
        case DXGI_FORMAT_R32G32B32_SINT:
            return rgba(3, 32, T::Sint);
        case DXGI_FORMAT_R16G16B16A16_FLOAT:
            return rgba(4, 16, T::Float);
        case DXGI_FORMAT_R16G16B16A16_UNORM:
            return rgba(4, 16, T::Unorm);
        case DXGI_FORMAT_R16G16B16A16_UINT:
            return rgba(4, 16, T::Uint);
        case DXGI_FORMAT_R16G16B16A16_SNORM:
            return rgba(4, 16, T::Snorm);
        case DXGI_FORMAT_R16G16B16A16_SINT:
            return rgba(4, 16, T::Sint);
        case DXGI_FORMAT_R32G32_FLOAT:
            return rgba(2, 32, T::Float);
        case DXGI_FORMAT_R32G32_UINT:
            return rgba(2, 32, T::Uint);
        case DXGI_FORMAT_R32G32_SINT:
            return rgba(2, 32, T::Sint);
        case DXGI_FORMAT_R10G10B10A2_UNORM:
            return with(4, channel(0, 10, T::Unorm), channel(10, 10, T::Unorm),
                        channel(20, 10, T::Unorm), channel(30, 2, T::Unorm));
        case DXGI_FORMAT_R10G10B10A2_UINT:
            return with(4, channel(0, 10, T::Uint), channel(10, 10, T::Uint),
                        channel(20, 10, T::Uint), channel(30, 2, T::Uint));
        case DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM:
            return with(4, channel(0, 10, T::XrBias), channel(10, 10, T::XrBias),
                        channel(20, 10, T::XrBias), channel(30, 2, T::Unorm));
        case DXGI_FORMAT_R11G11B10_FLOAT:
            return with(4, channel(0, 11, T::Float), channel(11, 11, T::Float),
                        channel(22, 10, T::Float));
        case DXGI_FORMAT_R8G8B8A8_UNORM:
            return rgba(4, 8, T::Unorm);
        case DXGI_FORMAT_R8G8B8A8_UNORM_SRGB: {
            PixelLayout layout = rgba(4, 8, T::Srgb);
            layout.channels[3].type = T::Unorm;  // alpha is always linear
            return layout;
        }
        case DXGI_FORMAT_R8G8B8A8_UINT:
            return rgba(4, 8, T::Uint);
        case DXGI_FORMAT_R8G8B8A8_SNORM:
            return rgba(4, 8, T::Snorm);
        case DXGI_FORMAT_R8G8B8A8_SINT:
            return rgba(4, 8, T::Sint);
        case DXGI_FORMAT_R16G16_FLOAT:
            return rgba(2, 16, T::Float);
        case DXGI_FORMAT_R16G16_UNORM:
            return rgba(2, 16, T::Unorm);
        case DXGI_FORMAT_R16G16_UINT:
            return rgba(2, 16, T::Uint);
        case DXGI_FORMAT_R16G16_SNORM:
            return rgba(2, 16, T::Snorm);
        case DXGI_FORMAT_R16G16_SINT:
            return rgba(2, 16, T::Sint);
        case DXGI_FORMAT_D32_FLOAT:
        case DXGI_FORMAT_R32_FLOAT:
            return rgba(1, 32, T::Float);
        case DXGI_FORMAT_R32_UINT:
            return rgba(1, 32, T::Uint);
        case DXGI_FORMAT_R32_SINT:
            return rgba(1, 32, T::Sint);
        // Depth (R) and stencil (G) of the depth formats and their views.
        case DXGI_FORMAT_D24_UNORM_S8_UINT:
            return with(4, channel(0, 24, T::Unorm), channel(24, 8, T::Uint));
        case DXGI_FORMAT_R24_UNORM_X8_TYPELESS:
            return with(4, channel(0, 24, T::Unorm));
        case DXGI_FORMAT_X24_TYPELESS_G8_UINT:
            return with(4, {}, channel(24, 8, T::Uint));
        case DXGI_FORMAT_D32_FLOAT_S8X24_UINT:
            return with(8, channel(0, 32, T::Float), channel(32, 8, T::Uint));
        case DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS:
            return with(8, channel(0, 32, T::Float));
        case DXGI_FORMAT_X32_TYPELESS_G8X24_UINT:
            return with(8, {}, channel(32, 8, T::Uint));
        case DXGI_FORMAT_R8G8_UNORM:
            return rgba(2, 8, T::Unorm);
        case DXGI_FORMAT_R8G8_UINT:
            return rgba(2, 8, T::Uint);
        case DXGI_FORMAT_R8G8_SNORM:
            return rgba(2, 8, T::Snorm);
        case DXGI_FORMAT_R8G8_SINT:
            return rgba(2, 8, T::Sint);
        case DXGI_FORMAT_R16_FLOAT:
            return rgba(1, 16, T::Float);
        case DXGI_FORMAT_D16_UNORM:
        case DXGI_FORMAT_R16_UNORM:
            return rgba(1, 16, T::Unorm);
        case DXGI_FORMAT_R16_UINT:
            return rgba(1, 16, T::Uint);
        case DXGI_FORMAT_R16_SNORM:
            return rgba(1, 16, T::Snorm);
        case DXGI_FORMAT_R16_SINT:
            return rgba(1, 16, T::Sint);
        case DXGI_FORMAT_R8_UNORM:
            return rgba(1, 8, T::Unorm);
        case DXGI_FORMAT_R8_UINT:
            return rgba(1, 8, T::Uint);
        case DXGI_FORMAT_R8_SNORM:
            return rgba(1, 8, T::Snorm);
        case DXGI_FORMAT_R8_SINT:
            return rgba(1, 8, T::Sint);
        case DXGI_FORMAT_A8_UNORM:
            return with(1, {}, {}, {}, channel(0, 8, T::Unorm));
        // Memory order B, G, R(, A) from the lowest bit up.
        case DXGI_FORMAT_B5G6R5_UNORM:
            return with(2, channel(11, 5, T::Unorm), channel(5, 6, T::Unorm),
                        channel(0, 5, T::Unorm));
        case DXGI_FORMAT_B5G5R5A1_UNORM:
            return with(2, channel(10, 5, T::Unorm), channel(5, 5, T::Unorm),
                        channel(0, 5, T::Unorm), channel(15, 1, T::Unorm));
        case DXGI_FORMAT_B4G4R4A4_UNORM:
            return with(2, channel(8, 4, T::Unorm), channel(4, 4, T::Unorm),
                        channel(0, 4, T::Unorm), channel(12, 4, T::Unorm));
        case DXGI_FORMAT_B8G8R8A8_UNORM:
        case DXGI_FORMAT_B8G8R8X8_UNORM:
        case DXGI_FORMAT_B8G8R8A8_UNORM_SRGB:
        case DXGI_FORMAT_B8G8R8X8_UNORM_SRGB: {
            const bool srgb = format == DXGI_FORMAT_B8G8R8A8_UNORM_SRGB ||
                              format == DXGI_FORMAT_B8G8R8X8_UNORM_SRGB;
            const bool alpha =
                format == DXGI_FORMAT_B8G8R8A8_UNORM || format == DXGI_FORMAT_B8G8R8A8_UNORM_SRGB;
            const ChannelType color = srgb ? T::Srgb : T::Unorm;
            // The X byte of the BGRX formats is written as 0.
            return with(4, channel(16, 8, color), channel(8, 8, color), channel(0, 8, color),
                        alpha ? channel(24, 8, T::Unorm) : ChannelLayout{});
        }
        default:
            return PixelLayout{};
    }
}

void encode_pixel(const PixelLayout& layout, const float rgba_values[4], std::uint8_t* out) {
    std::memset(out, 0, layout.bytes);
    for (unsigned index = 0; index < 4; ++index) {
        const ChannelLayout& c = layout.channels[index];
        if (c.type != ChannelType::Absent) {
            set_bits(out, c.offset, c.bits, encode_channel(c, rgba_values[index]));
        }
    }
}

void encode_pixel_bits(const PixelLayout& layout, const std::uint32_t rgba_values[4],
                       std::uint8_t* out) {
    std::memset(out, 0, layout.bytes);
    for (unsigned index = 0; index < 4; ++index) {
        const ChannelLayout& c = layout.channels[index];
        if (c.type != ChannelType::Absent) set_bits(out, c.offset, c.bits, rgba_values[index]);
    }
}

void decode_pixel(const PixelLayout& layout, const std::uint8_t* in, float rgba_values[4]) {
    for (unsigned index = 0; index < 4; ++index) {
        const ChannelLayout& c = layout.channels[index];
        rgba_values[index] = c.type == ChannelType::Absent
                                 ? (index == 3 ? 1.0f : 0.0f)
                                 : decode_channel(c, get_bits(in, c.offset, c.bits));
    }
}

PixelDecoder::PixelDecoder(const PixelLayout& layout) : layout_(layout) {
    for (unsigned index = 0; index < 4; ++index) {
        const ChannelLayout& c = layout.channels[index];
        if (c.type == ChannelType::Absent || c.bits > 16) continue;
        tables_[index].resize(std::size_t{1} << c.bits);
        for (std::uint32_t code = 0; code < tables_[index].size(); ++code) {
            tables_[index][code] = decode_channel(c, code);
        }
    }
}

void PixelDecoder::decode(const std::uint8_t* in, float rgba_values[4]) const {
    for (unsigned index = 0; index < 4; ++index) {
        const ChannelLayout& c = layout_.channels[index];
        if (c.type == ChannelType::Absent) {
            rgba_values[index] = index == 3 ? 1.0f : 0.0f;
            continue;
        }
        const std::uint64_t code = get_bits(in, c.offset, c.bits);
        rgba_values[index] =
            tables_[index].empty() ? decode_channel(c, code) : tables_[index][code];
    }
}

}  // namespace d3dcap::runtime::formats
