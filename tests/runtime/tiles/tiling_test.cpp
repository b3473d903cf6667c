// The reference device's tiling of tiled resources, against tilings worked
// out by hand from the documented rules: tile shapes, tile numbering, packed
// mips, and the rejection of resources that cannot be tiled.
#include "runtime/tiles/tiling.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

namespace {

using d3dcap::runtime::Message;
using d3dcap::runtime::MessageSink;
using d3dcap::runtime::tiles::compute_tiling;
using d3dcap::runtime::tiles::kPackedStart;
using d3dcap::runtime::tiles::ResourceShape;
using d3dcap::runtime::tiles::ResourceTiling;

class RecordingSink : public MessageSink {
  public:
    void message(const Message& message) override { messages.push_back(message); }
    std::vector<Message> messages;
};

ResourceShape texture_2d(std::uint32_t width, std::uint32_t height, DXGI_FORMAT format,
                         std::uint32_t mip_levels = 1, std::uint32_t array_size = 1,
                         std::uint32_t sample_count = 1) {
    ResourceShape shape;
    shape.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
    shape.width = width;
    shape.height = height;
    shape.format = format;
    shape.mip_levels = mip_levels;
    shape.array_size = array_size;
    shape.sample_count = sample_count;
    return shape;
}

ResourceShape texture_3d(std::uint32_t width, std::uint32_t height, std::uint32_t depth,
                         DXGI_FORMAT format, std::uint32_t mip_levels = 1) {
    ResourceShape shape = texture_2d(width, height, format, mip_levels);
    shape.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    shape.depth = depth;
    return shape;
}

ResourceShape buffer(std::uint64_t byte_width) {
    ResourceShape shape;
    shape.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
    shape.byte_width = byte_width;
    return shape;
}

// Subresource tilings as "WxHxD@start" or "packed", so that a mismatch
// shows the whole table.
std::vector<std::string> subresource_table(const ResourceTiling& tiling) {
    std::vector<std::string> table;
    for (const D3D11_SUBRESOURCE_TILING& sub : tiling.subresources) {
        if (sub.StartTileIndexInOverallResource == kPackedStart) {
            const bool zero =
                sub.WidthInTiles == 0 && sub.HeightInTiles == 0 && sub.DepthInTiles == 0;
            table.push_back(zero ? "packed" : "packed with nonzero size");
            continue;
        }
        table.push_back(std::to_string(sub.WidthInTiles) + "x" + std::to_string(sub.HeightInTiles) +
                        "x" + std::to_string(sub.DepthInTiles) + "@" +
                        std::to_string(sub.StartTileIndexInOverallResource));
    }
    return table;
}

std::string shape_of(const ResourceTiling& tiling) {
    return std::to_string(tiling.shape.WidthInTexels) + "x" +
           std::to_string(tiling.shape.HeightInTexels) + "x" +
           std::to_string(tiling.shape.DepthInTexels);
}

// NumStandardMips, NumPackedMips, NumTilesForPackedMips, StartTileIndexInOverallResource.
std::string packed_of(const ResourceTiling& tiling) {
    return std::to_string(tiling.packed.NumStandardMips) + " standard, " +
           std::to_string(tiling.packed.NumPackedMips) + " packed in " +
           std::to_string(tiling.packed.NumTilesForPackedMips) + " tiles from " +
           std::to_string(tiling.packed.StartTileIndexInOverallResource);
}

ResourceTiling tile(const ResourceShape& shape) {
    ResourceTiling tiling;
    RecordingSink sink;
    REQUIRE(compute_tiling(shape, tiling, &sink) == S_OK);
    CHECK(sink.messages.empty());
    return tiling;
}

// Rejects the shape, leaves the tiling as it was, and returns the one message.
Message rejection(const ResourceShape& shape) {
    ResourceTiling tiling;
    tiling.total_tiles = 12345;
    RecordingSink sink;
    CHECK(compute_tiling(shape, tiling, &sink) == E_INVALIDARG);
    CHECK(tiling.total_tiles == 12345);
    CHECK(tiling.subresources.empty());
    REQUIRE(sink.messages.size() == 1);
    CHECK(sink.messages[0].severity == d3dcap::runtime::Severity::Error);
    return sink.messages[0];
}

}  // namespace

