// The documented tiled-resource rules one at a time: pools, defaults, packed mips,
// walks, CopyTileMappings, ResizeTilePool, object lifetime and copy-on-write.
#include <catch2/catch.hpp>
#include <cstdint>
#include <utility>
#include <vector>

#include "runtime/tiles/tile_state.h"
#include "runtime/tiles/tiling_fixtures.h"

using d3dcap::runtime::tiles::kNullTile;
using d3dcap::runtime::tiles::ObjectId;
using d3dcap::runtime::tiles::TileMapping;
using d3dcap::runtime::tiles::TileRef;
using d3dcap::runtime::tiles::TileState;
using namespace tile_tests;

namespace {

constexpr std::uint32_t N = kNullTile;
constexpr ObjectId kResource = 1;
constexpr ObjectId kOther = 2;
constexpr ObjectId kPoolA = 100;
constexpr ObjectId kPoolB = 101;

const UINT kNullRange = D3D11_TILE_RANGE_NULL;
const UINT kReuse = D3D11_TILE_RANGE_REUSE_SINGLE_TILE;

// Maps `count` tiles from the first tile linearly onto consecutive pool tiles.
HRESULT map_linear(TileState& state, ObjectId resource, UINT first_tile, UINT count, ObjectId pool,
                   UINT pool_offset) {
    const D3D11_TILED_RESOURCE_COORDINATE start = at(first_tile, 0);
    const D3D11_TILE_REGION_SIZE size = tiles(count);
    return state.update_tile_mappings(resource, 1, &start, &size, pool, 1, nullptr, &pool_offset,
                                      nullptr, 0, nullptr);
}

// Overall tile indices of a region, in walk order.
std::vector<std::uint32_t> walked(const TileState& state, ObjectId resource,
                                  const D3D11_TILED_RESOURCE_COORDINATE& start,
                                  const D3D11_TILE_REGION_SIZE& size) {
    std::vector<TileRef> refs;
    REQUIRE(state.region_tiles(resource, start, size, refs, "ID3D11DeviceContext2::CopyTiles",
                               nullptr) == S_OK);
    std::vector<std::uint32_t> result;
    for (const TileRef& ref : refs) result.push_back(ref.tile);
    return result;
}

TileState buffer_on_pools(std::uint32_t buffer_tiles) {
    TileState state;
    REQUIRE(state.create_pool(kPoolA, pool_bytes(16), nullptr) == S_OK);
    REQUIRE(state.create_pool(kPoolB, pool_bytes(16), nullptr) == S_OK);
    REQUIRE(state.create_tiled_resource(kResource, tiled_buffer(buffer_tiles), nullptr) == S_OK);
    return state;
}

}  // namespace

TEST_CASE("naming a different pool clears every old mapping first", "[tiles][pool]") {
    TileState state = buffer_on_pools(8);
    REQUIRE(map_linear(state, kResource, 0, 8, kPoolA, 0) == S_OK);
    REQUIRE(state.pool_of(kResource) == kPoolA);

    REQUIRE(map_linear(state, kResource, 3, 1, kPoolB, 5) == S_OK);
    CHECK(state.pool_of(kResource) == kPoolB);
    CHECK(pool_tile_table(state, kResource) == std::vector<std::uint32_t>{N, N, N, 5, N, N, N, N});
    CHECK(state.mapping(kResource, 3).pool == kPoolB);
    CHECK(state.references(kPoolA, 0).empty());
    CHECK(state.references(kPoolB, 5) ==
          std::vector<std::pair<ObjectId, std::uint32_t>>{{kResource, 3}});

    SECTION("even when every range is NULL") {
        const D3D11_TILED_RESOURCE_COORDINATE start = at(0, 0);
        REQUIRE(state.update_tile_mappings(kResource, 1, &start, nullptr, kPoolA, 1, &kNullRange,
                                           nullptr, nullptr, 0, nullptr) == S_OK);
        CHECK(state.pool_of(kResource) == kPoolA);
        CHECK(pool_tile_table(state, kResource) == std::vector<std::uint32_t>(8, N));
    }
    SECTION("but the same pool or NULL adds to the mappings") {
        REQUIRE(map_linear(state, kResource, 0, 1, kPoolB, 9) == S_OK);
        REQUIRE(map_linear(state, kResource, 7, 1, 0, 2) == S_OK);
        CHECK(state.pool_of(kResource) == kPoolB);
        CHECK(pool_tile_table(state, kResource) ==
              std::vector<std::uint32_t>{9, N, N, 5, N, N, N, 2});
        CHECK(state.mapping(kResource, 7).pool == kPoolB);
    }
}

