// A shader's reflection: the RDEF chunk a compiler writes beside the code,
// naming its constant buffers, their variables (offset, size, type) and
// the resources it binds. Read bounds-checked (the bytes are untrusted),
// and written by the assembler for the shaders the tests make.
//
// The chunk (little-endian words; offsets count from the chunk's data):
// constant buffer count and offset, binding count and offset, the target
// version (minor and major bytes, then the program type), flags, the
// creator string's offset; shader model 5 then adds "RD11" and the sizes
// of its descriptions (60, 24, 32, 40, 36, 12) and an interface slot count.
// A binding is 8 words (name, D3D_SHADER_INPUT_TYPE, return type,
// dimension, samples, bind point, bind count, flags); a constant buffer 6
// (name, variable count and offset, size, flags, D3D_CBUFFER_TYPE); a
// variable 6, 10 in shader model 5 (name, start offset, size, flags, type
// offset, default value offset, then texture and sampler ranges); a type 4
// words, 9 in shader model 5 (class, base type, rows, columns, elements and
// member count as halves, the members' offset, then 4 words and the type's
// name); a struct member 3 (name, type, offset).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/shader/container.h"

namespace d3dcap::runtime::shader {

struct ReflectedMember;

// D3D_SHADER_VARIABLE_CLASS and D3D_SHADER_VARIABLE_TYPE values.
struct ReflectedType {
    std::uint16_t variable_class = 0;  // 0 scalar, 1 vector, 2 row-major, 3 column-major matrix
    std::uint16_t base_type = 0;       // 1 bool, 2 int, 3 float, 19 uint, 39 double ...
    std::uint16_t rows = 1, columns = 1;
    std::uint16_t elements = 0;  // 0: not an array
    std::vector<ReflectedMember> members;
    std::string name;  // shader model 5: "float4x4", a struct's name

    bool operator==(const ReflectedType&) const;
};

struct ReflectedMember {
    std::string name;
    std::uint32_t offset = 0;  // from the start of the struct
    ReflectedType type;
    bool operator==(const ReflectedMember&) const = default;
};

struct ReflectedVariable {
    std::string name;
    std::uint32_t offset = 0, size = 0, flags = 0;
    ReflectedType type;
    bool operator==(const ReflectedVariable&) const = default;
};

struct ReflectedConstantBuffer {
    std::string name;
    std::uint32_t size = 0, flags = 0, kind = 0;  // kind: D3D_CBUFFER_TYPE
    std::vector<ReflectedVariable> variables;
    bool operator==(const ReflectedConstantBuffer&) const = default;
};

struct ReflectedBinding {
    std::string name;
    std::uint32_t input_type = 0;  // D3D_SHADER_INPUT_TYPE: 0 a constant buffer
    std::uint32_t return_type = 0, dimension = 0, samples = 0;
    std::uint32_t bind_point = 0, bind_count = 1, flags = 0;
    bool operator==(const ReflectedBinding&) const = default;
};

struct Reflection {
    std::uint8_t major = 5, minor = 0;
    std::uint16_t program_type = 0xFFFE;  // 0xFFFE pixel, 0xFFFF vertex, "GS" "HS" "DS" "CS"
    std::uint32_t flags = 0;
    std::string creator;
    std::vector<ReflectedConstantBuffer> constant_buffers;
    std::vector<ReflectedBinding> bindings;

    // The constant buffer bound at register b<slot>, or null.
    const ReflectedConstantBuffer* constant_buffer_at(std::uint32_t slot) const;
    // The name the shader gives what it binds at a register: file 't'
    // (views), 's' (samplers) or 'u' (UAVs); "" when it names none.
    std::string binding_name(char file, std::uint32_t slot) const;
    bool operator==(const Reflection&) const = default;
};

// The container's RDEF chunk: false with error empty when there is none,
// false with the problem (naming the offset) when it is malformed.
bool read_reflection(std::span<const ContainerChunk> chunks, Reflection& out, std::string& error);

// An RDEF chunk's bytes (the shader model 5 layout when major >= 5).
std::vector<std::uint8_t> write_reflection(const Reflection& reflection);

// HLSL's packing of a numeric type: the bytes of one element (its last
// register partly), and the step between array elements (whole registers).
// A column-major matrix takes a register a column, a row-major one a row.
std::uint32_t component_bytes(const ReflectedType& type);
std::uint32_t element_bytes(const ReflectedType& type);
std::uint32_t element_stride(const ReflectedType& type);

// The assembler's lines for the constant buffers bound to registers:
// ".cbuffer NAME bN SIZE", then ".variable NAME OFFSET TYPE[[COUNT]]" a
// variable; a variable the assembler cannot declare (a struct, an object,
// a row-major matrix) as a comment naming it; then ".binding NAME tN" (sN,
// uN) for the other bindings.
std::string reflection_text(const Reflection& reflection);

// "float4", "float4x4", "uint2", "bool" ... for base types and shapes the
// assembler and the pipeline view name; "" for others.
std::string type_name(const ReflectedType& type);

}  // namespace d3dcap::runtime::shader
