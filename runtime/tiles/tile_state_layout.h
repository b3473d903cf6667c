// Internal to the tile model: one tiled resource's tile numbering, checked
// once when the resource is created, and the two things every call does with
// a region of it: check that it lies inside the resource, and visit its tiles
// in the order the documentation gives (a box walks X, Y, Z, with Depth
// stepping through array slices; a linear region walks X, Y, Z and spills into
// the following subresources, packed mips addressed through the first packed
// mip of their slice).
#pragma once

#include <d3d11_2.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/tiles/tiling.h"

namespace d3dcap::runtime::tiles::detail {

// Tiles of a region that lie along X in one row of one subresource (or in one
// slice's packed set), and so have consecutive overall tile indices.
struct TileRun {
    std::uint32_t subresource = 0;
    std::uint32_t x = 0, y = 0, z = 0;  // of the run's first tile
    std::uint32_t first_tile = 0;       // overall index of the run's first tile
    std::uint32_t count = 0;
};

// Why a region is refused: its start coordinate or its size.
struct RegionProblem {
    bool about_size = false;
    std::string text;
};

class Layout {
  public:
    // The layout of a tiling that numbers every tile exactly once, or nullptr
    // and the reason.
    static std::shared_ptr<const Layout> build(const ResourceTiling& tiling, std::string& problem);

    const ResourceTiling& tiling() const { return tiling_; }
    std::uint32_t subresource_count() const {
        return static_cast<std::uint32_t>(tiling_.subresources.size());
    }
    // Tiles of the whole resource, which is also the length of a linear walk
    // from the first tile.
    std::uint32_t total_tiles() const { return tiling_.total_tiles; }
    std::uint64_t storage_bytes() const {
        return sizeof(Layout) + tiling_.subresources.capacity() * sizeof(D3D11_SUBRESOURCE_TILING) +
               packed_starts_.capacity() * sizeof(std::uint32_t) +
               walk_offsets_.capacity() * sizeof(std::uint32_t);
    }

    std::optional<RegionProblem> check(const D3D11_TILED_RESOURCE_COORDINATE& start,
                                       const D3D11_TILE_REGION_SIZE& size) const;

    // Visits the runs of a region that check() accepted, in walk order.
    template <class Visit>
    void walk(const D3D11_TILED_RESOURCE_COORDINATE& start, const D3D11_TILE_REGION_SIZE& size,
              Visit&& visit) const;

  private:
    bool is_packed(std::uint32_t subresource) const {
        return subresource % tiling_.mip_levels >= first_packed_mip_;
    }
    std::uint32_t tile_in(std::uint32_t subresource, std::uint32_t x, std::uint32_t y,
                          std::uint32_t z) const {
        const D3D11_SUBRESOURCE_TILING& sub = tiling_.subresources[subresource];
        return sub.StartTileIndexInOverallResource + x + y * sub.WidthInTiles +
               z * sub.WidthInTiles * sub.HeightInTiles;
    }

