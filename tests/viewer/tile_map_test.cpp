// The tile map of the API reference's worked UpdateTileMappings examples,
// recorded in a trace, read back from the viewer's model at each event
// against the hand-written tables; the event that last changed each tile,
// which follows the map; the pool's size plot; and the screenshot command.
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QImage>
#include <QTabWidget>
#include <QTextStream>
#include <set>

#include "replay/state/seed_trace.h"
#include "runtime/tiles/worked_examples.h"
#include "viewer/events/event_tree_model.h"
#include "viewer/events/parameters_view.h"
#include "viewer/screenshot.h"
#include "viewer/tile_map/state_worker.h"
#include "viewer/tile_map/tile_map_view.h"
#include "viewer/tile_pool/pool_model.h"
#include "viewer/tile_pool/pool_size_plot.h"
#include "viewer_support.h"

using namespace timeline_tests;
using namespace worked_examples;
using d3dcap::viewer::MainWindow;
using d3dcap::viewer::PoolSize;
using d3dcap::viewer::TileMapModel;
using viewer_tests::count_role;
using viewer_tests::model_tiles;
using viewer_tests::show_event;
using viewer_tests::show_event_with_history;
using viewer_tests::show_resource;

namespace {

constexpr auto kFatal = QAbstractItemModelTester::FailureReportingMode::Fatal;

std::vector<std::uint32_t> slice_of(const std::vector<std::uint32_t>& all, std::size_t first,
                                    std::size_t count) {
    return {all.begin() + long(first), all.begin() + long(first + count)};
}

QVariant last_changed(const TileMapModel& model, int row, int column) {
    return model.data(model.index(row, column), TileMapModel::LastChangedRole);
}

}  // namespace

class TileMapTest : public QObject {
    Q_OBJECT

  private slots:
    void worked_examples_at_their_events();
    void newer_request_supersedes_older();
    void last_changed_event_of_each_tile();
    void map_comes_before_its_history();
    void clicking_a_tile_selects_its_last_change();
    void pool_size_plot_points();
    void screenshot_writes_a_png_and_refuses_bad_input();
    void objects_named_by_kind_size_and_debug_name();
    void zoomed_in_cells_print_their_pool_tile();
    void legend_says_what_the_marks_mean();
};

