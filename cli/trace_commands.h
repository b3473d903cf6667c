// The trace subcommands: info, dump and verify.
#pragma once

#include <cstdint>
#include <cstdio>
#include <iosfwd>
#include <optional>
#include <string>

namespace d3dcap::cli {

struct InfoOptions {
    std::string trace;
    bool json = false;
};

struct DumpOptions {
    std::string trace;
    std::uint64_t from = 0;
    std::optional<std::uint64_t> to;  // inclusive
    bool json = false;
};

struct VerifyOptions {
    std::string trace;
};

struct RepackOptions {
    std::string trace;
    std::string output;  // may be the trace itself
    bool store = false;  // chunks uncompressed instead of LZ4
};

// Each returns the process exit code: 0 on success, 1 when the trace has a
// problem (the problem is printed to err with file, chunk, event and offset).
int run_info(const InfoOptions& options, std::ostream& out, std::ostream& err);
int run_dump(const DumpOptions& options, std::FILE* out, std::ostream& err);
int run_verify(const VerifyOptions& options, std::ostream& out, std::ostream& err);
// Rewrites every record into a new trace, LZ4-compressed (or stored): for
// traces the Windows layer wrote uncompressed, or the readable part of one
// cut short.
int run_repack(const RepackOptions& options, std::ostream& out, std::ostream& err);

}  // namespace d3dcap::cli