TEST_CASE("tiling: 1024x1024 RGBA8 with 11 mips: 4 standard mips, 7 packed in one tile") {
    // Tile 128x128. Mips 0..3 (1024, 512, 256, 128) are 8x8, 4x4, 2x2 and 1x1
    // tiles: 64 + 16 + 4 + 1 = 85. Mips 4..10 (64..1) are smaller than a tile:
    // (4096 + 1024 + 256 + 64 + 16 + 4 + 1) texels * 4 bytes = 21844 bytes -> 1 tile.
    const ResourceTiling tiling = tile(texture_2d(1024, 1024, DXGI_FORMAT_R8G8B8A8_UNORM, 11));
    CHECK(tiling.total_tiles == 86);
    CHECK(shape_of(tiling) == "128x128x1");
    CHECK(packed_of(tiling) == "4 standard, 7 packed in 1 tiles from 85");
    CHECK(subresource_table(tiling) ==
          std::vector<std::string>{"8x8x1@0", "4x4x1@64", "2x2x1@80", "1x1x1@84", "packed",
                                   "packed", "packed", "packed", "packed", "packed", "packed"});
    CHECK(tiling.mip_levels == 11);
    CHECK(tiling.array_size == 1);
    CHECK(tiling.packed_start(0) == 85);
    CHECK(tiling.packed_start(1) == kPackedStart);
}

TEST_CASE("tiling: 3 slices of 512x256 BC1 with 4 mips interleave each slice's packed tile") {
    // Tile 512x256 (BC1). Mip 0 is one tile; mips 1..3 (256x128, 128x64,
    // 64x32) are (64*32 + 32*16 + 16*8) blocks * 8 bytes = 21504 bytes -> 1
    // tile. Each slice: its mip 0 tile, then its packed tile.
    const ResourceTiling tiling = tile(texture_2d(512, 256, DXGI_FORMAT_BC1_UNORM, 4, 3));
    CHECK(tiling.total_tiles == 6);
    CHECK(shape_of(tiling) == "512x256x1");
    CHECK(packed_of(tiling) == "1 standard, 3 packed in 1 tiles from 1");
    CHECK(subresource_table(tiling) ==
          std::vector<std::string>{"1x1x1@0", "packed", "packed", "packed",  //
                                   "1x1x1@2", "packed", "packed", "packed",  //
                                   "1x1x1@4", "packed", "packed", "packed"});
    CHECK(tiling.array_size == 3);
    CHECK(tiling.packed_start(0) == 1);
    CHECK(tiling.packed_start(1) == 3);
    CHECK(tiling.packed_start(2) == 5);
    CHECK(tiling.packed_start(3) == kPackedStart);
}

TEST_CASE("tiling: a cube of 256x256 RGBA8 with 9 mips numbers six slices of 6 tiles") {
    // Tile 128x128: mip 0 2x2, mip 1 1x1, mips 2..8 packed: 5461 texels * 4 = 21844 bytes -> 1.
    const ResourceTiling tiling = tile(texture_2d(256, 256, DXGI_FORMAT_R8G8B8A8_UNORM, 9, 6));
    CHECK(tiling.total_tiles == 36);
    CHECK(packed_of(tiling) == "2 standard, 7 packed in 1 tiles from 5");
    const std::vector<std::string> table = subresource_table(tiling);
    REQUIRE(table.size() == 54);
    CHECK(table[0] == "2x2x1@0");
    CHECK(table[1] == "1x1x1@4");
    CHECK(table[2] == "packed");
    CHECK(table[9] == "2x2x1@6");
    CHECK(table[10] == "1x1x1@10");
    CHECK(table[45] == "2x2x1@30");
    CHECK(table[46] == "1x1x1@34");
    CHECK(table[53] == "packed");
    CHECK(tiling.packed_start(0) == 5);
    CHECK(tiling.packed_start(5) == 35);
}

