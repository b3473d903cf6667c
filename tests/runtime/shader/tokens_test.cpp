// The token encoding of assembled instructions against the documented
// bit layout (d3d12TokenizedProgramFormat.hpp), the opcode table, and what
// the decoder reads from tokens.
#include "runtime/shader/tokens.h"

#include <catch2/catch.hpp>

#include "runtime/shader/assembler.h"
#include "runtime/shader/decoder.h"
#include "shader_sources.h"

using namespace d3dcap::runtime::shader;

namespace {

// The tokens after the version and length tokens of a one-line program.
std::vector<std::uint32_t> body_of(std::string_view text) {
    const AssembleResult result = assemble(text);
    INFO(result.error);
    REQUIRE(result.ok());
    REQUIRE(result.tokens.size() >= 2);
    CHECK(result.tokens[1] == result.tokens.size());
    return {result.tokens.begin() + 2, result.tokens.end()};
}

using Tokens = std::vector<std::uint32_t>;

}  // namespace

TEST_CASE("the opcode table numbers opcodes as the tokenized program format does") {
    CHECK(opcode_info(0)->name == "add");
    CHECK(opcode_info(0x36)->name == "mov");
    CHECK(opcode_info(0x45)->name == "sample");
    CHECK(opcode_info(0x59)->name == "dcl_constantbuffer");
    CHECK(opcode_info(0x6a)->name == "dcl_globalFlags");
    CHECK(opcode_info(107) == nullptr);  // D3D10_SB_OPCODE_RESERVED0
    CHECK(opcode_info(0x6d)->name == "gather4");
    CHECK(opcode_info(112) == nullptr);
    CHECK(opcode_info(0x71)->name == "hs_decls");
    CHECK(opcode_info(0x9b)->name == "dcl_thread_group");
    CHECK(opcode_info(0xa6)->name == "store_raw");
    CHECK(opcode_info(0xbe)->name == "sync");
    CHECK(opcode_info(0xce)->name == "dcl_gsinstances");
    CHECK(opcode_info(209) == nullptr);
    CHECK(opcode_info(0xd5)->name == "msad");
    CHECK(opcode_info(218) == nullptr);
    CHECK(opcode_info(0xea)->name == "check_access_fully_mapped");
    CHECK(opcode_info(235) == nullptr);
    CHECK(opcode_info(250) == nullptr);

    const OpcodeInfo& sample = opcode_info(Opcode::Sample);
    CHECK(sample.destinations == 1);
    CHECK(sample.sources == 3);
    CHECK(sample.flags & opcode_flag::kTexelOffsets);
    CHECK(opcode_info(Opcode::If).flags & opcode_flag::kTestBoolean);
    CHECK(opcode_info(Opcode::Resinfo).flags & opcode_flag::kResinfoReturnType);
    CHECK(opcode_info(Opcode::Sync).flags & opcode_flag::kSyncFlags);
    CHECK(opcode_info(Opcode::Imul).destinations == 2);
    CHECK(opcode_info(Opcode::SampleDClampFeedback).operand_count() == 8);
    CHECK(opcode_info(Opcode::DclTemps).is_declaration());
    CHECK(find_opcode("dcl_maxOutputVertexCount") == &opcode_info(Opcode::DclMaxOutputVertexCount));
    CHECK(find_opcode("dcl_immediateConstantBuffer") == &opcode_info(Opcode::CustomData));
    CHECK(find_opcode("movv") == nullptr);

    // Every named opcode is found by its name.
    int named = 0;
    for (std::uint32_t number = 0; number < kOpcodeCount; ++number)
        if (const OpcodeInfo* info = opcode_info(number)) {
            CHECK(find_opcode(info->name) == info);
            CHECK(static_cast<std::uint32_t>(info->opcode) == number);
            ++named;
        }
    CHECK(named == 231);
}

TEST_CASE("mov r0.xyzw, v0.xyzw encodes a mask destination and a swizzled source") {
    // 0x05000036: mov, length 5. 0x001000f2: 4 components, mask xyzw, temp,
    // 1D immediate index. 0x00101e46: swizzle mode, xyzw, input.
    CHECK(body_of("vs_5_0\nmov r0.xyzw, v0.xyzw\n") ==
          Tokens{0x05000036, 0x001000f2, 0, 0x00101e46, 0});
}

