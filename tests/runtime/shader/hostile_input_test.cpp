// Untrusted bytecode: truncated, lying about its lengths, using opcodes or
// counts that do not exist. Each is refused with a message naming the
// problem and its offset; none crashes or reads out of bounds (the ASan
// build runs these too).
#include <catch2/catch.hpp>
#include <cstring>

#include "runtime/shader/assembler.h"
#include "runtime/shader/container.h"
#include "runtime/shader/decoder.h"
#include "runtime/shader/disassembler.h"
#include "shader_sources.h"

using namespace d3dcap::runtime::shader;
using shader_tests::token_bytes;

namespace {

constexpr std::uint32_t kCs50 = 0x00050050;

// The error decoding `tokens` (a version and length token are prepended;
// the length counts everything).
std::string decode_error(std::vector<std::uint32_t> body, std::uint32_t version = kCs50) {
    std::vector<std::uint32_t> tokens{version, static_cast<std::uint32_t>(body.size() + 2)};
    tokens.insert(tokens.end(), body.begin(), body.end());
    std::string error;
    const auto program = decode(token_bytes(tokens), error);
    CHECK_FALSE(program);
    return error;
}

}  // namespace

TEST_CASE("a token stream too short or lying about its length is refused") {
    std::string error;
    const std::uint8_t six[6] = {};
    CHECK_FALSE(decode(six, error));
    CHECK(error == "the token stream has 6 bytes, too few for its version and length tokens");

    const std::uint32_t odd[] = {kCs50, 2, 0};
    const std::vector<std::uint8_t> odd_bytes = token_bytes(odd);
    CHECK_FALSE(decode(std::span(odd_bytes).first(10), error));
    CHECK(error == "the token stream has 10 bytes, not a whole number of DWORDs");

    const std::uint32_t long_length[] = {kCs50, 100, 0x0100003e};
    CHECK_FALSE(decode(token_bytes(long_length), error));
    CHECK(error == "the length token says 100 DWORDs but the stream holds 3");

    const std::uint32_t bad_type[] = {0x00070050, 2};
    CHECK_FALSE(decode(token_bytes(bad_type), error));
    CHECK(error == "program type 7 is not a D3D11 shader type");

    const std::uint32_t model51[] = {0x00050051, 2};
    CHECK_FALSE(decode(token_bytes(model51), error));
    CHECK(error == "shader model 5.1 is not 4.0, 4.1 or 5.0");
}

TEST_CASE("unknown opcodes and lengths past the end name their offset") {
    CHECK(decode_error({0x0100003e, 0x010000fa}) ==
          "instruction at offset 0xc: opcode 250 is not an SM5 opcode");
    CHECK(decode_error({0x0100006b}) ==
          "instruction at offset 0x8: opcode 107 is not an SM5 opcode");
    CHECK(decode_error({0x05000036, 0x001000f2}) ==
          "instruction at offset 0x8: mov: its length of 5 DWORDs runs past the end of the "
          "program (2 left)");
    CHECK(decode_error({0x00000036}) == "instruction at offset 0x8: mov: length 0");
}

TEST_CASE("operands that are truncated or undefined are refused") {
    // mov says 3 DWORDs: its destination fits, its source does not.
    CHECK(decode_error({0x03000036, 0x00100012, 0}) ==
          "instruction at offset 0x8: mov: takes 2 operands but has 1");
    // A declaration whose length leaves no room for its operand.
    CHECK(decode_error({0x0100005f}) ==
          "instruction at offset 0x8: dcl_input: the instruction ends before operand 1");
    // The destination's index is cut off.
    CHECK(decode_error({0x02000036, 0x00100012}) ==
          "instruction at offset 0x8: mov: the instruction ends before its operand index");
    CHECK(decode_error({0x03000036, 0x00163012, 0}) ==
          "instruction at offset 0x8: mov: operand 1 has type 99, not an SM5 operand type");
    CHECK(decode_error({0x03000036, 0x0010000e, 0}) ==
          "instruction at offset 0x8: mov: operand 1 has component selection mode 3 (undefined)");
    CHECK(decode_error({0x03000036, 0x00100013, 0}) ==
          "instruction at offset 0x8: mov: operand 1 has N components (undefined)");
    // Relative indices nested past the limit (each index relative to the next).
    CHECK(decode_error({0x0a000036, 0x00100012, 0, 0x0090000a, 0x0090000a, 0x0090000a, 0x0090000a,
                        0x0010000a, 0, 0}) ==
          "instruction at offset 0x8: mov: operand 2 nests relative indices too deep");
}

