// Every E_INVALIDARG case of UpdateTileMappings, CopyTileMappings and
// ResizeTilePool: the result, the one message naming the parameter and value,
// and that nothing changed.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/tiles/tile_state.h"
#include "runtime/tiles/tiling_fixtures.h"

using d3dcap::runtime::tiles::kNullTile;
using d3dcap::runtime::tiles::ObjectId;
using d3dcap::runtime::tiles::TileState;
using namespace tile_tests;

namespace {

constexpr ObjectId kTexture = 1;  // 4x5 tiles
constexpr ObjectId kBuffer = 2;   // 20 tiles
constexpr ObjectId kPool = 100;   // 16 tiles
constexpr ObjectId kSecondPool = 101;

const char* const kUpdate = "ID3D11DeviceContext2::UpdateTileMappings";
const char* const kCopy = "ID3D11DeviceContext2::CopyTileMappings";
const char* const kResize = "ID3D11DeviceContext2::ResizeTilePool";

struct Expected {
    const char* call;
    const char* parameter;
    const char* text;
};

// A state with some mappings, so that "nothing changed" means something.
TileState mapped_state() {
    TileState state;
    REQUIRE(state.create_pool(kPool, pool_bytes(16), nullptr) == S_OK);
    REQUIRE(state.create_pool(kSecondPool, pool_bytes(16), nullptr) == S_OK);
    REQUIRE(state.create_tiled_resource(kTexture, flat_texture(4, 5), nullptr) == S_OK);
    REQUIRE(state.create_tiled_resource(kBuffer, tiled_buffer(20), nullptr) == S_OK);
    const UINT reuse = D3D11_TILE_RANGE_REUSE_SINGLE_TILE;
    const UINT offset = 3;
    REQUIRE(state.update_tile_mappings(kTexture, 1, nullptr, nullptr, kPool, 1, &reuse, &offset,
                                       nullptr, 0, nullptr) == S_OK);
    const D3D11_TILE_REGION_SIZE ten = tiles(10);
    REQUIRE(state.update_tile_mappings(kBuffer, 1, nullptr, &ten, kPool, 1, nullptr, &offset,
                                       nullptr, 0, nullptr) == S_OK);
    return state;
}

void check_rejected(HRESULT result, const RecordingSink& sink, const Expected& expected,
                    const TileState& before, const TileState& after) {
    CHECK(result == E_INVALIDARG);
    REQUIRE(sink.messages.size() == 1);
    CHECK(sink.messages[0].severity == d3dcap::runtime::Severity::Error);
    CHECK(sink.messages[0].call == expected.call);
    CHECK(sink.messages[0].parameter == expected.parameter);
    CHECK(sink.messages[0].text == expected.text);
    for (ObjectId resource : {kTexture, kBuffer}) {
        CHECK(pool_tile_table(after, resource) == pool_tile_table(before, resource));
        CHECK(after.pool_of(resource) == before.pool_of(resource));
    }
    CHECK(after.pool_tiles(kPool) == before.pool_tiles(kPool));
}

}  // namespace

