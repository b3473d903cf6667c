// Small, allocation-free JSON writers used by the generated call dumper
// (src/call_json.cpp, made by format/codegen/json_dump.py).  Everything
// appends to a caller-owned std::string; nothing else is allocated.
//
// Output conventions (the generator's Python mirror in samples.py follows
// them to compute expected text, so keep the two in step):
//   integers      decimal
//   floats        shortest round-trip (std::to_chars); NaN/inf as "nan",
//                 "inf", "-inf" strings
//   strings       UTF-8 bytes as they are; '"', '\\' and control characters
//                 (< 0x20) escaped, the latter as \u00xx
//   enums         "NAME" when the value equals an enumerator, else a number
//   flag enums    "NAME" for an exact match, else "A|B|0x40": enumerators whose
//                 bits are all set, in declaration order, then the unknown
//                 remainder in hex; 0 is the zero enumerator or the number 0
//   byte blobs    {"size":N,"xxh3":"<16 hex digits of XXH3_64bits>"}
//   GUIDs         "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (lower case)
#pragma once

#include <flatbuffers/flatbuffers.h>
#include <xxhash.h>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace d3dcap::json {

// A literal, e.g. lit(out, ",\"StartSlot\":"), appended without strlen.
template <std::size_t N>
inline void lit(std::string& out, const char (&text)[N]) {
    out.append(text, N - 1);
}

inline void null(std::string& out) {
    lit(out, "null");
}

inline void unsigned_number(std::string& out, std::uint64_t value) {
    char buffer[24];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, static_cast<std::size_t>(result.ptr - buffer));
}

inline void signed_number(std::string& out, std::int64_t value) {
    char buffer[24];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, static_cast<std::size_t>(result.ptr - buffer));
}

template <typename Float>
inline void real(std::string& out, Float value) {
    if (std::isnan(value)) {
        lit(out, "\"nan\"");
    } else if (std::isinf(value)) {
        if (value < 0)
            lit(out, "\"-inf\"");
        else
            lit(out, "\"inf\"");
    } else {
        char buffer[32];
        auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
        out.append(buffer, static_cast<std::size_t>(result.ptr - buffer));
    }
}

// Any scalar a table or struct holds: integers, BOOL, object ids, floats.
template <typename T>
inline void num(std::string& out, T value) {
    static_assert(std::is_arithmetic_v<T>);
    if constexpr (std::is_floating_point_v<T>)
        real(out, value);
    else if constexpr (std::is_signed_v<T>)
        signed_number(out, static_cast<std::int64_t>(value));
    else
        unsigned_number(out, static_cast<std::uint64_t>(value));
}

inline constexpr char kHexDigits[] = "0123456789abcdef";

// Lower-case hex of value, without leading zeros ("0" for 0).
inline void hex(std::string& out, std::uint64_t value) {
    char buffer[16];
    char* end = buffer + sizeof buffer;
    char* p = end;
    do {
        *--p = kHexDigits[value & 0xf];
        value >>= 4;
    } while (value != 0);
    out.append(p, static_cast<std::size_t>(end - p));
}

// Exactly `digits` lower-case hex digits of value.
inline void hex_fixed(std::string& out, std::uint64_t value, int digits) {
    char buffer[16];
    for (int i = digits - 1; i >= 0; --i) {
        buffer[i] = kHexDigits[value & 0xf];
        value >>= 4;
    }
    out.append(buffer, static_cast<std::size_t>(digits));
}

// A JSON string of UTF-8 bytes.  Runs of plain bytes are copied at once.
inline void string(std::string& out, const char* text, std::size_t size) {
    out.push_back('"');
    std::size_t run = 0;
    for (std::size_t i = 0; i < size; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        out.append(text + run, i - run);
        run = i + 1;
        if (c == '"') {
            lit(out, "\\\"");
        } else if (c == '\\') {
            lit(out, "\\\\");
        } else {
            lit(out, "\\u00");
            out.push_back(kHexDigits[c >> 4]);
            out.push_back(kHexDigits[c & 0xf]);
        }
    }
    out.append(text + run, size - run);
    out.push_back('"');
}

inline void str(std::string& out, const flatbuffers::String* text) {
    if (text == nullptr)
        null(out);
    else
        string(out, text->c_str(), text->size());
}

