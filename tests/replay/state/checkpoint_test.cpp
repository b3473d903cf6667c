// A trace of thousands of random tile calls (valid and invalid, some that
// the trace records as succeeding although the model refuses them), read at
// random events in random order: with checkpoints every few events, with
// checkpoints every few chunks, and with none, the timeline must give the
// state a TileState fed the same calls directly had after that event.
#include <future>
#include <random>

#include "replay/state/timeline_support.h"
#include "runtime/tiles/tiling.h"

using namespace timeline_tests;
using d3dcap::runtime::tiles::TileState;

namespace {

class Random {
  public:
    explicit Random(std::uint32_t seed) : engine_(seed) {}
    std::uint32_t between(std::uint32_t low, std::uint32_t high) {  // inclusive
        return std::uniform_int_distribution<std::uint32_t>(low, high)(engine_);
    }
    bool percent(unsigned chance) { return between(0, 99) < chance; }

  private:
    std::mt19937 engine_;
};

// Writes random calls and applies each to `expected` as it goes.
class Generator {
  public:
    Generator(TraceBuilder& trace, Random& random) : t_(trace), r_(random) {}

    std::vector<TileState> after_event;  // the expected state after each event
    std::vector<std::uint64_t> noted;    // events whose call the model refuses

    void run(int steps) {
        pool(100, 64);
        pool(101, 32);
        texture(10, 1024, 768, 0, 1);
        texture(11, 512, 512, 3, 3);
        buffer(12, 10 * 65536 - 100);
        for (int step = 0; step < steps; ++step) {
            const std::uint32_t pick = r_.between(0, 99);
            if (pick < 40) {
                record(t_.marker(kContext, step));
            } else if (pick < 78) {
                update();
            } else if (pick < 88) {
                copy();
            } else if (pick < 94) {
                resize();
            } else if (pick < 97) {
                record(t_.name(resources_[r_.between(0, 2)], "named"));
            } else {
                replace_resource();
            }
        }
    }

  private:
    void record(std::uint64_t event) {
        REQUIRE(event == after_event.size());
        after_event.push_back(expected_);
    }
    // A call the model refuses is recorded with its failure, or now and
    // then as succeeding (the timeline then notes it).
    HRESULT recorded(HRESULT hr) { return FAILED(hr) && r_.percent(30) ? S_OK : hr; }
    void track(std::uint64_t event, HRESULT hr, HRESULT recorded_hr) {
        if (FAILED(hr) && SUCCEEDED(recorded_hr)) noted.push_back(event);
        record(event);
    }

    void pool(std::uint64_t id, std::uint64_t tiles) {
        REQUIRE(expected_.create_pool(id, tiles * 65536, nullptr) == S_OK);
        record(t_.create_pool(id, tiles));
        pools_.push_back(id);
    }
    void texture(std::uint64_t id, std::uint32_t width, std::uint32_t height, std::uint32_t mips,
                 std::uint32_t slices) {
        runtime::tiles::ResourceShape shape;
        shape.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
        shape.width = width;
        shape.height = height;
        shape.mip_levels = mips;
        shape.array_size = slices;
        shape.format = DXGI_FORMAT_R8G8B8A8_UNORM;
        runtime::tiles::ResourceTiling tiling;
        REQUIRE(runtime::tiles::compute_tiling(shape, tiling, nullptr) == S_OK);
        REQUIRE(expected_.create_tiled_resource(id, tiling, nullptr) == S_OK);
        const std::uint64_t first = t_.create_texture(id, width, height, mips, slices, tiling);
        for (std::uint64_t e = first; e < first + 3; ++e) record(e);
        resources_.push_back(id);
    }
    void buffer(std::uint64_t id, std::uint32_t bytes) {
        runtime::tiles::ResourceShape shape;
        shape.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
        shape.byte_width = bytes;
        runtime::tiles::ResourceTiling tiling;
        REQUIRE(runtime::tiles::compute_tiling(shape, tiling, nullptr) == S_OK);
        REQUIRE(expected_.create_tiled_resource(id, tiling, nullptr) == S_OK);
        record(t_.create_tiled_buffer(id, bytes));  // no ResourceTiling: the computed one
        resources_.push_back(id);
    }
    void replace_resource() {
        const std::size_t which = r_.between(0, 1);
        expected_.destroy(resources_[which]);
        record(t_.destroyed(resources_[which]));
        const std::uint64_t id = next_id_++;
        texture(id, 256 * r_.between(1, 6), 128 * r_.between(1, 6), 0, 1);
        resources_.pop_back();
        resources_[which] = id;
    }

    std::uint64_t any_resource() { return resources_[r_.between(0, 2)]; }

