// The trace container: round trip, index, seeking, recovery, corruption,
// versioning and write errors.
#include <lz4.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <random>
#include <thread>

#include "format/trace/chunk_codec.h"
#include "format/trace/container.h"
#include "format/trace/reader.h"
#include "format/trace/record_json.h"
#include "format/trace/records.h"
#include "support/temp_dir.h"
#include "support/trace_fixture.h"

using namespace d3dcap;
using namespace d3dcap::testing;
using api::CallId;

namespace {

SampleTraceOptions small_chunks() {
    SampleTraceOptions options;
    options.writer.chunk_bytes = 4096;  // many chunks from a small trace
    return options;
}

void check_event(trace::TraceReader& reader, std::uint64_t event,
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
        static_cast<std::uint16_t>(CallId::ID3D11DeviceContext2_UpdateTileMappings)) {
        const auto* params =
            api::CallOf<fb::ID3D11DeviceContext2_UpdateTileMappings>::get(*record.value());
        REQUIRE(params != nullptr);
        CHECK(params->num_ranges() == expected.num_ranges);
        CHECK(params->p_range_tile_counts()->size() == expected.num_ranges);
        CHECK(params->p_tile_pool() == 8);
    }
}

std::vector<fb::ChunkEntry> chunk_table(const trace::TraceReader& reader) {
    std::vector<fb::ChunkEntry> chunks;
    for (const fb::ChunkEntry* chunk : *reader.index().chunks()) chunks.push_back(*chunk);
    return chunks;
}

}  // namespace

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
        std::vector<char> block;
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

TEST_CASE("everything submitted before wait_written is readable while capture goes on") {
    TempDir dir;
    auto writer = trace::TraceWriter::create(dir.file("live.d3dcap"), sample_header());
    REQUIRE(writer.ok());
    flatbuffers::FlatBufferBuilder builder;
    for (int i = 0; i < 50; ++i) {
        builder.Clear();
        trace::finish_call(builder, {1, 1, 0, 1, false},
                           fb::CreateID3D11DeviceContext_Draw(builder, 3, 0));
        REQUIRE(writer.value()->submit(builder));
    }
    writer.value()->wait_written();
    auto reader = trace::TraceReader::open(dir.file("live.d3dcap"));
    REQUIRE(reader.ok());
    CHECK(reader.value()->recovered());
    CHECK(reader.value()->event_count() == 50);
    CHECK(writer.value()->close().ok());
}

TEST_CASE("a write error mid-capture stops the trace once and keeps what was written") {
    TempDir dir;
    const std::string path = dir.file("limited.d3dcap");
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // A file size limit makes write() fail with EFBIG after 256 KiB.
        ::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{256 * 1024, 256 * 1024};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        ::freopen("/dev/null", "w", stderr);
        trace::WriterOptions options;
        options.chunk_bytes = 16 * 1024;
        auto writer = trace::TraceWriter::create(path, sample_header(), options);
        if (!writer.ok()) ::_exit(10);
        flatbuffers::FlatBufferBuilder builder;
        std::vector<std::uint8_t> blob(8192);
        int refused = 0;
        for (std::uint32_t i = 0; i < 2000; ++i) {
            for (auto& b : blob) b = static_cast<std::uint8_t>(i * 31 + (&b - blob.data()) * 7);
            builder.Clear();
            fb::D3D11_TILED_RESOURCE_COORDINATE start(0, 0, 0, 0);
            fb::D3D11_TILE_REGION_SIZE size(1, 0, 1, 1, 1);
            trace::finish_call(builder, {1, 1, 0, 1, false},
                               fb::CreateID3D11DeviceContext2_UpdateTilesDirect(builder, 3, &start,
                                                                                &size, &blob, 0));
            if (!writer.value()->submit(builder)) ++refused;
            writer.value()->wait_written();
        }
        const trace::Status closed = writer.value()->close();
        const bool named =
            !closed.ok() && closed.error().message == "cannot write the trace: File too large";
        ::_exit(refused > 0 && named ? 0 : 20);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    auto reader = trace::TraceReader::open(path);
    REQUIRE(reader.ok());
    CHECK(reader.value()->recovered());
    CHECK(reader.value()->event_count() > 10);
    CHECK(reader.value()->record(reader.value()->event_count() - 1).ok());
}