TEST_CASE("absurd declaration counts are refused") {
    CHECK(decode_error({0x02000068, 100000}) ==
          "instruction at offset 0x8: dcl_temps declares 100000 temps (at most 4096)");
    CHECK(decode_error({0x0400009b, 32, 32, 2}) ==
          "instruction at offset 0x8: dcl_thread_group declares 2048 threads in a group (at "
          "most 1024)");
    CHECK(decode_error({0x0400009b, 0, 1, 1}) ==
          "instruction at offset 0x8: dcl_thread_group declares an empty thread group");
    CHECK(decode_error({0x04000059, 0x00208e46, 0, 5000}) ==
          "instruction at offset 0x8: dcl_constantbuffer declares 5000 vectors (at most 4096)");
    CHECK(decode_error({0x04000059, 0x00208e46, 20, 4}) ==
          "instruction at offset 0x8: dcl_constantbuffer declares cb20 (cb0 to cb14)");
    CHECK(decode_error({0x04001858, 0x00107000, 200, 0x5555}) ==
          "instruction at offset 0x8: dcl_resource declares t200 (t0 to t127)");
    CHECK(decode_error({0x04000069, 0, 5000, 4}, 0x00000050) ==
          "instruction at offset 0x8: dcl_indexableTemp declares 5000 registers (at most 4096)");
    CHECK(decode_error({0x04000069, 0, 8, 7}, 0x00000050) ==
          "instruction at offset 0x8: dcl_indexableTemp: declares 7 components (1 to 4)");
    CHECK(decode_error({0x0400009f, 0x0011f000, 0, 65536}) ==
          "instruction at offset 0x8: dcl_tgsm_raw declares 65536 bytes (at most 32768)");
    CHECK(decode_error({0x0200005e, 5000}, 0x00020050) ==
          "instruction at offset 0x8: dcl_maxout declares 5000 output vertices (at most 1024)");
    // A function table whose length runs past its instruction.
    CHECK(decode_error({0x03000091, 0, 1000000}) ==
          "instruction at offset 0x8: dcl_function_table: lists 1000000 function bodies but the "
          "instruction holds 0");
    // An immediate constant buffer whose block runs past the program.
    CHECK(decode_error({0x00001835, 0xffffffff, 0, 0}) ==
          "instruction at offset 0x8: customdata: the block's 4294967295 DWORDs run past the end "
          "of the program (4 left)");
    CHECK(decode_error({0x00001835, 5, 0, 0, 0}) ==
          "instruction at offset 0x8: dcl_immediateConstantBuffer holds 3 DWORDs, not whole vec4s");
    // Enumerations past their last value.
    CHECK(decode_error({0x0300785a, 0x00106000, 0}) ==
          "instruction at offset 0x8: dcl_sampler: sampler mode 15 is not defined");
    CHECK(decode_error({0x0400f858, 0x00107000, 0, 0x5555}) ==
          "instruction at offset 0x8: dcl_resource: resource dimension 31 is not defined");
}

TEST_CASE("every truncation of a valid program is refused, never read past") {
    const AssembleResult assembled = assemble(shader_tests::kHullShader);
    REQUIRE(assembled.ok());
    const std::vector<std::uint32_t>& tokens = assembled.tokens;
    int refused = 0;
    for (std::size_t count = 2; count < tokens.size(); ++count) {
        // The length token keeps claiming the whole program.
        std::vector<std::uint32_t> cut(tokens.begin(), tokens.begin() + static_cast<long>(count));
        std::string error;
        const auto bytes = token_bytes(cut);
        CHECK_FALSE(decode(bytes, error));
        CHECK(error.find("the length token says " + std::to_string(tokens.size())) == 0);
        // With its length token fixed, it decodes or names an instruction.
        cut[1] = static_cast<std::uint32_t>(count);
        const auto fixed = token_bytes(cut);
        if (!decode(fixed, error)) {
            CHECK(error.find("instruction at offset 0x") == 0);
            ++refused;
        }
    }
    CHECK(refused > 0);
}

