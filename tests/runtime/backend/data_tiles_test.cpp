// A device's tiled data: UpdateTiles/CopyTiles, shared tiles (many on one
// pool tile too) and NULL tiles, packed mips, pool resizing, Map of tiled
// storage and content hashes, each checked byte for byte.
#include <catch2/catch.hpp>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "data_support.h"

using namespace data_tests;

namespace {

constexpr ObjectId kPool = 100;
constexpr UINT kReuse = D3D11_TILE_RANGE_REUSE_SINGLE_TILE;

// Bytes of texel (x, y) of a tightly packed RGBA8 image of the given width.
Bytes texel_at(const Bytes& image, std::uint32_t width, std::uint32_t x, std::uint32_t y) {
    const std::size_t at = (std::size_t{y} * width + x) * 4;
    return Bytes(image.begin() + at, image.begin() + at + 4);
}

Bytes slice_of(const Bytes& bytes, std::size_t from, std::size_t count) {
    return Bytes(bytes.begin() + from, bytes.begin() + from + count);
}

// Tile (tx, ty) of a tightly packed RGBA8 image of the given width, in the
// tile layout (128 rows of 128 texels).
Bytes tile_of(const Bytes& image, std::uint32_t width, std::uint32_t tx, std::uint32_t ty) {
    Bytes tile;
    tile.reserve(kTile);
    for (std::uint32_t row = 0; row < 128; ++row) {
        const std::size_t at = ((std::size_t{ty} * 128 + row) * width + tx * 128) * 4;
        tile.insert(tile.end(), image.begin() + at, image.begin() + at + 128 * 4);
    }
    return tile;
}

// A tile of RGBA8 texels all equal to `texel`.
Bytes filled_tile(const Bytes& texel) {
    Bytes tile;
    tile.reserve(kTile);
    while (tile.size() < kTile) tile.insert(tile.end(), texel.begin(), texel.end());
    return tile;
}

}  // namespace

