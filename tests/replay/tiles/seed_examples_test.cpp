// The four worked UpdateTileMappings examples of the UpdateTileMappings reference, each against a tile
// table written out by hand.
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "replay/tiles/tile_state.h"
#include "replay/tiles/tiling_fixtures.h"

using d3dcap::tiles::kNullTile;
using d3dcap::tiles::ObjectId;
using d3dcap::tiles::TileState;
using namespace tile_tests;

namespace {

constexpr std::uint32_t N = kNullTile;
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

TEST_CASE("API reference example: clearing a whole surface to NULL covers every mip and the packed tiles",
          "[tiles][reference-example]") {
    TileState state;
    RecordingSink sink;
    // 3x2 tiles, 2x1 tiles, then 2 packed mips in 1 tile: 9 tiles.
    REQUIRE(state.create_pool(kPool, pool_bytes(32), &sink) == S_OK);
    REQUIRE(state.create_tiled_resource(kResource, make_tiling({{3, 2, 1}, {2, 1, 1}}, 2, 1),
                                        &sink) == S_OK);

    // First every tile onto consecutive pool tiles from 20 (all defaults but the offset).
    const UINT first_offset = 20;
    REQUIRE(state.update_tile_mappings(kResource, 1, nullptr, nullptr, kPool, 1, nullptr,
                                       &first_offset, nullptr, 0, &sink) == S_OK);
    const std::vector<std::uint32_t> mapped = {20, 21, 22, 23, 24, 25,  // mip 0, 3x2
                                               26, 27,                  // mip 1, 2x1
                                               28};                     // packed
    CHECK(pool_tiles_of(state, kResource) == mapped);

    // The reference example's call: whole resource, NULL offsets and counts, no pool.
    const UINT range_flags = D3D11_TILE_RANGE_NULL;
    REQUIRE(state.update_tile_mappings(kResource, 1, nullptr, nullptr, 0, 1, &range_flags, nullptr,
                                       nullptr, D3D11_TILE_MAPPING_NO_OVERWRITE, &sink) == S_OK);
    const std::vector<std::uint32_t> cleared = {N, N, N, N, N, N, N, N, N};
    CHECK(pool_tiles_of(state, kResource) == cleared);
    CHECK(state.pool_of(kResource) == kPool);
    CHECK(sink.messages.empty());
}

TEST_CASE("API reference example: a 2x3 box at (1,1) maps onto the single pool tile 12", "[tiles][reference-example]") {
    TileState state;
    RecordingSink sink;
    REQUIRE(state.create_pool(kPool, pool_bytes(16), &sink) == S_OK);
    REQUIRE(state.create_tiled_resource(kResource, flat_texture(4, 5), &sink) == S_OK);

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
    // clang-format off
    const std::vector<std::uint32_t> expected = {
        N,  N,  N, N,
        N, 12, 12, N,
        N, 12, 12, N,
        N, 12, 12, N,
        N,  N,  N, N,
    };
    // clang-format on
    CHECK(pool_tiles_of(state, kResource) == expected);
    CHECK(sink.messages.empty());
}

TEST_CASE("API reference example: scattered single tiles from coordinates and offsets alone", "[tiles][reference-example]") {
    TileState state;
    RecordingSink sink;
    REQUIRE(state.create_pool(kPool, pool_bytes(16), &sink) == S_OK);
    REQUIRE(state.create_tiled_resource(kResource, flat_texture(5, 8), &sink) == S_OK);

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
    // clang-format off
    const std::vector<std::uint32_t> expected = {
        N, N, N, N, N,
        N, 1, N, N, N,
        N, N, N, N, N,
        N, N, 7, N, N,
        N, N, N, N, N,
        N, N, N, N, N,
        N, N, N, N, N,
        N, N, N, N, 4,
    };
    // clang-format on
    CHECK(pool_tiles_of(state, kResource) == expected);
    CHECK(sink.messages.empty());
}

TEST_CASE("API reference example: 22 tiles of three boxes through SKIP, NULL and REUSE_SINGLE_TILE ranges",
          "[tiles][reference-example]") {
    TileState state;
    RecordingSink sink;
    constexpr UINT kWidth = 27;
    constexpr UINT kHeight = 31;
    REQUIRE(state.create_pool(kPool, pool_bytes(32), &sink) == S_OK);
    REQUIRE(state.create_tiled_resource(kResource, flat_texture(kWidth, kHeight), &sink) == S_OK);

    // Beforehand every tile shares pool tile 5, so that skipped tiles show.
    constexpr std::uint32_t F = 5;
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

    // Walk order: box 0 (1,1) (2,1) (1,2) (2,2) (1,3) (2,3); box 1 (4,7) (5,7) (6,7)
    // (4,8) (5,8) (6,8) (4,9) (5,9) (6,9); box 2 (20,30) .. (26,30).
    // Ranges: 9 10 11 | skip x8 | NULL x2 | 17 x5 | 2 | 9 | 4 | 17.
    // clang-format off
    const std::vector<std::vector<std::uint32_t>> rows_0_to_10 = {
        //  0   1   2  3  4   5   6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26
        {   F,  F,  F, F, F,  F,  F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},  // 0
        {   F,  9, 10, F, F,  F,  F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},  // 1
        {   F, 11,  F, F, F,  F,  F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},  // 2
        {   F,  F,  F, F, F,  F,  F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},  // 3
        {   F,  F,  F, F, F,  F,  F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},  // 4
        {   F,  F,  F, F, F,  F,  F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},  // 5
        {   F,  F,  F, F, F,  F,  F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},  // 6
        {   F,  F,  F, F, F,  F,  F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},  // 7
        {   F,  F,  F, F, F,  F,  N, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},  // 8
        {   F,  F,  F, F, N, 17, 17, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},  // 9
        {   F,  F,  F, F, F,  F,  F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F, F},  // 10
    };
    const std::vector<std::uint32_t> row_30 =
        {   F,  F,  F, F, F,  F,  F, F, F, F, F, F, F, F, F, F, F, F, F, F,17,17,17, 2, 9, 4,17};
    // clang-format on

    const std::vector<std::uint32_t> all = pool_tiles_of(state, kResource);
    REQUIRE(all.size() == kWidth * kHeight);
    auto row = [&](UINT y) {
        return std::vector<std::uint32_t>(all.begin() + y * kWidth, all.begin() + (y + 1) * kWidth);
    };
    for (UINT y = 0; y <= 10; ++y) {
        INFO("row " << y);
        CHECK(row(y) == rows_0_to_10[y]);
    }
    CHECK(row(30) == row_30);
    const std::vector<std::uint32_t> untouched(kWidth, F);
    for (UINT y = 11; y < 30; ++y) {
        INFO("row " << y);
        CHECK(row(y) == untouched);
    }
}
