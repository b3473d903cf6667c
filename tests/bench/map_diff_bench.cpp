// Speed of the Unmap diff on a 1 MiB mapped subresource: all equal, and 16
// scattered changed bytes, next to memcmp of the same 1 MiB as the baseline.
// Every benchmark reports the bytes compared per second.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "capture/layer/map_diff.h"

using d3dcap::capture::ByteRange;
using d3dcap::capture::changed_ranges;

namespace {

constexpr std::size_t kSize = 1 << 20;

std::vector<std::uint8_t> pattern() {
    std::vector<std::uint8_t> data(kSize);
    for (std::size_t i = 0; i < kSize; ++i) data[i] = static_cast<std::uint8_t>(i * 131 + 7);
    return data;
}

void report(benchmark::State& state) {
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * kSize));
}

void BM_MemcmpEqual1MiB(benchmark::State& state) {
    const std::vector<std::uint8_t> before = pattern(), after = pattern();
    for (auto _ : state) {
        int result = std::memcmp(before.data(), after.data(), kSize);
        benchmark::DoNotOptimize(result);
    }
    report(state);
}
BENCHMARK(BM_MemcmpEqual1MiB);

void BM_ChangedRangesEqual1MiB(benchmark::State& state) {
    const std::vector<std::uint8_t> before = pattern(), after = pattern();
    std::vector<ByteRange> ranges;
    ranges.reserve(64);
    for (auto _ : state) {
        changed_ranges(before.data(), after.data(), kSize, ranges);
        benchmark::DoNotOptimize(ranges.data());
    }
    if (!ranges.empty()) state.SkipWithError("equal buffers gave ranges");
    report(state);
}
BENCHMARK(BM_ChangedRangesEqual1MiB);

void BM_ChangedRangesScattered16_1MiB(benchmark::State& state) {
    const std::vector<std::uint8_t> before = pattern();
    std::vector<std::uint8_t> after = pattern();
    // 16 single bytes spread over the buffer, far apart enough not to merge.
    for (std::size_t i = 0; i < 16; ++i) after[i * (kSize / 16) + 4093 * i % 997] ^= 0x5a;
    std::vector<ByteRange> ranges;
    ranges.reserve(64);
    for (auto _ : state) {
        changed_ranges(before.data(), after.data(), kSize, ranges);
        benchmark::DoNotOptimize(ranges.data());
    }
    if (ranges.size() != 16) state.SkipWithError("expected 16 ranges");
    report(state);
}
BENCHMARK(BM_ChangedRangesScattered16_1MiB);

}  // namespace

BENCHMARK_MAIN();
