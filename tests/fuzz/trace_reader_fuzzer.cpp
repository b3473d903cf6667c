// libFuzzer target: any bytes as a trace file, through open (with recovery),
// every chunk, every record's JSON, the markers, and seeking.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "format/trace/reader.h"
#include "format/trace/record_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const int fd = ::memfd_create("trace", MFD_CLOEXEC);
    if (fd < 0) return 0;
    for (std::size_t written = 0; written < size;) {
        const ssize_t n = ::write(fd, data + written, size - written);
        if (n <= 0) {
            ::close(fd);
            return 0;
        }
        written += static_cast<std::size_t>(n);
    }
    d3dcap::trace::ReaderOptions options;
    options.max_chunk_bytes = 4 << 20;
    options.max_index_bytes = 4 << 20;
    auto reader = d3dcap::trace::TraceReader::open("/proc/self/fd/" + std::to_string(fd), options);
    if (reader.ok()) {
        d3dcap::trace::TraceReader& r = *reader.value();
        std::string text;
        for (std::size_t c = 0; c < r.chunk_count(); ++c) {
            auto chunk = r.read_chunk(c);
            if (!chunk.ok()) continue;
            for (std::size_t i = 0; i < chunk->record_count(); ++i) {
                text.clear();
                d3dcap::trace::append_record_json(chunk->record(i), text);
                d3dcap::trace::append_record_text(chunk->record(i), text);
            }
        }
        for (const d3dcap::trace::Marker& marker : r.markers().entries)
            text += r.markers().label(marker);
        r.visit_markers(
            [&](const d3dcap::trace::Marker&, std::string_view label) { text += label; });
        if (r.event_count() > 0) {
            (void)r.record(r.event_count() - 1);
            (void)r.record(r.event_count() / 2);
        }
    }
    ::close(fd);
    return 0;
}