namespace {

// Draw(vertex_count, start) on context 1 from a thread: the two arguments
// carry what a test needs to recognise the record.
void build_draw(flatbuffers::FlatBufferBuilder& builder, std::uint32_t vertex_count,
                std::uint32_t start, std::uint32_t thread = 1) {
    builder.Clear();
    trace::finish_call(builder, {1, 1, 0, thread, false},
                       fb::CreateID3D11DeviceContext_Draw(builder, vertex_count, start));
}

const fb::ID3D11DeviceContext_Draw* draw_of(const fb::Record& record) {
    return api::CallOf<fb::ID3D11DeviceContext_Draw>::get(record);
}

// Checks that event e holds the placeholder of a record that never came.
void check_placeholder(trace::TraceReader& reader, std::uint64_t event) {
    auto record = reader.record(event);
    REQUIRE(record.ok());
    const fb::Record& r = *record.value();
    CHECK(r.header()->event() == event);
    CHECK(r.header()->call() == 0);
    CHECK(r.header()->flags() == 0);
    CHECK(r.header()->thread() == 0);
    CHECK(r.header()->object() == 0);
    CHECK(r.meta_type() == fb::Meta::NONE);
    CHECK(r.map_writes() == nullptr);
}

// Each chunk starts where the one before it ended.
void check_chunks_contiguous(const trace::TraceReader& reader, std::uint64_t events) {
    std::uint64_t next = 0;
    for (const fb::ChunkEntry& chunk : chunk_table(reader)) {
        CHECK(chunk.first_event() == next);
        next = chunk.first_event() + chunk.record_count();
    }
    CHECK(next == events);
}

}  // namespace

TEST_CASE("records submitted in reverse order are written in event order") {
    TempDir dir;
    trace::WriterOptions options;
    options.chunk_bytes = 4096;
    auto writer = trace::TraceWriter::create(dir.file("r.d3dcap"), sample_header(), options);
    REQUIRE(writer.ok());
    flatbuffers::FlatBufferBuilder builder;
    // Windows of 1, 10 and 1000 events, each submitted last to first.
    std::uint64_t events = 0;
    for (const std::uint64_t window : {1, 10, 1000}) {
        std::vector<std::uint64_t> reserved;
        for (std::uint64_t i = 0; i < window; ++i) {
            const auto event = writer.value()->reserve();
            REQUIRE(event);
            CHECK(*event == events + i);
            reserved.push_back(*event);
        }
        for (auto e = reserved.rbegin(); e != reserved.rend(); ++e) {
            build_draw(builder, static_cast<std::uint32_t>(*e * 3), 7);
            CHECK(writer.value()->submit(builder, *e) == *e);
        }
        events += window;
    }
    REQUIRE(writer.value()->close().ok());

    auto reader = trace::TraceReader::open(dir.file("r.d3dcap"));
    REQUIRE(reader.ok());
    CHECK_FALSE(reader.value()->recovered());
    REQUIRE(reader.value()->event_count() == 1011);
    CHECK(reader.value()->chunk_count() > 5);
    check_chunks_contiguous(*reader.value(), 1011);
    for (std::uint64_t e = 0; e < events; ++e) {
        auto record = reader.value()->record(e);
        REQUIRE(record.ok());
        INFO("event " << e);
        CHECK(record.value()->header()->event() == e);
        const auto* draw = draw_of(*record.value());
        REQUIRE(draw != nullptr);
        CHECK(draw->vertex_count() == e * 3);
        CHECK(draw->start_vertex_location() == 7);
    }
}

