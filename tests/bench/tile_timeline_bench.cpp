// The tile timeline on a generated 10-million-event trace: cheap calls, with
// an UpdateTileMappings every ~100 events on four tiled resources and a pool.
// Measures the first scan that takes the checkpoints, a query at a random
// event from the checkpoints against the same query scanned from event 0,
// and what the checkpoints cost in memory.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>

#include "format/trace/records.h"
#include "replay/state/tile_timeline.h"
#include "runtime/tiles/recorded_tiling.h"
#include "runtime/tiles/tiling.h"
#include "support/temp_dir.h"
#include "support/trace_fixture.h"

using namespace d3dcap;

namespace {

constexpr std::uint64_t kEvents = 10'000'000;
constexpr std::uint64_t kDevice = 1, kContext = 2, kPool = 3, kPoolTiles = 4096;

struct Texture {
    std::uint64_t id;
    std::uint32_t width, height;  // RGBA8, every mip
};
constexpr Texture kTextures[] = {{4, 16384, 16384}, {5, 4096, 4096}, {6, 4096, 2048}};
constexpr std::uint64_t kBuffer = 7;
constexpr std::uint32_t kBufferBytes = 256 * 65536;

void submit(trace::TraceWriter& writer, flatbuffers::FlatBufferBuilder& b, bool frame_end = false) {
    writer.submit(b, frame_end);
    b.Clear();
}

void write_tiling(trace::TraceWriter& writer, flatbuffers::FlatBufferBuilder& b, std::uint64_t id,
                  const runtime::tiles::ResourceShape& shape) {
    runtime::tiles::ResourceTiling t;
    runtime::tiles::compute_tiling(shape, t, nullptr);
    trace::finish_meta(b, 1, runtime::tiles::record_of_tiling(b, id, t));
    submit(writer, b);
}

// The objects, then cheap calls (draws, topology, a marker every 1000) with
// a tile call every 100 events.
void write_trace(const std::string& path) {
    auto writer = trace::TraceWriter::create(path, testing::sample_header());
    flatbuffers::FlatBufferBuilder b;
    const trace::CallContext device{kDevice, 0, 0, 1, true};
    const trace::CallContext context{kContext, kContext, 0, 1, false};
    trace::CallContext context_hr = context;
    context_hr.result_is_hresult = true;

    const fb::D3D11_BUFFER_DESC pool(kPoolTiles * 65536, D3D11_USAGE_DEFAULT, 0, 0,
                                     D3D11_RESOURCE_MISC_TILE_POOL, 0);
    trace::finish_call(b, device, fb::CreateID3D11Device_CreateBuffer(b, &pool, 0, kPool));
    submit(*writer.value(), b);
    for (const Texture& texture : kTextures) {
        const fb::D3D11_TEXTURE2D_DESC desc(
            texture.width, texture.height, 0, 1, DXGI_FORMAT_R8G8B8A8_UNORM, fb::SampleDesc(1, 0),
            D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, D3D11_RESOURCE_MISC_TILED);
        trace::finish_call(b, device,
                           fb::CreateID3D11Device_CreateTexture2D(b, &desc, 0, texture.id));
        submit(*writer.value(), b);
        runtime::tiles::ResourceShape shape;
        shape.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
        shape.width = texture.width;
        shape.height = texture.height;
        shape.format = DXGI_FORMAT_R8G8B8A8_UNORM;
        shape.mip_levels = 0;
        write_tiling(*writer.value(), b, texture.id, shape);
    }
    const fb::D3D11_BUFFER_DESC buffer(kBufferBytes, D3D11_USAGE_DEFAULT, 0, 0,
                                       D3D11_RESOURCE_MISC_TILED, 0);
    trace::finish_call(b, device, fb::CreateID3D11Device_CreateBuffer(b, &buffer, 0, kBuffer));
    submit(*writer.value(), b);

    std::mt19937 random(42);
    const auto below = [&](std::uint32_t n) {
        return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(random);
    };
    for (std::uint64_t event = 9; event < kEvents; ++event) {
        if (event % 100 == 0) {
            // A box of up to 8x8 tiles of mip 0 onto consecutive pool tiles,
            // or a run of the buffer's tiles; now and then unmapped.
            const std::uint32_t which = below(4);
            const bool unmap = below(8) == 0;
            std::vector<fb::D3D11_TILED_RESOURCE_COORDINATE> start;
            std::vector<fb::D3D11_TILE_REGION_SIZE> size;
            std::uint32_t tiles = 0;
            if (which < 3) {
                const Texture& t = kTextures[which];
                const std::uint32_t w = 1 + below(8), h = 1 + below(8);
                start.emplace_back(below(t.width / 128 - w + 1), below(t.height / 128 - h + 1), 0,
                                   0);
                size.emplace_back(w * h, 1, w, static_cast<std::uint16_t>(h), 1);
                tiles = w * h;
            } else {
                tiles = 1 + below(32);
                start.emplace_back(below(256 - tiles + 1), 0, 0, 0);
                size.emplace_back(tiles, 0, 1, 1, 1);
            }
            const std::vector<std::uint32_t> flags{unmap ? std::uint32_t{D3D11_TILE_RANGE_NULL}
                                                         : 0u};
            const std::vector<std::uint32_t> offsets{below(kPoolTiles - tiles + 1)};
            trace::finish_call(b, context_hr,
                               fb::CreateID3D11DeviceContext2_UpdateTileMappingsDirect(
                                   b, which < 3 ? kTextures[which].id : kBuffer, 1, &start, &size,
                                   kPool, 1, &flags, &offsets, nullptr, 0));
        } else if (event % 1000 == 1) {
            // A marker now and then (each one is an entry in the index).
            trace::finish_call(b, context,
                               fb::CreateID3D11DeviceContext2_SetMarkerIntDirect(
                                   b, "pass", static_cast<int>(event)));
        } else if (event % 2 == 0) {
            trace::finish_call(b, context,
                               fb::CreateID3D11DeviceContext_IASetPrimitiveTopology(
                                   b, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST));
        } else {
            trace::finish_call(b, context, fb::CreateID3D11DeviceContext_Draw(b, 3, 0));
        }
        submit(*writer.value(), b, event % 10000 == 9999);
    }
    writer.value()->close();
}

struct Trace {
    testing::TempDir dir;
    std::string path = dir.file("tiles-10m.d3dcap");
    double write_seconds = 0;
    Trace() {
        const auto start = std::chrono::steady_clock::now();
        write_trace(path);
        write_seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
};

const Trace& trace_file() {
    static const Trace trace;
    return trace;
}

std::unique_ptr<state::TileTimeline> open(std::uint64_t interval) {
    state::TimelineOptions options;
    options.checkpoint_interval = interval;
    return std::move(state::TileTimeline::open(trace_file().path, options).value());
}

double resident_mib() {
    std::ifstream statm("/proc/self/statm");
    std::uint64_t pages = 0, resident = 0;
    statm >> pages >> resident;
    return static_cast<double>(resident * 4096) / (1024.0 * 1024.0);
}

double heap_mib() {
    return static_cast<double>(mallinfo2().uordblks) / (1024.0 * 1024.0);
}

// The first scan of the whole trace, taking every checkpoint.
void BM_FirstScan(benchmark::State& state) {
    const std::uint64_t interval = static_cast<std::uint64_t>(state.range(0));
    state.counters["trace_write_s"] = trace_file().write_seconds;
    for (auto _ : state) {
        state.PauseTiming();
        malloc_trim(0);
        const double rss = resident_mib();
        auto timeline = open(interval);
        // The reader's index (chunk table, frames, markers) is not the timeline's.
        const double rss_open = resident_mib(), heap_open = heap_mib();
        state.counters["open_rss_MiB"] = rss_open - rss;
        state.ResumeTiming();
        if (!timeline->scan_all().ok()) state.SkipWithError("scan failed");
        state.PauseTiming();
        const state::CheckpointStats stats = timeline->checkpoint_stats();
        state.counters["checkpoints"] = static_cast<double>(stats.count);
        state.counters["storage_MiB"] =
            static_cast<double>(stats.storage_bytes) / (1024.0 * 1024.0);
        state.counters["scan_heap_MiB"] = heap_mib() - heap_open;
        state.counters["scan_rss_MiB"] = resident_mib() - rss_open;
        timeline.reset();
        state.ResumeTiming();
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kEvents));
}
BENCHMARK(BM_FirstScan)
    ->Arg(65536)
    ->Arg(16384)
    ->Arg(262144)
    ->Iterations(2)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// state_at(random event) once the checkpoints exist.
void BM_StateAtRandom(benchmark::State& state) {
    const std::uint64_t interval = static_cast<std::uint64_t>(state.range(0));
    auto timeline = open(interval);
    if (!timeline->scan_all().ok()) state.SkipWithError("scan failed");
    std::mt19937_64 random(7);
    std::uint64_t tiles = 0;
    for (auto _ : state) {
        auto result = timeline->state_at(random() % kEvents);
        if (!result.ok()) state.SkipWithError("query failed");
        tiles += result.value().tiled_resources().size();
    }
    benchmark::DoNotOptimize(tiles);
}
BENCHMARK(BM_StateAtRandom)
    ->Arg(65536)
    ->Arg(16384)
    ->Arg(262144)
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

// The same random events queried with the default checkpoints and with
// none (a scan from event 0 each time): the speedup checkpoints give.
void BM_CheckpointSpeedup(benchmark::State& state) {
    auto checkpointed = open(state::TimelineOptions{}.checkpoint_interval);
    if (!checkpointed->scan_all().ok()) state.SkipWithError("scan failed");
    auto scratch = open(0);
    std::mt19937_64 random(11);
    std::vector<std::uint64_t> events(10);
    for (std::uint64_t& event : events) event = random() % kEvents;
    using Clock = std::chrono::steady_clock;
    double from_start = 0, from_checkpoint = 0;
    for (auto _ : state) {
        for (const std::uint64_t event : events) {
            auto start = Clock::now();
            auto slow = scratch->state_at(event);
            from_start += std::chrono::duration<double>(Clock::now() - start).count();
            start = Clock::now();
            auto fast = checkpointed->state_at(event);
            from_checkpoint += std::chrono::duration<double>(Clock::now() - start).count();
            if (!slow.ok() || !fast.ok()) state.SkipWithError("query failed");
        }
    }
    const double queries = static_cast<double>(state.iterations() * events.size());
    state.counters["from_start_ms"] = from_start / queries * 1e3;
    state.counters["from_checkpoint_ms"] = from_checkpoint / queries * 1e3;
    state.counters["speedup"] = from_start / from_checkpoint;
}
BENCHMARK(BM_CheckpointSpeedup)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