TEST_CASE("tiling: a packed set of several tiles") {
    // 300x200 RGBA8, 3 mips. Mip 0: ceil(300/128) x ceil(200/128) = 3x2.
    // Mip 1 (150x100) is under a tile high: mips 1..2 are packed,
    // 150*100*4 + 75*50*4 = 75000 bytes -> 2 tiles.
    const ResourceTiling tiling = tile(texture_2d(300, 200, DXGI_FORMAT_R8G8B8A8_UNORM, 3));
    CHECK(tiling.total_tiles == 8);
    CHECK(packed_of(tiling) == "1 standard, 2 packed in 2 tiles from 6");
    CHECK(subresource_table(tiling) == std::vector<std::string>{"3x2x1@0", "packed", "packed"});
}

TEST_CASE("tiling: a texture smaller than a tile is packed whole and has no tile shape") {
    // 64x64 RGBA8 = 16384 bytes -> 1 tile; GetResourceTiling reports a zero shape.
    const ResourceTiling tiling = tile(texture_2d(64, 64, DXGI_FORMAT_R8G8B8A8_UNORM));
    CHECK(tiling.total_tiles == 1);
    CHECK(shape_of(tiling) == "0x0x0");
    CHECK(packed_of(tiling) == "0 standard, 1 packed in 1 tiles from 0");
    CHECK(subresource_table(tiling) == std::vector<std::string>{"packed"});
    CHECK(tiling.packed_start(0) == 0);
}

TEST_CASE("tiling: no packed mips reports 0 packed tiles starting at 0") {
    // 512x512 R8: tile 256x256, 2x2 tiles; mip 1 (256x256) is one whole tile.
    const ResourceTiling tiling = tile(texture_2d(512, 512, DXGI_FORMAT_R8_UNORM, 2));
    CHECK(tiling.total_tiles == 5);
    CHECK(packed_of(tiling) == "2 standard, 0 packed in 0 tiles from 0");
    CHECK(subresource_table(tiling) == std::vector<std::string>{"2x2x1@0", "1x1x1@4"});
    CHECK(tiling.packed_start(0) == kPackedStart);
}

TEST_CASE("tiling: 4 samples halve the tile in both dimensions") {
    // RGBA8 128x128 at one sample -> 64x64 at 4; 512x512 is 8x8 tiles.
    const ResourceTiling rgba8 = tile(texture_2d(512, 512, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, 4));
    CHECK(rgba8.total_tiles == 64);
    CHECK(shape_of(rgba8) == "64x64x1");
    CHECK(packed_of(rgba8) == "1 standard, 0 packed in 0 tiles from 0");
    CHECK(subresource_table(rgba8) == std::vector<std::string>{"8x8x1@0"});
    // RGBA16F 128x64 -> 64x32; 512x512 is 8x16 tiles.
    const ResourceTiling rgba16 =
        tile(texture_2d(512, 512, DXGI_FORMAT_R16G16B16A16_FLOAT, 1, 1, 4));
    CHECK(shape_of(rgba16) == "64x32x1");
    CHECK(subresource_table(rgba16) == std::vector<std::string>{"8x16x1@0"});
    // A 4-sample texture under one tile packs its samples too: 32x32 * 4 B * 4 = 16 KiB.
    const ResourceTiling small = tile(texture_2d(32, 32, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, 4));
    CHECK(packed_of(small) == "0 standard, 1 packed in 1 tiles from 0");
}

TEST_CASE("tiling: a buffer of 200000 bytes is 4 tiles of 65536 bytes") {
    const ResourceTiling tiling = tile(buffer(200000));
    CHECK(tiling.total_tiles == 4);
    CHECK(shape_of(tiling) == "65536x1x1");
    CHECK(packed_of(tiling) == "1 standard, 0 packed in 0 tiles from 0");
    CHECK(subresource_table(tiling) == std::vector<std::string>{"4x1x1@0"});
    CHECK(tile(buffer(65536)).total_tiles == 1);
    CHECK(tile(buffer(65537)).total_tiles == 2);
    CHECK(tile(buffer(1)).total_tiles == 1);
}

