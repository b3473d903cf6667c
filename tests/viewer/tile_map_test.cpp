// The tile map of the API reference's worked UpdateTileMappings examples,
// recorded in a trace, read back from the viewer's model at each event
// against the hand-written tables; and the screenshot command.
#include <QAbstractItemModelTester>
#include <QImage>
#include <QSortFilterProxyModel>
#include <QTextStream>
#include <set>

#include "replay/state/seed_trace.h"
#include "replay/tiles/worked_examples.h"
#include "viewer/parameters_view.h"
#include "viewer/pool_model.h"
#include "viewer/screenshot.h"
#include "viewer/tile_map_view.h"
#include "viewer_support.h"

using namespace timeline_tests;
using namespace worked_examples;
using d3dcap::viewer::MainWindow;
using d3dcap::viewer::TileMapModel;
using viewer_tests::count_role;
using viewer_tests::model_tiles;
using viewer_tests::show_event;

namespace {

std::vector<std::uint32_t> slice_of(const std::vector<std::uint32_t>& all, std::size_t first,
                                    std::size_t count) {
    return {all.begin() + long(first), all.begin() + long(first + count)};
}

}  // namespace

TEST_CASE("the tile map shows every worked example's pool tiles at its event") {
    d3dcap::testing::TempDir dir;
    const std::string path = dir.file("examples.d3dcap");
    const SeedTrace e = write_seed_trace(path);
    MainWindow window;
    QString error;
    REQUIRE(window.open_trace(QString::fromStdString(path), &error));
    TileMapModel& model = *window.tile_model();
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);

    // 2. The box: 6 tiles share pool tile 12, all changed by the event.
    show_event(window, e.box);
    REQUIRE(window.select_resource("box"));
    REQUIRE(model.rowCount() == int(kBoxHeight));
    REQUIRE(model.columnCount() == int(kBoxWidth));
    CHECK(model_tiles(model) == kBoxExpected);
    CHECK(model.data(model.index(2, 1)).toInt() == 12);
    CHECK(model.data(model.index(0, 0)).toInt() == -1);
    CHECK(count_role(model, TileMapModel::SharedRole) == 6);
    CHECK(count_role(model, TileMapModel::ChangedRole) == 6);
    CHECK(model.data(model.index(2, 1), TileMapModel::ChangedRole).toBool());
    CHECK(model.data(model.index(2, 1), Qt::ToolTipRole).toString() ==
          "tile (1, 2): pool tile 12, shared, changed by this event");

    // The pool: 32 tiles, only tile 12 used, by 6 tiles of the box.
    d3dcap::viewer::PoolModel& pool = *window.pool_model();
    QAbstractItemModelTester pool_tester(&pool,
                                         QAbstractItemModelTester::FailureReportingMode::Fatal);
    CHECK(pool.pool() == kPool);
    REQUIRE(pool.rowCount() == 32);
    CHECK(pool.unused_tiles() == 31);
    CHECK(pool.data(pool.index(12, d3dcap::viewer::PoolModel::ReferenceCountColumn)).toInt() == 6);
    CHECK(pool.data(pool.index(12, d3dcap::viewer::PoolModel::MappedByColumn)).toString() ==
          "#12 box: 5, #12 box: 6, #12 box: 9, #12 box: 10, 2 more");
    CHECK(pool.data(pool.index(0, d3dcap::viewer::PoolModel::MappedByColumn)).toString() ==
          "unused");

    // The parameters of the selected call.
    const auto call = window.parameters_view()->findItems("call", Qt::MatchExactly, 0);
    REQUIRE(call.size() == 1);
    CHECK(call.front()->text(1) == "ID3D11DeviceContext2::UpdateTileMappings");
    const auto result = window.parameters_view()->findItems("result", Qt::MatchExactly, 0);
    REQUIRE(result.size() == 1);
    CHECK(result.front()->text(1) == "S_OK");

    // Another event, same resource: the model follows. After the mixed
    // surface is filled the box is untouched (nothing changed in it).
    show_event(window, e.mixed_filled);
    CHECK(model.resource() == kBox);
    CHECK(model_tiles(model) == kBoxExpected);
    CHECK(count_role(model, TileMapModel::ChangedRole) == 0);

    // 4. The 22-tile example over a surface of pool tile 5.
    REQUIRE(window.select_resource("mixed"));
    CHECK(model_tiles(model) == std::vector<std::uint32_t>(kMixedWidth * kMixedHeight, F));
    CHECK(count_role(model, TileMapModel::ChangedRole) == int(kMixedWidth * kMixedHeight));
    show_event(window, e.mixed);
    REQUIRE(model.rowCount() == int(kMixedHeight));
    REQUIRE(model.columnCount() == int(kMixedWidth));
    CHECK(model_tiles(model) == mixed_expected());
    // 22 tiles in the regions, 8 of them skipped.
    CHECK(count_role(model, TileMapModel::ChangedRole) == 14);
    CHECK(model.data(model.index(3, 4), TileMapModel::SharedRole).toBool());        // pool tile 5
    CHECK_FALSE(model.data(model.index(1, 2), TileMapModel::SharedRole).toBool());  // 10, once
    CHECK(model.data(model.index(8, 6)).toInt() == -1);
    CHECK(model.data(model.index(30, 23)).toInt() == 2);

    // 1. Clearing a whole surface: both mips and the packed tail, mapped
    // then cleared.
    show_event(window, e.clear_mapped);
    REQUIRE(window.select_resource(QString::number(kClear)));
    CHECK(model.mip_count() == 3);  // 2 standard mips, then the packed tail
    CHECK(model_tiles(model) == slice_of(kClearMapped, 0, 6));
    REQUIRE(model.packed().size() == 1);
    CHECK(model.packed()[0].pool_tile == 28);
    window.select_subresource(1, 0);
    CHECK(model_tiles(model) == slice_of(kClearMapped, 6, 2));
    window.select_subresource(2, 0);
    CHECK(model.showing_packed());
    CHECK(model_tiles(model) == slice_of(kClearMapped, 8, 1));
    window.select_subresource(0, 0);
    show_event(window, e.clear_cleared);
    CHECK(model_tiles(model) == slice_of(kClearCleared, 0, 6));
    CHECK(count_role(model, TileMapModel::ChangedRole) == 6);
    CHECK(model.packed()[0].pool_tile == -1);
}