TEST_CASE("flipped bits decode or are refused, and what decodes disassembles faithfully") {
    std::uint32_t state = 12345;
    auto random = [&state] {
        state = state * 1103515245u + 12345u;
        return state >> 8;
    };
    const std::string_view sources[] = {shader_tests::kPixelShader, shader_tests::kHullShader,
                                        shader_tests::kGeometryShader};
    int decoded = 0, refused = 0, reassembled = 0;
    for (int round = 0; round < 3000; ++round) {
        const AssembleResult assembled = assemble(sources[round % 3]);
        REQUIRE(assembled.ok());
        std::vector<std::uint32_t> tokens = assembled.tokens;
        for (int flip = 0; flip < 3; ++flip) {
            const std::size_t at = 2 + random() % (tokens.size() - 2);
            tokens[at] ^= 1u << (random() % 32);
        }
        std::string error;
        const auto program = decode(token_bytes(tokens), error);
        if (!program) {
            CHECK(error.find("instruction at offset 0x") == 0);
            ++refused;
            continue;
        }
        ++decoded;
        // The text assembles to tokens that print the same text, except for
        // sources in write-mask mode (".xy"), which the syntax does not write.
        const std::string text = disassemble(*program);
        const AssembleResult again = assemble(text);
        if (!again.ok()) {
            CHECK(again.error.find("a source takes 1 or 4 components") != std::string::npos);
            continue;
        }
        const auto program_again = decode(token_bytes(again.tokens), error);
        REQUIRE(program_again);
        CHECK(disassemble(*program_again) == text);
        ++reassembled;
    }
    CHECK(decoded + refused == 3000);
    CHECK(refused > 100);
    CHECK(reassembled > 100);
}

TEST_CASE("containers that lie about their chunks are refused") {
    std::string error;
    const std::uint8_t not_dxbc[40] = {'D', 'X', 'B', 'X'};
    CHECK_FALSE(decode_container(not_dxbc, error));
    CHECK(error == "not a DXBC container (no \"DXBC\" header)");

    const AssembleResult assembled = assemble(shader_tests::kVertexShader);
    REQUIRE(assembled.ok());
    std::vector<std::uint8_t> container = assembled.container;
    // The total size field grows past the bytes.
    std::vector<std::uint8_t> total = container;
    const auto claimed = static_cast<std::uint32_t>(container.size() + 4);
    std::memcpy(total.data() + 24, &claimed, 4);
    CHECK_FALSE(decode_container(total, error));
    CHECK(error == "the container says it holds " + std::to_string(container.size() + 4) +
                       " bytes but " + std::to_string(container.size()) + " were given");
    // A chunk count whose offsets run past the container.
    std::vector<std::uint8_t> count = container;
    count[28] = 0xff;
    count[29] = 0xff;
    CHECK_FALSE(decode_container(count, error));
    CHECK(error.find("chunk offsets run past") != std::string::npos);
    // The first chunk (ISGN) claims more bytes than there are.
    std::uint32_t first_offset;
    std::memcpy(&first_offset, container.data() + 32, 4);
    std::vector<std::uint8_t> chunk = container;
    const std::uint32_t huge = 0x7fffffff;
    std::memcpy(chunk.data() + first_offset + 4, &huge, 4);
    CHECK_FALSE(decode_container(chunk, error));
    CHECK(error == "chunk 0 at offset " + std::to_string(first_offset) +
                       " runs past the container's " + std::to_string(container.size()) + " bytes");
    // A signature element whose name offset points outside its chunk.
    std::vector<std::uint8_t> name = container;
    const std::uint32_t outside = 0x10000;
    std::memcpy(name.data() + first_offset + 8 + 8, &outside, 4);
    CHECK_FALSE(decode_container(name, error));
    CHECK(error.find("ISGN chunk: element 0's name at offset 65536 lies past its") == 0);
    // An element count past the chunk.
    std::vector<std::uint8_t> elements = container;
    const std::uint32_t many = 1000;
    std::memcpy(elements.data() + first_offset + 8, &many, 4);
    CHECK_FALSE(decode_container(elements, error));
    CHECK(error.find("ISGN chunk: 1000 elements of 24 bytes") == 0);
}