void TileMapTest::worked_examples_at_their_events() {
    viewer_tests::OpenedTrace<SeedTrace> trace("examples.d3dcap", write_seed_trace);
    QVERIFY(trace.opened);
    const SeedTrace& e = trace.events;
    MainWindow& window = trace.window;
    TileMapModel& model = *window.tile_model();
    QAbstractItemModelTester tester(&model, kFatal);

    // 2. The box: 6 tiles share pool tile 12, all changed by the event.
    QVERIFY(show_event(window, e.box));
    QVERIFY(window.select_resource("box"));
    QCOMPARE(model.rowCount(), int(kBoxHeight));
    QCOMPARE(model.columnCount(), int(kBoxWidth));
    QCOMPARE(model_tiles(model), kBoxExpected);
    QCOMPARE(model.data(model.index(2, 1)).toInt(), 12);
    QCOMPARE(model.data(model.index(0, 0)).toInt(), -1);
    QCOMPARE(count_role(model, TileMapModel::SharedRole), 6);
    QCOMPARE(count_role(model, TileMapModel::ChangedRole), 6);
    QVERIFY(model.data(model.index(2, 1), TileMapModel::ChangedRole).toBool());
    QCOMPARE(model.data(model.index(2, 1), Qt::ToolTipRole).toString(),
             "tile (1, 2): pool tile 12, shared, changed by this event");
    // The tile map tab exported as drawn: pool tile 12's colour is in it.
    window.resize(900, 700);
    window.show();
    const QString exported = QString::fromStdString(trace.dir.file("map.png"));
    QVERIFY(window.export_picture(exported, nullptr));
    const QImage map(exported);
    QVERIFY(map.width() > 100);
    const QRgb twelve = d3dcap::viewer::TileMapView::colour_of(12).rgb();
    bool has_twelve = false;
    for (int y = 0; y < map.height() && !has_twelve; ++y)
        for (int x = 0; x < map.width() && !has_twelve; ++x) has_twelve = map.pixel(x, y) == twelve;
    QVERIFY(has_twelve);

    // The pool: 32 tiles, only tile 12 used, by 6 tiles of the box.
    d3dcap::viewer::PoolModel& pool = *window.pool_model();
    QAbstractItemModelTester pool_tester(&pool, kFatal);
    QCOMPARE(pool.pool(), kPool);
    QCOMPARE(pool.rowCount(), 32);
    QCOMPARE(pool.unused_tiles(), 31);
    QCOMPARE(pool.data(pool.index(12, d3dcap::viewer::PoolModel::ReferenceCountColumn)).toInt(), 6);
    QCOMPARE(pool.data(pool.index(12, d3dcap::viewer::PoolModel::MappedByColumn)).toString(),
             "box: Texture2D 512x640 R8G8B8A8_UNORM tiled, #12: tiles 5, 6, 9, 10; and 2 more");
    QCOMPARE(pool.data(pool.index(0, d3dcap::viewer::PoolModel::MappedByColumn)).toString(),
             "unused");

    // The parameters of the selected call.
    const auto call = window.parameters_view()->findItems("call", Qt::MatchExactly, 0);
    QCOMPARE(call.size(), 1);
    QCOMPARE(call.front()->text(1), "ID3D11DeviceContext2::UpdateTileMappings");
    const auto result = window.parameters_view()->findItems("result", Qt::MatchExactly, 0);
    QCOMPARE(result.size(), 1);
    QCOMPARE(result.front()->text(1), "S_OK");

    // Another event, same resource: the model follows. After the mixed
    // surface is filled the box is untouched (nothing changed in it).
    QVERIFY(show_event(window, e.mixed_filled));
    QCOMPARE(model.resource(), kBox);
    QCOMPARE(model_tiles(model), kBoxExpected);
    QCOMPARE(count_role(model, TileMapModel::ChangedRole), 0);

    // 4. The 22-tile example over a surface of pool tile 5.
    QVERIFY(window.select_resource("mixed"));
    QCOMPARE(model_tiles(model), std::vector<std::uint32_t>(kMixedWidth * kMixedHeight, F));
    QCOMPARE(count_role(model, TileMapModel::ChangedRole), int(kMixedWidth * kMixedHeight));
    QVERIFY(show_event(window, e.mixed));
    QCOMPARE(model.rowCount(), int(kMixedHeight));
    QCOMPARE(model.columnCount(), int(kMixedWidth));
    QCOMPARE(model_tiles(model), mixed_expected());
    // 22 tiles in the regions, 8 of them skipped.
    QCOMPARE(count_role(model, TileMapModel::ChangedRole), 14);
    QVERIFY(model.data(model.index(3, 4), TileMapModel::SharedRole).toBool());   // pool tile 5
    QVERIFY(!model.data(model.index(1, 2), TileMapModel::SharedRole).toBool());  // 10, once
    QCOMPARE(model.data(model.index(8, 6)).toInt(), -1);
    QCOMPARE(model.data(model.index(30, 23)).toInt(), 2);

    // 1. Clearing a whole surface: both mips and the packed tail, mapped
    // then cleared.
    QVERIFY(show_event(window, e.clear_mapped));
    QVERIFY(window.select_resource(QString::number(kClear)));
    QCOMPARE(model.mip_count(), 3u);  // 2 standard mips, then the packed tail
    QCOMPARE(model_tiles(model), slice_of(kClearMapped, 0, 6));
    QCOMPARE(model.packed().size(), 1u);
    QCOMPARE(model.packed()[0].pool_tile, 28);
    window.select_subresource(1, 0);
    QCOMPARE(model_tiles(model), slice_of(kClearMapped, 6, 2));
    window.select_subresource(2, 0);
    QVERIFY(model.showing_packed());
    QCOMPARE(model_tiles(model), slice_of(kClearMapped, 8, 1));
    window.select_subresource(0, 0);
    QVERIFY(show_event(window, e.clear_cleared));
    QCOMPARE(model_tiles(model), slice_of(kClearCleared, 0, 6));
    QCOMPARE(count_role(model, TileMapModel::ChangedRole), 6);
    QCOMPARE(model.packed()[0].pool_tile, -1);
}

void TileMapTest::newer_request_supersedes_older() {
    viewer_tests::OpenedTrace<SeedTrace> trace("examples.d3dcap", write_seed_trace);
    QVERIFY(trace.opened);
    const SeedTrace& e = trace.events;
    MainWindow& window = trace.window;
    QSignalSpy shown(&window, &MainWindow::state_shown);
    window.select_event(e.box);
    window.select_event(e.mixed);
    QVERIFY(shown.wait(viewer_tests::kWaitMs));
    // Only the newest request's state is shown.
    QCOMPARE(shown.size(), 1);
    QCOMPARE(shown.at(0).at(0).toULongLong(), e.mixed);
    QVERIFY(window.select_resource(QString::number(kMixed)));
    QCOMPARE(model_tiles(*window.tile_model()), mixed_expected());
}

