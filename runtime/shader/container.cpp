#include "runtime/shader/container.h"

#include <cstring>

#include "runtime/shader/dxbc_checksum.h"

namespace d3dcap::runtime::shader {

namespace {

std::uint32_t load_u32(std::span<const std::uint8_t> bytes, std::size_t offset) {
    std::uint32_t value;
    std::memcpy(&value, bytes.data() + offset, 4);
    return value;
}

void append_u32(std::vector<std::uint8_t>& bytes, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
}

void store_u32(std::vector<std::uint8_t>& bytes, std::size_t offset, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) bytes[offset + i] = static_cast<std::uint8_t>(value >> (8 * i));
}

std::string fourcc_text(const char (&fourcc)[4]) {
    std::string text;
    for (const char c : fourcc) text += (c >= 0x20 && c < 0x7f) ? c : '?';
    return text;
}

}  // namespace

bool ContainerChunk::is(std::string_view name) const {
    return name.size() == 4 && std::memcmp(fourcc, name.data(), 4) == 0;
}

std::optional<std::vector<ContainerChunk>> read_container(std::span<const std::uint8_t> container,
                                                          std::string& error) {
    if (container.size() < 32 || std::memcmp(container.data(), "DXBC", 4) != 0) {
        error = "not a DXBC container (no \"DXBC\" header)";
        return std::nullopt;
    }
    const std::uint32_t total = load_u32(container, 24), count = load_u32(container, 28);
    if (total > container.size() || total < 32) {
        error = "the container says it holds " + std::to_string(total) + " bytes but " +
                std::to_string(container.size()) + " were given";
        return std::nullopt;
    }
    if (32 + std::uint64_t{count} * 4 > total) {
        error = "the container's " + std::to_string(count) + " chunk offsets run past its " +
                std::to_string(total) + " bytes";
        return std::nullopt;
    }
    std::vector<ContainerChunk> chunks;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint32_t offset = load_u32(container, 32 + std::size_t{i} * 4);
        if (std::uint64_t{offset} + 8 > total ||
            std::uint64_t{offset} + 8 + load_u32(container, offset + 4) > total) {
            error = "chunk " + std::to_string(i) + " at offset " + std::to_string(offset) +
                    " runs past the container's " + std::to_string(total) + " bytes";
            return std::nullopt;
        }
        ContainerChunk chunk;
        std::memcpy(chunk.fourcc, container.data() + offset, 4);
        chunk.offset = offset;
        chunk.data = container.subspan(offset + 8, load_u32(container, offset + 4));
        chunks.push_back(chunk);
    }
    return chunks;
}

const ContainerChunk* find_chunk(std::span<const ContainerChunk> chunks, std::string_view fourcc) {
    for (const ContainerChunk& chunk : chunks)
        if (chunk.is(fourcc)) return &chunk;
    return nullptr;
}

bool read_signature(const ContainerChunk& chunk, std::vector<SignatureElement>& elements,
                    std::string& error) {
    elements.clear();
    const std::string name = fourcc_text(chunk.fourcc);
    std::size_t element_bytes = 24;
    bool leading_stream = false, trailing_precision = false;
    if (chunk.is("OSG5")) {
        element_bytes = 28;
        leading_stream = true;
    } else if (chunk.is("ISG1") || chunk.is("OSG1") || chunk.is("PSG1")) {
        element_bytes = 32;
        leading_stream = trailing_precision = true;
    }
    const std::span data = chunk.data;
    if (data.size() < 8) {
        error = name + " chunk: " + std::to_string(data.size()) +
                " bytes, too short for a signature header";
        return false;
    }
    const std::uint32_t count = load_u32(data, 0), first = load_u32(data, 4);
    if (first > data.size() || (data.size() - first) / element_bytes < count) {
        error = name + " chunk: " + std::to_string(count) + " elements of " +
                std::to_string(element_bytes) + " bytes from offset " + std::to_string(first) +
                " run past its " + std::to_string(data.size()) + " bytes";
        return false;
    }
    for (std::uint32_t i = 0; i < count; ++i) {
        std::size_t at = first + i * element_bytes;
        SignatureElement element;
        if (leading_stream) {
            element.stream = load_u32(data, at);
            at += 4;
        }
        const std::uint32_t name_offset = load_u32(data, at);
        element.semantic_index = load_u32(data, at + 4);
        element.system_value = load_u32(data, at + 8);
        const std::uint32_t component_type = load_u32(data, at + 12);
        element.component_type = component_type <= 3 ? static_cast<ComponentType>(component_type)
                                                     : ComponentType::Unknown;
        element.register_index = load_u32(data, at + 16);
        element.mask = data[at + 20];
        element.read_write_mask = data[at + 21];
        if (trailing_precision) element.min_precision = load_u32(data, at + 24);
        // The name: NUL-terminated inside the chunk.
        if (name_offset >= data.size()) {
            error = name + " chunk: element " + std::to_string(i) + "'s name at offset " +
                    std::to_string(name_offset) + " lies past its " + std::to_string(data.size()) +
                    " bytes";
            return false;
        }
        const void* end = std::memchr(data.data() + name_offset, 0, data.size() - name_offset);
        if (end == nullptr) {
            error = name + " chunk: element " + std::to_string(i) +
                    "'s name runs to the chunk's end without a terminating NUL";
            return false;
        }
        element.semantic_name.assign(
            reinterpret_cast<const char*>(data.data() + name_offset),
            static_cast<const std::uint8_t*>(end) - data.data() - name_offset);
        elements.push_back(std::move(element));
    }
    return true;
}

