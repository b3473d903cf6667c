// Which tiles of tiled resources a recorded call writes the contents of, on
// the immediate context:
// - UpdateTiles, CopyTiles from a buffer: the tiles of the region;
// - UpdateSubresource(1), CopySubresourceRegion(1) (without a source box: to
//   the end of the destination subresource), CopyResource,
//   ResolveSubresource: the tiles the box or subresource touches;
// - clears of a view, and draws and dispatches: the tiles of the views'
//   subresources (render targets, depth-stencil and UAVs bound for draws;
//   compute UAVs for dispatches), whole, as the views name them.
// Calls on deferred contexts write when their command list runs; they are
// not counted. The tracker follows view creation and bindings to know what
// a draw or clear writes.
#pragma once

#include <cstdint>
#include <set>
#include <unordered_map>
#include <vector>

#include "runtime/tiles/tile_state.h"

namespace d3dcap::fb {
struct Record;
}

namespace d3dcap::state {

struct TileWrite {
    runtime::tiles::ObjectId resource = 0;
    std::vector<std::uint32_t> tiles;  // overall indices, ascending, each once
};

class TileWriteTracker {
  public:
    // Takes in what record changes of views, bindings and deferred contexts;
    // true when it may write tiles (tiles_written then needs the tile state
    // when it runs).
    bool follow(const fb::Record& record);
    // The tiles record writes; nothing for resources the state holds no
    // tiling of.
    std::vector<TileWrite> tiles_written(const fb::Record& record,
                                         const runtime::tiles::TileState& state) const;

    // What a view covers: mips and array slices (depth slices of a volume),
    // or bytes of a buffer. whole: every subresource.
    struct ViewRange {
        std::uint64_t resource = 0;
        bool whole = false;
        bool buffer = false;
        std::uint32_t first_mip = 0, mips = 1;
        std::uint32_t first_slice = 0, slices = UINT32_MAX;  // array slices
        std::uint32_t first_z = 0, depth = UINT32_MAX;       // volume slices
        std::uint64_t first_byte = 0, bytes = UINT64_MAX;    // buffers
    };

  private:
    std::set<std::uint64_t> deferred_contexts_;
    std::unordered_map<std::uint64_t, ViewRange> views_;
    std::vector<std::uint64_t> render_targets_;
    std::uint64_t depth_stencil_ = 0;
    std::vector<std::uint64_t> draw_uavs_, compute_uavs_;
};

}  // namespace d3dcap::state