// A char buffer (e.g. GetTypeName's output) as a JSON string of its bytes.
inline void chars(std::string& out, const flatbuffers::Vector<std::int8_t>* bytes) {
    if (bytes == nullptr)
        null(out);
    else
        string(out, reinterpret_cast<const char*>(bytes->data()), bytes->size());
}

inline void blob(std::string& out, const flatbuffers::Vector<std::uint8_t>* bytes) {
    if (bytes == nullptr) {
        null(out);
        return;
    }
    lit(out, "{\"size\":");
    unsigned_number(out, bytes->size());
    lit(out, ",\"xxh3\":\"");
    hex_fixed(out, XXH3_64bits(bytes->data(), bytes->size()), 16);
    lit(out, "\"}");
}

inline void guid(std::string& out, std::uint32_t data1, std::uint16_t data2, std::uint16_t data3,
                 const std::uint8_t* data4) {
    char buffer[38];
    char* p = buffer;
    auto put = [&p](std::uint64_t value, int digits) {
        for (int i = digits - 1; i >= 0; --i)
            p[i] = kHexDigits[(value >> (4 * (digits - 1 - i))) & 0xf];
        p += digits;
    };
    *p++ = '"';
    put(data1, 8);
    *p++ = '-';
    put(data2, 4);
    *p++ = '-';
    put(data3, 4);
    *p++ = '-';
    put(data4[0], 2);
    put(data4[1], 2);
    *p++ = '-';
    for (int i = 2; i < 8; ++i) put(data4[i], 2);
    *p++ = '"';
    out.append(buffer, static_cast<std::size_t>(p - buffer));
}

// ---------------------------------------------------------------------------
// Enums.  Values are compared as 64-bit integers: unsigned fields are
// zero-extended, signed ones sign-extended, as are the enumerators.

struct EnumValue {
    std::int64_t value;
    std::string_view name;
};

struct Enum {
    const EnumValue* values;
    std::uint32_t count;
    bool flags;
};

inline const EnumValue* find_enum_value(const Enum& e, std::int64_t value) {
    for (std::uint32_t i = 0; i < e.count; ++i)
        if (e.values[i].value == value) return &e.values[i];
    return nullptr;
}

inline void quoted(std::string& out, std::string_view name) {
    out.push_back('"');
    out.append(name.data(), name.size());
    out.push_back('"');
}

inline void enumeration(std::string& out, const Enum& e, std::int64_t value) {
    if (const EnumValue* match = find_enum_value(e, value)) {
        quoted(out, match->name);
        return;
    }
    if (!e.flags || value == 0) {
        signed_number(out, value);
        return;
    }
    auto rest = static_cast<std::uint64_t>(value);
    out.push_back('"');
    bool first = true;
    for (std::uint32_t i = 0; i < e.count; ++i) {
        const auto bits = static_cast<std::uint64_t>(e.values[i].value);
        if (bits == 0 || (rest & bits) != bits) continue;
        if (!first) out.push_back('|');
        out.append(e.values[i].name.data(), e.values[i].name.size());
        rest &= ~bits;
        first = false;
    }
    if (rest != 0) {
        if (!first) out.push_back('|');
        lit(out, "0x");
        hex(out, rest);
    }
    out.push_back('"');
}

// ---------------------------------------------------------------------------
// Sequences: flatbuffers::Vector (may be absent: null) and flatbuffers::Array
// (fixed arrays inside structs, always present).

template <typename Sequence>
inline void nums(std::string& out, const Sequence* values) {
    if (values == nullptr) {
        null(out);
        return;
    }
    out.push_back('[');
    for (std::uint32_t i = 0, n = values->size(); i < n; ++i) {
        if (i != 0) out.push_back(',');
        num(out, values->Get(i));
    }
    out.push_back(']');
}

template <typename Sequence>
inline void enums(std::string& out, const Enum& e, const Sequence* values) {
    if (values == nullptr) {
        null(out);
        return;
    }
    out.push_back('[');
    for (std::uint32_t i = 0, n = values->size(); i < n; ++i) {
        if (i != 0) out.push_back(',');
        enumeration(out, e, static_cast<std::int64_t>(values->Get(i)));
    }
    out.push_back(']');
}

inline void strs(std::string& out,
                 const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>* values) {
    if (values == nullptr) {
        null(out);
        return;
    }
    out.push_back('[');
    for (std::uint32_t i = 0, n = values->size(); i < n; ++i) {
        if (i != 0) out.push_back(',');
        str(out, values->Get(i));
    }
    out.push_back(']');
}

}  // namespace d3dcap::json
