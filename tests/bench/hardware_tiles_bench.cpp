// UpdateTileMappings on the Vulkan device, through the D3D11 API: tiles bound
// per second on a 16384x16384 R8G8B8A8 tiled texture (128x128 tiles) with a
// 512 MiB pool, for (a) a 64x64-tile box onto a contiguous pool range, (b)
// 4096 scattered tiles onto scattered pool tiles, (c) the example's streaming
// frame: the 256 tiles of an older frame unmapped, 16 runs of 16 newly visible
// tiles mapped onto the one loading tile (NO_OVERWRITE), 96 of them (the
// example's upload budget) remapped onto fresh consecutive pool tiles and
// written with UpdateTiles, then the frame's other GPU work (Flush). Cases
// (a) and (b) map, Flush, unmap, Flush. Each case runs as the device does it
// (coalesced binds, held back until GPU work needs the tiles) and as the
// naive baseline (D3DCAP_VULKAN_BIND_PER_TILE=1: one bind entry per tile,
// bound at every call). Rates are per wall-clock second.
#include <benchmark/benchmark.h>
#include <d3d11_2.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

namespace {

constexpr UINT kTiles = 128;       // per side
constexpr UINT kPoolTiles = 8192;  // 512 MiB

struct Gpu {
    ID3D11Device* device = nullptr;
    ID3D11DeviceContext2* context = nullptr;
    ID3D11Texture2D* texture = nullptr;
    ID3D11Buffer* pool = nullptr;

    explicit Gpu(bool per_tile) {
        if (per_tile) {
            setenv("D3DCAP_VULKAN_BIND_PER_TILE", "1", 1);
        } else {
            unsetenv("D3DCAP_VULKAN_BIND_PER_TILE");
        }
        ID3D11DeviceContext* immediate = nullptr;
        if (FAILED(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0,
                                     D3D11_SDK_VERSION, &device, nullptr, &immediate))) {
            return;
        }
        immediate->QueryInterface(__uuidof(ID3D11DeviceContext2),
                                  reinterpret_cast<void**>(&context));
        immediate->Release();
        D3D11_TEXTURE2D_DESC desc{};
        desc.Width = desc.Height = kTiles * 128;
        desc.MipLevels = desc.ArraySize = 1;
        desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        desc.SampleDesc.Count = 1;
        desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
        desc.MiscFlags = D3D11_RESOURCE_MISC_TILED;
        D3D11_BUFFER_DESC pool_desc{};
        pool_desc.ByteWidth = kPoolTiles * 65536;
        pool_desc.MiscFlags = D3D11_RESOURCE_MISC_TILE_POOL;
        if (FAILED(device->CreateTexture2D(&desc, nullptr, &texture)) ||
            FAILED(device->CreateBuffer(&pool_desc, nullptr, &pool))) {
            texture = nullptr;
        }
    }
    ~Gpu() {
        if (texture) texture->Release();
        if (pool) pool->Release();
        if (context) context->Release();
        if (device) device->Release();
    }
    bool ready() const { return texture != nullptr; }

    // Single-tile regions onto the given pool tiles (NULL when empty).
    void map_tiles(const std::vector<D3D11_TILED_RESOURCE_COORDINATE>& starts,
                   const std::vector<UINT>& pool_tiles, UINT flags = 0) {
        const auto count = static_cast<UINT>(starts.size());
        if (pool_tiles.empty()) {
            const UINT null_flag = D3D11_TILE_RANGE_NULL;
            context->UpdateTileMappings(texture, count, starts.data(), nullptr, nullptr, 1,
                                        &null_flag, nullptr, nullptr, flags);
            return;
        }
        const std::vector<UINT> ones(count, 1);
        context->UpdateTileMappings(texture, count, starts.data(), nullptr, pool, count, nullptr,
                                    pool_tiles.data(), ones.data(), flags);
    }
};

void report(benchmark::State& state, std::uint64_t tiles) {
    state.counters["tiles/s"] =
        benchmark::Counter(static_cast<double>(tiles), benchmark::Counter::kIsRate);
}

void box_onto_contiguous_pool(benchmark::State& state) {
    Gpu gpu(state.range(0) != 0);
    if (!gpu.ready()) return state.SkipWithError("no Vulkan device with tiled resources");
    const D3D11_TILED_RESOURCE_COORDINATE start{32, 32, 0, 0};
    const D3D11_TILE_REGION_SIZE box{64 * 64, TRUE, 64, 64, 1};
    const UINT first = 0, count = 64 * 64, null_flag = D3D11_TILE_RANGE_NULL;
    std::uint64_t tiles = 0;
    for (auto _ : state) {
        gpu.context->UpdateTileMappings(gpu.texture, 1, &start, &box, gpu.pool, 1, nullptr, &first,
                                        &count, 0);
        gpu.context->Flush();
        gpu.context->UpdateTileMappings(gpu.texture, 1, &start, &box, nullptr, 1, &null_flag,
                                        nullptr, nullptr, 0);
        gpu.context->Flush();
        tiles += 2 * count;
    }
    report(state, tiles);
}