TEST_CASE("8 threads reserving and submitting get contiguous events in each thread's order",
          "[threads]") {
    TempDir dir;
    trace::WriterOptions options;
    options.chunk_bytes = 64 * 1024;
    auto writer = trace::TraceWriter::create(dir.file("mt.d3dcap"), sample_header(), options);
    REQUIRE(writer.ok());
    constexpr std::uint32_t kThreads = 8;
    constexpr std::uint32_t kPerThread = 20000;
    std::vector<std::uint32_t> refused(kThreads, 0);
    std::vector<std::thread> threads;
    for (std::uint32_t t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            flatbuffers::FlatBufferBuilder builder;
            for (std::uint32_t seq = 0; seq < kPerThread; seq += 2) {
                // Two calls in flight, the inner one finishing first.
                const auto outer = writer.value()->reserve();
                const auto inner = writer.value()->reserve();
                if (!outer || !inner) {
                    ++refused[t];
                    continue;
                }
                build_draw(builder, seq + 1, t, t + 1);
                if (writer.value()->submit(builder, *inner) != inner) ++refused[t];
                build_draw(builder, seq, t, t + 1);
                if (writer.value()->submit(builder, *outer, seq % 1000 == 0) != outer) {
                    ++refused[t];
                }
            }
        });
    }
    for (std::thread& thread : threads) thread.join();
    CHECK(refused == std::vector<std::uint32_t>(kThreads, 0));
    REQUIRE(writer.value()->close().ok());

    auto reader = trace::TraceReader::open(dir.file("mt.d3dcap"));
    REQUIRE(reader.ok());
    CHECK_FALSE(reader.value()->recovered());
    REQUIRE(reader.value()->event_count() == 160000);
    CHECK(reader.value()->index().thread_count() == kThreads);
    check_chunks_contiguous(*reader.value(), 160000);
    std::vector<std::int64_t> last(kThreads, -1);
    std::vector<std::uint32_t> seen(kThreads, 0);
    std::uint64_t event = 0;
    std::uint64_t out_of_order = 0;
    for (std::size_t c = 0; c < reader.value()->chunk_count(); ++c) {
        auto chunk = reader.value()->read_chunk(c);
        REQUIRE(chunk.ok());
        for (std::size_t i = 0; i < chunk->record_count(); ++i, ++event) {
            const fb::Record& record = chunk->record(i);
            REQUIRE(record.header()->event() == event);
            const auto* draw = draw_of(record);
            REQUIRE(draw != nullptr);
            const std::uint32_t t = draw->start_vertex_location();
            REQUIRE(t < kThreads);
            CHECK(record.header()->thread() == t + 1);
            if (static_cast<std::int64_t>(draw->vertex_count()) <= last[t]) ++out_of_order;
            last[t] = draw->vertex_count();
            ++seen[t];
        }
    }
    CHECK(event == 160000);
    CHECK(out_of_order == 0);
    CHECK(seen == std::vector<std::uint32_t>(kThreads, kPerThread));
    CHECK(last == std::vector<std::int64_t>(kThreads, kPerThread - 1));
}

TEST_CASE("the index counts threads of any number a record names") {
    // Recovery indexes records of untrusted traces: thread numbers can be anything.
    TempDir dir;
    auto writer = trace::TraceWriter::create(dir.file("t.d3dcap"), sample_header());
    REQUIRE(writer.ok());
    flatbuffers::FlatBufferBuilder builder;
    for (const std::uint32_t thread : {0xffffffffu, 7u, 0xffffffffu, 0u, 7u, 0x80000000u}) {
        const auto event = writer.value()->reserve();
        REQUIRE(event);
        build_draw(builder, 3, 0, thread);
        CHECK(writer.value()->submit(builder, *event) == event);
    }
    REQUIRE(writer.value()->close().ok());
    auto reader = trace::TraceReader::open(dir.file("t.d3dcap"));
    REQUIRE(reader.ok());
    CHECK(reader.value()->event_count() == 6);
    CHECK(reader.value()->index().thread_count() == 3);  // 0 names no thread
}

