// What the tile map's hover and the pool's size plot need from the past of
// an event: for one tiled resource, which event last changed each tile's
// mapping, and for every pool, its size after each event that changed it.
//
// Also, for every pool tile, the events that wrote its contents through any
// tiled resource mapped to it (state::TileWriteTracker), so that a tile's
// contents name the call that last wrote them.
//
// Built on the state worker by one scan forward through the trace that goes
// only as far as a request asks and is kept for the next request: each
// record's header says whether it may change the followed resource or a
// pool, and only those events are diffed against the state the timeline
// gives after them (the tile rules stay the timeline's).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "format/trace/reader.h"
#include "replay/state/tile_timeline.h"
#include "replay/state/tile_writes.h"
#include "runtime/tiles/tile_state.h"
#include "viewer/tile_map/tile_snapshot.h"

namespace d3dcap::viewer {

class TileHistory {
  public:
    // reader: the history's own reader of the timeline's trace.
    explicit TileHistory(std::unique_ptr<trace::TraceReader> reader);

    // Follows resource from now on: a different one starts over from the
    // first event.
    void follow(std::uint64_t resource);
    std::uint64_t resource() const { return resource_; }
    // Scans every event up to and including event; a cancelled or failed
    // scan keeps what it learned and goes on from there next time.
    trace::Status scan_to(state::TileTimeline& timeline, std::uint64_t event,
                          const state::Progress& progress);

    // For each of tiles tiles, by overall index, the last event at or before
    // event that changed its mapping (kNoChange: none did).
    std::vector<std::uint64_t> last_changed(std::uint64_t event, std::size_t tiles) const;
    // For each tile mapping (a tile of the followed resource at event, by
    // overall index), the last event at or before event that wrote the pool
    // tile it maps (kNoChange: none did, or the tile is NULL).
    std::vector<std::uint64_t> last_written(
        std::uint64_t event, const std::vector<runtime::tiles::TileMapping>& mappings) const;
    // Every pool's sizes up to event.
    std::map<std::uint64_t, std::vector<PoolSize>> pool_sizes(std::uint64_t event) const;

  private:
    bool may_change_tiles(const fb::Record& record) const;
    void compare(const runtime::tiles::TileState& state, std::uint64_t event);
    // Notes the pool tiles a write call on the immediate context wrote.
    trace::Status note_writes(state::TileTimeline& timeline, const fb::Record& record,
                              const state::Progress& progress);

    std::unique_ptr<trace::TraceReader> reader_;
    std::uint64_t resource_ = 0;
    std::uint64_t next_ = 0;                             // the first event not scanned
    std::vector<runtime::tiles::TileMapping> mappings_;  // resource_'s, before next_
    std::map<std::uint64_t, std::uint64_t> pool_tiles_;  // every pool's size, before next_
    // Event change_events_[i] changed the tiles
    // changed_tiles_[change_starts_[i] .. change_starts_[i + 1]).
    std::vector<std::uint64_t> change_events_;
    std::vector<std::size_t> change_starts_{0};
    std::vector<std::uint32_t> changed_tiles_;
    std::map<std::uint64_t, std::vector<PoolSize>> pools_;
    // Per pool tile, the events that wrote it, ascending; the views and
    // bindings that tell what a call writes.
    std::map<std::pair<runtime::tiles::ObjectId, std::uint32_t>, std::vector<std::uint64_t>>
        writes_;
    state::TileWriteTracker writes_seen_;
};

}  // namespace d3dcap::viewer