TEST_CASE("a NULL pool is refused only when ranges need memory and there never was a pool",
          "[tiles][pool]") {
    TileState state = buffer_on_pools(4);
    RecordingSink sink;
    const D3D11_TILED_RESOURCE_COORDINATE start = at(0, 0);
    const D3D11_TILE_REGION_SIZE two = tiles(2);
    const UINT offset = 0;

    SECTION("consecutive pool tiles") {
        CHECK(state.update_tile_mappings(kResource, 1, &start, &two, 0, 1, nullptr, &offset,
                                         nullptr, 0, &sink) == E_INVALIDARG);
        REQUIRE(sink.messages.size() == 1);
        CHECK(sink.messages[0].parameter == "pTilePool");
        CHECK(sink.messages[0].text ==
              "NULL, but the resource has never been given a tile pool and range 0 maps pool "
              "tiles (flags 0x0)");
    }
    SECTION("a single reused tile") {
        CHECK(state.update_tile_mappings(kResource, 1, &start, &two, 0, 1, &kReuse, &offset,
                                         nullptr, 0, &sink) == E_INVALIDARG);
        REQUIRE(sink.messages.size() == 1);
        CHECK(sink.messages[0].text ==
              "NULL, but the resource has never been given a tile pool and range 0 maps pool "
              "tiles (flags 0x4)");
    }
    SECTION("NULL and SKIP ranges need no pool") {
        const UINT flags[2] = {D3D11_TILE_RANGE_NULL, D3D11_TILE_RANGE_SKIP};
        CHECK(state.update_tile_mappings(kResource, 1, &start, &two, 0, 2, flags, nullptr, nullptr,
                                         0, &sink) == S_OK);
        CHECK(sink.messages.empty());
        CHECK(state.pool_of(kResource) == 0);
    }
    SECTION("a range of 0 tiles needs no pool") {
        const UINT flags[2] = {0, D3D11_TILE_RANGE_NULL};
        const UINT counts[2] = {0, 2};
        const UINT offsets[2] = {99, 0};
        CHECK(state.update_tile_mappings(kResource, 1, &start, &two, 0, 2, flags, offsets, counts,
                                         0, &sink) == S_OK);
        CHECK(sink.messages.empty());
    }
    CHECK(pool_tile_table(state, kResource) == std::vector<std::uint32_t>(4, N));
}

TEST_CASE("NULL arrays take the documented defaults", "[tiles][defaults]") {
    TileState state = buffer_on_pools(6);
    SECTION("one range with NULL counts covers every tile of every region") {
        const D3D11_TILED_RESOURCE_COORDINATE starts[2] = {at(0, 0), at(4, 0)};
        const D3D11_TILE_REGION_SIZE sizes[2] = {tiles(2), tiles(2)};
        const UINT offset = 10;
        REQUIRE(state.update_tile_mappings(kResource, 2, starts, sizes, kPoolA, 1, nullptr, &offset,
                                           nullptr, 0, nullptr) == S_OK);
        CHECK(pool_tile_table(state, kResource) ==
              std::vector<std::uint32_t>{10, 11, N, N, 12, 13});
    }
    SECTION("NULL starts with given sizes start at the origin") {
        const D3D11_TILE_REGION_SIZE size = tiles(3);
        const UINT offset = 4;
        REQUIRE(state.update_tile_mappings(kResource, 1, nullptr, &size, kPoolA, 1, &kReuse,
                                           &offset, nullptr, 0, nullptr) == S_OK);
        CHECK(pool_tile_table(state, kResource) == std::vector<std::uint32_t>{4, 4, 4, N, N, N});
    }
    SECTION("ranges need not line up with regions, and empty ranges are passed over") {
        const D3D11_TILED_RESOURCE_COORDINATE starts[2] = {at(0, 0), at(3, 0)};
        const D3D11_TILE_REGION_SIZE sizes[2] = {tiles(2), tiles(3)};
        const UINT flags[4] = {0, 0, D3D11_TILE_RANGE_REUSE_SINGLE_TILE, 0};
        const UINT offsets[4] = {7, 1000, 2, 14};
        const UINT counts[4] = {3, 0, 1, 1};
        REQUIRE(state.update_tile_mappings(kResource, 2, starts, sizes, kPoolA, 4, flags, offsets,
                                           counts, 0, nullptr) == S_OK);
        CHECK(pool_tile_table(state, kResource) == std::vector<std::uint32_t>{7, 8, N, 9, 2, 14});
    }
    SECTION("later regions override earlier ones") {
        const D3D11_TILED_RESOURCE_COORDINATE starts[2] = {at(0, 0), at(2, 0)};
        const D3D11_TILE_REGION_SIZE sizes[2] = {tiles(4), tiles(1)};
        const UINT offsets[2] = {0, 9};
        const UINT counts[2] = {4, 1};
        REQUIRE(state.update_tile_mappings(kResource, 2, starts, sizes, kPoolA, 2, nullptr, offsets,
                                           counts, 0, nullptr) == S_OK);
        CHECK(pool_tile_table(state, kResource) == std::vector<std::uint32_t>{0, 1, 9, 3, N, N});
    }
}

