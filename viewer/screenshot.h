// `d3dcap-viewer TRACE [--event N] [--resource NAME|ID] [--contents [--device
// NAME]] --screenshot OUT.png`: the main window rendered once the state after
// event N is shown (with --contents, or for a trace without tiled resources,
// once the contents tab shows what the resource holds then).
#pragma once

#include <QString>
#include <QTextStream>
#include <cstdint>
#include <optional>

namespace d3dcap::viewer {

struct ScreenshotOptions {
    QString trace;
    std::optional<std::uint64_t> event;  // none: the one the window opens on
    QString resource;                    // empty: the first tiled resource
    QString report;                      // a `d3dcap replay --report` file for the time columns
    QString output;
    // The contents tab instead of the tile map, replayed on device (a trace
    // without tiled resources always shows it).
    bool contents = false;
    // Any resource replay holds after the event (a render target, a buffer),
    // shown in the contents tab instead of the tile map's; 0: the tile map's.
    std::uint64_t show = 0;
    QString device = QStringLiteral("auto");
    int width = 1280, height = 800;
};

// 0 when the PNG was written; 1 when the trace cannot be read or the PNG
// written, 2 for an event past the end or an unknown resource; err says why.
int write_screenshot(const ScreenshotOptions& options, QTextStream& err);

}  // namespace d3dcap::viewer
