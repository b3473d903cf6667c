// The reference device's order of texels inside a tile, which D3D11 leaves
// to the device: row-major at the tile's width, so a tiled buffer that
// shares a pool tile with a texture sees the texels in that order. GPUs keep
// their own order; this file runs on the reference device only.
#include <catch2/catch.hpp>

#include "data_support.h"

using namespace data_tests;

TEST_CASE("a buffer sharing a texture's pool tile sees its texels row-major", "[data][tiles]") {
    DataDevice device;
    constexpr ObjectId kPool = 100;
    device.create_pool(kPool, 1);
    device.create_tiled(buffer(3, kTile));
    device.create_tiled(texture2d(4, 128, 128, DXGI_FORMAT_R32_UINT));  // one 128x128 tile
    device.map_tiles(3, {0, 0, 0, 0}, 1, kPool, 0);
    device.map_tiles(4, {0, 0, 0, 0}, 1, kPool, 0);

    // Texel (3, 2) of the texture is bytes (2 * 128 + 3) * 4 of the buffer.
    const std::uint32_t value = 0xDEADBEEF;
    const D3D11_BOX texel{3, 2, 0, 4, 3, 1};
    device.backend->update_subresource(4, 0, &texel, &value, 4, 4, 0);
    const Bytes through_buffer = device.read(3);
    CHECK(Bytes(through_buffer.begin() + 1036, through_buffer.begin() + 1040) ==
          Bytes{0xEF, 0xBE, 0xAD, 0xDE});

    // Bytes 8..11 of the buffer are texel (2, 0).
    const Bytes word{0x01, 0x02, 0x03, 0x04};
    const D3D11_BOX bytes{8, 0, 0, 12, 1, 1};
    device.backend->update_subresource(3, 0, &bytes, word.data(), 0, 0, 0);
    const Bytes through_texture = device.read(4);
    CHECK(Bytes(through_texture.begin() + 8, through_texture.begin() + 12) == word);

    // UpdateTiles through the buffer is seen by the texture.
    const Bytes tile = pattern(kTile, 0x40, 3);
    device.backend->update_tiles(3, device.region(3, {0, 0, 0, 0}, 1), tile.data());
    CHECK(device.read(4) == tile);
}

TEST_CASE("packed mips lie one after another from the first packed tile's first byte",
          "[data][tiles]") {
    DataDevice device;
    constexpr ObjectId kPool = 100;
    device.create_pool(kPool, 2);
    // 128x128 RGBA8 with 8 mips: mip 0 is one standard tile; mips 1-7 share
    // one packed tile, mip 1 (16384 bytes) first.
    device.create_tiled(texture2d(7, 128, 128, DXGI_FORMAT_R8G8B8A8_UNORM, 8));
    device.map_tiles(7, {0, 0, 0, 0}, 2, kPool, 0);
    const Bytes mip2 = pattern(32 * 32 * 4, 9, 11);
    device.backend->update_subresource(7, 2, nullptr, mip2.data(), 32 * 4, 0, 0);

    const Bytes pool = device.read(kPool);
    CHECK(Bytes(pool.begin() + kTile + 16384, pool.begin() + kTile + 16384 + 4096) == mip2);
    CHECK(Bytes(pool.begin() + kTile, pool.begin() + kTile + 16384) == Bytes(16384, 0));
}
