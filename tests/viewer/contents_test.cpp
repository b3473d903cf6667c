// The contents tab on a trace that replays: the API reference's 2x3 box
// mapped onto one pool tile, and 64 KiB of one colour written through one
// of its tiles by UpdateTiles. The view shows that colour in all six tiles
// (they share the pool tile), black in the NULL tiles, hatched and marked
// by the overlay; the texel under the cursor is decoded in the format; the
// channel toggles and the range change the picture; a bad request says why.
#include <QAbstractItemModelTester>
#include <QFile>
#include <QImage>
#include <QTextStream>
#include <QTreeWidget>
#include <cstdlib>

#include "replay/state/timeline_support.h"
#include "runtime/tiles/worked_examples.h"
#include "viewer/contents/buffer_rows_model.h"
#include "viewer/contents/contents_image.h"
#include "viewer/contents/contents_panel.h"
#include "viewer/contents/contents_service.h"
#include "viewer/contents/contents_view.h"
#include "viewer/screenshot.h"
#include "viewer/tile_map/tile_map_view.h"
#include "viewer_support.h"

using namespace timeline_tests;
using d3dcap::viewer::ContentsPanel;
using d3dcap::viewer::ContentsView;
using d3dcap::viewer::MainWindow;

namespace {

constexpr std::uint64_t kPoolId = 100, kBoxId = 12;
constexpr std::uint8_t kColour[4] = {255, 128, 0, 255};

struct ContentsTrace {
    std::uint64_t mapped = 0, written = 0, draw = 0, events = 0;
};

void create_device(TraceBuilder& t) {
    const std::vector<std::uint32_t> levels{D3D_FEATURE_LEVEL_11_1};
    t.call(0,
           fb::CreateD3D11CreateDeviceDirect(t.b, 0, D3D_DRIVER_TYPE_REFERENCE, 0, 0, &levels, 1,
                                             D3D11_SDK_VERSION, kDevice, D3D_FEATURE_LEVEL_11_1,
                                             kContext),
           S_OK);
}

// The box of worked example 2 onto pool tile 3, then tile (1, 1) of it
// filled with kColour.
ContentsTrace write_contents_trace(const std::string& path) {
    using namespace worked_examples;
    TraceBuilder t(path);
    ContentsTrace e;
    create_device(t);
    t.create_pool(kPoolId, 8);
    t.create_texture(kBoxId, kBoxWidth * 128, kBoxHeight * 128, 1, 1,
                     tile_tests::flat_texture(kBoxWidth, kBoxHeight));
    t.name(kBoxId, "box");
    const D3D11_TILED_RESOURCE_COORDINATE box_start{1, 1, 0, 0};
    const D3D11_TILE_REGION_SIZE box_size{6, TRUE, 2, 3, 1};
    const UINT reuse = D3D11_TILE_RANGE_REUSE_SINGLE_TILE, three = 3;
    e.mapped =
        t.update(kContext, kBoxId, 1, &box_start, &box_size, kPoolId, 1, &reuse, &three, nullptr);
    std::vector<std::uint8_t> tile(65536);
    for (std::size_t i = 0; i < tile.size(); ++i) tile[i] = kColour[i % 4];
    const D3D11_TILE_REGION_SIZE one{1, FALSE, 1, 1, 1};
    e.written = t.on(kContext,
                     api::encode_ID3D11DeviceContext2_UpdateTiles(
                         t.b, t, object<ID3D11Resource>(kBoxId), &box_start, &one, tile.data(), 0),
                     std::nullopt);
    e.draw = t.on(kContext, fb::CreateID3D11DeviceContext_Draw(t.b, 3, 0), std::nullopt);
    e.events = t.close();
    return e;
}

constexpr std::uint64_t kTargetId = 20, kTargetViewId = 21;

struct DrawnTrace {
    std::uint64_t cleared = 0, events = 0;
};

// No tiled resource: a 16x8 render target cleared to kColour, in one frame.
DrawnTrace write_drawn_trace(const std::string& path) {
    using namespace worked_examples;
    TraceBuilder t(path);
    DrawnTrace e;
    create_device(t);
    const fb::D3D11_TEXTURE2D_DESC desc(16, 8, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM,
                                        fb::SampleDesc(1, 0), D3D11_USAGE_DEFAULT,
                                        D3D11_BIND_RENDER_TARGET, 0, 0);
    t.call(kDevice, fb::CreateID3D11Device_CreateTexture2D(t.b, &desc, 0, kTargetId), S_OK);
    ID3D11RenderTargetView* view = object<ID3D11RenderTargetView>(kTargetViewId);
    t.call(kDevice,
           api::encode_ID3D11Device_CreateRenderTargetView(
               t.b, t, object<ID3D11Resource>(kTargetId), nullptr, &view),
           S_OK);
    t.on(kContext, api::encode_ID3D11DeviceContext_OMSetRenderTargets(t.b, t, 1, &view, nullptr),
         std::nullopt);
    const float colour[4] = {kColour[0] / 255.0f, kColour[1] / 255.0f, kColour[2] / 255.0f, 1};
    e.cleared =
        t.on(kContext, api::encode_ID3D11DeviceContext_ClearRenderTargetView(t.b, t, view, colour),
             std::nullopt);
    e.events = t.close();
    return e;
}

// The trace opened in a window shown, its contents tab on the reference
// device.
struct ContentsWindow : viewer_tests::OpenedTrace<ContentsTrace> {
    explicit ContentsWindow(const char* name) : OpenedTrace(name, write_contents_trace) {
        window.resize(900, 700);
        window.show();
        window.contents_panel()->set_device("reference");
    }
};

// Selects event, brings the contents tab forward and waits for its contents.
[[nodiscard]] bool show_contents(MainWindow& window, std::uint64_t event) {
    ContentsPanel& panel = *window.contents_panel();
    QSignalSpy shown(&panel, &ContentsPanel::contents_shown);
    QSignalSpy failed(&panel, &ContentsPanel::contents_failed);
    window.show_contents_tab();
    if (!viewer_tests::show_event_with_history(window, event) || !window.select_resource("box"))
        return false;
    while (panel.busy() || shown.isEmpty()) {
        if (!failed.isEmpty() || !shown.wait(viewer_tests::kWaitMs)) return false;
    }
    return shown.last().at(0).toULongLong() == event;
}

}  // namespace

