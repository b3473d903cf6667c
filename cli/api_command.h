#pragma once

#include <iosfwd>
#include <string>

namespace d3dcap::cli {

struct ApiListOptions {
    std::string interface_name;  // empty: every interface and entry point
    bool json = false;
    bool params = false;  // one line per parameter, with direction and size
};

// Prints the calls of the API table, one line each (or as JSON). Returns the
// number of calls printed; zero means the interface name matched nothing.
std::size_t print_api(const ApiListOptions& options, std::ostream& out);

}  // namespace d3dcap::cli
