// What the worker thread hands the window for one event: the tile state
// after it and before it (to tell which tiles the event changed), and the
// debug names the objects had then.
#pragma once

#include <QString>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>

#include "replay/tiles/tile_state.h"

namespace d3dcap::viewer {

struct TileSnapshot {
    std::uint64_t event = 0;
    tiles::TileState after;
    std::optional<tiles::TileState> before;  // none at event 0
    std::map<std::uint64_t, QString> names;
};

}  // namespace d3dcap::viewer