    // A region inside the resource mostly, sometimes past its edge.
    std::uint64_t region(std::uint64_t id, D3D11_TILED_RESOURCE_COORDINATE& start,
                         D3D11_TILE_REGION_SIZE& size) {
        const runtime::tiles::ResourceTiling& tiling = *expected_.tiling(id);
        const auto s = r_.between(0, static_cast<std::uint32_t>(tiling.subresources.size() - 1));
        const D3D11_SUBRESOURCE_TILING& sub = tiling.subresources[s];
        start = {0, 0, 0, s};
        if (sub.StartTileIndexInOverallResource == runtime::tiles::kPackedStart || r_.percent(40)) {
            if (sub.StartTileIndexInOverallResource != runtime::tiles::kPackedStart) {
                start.X = r_.between(0, sub.WidthInTiles - 1);
                start.Y = r_.between(0, sub.HeightInTiles - 1);
            }
            size = {r_.between(1, 24), FALSE, 0, 0, 0};
            return size.NumTiles;
        }
        start.X = r_.between(0, sub.WidthInTiles - 1);
        start.Y = r_.between(0, sub.HeightInTiles - 1);
        const std::uint32_t grow = r_.percent(10) ? 2 : 0;
        const std::uint32_t w = r_.between(1, sub.WidthInTiles - start.X + grow);
        const auto h = static_cast<std::uint16_t>(r_.between(1, sub.HeightInTiles - start.Y));
        size = {w * h, TRUE, w, h, 1};
        return size.NumTiles;
    }

    void update() {
        const std::uint64_t id = any_resource();
        D3D11_TILED_RESOURCE_COORDINATE starts[3];
        D3D11_TILE_REGION_SIZE sizes[3];
        const UINT regions = r_.between(1, 3);
        std::uint64_t total = 0;
        for (UINT i = 0; i < regions; ++i) total += region(id, starts[i], sizes[i]);
        const std::uint64_t pool = r_.percent(15) ? 0 : pools_[r_.between(0, 1)];
        const std::uint64_t pool_size = expected_.pool_tiles(pool != 0 ? pool : 100);
        UINT flags[4], offsets[4], counts[4];
        const UINT ranges = r_.between(1, 4);
        std::uint64_t left = total;
        for (UINT i = 0; i < ranges; ++i) {
            static constexpr UINT kinds[] = {0, 0, D3D11_TILE_RANGE_NULL, D3D11_TILE_RANGE_SKIP,
                                             D3D11_TILE_RANGE_REUSE_SINGLE_TILE};
            flags[i] = kinds[r_.between(0, 4)];
            counts[i] = i + 1 == ranges ? static_cast<UINT>(left)
                                        : r_.between(0, static_cast<std::uint32_t>(left));
            left -= counts[i];
            offsets[i] = r_.between(0, static_cast<std::uint32_t>(pool_size));
        }
        if (r_.percent(5)) counts[0] += 1;  // counts that do not add up
        const HRESULT hr = expected_.update_tile_mappings(id, regions, starts, sizes, pool, ranges,
                                                          flags, offsets, counts, 0, nullptr);
        const HRESULT recorded_hr = recorded(hr);
        track(t_.update(kContext, id, regions, starts, sizes, pool, ranges, flags, offsets, counts,
                        0, recorded_hr),
              hr, recorded_hr);
    }

    void copy() {
        const std::uint64_t dest = any_resource(), source = any_resource();
        D3D11_TILED_RESOURCE_COORDINATE dest_start, source_start;
        D3D11_TILE_REGION_SIZE size;
        region(source, source_start, size);
        D3D11_TILE_REGION_SIZE ignored;
        region(dest, dest_start, ignored);
        const HRESULT hr =
            expected_.copy_tile_mappings(dest, dest_start, source, source_start, size, 0, nullptr);
        // Recorded as succeeding: a refused copy is a note.
        track(t_.copy(kContext, dest, dest_start, source, source_start, size), hr, S_OK);
    }

    void resize() {
        const std::uint64_t id = pools_[r_.between(0, 1)];
        const std::uint64_t bytes =
            std::uint64_t{r_.between(0, 80)} * 65536 + (r_.percent(5) ? 7 : 0);
        const HRESULT hr = expected_.resize_tile_pool(id, bytes, nullptr);
        track(t_.resize(kContext, id, bytes), hr, S_OK);
    }

    TraceBuilder& t_;
    Random& r_;
    TileState expected_;
    std::vector<std::uint64_t> pools_;
    std::vector<std::uint64_t> resources_;
    std::uint64_t next_id_ = 13;
};

}  // namespace

