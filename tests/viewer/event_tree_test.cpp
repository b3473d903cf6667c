// The event tree of a trace written by the test: frames, marker regions
// nested as BeginEvent/EndEvent nest them, markers as leaves, calls between;
// the report's time columns and timing charts; the filter.
#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QTreeView>
#include <fstream>

#include "support/temp_dir.h"
#include "viewer/events/event_tree_model.h"
#include "viewer/timing/timing_chart.h"
#include "viewer/timing/timing_model.h"
#include "viewer_support.h"

using d3dcap::viewer::EventTreeModel;
using d3dcap::viewer::MainWindow;
using d3dcap::viewer::TimingModel;
using timeline_tests::kContext;
using viewer_tests::MarkerTrace;
using viewer_tests::write_marker_trace;

namespace {

constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

QString text(const QModelIndex& index, int column = EventTreeModel::CallColumn) {
    return index.siblingAtColumn(column).data().toString();
}

double share(const QModelIndex& index) {
    return index.siblingAtColumn(EventTreeModel::CpuColumn)
        .data(EventTreeModel::ShareRole)
        .toDouble();
}

// A report with times for the update (2.5 us CPU, 1 us GPU), the marker
// (1 us, no GPU time: null, as reports give records without GPU work) and the
// end of "Inner" (0.5 us).
std::string write_report(const d3dcap::testing::TempDir& dir, const MarkerTrace& e) {
    const std::string report = dir.file("report.json");
    std::ofstream(report) << "{\"events\":[{\"event\":" << e.update
                          << ",\"cpu_ns\":2500,\"gpu_ns\":1000},{\"event\":" << e.mark
                          << ",\"cpu_ns\":1000,\"gpu_ns\":null},{\"event\":" << e.inner_end
                          << ",\"cpu_ns\":500,\"gpu_ns\":0}]}";
    return report;
}

}  // namespace

class EventTreeTest : public QObject {
    Q_OBJECT

  private slots:
    void frames_regions_and_calls();
    void report_times_summed_over_regions();
    void filter_keeps_matches_and_their_regions();
    void newer_filter_supersedes_older();
    void timing_charts_and_bar_clicks();
};