void TileMapTest::last_changed_event_of_each_tile() {
    viewer_tests::OpenedTrace<SeedTrace> trace("examples.d3dcap", write_seed_trace);
    QVERIFY(trace.opened);
    const SeedTrace& e = trace.events;
    MainWindow& window = trace.window;
    TileMapModel& model = *window.tile_model();
    QAbstractItemModelTester tester(&model, kFatal);

    // The 22-tile example: mapped or NULLed tiles by its event, skipped and
    // untouched tiles by the fill before it.
    QVERIFY(show_event(window, e.mixed));
    QVERIFY(show_resource(window, "mixed"));
    QCOMPARE(model.snapshot()->history_resource, kMixed);
    QCOMPARE(last_changed(model, 1, 1).toULongLong(), e.mixed);         // pool tile 9
    QCOMPARE(last_changed(model, 8, 6).toULongLong(), e.mixed);         // NULL
    QCOMPARE(last_changed(model, 30, 26).toULongLong(), e.mixed);       // 17
    QCOMPARE(last_changed(model, 2, 2).toULongLong(), e.mixed_filled);  // skipped
    QCOMPARE(last_changed(model, 0, 0).toULongLong(), e.mixed_filled);  // outside the regions
    QCOMPARE(
        model.data(model.index(2, 2), Qt::ToolTipRole).toString(),
        QString("tile (2, 2): pool tile 5, shared, last changed by event %1").arg(e.mixed_filled));
    // Before the example every tile was last changed by the fill.
    QVERIFY(show_event_with_history(window, e.mixed_filled));
    QCOMPARE(last_changed(model, 1, 1).toULongLong(), e.mixed_filled);

    // The box: never-mapped tiles have no last change.
    QVERIFY(show_event(window, e.scattered));
    QVERIFY(show_resource(window, "box"));
    QCOMPARE(last_changed(model, 2, 1).toULongLong(), e.box);
    QVERIFY(!last_changed(model, 0, 0).isValid());
    QCOMPARE(model.data(model.index(0, 0), Qt::ToolTipRole).toString(), "tile (0, 0): NULL");

    // The cleared surface, packed tile included: mapped, then cleared.
    QVERIFY(show_resource(window, QString::number(kClear)));
    QCOMPARE(last_changed(model, 1, 2).toULongLong(), e.clear_cleared);
    QCOMPARE(model.packed()[0].last_changed, e.clear_cleared);
    QVERIFY(show_event_with_history(window, e.clear_mapped));
    QCOMPARE(last_changed(model, 1, 2).toULongLong(), e.clear_mapped);
}

