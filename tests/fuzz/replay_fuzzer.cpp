// libFuzzer target: any bytes as the records of a trace (size-prefixed
// Record FlatBuffers, as a chunk holds them), written as a trace with right
// checksums and replayed on the null device under a 256 MiB memory cap.
// Every input must end in an error, a mismatch or the end of the trace.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "hardening/trace_parts.h"
#include "replay/engine/replayer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const d3dcap::hardening::Bytes header = d3dcap::hardening::capture_header();
    const int fd = ::memfd_create("trace", MFD_CLOEXEC);
    if (fd < 0) return 0;
    if (d3dcap::hardening::write_trace(fd, header, d3dcap::hardening::split_records(data, size))) {
        d3dcap::replay::ReplayOptions options;
        options.driver = D3D_DRIVER_TYPE_NULL;
        options.memory_cap = std::uint64_t{256} << 20;
        auto replayer =
            d3dcap::replay::Replayer::open("/proc/self/fd/" + std::to_string(fd), options);
        if (replayer.ok()) (void)replayer.value()->run_all();
    }
    ::close(fd);
    return 0;
}
