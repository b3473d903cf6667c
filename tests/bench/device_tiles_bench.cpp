// UpdateTileMappings through the standard API on the reference and the
// state-only (NULL driver type) devices: tiles mapped per second for one
// 64x64-tile box onto a contiguous pool range, 4096 scattered single tiles,
// and the 22-tile mixed example of the API reference.
#include <benchmark/benchmark.h>
#include <d3d11_2.h>

#include <cstdint>
#include <random>
#include <vector>

#include "runtime/inspection.h"

namespace {

struct Device {
    ID3D11Device* device = nullptr;
    ID3D11DeviceContext2* context = nullptr;
    ID3D11Buffer* pool = nullptr;
    ID3D11Texture2D* texture = nullptr;

    Device(D3D_DRIVER_TYPE type, UINT texels) {
        ID3D11DeviceContext* immediate = nullptr;
        D3D11CreateDevice(nullptr, type, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION, &device,
                          nullptr, &immediate);
        immediate->QueryInterface(__uuidof(ID3D11DeviceContext2),
                                  reinterpret_cast<void**>(&context));
        immediate->Release();
        D3D11_BUFFER_DESC pool_desc{};
        pool_desc.ByteWidth = 8192u * 65536u;
        pool_desc.MiscFlags = D3D11_RESOURCE_MISC_TILE_POOL;
        device->CreateBuffer(&pool_desc, nullptr, &pool);
        D3D11_TEXTURE2D_DESC desc{};
        desc.Width = texels;
        desc.Height = texels;
        desc.MipLevels = 1;
        desc.ArraySize = 1;
        desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        desc.SampleDesc.Count = 1;
        desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
        desc.MiscFlags = D3D11_RESOURCE_MISC_TILED;
        device->CreateTexture2D(&desc, nullptr, &texture);
    }
    ~Device() {
        texture->Release();
        pool->Release();
        context->Release();
        device->Release();
    }
    void report(benchmark::State& state, std::uint64_t tiles_per_call) {
        state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * tiles_per_call));
        const auto* tiles = d3dcap::runtime::device_tile_state(device);
        state.counters["bytes_per_tile"] =
            static_cast<double>(tiles->storage_bytes()) / (64.0 * 64.0);
    }
};

D3D_DRIVER_TYPE driver(const benchmark::State& state) {
    return state.range(0) ? D3D_DRIVER_TYPE_REFERENCE : D3D_DRIVER_TYPE_NULL;
}

void BM_DeviceMapBox64x64(benchmark::State& state) {
    Device d(driver(state), 64 * 128);
    const D3D11_TILED_RESOURCE_COORDINATE start{0, 0, 0, 0};
    const D3D11_TILE_REGION_SIZE box{4096, TRUE, 64, 64, 1};
    UINT offset = 0;
    for (auto _ : state) {
        offset = (offset + 4096) % 8192;
        benchmark::DoNotOptimize(d.context->UpdateTileMappings(d.texture, 1, &start, &box, d.pool,
                                                               1, nullptr, &offset, nullptr, 0));
    }
    d.report(state, 4096);
}
BENCHMARK(BM_DeviceMapBox64x64)->ArgName("reference")->Arg(0)->Arg(1);

void BM_DeviceMapScattered4096(benchmark::State& state) {
    Device d(driver(state), 64 * 128);
    std::mt19937 random(3);
    std::vector<D3D11_TILED_RESOURCE_COORDINATE> starts(4096);
    std::vector<UINT> offsets(4096);
    for (std::size_t i = 0; i < starts.size(); ++i) {
        starts[i] = {static_cast<UINT>(random() % 64), static_cast<UINT>(random() % 64), 0, 0};
        offsets[i] = static_cast<UINT>(random() % 8192);
    }
    if (d.context->UpdateTileMappings(d.texture, 4096, starts.data(), nullptr, d.pool, 4096,
                                      nullptr, offsets.data(), nullptr, 0) != S_OK) {
        state.SkipWithError("the scattered tiles were refused");
    }
    for (auto _ : state) {
        benchmark::DoNotOptimize(d.context->UpdateTileMappings(d.texture, 4096, starts.data(),
                                                               nullptr, d.pool, 4096, nullptr,
                                                               offsets.data(), nullptr, 0));
    }
    d.report(state, 4096);
}
BENCHMARK(BM_DeviceMapScattered4096)->ArgName("reference")->Arg(0)->Arg(1);

// The mixed example: two regions (a 3x2 box and 16 linear tiles) against
// ranges of every kind, 22 tiles in all.
void BM_DeviceMapMixedExample(benchmark::State& state) {
    Device d(driver(state), 64 * 128);
    const D3D11_TILED_RESOURCE_COORDINATE starts[2] = {{0, 0, 0, 0}, {4, 4, 0, 0}};
    const D3D11_TILE_REGION_SIZE sizes[2] = {{6, TRUE, 3, 2, 1}, {16, FALSE, 0, 0, 0}};
    const UINT flags[5] = {0, D3D11_TILE_RANGE_SKIP, D3D11_TILE_RANGE_NULL,
                           D3D11_TILE_RANGE_REUSE_SINGLE_TILE, 0};
    const UINT offsets[5] = {10, 0, 0, 20, 30};
    const UINT counts[5] = {4, 3, 5, 6, 4};
    if (d.context->UpdateTileMappings(d.texture, 2, starts, sizes, d.pool, 5, flags, offsets,
                                      counts, 0) != S_OK) {
        state.SkipWithError("the mixed example was refused");
    }
    for (auto _ : state) {
        benchmark::DoNotOptimize(d.context->UpdateTileMappings(d.texture, 2, starts, sizes, d.pool,
                                                               5, flags, offsets, counts, 0));
    }
    d.report(state, 22);
}
BENCHMARK(BM_DeviceMapMixedExample)->ArgName("reference")->Arg(0)->Arg(1);

}  // namespace

BENCHMARK_MAIN();
