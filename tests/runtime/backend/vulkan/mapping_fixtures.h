// A 16x16-tile mapping with every shape the coalescer handles differently;
// shared by the coalescer's unit tests and the GPU test that reads it back.
#pragma once

#include <cstdint>
#include <optional>

namespace gpu_tests {

// The page tile (x, y) maps, or nullopt for NULL:
//   rows 0-3, x 0-7:   a box onto contiguous pages 10..41      -> 1 entry
//   rows 0-3, x 8-15:  NULL                                    -> 1 entry
//   rows 4-7:          rows of 16 contiguous pages, stride 37  -> 4 entries
//   rows 8-11:         scattered pages (some shared), no runs  -> 64 entries
//   rows 12-15, x 0-7: all on page 200 (REUSE_SINGLE_TILE)     -> 32 entries
//   rows 12-15, x 8-15: rows of 8 contiguous pages, stride 10  -> 4 entries
inline std::optional<std::uint64_t> mixed_mapping(std::uint32_t x, std::uint32_t y) {
    if (y < 4) {
        if (x < 8) return 10 + y * 8 + x;
        return std::nullopt;
    }
    if (y < 8) return 100 + (y - 4) * 37 + x;
    if (y < 12) return 150 + (x * 5 + y * 3) % 16;
    if (x < 8) return 200;
    return 210 + (y - 12) * 10 + (x - 8);
}
inline constexpr std::uint32_t kMixedSize = 16;
inline constexpr std::uint32_t kMixedEntries = 1 + 1 + 4 + 64 + 32 + 4;

}  // namespace gpu_tests
