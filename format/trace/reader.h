// Reads a trace: header and index on open, one chunk per seek, every record
// verified before use. A file without a valid index (cut short by a crash or
// a full disk) opens in recovery mode with every complete chunk. Records
// read in order get the next chunk read and decompressed on another thread
// while the caller uses the current one.
#pragma once

#include <d3dcap/fb/trace_generated.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "error.h"
#include "marker_table.h"
#include "reader_chunk.h"

namespace d3dcap::trace {

class ChunkReadAhead;

struct ReaderOptions {
    bool allow_recovery = true;
    // Upper bounds on what one chunk or the index may make the reader allocate.
    std::uint64_t max_chunk_bytes = std::uint64_t{1} << 30;
    std::uint64_t max_index_bytes = std::uint64_t{1} << 30;
};

class TraceReader {
  public:
    static Result<std::unique_ptr<TraceReader>> open(const std::string& path,
                                                     const ReaderOptions& options = {});
    ~TraceReader();

    const std::string& path() const { return path_; }
    std::uint16_t format_major() const { return major_; }
    std::uint16_t format_minor() const { return minor_; }
    std::uint64_t file_size() const { return file_size_; }
    const fb::TraceHeader& header() const;
    // The TraceHeader FlatBuffer as stored (verified).
    const std::vector<std::uint8_t>& header_bytes() const { return header_bytes_; }
    const fb::TraceIndex& index() const;

    // True when the index was rebuilt by scanning; recovery_note says why and
    // how much was recovered.
    bool recovered() const { return recovered_; }
    const std::string& recovery_note() const { return recovery_note_; }

    std::uint64_t event_count() const { return index().event_count(); }
    // The markers the index lists, format 1 and 2 alike: checked at open,
    // decoded on first use (24 bytes a marker), or visited without being kept.
    std::uint64_t marker_count() const;
    const MarkerList& markers() const;
    void visit_markers(
        const std::function<void(const Marker&, std::string_view label)>& visit) const;
    std::size_t chunk_count() const;

    // Reads, decompresses and verifies chunk i.
    Result<Chunk> read_chunk(std::size_t i) const;

    // The record of one event; it stays valid until the next call. The
    // chunk after the event's is read ahead.
    Result<const fb::Record*> record(std::uint64_t event);

    // The chunk that holds an event.
    std::size_t chunk_of(std::uint64_t event) const;

  private:
    TraceReader(std::string path, int fd, std::uint64_t size, const ReaderOptions& options);
    Status read_prologue();
    Status read_index();
    Status recover(const std::string& reason);
    Status read_at(std::uint64_t offset, void* data, std::size_t size) const;
    // reuse: a chunk whose buffers the new one takes over (no new pages for
    // each chunk read in sequence).
    Result<Chunk> load_chunk(std::size_t number, const fb::ChunkEntry& expected,
                             std::uint64_t offset, Chunk* reuse = nullptr) const;
    Result<Chunk> read_chunk_reusing(std::size_t i, Chunk* reuse) const;
    TraceError error_at(std::string message, std::int64_t offset = -1, std::int64_t chunk = -1,
                        std::int64_t event = -1) const;

    std::string path_;
    int fd_;
    std::uint64_t file_size_;
    ReaderOptions options_;
    std::uint16_t major_ = 0;
    std::uint16_t minor_ = 0;
    std::uint64_t chunks_start_ = 0;
    std::vector<std::uint8_t> header_bytes_;
    std::vector<std::uint8_t> index_bytes_;
    mutable std::once_flag markers_decoded_;
    mutable MarkerList markers_;
    bool recovered_ = false;
    std::string recovery_note_;
    // Makes `number` the cached chunk: the one read ahead, or read now.
    Status cache_chunk(std::size_t number);

    Chunk cached_;
    bool cache_valid_ = false;
    Chunk spare_;  // buffers for the next chunk read
    std::unique_ptr<ChunkReadAhead> read_ahead_;
};

// Verifies one size-prefixed record of size bytes (prefix included); snapshot
// records are verified with their nested records.
bool verify_record(const std::uint8_t* data, std::size_t size);

}  // namespace d3dcap::trace
