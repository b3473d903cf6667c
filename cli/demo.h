#pragma once

#include <cstddef>

namespace d3dcap::cli {

// Runs the demo on the reference device; returns the exit code.
int run_demo(std::size_t calls_in_table, std::size_t context_methods);

}  // namespace d3dcap::cli