class ContentsTest : public QObject {
    Q_OBJECT

  private slots:
    void shared_tiles_show_the_written_colour_and_null_tiles_black();
    void overlay_hatches_null_tiles_and_marks_shared_ones();
    void channels_and_range_change_the_picture();
    void every_resource_is_listed_and_buffers_show_rows();
    void a_device_without_contents_says_so();
    void screenshot_of_the_contents_tab();
    void zooming_in_reads_the_visible_texels_one_a_pixel();
    void srgb_shows_encoded_and_a_window_names_its_texels();
    void a_trace_without_tiled_resources_opens_on_what_it_draws();
};

void ContentsTest::a_trace_without_tiled_resources_opens_on_what_it_draws() {
    viewer_tests::OpenedTrace<DrawnTrace> trace("drawn.d3dcap", write_drawn_trace);
    QVERIFY(trace.opened);
    MainWindow& window = trace.window;
    ContentsPanel& panel = *window.contents_panel();
    // One frame: it opens on the last event, the clear, following its output.
    QCOMPARE(window.opening_event(), trace.events.cleared);
    QVERIFY(panel.follows_output());
    QSignalSpy shown(&panel, &ContentsPanel::contents_shown);
    QSignalSpy failed(&panel, &ContentsPanel::contents_failed);
    window.resize(900, 700);
    window.show();
    QVERIFY(panel.isVisible());  // the contents tab is in front
    panel.set_device("reference");
    while (panel.busy() || shown.isEmpty()) {
        QVERIFY(failed.isEmpty());
        QVERIFY(shown.wait(viewer_tests::kWaitMs));
    }
    QCOMPARE(shown.last().at(0).toULongLong(), trace.events.cleared);
    const auto contents = panel.view()->contents();
    QVERIFY(contents);
    QCOMPARE(contents->contents.resource, kTargetId);
    QCOMPARE(contents->contents.shape.width, 16u);
    const std::vector<std::uint8_t>& bytes = contents->contents.bytes;
    QCOMPARE(bytes.size(), std::size_t{16 * 8 * 4});
    QVERIFY(std::equal(bytes.end() - 4, bytes.end(), kColour));
    // The picture exported: one pixel a texel, the clear colour.
    const QString exported = QString::fromStdString(trace.dir.file("drawn.png"));
    QString error;
    QVERIFY2(window.export_picture(exported, &error), qPrintable(error));
    const QImage picture(exported);
    QCOMPARE(picture.size(), QSize(16, 8));
    QCOMPARE(picture.pixel(15, 7), qRgb(kColour[0], kColour[1], kColour[2]));
    // Its texels as stored: raw bytes, and a DDS of them after its header.
    for (const char* name : {"drawn.raw", "drawn.dds"}) {
        QSignalSpy written_spy(&panel, &ContentsPanel::texels_exported);
        const QString path = QString::fromStdString(trace.dir.file(name));
        QVERIFY(window.export_picture(path, &error));
        QVERIFY(written_spy.wait(viewer_tests::kWaitMs));
        QCOMPARE(written_spy.last().at(0).toString(), path);
        QCOMPARE(written_spy.last().at(1).toString(), QString());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray written = file.readAll();
        const qsizetype header = QString(name).endsWith(".dds") ? 148 : 0;
        QCOMPARE(written.size(), header + 16 * 8 * 4);
        QVERIFY(std::equal(bytes.begin(), bytes.end(),
                           reinterpret_cast<const std::uint8_t*>(written.constData()) + header));
        if (header) QVERIFY(written.startsWith("DDS "));
    }
    // The tile map's resource is one choice away.
    panel.follow_output(false);
    QVERIFY(!panel.follows_output());
}

