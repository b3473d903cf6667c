// Every call of the API table, with generated arguments, goes through a trace
// file and comes back with the same JSON arguments.
#include <d3dcap/api/call_json.h>

#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "format/trace/reader.h"
#include "format/trace/records.h"
#include "support/temp_dir.h"
#include "support/trace_fixture.h"

using namespace d3dcap;

namespace {

struct Sample {
    api::CallId id;
    void (*finish)(flatbuffers::FlatBufferBuilder& builder, const trace::CallContext& call);
    std::string_view expected_args;
};

#define D3DCAP_SAMPLE(Name, build, json)                                                 \
    Sample{api::CallId::Name,                                                            \
           [](flatbuffers::FlatBufferBuilder& builder, const trace::CallContext& call) { \
               trace::finish_call(builder, call, (build)(builder));                      \
           },                                                                            \
           json},
const std::vector<Sample> kSamples = {
#include "sample_calls.inc"
};
#undef D3DCAP_SAMPLE

}  // namespace

TEST_CASE("every call of the table round-trips through a trace file") {
    REQUIRE(kSamples.size() == api::kCalls.size());
    testing::TempDir dir;
    trace::WriterOptions options;
    options.chunk_bytes = 16 * 1024;
    {
        auto writer =
            trace::TraceWriter::create(dir.file("all.d3dcap"), testing::sample_header(), options);
        REQUIRE(writer.ok());
        flatbuffers::FlatBufferBuilder builder;
        for (std::size_t i = 0; i < kSamples.size(); ++i) {
            builder.Clear();
            kSamples[i].finish(builder, {100 + i, 7, static_cast<std::int64_t>(i), 2, false});
            REQUIRE(writer.value()->submit(builder) == i);
        }
        REQUIRE(writer.value()->close().ok());
    }
    auto reader = trace::TraceReader::open(dir.file("all.d3dcap"));
    REQUIRE(reader.ok());
    REQUIRE(reader.value()->event_count() == kSamples.size());
    CHECK(reader.value()->chunk_count() > 1);
    std::string args;
    for (std::size_t i = 0; i < kSamples.size(); ++i) {
        auto record = reader.value()->record(i);
        REQUIRE(record.ok());
        const fb::RecordHeader& header = *record.value()->header();
        INFO(api::find_call(kSamples[i].id)->interface_name
             << "::" << api::find_call(kSamples[i].id)->method);
        CHECK(header.call() == static_cast<std::uint16_t>(kSamples[i].id));
        CHECK(header.object() == 100 + i);
        CHECK(header.result() == static_cast<std::int64_t>(i));
        args.clear();
        api::append_args_json(*record.value(), args);
        CHECK(args == kSamples[i].expected_args);
    }
}