void EventTreeTest::frames_regions_and_calls() {
    d3dcap::testing::TempDir dir;
    const std::string path = dir.file("markers.d3dcap");
    const MarkerTrace e = write_marker_trace(path);
    auto reader = d3dcap::trace::TraceReader::open(path);
    QVERIFY(reader.ok());
    EventTreeModel model(*reader.value());
    QAbstractItemModelTester tester(&model, kFatal);

    // The pool, texture, its tiling and name come before the first boundary.
    QCOMPARE(e.frame0, 5u);
    QCOMPARE(model.rowCount(), 3);
    const QModelIndex before = model.index(0, 0), frame0 = model.index(1, 0),
                      frame1 = model.index(2, 0);
    QCOMPARE(text(before), "Before the first frame");
    QCOMPARE(model.rowCount(before), 5);
    QCOMPARE(text(frame0), "Frame 0");
    QCOMPARE(text(frame0, EventTreeModel::EventColumn), QString::number(e.frame0));
    QCOMPARE(text(frame1), "Frame 1");

    // Frame 0: its boundary, then the "Stream" region.
    QCOMPARE(model.rowCount(frame0), 2);
    QCOMPARE(text(model.index(0, 0, frame0)), "FrameBoundary");
    const QModelIndex stream = model.index(1, 0, frame0);
    QCOMPARE(text(stream), "Stream (7)");
    QCOMPARE(text(stream, EventTreeModel::EventColumn), QString::number(e.stream));
    QCOMPARE(model.rowCount(stream), 3);
    const QModelIndex update = model.index(0, 0, stream);
    // The method first, its interface in a column and the whole name as the tooltip.
    QCOMPARE(text(update), "UpdateTileMappings");
    QCOMPARE(text(update, EventTreeModel::InterfaceColumn), "ID3D11DeviceContext2");
    QCOMPARE(update.siblingAtColumn(EventTreeModel::CallColumn).data(Qt::ToolTipRole).toString(),
             "ID3D11DeviceContext2::UpdateTileMappings");
    QCOMPARE(model.headerData(EventTreeModel::InterfaceColumn, Qt::Horizontal).toString(),
             "Interface");
    QCOMPARE(text(update, EventTreeModel::ObjectColumn), QString("#%1").arg(kContext));
    QCOMPARE(text(update, EventTreeModel::ResultColumn), "S_OK");
    const QModelIndex inner = model.index(1, 0, stream);
    QCOMPARE(text(inner), "Inner (1)");
    QCOMPARE(text(model.index(2, 0, stream)), "EndEvent");
    QCOMPARE(text(model.index(2, 0, stream), EventTreeModel::EventColumn),
             QString::number(e.stream_end));

    // "Inner": the marker as a leaf, then its EndEvent.
    QCOMPARE(model.rowCount(inner), 2);
    const QModelIndex mark = model.index(0, 0, inner);
    QCOMPARE(text(mark), "mark (3)");
    QCOMPARE(model.rowCount(mark), 0);
    QCOMPARE(text(model.index(1, 0, inner), EventTreeModel::EventColumn),
             QString::number(e.inner_end));

    // Frame 1: boundary, marker, ResizeTilePool.
    QCOMPARE(model.rowCount(frame1), 3);
    QCOMPARE(text(model.index(1, 0, frame1)), "frame (2)");
    QCOMPARE(text(model.index(2, 0, frame1)), "ResizeTilePool");

    // Events map back to their rows.
    QCOMPARE(model.index_of_event(e.update), update);
    QCOMPARE(model.index_of_event(e.stream), stream);
    QCOMPARE(model.index_of_event(e.mark), mark);
    QCOMPARE(model.index_of_event(0), model.index(0, 0, before));
    QCOMPARE(model.index_of_event(e.resize), model.index(2, 0, frame1));
    QVERIFY(!model.index_of_event(e.events).isValid());
    QCOMPARE(model.parent(update), stream);
    QCOMPARE(model.parent(stream), frame0);

    // Previous and next tile call.
    using Step = d3dcap::viewer::EventTreeModel::Step;
    QCOMPARE(model.next(Step::TileCall, 0), std::optional<std::uint64_t>(e.update));
    QCOMPARE(model.next(Step::TileCall, e.update), std::optional<std::uint64_t>(e.resize));
    QCOMPARE(model.next(Step::TileCall, e.resize), std::optional<std::uint64_t>());
    QCOMPARE(model.previous(Step::TileCall, e.resize), std::optional<std::uint64_t>(e.update));
    QCOMPARE(model.previous(Step::TileCall, e.update), std::optional<std::uint64_t>());
    // The trace has no draw.
    QCOMPARE(model.next(Step::Draw, 0), std::optional<std::uint64_t>());
}

void EventTreeTest::report_times_summed_over_regions() {
    d3dcap::testing::TempDir dir;
    const std::string path = dir.file("markers.d3dcap");
    const MarkerTrace e = write_marker_trace(path);
    auto reader = d3dcap::trace::TraceReader::open(path);
    QVERIFY(reader.ok());
    EventTreeModel model(*reader.value());
    QAbstractItemModelTester tester(&model, kFatal);
    const QModelIndex update = model.index_of_event(e.update);
    QVERIFY(text(update, EventTreeModel::CpuColumn).isEmpty());

    QString error;
    QVERIFY(model.load_report(QString::fromStdString(write_report(dir, e)), &error));
    QCOMPARE(text(update, EventTreeModel::CpuColumn), "2.5");
    QCOMPARE(text(update, EventTreeModel::GpuColumn), "1.0");
    QCOMPARE(text(model.index_of_event(e.inner), EventTreeModel::CpuColumn), "1.5");
    QCOMPARE(text(model.index_of_event(e.stream), EventTreeModel::CpuColumn), "4.0");
    QCOMPARE(text(model.index(2, 0), EventTreeModel::CpuColumn), "0.0");  // frame 1
    // Shares of the parent's time, for the bars: the update is 2.5 of the
    // 4.0 of "Stream", which is all of frame 0's.
    QCOMPARE(share(update), 0.625);
    QCOMPARE(share(model.index_of_event(e.stream)), 1.0);
    QCOMPARE(share(model.index_of_event(e.mark)), 1.0 / 1.5);
    QCOMPARE(share(model.index(2, 0)), 0.0);

    std::ofstream(dir.file("not-a-report.json")) << "{\"frames\":[]}";
    QVERIFY(!model.load_report(QString::fromStdString(dir.file("not-a-report.json")), &error));
    QVERIFY(error.endsWith("not-a-report.json: not a replay report (no \"events\")"));
    QCOMPARE(text(update, EventTreeModel::CpuColumn), "2.5");  // the loaded times stay
}