void ContentsTest::shared_tiles_show_the_written_colour_and_null_tiles_black() {
    ContentsWindow trace("contents.d3dcap");
    QVERIFY(trace.opened);
    MainWindow& window = trace.window;
    ContentsView& view = *window.contents_panel()->view();

    // Mapped, not yet written: the pool tile holds zeros.
    QVERIFY(show_contents(window, trace.events.mapped));
    QCOMPARE(view.image().size(), QSize(512, 640));
    QCOMPARE(view.image().pixel(200, 200), qRgb(0, 0, 0));
    QCOMPARE(view.tile_width(), 128);
    QCOMPARE(view.tile_height(), 128);

    QVERIFY(show_contents(window, trace.events.written));
    const QImage& image = view.image();
    // Every tile of the box (columns 1-2, rows 1-3) shares pool tile 3.
    for (int row = 1; row <= 3; ++row) {
        for (int column = 1; column <= 2; ++column)
            QCOMPARE(image.pixel(column * 128 + 5, row * 128 + 70), qRgb(255, 128, 0));
    }
    QCOMPARE(image.pixel(5, 5), qRgb(0, 0, 0));                      // tile (0, 0): NULL
    QCOMPARE(image.pixel(3 * 128 + 1, 4 * 128 + 1), qRgb(0, 0, 0));  // tile (3, 4): NULL
    // Tile (2, 3) shares pool tile 3 with tile (1, 1), which UpdateTiles wrote.
    QCOMPARE(view.describe_at(300, 400),
             QStringLiteral("texel (300, 400): R 1.000 (255) G 0.502 (128) B 0.000 (0) A 1.000 "
                            "(255); tile (2, 3): pool tile 3, shared, last changed by event %1, "
                            "contents written by event %2")
                 .arg(trace.events.mapped)
                 .arg(trace.events.written));
    // A click goes to the last mapping change, a Shift-click to the write.
    QSignalSpy clicked(&view, &ContentsView::last_change_clicked);
    const QPoint tile_centre = view.texel_rect(300, 400).center().toPoint();
    QTest::mouseClick(&view, Qt::LeftButton, Qt::NoModifier, tile_centre);
    QTest::mouseClick(&view, Qt::LeftButton, Qt::ShiftModifier, tile_centre);
    QCOMPARE(clicked.count(), 2);
    QCOMPARE(clicked.at(0).at(0).toULongLong(), trace.events.mapped);
    QCOMPARE(clicked.at(1).at(0).toULongLong(), trace.events.written);
    QCOMPARE(view.describe_at(10, 10).left(58),
             "texel (10, 10): R 0.000 (0) G 0.000 (0) B 0.000 (0) A 0.00");
    // Back to before the write: replayed again from the start.
    QVERIFY(show_contents(window, trace.events.mapped));
    QCOMPARE(view.image().pixel(200, 200), qRgb(0, 0, 0));
    // From draw to draw: the one draw after the write, and none past it.
    QSignalSpy shown(&window, &MainWindow::state_shown);
    window.step_to_call(true, true);
    QVERIFY(shown.wait(viewer_tests::kWaitMs));
    QCOMPARE(window.selected_event(), std::optional<std::uint64_t>(trace.events.draw));
    window.step_to_call(true, true);
    QCOMPARE(window.selected_event(), std::optional<std::uint64_t>(trace.events.draw));
    window.step_to_call(false, false);  // the tile call before it
    QCOMPARE(window.selected_event(), std::optional<std::uint64_t>(trace.events.written));
    // The pipeline beside the contents: a section a stage, nothing bound.
    QVERIFY(show_contents(window, trace.events.draw));
    QTreeWidget& pipeline = *window.contents_panel()->pipeline();
    QStringList sections;
    for (int i = 0; i < pipeline.topLevelItemCount(); ++i)
        sections << pipeline.topLevelItem(i)->text(0);
    QCOMPARE(sections, (QStringList{"IA", "VS", "HS", "DS", "GS", "RS", "PS", "OM", "CS"}));
    QCOMPARE(pipeline.topLevelItem(1)->text(1), QStringLiteral("none"));
    QCOMPARE(pipeline.topLevelItem(0)->child(0)->text(0), QStringLiteral("input layout"));
}

