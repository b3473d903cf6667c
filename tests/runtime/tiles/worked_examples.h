// The tile tables the four worked UpdateTileMappings examples of the API
// reference must produce, written out by hand: the pool tile of every tile
// by overall index, N for NULL. Shared by the tile-model tests and the tests
// that replay the examples from a trace.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/tiles/tile_state.h"
#include "runtime/tiles/tiling_fixtures.h"

namespace worked_examples {

inline constexpr std::uint32_t N = d3dcap::runtime::tiles::kNullTile;

// 1. Clearing a whole surface to NULL, on 3x2 tiles, 2x1 tiles, then 2
// packed mips in 1 tile: 9 tiles.
inline d3dcap::runtime::tiles::ResourceTiling clear_tiling() {
    return tile_tests::make_tiling({{3, 2, 1}, {2, 1, 1}}, 2, 1);
}
// First every tile onto consecutive pool tiles from 20.
inline constexpr std::uint32_t kClearFirstOffset = 20;
inline const std::vector<std::uint32_t> kClearMapped = {20, 21, 22, 23, 24, 25,  // mip 0, 3x2
                                                        26, 27,                  // mip 1, 2x1
                                                        28};                     // packed
// Then the example's call.
inline const std::vector<std::uint32_t> kClearCleared = {N, N, N, N, N, N, N, N, N};

// 2. A 2x3 box at (1,1) onto the single pool tile 12, in 4x5 tiles.
inline constexpr std::uint32_t kBoxWidth = 4, kBoxHeight = 5;
// clang-format off
inline const std::vector<std::uint32_t> kBoxExpected = {
    N,  N,  N, N,
    N, 12, 12, N,
    N, 12, 12, N,
    N, 12, 12, N,
    N,  N,  N, N,
};
// clang-format on

// 3. Scattered single tiles (1,1), (4,7), (2,3) onto pool tiles 1, 4, 7, in
// 5x8 tiles.
inline constexpr std::uint32_t kScatteredWidth = 5, kScatteredHeight = 8;
// clang-format off
inline const std::vector<std::uint32_t> kScatteredExpected = {
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

// 4. The 22-tile example, in 27x31 tiles that all map pool tile 5
// beforehand, so that skipped tiles show.
inline constexpr std::uint32_t kMixedWidth = 27, kMixedHeight = 31;
inline constexpr std::uint32_t F = 5;
// Walk order: box 0 (1,1) (2,1) (1,2) (2,2) (1,3) (2,3); box 1 (4,7) (5,7) (6,7)
// (4,8) (5,8) (6,8) (4,9) (5,9) (6,9); box 2 (20,30) .. (26,30).
// Ranges: 9 10 11 | skip x8 | NULL x2 | 17 x5 | 2 | 9 | 4 | 17.
// clang-format off
inline const std::vector<std::vector<std::uint32_t>> kMixedRows0To10 = {
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
inline const std::vector<std::uint32_t> kMixedRow30 =
    {   F,  F,  F, F, F,  F,  F, F, F, F, F, F, F, F, F, F, F, F, F, F,17,17,17, 2, 9, 4,17};
// clang-format on
// Rows 11 to 29 keep pool tile F everywhere.

// The whole 27x31 table of the 22-tile example, row after row.
inline std::vector<std::uint32_t> mixed_expected() {
    std::vector<std::uint32_t> all;
    for (std::uint32_t y = 0; y < kMixedHeight; ++y) {
        const std::vector<std::uint32_t> row = y <= 10 ? kMixedRows0To10[y]
                                               : y == 30
                                                   ? kMixedRow30
                                                   : std::vector<std::uint32_t>(kMixedWidth, F);
        all.insert(all.end(), row.begin(), row.end());
    }
    return all;
}

}  // namespace worked_examples
