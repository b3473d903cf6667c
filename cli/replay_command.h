// d3dcap replay and d3dcap compare.
#pragma once

#include <iosfwd>
#include <string>

namespace d3dcap::cli {

struct ReplayCommandOptions {
    std::string trace;
    std::string device = "auto";  // auto, hardware, reference, null
    std::string gpu;              // Vulkan device index; empty: D3DCAP_GPU or the default
    std::string frames;           // "A-B", "A-" or "A"; empty: all
    unsigned loops = 0;
    std::string report;  // JSON report file
    bool verify = false;
    bool strict = false;
    std::string screenshots;               // directory
    std::string gpu_timestamps = "event";  // or "submission"
    bool quiet = false;
    std::size_t rows = 10;  // rows of the slowest-events and marker tables
};

// 0: replayed as recorded; 1: the replay stopped on an error; 2: bad
// options; 3: replayed, but with HRESULT mismatches, content-hash
// differences or adaptations that failed.
int run_replay_command(const ReplayCommandOptions& options, std::ostream& out, std::ostream& err);

struct CompareOptions {
    std::string a, b;
};
int run_compare(const CompareOptions& options, std::ostream& out, std::ostream& err);

}  // namespace d3dcap::cli
