// A decoded SM4/SM5 program: its instructions (declarations included, in
// token order, each with its byte offset), the signatures of its container,
// and a summary of its declarations others can query (which cb/t/s/u
// registers are declared with which dimension and type, thread group size,
// temp count, tessellation and geometry state). decoder.h makes one from
// bytecode; disassembler.h prints one.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/shader/tokens.h"

namespace d3dcap::runtime::shader {

struct Operand;

// One index of an operand: an immediate, a relative operand, or both
// (printed "[r0.x + 4]").
struct OperandIndex {
    IndexRepresentation representation = IndexRepresentation::Immediate32;
    std::uint64_t value = 0;        // the immediate part (0 when purely relative)
    std::vector<Operand> relative;  // the relative operand, when the representation has one

    bool has_relative() const { return !relative.empty(); }
};

struct Operand {
    OperandType type = OperandType::Temp;
    std::uint8_t component_count = 0;  // 0, 1 or 4
    // 4-component operands only.
    ComponentSelection selection = ComponentSelection::Mask;
    std::uint8_t mask = 0;                            // Mask: x=1, y=2, z=4, w=8
    std::array<std::uint8_t, 4> swizzle{0, 1, 2, 3};  // Swizzle; Select1 repeats the component
    std::uint8_t index_dimension = 0;                 // 0..3
    std::array<OperandIndex, 3> indices;
    // From the extended operand token.
    OperandModifier modifier = OperandModifier::None;
    std::uint8_t min_precision = 0;  // D3D11_SB_OPERAND_MIN_PRECISION
    bool non_uniform = false;
    // Immediate32/Immediate64: the DWORDs after the token (1 or 4 for 32-bit
    // immediates; 2 or 4, one or two doubles low word first, for 64-bit).
    std::array<std::uint32_t, 4> values{};
    std::uint8_t value_count = 0;
    std::uint32_t byte_offset = 0;  // of the operand token in the token stream

    // The first index's immediate (the register number of r#, v#, cb#...).
    std::uint32_t register_index() const {
        return index_dimension ? static_cast<std::uint32_t>(indices[0].value) : 0;
    }
};

// What a declaration declares, beyond its operand (the fields its opcode
// uses; the others stay zero).
struct Declaration {
    ResourceDimension dimension = ResourceDimension::Unknown;  // dcl_resource, dcl_uav_typed
    std::uint32_t sample_count = 0;                            // dcl_resource (multisampled)
    std::array<ReturnType, 4> return_types{};                  // dcl_resource, dcl_uav_typed
    SamplerMode sampler_mode = SamplerMode::Default;
    InterpolationMode interpolation = InterpolationMode::Undefined;  // dcl_input_ps*
    SystemName system_name = SystemName::Undefined;                  // *_sgv, *_siv
    bool dynamically_indexed = false;  // dcl_constantbuffer, dcl_interface
    std::uint32_t global_flags = 0;    // token::kGlobal* bits
    PrimitiveTopology output_topology = PrimitiveTopology::Undefined;
    Primitive input_primitive = Primitive::Undefined;
    // dcl_temps, dcl_maxout, dcl_gsinstances, dcl_indexrange's register count,
    // control point counts, fork/join instance counts, dcl_tgsm_raw's byte
    // count, dcl_tgsm_structured's structure count.
    std::uint32_t count = 0;
    std::uint32_t stride = 0;     // structured buffers and TGSM
    std::uint32_t uav_flags = 0;  // token::kUav* bits
    std::array<std::uint32_t, 3> thread_group{};
    TessDomain tess_domain = TessDomain::Undefined;
    TessPartitioning tess_partitioning = TessPartitioning::Undefined;
    TessOutputPrimitive tess_output_primitive = TessOutputPrimitive::Undefined;
    std::uint32_t max_tess_factor_bits = 0;  // a float's bits
    // dcl_indexableTemp: register, register count, components. Function
    // bodies, tables and interfaces: their number.
    std::uint32_t id = 0;
    std::uint32_t register_count = 0;  // dcl_indexableTemp
    std::uint32_t components = 0;      // dcl_indexableTemp
    std::uint32_t table_size = 0;      // dcl_interface: expected function table length
    std::uint32_t array_length = 0;    // dcl_interface
    // Function table bodies, interface function tables, custom data (the
    // immediate constant buffer: its vec4s, four DWORDs each).
    std::vector<std::uint32_t> data;
    std::uint32_t custom_data_class = 0;
};

struct Instruction {
    Opcode opcode = Opcode::Nop;
    std::uint32_t byte_offset = 0;  // of the opcode token in the token stream
    std::uint32_t token_count = 0;  // the instruction's length in DWORDs
    std::uint32_t controls = 0;     // the opcode token's bits 11..23, as stored
    // Decoded from the controls (instructions only).
    bool saturate = false;
    bool test_nonzero = false;  // opcode_flag::kTestBoolean opcodes: _nz, else _z
    std::uint8_t precise_mask = 0;
    ResinfoReturnType resinfo_return = ResinfoReturnType::Float;  // resinfo
    bool uint_return = false;                                     // sampleinfo_uint
    std::uint32_t sync_flags = 0;                                 // token::kSync* bits
    // Extended opcode tokens.
    bool has_texel_offsets = false;
    std::array<std::int8_t, 3> texel_offsets{};
    bool has_resource_dimension = false;
    ResourceDimension resource_dimension = ResourceDimension::Unknown;
    std::uint32_t structure_stride = 0;
    bool has_return_types = false;
    std::array<ReturnType, 4> return_types{};
    std::uint32_t function_index = 0;  // fcall
    std::vector<Operand> operands;
    // DWORDs within the instruction's length after its operands.
    std::vector<std::uint32_t> trailing_dwords;
    Declaration declaration;

