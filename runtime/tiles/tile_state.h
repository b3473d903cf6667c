// The tile-mapping state of every tile pool and tiled resource: the one
// implementation of the UpdateTileMappings / CopyTileMappings / ResizeTilePool
// rules, used by every device, the viewer and the tools.
//
// Calls validate first and change nothing when they return an error; each
// rejection sends a message naming the parameter and value to the sink.
// A TileState copies cheaply (shared, copy-on-write storage) so that callers
// can checkpoint it every few events.
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "runtime/messages.h"
#include "runtime/tiles/tiling.h"

namespace d3dcap::runtime::tiles {

using ObjectId = std::uint64_t;  // the device's id for a pool or resource; 0 means NULL
inline constexpr std::uint32_t kNullTile = 0xffffffff;

struct TileMapping {
    ObjectId pool = 0;  // 0 when the tile is NULL
    std::uint32_t pool_tile = kNullTile;
};

// One tile of a tiled resource, as a region walk visits it.
struct TileRef {
    std::uint32_t subresource = 0;
    std::uint32_t x = 0, y = 0, z = 0;  // in tiles; x = index in the packed set for packed mips
    std::uint32_t tile = 0;             // overall tile index in the resource
};

class TileState {
  public:
    TileState();
    ~TileState();
    TileState(const TileState&);
    TileState& operator=(const TileState&);
    TileState(TileState&&) noexcept;
    TileState& operator=(TileState&&) noexcept;

    // Objects. A pool is a Buffer with MISC_TILE_POOL; a tiled resource has
    // MISC_TILED and starts with every tile NULL.
    HRESULT create_pool(ObjectId pool, std::uint64_t byte_width, runtime::MessageSink* sink);
    HRESULT create_tiled_resource(ObjectId resource, const ResourceTiling& tiling,
                                  runtime::MessageSink* sink);
    void destroy(ObjectId object);  // pools stay alive while resources map them

    // The ID3D11DeviceContext2 methods, with pool = 0 for a NULL pool.
    HRESULT update_tile_mappings(ObjectId resource, UINT num_regions,
                                 const D3D11_TILED_RESOURCE_COORDINATE* starts,
                                 const D3D11_TILE_REGION_SIZE* sizes, ObjectId pool,
                                 UINT num_ranges, const UINT* range_flags,
                                 const UINT* pool_start_offsets, const UINT* range_tile_counts,
                                 UINT flags, runtime::MessageSink* sink);
    // The overall index of every tile the regions of an UpdateTileMappings
    // call cover, NULL arrays defaulted as the call defaults them, in walk
    // order (twice where regions overlap); empty when a region is refused.
    std::vector<std::uint32_t> mapping_region_tiles(ObjectId resource, UINT num_regions,
                                                    const D3D11_TILED_RESOURCE_COORDINATE* starts,
                                                    const D3D11_TILE_REGION_SIZE* sizes) const;
    HRESULT copy_tile_mappings(ObjectId dest, const D3D11_TILED_RESOURCE_COORDINATE& dest_start,
                               ObjectId source, const D3D11_TILED_RESOURCE_COORDINATE& source_start,
                               const D3D11_TILE_REGION_SIZE& size, UINT flags,
                               runtime::MessageSink* sink);
    HRESULT resize_tile_pool(ObjectId pool, std::uint64_t new_byte_width,
                             runtime::MessageSink* sink);

    // The tiles a CopyTiles/UpdateTiles region addresses, in the order the
    // linear side holds them; E_INVALIDARG when the region leaves the
    // resource, touches packed mips with a box, or (writes) touches packed
    // mips at all: they have no standard tile layout to write tiles into.
    enum class RegionAccess { Read, Write };
    HRESULT region_tiles(ObjectId resource, const D3D11_TILED_RESOURCE_COORDINATE& start,
                         const D3D11_TILE_REGION_SIZE& size, std::vector<TileRef>& tiles,
                         const char* call, runtime::MessageSink* sink,
                         RegionAccess access = RegionAccess::Read) const;

    // Queries for devices, the viewer and the tools.
    bool is_pool(ObjectId object) const;
    bool is_tiled_resource(ObjectId object) const;
    const ResourceTiling* tiling(ObjectId resource) const;
    ObjectId pool_of(ObjectId resource) const;  // 0 before the first pool
    TileMapping mapping(ObjectId resource, std::uint32_t tile) const;
    std::vector<TileMapping> mappings(ObjectId resource) const;  // every tile, by overall index
    std::uint64_t pool_tiles(ObjectId pool) const;               // current size in tiles
    // Every (resource, tile) that maps pool tile pool_tile.
    std::vector<std::pair<ObjectId, std::uint32_t>> references(ObjectId pool,
                                                               std::uint32_t pool_tile) const;
    // Every pool tile some resource maps, ascending, each once: one pass over
    // the pool's resources (for a shrink, instead of references() per tile).
    std::vector<std::uint32_t> referenced_pool_tiles(ObjectId pool) const;
    std::vector<ObjectId> tiled_resources() const;
    std::vector<ObjectId> pools() const;
    // Heap bytes behind this state, storage shared with copies counted in full.
    std::uint64_t storage_bytes() const;

  private:
    struct Impl;
    std::shared_ptr<const Impl> impl_;  // shared between copies; copied before a change
    Impl& mutable_impl();
    const Impl& state() const;  // an empty state for a moved-from object
};

}  // namespace d3dcap::runtime::tiles
