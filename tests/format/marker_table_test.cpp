// The footer index's marker table: markers of every kind round trip across
// blocks, a loop of markers takes a fraction of a byte each, and a table
// that does not hold what it says is refused with the block and row named.
#include "format/trace/marker_table.h"

#include <catch2/catch.hpp>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "format/trace/reader.h"

using namespace d3dcap;
using trace::Marker;

namespace {

// The table a writer makes, as a file holds it.
std::vector<std::uint8_t> table_bytes(const trace::MarkerTableWriter& writer) {
    flatbuffers::FlatBufferBuilder builder;
    builder.Finish(writer.finish(builder));
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

const fb::MarkerTable& table_of(const std::vector<std::uint8_t>& bytes) {
    return *flatbuffers::GetRoot<fb::MarkerTable>(bytes.data());
}

// The blocks of a table, by their headers (row bytes, stored bytes).
std::size_t block_count(const fb::MarkerTable& table) {
    std::size_t count = 0;
    for (std::size_t pos = 0; pos + 8 <= table.blocks()->size(); ++count) {
        std::uint32_t stored = 0;
        std::memcpy(&stored, table.blocks()->data() + pos + 4, sizeof stored);
        pos += 8 + stored;
    }
    return count;
}

// A table of one label whose blocks are the given bytes.
std::vector<std::uint8_t> table_with_blocks(std::uint64_t count,
                                            const std::vector<std::uint8_t>& blocks) {
    flatbuffers::FlatBufferBuilder builder;
    const std::vector<flatbuffers::Offset<flatbuffers::String>> labels{
        builder.CreateString("draw")};
    builder.Finish(fb::CreateMarkerTableDirect(builder, count, &labels, &blocks));
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

// One block stored as LZ4 literals (a token of 15 or less).
std::vector<std::uint8_t> literal_block(const std::vector<std::uint8_t>& rows) {
    REQUIRE(rows.size() < 15);
    const auto n = static_cast<std::uint8_t>(rows.size());
    std::vector<std::uint8_t> block{
        n, 0, 0, 0, static_cast<std::uint8_t>(n + 1), 0, 0, 0, static_cast<std::uint8_t>(n << 4)};
    for (const std::uint8_t byte : rows) block.push_back(byte);
    return block;
}

}  // namespace

TEST_CASE("markers of every kind round trip through a table of several blocks") {
    trace::MarkerTableWriter writer;
    std::vector<Marker> written;
    const std::vector<std::string> labels{"frame", "", "caf\xc3\xa9", "shadow pass"};
    const std::int32_t datas[] = {0, -1, INT_MIN, INT_MAX, 12345, INT_MIN};
    std::uint64_t event = 3;
    for (std::uint32_t i = 0; i < 40000; ++i) {
        Marker m;
        m.event = event;
        m.kind = static_cast<fb::MarkerKind>(i % 3);
        m.has_data = i % 5 != 0;
        m.data = m.has_data ? datas[i % 6] : 0;
        m.label = i % 4;
        m.depth = i % 7 == 0 ? 0xffffffffu : i % 9;
        event += i % 11 == 0 ? (std::uint64_t{1} << 40) : i % 3;
        writer.add(m, labels[m.label]);
        written.push_back(m);
    }
    CHECK(writer.count() == 40000);
    const std::vector<std::uint8_t> bytes = table_bytes(writer);
    auto read = trace::read_marker_table(table_of(bytes));
    REQUIRE(read.ok());
    CHECK(read.value().labels == labels);
    REQUIRE(read.value().entries.size() == written.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < written.size(); ++i) {
        const Marker& a = written[i];
        const Marker& b = read.value().entries[i];
        differ += a.event != b.event || a.data != b.data || a.label != b.label ||
                  a.depth != b.depth || a.kind != b.kind || a.has_data != b.has_data;
    }
    CHECK(differ == 0);
    // Rows of 5 to 20 bytes: 40000 of them fill more than one block of 64 KiB.
    CHECK(block_count(table_of(bytes)) > 1);
}

TEST_CASE("a loop of SetMarkerInt with changing data takes under a tenth of a byte a marker") {
    trace::MarkerTableWriter writer;
    constexpr std::uint32_t kMarkers = 1000000;
    for (std::uint32_t i = 0; i < kMarkers; ++i) {
        writer.add(Marker{2 + i, static_cast<std::int32_t>(i), 0, 1, fb::MarkerKind::Marker, true},
                   "draw call");
    }
    const std::vector<std::uint8_t> bytes = table_bytes(writer);
    CHECK(bytes.size() < kMarkers / 10);
    auto read = trace::read_marker_table(table_of(bytes));
    REQUIRE(read.ok());
    REQUIRE(read.value().entries.size() == kMarkers);
    CHECK(read.value().entries.back().event == kMarkers + 1);
    CHECK(read.value().entries.back().data == static_cast<std::int32_t>(kMarkers - 1));
}

TEST_CASE("a marker table that does not hold what it says is refused naming the block and row") {
    // One row: event step 1, kind Marker with data, label 0, data +3, depth 0.
    const std::vector<std::uint8_t> row{1, 2 | 4, 0, 6, 0};
    {
        auto read = trace::read_marker_table(table_of(table_with_blocks(1, literal_block(row))));
        REQUIRE(read.ok());
        REQUIRE(read.value().entries.size() == 1);
        CHECK(read.value().entries[0].data == 3);
        CHECK(read.value().entries[0].event == 1);
    }
    const auto error_of = [](std::uint64_t count, const std::vector<std::uint8_t>& blocks) {
        auto read = trace::read_marker_table(table_of(table_with_blocks(count, blocks)));
        REQUIRE_FALSE(read.ok());
        return read.error();
    };
    CHECK(error_of(2, literal_block(row)) == "marker table holds 1 markers, its count says 2");
    CHECK(error_of(1, literal_block({1, 3, 0, 0})) ==
          "marker table, block 0, marker 0: kind byte 3 is no marker kind");
    CHECK(error_of(1, literal_block({1, 2, 1, 0})) ==
          "marker table, block 0, marker 0: label 1 of 1");
    CHECK(error_of(1, literal_block({1, 2 | 4, 0})) ==
          "marker table, block 0, marker 0: the row is cut short");
    CHECK(error_of(1, literal_block({0x80, 0x80})) ==
          "marker table, block 0, marker 0: the row is cut short");
    std::vector<std::uint8_t> cut = literal_block(row);
    cut.pop_back();
    CHECK(error_of(1, cut) == "marker table, block 0: its data is cut short");
    CHECK(error_of(1, {5, 0, 0}) == "marker table, block 0: its header is cut short");
    CHECK(error_of(1, {0, 0, 2, 0, 0, 0, 0, 0}) ==
          "marker table, block 0: 131072 bytes of rows, more than 65536");
    std::vector<std::uint8_t> wrong_size = literal_block(row);
    wrong_size[0] = 4;  // the literals hold 5
    CHECK(error_of(1, wrong_size) ==
          "marker table, block 0: LZ4 data does not decompress to its row bytes");
}

TEST_CASE("the markers of a format 1 trace read as a list and visit the same") {
    auto reader = trace::TraceReader::open(D3DCAP_GOLDEN_TRACE);
    REQUIRE(reader.ok());
    REQUIRE(reader.value()->format_major() == 1);
    CHECK(reader.value()->marker_count() == 3);
    const trace::MarkerList& list = reader.value()->markers();
    REQUIRE(list.entries.size() == 3);
    CHECK(list.labels == std::vector<std::string>{"shadows", "cascade\t1", ""});
    CHECK(list.entries[0].event == 7);
    CHECK(list.entries[0].kind == fb::MarkerKind::Begin);
    CHECK(list.entries[0].data == 3);
    CHECK(list.entries[1].event == 8);
    CHECK(list.entries[1].data == -1);
    CHECK(list.entries[1].depth == 1);
    CHECK(list.entries[2].event == 10);
    CHECK(list.entries[2].kind == fb::MarkerKind::End);
    std::vector<std::string> visited;
    reader.value()->visit_markers([&](const Marker& marker, std::string_view label) {
        visited.push_back(std::to_string(marker.event) + " " + std::string(label));
    });
    CHECK(visited == std::vector<std::string>{"7 shadows", "8 cascade\t1", "10 "});
}
