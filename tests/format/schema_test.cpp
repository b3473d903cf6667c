// The FlatBuffers schema generated from the table: call ids agree with the
// C++ table, and a call's parameters round-trip through a verified buffer.
#include <d3dcap/api/calls.h>
#include <d3dcap/fb/calls_generated.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using namespace d3dcap;

TEST_CASE("the schema's CallId enum names every call of the C++ table with the same value") {
    for (const api::CallInfo& call : api::kCalls) {
        std::string expected(call.interface_name);
        if (!expected.empty()) expected += '_';
        expected += call.method;
        CHECK(fb::EnumNameCallId(static_cast<fb::CallId>(call.id)) == expected);
    }
}

TEST_CASE("UpdateTileMappings parameters round-trip through a verified FlatBuffer") {
    flatbuffers::FlatBufferBuilder builder;
    std::vector<fb::D3D11_TILED_RESOURCE_COORDINATE> starts{{1, 2, 0, 3}};
    std::vector<fb::D3D11_TILE_REGION_SIZE> sizes{{6, 1, 2, 3, 1}};
    std::vector<uint32_t> flags{4, 1};
    std::vector<uint32_t> offsets{7, 0};
    std::vector<uint32_t> counts{6, 2};
    auto params = fb::CreateID3D11DeviceContext2_UpdateTileMappingsDirect(
        builder, /*p_tiled_resource=*/11, /*num_tiled_resource_regions=*/1, &starts, &sizes,
        /*p_tile_pool=*/12, /*num_ranges=*/2, &flags, &offsets, &counts, /*flags=*/0);
    builder.Finish(params);

    flatbuffers::Verifier verifier(builder.GetBufferPointer(), builder.GetSize());
    REQUIRE(verifier.VerifyBuffer<fb::ID3D11DeviceContext2_UpdateTileMappings>(nullptr));
    auto* read = flatbuffers::GetRoot<fb::ID3D11DeviceContext2_UpdateTileMappings>(
        builder.GetBufferPointer());
    CHECK(read->p_tiled_resource() == 11);
    CHECK(read->p_tile_pool() == 12);
    REQUIRE(read->p_tiled_resource_region_start_coordinates()->size() == 1);
    CHECK(read->p_tiled_resource_region_start_coordinates()->Get(0)->z() == 0);
    CHECK(read->p_tiled_resource_region_start_coordinates()->Get(0)->subresource() == 3);
    CHECK(read->p_tiled_resource_region_sizes()->Get(0)->width() == 2);
    CHECK(read->p_tiled_resource_region_sizes()->Get(0)->b_use_box() == 1);
    CHECK(read->p_range_flags()->Get(0) == 4);
    CHECK(read->p_range_tile_counts()->Get(1) == 2);
}

TEST_CASE("UpdateTiles carries its source tiles as bytes") {
    flatbuffers::FlatBufferBuilder builder;
    std::vector<uint8_t> data(65536, 0xab);
    fb::D3D11_TILED_RESOURCE_COORDINATE start{0, 0, 0, 0};
    fb::D3D11_TILE_REGION_SIZE size{1, 0, 1, 1, 1};
    builder.Finish(
        fb::CreateID3D11DeviceContext2_UpdateTilesDirect(builder, 5, &start, &size, &data, 0));
    auto* read =
        flatbuffers::GetRoot<fb::ID3D11DeviceContext2_UpdateTiles>(builder.GetBufferPointer());
    CHECK(read->p_source_tile_data()->size() == 65536);
    CHECK(read->p_dest_tile_region_size()->num_tiles() == 1);
}
