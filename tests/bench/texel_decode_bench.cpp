// The texel decoder's speed on a 4096x4096 subresource decoded to RGBA
// floats in a buffer kept between runs (a fresh 256 MB buffer costs the
// kernel more in page faults than the decode), next to the floor: every byte
// times 1/255 into the same buffer.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "runtime/formats/formats.h"
#include "runtime/formats/texel_decode.h"

namespace {

constexpr std::uint32_t kSize = 4096;

std::vector<std::uint8_t> random_bytes(std::uint64_t count) {
    std::vector<std::uint8_t> bytes(count);
    std::mt19937 generator(1);
    for (std::uint8_t& byte : bytes) byte = static_cast<std::uint8_t>(generator());
    return bytes;
}

void BM_DecodeRgba(benchmark::State& state, DXGI_FORMAT format) {
    const std::uint64_t pitch = d3dcap::runtime::formats::row_pitch(format, kSize);
    const auto bytes = random_bytes(pitch * d3dcap::runtime::formats::row_count(format, kSize));
    std::vector<float> rgba(std::size_t{kSize} * kSize * 4);
    for (auto _ : state) {
        const bool ok = d3dcap::runtime::formats::decode_rgba(format, bytes, pitch, kSize, kSize,
                                                              std::span<float>(rgba));
        benchmark::DoNotOptimize(ok);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * std::int64_t{kSize} * kSize);
}

void BM_BytesTimesScaleFloor(benchmark::State& state) {
    const auto bytes = random_bytes(std::uint64_t{kSize} * kSize * 4);
    std::vector<float> rgba(bytes.size());
    for (auto _ : state) {
        for (std::size_t i = 0; i < bytes.size(); ++i) rgba[i] = bytes[i] * (1.0f / 255.0f);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * std::int64_t{kSize} * kSize);
}

}  // namespace

BENCHMARK(BM_BytesTimesScaleFloor)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DecodeRgba, R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DecodeRgba, B8G8R8A8_UNORM_SRGB, DXGI_FORMAT_B8G8R8A8_UNORM_SRGB)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DecodeRgba, R16G16B16A16_FLOAT, DXGI_FORMAT_R16G16B16A16_FLOAT)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DecodeRgba, D24_UNORM_S8_UINT, DXGI_FORMAT_D24_UNORM_S8_UINT)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DecodeRgba, BC1_UNORM, DXGI_FORMAT_BC1_UNORM)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_DecodeRgba, BC7_UNORM, DXGI_FORMAT_BC7_UNORM)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
