#include "runtime/shader/tokens.h"

namespace d3dcap::runtime::shader {

namespace {

using L = Layout;
using N = NumberKind;
using V = Introduced;
constexpr std::uint16_t kDcl = opcode_flag::kDeclaration;
constexpr std::uint16_t kTest = opcode_flag::kTestBoolean;
constexpr std::uint16_t kSat = opcode_flag::kSaturate;
constexpr std::uint16_t kResinfo = opcode_flag::kResinfoReturnType;
constexpr std::uint16_t kUintRet = opcode_flag::kUintReturnType;
constexpr std::uint16_t kSync = opcode_flag::kSyncFlags;
constexpr std::uint16_t kOffsets = opcode_flag::kTexelOffsets;
constexpr std::uint16_t kTyped = opcode_flag::kResourceTypes;
constexpr std::uint16_t kFlow = opcode_flag::kControlFlow;
// Texture reads: saturate, texel offsets and SM5 resource types.
constexpr std::uint16_t kTex = kSat | kOffsets | kTyped;

struct Entry {
    std::string_view name;
    Layout layout;
    std::uint8_t destinations, sources;
    NumberKind numbers;
    std::uint16_t flags;
    Introduced introduced;
};

// Indexed by opcode number. Operand orders follow the Shader Model 4/5
// assembly reference: destinations first.
constexpr Entry kOpcodes[kOpcodeCount] = {
    {"add", L::Operands, 1, 2, N::Float, kSat, V::D3D10_0},
    {"and", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"break", L::Operands, 0, 0, N::Integer, 0, V::D3D10_0},
    {"breakc", L::Operands, 0, 1, N::Integer, kTest, V::D3D10_0},
    {"call", L::Operands, 0, 1, N::Integer, 0, V::D3D10_0},
    {"callc", L::Operands, 0, 2, N::Integer, kTest, V::D3D10_0},
    {"case", L::Operands, 0, 1, N::Integer, 0, V::D3D10_0},
    {"continue", L::Operands, 0, 0, N::Integer, 0, V::D3D10_0},
    {"continuec", L::Operands, 0, 1, N::Integer, kTest, V::D3D10_0},
    {"cut", L::Operands, 0, 0, N::Integer, 0, V::D3D10_0},
    {"default", L::Operands, 0, 0, N::Integer, 0, V::D3D10_0},
    {"deriv_rtx", L::Operands, 1, 1, N::Float, kSat, V::D3D10_0},
    {"deriv_rty", L::Operands, 1, 1, N::Float, kSat, V::D3D10_0},
    {"discard", L::Operands, 0, 1, N::Integer, kTest, V::D3D10_0},
    {"div", L::Operands, 1, 2, N::Float, kSat, V::D3D10_0},
    {"dp2", L::Operands, 1, 2, N::Float, kSat, V::D3D10_0},
    {"dp3", L::Operands, 1, 2, N::Float, kSat, V::D3D10_0},
    {"dp4", L::Operands, 1, 2, N::Float, kSat, V::D3D10_0},
    {"else", L::Operands, 0, 0, N::Integer, kFlow, V::D3D10_0},
    {"emit", L::Operands, 0, 0, N::Integer, 0, V::D3D10_0},
    {"emit_then_cut", L::Operands, 0, 0, N::Integer, 0, V::D3D10_0},
    {"endif", L::Operands, 0, 0, N::Integer, kFlow, V::D3D10_0},
    {"endloop", L::Operands, 0, 0, N::Integer, kFlow, V::D3D10_0},
    {"endswitch", L::Operands, 0, 0, N::Integer, kFlow, V::D3D10_0},
    {"eq", L::Operands, 1, 2, N::Float, 0, V::D3D10_0},
    {"exp", L::Operands, 1, 1, N::Float, kSat, V::D3D10_0},
    {"frc", L::Operands, 1, 1, N::Float, kSat, V::D3D10_0},
    {"ftoi", L::Operands, 1, 1, N::Float, 0, V::D3D10_0},
    {"ftou", L::Operands, 1, 1, N::Float, 0, V::D3D10_0},
    {"ge", L::Operands, 1, 2, N::Float, 0, V::D3D10_0},
    {"iadd", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"if", L::Operands, 0, 1, N::Integer, kTest | kFlow, V::D3D10_0},
    {"ieq", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"ige", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"ilt", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"imad", L::Operands, 1, 3, N::Integer, 0, V::D3D10_0},
    {"imax", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"imin", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"imul", L::Operands, 2, 2, N::Integer, 0, V::D3D10_0},
    {"ine", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"ineg", L::Operands, 1, 1, N::Integer, 0, V::D3D10_0},
    {"ishl", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"ishr", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"itof", L::Operands, 1, 1, N::Integer, kSat, V::D3D10_0},
    {"label", L::Operands, 0, 1, N::Integer, 0, V::D3D10_0},
    {"ld", L::Operands, 1, 2, N::Integer, kTex, V::D3D10_0},
    {"ldms", L::Operands, 1, 3, N::Integer, kTex, V::D3D10_0},
    {"log", L::Operands, 1, 1, N::Float, kSat, V::D3D10_0},
    {"loop", L::Operands, 0, 0, N::Integer, kFlow, V::D3D10_0},
    {"lt", L::Operands, 1, 2, N::Float, 0, V::D3D10_0},
    {"mad", L::Operands, 1, 3, N::Float, kSat, V::D3D10_0},
    {"min", L::Operands, 1, 2, N::Float, kSat, V::D3D10_0},
    {"max", L::Operands, 1, 2, N::Float, kSat, V::D3D10_0},
    {"customdata", L::CustomData, 0, 0, N::Untyped, kDcl, V::D3D10_0},
    {"mov", L::Operands, 1, 1, N::Untyped, kSat, V::D3D10_0},
    {"movc", L::Operands, 1, 3, N::Untyped, kSat, V::D3D10_0},
    {"mul", L::Operands, 1, 2, N::Float, kSat, V::D3D10_0},
    {"ne", L::Operands, 1, 2, N::Float, 0, V::D3D10_0},
    {"nop", L::Operands, 0, 0, N::Integer, 0, V::D3D10_0},
    {"not", L::Operands, 1, 1, N::Integer, 0, V::D3D10_0},
    {"or", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"resinfo", L::Operands, 1, 2, N::Integer, kSat | kResinfo | kTyped, V::D3D10_0},
    {"ret", L::Operands, 0, 0, N::Integer, 0, V::D3D10_0},
    {"retc", L::Operands, 0, 1, N::Integer, kTest, V::D3D10_0},
    {"round_ne", L::Operands, 1, 1, N::Float, kSat, V::D3D10_0},
    {"round_ni", L::Operands, 1, 1, N::Float, kSat, V::D3D10_0},
    {"round_pi", L::Operands, 1, 1, N::Float, kSat, V::D3D10_0},
    {"round_z", L::Operands, 1, 1, N::Float, kSat, V::D3D10_0},
    {"rsq", L::Operands, 1, 1, N::Float, kSat, V::D3D10_0},
    {"sample", L::Operands, 1, 3, N::Float, kTex, V::D3D10_0},
    {"sample_c", L::Operands, 1, 4, N::Float, kTex, V::D3D10_0},
    {"sample_c_lz", L::Operands, 1, 4, N::Float, kTex, V::D3D10_0},
    {"sample_l", L::Operands, 1, 4, N::Float, kTex, V::D3D10_0},
    {"sample_d", L::Operands, 1, 5, N::Float, kTex, V::D3D10_0},
    {"sample_b", L::Operands, 1, 4, N::Float, kTex, V::D3D10_0},
    {"sqrt", L::Operands, 1, 1, N::Float, kSat, V::D3D10_0},
    {"switch", L::Operands, 0, 1, N::Integer, kFlow, V::D3D10_0},
    {"sincos", L::Operands, 2, 1, N::Float, kSat, V::D3D10_0},
    {"udiv", L::Operands, 2, 2, N::Integer, 0, V::D3D10_0},
    {"ult", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"uge", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"umul", L::Operands, 2, 2, N::Integer, 0, V::D3D10_0},
    {"umad", L::Operands, 1, 3, N::Integer, 0, V::D3D10_0},
    {"umax", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"umin", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"ushr", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"utof", L::Operands, 1, 1, N::Integer, kSat, V::D3D10_0},
    {"xor", L::Operands, 1, 2, N::Integer, 0, V::D3D10_0},
    {"dcl_resource", L::DclResource, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_constantbuffer", L::DclConstantBuffer, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_sampler", L::DclSampler, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_indexrange", L::DclIndexRange, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_outputtopology", L::DclGsOutputTopology, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_inputprimitive", L::DclGsInputPrimitive, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_maxout", L::DclCount, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_input", L::DclRegister, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_input_sgv", L::DclRegisterName, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_input_siv", L::DclRegisterName, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_input_ps", L::DclInputPs, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_input_ps_sgv", L::DclInputPsName, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_input_ps_siv", L::DclInputPsName, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_output", L::DclRegister, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_output_sgv", L::DclRegisterName, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_output_siv", L::DclRegisterName, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_temps", L::DclCount, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_indexableTemp", L::DclIndexableTemp, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {"dcl_globalFlags", L::DclGlobalFlags, 0, 0, N::Integer, kDcl, V::D3D10_0},
    {},  // D3D10_SB_OPCODE_RESERVED0
    {"lod", L::Operands, 1, 3, N::Float, kSat | kTyped, V::D3D10_1},
    {"gather4", L::Operands, 1, 3, N::Float, kTex, V::D3D10_1},
    {"samplepos", L::Operands, 1, 2, N::Integer, kSat | kTyped, V::D3D10_1},
    {"sampleinfo", L::Operands, 1, 1, N::Integer, kSat | kUintRet | kTyped, V::D3D10_1},
    {},  // D3D10_1_SB_OPCODE_RESERVED1
    {"hs_decls", L::HsPhase, 0, 0, N::Integer, 0, V::D3D11_0},
    {"hs_control_point_phase", L::HsPhase, 0, 0, N::Integer, 0, V::D3D11_0},
    {"hs_fork_phase", L::HsPhase, 0, 0, N::Integer, 0, V::D3D11_0},
    {"hs_join_phase", L::HsPhase, 0, 0, N::Integer, 0, V::D3D11_0},
    {"emit_stream", L::Operands, 0, 1, N::Integer, 0, V::D3D11_0},
    {"cut_stream", L::Operands, 0, 1, N::Integer, 0, V::D3D11_0},
    {"emit_then_cut_stream", L::Operands, 0, 1, N::Integer, 0, V::D3D11_0},
    {"fcall", L::InterfaceCall, 0, 1, N::Integer, 0, V::D3D11_0},
    {"bufinfo", L::Operands, 1, 1, N::Integer, kTyped, V::D3D11_0},
    {"deriv_rtx_coarse", L::Operands, 1, 1, N::Float, kSat, V::D3D11_0},
    {"deriv_rtx_fine", L::Operands, 1, 1, N::Float, kSat, V::D3D11_0},
    {"deriv_rty_coarse", L::Operands, 1, 1, N::Float, kSat, V::D3D11_0},
    {"deriv_rty_fine", L::Operands, 1, 1, N::Float, kSat, V::D3D11_0},
    {"gather4_c", L::Operands, 1, 4, N::Float, kTex, V::D3D11_0},
    {"gather4_po", L::Operands, 1, 4, N::Untyped, kSat | kTyped, V::D3D11_0},
    {"gather4_po_c", L::Operands, 1, 5, N::Untyped, kSat | kTyped, V::D3D11_0},
    {"rcp", L::Operands, 1, 1, N::Float, kSat, V::D3D11_0},
    {"f32tof16", L::Operands, 1, 1, N::Float, 0, V::D3D11_0},
    {"f16tof32", L::Operands, 1, 1, N::Integer, kSat, V::D3D11_0},
    {"uaddc", L::Operands, 2, 2, N::Integer, 0, V::D3D11_0},
    {"usubb", L::Operands, 2, 2, N::Integer, 0, V::D3D11_0},
    {"countbits", L::Operands, 1, 1, N::Integer, 0, V::D3D11_0},
    {"firstbit_hi", L::Operands, 1, 1, N::Integer, 0, V::D3D11_0},
    {"firstbit_lo", L::Operands, 1, 1, N::Integer, 0, V::D3D11_0},
    {"firstbit_shi", L::Operands, 1, 1, N::Integer, 0, V::D3D11_0},
    {"ubfe", L::Operands, 1, 3, N::Integer, 0, V::D3D11_0},
    {"ibfe", L::Operands, 1, 3, N::Integer, 0, V::D3D11_0},
    {"bfi", L::Operands, 1, 4, N::Integer, 0, V::D3D11_0},
    {"bfrev", L::Operands, 1, 1, N::Integer, 0, V::D3D11_0},
    {"swapc", L::Operands, 2, 3, N::Untyped, 0, V::D3D11_0},
    {"dcl_stream", L::DclRegister, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_function_body", L::DclFunctionBody, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_function_table", L::DclFunctionTable, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_interface", L::DclInterface, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_input_control_point_count", L::DclControlPointCount, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_output_control_point_count", L::DclControlPointCount, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_tessellator_domain", L::DclTessDomain, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_tessellator_partitioning", L::DclTessPartitioning, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_tessellator_output_primitive", L::DclTessOutputPrimitive, 0, 0, N::Integer, kDcl,
     V::D3D11_0},
    {"dcl_hs_max_tessfactor", L::DclHsMaxTessFactor, 0, 0, N::Float, kDcl, V::D3D11_0},
    {"dcl_hs_fork_phase_instance_count", L::DclCount, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_hs_join_phase_instance_count", L::DclCount, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_thread_group", L::DclThreadGroup, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_uav_typed", L::DclUavTyped, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_uav_raw", L::DclUavRaw, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_uav_structured", L::DclUavStructured, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_tgsm_raw", L::DclTgsmRaw, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_tgsm_structured", L::DclTgsmStructured, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_resource_raw", L::DclResourceRaw, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"dcl_resource_structured", L::DclResourceStructured, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"ld_uav_typed", L::Operands, 1, 2, N::Integer, kSat | kTyped, V::D3D11_0},
    {"store_uav_typed", L::Operands, 1, 2, N::Untyped, 0, V::D3D11_0},
    {"ld_raw", L::Operands, 1, 2, N::Integer, kSat | kTyped, V::D3D11_0},
    {"store_raw", L::Operands, 1, 2, N::Untyped, 0, V::D3D11_0},
    {"ld_structured", L::Operands, 1, 3, N::Integer, kSat | kTyped, V::D3D11_0},
    {"store_structured", L::Operands, 1, 3, N::Untyped, 0, V::D3D11_0},
    {"atomic_and", L::Operands, 1, 2, N::Integer, 0, V::D3D11_0},
    {"atomic_or", L::Operands, 1, 2, N::Integer, 0, V::D3D11_0},
    {"atomic_xor", L::Operands, 1, 2, N::Integer, 0, V::D3D11_0},
    {"atomic_cmp_store", L::Operands, 1, 3, N::Integer, 0, V::D3D11_0},
    {"atomic_iadd", L::Operands, 1, 2, N::Integer, 0, V::D3D11_0},
    {"atomic_imax", L::Operands, 1, 2, N::Integer, 0, V::D3D11_0},
    {"atomic_imin", L::Operands, 1, 2, N::Integer, 0, V::D3D11_0},
    {"atomic_umax", L::Operands, 1, 2, N::Integer, 0, V::D3D11_0},
    {"atomic_umin", L::Operands, 1, 2, N::Integer, 0, V::D3D11_0},
    {"imm_atomic_alloc", L::Operands, 1, 1, N::Integer, 0, V::D3D11_0},
    {"imm_atomic_consume", L::Operands, 1, 1, N::Integer, 0, V::D3D11_0},
    {"imm_atomic_iadd", L::Operands, 1, 3, N::Integer, 0, V::D3D11_0},
    {"imm_atomic_and", L::Operands, 1, 3, N::Integer, 0, V::D3D11_0},
    {"imm_atomic_or", L::Operands, 1, 3, N::Integer, 0, V::D3D11_0},
    {"imm_atomic_xor", L::Operands, 1, 3, N::Integer, 0, V::D3D11_0},
    {"imm_atomic_exch", L::Operands, 1, 3, N::Integer, 0, V::D3D11_0},
    {"imm_atomic_cmp_exch", L::Operands, 1, 4, N::Integer, 0, V::D3D11_0},
    {"imm_atomic_imax", L::Operands, 1, 3, N::Integer, 0, V::D3D11_0},
    {"imm_atomic_imin", L::Operands, 1, 3, N::Integer, 0, V::D3D11_0},
    {"imm_atomic_umax", L::Operands, 1, 3, N::Integer, 0, V::D3D11_0},
    {"imm_atomic_umin", L::Operands, 1, 3, N::Integer, 0, V::D3D11_0},
    {"sync", L::Operands, 0, 0, N::Integer, kSync, V::D3D11_0},
    {"dadd", L::Operands, 1, 2, N::Double, kSat, V::D3D11_0},
    {"dmax", L::Operands, 1, 2, N::Double, kSat, V::D3D11_0},
    {"dmin", L::Operands, 1, 2, N::Double, kSat, V::D3D11_0},
    {"dmul", L::Operands, 1, 2, N::Double, kSat, V::D3D11_0},
    {"deq", L::Operands, 1, 2, N::Double, 0, V::D3D11_0},
    {"dge", L::Operands, 1, 2, N::Double, 0, V::D3D11_0},
    {"dlt", L::Operands, 1, 2, N::Double, 0, V::D3D11_0},
    {"dne", L::Operands, 1, 2, N::Double, 0, V::D3D11_0},
    {"dmov", L::Operands, 1, 1, N::Double, kSat, V::D3D11_0},
    {"dmovc", L::Operands, 1, 3, N::Double, kSat, V::D3D11_0},
    {"dtof", L::Operands, 1, 1, N::Double, kSat, V::D3D11_0},
    {"ftod", L::Operands, 1, 1, N::Float, 0, V::D3D11_0},
    {"eval_snapped", L::Operands, 1, 2, N::Integer, kSat, V::D3D11_0},
    {"eval_sample_index", L::Operands, 1, 2, N::Integer, kSat, V::D3D11_0},
    {"eval_centroid", L::Operands, 1, 1, N::Integer, kSat, V::D3D11_0},
    {"dcl_gsinstances", L::DclCount, 0, 0, N::Integer, kDcl, V::D3D11_0},
    {"abort", L::Operands, 0, 0, N::Integer, 0, V::D3D11_0},
    {"debug_break", L::Operands, 0, 0, N::Integer, 0, V::D3D11_0},
    {},  // D3D11_SB_OPCODE_RESERVED0
    {"ddiv", L::Operands, 1, 2, N::Double, kSat, V::D3D11_1},
    {"dfma", L::Operands, 1, 3, N::Double, kSat, V::D3D11_1},
    {"drcp", L::Operands, 1, 1, N::Double, kSat, V::D3D11_1},
    {"msad", L::Operands, 1, 3, N::Integer, 0, V::D3D11_1},
    {"dtoi", L::Operands, 1, 1, N::Double, 0, V::D3D11_1},
    {"dtou", L::Operands, 1, 1, N::Double, 0, V::D3D11_1},
    {"itod", L::Operands, 1, 1, N::Integer, 0, V::D3D11_1},
    {"utod", L::Operands, 1, 1, N::Integer, 0, V::D3D11_1},
    {},  // D3D11_1_SB_OPCODE_RESERVED0
    // D3D11.2 tiled resources: the second destination is the feedback value.
    {"gather4_s", L::Operands, 2, 3, N::Float, kTex, V::D3D11_2},
    {"gather4_c_s", L::Operands, 2, 4, N::Float, kTex, V::D3D11_2},
    {"gather4_po_s", L::Operands, 2, 4, N::Untyped, kSat | kTyped, V::D3D11_2},
    {"gather4_po_c_s", L::Operands, 2, 5, N::Untyped, kSat | kTyped, V::D3D11_2},
    {"ld_s", L::Operands, 2, 2, N::Integer, kTex, V::D3D11_2},
    {"ldms_s", L::Operands, 2, 3, N::Integer, kTex, V::D3D11_2},
    {"ld_uav_typed_s", L::Operands, 2, 2, N::Integer, kSat | kTyped, V::D3D11_2},
    {"ld_raw_s", L::Operands, 2, 2, N::Integer, kSat | kTyped, V::D3D11_2},
    {"ld_structured_s", L::Operands, 2, 3, N::Integer, kSat | kTyped, V::D3D11_2},
    {"sample_l_s", L::Operands, 2, 4, N::Float, kTex, V::D3D11_2},
    {"sample_c_lz_s", L::Operands, 2, 4, N::Float, kTex, V::D3D11_2},
    {"sample_cl_s", L::Operands, 2, 4, N::Float, kTex, V::D3D11_2},
    {"sample_b_cl_s", L::Operands, 2, 5, N::Float, kTex, V::D3D11_2},
    {"sample_d_cl_s", L::Operands, 2, 6, N::Float, kTex, V::D3D11_2},
    {"sample_c_cl_s", L::Operands, 2, 5, N::Float, kTex, V::D3D11_2},
    {"check_access_fully_mapped", L::Operands, 1, 1, N::Integer, 0, V::D3D11_2},
};

// OpcodeInfo for each entry, built once (OpcodeInfo carries the opcode).
struct Table {
    OpcodeInfo entries[kOpcodeCount];
    Table() {
        for (std::uint32_t i = 0; i < kOpcodeCount; ++i) {
            const Entry& entry = kOpcodes[i];
            entries[i] =
                OpcodeInfo{static_cast<Opcode>(i), entry.name,    entry.layout, entry.destinations,
                           entry.sources,          entry.numbers, entry.flags,  entry.introduced};
        }
    }
};

const Table& table() {
    static const Table instance;
    return instance;
}

// Names the Shader Model 4/5 reference or other tools use for an opcode
// whose fxc name differs.
struct Alias {
    std::string_view name;
    Opcode opcode;
};
constexpr Alias kAliases[] = {
    {"dcl_immediateConstantBuffer", Opcode::CustomData},
    {"dcl_constantBuffer", Opcode::DclConstantBuffer},
    {"dcl_indexRange", Opcode::DclIndexRange},
    {"dcl_outputTopology", Opcode::DclGsOutputPrimitiveTopology},
    {"dcl_inputPrimitive", Opcode::DclGsInputPrimitive},
    {"dcl_maxOutputVertexCount", Opcode::DclMaxOutputVertexCount},
    {"emitThenCut", Opcode::EmitThenCut},
    {"emitThenCut_stream", Opcode::EmitThenCutStream},
    {"ld2dms", Opcode::LdMs},
    {"ld_ms", Opcode::LdMs},
    {"sample_pos", Opcode::SamplePos},
    {"sample_info", Opcode::SampleInfo},
    {"dcl_gs_instances", Opcode::DclGsInstanceCount},
};

constexpr OperandTypeInfo kOperandTypes[kOperandTypeCount] = {
    {"r", false, 0},
    {"v", false, 0},
    {"o", false, 0},
    {"x", false, 0},
    {"l", false, 0},
    {"d", false, 0},
    {"s", false, 0},
    {"t", false, 0},
    {"cb", false, 0},
    {"icb", false, 0},
    {"l", false, 0},
    {"vPrim", true, 1},
    {"oDepth", true, 1},
    {"null", true, 0},
    {"rasterizer", true, 0},
    {"oMask", true, 1},
    {"m", false, 0},
    {"fb", false, 0},
    {"ft", false, 0},
    {"fp", false, 0},
    {"fi", false, 0},
    {"fo", false, 0},
    {"vOutputControlPointID", true, 1},
    {"vForkInstanceID", true, 1},
    {"vJoinInstanceID", true, 1},
    {"vicp", false, 0},
    {"vocp", false, 0},
    {"vpc", false, 0},
    {"vDomain", true, 0},
    {"this", false, 0},
    {"u", false, 0},
    {"g", false, 0},
    {"vThreadID", true, 0},
    {"vThreadGroupID", true, 0},
    {"vThreadIDInGroup", true, 0},
    {"vCoverage", true, 1},
    {"vThreadIDInGroupFlattened", true, 1},
    {"vGSInstanceID", true, 1},
    {"oDepthGE", true, 1},
    {"oDepthLE", true, 1},
    {"vCycleCounter", true, 0},
    {"oStencilRef", true, 1},
    {"vInnerCoverage", true, 1},
};

template <typename Enum, std::size_t Count>
std::string_view name_in(const std::string_view (&names)[Count], Enum value) {
    const auto index = static_cast<std::size_t>(value);
    return index < Count ? names[index] : std::string_view{};
}

template <typename Enum, std::size_t Count>
std::optional<Enum> parse_in(const std::string_view (&names)[Count], std::string_view name) {
    if (name.empty()) return std::nullopt;
    for (std::size_t i = 0; i < Count; ++i)
        if (names[i] == name) return static_cast<Enum>(i);
    return std::nullopt;
}

constexpr std::string_view kDimensions[] = {
    "unknown",          "buffer",      "texture1d",        "texture2d",      "texture2dms",
    "texture3d",        "texturecube", "texture1darray",   "texture2darray", "texture2dmsarray",
    "texturecubearray", "raw_buffer",  "structured_buffer"};
constexpr std::string_view kReturnTypes[] = {"",      "unorm", "snorm",  "sint",      "uint",
                                             "float", "mixed", "double", "continued", "unused"};
constexpr std::string_view kSamplerModes[] = {"mode_default", "mode_comparison", "mode_mono"};
constexpr std::string_view kInterpolations[] = {"",
                                                "constant",
                                                "linear",
                                                "linear centroid",
                                                "linear noperspective",
                                                "linear noperspective centroid",
                                                "linear sample",
                                                "linear noperspective sample"};
constexpr std::string_view kTopologies[] = {"",
                                            "pointlist",
                                            "linelist",
                                            "linestrip",
                                            "trianglelist",
                                            "trianglestrip",
                                            "",
                                            "",
                                            "",
                                            "",
                                            "linelist_adj",
                                            "linestrip_adj",
                                            "trianglelist_adj",
                                            "trianglestrip_adj"};
constexpr std::string_view kPrimitives[] = {"", "point", "line",    "triangle",
                                            "", "",      "lineadj", "triangleadj"};
constexpr std::string_view kSystemNames[] = {"undefined",
                                             "position",
                                             "clip_distance",
                                             "cull_distance",
                                             "rendertarget_array_index",
                                             "viewport_array_index",
                                             "vertex_id",
                                             "primitive_id",
                                             "instance_id",
                                             "is_front_face",
                                             "sampleIndex",
                                             "finalQuadUeq0EdgeTessFactor",
                                             "finalQuadVeq0EdgeTessFactor",
                                             "finalQuadUeq1EdgeTessFactor",
                                             "finalQuadVeq1EdgeTessFactor",
                                             "finalQuadUInsideTessFactor",
                                             "finalQuadVInsideTessFactor",
                                             "finalTriUeq0EdgeTessFactor",
                                             "finalTriVeq0EdgeTessFactor",
                                             "finalTriWeq0EdgeTessFactor",
                                             "finalTriInsideTessFactor",
                                             "finalLineDetailTessFactor",
                                             "finalLineDensityTessFactor"};
constexpr std::string_view kTessDomains[] = {"", "domain_isoline", "domain_tri", "domain_quad"};
constexpr std::string_view kTessPartitionings[] = {"", "partitioning_integer", "partitioning_pow2",
                                                   "partitioning_fractional_odd",
                                                   "partitioning_fractional_even"};
constexpr std::string_view kTessOutputs[] = {"", "output_point", "output_line",
                                             "output_triangle_cw", "output_triangle_ccw"};

constexpr GlobalFlagName kGlobalFlags[] = {
    {token::kGlobalRefactoringAllowed, "refactoringAllowed"},
    {token::kGlobalDoublePrecision, "enableDoublePrecisionFloatOps"},
    {token::kGlobalForceEarlyDepthStencil, "forceEarlyDepthStencil"},
    {token::kGlobalRawAndStructuredBuffers, "enableRawAndStructuredBuffers"},
    {token::kGlobalSkipOptimization, "skipOptimization"},
    {token::kGlobalMinimumPrecision, "enableMinimumPrecision"},
    {token::kGlobalDoubleExtensions, "enable11_1DoubleExtensions"},
    {token::kGlobalShaderExtensions, "enable11_1ShaderExtensions"},
    {token::kGlobalAllResourcesBound, "allResourcesBound"},
};

constexpr std::string_view kProgramPrefixes[] = {"ps", "vs", "gs", "hs", "ds", "cs"};

}  // namespace

std::string_view program_type_prefix(ProgramType type) {
    return name_in(kProgramPrefixes, type);
}

std::optional<ProgramType> parse_program_type_prefix(std::string_view prefix) {
    return parse_in<ProgramType>(kProgramPrefixes, prefix);
}

const OpcodeInfo* opcode_info(std::uint32_t opcode) {
    if (opcode >= kOpcodeCount || kOpcodes[opcode].name.empty()) return nullptr;
    return &table().entries[opcode];
}

const OpcodeInfo* find_opcode(std::string_view name) {
    if (name.empty()) return nullptr;
    for (const OpcodeInfo& entry : table().entries)
        if (entry.name == name) return &entry;
    for (const Alias& alias : kAliases)
        if (alias.name == name) return &opcode_info(alias.opcode);
    return nullptr;
}

const OperandTypeInfo& operand_type_info(OperandType type) {
    const auto index = static_cast<std::size_t>(type);
    static constexpr OperandTypeInfo unknown{"?", true, 0};
    return index < kOperandTypeCount ? kOperandTypes[index] : unknown;
}

std::string_view resource_dimension_name(ResourceDimension value) {
    return name_in(kDimensions, value);
}
std::string_view return_type_name(ReturnType value) {
    return name_in(kReturnTypes, value);
}
std::string_view sampler_mode_name(SamplerMode value) {
    return name_in(kSamplerModes, value);
}
std::string_view interpolation_mode_name(InterpolationMode value) {
    return name_in(kInterpolations, value);
}
std::string_view primitive_topology_name(PrimitiveTopology value) {
    return name_in(kTopologies, value);
}
std::string primitive_name(Primitive value) {
    const auto number = static_cast<unsigned>(value);
    if (number >= static_cast<unsigned>(Primitive::Patch1) &&
        number <= static_cast<unsigned>(Primitive::Patch32))
        return "patch" + std::to_string(number - static_cast<unsigned>(Primitive::Patch1) + 1);
    return std::string(name_in(kPrimitives, value));
}
std::string_view system_name_name(SystemName value) {
    return name_in(kSystemNames, value);
}
std::string_view tess_domain_name(TessDomain value) {
    return name_in(kTessDomains, value);
}
std::string_view tess_partitioning_name(TessPartitioning value) {
    return name_in(kTessPartitionings, value);
}
std::string_view tess_output_primitive_name(TessOutputPrimitive value) {
    return name_in(kTessOutputs, value);
}

std::optional<ResourceDimension> parse_resource_dimension(std::string_view name) {
    return parse_in<ResourceDimension>(kDimensions, name);
}
std::optional<ReturnType> parse_return_type(std::string_view name) {
    return parse_in<ReturnType>(kReturnTypes, name);
}
std::optional<SamplerMode> parse_sampler_mode(std::string_view name) {
    return parse_in<SamplerMode>(kSamplerModes, name);
}
std::optional<InterpolationMode> parse_interpolation_mode(std::string_view name) {
    return parse_in<InterpolationMode>(kInterpolations, name);
}
std::optional<PrimitiveTopology> parse_primitive_topology(std::string_view name) {
    return parse_in<PrimitiveTopology>(kTopologies, name);
}
std::optional<Primitive> parse_primitive(std::string_view name) {
    if (name.starts_with("patch") && name.size() > 5 && name.size() <= 7) {
        unsigned count = 0;
        for (const char c : name.substr(5)) {
            if (c < '0' || c > '9') return std::nullopt;
            count = count * 10 + static_cast<unsigned>(c - '0');
        }
        if (count < 1 || count > 32 || name[5] == '0') return std::nullopt;
        return static_cast<Primitive>(static_cast<unsigned>(Primitive::Patch1) + count - 1);
    }
    return parse_in<Primitive>(kPrimitives, name);
}
std::optional<SystemName> parse_system_name(std::string_view name) {
    return parse_in<SystemName>(kSystemNames, name);
}
std::optional<TessDomain> parse_tess_domain(std::string_view name) {
    return parse_in<TessDomain>(kTessDomains, name);
}
std::optional<TessPartitioning> parse_tess_partitioning(std::string_view name) {
    return parse_in<TessPartitioning>(kTessPartitionings, name);
}
std::optional<TessOutputPrimitive> parse_tess_output_primitive(std::string_view name) {
    return parse_in<TessOutputPrimitive>(kTessOutputs, name);
}

std::span<const GlobalFlagName> global_flag_names() {
    return kGlobalFlags;
}

}  // namespace d3dcap::runtime::shader