void ContentsTest::overlay_hatches_null_tiles_and_marks_shared_ones() {
    ContentsWindow trace("overlay.d3dcap");
    QVERIFY(trace.opened);
    MainWindow& window = trace.window;
    QVERIFY(show_contents(window, trace.events.written));
    ContentsView& view = *window.contents_panel()->view();
    view.set_view(128, QPointF(0, 0));  // one pixel a texel, tile (0, 0) at the corner
    const QImage grab = view.grab().toImage();
    // A NULL tile: black texels with red hatching lines across them.
    int hatched = 0;
    for (int x = 10; x < 118; ++x) hatched += QColor(grab.pixel(x, 60)).red() > 100 ? 1 : 0;
    QVERIFY(hatched > 5 && hatched < 60);
    // A shared tile: the yellow dot at its top-left, the colour elsewhere.
    const QColor dot(grab.pixel(128 + 7, 128 + 7));
    QVERIFY(dot.red() > 200 && dot.green() > 180 && dot.blue() < 60);
    QCOMPARE(grab.pixel(128 + 64, 128 + 64), qRgb(255, 128, 0));
    // Zoom follows the tile map: 64 pixels a tile there is half a pixel a texel here.
    window.tile_view()->set_view(64, QPointF(4, 4));
    emit window.tile_view()->view_moved(64, QPointF(4, 4));
    QCOMPARE(view.pixels_per_texel(), 0.5);
}

void ContentsTest::channels_and_range_change_the_picture() {
    ContentsWindow trace("display.d3dcap");
    QVERIFY(trace.opened);
    MainWindow& window = trace.window;
    ContentsPanel& panel = *window.contents_panel();
    QVERIFY(show_contents(window, trace.events.written));
    ContentsView& view = *panel.view();
    const QPoint inside(128 + 64, 128 + 64);
    panel.set_channels({false, true, false, false});  // G alone: grey
    QCOMPARE(view.image().pixel(inside), qRgb(128, 128, 128));
    panel.set_channels({true, true, true, false});
    panel.set_range(0, 0.5);  // 0.502 is past white
    QCOMPARE(view.image().pixel(inside), qRgb(255, 255, 0));
    panel.set_range(0.25, 1);  // (0.502 - 0.25) / 0.75 = 0.336
    QCOMPARE(view.image().pixel(inside), qRgb(255, 86, 0));
}

