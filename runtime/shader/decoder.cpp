#include "runtime/shader/decoder.h"

#include <cstdio>
#include <cstring>

#include "runtime/shader/container.h"
#include "runtime/shader/summary.h"

namespace d3dcap::runtime::shader {

namespace {

// Thrown inside the decoder, caught at the API boundary.
struct DecodeError {
    std::string message;
};

[[noreturn]] void fail(std::string message) {
    throw DecodeError{std::move(message)};
}

std::string hex(std::uint32_t value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%x", value);
    return text;
}

// The token stream, read DWORD by DWORD within an end that each
// instruction narrows to itself.
class TokenReader {
  public:
    explicit TokenReader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

    std::size_t size() const { return bytes_.size() / 4; }
    std::uint32_t at(std::size_t index) const {
        std::uint32_t value;
        std::memcpy(&value, bytes_.data() + index * 4, 4);
        return value;
    }

  private:
    std::span<const std::uint8_t> bytes_;
};

class InstructionDecoder {
  public:
    InstructionDecoder(const TokenReader& reader, std::size_t begin, std::size_t end)
        : reader_(reader), position_(begin), end_(end) {}

    std::size_t position() const { return position_; }
    std::size_t left() const { return end_ - position_; }

    // The next DWORD of the instruction; `what` names it in the error.
    std::uint32_t dword(const char* what) {
        if (position_ >= end_) fail(std::string("the instruction ends before its ") + what);
        return reader_.at(position_++);
    }

    Operand operand(std::uint32_t depth = 0) {
        if (position_ >= end_) fail("the instruction ends before operand " + operand_name());
        Operand operand;
        operand.byte_offset = static_cast<std::uint32_t>(position_ * 4);
        const std::uint32_t token = reader_.at(position_++);
        const std::uint32_t components = token & 3;
        if (components == 3) fail("operand " + operand_name() + " has N components (undefined)");
        operand.component_count = components == 2 ? 4 : static_cast<std::uint8_t>(components);
        const std::uint32_t type = (token >> 12) & 0xff;
        if (type >= kOperandTypeCount)
            fail("operand " + operand_name() + " has type " + std::to_string(type) +
                 ", not an SM5 operand type");
        operand.type = static_cast<OperandType>(type);
        const bool immediate =
            operand.type == OperandType::Immediate32 || operand.type == OperandType::Immediate64;
        if (operand.component_count == 4 && !immediate) {
            const std::uint32_t mode = (token >> 2) & 3;
            if (mode == 3)
                fail("operand " + operand_name() + " has component selection mode 3 (undefined)");
            operand.selection = static_cast<ComponentSelection>(mode);
            if (operand.selection == ComponentSelection::Mask) {
                operand.mask = static_cast<std::uint8_t>((token >> 4) & 0xf);
            } else if (operand.selection == ComponentSelection::Swizzle) {
                for (int i = 0; i < 4; ++i)
                    operand.swizzle[i] = static_cast<std::uint8_t>((token >> (4 + 2 * i)) & 3);
            } else {
                const auto component = static_cast<std::uint8_t>((token >> 4) & 3);
                operand.swizzle = {component, component, component, component};
            }
        }
        operand.index_dimension = static_cast<std::uint8_t>((token >> 20) & 3);
        if (immediate && operand.index_dimension)
            fail("immediate operand " + operand_name() + " has indices");
        for (std::uint32_t i = 0; i < operand.index_dimension; ++i) {
            const std::uint32_t representation = (token >> (22 + 3 * i)) & 7;
            if (representation > 4)
                fail("operand " + operand_name() + " index " + std::to_string(i) +
                     " has representation " + std::to_string(representation) + " (undefined)");
            operand.indices[i].representation = static_cast<IndexRepresentation>(representation);
        }
        // Extended operand tokens, chained by bit 31.
        for (bool extended = token >> 31; extended;) {
            const std::uint32_t ext = dword("extended operand token");
            extended = ext >> 31;
            const std::uint32_t ext_type = ext & 0x3f;
            if (ext_type == static_cast<std::uint32_t>(ExtendedOperandType::Modifier)) {
                const std::uint32_t modifier = (ext >> 6) & 0xff;
                if (modifier > 3)
                    fail("operand " + operand_name() + " has modifier " + std::to_string(modifier) +
                         " (undefined)");
                operand.modifier = static_cast<OperandModifier>(modifier);
                operand.min_precision = static_cast<std::uint8_t>((ext >> 14) & 7);
                operand.non_uniform = (ext >> 17) & 1;
            } else if (ext_type != static_cast<std::uint32_t>(ExtendedOperandType::Empty)) {
                fail("operand " + operand_name() + " has extended operand type " +
                     std::to_string(ext_type) + " (undefined)");
            }
        }
        if (immediate) {
            std::uint32_t count = operand.component_count;
            if (operand.type == OperandType::Immediate64) count = count == 1 ? 2 : count;
            if (count == 0) fail("immediate operand " + operand_name() + " has no components");
            for (std::uint32_t i = 0; i < count; ++i) operand.values[i] = dword("immediate value");
            operand.value_count = static_cast<std::uint8_t>(count);
        }
        for (std::uint32_t i = 0; i < operand.index_dimension; ++i) {
            OperandIndex& index = operand.indices[i];
            switch (index.representation) {
                case IndexRepresentation::Immediate32:
                case IndexRepresentation::Immediate32PlusRelative:
                    index.value = dword("operand index");
                    break;
                case IndexRepresentation::Immediate64:
                case IndexRepresentation::Immediate64PlusRelative: {
                    const std::uint64_t high = dword("operand index");
                    index.value = high << 32 | dword("operand index");
                    break;
                }
                case IndexRepresentation::Relative:
                    break;
            }
            if (index.representation == IndexRepresentation::Relative ||
                index.representation == IndexRepresentation::Immediate32PlusRelative ||
                index.representation == IndexRepresentation::Immediate64PlusRelative) {
                if (depth + 1 >= limits::kRelativeDepth)
                    fail("operand " + operand_name() + " nests relative indices too deep");
                index.relative.push_back(this->operand(depth + 1));
            }
        }
        return operand;
    }

