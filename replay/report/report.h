// The replay report: JSON for tools (`d3dcap replay --report`, `d3dcap
// compare`) and a readable summary for the terminal.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>

#include "replay/report/run.h"

namespace d3dcap::replay {

nlohmann::json report_json(const RunReport& report);

// Min, median, 95th percentile and max of values (all 0 when empty).
struct Spread {
    double min = 0, median = 0, p95 = 0, max = 0;
};
Spread spread_of(std::vector<double> values);

// What replayed, the differences found, frame times, and the slowest
// events and marker regions (at most `rows` of each).
void print_summary(const RunReport& report, std::ostream& out, std::size_t rows = 10);

// Side-by-side frame and marker times of two reports (a and b, e.g. two
// GPUs) with the ratio b/a; false with *error when a report lacks a field.
bool print_comparison(const nlohmann::json& a, const nlohmann::json& b, std::ostream& out,
                      std::string* error);

}  // namespace d3dcap::replay