TEST_CASE("UpdateTileMappings rejects each bad argument by name and changes nothing",
          "[tiles][rejections]") {
    TileState state = mapped_state();
    const TileState before = state;
    RecordingSink sink;
    const D3D11_TILED_RESOURCE_COORDINATE origin = at(0, 0);
    const D3D11_TILE_REGION_SIZE six = box(2, 3);
    const UINT offsets[2] = {0, 0};
    const UINT counts[2] = {3, 3};
    HRESULT result = S_OK;
    Expected expected{kUpdate, "", ""};

    SECTION("a pool as the resource") {
        result = state.update_tile_mappings(kPool, 1, nullptr, nullptr, 0, 1, nullptr, offsets,
                                            nullptr, 0, &sink);
        expected = {kUpdate, "pTiledResource", "object 100 is a tile pool, not a tiled resource"};
    }
    SECTION("an unknown resource") {
        result = state.update_tile_mappings(77, 1, nullptr, nullptr, 0, 1, nullptr, offsets,
                                            nullptr, 0, &sink);
        expected = {kUpdate, "pTiledResource", "object 77 is not a tiled resource"};
    }
    SECTION("a NULL resource") {
        result = state.update_tile_mappings(0, 1, nullptr, nullptr, 0, 1, nullptr, offsets, nullptr,
                                            0, &sink);
        expected = {kUpdate, "pTiledResource", "NULL is not a tiled resource"};
    }
    SECTION("a tiled resource as the pool") {
        result = state.update_tile_mappings(kTexture, 1, &origin, nullptr, kBuffer, 1, nullptr,
                                            offsets, nullptr, 0, &sink);
        expected = {kUpdate, "pTilePool", "object 2 is not a tile pool"};
    }
    SECTION("flags other than NO_OVERWRITE") {
        result = state.update_tile_mappings(kTexture, 1, &origin, nullptr, kPool, 1, nullptr,
                                            offsets, nullptr, 3, &sink);
        expected = {kUpdate, "Flags",
                    "0x3 has bits other than D3D11_TILE_MAPPING_NO_OVERWRITE (0x1)"};
    }
    SECTION("NULL start coordinates for several regions") {
        const D3D11_TILE_REGION_SIZE sizes[2] = {tiles(1), tiles(1)};
        result = state.update_tile_mappings(kTexture, 2, nullptr, sizes, kPool, 1, nullptr, offsets,
                                            nullptr, 0, &sink);
        expected = {kUpdate, "pTiledResourceRegionStartCoordinates",
                    "NULL is allowed only when NumTiledResourceRegions is 1 (it is 2)"};
    }
    SECTION("a subresource that does not exist") {
        const D3D11_TILED_RESOURCE_COORDINATE start = at(0, 0, 0, 1);
        result = state.update_tile_mappings(kTexture, 1, &start, nullptr, kPool, 1, nullptr,
                                            offsets, nullptr, 0, &sink);
        expected = {kUpdate, "pTiledResourceRegionStartCoordinates[0]",
                    "Subresource 1 does not exist: the resource has 1 subresources"};
    }
    SECTION("a start outside the resource, in a later region") {
        const D3D11_TILED_RESOURCE_COORDINATE starts[2] = {at(0, 0), at(4, 0)};
        result = state.update_tile_mappings(kTexture, 2, starts, nullptr, kPool, 2, nullptr,
                                            offsets, nullptr, 0, &sink);
        expected = {kUpdate, "pTiledResourceRegionStartCoordinates[1]",
                    "(4,0,0) is outside Subresource 0 of 4x5x1 tiles"};
    }
    SECTION("a box that leaves the resource") {
        const D3D11_TILED_RESOURCE_COORDINATE start = at(3, 0);
        result = state.update_tile_mappings(kTexture, 1, &start, &six, kPool, 1, nullptr, offsets,
                                            nullptr, 0, &sink);
        expected = {kUpdate, "pTiledResourceRegionSizes[0]",
                    "the box 2x3x1 at (3,0,0) leaves Subresource 0 of 4x5x1 tiles"};
    }
    SECTION("a 2D box deeper than 1") {
        const D3D11_TILE_REGION_SIZE deep = box(1, 1, 2);
        result = state.update_tile_mappings(kTexture, 1, &origin, &deep, kPool, 1, nullptr, offsets,
                                            nullptr, 0, &sink);
        expected = {kUpdate, "pTiledResourceRegionSizes[0]",
                    "the box 1x1x2 at (0,0,0) leaves Subresource 0 of 4x5x1 tiles"};
    }
    SECTION("a box whose NumTiles is not its volume") {
        D3D11_TILE_REGION_SIZE wrong = six;
        wrong.NumTiles = 5;
        result = state.update_tile_mappings(kTexture, 1, &origin, &wrong, kPool, 1, nullptr,
                                            offsets, nullptr, 0, &sink);
        expected = {kUpdate, "pTiledResourceRegionSizes[0]",
                    "NumTiles 5 does not match the box 2x3x1 (6 tiles)"};
    }
    SECTION("a linear region past the end of the resource") {
        const D3D11_TILE_REGION_SIZE past = tiles(21);
        result = state.update_tile_mappings(kBuffer, 1, &origin, &past, 0, 1, nullptr, offsets,
                                            nullptr, 0, &sink);
        expected = {kUpdate, "pTiledResourceRegionSizes[0]",
                    "NumTiles 21 runs past the end of the resource: 20 tiles follow the start in "
                    "subresource order"};
    }
    SECTION("an unknown range flag") {
        const UINT flags[2] = {0, 3};
        result = state.update_tile_mappings(kTexture, 1, &origin, &six, kPool, 2, flags, offsets,
                                            counts, 0, &sink);
        expected = {kUpdate, "pRangeFlags[1]",
                    "0x3 is not 0, D3D11_TILE_RANGE_NULL, D3D11_TILE_RANGE_SKIP or "
                    "D3D11_TILE_RANGE_REUSE_SINGLE_TILE"};
    }
    SECTION("range counts that do not add up to the regions") {
        const UINT short_counts[2] = {3, 2};
        result = state.update_tile_mappings(kTexture, 1, &origin, &six, kPool, 2, nullptr, offsets,
                                            short_counts, 0, &sink);
        expected = {kUpdate, "pRangeTileCounts", "the ranges cover 5 tiles but the regions 6"};
    }
    SECTION("NULL counts with several ranges mean 1 tile each") {
        result = state.update_tile_mappings(kTexture, 1, &origin, &six, kPool, 2, nullptr, offsets,
                                            nullptr, 0, &sink);
        expected = {
            kUpdate, "pRangeTileCounts",
            "the ranges cover 2 tiles (NULL counts mean 1 tile per range) but the regions 6"};
    }
    SECTION("NULL pool offsets when a range maps pool tiles") {
        const UINT flags[2] = {D3D11_TILE_RANGE_NULL, D3D11_TILE_RANGE_REUSE_SINGLE_TILE};
        result = state.update_tile_mappings(kTexture, 1, &origin, &six, kPool, 2, flags, nullptr,
                                            counts, 0, &sink);
        expected = {kUpdate, "pTilePoolStartOffsets",
                    "NULL, but range 1 maps pool tiles (flags 0x4)"};
    }
    SECTION("consecutive pool tiles past the end of the pool, after a pool switch would clear") {
        const UINT late[2] = {0, 14};
        result = state.update_tile_mappings(kTexture, 1, &origin, &six, kSecondPool, 2, nullptr,
                                            late, counts, 0, &sink);
        expected = {kUpdate, "pTilePoolStartOffsets[1]",
                    "pool tiles 14..16 are past the end of tile pool 101 of 16 tiles"};
    }
    SECTION("a single reused tile past the end of the current pool") {
        const UINT flags[2] = {0, D3D11_TILE_RANGE_REUSE_SINGLE_TILE};
        const UINT late[2] = {0, 16};
        result = state.update_tile_mappings(kTexture, 1, &origin, &six, 0, 2, flags, late, counts,
                                            0, &sink);
        expected = {kUpdate, "pTilePoolStartOffsets[1]",
                    "pool tiles 16..16 are past the end of tile pool 100 of 16 tiles"};
    }
    check_rejected(result, sink, expected, before, state);
}