TEST_CASE("tiling: 256x256x64 R16_FLOAT Texture3D with 4 mips packs from the first thin mip") {
    // Tile 32x32x32. Mip 0: 8x8x2 = 128 tiles; mip 1 (128x128x32): 4x4x1 = 16.
    // Mip 2 (64x64x16) is under a tile deep: mips 2..3 are packed,
    // 64*64*16*2 + 32*32*8*2 = 147456 bytes -> 3 tiles.
    const ResourceTiling tiling = tile(texture_3d(256, 256, 64, DXGI_FORMAT_R16_FLOAT, 4));
    CHECK(tiling.total_tiles == 147);
    CHECK(shape_of(tiling) == "32x32x32");
    CHECK(packed_of(tiling) == "2 standard, 2 packed in 3 tiles from 144");
    CHECK(subresource_table(tiling) ==
          std::vector<std::string>{"8x8x2@0", "4x4x1@128", "packed", "packed"});
    CHECK(tiling.packed_start(0) == 144);
}

TEST_CASE("tiling: MipLevels 0 means the full chain") {
    // 256x256x64 R16_FLOAT: 9 mips; mips 2..8 are 131072 + 16384 + 2048 + 256
    // + 32 + 8 + 2 = 149802 bytes -> 3 tiles.
    const ResourceTiling tiling = tile(texture_3d(256, 256, 64, DXGI_FORMAT_R16_FLOAT, 0));
    CHECK(tiling.mip_levels == 9);
    CHECK(tiling.total_tiles == 147);
    CHECK(packed_of(tiling) == "2 standard, 7 packed in 3 tiles from 144");
    CHECK(subresource_table(tiling).size() == 9);
}

TEST_CASE("tiling: standard tile shapes per texel size and dimension") {
    struct Case {
        DXGI_FORMAT format;
        const char* shape_2d;
        const char* shape_3d;
    };
    const Case cases[] = {
        {DXGI_FORMAT_R8_UNORM, "256x256x1", "64x32x32"},
        {DXGI_FORMAT_R16_FLOAT, "256x128x1", "32x32x32"},
        {DXGI_FORMAT_B8G8R8A8_UNORM_SRGB, "128x128x1", "32x32x16"},
        {DXGI_FORMAT_D32_FLOAT, "128x128x1", "32x32x16"},
        {DXGI_FORMAT_R24G8_TYPELESS, "128x128x1", "32x32x16"},
        {DXGI_FORMAT_R16G16B16A16_FLOAT, "128x64x1", "32x16x16"},
        {DXGI_FORMAT_R32G32B32A32_FLOAT, "64x64x1", "16x16x16"},
        {DXGI_FORMAT_BC1_UNORM, "512x256x1", "128x64x16"},
        {DXGI_FORMAT_BC4_SNORM, "512x256x1", "128x64x16"},
        {DXGI_FORMAT_BC2_UNORM, "256x256x1", "64x64x16"},
        {DXGI_FORMAT_BC3_UNORM_SRGB, "256x256x1", "64x64x16"},
        {DXGI_FORMAT_BC5_UNORM, "256x256x1", "64x64x16"},
        {DXGI_FORMAT_BC6H_UF16, "256x256x1", "64x64x16"},
        {DXGI_FORMAT_BC7_TYPELESS, "256x256x1", "64x64x16"},
    };
    for (const Case& c : cases) {
        INFO("format " << static_cast<int>(c.format));
        CHECK(shape_of(tile(texture_2d(1024, 1024, c.format))) == c.shape_2d);
        CHECK(shape_of(tile(texture_3d(256, 256, 64, c.format))) == c.shape_3d);
    }
    // Whole tiles of each: 1024x1024 BC7 is 4x4 tiles; 256x256x32 BC1 is 2x4x2.
    CHECK(subresource_table(tile(texture_2d(1024, 1024, DXGI_FORMAT_BC7_UNORM))) ==
          std::vector<std::string>{"4x4x1@0"});
    CHECK(subresource_table(tile(texture_3d(256, 256, 32, DXGI_FORMAT_BC1_UNORM))) ==
          std::vector<std::string>{"2x4x2@0"});
}

