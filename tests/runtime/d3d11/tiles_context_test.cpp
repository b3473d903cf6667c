// The tiled-resource calls through ID3D11DeviceContext2: mappings land in
// the device's tile model, ResizeTilePool updates the pool's desc, tile
// data moves through UpdateTiles and CopyTiles, deferred contexts record
// tile calls.
#include "object_support.h"

using namespace object_tests;
using d3dcap::runtime::device_tile_state;
using d3dcap::runtime::object_id;

namespace {

constexpr UINT kTile = 65536;

struct TiledSetup {
    TestDevice test;
    Com<ID3D11Buffer> pool;
    Com<ID3D11Texture2D> texture;  // 256x256 RGBA8: 2x2 tiles, one mip

    explicit TiledSetup(D3D_DRIVER_TYPE type = D3D_DRIVER_TYPE_REFERENCE) : test(type) {
        pool = test.buffer(4 * kTile, 0, D3D11_USAGE_DEFAULT, 0, D3D11_RESOURCE_MISC_TILE_POOL);
        texture = test.texture2d(256, 256, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE,
                                 1, 1, D3D11_USAGE_DEFAULT, 0, D3D11_RESOURCE_MISC_TILED);
    }
    std::vector<std::uint32_t> pool_tiles() const {
        const auto* state = device_tile_state(test.device.get());
        std::vector<std::uint32_t> result;
        for (const auto& mapping : state->mappings(object_id(texture.get()))) {
            result.push_back(mapping.pool_tile);
        }
        return result;
    }
};

constexpr std::uint32_t kNull = d3dcap::runtime::tiles::kNullTile;

}  // namespace

TEST_CASE("UpdateTileMappings through the context changes the device's tile model",
          "[tiles][context]") {
    TiledSetup setup;
    CHECK(setup.pool_tiles() == std::vector<std::uint32_t>{kNull, kNull, kNull, kNull});
    // The whole resource onto pool tiles 0..3 (one range, every default).
    const UINT offset = 0;
    REQUIRE(setup.test.context->UpdateTileMappings(setup.texture.get(), 1, nullptr, nullptr,
                                                   setup.pool.get(), 1, nullptr, &offset, nullptr,
                                                   0) == S_OK);
    CHECK(setup.pool_tiles() == std::vector<std::uint32_t>{0, 1, 2, 3});
    const auto* state = device_tile_state(setup.test.device.get());
    CHECK(state->pool_of(object_id(setup.texture.get())) == object_id(setup.pool.get()));

    // Tile (1, 1) onto pool tile 0 as well.
    const D3D11_TILED_RESOURCE_COORDINATE corner{1, 1, 0, 0};
    const UINT single = D3D11_TILE_RANGE_REUSE_SINGLE_TILE;
    REQUIRE(setup.test.context->UpdateTileMappings(setup.texture.get(), 1, &corner, nullptr,
                                                   setup.pool.get(), 1, &single, &offset, nullptr,
                                                   D3D11_TILE_MAPPING_NO_OVERWRITE) == S_OK);
    CHECK(setup.pool_tiles() == std::vector<std::uint32_t>{0, 1, 2, 0});

    // Rejections change nothing and name what was wrong.
    CHECK(setup.test.context->UpdateTileMappings(setup.texture.get(), 1, nullptr, nullptr,
                                                 setup.pool.get(), 1, nullptr, &offset, nullptr,
                                                 8) == E_INVALIDARG);
    CHECK(setup.test.messages().back().parameter == "Flags");
    CHECK(setup.test.context->UpdateTileMappings(nullptr, 1, nullptr, nullptr, setup.pool.get(), 1,
                                                 nullptr, &offset, nullptr, 0) == E_INVALIDARG);
    CHECK(setup.test.messages().back().parameter == "pTiledResource");
    CHECK(setup.pool_tiles() == std::vector<std::uint32_t>{0, 1, 2, 0});

    // CopyTileMappings: tile (0,0) takes the mapping of tile (1,0).
    const D3D11_TILED_RESOURCE_COORDINATE from{1, 0, 0, 0}, to{0, 0, 0, 0};
    const D3D11_TILE_REGION_SIZE one{1, FALSE, 0, 0, 0};
    REQUIRE(setup.test.context->CopyTileMappings(setup.texture.get(), &to, setup.texture.get(),
                                                 &from, &one, 0) == S_OK);
    CHECK(setup.pool_tiles() == std::vector<std::uint32_t>{1, 1, 2, 0});
}

TEST_CASE("ResizeTilePool resizes the model and the pool's desc", "[tiles][context]") {
    TiledSetup setup;
    CHECK(setup.test.context->ResizeTilePool(setup.pool.get(), kTile + 1) == E_INVALIDARG);
    REQUIRE(setup.test.context->ResizeTilePool(setup.pool.get(), 6 * kTile) == S_OK);
    D3D11_BUFFER_DESC desc{};
    setup.pool->GetDesc(&desc);
    CHECK(desc.ByteWidth == 6 * kTile);
    const auto* state = device_tile_state(setup.test.device.get());
    CHECK(state->pool_tiles(object_id(setup.pool.get())) == 6);
    CHECK(setup.test.context->ResizeTilePool(nullptr, kTile) == E_INVALIDARG);
}