TEST_CASE("UpdateTiles then CopyTiles gives back the same bytes in tile layout", "[data][tiles]") {
    DataDevice device;
    device.create_pool(kPool, 4);
    device.create_tiled(
        texture2d(1, 256, 256, DXGI_FORMAT_R8G8B8A8_UNORM));  // 2x2 tiles of 128x128
    device.map_tiles(1, {0, 0, 0, 0}, 4, kPool, 0);

    // Tiles (1,0) and (0,1): overall tiles 1 and 2.
    const auto refs = device.region(1, {1, 0, 0, 0}, 2);
    REQUIRE(refs.size() == 2);
    CHECK(refs[0].tile == 1);
    CHECK(refs[1].tile == 2);
    Bytes data = pattern(kTile, 1);
    const Bytes second = pattern(kTile, 101, 7);
    data.insert(data.end(), second.begin(), second.end());
    device.backend->update_tiles(1, refs, data.data());

    device.create(buffer(2, 2 * kTile));
    device.backend->copy_tiles(1, refs, 2, 0,
                               D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
    CHECK(device.read(2) == data);

    // Inside a tile, texels are row-major at the tile's width (128 texels).
    const Bytes image = device.read(1);
    REQUIRE(image.size() == 256u * 256u * 4u);
    CHECK(texel_at(image, 256, 128 + 5, 3) ==
          Bytes(data.begin() + (3 * 128 + 5) * 4, data.begin() + (3 * 128 + 5) * 4 + 4));
    CHECK(texel_at(image, 256, 7, 128 + 2) == Bytes(data.begin() + kTile + (2 * 128 + 7) * 4,
                                                    data.begin() + kTile + (2 * 128 + 7) * 4 + 4));
    CHECK(texel_at(image, 256, 0, 0) == Bytes{0, 0, 0, 0});  // tile 0 was never written

    // Back into tile 0 from the buffer's second 64 KiB.
    const auto first_tile = device.region(1, {0, 0, 0, 0}, 1);
    device.backend->copy_tiles(1, first_tile, 2, kTile,
                               D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE);
    const Bytes after = device.read(1);
    CHECK(texel_at(after, 256, 0, 0) == Bytes(second.begin(), second.begin() + 4));
    CHECK(texel_at(after, 256, 127, 127) == Bytes(second.begin() + (127 * 128 + 127) * 4,
                                                  second.begin() + (127 * 128 + 127) * 4 + 4));
}

TEST_CASE("edge tiles keep the full tile width as their row pitch", "[data][tiles]") {
    DataDevice device;
    device.create_pool(kPool, 4);
    device.create_tiled(
        texture2d(1, 200, 130, DXGI_FORMAT_R8G8B8A8_UNORM));  // 2x2 tiles, partial edges
    device.map_tiles(1, {0, 0, 0, 0}, 4, kPool, 0);
    const auto corner = device.region(1, {1, 1, 0, 0}, 1);
    REQUIRE(corner.size() == 1);
    CHECK(corner[0].tile == 3);
    const Bytes data = pattern(kTile, 3, 5);
    device.backend->update_tiles(1, corner, data.data());

    const Bytes image = device.read(1);
    REQUIRE(image.size() == 200u * 130u * 4u);
    for (std::uint32_t y = 0; y < 2; ++y) {
        for (std::uint32_t x : {0u, 1u, 71u}) {
            INFO("texel " << 128 + x << "," << 128 + y);
            const std::size_t at = (std::size_t{y} * 128 + x) * 4;
            CHECK(texel_at(image, 200, 128 + x, 128 + y) ==
                  Bytes(data.begin() + at, data.begin() + at + 4));
        }
    }
}

TEST_CASE("a pool tile mapped by two textures of one format shows writes through either",
          "[data][tiles]") {
    DataDevice device;
    device.create_pool(kPool, 1);
    device.create_tiled(texture2d(3, 128, 128, DXGI_FORMAT_R32_UINT));  // one 128x128 tile
    device.create_tiled(texture2d(4, 128, 128, DXGI_FORMAT_R32_UINT));
    device.map_tiles(3, {0, 0, 0, 0}, 1, kPool, 0);
    device.map_tiles(4, {0, 0, 0, 0}, 1, kPool, 0);

    const std::uint32_t value = 0xDEADBEEF;
    const D3D11_BOX texel{3, 2, 0, 4, 3, 1};
    device.backend->update_subresource(4, 0, &texel, &value, 4, 4, 0);
    const Bytes through_other = device.read(3);
    const std::size_t at = (2 * 128 + 3) * 4;
    CHECK(Bytes(through_other.begin() + at, through_other.begin() + at + 4) ==
          Bytes{0xEF, 0xBE, 0xAD, 0xDE});

    // UpdateTiles through one is seen by the other, in the linear tile layout.
    const Bytes tile = pattern(kTile, 0x40, 3);
    device.backend->update_tiles(3, device.region(3, {0, 0, 0, 0}, 1), tile.data());
    CHECK(device.read(4) == tile);
}

TEST_CASE("a one-tile texture aliasing a large texture's tile sees its texels in place",
          "[data][tiles]") {
    DataDevice device;
    device.create_pool(kPool, 2);
    device.create_tiled(texture2d(3, 1024, 512, DXGI_FORMAT_R8G8B8A8_UNORM, 4));
    device.create_tiled(texture2d(4, 128, 128, DXGI_FORMAT_R8G8B8A8_UNORM));
    device.map_tiles(3, {5, 2, 0, 0}, 1, kPool, 1);
    device.map_tiles(4, {0, 0, 0, 0}, 1, kPool, 1);

    // UpdateTiles through the alias; the large texture shows it at its tile.
    const Bytes tile = pattern(kTile, 0x21, 5);
    device.backend->update_tiles(4, device.region(4, {0, 0, 0, 0}, 1), tile.data());
    const Bytes large = device.read(3);
    CHECK(texel_at(large, 1024, 5 * 128 + 7, 2 * 128 + 9) == texel_at(tile, 128, 7, 9));
    CHECK(texel_at(large, 1024, 5 * 128 + 127, 2 * 128 + 127) == texel_at(tile, 128, 127, 127));

    // A texel written through the large texture shows through the alias.
    const Bytes texel{1, 2, 3, 4};
    const D3D11_BOX box{5 * 128 + 40, 2 * 128 + 50, 0, 5 * 128 + 41, 2 * 128 + 51, 1};
    device.backend->update_subresource(3, 0, &box, texel.data(), 4, 4, 0);
    CHECK(texel_at(device.read(4), 128, 40, 50) == texel);
}

TEST_CASE("NULL tiles read as zeros and drop writes", "[data][tiles]") {
    DataDevice device;
    device.create_pool(kPool, 1);
    device.create_tiled(texture2d(5, 256, 256, DXGI_FORMAT_R8G8B8A8_UNORM));
    device.map_tiles(5, {1, 1, 0, 0}, 1, kPool, 0);  // only tile 3 has memory

    const float red[4] = {1.0f, 0.0f, 0.0f, 1.0f};
    device.backend->clear_view(view_of(5, DXGI_FORMAT_R8G8B8A8_UNORM), red, nullptr, 0);
    const Bytes image = device.read(5);
    std::size_t red_texels = 0, zero_texels = 0;
    for (std::uint32_t y = 0; y < 256; ++y) {
        for (std::uint32_t x = 0; x < 256; ++x) {
            const Bytes texel = texel_at(image, 256, x, y);
            if (x >= 128 && y >= 128) {
                red_texels += texel == Bytes{0xFF, 0x00, 0x00, 0xFF};
            } else {
                zero_texels += texel == Bytes{0, 0, 0, 0};
            }
        }
    }
    CHECK(red_texels == 128u * 128u);
    CHECK(zero_texels == 3u * 128u * 128u);

    // CopyTiles out of a NULL tile writes zeros over the buffer's old bytes.
    device.create_with(buffer(6, 2 * kTile), Bytes(2 * kTile, 0x55), 0);
    std::vector<d3dcap::runtime::tiles::TileRef> refs = device.region(5, {0, 0, 0, 0}, 1);
    const auto mapped = device.region(5, {1, 1, 0, 0}, 1);
    refs.push_back(mapped[0]);
    device.backend->copy_tiles(5, refs, 6, 0,
                               D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
    const Bytes linear = device.read(6);
    CHECK(Bytes(linear.begin(), linear.begin() + kTile) == Bytes(kTile, 0));
    Bytes red_tile(kTile);
    for (std::size_t i = 0; i < kTile; i += 4) {
        red_tile[i] = 0xFF;
        red_tile[i + 3] = 0xFF;
    }
    CHECK(Bytes(linear.begin() + kTile, linear.end()) == red_tile);

    // UpdateTiles into the NULL tile 0 is dropped; the pool keeps its bytes.
    const Bytes junk(kTile, 0x77);
    device.backend->update_tiles(5, device.region(5, {0, 0, 0, 0}, 1), junk.data());
    CHECK(texel_at(device.read(5), 256, 0, 0) == Bytes{0, 0, 0, 0});
    device.backend->copy_tiles(5, device.region(5, {1, 1, 0, 0}, 1), 6, 0,
                               D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
    const Bytes copied = device.read(6);
    CHECK(Bytes(copied.begin(), copied.begin() + kTile) == red_tile);
}

TEST_CASE("several tiles on one pool tile: the last UpdateTiles write wins", "[data][tiles]") {
    DataDevice device;
    device.create_pool(kPool, 1);
    device.create_tiled(texture2d(6, 256, 256, DXGI_FORMAT_R8G8B8A8_UNORM));
    device.map_tiles(6, {0, 0, 0, 0}, 4, kPool, 0, kReuse);
    Bytes data;
    for (std::uint32_t seed : {10u, 20u, 30u, 40u}) {
        const Bytes tile = pattern(kTile, seed);
        data.insert(data.end(), tile.begin(), tile.end());
    }
    device.backend->update_tiles(6, device.region(6, {0, 0, 0, 0}, 4), data.data());
    device.create(buffer(7, kTile));
    device.backend->copy_tiles(6, device.region(6, {0, 1, 0, 0}, 1), 7, 0,
                               D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
    CHECK(device.read(7) == pattern(kTile, 40));
    CHECK(texel_at(device.read(6), 256, 200, 3) == texel_at(pattern(kTile, 40), 128, 72, 3));
}

// Enough tiles on one pool tile that a GPU binds runs of them at once (to
// copies of the page), each write checked through every tile.
TEST_CASE("many tiles on one pool tile read what it holds after every kind of write",
          "[data][tiles]") {
    DataDevice device;
    device.create_pool(kPool, 4);
    device.create_tiled(texture2d(11, 2048, 2048, DXGI_FORMAT_R8G8B8A8_UNORM));  // 16x16 tiles
    device.create_tiled(texture2d(12, 128, 128, DXGI_FORMAT_R8G8B8A8_UNORM));    // one tile
    constexpr UINT kFirst = 3 * 16 + 2, kShared = 120;  // tiles 50-169 onto pool tile 2
    device.map_tiles(11, {2, 3, 0, 0}, kShared, kPool, 2, kReuse);
    device.map_tiles(11, {0, 0, 0, 0}, 1, kPool, 0);
    device.map_tiles(12, {0, 0, 0, 0}, 1, kPool, 2);
    // How many of tiles [from, to) of texture 11 hold `page`.
    auto holding = [&](const Bytes& page, UINT from, UINT to) {
        const Bytes image = device.read(11);
        UINT count = 0;
        for (UINT t = from; t < to; ++t) count += tile_of(image, 2048, t % 16, t / 16) == page;
        return count;
    };
    CHECK(holding(Bytes(kTile, 0), kFirst, kFirst + kShared) == kShared);

    // UpdateTiles through the other texture.
    Bytes page = pattern(kTile, 0x10, 3);
    device.backend->update_tiles(12, device.region(12, {0, 0, 0, 0}, 1), page.data());
    CHECK(holding(page, kFirst, kFirst + kShared) == kShared);

    // UpdateSubresource of texel (7, 9) of shared tile (5, 5).
    const Bytes texel{1, 2, 3, 4};
    const D3D11_BOX box{5 * 128 + 7, 5 * 128 + 9, 0, 5 * 128 + 8, 5 * 128 + 10, 1};
    device.backend->update_subresource(11, 0, &box, texel.data(), 4, 4, 0);
    std::copy(texel.begin(), texel.end(), page.begin() + (9 * 128 + 7) * 4);
    CHECK(holding(page, kFirst, kFirst + kShared) == kShared);
    CHECK(device.read(12) == page);

    // CopyTiles from a buffer into shared tile (4, 7).
    page = pattern(kTile, 0x33, 5);
    device.create_with(buffer(13, kTile), page, 0);
    device.backend->copy_tiles(11, device.region(11, {4, 7, 0, 0}, 1), 13, 0,
                               D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE);
    CHECK(holding(page, kFirst, kFirst + kShared) == kShared);
    CHECK(device.read(12) == page);

    // A clear of the other texture, then one of this texture (its own tile too).
    const float green[4] = {0.0f, 1.0f, 0.0f, 1.0f}, blue[4] = {0.0f, 0.0f, 1.0f, 1.0f};
    device.backend->clear_view(view_of(12, DXGI_FORMAT_R8G8B8A8_UNORM), green, nullptr, 0);
    CHECK(holding(filled_tile({0, 0xFF, 0, 0xFF}), kFirst, kFirst + kShared) == kShared);
    device.backend->clear_view(view_of(11, DXGI_FORMAT_R8G8B8A8_UNORM), blue, nullptr, 0);
    const Bytes blue_tile = filled_tile({0, 0, 0xFF, 0xFF});
    CHECK(holding(blue_tile, kFirst, kFirst + kShared) == kShared);
    CHECK(holding(blue_tile, 0, 1) == 1);
    CHECK(device.read(12) == blue_tile);

    // The first 30 shared tiles move to pool tile 3 (never written); tiles
    // 170-209 join pool tile 2 after its writes, then it is written again.
    device.map_tiles(11, {2, 3, 0, 0}, 30, kPool, 3, kReuse);
    device.map_tiles(11, {10, 10, 0, 0}, 40, kPool, 2, kReuse);
    CHECK(holding(blue_tile, kFirst + 30, kFirst + kShared + 40) == kShared + 10);
    page = pattern(kTile, 0x61, 9);
    device.backend->update_tiles(12, device.region(12, {0, 0, 0, 0}, 1), page.data());
    CHECK(holding(page, kFirst + 30, kFirst + kShared + 40) == kShared + 10);
    CHECK(holding(Bytes(kTile, 0), kFirst, kFirst + 30) == 30);
}

TEST_CASE("many tiles of a second mip on one pool tile read what it holds", "[data][tiles]") {
    DataDevice device;
    device.create_pool(kPool, 2);
    device.create_tiled(texture2d(15, 1024, 1024, DXGI_FORMAT_R8G8B8A8_UNORM, 2));  // mip 1: 4x4
    device.create_tiled(texture2d(16, 128, 128, DXGI_FORMAT_R8G8B8A8_UNORM));
    device.map_tiles(15, {0, 0, 0, 1}, 16, kPool, 1, kReuse);
    device.map_tiles(16, {0, 0, 0, 0}, 1, kPool, 1);
    auto holding = [&](const Bytes& page) {
        const Bytes mip = device.read(15, 1);
        UINT count = 0;
        for (UINT t = 0; t < 16; ++t) count += tile_of(mip, 512, t % 4, t / 4) == page;
        return count;
    };
    Bytes page = pattern(kTile, 0x44, 11);
    device.backend->update_tiles(16, device.region(16, {0, 0, 0, 0}, 1), page.data());
    CHECK(holding(page) == 16);

    // Texel (3, 4) of tile (2, 1) of mip 1, written there, shows in every tile.
    const Bytes texel{9, 8, 7, 6};
    const D3D11_BOX box{2 * 128 + 3, 128 + 4, 0, 2 * 128 + 4, 128 + 5, 1};
    device.backend->update_subresource(15, 1, &box, texel.data(), 4, 4, 0);
    std::copy(texel.begin(), texel.end(), page.begin() + (4 * 128 + 3) * 4);
    CHECK(holding(page) == 16);
    CHECK(device.read(16) == page);
}

TEST_CASE("many buffer tiles on one pool tile read what it holds after each write",
          "[data][tiles]") {
    DataDevice device;
    device.create_pool(kPool, 2);
    device.create_tiled(buffer(14, 300 * kTile));
    device.map_tiles(14, {10, 0, 0, 0}, 280, kPool, 1, kReuse);  // tiles 10-289
    device.map_tiles(14, {0, 0, 0, 0}, 1, kPool, 1);
    device.map_tiles(14, {1, 0, 0, 0}, 1, kPool, 0);
    auto holding = [&](const Bytes& page) {
        const Bytes bytes = device.read(14);
        UINT count = slice_of(bytes, 0, kTile) == page;
        for (UINT t = 10; t < 290; ++t)
            count += slice_of(bytes, std::size_t{t} * kTile, kTile) == page;
        return count;
    };
    Bytes page = pattern(kTile, 0x21, 7);
    device.backend->update_tiles(14, device.region(14, {0, 0, 0, 0}, 1), page.data());
    CHECK(holding(page) == 281);

    // A word written through shared tile 200.
    const Bytes word{0xAA, 0xBB, 0xCC, 0xDD};
    const D3D11_BOX bytes{200 * kTile + 8, 0, 0, 200 * kTile + 12, 1, 1};
    device.backend->update_subresource(14, 0, &bytes, word.data(), 0, 0, 0);
    std::copy(word.begin(), word.end(), page.begin() + 8);
    CHECK(holding(page) == 281);
    CHECK(slice_of(device.read(14), kTile, kTile) == Bytes(kTile, 0));  // tile 1: its own page
}

TEST_CASE("packed mips lie one after another in the packed tiles", "[data][tiles]") {
    DataDevice device;
    device.create_pool(kPool, 2);
    // 128x128 RGBA8 with 8 mips: mip 0 is one standard tile; mips 1-7
    // (16384 + 4096 + 1024 + 256 + 64 + 16 + 4 bytes) share one packed tile.
    device.create_tiled(texture2d(7, 128, 128, DXGI_FORMAT_R8G8B8A8_UNORM, 8));
    device.map_tiles(7, {0, 0, 0, 0}, 2, kPool, 0);

    const Bytes mip2 = pattern(32 * 32 * 4, 9, 11);
    device.backend->update_subresource(7, 2, nullptr, mip2.data(), 32 * 4, 0, 0);
    CHECK(device.read(7, 2) == mip2);

    // CopyTiles of the packed tile (Subresource = first packed mip, X = 0).
    device.create(buffer(8, kTile));
    device.backend->copy_tiles(7, device.region(7, {0, 0, 0, 1}, 1), 8, 0,
                               D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
    const Bytes linear = device.read(8);
    CHECK(Bytes(linear.begin() + 16384, linear.begin() + 16384 + 4096) == mip2);
}

TEST_CASE("shrinking a pool keeps tiles that mappings still use", "[data][tiles]") {
    DataDevice device;
    device.create_pool(kPool, 2);
    device.create_tiled(buffer(9, kTile));
    device.map_tiles(9, {0, 0, 0, 0}, 1, kPool, 1);  // onto the pool's last tile
    const Bytes word{0xAA, 0xBB, 0xCC, 0xDD};
    const D3D11_BOX first_bytes{0, 0, 0, 4, 1, 1};
    device.backend->update_subresource(9, 0, &first_bytes, word.data(), 0, 0, 0);

    REQUIRE(device.state.resize_tile_pool(kPool, kTile, &device.sink) == S_OK);
    device.backend->resize_tile_pool(kPool, kTile);
    const Bytes kept = device.read(9);
    CHECK(Bytes(kept.begin(), kept.begin() + 4) == word);
    CHECK(device.read(kPool).size() == kTile);

    REQUIRE(device.state.resize_tile_pool(kPool, 2 * kTile, &device.sink) == S_OK);
    device.backend->resize_tile_pool(kPool, 2 * kTile);
    const Bytes pool = device.read(kPool);
    CHECK(Bytes(pool.begin() + kTile, pool.begin() + kTile + 4) == word);  // the same memory again
}

TEST_CASE("a destroyed pool's tiles live on while a resource maps them", "[data][tiles]") {
    DataDevice device;
    device.create_pool(kPool, 1);
    device.create_tiled(buffer(10, kTile));
    device.map_tiles(10, {0, 0, 0, 0}, 1, kPool, 0);
    const Bytes tile = pattern(kTile, 77, 13);
    device.backend->update_tiles(10, device.region(10, {0, 0, 0, 0}, 1), tile.data());

    device.state.destroy(kPool);
    device.backend->destroy_resource(kPool);
    Bytes gone;
    CHECK_FALSE(device.backend->read_subresource(kPool, 0, gone));
    CHECK(device.read(10) == tile);
}

TEST_CASE("tiles of a Texture3D and of array slices follow their tile shapes", "[data][tiles]") {
    DataDevice device;
    device.create_pool(kPool, 4);
    // R8G8B8A8 Texture3D: 32x32x16 texels a tile, so 64x32x16 is 2 tiles.
    ResourceInfo volume = texture2d(11, 64, 32, DXGI_FORMAT_R8G8B8A8_UNORM);
    volume.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    volume.depth = 16;
    device.create_tiled(volume);
    device.map_tiles(11, {0, 0, 0, 0}, 2, kPool, 0);
    const Bytes second = pattern(kTile, 5, 3);
    device.backend->update_tiles(11, device.region(11, {1, 0, 0, 0}, 1), second.data());
    const Bytes texels = device.read(11);
    REQUIRE(texels.size() == 64u * 32u * 16u * 4u);
    // Texel (32 + 3, 4, 9) is texel (3, 4, 9) of tile 1: ((9 * 32 + 4) * 32 + 3) * 4.
    const std::size_t in_volume = ((std::size_t{9} * 32 + 4) * 64 + 35) * 4;
    const std::size_t in_tile = ((std::size_t{9} * 32 + 4) * 32 + 3) * 4;
    CHECK(slice_of(texels, in_volume, 4) == slice_of(second, in_tile, 4));

    // A 2-slice array of one 128x128 R32_UINT tile each: slice 1 is subresource 1.
    device.create_tiled(texture2d(12, 128, 128, DXGI_FORMAT_R32_UINT, 1, 2));
    device.map_tiles(12, {0, 0, 0, 1}, 1, kPool, 2);
    const Bytes layer = pattern(kTile, 200, 9);
    device.backend->update_tiles(12, device.region(12, {0, 0, 0, 1}, 1), layer.data());
    CHECK(device.read(12, 1) == layer);
    CHECK(device.read(12, 0) == Bytes(kTile, 0));  // slice 0 is NULL
}

TEST_CASE("Map of tiled storage goes through a copy written back at Unmap", "[data][map]") {
    DataDevice device;
    device.create_pool(kPool, 1);
    device.create_tiled(buffer(1, kTile));
    device.map_tiles(1, {0, 0, 0, 0}, 1, kPool, 0);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(device.backend->map(1, 0, D3D11_MAP_WRITE, &mapped) == S_OK);
    auto* bytes = static_cast<std::uint8_t*>(mapped.pData);
    bytes[0] = 0x12;
    bytes[kTile - 1] = 0x34;
    CHECK(device.read(kPool)[0] == 0x00);  // not yet written back
    device.backend->unmap(1, 0);
    const Bytes pool = device.read(kPool);
    CHECK(pool[0] == 0x12);
    CHECK(pool[kTile - 1] == 0x34);
}

TEST_CASE("content_hash is the same for the same texels in tiled and private storage",
          "[data][hash]") {
    DataDevice device;
    device.create_pool(kPool, 4);
    device.create_tiled(texture2d(1, 256, 256, DXGI_FORMAT_R8G8B8A8_UNORM));
    device.map_tiles(1, {0, 0, 0, 0}, 4, kPool, 0);
    device.create(texture2d(2, 256, 256, DXGI_FORMAT_R8G8B8A8_UNORM));
    const Bytes image = pattern(256 * 256 * 4, 3, 7);
    device.backend->update_subresource(1, 0, nullptr, image.data(), 1024, 0, 0);
    device.backend->update_subresource(2, 0, nullptr, image.data(), 1024, 0, 0);

    const std::uint64_t tiled = d3dcap::runtime::backend::content_hash(*device.backend, 1, 0);
    const std::uint64_t linear = d3dcap::runtime::backend::content_hash(*device.backend, 2, 0);
    CHECK(tiled == linear);
    CHECK(tiled == XXH3_64bits(image.data(), image.size()));
    CHECK(device.read(1) == image);

    const Bytes changed{0, image[image.size() - 3], image[image.size() - 2],
                        image[image.size() - 1]};
    REQUIRE(changed[0] != image[image.size() - 4]);  // one byte differs
    const D3D11_BOX last{255, 255, 0, 256, 256, 1};
    device.backend->update_subresource(2, 0, &last, changed.data(), 4, 0, 0);
    CHECK(d3dcap::runtime::backend::content_hash(*device.backend, 2, 0) != tiled);
}
