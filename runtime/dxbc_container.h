// The DXBC container around shader bytecode: its chunks, the program type of
// its SHDR/SHEX chunk, and the system values of its output signature. Every
// read is bounds-checked: bytecode is untrusted input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace d3dcap::runtime::dxbc {

struct Chunk {
    char fourcc[5] = {};
    std::span<const std::uint8_t> data;  // after the 8-byte chunk header
};

struct Container {
    std::vector<Chunk> chunks;
    const Chunk* find(const char* fourcc) const;
};

// The container's chunks, or nothing with the problem in `problem`.
std::optional<Container> read_container(const void* bytecode, std::size_t length,
                                        std::string& problem);

// The program type of the SHDR/SHEX chunk (0 pixel, 1 vertex, 2 geometry,
// 3 hull, 4 domain, 5 compute), or -1 with the problem.
int program_type(const Container& container, std::string& problem);

// One element of a signature chunk (ISGN/OSGN, OSG5, ISG1/OSG1).
struct SignatureElement {
    std::string semantic;
    std::uint32_t semantic_index = 0;
    std::uint32_t system_value = 0;  // D3D_NAME
    std::uint32_t reg = 0;
    std::uint32_t stream = 0;
};

// The output signature's elements (OSGN, OSG5 or OSG1); empty when there is
// none. False with the problem when the chunk is malformed.
bool output_signature(const Container& container, std::vector<SignatureElement>& elements,
                      std::string& problem);

}  // namespace d3dcap::runtime::dxbc