TEST_CASE("UpdateTiles then CopyTiles moves tile data through the pool", "[tiles][context]") {
    TiledSetup setup;
    auto* context = setup.test.context.get();
    const UINT offsets[1] = {0};
    REQUIRE(context->UpdateTileMappings(setup.texture.get(), 1, nullptr, nullptr, setup.pool.get(),
                                        1, nullptr, offsets, nullptr, 0) == S_OK);
    std::vector<std::uint8_t> tiles(2 * kTile);
    for (std::size_t i = 0; i < tiles.size(); ++i) tiles[i] = std::uint8_t(i * 7 + i / kTile);
    const D3D11_TILED_RESOURCE_COORDINATE start{0, 1, 0, 0};
    const D3D11_TILE_REGION_SIZE two{2, FALSE, 0, 0, 0};
    context->UpdateTiles(setup.texture.get(), &start, &two, tiles.data(), 0);

    auto linear = setup.test.buffer(3 * kTile, D3D11_BIND_SHADER_RESOURCE);
    context->CopyTiles(setup.texture.get(), &start, &two, linear.get(), kTile,
                       D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
    auto staging = setup.test.buffer(3 * kTile, 0, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ);
    context->CopyResource(staging.get(), linear.get());
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    const auto* bytes = static_cast<const std::uint8_t*>(mapped.pData);
    CHECK(std::memcmp(bytes + kTile, tiles.data(), tiles.size()) == 0);
    CHECK(bytes[0] == 0);
    context->Unmap(staging.get(), 0);

    // Both directions at once, or neither, is no copy.
    context->CopyTiles(setup.texture.get(), &start, &two, linear.get(), 0,
                       D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE |
                           D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
    CHECK(setup.test.messages().back().parameter == "Flags");
    // The buffer must hold every tile from the offset on.
    context->CopyTiles(setup.texture.get(), &start, &two, linear.get(), 2 * kTile,
                       D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
    CHECK(setup.test.messages().back().parameter == "BufferStartOffsetInBytes");
    context->TiledResourceBarrier(setup.texture.get(), nullptr);
}

TEST_CASE("Deferred contexts record tile calls - they apply when the list runs",
          "[tiles][context][deferred]") {
    TiledSetup setup(D3D_DRIVER_TYPE_NULL);
    Com<ID3D11DeviceContext> deferred;
    REQUIRE(setup.test.device->CreateDeferredContext(0, deferred.out()) == S_OK);
    auto deferred2 = deferred.as<ID3D11DeviceContext2>();
    // Pool tiles 4 and 5 exist only after the recorded resize.
    REQUIRE(deferred2->ResizeTilePool(setup.pool.get(), 8 * kTile) == S_OK);
    const UINT offsets[1] = {2};
    REQUIRE(deferred2->UpdateTileMappings(setup.texture.get(), 1, nullptr, nullptr,
                                          setup.pool.get(), 1, nullptr, offsets, nullptr,
                                          0) == S_OK);
    CHECK(setup.pool_tiles() == std::vector<std::uint32_t>{kNull, kNull, kNull, kNull});
    Com<ID3D11CommandList> list;
    REQUIRE(deferred->FinishCommandList(FALSE, list.out()) == S_OK);
    setup.test.context->ExecuteCommandList(list.get(), FALSE);
    CHECK(setup.pool_tiles() == std::vector<std::uint32_t>{2, 3, 4, 5});
    D3D11_BUFFER_DESC desc{};
    setup.pool->GetDesc(&desc);
    CHECK(desc.ByteWidth == 8 * kTile);
}

TEST_CASE("UpdateTiles and CopyTiles refuse packed-mip tiles", "[tiles][context]") {
    TestDevice test;
    Com<ID3D11Buffer> pool =
        test.buffer(8 * kTile, 0, D3D11_USAGE_DEFAULT, 0, D3D11_RESOURCE_MISC_TILE_POOL);
    // 256x256 RGBA8 with 9 mips: mips 0 and 1 are standard (4 + 1 tiles), 2..8 packed.
    Com<ID3D11Texture2D> texture =
        test.texture2d(256, 256, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE, 9, 1,
                       D3D11_USAGE_DEFAULT, 0, D3D11_RESOURCE_MISC_TILED);
    const UINT offset = 0;
    REQUIRE(test.context->UpdateTileMappings(texture.get(), 1, nullptr, nullptr, pool.get(), 1,
                                             nullptr, &offset, nullptr, 0) == S_OK);
    const D3D11_TILED_RESOURCE_COORDINATE packed{0, 0, 0, 2};
    const D3D11_TILE_REGION_SIZE one{1, FALSE, 1, 1, 1};
    std::vector<std::uint8_t> data(kTile, 0x5a);
    test.clear_messages();
    test.context->UpdateTiles(texture.get(), &packed, &one, data.data(), 0);
    CHECK(test.last_message() ==
          "ID3D11DeviceContext2::UpdateTiles: pDestTileRegionStartCoordinate: addresses packed-mip "
          "tiles, which UpdateTiles cannot write (use UpdateSubresource1)");
    Com<ID3D11Buffer> linear = test.buffer(kTile, 0);
    test.context->CopyTiles(texture.get(), &packed, &one, linear.get(), 0,
                            D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE);
    CHECK(test.last_message() ==
          "ID3D11DeviceContext2::CopyTiles: pTileRegionStartCoordinate: addresses packed-mip "
          "tiles, which CopyTiles cannot write (use CopySubresourceRegion1)");
}
