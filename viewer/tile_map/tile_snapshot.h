// What the worker thread hands the window for one event: first the tile
// state after it and before it (to tell which tiles the event changed) and
// the debug names the objects had then; then, once a scan of the trace up to
// the event found it, the past of the selected resource and of the pools.
#pragma once

#include <QString>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "runtime/tiles/tile_state.h"

namespace d3dcap::viewer {

inline constexpr std::uint64_t kNoChange = UINT64_MAX;

// A pool's size in tiles after an event that created or resized it.
struct PoolSize {
    std::uint64_t event = 0;
    std::uint64_t tiles = 0;
    bool operator==(const PoolSize&) const = default;
};

struct TileSnapshot {
    std::uint64_t event = 0;
    runtime::tiles::TileState after;
    std::optional<runtime::tiles::TileState> before;  // none at event 0
    std::map<std::uint64_t, QString> names;           // debug names
    std::map<std::uint64_t, QString> labels;          // object_label() of every pool and resource
    // The resource whose history follows: the one asked for, or else the
    // first tiled resource (0: none).
    std::uint64_t history_resource = 0;
};

// The history that follows the snapshot of the same event.
struct SnapshotHistory {
    std::uint64_t event = 0;
    std::uint64_t resource = 0;  // the snapshot's history_resource
    // Per tile (overall index), the last event at or before this one that
    // changed its mapping; kNoChange where none did.
    std::vector<std::uint64_t> last_changed;
    // Per tile, the last event at or before this one that wrote the contents
    // of the pool tile it maps now (TileHistory::last_written).
    std::vector<std::uint64_t> last_written;
    // Per pool, its size after its creation and after every later event up
    // to this one that changed it.
    std::map<std::uint64_t, std::vector<PoolSize>> pool_sizes;
    // Why the trace could not be scanned; the history is then empty.
    QString error;
};

}  // namespace d3dcap::viewer