TEST_CASE("store_raw u0.x, r0.x, vThreadID.x encodes a UAV mask and select-1 sources") {
    const Tokens body = body_of("cs_5_0\nstore_raw u0.x, r0.x, vThreadID.x\n");
    // u0.x: type 30, mask x. r0.x and vThreadID.x (type 32, no index): select 1.
    CHECK(body == Tokens{0x060000a6, 0x0011e012, 0, 0x0010000a, 0, 0x0002000a});
}

TEST_CASE("declarations carry their fields in the opcode token and after it") {
    CHECK(body_of("cs_5_0\ndcl_thread_group 8, 8, 1\n") == Tokens{0x0400009b, 8, 8, 1});
    // cb0[1]: two immediate indices, written as fxc does with an xyzw swizzle.
    CHECK(body_of("vs_5_0\ndcl_constantbuffer cb0[1], immediateIndexed\n") ==
          Tokens{0x04000059, 0x00208e46, 0, 1});
    CHECK(body_of("vs_5_0\ndcl_constantbuffer cb2[16], dynamicIndexed\n") ==
          Tokens{0x04000859, 0x00208e46, 2, 16});
    // Resource dimension texture2d (3) in bits 11..15, then the return types.
    CHECK(body_of("ps_5_0\ndcl_resource_texture2d (float,float,float,float) t0\n") ==
          Tokens{0x04001858, 0x00107000, 0, 0x00005555});
    CHECK(body_of("ps_5_0\ndcl_sampler s1, mode_comparison\n") ==
          Tokens{0x0300085a, 0x00106000, 1});
    CHECK(body_of("ps_5_0\ndcl_input_ps linear v1.xy\n") == Tokens{0x03001062, 0x00101032, 1});
    CHECK(body_of("vs_5_0\ndcl_output_siv o0.xyzw, position\n") ==
          Tokens{0x04000067, 0x001020f2, 0, 1});
    CHECK(body_of("vs_5_0\ndcl_temps 3\n") == Tokens{0x02000068, 3});
    CHECK(body_of("cs_5_0\ndcl_uav_structured_opc u1, 16\n") ==
          Tokens{0x0480009e, 0x0011e000, 1, 16});
    CHECK(body_of("cs_5_0\ndcl_tgsm_structured g0, 4, 64\n") ==
          Tokens{0x050000a0, 0x0011f000, 0, 4, 64});
    CHECK(body_of("gs_5_0\ndcl_inputprimitive triangle\n") == Tokens{0x0100185d});
    CHECK(body_of("gs_5_0\ndcl_outputtopology trianglestrip\n") == Tokens{0x0100285c});
    CHECK(body_of("vs_5_0\ndcl_globalFlags refactoringAllowed\n") == Tokens{0x0100086a});
    CHECK(body_of("ps_5_0\ndcl_immediateConstantBuffer { { 1.000000, 0, 0, 0} }\n") ==
          Tokens{0x00001835, 6, 0x3f800000, 0, 0, 0});
}

TEST_CASE("extended opcode tokens hold resource types and texel offsets") {
    // sample_indexable: resource dimension (type 2, texture2d << 6) chained to
    // return types (type 3, float = 5 in four nibbles from bit 6).
    const Tokens sample = body_of(
        "ps_5_0\nsample_indexable(texture2d)(float,float,float,float) o0.xyzw, v1.xyxx, t0.xyzw, "
        "s0\n");
    REQUIRE(sample.size() == 11);
    CHECK(sample[0] == 0x8b000045);
    CHECK(sample[1] == 0x800000c2);
    CHECK(sample[2] == 0x00155543);
    // Offsets u = 1, v = -1 (0xf), w = 0 from bit 9, four bits each.
    const Tokens ld = body_of("ps_5_0\nld_aoffimmi(1,-1,0) r0.xyzw, r1.xyzw, t0.xyzw\n");
    CHECK(ld[0] == 0x8800002d);
    CHECK(ld[1] == 0x0001e201);
}

TEST_CASE("opcode controls: test, saturate, precise, return types, sync flags") {
    CHECK(body_of("ps_5_0\nif_nz r0.x\n") == Tokens{0x0304001f, 0x0010000a, 0});
    CHECK(body_of("ps_5_0\nif_z r0.x\n") == Tokens{0x0300001f, 0x0010000a, 0});
    CHECK(body_of("ps_5_0\nmov_sat r0.x, r1.x\n").front() == 0x05002036);
    CHECK(body_of("ps_5_0\nadd [precise(xy)] r0.xy, r1.xyxx, r2.xyxx\n").front() == 0x07180000);
    CHECK(body_of("ps_5_0\nresinfo_uint r0.xy, l(0), t0.xyzw\n").front() == 0x0700103d);
    CHECK(body_of("cs_5_0\nsync_g_t\n") == Tokens{0x010018be});
    CHECK(body_of("cs_5_0\nsync_uglobal_t\n") == Tokens{0x010048be});
}

