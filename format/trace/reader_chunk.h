// A chunk of a trace as its reader hands it out.
#pragma once

#include <d3dcap/fb/trace_generated.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace d3dcap::trace {

// One decompressed chunk whose records have all passed the verifier.
struct Chunk {
    std::size_t number = 0;
    std::uint64_t first_event = 0;
    std::vector<std::uint8_t> bytes;
    std::vector<std::uint32_t> record_offsets;  // of each size prefix in bytes

    std::size_t record_count() const { return record_offsets.size(); }
    const fb::Record& record(std::size_t i) const {
        return *flatbuffers::GetSizePrefixedRoot<fb::Record>(bytes.data() + record_offsets[i]);
    }
    std::uint32_t record_size(std::size_t i) const;  // including the size prefix
};

}  // namespace d3dcap::trace
