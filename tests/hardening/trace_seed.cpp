// Writes the records of a trace as one body of size-prefixed records (the
// replay fuzzer's input format), leaving out records larger than a limit and
// stopping before the body passes another.
// usage: trace_seed TRACE OUT MAX_RECORD_BYTES MAX_BYTES
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "hardening/trace_parts.h"

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s TRACE OUT MAX_RECORD_BYTES MAX_BYTES\n", argv[0]);
        return 2;
    }
    d3dcap::hardening::TraceParts parts;
    std::string error;
    if (!d3dcap::hardening::read_trace_parts(argv[1], parts, error)) {
        std::fprintf(stderr, "trace_seed: %s\n", error.c_str());
        return 1;
    }
    const std::size_t max_record = std::strtoull(argv[3], nullptr, 10);
    const std::size_t max_bytes = std::strtoull(argv[4], nullptr, 10);
    std::vector<d3dcap::hardening::Bytes> kept;
    std::size_t bytes = 0;
    for (auto& record : parts.records) {
        if (record.size() > max_record) continue;
        if (bytes + record.size() + 8 > max_bytes) break;
        bytes += record.size() + 8;
        kept.push_back(std::move(record));
    }
    const d3dcap::hardening::Bytes body = d3dcap::hardening::join_records(kept);
    std::ofstream(argv[2], std::ios::binary)
        .write(reinterpret_cast<const char*>(body.data()),
               static_cast<std::streamsize>(body.size()));
    std::printf("%zu records, %zu bytes\n", kept.size(), body.size());
    return 0;
}