TEST_CASE("an abandoned event is written as a header-only record that reads and dumps") {
    TempDir dir;
    auto writer = trace::TraceWriter::create(dir.file("a.d3dcap"), sample_header());
    REQUIRE(writer.ok());
    flatbuffers::FlatBufferBuilder builder;
    const auto first = writer.value()->reserve();
    const auto abandoned = writer.value()->reserve();
    const auto last = writer.value()->reserve();
    REQUIRE(first == 0u);
    REQUIRE(abandoned == 1u);
    REQUIRE(last == 2u);
    build_draw(builder, 30, 0);
    CHECK(writer.value()->submit(builder, std::uint64_t{2}) == 2u);
    writer.value()->abandon(1);
    build_draw(builder, 10, 0);
    CHECK(writer.value()->submit(builder, std::uint64_t{0}) == 0u);
    REQUIRE(writer.value()->close().ok());

    auto reader = trace::TraceReader::open(dir.file("a.d3dcap"));
    REQUIRE(reader.ok());
    CHECK_FALSE(reader.value()->recovered());
    REQUIRE(reader.value()->event_count() == 3);
    check_placeholder(*reader.value(), 1);
    CHECK(draw_of(*reader.value()->record(0).value())->vertex_count() == 10);
    CHECK(draw_of(*reader.value()->record(2).value())->vertex_count() == 30);
    std::uint64_t non_calls = 0;
    for (const fb::CallCount* count : *reader.value()->index().call_counts()) {
        if (count->call() == 0) non_calls = count->count();
    }
    CHECK(non_calls == 1);

    auto chunk = reader.value()->read_chunk(0);
    REQUIRE(chunk.ok());
    std::string json;
    trace::append_record_json(chunk->record(1), json);
    CHECK(json == R"({"event":1,"thread":0,"meta":"NONE","args":{}})");
    std::string text;
    trace::append_record_text(chunk->record(1), text);
    CHECK(text == "1  t0  NONE {}");
}

TEST_CASE("close writes a placeholder for an event never submitted and names it") {
    TempDir dir;
    trace::WriterOptions options;
    options.close_grace = std::chrono::milliseconds(0);  // event 1 never comes
    auto writer = trace::TraceWriter::create(dir.file("m.d3dcap"), sample_header(), options);
    REQUIRE(writer.ok());
    flatbuffers::FlatBufferBuilder builder;
    for (std::uint32_t i = 0; i < 6; ++i) REQUIRE(writer.value()->reserve() == i);
    // Event 1 never comes, event 4 is abandoned; 2, 3 and 5 wait behind 1.
    for (const std::uint64_t e : {5, 0, 3, 2}) {
        build_draw(builder, 100 + e, 0);
        CHECK(writer.value()->submit(builder, e) == e);
    }
    writer.value()->abandon(4);
    const trace::Status closed = writer.value()->close();
    REQUIRE_FALSE(closed.ok());
    CHECK(closed.error().message == "event 1 was reserved but never submitted");
    CHECK(closed.error().to_string() ==
          dir.file("m.d3dcap") + ": event 1 was reserved but never submitted");
    CHECK(writer.value()->error().empty());  // no write error
    CHECK(writer.value()->close().error().message == "event 1 was reserved but never submitted");
    CHECK_FALSE(writer.value()->reserve());
    build_draw(builder, 1, 0);
    CHECK_FALSE(writer.value()->submit(builder, std::uint64_t{1}));
    CHECK_FALSE(writer.value()->submit(builder));

    auto reader = trace::TraceReader::open(dir.file("m.d3dcap"));
    REQUIRE(reader.ok());
    CHECK_FALSE(reader.value()->recovered());
    REQUIRE(reader.value()->event_count() == 6);
    check_chunks_contiguous(*reader.value(), 6);
    check_placeholder(*reader.value(), 1);
    check_placeholder(*reader.value(), 4);
    for (const std::uint64_t e : {0, 2, 3, 5}) {
        INFO("event " << e);
        auto record = reader.value()->record(e);
        REQUIRE(record.ok());
        const auto* draw = draw_of(*record.value());
        REQUIRE(draw != nullptr);
        CHECK(draw->vertex_count() == 100 + e);
    }
}

