#include "runtime/shader/numbers.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace d3dcap::runtime::shader {

namespace {

template <typename Real>
std::string format_real(Real value) {
    char text[400];
    auto result = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, 6);
    Real back{};
    std::from_chars(text, result.ptr, back);
    if (result.ec != std::errc() || back != value || std::signbit(back) != std::signbit(value))
        result = std::to_chars(text, text + sizeof text, value);  // shortest exact form
    std::string written(text, result.ptr);
    if (written.find_first_of(".e") == std::string::npos) written += ".0";
    return written;
}

bool is_real_text(std::string_view text) {
    return text.find_first_of(".eEn") != std::string_view::npos &&
           !(text.starts_with("0x") || text.starts_with("-0x"));
}

}  // namespace

std::string format_float_bits(std::uint32_t bits) {
    const float value = std::bit_cast<float>(bits);
    if (!std::isfinite(value)) return format_integer_bits(bits);
    return format_real(value);
}

std::string format_integer_bits(std::uint32_t bits) {
    const auto as_signed = static_cast<std::int32_t>(bits);
    if (as_signed >= -65536 && as_signed <= 65535) return std::to_string(as_signed);
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", bits);
    return text;
}

std::string format_double_bits(std::uint64_t bits) {
    const double value = std::bit_cast<double>(bits);
    if (!std::isfinite(value)) {
        char text[24];
        std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(bits));
        return text;
    }
    return format_real(value) + "l";
}

std::string format_immediate(std::uint32_t bits, NumberKind kind) {
    switch (kind) {
        case NumberKind::Float:
            return format_float_bits(bits);
        case NumberKind::Integer:
        case NumberKind::Double:
            return format_integer_bits(bits);
        case NumberKind::Untyped: {
            // Ordinary floats have an exponent near 0; small integers' bits
            // have none.
            const std::uint32_t exponent = (bits >> 23) & 0xff;
            const bool looks_float = exponent >= 100 && exponent <= 160;
            return looks_float ? format_float_bits(bits) : format_integer_bits(bits);
        }
    }
    return format_integer_bits(bits);
}

std::optional<std::uint32_t> parse_immediate(std::string_view text) {
    if (text.empty()) return std::nullopt;
    if (is_real_text(text)) {
        float value{};
        const bool plus = text.front() == '+';
        const char* begin = text.data() + (plus ? 1 : 0);
        const auto result = std::from_chars(begin, text.data() + text.size(), value);
        if (result.ec != std::errc() || result.ptr != text.data() + text.size())
            return std::nullopt;
        return std::bit_cast<std::uint32_t>(value);
    }
    bool negative = false;
    if (text.front() == '-') {
        negative = true;
        text.remove_prefix(1);
    }
    int base = 10;
    if (text.starts_with("0x") || text.starts_with("0X")) {
        base = 16;
        text.remove_prefix(2);
    }
    if (text.empty()) return std::nullopt;
    std::uint64_t value = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (result.ec != std::errc() || result.ptr != text.data() + text.size()) return std::nullopt;
    if (negative ? value > 0x80000000ull : value > 0xffffffffull) return std::nullopt;
    return static_cast<std::uint32_t>(negative ? 0u - value : value);
}

std::optional<std::uint64_t> parse_double_immediate(std::string_view text) {
    if (text.starts_with("0x")) {
        std::uint64_t bits = 0;
        const auto result = std::from_chars(text.data() + 2, text.data() + text.size(), bits, 16);
        if (result.ec != std::errc() || result.ptr != text.data() + text.size() || text.size() == 2)
            return std::nullopt;
        return bits;
    }
    if (text.ends_with("l")) text.remove_suffix(1);
    double value{};
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size())
        return std::nullopt;
    return std::bit_cast<std::uint64_t>(value);
}

}  // namespace d3dcap::runtime::shader
