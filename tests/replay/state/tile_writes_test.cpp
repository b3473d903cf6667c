// Which tiles a recorded call writes the contents of: boxes of subresources
// to the tiles they touch, packed mips to the slice's packed tiles,
// UpdateTiles and CopyTiles regions as the tile rules walk them, views'
// subresources for clears, draws and dispatches, nothing on deferred
// contexts.
#include "replay/state/tile_writes.h"

#include "replay/state/timeline_support.h"

namespace {

using d3dcap::state::TileWriteTracker;
namespace tiles = d3dcap::runtime::tiles;
namespace fb = d3dcap::fb;

constexpr tiles::ObjectId kPool = 2, kTexture = 7, kBuffer = 8;

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
    // A tiled buffer of 4 tiles, on pool tiles 50-53.
    tiles::ResourceShape buffer;
    buffer.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
    buffer.byte_width = 4 * 65536;
    tiles::ResourceTiling buffer_tiling;
    REQUIRE(tiles::compute_tiling(buffer, buffer_tiling, nullptr) == S_OK);
    REQUIRE(state.create_tiled_resource(kBuffer, buffer_tiling, nullptr) == S_OK);
    const UINT fifty = 50;
    REQUIRE(state.update_tile_mappings(kBuffer, 0, nullptr, nullptr, kPool, 1, nullptr, &fifty,
                                       nullptr, 0, nullptr) == S_OK);
    return state;
}

// Pointers stand for ids: (ID3D11Resource*)7 is object 7.
struct PointerIds : d3dcap::api::ObjectIds {
    std::uint64_t id_of(const void* object) override {
        return reinterpret_cast<std::uintptr_t>(object);
    }
};
template <class I>
I* object(std::uint64_t id) {
    return reinterpret_cast<I*>(static_cast<std::uintptr_t>(id));
}

// Follows a call made on context 1 (the immediate context), and returns the
// tiles of resource it writes.
template <typename Params>
std::vector<std::uint32_t> written(TileWriteTracker& tracker, flatbuffers::FlatBufferBuilder& b,
                                   flatbuffers::Offset<Params> params,
                                   const tiles::TileState& state,
                                   tiles::ObjectId resource = kTexture, std::uint64_t context = 1) {
    d3dcap::trace::finish_call(b, d3dcap::trace::CallContext{context, context, 0, 1, false},
                               params);
    const auto* record = flatbuffers::GetSizePrefixedRoot<d3dcap::fb::Record>(b.GetBufferPointer());
    const bool writes_maybe = tracker.follow(*record);
    const auto writes = tracker.tiles_written(*record, state);
    b.Clear();
    if (writes.empty()) return {};
    CHECK(writes_maybe);
    CHECK(writes.size() == 1);
    CHECK(writes[0].resource == resource);
    return writes[0].tiles;
}

using Tiles = std::vector<std::uint32_t>;

}  // namespace

TEST_CASE("the tiles a call writes: boxes, whole subresources, packed mips, tile regions",
          "[state][writes]") {
    const tiles::TileState state = mapped_texture();
    TileWriteTracker tracker;
    flatbuffers::FlatBufferBuilder b;
    // Texels 130-259 x 10-139 of mip 0: tile columns 1-2 of rows 0-1.
    const fb::D3D11_BOX box(130, 10, 0, 260, 140, 1);
    CHECK(written(tracker, b, fb::CreateID3D11DeviceContext_UpdateSubresource(b, kTexture, 0, &box),
                  state) == Tiles{1, 2, 9, 10});
    // Mip 1 whole.
    CHECK(written(tracker, b, fb::CreateID3D11DeviceContext1_UpdateSubresource1(b, kTexture, 1),
                  state) == Tiles{32, 33, 34, 35, 36, 37, 38, 39});
    // Mip 3 lies in the packed tile.
    CHECK(written(tracker, b, fb::CreateID3D11DeviceContext1_UpdateSubresource1(b, kTexture, 3),
                  state) == Tiles{42});
    // 100x100 texels copied to (1000, 500): clamped to the last tile, (7, 3).
    const fb::D3D11_BOX source(0, 0, 0, 100, 100, 1);
    CHECK(written(tracker, b,
                  fb::CreateID3D11DeviceContext_CopySubresourceRegion(b, kTexture, 0, 1000, 500, 0,
                                                                      9, 0, &source),
                  state) == Tiles{31});
    // Without a source box: to the end of the subresource.
    CHECK(written(tracker, b,
                  fb::CreateID3D11DeviceContext_CopySubresourceRegion(b, kTexture, 2, 200, 0, 0, 9),
                  state) == Tiles{41});
    // Three tiles in a row from (1, 1) of mip 0.
    const fb::D3D11_TILED_RESOURCE_COORDINATE at(1, 1, 0, 0);
    const fb::D3D11_TILE_REGION_SIZE three(3, 0, 0, 0, 0);
    CHECK(written(tracker, b, fb::CreateID3D11DeviceContext2_UpdateTiles(b, kTexture, &at, &three),
                  state) == Tiles{9, 10, 11});
    // A 1x2 box of tiles of mip 1, from a buffer into the texture; the other
    // direction writes nothing of it.
    const fb::D3D11_TILED_RESOURCE_COORDINATE mip1(0, 0, 0, 1);
    const fb::D3D11_TILE_REGION_SIZE column(2, 1, 1, 2, 1);
    CHECK(written(tracker, b,
                  fb::CreateID3D11DeviceContext2_CopyTiles(
                      b, kTexture, &mip1, &column, 9, 0,
                      D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE),
                  state) == Tiles{32, 36});
    CHECK(written(tracker, b,
                  fb::CreateID3D11DeviceContext2_CopyTiles(
                      b, kTexture, &mip1, &column, 9, 0,
                      D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER),
                  state)
              .empty());
    // CopyResource: every tile.
    const Tiles all =
        written(tracker, b, fb::CreateID3D11DeviceContext_CopyResource(b, kTexture, 9), state);
    CHECK(all.size() == 43);
    CHECK(all.back() == 42);
    // A resource that is not tiled, and a call that writes nothing.
    CHECK(written(tracker, b, fb::CreateID3D11DeviceContext_CopyResource(b, 9, kTexture), state)
              .empty());
    // A draw with nothing bound writes nothing.
    CHECK(written(tracker, b, fb::CreateID3D11DeviceContext_Draw(b, 3, 0), state).empty());
}

