// An assembler for SM4/SM5 shader assembly, the text disassembler.h prints:
// text in, a DXBC container out (ISGN, OSGN or OSG5, PCSG when there are
// patch constants or the shader is a hull or domain shader, then SHEX for
// shader model 5 or SHDR for 4, and the checksum; RDEF first when the text
// declares constant buffers (reflection.h); no STAT).
//
// Syntax, following fxc's conventions:
//
//   // a comment, to the end of the line
//   ps_5_0                                   the version line comes first
//   .input SV_Position0 v0.xyzw float position
//   .input TEXCOORD0 v1.xy float
//   .output SV_Target0 o0.xyzw float
//   dcl_sampler s0, mode_default
//   dcl_resource_texture2d (float,float,float,float) t0
//   dcl_input_ps linear v1.xy
//   dcl_output o0.xyzw
//   sample_indexable(texture2d)(float,float,float,float) o0.xyzw, v1.xyxx, t0.xyzw, s0
//   ret
//
// Signatures: one directive line per element, in register order,
//
//   .input NAME REGISTER[.MASK] [TYPE] [SYSTEM_VALUE] [used MASK] [stream N]
//   .output ...
//   .patch_constant ...
//
// - NAME is the semantic with its index appended ("TEXCOORD1", "SV_Target0";
//   trailing digits are the index, as in HLSL).
// - REGISTER is any register name with the element's register number ("v1",
//   "o0", "vpc2"); a name without a number ("oDepth", "oMask", "none") is an
//   element with no register (0xffffffff), as SV_Depth has.
// - TYPE is float (the default), uint, int or unknown.
// - SYSTEM_VALUE is the signature's D3D_NAME: position, clip_distance,
//   cull_distance, rendertarget_array_index, viewport_array_index, vertex_id,
//   primitive_id, instance_id, is_front_face, sample_index,
//   quad_edge_tessfactor, quad_inside_tessfactor, tri_edge_tessfactor,
//   tri_inside_tessfactor, line_detail_tessfactor, line_density_tessfactor,
//   target, depth, coverage, depth_greater_equal, depth_less_equal,
//   stencil_ref, inner_coverage, a number, or none. Left out, an "SV_" name
//   implies its own (SV_Position: position, SV_Target: target, ...; the
//   tessellation factors must be given).
// - used MASK is the read/write mask: components always read for inputs,
//   never written for outputs. Left out: the element's mask for inputs
//   (and a domain shader's patch constants), none for outputs.
// - stream N puts a geometry shader output on stream N (the output
//   signature is then OSG5, as it also is when the shader declares streams).
//
// Reflection: constant buffers and their variables by name, as a compiler
// writes them into RDEF (the instructions still address cb0[1] ...),
//
//   .cbuffer NAME bN SIZE                 bound at register bN, SIZE bytes
//   .variable NAME OFFSET TYPE[[COUNT]]   in the .cbuffer above: TYPE is
//                                         bool, int, uint, float or double,
//                                         then N (a vector) or RxC (a
//                                         column-major matrix): float4x4
//   .binding NAME tN|sN|uN                a view, sampler or UAV's name
//
// Instructions: the mnemonic, its modifiers, then operands separated by
// commas, destinations first:
//   mnemonic[_z|_nz][_sat][_aoffimmi][_indexable][(u,v,w)][(dimension[, stride=N])]
//           [(type,type,type,type)][_uint|_rcpFloat] [[precise(MASK)]]
//   sync_uglobal_ugroup_g_t (flags in any subset and order)
// Operands: [-][|]register[.components][|] [{min16f|min2_8f|min16i|min16u}]
// [{nonuniform}], registers written r0, v1, o2, x0[3], cb0[r0.x + 2],
// icb[4], v[3][0], vicp[0][1], t0, s0, u0, g0, m0, l0, fb0, fp0[0], vpc0,
// vThreadID, vPrim, oDepth, null, ...; indices are numbers ("5", "5i64" for
// a 64-bit index) or a relative operand, optionally plus a number
// ("[r0.x]", "[r0.x + 0]"); a register file written without a number has
// no index. Destinations and declarations take a write mask (".xz"; four
// letters out of order, ".xxzw", are a swizzle), sources a swizzle of one or
// four components (".x", ".xyzx"). Immediates: l(1.000000), l(1, 2, 3, 4), l(0x3f800000) (integer
// literals are raw bits), d(1.000000l, 2.000000l) (doubles). fcall writes
// its function index as a last index: "fcall fp0[0][2]".
//
// ".dwords N ..." (decimal or hex) after an instruction puts DWORDs inside its
// length after its operands, as some assemblers write (Microsoft's after
// samplepos); the runtime skips them, and the disassembler prints them so.
//
// Declarations are written as fxc prints them ("dcl_constantbuffer cb0[4],
// immediateIndexed", "dcl_input_ps_siv linear noperspective v0.xy,
// position", "dcl_uav_structured_glc_opc u1, 16", "dcl_thread_group 8, 8, 1",
// "dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0}, ... }",
// "dcl_function_table ft0 = {fb0, fb1}", "dcl_interface fp0[1][2] = {ft0}").
//
// Errors name the line and column: "line 7, column 14: ...".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace d3dcap::runtime::shader {

struct AssembleResult {
    std::vector<std::uint8_t> container;  // the DXBC container; empty on error
    std::vector<std::uint32_t> tokens;    // its SHEX/SHDR token stream
    std::string error;                    // "line L, column C: problem"; empty on success
    std::uint32_t line = 0, column = 0;   // of the error, 1-based

    bool ok() const { return error.empty(); }
};

AssembleResult assemble(std::string_view text);

}  // namespace d3dcap::runtime::shader
