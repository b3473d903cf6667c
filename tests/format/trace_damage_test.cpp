// The trace container cut short, damaged or foreign: recovery, clear
// errors naming the chunk and offset, versions, and a path that cannot be
// written.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <thread>

#include "format/trace/container.h"
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

TEST_CASE("a trace cut at a chunk boundary recovers every chunk before the cut") {
    TempDir dir;
    const SampleTraceOptions options = small_chunks();
    write_sample_trace(dir.file("t.d3dcap"), options);
    const std::vector<std::uint8_t> whole = read_file(dir.file("t.d3dcap"));
    auto complete = trace::TraceReader::open(dir.file("t.d3dcap"));
    REQUIRE(complete.ok());
    const auto chunks = chunk_table(*complete.value());

    for (std::size_t cut_chunk = 0; cut_chunk < chunks.size(); ++cut_chunk) {
        INFO("cut before chunk " << cut_chunk);
        const std::vector<std::uint8_t> cut(whole.begin(),
                                            whole.begin() + chunks[cut_chunk].offset());
        write_file(dir.file("cut.d3dcap"), cut);
        auto reader = trace::TraceReader::open(dir.file("cut.d3dcap"));
        REQUIRE(reader.ok());
        CHECK(reader.value()->recovered());
        CHECK(reader.value()->chunk_count() == cut_chunk);
        CHECK(reader.value()->event_count() == chunks[cut_chunk].first_event());
        if (cut_chunk > 0)
            check_event(*reader.value(), chunks[cut_chunk].first_event() - 1, options);
    }
}

TEST_CASE("a trace cut at random offsets recovers the complete chunks and says so") {
    TempDir dir;
    const SampleTraceOptions options = small_chunks();
    write_sample_trace(dir.file("t.d3dcap"), options);
    const std::vector<std::uint8_t> whole = read_file(dir.file("t.d3dcap"));
    auto complete = trace::TraceReader::open(dir.file("t.d3dcap"));
    REQUIRE(complete.ok());
    const auto chunks = chunk_table(*complete.value());

    trace::Prologue prologue{};
    std::memcpy(&prologue, whole.data(), sizeof prologue);
    const std::size_t chunks_start = sizeof prologue + trace::padded(prologue.header_size);

    std::mt19937_64 random(11);
    for (int i = 0; i < 60; ++i) {
        const std::size_t size = random() % whole.size();
        INFO("cut at byte " << size);
        write_file(dir.file("cut.d3dcap"), {whole.begin(), whole.begin() + size});
        auto reader = trace::TraceReader::open(dir.file("cut.d3dcap"));
        if (size < chunks_start) {  // not even the prologue and header
            CHECK_FALSE(reader.ok());
            continue;
        }
        REQUIRE(reader.ok());
        std::size_t complete_chunks = 0;
        while (complete_chunks < chunks.size() &&
               chunks[complete_chunks].offset() + sizeof(trace::ChunkHeader) +
                       chunks[complete_chunks].compressed_size() <=
                   size) {
            ++complete_chunks;
        }
        CHECK(reader.value()->recovered());
        CHECK(reader.value()->chunk_count() == complete_chunks);
        CHECK_THAT(
            reader.value()->recovery_note(),
            Catch::Contains("recovered " + std::to_string(reader.value()->event_count()) +
                            " events in " + std::to_string(complete_chunks) + " complete chunks"));
    }
}

