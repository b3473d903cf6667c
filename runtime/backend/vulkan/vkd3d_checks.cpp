// The checks of vkd3d_checks.h: the project's token reader reads a shader
// before vkd3d-shader 1.2 does, which refuses, drops, mistranslates or
// asserts on what these refuse.
#include "runtime/backend/vulkan/vkd3d_checks.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <utility>

#include "runtime/shader/container.h"
#include "runtime/shader/decoder.h"
#include "runtime/shader/dxbc_checksum.h"

namespace d3dcap::runtime::backend::vulkan {

namespace {

using shader::Opcode;

// What vkd3d-shader 1.2 refuses, or accepts and then drops or gets wrong,
// by opcode (pipeline-facts.md); empty for the rest.
const char* unsupported(Opcode op) {
    switch (op) {
        case Opcode::Call:
        case Opcode::Callc:
            return "subroutine calls are refused by vkd3d-shader 1.2";
        case Opcode::InterfaceCall:
        case Opcode::DclFunctionBody:
        case Opcode::DclFunctionTable:
        case Opcode::DclInterface:
            return "class linkage is dropped by vkd3d-shader 1.2";
        case Opcode::EmitThenCut:
        case Opcode::EmitThenCutStream:
            return "emit_then_cut is refused by vkd3d-shader 1.2";
        case Opcode::Umad:
        case Opcode::Uaddc:
        case Opcode::Usubb:
        case Opcode::Msad:
        case Opcode::EvalSnapped:
        case Opcode::Abort:
        case Opcode::DebugBreak:
        case Opcode::DclOutputSgv:
            return "refused by vkd3d-shader 1.2";
        default:
            break;
    }
    const auto number = static_cast<std::uint32_t>(op);
    if ((number >= static_cast<std::uint32_t>(Opcode::Dadd) &&
         number <= static_cast<std::uint32_t>(Opcode::Ftod)) ||
        op == Opcode::Ddiv || op == Opcode::Dfma || op == Opcode::Drcp || op == Opcode::Dtoi ||
        op == Opcode::Dtou || op == Opcode::Itod || op == Opcode::Utod)
        return "double precision is refused by vkd3d-shader 1.2";
    if (number >= static_cast<std::uint32_t>(Opcode::Gather4Feedback))
        return "tiled-resource feedback is not translated by vkd3d-shader";
    return nullptr;
}

bool null_destination(const shader::Instruction& instruction, std::size_t operand) {
    return operand < instruction.operands.size() &&
           instruction.operands[operand].type == shader::OperandType::Null;
}

// Registers an instruction uses must be declared, and addressed with the
// indices and components their kind takes (vkd3d-shader asserts otherwise): r# below the
// dcl_temps count of the program or hull-shader phase, x# by
// dcl_indexableTemp with an immediate index inside it, v# and o# below 32,
// cb# with a buffer and a vector index. Empty, or what is not.
std::string undeclared(const shader::Program& program, std::uint32_t temps,
                       const shader::Operand& operand) {
    using shader::OperandType;
    const std::string prefix(shader::operand_type_info(operand.type).prefix);
    auto immediate = [&](std::uint32_t i) { return !operand.indices[i].has_relative(); };
    const bool componentless =
        operand.type != OperandType::Temp && operand.type != OperandType::Input &&
        operand.type != OperandType::Output && operand.type != OperandType::IndexableTemp &&
        operand.type != OperandType::ConstantBuffer &&
        operand.type != OperandType::ImmediateConstantBuffer;
    if (!componentless && operand.component_count == 0)
        return "uses " + prefix + " without components";
    switch (operand.type) {
        case OperandType::Temp:
            if (operand.index_dimension != 1 || !immediate(0))
                return "uses r without one immediate register number";
            if (operand.register_index() >= temps)
                return "uses r" + std::to_string(operand.register_index()) + " but " +
                       std::to_string(temps) + " temps are declared";
            break;
        case OperandType::IndexableTemp: {
            if (operand.index_dimension != 2 || !immediate(0))
                return "uses x without a register number and an element index";
            const std::uint32_t id = operand.register_index();
            const auto& declared = program.indexable_temps;
            const auto found =
                std::find_if(declared.begin(), declared.end(),
                             [&](const shader::IndexableTemp& t) { return t.reg == id; });
            if (found == declared.end())
                return "uses x" + std::to_string(id) + ", which is not declared";
            const shader::OperandIndex& element = operand.indices[1];
            if (!element.has_relative() && element.value >= found->register_count)
                return "uses x" + std::to_string(id) + "[" + std::to_string(element.value) +
                       "] of " + std::to_string(found->register_count) + " registers";
            break;
        }
        case OperandType::Input:
        case OperandType::Output:
            if (operand.index_dimension == 0)
                return "uses " + prefix + " without a register number";
            if (immediate(operand.index_dimension - 1) &&
                operand.indices[operand.index_dimension - 1].value >= shader::limits::kRegisters)
                return "uses " + prefix +
                       std::to_string(operand.indices[operand.index_dimension - 1].value) +
                       " (at most " + std::to_string(shader::limits::kRegisters) + " registers)";
            break;
        case OperandType::ConstantBuffer:
            if (operand.index_dimension != 2 || !immediate(0))
                return "uses cb without a buffer number and a vector index";
            if (program.constant_buffer(operand.register_index()) == nullptr)
                return "uses cb" + std::to_string(operand.register_index()) +
                       ", which is not declared";
            break;
        case OperandType::Resource:
        case OperandType::Sampler:
        case OperandType::UnorderedAccessView: {
            const std::uint32_t reg = operand.register_index();
            const bool declared =
                operand.type == OperandType::Resource  ? program.resource(reg) != nullptr
                : operand.type == OperandType::Sampler ? program.sampler(reg) != nullptr
                                                       : program.uav(reg) != nullptr;
            if (operand.index_dimension != 1 || !immediate(0) || !declared)
                return "uses " + prefix + std::to_string(reg) + ", which is not declared";
            break;
        }
        default:
            break;
    }
    for (std::uint32_t i = 0; i < operand.index_dimension && i < 3; ++i)
        for (const shader::Operand& relative : operand.indices[i].relative)
            if (std::string why = undeclared(program, temps, relative); !why.empty()) return why;
    return {};
}

// What only takes writes: the outputs and null, as a source.
bool write_only(shader::OperandType type) {
    using shader::OperandType;
    switch (type) {
        case OperandType::Output:
        case OperandType::OutputDepth:
        case OperandType::OutputCoverageMask:
        case OperandType::OutputDepthGreaterEqual:
        case OperandType::OutputDepthLessEqual:
        case OperandType::OutputStencilRef:
        case OperandType::Null:
            return true;
        default:
            return false;
    }
}

// Operands that must name a resource, sampler, UAV or group-shared memory
// (vkd3d-shader asserts on any other register there): by opcode, the
// operand's position and the kinds it takes; kinds 0 where there is none.
enum OperandClass : std::uint8_t {
    kView = 1,
    kUav = 2,
    kShared = 4,
    kSampler = 8,
    kRasterizer = 16
};
struct ObjectOperand {
    std::uint8_t position = 0, kinds = 0;
};
std::array<ObjectOperand, 2> object_operands(Opcode op) {
    const auto number = static_cast<std::uint32_t>(op);
    auto in = [&](Opcode first, Opcode last) {
        return number >= static_cast<std::uint32_t>(first) &&
               number <= static_cast<std::uint32_t>(last);
    };
    if (in(Opcode::Sample, Opcode::SampleB) || op == Opcode::Lod || op == Opcode::Gather4 ||
        op == Opcode::Gather4C)
        return {{{2, kView}, {3, kSampler}}};
    if (op == Opcode::Gather4Po || op == Opcode::Gather4PoC) return {{{3, kView}, {4, kSampler}}};
    if (in(Opcode::AtomicAnd, Opcode::AtomicUmin) || op == Opcode::StoreRaw ||
        op == Opcode::StoreStructured)
        return {{{0, kUav | kShared}, {}}};
    if (in(Opcode::ImmAtomicIadd, Opcode::ImmAtomicUmin)) return {{{1, kUav | kShared}, {}}};
    switch (op) {
        case Opcode::Ld:
        case Opcode::LdMs:
            return {{{2, kView}, {}}};
        case Opcode::Resinfo:
            return {{{2, kView | kUav}, {}}};
        case Opcode::SamplePos:
        case Opcode::SampleInfo:
            return {{{1, kView | kRasterizer}, {}}};
        case Opcode::Bufinfo:
            return {{{1, kView | kUav}, {}}};
        case Opcode::LdUavTyped:
            return {{{2, kUav}, {}}};
        case Opcode::StoreUavTyped:
            return {{{0, kUav}, {}}};
        case Opcode::LdRaw:
            return {{{2, kView | kUav | kShared}, {}}};
        case Opcode::LdStructured:
            return {{{3, kView | kUav | kShared}, {}}};
        case Opcode::ImmAtomicAlloc:
        case Opcode::ImmAtomicConsume:
            return {{{1, kUav}, {}}};
        default:
            return {};
    }
}

// "t# or u#".
std::string kinds_text(std::uint8_t kinds) {
    static constexpr std::pair<std::uint8_t, const char*> kNames[] = {{kView, "t#"},
                                                                      {kUav, "u#"},
                                                                      {kShared, "g#"},
                                                                      {kSampler, "s#"},
                                                                      {kRasterizer, "rasterizer"}};
    std::string text;
    for (const auto& [kind, name] : kNames) {
        if (!(kinds & kind)) continue;
        kinds &= static_cast<std::uint8_t>(~kind);
        text += (text.empty() ? "" : kinds ? ", " : " or ") + std::string(name);
    }
    return text;
}

std::uint8_t object_kind(shader::OperandType type) {
    using shader::OperandType;
    switch (type) {
        case OperandType::Resource:
            return kView;
        case OperandType::UnorderedAccessView:
            return kUav;
        case OperandType::ThreadGroupSharedMemory:
            return kShared;
        case OperandType::Sampler:
            return kSampler;
        case OperandType::Rasterizer:
            return kRasterizer;
        default:
            return 0;
    }
}

// What an instruction can write.
bool writable(shader::OperandType type) {
    using shader::OperandType;
    return write_only(type) || type == OperandType::Temp || type == OperandType::IndexableTemp ||
           type == OperandType::UnorderedAccessView || type == OperandType::ThreadGroupSharedMemory;
}

}  // namespace

bool lower(std::vector<std::uint8_t>& container, std::string& error) {
    const auto program = shader::decode_container(container, error);
    if (!program) return false;
    const auto chunks = shader::read_container(container, error);
    if (!chunks) return false;
    const shader::ContainerChunk* code = shader::code_chunk(*chunks);
    if (code == nullptr) {
        error = "has no SHDR or SHEX chunk";
        return false;
    }
    const std::size_t code_start = static_cast<std::size_t>(code->data.data() - container.data());
    bool patched = false;
    std::uint32_t temps = 0;  // declared in the program or the hull-shader phase
    for (const shader::Instruction& instruction : program->instructions) {
        auto at = [&](const std::string& why) {
            char offset[16];
            std::snprintf(offset, sizeof offset, "0x%x", instruction.byte_offset);
            error = std::string("instruction at offset ") + offset + ": " +
                    std::string(instruction.info().name) + ": " + why;
            return false;
        };
        if (const char* why = unsupported(instruction.opcode)) return at(why);
        if (instruction.opcode == Opcode::DclTemps) temps = instruction.declaration.count;
        if (instruction.info().layout == shader::Layout::HsPhase) {
            if (program->type != shader::ProgramType::Hull) return at("is not in a hull shader");
            temps = 0;
        }
        // An input or output declaration names a register of those files,
        // with components where the register has them.
        if (static_cast<std::uint32_t>(instruction.opcode) >=
                static_cast<std::uint32_t>(Opcode::DclInput) &&
            static_cast<std::uint32_t>(instruction.opcode) <=
                static_cast<std::uint32_t>(Opcode::DclOutputSiv) &&
            !instruction.operands.empty()) {
            const shader::Operand& declared = instruction.operands[0];
            const bool files = declared.type == shader::OperandType::Input ||
                               declared.type == shader::OperandType::Output ||
                               declared.type == shader::OperandType::InputControlPoint ||
                               declared.type == shader::OperandType::OutputControlPoint ||
                               declared.type == shader::OperandType::InputPatchConstant;
            using shader::OperandType;
            const OperandType t = declared.type;
            if (t == OperandType::Temp || t == OperandType::IndexableTemp ||
                t == OperandType::Null || object_kind(t) != 0 || t == OperandType::ConstantBuffer ||
                t == OperandType::UnorderedAccessView || t == OperandType::Immediate32 ||
                t == OperandType::Immediate64)
                return at("declares " +
                          std::string(shader::operand_type_info(declared.type).prefix) +
                          ", which is no input or output");
            if (files && declared.component_count == 0)
                return at("declares a register without components");
        }
        if (!instruction.info().is_declaration()) {
            for (const shader::Operand& operand : instruction.operands)
                if (std::string why = undeclared(*program, temps, operand); !why.empty())
                    return at(why);
            const shader::OpcodeInfo& info = instruction.info();
            for (std::size_t i = 0; info.layout == shader::Layout::Operands &&
                                    i < info.destinations && i < instruction.operands.size();
                 ++i) {
                const shader::Operand& d = instruction.operands[i];
                if (!writable(d.type))
                    return at("destination " + std::to_string(i + 1) + " is " +
                              std::string(shader::operand_type_info(d.type).prefix) +
                              ", which cannot be written");
                if (d.type == shader::OperandType::Null && info.destinations < 2)
                    return at("its only destination is null");
                if (d.component_count == 4 && d.selection == shader::ComponentSelection::Mask &&
                    d.mask == 0)
                    return at("destination " + std::to_string(i + 1) + " writes no component");
            }
            for (const ObjectOperand& object : object_operands(instruction.opcode)) {
                if (object.kinds == 0) continue;
                if (object.position >= instruction.operands.size() ||
                    !(object_kind(instruction.operands[object.position].type) & object.kinds))
                    return at("operand " + std::to_string(object.position + 1) + " is not " +
                              kinds_text(object.kinds));
            }
            for (std::size_t i = info.destinations;
                 info.layout == shader::Layout::Operands && i < instruction.operands.size(); ++i)
                if (write_only(instruction.operands[i].type))
                    return at("source operand " + std::to_string(i + 1) + " is " +
                              std::string(
                                  shader::operand_type_info(instruction.operands[i].type).prefix) +
                              ", which is written, not read");
            for (const shader::Operand& operand : instruction.operands)
                if (operand.type == shader::OperandType::CycleCounter ||
                    operand.type == shader::OperandType::ThisPointer ||
                    operand.type == shader::OperandType::FunctionInput ||
                    operand.type == shader::OperandType::FunctionOutput)
                    return at(std::string(shader::operand_type_info(operand.type).prefix) +
                              " is not translated by vkd3d-shader 1.2");
        }
        switch (instruction.opcode) {
            case Opcode::Umul:
                if (!null_destination(instruction, 0))
                    return at("its high half is not translated by vkd3d-shader 1.2");
                {
                    std::uint32_t token;
                    std::memcpy(&token, container.data() + code_start + instruction.byte_offset, 4);
                    token = (token & ~0x7ffu) | static_cast<std::uint32_t>(Opcode::Imul);
                    std::memcpy(container.data() + code_start + instruction.byte_offset, &token, 4);
                    patched = true;
                }
                break;
            case Opcode::Imul:
                if (!null_destination(instruction, 0))
                    return at("its high half is not translated by vkd3d-shader 1.2");
                break;
            case Opcode::EmitStream:
            case Opcode::CutStream:
                if (!instruction.operands.empty() && instruction.operands[0].register_index() != 0)
                    return at("streams other than 0 are dropped by vkd3d-shader 1.2");
                break;
            case Opcode::SampleC:
            case Opcode::SampleCLz:
                if (instruction.has_texel_offsets &&
                    (instruction.texel_offsets[0] || instruction.texel_offsets[1] ||
                     instruction.texel_offsets[2]))
                    return at("texel offsets are dropped by vkd3d-shader 1.2");
                break;
            default:
                break;
        }
    }
    if (patched) shader::write_dxbc_checksum(container);
    return true;
}

}  // namespace d3dcap::runtime::backend::vulkan