void TileMapTest::map_comes_before_its_history() {
    viewer_tests::OpenedTrace<SeedTrace> trace("examples.d3dcap", write_seed_trace);
    QVERIFY(trace.opened);
    const SeedTrace& e = trace.events;
    MainWindow& window = trace.window;
    TileMapModel& model = *window.tile_model();
    QAbstractItemModelTester tester(&model, kFatal);
    QVERIFY(show_event(window, e.mixed));

    // Choosing the 22-tile example asks for its state, then its history:
    // what the model holds when the state is shown.
    QSignalSpy shown(&window, &MainWindow::state_shown);
    QSignalSpy found(&window, &MainWindow::history_shown);
    {
        std::vector<std::uint32_t> map;
        QString hover;
        QVariant last_change;
        qsizetype histories = -1;
        QObject seen;  // the connection ends with the block
        connect(&window, &MainWindow::state_shown, &seen, [&] {
            map = model_tiles(model);
            hover = model.data(model.index(2, 2), Qt::ToolTipRole).toString();
            last_change = last_changed(model, 2, 2);
            histories = found.size();
        });
        QVERIFY(window.select_resource("mixed"));
        QVERIFY(shown.wait(viewer_tests::kWaitMs));
        QCOMPARE(shown.last().at(0).toULongLong(), e.mixed);
        QCOMPARE(map, mixed_expected());
        QCOMPARE(histories, 0);
        QVERIFY(!last_change.isValid());
        QCOMPARE(hover, "tile (2, 2): pool tile 5, shared, last change: finding...");
    }
    // Then the history: the skipped tile (2, 2) was last changed by the fill.
    QVERIFY(viewer_tests::wait_for_history(window, found));
    QCOMPARE(found.size(), 1);
    QCOMPARE(found.at(0).at(0).toULongLong(), e.mixed);
    QVERIFY(model.knows_last_changes());
    QCOMPARE(model_tiles(model), mixed_expected());
    QCOMPARE(last_changed(model, 2, 2).toULongLong(), e.mixed_filled);
    QCOMPARE(
        model.data(model.index(2, 2), Qt::ToolTipRole).toString(),
        QString("tile (2, 2): pool tile 5, shared, last changed by event %1").arg(e.mixed_filled));

    // An event selected once the fill's state is shown cancels the fill's
    // history: only the example's comes.
    shown.clear();
    found.clear();
    QObject chain;
    connect(&window, &MainWindow::state_shown, &chain, [&](std::uint64_t event) {
        if (event == e.mixed_filled) window.select_event(e.mixed);
    });
    window.select_event(e.mixed_filled);
    while (found.isEmpty()) QVERIFY(found.wait(viewer_tests::kWaitMs));
    QVERIFY(!window.finding_history());
    QCOMPARE(shown.size(), 2);
    QCOMPARE(shown.at(0).at(0).toULongLong(), e.mixed_filled);
    QCOMPARE(shown.at(1).at(0).toULongLong(), e.mixed);
    QCOMPARE(found.size(), 1);
    QCOMPARE(found.at(0).at(0).toULongLong(), e.mixed);
    QCOMPARE(last_changed(model, 1, 1).toULongLong(), e.mixed);  // pool tile 9
}

void TileMapTest::clicking_a_tile_selects_its_last_change() {
    viewer_tests::OpenedTrace<SeedTrace> trace("examples.d3dcap", write_seed_trace);
    QVERIFY(trace.opened);
    const SeedTrace& e = trace.events;
    MainWindow& window = trace.window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(show_event(window, e.mixed));
    QVERIFY(show_resource(window, "mixed"));
    d3dcap::viewer::TileMapView& view = *window.tile_view();
    view.fit();

    // The skipped tile (2, 2): its last change is the fill.
    QSignalSpy shown(&window, &MainWindow::state_shown);
    QTest::mouseClick(&view, Qt::LeftButton, {}, view.cell_rect(2, 2).center().toPoint());
    QCOMPARE(window.selected_event(), std::optional<std::uint64_t>(e.mixed_filled));
    QVERIFY(shown.wait(viewer_tests::kWaitMs));
    QCOMPARE(shown.last().at(0).toULongLong(), e.mixed_filled);
    QCOMPARE(window.event_view()
                 ->currentIndex()
                 .data(d3dcap::viewer::EventTreeModel::EventRole)
                 .toULongLong(),
             e.mixed_filled);

    // A drag pans rather than clicks.
    const QPoint from = view.cell_rect(1, 1).center().toPoint();
    QTest::mousePress(&view, Qt::LeftButton, {}, from);
    QTest::mouseMove(&view, from + QPoint(40, 30));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, from + QPoint(40, 30));
    QCOMPARE(window.selected_event(), std::optional<std::uint64_t>(e.mixed_filled));
    QCOMPARE(view.cell_rect(1, 1).center().toPoint(), from + QPoint(40, 30));
}

