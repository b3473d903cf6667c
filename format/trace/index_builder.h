// Builds the footer index (chunks, frames, markers, call counts, tilings) from
// records as they are written, or as recovery finds them.
#pragma once

#include <d3dcap/fb/trace_generated.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "marker_table.h"

namespace d3dcap::trace {

class IndexBuilder {
  public:
    // A record (size-prefixed Record FlatBuffer, already verified or our own)
    // of record_bytes bytes including its size prefix.
    void add_record(const fb::Record& record, std::size_t record_bytes);
    void add_chunk(const fb::ChunkEntry& chunk) { chunks_.push_back(chunk); }

    std::uint64_t event_count() const { return event_count_; }
    std::size_t chunk_count() const { return chunks_.size(); }

    // The TraceIndex FlatBuffer (not size-prefixed).
    std::vector<std::uint8_t> finish() const;

  private:
    struct Tiling {
        std::uint64_t resource;
        std::uint32_t num_tiles;
        fb::D3D11_PACKED_MIP_DESC packed;
        fb::D3D11_TILE_SHAPE shape;
        std::vector<fb::D3D11_SUBRESOURCE_TILING> subresources;
    };
    struct Count {
        std::uint64_t count = 0;
        std::uint64_t bytes = 0;
    };

    void add_marker(const fb::Record& record, fb::MarkerKind kind, const flatbuffers::String* label,
                    std::int32_t data, bool has_data);

    std::uint64_t event_count_ = 0;
    std::uint64_t uncompressed_bytes_ = 0;
    std::vector<fb::ChunkEntry> chunks_;
    std::vector<std::uint64_t> frame_first_events_;
    MarkerTableWriter markers_;
    std::unordered_map<std::uint64_t, std::uint32_t> marker_depth_;  // per context
    std::vector<Count> counts_;                                      // by call id
    std::unordered_set<std::uint32_t> threads_;  // numbers come from the trace: any value
    std::uint32_t last_thread_ = 0;
    std::vector<Tiling> tilings_;
};

}  // namespace d3dcap::trace
