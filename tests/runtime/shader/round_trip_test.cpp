// assemble -> decode -> disassemble gives the text back, for shaders of all
// six stages and one that touches most opcodes and operand forms; and the
// decoded program's declaration summary says what the text declares.
#include <catch2/catch.hpp>

#include "runtime/shader/assembler.h"
#include "runtime/shader/container.h"
#include "runtime/shader/decoder.h"
#include "runtime/shader/disassembler.h"
#include "shader_sources.h"

using namespace d3dcap::runtime::shader;

namespace {

Program round_trip(std::string_view text) {
    const AssembleResult assembled = assemble(text);
    INFO(assembled.error);
    REQUIRE(assembled.ok());
    std::string error;
    const auto program = decode_container(assembled.container, error);
    INFO(error);
    REQUIRE(program);
    CHECK(disassemble(*program) == text);
    return *program;
}

// Most opcodes, operand forms and declarations, canonical as printed.
constexpr std::string_view kWidePixelShader = R"(ps_5_0
.input SV_Position0 v0.xyzw float
.input TEXCOORD0 v1.xy float
.input TEXCOORD1 v1.zw float
.input COLOR0 v2.xyzw float used xy
.input SV_IsFrontFace0 v3.x uint
.input SV_SampleIndex0 v3.y uint
.input SV_Position1 v4.xyzw float none
.output SV_Target0 o0.xyzw float
.output SV_Target1 o1.xyzw int used w
.output SV_Depth0 oDepth.x float
.output SV_Coverage0 oMask.x uint
dcl_globalFlags refactoringAllowed | forceEarlyDepthStencil | enableRawAndStructuredBuffers
dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0},
                              { 0, 1.000000, 0, 0},
                              { -2.500000, 0x7fc00000, 1e-07, -7} }
dcl_constantbuffer cb0[4], immediateIndexed
dcl_constantbuffer cb1[4096], dynamicIndexed
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2dms(4) (float,float,float,float) t1
dcl_resource_texturecubearray (uint,uint,uint,uint) t2
dcl_resource_buffer (sint,sint,sint,sint) t3
dcl_resource_raw t4
dcl_resource_structured t5, 16
dcl_uav_typed_texture2d (float,float,float,float) u1
dcl_uav_raw_glc u2
dcl_uav_structured_opc u3, 8
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_input_ps linear v1.xy
dcl_input_ps linear centroid v1.zw
dcl_input_ps constant v2.xy
dcl_input_ps_sgv constant v3.x, is_front_face
dcl_input_ps_sgv v3.y, sampleIndex
dcl_input vCoverage
dcl_output o0.xyzw
dcl_output o1.w
dcl_output oDepth
dcl_output oMask
dcl_temps 4
dcl_indexableTemp x0[8], 4
mov_sat r0.xyzw, -|v1.xyzw|
add [precise(xy)] r0.xy, -r0.xyxx, |cb1[r0.x + 12].zwzw|
mad r1.xyzw, icb[r0.w + 1].xyzw, l(1.000000, 2.000000, -3.500000, 0.000000), cb0[0].wzyx
mov x0[r0.y + 3].xyzw, r1.xyzw
mov r2.xyzw, x0[2].xyzw
mov r3.x, cb1[r0.z].y
ishl r0.x, l(1), l(-1)
and r0.y, r0.x, l(0x7fff0000)
if_nz r0.x
  discard_z r0.y
else
  switch r0.x
    case l(0)
    break
    default
    break
  endswitch
endif
loop
  continuec_z r0.z
  breakc_nz r0.w