void scattered_tiles(benchmark::State& state) {
    Gpu gpu(state.range(0) != 0);
    if (!gpu.ready()) return state.SkipWithError("no Vulkan device with tiled resources");
    std::mt19937 random(42);
    std::vector<UINT> cells(kTiles * kTiles), pages(kPoolTiles);
    std::iota(cells.begin(), cells.end(), 0u);
    std::iota(pages.begin(), pages.end(), 0u);
    std::shuffle(cells.begin(), cells.end(), random);
    std::shuffle(pages.begin(), pages.end(), random);
    std::vector<D3D11_TILED_RESOURCE_COORDINATE> starts;
    for (UINT i = 0; i < 4096; ++i) starts.push_back({cells[i] % kTiles, cells[i] / kTiles, 0, 0});
    pages.resize(4096);
    std::uint64_t tiles = 0;
    for (auto _ : state) {
        gpu.map_tiles(starts, pages);
        gpu.context->Flush();
        gpu.map_tiles(starts, {});
        gpu.context->Flush();
        tiles += 2 * starts.size();
    }
    report(state, tiles);
}

void streaming_mix(benchmark::State& state) {
    Gpu gpu(state.range(0) != 0);
    if (!gpu.ready()) return state.SkipWithError("no Vulkan device with tiled resources");
    constexpr UINT kFresh = 256, kBudget = 96;
    const UINT loading = kPoolTiles - 1;
    const std::vector<std::uint8_t> tile_data(std::size_t{kBudget} * 65536, 0x5A);
    UINT frame = 0, next_page = 0;
    std::vector<std::vector<D3D11_TILED_RESOURCE_COORDINATE>> resident;  // by frame
    std::uint64_t tiles = 0;
    for (auto _ : state) {
        if (resident.size() >= 4) {  // an older frame's tiles leave view
            gpu.map_tiles(resident.front(), {});
            tiles += resident.front().size();
            resident.erase(resident.begin());
        }
        // 16 rows of 16 tiles entering view at a window that moves each frame.
        const UINT x0 = (frame * 16) % (kTiles - 16), y0 = (frame * 7) % (kTiles - 16);
        std::vector<D3D11_TILED_RESOURCE_COORDINATE> starts;
        std::vector<D3D11_TILE_REGION_SIZE> rows;
        for (UINT row = 0; row < 16; ++row) {
            starts.push_back({x0, y0 + row, 0, 0});
            rows.push_back({16, TRUE, 16, 1, 1});
        }
        const UINT reuse = D3D11_TILE_RANGE_REUSE_SINGLE_TILE;
        gpu.context->UpdateTileMappings(gpu.texture, 16, starts.data(), rows.data(), gpu.pool, 1,
                                        &reuse, &loading, nullptr, D3D11_TILE_MAPPING_NO_OVERWRITE);
        // The first six rows (96 tiles) get their own pool tiles and data.
        const UINT first = next_page, count = kBudget;
        next_page = (next_page + kFresh) % (kPoolTiles - kFresh);
        gpu.context->UpdateTileMappings(gpu.texture, 6, starts.data(), rows.data(), gpu.pool, 1,
                                        nullptr, &first, &count, D3D11_TILE_MAPPING_NO_OVERWRITE);
        const D3D11_TILE_REGION_SIZE upload{kBudget, TRUE, 16, 6, 1};
        gpu.context->UpdateTiles(gpu.texture, &starts[0], &upload, tile_data.data(), 0);
        gpu.context->Flush();
        std::vector<D3D11_TILED_RESOURCE_COORDINATE> entered;
        for (UINT row = 0; row < 16; ++row)
            for (UINT x = 0; x < 16; ++x) entered.push_back({x0 + x, y0 + row, 0, 0});
        resident.push_back(std::move(entered));
        tiles += kFresh + kBudget;
        ++frame;
    }
    report(state, tiles);
}

}  // namespace

// Arg 0: coalesced; arg 1: one bind entry per tile.
BENCHMARK(box_onto_contiguous_pool)
    ->Arg(0)
    ->Arg(1)
    ->Iterations(20)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(scattered_tiles)
    ->Arg(0)
    ->Arg(1)
    ->Iterations(10)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(streaming_mix)
    ->Arg(0)
    ->Arg(1)
    ->Iterations(60)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