TEST_CASE("packed mips are addressed through the first packed mip of their slice",
          "[tiles][packed]") {
    TileState state;
    RecordingSink sink;
    REQUIRE(state.create_pool(kPoolA, pool_bytes(16), nullptr) == S_OK);
    REQUIRE(state.create_tiled_resource(kResource, mipped_texture(), nullptr) == S_OK);
    REQUIRE(state.create_tiled_resource(kOther, texture_array(), nullptr) == S_OK);
    std::vector<TileRef> refs;

    // mipped_texture: mips 0..2 standard (tiles 0..63), mips 3 and 4 packed in tiles 64, 65.
    CHECK(walked(state, kResource, at(1, 0, 0, 3), tiles(1)) == std::vector<std::uint32_t>{65});
    CHECK(walked(state, kResource, at(1, 1, 0, 2), tiles(3)) ==
          std::vector<std::uint32_t>{63, 64, 65});
    REQUIRE(state.region_tiles(kResource, at(0, 0, 0, 3), tiles(2), refs,
                               "ID3D11DeviceContext2::CopyTiles", nullptr) == S_OK);
    REQUIRE(refs.size() == 2);
    CHECK((refs[1].subresource == 3 && refs[1].x == 1 && refs[1].y == 0 && refs[1].tile == 65));

    // texture_array: 22 tiles a slice, subresource = mip + 4 * slice, packed at 22s+20, 22s+21.
    CHECK(walked(state, kOther, at(0, 0, 0, 10), tiles(2)) == std::vector<std::uint32_t>{64, 65});
    CHECK(state.tiling(kOther)->packed_start(2) == 64);
    // From the last tile of mip 1 of slice 0 on through the packed set into slice 1.
    CHECK(walked(state, kOther, at(1, 1, 0, 1), tiles(4)) ==
          std::vector<std::uint32_t>{19, 20, 21, 22});

    const UINT offset = 3;
    const D3D11_TILED_RESOURCE_COORDINATE packed = at(0, 0, 0, 10);
    const D3D11_TILE_REGION_SIZE both = tiles(2);
    REQUIRE(state.update_tile_mappings(kOther, 1, &packed, &both, kPoolA, 1, nullptr, &offset,
                                       nullptr, 0, &sink) == S_OK);
    CHECK(state.mapping(kOther, 64).pool_tile == 3);
    CHECK(state.mapping(kOther, 65).pool_tile == 4);
    CHECK(state.mapping(kOther, 42).pool_tile == N);  // slice 1's packed tiles stay NULL

    SECTION("a box cannot address them") {
        const D3D11_TILED_RESOURCE_COORDINATE start = at(0, 0, 0, 3);
        const D3D11_TILE_REGION_SIZE one = box(1, 1);
        CHECK(state.update_tile_mappings(kResource, 1, &start, &one, kPoolA, 1, nullptr, &offset,
                                         nullptr, 0, &sink) == E_INVALIDARG);
        REQUIRE(sink.messages.size() == 1);
        CHECK(sink.messages[0].parameter == "pTiledResourceRegionStartCoordinates[0]");
        CHECK(sink.messages[0].text ==
              "Subresource 3 is a packed mip, which only regions with bUseBox FALSE can address");
    }
    SECTION("nor a later packed mip") {
        const D3D11_TILED_RESOURCE_COORDINATE start = at(0, 0, 0, 4);
        CHECK(state.update_tile_mappings(kResource, 1, &start, nullptr, kPoolA, 1, nullptr, &offset,
                                         nullptr, 0, &sink) == E_INVALIDARG);
        REQUIRE(sink.messages.size() == 1);
        CHECK(sink.messages[0].text ==
              "Subresource 4 is a packed mip; packed mips are addressed through Subresource 3, "
              "the first packed mip of slice 0");
    }
    SECTION("nor a tile past the packed set, nor Y or Z") {
        const D3D11_TILED_RESOURCE_COORDINATE starts[2] = {at(2, 0, 0, 3), at(0, 1, 0, 3)};
        CHECK(state.update_tile_mappings(kResource, 1, &starts[0], nullptr, kPoolA, 1, nullptr,
                                         &offset, nullptr, 0, &sink) == E_INVALIDARG);
        CHECK(state.update_tile_mappings(kResource, 1, &starts[1], nullptr, kPoolA, 1, nullptr,
                                         &offset, nullptr, 0, &sink) == E_INVALIDARG);
        REQUIRE(sink.messages.size() == 2);
        CHECK(sink.messages[0].text == "X 2 is past the 2 packed tiles of slice 0");
        CHECK(sink.messages[1].text == "Y and Z must be 0 in packed mips (they are 1 and 0)");
    }
    SECTION(
        "region_tiles refuses a box on them too, naming the CopyTiles or UpdateTiles parameter") {
        CHECK(state.region_tiles(kResource, at(0, 0, 0, 3), box(1, 1), refs,
                                 "ID3D11DeviceContext2::UpdateTiles", &sink) == E_INVALIDARG);
        CHECK(refs.empty());
        REQUIRE(sink.messages.size() == 1);
        CHECK(sink.messages[0].call == "ID3D11DeviceContext2::UpdateTiles");
        CHECK(sink.messages[0].parameter == "pDestTileRegionStartCoordinate");
    }
}