void EventTreeTest::filter_keeps_matches_and_their_regions() {
    viewer_tests::OpenedTrace<MarkerTrace> trace("markers.d3dcap", write_marker_trace);
    QVERIFY(trace.opened);
    const MarkerTrace& e = trace.events;
    MainWindow& window = trace.window;
    EventTreeModel& model = *window.event_model();
    QAbstractItemModelTester tester(&model, kFatal);
    QVERIFY(viewer_tests::show_event(window, e.update));

    QVERIFY(viewer_tests::apply_filter(window, "updatetilemappings"));
    QVERIFY(model.filtered());
    QCOMPARE(model.rowCount(), 1);
    const QModelIndex frame0 = model.index(0, 0);
    QCOMPARE(text(frame0), "Frame 0");
    QCOMPARE(model.rowCount(frame0), 1);
    const QModelIndex stream = model.index(0, 0, frame0);
    QCOMPARE(text(stream), "Stream (7)");
    QCOMPARE(model.rowCount(stream), 1);
    const QModelIndex update = model.index(0, 0, stream);
    QCOMPARE(text(update), "UpdateTileMappings");
    // The selected event stays the current row.
    QCOMPARE(window.event_view()->currentIndex(), update);
    QCOMPARE(model.index_of_event(e.update), update);

    QVERIFY(viewer_tests::apply_filter(window, "mark (3)"));
    QCOMPARE(model.rowCount(), 1);
    const QModelIndex inner = model.index(0, 0, model.index(0, 0, model.index(0, 0)));
    QCOMPARE(text(inner), "Inner (1)");
    QCOMPARE(model.rowCount(inner), 1);
    QCOMPARE(text(model.index(0, 0, inner)), "mark (3)");
    // The selected update is hidden: no row is current.
    QVERIFY(!window.event_view()->currentIndex().isValid());

    // Frame labels match too; every EndEvent lies in frame 0.
    QVERIFY(viewer_tests::apply_filter(window, "ENDEVENT"));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(text(model.index(0, 0)), "Frame 0");
    QVERIFY(viewer_tests::apply_filter(window, "frame 1"));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(text(model.index(0, 0)), "Frame 1");
    QCOMPARE(model.rowCount(model.index(0, 0)), 0);

    QVERIFY(viewer_tests::apply_filter(window, "no such call"));
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(viewer_tests::apply_filter(window, ""));
    QVERIFY(!model.filtered());
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(window.event_view()->currentIndex(), model.index_of_event(e.update));
}

