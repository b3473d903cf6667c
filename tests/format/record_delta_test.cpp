// Record deltas: which records of a chunk become deltas, that they restore to
// the same bytes, and that a trace of one call in a loop stores almost nothing
// per call.
#include "format/trace/record_delta.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "format/trace/container.h"
#include "format/trace/reader.h"
#include "format/trace/records.h"
#include "support/temp_dir.h"
#include "support/trace_fixture.h"

using namespace d3dcap;
using namespace d3dcap::testing;

namespace {

void build_draw(flatbuffers::FlatBufferBuilder& builder, std::uint32_t vertex_count) {
    builder.Clear();
    trace::finish_call(builder, {1, 1, 0, 1, false},
                       fb::CreateID3D11DeviceContext_Draw(builder, vertex_count, 0));
}

void build_dispatch(flatbuffers::FlatBufferBuilder& builder, std::uint32_t x) {
    builder.Clear();
    trace::finish_call(builder, {1, 1, 0, 1, false},
                       fb::CreateID3D11DeviceContext_Dispatch(builder, x, 0, 0));
}

void build_update(flatbuffers::FlatBufferBuilder& builder, std::size_t bytes) {
    builder.Clear();
    std::vector<std::uint8_t> data(bytes, 0x5a);
    trace::finish_call(
        builder, {1, 1, 0, 1, false},
        fb::CreateID3D11DeviceContext_UpdateSubresourceDirect(builder, 3, 0, nullptr, &data, 0, 0));
}

// Appends the builder's record to a chunk, padded as the writer pads it.
std::size_t append(std::vector<std::uint8_t>& chunk, const flatbuffers::FlatBufferBuilder& b) {
    const std::size_t at = chunk.size();
    chunk.insert(chunk.end(), b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
    chunk.resize(at + trace::padded(b.GetSize()));
    return at;
}

std::uint32_t prefix_at(const std::vector<std::uint8_t>& chunk, std::size_t at) {
    std::uint32_t prefix = 0;
    std::memcpy(&prefix, chunk.data() + at, sizeof prefix);
    return prefix;
}

}  // namespace

TEST_CASE("small records of the same call and size become deltas and restore exactly") {
    flatbuffers::FlatBufferBuilder builder;
    std::vector<std::uint8_t> chunk;
    std::vector<std::size_t> at;
    build_draw(builder, 3);
    at.push_back(append(chunk, builder));  // 0: the first of its size
    build_draw(builder, 6);
    at.push_back(append(chunk, builder));  // 1: delta of 0
    build_dispatch(builder, 7);
    at.push_back(append(chunk, builder));  // 2: another call of the same size
    build_draw(builder, 9);
    at.push_back(append(chunk, builder));  // 3: its size's latest is the dispatch
    build_update(builder, 600);
    at.push_back(append(chunk, builder));  // 4: too large
    build_update(builder, 600);
    at.push_back(append(chunk, builder));  // 5: too large
    const std::vector<std::uint8_t> original = chunk;
    const std::uint32_t draw_size = prefix_at(original, at[0]);
    REQUIRE(prefix_at(original, at[2]) == draw_size);  // FlatBuffers leaves out the zeros

    trace::DeltaEncoder encoder;
    encoder.encode(chunk.data(), chunk.size());
    CHECK(prefix_at(chunk, at[0]) == draw_size);
    CHECK(prefix_at(chunk, at[1]) == (draw_size | trace::kDeltaRecordFlag));
    CHECK(prefix_at(chunk, at[2]) == prefix_at(original, at[2]));
    // The dispatch in between is the latest of the size: not the same call.
    CHECK(prefix_at(chunk, at[3]) == draw_size);
    CHECK(prefix_at(chunk, at[4]) == prefix_at(original, at[4]));
    CHECK(std::memcmp(chunk.data() + at[5], original.data() + at[5], chunk.size() - at[5]) == 0);
    // Draw 6 after draw 3: the vertex count's byte differs by 3, the event's by 0.
    std::size_t nonzero = 0;
    for (std::size_t i = at[1] + 4; i < at[2]; ++i) nonzero += chunk[i] != 0;
    CHECK(nonzero == 1);

    trace::DeltaDecoder decoder;
    for (const std::size_t pos : at) {
        const std::uint32_t prefix = prefix_at(chunk, pos);
        REQUIRE(decoder.restore(chunk.data(), pos, prefix & ~trace::kDeltaRecordFlag,
                                (prefix & trace::kDeltaRecordFlag) != 0));
    }
    CHECK(chunk == original);
}

TEST_CASE("a delta record with no earlier record of its size does not restore") {
    flatbuffers::FlatBufferBuilder builder;
    std::vector<std::uint8_t> chunk;
    build_draw(builder, 3);
    append(chunk, builder);
    trace::DeltaDecoder decoder;
    CHECK_FALSE(decoder.restore(chunk.data(), 0, prefix_at(chunk, 0), true));
    CHECK(decoder.restore(chunk.data(), 0, prefix_at(chunk, 0), false));
    CHECK_FALSE(decoder.restore(chunk.data(), 0, trace::kMaxDeltaRecordBytes + 8, true));
}

TEST_CASE("a trace of one call in a loop stores under a byte a call and reads back") {
    TempDir dir;
    auto writer = trace::TraceWriter::create(dir.file("loop.d3dcap"), sample_header());
    REQUIRE(writer.ok());
    flatbuffers::FlatBufferBuilder builder;
    constexpr std::uint32_t kCalls = 100000;
    std::uint32_t refused = 0;
    for (std::uint32_t i = 0; i < kCalls; ++i) {
        const auto event = writer.value()->reserve();
        build_draw(builder, i * 3);
        if (!event || writer.value()->submit(builder, *event) != event) ++refused;
    }
    CHECK(refused == 0);
    REQUIRE(writer.value()->close().ok());
    auto reader = trace::TraceReader::open(dir.file("loop.d3dcap"));
    REQUIRE(reader.ok());
    std::uint64_t compressed = 0;
    for (const fb::ChunkEntry* chunk : *reader.value()->index().chunks())
        compressed += chunk->compressed_size();
    CHECK(compressed < kCalls);
    for (std::uint32_t i = 0; i < kCalls; i += 997) {
        auto record = reader.value()->record(i);
        REQUIRE(record.ok());
        const auto* draw = api::CallOf<fb::ID3D11DeviceContext_Draw>::get(*record.value());
        REQUIRE(draw != nullptr);
        CHECK(draw->vertex_count() == i * 3);
    }
}