std::vector<std::uint8_t> write_signature(std::span<const SignatureElement> elements,
                                          bool with_streams) {
    const std::size_t element_bytes = with_streams ? 28 : 24;
    std::vector<std::uint8_t> bytes;
    append_u32(bytes, static_cast<std::uint32_t>(elements.size()));
    append_u32(bytes, 8);
    bytes.resize(8 + elements.size() * element_bytes);
    std::size_t at = 8;
    for (const SignatureElement& element : elements) {
        if (with_streams) {
            store_u32(bytes, at, element.stream);
            at += 4;
        }
        // The name goes after everything written so far.
        const std::size_t name_offset = bytes.size();
        bytes.insert(bytes.end(), element.semantic_name.begin(), element.semantic_name.end());
        bytes.push_back(0);
        store_u32(bytes, at, static_cast<std::uint32_t>(name_offset));
        store_u32(bytes, at + 4, element.semantic_index);
        store_u32(bytes, at + 8, element.system_value);
        store_u32(bytes, at + 12, static_cast<std::uint32_t>(element.component_type));
        store_u32(bytes, at + 16, element.register_index);
        bytes[at + 20] = element.mask;
        bytes[at + 21] = element.read_write_mask;
        at += 24;
    }
    while (bytes.size() % 4) bytes.push_back(0);
    return bytes;
}

std::vector<std::uint8_t> write_container(std::span<const ChunkToWrite> chunks) {
    std::vector<std::uint8_t> bytes(32 + chunks.size() * 4);
    std::memcpy(bytes.data(), "DXBC", 4);
    store_u32(bytes, 20, 1);
    store_u32(bytes, 28, static_cast<std::uint32_t>(chunks.size()));
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        store_u32(bytes, 32 + i * 4, static_cast<std::uint32_t>(bytes.size()));
        for (std::size_t c = 0; c < 4; ++c)
            bytes.push_back(
                c < chunks[i].fourcc.size() ? static_cast<std::uint8_t>(chunks[i].fourcc[c]) : ' ');
        append_u32(bytes, static_cast<std::uint32_t>(chunks[i].data.size()));
        bytes.insert(bytes.end(), chunks[i].data.begin(), chunks[i].data.end());
        while (bytes.size() % 4) bytes.push_back(0);
    }
    store_u32(bytes, 24, static_cast<std::uint32_t>(bytes.size()));
    write_dxbc_checksum(bytes);
    return bytes;
}

const ContainerChunk* code_chunk(std::span<const ContainerChunk> chunks) {
    const ContainerChunk* code = find_chunk(chunks, "SHEX");
    return code != nullptr ? code : find_chunk(chunks, "SHDR");
}

int program_type(std::span<const ContainerChunk> chunks, std::string& error) {
    const ContainerChunk* code = code_chunk(chunks);
    if (code == nullptr || code->data.size() < 8) {
        error = code ? "has a SHDR/SHEX chunk too short for its version token"
                     : "has no SHDR or SHEX chunk";
        return -1;
    }
    std::uint32_t version;
    std::memcpy(&version, code->data.data(), 4);
    return static_cast<int>(version >> 16);
}

bool output_signature(std::span<const ContainerChunk> chunks,
                      std::vector<SignatureElement>& elements, std::string& error) {
    elements.clear();
    for (const char* name : {"OSGN", "OSG5", "OSG1"})
        if (const ContainerChunk* chunk = find_chunk(chunks, name))
            return read_signature(*chunk, elements, error);
    return true;
}

}  // namespace d3dcap::runtime::shader