void EventTreeTest::newer_filter_supersedes_older() {
    viewer_tests::OpenedTrace<MarkerTrace> trace("markers.d3dcap", write_marker_trace);
    QVERIFY(trace.opened);
    const MarkerTrace& e = trace.events;
    MainWindow& window = trace.window;
    QSignalSpy applied(&window, &MainWindow::filter_applied);
    // Typing: each keystroke is a newer filter; only the last one shows.
    window.filter_edit()->setText("Resize");
    window.filter_edit()->setText("ResizeTilePool");
    window.filter_edit()->setText("UpdateTileMappings");
    QVERIFY(applied.wait(viewer_tests::kWaitMs));
    QCOMPARE(applied.size(), 1);
    QCOMPARE(applied.at(0).at(0).toString(), "UpdateTileMappings");
    EventTreeModel& model = *window.event_model();
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, 0, model.index(0, 0, model.index(0, 0)))
                 .data(EventTreeModel::EventRole)
                 .toULongLong(),
             e.update);
    // The state worker may still be answering the selection the filter moved.
    QTRY_VERIFY_WITH_TIMEOUT(!window.busy(), viewer_tests::kWaitMs);
}

void EventTreeTest::timing_charts_and_bar_clicks() {
    viewer_tests::OpenedTrace<MarkerTrace> trace("markers.d3dcap", write_marker_trace);
    QVERIFY(trace.opened);
    const MarkerTrace& e = trace.events;
    MainWindow& window = trace.window;
    window.resize(1280, 800);
    TimingModel& frames = *window.frame_timing();
    TimingModel& regions = *window.region_timing();
    QAbstractItemModelTester frames_tester(&frames, kFatal);
    QAbstractItemModelTester regions_tester(&regions, kFatal);
    QCOMPARE(frames.rowCount(), 0);  // no report yet

    QString error;
    QVERIFY(window.load_report(QString::fromStdString(write_report(trace.dir, e)), &error));
    // A bar per frame, with the sums of its events.
    QCOMPARE(frames.rowCount(), 3);
    QCOMPARE(frames.data(frames.index(1, TimingModel::LabelColumn)).toString(), "Frame 0");
    QCOMPARE(frames.data(frames.index(1, TimingModel::CpuColumn), TimingModel::NanosecondsRole)
                 .toULongLong(),
             4000u);
    QCOMPARE(frames.data(frames.index(1, TimingModel::GpuColumn)).toString(), "1.0");
    QCOMPARE(frames.data(frames.index(2, TimingModel::CpuColumn)).toString(), "0.0");

    // Clicking frame 0's bar selects its row and shows its regions, nested
    // after their parent.
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QWidget* chart = window.frame_chart();
    chart->window()->findChild<QTabWidget*>()->setCurrentWidget(chart->parentWidget());
    QTest::mouseClick(chart, Qt::LeftButton, {},
                      window.frame_chart()->bar_rect(1).center().toPoint());
    QCOMPARE(window.selected_event(), std::optional<std::uint64_t>(e.frame0));
    EventTreeModel& model = *window.event_model();
    QCOMPARE(window.event_view()->currentIndex(), model.index(1, 0));
    QCOMPARE(regions.rowCount(), 2);
    QCOMPARE(regions.data(regions.index(0, TimingModel::LabelColumn)).toString(), "Stream (7)");
    QCOMPARE(regions.data(regions.index(0, TimingModel::CpuColumn)).toString(), "4.0");
    QCOMPARE(regions.data(regions.index(1, TimingModel::LabelColumn)).toString(), "Inner (1)");
    QCOMPARE(regions.bars()[1].depth, 1);
    QCOMPARE(regions.data(regions.index(1, TimingModel::CpuColumn)).toString(), "1.5");

    // Clicking the "Inner" bar selects that region.
    QTest::mouseClick(window.region_chart(), Qt::LeftButton, {},
                      window.region_chart()->bar_rect(1).center().toPoint());
    QCOMPARE(window.selected_event(), std::optional<std::uint64_t>(e.inner));
    QCOMPARE(window.event_view()->currentIndex(), model.index_of_event(e.inner));
    QCOMPARE(text(window.event_view()->currentIndex()), "Inner (1)");

    // Selecting an event of frame 1 moves the region chart there: no regions.
    window.select_event(e.resize);
    QCOMPARE(window.frame_chart()->current(), 2);
    QCOMPARE(regions.rowCount(), 0);
}

QTEST_MAIN(EventTreeTest)
#include "event_tree_test.moc"
