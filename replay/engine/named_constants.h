// A constant buffer's values by the names and types its shader's
// reflection (RDEF) gives them, as a debugger lists a shader's constants.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/shader/reflection.h"

namespace d3dcap::replay {

struct NamedConstant {
    std::string name;   // "world", "weights[2]"
    std::string type;   // "float4x4"
    std::string value;  // registers in storage order, " | " between them
};

// The variables of `buffer` read from `window` (the bytes the bound
// constant-buffer window starts with); a variable the window does not
// hold whole says so.
std::vector<NamedConstant> named_constants(const runtime::shader::ReflectedConstantBuffer& buffer,
                                           std::span<const std::uint8_t> window);

}  // namespace d3dcap::replay
