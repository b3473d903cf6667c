// A trace with more markers than FlatBuffers' default verifier allows tables
// (one million) still opens with its index, not by recovery.
#include <catch2/catch.hpp>

#include "format/trace/reader.h"
#include "format/trace/records.h"
#include "format/trace/writer.h"
#include "support/temp_dir.h"
#include "support/trace_fixture.h"

using namespace d3dcap;

TEST_CASE("a trace of 1.1 million markers opens with its index", "[hardening][trace]") {
    constexpr std::uint64_t kMarkers = 1'100'000;
    testing::TempDir dir;
    const std::string path = dir.file("markers.d3dcap");
    {
        auto writer = trace::TraceWriter::create(path, testing::sample_header());
        REQUIRE(writer.ok());
        flatbuffers::FlatBufferBuilder builder;
        std::uint64_t submitted = 0;
        for (std::uint64_t i = 0; i < kMarkers; ++i) {
            builder.Clear();
            const auto params = fb::CreateID3D11DeviceContext2_SetMarkerIntDirect(
                builder, "step", static_cast<std::int32_t>(i));
            trace::finish_call(builder, trace::CallContext{2, 2, 0, 1, false}, params);
            submitted += writer.value()->submit(builder).has_value() ? 1 : 0;
        }
        CHECK(submitted == kMarkers);
        REQUIRE(writer.value()->close().ok());
    }
    auto reader = trace::TraceReader::open(path);
    REQUIRE(reader.ok());
    INFO(reader.value()->recovery_note());
    CHECK_FALSE(reader.value()->recovered());
    CHECK(reader.value()->event_count() == kMarkers);
    const std::vector<trace::Marker>& markers = reader.value()->markers().entries;
    REQUIRE(markers.size() == kMarkers);
    CHECK(markers[kMarkers - 1].data == static_cast<std::int32_t>(kMarkers - 1));
    CHECK(markers[kMarkers - 1].event == kMarkers - 1);
}
