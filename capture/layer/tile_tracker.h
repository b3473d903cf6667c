// The tile mappings of every tile pool and tiled resource the application
// has, kept by the capture layer with the shared tile model so that a
// snapshot can recreate them (no D3D11 call reads mappings back).
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <mutex>

#include "runtime/tiles/tile_state.h"

namespace d3dcap::capture {

class Wrapper;

class TileTracker {
  public:
    static TileTracker& get();

    // A new pool or tiled resource wrapper (others are ignored).
    void created(const Wrapper& wrapper);
    void destroyed(std::uint64_t id);

    // Mirrors of calls the device accepted; ids as the layer numbers objects.
    void update_tile_mappings(std::uint64_t resource, UINT num_regions,
                              const D3D11_TILED_RESOURCE_COORDINATE* starts,
                              const D3D11_TILE_REGION_SIZE* sizes, std::uint64_t pool,
                              UINT num_ranges, const UINT* range_flags, const UINT* offsets,
                              const UINT* counts, UINT flags);
    void copy_tile_mappings(std::uint64_t dest, const D3D11_TILED_RESOURCE_COORDINATE& dest_start,
                            std::uint64_t source,
                            const D3D11_TILED_RESOURCE_COORDINATE& source_start,
                            const D3D11_TILE_REGION_SIZE& size, UINT flags);
    void resize_tile_pool(std::uint64_t pool, UINT64 new_size);

    // A copy of the whole state (cheap: shared until changed).
    runtime::tiles::TileState state() const;

  private:
    mutable std::mutex mutex_;
    runtime::tiles::TileState state_;
};

// The coordinate that addresses a resource's tile by its overall index.
D3D11_TILED_RESOURCE_COORDINATE tile_coordinate(const runtime::tiles::ResourceTiling& tiling,
                                                std::uint32_t tile);

}  // namespace d3dcap::capture
