// d3dcap-viewer [TRACE] [--event N] [--resource NAME|ID] [--report FILE.json]
//               [--screenshot OUT.png]
#include <d3dcap/version.h>

#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "viewer/contents/contents_panel.h"
#include "viewer/main_window.h"
#include "viewer/screenshot.h"

int main(int argc, char** argv) {
    // A screenshot needs no display.
    bool headless = false;
    for (int i = 1; i < argc; ++i) headless |= std::strcmp(argv[i], "--screenshot") == 0;
    if (headless && std::getenv("QT_QPA_PLATFORM") == nullptr) {
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    }
    if (headless) {
        // The offscreen platform's notes (no runtime directory, no window
        // manager) are noise in a command's output; errors still show.
        qInstallMessageHandler([](QtMsgType type, const QMessageLogContext&, const QString& text) {
            if (type == QtCriticalMsg || type == QtFatalMsg)
                fprintf(stderr, "%s\n", qPrintable(text));
        });
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("d3dcap-viewer"));
    QApplication::setApplicationVersion(
        QStringLiteral(D3DCAP_VERSION " (commit " D3DCAP_BUILD_COMMIT ")"));
    // Desktops take the window's icon and name from the installed entry.
    QGuiApplication::setDesktopFileName(QStringLiteral("d3dcap-viewer"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("The tile-mapping state of a d3dcap trace at every event."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("trace"), QStringLiteral("The trace to open."),
                                 QStringLiteral("[TRACE]"));
    const QCommandLineOption event_option(QStringLiteral("event"),
                                          QStringLiteral("Select event N."), QStringLiteral("N"));
    const QCommandLineOption resource_option(
        QStringLiteral("resource"), QStringLiteral("Show the tiled resource with this id or name."),
        QStringLiteral("NAME|ID"));
    const QCommandLineOption screenshot_option(
        QStringLiteral("screenshot"),
        QStringLiteral("Write the window as a PNG once the state is shown, then exit."),
        QStringLiteral("OUT.png"));
    const QCommandLineOption report_option(
        QStringLiteral("report"),
        QStringLiteral("Show the per-event times of a `d3dcap replay --report` file."),
        QStringLiteral("FILE.json"));
    const QCommandLineOption contents_option(
        QStringLiteral("contents"),
        QStringLiteral("Show the contents tab: what the resource holds after the event, found by "
                       "replaying the trace (see --device)."));
    const QCommandLineOption device_option(
        QStringLiteral("device"),
        QStringLiteral("The device the contents tab replays on: auto (default), hardware, warp "
                       "or reference."),
        QStringLiteral("NAME"));
    const QCommandLineOption show_option(
        QStringLiteral("show"),
        QStringLiteral("Show this resource (any texture or buffer, by id) in the contents tab."),
        QStringLiteral("ID"));
    parser.addOptions({event_option, resource_option, screenshot_option, report_option,
                       contents_option, device_option, show_option});
    parser.process(app);

    QTextStream err(stderr);
    const QStringList positional = parser.positionalArguments();
    std::uint64_t event = 0;
    if (parser.isSet(event_option)) {
        bool ok = false;
        event = parser.value(event_option).toULongLong(&ok);
        if (!ok) {
            err << "d3dcap-viewer: --event wants an event number, not '"
                << parser.value(event_option) << "'\n";
            return 2;
        }
    }
    if (parser.isSet(screenshot_option)) {
        if (positional.size() != 1) {
            err << "d3dcap-viewer: --screenshot needs one TRACE\n";
            return 2;
        }
        d3dcap::viewer::ScreenshotOptions options;
        options.trace = positional.front();
        if (parser.isSet(event_option)) options.event = event;
        options.resource = parser.value(resource_option);
        options.output = parser.value(screenshot_option);
        options.report = parser.value(report_option);
        options.contents = parser.isSet(contents_option) || parser.isSet(device_option) ||
                           parser.isSet(show_option);
        if (parser.isSet(show_option)) {
            bool ok = false;
            options.show = parser.value(show_option).toULongLong(&ok);
            if (!ok || options.show == 0) {
                err << "d3dcap-viewer: --show wants a resource id, not '"
                    << parser.value(show_option) << "'\n";
                return 2;
            }
        }
        if (parser.isSet(device_option)) options.device = parser.value(device_option);
        return d3dcap::viewer::write_screenshot(options, err);
    }

    d3dcap::viewer::MainWindow window;
    if (parser.isSet(device_option))
        window.contents_panel()->set_device(parser.value(device_option));
    if (parser.isSet(contents_option) || parser.isSet(device_option)) window.show_contents_tab();
    window.show();
    if (!positional.isEmpty()) {
        QString error;
        if (!window.open_trace(positional.front(), &error)) {
            err << "d3dcap-viewer: " << error << "\n";
            return 1;
        }
        if (parser.isSet(report_option) &&
            !window.load_report(parser.value(report_option), &error)) {
            err << "d3dcap-viewer: " << error << "\n";
            return 1;
        }
        if (parser.isSet(event_option)) window.select_event(event);
        if (parser.isSet(resource_option)) {
            // The resource list comes with the first state shown.
            const QString resource = parser.value(resource_option);
            QObject::connect(
                &window, &d3dcap::viewer::MainWindow::state_shown, &window,
                [&window, resource] { window.select_resource(resource); },
                Qt::SingleShotConnection);
        }
    }
    return app.exec();
}