TEST_CASE("boxes walk X, then Y, then Z, and Depth steps through array slices", "[tiles][walk]") {
    TileState state;
    REQUIRE(state.create_tiled_resource(kResource, volume_texture(), nullptr) == S_OK);
    REQUIRE(state.create_tiled_resource(kOther, texture_array(), nullptr) == S_OK);

    // volume_texture: mip 0 is 4x3x2 (tiles 0..23), mip 1 is 2x2x1 (24..27).
    CHECK(walked(state, kResource, at(1, 1, 0), box(2, 2, 2)) ==
          std::vector<std::uint32_t>{5, 6, 9, 10, 17, 18, 21, 22});
    CHECK(walked(state, kResource, at(3, 2, 0), tiles(3)) ==
          std::vector<std::uint32_t>{11, 12, 13});
    CHECK(walked(state, kResource, at(3, 2, 1), tiles(3)) ==
          std::vector<std::uint32_t>{23, 24, 25});

    // texture_array: mip 1 of slice s starts at 22s+16 and is 2x2.
    std::vector<TileRef> refs;
    REQUIRE(state.region_tiles(kOther, at(0, 1, 0, 1), box(2, 1, 3), refs,
                               "ID3D11DeviceContext2::CopyTiles", nullptr) == S_OK);
    std::vector<std::uint32_t> order, subresources;
    for (const TileRef& ref : refs) {
        order.push_back(ref.tile);
        subresources.push_back(ref.subresource);
    }
    CHECK(order == std::vector<std::uint32_t>{18, 19, 40, 41, 62, 63});
    CHECK(subresources == std::vector<std::uint32_t>{1, 1, 5, 5, 9, 9});

    RecordingSink sink;
    CHECK(state.region_tiles(kOther, at(0, 1, 0, 1), box(2, 1, 4), refs,
                             "ID3D11DeviceContext2::CopyTiles", &sink) == E_INVALIDARG);
    REQUIRE(sink.messages.size() == 1);
    CHECK(sink.messages[0].parameter == "pTileRegionSize");
    CHECK(sink.messages[0].text == "the box's Depth 4 from slice 0 leaves the array of 3 slices");
}

