#include "runtime/shader/summary.h"

#include <bit>
#include <cstdio>

#include "runtime/shader/decoder.h"

namespace d3dcap::runtime::shader {

namespace {

struct SummaryError {
    std::string message;
};

[[noreturn]] void fail(std::string message) {
    throw SummaryError{std::move(message)};
}

// "declares 5000 temps (at most 4096)".
void at_most(std::uint64_t value, std::uint32_t limit, const std::string& before,
             const std::string& after) {
    if (value > limit)
        fail(before + " " + std::to_string(value) + (after.empty() ? "" : " " + after) +
             " (at most " + std::to_string(limit) + ")");
}

// "declares t130 (t0 to t127)".
void register_below(std::uint64_t value, std::uint32_t count, const std::string& prefix) {
    if (value >= count)
        fail("declares " + prefix + std::to_string(value) + " (" + prefix + "0 to " + prefix +
             std::to_string(count - 1) + ")");
}

// The operand of a declaration, of the type it must have.
const Operand& declared(const Instruction& instruction, OperandType type, std::uint32_t dimension,
                        const char* form) {
    const Operand& operand = instruction.operands.at(0);
    if (operand.type != type || operand.index_dimension != dimension)
        fail(std::string("declares a register that is not ") + form);
    for (std::uint32_t i = 0; i < dimension; ++i)
        if (operand.indices[i].representation != IndexRepresentation::Immediate32)
            fail(std::string("declares a register that is not ") + form +
                 " with immediate indices");
    return operand;
}

std::uint8_t declared_mask(const Operand& operand) {
    if (operand.component_count == 1) return 1;
    if (operand.component_count == 4 && operand.selection == ComponentSelection::Mask)
        return operand.mask;
    return 0;
}

bool is_register_file(OperandType type) {
    return type == OperandType::Input || type == OperandType::Output ||
           type == OperandType::InputControlPoint || type == OperandType::OutputControlPoint ||
           type == OperandType::InputPatchConstant;
}

RegisterDeclaration register_declaration(const Instruction& instruction, std::uint32_t phase) {
    const Operand& operand = instruction.operands.at(0);
    RegisterDeclaration result;
    result.opcode = instruction.opcode;
    result.type = operand.type;
    result.mask = declared_mask(operand);
    result.system_name = instruction.declaration.system_name;
    result.interpolation = instruction.declaration.interpolation;
    result.phase = phase;
    for (std::uint32_t i = 0; i < operand.index_dimension; ++i)
        if (operand.indices[i].representation != IndexRepresentation::Immediate32)
            fail("declares a register with a relative index");
    if (operand.index_dimension) {
        result.reg = static_cast<std::uint32_t>(operand.indices[operand.index_dimension - 1].value);
        if (is_register_file(operand.type)) {
            register_below(result.reg, limits::kRegisters,
                           std::string(operand_type_info(operand.type).prefix));
            if (operand.index_dimension == 2)
                at_most(operand.indices[0].value, limits::kControlPoints, "declares", "vertices");
        }
    }
    return result;
}

void summarize_instruction(Program& program, std::uint32_t index,
                           std::uint32_t& indexable_registers, std::uint32_t& group_shared_bytes) {
    const Instruction& instruction = program.instructions[index];
    const Declaration& decl = instruction.declaration;
    const std::uint32_t phase = program.hull_phases.empty()
                                    ? 0
                                    : static_cast<std::uint32_t>(program.hull_phases.size() - 1);
    switch (instruction.opcode) {
        case Opcode::HsDecls:
        case Opcode::HsControlPointPhase:
        case Opcode::HsForkPhase:
        case Opcode::HsJoinPhase: {
            HullPhase next;
            next.kind = instruction.opcode;
            next.first_instruction = index;
            program.hull_phases.push_back(next);
            indexable_registers = 0;
            break;
        }
        case Opcode::DclTemps:
            at_most(decl.count, limits::kTemps, "declares", "temps");
            program.temp_count = std::max(program.temp_count, decl.count);
            if (!program.hull_phases.empty()) program.hull_phases.back().temp_count = decl.count;
            break;
        case Opcode::DclIndexableTemp:
            register_below(decl.id, limits::kTemps, "x");
            at_most(decl.register_count, limits::kTemps, "declares", "registers");
            indexable_registers += decl.register_count;
            at_most(indexable_registers, limits::kTemps, "brings the indexable temp registers to",
                    "");
            program.indexable_temps.push_back({decl.id, decl.register_count, decl.components});
            break;
        case Opcode::DclGlobalFlags:
            program.global_flags |= decl.global_flags;
            break;
        case Opcode::DclThreadGroup: {
            const auto& size = decl.thread_group;
            if (size[0] < 1 || size[1] < 1 || size[2] < 1) fail("declares an empty thread group");
            at_most(size[0], 1024, "declares a thread group width of", "");
            at_most(size[1], 1024, "declares a thread group height of", "");
            at_most(size[2], 64, "declares a thread group depth of", "");
            at_most(std::uint64_t{size[0]} * size[1] * size[2], limits::kThreadsPerGroup,
                    "declares", "threads in a group");
            program.thread_group = size;
            break;
        }
        case Opcode::DclConstantBuffer: {
            const Operand& operand =
                declared(instruction, OperandType::ConstantBuffer, 2, "cb#[size]");
            register_below(operand.indices[0].value, limits::kConstantBufferSlots, "cb");
            at_most(operand.indices[1].value, limits::kConstantBufferVectors, "declares",
                    "vectors");
            program.constant_buffers.push_back(
                {static_cast<std::uint32_t>(operand.indices[0].value),
                 static_cast<std::uint32_t>(operand.indices[1].value), decl.dynamically_indexed});
            break;
        }
        case Opcode::DclResource:
        case Opcode::DclResourceRaw:
        case Opcode::DclResourceStructured: {
            const Operand& operand = declared(instruction, OperandType::Resource, 1, "t#");
            register_below(operand.indices[0].value, limits::kResourceSlots, "t");
            ResourceBinding binding;
            binding.reg = operand.register_index();
            binding.kind = instruction.opcode == Opcode::DclResource      ? BufferKind::Typed
                           : instruction.opcode == Opcode::DclResourceRaw ? BufferKind::Raw
                                                                          : BufferKind::Structured;
            binding.dimension = instruction.opcode == Opcode::DclResource ? decl.dimension
                                : binding.kind == BufferKind::Raw
                                    ? ResourceDimension::RawBuffer
                                    : ResourceDimension::StructuredBuffer;
            binding.return_types = decl.return_types;
            binding.sample_count = decl.sample_count;
            binding.stride = decl.stride;
            if (binding.kind == BufferKind::Structured) {
                at_most(decl.stride, limits::kStructureStride, "declares a structure stride of",
                        "");
                if (decl.stride == 0 || decl.stride % 4)
                    fail("declares a structure stride of " + std::to_string(decl.stride) +
                         " (a multiple of 4)");
            }
            program.resources.push_back(binding);
            break;
        }
        case Opcode::DclSampler: {
            const Operand& operand = declared(instruction, OperandType::Sampler, 1, "s#");
            register_below(operand.indices[0].value, limits::kSamplerSlots, "s");
            program.samplers.push_back({operand.register_index(), decl.sampler_mode});
            break;
        }
        case Opcode::DclUavTyped:
        case Opcode::DclUavRaw:
        case Opcode::DclUavStructured: {
            const Operand& operand =
                declared(instruction, OperandType::UnorderedAccessView, 1, "u#");
            register_below(operand.indices[0].value, limits::kUavSlots, "u");
            UavBinding binding;
            binding.reg = operand.register_index();
            binding.kind = instruction.opcode == Opcode::DclUavTyped ? BufferKind::Typed
                           : instruction.opcode == Opcode::DclUavRaw ? BufferKind::Raw
                                                                     : BufferKind::Structured;
            binding.dimension = instruction.opcode == Opcode::DclUavTyped ? decl.dimension
                                : binding.kind == BufferKind::Raw
                                    ? ResourceDimension::RawBuffer
                                    : ResourceDimension::StructuredBuffer;
            binding.return_types = decl.return_types;
            binding.stride = decl.stride;
            binding.globally_coherent = decl.uav_flags & token::kUavGloballyCoherent;
            binding.rasterizer_ordered = decl.uav_flags & token::kUavRasterizerOrdered;
            binding.has_counter = decl.uav_flags & token::kUavHasCounter;
            if (binding.kind == BufferKind::Structured) {
                at_most(decl.stride, limits::kStructureStride, "declares a structure stride of",
                        "");
                if (decl.stride == 0 || decl.stride % 4)
                    fail("declares a structure stride of " + std::to_string(decl.stride) +
                         " (a multiple of 4)");
            }
            program.uavs.push_back(binding);
            break;
        }
        case Opcode::DclTgsmRaw:
        case Opcode::DclTgsmStructured: {
            const Operand& operand =
                declared(instruction, OperandType::ThreadGroupSharedMemory, 1, "g#");
            GroupSharedMemory memory;
            memory.reg = operand.register_index();
            memory.structured = instruction.opcode == Opcode::DclTgsmStructured;
            memory.stride = decl.stride;
            memory.count = decl.count;
            if (memory.structured) {
                at_most(decl.stride, limits::kGroupSharedBytes, "declares a structure stride of",
                        "");
                if (decl.stride == 0 || decl.stride % 4)
                    fail("declares a structure stride of " + std::to_string(decl.stride) +
                         " (a multiple of 4)");
            } else if (decl.count % 4) {
                fail("declares " + std::to_string(decl.count) + " bytes (a multiple of 4)");
            }
            at_most(std::uint64_t{memory.structured ? decl.stride : 1} * decl.count,
                    limits::kGroupSharedBytes, "declares", "bytes");
            group_shared_bytes += memory.byte_size();
            at_most(group_shared_bytes, limits::kGroupSharedBytes,
                    "brings thread group shared memory to", "bytes");
            program.group_shared.push_back(memory);
            break;
        }
        case Opcode::DclInput:
        case Opcode::DclInputSgv:
        case Opcode::DclInputSiv:
        case Opcode::DclInputPs:
        case Opcode::DclInputPsSgv:
        case Opcode::DclInputPsSiv:
            program.inputs.push_back(register_declaration(instruction, phase));
            break;
        case Opcode::DclOutput:
        case Opcode::DclOutputSgv:
        case Opcode::DclOutputSiv:
            program.outputs.push_back(register_declaration(instruction, phase));
            break;
        case Opcode::DclIndexRange:
            at_most(decl.count, limits::kRegisters, "declares a range of", "registers");
            break;
        case Opcode::DclMaxOutputVertexCount:
            at_most(decl.count, limits::kMaxOutputVertices, "declares", "output vertices");
            program.max_output_vertices = decl.count;
            break;
        case Opcode::DclGsInstanceCount:
            if (decl.count < 1) fail("declares 0 instances");
            at_most(decl.count, limits::kGsInstances, "declares", "instances");
            program.gs_instance_count = decl.count;
            break;
        case Opcode::DclStream: {
            const Operand& operand = declared(instruction, OperandType::Stream, 1, "m#");
            register_below(operand.indices[0].value, limits::kStreams, "m");
            program.streams.push_back(operand.register_index());
            break;
        }
        case Opcode::DclGsInputPrimitive:
            program.input_primitive = decl.input_primitive;
            break;
        case Opcode::DclGsOutputPrimitiveTopology:
            program.output_topology = decl.output_topology;
            break;
        case Opcode::DclInputControlPointCount:
        case Opcode::DclOutputControlPointCount:
            at_most(decl.count, limits::kControlPoints, "declares", "control points");
            (instruction.opcode == Opcode::DclInputControlPointCount
                 ? program.input_control_points
                 : program.output_control_points) = decl.count;
            break;
        case Opcode::DclTessDomain:
            program.tess_domain = decl.tess_domain;
            break;
        case Opcode::DclTessPartitioning:
            program.tess_partitioning = decl.tess_partitioning;
            break;
        case Opcode::DclTessOutputPrimitive:
            program.tess_output_primitive = decl.tess_output_primitive;
            break;
        case Opcode::DclHsMaxTessFactor:
            program.max_tess_factor = std::bit_cast<float>(decl.max_tess_factor_bits);
            break;
        case Opcode::DclHsForkPhaseInstanceCount:
        case Opcode::DclHsJoinPhaseInstanceCount:
            at_most(decl.count, limits::kPhaseInstances, "declares", "phase instances");
            if (!program.hull_phases.empty())
                program.hull_phases.back().instance_count = decl.count;
            break;
        case Opcode::CustomData:
            if (decl.custom_data_class == token::kCustomDataImmediateConstantBuffer)
                program.immediate_constant_buffer.insert(program.immediate_constant_buffer.end(),
                                                         decl.data.begin(), decl.data.end());
            break;
        default:
            break;
    }
}

template <typename Binding>
const Binding* find_binding(const std::vector<Binding>& bindings, std::uint32_t reg) {
    for (const Binding& binding : bindings)
        if (binding.reg == reg) return &binding;
    return nullptr;
}

}  // namespace

bool summarize(Program& program, std::string& error) {
    std::uint32_t indexable_registers = 0, group_shared_bytes = 0;
    for (std::size_t i = 0; i < program.instructions.size(); ++i) {
        const Instruction& instruction = program.instructions[i];
        try {
            summarize_instruction(program, static_cast<std::uint32_t>(i), indexable_registers,
                                  group_shared_bytes);
        } catch (const SummaryError& problem) {
            char offset[16];
            std::snprintf(offset, sizeof offset, "0x%x", instruction.byte_offset);
            error = std::string("instruction at offset ") + offset + ": " +
                    std::string(instruction.info().name) + " " + problem.message;
            return false;
        }
    }
    return true;
}

const ConstantBufferBinding* Program::constant_buffer(std::uint32_t reg) const {
    return find_binding(constant_buffers, reg);
}
const ResourceBinding* Program::resource(std::uint32_t reg) const {
    return find_binding(resources, reg);
}
const SamplerBinding* Program::sampler(std::uint32_t reg) const {
    return find_binding(samplers, reg);
}
const UavBinding* Program::uav(std::uint32_t reg) const {
    return find_binding(uavs, reg);
}

}  // namespace d3dcap::runtime::shader
