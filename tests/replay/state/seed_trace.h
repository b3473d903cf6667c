// The four worked UpdateTileMappings examples of the API reference recorded
// in a trace as the capture layer writes one, for the tests of the tile
// timeline and of the viewer.
#pragma once

#include "replay/state/timeline_support.h"
#include "runtime/tiles/worked_examples.h"

namespace timeline_tests {

using namespace worked_examples;

inline constexpr std::uint64_t kPool = 100;
inline constexpr std::uint64_t kClear = 11, kBox = 12, kScattered = 13, kMixed = 14;

// Events of the trace the examples are recorded in.
struct SeedTrace {
    std::uint64_t events = 0;
    std::uint64_t clear_mapped = 0, clear_cleared = 0;
    std::uint64_t box_created = 0, box = 0;
    std::uint64_t scattered = 0;
    std::uint64_t mixed_filled = 0, mixed = 0;
};

inline SeedTrace write_seed_trace(const std::string& path) {
    TraceBuilder t(path);
    SeedTrace e;
    t.create_pool(kPool, 32);
    t.name(kPool, "seed pool");

    // 1. Clearing a whole surface to NULL (384x256 RGBA8, 4 mips).
    t.create_texture(kClear, 384, 256, 4, 1, clear_tiling());
    const UINT first_offset = kClearFirstOffset;
    e.clear_mapped =
        t.update(kContext, kClear, 1, nullptr, nullptr, kPool, 1, nullptr, &first_offset, nullptr);
    const UINT null_flags = D3D11_TILE_RANGE_NULL;
    e.clear_cleared = t.update(kContext, kClear, 1, nullptr, nullptr, 0, 1, &null_flags, nullptr,
                               nullptr, D3D11_TILE_MAPPING_NO_OVERWRITE);

    // 2. A 2x3 box at (1,1) onto pool tile 12.
    e.box_created = t.create_texture(kBox, kBoxWidth * 128, kBoxHeight * 128, 1, 1,
                                     tile_tests::flat_texture(kBoxWidth, kBoxHeight));
    t.name(kBox, "box");
    const D3D11_TILED_RESOURCE_COORDINATE box_start{1, 1, 0, 0};
    const D3D11_TILE_REGION_SIZE box_size{6, TRUE, 2, 3, 1};
    const UINT reuse = D3D11_TILE_RANGE_REUSE_SINGLE_TILE;
    const UINT twelve = 12;
    e.box = t.update(kContext, kBox, 1, &box_start, &box_size, kPool, 1, &reuse, &twelve, nullptr,
                     D3D11_TILE_MAPPING_NO_OVERWRITE);

    // 3. Scattered single tiles: coordinates and offsets only.
    t.create_texture(kScattered, kScatteredWidth * 128, kScatteredHeight * 128, 1, 1,
                     tile_tests::flat_texture(kScatteredWidth, kScatteredHeight));
    const D3D11_TILED_RESOURCE_COORDINATE singles[3] = {{1, 1, 0, 0}, {4, 7, 0, 0}, {2, 3, 0, 0}};
    const UINT single_offsets[3] = {1, 4, 7};
    e.scattered = t.update(kContext, kScattered, 3, singles, nullptr, kPool, 3, nullptr,
                           single_offsets, nullptr, D3D11_TILE_MAPPING_NO_OVERWRITE);
    t.marker(kContext, 1);

    // 4. The 22-tile example over a surface that maps pool tile 5 everywhere.
    t.create_texture(kMixed, kMixedWidth * 128, kMixedHeight * 128, 1, 1,
                     tile_tests::flat_texture(kMixedWidth, kMixedHeight));
    t.name(kMixed, "mixed");
    const UINT fill = F;
    e.mixed_filled =
        t.update(kContext, kMixed, 1, nullptr, nullptr, kPool, 1, &reuse, &fill, nullptr);
    const D3D11_TILED_RESOURCE_COORDINATE starts[3] = {{1, 1, 0, 0}, {4, 7, 0, 0}, {20, 30, 0, 0}};
    const D3D11_TILE_REGION_SIZE sizes[3] = {
        {6, TRUE, 2, 3, 1}, {9, TRUE, 3, 3, 1}, {7, TRUE, 7, 1, 1}};
    const UINT range_flags[8] = {0, D3D11_TILE_RANGE_SKIP, D3D11_TILE_RANGE_NULL, reuse, 0, 0, 0,
                                 0};
    const UINT offsets[8] = {9, 0, 0, 17, 2, 9, 4, 17};
    const UINT counts[8] = {3, 8, 2, 5, 1, 1, 1, 1};
    e.mixed = t.update(kContext, kMixed, 3, starts, sizes, kPool, 8, range_flags, offsets, counts,
                       D3D11_TILE_MAPPING_NO_OVERWRITE);
    t.marker(kContext, 2);
    e.events = t.close();
    return e;
}

}  // namespace timeline_tests