TEST_CASE("the tiles an UpdateTileMappings call covers are named with its defaults",
          "[tiles][walk]") {
    TileState state;
    REQUIRE(state.create_tiled_resource(kResource, volume_texture(), nullptr) == S_OK);
    // volume_texture: mip 0 is 4x3x2 (tiles 0..23), mip 1 is 2x2x1 (24..27).
    const D3D11_TILED_RESOURCE_COORDINATE starts[2] = {at(1, 1, 0), at(3, 2, 1)};
    const D3D11_TILE_REGION_SIZE sizes[2] = {box(2, 2, 2), tiles(3)};
    CHECK(state.mapping_region_tiles(kResource, 2, starts, sizes) ==
          std::vector<std::uint32_t>{5, 6, 9, 10, 17, 18, 21, 22, 23, 24, 25});
    // Overlapping regions name a tile twice; NULL sizes are one tile each.
    const D3D11_TILED_RESOURCE_COORDINATE twice[2] = {at(2, 0, 0), at(2, 0, 0)};
    CHECK(state.mapping_region_tiles(kResource, 2, twice, nullptr) ==
          std::vector<std::uint32_t>{2, 2});
    // NULL starts and sizes: the whole resource, in order.
    const std::vector<std::uint32_t> every =
        state.mapping_region_tiles(kResource, 1, nullptr, nullptr);
    REQUIRE(every.size() == 28);
    CHECK(every.front() == 0);
    CHECK(every.back() == 27);
    // A region that leaves the resource, NULL starts for two regions, or no resource: none.
    const D3D11_TILE_REGION_SIZE too_deep = box(2, 2, 3);
    CHECK(state.mapping_region_tiles(kResource, 1, starts, &too_deep).empty());
    CHECK(state.mapping_region_tiles(kResource, 2, nullptr, sizes).empty());
    CHECK(state.mapping_region_tiles(kOther, 1, nullptr, nullptr).empty());
}

TEST_CASE("CopyTileMappings copies as if through a temporary", "[tiles][copy]") {
    TileState state = buffer_on_pools(10);
    REQUIRE(map_linear(state, kResource, 0, 10, kPoolA, 0) == S_OK);
    SECTION("forwards") {
        REQUIRE(state.copy_tile_mappings(kResource, at(2, 0), kResource, at(0, 0), tiles(6), 0,
                                         nullptr) == S_OK);
        CHECK(pool_tile_table(state, kResource) ==
              std::vector<std::uint32_t>{0, 1, 0, 1, 2, 3, 4, 5, 8, 9});
    }
    SECTION("backwards") {
        REQUIRE(state.copy_tile_mappings(kResource, at(0, 0), kResource, at(2, 0), tiles(6),
                                         D3D11_TILE_MAPPING_NO_OVERWRITE, nullptr) == S_OK);
        CHECK(pool_tile_table(state, kResource) ==
              std::vector<std::uint32_t>{2, 3, 4, 5, 6, 7, 6, 7, 8, 9});
    }
}

TEST_CASE("CopyTileMappings scrolls a 2D box by a row", "[tiles][copy]") {
    TileState state;
    REQUIRE(state.create_pool(kPoolA, pool_bytes(16), nullptr) == S_OK);
    REQUIRE(state.create_tiled_resource(kResource, flat_texture(3, 3), nullptr) == S_OK);
    const UINT offset = 0;
    REQUIRE(state.update_tile_mappings(kResource, 1, nullptr, nullptr, kPoolA, 1, nullptr, &offset,
                                       nullptr, 0, nullptr) == S_OK);
    REQUIRE(state.copy_tile_mappings(kResource, at(0, 0), kResource, at(0, 1), box(3, 2), 0,
                                     nullptr) == S_OK);
    // clang-format off
    CHECK(pool_tile_table(state, kResource) == std::vector<std::uint32_t>{
        3, 4, 5,
        6, 7, 8,
        6, 7, 8});
    // clang-format on
}