TEST_CASE("checkpoints give the same state as a scan from event 0", "[state][checkpoints]") {
    d3dcap::testing::TempDir dir;
    Random random(20240611);
    trace::WriterOptions small_chunks;
    small_chunks.chunk_bytes = 4096;  // many chunks
    TraceBuilder trace(dir.file("random.d3dcap"), small_chunks);
    Generator generator(trace, random);
    generator.run(3000);
    const std::uint64_t events = trace.close();
    REQUIRE(events == generator.after_event.size());
    REQUIRE(generator.noted.size() > 20);

    auto by_events = open_timeline(dir.file("random.d3dcap"), 7, 0);
    auto by_chunks = open_timeline(dir.file("random.d3dcap"), 1 << 20, 2);
    auto scratch = open_timeline(dir.file("random.d3dcap"), 0);
    std::vector<std::uint64_t> queries;
    for (int i = 0; i < 40; ++i)
        queries.push_back(random.between(0, static_cast<std::uint32_t>(events - 1)));
    queries.push_back(events - 1);
    queries.push_back(0);
    queries.push_back(queries.front());  // the same event again, from the cursor
    for (const std::uint64_t event : queries) {
        INFO("event " << event);
        const TileState from_scratch = state_at(*scratch, event);
        check_same_state(state_at(*by_events, event), from_scratch);
        check_same_state(state_at(*by_chunks, event), from_scratch);
        check_same_state(from_scratch, generator.after_event[event]);
    }
    CHECK(by_events->checkpoint_stats().count > events / 7 - 1);
    CHECK(by_chunks->checkpoint_stats().count > 5);
    CHECK(scratch->checkpoint_stats().count == 0);

    // Every call the model refused although the trace says it succeeded is a note.
    std::vector<std::uint64_t> noted;
    for (const state::Note& note : by_events->notes_until(events - 1)) noted.push_back(note.event);
    CHECK(noted == generator.noted);
}

TEST_CASE("checkpoints over their memory budget are thinned out", "[state][checkpoints]") {
    d3dcap::testing::TempDir dir;
    Random random(99);
    TraceBuilder trace(dir.file("random.d3dcap"));
    Generator generator(trace, random);
    generator.run(2000);
    const std::uint64_t events = trace.close();

    // Room for about 20 checkpoints of the final state, asked for every 5 events.
    const std::uint64_t budget = 20 * generator.after_event.back().storage_bytes();
    state::TimelineOptions options;
    options.checkpoint_interval = 5;
    options.checkpoint_chunks = 0;
    options.max_checkpoint_bytes = budget;
    auto opened = state::TileTimeline::open(dir.file("random.d3dcap"), options);
    REQUIRE(opened.ok());
    state::TileTimeline& timeline = *opened.value();
    REQUIRE(timeline.scan_all().ok());
    const state::CheckpointStats stats = timeline.checkpoint_stats();
    CHECK(stats.storage_bytes <= budget);
    CHECK(stats.spacing >= 8);
    CHECK(stats.count >= 10);
    CHECK(stats.count <= 21);
    for (int i = 0; i < 20; ++i) {
        const std::uint64_t event = random.between(0, static_cast<std::uint32_t>(events - 1));
        INFO("event " << event);
        check_same_state(state_at(timeline, event), generator.after_event[event]);
    }
}

TEST_CASE("a cancelled query leaves the timeline usable", "[state][checkpoints]") {
    d3dcap::testing::TempDir dir;
    Random random(7);
    trace::WriterOptions small_chunks;
    small_chunks.chunk_bytes = 4096;
    TraceBuilder trace(dir.file("random.d3dcap"), small_chunks);
    Generator generator(trace, random);
    generator.run(600);
    const std::uint64_t events = trace.close();

    auto timeline = open_timeline(dir.file("random.d3dcap"), 16);
    std::uint64_t calls = 0;
    auto cancelled = timeline->state_at(events - 1, [&](std::uint64_t next, std::uint64_t target) {
        CHECK(target == events - 1);
        CHECK(next < events);
        return ++calls < 3;
    });
    REQUIRE_FALSE(cancelled.ok());
    CHECK(state::TileTimeline::is_cancelled(cancelled.error()));
    CHECK(calls == 3);
    const std::uint64_t stopped_at = timeline->checkpoint_stats().scanned_events;
    CHECK(stopped_at > 0);
    CHECK(stopped_at < events);
    check_same_state(state_at(*timeline, events - 1), generator.after_event[events - 1]);
    check_same_state(state_at(*timeline, stopped_at / 2), generator.after_event[stopped_at / 2]);
    REQUIRE(timeline->scan_all().ok());
    CHECK(timeline->checkpoint_stats().scanned_events == events);

    // From a worker thread, as a viewer queries it.
    auto worker = std::async(std::launch::async, [&] { return timeline->state_at(events / 3); });
    auto from_worker = worker.get();
    REQUIRE(from_worker.ok());
    check_same_state(from_worker.value(), generator.after_event[events / 3]);
}