endloop
sample_aoffimmi_indexable(-1,0,7)(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0
sample_c_lz_indexable(texture2d)(float,float,float,float) r0.x, v1.xyxx, t0.xxxx, s1, l(0.500000)
sample_d_indexable(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0, l(0.100000, 0.000000, 0.000000, 0.000000), l(0.000000, 0.100000, 0.000000, 0.000000)
sample_b r0.xyzw, v1.xyxx, t0.xyzw, s0, l(-1.000000)
ldms_indexable(texture2dms)(float,float,float,float) r0.xyzw, l(0, 0, 0, 0), t1.xyzw, v3.y
resinfo_indexable(texture2d)(float,float,float,float)_uint r0.xy, l(0), t0.xyzw
resinfo_rcpFloat r0.xy, l(0), t0.xyzw
sampleinfo_uint r0.x, t1.x
samplepos r0.xy, t1.xyxx, l(1)
gather4_po_c_indexable(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, l(1, -1, 0, 0), t0.xyzw, s1.x, l(0.250000)
lod_indexable(texturecubearray)(uint,uint,uint,uint) r0.x, v1.xyxx, t2.y, s0
ld_indexable(buffer)(sint,sint,sint,sint) r0.xyzw, l(3), t3.xyzw
ld_raw_indexable(raw_buffer) r0.xy, l(16), t4.xyxx
ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) r0.x, l(1), l(4), t5.xxxx
bufinfo_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) r0.x, t5.xxxx
store_uav_typed u1.xyzw, l(0, 0, 0, 0), r0.xyzw
ld_uav_typed_indexable(texture2d)(float,float,float,float) r0.xyzw, l(1, 1, 0, 0), u1.xyzw
imm_atomic_alloc r0.x, u3
imm_atomic_cmp_exch r0.x, u2, l(0), r0.y, r0.z
atomic_iadd u2, l(4), l(1)
store_structured u3.xy, r0.x, l(0), r0.zwzz
imul null, r0.x, r0.y, r0.z
udiv r0.x, r1.x, r0.y, l(3)
sincos r0.x, null, r0.y
uaddc r0.x, r0.y, r0.z, r0.w
bfi r0.x, l(4), l(8), r0.y, r0.z
swapc r0.xy, r1.xy, r0.zzzz, r2.xyxx, r3.xyxx
countbits r0.x, r0.y
firstbit_hi r0.x, r0.y
f32tof16 r0.x, r0.y
f16tof32 r0.x, r0.y
rcp r0.x, r0.y
deriv_rtx_coarse r0.xy, v1.xyxx
deriv_rty_fine r0.xy, v1.xyxx
eval_sample_index r0.xy, v1.xyxx, l(2)
eval_centroid r0.zw, v1.zzzw
eval_snapped r0.xy, v1.xyxx, l(1, 2, 0, 0)
movc r0.xyzw, r0.xxxx, l(1.000000, 1.000000, 1.000000, 1.000000), l(0, 0, 0, 0)
dmov r0.xy, d(1.000000l)
dmovc r0.xyzw, r0.xxxx, d(1.500000l, -2.000000l), r1.xyzw
dadd r0.xy, r0.xyxx, d(0.100000l)
ftod r0.zw, r1.x
dtof r0.x, r0.zwzz
msad r0.x, r0.y, r0.z, r0.w
sample_cl_s r0.xyzw, r1.x, v1.xyxx, t0.xyzw, s0, l(0.000000)
check_access_fully_mapped r0.y, r1.x
mov r0.x {min16f}, r1.x {min16f}
mov o0.xyzw, r0.xyzw
mov o1.w, l(-1)
mov oDepth, l(0.500000)
mov oMask, vCoverage
retc_nz r0.x
ret
)";

}  // namespace

TEST_CASE("vertex shader round trip and summary") {
    const Program program = round_trip(shader_tests::kVertexShader);
    CHECK(program.type == ProgramType::Vertex);
    CHECK(program.temp_count == 1);
    REQUIRE(program.constant_buffers.size() == 1);
    CHECK(program.constant_buffers[0].reg == 0);
    CHECK(program.constant_buffers[0].vector_count == 4);
    CHECK_FALSE(program.constant_buffers[0].dynamically_indexed);
    REQUIRE(program.input_signature.size() == 2);
    CHECK(program.input_signature[1].semantic_name == "TEXCOORD");
    CHECK(program.input_signature[1].register_index == 1);
    CHECK(program.input_signature[1].mask == 0x3);
    CHECK(program.input_signature[1].read_write_mask == 0x3);
    REQUIRE(program.output_signature.size() == 2);
    CHECK(program.output_signature[0].system_value == 1);  // D3D_NAME_POSITION
    CHECK(program.output_signature[0].read_write_mask == 0);
    REQUIRE(program.outputs.size() == 2);
    CHECK(program.outputs[0].system_name == SystemName::Position);
    CHECK(program.outputs[1].reg == 1);
    CHECK(program.outputs[1].mask == 0x3);
}

