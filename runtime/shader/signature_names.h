// The names signature directives use for D3D_NAME system values
// ("position", "target", "tri_edge_tessfactor", ...), and the system value a
// semantic name implies ("SV_Target" -> 64).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace d3dcap::runtime::shader {

// Empty for a value without a name.
std::string_view signature_system_value_name(std::uint32_t value);
// Semantic names compare without case, as D3D11 matches them.
bool equal_ignoring_case(std::string_view a, std::string_view b);
std::optional<std::uint32_t> parse_signature_system_value(std::string_view name);
// The D3D_NAME an "SV_" semantic implies; 0 for other names and for the
// tessellation factors, whose D3D_NAME depends on the domain.
std::uint32_t implied_system_value(std::string_view semantic_name);
// The register name of elements with no register (SV_Depth: "oDepth").
std::string_view registerless_name(std::uint32_t system_value);

}  // namespace d3dcap::runtime::shader
