// The trace writer's hand-off: each capturing thread's lane, the records too
// large for one, lanes that fill up while an earlier event is missing, and
// lanes left by threads that ended.
#include <catch2/catch.hpp>
#include <thread>
#include <vector>

#include "format/trace/reader.h"
#include "format/trace/records.h"
#include "support/temp_dir.h"
#include "support/trace_fixture.h"

using namespace d3dcap;
using namespace d3dcap::testing;

namespace {

// UpdateSubresource of `bytes` bytes whose first byte and DstSubresource
// say which record it is.
void build_update(flatbuffers::FlatBufferBuilder& builder, std::uint32_t tag, std::size_t bytes) {
    builder.Clear();
    std::vector<std::uint8_t> data(bytes, static_cast<std::uint8_t>(tag));
    trace::finish_call(builder, {1, 1, 0, 1, false},
                       fb::CreateID3D11DeviceContext_UpdateSubresourceDirect(builder, 3, tag,
                                                                             nullptr, &data, 0, 0));
}

// The tag and size of an UpdateSubresource record.
std::pair<std::uint32_t, std::size_t> update_of(const fb::Record& record) {
    const auto* update = api::CallOf<fb::ID3D11DeviceContext_UpdateSubresource>::get(record);
    REQUIRE(update != nullptr);
    REQUIRE(update->p_src_data() != nullptr);
    REQUIRE(update->p_src_data()->size() > 0);
    CHECK(update->p_src_data()->Get(0) == static_cast<std::uint8_t>(update->dst_subresource()));
    return {update->dst_subresource(), update->p_src_data()->size()};
}

}  // namespace

TEST_CASE("records too large for a lane keep their place among the small ones") {
    TempDir dir;
    trace::WriterOptions options;
    options.lane_bytes = 4096;  // records over 1 KiB go under the lock
    auto writer = trace::TraceWriter::create(dir.file("big.d3dcap"), sample_header(), options);
    REQUIRE(writer.ok());
    flatbuffers::FlatBufferBuilder builder;
    constexpr std::uint32_t kRecords = 600;
    auto size_of = [](std::uint32_t i) -> std::size_t { return i % 3 == 0 ? 3000 : 40 + i % 50; };
    for (std::uint32_t i = 0; i < kRecords; ++i) {
        build_update(builder, i, size_of(i));
        REQUIRE(writer.value()->submit(builder) == i);
    }
    REQUIRE(writer.value()->close().ok());
    CHECK(writer.value()->lane_count() == 1);
    auto reader = trace::TraceReader::open(dir.file("big.d3dcap"));
    REQUIRE(reader.ok());
    REQUIRE(reader.value()->event_count() == kRecords);
    for (std::uint32_t i = 0; i < kRecords; ++i) {
        auto record = reader.value()->record(i);
        REQUIRE(record.ok());
        const auto [tag, size] = update_of(*record.value());
        CHECK(tag == i);
        CHECK(size == size_of(i));
    }
}

TEST_CASE("a lane that fills up while an earlier event is missing has its records held",
          "[threads]") {
    // Event 0 comes last: the other thread's small lane fills many times over
    // meanwhile, and its producer must not wait for event 0 for ever.
    TempDir dir;
    trace::WriterOptions options;
    options.lane_bytes = 4096;
    auto writer = trace::TraceWriter::create(dir.file("held.d3dcap"), sample_header(), options);
    REQUIRE(writer.ok());
    trace::TraceWriter& w = *writer.value();
    REQUIRE(w.reserve() == 0u);
    constexpr std::uint32_t kRecords = 5000;
    std::thread other([&] {
        flatbuffers::FlatBufferBuilder builder;
        for (std::uint32_t i = 1; i <= kRecords; ++i) {
            build_update(builder, i, 64);
            CHECK(w.submit(builder) == i);
        }
    });
    other.join();
    flatbuffers::FlatBufferBuilder builder;
    build_update(builder, 0, 64);
    CHECK(w.submit(builder, std::uint64_t{0}) == 0u);
    REQUIRE(w.close().ok());
    CHECK(w.lane_count() == 2);
    auto reader = trace::TraceReader::open(dir.file("held.d3dcap"));
    REQUIRE(reader.ok());
    REQUIRE(reader.value()->event_count() == kRecords + 1);
    for (std::uint32_t i = 0; i <= kRecords; ++i) {
        auto record = reader.value()->record(i);
        REQUIRE(record.ok());
        CHECK(update_of(*record.value()).first == i);
    }
}

TEST_CASE("threads that end one after another leave their lane to the next", "[threads]") {
    TempDir dir;
    auto writer = trace::TraceWriter::create(dir.file("churn.d3dcap"), sample_header());
    REQUIRE(writer.ok());
    trace::TraceWriter& w = *writer.value();
    constexpr std::uint32_t kThreads = 32;
    for (std::uint32_t t = 0; t < kThreads; ++t) {
        std::thread([&] {
            flatbuffers::FlatBufferBuilder builder;
            for (std::uint32_t i = 0; i < 10; ++i) {
                build_update(builder, t * 10 + i, 16);
                CHECK(w.submit(builder).has_value());
            }
        }).join();
        w.wait_written();  // the lane is emptied before the next thread starts
    }
    CHECK(w.lane_count() == 1);
    REQUIRE(w.close().ok());
    auto reader = trace::TraceReader::open(dir.file("churn.d3dcap"));
    REQUIRE(reader.ok());
    REQUIRE(reader.value()->event_count() == kThreads * 10);
    for (std::uint32_t e = 0; e < kThreads * 10; e += 37) {
        auto record = reader.value()->record(e);
        REQUIRE(record.ok());
        CHECK(update_of(*record.value()).first == e);
    }
}