TEST_CASE("tiling: rejects 96-bit formats") {
    const Message message = rejection(texture_2d(256, 256, DXGI_FORMAT_R32G32B32_FLOAT));
    CHECK(message.call == "ID3D11Device::CreateTexture2D");
    CHECK(message.parameter == "pDesc->Format");
    CHECK(message.text ==
          "DXGI_FORMAT_R32G32B32_FLOAT (6) cannot be tiled: 96-bit formats have no standard tile "
          "shape");
}

TEST_CASE("tiling: rejects video formats") {
    const Message message = rejection(texture_2d(256, 256, DXGI_FORMAT_NV12));
    CHECK(message.call == "ID3D11Device::CreateTexture2D");
    CHECK(message.parameter == "pDesc->Format");
    CHECK(message.text ==
          "DXGI_FORMAT_NV12 (103) cannot be tiled: video formats have no standard tile shape");
    CHECK(rejection(texture_2d(256, 256, DXGI_FORMAT_YUY2)).text ==
          "DXGI_FORMAT_YUY2 (107) cannot be tiled: video formats have no standard tile shape");
}

TEST_CASE("tiling: rejects R1 and the packed 4:2:2 RGB formats") {
    CHECK(rejection(texture_2d(256, 256, DXGI_FORMAT_R1_UNORM)).text ==
          "DXGI_FORMAT_R1_UNORM (66) cannot be tiled: it has no standard tile shape");
    CHECK(rejection(texture_2d(256, 256, DXGI_FORMAT_R8G8_B8G8_UNORM)).text ==
          "DXGI_FORMAT_R8G8_B8G8_UNORM (68) cannot be tiled: it has no standard tile shape");
    CHECK(rejection(texture_3d(64, 64, 64, DXGI_FORMAT_G8R8_G8B8_UNORM)).text ==
          "DXGI_FORMAT_G8R8_G8B8_UNORM (69) cannot be tiled: it has no standard tile shape");
    CHECK(rejection(texture_2d(256, 256, DXGI_FORMAT_UNKNOWN)).text ==
          "DXGI_FORMAT_UNKNOWN (0) is not a format a tiled texture can have");
}

