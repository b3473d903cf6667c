// A trace taken apart into its header and records, and written back with
// each record in a chunk of its own (checksums right, no index: readers
// recover it up to the first chunk they refuse), so that tests and fuzzers
// can change records and still hand replay a readable trace.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace d3dcap::hardening {

using Bytes = std::vector<std::uint8_t>;

struct TraceParts {
    Bytes header;                // the TraceHeader FlatBuffer
    std::vector<Bytes> records;  // size-prefixed Record FlatBuffers, in event order
};

// Every record of every chunk of the trace at path; false with error set
// when it cannot be read.
bool read_trace_parts(const std::string& path, TraceParts& parts, std::string& error);

// The records one after another, as a chunk holds them (each padded to 8
// bytes); split_records undoes it, keeping whole records only.
Bytes join_records(const std::vector<Bytes>& records);
std::vector<Bytes> split_records(const std::uint8_t* data, std::size_t size);

// Writes the prologue, the header and one chunk per record to fd, record i
// numbered as event i; false when a write fails.
bool write_trace(int fd, const Bytes& header, const std::vector<Bytes>& records);

// A header as the capture layer writes it, for inputs that carry records only.
Bytes capture_header();

}  // namespace d3dcap::hardening
