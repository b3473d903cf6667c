// d3dcap capture: runs a program with the capture layer preloaded.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace d3dcap::cli {

struct CaptureOptions {
    std::string output;  // default: <program name>.d3dcap
    std::string frames;  // "A-B", "A-" or "A"; empty: everything
    std::string device;  // reference, hardware, null; empty: what the program asks for
    // Content hashes at each frame end: "all" or names and ids separated by
    // commas; empty: none.
    std::string hashes;
    // Run a Windows program under Wine with the Windows layer (chosen on its
    // own for a PE executable).
    bool wine = false;
    std::vector<std::string> command;
};

// Returns the program's exit status (or 2 when it could not run).
int run_capture(const CaptureOptions& options, const char* argv0, std::ostream& out,
                std::ostream& err);

}  // namespace d3dcap::cli
