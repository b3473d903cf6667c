// The event tree of a trace written by the test: frames, marker regions
// nested as BeginEvent/EndEvent nest them, markers as leaves, calls between.
#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <fstream>

#include "replay/state/timeline_support.h"
#include "replay/tiles/tiling_fixtures.h"
#include "viewer/event_tree_model.h"
#include "viewer_support.h"

using namespace timeline_tests;
using d3dcap::viewer::EventTreeModel;

namespace {

constexpr std::uint64_t kPool = 100, kTexture = 11;

struct MarkerTrace {
    std::uint64_t frame0 = 0, stream = 0, update = 0, inner = 0, mark = 0, inner_end = 0,
                  stream_end = 0, frame1 = 0, frame_marker = 0, resize = 0, events = 0;
};

MarkerTrace write_marker_trace(const std::string& path) {
    TraceBuilder t(path);
    MarkerTrace e;
    t.create_pool(kPool, 8);
    t.create_texture(kTexture, 4 * 128, 4 * 128, 1, 1, tile_tests::flat_texture(4, 4));
    t.name(kTexture, "albedo");
    e.frame0 = t.meta(fb::CreateFrameBoundary(t.b, 0));
    e.stream = t.on(kContext, fb::CreateID3D11DeviceContext2_BeginEventIntDirect(t.b, "Stream", 7),
                    std::nullopt);
    const UINT offset = 3;
    e.update =
        t.update(kContext, kTexture, 1, nullptr, nullptr, kPool, 1, nullptr, &offset, nullptr);
    e.inner = t.on(kContext, fb::CreateID3D11DeviceContext2_BeginEventIntDirect(t.b, "Inner", 1),
                   std::nullopt);
    e.mark = t.on(kContext, fb::CreateID3D11DeviceContext2_SetMarkerIntDirect(t.b, "mark", 3),
                  std::nullopt);
    e.inner_end = t.on(kContext, fb::CreateID3D11DeviceContext2_EndEvent(t.b), std::nullopt);
    e.stream_end = t.on(kContext, fb::CreateID3D11DeviceContext2_EndEvent(t.b), std::nullopt);
    e.frame1 = t.meta(fb::CreateFrameBoundary(t.b, 1));
    e.frame_marker = t.marker(kContext, 2);
    e.resize = t.resize(kContext, kPool, 16 * 65536);
    e.events = t.close();
    return e;
}

QString text(const QModelIndex& index, int column = EventTreeModel::CallColumn) {
    return index.siblingAtColumn(column).data().toString();
}

}  // namespace

TEST_CASE("the event tree shows frames, nested marker regions and calls") {
    d3dcap::testing::TempDir dir;
    const std::string path = dir.file("markers.d3dcap");
    const MarkerTrace e = write_marker_trace(path);
    auto reader = trace::TraceReader::open(path);
    REQUIRE(reader.ok());
    EventTreeModel model(*reader.value());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);

    // The pool, texture, its tiling and name come before the first boundary.
    REQUIRE(e.frame0 == 5);
    REQUIRE(model.rowCount() == 3);
    const QModelIndex before = model.index(0, 0), frame0 = model.index(1, 0),
                      frame1 = model.index(2, 0);
    CHECK(text(before) == "Before the first frame");
    CHECK(model.rowCount(before) == 5);
    CHECK(text(frame0) == "Frame 0");
    CHECK(text(frame0, EventTreeModel::EventColumn) == QString::number(e.frame0));
    CHECK(text(frame1) == "Frame 1");

    // Frame 0: its boundary, then the "Stream" region.
    REQUIRE(model.rowCount(frame0) == 2);
    CHECK(text(model.index(0, 0, frame0)) == "FrameBoundary");
    const QModelIndex stream = model.index(1, 0, frame0);
    CHECK(text(stream) == "Stream (7)");
    CHECK(text(stream, EventTreeModel::EventColumn) == QString::number(e.stream));
    REQUIRE(model.rowCount(stream) == 3);
    const QModelIndex update = model.index(0, 0, stream);
    CHECK(text(update) == "ID3D11DeviceContext2::UpdateTileMappings");
    CHECK(text(update, EventTreeModel::ObjectColumn) == QString("#%1").arg(kContext));
    CHECK(text(update, EventTreeModel::ResultColumn) == "S_OK");
    const QModelIndex inner = model.index(1, 0, stream);
    CHECK(text(inner) == "Inner (1)");
    CHECK(text(model.index(2, 0, stream)) == "ID3D11DeviceContext2::EndEvent");
    CHECK(text(model.index(2, 0, stream), EventTreeModel::EventColumn) ==
          QString::number(e.stream_end));

    // "Inner": the marker as a leaf, then its EndEvent.
    REQUIRE(model.rowCount(inner) == 2);
    const QModelIndex mark = model.index(0, 0, inner);
    CHECK(text(mark) == "mark (3)");
    CHECK(model.rowCount(mark) == 0);
    CHECK(text(model.index(1, 0, inner), EventTreeModel::EventColumn) ==
          QString::number(e.inner_end));

    // Frame 1: boundary, marker, ResizeTilePool.
    REQUIRE(model.rowCount(frame1) == 3);
    CHECK(text(model.index(1, 0, frame1)) == "frame (2)");
    CHECK(text(model.index(2, 0, frame1)) == "ID3D11DeviceContext2::ResizeTilePool");

    // Events map back to their rows.
    CHECK(model.index_of_event(e.update) == update);
    CHECK(model.index_of_event(e.stream) == stream);
    CHECK(model.index_of_event(e.mark) == mark);
    CHECK(model.index_of_event(0) == model.index(0, 0, before));
    CHECK(model.index_of_event(e.resize) == model.index(2, 0, frame1));
    CHECK_FALSE(model.index_of_event(e.events).isValid());
    CHECK(model.parent(update) == stream);
    CHECK(model.parent(stream) == frame0);

    // Previous and next tile call.
    CHECK(model.next_tile_call(0) == e.update);
    CHECK(model.next_tile_call(e.update) == e.resize);
    CHECK(model.next_tile_call(e.resize) == std::nullopt);
    CHECK(model.previous_tile_call(e.resize) == e.update);
    CHECK(model.previous_tile_call(e.update) == std::nullopt);
}

