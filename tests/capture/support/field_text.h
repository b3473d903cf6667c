// The text of a recorded call's fields, as the capture coverage checks
// compare them. The expected side (the values a call is given, written by
// format/codegen/capture_samples.py into checks/context_calls.inc, and the
// values it receives, read by the fixture after the call) and the recorded
// side (record_fields.h, through FlatBuffers' reflection) follow one set of
// rules:
//   integers            decimal
//   floats              std::to_chars's shortest form (20.5, and 1 for 1.0)
//   strings             quoted; bytes outside printable ASCII, '"' and '\'
//                       as \xNN
//   vectors and arrays  [a,b]
//   structs and tables  {field=value,...}, in the schema's field order
//   an absent field     null (an absent scalar reads as its default)
// Header-only: the Windows coverage program uses it too.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace d3dcap::testing {

// One field a call's record must hold: its name in the schema, its text, and
// whether the call was given that value (rather than received it).
struct ExpectedField {
    std::string name;
    std::string text;
    bool given = false;
};
using ExpectedFields = std::vector<ExpectedField>;

inline std::string float_text(double value) {
    char text[64];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return std::string(text, end);
}

template <class T>
std::string number_text(T value) {
    if constexpr (std::is_enum_v<T>)
        return number_text(static_cast<std::underlying_type_t<T>>(value));
    else if constexpr (std::is_floating_point_v<T>)
        return float_text(value);
    else if constexpr (std::is_signed_v<T>)
        return std::to_string(static_cast<long long>(value));
    else
        return std::to_string(static_cast<unsigned long long>(value));
}

inline std::string string_text(std::string_view bytes) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string text = "\"";
    for (const char c : bytes) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte < 0x7f && c != '"' && c != '\\') {
            text += c;
        } else {
            text += "\\x";
            text += kHex[byte >> 4];
            text += kHex[byte & 0xf];
        }
    }
    return text + "\"";
}

template <class T, class ElementText>
std::string list_text(const T* values, std::size_t count, ElementText&& element_text) {
    std::string text = "[";
    for (std::size_t i = 0; i < count; ++i) {
        if (i != 0) text += ',';
        text += element_text(values[i]);
    }
    return text + "]";
}

template <class T>
std::string numbers_text(const T* values, std::size_t count) {
    return list_text(values, count, [](const T& value) { return number_text(value); });
}

// Gives a sample to a struct field or an array element, whatever its C type.
template <class T, class V>
void set_sample(T& target, V value) {
    target = static_cast<T>(value);
}

// Two values a call was given that read the same: the samples could not
// tell those fields apart, so a swap of them would pass. "" when none.
inline std::string same_given_texts(const ExpectedFields& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i)
        for (std::size_t j = i + 1; j < fields.size(); ++j)
            if (fields[i].given && fields[j].given && fields[i].text == fields[j].text)
                return fields[i].name + " and " + fields[j].name + " are both given " +
                       fields[i].text;
    return "";
}

// A call's expected fields as one line: "Call\tfield=text\tfield=text".
// Texts hold no tab or line break (strings escape them).
inline std::string expected_line(std::string_view call, const ExpectedFields& fields) {
    std::string line(call);
    for (const ExpectedField& field : fields) line += "\t" + field.name + "=" + field.text;
    return line;
}

}  // namespace d3dcap::testing
