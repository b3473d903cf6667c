#include "viewer/screenshot.h"

#include <QEventLoop>
#include <QPixmap>

#include "viewer/contents/contents_panel.h"
#include "viewer/main_window.h"
#include "viewer/tile_map/tile_map_view.h"

namespace d3dcap::viewer {

namespace {

// Shows the contents tab and waits, without a timer, for its contents: 0,
// else 1 (no contents) or 2 (no such resource) with why in err.
int wait_for_contents(MainWindow& window, const ScreenshotOptions& options, std::uint64_t at,
                      QTextStream& err) {
    ContentsPanel& panel = *window.contents_panel();
    QEventLoop loop;
    QString error;
    QObject::connect(&panel, &ContentsPanel::contents_shown, &loop, [&](std::uint64_t event) {
        if (event == at && !panel.busy()) loop.exit(0);
    });
    QObject::connect(&panel, &ContentsPanel::contents_failed, &loop,
                     [&](std::uint64_t, const QString& message) {
                         if (panel.busy()) return;  // a newer request is on its way
                         error = message;
                         loop.exit(1);
                     });
    panel.set_device(options.device);
    window.show_contents_tab();
    // Following the tile map without a tiled resource, the first answer is
    // the list alone.
    const bool listed = panel.busy() && (loop.exec() == 0 || options.show != 0);
    if (listed && options.show != 0) {
        if (!panel.select_resource(options.show)) {
            err << "d3dcap-viewer: no resource " << options.show << " after event " << at << " of "
                << options.trace << "\n";
            return 2;
        }
        error.clear();
        if (loop.exec() == 0) return 0;
    } else if (listed) {
        return 0;
    }
    err << "d3dcap-viewer: no contents after event " << at << ": "
        << (error.isEmpty() ? QStringLiteral("no resource selected") : error) << "\n";
    return 1;
}

}  // namespace

int write_screenshot(const ScreenshotOptions& options, QTextStream& err) {
    MainWindow window;
    window.resize(options.width, options.height);
    QString error;
    if (!window.open_trace(options.trace, &error)) {
        err << "d3dcap-viewer: " << error << "\n";
        return 1;
    }
    if (!options.report.isEmpty() && !window.load_report(options.report, &error)) {
        err << "d3dcap-viewer: " << error << "\n";
        return 1;
    }
    const std::uint64_t count = window.event_count();
    const std::uint64_t at = options.event.value_or(window.opening_event());
    if (at >= count) {
        err << "d3dcap-viewer: event " << at << " is past the end of " << options.trace
            << ": the trace has " << count << " events";
        if (count > 0) err << " (0.." << count - 1 << ")";
        err << "\n";
        return 2;
    }
    // Wait, without a timer, for the worker to deliver the state.
    QEventLoop loop;
    QObject::connect(&window, &MainWindow::state_shown, &loop, [&](std::uint64_t event) {
        if (event == at) loop.exit(0);
    });
    QObject::connect(&window, &MainWindow::state_failed, &loop,
                     [&](std::uint64_t, const QString& message) {
                         error = message;
                         loop.exit(1);
                     });
    window.select_event(at);
    window.show();
    if (loop.exec() != 0) {
        err << "d3dcap-viewer: " << error << "\n";
        return 1;
    }
    if (!options.resource.isEmpty() && !window.select_resource(options.resource)) {
        err << "d3dcap-viewer: no tiled resource '" << options.resource << "' after event " << at
            << " of " << options.trace;
        const auto ids = window.resources();
        if (ids.empty()) {
            err << " (it has none)\n";
        } else {
            err << " (it has";
            for (std::size_t i = 0; i < ids.size(); ++i) err << (i ? ", " : " ") << ids[i];
            err << ")\n";
        }
        return 2;
    }
    // A resource other than the first comes with its own history.
    if (window.busy() && loop.exec() != 0) {
        err << "d3dcap-viewer: " << error << "\n";
        return 1;
    }
    if (options.contents || window.contents_panel()->follows_output()) {
        if (const int status = wait_for_contents(window, options, at, err); status != 0)
            return status;
    }
    window.tile_view()->fit();
    if (!window.grab().save(options.output, "PNG")) {
        err << "d3dcap-viewer: cannot write " << options.output << "\n";
        return 1;
    }
    return 0;
}

}  // namespace d3dcap::viewer