TEST_CASE("a damaged chunk is reported with its number and offset") {
    TempDir dir;
    write_sample_trace(dir.file("t.d3dcap"), small_chunks());
    auto complete = trace::TraceReader::open(dir.file("t.d3dcap"));
    REQUIRE(complete.ok());
    const fb::ChunkEntry chunk = chunk_table(*complete.value())[2];
    std::vector<std::uint8_t> bytes = read_file(dir.file("t.d3dcap"));
    bytes[chunk.offset() + sizeof(trace::ChunkHeader) + 5] ^= 0x40;
    write_file(dir.file("bad.d3dcap"), bytes);

    auto reader = trace::TraceReader::open(dir.file("bad.d3dcap"));
    REQUIRE(reader.ok());  // the index is intact
    CHECK(reader.value()->read_chunk(1).ok());
    auto damaged = reader.value()->read_chunk(2);
    REQUIRE_FALSE(damaged.ok());
    CHECK(damaged.error().to_string() == dir.file("bad.d3dcap") + ": chunk 2 (offset " +
                                             std::to_string(chunk.offset()) + "): bad checksum");
    auto event = reader.value()->record(chunk.first_event());
    REQUIRE_FALSE(event.ok());
    CHECK(event.error().chunk == 2);
}

TEST_CASE("events read in order meet a damaged chunk read ahead only when they reach it") {
    TempDir dir;
    const SampleTraceOptions options = small_chunks();
    write_sample_trace(dir.file("t.d3dcap"), options);
    auto complete = trace::TraceReader::open(dir.file("t.d3dcap"));
    REQUIRE(complete.ok());
    const std::vector<fb::ChunkEntry> chunks = chunk_table(*complete.value());
    REQUIRE(chunks.size() > 4);
    std::vector<std::uint8_t> bytes = read_file(dir.file("t.d3dcap"));
    bytes[chunks[2].offset() + sizeof(trace::ChunkHeader) + 5] ^= 0x40;
    write_file(dir.file("bad.d3dcap"), bytes);

    auto reader = trace::TraceReader::open(dir.file("bad.d3dcap"));
    REQUIRE(reader.ok());
    // Chunk 2 is read ahead while chunk 1's events are read, and fails then.
    for (std::uint64_t event = 0; event < chunks[2].first_event(); ++event) {
        check_event(*reader.value(), event, options);
    }
    auto damaged = reader.value()->record(chunks[2].first_event());
    REQUIRE_FALSE(damaged.ok());
    CHECK(damaged.error().to_string() == dir.file("bad.d3dcap") + ": chunk 2 (offset " +
                                             std::to_string(chunks[2].offset()) +
                                             "): bad checksum");
    // The next chunks read in order again, and a jump back lands right.
    for (std::uint64_t event = chunks[3].first_event(); event < chunks[4].first_event() + 3;
         ++event) {
        check_event(*reader.value(), event, options);
    }
    check_event(*reader.value(), 1, options);
    check_event(*reader.value(), chunks[4].first_event() + 3, options);
}

TEST_CASE("a chunk claiming an impossible expansion is refused before anything is allocated") {
    TempDir dir;
    write_sample_trace(dir.file("t.d3dcap"), small_chunks());
    auto complete = trace::TraceReader::open(dir.file("t.d3dcap"));
    REQUIRE(complete.ok());
    const fb::ChunkEntry chunk = chunk_table(*complete.value())[0];
    std::vector<std::uint8_t> bytes = read_file(dir.file("t.d3dcap"));
    trace::ChunkHeader header;
    std::memcpy(&header, bytes.data() + chunk.offset(), sizeof header);
    header.uncompressed_size = 900u << 20;  // 900 MiB, with a checksum that matches
    header.checksum = trace::chunk_checksum(header, bytes.data() + chunk.offset() + sizeof header,
                                            header.compressed_size);
    std::memcpy(bytes.data() + chunk.offset(), &header, sizeof header);
    write_file(dir.file("bomb.d3dcap"), bytes);

    auto reader = trace::TraceReader::open(dir.file("bomb.d3dcap"));
    REQUIRE(reader.ok());
    auto refused = reader.value()->read_chunk(0);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message == "chunk claims 943718400 bytes from " +
                                         std::to_string(header.compressed_size) +
                                         " compressed, more than LZ4 can expand");
}

