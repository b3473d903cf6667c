// Helpers the trace container's tests share: a sample trace cut into
// many chunks, one event checked against what the sample wrote, and the
// chunk table.
#pragma once

#include <catch2/catch.hpp>
#include <vector>

#include "format/trace/reader.h"
#include "support/trace_fixture.h"

namespace trace_tests {

using namespace d3dcap;
using namespace d3dcap::testing;

inline SampleTraceOptions small_chunks() {
    SampleTraceOptions options;
    options.writer.chunk_bytes = 4096;  // many chunks from a small trace
    return options;
}

inline void check_event(trace::TraceReader& reader, std::uint64_t event,
                        const SampleTraceOptions& options) {
    auto record = reader.record(event);
    REQUIRE(record.ok());
    const ExpectedEvent expected = expected_sample_event(event, options);
    const fb::RecordHeader& header = *record.value()->header();
    INFO("event " << event);
    CHECK(header.event() == event);
    CHECK(header.call() == expected.call);
    CHECK(header.object() == expected.object);
    if (expected.call ==
        static_cast<std::uint16_t>(api::CallId::ID3D11DeviceContext2_UpdateTileMappings)) {
        const auto* params =
            api::CallOf<fb::ID3D11DeviceContext2_UpdateTileMappings>::get(*record.value());
        REQUIRE(params != nullptr);
        CHECK(params->num_ranges() == expected.num_ranges);
        CHECK(params->p_range_tile_counts()->size() == expected.num_ranges);
        CHECK(params->p_tile_pool() == 8);
    }
}

inline std::vector<fb::ChunkEntry> chunk_table(const trace::TraceReader& reader) {
    std::vector<fb::ChunkEntry> chunks;
    for (const fb::ChunkEntry* chunk : *reader.index().chunks()) chunks.push_back(*chunk);
    return chunks;
}

}  // namespace trace_tests
