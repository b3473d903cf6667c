// Trace writing and reading speed, each next to its baseline in the same run:
// a plain memcpy of the same bytes, and LZ4 alone on the same chunk.
#include <benchmark/benchmark.h>
#include <lz4.h>

#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>

#include "format/trace/lz4_block.h"
#include "format/trace/reader.h"
#include "format/trace/record_json.h"
#include "format/trace/records.h"
#include "support/trace_fixture.h"

using namespace d3dcap;

namespace {

std::string scratch(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("d3dcap-bench-" + name)).string();
}

// A cheap call: Draw(3, 0) on context 2.
void build_small(flatbuffers::FlatBufferBuilder& b) {
    b.Clear();
    trace::finish_call(b, {2, 2, 0, 1, false}, fb::CreateID3D11DeviceContext_Draw(b, 3, 0));
}

// A data call: UpdateTiles of one 64 KiB tile.
void build_blob(flatbuffers::FlatBufferBuilder& b, const std::vector<std::uint8_t>& tile) {
    b.Clear();
    const fb::D3D11_TILED_RESOURCE_COORDINATE start(0, 0, 0, 0);
    const fb::D3D11_TILE_REGION_SIZE size(1, 0, 1, 1, 1);
    trace::finish_call(
        b, {2, 2, 0, 1, false},
        fb::CreateID3D11DeviceContext2_UpdateTilesDirect(b, 4, &start, &size, &tile, 0));
}

std::vector<std::uint8_t> tile_data() {
    std::vector<std::uint8_t> tile(65536);
    std::mt19937 random(5);
    for (auto& byte : tile)
        byte = static_cast<std::uint8_t>(random() % 16);  // compressible like texels
    return tile;
}

// Building and submitting records; the writer thread compresses and writes.
void BM_SubmitSmall(benchmark::State& state) {
    auto writer = trace::TraceWriter::create(scratch("small.d3dcap"), testing::sample_header());
    flatbuffers::FlatBufferBuilder b;
    for (auto _ : state) {
        build_small(b);
        benchmark::DoNotOptimize(writer.value()->submit(b));
    }
    build_small(b);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.GetSize()));
    state.SetItemsProcessed(state.iterations());
    writer.value()->close();
    std::filesystem::remove(scratch("small.d3dcap"));
}
BENCHMARK(BM_SubmitSmall)->UseRealTime();

// Arguments: compressor threads (0: the writer's default), and where the
// trace goes: 0 to /dev/shm where there is one, so that the disk does not set
// the pace; 1 to /dev/null, the writer's own pipeline (merge, deltas, LZ4,
// checksums) without the file system's page copies.
void BM_SubmitBlob64K(benchmark::State& state) {
    trace::WriterOptions options;
    options.compressor_threads = static_cast<std::size_t>(state.range(0));
    const bool to_null = state.range(1) == 1;
    const std::string path = to_null ? std::string("/dev/null")
                             : std::filesystem::is_directory("/dev/shm")
                                 ? std::string("/dev/shm/d3dcap-bench-blob.d3dcap")
                                 : scratch("blob.d3dcap");
    auto writer = trace::TraceWriter::create(path, testing::sample_header(), options);
    flatbuffers::FlatBufferBuilder b(70000);
    const std::vector<std::uint8_t> tile = tile_data();
    for (auto _ : state) {
        build_blob(b, tile);
        benchmark::DoNotOptimize(writer.value()->submit(b));
    }
    build_blob(b, tile);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.GetSize()));
    state.SetItemsProcessed(state.iterations());
    writer.value()->close();
    if (!to_null) std::filesystem::remove(path);
}
BENCHMARK(BM_SubmitBlob64K)
    ->ArgsProduct({{0, 1, 2}, {0, 1}})
    ->ArgNames({"compressors", "null"})
    ->UseRealTime();

// Capture threads sharing one writer: thread 0 creates and closes it, the
// loop starts and ends with all threads together. reserve_first numbers the
// event before the record is built, as a call entering the layer does.
std::unique_ptr<trace::TraceWriter> shared_writer;