TEST_CASE("CopyTileMappings rejects each bad argument by name and changes nothing",
          "[tiles][rejections]") {
    TileState state = mapped_state();
    const TileState before = state;
    RecordingSink sink;
    HRESULT result = S_OK;
    Expected expected{kCopy, "", ""};

    SECTION("a destination that is not tiled") {
        result = state.copy_tile_mappings(kPool, at(0, 0), kBuffer, at(0, 0), tiles(1), 0, &sink);
        expected = {kCopy, "pDestTiledResource", "object 100 is a tile pool, not a tiled resource"};
    }
    SECTION("a source that is not tiled") {
        result = state.copy_tile_mappings(kBuffer, at(0, 0), 0, at(0, 0), tiles(1), 0, &sink);
        expected = {kCopy, "pSourceTiledResource", "NULL is not a tiled resource"};
    }
    SECTION("flags other than NO_OVERWRITE") {
        result = state.copy_tile_mappings(kBuffer, at(0, 0), kBuffer, at(1, 0), tiles(1), 2, &sink);
        expected = {kCopy, "Flags",
                    "0x2 has bits other than D3D11_TILE_MAPPING_NO_OVERWRITE (0x1)"};
    }
    SECTION("a destination region outside its resource") {
        result =
            state.copy_tile_mappings(kTexture, at(3, 4), kBuffer, at(0, 0), tiles(2), 0, &sink);
        expected = {kCopy, "pTileRegionSize",
                    "in the destination: NumTiles 2 runs past the end of the resource: 1 tiles "
                    "follow the start in subresource order"};
    }
    SECTION("a destination start outside its resource") {
        result =
            state.copy_tile_mappings(kTexture, at(0, 5), kBuffer, at(0, 0), tiles(1), 0, &sink);
        expected = {kCopy, "pDestRegionStartCoordinate",
                    "in the destination: (0,5,0) is outside Subresource 0 of 4x5x1 tiles"};
    }
    SECTION("a source region outside its resource") {
        result =
            state.copy_tile_mappings(kTexture, at(0, 0), kBuffer, at(0, 0), box(2, 2), 0, &sink);
        expected = {kCopy, "pTileRegionSize",
                    "in the source: the box 2x2x1 at (0,0,0) leaves Subresource 0 of 20x1x1 tiles"};
    }
    SECTION("a source start outside its resource") {
        result =
            state.copy_tile_mappings(kTexture, at(0, 0), kBuffer, at(20, 0), tiles(1), 0, &sink);
        expected = {kCopy, "pSourceRegionStartCoordinate",
                    "in the source: (20,0,0) is outside Subresource 0 of 20x1x1 tiles"};
    }
    check_rejected(result, sink, expected, before, state);
}

