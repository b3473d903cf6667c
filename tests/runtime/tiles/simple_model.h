// A deliberately simple model of the tile-mapping rules, for checking
// d3dcap::runtime::tiles::TileState against: every tile of every resource is an entry
// of a std::map, every region is first written out as the list of its tiles,
// and every call builds its complete list of changes before making any.
// Slow and obvious on purpose; it shares no code with the real implementation.
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "runtime/tiles/tiling.h"

namespace simple_model {

using ObjectId = std::uint64_t;

struct Mapped {
    ObjectId pool = 0;
    std::uint32_t pool_tile = 0;
    bool operator==(const Mapped&) const = default;
};

struct Coordinate {
    std::uint32_t subresource, x, y, z;
    auto operator<=>(const Coordinate&) const = default;
};

class Model {
  public:
    void add_pool(ObjectId id, std::uint64_t tiles) { pools_[id] = Pool{tiles, false}; }
    void release_pool(ObjectId id) { pools_[id].released = true; }
    void add_resource(ObjectId id, const d3dcap::runtime::tiles::ResourceTiling& tiling) {
        Resource& resource = resources_[id];
        resource.tiling = tiling;
        // Every tile in subresource order; packed tiles under the first packed mip.
        for (std::uint32_t slice = 0; slice < tiling.array_size; ++slice) {
            bool packed_listed = false;
            for (std::uint32_t mip = 0; mip < tiling.mip_levels; ++mip) {
                const std::uint32_t sub = mip + slice * tiling.mip_levels;
                const D3D11_SUBRESOURCE_TILING& st = tiling.subresources[sub];
                if (st.StartTileIndexInOverallResource == d3dcap::runtime::tiles::kPackedStart) {
                    if (packed_listed) continue;
                    packed_listed = true;
                    for (std::uint32_t i = 0; i < tiling.packed.NumTilesForPackedMips; ++i) {
                        resource.order.push_back({{sub, i, 0, 0}, tiling.packed_start(slice) + i});
                    }
                    continue;
                }
                std::uint32_t tile = st.StartTileIndexInOverallResource;
                for (std::uint32_t z = 0; z < st.DepthInTiles; ++z) {
                    for (std::uint32_t y = 0; y < st.HeightInTiles; ++y) {
                        for (std::uint32_t x = 0; x < st.WidthInTiles; ++x) {
                            resource.order.push_back({{sub, x, y, z}, tile++});
                        }
                    }
                }
            }
        }
    }

    bool is_pool(ObjectId id) const { return pools_.count(id) && !pools_.at(id).released; }
    std::uint64_t pool_tiles(ObjectId id) const { return pools_.at(id).tiles; }
    ObjectId pool_of(ObjectId resource) const { return resources_.at(resource).pool; }
    std::size_t tile_count(ObjectId resource) const { return resources_.at(resource).order.size(); }
    std::optional<Mapped> at(ObjectId resource, std::uint32_t tile) const {
        const auto& tiles = resources_.at(resource).tiles;
        auto found = tiles.find(tile);
        if (found == tiles.end()) return std::nullopt;
        return found->second;
    }
    // Position of a tile in the subresource-order walk, if the tile exists.
    std::optional<std::size_t> position(ObjectId resource, Coordinate c) const {
        const auto& order = resources_.at(resource).order;
        for (std::size_t i = 0; i < order.size(); ++i) {
            if (order[i].first == c) return i;
        }
        return std::nullopt;
    }

    // The overall tile indices a region covers, in walk order; nullopt when
    // the region is not entirely inside the resource.
    std::optional<std::vector<std::uint32_t>> region(ObjectId resource_id,
                                                     const D3D11_TILED_RESOURCE_COORDINATE& start,
                                                     const D3D11_TILE_REGION_SIZE& size) const {
        const Resource& resource = resources_.at(resource_id);
        const auto& tiling = resource.tiling;
        if (start.Subresource >= tiling.subresources.size()) return std::nullopt;
        const Coordinate first{start.Subresource, start.X, start.Y, start.Z};
        const auto first_position = position(resource_id, first);
        if (!first_position) return std::nullopt;
        std::vector<std::uint32_t> result;
        if (!size.bUseBox) {
            if (*first_position + size.NumTiles > resource.order.size()) return std::nullopt;
            for (std::size_t i = 0; i < size.NumTiles; ++i) {
                result.push_back(resource.order[*first_position + i].second);
            }
            return result;
        }
        const bool packed =
            tiling.subresources[start.Subresource].StartTileIndexInOverallResource ==
            d3dcap::runtime::tiles::kPackedStart;
        if (packed) return std::nullopt;
        if (std::uint64_t{size.Width} * size.Height * size.Depth != size.NumTiles)
            return std::nullopt;
        const std::uint32_t mip = start.Subresource % tiling.mip_levels;
        const std::uint32_t slice = start.Subresource / tiling.mip_levels;
        for (std::uint32_t dz = 0; dz < size.Depth; ++dz) {
            for (std::uint32_t dy = 0; dy < size.Height; ++dy) {
                for (std::uint32_t dx = 0; dx < size.Width; ++dx) {
                    Coordinate c{start.Subresource, start.X + dx, start.Y + dy, start.Z + dz};
                    if (tiling.array_size > 1) {
                        c = Coordinate{mip + (slice + dz) * tiling.mip_levels, start.X + dx,
                                       start.Y + dy, start.Z};
                    }
                    const auto p = position(resource_id, c);
                    if (!p) return std::nullopt;
                    result.push_back(resource.order[*p].second);
                }
            }
        }
        return result;
    }

