#include "runtime/dxbc_container.h"

#include <cstring>

namespace d3dcap::runtime::dxbc {

namespace {

std::uint32_t u32(std::span<const std::uint8_t> bytes, std::size_t offset) {
    std::uint32_t value;
    std::memcpy(&value, bytes.data() + offset, 4);
    return value;
}

}  // namespace

const Chunk* Container::find(const char* fourcc) const {
    for (const Chunk& chunk : chunks)
        if (std::memcmp(chunk.fourcc, fourcc, 4) == 0) return &chunk;
    return nullptr;
}

std::optional<Container> read_container(const void* bytecode, std::size_t length,
                                        std::string& problem) {
    const std::span bytes(static_cast<const std::uint8_t*>(bytecode), bytecode ? length : 0);
    if (bytes.size() < 32 || std::memcmp(bytes.data(), "DXBC", 4) != 0) {
        problem = "is not a DXBC container (no \"DXBC\" header)";
        return std::nullopt;
    }
    const std::uint32_t total = u32(bytes, 24), count = u32(bytes, 28);
    if (total > bytes.size() || 32 + std::uint64_t{count} * 4 > total) {
        problem = "says it holds " + std::to_string(total) + " bytes in " + std::to_string(count) +
                  " chunks but BytecodeLength is " + std::to_string(bytes.size());
        return std::nullopt;
    }
    Container container;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint32_t offset = u32(bytes, 32 + std::size_t{i} * 4);
        if (std::uint64_t{offset} + 8 > total ||
            std::uint64_t{offset} + 8 + u32(bytes, offset + 4) > total) {
            problem = "chunk " + std::to_string(i) + " at offset " + std::to_string(offset) +
                      " runs past the container's " + std::to_string(total) + " bytes";
            return std::nullopt;
        }
        Chunk chunk;
        std::memcpy(chunk.fourcc, bytes.data() + offset, 4);
        chunk.data = bytes.subspan(offset + 8, u32(bytes, offset + 4));
        container.chunks.push_back(chunk);
    }
    return container;
}

int program_type(const Container& container, std::string& problem) {
    const Chunk* code = container.find("SHEX");
    if (code == nullptr) code = container.find("SHDR");
    if (code == nullptr || code->data.size() < 8) {
        problem = code ? "has a SHDR/SHEX chunk too short for its version token"
                       : "has no SHDR or SHEX chunk";
        return -1;
    }
    return static_cast<int>(u32(code->data, 0) >> 16);
}

bool output_signature(const Container& container, std::vector<SignatureElement>& elements,
                      std::string& problem) {
    elements.clear();
    // Element sizes: OSGN 24 bytes; OSG5 adds a leading stream; OSG1 adds
    // the stream and a trailing minimum precision.
    std::size_t element_bytes = 24, stream = 0;
    const Chunk* chunk = container.find("OSGN");
    if (chunk == nullptr && (chunk = container.find("OSG5")) != nullptr) element_bytes = 28;
    if (chunk == nullptr && (chunk = container.find("OSG1")) != nullptr) element_bytes = 32;
    if (chunk == nullptr) return true;
    if (element_bytes != 24) stream = 4;
    const auto data = chunk->data;
    const std::string name(chunk->fourcc);
    if (data.size() < 8) {
        problem = "its " + name + " chunk is too short for a signature header";
        return false;
    }
    const std::uint32_t count = u32(data, 0), first = u32(data, 4);
    if (std::uint64_t{first} + std::uint64_t{count} * element_bytes > data.size()) {
        problem = "its " + name + " chunk has " + std::to_string(count) +
                  " elements that run past its " + std::to_string(data.size()) + " bytes";
        return false;
    }
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::size_t at = first + std::size_t{i} * element_bytes;
        SignatureElement element;
        element.stream = stream ? u32(data, at) : 0;
        const std::uint32_t name_offset = u32(data, at + stream);
        element.semantic_index = u32(data, at + stream + 4);
        element.system_value = u32(data, at + stream + 8);
        element.reg = u32(data, at + stream + 16);
        if (name_offset >= data.size()) {
            problem = "its " + name + " element " + std::to_string(i) +
                      " names a semantic outside the chunk";
            return false;
        }
        const auto* text = reinterpret_cast<const char*>(data.data() + name_offset);
        element.semantic.assign(text, strnlen(text, data.size() - name_offset));
        elements.push_back(std::move(element));
    }
    return true;
}

}  // namespace d3dcap::runtime::dxbc