void TileMapTest::pool_size_plot_points() {
    // A 2-tile pool mapped by a 2x2-tile texture, grown to 4 tiles, a resize
    // the model refuses (not a multiple of 64 KiB), then shrunk to 1 tile.
    d3dcap::testing::TempDir dir;
    const std::string path = dir.file("resizes.d3dcap");
    constexpr std::uint64_t kResized = 100, kTexture = 11;
    TraceBuilder t(path);
    const std::uint64_t created = t.create_pool(kResized, 2);
    t.create_texture(kTexture, 2 * 128, 2 * 128, 1, 1, tile_tests::flat_texture(2, 2));
    const UINT reuse = D3D11_TILE_RANGE_REUSE_SINGLE_TILE, first = 1;
    const std::uint64_t mapped =
        t.update(kContext, kTexture, 1, nullptr, nullptr, kResized, 1, &reuse, &first, nullptr);
    const std::uint64_t grown = t.resize(kContext, kResized, 4 * 65536);
    const std::uint64_t refused = t.resize(kContext, kResized, 65536 + 1);
    const std::uint64_t shrunk = t.resize(kContext, kResized, 65536);
    t.close();

    MainWindow window;
    QVERIFY(window.open_trace(QString::fromStdString(path), nullptr));
    const d3dcap::viewer::PoolSizePlot& plot = *window.pool_plot();
    QVERIFY(show_event_with_history(window, mapped));
    QCOMPARE(plot.pool(), kResized);
    QCOMPARE(plot.points(), (std::vector<PoolSize>{{created, 2}}));
    // The pool is named by its size after the event.
    QCOMPARE(window.tile_model()->snapshot()->labels.at(kResized),
             "Buffer 128 KiB tile pool, #100");
    QVERIFY(show_event_with_history(window, refused));
    QCOMPARE(plot.points(), (std::vector<PoolSize>{{created, 2}, {grown, 4}}));
    QCOMPARE(window.tile_model()->snapshot()->labels.at(kResized),
             "Buffer 256 KiB tile pool, #100");
    QCOMPARE(window.pool_model()->rowCount(), 4);
    QCOMPARE(window.pool_model()->unused_tiles(), 3);
    QVERIFY(show_event_with_history(window, shrunk));
    QCOMPARE(plot.points(), (std::vector<PoolSize>{{created, 2}, {grown, 4}, {shrunk, 1}}));
    // Later points lie further right; a larger pool higher up.
    QVERIFY(plot.position_of(plot.points()[1]).x() > plot.position_of(plot.points()[0]).x());
    QVERIFY(plot.position_of(plot.points()[1]).y() < plot.position_of(plot.points()[0]).y());
}

void TileMapTest::screenshot_writes_a_png_and_refuses_bad_input() {
    d3dcap::testing::TempDir dir;
    const std::string path = dir.file("examples.d3dcap");
    const SeedTrace e = write_seed_trace(path);
    QString messages;
    QTextStream err(&messages);
    d3dcap::viewer::ScreenshotOptions options;
    options.trace = QString::fromStdString(path);
    options.event = e.mixed;
    options.resource = "mixed";
    options.output = QString::fromStdString(dir.file("mixed.png"));
    QCOMPARE(d3dcap::viewer::write_screenshot(options, err), 0);
    QImage image(options.output);
    QVERIFY(!image.isNull());
    QCOMPARE(image.width(), options.width);
    std::set<QRgb> colours;
    bool has_pool_tile_5 = false;
    const QRgb five = d3dcap::viewer::TileMapView::colour_of(5).rgb();
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2) {
            colours.insert(image.pixel(x, y));
            has_pool_tile_5 |= image.pixel(x, y) == five;
        }
    }
    QVERIFY(colours.size() > 10);
    QVERIFY(has_pool_tile_5);

    options.resource = "albedo";
    QCOMPARE(d3dcap::viewer::write_screenshot(options, err), 2);
    QVERIFY(messages.contains(QString("no tiled resource 'albedo' after event %1").arg(e.mixed)));
    QVERIFY(messages.contains("(it has 11, 12, 13, 14)"));
    options.resource.clear();
    options.event = e.events;
    QCOMPARE(d3dcap::viewer::write_screenshot(options, err), 2);
    QVERIFY(messages.contains(QString("event %1 is past the end").arg(e.events)));
    options.trace = QString::fromStdString(dir.file("missing.d3dcap"));
    QCOMPARE(d3dcap::viewer::write_screenshot(options, err), 1);
    QVERIFY(messages.contains("missing.d3dcap: cannot open"));
}

