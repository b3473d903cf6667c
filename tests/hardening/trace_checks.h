// Checks the hardening tests make of a trace the capture layer wrote: how
// many records a call has, and that the trace replays cleanly.
#pragma once

#include <d3dcap/api/calls.h>

#include <catch2/catch.hpp>
#include <string>
#include <utility>

#include "format/trace/reader.h"
#include "replay/engine/replayer.h"

namespace d3dcap::hardening {

// How many records of the trace are of call id, and how many of those
// recorded E_INVALIDARG.
inline std::pair<int, int> count_calls(const std::string& path, api::CallId id) {
    auto reader = trace::TraceReader::open(path);
    REQUIRE(reader.ok());
    REQUIRE_FALSE(reader.value()->recovered());
    int calls = 0, invalid = 0;
    for (std::size_t c = 0; c < reader.value()->chunk_count(); ++c) {
        auto chunk = reader.value()->read_chunk(c);
        REQUIRE(chunk.ok());
        for (std::size_t r = 0; r < chunk->record_count(); ++r) {
            const fb::RecordHeader& header = *chunk->record(r).header();
            if (header.call() != static_cast<std::uint16_t>(id)) continue;
            ++calls;
            invalid += header.result() == E_INVALIDARG ? 1 : 0;
        }
    }
    return {calls, invalid};
}

// Replays the whole trace on a device of the driver type: no error, no mismatch.
inline void require_clean_replay(const std::string& path, D3D_DRIVER_TYPE driver) {
    CAPTURE(driver);
    replay::ReplayOptions options;
    options.driver = driver;
    auto replayer = replay::Replayer::open(path, options);
    REQUIRE(replayer.ok());
    const replay::Status status = replayer.value()->run_all();
    INFO((status.ok() ? std::string() : status.error().to_string()));
    REQUIRE(status.ok());
    CHECK(replayer.value()->next_event() == replayer.value()->event_count());
    CHECK(replayer.value()->mismatches().empty());
}

}  // namespace d3dcap::hardening
