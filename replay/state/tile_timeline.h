// The tile-mapping state of a trace at any event: every tile pool and tiled
// resource as runtime::tiles::TileState (the one implementation of the tile rules)
// holds it after that event, from a checkpoint near the event rather than
// from the start of the trace.
//
// Checkpoints are copies of the scan state (TileState copies share storage
// until written), taken while the trace is first scanned: every
// checkpoint_interval events, and sooner when that many chunks were read, so
// that a query decompresses a bounded number of chunks whether the trace is
// made of small calls or of large UpdateTiles blobs.
//
// A TileTimeline has no globals and locks itself: one may be used from a
// worker thread (a viewer's), and a long rebuild can be cancelled through
// its progress callback.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "format/trace/error.h"
#include "runtime/tiles/tile_state.h"
#include "runtime/tiles/tiling.h"

namespace d3dcap::state {

namespace detail {
struct Engine;
}  // namespace detail

enum class ObjectKind : std::uint8_t { Buffer, Texture2D, Texture3D };
const char* kind_name(ObjectKind kind);  // "buffer", "texture2d", "texture3d"

// A tile pool or tiled resource as its creation record described it.
struct ObjectInfo {
    std::uint64_t id = 0;
    ObjectKind kind = ObjectKind::Buffer;
    bool pool = false;  // a tile pool (MISC_TILE_POOL) rather than a tiled resource
    std::uint64_t created_event = 0;
    runtime::tiles::ResourceShape shape;  // as created (a pool: its byte width then)
};

// What an object is, for people: "Texture2D 16384x16384 R8G8B8A8_UNORM
// tiled", "Texture2D 512x512x6 BC1_UNORM 10 mips tiled", "Buffer 64 MiB tile
// pool", "Buffer 1 MiB tiled".
std::string describe(const ObjectInfo& info);

// Something in the trace the tile model could not follow: a call the trace
// recorded as succeeding that the model refused, a record too damaged to
// read, or a size refused as absurd.
struct Note {
    std::uint64_t event = 0;
    std::string call;     // "ID3D11DeviceContext2::UpdateTileMappings"
    std::string message;  // "pRangeTileCounts: the ranges cover 5 tiles but the regions 6"
};

// What a trace may make the model allocate. A tile costs 4 bytes of mapping.
struct Limits {
    // Tiles of one tiled resource: 2^24 tiles are 1 TiB of 64 KiB tiles.
    std::uint64_t max_resource_tiles = std::uint64_t{1} << 24;
    // Tiles of all tiled resources alive at once (256 MiB of mappings).
    std::uint64_t max_total_tiles = std::uint64_t{1} << 26;
};

struct TimelineOptions {
    // At most this many events between checkpoints; 0: no checkpoints, every
    // query scans from event 0 (the reference the tests compare against).
    // A query then applies at most 65536 records (a few milliseconds at the
    // reader's ~10 M records/s); each checkpoint costs one copy of the
    // mappings of every resource changed since the one before.
    std::uint64_t checkpoint_interval = 65536;
    // At most this many chunks read between checkpoints (1 MiB each, which
    // may hold a few UpdateTiles blobs or ~5000 small calls); 0: no limit.
    std::uint64_t checkpoint_chunks = 8;
    // Checkpoints together hold at most this many bytes (counted as
    // CheckpointStats::storage_bytes counts them): past it, every other
    // checkpoint goes and the spacing doubles.
    std::uint64_t max_checkpoint_bytes = std::uint64_t{1} << 30;
    Limits limits;
};

struct CheckpointStats {
    std::size_t count = 0;
    // Sum of TileState::storage_bytes of every checkpoint: storage shared
    // between checkpoints is counted once per checkpoint.
    std::uint64_t storage_bytes = 0;
    std::uint64_t scanned_events = 0;  // events scanned in order from the start
    std::uint64_t spacing = 1;         // how many times the budget doubled the spacing
};

// Called between chunks with the next event to scan and the query's event;
// returning false cancels the query.
using Progress = std::function<bool(std::uint64_t next_event, std::uint64_t target_event)>;

class TileTimeline {
  public:
    static trace::Result<std::unique_ptr<TileTimeline>> open(const std::string& path,
                                                             const TimelineOptions& options = {});
    ~TileTimeline();
    TileTimeline(const TileTimeline&) = delete;
    TileTimeline& operator=(const TileTimeline&) = delete;

    const std::string& path() const;
    std::uint64_t event_count() const;

    // The tile state after event executed. Errors: an event past the end,
    // a chunk the reader refuses (file, chunk, offset, event), or a
    // cancelled query (is_cancelled).
    trace::Result<runtime::tiles::TileState> state_at(std::uint64_t event,
                                                      const Progress& progress = {});
    // Scans the whole trace once, taking every checkpoint.
    trace::Status scan_all(const Progress& progress = {});
    static bool is_cancelled(const trace::TraceError& error);

    // What is known of the events scanned so far (after state_at(N), of
    // every event up to N).
    std::optional<ObjectInfo> object(std::uint64_t id) const;
    // The debug name an object had after event, if any.
    std::optional<std::string> name_at(std::uint64_t id, std::uint64_t event) const;
    // The ids of the objects named name after event, ascending.
    std::vector<std::uint64_t> named(const std::string& name, std::uint64_t event) const;
    std::vector<Note> notes_until(std::uint64_t event) const;
    CheckpointStats checkpoint_stats() const;

  private:
    explicit TileTimeline(std::unique_ptr<detail::Engine> engine);
    mutable std::mutex mutex_;
    std::unique_ptr<detail::Engine> engine_;
};

}  // namespace d3dcap::state
