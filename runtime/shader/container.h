// The DXBC container: reading its chunk table and its signature chunks
// (bounds-checked: the bytes are untrusted) and writing a container with its
// checksum.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/shader/program.h"

namespace d3dcap::runtime::shader {

struct ContainerChunk {
    char fourcc[4] = {};
    std::uint32_t offset = 0;            // of the chunk header in the container
    std::span<const std::uint8_t> data;  // after the 8-byte chunk header

    bool is(std::string_view name) const;
};

// The chunks of a container, or nothing with the problem in `error`. The
// checksum is not checked here (dxbc_checksum_matches does that).
std::optional<std::vector<ContainerChunk>> read_container(std::span<const std::uint8_t> container,
                                                          std::string& error);
const ContainerChunk* find_chunk(std::span<const ContainerChunk> chunks, std::string_view fourcc);
// The token stream's chunk: SHEX (shader model 5), else SHDR; null when neither.
const ContainerChunk* code_chunk(std::span<const ContainerChunk> chunks);

// The elements of a signature chunk: ISGN/OSGN/PCSG (24-byte elements), OSG5
// (28, a stream first), ISG1/OSG1/PSG1 (32, a stream first and a minimum
// precision last). False with the problem in `error`.
bool read_signature(const ContainerChunk& chunk, std::vector<SignatureElement>& elements,
                    std::string& error);

// The program type of the SHDR/SHEX chunk (0 pixel, 1 vertex, 2 geometry,
// 3 hull, 4 domain, 5 compute), or -1 with the problem in `error`.
int program_type(std::span<const ContainerChunk> chunks, std::string& error);

// The output signature (OSGN, OSG5 or OSG1); empty when there is none. False
// with the problem when the chunk is malformed.
bool output_signature(std::span<const ContainerChunk> chunks,
                      std::vector<SignatureElement>& elements, std::string& error);

// A signature chunk's bytes: 24-byte elements, or OSG5's 28-byte ones.
std::vector<std::uint8_t> write_signature(std::span<const SignatureElement> elements,
                                          bool with_streams);

struct ChunkToWrite {
    std::string_view fourcc;  // four characters
    std::vector<std::uint8_t> data;
};
// A container holding `chunks` in order, its checksum written.
std::vector<std::uint8_t> write_container(std::span<const ChunkToWrite> chunks);

}  // namespace d3dcap::runtime::shader
