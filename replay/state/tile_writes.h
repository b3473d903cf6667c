// Which tiles of tiled resources a recorded call writes the contents of:
// UpdateTiles, CopyTiles from a buffer, UpdateSubresource(1),
// CopySubresourceRegion(1) and CopyResource into a tiled resource, by the
// overall tile indices the call's region or box covers in the tiling the
// state holds. Not counted: draws, dispatches and clears (what they write
// depends on bound views), and calls on deferred contexts (they write when a
// command list runs). A copy without a source box is taken to reach the end
// of the destination subresource.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/tiles/tile_state.h"

namespace d3dcap::fb {
struct Record;
}

namespace d3dcap::state {

struct TileWrite {
    tiles::ObjectId resource = 0;
    std::vector<std::uint32_t> tiles;  // overall indices, ascending, each once
};

// True for the calls tiles_written() may find writes in (a test on the
// call id alone, before the tile state is fetched).
bool may_write_tiles(std::uint16_t call);

// The tiles record writes, given the tile state when it runs; nothing for
// other calls and for resources the state holds no tiling of.
std::vector<TileWrite> tiles_written(const fb::Record& record, const tiles::TileState& state);

}  // namespace d3dcap::state
