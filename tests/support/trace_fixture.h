// Writes small traces with known contents for the trace tests.
#pragma once

#include <d3dcap/fb/trace_generated.h>

#include <cstdint>
#include <string>
#include <vector>

#include "format/trace/writer.h"

namespace d3dcap::testing {

// Throws std::runtime_error naming what failed (usable outside Catch too).
void expect(bool condition, const char* what);

// A TraceHeader as the capture layer would write it.
flatbuffers::DetachedBuffer sample_header();

struct SampleTraceOptions {
    std::uint64_t frames = 3;
    std::uint64_t calls_per_frame = 400;  // UpdateTileMappings/marker/draw calls in each frame
    trace::WriterOptions writer;
};

// Writes a trace whose event e is predictable from e alone (see the .cpp);
// returns the number of events written.
std::uint64_t write_sample_trace(const std::string& path, const SampleTraceOptions& options);

// What write_sample_trace put at event e.
struct ExpectedEvent {
    std::uint16_t call;  // CallId, 0 for meta records
    std::uint64_t object;
    std::uint32_t num_ranges;  // UpdateTileMappings only
};
ExpectedEvent expected_sample_event(std::uint64_t event, const SampleTraceOptions& options);

std::vector<std::uint8_t> read_file(const std::string& path);
void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes);

}  // namespace d3dcap::testing

namespace d3dcap::testing {

// A small trace with one record of each kind the format has (calls with
// arrays, strings, blobs and map writes; every meta record), for the golden
// dump test and the fuzzer's seed corpus.
void write_golden_trace(const std::string& path);

}  // namespace d3dcap::testing