    HRESULT update(ObjectId resource_id, UINT num_regions,
                   const D3D11_TILED_RESOURCE_COORDINATE* starts,
                   const D3D11_TILE_REGION_SIZE* sizes, ObjectId pool, UINT num_ranges,
                   const UINT* range_flags, const UINT* offsets, const UINT* counts, UINT flags) {
        if (!resources_.count(resource_id)) return E_INVALIDARG;
        if (pool != 0 && !is_pool(pool)) return E_INVALIDARG;
        if (flags != 0 && flags != D3D11_TILE_MAPPING_NO_OVERWRITE) return E_INVALIDARG;
        if (starts == nullptr && num_regions > 1) return E_INVALIDARG;
        Resource& resource = resources_.at(resource_id);

        std::vector<std::uint32_t> walked;
        for (UINT i = 0; i < num_regions; ++i) {
            D3D11_TILED_RESOURCE_COORDINATE start{0, 0, 0, 0};
            if (starts) start = starts[i];
            D3D11_TILE_REGION_SIZE size{1, FALSE, 0, 0, 0};
            if (sizes) size = sizes[i];
            if (!sizes && !starts) size.NumTiles = static_cast<UINT>(resource.order.size());
            auto tiles = region(resource_id, start, size);
            if (!tiles) return E_INVALIDARG;
            walked.insert(walked.end(), tiles->begin(), tiles->end());
        }

        std::uint64_t range_total = 0;
        bool needs_pool = false;
        std::vector<std::uint64_t> range_counts;
        for (UINT i = 0; i < num_ranges; ++i) {
            const UINT flag = range_flags ? range_flags[i] : 0;
            if (flag != 0 && flag != D3D11_TILE_RANGE_NULL && flag != D3D11_TILE_RANGE_SKIP &&
                flag != D3D11_TILE_RANGE_REUSE_SINGLE_TILE) {
                return E_INVALIDARG;
            }
            std::uint64_t count = 1;
            if (counts) count = counts[i];
            if (!counts && num_ranges == 1) count = walked.size();
            range_counts.push_back(count);
            range_total += count;
            if (count > 0 && (flag == 0 || flag == D3D11_TILE_RANGE_REUSE_SINGLE_TILE))
                needs_pool = true;
        }
        if (range_total != walked.size()) return E_INVALIDARG;
        if (needs_pool && offsets == nullptr) return E_INVALIDARG;
        const ObjectId memory = pool != 0 ? pool : resource.pool;
        if (needs_pool && memory == 0) return E_INVALIDARG;

        // Every change, decided before any is made: tile -> new mapping or NULL.
        std::vector<std::pair<std::uint32_t, std::optional<Mapped>>> changes;
        std::size_t next = 0;
        for (UINT i = 0; i < num_ranges; ++i) {
            const UINT flag = range_flags ? range_flags[i] : 0;
            for (std::uint64_t k = 0; k < range_counts[i]; ++k) {
                const std::uint32_t tile = walked[next++];
                if (flag == D3D11_TILE_RANGE_SKIP) continue;
                if (flag == D3D11_TILE_RANGE_NULL) {
                    changes.push_back({tile, std::nullopt});
                    continue;
                }
                const std::uint64_t pool_tile = flag == 0 ? offsets[i] + k : offsets[i];
                if (pool_tile >= pools_.at(memory).tiles) return E_INVALIDARG;
                changes.push_back({tile, Mapped{memory, static_cast<std::uint32_t>(pool_tile)}});
            }
        }

        if (pool != 0 && pool != resource.pool) {
            resource.tiles.clear();
            resource.pool = pool;
        }
        for (const auto& [tile, mapped] : changes) {
            if (mapped) {
                resource.tiles[tile] = *mapped;
            } else {
                resource.tiles.erase(tile);
            }
        }
        return S_OK;
    }

    HRESULT copy(ObjectId dest, const D3D11_TILED_RESOURCE_COORDINATE& dest_start, ObjectId source,
                 const D3D11_TILED_RESOURCE_COORDINATE& source_start,
                 const D3D11_TILE_REGION_SIZE& size, UINT flags) {
        if (!resources_.count(dest) || !resources_.count(source)) return E_INVALIDARG;
        if (flags != 0 && flags != D3D11_TILE_MAPPING_NO_OVERWRITE) return E_INVALIDARG;
        const auto to = region(dest, dest_start, size);
        const auto from = region(source, source_start, size);
        if (!to || !from) return E_INVALIDARG;
        std::vector<std::optional<Mapped>> saved;
        for (std::uint32_t tile : *from) saved.push_back(at(source, tile));
        const ObjectId source_pool = resources_.at(source).pool;
        Resource& target = resources_.at(dest);
        if (source_pool != 0 && source_pool != target.pool) {
            target.tiles.clear();
            target.pool = source_pool;
        }
        for (std::size_t i = 0; i < to->size(); ++i) {
            if (saved[i]) {
                target.tiles[(*to)[i]] = *saved[i];
            } else {
                target.tiles.erase((*to)[i]);
            }
        }
        return S_OK;
    }

    HRESULT resize(ObjectId pool, std::uint64_t bytes) {
        if (!is_pool(pool)) return E_INVALIDARG;
        if (bytes % 65536 != 0) return E_INVALIDARG;
        pools_.at(pool).tiles = bytes / 65536;
        return S_OK;
    }

  private:
    struct Pool {
        std::uint64_t tiles = 0;
        bool released = false;
    };
    struct Resource {
        d3dcap::runtime::tiles::ResourceTiling tiling;
        ObjectId pool = 0;
        std::map<std::uint32_t, Mapped> tiles;                    // absent: NULL
        std::vector<std::pair<Coordinate, std::uint32_t>> order;  // walk order: coordinate, tile
    };
    std::map<ObjectId, Pool> pools_;
    std::map<ObjectId, Resource> resources_;
};

}  // namespace simple_model