TEST_CASE("tiling: rejects Texture1D") {
    ResourceShape shape = texture_2d(256, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    shape.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE1D;
    const Message message = rejection(shape);
    CHECK(message.call == "ID3D11Device::CreateTexture1D");
    CHECK(message.parameter == "pDesc->MiscFlags");
    CHECK(message.text ==
          "D3D11_RESOURCE_MISC_TILED is not allowed on a Texture1D; tiled resources are Buffers, "
          "Texture2Ds (arrays and cubes too) and Texture3Ds");
}

TEST_CASE("tiling: rejects sample counts other than 1 and 4") {
    const Message eight = rejection(texture_2d(512, 512, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, 8));
    CHECK(eight.call == "ID3D11Device::CreateTexture2D");
    CHECK(eight.parameter == "pDesc->SampleDesc.Count");
    CHECK(eight.text == "8 samples: a tiled resource may have 1 or 4 samples");
    CHECK(rejection(texture_2d(512, 512, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, 2)).text ==
          "2 samples: a tiled resource may have 1 or 4 samples");
    CHECK(rejection(texture_2d(512, 512, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 1, 0)).text ==
          "0 samples: a tiled resource may have 1 or 4 samples");
}

TEST_CASE("tiling: rejects 128-bit formats with 4 samples") {
    const Message message =
        rejection(texture_2d(512, 512, DXGI_FORMAT_R32G32B32A32_FLOAT, 1, 1, 4));
    CHECK(message.parameter == "pDesc->SampleDesc.Count");
    CHECK(message.text ==
          "4 samples: DXGI_FORMAT_R32G32B32A32_FLOAT (2) has 128 bits per texel, and a tiled "
          "resource of 128-bit texels cannot be multisampled");
}

TEST_CASE("tiling: rejects multisampled mips, BC and 3D") {
    const Message mips = rejection(texture_2d(512, 512, DXGI_FORMAT_R8G8B8A8_UNORM, 2, 1, 4));
    CHECK(mips.parameter == "pDesc->MipLevels");
    CHECK(mips.text == "2 levels: a multisampled texture has exactly 1");
    CHECK(rejection(texture_2d(512, 512, DXGI_FORMAT_BC1_UNORM, 1, 1, 4)).text ==
          "4 samples: DXGI_FORMAT_BC1_UNORM (71) cannot be multisampled");
    ResourceShape volume = texture_3d(64, 64, 64, DXGI_FORMAT_R8_UNORM);
    volume.sample_count = 4;
    const Message message = rejection(volume);
    CHECK(message.call == "ID3D11Device::CreateTexture3D");
    CHECK(message.text == "4 samples: a Texture3D has 1 sample");
}

TEST_CASE("tiling: rejects sizes, slices and mip counts outside the D3D11 limits") {
    const Message width = rejection(texture_2d(0, 64, DXGI_FORMAT_R8_UNORM));
    CHECK(width.parameter == "pDesc->Width");
    CHECK(width.text == "0 is outside 1..16384");
    CHECK(rejection(texture_2d(64, 16385, DXGI_FORMAT_R8_UNORM)).text ==
          "16385 is outside 1..16384");
    const Message depth = rejection(texture_3d(64, 64, 4096, DXGI_FORMAT_R8_UNORM));
    CHECK(depth.parameter == "pDesc->Depth");
    CHECK(depth.text == "4096 is outside 1..2048");
    const Message slices = rejection(texture_2d(64, 64, DXGI_FORMAT_R8_UNORM, 1, 0));
    CHECK(slices.parameter == "pDesc->ArraySize");
    CHECK(slices.text == "0 is outside 1..2048");
    const Message levels = rejection(texture_2d(256, 64, DXGI_FORMAT_R8_UNORM, 10));
    CHECK(levels.parameter == "pDesc->MipLevels");
    CHECK(levels.text == "10 is more than the 9 levels of a 256-texel texture");
    const Message blocks = rejection(texture_2d(256, 130, DXGI_FORMAT_BC3_UNORM));
    CHECK(blocks.parameter == "pDesc->Height");
    CHECK(blocks.text ==
          "256x130 is not a multiple of 4 in both dimensions, as DXGI_FORMAT_BC3_UNORM (77) needs");
}

TEST_CASE("tiling: rejects empty and oversized buffers") {
    const Message empty = rejection(buffer(0));
    CHECK(empty.call == "ID3D11Device::CreateBuffer");
    CHECK(empty.parameter == "pDesc->ByteWidth");
    CHECK(empty.text == "0 is outside 1..4294967295");
    CHECK(rejection(buffer(0x100000000)).text == "4294967296 is outside 1..4294967295");
}

TEST_CASE("tiling: rejects with no sink, and an unknown dimension") {
    ResourceTiling tiling;
    CHECK(compute_tiling(texture_2d(256, 256, DXGI_FORMAT_NV12), tiling, nullptr) == E_INVALIDARG);
    CHECK(compute_tiling(texture_2d(256, 256, DXGI_FORMAT_R8_UNORM), tiling, nullptr) == S_OK);
    CHECK(tiling.total_tiles == 1);
    ResourceShape shape;
    const Message message = rejection(shape);
    CHECK(message.parameter == "shape.dimension");
    CHECK(message.text == "0 is not a Buffer, Texture2D or Texture3D dimension");
}