TEST_CASE("operands: modifiers, relative indices, immediates") {
    // -|r1.x|: extended operand token, modifier absneg (3 << 6).
    CHECK(body_of("ps_5_0\nmov r0.x, -|r1.x|\n") ==
          Tokens{0x06000036, 0x00100012, 0, 0x8010000a, 0x000000c1, 1});
    // cb0[r1.x + 2]: second index immediate32 plus relative (3 << 25).
    CHECK(body_of("vs_5_0\nmov r0.xyzw, cb0[r1.x + 2].xyzw\n") ==
          Tokens{0x08000036, 0x001000f2, 0, 0x06208e46, 0, 2, 0x0010000a, 1});
    // l(1.0, 2.0, 3.0, 4.0): four components, four values.
    CHECK(body_of("ps_5_0\nmov r0.xyzw, l(1.000000, 2.000000, 3.000000, 4.000000)\n") ==
          Tokens{0x08000036, 0x001000f2, 0, 0x00004002, 0x3f800000, 0x40000000, 0x40400000,
                 0x40800000});
}

TEST_CASE("the decoder reads every field back") {
    const AssembleResult assembled = assemble(
        "ps_5_0\n"
        "sample_aoffimmi_indexable(-2,3,0)(texture2d)(float,float,float,float) r0.xyzw, "
        "-v1.xyxx, t2.xyzw, s1\n"
        "mov r1.x, cb3[r0.y + 7].z\n");
    REQUIRE(assembled.ok());
    std::string error;
    const auto program = decode(shader_tests::token_bytes(assembled.tokens), error);
    INFO(error);
    REQUIRE(program);
    CHECK(program->type == ProgramType::Pixel);
    CHECK(program->major_version == 5);
    CHECK(program->has_signatures == false);
    REQUIRE(program->instructions.size() == 2);

    const Instruction& sample = program->instructions[0];
    CHECK(sample.opcode == Opcode::Sample);
    CHECK(sample.byte_offset == 8);
    CHECK(sample.token_count == 13);
    CHECK(sample.has_texel_offsets);
    CHECK(sample.texel_offsets == std::array<std::int8_t, 3>{-2, 3, 0});
    CHECK(sample.has_resource_dimension);
    CHECK(sample.resource_dimension == ResourceDimension::Texture2D);
    CHECK(sample.has_return_types);
    CHECK(sample.return_types[3] == ReturnType::Float);
    REQUIRE(sample.operands.size() == 4);
    CHECK(sample.operands[0].type == OperandType::Temp);
    CHECK(sample.operands[0].selection == ComponentSelection::Mask);
    CHECK(sample.operands[0].mask == 0xf);
    CHECK(sample.operands[1].type == OperandType::Input);
    CHECK(sample.operands[1].modifier == OperandModifier::Neg);
    CHECK(sample.operands[1].swizzle == std::array<std::uint8_t, 4>{0, 1, 0, 0});
    CHECK(sample.operands[2].type == OperandType::Resource);
    CHECK(sample.operands[2].register_index() == 2);
    CHECK(sample.operands[3].type == OperandType::Sampler);
    CHECK(sample.operands[3].component_count == 0);
    CHECK(sample.operands[3].register_index() == 1);

    const Instruction& mov = program->instructions[1];
    CHECK(mov.byte_offset == 8 + 13 * 4);
    const Operand& buffer = mov.operands[1];
    CHECK(buffer.type == OperandType::ConstantBuffer);
    CHECK(buffer.index_dimension == 2);
    CHECK(buffer.indices[0].value == 3);
    CHECK(buffer.indices[1].representation == IndexRepresentation::Immediate32PlusRelative);
    CHECK(buffer.indices[1].value == 7);
    REQUIRE(buffer.indices[1].has_relative());
    CHECK(buffer.indices[1].relative[0].type == OperandType::Temp);
    CHECK(buffer.indices[1].relative[0].selection == ComponentSelection::Select1);
    CHECK(buffer.indices[1].relative[0].swizzle[0] == 1);
    CHECK(buffer.selection == ComponentSelection::Select1);
    CHECK(buffer.swizzle[0] == 2);
}
