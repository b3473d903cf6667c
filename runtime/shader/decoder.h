// Decoding SM4/SM5 bytecode into a Program (program.h). The bytecode is
// untrusted: every read is bounds-checked, and truncated tokens, lengths past
// the end, unknown opcodes, operand types or enumeration values, and counts
// past the D3D11 limits are refused with a message naming the problem and its
// byte offset in the token stream, e.g.
//   "instruction at offset 0x48: opcode 250 is not an SM5 opcode".
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "runtime/shader/program.h"

namespace d3dcap::runtime::shader {

// The D3D11 limits declarations are held to.
namespace limits {
inline constexpr std::uint32_t kTemps = 4096;  // r# and all x# together
inline constexpr std::uint32_t kConstantBufferVectors = 4096;
inline constexpr std::uint32_t kConstantBufferSlots = 15;  // cb0..cb14 (cb14: the ICB slot)
inline constexpr std::uint32_t kResourceSlots = 128;
inline constexpr std::uint32_t kSamplerSlots = 16;
inline constexpr std::uint32_t kUavSlots = 64;
inline constexpr std::uint32_t kRegisters = 32;  // v#, o#, vpc#, control points
inline constexpr std::uint32_t kImmediateConstantBufferVectors = 4096;
inline constexpr std::uint32_t kGroupSharedBytes = 32768;
inline constexpr std::uint32_t kStructureStride = 2048;
inline constexpr std::uint32_t kMaxOutputVertices = 1024;
inline constexpr std::uint32_t kGsInstances = 32;
inline constexpr std::uint32_t kStreams = 4;
inline constexpr std::uint32_t kControlPoints = 32;
inline constexpr std::uint32_t kPhaseInstances = 128;
inline constexpr std::uint32_t kThreadsPerGroup = 1024;  // and x, y <= 1024, z <= 64
inline constexpr std::uint32_t kRelativeDepth = 4;       // nesting of relative indices
}  // namespace limits

// The token stream of a SHDR/SHEX chunk (the chunk's data, from its version
// token on). Offsets in errors count from the version token.
std::optional<Program> decode(std::span<const std::uint8_t> tokens, std::string& error);

// A whole DXBC container: its SHEX (or SHDR) chunk and its signatures
// (ISGN/ISG1, OSGN/OSG5/OSG1, PCSG/PSG1). The checksum is not checked
// (dxbc_checksum_matches does that).
std::optional<Program> decode_container(std::span<const std::uint8_t> container,
                                        std::string& error);

}  // namespace d3dcap::runtime::shader
