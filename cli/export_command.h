// d3dcap export: what a resource holds after an event, written to a file:
// a PNG of its picture, a DDS of the subresource, or its bytes raw.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

namespace d3dcap::cli {

struct ExportOptions {
    std::string trace;
    std::uint64_t event = 0;
    std::string resource;           // a recorded object id, or "output"
    std::uint32_t subresource = 0;  // of an object id
    std::string device = "auto";
    std::string output;  // .png, .dds or .raw
};

// 0: written; 1: the trace, the event or the resource gave nothing to
// write; 2: bad options.
int run_export_command(const ExportOptions& options, std::ostream& out, std::ostream& err);

}  // namespace d3dcap::cli