    const OpcodeInfo& info() const { return opcode_info(opcode); }
};

// A signature element (ISGN/OSGN/OSG5/PCSG and the *1 variants).
enum class ComponentType : std::uint8_t { Unknown = 0, Uint = 1, Sint = 2, Float = 3 };
struct SignatureElement {
    std::string semantic_name;
    std::uint32_t semantic_index = 0;
    std::uint32_t system_value = 0;  // D3D_NAME (64 = SV_Target, ...)
    ComponentType component_type = ComponentType::Float;
    std::uint32_t register_index = 0;  // 0xffffffff for oDepth, oMask and the like
    std::uint8_t mask = 0;
    std::uint8_t read_write_mask = 0;  // inputs: always read; outputs: never written
    std::uint32_t stream = 0;
    std::uint32_t min_precision = 0;
};

// The summary of the declarations.
enum class BufferKind : std::uint8_t { Typed, Raw, Structured };
struct ConstantBufferBinding {
    std::uint32_t reg = 0;
    std::uint32_t vector_count = 0;  // 16-byte vectors; 0: any size
    bool dynamically_indexed = false;
};
struct ResourceBinding {
    std::uint32_t reg = 0;
    BufferKind kind = BufferKind::Typed;
    ResourceDimension dimension = ResourceDimension::Unknown;
    std::array<ReturnType, 4> return_types{};
    std::uint32_t sample_count = 0;
    std::uint32_t stride = 0;
};
struct SamplerBinding {
    std::uint32_t reg = 0;
    SamplerMode mode = SamplerMode::Default;
};
struct UavBinding {
    std::uint32_t reg = 0;
    BufferKind kind = BufferKind::Typed;
    ResourceDimension dimension = ResourceDimension::Unknown;
    std::array<ReturnType, 4> return_types{};
    std::uint32_t stride = 0;
    bool globally_coherent = false;
    bool rasterizer_ordered = false;
    bool has_counter = false;
};
struct GroupSharedMemory {
    std::uint32_t reg = 0;
    bool structured = false;
    std::uint32_t stride = 0;  // structured
    std::uint32_t count = 0;   // structured: structures; raw: bytes
    std::uint32_t byte_size() const { return structured ? stride * count : count; }
};
struct IndexableTemp {
    std::uint32_t reg = 0, register_count = 0, components = 0;
};
// A dcl_input*/dcl_output* (and the system-value inputs like vThreadID).
struct RegisterDeclaration {
    Opcode opcode = Opcode::DclInput;
    OperandType type = OperandType::Input;
    std::uint32_t reg = 0;  // the last index (the attribute of v[3][1])
    std::uint8_t mask = 0;
    SystemName system_name = SystemName::Undefined;
    InterpolationMode interpolation = InterpolationMode::Undefined;
    std::uint32_t phase = 0;  // hull shaders: index into Program::hull_phases
};
struct HullPhase {
    Opcode kind = Opcode::HsDecls;        // HsDecls, HsControlPointPhase, HsForkPhase, HsJoinPhase
    std::uint32_t first_instruction = 0;  // index of its hs_* marker in Program::instructions
    std::uint32_t instance_count = 1;     // fork/join instance count
    std::uint32_t temp_count = 0;
};

struct Program {
    ProgramType type = ProgramType::Vertex;
    std::uint32_t major_version = 5, minor_version = 0;
    std::vector<Instruction> instructions;

    // From the container (decode_container); empty after decode().
    bool has_signatures = false;
    std::vector<SignatureElement> input_signature;
    std::vector<SignatureElement> output_signature;
    std::vector<SignatureElement> patch_constant_signature;
    bool output_signature_has_streams = false;  // OSG5 rather than OSGN

    // The declarations, summarized.
    std::uint32_t temp_count = 0;  // the most any phase declares
    std::uint32_t global_flags = 0;
    std::array<std::uint32_t, 3> thread_group{};
    std::vector<ConstantBufferBinding> constant_buffers;
    std::vector<ResourceBinding> resources;
    std::vector<SamplerBinding> samplers;
    std::vector<UavBinding> uavs;
    std::vector<GroupSharedMemory> group_shared;
    std::vector<IndexableTemp> indexable_temps;
    std::vector<RegisterDeclaration> inputs;
    std::vector<RegisterDeclaration> outputs;
    std::vector<std::uint32_t> immediate_constant_buffer;  // 4 DWORDs per vector
    // Geometry shaders.
    Primitive input_primitive = Primitive::Undefined;
    PrimitiveTopology output_topology = PrimitiveTopology::Undefined;
    std::uint32_t max_output_vertices = 0;
    std::uint32_t gs_instance_count = 0;
    std::vector<std::uint32_t> streams;
    // Hull and domain shaders.
    std::uint32_t input_control_points = 0;
    std::uint32_t output_control_points = 0;
    TessDomain tess_domain = TessDomain::Undefined;
    TessPartitioning tess_partitioning = TessPartitioning::Undefined;
    TessOutputPrimitive tess_output_primitive = TessOutputPrimitive::Undefined;
    float max_tess_factor = 0;
    std::vector<HullPhase> hull_phases;

    const ConstantBufferBinding* constant_buffer(std::uint32_t reg) const;
    const ResourceBinding* resource(std::uint32_t reg) const;
    const SamplerBinding* sampler(std::uint32_t reg) const;
    const UavBinding* uav(std::uint32_t reg) const;
};

}  // namespace d3dcap::runtime::shader
