#include "capture/layer/tile_tracker.h"

#include "capture/layer/facet.h"
#include "capture/layer/resource_info.h"

namespace d3dcap::capture {

TileTracker& TileTracker::get() {
    static TileTracker* tracker = new TileTracker();  // outlives static destructors
    return *tracker;
}

void TileTracker::created(const Wrapper& wrapper) {
    const ResourceInfo* info = wrapper.resource.get();
    if (info == nullptr) return;
    std::lock_guard lock(mutex_);
    if ((info->misc_flags & D3D11_RESOURCE_MISC_TILE_POOL) != 0)
        state_.create_pool(wrapper.id, info->shape.width, nullptr);
    else if (info->tiled() && info->tiling.total_tiles > 0)
        state_.create_tiled_resource(wrapper.id, info->tiling, nullptr);
}

void TileTracker::destroyed(std::uint64_t id) {
    std::lock_guard lock(mutex_);
    state_.destroy(id);
}

void TileTracker::update_tile_mappings(std::uint64_t resource, UINT num_regions,
                                       const D3D11_TILED_RESOURCE_COORDINATE* starts,
                                       const D3D11_TILE_REGION_SIZE* sizes, std::uint64_t pool,
                                       UINT num_ranges, const UINT* range_flags,
                                       const UINT* offsets, const UINT* counts, UINT flags) {
    std::lock_guard lock(mutex_);
    state_.update_tile_mappings(resource, num_regions, starts, sizes, pool, num_ranges, range_flags,
                                offsets, counts, flags, nullptr);
}

void TileTracker::copy_tile_mappings(std::uint64_t dest,
                                     const D3D11_TILED_RESOURCE_COORDINATE& dest_start,
                                     std::uint64_t source,
                                     const D3D11_TILED_RESOURCE_COORDINATE& source_start,
                                     const D3D11_TILE_REGION_SIZE& size, UINT flags) {
    std::lock_guard lock(mutex_);
    state_.copy_tile_mappings(dest, dest_start, source, source_start, size, flags, nullptr);
}

void TileTracker::resize_tile_pool(std::uint64_t pool, UINT64 new_size) {
    std::lock_guard lock(mutex_);
    state_.resize_tile_pool(pool, new_size, nullptr);
}

runtime::tiles::TileState TileTracker::state() const {
    std::lock_guard lock(mutex_);
    return state_;
}

D3D11_TILED_RESOURCE_COORDINATE tile_coordinate(const runtime::tiles::ResourceTiling& tiling,
                                                std::uint32_t tile) {
    for (std::uint32_t s = 0; s < tiling.subresources.size(); ++s) {
        const D3D11_SUBRESOURCE_TILING& sub = tiling.subresources[s];
        if (sub.StartTileIndexInOverallResource == runtime::tiles::kPackedStart) continue;
        const std::uint32_t count = sub.WidthInTiles * sub.HeightInTiles * sub.DepthInTiles;
        if (tile < sub.StartTileIndexInOverallResource ||
            tile >= sub.StartTileIndexInOverallResource + count)
            continue;
        const std::uint32_t i = tile - sub.StartTileIndexInOverallResource;
        return {i % sub.WidthInTiles, (i / sub.WidthInTiles) % sub.HeightInTiles,
                i / (sub.WidthInTiles * sub.HeightInTiles), s};
    }
    // A packed tile: X is its index in its slice's packed set.
    for (std::uint32_t slice = 0; slice < tiling.array_size; ++slice) {
        const std::uint32_t start = tiling.packed_start(slice);
        if (tile >= start && tile < start + tiling.packed.NumTilesForPackedMips)
            return {tile - start, 0, 0, tiling.packed.NumStandardMips + slice * tiling.mip_levels};
    }
    return {0, 0, 0, 0};
}

}  // namespace d3dcap::capture
