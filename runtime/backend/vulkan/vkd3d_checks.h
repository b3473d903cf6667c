// What vkd3d-shader 1.2 refuses, drops, gets wrong or asserts on, found
// with the project's own token reader before it sees a shader (the
// translator fuzzer finds the asserting kinds; pipeline-facts.md lists the
// rest).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace d3dcap::runtime::backend::vulkan {

// Readies a DXBC container for vkd3d-shader: false, with the instruction and
// its offset in `error`, where it would refuse, drop, mistranslate or assert;
// umul whose high half goes nowhere becomes imul (the low halves are the
// same), since vkd3d-shader drops umul, and the checksum is written again.
bool lower(std::vector<std::uint8_t>& container, std::string& error);

}  // namespace d3dcap::runtime::backend::vulkan
