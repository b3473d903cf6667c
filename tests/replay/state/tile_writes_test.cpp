// Which tiles a recorded call writes the contents of: boxes of subresources
// to the tiles they touch, packed mips to the slice's packed tiles,
// UpdateTiles and CopyTiles regions as the tile rules walk them.
#include "replay/state/tile_writes.h"

#include "replay/state/timeline_support.h"

namespace {

using d3dcap::state::tiles_written;
namespace tiles = d3dcap::tiles;
namespace fb = d3dcap::fb;

constexpr tiles::ObjectId kPool = 2, kTexture = 7;

// A 1024x512 RGBA8 texture of 4 mips (tiles of 128x128): mip 0 is 8x4 tiles
// from 0, mip 1 4x2 from 32, mip 2 2x1 from 40, mip 3 (128x64) packed in
// tile 42. Every tile mapped to the pool tile of its own number.
tiles::TileState mapped_texture() {
    tiles::TileState state;
    REQUIRE(state.create_pool(kPool, 64 * 65536, nullptr) == S_OK);
    tiles::ResourceShape shape;
    shape.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
    shape.width = 1024;
    shape.height = 512;
    shape.mip_levels = 4;
    shape.format = DXGI_FORMAT_R8G8B8A8_UNORM;
    tiles::ResourceTiling tiling;
    REQUIRE(tiles::compute_tiling(shape, tiling, nullptr) == S_OK);
    REQUIRE(tiling.total_tiles == 43);
    REQUIRE(state.create_tiled_resource(kTexture, tiling, nullptr) == S_OK);
    const UINT zero = 0;
    REQUIRE(state.update_tile_mappings(kTexture, 0, nullptr, nullptr, kPool, 1, nullptr, &zero,
                                       nullptr, 0, nullptr) == S_OK);
    return state;
}

// The tiles of kTexture the call writes.
template <typename Params>
std::vector<std::uint32_t> written(flatbuffers::FlatBufferBuilder& b,
                                   flatbuffers::Offset<Params> params,
                                   const tiles::TileState& state) {
    d3dcap::trace::finish_call(b, d3dcap::trace::CallContext{1, 1, 0, 1, false}, params);
    const auto* record = flatbuffers::GetSizePrefixedRoot<d3dcap::fb::Record>(b.GetBufferPointer());
    CHECK(d3dcap::state::may_write_tiles(record->header()->call()));
    const auto writes = tiles_written(*record, state);
    b.Clear();
    if (writes.empty()) return {};
    CHECK(writes.size() == 1);
    CHECK(writes[0].resource == kTexture);
    return writes[0].tiles;
}

using Tiles = std::vector<std::uint32_t>;

}  // namespace

TEST_CASE("the tiles a call writes: boxes, whole subresources, packed mips, tile regions",
          "[state][writes]") {
    const tiles::TileState state = mapped_texture();
    flatbuffers::FlatBufferBuilder b;
    // Texels 130-259 x 10-139 of mip 0: tile columns 1-2 of rows 0-1.
    const fb::D3D11_BOX box(130, 10, 0, 260, 140, 1);
    CHECK(written(b, fb::CreateID3D11DeviceContext_UpdateSubresource(b, kTexture, 0, &box),
                  state) == Tiles{1, 2, 9, 10});
    // Mip 1 whole.
    CHECK(written(b, fb::CreateID3D11DeviceContext1_UpdateSubresource1(b, kTexture, 1), state) ==
          Tiles{32, 33, 34, 35, 36, 37, 38, 39});
    // Mip 3 lies in the packed tile.
    CHECK(written(b, fb::CreateID3D11DeviceContext1_UpdateSubresource1(b, kTexture, 3), state) ==
          Tiles{42});
    // 100x100 texels copied to (1000, 500): clamped to the last tile, (7, 3).
    const fb::D3D11_BOX source(0, 0, 0, 100, 100, 1);
    CHECK(written(b,
                  fb::CreateID3D11DeviceContext_CopySubresourceRegion(b, kTexture, 0, 1000, 500, 0,
                                                                      9, 0, &source),
                  state) == Tiles{31});
    // Without a source box: to the end of the subresource.
    CHECK(written(b,
                  fb::CreateID3D11DeviceContext_CopySubresourceRegion(b, kTexture, 2, 200, 0, 0, 9),
                  state) == Tiles{41});
    // Three tiles in a row from (1, 1) of mip 0.
    const fb::D3D11_TILED_RESOURCE_COORDINATE at(1, 1, 0, 0);
    const fb::D3D11_TILE_REGION_SIZE three(3, 0, 0, 0, 0);
    CHECK(written(b, fb::CreateID3D11DeviceContext2_UpdateTiles(b, kTexture, &at, &three), state) ==
          Tiles{9, 10, 11});
    // A 1x2 box of tiles of mip 1, from a buffer into the texture; the other
    // direction writes nothing of it.
    const fb::D3D11_TILED_RESOURCE_COORDINATE mip1(0, 0, 0, 1);
    const fb::D3D11_TILE_REGION_SIZE column(2, 1, 1, 2, 1);
    CHECK(written(b,
                  fb::CreateID3D11DeviceContext2_CopyTiles(
                      b, kTexture, &mip1, &column, 9, 0,
                      D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE),
                  state) == Tiles{32, 36});
    CHECK(written(b,
                  fb::CreateID3D11DeviceContext2_CopyTiles(
                      b, kTexture, &mip1, &column, 9, 0,
                      D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER),
                  state)
              .empty());
    // CopyResource: every tile.
    const Tiles all = written(b, fb::CreateID3D11DeviceContext_CopyResource(b, kTexture, 9), state);
    CHECK(all.size() == 43);
    CHECK(all.back() == 42);
    // A resource that is not tiled, and a call that writes nothing.
    CHECK(written(b, fb::CreateID3D11DeviceContext_CopyResource(b, 9, kTexture), state).empty());
    d3dcap::trace::finish_call(b, d3dcap::trace::CallContext{1, 1, 0, 1, false},
                               fb::CreateID3D11DeviceContext_Draw(b, 3, 0));
    const auto* draw = flatbuffers::GetSizePrefixedRoot<d3dcap::fb::Record>(b.GetBufferPointer());
    CHECK_FALSE(d3dcap::state::may_write_tiles(draw->header()->call()));
    CHECK(tiles_written(*draw, state).empty());
}