TEST_CASE("CopyTileMappings leaves the destination on the source's pool", "[tiles][copy]") {
    TileState state = buffer_on_pools(4);
    REQUIRE(state.create_tiled_resource(kOther, tiled_buffer(4), nullptr) == S_OK);
    REQUIRE(map_linear(state, kResource, 0, 4, kPoolA, 8) == S_OK);

    SECTION("switching it, which clears its other tiles") {
        REQUIRE(map_linear(state, kOther, 0, 4, kPoolB, 0) == S_OK);
        REQUIRE(state.copy_tile_mappings(kOther, at(1, 0), kResource, at(2, 0), tiles(2), 0,
                                         nullptr) == S_OK);
        CHECK(state.pool_of(kOther) == kPoolA);
        CHECK(pool_tile_table(state, kOther) == std::vector<std::uint32_t>{N, 10, 11, N});
        CHECK(state.references(kPoolA, 10) ==
              std::vector<std::pair<ObjectId, std::uint32_t>>{{kResource, 2}, {kOther, 1}});
        CHECK(state.referenced_pool_tiles(kPoolA) == std::vector<std::uint32_t>{8, 9, 10, 11});
        CHECK(state.referenced_pool_tiles(kPoolB).empty());
    }
    SECTION("a source that never had a pool copies NULL and leaves the pool alone") {
        REQUIRE(map_linear(state, kOther, 0, 4, kPoolB, 0) == S_OK);
        REQUIRE(state.create_tiled_resource(3, tiled_buffer(4), nullptr) == S_OK);
        REQUIRE(state.copy_tile_mappings(kOther, at(0, 0), 3, at(0, 0), tiles(2), 0, nullptr) ==
                S_OK);
        CHECK(state.pool_of(kOther) == kPoolB);
        CHECK(pool_tile_table(state, kOther) == std::vector<std::uint32_t>{N, N, 2, 3});
    }
}

TEST_CASE("shrinking a pool keeps the mappings past its new end", "[tiles][resize]") {
    TileState state = buffer_on_pools(8);
    RecordingSink sink;
    REQUIRE(map_linear(state, kResource, 0, 8, kPoolA, 8) == S_OK);
    REQUIRE(state.resize_tile_pool(kPoolA, pool_bytes(4), &sink) == S_OK);
    CHECK(state.pool_tiles(kPoolA) == 4);
    CHECK(pool_tile_table(state, kResource) ==
          std::vector<std::uint32_t>{8, 9, 10, 11, 12, 13, 14, 15});

    // New mappings only below the new end.
    CHECK(map_linear(state, kResource, 0, 1, kPoolA, 4) == E_INVALIDARG);
    CHECK(map_linear(state, kResource, 0, 2, 0, 3) == E_INVALIDARG);
    CHECK(map_linear(state, kResource, 0, 1, kPoolA, 3) == S_OK);
    CHECK(state.mapping(kResource, 0).pool_tile == 3);

    // Growing again: the old mappings are still there, and the new tiles usable.
    REQUIRE(state.resize_tile_pool(kPoolA, pool_bytes(32), &sink) == S_OK);
    CHECK(map_linear(state, kResource, 1, 1, kPoolA, 31) == S_OK);
    CHECK(pool_tile_table(state, kResource) ==
          std::vector<std::uint32_t>{3, 31, 10, 11, 12, 13, 14, 15});
    REQUIRE(state.resize_tile_pool(kPoolA, 0, &sink) == S_OK);
    CHECK(state.pool_tiles(kPoolA) == 0);
    CHECK(state.mapping(kResource, 7).pool_tile == 15);
    CHECK(state.referenced_pool_tiles(kPoolA) ==
          std::vector<std::uint32_t>{3, 10, 11, 12, 13, 14, 15, 31});
    CHECK(sink.messages.empty());
}

