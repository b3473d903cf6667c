#include "runtime/shader/signature_names.h"

#include <cctype>

namespace d3dcap::runtime::shader {

namespace {

struct SystemValue {
    std::uint32_t value;
    std::string_view name;
    std::string_view semantic;  // the SV_ semantic implying it ("" when none does)
};

// D3D_NAME.
constexpr SystemValue kSystemValues[] = {
    {1, "position", "SV_Position"},
    {2, "clip_distance", "SV_ClipDistance"},
    {3, "cull_distance", "SV_CullDistance"},
    {4, "rendertarget_array_index", "SV_RenderTargetArrayIndex"},
    {5, "viewport_array_index", "SV_ViewportArrayIndex"},
    {6, "vertex_id", "SV_VertexID"},
    {7, "primitive_id", "SV_PrimitiveID"},
    {8, "instance_id", "SV_InstanceID"},
    {9, "is_front_face", "SV_IsFrontFace"},
    {10, "sample_index", "SV_SampleIndex"},
    {11, "quad_edge_tessfactor", ""},
    {12, "quad_inside_tessfactor", ""},
    {13, "tri_edge_tessfactor", ""},
    {14, "tri_inside_tessfactor", ""},
    {15, "line_detail_tessfactor", ""},
    {16, "line_density_tessfactor", ""},
    {64, "target", "SV_Target"},
    {65, "depth", "SV_Depth"},
    {66, "coverage", "SV_Coverage"},
    {67, "depth_greater_equal", "SV_DepthGreaterEqual"},
    {68, "depth_less_equal", "SV_DepthLessEqual"},
    {69, "stencil_ref", "SV_StencilRef"},
    {70, "inner_coverage", "SV_InnerCoverage"},
};

}  // namespace

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

std::string_view signature_system_value_name(std::uint32_t value) {
    for (const SystemValue& entry : kSystemValues)
        if (entry.value == value) return entry.name;
    return {};
}

std::optional<std::uint32_t> parse_signature_system_value(std::string_view name) {
    for (const SystemValue& entry : kSystemValues)
        if (entry.name == name) return entry.value;
    return std::nullopt;
}

std::uint32_t implied_system_value(std::string_view semantic_name) {
    for (const SystemValue& entry : kSystemValues)
        if (!entry.semantic.empty() && equal_ignoring_case(entry.semantic, semantic_name))
            return entry.value;
    return 0;
}

std::string_view registerless_name(std::uint32_t system_value) {
    switch (system_value) {
        case 65:
            return "oDepth";
        case 66:
            return "oMask";
        case 67:
            return "oDepthGE";
        case 68:
            return "oDepthLE";
        case 69:
            return "oStencilRef";
        default:
            return "none";
    }
}

}  // namespace d3dcap::runtime::shader
