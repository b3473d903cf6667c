// Test support for the viewer's QtTest tests: waiting for the window to show
// an event's tile state, its history or a filter, reading the tile map model
// back as pool tiles, and a trace of frames and nested marker regions.
#pragma once

#include <QSignalSpy>
#include <QtTest>
#include <cstdint>
#include <string>
#include <vector>

#include "replay/state/timeline_support.h"
#include "runtime/tiles/tile_state.h"
#include "runtime/tiles/tiling_fixtures.h"
#include "support/temp_dir.h"
#include "viewer/main_window.h"
#include "viewer/tile_map/tile_map_model.h"

namespace viewer_tests {

// Long enough for a loaded machine; the waits end on the signal.
inline constexpr int kWaitMs = 20000;

// A trace that write(path) writes into a temporary folder, opened in a
// window; events is what write returns.
template <class Events>
struct OpenedTrace {
    template <class Write>
    OpenedTrace(const char* name, Write write)
        : path(dir.file(name)),
          events(write(path)),
          opened(window.open_trace(QString::fromStdString(path), nullptr)) {}

    d3dcap::testing::TempDir dir;
    std::string path;
    Events events;
    d3dcap::viewer::MainWindow window;
    bool opened;
};

// Selects event and waits (on the signal, no sleeping) until it is shown.
[[nodiscard]] inline bool show_event(d3dcap::viewer::MainWindow& window, std::uint64_t event) {
    QSignalSpy shown(&window, &d3dcap::viewer::MainWindow::state_shown);
    window.select_event(event);
    return shown.wait(kWaitMs) && shown.last().at(0).toULongLong() == event;
}

// Waits until the window has the history of the state it shows; found
// spies on history_shown since before the request.
[[nodiscard]] inline bool wait_for_history(d3dcap::viewer::MainWindow& window, QSignalSpy& found) {
    while (window.finding_history()) {
        if (!found.wait(kWaitMs)) return false;
    }
    return true;
}

// Selects event and waits until its state, then its history (the last
// changes and the pool sizes), are shown.
[[nodiscard]] inline bool show_event_with_history(d3dcap::viewer::MainWindow& window,
                                                  std::uint64_t event) {
    QSignalSpy found(&window, &d3dcap::viewer::MainWindow::history_shown);
    return show_event(window, event) && wait_for_history(window, found) && !found.isEmpty() &&
           found.last().at(0).toULongLong() == event;
}

// Selects a resource and, when it asks for the resource's history, waits
// for that state; then waits for the history.
[[nodiscard]] inline bool show_resource(d3dcap::viewer::MainWindow& window,
                                        const QString& id_or_name) {
    QSignalSpy shown(&window, &d3dcap::viewer::MainWindow::state_shown);
    QSignalSpy found(&window, &d3dcap::viewer::MainWindow::history_shown);
    if (!window.select_resource(id_or_name)) return false;
    return (!window.busy() || shown.wait(kWaitMs)) && wait_for_history(window, found);
}

// Filters the event tree and waits until the filter is applied.
[[nodiscard]] inline bool apply_filter(d3dcap::viewer::MainWindow& window, const QString& text) {
    QSignalSpy applied(&window, &d3dcap::viewer::MainWindow::filter_applied);
    window.set_filter(text);
    return applied.wait(kWaitMs) && applied.last().at(0).toString() == text;
}

// Every cell's pool tile, row after row, with kNullTile for NULL (as the
// worked examples write their tables).
inline std::vector<std::uint32_t> model_tiles(const d3dcap::viewer::TileMapModel& model) {
    std::vector<std::uint32_t> tiles;
    for (int row = 0; row < model.rowCount(); ++row) {
        for (int column = 0; column < model.columnCount(); ++column) {
            const int tile = model.data(model.index(row, column)).toInt();
            tiles.push_back(tile < 0 ? d3dcap::runtime::tiles::kNullTile
                                     : static_cast<std::uint32_t>(tile));
        }
    }
    return tiles;
}

inline int count_role(const d3dcap::viewer::TileMapModel& model, int role) {
    int count = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        for (int column = 0; column < model.columnCount(); ++column) {
            count += model.data(model.index(row, column), role).toBool() ? 1 : 0;
        }
    }
    return count;
}

// A trace of two frames: the first holds the "Stream" region with an
// UpdateTileMappings and the nested "Inner" region with a marker; the
// second a marker and a ResizeTilePool of the 8-tile pool to 16 tiles.
inline constexpr std::uint64_t kMarkerPool = 100, kMarkerTexture = 11;

struct MarkerTrace {
    std::uint64_t frame0 = 0, stream = 0, update = 0, inner = 0, mark = 0, inner_end = 0,
                  stream_end = 0, frame1 = 0, frame_marker = 0, resize = 0, events = 0;
};

inline MarkerTrace write_marker_trace(const std::string& path) {
    using namespace timeline_tests;
    TraceBuilder t(path);
    MarkerTrace e;
    t.create_pool(kMarkerPool, 8);
    t.create_texture(kMarkerTexture, 4 * 128, 4 * 128, 1, 1, tile_tests::flat_texture(4, 4));
    t.name(kMarkerTexture, "albedo");
    e.frame0 = t.meta(fb::CreateFrameBoundary(t.b, 0));
    e.stream = t.on(kContext, fb::CreateID3D11DeviceContext2_BeginEventIntDirect(t.b, "Stream", 7),
                    std::nullopt);
    const UINT offset = 3;
    e.update = t.update(kContext, kMarkerTexture, 1, nullptr, nullptr, kMarkerPool, 1, nullptr,
                        &offset, nullptr);
    e.inner = t.on(kContext, fb::CreateID3D11DeviceContext2_BeginEventIntDirect(t.b, "Inner", 1),
                   std::nullopt);
    e.mark = t.on(kContext, fb::CreateID3D11DeviceContext2_SetMarkerIntDirect(t.b, "mark", 3),
                  std::nullopt);
    e.inner_end = t.on(kContext, fb::CreateID3D11DeviceContext2_EndEvent(t.b), std::nullopt);
    e.stream_end = t.on(kContext, fb::CreateID3D11DeviceContext2_EndEvent(t.b), std::nullopt);
    e.frame1 = t.meta(fb::CreateFrameBoundary(t.b, 1));
    e.frame_marker = t.marker(kContext, 2);
    e.resize = t.resize(kContext, kMarkerPool, 16 * 65536);
    e.events = t.close();
    return e;
}

}  // namespace viewer_tests