    void next_operand() { ++operand_number_; }

  private:
    std::string operand_name() const { return std::to_string(operand_number_ + 1); }

    const TokenReader& reader_;
    std::size_t position_, end_;
    std::uint32_t operand_number_ = 0;
};

template <typename Enum>
Enum checked_enum(std::uint32_t value, bool valid, const char* what) {
    if (!valid) fail(std::string(what) + " " + std::to_string(value) + " is not defined");
    return static_cast<Enum>(value);
}

std::array<ReturnType, 4> return_types_of(std::uint32_t token, std::uint32_t shift) {
    std::array<ReturnType, 4> types{};
    for (int i = 0; i < 4; ++i) {
        const std::uint32_t value = (token >> (shift + 4 * i)) & 0xf;
        types[i] = checked_enum<ReturnType>(value, value <= 9, "resource return type");
    }
    return types;
}

bool valid_topology(std::uint32_t value) {
    return (value >= 1 && value <= 5) || (value >= 10 && value <= 13);
}
bool valid_primitive(std::uint32_t value) {
    return (value >= 1 && value <= 3) || (value >= 6 && value <= 39);
}

// Reads what follows the opcode token of a declaration.
void decode_declaration(InstructionDecoder& in, std::uint32_t token, Instruction& instruction) {
    Declaration& decl = instruction.declaration;
    const std::uint32_t field = (token >> 11);  // bits 11 and up
    auto operand = [&] {
        instruction.operands.push_back(in.operand());
        in.next_operand();
    };
    switch (instruction.info().layout) {
        case Layout::DclResource:
            decl.dimension = checked_enum<ResourceDimension>(
                field & 0x1f, (field & 0x1f) >= 1 && (field & 0x1f) <= 10, "resource dimension");
            decl.sample_count = (token >> 16) & 0x7f;
            operand();
            decl.return_types = return_types_of(in.dword("return type token"), 0);
            break;
        case Layout::DclConstantBuffer:
            decl.dynamically_indexed = field & 1;
            operand();
            break;
        case Layout::DclSampler:
            decl.sampler_mode =
                checked_enum<SamplerMode>(field & 0xf, (field & 0xf) <= 2, "sampler mode");
            operand();
            break;
        case Layout::DclIndexRange:
            operand();
            decl.count = in.dword("register count");
            break;
        case Layout::DclGsOutputTopology:
            decl.output_topology = checked_enum<PrimitiveTopology>(
                field & 0x3f, valid_topology(field & 0x3f), "output topology");
            break;
        case Layout::DclGsInputPrimitive:
            decl.input_primitive = checked_enum<Primitive>(
                field & 0x3f, valid_primitive(field & 0x3f), "input primitive");
            break;
        case Layout::DclCount:
            decl.count = in.dword("count");
            break;
        case Layout::DclRegister:
            operand();
            break;
        case Layout::DclRegisterName:
        case Layout::DclInputPsName:
        case Layout::DclInputPs:
            if (instruction.info().layout != Layout::DclRegisterName)
                decl.interpolation = checked_enum<InterpolationMode>(
                    field & 0xf, (field & 0xf) <= 7, "interpolation mode");
            operand();
            if (instruction.info().layout != Layout::DclInputPs) {
                const std::uint32_t name = in.dword("system value name") & 0xffff;
                decl.system_name = checked_enum<SystemName>(name, name <= 22, "system value");
            }
            break;
        case Layout::DclIndexableTemp:
            decl.id = in.dword("register");
            decl.register_count = in.dword("register count");
            decl.components = in.dword("component count");
            if (decl.components < 1 || decl.components > 4)
                fail("declares " + std::to_string(decl.components) + " components (1 to 4)");
            break;
        case Layout::DclGlobalFlags:
            decl.global_flags = token & token::kControlsMask;
            break;
        case Layout::DclFunctionBody:
            decl.id = in.dword("function body number");
            break;
        case Layout::DclFunctionTable: {
            decl.id = in.dword("function table number");
            const std::uint32_t length = in.dword("table length");
            if (length > in.left())
                fail("lists " + std::to_string(length) +
                     " function bodies but the instruction holds " + std::to_string(in.left()));
            for (std::uint32_t i = 0; i < length; ++i) decl.data.push_back(in.dword("body"));
            break;
        }
        case Layout::DclInterface: {
            decl.dynamically_indexed = field & 1;
            decl.id = in.dword("interface number");
            decl.table_size = in.dword("function table size");
            const std::uint32_t lengths = in.dword("table and array lengths");
            decl.array_length = lengths >> 16;
            const std::uint32_t length = lengths & 0xffff;
            if (length > in.left())
                fail("lists " + std::to_string(length) +
                     " function tables but the instruction holds " + std::to_string(in.left()));
            for (std::uint32_t i = 0; i < length; ++i) decl.data.push_back(in.dword("table"));
            break;
        }
        case Layout::DclControlPointCount:
            decl.count = field & 0x3f;
            break;
        case Layout::DclTessDomain:
            decl.tess_domain =
                checked_enum<TessDomain>(field & 3, (field & 3) != 0, "tessellator domain");
            break;
        case Layout::DclTessPartitioning:
            decl.tess_partitioning = checked_enum<TessPartitioning>(
                field & 7, (field & 7) >= 1 && (field & 7) <= 4, "tessellator partitioning");
            break;
        case Layout::DclTessOutputPrimitive:
            decl.tess_output_primitive = checked_enum<TessOutputPrimitive>(
                field & 7, (field & 7) >= 1 && (field & 7) <= 4, "tessellator output primitive");
            break;
        case Layout::DclHsMaxTessFactor:
            decl.max_tess_factor_bits = in.dword("maximum tessellation factor");
            break;
        case Layout::DclThreadGroup:
            for (std::uint32_t& size : decl.thread_group) size = in.dword("thread group size");
            break;
        case Layout::DclUavTyped:
            decl.dimension = checked_enum<ResourceDimension>(
                field & 0x1f, (field & 0x1f) >= 1 && (field & 0x1f) <= 10, "resource dimension");
            decl.uav_flags = token & (token::kUavGloballyCoherent | token::kUavRasterizerOrdered);
            operand();
            decl.return_types = return_types_of(in.dword("return type token"), 0);
            break;
        case Layout::DclUavRaw:
            decl.uav_flags = token & (token::kUavGloballyCoherent | token::kUavRasterizerOrdered);
            operand();
            break;
        case Layout::DclUavStructured:
            decl.uav_flags = token & (token::kUavGloballyCoherent | token::kUavRasterizerOrdered |
                                      token::kUavHasCounter);
            operand();
            decl.stride = in.dword("structure stride");
            break;
        case Layout::DclTgsmRaw:
            operand();
            decl.count = in.dword("byte count");
            break;
        case Layout::DclTgsmStructured:
            operand();
            decl.stride = in.dword("structure stride");
            decl.count = in.dword("structure count");
            break;
        case Layout::DclResourceRaw:
            operand();
            break;
        case Layout::DclResourceStructured:
            operand();
            decl.stride = in.dword("structure stride");
            break;
        case Layout::Operands:
        case Layout::InterfaceCall:
        case Layout::CustomData:
        case Layout::HsPhase:
            break;
    }
}

// Decodes the instruction at `begin`; returns the index of the next one.
std::size_t decode_instruction(const TokenReader& reader, std::size_t begin, std::size_t end,
                               Instruction& instruction) {
    const std::uint32_t token = reader.at(begin);
    const std::uint32_t number = token & token::kOpcodeMask;
    instruction.byte_offset = static_cast<std::uint32_t>(begin * 4);
    instruction.controls = token & token::kControlsMask;
    const std::size_t left = end - begin;

    if (number == static_cast<std::uint32_t>(Opcode::CustomData)) {
        instruction.opcode = Opcode::CustomData;
        if (left < 2) fail("customdata: the program ends before the block's length");
        const std::uint32_t length = reader.at(begin + 1);
        if (length < 2)
            fail("customdata: block length " + std::to_string(length) + " (at least 2)");
        if (length > left)
            fail("customdata: the block's " + std::to_string(length) +
                 " DWORDs run past the end of the program (" + std::to_string(left) + " left)");
        Declaration& decl = instruction.declaration;
        decl.custom_data_class = token >> 11;
        for (std::size_t i = begin + 2; i < begin + length; ++i) decl.data.push_back(reader.at(i));
        if (decl.custom_data_class == token::kCustomDataImmediateConstantBuffer) {
            if (decl.data.size() % 4)
                fail("dcl_immediateConstantBuffer holds " + std::to_string(decl.data.size()) +
                     " DWORDs, not whole vec4s");
            if (decl.data.size() / 4 > limits::kImmediateConstantBufferVectors)
                fail("dcl_immediateConstantBuffer holds " + std::to_string(decl.data.size() / 4) +
                     " vectors (at most " +
                     std::to_string(limits::kImmediateConstantBufferVectors) + ")");
        }
        instruction.token_count = length;
        return begin + length;
    }

    const OpcodeInfo* info = opcode_info(number);
    if (info == nullptr) fail("opcode " + std::to_string(number) + " is not an SM5 opcode");
    instruction.opcode = info->opcode;
    const std::string name(info->name);
    std::uint32_t length = (token & token::kLengthMask) >> token::kLengthShift;
    bool extended = token & token::kExtended;
    std::size_t position = begin + 1;
    // Function tables and interfaces may be too long for the length field:
    // their extended bit says the next DWORD holds the length.
    if (extended &&
        (info->opcode == Opcode::DclFunctionTable || info->opcode == Opcode::DclInterface)) {
        if (left < 2) fail(name + ": the program ends before its length DWORD");
        length = reader.at(position++);
        extended = false;
    }
    if (length == 0) fail(name + ": length 0");
    if (length > left)
        fail(name + ": its length of " + std::to_string(length) +
             " DWORDs runs past the end of the program (" + std::to_string(left) + " left)");
    if (position > begin + length)
        fail(name + ": length " + std::to_string(length) + " is too short");
    instruction.token_count = length;
    InstructionDecoder in(reader, position, begin + length);

    // Extended opcode tokens, chained by bit 31.
    while (extended) {
        const std::uint32_t ext = in.dword("extended opcode token");
        extended = ext >> 31;
        switch (ext & 0x3f) {
            case static_cast<std::uint32_t>(ExtendedOpcodeType::Empty):
                break;
            case static_cast<std::uint32_t>(ExtendedOpcodeType::SampleControls):
                instruction.has_texel_offsets = true;
                for (int i = 0; i < 3; ++i) {
                    const auto nibble = static_cast<std::int8_t>((ext >> (9 + 4 * i)) & 0xf);
                    instruction.texel_offsets[i] =
                        static_cast<std::int8_t>(nibble >= 8 ? nibble - 16 : nibble);
                }
                break;
            case static_cast<std::uint32_t>(ExtendedOpcodeType::ResourceDim): {
                const std::uint32_t dimension = (ext >> 6) & 0x1f;
                instruction.has_resource_dimension = true;
                instruction.resource_dimension = checked_enum<ResourceDimension>(
                    dimension, dimension <= 12, "extended resource dimension");
                instruction.structure_stride = (ext >> 11) & 0xfff;
                break;
            }
            case static_cast<std::uint32_t>(ExtendedOpcodeType::ResourceReturnType):
                instruction.has_return_types = true;
                instruction.return_types = return_types_of(ext, 6);
                break;
            default:
                fail(name + ": extended opcode token type " + std::to_string(ext & 0x3f) +
                     " is not defined");
        }
    }

    try {
        if (info->is_declaration()) {
            decode_declaration(in, token, instruction);
        } else {
            // Control bits of instructions.
            const std::uint16_t flags = info->flags;
            if (flags & opcode_flag::kSyncFlags) {
                instruction.sync_flags = token & 0x7800;
            } else {
                instruction.saturate = token & token::kSaturate;
                instruction.precise_mask = static_cast<std::uint8_t>(
                    (token & token::kPreciseMask) >> token::kPreciseShift);
            }
            if (flags & opcode_flag::kTestBoolean)
                instruction.test_nonzero = token & token::kTestNonzero;
            const std::uint32_t return_type =
                (token & token::kReturnTypeMask) >> token::kReturnTypeShift;
            if (flags & opcode_flag::kResinfoReturnType)
                instruction.resinfo_return = checked_enum<ResinfoReturnType>(
                    return_type, return_type <= 2, "resinfo return type");
            if (flags & opcode_flag::kUintReturnType) instruction.uint_return = return_type & 1;
            if (info->layout == Layout::InterfaceCall)
                instruction.function_index = in.dword("function index");
            if (info->layout != Layout::HsPhase) {
                const std::uint32_t expected = info->operand_count();
                while (in.left() && instruction.operands.size() < expected) {
                    instruction.operands.push_back(in.operand());
                    in.next_operand();
                }
                if (instruction.operands.size() != expected)
                    fail("takes " + std::to_string(expected) + " operands but has " +
                         std::to_string(instruction.operands.size()));
            }
            // The runtime reads an instruction's operands and moves on by its
            // length, so DWORDs past them are kept, not refused: Microsoft's
            // assembler writes one after samplepos.
            while (in.left()) instruction.trailing_dwords.push_back(in.dword("trailing DWORD"));
        }
        if (in.left()) fail(std::to_string(in.left()) + " DWORDs are left after the last operand");
    } catch (DecodeError& error) {
        throw DecodeError{name + ": " + error.message};
    }
    return begin + length;
}

}  // namespace

std::optional<Program> decode(std::span<const std::uint8_t> tokens, std::string& error) {
    if (tokens.size() < 8) {
        error = "the token stream has " + std::to_string(tokens.size()) +
                " bytes, too few for its version and length tokens";
        return std::nullopt;
    }
    if (tokens.size() % 4) {
        error = "the token stream has " + std::to_string(tokens.size()) +
                " bytes, not a whole number of DWORDs";
        return std::nullopt;
    }
    const TokenReader reader(tokens);
    const std::uint32_t version = reader.at(0), length = reader.at(1);
    Program program;
    const std::uint32_t type = version >> 16;
    if (type > static_cast<std::uint32_t>(ProgramType::Compute)) {
        error = "program type " + std::to_string(type) + " is not a D3D11 shader type";
        return std::nullopt;
    }
    program.type = static_cast<ProgramType>(type);
    program.major_version = (version >> 4) & 0xf;
    program.minor_version = version & 0xf;
    if (program.major_version < 4 || program.major_version > 5 ||
        (program.major_version == 5 && program.minor_version > 0) || program.minor_version > 1) {
        error = "shader model " + std::to_string(program.major_version) + "." +
                std::to_string(program.minor_version) + " is not 4.0, 4.1 or 5.0";
        return std::nullopt;
    }
    if (length < 2 || length > reader.size()) {
        error = "the length token says " + std::to_string(length) +
                " DWORDs but the stream holds " + std::to_string(reader.size());
        return std::nullopt;
    }
    for (std::size_t at = 2; at < length;) {
        Instruction instruction;
        try {
            at = decode_instruction(reader, at, length, instruction);
        } catch (const DecodeError& problem) {
            error = "instruction at offset " + hex(static_cast<std::uint32_t>(at * 4)) + ": " +
                    problem.message;
            return std::nullopt;
        }
        program.instructions.push_back(std::move(instruction));
    }
    if (!summarize(program, error)) return std::nullopt;
    return program;
}

std::optional<Program> decode_container(std::span<const std::uint8_t> container,
                                        std::string& error) {
    const auto chunks = read_container(container, error);
    if (!chunks) return std::nullopt;
    const ContainerChunk* code = code_chunk(*chunks);
    if (code == nullptr) {
        error = "the container has no SHDR or SHEX chunk";
        return std::nullopt;
    }
    std::optional<Program> program = decode(code->data, error);
    if (!program) {
        error = std::string(code->fourcc, 4) + " chunk: " + error;
        return std::nullopt;
    }
    program->has_signatures = true;
    struct Wanted {
        std::initializer_list<const char*> names;
        std::vector<SignatureElement>* elements;
    };
    const Wanted wanted[] = {{{"ISGN", "ISG1"}, &program->input_signature},
                             {{"OSGN", "OSG5", "OSG1"}, &program->output_signature},
                             {{"PCSG", "PSG1"}, &program->patch_constant_signature}};
    for (const Wanted& signature : wanted) {
        for (const char* name : signature.names) {
            const ContainerChunk* chunk = find_chunk(*chunks, name);
            if (chunk == nullptr) continue;
            if (!read_signature(*chunk, *signature.elements, error)) return std::nullopt;
            if (chunk->is("OSG5")) program->output_signature_has_streams = true;
            break;
        }
    }
    return program;
}

}  // namespace d3dcap::runtime::shader