TEST_CASE("pixel shader round trip and summary") {
    const Program program = round_trip(shader_tests::kPixelShader);
    CHECK(program.type == ProgramType::Pixel);
    REQUIRE(program.resource(0));
    CHECK(program.resource(0)->kind == BufferKind::Typed);
    CHECK(program.resource(0)->dimension == ResourceDimension::Texture2D);
    CHECK(program.resource(0)->return_types[0] == ReturnType::Float);
    REQUIRE(program.sampler(0));
    CHECK(program.sampler(0)->mode == SamplerMode::Default);
    CHECK(program.resource(1) == nullptr);
    REQUIRE(program.inputs.size() == 1);
    CHECK(program.inputs[0].interpolation == InterpolationMode::Linear);
    CHECK(program.output_signature.at(0).system_value == 64);  // D3D_NAME_TARGET
    const Instruction& sample = program.instructions.at(5);
    CHECK(sample.opcode == Opcode::Sample);
    CHECK(sample.resource_dimension == ResourceDimension::Texture2D);
}

TEST_CASE("compute shader round trip and summary") {
    const Program program = round_trip(shader_tests::kComputeShader);
    CHECK(program.type == ProgramType::Compute);
    CHECK(program.thread_group == std::array<std::uint32_t, 3>{8, 8, 1});
    CHECK(program.global_flags == token::kGlobalRefactoringAllowed);
    REQUIRE(program.uav(0));
    CHECK(program.uav(0)->kind == BufferKind::Raw);
    CHECK(program.uav(0)->dimension == ResourceDimension::RawBuffer);
    CHECK_FALSE(program.uav(0)->has_counter);
    REQUIRE(program.inputs.size() == 1);
    CHECK(program.inputs[0].type == OperandType::InputThreadId);
    CHECK(program.inputs[0].mask == 0x1);
    CHECK(program.input_signature.empty());
    CHECK(program.output_signature.empty());
    // Offsets of each instruction, from the version token.
    std::vector<std::uint32_t> offsets;
    for (const Instruction& instruction : program.instructions)
        offsets.push_back(instruction.byte_offset);
    CHECK(offsets == std::vector<std::uint32_t>{8, 12, 24, 32, 40, 56, 80, 104});
}

TEST_CASE("geometry shader round trip and summary") {
    const Program program = round_trip(shader_tests::kGeometryShader);
    CHECK(program.input_primitive == Primitive::Triangle);
    CHECK(program.output_topology == PrimitiveTopology::TriangleStrip);
    CHECK(program.max_output_vertices == 3);
    CHECK(program.streams == std::vector<std::uint32_t>{0});
    CHECK(program.output_signature_has_streams);  // dcl_stream: OSG5
    REQUIRE(program.inputs.size() == 2);
    CHECK(program.inputs[0].reg == 0);
    CHECK(program.inputs[1].reg == 1);
    CHECK(program.inputs[0].system_name == SystemName::Position);
}

TEST_CASE("hull shader round trip and summary") {
    const Program program = round_trip(shader_tests::kHullShader);
    CHECK(program.type == ProgramType::Hull);
    CHECK(program.input_control_points == 3);
    CHECK(program.output_control_points == 3);
    CHECK(program.tess_domain == TessDomain::Triangle);
    CHECK(program.tess_partitioning == TessPartitioning::Integer);
    CHECK(program.tess_output_primitive == TessOutputPrimitive::TriangleCw);
    CHECK(program.max_tess_factor == 64.0f);
    REQUIRE(program.hull_phases.size() == 4);
    CHECK(program.hull_phases[0].kind == Opcode::HsDecls);
    CHECK(program.hull_phases[1].kind == Opcode::HsControlPointPhase);
    CHECK(program.hull_phases[1].first_instruction == 8);
    CHECK(program.hull_phases[2].kind == Opcode::HsForkPhase);
    CHECK(program.hull_phases[2].instance_count == 3);
    CHECK(program.hull_phases[2].temp_count == 1);
    CHECK(program.hull_phases[3].instance_count == 1);
    REQUIRE(program.patch_constant_signature.size() == 4);
    CHECK(program.patch_constant_signature[3].semantic_name == "SV_InsideTessFactor");
    CHECK(program.patch_constant_signature[3].system_value == 14);  // tri inside tess factor
    CHECK(program.outputs.size() == 5);
    CHECK(program.outputs[4].phase == 3);
}