TEST_CASE("the tiles clears, draws and dispatches write: the views' subresources",
          "[state][writes]") {
    const tiles::TileState state = mapped_texture();
    TileWriteTracker tracker;
    flatbuffers::FlatBufferBuilder b;
    PointerIds ids;
    constexpr std::uint64_t kMip1 = 20, kWhole = 21, kWords = 22, kDeferred = 30;
    // A render target of mip 1, one of mip 0 (no desc), a UAV of words
    // 20000-59999 of the buffer (bytes 80000-239999: tiles 1-3).
    D3D11_RENDER_TARGET_VIEW_DESC mip1{};
    mip1.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    mip1.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2D;
    mip1.Texture2D.MipSlice = 1;
    auto* mip1_out = object<ID3D11RenderTargetView>(kMip1);
    auto* whole_out = object<ID3D11RenderTargetView>(kWhole);
    auto* words_out = object<ID3D11UnorderedAccessView>(kWords);
    CHECK(written(tracker, b,
                  d3dcap::api::encode_ID3D11Device_CreateRenderTargetView(
                      b, ids, object<ID3D11Resource>(kTexture), &mip1, &mip1_out),
                  state)
              .empty());
    CHECK(written(tracker, b,
                  d3dcap::api::encode_ID3D11Device_CreateRenderTargetView(
                      b, ids, object<ID3D11Resource>(kTexture), nullptr, &whole_out),
                  state)
              .empty());
    D3D11_UNORDERED_ACCESS_VIEW_DESC words{};
    words.Format = DXGI_FORMAT_R32_UINT;
    words.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
    words.Buffer.FirstElement = 20000;
    words.Buffer.NumElements = 40000;
    CHECK(written(tracker, b,
                  d3dcap::api::encode_ID3D11Device_CreateUnorderedAccessView(
                      b, ids, object<ID3D11Resource>(kBuffer), &words, &words_out),
                  state)
              .empty());

    // Clears: the view's subresource.
    CHECK(written(tracker, b, fb::CreateID3D11DeviceContext_ClearRenderTargetView(b, kMip1),
                  state) == Tiles{32, 33, 34, 35, 36, 37, 38, 39});
    const Tiles mip0 =
        written(tracker, b, fb::CreateID3D11DeviceContext1_ClearView(b, kWhole), state);
    CHECK(mip0.size() == 32);
    CHECK(mip0.back() == 31);
    CHECK(written(tracker, b, fb::CreateID3D11DeviceContext_ClearUnorderedAccessViewUint(b, kWords),
                  state, kBuffer) == Tiles{1, 2, 3});
    // A draw writes the bound render target; a dispatch the compute UAVs.
    CHECK(written(tracker, b,
                  d3dcap::api::encode_ID3D11DeviceContext_OMSetRenderTargets(b, ids, 1, &mip1_out,
                                                                             nullptr),
                  state)
              .empty());
    CHECK(written(tracker, b, fb::CreateID3D11DeviceContext_DrawIndexed(b, 6, 0, 0), state) ==
          Tiles{32, 33, 34, 35, 36, 37, 38, 39});
    CHECK(written(tracker, b, fb::CreateID3D11DeviceContext_Dispatch(b, 8, 8, 1), state).empty());
    CHECK(written(tracker, b,
                  d3dcap::api::encode_ID3D11DeviceContext_CSSetUnorderedAccessViews(
                      b, ids, 1, 1, &words_out, nullptr),
                  state)
              .empty());
    CHECK(written(tracker, b, fb::CreateID3D11DeviceContext_Dispatch(b, 8, 8, 1), state, kBuffer) ==
          Tiles{1, 2, 3});

    // On a deferred context: its bindings and calls write nothing now.
    CHECK(written(tracker, b, fb::CreateID3D11Device_CreateDeferredContext(b, 0, kDeferred), state)
              .empty());
    CHECK(written(tracker, b,
                  d3dcap::api::encode_ID3D11DeviceContext_OMSetRenderTargets(b, ids, 1, &whole_out,
                                                                             nullptr),
                  state, kTexture, kDeferred)
              .empty());
    CHECK(
        written(tracker, b, fb::CreateID3D11DeviceContext_Draw(b, 3, 0), state, kTexture, kDeferred)
            .empty());
    CHECK(written(tracker, b, fb::CreateID3D11DeviceContext_ClearRenderTargetView(b, kMip1), state,
                  kTexture, kDeferred)
              .empty());
    // The immediate context's target stayed mip 1.
    CHECK(written(tracker, b, fb::CreateID3D11DeviceContext_Draw(b, 3, 0), state) ==
          Tiles{32, 33, 34, 35, 36, 37, 38, 39});
    // ClearState unbinds it.
    CHECK(written(tracker, b, fb::CreateID3D11DeviceContext_ClearState(b), state).empty());
    CHECK(written(tracker, b, fb::CreateID3D11DeviceContext_Draw(b, 3, 0), state).empty());
}