TEST_CASE("ResizeTilePool rejects a size that is not whole tiles and anything but a pool",
          "[tiles][rejections]") {
    TileState state = mapped_state();
    const TileState before = state;
    RecordingSink sink;
    HRESULT result = S_OK;
    Expected expected{kResize, "", ""};
    SECTION("not a multiple of 64 KiB") {
        result = state.resize_tile_pool(kPool, 70000, &sink);
        expected = {kResize, "NewSizeInBytes", "70000 is not a multiple of 65536 (64 KiB)"};
    }
    SECTION("a tiled resource") {
        result = state.resize_tile_pool(kTexture, pool_bytes(1), &sink);
        expected = {kResize, "pTilePool", "object 1 is a tiled resource, not a tile pool"};
    }
    SECTION("a destroyed pool") {
        state.destroy(kSecondPool);
        result = state.resize_tile_pool(kSecondPool, pool_bytes(1), &sink);
        expected = {kResize, "pTilePool", "object 101 is not a tile pool"};
    }
    check_rejected(result, sink, expected, before, state);
}

TEST_CASE("creating pools and tiled resources checks ids, sizes and the tiling",
          "[tiles][rejections]") {
    TileState state;
    RecordingSink sink;
    CHECK(state.create_pool(kPool, 4096, &sink) == E_INVALIDARG);
    CHECK(state.create_pool(kPool, 65536 + 4096, &sink) == E_INVALIDARG);
    CHECK(state.create_pool(0, 65536, &sink) == E_INVALIDARG);
    REQUIRE(state.create_pool(kPool, 65536, &sink) == S_OK);
    // A pool of 0 bytes has no tiles until ResizeTilePool grows it.
    constexpr ObjectId kEmptyPool = 555;
    REQUIRE(state.create_pool(kEmptyPool, 0, &sink) == S_OK);
    CHECK(state.resize_tile_pool(kEmptyPool, 2 * 65536, &sink) == S_OK);
    CHECK(state.create_tiled_resource(kPool, tiled_buffer(2), &sink) == E_INVALIDARG);

    ResourceTiling overlapping = flat_texture(2, 2);
    overlapping.subresources[0].StartTileIndexInOverallResource = 1;
    CHECK(state.create_tiled_resource(kTexture, overlapping, &sink) == E_INVALIDARG);
    ResourceTiling short_list = texture_array();
    short_list.subresources.pop_back();
    CHECK(state.create_tiled_resource(kTexture, short_list, &sink) == E_INVALIDARG);

    REQUIRE(sink.messages.size() == 6);
    CHECK(sink.messages[0].call == "ID3D11Device::CreateBuffer");
    CHECK(sink.messages[0].parameter == "pDesc->ByteWidth");
    CHECK(sink.messages[0].text ==
          "4096 is not a multiple of 65536 (64 KiB), as a tile pool needs");
    CHECK(sink.messages[1].text ==
          "69632 is not a multiple of 65536 (64 KiB), as a tile pool needs");
    CHECK(sink.messages[2].text == "object id 0 means NULL");
    CHECK(sink.messages[3].text == "object 100 already exists");
    CHECK(sink.messages[4].parameter == "tiling");
    CHECK(sink.messages[4].text == "subresource 0 has tiles 1..4 past the resource's 4 tiles");
    CHECK(sink.messages[5].text == "11 subresource tilings for 4 mips x 3 slices");
    CHECK(state.pools() == std::vector<ObjectId>{kPool, kEmptyPool});
    CHECK(state.tiled_resources().empty());
}
