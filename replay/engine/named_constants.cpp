#include "replay/engine/named_constants.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace d3dcap::replay {

namespace {

using runtime::shader::ReflectedType;

constexpr std::uint32_t kMaxListedElements = 64;

std::string component_text(const ReflectedType& type, const std::uint8_t* at) {
    std::ostringstream out;
    if (type.base_type == 39) {
        double value;
        std::memcpy(&value, at, 8);
        out << value;
        return out.str();
    }
    std::uint32_t bits;
    std::memcpy(&bits, at, 4);
    switch (type.base_type) {
        case 1:
            return bits != 0 ? "true" : "false";
        case 2:
            return std::to_string(static_cast<std::int32_t>(bits));
        case 19:
            return std::to_string(bits);
        default: {
            float value;
            std::memcpy(&value, &bits, 4);
            out << value;
            return out.str();
        }
    }
}

// One element: its registers (a matrix's columns or rows), components
// comma-separated.
std::string element_text(const ReflectedType& type, const std::uint8_t* at) {
    const bool rows_first = type.variable_class == 2;
    const bool matrix = type.variable_class == 2 || type.variable_class == 3;
    const std::uint32_t registers = !matrix ? 1 : rows_first ? type.rows : type.columns;
    const std::uint32_t per_register = matrix && !rows_first ? type.rows : type.columns;
    std::string text;
    for (std::uint32_t r = 0; r < registers; ++r) {
        if (r) text += " | ";
        for (std::uint32_t c = 0; c < per_register; ++c) {
            if (c) text += ", ";
            text += component_text(type, at + r * 16 + c * runtime::shader::component_bytes(type));
        }
    }
    return text;
}

}  // namespace

std::vector<NamedConstant> named_constants(const runtime::shader::ReflectedConstantBuffer& buffer,
                                           std::span<const std::uint8_t> window) {
    std::vector<NamedConstant> out;
    for (const runtime::shader::ReflectedVariable& v : buffer.variables) {
        const ReflectedType& type = v.type;
        std::string type_text = runtime::shader::type_name(type);
        const bool numeric = !type_text.empty() && type.rows >= 1 && type.rows <= 4 &&
                             type.columns >= 1 && type.columns <= 4;
        if (type_text.empty()) type_text = type.name.empty() ? "struct or object" : type.name;
        if (type.elements > 0) type_text += "[" + std::to_string(type.elements) + "]";
        if (!numeric) {
            out.push_back({v.name, type_text, "(not shown)"});
            continue;
        }
        const std::uint32_t elements = std::max<std::uint32_t>(1, type.elements);
        const std::uint32_t bytes = runtime::shader::element_bytes(type);
        const std::uint32_t stride = runtime::shader::element_stride(type);
        for (std::uint32_t e = 0; e < std::min(elements, kMaxListedElements); ++e) {
            const std::string name =
                type.elements > 0 ? v.name + "[" + std::to_string(e) + "]" : v.name;
            const std::uint64_t at = std::uint64_t{v.offset} + std::uint64_t{e} * stride;
            if (at + bytes > window.size()) {
                out.push_back({name, type_text, "past the bound window"});
                break;
            }
            out.push_back({name, type_text, element_text(type, window.data() + at)});
        }
    }
    return out;
}

}  // namespace d3dcap::replay
