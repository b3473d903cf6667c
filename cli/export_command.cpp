#include "export_command.h"

#include <charconv>
#include <ostream>

#include "format/trace/reader.h"
#include "replay/engine/contents.h"
#include "replay/engine/contents_files.h"
#include "replay/engine/device_choice.h"

namespace d3dcap::cli {

int run_export_command(const ExportOptions& options, std::ostream& out, std::ostream& err) {
    if (!replay::is_contents_file_name(options.output)) {
        err << "d3dcap export: -o " << options.output
            << ": the name must end in .png, .dds or .raw\n";
        return 2;
    }
    replay::ContentsRequest request{0, options.subresource, {}};
    const char* const end = options.resource.data() + options.resource.size();
    if (options.resource == "output") {
        request = {replay::ContentsRequest::kEventOutput, 0, {}};
    } else if (const auto parsed = std::from_chars(options.resource.data(), end, request.resource);
               parsed.ec != std::errc{} || parsed.ptr != end || request.resource == 0) {
        err << "d3dcap export: --resource " << options.resource
            << ": an object id (a number from 1) or output\n";
        return 2;
    }
    if (options.device == "null") {
        err << "d3dcap export: --device null keeps no contents\n";
        return 2;
    }
    // The trace and the event are checked before any device starts.
    {
        auto reader = trace::TraceReader::open(options.trace);
        if (!reader) {
            err << "d3dcap export: " << reader.error().to_string() << "\n";
            return 1;
        }
        const std::uint64_t events = reader.value()->event_count();
        if (options.event >= events) {
            err << "d3dcap export: --event " << options.event << " is past the end of "
                << options.trace << ": the trace has " << events << " events (0.."
                << (events == 0 ? 0 : events - 1) << ")\n";
            return 2;
        }
    }
    std::string error;
    const auto device = replay::choose_device(options.device, error);
    if (!device) {
        err << "d3dcap export: " << error << "\n";
        return 2;
    }
    auto replay = replay::ContentsReplay::open(options.trace, device->driver);
    if (!replay) {
        err << "d3dcap export: " << replay.error().to_string() << "\n";
        return 1;
    }
    auto contents = replay.value()->contents_after(options.event, request);
    if (!contents) {
        err << "d3dcap export: " << contents.error().to_string() << "\n";
        return 1;
    }
    if (!contents->problem.empty()) {
        err << "d3dcap export: " << contents->problem << "\n";
        return 1;
    }
    const bool written = replay::write_contents_file(options.output, *contents, error);
    if (!written) {
        err << "d3dcap export: " << options.output << ": " << error << "\n";
        return 1;
    }
    out << options.output << ": object " << contents->resource << " subresource "
        << contents->subresource << " after event " << options.event << ", "
        << replay::describe(contents->shape) << " (" << contents->bytes.size() << " bytes)\n";
    return 0;
}

}  // namespace d3dcap::cli
