// Reflection (RDEF): what the assembler's .cbuffer and .variable write, read
// back by name, offset, size and type; the chunk's layout words as the
// format defines them; and damaged chunks refused with the byte named.
#include "runtime/shader/reflection.h"

#include <catch2/catch.hpp>
#include <cstring>

#include "runtime/shader/assembler.h"

using namespace d3dcap::runtime::shader;

namespace {

constexpr const char* kShader = R"(vs_5_0
.cbuffer Globals b2 144
.variable world 0 float4x4
.variable tint 64 float4
.variable weights 80 float[3]
.variable flags 120 uint2
.binding albedo t3
.binding linear_clamp s1
.input POSITION0 v0.xyzw float
.output SV_Position0 o0.xyzw float
dcl_constantbuffer cb2[8], immediateIndexed
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
add o0.xyzw, v0.xyzw, cb2[4].xyzw
ret
)";

std::vector<std::uint8_t> rdef_of(const std::vector<std::uint8_t>& container) {
    std::string error;
    const auto chunks = read_container(container, error);
    REQUIRE(chunks);
    const ContainerChunk* rdef = find_chunk(*chunks, "RDEF");
    REQUIRE(rdef != nullptr);
    return {rdef->data.begin(), rdef->data.end()};
}

std::uint32_t word(const std::vector<std::uint8_t>& bytes, std::size_t at) {
    std::uint32_t value;
    std::memcpy(&value, bytes.data() + at, 4);
    return value;
}

// A container of one RDEF chunk holding `rdef`.
std::vector<ContainerChunk> chunks_of(const std::vector<std::uint8_t>& rdef,
                                      std::vector<std::uint8_t>& storage) {
    const ChunkToWrite chunk{"RDEF", rdef};
    storage = write_container({&chunk, 1});
    std::string error;
    auto chunks = read_container(storage, error);
    REQUIRE(chunks);
    return *chunks;
}

}  // namespace

TEST_CASE("the assembler's constant buffers read back by name, offset, size and type") {
    const AssembleResult assembled = assemble(kShader);
    REQUIRE(assembled.ok());
    std::string error;
    const auto chunks = read_container(assembled.container, error);
    REQUIRE(chunks);
    CHECK(std::string((*chunks)[0].fourcc, 4) == "RDEF");  // first, as compilers write it
    Reflection reflection;
    REQUIRE(read_reflection(*chunks, reflection, error));
    CHECK(error.empty());
    CHECK(reflection.major == 5);
    CHECK(reflection.program_type == 0xFFFF);
    CHECK(reflection.creator == "d3dcap assembler");
    REQUIRE(reflection.bindings.size() == 3);
    CHECK(reflection.bindings[1].input_type == 2);
    CHECK(reflection.bindings[2].input_type == 3);
    CHECK(reflection.binding_name('t', 3) == "albedo");
    CHECK(reflection.binding_name('s', 1) == "linear_clamp");
    CHECK(reflection.binding_name('t', 1).empty());
    CHECK(reflection.binding_name('u', 3).empty());
    CHECK(reflection.bindings[0].name == "Globals");
    CHECK(reflection.bindings[0].input_type == 0);
    CHECK(reflection.bindings[0].bind_point == 2);
    REQUIRE(reflection.constant_buffers.size() == 1);
    const ReflectedConstantBuffer& cb = reflection.constant_buffers[0];
    CHECK(cb.name == "Globals");
    CHECK(cb.size == 144);
    REQUIRE(cb.variables.size() == 4);
    // float4x4 (column-major): 4 registers; float[3]: 2 whole registers and
    // one float; uint2: 8 bytes.
    CHECK(cb.variables[0].name == "world");
    CHECK(cb.variables[0].size == 64);
    CHECK(cb.variables[0].type.variable_class == 3);
    CHECK(cb.variables[0].type.base_type == 3);
    CHECK(cb.variables[0].type.rows == 4);
    CHECK(cb.variables[0].type.columns == 4);
    CHECK(cb.variables[0].type.name == "float4x4");
    CHECK(cb.variables[1].offset == 64);
    CHECK(cb.variables[1].size == 16);
    CHECK(type_name(cb.variables[1].type) == "float4");
    CHECK(cb.variables[2].offset == 80);
    CHECK(cb.variables[2].size == 36);
    CHECK(cb.variables[2].type.elements == 3);
    CHECK(cb.variables[3].size == 8);
    CHECK(cb.variables[3].type.base_type == 19);
    CHECK(reflection.constant_buffer_at(2) == &cb);
    CHECK(reflection.constant_buffer_at(0) == nullptr);
}

TEST_CASE("reflection prints as the assembler's lines, and they assemble to the same chunk") {
    const std::vector<std::uint8_t> rdef = rdef_of(assemble(kShader).container);
    std::vector<std::uint8_t> storage;
    Reflection reflection;
    std::string error;
    REQUIRE(read_reflection(chunks_of(rdef, storage), reflection, error));
    const std::string text = reflection_text(reflection);
    CHECK(text ==
          ".cbuffer Globals b2 144\n.variable world 0 float4x4\n.variable tint 64 float4\n"
          ".variable weights 80 float[3]\n.variable flags 120 uint2\n.binding albedo t3\n"
          ".binding linear_clamp s1\n");
    CHECK(rdef_of(assemble("vs_5_0\n" + text + "ret\n").container) == rdef);
}

