#include "runtime/backend/vulkan/uav_slices.h"

#include <algorithm>
#include <cstring>

#include "runtime/shader/container.h"
#include "runtime/shader/decoder.h"

namespace d3dcap::runtime::backend::vulkan {
namespace {

using shader::Opcode;
using shader::OperandType;

// Operand tokens (the token format's bit fields): r#.xyzw as a destination
// (mask) and as a source (swizzle xyzw), a 4-component 32-bit immediate.
constexpr std::uint32_t kTempDestination = 2u | 0xfu << 4 | 1u << 20;
constexpr std::uint32_t kTempSource = 2u | 1u << 2 | 0xe4u << 4 | 1u << 20;
constexpr std::uint32_t kImmediateVector = 2u | 4u << 12;

std::uint32_t opcode_token(Opcode opcode, std::uint32_t length) {
    return static_cast<std::uint32_t>(opcode) | length << 24;
}

// Which operand of a UAV access holds the u# and which the coordinates, or
// false for instructions that access no typed UAV element.
bool uav_access(Opcode opcode, std::size_t& uav, std::size_t& coordinates) {
    switch (opcode) {
        case Opcode::LdUavTyped:
            uav = 2, coordinates = 1;
            return true;
        case Opcode::StoreUavTyped:
        case Opcode::AtomicAnd:
        case Opcode::AtomicOr:
        case Opcode::AtomicXor:
        case Opcode::AtomicCmpStore:
        case Opcode::AtomicIadd:
        case Opcode::AtomicImax:
        case Opcode::AtomicImin:
        case Opcode::AtomicUmax:
        case Opcode::AtomicUmin:
            uav = 0, coordinates = 1;
            return true;
        case Opcode::ImmAtomicIadd:
        case Opcode::ImmAtomicAnd:
        case Opcode::ImmAtomicOr:
        case Opcode::ImmAtomicXor:
        case Opcode::ImmAtomicExch:
        case Opcode::ImmAtomicCmpExch:
        case Opcode::ImmAtomicImax:
        case Opcode::ImmAtomicImin:
        case Opcode::ImmAtomicUmax:
        case Opcode::ImmAtomicUmin:
            uav = 1, coordinates = 2;
            return true;
        default:
            return false;
    }
}

}  // namespace

bool offset_uav_w_slices(std::vector<std::uint8_t>& container,
                         std::span<const std::pair<std::uint32_t, std::uint32_t>> first_slices,
                         std::string& error) {
    const auto program = shader::decode_container(container, error);
    if (!program) return false;
    const auto chunks = shader::read_container(container, error);
    if (!chunks) return false;
    const int type = shader::program_type(*chunks, error);
    if (type != 0 && type != 5) {
        error =
            "Texture3D UAVs of part of their W slices are run in pixel and compute shaders only";
        return false;
    }
    const shader::ContainerChunk* code = shader::code_chunk(*chunks);
    if (code == nullptr || code->data.size() < 8) {
        error = "has no SHDR or SHEX chunk";
        return false;
    }
    std::vector<std::uint32_t> words(code->data.size() / 4);
    std::memcpy(words.data(), code->data.data(), words.size() * 4);

    // A temp of the rewrite's own: one past the shader's.
    std::uint32_t temp = 0;
    std::size_t last_declaration = 0;  // the index of the instruction after it
    for (std::size_t i = 0; i < program->instructions.size(); ++i) {
        const shader::Instruction& instruction = program->instructions[i];
        if (instruction.opcode == Opcode::DclTemps &&
            instruction.byte_offset / 4 + 1 < words.size())
            temp = words[instruction.byte_offset / 4 + 1];
        if (instruction.info().is_declaration()) last_declaration = i + 1;
    }
    auto first_slice = [&](const shader::Operand& operand) -> std::uint32_t {
        if (operand.type != OperandType::UnorderedAccessView) return 0;
        for (const auto& [reg, first] : first_slices)
            if (reg == operand.register_index()) return first;
        return 0;
    };

    std::vector<std::uint32_t> out(words.begin(), words.begin() + 2);  // version, length
    bool temps_declared = false;
    for (std::size_t i = 0; i < program->instructions.size(); ++i) {
        const shader::Instruction& instruction = program->instructions[i];
        const std::size_t begin = instruction.byte_offset / 4;
        const std::size_t end = begin + instruction.token_count;
        if (end > words.size()) {
            error = "an instruction runs past the end of the code";
            return false;
        }
        if (i == last_declaration && !temps_declared && temp == 0) {
            out.insert(out.end(), {opcode_token(Opcode::DclTemps, 2), 1});
            temps_declared = true;
        }
        if (instruction.opcode == Opcode::DclTemps) {
            out.insert(out.end(), {words[begin], temp + 1});
            temps_declared = true;
            continue;
        }
        std::size_t uav = 0, coordinates = 0;
        std::uint32_t first = 0;
        if (uav_access(instruction.opcode, uav, coordinates) && uav < instruction.operands.size() &&
            coordinates + 1 < instruction.operands.size())
            first = first_slice(instruction.operands[uav]);
        if (first == 0) {
            out.insert(out.end(), words.begin() + begin, words.begin() + end);
            continue;
        }
        // iadd rT.xyzw, coordinates, l(0, 0, first, 0); then the access reads rT.
        const std::size_t from = instruction.operands[coordinates].byte_offset / 4;
        const std::size_t to = instruction.operands[coordinates + 1].byte_offset / 4;
        if (from <= begin || to < from || to > end) {
            error = "a UAV access's operands are malformed";
            return false;
        }
        const auto length = static_cast<std::uint32_t>(to - from);
        out.push_back(opcode_token(Opcode::Iadd, 1 + 2 + length + 5));
        out.insert(out.end(), {kTempDestination, temp});
        out.insert(out.end(), words.begin() + from, words.begin() + to);
        out.insert(out.end(), {kImmediateVector, 0, 0, first, 0});
        const auto rewritten = static_cast<std::uint32_t>(instruction.token_count - length + 2);
        out.push_back((words[begin] & ~(0x7fu << 24)) | rewritten << 24);
        out.insert(out.end(), words.begin() + begin + 1, words.begin() + from);
        out.insert(out.end(), {kTempSource, temp});
        out.insert(out.end(), words.begin() + to, words.begin() + end);
    }
    out[1] = static_cast<std::uint32_t>(out.size());

    std::vector<shader::ChunkToWrite> rebuilt;
    for (const shader::ContainerChunk& chunk : *chunks) {
        shader::ChunkToWrite copy{std::string_view(chunk.fourcc, 4), {}};
        if (&chunk == code) {
            copy.data.resize(out.size() * 4);
            std::memcpy(copy.data.data(), out.data(), copy.data.size());
        } else {
            copy.data.assign(chunk.data.begin(), chunk.data.end());
        }
        rebuilt.push_back(std::move(copy));
    }
    container = shader::write_container(rebuilt);
    return true;
}

}  // namespace d3dcap::runtime::backend::vulkan