TEST_CASE("close waits for the records of calls still in flight on other threads", "[threads]") {
    // A program that exits while a thread draws: the thread's call reserved
    // event 0 before the close began and hands its record in during it.
    TempDir dir;
    trace::WriterOptions options;
    options.close_grace = std::chrono::seconds(60);  // only a broken close waits that long
    auto writer = trace::TraceWriter::create(dir.file("f.d3dcap"), sample_header(), options);
    REQUIRE(writer.ok());
    trace::TraceWriter& w = *writer.value();
    REQUIRE(w.reserve() == 0u);
    trace::Status closed = trace::ok_status();
    std::thread closer([&] { closed = w.close(); });
    // Events reserved until the close stops handing them out are submitted at
    // once; they wait behind event 0.
    flatbuffers::FlatBufferBuilder builder;
    std::uint64_t events = 1;
    while (const std::optional<std::uint64_t> event = w.reserve()) {
        build_draw(builder, static_cast<std::uint32_t>(100 + *event), 0);
        CHECK(w.submit(builder, *event) == event);
        ++events;
    }
    build_draw(builder, 100, 0);
    CHECK(w.submit(builder, std::uint64_t{0}) == 0u);
    closer.join();
    CHECK(closed.ok());

    auto reader = trace::TraceReader::open(dir.file("f.d3dcap"));
    REQUIRE(reader.ok());
    CHECK_FALSE(reader.value()->recovered());
    REQUIRE(reader.value()->event_count() == events);
    for (std::uint64_t e = 0; e < events; ++e) {
        auto record = reader.value()->record(e);
        REQUIRE(record.ok());
        CHECK(record.value()->header()->call() != 0);  // no placeholder
    }
}
TEST_CASE(
    "submit refuses an event never reserved or written already and close names a doubled one") {
    TempDir dir;
    auto writer = trace::TraceWriter::create(dir.file("d.d3dcap"), sample_header());
    REQUIRE(writer.ok());
    flatbuffers::FlatBufferBuilder builder;
    REQUIRE(writer.value()->reserve() == 0u);
    REQUIRE(writer.value()->reserve() == 1u);
    build_draw(builder, 5, 0);
    CHECK_FALSE(writer.value()->submit(builder, std::uint64_t{2}));  // not reserved
    CHECK(writer.value()->submit(builder, std::uint64_t{1}) == 1u);
    // A second record for an event still held is dropped by the writer thread.
    build_draw(builder, 6, 0);
    CHECK(writer.value()->submit(builder, std::uint64_t{1}) == 1u);
    CHECK(writer.value()->submit(builder, std::uint64_t{0}) == 0u);
    writer.value()->wait_written();
    CHECK_FALSE(writer.value()->submit(builder, std::uint64_t{0}));  // written already
    CHECK(writer.value()->submit(builder) == 2u);
    const trace::Status closed = writer.value()->close();
    REQUIRE_FALSE(closed.ok());
    CHECK(closed.error().message == "event 1 was submitted twice; the first record is kept");
    auto reader = trace::TraceReader::open(dir.file("d.d3dcap"));
    REQUIRE(reader.ok());
    CHECK_FALSE(reader.value()->recovered());
    REQUIRE(reader.value()->event_count() == 3);
    CHECK(draw_of(*reader.value()->record(1).value())->vertex_count() == 5);
}

TEST_CASE("a held end-of-frame record closes its chunk once it is written") {
    TempDir dir;
    auto writer = trace::TraceWriter::create(dir.file("f.d3dcap"), sample_header());
    REQUIRE(writer.ok());
    flatbuffers::FlatBufferBuilder builder;
    REQUIRE(writer.value()->reserve() == 0u);
    REQUIRE(writer.value()->reserve() == 1u);
    build_draw(builder, 1, 0);
    CHECK(writer.value()->submit(builder, std::uint64_t{1}, /*end_of_frame=*/true) == 1u);
    build_draw(builder, 0, 0);
    CHECK(writer.value()->submit(builder, std::uint64_t{0}) == 0u);
    build_draw(builder, 2, 0);
    CHECK(writer.value()->submit(builder) == 2u);
    REQUIRE(writer.value()->close().ok());
    auto reader = trace::TraceReader::open(dir.file("f.d3dcap"));
    REQUIRE(reader.ok());
    const auto chunks = chunk_table(*reader.value());
    REQUIRE(chunks.size() == 2);
    CHECK(chunks[0].first_event() == 0);
    CHECK(chunks[0].record_count() == 2);
    CHECK(chunks[1].first_event() == 2);
    CHECK(chunks[1].record_count() == 1);
}