void ContentsTest::every_resource_is_listed_and_buffers_show_rows() {
    ContentsWindow trace("listed.d3dcap");
    QVERIFY(trace.opened);
    MainWindow& window = trace.window;
    ContentsPanel& panel = *window.contents_panel();
    QVERIFY(show_contents(window, trace.events.written));
    QCOMPARE(panel.listed_resources(), (std::vector<std::uint64_t>{kBoxId, kPoolId}));
    // The pool as a buffer: 16 bytes a row, pool tile 3 holding the colour.
    QSignalSpy shown(&panel, &ContentsPanel::contents_shown);
    QVERIFY(panel.select_resource(kPoolId));
    QVERIFY(shown.wait(viewer_tests::kWaitMs));
    d3dcap::viewer::BufferRowsModel& rows = *panel.buffer_rows();
    QAbstractItemModelTester tester(&rows, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QCOMPARE(rows.rowCount(), 8 * 65536 / 16);
    QCOMPARE(rows.columnCount(), 5);
    const int tile_three = 3 * 65536 / 16;
    QCOMPARE(rows.data(rows.index(tile_three, 0)).toString(), "0x30000");
    QCOMPARE(rows.data(rows.index(tile_three, 1)).toString(), "-1.70810969e+38");
    rows.set_element(d3dcap::viewer::BufferRowsModel::Element::Hex);
    QCOMPARE(rows.data(rows.index(tile_three, 2)).toString(), "ff0080ff");
    rows.set_element(d3dcap::viewer::BufferRowsModel::Element::Uint);
    QCOMPARE(rows.data(rows.index(tile_three, 4)).toString(), "4278223103");
    QCOMPARE(rows.data(rows.index(0, 1)).toString(), "0");
    QCOMPARE(rows.headerData(4, Qt::Horizontal).toString(), "+12");
    // Back to the tile map's resource.
    QVERIFY(panel.select_resource(0));
    QVERIFY(shown.wait(viewer_tests::kWaitMs));
    QCOMPARE(panel.view()->contents()->contents.resource, kBoxId);
    QCOMPARE(rows.rowCount(), 0);
}

void ContentsTest::zooming_in_reads_the_visible_texels_one_a_pixel() {
    ContentsWindow trace("zoom.d3dcap");
    QVERIFY(trace.opened);
    MainWindow& window = trace.window;
    window.resize(520, 400);  // the 512x640 box fits at under half a pixel a texel
    ContentsPanel& panel = *window.contents_panel();
    ContentsView& view = *panel.view();
    QVERIFY(show_contents(window, trace.events.written));
    // Fitted: every step-th texel read, step the largest power of two that
    // still gives a texel a pixel at most.
    auto shown = view.contents();
    const double scale = view.pixels_per_texel();
    QVERIFY(scale <= 0.5);
    QVERIFY(shown->step * scale <= 1.0 && shown->step * 2 * scale > 1.0);
    QCOMPARE(shown->contents.window.step, shown->step);
    QCOMPARE(view.image().size(), QSize(int(512 + shown->step - 1) / int(shown->step),
                                        int(640 + shown->step - 1) / int(shown->step)));
    QCOMPARE(shown->contents.bytes.size(),
             std::size_t(view.image().width()) * std::size_t(view.image().height()) * 4);
    // Between read texels, hovering tells the read one before it.
    QVERIFY(view.describe_at(301, 401).startsWith(QStringLiteral("texel (300, 400): R 1.000")));

    // Zoomed in to 2 pixels a texel, texel (300, 400) at (10, 10): the
    // visible texels are read again, every one, and no more than about
    // twice what shows.
    QSignalSpy shown_again(&panel, &ContentsPanel::contents_shown);
    view.set_view(256, QPointF(10 - 300 * 2, 10 - 400 * 2));
    QVERIFY(shown_again.wait(viewer_tests::kWaitMs));
    shown = view.contents();
    const d3dcap::replay::TexelWindow& window_read = shown->contents.window;
    QCOMPARE(shown->step, 1u);
    QVERIFY(window_read.x <= 300 &&
            window_read.x + window_read.width > 300 + std::uint32_t(view.width()) / 2);
    QVERIFY(window_read.y <= 400 &&
            window_read.y + window_read.height > 400 + std::uint32_t(view.height()) / 2);
    QVERIFY(window_read.width < std::uint32_t(view.width()));
    QCOMPARE(view.image().size(), QSize(int(window_read.width), int(window_read.height)));
    QCOMPARE(view.describe_at(301, 401),
             QStringLiteral("texel (301, 401): R 1.000 (255) G 0.502 (128) B 0.000 (0) A 1.000 "
                            "(255); tile (2, 3): pool tile 3, shared, last changed by event %1, "
                            "contents written by event %2")
                 .arg(trace.events.mapped)
                 .arg(trace.events.written));
    QCOMPARE(view.image().pixel(int(301 - window_read.x), int(401 - window_read.y)),
             qRgb(255, 128, 0));
    QVERIFY(!view.needs_detail());
}

void ContentsTest::srgb_shows_encoded_and_a_window_names_its_texels() {
    using d3dcap::viewer::decode_contents;
    using d3dcap::viewer::describe_texel;
    using d3dcap::viewer::render_contents;
    using d3dcap::viewer::shown_texel;
    d3dcap::replay::ResourceContents contents;
    contents.resource = 1;
    contents.shape.format = DXGI_FORMAT_R8G8B8A8_UNORM_SRGB;
    contents.shape.width = 2;
    contents.window = {0, 0, 2, 1, 1};
    contents.bytes = {128, 64, 255, 255, 0, 10, 200, 255};
    // Decoded to linear values, shown encoded: the bytes as stored.
    auto decoded = decode_contents(contents, 0);
    QImage image = render_contents(*decoded, {});
    QCOMPARE(image.pixel(0, 0), qRgb(128, 64, 255));
    QCOMPARE(image.pixel(1, 0), qRgb(0, 10, 200));
    QCOMPARE(
        describe_texel(*decoded, 0, 0),
        QStringLiteral("texel (0, 0): R 0.216 (128) G 0.051 (64) B 1.000 (255) A 1.000 (255)"));
    contents.shape.format = DXGI_FORMAT_R8G8B8A8_UNORM;
    QCOMPARE(render_contents(*decode_contents(contents, 0), {}).pixel(0, 0), qRgb(128, 64, 255));

    // Every 4th texel of texels 10-17 of row 20 of a 64x64 R8 texture.
    contents.shape.format = DXGI_FORMAT_R8_UNORM;
    contents.shape.width = contents.shape.height = 64;
    contents.window = {10, 20, 8, 4, 4};
    contents.bytes = {51, 204};
    decoded = decode_contents(contents, 0);
    QCOMPARE(decoded->step, 4u);
    QCOMPARE(decoded->shown_width, 2u);
    QCOMPARE(decoded->shown_height, 1u);
    QCOMPARE(render_contents(*decoded, {{true, false, false, false}, 0, 1}).pixel(1, 0),
             qRgb(204, 204, 204));
    QCOMPARE(shown_texel(*decoded, 13, 23), (std::array<std::uint32_t, 2>{10, 20}));
    QCOMPARE(shown_texel(*decoded, 17, 20), (std::array<std::uint32_t, 2>{14, 20}));
    QVERIFY(!shown_texel(*decoded, 9, 20));
    QVERIFY(!shown_texel(*decoded, 18, 20));
    QCOMPARE(describe_texel(*decoded, 14, 20), QStringLiteral("texel (14, 20): R 0.800 (204)"));
    QCOMPARE(describe_texel(*decoded, 13, 20), QString());
}

void ContentsTest::a_device_without_contents_says_so() {
    viewer_tests::OpenedTrace<ContentsTrace> trace("errors.d3dcap", write_contents_trace);
    QVERIFY(trace.opened);
    d3dcap::viewer::ContentsService service(QString::fromStdString(trace.path));
    service.set_device("null");
    QSignalSpy failed(&service, &d3dcap::viewer::ContentsService::failed);
    service.request(trace.events.written, {kBoxId, 0, {}});
    QVERIFY(failed.wait(viewer_tests::kWaitMs));
    QVERIFY(failed.last().at(1).toString().endsWith(
        QStringLiteral(": the null device keeps no contents of resource #12")));
    service.set_device("vulkan");
    service.request(trace.events.written, {kBoxId, 0, {}});
    QVERIFY(failed.wait(viewer_tests::kWaitMs));
    QCOMPARE(
        failed.last().at(1).toString(),
        QStringLiteral("--device 'vulkan' is not one of auto, hardware, warp, reference, null"));
    service.set_device("reference");
    service.request(trace.events.events, {kBoxId, 0, {}});
    QVERIFY(failed.wait(viewer_tests::kWaitMs));
    QVERIFY(failed.last().at(1).toString().endsWith(
        QStringLiteral("no event %1: the trace has %1 events").arg(trace.events.events)));
}

void ContentsTest::screenshot_of_the_contents_tab() {
    viewer_tests::OpenedTrace<ContentsTrace> trace("screenshot.d3dcap", write_contents_trace);
    QVERIFY(trace.opened);
    d3dcap::viewer::ScreenshotOptions options;
    options.trace = QString::fromStdString(trace.path);
    options.event = trace.events.written;
    options.contents = true;
    options.device = QStringLiteral("reference");
    options.output = QString::fromStdString(trace.dir.file("contents.png"));
    QString messages;
    QTextStream err(&messages);
    QCOMPARE(d3dcap::viewer::write_screenshot(options, err), 0);
    const QImage shot(options.output);
    QCOMPARE(shot.size(), QSize(options.width, options.height));
    // The box fitted into the contents view: its six shared tiles (columns
    // 1-2, rows 1-3 of 4x5) show the written colour as a block two tiles
    // wide and three high (the shared-tile dots and the grid aside), with
    // a NULL tile's width of black texels on every side of it.
    QRect written;
    int written_pixels = 0;
    for (int y = 0; y < shot.height(); ++y) {
        for (int x = 0; x < shot.width(); ++x) {
            if (shot.pixel(x, y) != qRgb(kColour[0], kColour[1], kColour[2])) continue;
            written |= QRect(x, y, 1, 1);
            ++written_pixels;
        }
    }
    QVERIFY2(written.width() > 100, qPrintable(QStringLiteral("%1 pixels").arg(written_pixels)));
    QVERIFY(std::abs(written.width() * 3 - written.height() * 2) <= 6);
    QVERIFY(written_pixels > written.width() * written.height() * 9 / 10);
    const int tile = written.width() / 2;
    const QRect box = written.adjusted(-tile, -tile, tile, tile);
    int black = 0;
    for (int y = box.top(); y <= box.bottom(); ++y) {
        for (int x = box.left(); x <= box.right(); ++x)
            black += !written.contains(x, y) && shot.pixel(x, y) == qRgb(0, 0, 0) ? 1 : 0;
    }
    const int null_area = box.width() * box.height() - written.width() * written.height();
    QVERIFY2(black > null_area * 3 / 4,
             qPrintable(QStringLiteral("%1 of %2 black pixels").arg(black).arg(null_area)));
    // Any resource by id: the pool.
    options.show = kPoolId;
    QCOMPARE(d3dcap::viewer::write_screenshot(options, err), 0);
    QVERIFY(messages.isEmpty());
    options.show = 999;
    QCOMPARE(d3dcap::viewer::write_screenshot(options, err), 2);
    err.flush();
    QCOMPARE(messages, QStringLiteral("d3dcap-viewer: no resource 999 after event %1 of %2\n")
                           .arg(trace.events.written)
                           .arg(options.trace));
}

QTEST_MAIN(ContentsTest)
#include "contents_test.moc"