TEST_CASE("a damaged index falls back to recovery, or fails when recovery is off") {
    TempDir dir;
    const std::uint64_t events = write_sample_trace(dir.file("t.d3dcap"), small_chunks());
    std::vector<std::uint8_t> bytes = read_file(dir.file("t.d3dcap"));
    bytes[bytes.size() - sizeof(trace::Trailer) - 3] ^= 0xff;  // inside the index
    write_file(dir.file("bad.d3dcap"), bytes);

    auto reader = trace::TraceReader::open(dir.file("bad.d3dcap"));
    REQUIRE(reader.ok());
    CHECK(reader.value()->recovered());
    CHECK(reader.value()->event_count() == events);
    CHECK_THAT(reader.value()->recovery_note(),
               Catch::StartsWith("the index checksum does not match"));
    CHECK_THAT(reader.value()->recovery_note(), Catch::Contains("(the index after it is damaged)"));

    trace::ReaderOptions strict;
    strict.allow_recovery = false;
    auto refused = trace::TraceReader::open(dir.file("bad.d3dcap"), strict);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().message == "the index checksum does not match");
}

TEST_CASE("a newer major version is refused, an older minor is read") {
    TempDir dir;
    write_sample_trace(dir.file("t.d3dcap"), small_chunks());
    std::vector<std::uint8_t> bytes = read_file(dir.file("t.d3dcap"));
    trace::Prologue prologue;
    std::memcpy(&prologue, bytes.data(), sizeof prologue);

    prologue.major = 3;
    prologue.minor = 1;
    std::memcpy(bytes.data(), &prologue, sizeof prologue);
    write_file(dir.file("newer.d3dcap"), bytes);
    auto newer = trace::TraceReader::open(dir.file("newer.d3dcap"));
    REQUIRE_FALSE(newer.ok());
    CHECK(newer.error().to_string() ==
          dir.file("newer.d3dcap") +
              ": written in trace format 3.1, newer than the format 2.x this d3dcap reads; use a "
              "newer d3dcap");

    prologue.major = 2;
    prologue.minor = 0;
    std::memcpy(bytes.data(), &prologue, sizeof prologue);
    write_file(dir.file("same.d3dcap"), bytes);
    CHECK(trace::TraceReader::open(dir.file("same.d3dcap")).ok());
}

TEST_CASE("files that are not traces are refused with a clear message") {
    TempDir dir;
    write_file(dir.file("text.txt"), std::vector<std::uint8_t>(100, 'x'));
    auto text = trace::TraceReader::open(dir.file("text.txt"));
    REQUIRE_FALSE(text.ok());
    CHECK(text.error().message == "not a d3dcap trace (the file does not start with D3DCAPTR)");

    auto missing = trace::TraceReader::open(dir.file("missing.d3dcap"));
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message == "cannot open: No such file or directory");
}

TEST_CASE("random byte flips never crash the reader") {
    TempDir dir;
    write_sample_trace(dir.file("t.d3dcap"), small_chunks());
    const std::vector<std::uint8_t> whole = read_file(dir.file("t.d3dcap"));
    std::mt19937_64 random(3);
    int opened = 0;
    for (int i = 0; i < 200; ++i) {
        std::vector<std::uint8_t> bytes = whole;
        for (int flips = 0; flips < 4; ++flips)
            bytes[random() % bytes.size()] ^= 1u << (random() % 8);
        write_file(dir.file("m.d3dcap"), bytes);
        auto reader = trace::TraceReader::open(dir.file("m.d3dcap"));
        if (!reader.ok()) continue;
        ++opened;
        for (std::size_t c = 0; c < reader.value()->chunk_count(); ++c) {
            auto chunk = reader.value()->read_chunk(c);
            if (!chunk.ok()) CHECK(chunk.error().chunk == static_cast<std::int64_t>(c));
        }
    }
    CHECK(opened > 150);  // most flips land in chunk data, which fails per chunk only
}

TEST_CASE("a trace that cannot be created names the path and the reason") {
    auto writer = trace::TraceWriter::create("/dev/full", sample_header());
    REQUIRE_FALSE(writer.ok());
    CHECK(writer.error().to_string() ==
          "/dev/full: cannot write the trace: No space left on device");
}
