// Shaders of all six stages in the project's own SM4/SM5 assembly, written
// in the canonical form the disassembler prints (so assemble -> decode ->
// disassemble gives each back), and helpers the shader tests share.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace shader_tests {

// A vertex shader passing a transformed position and a texture coordinate.
inline constexpr std::string_view kVertexShader = R"(vs_5_0
.input POSITION0 v0.xyz float
.input TEXCOORD0 v1.xy float
.output SV_Position0 o0.xyzw float
.output TEXCOORD0 o1.xy float
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[4], immediateIndexed
dcl_input v0.xyz
dcl_input v1.xy
dcl_output_siv o0.xyzw, position
dcl_output o1.xy
dcl_temps 1
mul r0.xyzw, v0.yyyy, cb0[1].xyzw
mad r0.xyzw, v0.xxxx, cb0[0].xyzw, r0.xyzw
mad r0.xyzw, v0.zzzz, cb0[2].xyzw, r0.xyzw
add o0.xyzw, r0.xyzw, cb0[3].xyzw
mov o1.xy, v1.xyxx
ret
)";

// A pixel shader sampling a texture at the interpolated coordinate.
inline constexpr std::string_view kPixelShader = R"(ps_5_0
.input SV_Position0 v0.xyzw float
.input TEXCOORD0 v1.xy float
.output SV_Target0 o0.xyzw float
dcl_globalFlags refactoringAllowed
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
sample_indexable(texture2d)(float,float,float,float) o0.xyzw, v1.xyxx, t0.xyzw, s0
ret
)";

// A compute shader writing its thread id into a raw UAV.
inline constexpr std::string_view kComputeShader = R"(cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 8, 8, 1
ishl r0.x, vThreadID.x, l(2)
store_raw u0.x, r0.x, vThreadID.x
ret
)";

// A geometry shader re-emitting its triangle on stream 0.
inline constexpr std::string_view kGeometryShader = R"(gs_5_0
.input SV_Position0 v0.xyzw float
.input TEXCOORD0 v1.xy float
.output SV_Position0 o0.xyzw float
.output TEXCOORD0 o1.xy float
dcl_globalFlags refactoringAllowed
dcl_input_siv v[3][0].xyzw, position
dcl_input v[3][1].xy
dcl_temps 1
dcl_inputprimitive triangle
dcl_stream m0
dcl_outputtopology trianglestrip
dcl_output_siv o0.xyzw, position
dcl_output o1.xy
dcl_maxout 3
mov r0.x, l(0)
loop
  uge r0.y, r0.x, l(3)
  breakc_nz r0.y
  mov o0.xyzw, v[r0.x + 0][0].xyzw
  mov o1.xy, v[r0.x + 0][1].xyxx
  emit_stream m0
  iadd r0.x, r0.x, l(1)
endloop
cut_stream m0
ret
)";

// A hull shader: a pass-through control point phase and two patch constant
// (fork) phases, the first run once per edge.
inline constexpr std::string_view kHullShader = R"(hs_5_0
.input SV_Position0 v0.xyzw float
.output SV_Position0 o0.xyzw float
.patch_constant SV_TessFactor0 o0.x float tri_edge_tessfactor
.patch_constant SV_TessFactor1 o1.x float tri_edge_tessfactor
.patch_constant SV_TessFactor2 o2.x float tri_edge_tessfactor
.patch_constant SV_InsideTessFactor0 o3.x float tri_inside_tessfactor
hs_decls
dcl_input_control_point_count 3
dcl_output_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_tessellator_partitioning partitioning_integer
dcl_tessellator_output_primitive output_triangle_cw
dcl_hs_max_tessfactor l(64.000000)
dcl_globalFlags refactoringAllowed
hs_control_point_phase
dcl_input vOutputControlPointID
dcl_input v[3][0].xyzw
dcl_output o0.xyzw
mov o0.xyzw, v[vOutputControlPointID][0].xyzw
ret
hs_fork_phase
dcl_hs_fork_phase_instance_count 3
dcl_input vForkInstanceID
dcl_output_siv o0.x, finalTriUeq0EdgeTessFactor
dcl_output_siv o1.x, finalTriVeq0EdgeTessFactor
dcl_output_siv o2.x, finalTriWeq0EdgeTessFactor
dcl_temps 1
dcl_indexrange o0.x, 3
mov r0.x, vForkInstanceID
mov o[r0.x + 0].x, l(4.000000)
ret
hs_fork_phase
dcl_output_siv o3.x, finalTriInsideTessFactor
mov o3.x, l(4.000000)
ret
)";

// A domain shader interpolating the triangle's control points at vDomain.
inline constexpr std::string_view kDomainShader = R"(ds_5_0
.input SV_Position0 v0.xyzw float
.output SV_Position0 o0.xyzw float
.patch_constant SV_TessFactor0 vpc0.x float tri_edge_tessfactor
.patch_constant SV_TessFactor1 vpc1.x float tri_edge_tessfactor
.patch_constant SV_TessFactor2 vpc2.x float tri_edge_tessfactor
.patch_constant SV_InsideTessFactor0 vpc3.x float tri_inside_tessfactor
dcl_input_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_globalFlags refactoringAllowed
dcl_input vDomain.xyz
dcl_input vicp[3][0].xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 1
mul r0.xyzw, vDomain.yyyy, vicp[1][0].xyzw
mad r0.xyzw, vicp[0][0].xyzw, vDomain.xxxx, r0.xyzw
mad o0.xyzw, vicp[2][0].xyzw, vDomain.zzzz, r0.xyzw
ret
)";

// The bytes of a token stream, little-endian.
inline std::vector<std::uint8_t> token_bytes(std::span<const std::uint32_t> tokens) {
    std::vector<std::uint8_t> bytes(tokens.size() * 4);
    if (!tokens.empty()) std::memcpy(bytes.data(), tokens.data(), bytes.size());
    return bytes;
}

}  // namespace shader_tests
