// Test support for the viewer: waiting for the window to show an event's
// tile state, and reading the tile map model back as pool tiles.
#pragma once

#include <QSignalSpy>
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "replay/tiles/tile_state.h"
#include "viewer/main_window.h"
#include "viewer/tile_map_model.h"

namespace viewer_tests {

// Selects event and waits (on the signal, no sleeping) until it is shown.
inline void show_event(d3dcap::viewer::MainWindow& window, std::uint64_t event) {
    QSignalSpy shown(&window, &d3dcap::viewer::MainWindow::state_shown);
    window.select_event(event);
    REQUIRE(shown.wait(20000));
    REQUIRE(shown.last().at(0).toULongLong() == event);
}

// Every cell's pool tile, row after row, with kNullTile for NULL (as the
// worked examples write their tables).
inline std::vector<std::uint32_t> model_tiles(const d3dcap::viewer::TileMapModel& model) {
    std::vector<std::uint32_t> tiles;
    for (int row = 0; row < model.rowCount(); ++row) {
        for (int column = 0; column < model.columnCount(); ++column) {
            const int tile = model.data(model.index(row, column)).toInt();
            tiles.push_back(tile < 0 ? d3dcap::tiles::kNullTile : static_cast<std::uint32_t>(tile));
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

}  // namespace viewer_tests