void submit_shared(benchmark::State& state, bool reserve_first) {
    if (state.thread_index() == 0) {
        shared_writer = std::move(
            trace::TraceWriter::create(scratch("shared.d3dcap"), testing::sample_header()).value());
    }
    flatbuffers::FlatBufferBuilder b;
    for (auto _ : state) {
        if (reserve_first) {
            const std::optional<std::uint64_t> event = shared_writer->reserve();
            build_small(b);
            benchmark::DoNotOptimize(shared_writer->submit(b, *event));
        } else {
            build_small(b);
            benchmark::DoNotOptimize(shared_writer->submit(b));
        }
    }
    state.SetItemsProcessed(state.iterations());
    if (state.thread_index() == 0) {
        shared_writer->close();
        shared_writer.reset();
        std::filesystem::remove(scratch("shared.d3dcap"));
    }
}
void BM_SubmitSmallShared(benchmark::State& state) {
    submit_shared(state, false);
}
void BM_ReserveSubmitSmall(benchmark::State& state) {
    submit_shared(state, true);
}
BENCHMARK(BM_SubmitSmallShared)->Threads(1)->Threads(4)->UseRealTime();
BENCHMARK(BM_ReserveSubmitSmall)->Threads(1)->Threads(4)->UseRealTime();

// Baselines for reserve(): an atomic counter against one under a mutex.
std::atomic<std::uint64_t> atomic_counter{0};
std::mutex counter_mutex;
std::uint64_t locked_counter = 0;

void BM_CounterAtomic(benchmark::State& state) {
    for (auto _ : state) {
        benchmark::DoNotOptimize(atomic_counter.fetch_add(1, std::memory_order_relaxed));
    }
    state.SetItemsProcessed(state.iterations());
}
void BM_CounterMutex(benchmark::State& state) {
    for (auto _ : state) {
        std::lock_guard lock(counter_mutex);
        benchmark::DoNotOptimize(locked_counter++);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CounterAtomic)->Threads(1)->Threads(4)->UseRealTime();
BENCHMARK(BM_CounterMutex)->Threads(1)->Threads(4)->UseRealTime();

// Baseline: copying the same record bytes into a chunk-sized buffer.
void memcpy_record(benchmark::State& state, const flatbuffers::FlatBufferBuilder& b) {
    std::vector<std::uint8_t> chunk(4 << 20);
    std::size_t at = 0;
    for (auto _ : state) {
        if (at + b.GetSize() > chunk.size()) at = 0;
        std::memcpy(chunk.data() + at, b.GetBufferPointer(), b.GetSize());
        at += b.GetSize();
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * b.GetSize()));
    state.SetItemsProcessed(state.iterations());
}
void BM_MemcpySmall(benchmark::State& state) {
    flatbuffers::FlatBufferBuilder b;
    build_small(b);
    memcpy_record(state, b);
}
void BM_MemcpyBlob64K(benchmark::State& state) {
    flatbuffers::FlatBufferBuilder b(70000);
    build_blob(b, tile_data());
    memcpy_record(state, b);
}
BENCHMARK(BM_MemcpySmall);
BENCHMARK(BM_MemcpyBlob64K);