void TileMapTest::objects_named_by_kind_size_and_debug_name() {
    using d3dcap::state::ObjectInfo;
    using d3dcap::state::ObjectKind;
    using d3dcap::viewer::object_label;
    ObjectInfo volume;
    volume.kind = ObjectKind::Texture3D;
    volume.shape = {D3D11_RESOURCE_DIMENSION_TEXTURE3D, 0, 64, 32, 16, 0, 1,
                    DXGI_FORMAT_R16G16B16A16_FLOAT};
    QCOMPARE(object_label(7, volume, std::nullopt),
             "Texture3D 64x32x16 R16G16B16A16_FLOAT 7 mips tiled, #7");
    ObjectInfo sky;
    sky.kind = ObjectKind::Texture2D;
    sky.shape = {D3D11_RESOURCE_DIMENSION_TEXTURE2D, 0, 512, 512, 1, 10, 6, DXGI_FORMAT_BC1_UNORM};
    QCOMPARE(object_label(3, sky, std::string("sky")),
             "sky: Texture2D 512x512x6 BC1_UNORM 10 mips tiled, #3");
    ObjectInfo pool;
    pool.pool = true;
    pool.shape.byte_width = 64 << 20;
    QCOMPARE(object_label(2, pool, std::nullopt), "Buffer 64 MiB tile pool, #2");
    ObjectInfo buffer;
    buffer.shape.byte_width = 100000;
    QCOMPARE(object_label(9, buffer, std::string()), "Buffer 100000 bytes tiled, #9");
    QCOMPARE(object_label(5, std::nullopt, std::nullopt), "#5");

    // The window's resource selector uses them.
    viewer_tests::OpenedTrace<SeedTrace> trace("examples.d3dcap", write_seed_trace);
    QVERIFY(trace.opened);
    QVERIFY(show_event(trace.window, trace.events.box));
    QVERIFY(trace.window.select_resource("box"));
    const auto* selector = trace.window.findChild<QComboBox*>();
    QVERIFY(selector != nullptr);
    QCOMPARE(selector->currentText(), "box: Texture2D 512x640 R8G8B8A8_UNORM tiled, #12");
}

void TileMapTest::zoomed_in_cells_print_their_pool_tile() {
    viewer_tests::OpenedTrace<SeedTrace> trace("examples.d3dcap", write_seed_trace);
    QVERIFY(trace.opened);
    MainWindow& window = trace.window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(show_event(window, trace.events.mixed));
    QVERIFY(window.select_resource("mixed"));
    const TileMapModel& model = *window.tile_model();
    // The first mapped tile that no other tile shares (a change's frame
    // keeps to the cell's edge).
    int row = -1, column = -1;
    for (int y = 0; y < model.rowCount() && row < 0; ++y) {
        for (int x = 0; x < model.columnCount() && row < 0; ++x) {
            const TileMapModel::Cell& c = model.cell(y, x);
            if (c.pool_tile >= 0 && !c.shared) row = y, column = x;
        }
    }
    QVERIFY(row >= 0);
    const QRgb fill =
        d3dcap::viewer::TileMapView::colour_of(model.cell(row, column).pool_tile).rgb();
    d3dcap::viewer::TileMapView& view = *window.tile_view();
    // The colours in the middle of the cell at a zoom.
    const auto middle = [&](double cell) {
        view.set_cell_size(cell);
        const QImage image = view.grab().toImage();
        const QRectF box = view.cell_rect(row, column);
        std::set<QRgb> colours;
        if (!image.rect().contains(box.toRect())) return colours;
        for (int y = int(box.center().y() - cell / 8); y <= int(box.center().y() + cell / 8); ++y)
            for (int x = int(box.center().x() - cell / 4); x <= int(box.center().x() + cell / 4);
                 ++x)
                colours.insert(image.pixel(x, y));
        return colours;
    };
    QCOMPARE(middle(16), std::set<QRgb>{fill});
    const std::set<QRgb> numbered = middle(64);
    QVERIFY(numbered.count(fill) == 1);
    QVERIFY(numbered.count(qRgb(0, 0, 0)) == 1 || numbered.count(qRgb(255, 255, 255)) == 1);
}

void TileMapTest::legend_says_what_the_marks_mean() {
    using d3dcap::viewer::TileMapLegend;
    QCOMPARE(TileMapLegend::entries(),
             QStringList({"colour: its pool tile (numbered when zoomed in)",
                          "dark: NULL, no pool tile", "dot: other tiles map the same pool tile",
                          "white frame: the selected event changed it"}));
    viewer_tests::OpenedTrace<SeedTrace> trace("examples.d3dcap", write_seed_trace);
    QVERIFY(trace.opened);
    auto* legend = trace.window.findChild<TileMapLegend*>();
    QVERIFY(legend != nullptr);
    legend->resize(legend->sizeHint().width() * 2, legend->sizeHint().height());
    const QImage image = legend->grab().toImage();
    // Two entries a row: pool tile 5's colour, then NULL's dark.
    const int row = 4 + 9;
    QCOMPARE(image.pixel(4 + 9, row), d3dcap::viewer::TileMapView::colour_of(5).rgb());
    QCOMPARE(image.pixel(4 + image.width() / 2 + 9, row),
             d3dcap::viewer::TileMapView::colour_of(-1).rgb());
}

QTEST_MAIN(TileMapTest)
#include "tile_map_test.moc"