TEST_CASE("the RDEF chunk's header words are laid out as the format defines them") {
    const std::vector<std::uint8_t> rdef = rdef_of(assemble(kShader).container);
    CHECK(word(rdef, 0) == 1);            // constant buffers
    CHECK(word(rdef, 8) == 3);            // bindings
    CHECK(word(rdef, 12) == 60);          // after the shader model 5 header
    CHECK(word(rdef, 4) == 60 + 3 * 32);  // after the three bindings
    CHECK(word(rdef, 16) == 0xFFFF0500);  // vs_5_0
    CHECK(std::memcmp(&rdef[28], "RD11", 4) == 0);
    CHECK(word(rdef, 32) == 60);
    CHECK(word(rdef, 44) == 40);  // a variable's description
    CHECK(word(rdef, 48) == 36);  // a type's
    // The binding: its name, a constant buffer (0), bound at b2, one slot.
    const std::size_t binding = word(rdef, 12);
    CHECK(std::string(reinterpret_cast<const char*>(&rdef[word(rdef, binding)])) == "Globals");
    CHECK(word(rdef, binding + 4) == 0);
    CHECK(word(rdef, binding + 20) == 2);
    CHECK(word(rdef, binding + 24) == 1);
    // The buffer: 4 variables, 144 bytes; the second variable starts at 64.
    const std::size_t buffer = word(rdef, 4);
    CHECK(word(rdef, buffer + 4) == 4);
    CHECK(word(rdef, buffer + 12) == 144);
    const std::size_t tint = word(rdef, buffer + 8) + 40;
    CHECK(word(rdef, tint + 4) == 64);
    CHECK(word(rdef, tint + 8) == 16);
}

TEST_CASE("a damaged RDEF chunk is refused with the byte it stopped at") {
    std::vector<std::uint8_t> rdef = rdef_of(assemble(kShader).container);
    std::vector<std::uint8_t> storage;
    Reflection reflection;
    std::string error;

    std::vector<std::uint8_t> cut(rdef.begin(), rdef.begin() + 20);
    CHECK_FALSE(read_reflection(chunks_of(cut, storage), reflection, error));
    CHECK(error == "RDEF: the header is cut short (chunk byte 20)");

    std::vector<std::uint8_t> far = rdef;
    const std::uint32_t huge = 0x7fffffff;
    std::memcpy(&far[0], &huge, 4);  // constant buffers past the chunk
    CHECK_FALSE(read_reflection(chunks_of(far, storage), reflection, error));
    CHECK(error == "RDEF: 2147483647 constant buffers leave the chunk (chunk byte 156)");

    // The first variable's type made a struct whose one member is itself.
    std::vector<std::uint8_t> looped = rdef;
    const std::size_t variable = word(rdef, word(rdef, 4) + 8);
    const std::uint32_t type = word(rdef, variable + 16);
    const std::uint16_t one = 1;
    std::memcpy(&looped[type + 10], &one, 2);
    const std::uint32_t members = static_cast<std::uint32_t>(looped.size());
    std::memcpy(&looped[type + 12], &members, 4);
    const std::uint32_t member[3] = {word(rdef, variable), type, 0};
    looped.insert(looped.end(), reinterpret_cast<const std::uint8_t*>(member),
                  reinterpret_cast<const std::uint8_t*>(member) + sizeof member);
    CHECK_FALSE(read_reflection(chunks_of(looped, storage), reflection, error));
    CHECK(error == "RDEF: types nest deeper than 8 (chunk byte " + std::to_string(type) + ")");

    // No RDEF: false with no error.
    const std::vector<std::uint8_t> plain = assemble("vs_5_0\nret\n").container;
    const auto chunks = read_container(plain, error);
    REQUIRE(chunks);
    CHECK_FALSE(read_reflection(*chunks, reflection, error));
    CHECK(error.empty());
}

TEST_CASE("the assembler refuses reflection it cannot write") {
    CHECK(assemble("vs_5_0\n.variable x 0 float\nret\n").error ==
          "line 2, column 11: a .variable needs a .cbuffer before it");
    CHECK(assemble("vs_5_0\n.cbuffer G b0 16\n.variable x 0 float5\nret\n").error ==
          "line 3, column 15: 'float5' is not a type");
    CHECK(assemble("vs_5_0\n.cbuffer G b0 16\n.variable m 0 float4x4\nret\n").error ==
          "line 3, column 11: 'm' (64 bytes at 0) leaves G (16 bytes)");
    CHECK(assemble("vs_5_0\n.cbuffer G t0 16\nret\n").error ==
          "line 2, column 12: 't0' is not a constant buffer register (b0)");
}
