#include "runtime/shader/disassembler.h"

#include <bit>
#include <cstdio>

#include "runtime/shader/numbers.h"
#include "runtime/shader/signature_names.h"

namespace d3dcap::runtime::shader {

namespace {

constexpr char kComponents[] = "xyzw";

std::string mask_text(std::uint8_t mask) {
    std::string text;
    for (int i = 0; i < 4; ++i)
        if (mask & (1 << i)) text += kComponents[i];
    return text;
}

// Types whose every index is written in brackets ("icb[3]", "vicp[0][1]").
bool brackets_every_index(const Operand& operand) {
    switch (operand.type) {
        case OperandType::ImmediateConstantBuffer:
        case OperandType::InputControlPoint:
        case OperandType::OutputControlPoint:
            return true;
        case OperandType::Input:
        case OperandType::Output:
            return operand.index_dimension == 2;
        default:
            return false;
    }
}

std::string index_text(const OperandIndex& index) {
    const bool wide = index.representation == IndexRepresentation::Immediate64 ||
                      index.representation == IndexRepresentation::Immediate64PlusRelative;
    const std::string number = std::to_string(index.value) + (wide ? "i64" : "");
    switch (index.representation) {
        case IndexRepresentation::Immediate32:
        case IndexRepresentation::Immediate64:
            return number;
        case IndexRepresentation::Relative:
            return format_operand(index.relative.at(0), NumberKind::Integer);
        case IndexRepresentation::Immediate32PlusRelative:
        case IndexRepresentation::Immediate64PlusRelative:
            return format_operand(index.relative.at(0), NumberKind::Integer) + " + " + number;
    }
    return number;
}

std::string register_text(const Operand& operand, NumberKind numbers) {
    const OperandTypeInfo& info = operand_type_info(operand.type);
    if (operand.type == OperandType::Immediate32) {
        std::string text = "l(";
        for (std::uint32_t i = 0; i < operand.value_count; ++i)
            text += (i ? ", " : "") + format_immediate(operand.values[i], numbers);
        return text + ")";
    }
    if (operand.type == OperandType::Immediate64) {
        std::string text = "d(";
        for (std::uint32_t i = 0; i + 1 < operand.value_count; i += 2)
            text +=
                (i ? ", " : "") +
                format_double_bits(std::uint64_t{operand.values[i + 1]} << 32 | operand.values[i]);
        return text + ")";
    }
    std::string text(info.prefix);
    std::uint32_t first_bracketed = 0;
    if (!info.named && operand.index_dimension > 0 &&
        operand.indices[0].representation == IndexRepresentation::Immediate32 &&
        !brackets_every_index(operand)) {
        text += std::to_string(operand.indices[0].value);
        first_bracketed = 1;
    }
    for (std::uint32_t i = first_bracketed; i < operand.index_dimension; ++i)
        text += "[" + index_text(operand.indices[i]) + "]";
    return text;
}

std::string return_types_text(const std::array<ReturnType, 4>& types) {
    std::string text = "(";
    for (int i = 0; i < 4; ++i) {
        const std::string_view name = return_type_name(types[i]);
        text += (i ? "," : "") + (name.empty() ? std::string("none") : std::string(name));
    }
    return text + ")";
}

std::string join_operands(const Instruction& instruction, NumberKind numbers) {
    std::string text;
    for (std::size_t i = 0; i < instruction.operands.size(); ++i)
        text += (i ? ", " : "") + format_operand(instruction.operands[i], numbers);
    return text;
}

std::string first_operand(const Instruction& instruction) {
    return instruction.operands.empty()
               ? std::string()
               : format_operand(instruction.operands[0], NumberKind::Integer);
}

std::string uav_flags_text(std::uint32_t flags) {
    std::string text;
    if (flags & token::kUavGloballyCoherent) text += "_glc";
    if (flags & token::kUavRasterizerOrdered) text += "_rov";
    if (flags & token::kUavHasCounter) text += "_opc";
    return text;
}

std::string hex_word(std::uint32_t value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", value);
    return text;
}

std::string custom_data_text(const Instruction& instruction) {
    const Declaration& decl = instruction.declaration;
    if (decl.custom_data_class != token::kCustomDataImmediateConstantBuffer) {
        std::string text = "customdata " + std::to_string(decl.custom_data_class) + " {";
        for (std::size_t i = 0; i < decl.data.size(); ++i)
            text += (i ? ", " : " ") + hex_word(decl.data[i]);
        return text + " }";
    }
    // fxc's layout: one vec4 a line, continuation lines under the first.
    const std::string head = "dcl_immediateConstantBuffer { ";
    if (decl.data.empty()) return head + "}";
    std::string text = head;
    for (std::size_t i = 0; i < decl.data.size(); i += 4) {
        if (i) text += ",\n" + std::string(head.size(), ' ');
        text += "{ ";
        for (std::size_t c = 0; c < 4; ++c)
            text += (c ? ", " : "") + format_immediate(decl.data[i + c], NumberKind::Untyped);
        text += "}";
    }
    return text + " }";
}

std::string declaration_text(const Instruction& instruction) {
    const OpcodeInfo& info = instruction.info();
    const Declaration& decl = instruction.declaration;
    const std::string name(info.name);
    switch (info.layout) {
        case Layout::CustomData:
            return custom_data_text(instruction);
        case Layout::DclResource: {
            std::string text = name + "_" + std::string(resource_dimension_name(decl.dimension));
            if (decl.sample_count || decl.dimension == ResourceDimension::Texture2DMS ||
                decl.dimension == ResourceDimension::Texture2DMSArray)
                text += "(" + std::to_string(decl.sample_count) + ")";
            return text + " " + return_types_text(decl.return_types) + " " +
                   first_operand(instruction);
        }
        case Layout::DclConstantBuffer: {
            // fxc declares cb#[size] with an xyzw swizzle it does not print.
            Operand buffer = instruction.operands.at(0);
            if (buffer.component_count == 4 && buffer.selection == ComponentSelection::Swizzle &&
                buffer.swizzle == std::array<std::uint8_t, 4>{0, 1, 2, 3})
                buffer.component_count = 0;
            return name + " " + format_operand(buffer, NumberKind::Integer) +
                   (decl.dynamically_indexed ? ", dynamicIndexed" : ", immediateIndexed");
        }
        case Layout::DclSampler:
            return name + " " + first_operand(instruction) + ", " +
                   std::string(sampler_mode_name(decl.sampler_mode));
        case Layout::DclIndexRange:
            return name + " " + first_operand(instruction) + ", " + std::to_string(decl.count);
        case Layout::DclGsOutputTopology:
            return name + " " + std::string(primitive_topology_name(decl.output_topology));
        case Layout::DclGsInputPrimitive:
            return name + " " + primitive_name(decl.input_primitive);
        case Layout::DclCount:
        case Layout::DclControlPointCount:
            return name + " " + std::to_string(decl.count);
        case Layout::DclRegister:
            return name + " " + first_operand(instruction);
        case Layout::DclRegisterName:
            return name + " " + first_operand(instruction) + ", " +
                   std::string(system_name_name(decl.system_name));
        case Layout::DclInputPs:
        case Layout::DclInputPsName: {
            std::string text = name + " ";
            if (decl.interpolation != InterpolationMode::Undefined)
                text += std::string(interpolation_mode_name(decl.interpolation)) + " ";
            text += first_operand(instruction);
            if (info.layout == Layout::DclInputPsName)
                text += ", " + std::string(system_name_name(decl.system_name));
            return text;
        }
        case Layout::DclIndexableTemp:
            return name + " x" + std::to_string(decl.id) + "[" +
                   std::to_string(decl.register_count) + "], " + std::to_string(decl.components);
        case Layout::DclGlobalFlags: {
            std::string flags;
            std::uint32_t left = decl.global_flags;
            for (const GlobalFlagName& flag : global_flag_names()) {
                if (!(left & flag.bit)) continue;
                flags += (flags.empty() ? "" : " | ") + std::string(flag.name);
                left &= ~flag.bit;
            }
            if (left) flags += (flags.empty() ? "" : " | ") + hex_word(left);
            return flags.empty() ? name : name + " " + flags;
        }
        case Layout::DclFunctionBody:
            return name + " fb" + std::to_string(decl.id);
        case Layout::DclFunctionTable: {
            std::string text = name + " ft" + std::to_string(decl.id) + " = {";
            for (std::size_t i = 0; i < decl.data.size(); ++i)
                text += (i ? ", fb" : "fb") + std::to_string(decl.data[i]);
            return text + "}";
        }
        case Layout::DclInterface: {
            std::string text = name + (decl.dynamically_indexed ? "_dynamicindexed" : "") + " fp" +
                               std::to_string(decl.id) + "[" + std::to_string(decl.array_length) +
                               "][" + std::to_string(decl.table_size) + "] = {";
            for (std::size_t i = 0; i < decl.data.size(); ++i)
                text += (i ? ", ft" : "ft") + std::to_string(decl.data[i]);
            return text + "}";
        }
        case Layout::DclTessDomain:
            return name + " " + std::string(tess_domain_name(decl.tess_domain));
        case Layout::DclTessPartitioning:
            return name + " " + std::string(tess_partitioning_name(decl.tess_partitioning));
        case Layout::DclTessOutputPrimitive:
            return name + " " + std::string(tess_output_primitive_name(decl.tess_output_primitive));
        case Layout::DclHsMaxTessFactor:
            return name + " l(" + format_float_bits(decl.max_tess_factor_bits) + ")";
        case Layout::DclThreadGroup:
            return name + " " + std::to_string(decl.thread_group[0]) + ", " +
                   std::to_string(decl.thread_group[1]) + ", " +
                   std::to_string(decl.thread_group[2]);
        case Layout::DclUavTyped:
            return name + "_" + std::string(resource_dimension_name(decl.dimension)) +
                   uav_flags_text(decl.uav_flags) + " " + return_types_text(decl.return_types) +
                   " " + first_operand(instruction);
        case Layout::DclUavRaw:
            return name + uav_flags_text(decl.uav_flags) + " " + first_operand(instruction);
        case Layout::DclUavStructured:
            return name + uav_flags_text(decl.uav_flags) + " " + first_operand(instruction) + ", " +
                   std::to_string(decl.stride);
        case Layout::DclTgsmRaw:
            return name + " " + first_operand(instruction) + ", " + std::to_string(decl.count);
        case Layout::DclTgsmStructured:
            return name + " " + first_operand(instruction) + ", " + std::to_string(decl.stride) +
                   ", " + std::to_string(decl.count);
        case Layout::DclResourceRaw:
            return name + " " + first_operand(instruction);
        case Layout::DclResourceStructured:
            return name + " " + first_operand(instruction) + ", " + std::to_string(decl.stride);
        case Layout::Operands:
        case Layout::InterfaceCall:
        case Layout::HsPhase:
            break;
    }
    return name;
}

std::string mnemonic(const Instruction& instruction) {
    const OpcodeInfo& info = instruction.info();
    std::string text(info.name);
    if (info.flags & opcode_flag::kTestBoolean) text += instruction.test_nonzero ? "_nz" : "_z";
    if (info.flags & opcode_flag::kSyncFlags) {
        if (instruction.sync_flags & token::kSyncUavMemoryGlobal) text += "_uglobal";
        if (instruction.sync_flags & token::kSyncUavMemoryGroup) text += "_ugroup";
        if (instruction.sync_flags & token::kSyncGroupSharedMemory) text += "_g";
        if (instruction.sync_flags & token::kSyncThreadsInGroup) text += "_t";
    }
    if (instruction.saturate) text += "_sat";
    if (instruction.has_texel_offsets) text += "_aoffimmi";
    if (instruction.has_resource_dimension || instruction.has_return_types) text += "_indexable";
    if (instruction.has_texel_offsets)
        text += "(" + std::to_string(instruction.texel_offsets[0]) + "," +
                std::to_string(instruction.texel_offsets[1]) + "," +
                std::to_string(instruction.texel_offsets[2]) + ")";
    if (instruction.has_resource_dimension) {
        text += "(" + std::string(resource_dimension_name(instruction.resource_dimension));
        if (instruction.resource_dimension == ResourceDimension::StructuredBuffer ||
            instruction.structure_stride)
            text += ", stride=" + std::to_string(instruction.structure_stride);
        text += ")";
    }
    if (instruction.has_return_types) text += return_types_text(instruction.return_types);
    if (info.flags & opcode_flag::kResinfoReturnType) {
        if (instruction.resinfo_return == ResinfoReturnType::RcpFloat) text += "_rcpFloat";
        if (instruction.resinfo_return == ResinfoReturnType::Uint) text += "_uint";
    }
    if ((info.flags & opcode_flag::kUintReturnType) && instruction.uint_return) text += "_uint";
    if (instruction.precise_mask) text += " [precise(" + mask_text(instruction.precise_mask) + ")]";
    return text;
}

std::string_view register_prefix_for(const Program& program, int which) {
    // which: 0 inputs, 1 outputs, 2 patch constants.
    if (which == 0) return "v";
    if (which == 1) return "o";
    return program.type == ProgramType::Domain ? "vpc" : "o";
}

}  // namespace

std::string format_operand(const Operand& operand, NumberKind numbers) {
    std::string text = register_text(operand, numbers);
    if (operand.component_count == 4 && operand.type != OperandType::Immediate32 &&
        operand.type != OperandType::Immediate64) {
        switch (operand.selection) {
            case ComponentSelection::Mask:
                if (operand.mask) text += "." + mask_text(operand.mask);
                break;
            case ComponentSelection::Swizzle:
                text += '.';
                for (const std::uint8_t component : operand.swizzle) text += kComponents[component];
                break;
            case ComponentSelection::Select1:
                text += '.';
                text += kComponents[operand.swizzle[0]];
                break;
        }
    }
    switch (operand.modifier) {
        case OperandModifier::None:
            break;
        case OperandModifier::Neg:
            text = "-" + text;
            break;
        case OperandModifier::Abs:
            text = "|" + text + "|";
            break;
        case OperandModifier::AbsNeg:
            text = "-|" + text + "|";
            break;
    }
    static constexpr std::string_view kPrecisions[8] = {
        "", "min16f", "min2_8f", "precision3", "min16i", "min16u", "precision6", "precision7"};
    if (operand.min_precision)
        text += " {" + std::string(kPrecisions[operand.min_precision & 7]) + "}";
    if (operand.non_uniform) text += " {nonuniform}";
    return text;
}

std::string disassemble_instruction(const Instruction& instruction) {
    const OpcodeInfo& info = instruction.info();
    if (info.is_declaration()) return declaration_text(instruction);
    std::string text = mnemonic(instruction);
    if (info.layout == Layout::InterfaceCall && !instruction.operands.empty())
        return text + " " + format_operand(instruction.operands[0], NumberKind::Integer) + "[" +
               std::to_string(instruction.function_index) + "]";
    if (!instruction.operands.empty()) text += " " + join_operands(instruction, info.numbers);
    if (!instruction.trailing_dwords.empty()) {
        text += "\n.dwords";
        for (const std::uint32_t word : instruction.trailing_dwords) text += " " + hex_word(word);
    }
    return text;
}

std::string format_signature_element(std::string_view directive, const SignatureElement& element,
                                     std::string_view register_prefix, bool is_output) {
    static constexpr const char* kTypes[] = {"unknown", "uint", "int", "float"};
    std::string text = std::string(directive) + " " + element.semantic_name +
                       std::to_string(element.semantic_index) + " ";
    if (element.register_index == 0xffffffffu)
        text += std::string(registerless_name(element.system_value));
    else
        text += std::string(register_prefix) + std::to_string(element.register_index);
    if (element.mask) text += "." + mask_text(element.mask);
    text += " ";
    text += kTypes[static_cast<int>(element.component_type) & 3];
    // The system value when the semantic does not imply it.
    const std::uint32_t implied = implied_system_value(element.semantic_name);
    if (element.system_value != implied) {
        const std::string_view system_value = signature_system_value_name(element.system_value);
        if (element.system_value == 0)
            text += " none";
        else
            text += " " + (system_value.empty() ? std::to_string(element.system_value)
                                                : std::string(system_value));
    }
    const std::uint8_t default_used = is_output ? 0 : element.mask;
    if (element.read_write_mask != default_used)
        text += " used " + (element.read_write_mask ? mask_text(element.read_write_mask)
                                                    : std::string("none"));
    if (element.stream) text += " stream " + std::to_string(element.stream);
    if (element.min_precision) text += " precision " + std::to_string(element.min_precision);
    return text;
}

std::string disassemble(const Program& program) {
    std::string text = std::string(program_type_prefix(program.type)) + "_" +
                       std::to_string(program.major_version) + "_" +
                       std::to_string(program.minor_version) + "\n";
    if (program.has_signatures) {
        const bool hull = program.type == ProgramType::Hull;
        for (const SignatureElement& element : program.input_signature)
            text += format_signature_element(".input", element, register_prefix_for(program, 0),
                                             false) +
                    "\n";
        for (const SignatureElement& element : program.output_signature)
            text += format_signature_element(".output", element, register_prefix_for(program, 1),
                                             true) +
                    "\n";
        for (const SignatureElement& element : program.patch_constant_signature)
            text += format_signature_element(".patch_constant", element,
                                             register_prefix_for(program, 2), hull) +
                    "\n";
    }
    int depth = 0;
    for (const Instruction& instruction : program.instructions) {
        switch (instruction.opcode) {
            case Opcode::Else:
            case Opcode::EndIf:
            case Opcode::EndLoop:
            case Opcode::EndSwitch:
                depth = depth > 0 ? depth - 1 : 0;
                break;
            case Opcode::HsDecls:
            case Opcode::HsControlPointPhase:
            case Opcode::HsForkPhase:
            case Opcode::HsJoinPhase:
                depth = 0;
                break;
            default:
                break;
        }
        const std::string line = disassemble_instruction(instruction);
        // Continuation lines (the immediate constant buffer) keep their own
        // alignment, shifted by the indentation.
        const std::string indent(2 * depth, ' ');
        text += indent;
        for (const char c : line) {
            text += c;
            if (c == '\n') text += indent;
        }
        text += '\n';
        switch (instruction.opcode) {
            case Opcode::If:
            case Opcode::Else:
            case Opcode::Loop:
            case Opcode::Switch:
                ++depth;
                break;
            default:
                break;
        }
    }
    return text;
}

}  // namespace d3dcap::runtime::shader