// Baseline: LZ4 alone on a 1 MiB chunk of such records; beside it the
// project's own LZ4 block compressor (the Windows layer's) on the same chunk.
void lz4_chunk(benchmark::State& state, bool blobs, bool own_compressor = false) {
    flatbuffers::FlatBufferBuilder b(70000);
    const std::vector<std::uint8_t> tile = tile_data();
    std::vector<char> chunk;
    std::size_t records = 0;
    while (chunk.size() < (1 << 20)) {
        blobs ? build_blob(b, tile) : build_small(b);
        chunk.insert(chunk.end(), b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
        ++records;
    }
    std::vector<char> out(
        static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(chunk.size()))));
    int compressed = 0;
    trace::BlockBytes own;
    for (auto _ : state) {
        if (own_compressor) {
            trace::lz4_compress_block(reinterpret_cast<const std::uint8_t*>(chunk.data()),
                                      chunk.size(), own);
            compressed = static_cast<int>(own.size());
        } else {
            compressed =
                LZ4_compress_default(chunk.data(), out.data(), static_cast<int>(chunk.size()),
                                     static_cast<int>(out.size()));
        }
        benchmark::DoNotOptimize(compressed);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * chunk.size()));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * records));
    state.counters["file_bytes_per_record"] =
        static_cast<double>(compressed) / static_cast<double>(records);
}
void BM_LZ4ChunkSmall(benchmark::State& state) {
    lz4_chunk(state, false);
}
void BM_LZ4ChunkBlob64K(benchmark::State& state) {
    lz4_chunk(state, true);
}
void BM_OwnLZ4ChunkSmall(benchmark::State& state) {
    lz4_chunk(state, false, true);
}
void BM_OwnLZ4ChunkBlob64K(benchmark::State& state) {
    lz4_chunk(state, true, true);
}
BENCHMARK(BM_LZ4ChunkSmall);
BENCHMARK(BM_OwnLZ4ChunkSmall);
BENCHMARK(BM_LZ4ChunkBlob64K);
BENCHMARK(BM_OwnLZ4ChunkBlob64K);

// Writing a whole trace of small calls, including compression and the index.
void BM_WriteTraceSmall(benchmark::State& state) {
    const auto records = static_cast<std::uint64_t>(state.range(0));
    flatbuffers::FlatBufferBuilder b;
    std::uint64_t file_size = 0;
    for (auto _ : state) {
        auto writer = trace::TraceWriter::create(scratch("whole.d3dcap"), testing::sample_header());
        for (std::uint64_t i = 0; i < records; ++i) {
            build_small(b);
            writer.value()->submit(b, i % 10000 == 9999);
        }
        writer.value()->close();
        file_size = std::filesystem::file_size(scratch("whole.d3dcap"));
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * records));
    state.counters["file_bytes_per_call"] =
        static_cast<double>(file_size) / static_cast<double>(records);
    std::filesystem::remove(scratch("whole.d3dcap"));
}
BENCHMARK(BM_WriteTraceSmall)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();

// A 10-million-event trace, written once for the reading benchmarks.
const std::string& big_trace() {
    static const std::string path = [] {
        const std::string p = scratch("10m.d3dcap");
        auto writer = trace::TraceWriter::create(p, testing::sample_header());
        flatbuffers::FlatBufferBuilder b;
        for (std::uint64_t i = 0; i < 10'000'000; ++i) {
            build_small(b);
            writer.value()->submit(b, i % 10000 == 9999);
        }
        writer.value()->close();
        return p;
    }();
    return path;
}

void BM_Open10M(benchmark::State& state) {
    const std::string& path = big_trace();
    for (auto _ : state) {
        auto reader = trace::TraceReader::open(path);
        benchmark::DoNotOptimize(reader.value()->event_count());
    }
}
BENCHMARK(BM_Open10M)->Unit(benchmark::kMicrosecond);

void BM_SeekRandom10M(benchmark::State& state) {
    auto reader = trace::TraceReader::open(big_trace());
    std::mt19937_64 random(1);
    for (auto _ : state) {
        auto record = reader.value()->record(random() % 10'000'000);
        benchmark::DoNotOptimize(record.value());
    }
}
BENCHMARK(BM_SeekRandom10M)->Unit(benchmark::kMicrosecond);

// `d3dcap dump --json` without the output: records to JSON lines.
void BM_DumpJson(benchmark::State& state) {
    auto reader = trace::TraceReader::open(big_trace());
    auto chunk = reader.value()->read_chunk(3);
    std::string text;
    text.reserve(1 << 20);
    for (auto _ : state) {
        text.clear();
        for (std::size_t i = 0; i < chunk->record_count(); ++i) {
            trace::append_record_json(chunk->record(i), text);
            text += '\n';
        }
        benchmark::DoNotOptimize(text.data());
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * chunk->record_count()));
}
BENCHMARK(BM_DumpJson);

}  // namespace

BENCHMARK_MAIN();
