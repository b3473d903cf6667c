// The four worked UpdateTileMappings examples of the UpdateTileMappings reference, each against a
// tile table written out by hand.
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "runtime/tiles/tile_state.h"
#include "runtime/tiles/tiling_fixtures.h"
#include "runtime/tiles/worked_examples.h"

using d3dcap::runtime::tiles::kNullTile;
using d3dcap::runtime::tiles::ObjectId;
using d3dcap::runtime::tiles::TileState;
using namespace tile_tests;
using namespace worked_examples;

namespace {

constexpr ObjectId kPool = 100;
constexpr ObjectId kResource = 1;

// The pool tile of every tile of the resource, by overall index.
std::vector<std::uint32_t> pool_tiles_of(const TileState& state, ObjectId resource) {
    std::vector<std::uint32_t> result;
    for (const auto& mapping : state.mappings(resource)) {
        CHECK(mapping.pool == (mapping.pool_tile == kNullTile ? 0 : kPool));
        result.push_back(mapping.pool_tile);
    }
    return result;
}

}  // namespace

TEST_CASE(
    "API reference example: clearing a whole surface to NULL covers every mip and the packed tiles",
    "[tiles][reference-example]") {
    TileState state;
    RecordingSink sink;
    // 3x2 tiles, 2x1 tiles, then 2 packed mips in 1 tile: 9 tiles.
    REQUIRE(state.create_pool(kPool, pool_bytes(32), &sink) == S_OK);
    REQUIRE(state.create_tiled_resource(kResource, clear_tiling(), &sink) == S_OK);

    // First every tile onto consecutive pool tiles from 20 (all defaults but the offset).
    const UINT first_offset = kClearFirstOffset;
    REQUIRE(state.update_tile_mappings(kResource, 1, nullptr, nullptr, kPool, 1, nullptr,
                                       &first_offset, nullptr, 0, &sink) == S_OK);
    CHECK(pool_tiles_of(state, kResource) == kClearMapped);

    // The reference example's call: whole resource, NULL offsets and counts, no pool.
    const UINT range_flags = D3D11_TILE_RANGE_NULL;
    REQUIRE(state.update_tile_mappings(kResource, 1, nullptr, nullptr, 0, 1, &range_flags, nullptr,
                                       nullptr, D3D11_TILE_MAPPING_NO_OVERWRITE, &sink) == S_OK);
    CHECK(pool_tiles_of(state, kResource) == kClearCleared);
    CHECK(state.pool_of(kResource) == kPool);
    CHECK(sink.messages.empty());
}

TEST_CASE("API reference example: a 2x3 box at (1,1) maps onto the single pool tile 12",
          "[tiles][reference-example]") {
    TileState state;
    RecordingSink sink;
    REQUIRE(state.create_pool(kPool, pool_bytes(16), &sink) == S_OK);
    REQUIRE(state.create_tiled_resource(kResource, flat_texture(kBoxWidth, kBoxHeight), &sink) ==
            S_OK);

    D3D11_TILED_RESOURCE_COORDINATE trc{};
    trc.X = 1;
    trc.Y = 1;
    trc.Z = 0;
    trc.Subresource = 0;
    D3D11_TILE_REGION_SIZE trs{};
    trs.bUseBox = TRUE;
    trs.Width = 2;
    trs.Height = 3;
    trs.Depth = 1;
    trs.NumTiles = trs.Width * trs.Height * trs.Depth;
    const UINT range_flags = D3D11_TILE_RANGE_REUSE_SINGLE_TILE;
    const UINT start_offset = 12;
    REQUIRE(state.update_tile_mappings(kResource, 1, &trc, &trs, kPool, 1, &range_flags,
                                       &start_offset, nullptr, D3D11_TILE_MAPPING_NO_OVERWRITE,
                                       &sink) == S_OK);
    CHECK(pool_tiles_of(state, kResource) == kBoxExpected);
    CHECK(sink.messages.empty());
}

