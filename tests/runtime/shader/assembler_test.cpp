// The assembler's errors name the line and column of the problem, and its
// container holds the chunks it documents.
#include "runtime/shader/assembler.h"

#include <catch2/catch.hpp>

#include "runtime/shader/container.h"
#include "shader_sources.h"

using namespace d3dcap::runtime::shader;

namespace {

std::string error_of(std::string_view text) {
    const AssembleResult result = assemble(text);
    CHECK_FALSE(result.ok());
    CHECK(result.container.empty());
    return result.error;
}

}  // namespace

TEST_CASE("assembly errors name the line and column") {
    CHECK(error_of("") == "line 1, column 1: the text has no version line (vs_5_0, ...)");
    CHECK(error_of("mov r0.x, r1.x\n") ==
          "line 1, column 1: the first line must be the shader version (vs_5_0, ps_4_0, cs_5_0, "
          "...), found 'mov'");
    CHECK(error_of("vs_5_1\n") == "line 1, column 1: shader model 5.1 is not 4.0, 4.1 or 5.0");
    CHECK(error_of("hs_4_0\n") ==
          "line 1, column 1: hull and domain shaders need shader model 5.0");
    CHECK(error_of("vs_5_0\n// comment\n  movv r0.x, r1.x\n") ==
          "line 3, column 3: unknown instruction 'movv'");
    CHECK(error_of("vs_5_0\nmov r0.x\n") == "line 2, column 9: mov takes 2 operands, found 1");
    CHECK(error_of("vs_5_0\nmov r0.x, r1.x, r2.x\n") ==
          "line 2, column 15: expected the end of the line after mov, found ','");
    CHECK(error_of("vs_5_0\nmov r0.xx, r1.x\n") ==
          "line 2, column 8: 'xx' is not a write mask (x, y, z, w in order, each once)");
    CHECK(error_of("vs_5_0\nmov r0.xy, r1.xy\n") ==
          "line 2, column 15: a source takes 1 or 4 components, '.xy' has 2");
    CHECK(error_of("vs_5_0\nmov r0.x, q1.x\n") == "line 2, column 11: 'q1' is not a register");
    CHECK(error_of("ps_5_0\nif r0.x\n") == "line 2, column 1: if needs _z or _nz");
    CHECK(error_of("ps_5_0\nmov_nz r0.x, r1.x\n") == "line 2, column 1: mov takes no _z/_nz");
    CHECK(error_of("ps_5_0\nmov_foo r0.x, r1.x\n") ==
          "line 2, column 1: unknown instruction 'mov_foo'");
    CHECK(error_of("ps_5_0\nsample_aoffimmi(9,0,0) r0, r1, t0, s0\n") ==
          "line 2, column 16: texel offset 9 is outside -8..7");
    CHECK(error_of("ps_5_0\nmov r0.x, l(1, 2)\n") ==
          "line 2, column 11: l() takes 1 or 4 values, not 2");
    CHECK(error_of("ps_5_0\nmov r0.x, l(1.5.5)\n") ==
          "line 2, column 13: expected an immediate value, found '1.5.5'");
    CHECK(error_of("ps_5_0\nmov r0.x, r1.x $\n") == "line 2, column 16: unexpected character '$'");
    CHECK(error_of("ps_5_0\ndcl_resource (float,float,float,float) t0\n") ==
          "line 2, column 1: dcl_resource needs a dimension (dcl_resource_texture2d, ...)");
    CHECK(error_of("ps_5_0\ndcl_sampler t0, mode_default\n") ==
          "line 2, column 13: dcl_sampler takes s#, found 't0'");
    CHECK(error_of("ps_5_0\ndcl_input_ps linear sample centroid v1.xy\n") ==
          "line 2, column 1: 'linear sample centroid' is not an interpolation mode");
    CHECK(error_of("cs_5_0\ndcl_thread_group 8, 8\n") ==
          "line 2, column 22: expected ',', found the end of the line");
    CHECK(error_of("ps_5_0\n.input TEXCOORD0 v0.xy float warp\n") ==
          "line 2, column 30: 'warp' is not a system value");
    CHECK(error_of("ps_5_0\n.inputs TEXCOORD0 v0.xy\n") ==
          "line 2, column 2: unknown directive '.inputs' (.input, .output, .patch_constant, "
          ".cbuffer, .variable, .binding, .dwords)");
    CHECK(error_of("ps_5_0\n.dwords 0\n") == "line 2, column 2: '.dwords' follows no instruction");
    CHECK(error_of("ps_5_0\nret\n.dwords\n") ==
          "line 3, column 8: expected a DWORD (a whole number), found the end of the line");
    std::string too_many = "ps_5_0\nret\n.dwords";
    for (int i = 0; i < 127; ++i) too_many += " 0";
    CHECK(error_of(too_many + "\n") ==
          "line 3, column 2: '.dwords' makes the instruction 128 DWORDs long (at most 127)");
    CHECK(error_of("gs_5_0\n.output TEXCOORD0 o0.xy float stream 4\n") ==
          "line 2, column 38: stream 4 is past 3");
}

TEST_CASE("the result holds the line and column apart from the message") {
    const AssembleResult result = assemble("ps_5_0\n\n   ret r0\n");
    CHECK(result.error == "line 3, column 8: expected the end of the line after ret, found 'r0'");
    CHECK(result.line == 3);
    CHECK(result.column == 8);
    CHECK(result.tokens.empty());
}

TEST_CASE("the container holds signatures, patch constants and the program") {
    const AssembleResult assembled = assemble(shader_tests::kHullShader);
    REQUIRE(assembled.ok());
    std::string error;
    const auto chunks = read_container(assembled.container, error);
    REQUIRE(chunks);
    std::vector<std::string> names;
    for (const ContainerChunk& chunk : *chunks) names.emplace_back(chunk.fourcc, 4);
    CHECK(names == std::vector<std::string>{"ISGN", "OSGN", "PCSG", "SHEX"});
    std::vector<SignatureElement> patch;
    REQUIRE(read_signature(*find_chunk(*chunks, "PCSG"), patch, error));
    REQUIRE(patch.size() == 4);
    CHECK(patch[2].semantic_name == "SV_TessFactor");
    CHECK(patch[2].semantic_index == 2);
    CHECK(patch[2].register_index == 2);
    CHECK(patch[2].system_value == 13);  // D3D_NAME_FINAL_TRI_EDGE_TESSFACTOR
    CHECK(patch[2].mask == 0x1);

    const AssembleResult geometry = assemble(shader_tests::kGeometryShader);
    REQUIRE(geometry.ok());
    const auto gs_chunks = read_container(geometry.container, error);
    REQUIRE(gs_chunks);
    CHECK(find_chunk(*gs_chunks, "OSG5") != nullptr);
    CHECK(find_chunk(*gs_chunks, "OSGN") == nullptr);

    // The size field and the chunk table agree with the bytes.
    const std::vector<std::uint8_t>& bytes = assembled.container;
    CHECK(std::string(bytes.begin(), bytes.begin() + 4) == "DXBC");
    CHECK((bytes[24] | bytes[25] << 8 | bytes[26] << 16 | bytes[27] << 24) ==
          static_cast<int>(bytes.size()));
    CHECK(bytes[28] == 4);
}