TEST_CASE("a newer event request supersedes an older one") {
    d3dcap::testing::TempDir dir;
    const std::string path = dir.file("examples.d3dcap");
    const SeedTrace e = write_seed_trace(path);
    MainWindow window;
    REQUIRE(window.open_trace(QString::fromStdString(path), nullptr));
    QSignalSpy shown(&window, &MainWindow::state_shown);
    window.select_event(e.box);
    window.select_event(e.mixed);
    REQUIRE(shown.wait(20000));
    // Only the newest request's state is shown.
    REQUIRE(shown.size() == 1);
    CHECK(shown.at(0).at(0).toULongLong() == e.mixed);
    CHECK(window.select_resource(QString::number(kMixed)));
    CHECK(model_tiles(*window.tile_model()) == mixed_expected());
}

TEST_CASE("the screenshot command writes a PNG of the tile map, and refuses bad input") {
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
    REQUIRE(d3dcap::viewer::write_screenshot(options, err) == 0);
    QImage image(options.output);
    REQUIRE(!image.isNull());
    CHECK(image.width() == options.width);
    std::set<QRgb> colours;
    bool has_pool_tile_5 = false;
    const QRgb five = d3dcap::viewer::TileMapView::colour_of(5).rgb();
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2) {
            colours.insert(image.pixel(x, y));
            has_pool_tile_5 |= image.pixel(x, y) == five;
        }
    }
    CHECK(colours.size() > 10);
    CHECK(has_pool_tile_5);

    options.resource = "albedo";
    CHECK(d3dcap::viewer::write_screenshot(options, err) == 2);
    CHECK(messages.contains(QString("no tiled resource 'albedo' after event %1").arg(e.mixed)));
    CHECK(messages.contains("(it has 11, 12, 13, 14)"));
    options.resource.clear();
    options.event = e.events;
    CHECK(d3dcap::viewer::write_screenshot(options, err) == 2);
    CHECK(messages.contains(QString("event %1 is past the end").arg(e.events)));
    options.trace = QString::fromStdString(dir.file("missing.d3dcap"));
    CHECK(d3dcap::viewer::write_screenshot(options, err) == 1);
    CHECK(messages.contains("missing.d3dcap: cannot open"));
}
