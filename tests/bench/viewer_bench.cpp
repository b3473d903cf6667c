// The viewer's models on a generated 1-million-event trace: opening it (the
// reader and the event tree) and showing its first event, finding an
// event's row, filtering every call (the proxy the viewer used to filter
// with on its window's thread, side by side with the worker's filter and
// what the window's thread does with its result), and switching events on a
// 16384x16384 tiled texture (the two tile states the worker builds, with
// and without the tile history's last changes, then the tile map and pool
// models of mip 0), building that history once, and selecting a late event
// through the state worker: the map first, the history after it.
#include <benchmark/benchmark.h>

#include <QCoreApplication>
#include <QEventLoop>
#include <QSortFilterProxyModel>
#include <algorithm>
#include <chrono>
#include <random>

#include "format/trace/records.h"
#include "replay/state/tile_timeline.h"
#include "runtime/tiles/recorded_tiling.h"
#include "runtime/tiles/tiling.h"
#include "support/temp_dir.h"
#include "support/trace_fixture.h"
#include "viewer/events/event_outline.h"
#include "viewer/events/event_tree_model.h"
#include "viewer/tile_map/state_worker.h"
#include "viewer/tile_map/tile_history.h"
#include "viewer/tile_map/tile_map_model.h"
#include "viewer/tile_pool/pool_model.h"

using namespace d3dcap;

namespace {

constexpr std::uint64_t kEvents = 1'000'000;
constexpr std::uint64_t kDevice = 1, kContext = 2, kPool = 3, kTexture = 4, kPoolTiles = 4096;
constexpr std::uint32_t kSize = 16384, kTilesAcross = kSize / 128;

void submit(trace::TraceWriter& writer, flatbuffers::FlatBufferBuilder& b, bool frame_end = false) {
    writer.submit(b, frame_end);
    b.Clear();
}

// The pool and texture, then cheap calls inside a marker region every 1000
// events, an 8x8-tile UpdateTileMappings every 100, a frame every 10000.
// Frame boundaries come from FrameBoundary records.
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
    const fb::D3D11_TEXTURE2D_DESC desc(kSize, kSize, 0, 1, DXGI_FORMAT_R8G8B8A8_UNORM,
                                        fb::SampleDesc(1, 0), D3D11_USAGE_DEFAULT,
                                        D3D11_BIND_SHADER_RESOURCE, 0, D3D11_RESOURCE_MISC_TILED);
    trace::finish_call(b, device, fb::CreateID3D11Device_CreateTexture2D(b, &desc, 0, kTexture));
    submit(*writer.value(), b);
    runtime::tiles::ResourceShape shape;
    shape.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
    shape.width = kSize;
    shape.height = kSize;
    shape.format = DXGI_FORMAT_R8G8B8A8_UNORM;
    shape.mip_levels = 0;
    runtime::tiles::ResourceTiling tiling;
    runtime::tiles::compute_tiling(shape, tiling, nullptr);
    trace::finish_meta(b, 1, runtime::tiles::record_of_tiling(b, kTexture, tiling));
    submit(*writer.value(), b);