    ResourceTiling tiling_;
    std::uint32_t first_packed_mip_ = 0;        // mip_levels when nothing is packed
    std::uint32_t packed_tiles_ = 0;            // per slice
    std::vector<std::uint32_t> packed_starts_;  // overall index of each slice's packed set
    // Per subresource: tiles before it in a linear walk from the first tile.
    std::vector<std::uint32_t> walk_offsets_;
};

inline std::string tiles_text(std::uint64_t w, std::uint64_t h, std::uint64_t d) {
    return std::to_string(w) + "x" + std::to_string(h) + "x" + std::to_string(d);
}

inline std::string point_text(std::uint64_t x, std::uint64_t y, std::uint64_t z) {
    return "(" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + ")";
}

inline std::shared_ptr<const Layout> Layout::build(const ResourceTiling& tiling,
                                                   std::string& problem) {
    const std::uint64_t mips = tiling.mip_levels;
    const std::uint64_t slices = tiling.array_size;
    if (mips == 0 || slices == 0 || tiling.subresources.size() != mips * slices) {
        problem = std::to_string(tiling.subresources.size()) + " subresource tilings for " +
                  std::to_string(mips) + " mips x " + std::to_string(slices) + " slices";
        return nullptr;
    }
    auto layout = std::make_shared<Layout>();
    layout->tiling_ = tiling;
    std::uint32_t first_packed = tiling.mip_levels;
    for (std::uint32_t mip = 0; mip < tiling.mip_levels; ++mip) {
        if (tiling.subresources[mip].StartTileIndexInOverallResource == kPackedStart) {
            first_packed = mip;
            break;
        }
    }
    layout->first_packed_mip_ = first_packed;
    const bool any_packed = first_packed < tiling.mip_levels;
    if (any_packed && (tiling.packed.NumPackedMips != tiling.mip_levels - first_packed ||
                       tiling.packed.NumTilesForPackedMips == 0)) {
        problem = "mips " + std::to_string(first_packed) + ".." +
                  std::to_string(tiling.mip_levels - 1) + " are packed but the packed-mip " +
                  "description says " + std::to_string(tiling.packed.NumPackedMips) +
                  " packed mips in " + std::to_string(tiling.packed.NumTilesForPackedMips) +
                  " tiles";
        return nullptr;
    }
    layout->packed_tiles_ = any_packed ? tiling.packed.NumTilesForPackedMips : 0;

    // Every tile must be numbered exactly once, so that walks stay inside the
    // resource and a whole-resource walk reaches every tile.
    std::vector<bool> numbered(tiling.total_tiles, false);
    std::uint64_t numbered_count = 0;
    auto claim = [&](std::uint64_t first, std::uint64_t count, const std::string& what) {
        if (first + count > tiling.total_tiles) {
            problem = what + " has tiles " + std::to_string(first) + ".." +
                      std::to_string(first + count - 1) + " past the resource's " +
                      std::to_string(tiling.total_tiles) + " tiles";
            return false;
        }
        for (std::uint64_t tile = first; tile < first + count; ++tile) {
            if (numbered[tile]) {
                problem = what + " numbers tile " + std::to_string(tile) + " a second time";
                return false;
            }
            numbered[tile] = true;
        }
        numbered_count += count;
        return true;
    };

    std::uint64_t walked = 0;
    layout->walk_offsets_.resize(tiling.subresources.size());
    for (std::uint32_t slice = 0; slice < tiling.array_size; ++slice) {
        for (std::uint32_t mip = 0; mip < tiling.mip_levels; ++mip) {
            const std::uint32_t index = mip + slice * tiling.mip_levels;
            const D3D11_SUBRESOURCE_TILING& sub = tiling.subresources[index];
            const std::string what = "subresource " + std::to_string(index);
            layout->walk_offsets_[index] = static_cast<std::uint32_t>(walked);
            if ((sub.StartTileIndexInOverallResource == kPackedStart) != (mip >= first_packed)) {
                problem = what + " is " + (mip >= first_packed ? "not " : "") +
                          "packed, unlike mip " + std::to_string(mip) + " of slice 0";
                return nullptr;
            }
            if (mip == first_packed) {
                const std::uint32_t start = tiling.packed_start(slice);
                layout->packed_starts_.push_back(start);
                if (!claim(start, layout->packed_tiles_,
                           "the packed set of slice " + std::to_string(slice))) {
                    return nullptr;
                }
                walked += layout->packed_tiles_;
            }
            if (mip >= first_packed) continue;
            const std::uint64_t tiles =
                std::uint64_t{sub.WidthInTiles} * sub.HeightInTiles * sub.DepthInTiles;
            if (tiles == 0) {
                problem = what + " is " +
                          tiles_text(sub.WidthInTiles, sub.HeightInTiles, sub.DepthInTiles) +
                          " tiles";
                return nullptr;
            }
            if (!claim(sub.StartTileIndexInOverallResource, tiles, what)) return nullptr;
            walked += tiles;
        }
    }
    if (numbered_count != tiling.total_tiles) {
        problem = "the subresources number " + std::to_string(numbered_count) + " of the " +
                  std::to_string(tiling.total_tiles) + " tiles";
        return nullptr;
    }
    return layout;
}

inline std::optional<RegionProblem> Layout::check(const D3D11_TILED_RESOURCE_COORDINATE& start,
                                                  const D3D11_TILE_REGION_SIZE& size) const {
    // Message texts are built only for a region that is refused.
    const auto subresource = [&start] {
        return "Subresource " + std::to_string(start.Subresource);
    };
    if (start.Subresource >= subresource_count()) {
        return RegionProblem{false, subresource() + " does not exist: the resource has " +
                                        std::to_string(subresource_count()) + " subresources"};
    }
    const std::uint32_t mip = start.Subresource % tiling_.mip_levels;
    const std::uint32_t slice = start.Subresource / tiling_.mip_levels;
    const D3D11_SUBRESOURCE_TILING& sub = tiling_.subresources[start.Subresource];
    const bool start_outside =
        start.X >= sub.WidthInTiles || start.Y >= sub.HeightInTiles || start.Z >= sub.DepthInTiles;
    const auto outside_text = [&] {
        return point_text(start.X, start.Y, start.Z) + " is outside " + subresource() + " of " +
               tiles_text(sub.WidthInTiles, sub.HeightInTiles, sub.DepthInTiles) + " tiles";
    };

    if (size.bUseBox) {
        const std::uint64_t box_tiles = std::uint64_t{size.Width} * size.Height * size.Depth;
        if (box_tiles != size.NumTiles) {
            return RegionProblem{true, "NumTiles " + std::to_string(size.NumTiles) +
                                           " does not match the box " +
                                           tiles_text(size.Width, size.Height, size.Depth) + " (" +
                                           std::to_string(box_tiles) + " tiles)"};
        }
        if (is_packed(start.Subresource)) {
            return RegionProblem{false, subresource() +
                                            " is a packed mip, which only regions with "
                                            "bUseBox FALSE can address"};
        }
        if (start_outside) return RegionProblem{false, outside_text()};
        if (box_tiles == 0) return std::nullopt;
        const bool array = tiling_.array_size > 1;
        const bool leaves_plane = std::uint64_t{start.X} + size.Width > sub.WidthInTiles ||
                                  std::uint64_t{start.Y} + size.Height > sub.HeightInTiles;
        const bool leaves_depth = !array && std::uint64_t{start.Z} + size.Depth > sub.DepthInTiles;
        if (leaves_plane || leaves_depth) {
            return RegionProblem{
                true,
                "the box " + tiles_text(size.Width, size.Height, size.Depth) + " at " +
                    point_text(start.X, start.Y, start.Z) + " leaves " + subresource() + " of " +
                    tiles_text(sub.WidthInTiles, sub.HeightInTiles, sub.DepthInTiles) + " tiles"};
        }
        if (array && std::uint64_t{slice} + size.Depth > tiling_.array_size) {
            return RegionProblem{true, "the box's Depth " + std::to_string(size.Depth) +
                                           " from slice " + std::to_string(slice) +
                                           " leaves the array of " +
                                           std::to_string(tiling_.array_size) + " slices"};
        }
        return std::nullopt;
    }

    std::uint64_t position = walk_offsets_[start.Subresource];
    if (is_packed(start.Subresource)) {
        if (mip != first_packed_mip_) {
            return RegionProblem{
                false, subresource() + " is a packed mip; packed mips are addressed through " +
                           "Subresource " +
                           std::to_string(first_packed_mip_ + slice * tiling_.mip_levels) +
                           ", the first packed mip of slice " + std::to_string(slice)};
        }
        if (start.Y != 0 || start.Z != 0) {
            return RegionProblem{false, "Y and Z must be 0 in packed mips (they are " +
                                            std::to_string(start.Y) + " and " +
                                            std::to_string(start.Z) + ")"};
        }
        if (start.X >= packed_tiles_) {
            return RegionProblem{false, "X " + std::to_string(start.X) + " is past the " +
                                            std::to_string(packed_tiles_) +
                                            " packed tiles of slice " + std::to_string(slice)};
        }
        position += start.X;
    } else {
        if (start_outside) return RegionProblem{false, outside_text()};
        position += start.X + std::uint64_t{start.Y} * sub.WidthInTiles +
                    std::uint64_t{start.Z} * sub.WidthInTiles * sub.HeightInTiles;
    }
    const std::uint64_t remaining = tiling_.total_tiles - position;
    if (size.NumTiles > remaining) {
        return RegionProblem{
            true, "NumTiles " + std::to_string(size.NumTiles) +
                      " runs past the end of the resource: " + std::to_string(remaining) +
                      " tiles follow the start in subresource order"};
    }
    return std::nullopt;
}

template <class Visit>
void Layout::walk(const D3D11_TILED_RESOURCE_COORDINATE& start, const D3D11_TILE_REGION_SIZE& size,
                  Visit&& visit) const {
    if (size.NumTiles == 0) return;
    const std::uint32_t mips = tiling_.mip_levels;
    if (size.bUseBox) {
        const bool array = tiling_.array_size > 1;
        const std::uint32_t mip = start.Subresource % mips;
        const std::uint32_t slice = start.Subresource / mips;
        for (std::uint32_t dz = 0; dz < size.Depth; ++dz) {
            // In an array, Depth steps to the same mip of the next slice.
            const std::uint32_t subresource = array ? mip + (slice + dz) * mips : start.Subresource;
            const std::uint32_t z = array ? start.Z : start.Z + dz;
            for (std::uint32_t dy = 0; dy < size.Height; ++dy) {
                const std::uint32_t y = start.Y + dy;
                visit(TileRun{subresource, start.X, y, z, tile_in(subresource, start.X, y, z),
                              size.Width});
            }
        }
        return;
    }
    std::uint32_t remaining = size.NumTiles;
    std::uint32_t subresource = start.Subresource;
    std::uint32_t x = start.X, y = start.Y, z = start.Z;
    while (remaining > 0) {
        const std::uint32_t slice = subresource / mips;
        if (is_packed(subresource)) {  // the walk only reaches a slice's first packed mip
            const std::uint32_t count = std::min(remaining, packed_tiles_ - x);
            visit(TileRun{subresource, x, 0, 0, packed_starts_[slice] + x, count});
            remaining -= count;
            subresource = (slice + 1) * mips;
            x = y = z = 0;
            continue;
        }
        const D3D11_SUBRESOURCE_TILING& sub = tiling_.subresources[subresource];
        const std::uint32_t count = std::min(remaining, sub.WidthInTiles - x);
        visit(TileRun{subresource, x, y, z, tile_in(subresource, x, y, z), count});
        remaining -= count;
        x = 0;
        if (++y == sub.HeightInTiles) {
            y = 0;
            if (++z == sub.DepthInTiles) {
                z = 0;
                ++subresource;
            }
        }
    }
}

}  // namespace d3dcap::runtime::tiles::detail
