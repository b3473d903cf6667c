// Hand-built ResourceTiling values for the tile-state tests, numbered the way
// the reference device numbers tiles (slice by slice: the standard mips in mip
// order, then that slice's packed tiles), so that they agree with
// ResourceTiling::packed_start.
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/messages.h"
#include "runtime/tiles/tile_state.h"
#include "runtime/tiles/tiling.h"

namespace tile_tests {

using d3dcap::runtime::tiles::kPackedStart;
using d3dcap::runtime::tiles::ResourceTiling;

struct MipTiles {
    std::uint32_t width = 1, height = 1, depth = 1;
};

inline ResourceTiling make_tiling(const std::vector<MipTiles>& standard_mips,
                                  std::uint32_t packed_mips, std::uint32_t packed_tiles,
                                  std::uint32_t array_size = 1) {
    ResourceTiling tiling;
    tiling.mip_levels = static_cast<std::uint32_t>(standard_mips.size()) + packed_mips;
    tiling.array_size = array_size;
    tiling.shape = D3D11_TILE_SHAPE{128, 128, 1};
    std::uint32_t standard_tiles = 0;
    for (const MipTiles& mip : standard_mips) standard_tiles += mip.width * mip.height * mip.depth;
    const std::uint32_t slice_tiles = standard_tiles + packed_tiles;
    tiling.total_tiles = slice_tiles * array_size;
    tiling.packed = D3D11_PACKED_MIP_DESC{
        static_cast<UINT8>(standard_mips.size()), static_cast<UINT8>(packed_mips),
        packed_mips > 0 ? packed_tiles : 0, packed_mips > 0 ? standard_tiles : 0};
    for (std::uint32_t slice = 0; slice < array_size; ++slice) {
        std::uint32_t next = slice * slice_tiles;
        for (const MipTiles& mip : standard_mips) {
            tiling.subresources.push_back(D3D11_SUBRESOURCE_TILING{
                mip.width, static_cast<UINT16>(mip.height), static_cast<UINT16>(mip.depth), next});
            next += mip.width * mip.height * mip.depth;
        }
        for (std::uint32_t mip = 0; mip < packed_mips; ++mip) {
            tiling.subresources.push_back(D3D11_SUBRESOURCE_TILING{0, 0, 0, kPackedStart});
        }
    }
    return tiling;
}

// One mip of width x height tiles.
inline ResourceTiling flat_texture(std::uint32_t width, std::uint32_t height) {
    return make_tiling({{width, height, 1}}, 0, 0);
}

// 8x6, 4x3 and 2x2 tiles, then 2 packed mips in 2 tiles (64, 65): 66 tiles.
inline ResourceTiling mipped_texture() {
    return make_tiling({{8, 6, 1}, {4, 3, 1}, {2, 2, 1}}, 2, 2);
}

// 3 slices of 4x4 and 2x2 tiles plus 2 packed mips in 2 tiles: 22 tiles a
// slice, slice s's packed tiles at 22s+20 and 22s+21.
inline ResourceTiling texture_array() {
    return make_tiling({{4, 4, 1}, {2, 2, 1}}, 2, 2, 3);
}

// A Texture3D of 4x3x2 then 2x2x1 tiles: 28 tiles.
inline ResourceTiling volume_texture() {
    ResourceTiling tiling = make_tiling({{4, 3, 2}, {2, 2, 1}}, 0, 0);
    tiling.shape = D3D11_TILE_SHAPE{32, 32, 16};
    return tiling;
}

inline ResourceTiling tiled_buffer(std::uint32_t tiles) {
    ResourceTiling tiling;
    tiling.total_tiles = tiles;
    tiling.packed = D3D11_PACKED_MIP_DESC{1, 0, 0, 0};
    tiling.shape = D3D11_TILE_SHAPE{d3dcap::runtime::tiles::kTileBytes, 1, 1};
    tiling.subresources = {D3D11_SUBRESOURCE_TILING{tiles, 1, 1, 0}};
    return tiling;
}

// Keeps every message, for tests that check what a rejection says.
class RecordingSink : public d3dcap::runtime::MessageSink {
  public:
    void message(const d3dcap::runtime::Message& message) override { messages.push_back(message); }
    std::vector<d3dcap::runtime::Message> messages;
};

constexpr std::uint64_t pool_bytes(std::uint64_t tiles) {
    return tiles * d3dcap::runtime::tiles::kTileBytes;
}

inline D3D11_TILED_RESOURCE_COORDINATE at(UINT x, UINT y, UINT z = 0, UINT subresource = 0) {
    return D3D11_TILED_RESOURCE_COORDINATE{x, y, z, subresource};
}

inline D3D11_TILE_REGION_SIZE box(UINT width, UINT height, UINT depth = 1) {
    return D3D11_TILE_REGION_SIZE{width * height * depth, TRUE, width, static_cast<UINT16>(height),
                                  static_cast<UINT16>(depth)};
}

inline D3D11_TILE_REGION_SIZE tiles(UINT count) {
    return D3D11_TILE_REGION_SIZE{count, FALSE, 0, 0, 0};
}

// The pool tile of every tile of a resource, by overall index (kNullTile for NULL).
inline std::vector<std::uint32_t> pool_tile_table(const d3dcap::runtime::tiles::TileState& state,
                                                  d3dcap::runtime::tiles::ObjectId resource) {
    std::vector<std::uint32_t> table;
    for (const auto& mapping : state.mappings(resource)) table.push_back(mapping.pool_tile);
    return table;
}

}  // namespace tile_tests