TEST_CASE("API reference example: scattered single tiles from coordinates and offsets alone",
          "[tiles][reference-example]") {
    TileState state;
    RecordingSink sink;
    REQUIRE(state.create_pool(kPool, pool_bytes(16), &sink) == S_OK);
    REQUIRE(state.create_tiled_resource(kResource, flat_texture(kScatteredWidth, kScatteredHeight),
                                        &sink) == S_OK);

    D3D11_TILED_RESOURCE_COORDINATE trc[3] = {};
    UINT start_offsets[3];
    const UINT num_single_tiles = 3;
    trc[0].X = 1;
    trc[0].Y = 1;
    trc[0].Subresource = 0;
    start_offsets[0] = 1;
    trc[1].X = 4;
    trc[1].Y = 7;
    trc[1].Subresource = 0;
    start_offsets[1] = 4;
    trc[2].X = 2;
    trc[2].Y = 3;
    trc[2].Subresource = 0;
    start_offsets[2] = 7;
    // NULL sizes: 1 tile per region; NULL flags: 0; NULL counts with 3 ranges: 1 tile each.
    REQUIRE(state.update_tile_mappings(kResource, num_single_tiles, trc, nullptr, kPool,
                                       num_single_tiles, nullptr, start_offsets, nullptr,
                                       D3D11_TILE_MAPPING_NO_OVERWRITE, &sink) == S_OK);
    CHECK(pool_tiles_of(state, kResource) == kScatteredExpected);
    CHECK(sink.messages.empty());
}

TEST_CASE(
    "API reference example: 22 tiles of three boxes through SKIP, NULL and REUSE_SINGLE_TILE "
    "ranges",
    "[tiles][reference-example]") {
    TileState state;
    RecordingSink sink;
    constexpr UINT kWidth = kMixedWidth;
    constexpr UINT kHeight = kMixedHeight;
    REQUIRE(state.create_pool(kPool, pool_bytes(32), &sink) == S_OK);
    REQUIRE(state.create_tiled_resource(kResource, flat_texture(kWidth, kHeight), &sink) == S_OK);

    // Beforehand every tile shares pool tile 5, so that skipped tiles show.
    const UINT reuse = D3D11_TILE_RANGE_REUSE_SINGLE_TILE;
    REQUIRE(state.update_tile_mappings(kResource, 1, nullptr, nullptr, kPool, 1, &reuse, &F,
                                       nullptr, 0, &sink) == S_OK);

    D3D11_TILED_RESOURCE_COORDINATE trc[3] = {};
    D3D11_TILE_REGION_SIZE trs[3] = {};
    const UINT num_regions = 3;
    trc[0].X = 1;
    trc[0].Y = 1;
    trc[0].Subresource = 0;
    trs[0].bUseBox = TRUE;
    trs[0].Width = 2;
    trs[0].Height = 3;
    trs[0].Depth = 1;  // the example leaves Depth unset; a 2D box has Depth 1
    trs[0].NumTiles = trs[0].Width * trs[0].Height;
    trc[1].X = 4;
    trc[1].Y = 7;
    trc[1].Subresource = 0;
    trs[1].bUseBox = TRUE;
    trs[1].Width = 3;
    trs[1].Height = 3;
    trs[1].Depth = 1;
    trs[1].NumTiles = trs[1].Width * trs[1].Height;
    trc[2].X = 20;
    trc[2].Y = 30;
    trc[2].Subresource = 0;
    trs[2].bUseBox = TRUE;
    trs[2].Width = 7;
    trs[2].Height = 1;
    trs[2].Depth = 1;
    trs[2].NumTiles = trs[2].Width * trs[2].Height;

    const UINT num_ranges = 8;
    const UINT range_flags[8] = {0,
                                 D3D11_TILE_RANGE_SKIP,
                                 D3D11_TILE_RANGE_NULL,
                                 D3D11_TILE_RANGE_REUSE_SINGLE_TILE,
                                 0,
                                 0,
                                 0,
                                 0};
    const UINT tile_pool_start_offsets[8] = {9, 0, 0, 17, 2, 9, 4, 17};
    const UINT range_tile_counts[8] = {3, 8, 2, 5, 1, 1, 1, 1};
    REQUIRE(state.update_tile_mappings(kResource, num_regions, trc, trs, kPool, num_ranges,
                                       range_flags, tile_pool_start_offsets, range_tile_counts,
                                       D3D11_TILE_MAPPING_NO_OVERWRITE, &sink) == S_OK);
    CHECK(sink.messages.empty());

    const std::vector<std::uint32_t> all = pool_tiles_of(state, kResource);
    REQUIRE(all.size() == kWidth * kHeight);
    auto row = [&](UINT y) {
        return std::vector<std::uint32_t>(all.begin() + y * kWidth, all.begin() + (y + 1) * kWidth);
    };
    for (UINT y = 0; y <= 10; ++y) {
        INFO("row " << y);
        CHECK(row(y) == kMixedRows0To10[y]);
    }
    CHECK(row(30) == kMixedRow30);
    const std::vector<std::uint32_t> untouched(kWidth, F);
    for (UINT y = 11; y < 30; ++y) {
        INFO("row " << y);
        CHECK(row(y) == untouched);
    }
}
