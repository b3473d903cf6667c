// How immediates are written in shader assembly, exactly: floats in fxc's
// "%f" style when that reads back to the same bits ("1.000000"), else their
// shortest exact form ("1e-10"); integers in decimal, or hex past 16 bits
// ("0xffff0000"); non-finite floats as their bits in hex. Anything written
// without '.', an exponent, "inf" or "nan" reads back as raw 32-bit bits, so
// every value survives a disassemble/assemble round trip.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/shader/tokens.h"

namespace d3dcap::runtime::shader {

std::string format_float_bits(std::uint32_t bits);
std::string format_integer_bits(std::uint32_t bits);
std::string format_double_bits(std::uint64_t bits);  // with fxc's "l" suffix
// As `kind` says; Untyped picks float for bits that look like an ordinary
// float and integer otherwise.
std::string format_immediate(std::uint32_t bits, NumberKind kind);

// A 32-bit immediate's bits from its text: a float ("1.5", "-2.0e3"), or an
// integer ("7", "-1", "0x3f800000"). Nothing when it is neither or out of
// range.
std::optional<std::uint32_t> parse_immediate(std::string_view text);
// A 64-bit immediate: a double ("1.5l", "2.0"), or hex bits ("0x3ff0000000000000").
std::optional<std::uint64_t> parse_double_immediate(std::string_view text);

}  // namespace d3dcap::runtime::shader
