// d3dcap tiles: the tile mappings of every tile pool and tiled resource
// after one event of a trace, as a text map or as JSON.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "replay/state/tile_timeline.h"

namespace d3dcap::cli {

struct TilesOptions {
    std::string trace;
    std::uint64_t event = 0;
    std::optional<std::string> resource;  // an id or a debug name
    bool json = false;
    std::uint64_t checkpoint_interval = state::TimelineOptions{}.checkpoint_interval;
};

// Returns the exit code: 0, 1 when the trace cannot be read (the reader's
// error: file, chunk, offset, event), 2 for an event past the end or an
// unknown resource. Notes of the tile model go to err as warnings.
int run_tiles(const TilesOptions& options, std::ostream& out, std::ostream& err);

}  // namespace d3dcap::cli
