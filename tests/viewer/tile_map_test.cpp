// The tile map of the API reference's worked UpdateTileMappings examples,
// recorded in a trace, read back from the viewer's model at each event
// against the hand-written tables; and the screenshot command.
#include <QAbstractItemModelTester>
#include <QImage>
#include <QSortFilterProxyModel>
#include <QTextStream>
#include <set>

#include "replay/state/timeline_support.h"
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

constexpr std::uint64_t kPool = 100;
constexpr std::uint64_t kClear = 11, kBox = 12, kMixed = 14;

struct ExampleTrace {
    std::uint64_t clear_mapped = 0, clear_cleared = 0, box = 0, mixed_filled = 0, mixed = 0;
    std::uint64_t events = 0;
};

// Three of the worked examples, as the seed timeline test records them.
ExampleTrace write_examples(const std::string& path) {
    TraceBuilder t(path);
    ExampleTrace e;
    t.create_pool(kPool, 32);
    t.name(kPool, "seed pool");

    t.create_texture(kClear, 384, 256, 4, 1, clear_tiling());
    t.name(kClear, "clear");
    const UINT first_offset = kClearFirstOffset;
    e.clear_mapped =
        t.update(kContext, kClear, 1, nullptr, nullptr, kPool, 1, nullptr, &first_offset, nullptr);
    const UINT null_flags = D3D11_TILE_RANGE_NULL;
    e.clear_cleared = t.update(kContext, kClear, 1, nullptr, nullptr, 0, 1, &null_flags, nullptr,
                               nullptr, D3D11_TILE_MAPPING_NO_OVERWRITE);

    t.create_texture(kBox, kBoxWidth * 128, kBoxHeight * 128, 1, 1,
                     tile_tests::flat_texture(kBoxWidth, kBoxHeight));
    t.name(kBox, "box");
    const D3D11_TILED_RESOURCE_COORDINATE box_start{1, 1, 0, 0};
    const D3D11_TILE_REGION_SIZE box_size{6, TRUE, 2, 3, 1};
    const UINT reuse = D3D11_TILE_RANGE_REUSE_SINGLE_TILE;
    const UINT twelve = 12;
    e.box = t.update(kContext, kBox, 1, &box_start, &box_size, kPool, 1, &reuse, &twelve, nullptr,
                     D3D11_TILE_MAPPING_NO_OVERWRITE);

    t.create_texture(kMixed, kMixedWidth * 128, kMixedHeight * 128, 1, 1,
                     tile_tests::flat_texture(kMixedWidth, kMixedHeight));
    t.name(kMixed, "mixed");
    const UINT fill = F;
    e.mixed_filled =
        t.update(kContext, kMixed, 1, nullptr, nullptr, kPool, 1, &reuse, &fill, nullptr);
    const D3D11_TILED_RESOURCE_COORDINATE starts[3] = {{1, 1, 0, 0}, {4, 7, 0, 0}, {20, 30, 0, 0}};
    const D3D11_TILE_REGION_SIZE sizes[3] = {
        {6, TRUE, 2, 3, 1}, {9, TRUE, 3, 3, 1}, {7, TRUE, 7, 1, 1}};
    const UINT range_flags[8] = {0, D3D11_TILE_RANGE_SKIP, D3D11_TILE_RANGE_NULL, reuse, 0, 0, 0,
                                 0};
    const UINT offsets[8] = {9, 0, 0, 17, 2, 9, 4, 17};
    const UINT counts[8] = {3, 8, 2, 5, 1, 1, 1, 1};
    e.mixed = t.update(kContext, kMixed, 3, starts, sizes, kPool, 8, range_flags, offsets, counts,
                       D3D11_TILE_MAPPING_NO_OVERWRITE);
    t.marker(kContext, 2);
    e.events = t.close();
    return e;
}

std::vector<std::uint32_t> slice_of(const std::vector<std::uint32_t>& all, std::size_t first,
                                    std::size_t count) {
    return {all.begin() + long(first), all.begin() + long(first + count)};
}

}  // namespace

TEST_CASE("the tile map shows every worked example's pool tiles at its event") {
    d3dcap::testing::TempDir dir;
    const std::string path = dir.file("examples.d3dcap");
    const ExampleTrace e = write_examples(path);
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
    REQUIRE(window.select_resource("clear"));
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
    const ExampleTrace e = write_examples(path);
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
    const ExampleTrace e = write_examples(path);
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
    CHECK(messages.contains("(it has 11, 12, 14)"));
    options.resource.clear();
    options.event = e.events;
    CHECK(d3dcap::viewer::write_screenshot(options, err) == 2);
    CHECK(messages.contains(QString("event %1 is past the end").arg(e.events)));
    options.trace = QString::fromStdString(dir.file("missing.d3dcap"));
    CHECK(d3dcap::viewer::write_screenshot(options, err) == 1);
    CHECK(messages.contains("missing.d3dcap: cannot open"));
}
