// The tile model's speed: tiles mapped per second for three mapping shapes
// (one 64x64-tile box, 4096 scattered single tiles, the API reference's
// mixed example), and what a checkpoint copy of the state costs, each next
// to a naive baseline in the same run. Every benchmark reports the state's
// heap bytes per tracked tile as the counter bytes_per_tile.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "runtime/tiles/tile_state.h"

using d3dcap::runtime::tiles::kNullTile;
using d3dcap::runtime::tiles::ObjectId;
using d3dcap::runtime::tiles::ResourceTiling;
using d3dcap::runtime::tiles::TileState;

namespace {

constexpr ObjectId kPool = 1000;
constexpr std::uint32_t kPoolTiles = 8192;

ResourceTiling flat_tiling(std::uint32_t width, std::uint32_t height) {
    ResourceTiling tiling;
    tiling.total_tiles = width * height;
    tiling.packed = D3D11_PACKED_MIP_DESC{1, 0, 0, 0};
    tiling.shape = D3D11_TILE_SHAPE{128, 128, 1};
    tiling.subresources = {D3D11_SUBRESOURCE_TILING{width, static_cast<UINT16>(height), 1, 0}};
    return tiling;
}

// A pool and resources 1..count of width x height tiles, every tile mapped.
TileState mapped_state(std::uint32_t count, std::uint32_t width, std::uint32_t height) {
    TileState tiles;
    tiles.create_pool(kPool, std::uint64_t{kPoolTiles} * d3dcap::runtime::tiles::kTileBytes,
                      nullptr);
    for (ObjectId id = 1; id <= count; ++id) {
        tiles.create_tiled_resource(id, flat_tiling(width, height), nullptr);
        const UINT offset = 0;
        tiles.update_tile_mappings(id, 1, nullptr, nullptr, kPool, 1, nullptr, &offset, nullptr, 0,
                                   nullptr);
    }
    return tiles;
}

void report(benchmark::State& state, const TileState& tiles, std::uint64_t tracked_tiles,
            std::uint64_t tiles_per_iteration) {
    if (tiles_per_iteration > 0) {
        state.SetItemsProcessed(
            static_cast<std::int64_t>(state.iterations() * tiles_per_iteration));
    }
    state.counters["bytes_per_tile"] =
        static_cast<double>(tiles.storage_bytes()) / static_cast<double>(tracked_tiles);
}

// One 64x64-tile box onto a contiguous pool range.
void BM_MapBox64x64(benchmark::State& state) {
    TileState tiles = mapped_state(1, 64, 64);
    const D3D11_TILED_RESOURCE_COORDINATE start{0, 0, 0, 0};
    const D3D11_TILE_REGION_SIZE box{64 * 64, TRUE, 64, 64, 1};
    UINT offset = 0;
    for (auto _ : state) {
        offset ^= 4096;
        benchmark::DoNotOptimize(tiles.update_tile_mappings(1, 1, &start, &box, kPool, 1, nullptr,
                                                            &offset, nullptr, 0, nullptr));
    }
    report(state, tiles, 64 * 64, 64 * 64);
}
BENCHMARK(BM_MapBox64x64);

struct Scattered {
    std::vector<D3D11_TILED_RESOURCE_COORDINATE> starts;
    std::vector<UINT> offsets;
};

Scattered scattered_tiles(std::uint32_t count) {
    Scattered scattered;
    std::mt19937 random(11);
    for (std::uint32_t i = 0; i < count; ++i) {
        const auto x = static_cast<UINT>(random() % 64);
        const auto y = static_cast<UINT>(random() % 64);
        scattered.starts.push_back({x, y, 0, 0});
        scattered.offsets.push_back(static_cast<UINT>(random() % kPoolTiles));
    }
    return scattered;
}

// 4096 single tiles: NumRanges = 4096, NULL sizes, flags and counts.
void BM_MapScattered4096(benchmark::State& state) {
    TileState tiles = mapped_state(1, 64, 64);
    const Scattered scattered = scattered_tiles(4096);
    for (auto _ : state) {
        benchmark::DoNotOptimize(
            tiles.update_tile_mappings(1, 4096, scattered.starts.data(), nullptr, kPool, 4096,
                                       nullptr, scattered.offsets.data(), nullptr, 0, nullptr));
    }
    report(state, tiles, 64 * 64, 4096);
}
BENCHMARK(BM_MapScattered4096);

// Seed 000's 22-tile example: three boxes through SKIP, NULL and reused-tile ranges.
void BM_MapSeedMixedExample(benchmark::State& state) {
    TileState tiles = mapped_state(1, 27, 31);
    const D3D11_TILED_RESOURCE_COORDINATE starts[3] = {{1, 1, 0, 0}, {4, 7, 0, 0}, {20, 30, 0, 0}};
    const D3D11_TILE_REGION_SIZE sizes[3] = {
        {6, TRUE, 2, 3, 1}, {9, TRUE, 3, 3, 1}, {7, TRUE, 7, 1, 1}};
    const UINT flags[8] = {0,
                           D3D11_TILE_RANGE_SKIP,
                           D3D11_TILE_RANGE_NULL,
                           D3D11_TILE_RANGE_REUSE_SINGLE_TILE,
                           0,
                           0,
                           0,
                           0};
    const UINT offsets[8] = {9, 0, 0, 17, 2, 9, 4, 17};
    const UINT counts[8] = {3, 8, 2, 5, 1, 1, 1, 1};
    for (auto _ : state) {
        benchmark::DoNotOptimize(
            tiles.update_tile_mappings(1, 3, starts, sizes, kPool, 8, flags, offsets, counts,
                                       D3D11_TILE_MAPPING_NO_OVERWRITE, nullptr));
    }
    report(state, tiles, 27 * 31, 22);
}
BENCHMARK(BM_MapSeedMixedExample);

// Baseline: the same 4096 scattered tile writes into a std::map per tile,
// without any checking or region walking.
void BM_Baseline_ScatteredIntoMap(benchmark::State& state) {
    const Scattered scattered = scattered_tiles(4096);
    std::map<std::uint32_t, std::uint32_t> mapped;
    for (std::uint32_t tile = 0; tile < 64 * 64; ++tile) mapped[tile] = tile;
    for (auto _ : state) {
        for (std::size_t i = 0; i < scattered.starts.size(); ++i) {
            mapped[scattered.starts[i].X + scattered.starts[i].Y * 64] = scattered.offsets[i];
        }
        benchmark::DoNotOptimize(mapped);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * 4096));
}
BENCHMARK(BM_Baseline_ScatteredIntoMap);