    std::mt19937 random(42);
    const auto below = [&](std::uint32_t n) {
        return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(random);
    };
    for (std::uint64_t event = 3; event < kEvents; ++event) {
        if (event % 10000 == 5) {
            trace::finish_meta(b, 1, fb::CreateFrameBoundary(b, event / 10000));
        } else if (event % 1000 == 10) {
            trace::finish_call(b, context,
                               fb::CreateID3D11DeviceContext2_BeginEventIntDirect(
                                   b, "pass", static_cast<int>(event / 1000)));
        } else if (event % 1000 == 990) {
            trace::finish_call(b, context, fb::CreateID3D11DeviceContext2_EndEvent(b));
        } else if (event % 100 == 0) {
            const std::vector<fb::D3D11_TILED_RESOURCE_COORDINATE> start{
                {below(kTilesAcross - 8), below(kTilesAcross - 8), 0, 0}};
            const std::vector<fb::D3D11_TILE_REGION_SIZE> size{{64, 1, 8, 8, 1}};
            const std::vector<std::uint32_t> flags{0};
            const std::vector<std::uint32_t> offsets{below(kPoolTiles - 64)};
            trace::finish_call(
                b, context_hr,
                fb::CreateID3D11DeviceContext2_UpdateTileMappingsDirect(
                    b, kTexture, 1, &start, &size, kPool, 1, &flags, &offsets, nullptr, 0));
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

const std::string& trace_path() {
    static const testing::TempDir dir;
    static const std::string path = [] {
        std::string p = dir.file("viewer-1m.d3dcap");
        write_trace(p);
        return p;
    }();
    return path;
}

std::unique_ptr<trace::TraceReader> open_reader() {
    auto reader = trace::TraceReader::open(trace_path());
    if (!reader.ok()) std::abort();
    return std::move(reader.value());
}

// Opening: the reader (header and index) and the event tree of every frame
// and marker region, then the first screen of rows.
void BM_OpenTrace(benchmark::State& state) {
    for (auto _ : state) {
        auto reader = open_reader();
        viewer::EventTreeModel model(*reader);
        const QModelIndex frame = model.index(0, 0);
        for (int row = 0; row < 40; ++row) {
            benchmark::DoNotOptimize(model.index(row, 1, frame).data());
        }
        state.counters["frames"] = model.rowCount();
    }
}
BENCHMARK(BM_OpenTrace)->Unit(benchmark::kMillisecond);

// Jumping to an event: its row, and its call read from the trace.
void BM_JumpToEvent(benchmark::State& state) {
    auto reader = open_reader();
    viewer::EventTreeModel model(*reader);
    std::mt19937_64 random(7);
    for (auto _ : state) {
        const QModelIndex row = model.index_of_event(random() % kEvents);
        benchmark::DoNotOptimize(row.siblingAtColumn(1).data());
    }
}
BENCHMARK(BM_JumpToEvent)->Unit(benchmark::kMicrosecond);

std::uint64_t count_rows(const QAbstractItemModel& model, const QModelIndex& parent) {
    std::uint64_t rows = 0;
    for (int row = 0; row < model.rowCount(parent); ++row) {
        rows += 1 + count_rows(model, model.index(row, 0, parent));
    }
    return rows;
}

// Filtering every row by call name, and walking every row kept (as if all
// were expanded): the recursive proxy reads every record.
void BM_FilterAllEvents(benchmark::State& state) {
    auto reader = open_reader();
    viewer::EventTreeModel model(*reader);
    for (auto _ : state) {
        QSortFilterProxyModel filter;
        filter.setRecursiveFilteringEnabled(true);
        filter.setFilterKeyColumn(viewer::EventTreeModel::CallColumn);
        filter.setSourceModel(&model);
        filter.setFilterFixedString(QStringLiteral("UpdateTileMappings"));
        state.counters["rows_kept"] = double(count_rows(filter, {}));
    }
}
BENCHMARK(BM_FilterAllEvents)->Unit(benchmark::kMillisecond)->Iterations(2);

// The same filter as the viewer runs it now: on the worker, its own reader.
void BM_FilterOnWorker(benchmark::State& state) {
    auto reader = open_reader();
    viewer::EventTreeModel model(*reader);
    auto worker_reader = open_reader();
    for (auto _ : state) {
        const auto outline =
            viewer::filter_outline(*model.full_outline(), *worker_reader,
                                   QStringLiteral("UpdateTileMappings"), [] { return false; });
        std::uint64_t rows = 0;
        for (const viewer::OutlineNode& node : outline->nodes) rows += std::uint64_t(node.rows);
        state.counters["rows_kept"] = double(rows);
    }
}
BENCHMARK(BM_FilterOnWorker)->Unit(benchmark::kMillisecond)->Iterations(2);

// What the window's thread does with a filter's result: swap the outline in.
void BM_ShowFiltered(benchmark::State& state) {
    auto reader = open_reader();
    viewer::EventTreeModel model(*reader);
    auto worker_reader = open_reader();
    const auto outline =
        viewer::filter_outline(*model.full_outline(), *worker_reader,
                               QStringLiteral("UpdateTileMappings"), [] { return false; });
    for (auto _ : state) {
        model.show_outline(outline);
        model.show_outline(nullptr);
    }
}
BENCHMARK(BM_ShowFiltered)->Unit(benchmark::kMicrosecond);

// Each iteration's time, for the median and the slowest switch.
class IterationTimes {
  public:
    void start() { began_ = Clock::now(); }
    // The iteration's time in seconds.
    double stop() {
        times_.push_back(std::chrono::duration<double, std::milli>(Clock::now() - began_).count());
        return times_.back() / 1000;
    }
    void report(benchmark::State& state, const std::string& prefix = {}) {
        if (times_.empty()) return;
        std::sort(times_.begin(), times_.end());
        state.counters[prefix + "median_ms"] = times_[times_.size() / 2];
        state.counters[prefix + "max_ms"] = times_.back();
    }

  private:
    using Clock = std::chrono::steady_clock;
    Clock::time_point began_;
    std::vector<double> times_;
};

std::unique_ptr<viewer::TileHistory> texture_history() {
    auto history = std::make_unique<viewer::TileHistory>(open_reader());
    history->follow(kTexture);
    return history;
}

// What the worker and the window do for one event: the two states, the
// tile map and pool models, then, when there is a history, the last changes
// of the texture's tiles and the pool sizes, and the tile map with them.
void switch_to(std::uint64_t event, state::TileTimeline& timeline, viewer::TileHistory* history,
               viewer::TileMapModel& tiles, viewer::PoolModel& pool) {
    auto snapshot = std::make_shared<viewer::TileSnapshot>();
    snapshot->event = event;
    snapshot->before = timeline.state_at(event - 1).value();
    snapshot->after = timeline.state_at(event).value();
    snapshot->history_resource = kTexture;
    tiles.set_snapshot(snapshot);
    tiles.set_selection(kTexture, 0, 0);
    pool.set_pool_of(snapshot, kTexture);
    if (history != nullptr) {
        if (!history->scan_to(timeline, event, {}).ok()) std::abort();
        auto found = std::make_shared<viewer::SnapshotHistory>();
        found->event = event;
        found->resource = kTexture;
        found->last_changed =
            history->last_changed(event, snapshot->after.tiling(kTexture)->total_tiles);
        found->pool_sizes = history->pool_sizes(event);
        tiles.set_history(std::move(found));
    }
    benchmark::DoNotOptimize(tiles.cell(0, 0));
}

// Opening and showing the first event: the reader and event tree, then the
// worker's timeline, history and first state, and the models.
void BM_OpenAndShowFirstEvent(benchmark::State& state) {
    for (auto _ : state) {
        auto reader = open_reader();
        viewer::EventTreeModel model(*reader);
        auto timeline = state::TileTimeline::open(trace_path());
        if (!timeline.ok()) std::abort();
        viewer::TileHistory history(open_reader());
        viewer::TileMapModel tiles;
        viewer::PoolModel pool;
        auto snapshot = std::make_shared<viewer::TileSnapshot>();
        snapshot->after = timeline.value()->state_at(0).value();
        tiles.set_snapshot(snapshot);
        pool.set_pool_of(snapshot, kTexture);
        if (!history.scan_to(*timeline.value(), 0, {}).ok()) std::abort();
        benchmark::DoNotOptimize(history.pool_sizes(0));
        benchmark::DoNotOptimize(model.index(0, 1, model.index(0, 0)).data());
    }
}
BENCHMARK(BM_OpenAndShowFirstEvent)->Unit(benchmark::kMillisecond);

// Switching to a random event after the whole trace was scanned once: the
// worker's two states, then the tile map (128x128 tiles) and pool models.
// Without the history: the switch as it was before the last changes.
void BM_SwitchEvent(benchmark::State& state) {
    auto timeline = state::TileTimeline::open(trace_path());
    if (!timeline.ok() || !timeline.value()->scan_all().ok()) std::abort();
    std::unique_ptr<viewer::TileHistory> history;
    if (state.range(0) != 0) {
        history = texture_history();
        if (!history->scan_to(*timeline.value(), kEvents - 1, {}).ok()) std::abort();
    }
    viewer::TileMapModel tiles;
    viewer::PoolModel pool;
    std::mt19937_64 random(11);
    IterationTimes times;
    for (auto _ : state) {
        times.start();
        switch_to(1 + random() % (kEvents - 1), *timeline.value(), history.get(), tiles, pool);
        times.stop();
    }
    times.report(state);
    state.counters["cells"] = tiles.rowCount() * tiles.columnCount();
}
BENCHMARK(BM_SwitchEvent)->ArgName("history")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The history of the texture over the whole trace, built once per resource
// the first time an event near the end is shown (the timeline scanned).
void BM_BuildHistory(benchmark::State& state) {
    auto timeline = state::TileTimeline::open(trace_path());
    if (!timeline.ok() || !timeline.value()->scan_all().ok()) std::abort();
    for (auto _ : state) {
        auto history = texture_history();
        if (!history->scan_to(*timeline.value(), kEvents - 1, {}).ok()) std::abort();
        benchmark::DoNotOptimize(history->last_changed(kEvents - 1, 1));
    }
}
BENCHMARK(BM_BuildHistory)->Unit(benchmark::kMillisecond)->Iterations(2);

// Selecting a random event in the last tenth of the trace, the first one
// shown of the texture, through the state worker as the window asks for it:
// from the request to the tile map model holding the event's state (the
// benchmark's time), and to the model holding the history that follows it
// (history_*). The texture's history is new; the timeline has scanned the
// trace before (as any earlier late event makes it), or, scanned:0, has
// not (the first event shown after opening the trace).
void BM_SelectLateEvent(benchmark::State& state) {
    std::mt19937_64 random(13);
    IterationTimes map_times, history_times;
    for (auto _ : state) {
        auto timeline = state::TileTimeline::open(trace_path());
        if (!timeline.ok() || (state.range(0) != 0 && !timeline.value()->scan_all().ok()))
            std::abort();
        viewer::StateService service(std::move(timeline.value()), texture_history());
        viewer::TileMapModel tiles;
        tiles.set_selection(kTexture, 0, 0);
        QEventLoop loop;
        QObject::connect(&service, &viewer::StateService::ready, &loop,
                         [&](std::shared_ptr<const viewer::TileSnapshot> snapshot) {
                             tiles.set_snapshot(std::move(snapshot));
                             state.SetIterationTime(map_times.stop());
                         });
        QObject::connect(&service, &viewer::StateService::history_ready, &loop,
                         [&](std::shared_ptr<const viewer::SnapshotHistory> history) {
                             tiles.set_history(std::move(history));
                             history_times.stop();
                             loop.quit();
                         });
        map_times.start();
        history_times.start();
        service.request(kEvents - 1 - random() % (kEvents / 10), kTexture);
        loop.exec();
        if (!tiles.knows_last_changes()) std::abort();
    }
    map_times.report(state);
    history_times.report(state, "history_");
}
BENCHMARK(BM_SelectLateEvent)
    ->ArgName("scanned")
    ->Arg(1)
    ->Arg(0)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(10);

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    QCoreApplication app(argc, argv);  // the state worker delivers through its event loop
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
