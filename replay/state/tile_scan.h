// Internal to the tile timeline: what a scan of the trace carries from one
// event to the next (the state a checkpoint copies), and the code that
// applies one record to it. Every tile rule is TileState's; this only reads
// records, routes deferred-context calls through their command lists and
// decides which tiling a tiled resource gets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "replay/state/tile_timeline.h"
#include "runtime/tiles/tile_state.h"
#include "runtime/tiles/tiling.h"

namespace d3dcap::fb {
struct Record;
struct ResourceTiling;
struct TraceIndex;
}  // namespace d3dcap::fb

namespace d3dcap::state::detail {

// A tile call recorded on a deferred context, applied when a command list
// holding it is executed on the immediate context.
struct DeferredCall {
    std::shared_ptr<const std::vector<std::uint64_t>> record;  // size-prefixed Record, aligned
    std::uint64_t event = 0;                                   // where it was recorded
};
using CallList = std::vector<DeferredCall>;

// Everything a scan needs to go on from an event: what a checkpoint copies.
struct ScanState {
    runtime::tiles::TileState tiles;
    std::set<std::uint64_t> deferred_contexts;
    // Per deferred context, the tile calls since its last FinishCommandList.
    std::map<std::uint64_t, CallList> recording;
    std::map<std::uint64_t, std::shared_ptr<const CallList>> command_lists;
    // Tiled resources created with a shape the reference device cannot tile
    // and no recorded tiling yet: a ResourceTiling record creates them.
    struct Awaiting {
        runtime::tiles::ResourceShape shape;
        const char* call = "";
    };
    std::map<std::uint64_t, Awaiting> awaiting_tiling;
};

// What the first scan of each event learns: objects, debug names and notes.
struct Metadata {
    std::map<std::uint64_t, ObjectInfo> objects;
    // Per object, (event, name) in event order; an empty name removes it.
    std::map<std::uint64_t, std::vector<std::pair<std::uint64_t, std::string>>> names;
    std::vector<Note> notes;  // in event order
};

class Scanner {
  public:
    Scanner(const fb::TraceIndex& index, const Limits& limits);

    // Applies the top-level record of event (bytes: the size-prefixed record,
    // size bytes). meta is nullptr when an earlier scan already learned what
    // this event teaches.
    void apply(ScanState& state, const fb::Record& record, const std::uint8_t* bytes,
               std::size_t size, std::uint64_t event, Metadata* meta) const;

  private:
    struct Pass;
    // The index's tilings by resource id (usually one each).
    std::unordered_map<std::uint64_t, std::vector<const fb::ResourceTiling*>> index_tilings_;
    Limits limits_;
};

}  // namespace d3dcap::state::detail