constexpr std::uint32_t kSnapshotResources = 25;  // 25 x 4096 = 102400 mapped tiles

// A checkpoint: copying the whole state.
void BM_SnapshotCopy(benchmark::State& state) {
    const TileState tiles = mapped_state(kSnapshotResources, 64, 64);
    for (auto _ : state) {
        TileState checkpoint = tiles;
        benchmark::DoNotOptimize(checkpoint);
    }
    report(state, tiles, kSnapshotResources * 4096, 0);
}
BENCHMARK(BM_SnapshotCopy);

// A checkpoint followed by a one-tile change: what copy-on-write then copies
// (the object list and the one resource touched).
void BM_SnapshotThenMapOneTile(benchmark::State& state) {
    TileState tiles = mapped_state(kSnapshotResources, 64, 64);
    const D3D11_TILED_RESOURCE_COORDINATE start{5, 5, 0, 0};
    UINT offset = 0;
    for (auto _ : state) {
        TileState checkpoint = tiles;
        offset = (offset + 1) % kPoolTiles;
        benchmark::DoNotOptimize(tiles.update_tile_mappings(13, 1, &start, nullptr, kPool, 1,
                                                            nullptr, &offset, nullptr, 0, nullptr));
        benchmark::DoNotOptimize(checkpoint);
    }
    report(state, tiles, kSnapshotResources * 4096, 0);
}
BENCHMARK(BM_SnapshotThenMapOneTile);

// Baseline: a deep copy of the same 102400 mappings as plain vectors.
void BM_Baseline_DeepCopy(benchmark::State& state) {
    const std::vector<std::vector<std::uint32_t>> mappings(kSnapshotResources,
                                                           std::vector<std::uint32_t>(4096, 7));
    for (auto _ : state) {
        std::vector<std::vector<std::uint32_t>> copy = mappings;
        benchmark::DoNotOptimize(copy);
    }
}
BENCHMARK(BM_Baseline_DeepCopy);

}  // namespace

BENCHMARK_MAIN();