TEST_CASE("a destroyed pool lives on while a resource refers to it", "[tiles][lifetime]") {
    TileState state = buffer_on_pools(4);
    REQUIRE(map_linear(state, kResource, 0, 2, kPoolA, 6) == S_OK);
    state.destroy(kPoolA);
    CHECK_FALSE(state.is_pool(kPoolA));
    CHECK(state.pools() == std::vector<ObjectId>{kPoolB});
    CHECK(state.pool_tiles(kPoolA) == 16);
    CHECK(state.mapping(kResource, 1).pool == kPoolA);
    CHECK(state.references(kPoolA, 7) ==
          std::vector<std::pair<ObjectId, std::uint32_t>>{{kResource, 1}});

    CHECK(map_linear(state, kResource, 2, 1, kPoolA, 0) == E_INVALIDARG);  // the app let it go
    CHECK(map_linear(state, kResource, 2, 1, 0, 8) == S_OK);  // but the resource still has it
    CHECK(pool_tile_table(state, kResource) == std::vector<std::uint32_t>{6, 7, 8, N});

    REQUIRE(map_linear(state, kResource, 0, 1, kPoolB, 0) == S_OK);
    CHECK(state.pool_tiles(kPoolA) == 0);  // gone with its last reference
    CHECK(state.referenced_pool_tiles(kPoolA).empty());
    CHECK(state.references(kPoolA, 7).empty());

    state.destroy(kResource);
    CHECK_FALSE(state.is_tiled_resource(kResource));
    CHECK(state.tiled_resources().empty());
    CHECK(state.mappings(kResource).empty());
}

TEST_CASE("a copy of the state keeps the mappings it was taken with", "[tiles][cow]") {
    TileState state = buffer_on_pools(4);
    REQUIRE(state.create_tiled_resource(kOther, tiled_buffer(4), nullptr) == S_OK);
    REQUIRE(map_linear(state, kResource, 0, 4, kPoolA, 0) == S_OK);
    REQUIRE(map_linear(state, kOther, 0, 4, kPoolB, 4) == S_OK);

    TileState checkpoint = state;
    CHECK(checkpoint.tiling(kResource) == state.tiling(kResource));  // shared, not copied

    REQUIRE(map_linear(state, kResource, 1, 2, kPoolA, 12) == S_OK);
    REQUIRE(state.resize_tile_pool(kPoolA, pool_bytes(2), nullptr) == S_OK);
    state.destroy(kOther);

    CHECK(pool_tile_table(checkpoint, kResource) == std::vector<std::uint32_t>{0, 1, 2, 3});
    CHECK(pool_tile_table(checkpoint, kOther) == std::vector<std::uint32_t>{4, 5, 6, 7});
    CHECK(checkpoint.pool_tiles(kPoolA) == 16);
    CHECK(pool_tile_table(state, kResource) == std::vector<std::uint32_t>{0, 12, 13, 3});
    CHECK(state.pool_tiles(kPoolA) == 2);
    CHECK_FALSE(state.is_tiled_resource(kOther));
    // The tiling is still shared after the resource's mapping was copied.
    CHECK(checkpoint.tiling(kResource) == state.tiling(kResource));

    SECTION("and changing the copy leaves the original alone") {
        REQUIRE(map_linear(checkpoint, kResource, 0, 1, kPoolA, 9) == S_OK);
        CHECK(pool_tile_table(checkpoint, kResource) == std::vector<std::uint32_t>{9, 1, 2, 3});
        CHECK(pool_tile_table(state, kResource) == std::vector<std::uint32_t>{0, 12, 13, 3});
    }
    SECTION("assignment and moves share the same way") {
        TileState assigned;
        assigned = checkpoint;
        TileState moved = std::move(checkpoint);
        REQUIRE(map_linear(moved, kResource, 3, 1, kPoolA, 15) == S_OK);
        CHECK(pool_tile_table(assigned, kResource) == std::vector<std::uint32_t>{0, 1, 2, 3});
        CHECK(pool_tile_table(moved, kResource) == std::vector<std::uint32_t>{0, 1, 2, 15});
    }
}

TEST_CASE("a default state is empty and its copies are independent", "[tiles][cow]") {
    TileState first;
    TileState second;
    REQUIRE(first.create_pool(kPoolA, pool_bytes(1), nullptr) == S_OK);
    CHECK(first.pools() == std::vector<ObjectId>{kPoolA});
    CHECK(second.pools().empty());
    CHECK_FALSE(second.is_pool(kPoolA));
    CHECK(second.mapping(kResource, 0).pool == 0);
    CHECK(second.mapping(kResource, 0).pool_tile == N);
}
