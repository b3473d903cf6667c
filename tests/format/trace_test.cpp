// The trace container: round trip, index and seeking.
#include <lz4.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <random>
#include <thread>

#include "format/trace/chunk_codec.h"
#include "format/trace/reader.h"
#include "format/trace/record_json.h"
#include "format/trace/records.h"
#include "support/temp_dir.h"
#include "support/trace_fixture.h"

using namespace d3dcap;
using namespace d3dcap::testing;
using api::CallId;
#include "trace_reading.h"

using namespace trace_tests;

TEST_CASE("a trace reads back every event, header and index") {
    TempDir dir;
    const SampleTraceOptions options = small_chunks();
    const std::uint64_t events = write_sample_trace(dir.file("t.d3dcap"), options);
    REQUIRE(events == 3 * 403);

    auto reader = trace::TraceReader::open(dir.file("t.d3dcap"));
    REQUIRE(reader.ok());
    trace::TraceReader& r = *reader.value();
    CHECK_FALSE(r.recovered());
    CHECK(r.format_major() == 2);
    CHECK(r.header().producer()->str() == "d3dcap-tests");
    CHECK(r.header().device()->adapter_name()->str() == "d3dcap reference device");
    CHECK(r.header().device()->tiled_resources_tier() == 2);
    CHECK(r.event_count() == events);
    CHECK(r.chunk_count() > 10);
    for (std::uint64_t e = 0; e < events; ++e) check_event(r, e, options);

    const fb::TraceIndex& index = r.index();
    REQUIRE(index.frame_first_events()->size() == 3);
    CHECK(index.frame_first_events()->Get(1) == 403);
    CHECK(index.thread_count() == 1);
    // Per frame: one BeginEventInt, one EndEvent and 133 SetMarkerInt.
    const trace::MarkerList& markers = r.markers();
    REQUIRE(markers.entries.size() == 3 * 135);
    CHECK(markers.labels == std::vector<std::string>{"frame", "tick", ""});
    const trace::Marker& begin = markers.entries[0];
    CHECK(begin.kind == fb::MarkerKind::Begin);
    CHECK(markers.label(begin) == "frame");
    CHECK(begin.event == 1);
    CHECK(begin.depth == 0);
    const trace::Marker& marker = markers.entries[1];
    CHECK(marker.kind == fb::MarkerKind::Marker);
    CHECK(markers.label(marker) == "tick");
    CHECK(marker.data == 5);
    CHECK(marker.depth == 1);
    CHECK(index.markers() == nullptr);  // format 1's table of entries
    std::uint64_t tile_calls = 0;
    for (const fb::CallCount* count : *index.call_counts()) {
        if (count->call() ==
            static_cast<std::uint16_t>(CallId::ID3D11DeviceContext2_UpdateTileMappings)) {
            tile_calls = count->count();
        }
    }
    CHECK(tile_calls == 3 * 134);
}

TEST_CASE("chunks stored as LZ4 literals decode with LZ4 to the same bytes") {
    // Literal counts around the token's 15 and each following byte's 255.
    for (const std::size_t size : {0, 1, 14, 15, 16, 269, 270, 271, 70000}) {
        INFO("size " << size);
        std::vector<std::uint8_t> source(size);
        for (std::size_t i = 0; i < size; ++i) source[i] = static_cast<std::uint8_t>(i * 7 + 3);
        trace::BlockBytes block;
        trace::store_as_lz4_literals(source.data(), size, block);
        const std::size_t length_bytes = size < 15 ? 0 : (size - 15) / 255 + 1;
        CHECK(block.size() == 1 + length_bytes + size);
        std::vector<std::uint8_t> decoded(size + 1);
        const int got =
            LZ4_decompress_safe(block.data(), reinterpret_cast<char*>(decoded.data()),
                                static_cast<int>(block.size()), static_cast<int>(decoded.size()));
        REQUIRE(got == static_cast<int>(size));
        decoded.resize(size);
        CHECK(decoded == source);
    }
}

TEST_CASE("a trace written without compression reads back every event the same") {
    TempDir dir;
    SampleTraceOptions options = small_chunks();
    options.writer.compress = false;
    const std::uint64_t events = write_sample_trace(dir.file("stored.d3dcap"), options);
    write_sample_trace(dir.file("compressed.d3dcap"), small_chunks());
    auto stored = trace::TraceReader::open(dir.file("stored.d3dcap"));
    auto compressed = trace::TraceReader::open(dir.file("compressed.d3dcap"));
    REQUIRE(stored.ok());
    REQUIRE(compressed.ok());
    CHECK_FALSE(stored.value()->recovered());
    REQUIRE(stored.value()->event_count() == events);
    for (std::uint64_t e = 0; e < events; ++e) check_event(*stored.value(), e, options);
    // The same records in the same chunks, only stored larger.
    const std::vector<fb::ChunkEntry> stored_chunks = chunk_table(*stored.value());
    const std::vector<fb::ChunkEntry> compressed_chunks = chunk_table(*compressed.value());
    REQUIRE(stored_chunks.size() == compressed_chunks.size());
    for (std::size_t i = 0; i < stored_chunks.size(); ++i) {
        INFO("chunk " << i);
        const std::uint32_t size = stored_chunks[i].uncompressed_size();
        CHECK(size == compressed_chunks[i].uncompressed_size());
        CHECK(stored_chunks[i].compressed_size() == 1 + (size - 15) / 255 + 1 + size);
        CHECK(compressed_chunks[i].compressed_size() < size);
    }
}

TEST_CASE("seeking to random events decompresses the chunk that holds them") {
    TempDir dir;
    const SampleTraceOptions options = small_chunks();
    const std::uint64_t events = write_sample_trace(dir.file("t.d3dcap"), options);
    auto reader = trace::TraceReader::open(dir.file("t.d3dcap"));
    REQUIRE(reader.ok());
    std::mt19937_64 random(7);
    for (int i = 0; i < 300; ++i) check_event(*reader.value(), random() % events, options);
    auto past_end = reader.value()->record(events);
    REQUIRE_FALSE(past_end.ok());
    CHECK(past_end.error().message == "event 1209 is past the end (the trace has 1209 events)");
}

TEST_CASE("every chunk is cut at the end of a frame") {
    TempDir dir;
    SampleTraceOptions options;  // 1 MiB chunks: only frame ends close them
    write_sample_trace(dir.file("t.d3dcap"), options);
    auto reader = trace::TraceReader::open(dir.file("t.d3dcap"));
    REQUIRE(reader.ok());
    const auto chunks = chunk_table(*reader.value());
    REQUIRE(chunks.size() == 3);
    CHECK(chunks[1].first_event() == 403);
    CHECK(chunks[2].record_count() == 403);
}
