// The trace writer: what is written while capture goes on, write errors,
// event order across threads, and placeholders for events never submitted.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <thread>

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