TEST_CASE("the time columns show a replay report's times, summed over regions") {
    d3dcap::testing::TempDir dir;
    const std::string path = dir.file("markers.d3dcap");
    const MarkerTrace e = write_marker_trace(path);
    auto reader = trace::TraceReader::open(path);
    REQUIRE(reader.ok());
    EventTreeModel model(*reader.value());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const QModelIndex update = model.index_of_event(e.update);
    CHECK(text(update, EventTreeModel::CpuColumn).isEmpty());

    const std::string report = dir.file("report.json");
    std::ofstream(report) << "{\"events\":[{\"event\":" << e.update
                          << ",\"cpu_ns\":2500,\"gpu_ns\":1000},{\"event\":" << e.mark
                          << ",\"cpu_ns\":1000,\"gpu_ns\":0},{\"event\":" << e.inner_end
                          << ",\"cpu_ns\":500,\"gpu_ns\":0}]}";
    QString error;
    REQUIRE(model.load_report(QString::fromStdString(report), &error));
    CHECK(text(update, EventTreeModel::CpuColumn) == "2.5");
    CHECK(text(update, EventTreeModel::GpuColumn) == "1.0");
    CHECK(text(model.index_of_event(e.inner), EventTreeModel::CpuColumn) == "1.5");
    CHECK(text(model.index_of_event(e.stream), EventTreeModel::CpuColumn) == "4.0");
    CHECK(text(model.index(2, 0), EventTreeModel::CpuColumn) == "0.0");  // frame 1
    // Shares of the parent's time, for the bars: the update is 2.5 of the
    // 4.0 of "Stream", which is all of frame 0's.
    const auto share = [](const QModelIndex& index) {
        return index.siblingAtColumn(EventTreeModel::CpuColumn)
            .data(EventTreeModel::ShareRole)
            .toDouble();
    };
    CHECK(share(update) == Approx(0.625));
    CHECK(share(model.index_of_event(e.stream)) == Approx(1.0));
    CHECK(share(model.index_of_event(e.mark)) == Approx(1.0 / 1.5));
    CHECK(share(model.index(2, 0)) == Approx(0.0));

    std::ofstream(dir.file("not-a-report.json")) << "{\"frames\":[]}";
    CHECK_FALSE(model.load_report(QString::fromStdString(dir.file("not-a-report.json")), &error));
    CHECK(error.endsWith("not-a-report.json: not a replay report (no \"events\")"));
    CHECK(text(update, EventTreeModel::CpuColumn) == "2.5");  // the loaded times stay
}

TEST_CASE("the event filter keeps matching calls and the regions around them") {
    d3dcap::testing::TempDir dir;
    const std::string path = dir.file("markers.d3dcap");
    write_marker_trace(path);
    auto reader = trace::TraceReader::open(path);
    REQUIRE(reader.ok());
    EventTreeModel model(*reader.value());
    QSortFilterProxyModel filter;
    filter.setRecursiveFilteringEnabled(true);
    filter.setFilterKeyColumn(EventTreeModel::CallColumn);
    filter.setFilterCaseSensitivity(Qt::CaseInsensitive);
    filter.setSourceModel(&model);
    QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::Fatal);

    filter.setFilterFixedString("updatetilemappings");
    REQUIRE(filter.rowCount() == 1);
    const QModelIndex frame0 = filter.index(0, 0);
    CHECK(text(frame0) == "Frame 0");
    REQUIRE(filter.rowCount(frame0) == 1);
    const QModelIndex stream = filter.index(0, 0, frame0);
    CHECK(text(stream) == "Stream (7)");
    REQUIRE(filter.rowCount(stream) == 1);
    CHECK(text(filter.index(0, 0, stream)) == "ID3D11DeviceContext2::UpdateTileMappings");

    filter.setFilterFixedString("mark (3)");
    REQUIRE(filter.rowCount() == 1);
    CHECK(text(filter.index(0, 0, filter.index(0, 0, filter.index(0, 0)))) == "Inner (1)");
}