TEST_CASE("domain shader round trip and summary") {
    const Program program = round_trip(shader_tests::kDomainShader);
    CHECK(program.type == ProgramType::Domain);
    CHECK(program.input_control_points == 3);
    CHECK(program.tess_domain == TessDomain::Triangle);
    REQUIRE(program.inputs.size() == 2);
    CHECK(program.inputs[0].type == OperandType::InputDomainPoint);
    CHECK(program.inputs[0].mask == 0x7);
    CHECK(program.inputs[1].type == OperandType::InputControlPoint);
    // A domain shader's patch constants are inputs: read in full by default.
    CHECK(program.patch_constant_signature.at(0).read_write_mask == 0x1);
}

TEST_CASE("a shader using most opcodes and operand forms round-trips") {
    const Program program = round_trip(kWidePixelShader);
    CHECK(program.immediate_constant_buffer.size() == 12);
    CHECK(program.immediate_constant_buffer[9] == 0x7fc00000);
    CHECK(program.constant_buffer(1)->dynamically_indexed);
    CHECK(program.resource(1)->sample_count == 4);
    CHECK(program.resource(5)->stride == 16);
    CHECK(program.uav(2)->globally_coherent);
    CHECK(program.uav(3)->has_counter);
    CHECK(program.indexable_temps.at(0).register_count == 8);
    CHECK(program.output_signature.at(2).register_index == 0xffffffffu);
    CHECK(program.input_signature.at(6).system_value == 0);
}

TEST_CASE("shader model 4 programs go into a SHDR chunk") {
    constexpr std::string_view text = R"(ps_4_0
.input TEXCOORD0 v0.xyzw float
.output SV_Target0 o0.xyzw float
dcl_input_ps linear v0.xyzw
dcl_output o0.xyzw
mul o0.xyzw, v0.xyzw, l(0.500000, 0.500000, 0.500000, 1.000000)
ret
)";
    const Program program = round_trip(text);
    CHECK(program.major_version == 4);
    const AssembleResult assembled = assemble(text);
    std::string error;
    const auto chunks = read_container(assembled.container, error);
    REQUIRE(chunks);
    std::vector<std::string> names;
    for (const ContainerChunk& chunk : *chunks) names.emplace_back(chunk.fourcc, 4);
    CHECK(names == std::vector<std::string>{"ISGN", "OSGN", "SHDR"});
    CHECK(assembled.tokens[0] == 0x00000040);
}

TEST_CASE("a bare token stream disassembles without signatures") {
    const AssembleResult assembled = assemble(shader_tests::kVertexShader);
    REQUIRE(assembled.ok());
    std::string error;
    const auto program = decode(shader_tests::token_bytes(assembled.tokens), error);
    REQUIRE(program);
    const std::string text = disassemble(*program);
    CHECK(text.starts_with("vs_5_0\ndcl_globalFlags refactoringAllowed\n"));
    CHECK(text.find(".input") == std::string::npos);
    CHECK(disassemble_instruction(program->instructions.at(7)) ==
          "mul r0.xyzw, v0.yyyy, cb0[1].xyzw");
}

TEST_CASE("DWORDs past an instruction's operands are kept and shown, as Windows skips them") {
    // samplepos r0.xy, rasterizer.xyxx, l(1) with one more DWORD inside its
    // length, as Microsoft's assembler writes it; then a mov with two.
    const std::vector<std::uint32_t> tokens{
        0x00000041, 16,                                                     // ps_4_1
        0x0700006e, 0x00100032, 0, 0x0000e046, 0x00004001, 1,          0,   // samplepos
        0x07000036, 0x00100012, 0, 0x00004001, 2,          0xdeadbeef, 7};  // mov
    std::string error;
    const auto program = decode(shader_tests::token_bytes(tokens), error);
    INFO(error);
    REQUIRE(program);
    REQUIRE(program->instructions.size() == 2);
    CHECK(program->instructions[0].operands.size() == 3);
    CHECK(program->instructions[0].trailing_dwords == std::vector<std::uint32_t>{0});
    CHECK(disassemble_instruction(program->instructions[0]) ==
          "samplepos r0.xy, rasterizer.xyxx, l(1)\n.dwords 0x00000000");
    CHECK(program->instructions[1].trailing_dwords == std::vector<std::uint32_t>{0xdeadbeef, 7});
    CHECK(disassemble_instruction(program->instructions[1]) ==
          "mov r0.x, l(2)\n.dwords 0xdeadbeef 0x00000007");
    // The text assembles back to the same tokens.
    const AssembleResult again = assemble(disassemble(*program));
    INFO(again.error);
    REQUIRE(again.ok());
    CHECK(again.tokens == tokens);
}
