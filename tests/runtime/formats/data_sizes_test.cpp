// Bytes a call reads from application memory, from the resource description:
// every expected size below is worked out by hand in the comment beside it.
#include "runtime/formats/data_sizes.h"

#include <catch2/catch.hpp>

namespace {

using d3dcap::runtime::formats::full_mip_levels;
using d3dcap::runtime::formats::initial_data_bytes;
using d3dcap::runtime::formats::mapped_subresource_bytes;
using d3dcap::runtime::formats::ResourceShape;
using d3dcap::runtime::formats::shape_of;
using d3dcap::runtime::formats::SizeResult;
using d3dcap::runtime::formats::update_subresource_bytes;

D3D11_TEXTURE2D_DESC texture2d(UINT width, UINT height, DXGI_FORMAT format, UINT mips = 1,
                               UINT array_size = 1) {
    D3D11_TEXTURE2D_DESC desc{};
    desc.Width = width;
    desc.Height = height;
    desc.MipLevels = mips;
    desc.ArraySize = array_size;
    desc.Format = format;
    desc.SampleDesc.Count = 1;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    return desc;
}

D3D11_TEXTURE3D_DESC texture3d(UINT width, UINT height, UINT depth, DXGI_FORMAT format,
                               UINT mips = 1) {
    D3D11_TEXTURE3D_DESC desc{};
    desc.Width = width;
    desc.Height = height;
    desc.Depth = depth;
    desc.MipLevels = mips;
    desc.Format = format;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    return desc;
}

// The byte count of a result that must succeed, with its error shown if not.
std::size_t bytes_of(const SizeResult& result) {
    INFO("error: " << result.error);
    REQUIRE(result.ok());
    return result.bytes;
}

}  // namespace

TEST_CASE("shape_of resolves MipLevels 0 to the full chain", "[data_sizes]") {
    CHECK(shape_of(texture2d(1024, 512, DXGI_FORMAT_R8G8B8A8_UNORM, 0)).mip_levels == 11);
    CHECK(shape_of(texture2d(1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, 0)).mip_levels == 1);
    CHECK(shape_of(texture2d(30, 30, DXGI_FORMAT_BC1_UNORM, 0)).mip_levels == 5);
    CHECK(shape_of(texture3d(16, 64, 32, DXGI_FORMAT_R8_UNORM, 0)).mip_levels == 7);
    D3D11_TEXTURE1D_DESC one{100, 0, 3, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, 0, 0, 0};
    const ResourceShape line = shape_of(one);
    CHECK(line.mip_levels == 7);  // 100 50 25 12 6 3 1
    CHECK(line.array_size == 3);
    CHECK(line.height == 1);
    CHECK(line.depth == 1);
    CHECK(shape_of(texture2d(8, 8, DXGI_FORMAT_R8G8B8A8_UNORM, 3)).mip_levels == 3);
    CHECK(full_mip_levels(256, 256, 1) == 9);
    CHECK(full_mip_levels(5) == 3);  // 5 2 1
}

TEST_CASE("buffer sizes with and without a box", "[data_sizes]") {
    D3D11_BUFFER_DESC desc{1024, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
    const ResourceShape buffer = shape_of(desc);
    CHECK(buffer.dimension == D3D11_RESOURCE_DIMENSION_BUFFER);
    CHECK(buffer.width == 1024);

    // The pitches do not matter for buffers.
    CHECK(bytes_of(update_subresource_bytes(buffer, 0, nullptr, 0, 0)) == 1024);
    CHECK(bytes_of(update_subresource_bytes(buffer, 0, nullptr, 7, 9)) == 1024);
    const D3D11_BOX box{16, 0, 0, 272, 1, 1};
    CHECK(bytes_of(update_subresource_bytes(buffer, 0, &box, 0, 0)) == 256);
    const D3D11_BOX to_end{1000, 0, 0, 1024, 1, 1};
    CHECK(bytes_of(update_subresource_bytes(buffer, 0, &to_end, 0, 0)) == 24);

    CHECK(bytes_of(initial_data_bytes(buffer, 0, 0, 0)) == 1024);
    CHECK(bytes_of(mapped_subresource_bytes(buffer, 0, 1024, 1024)) == 1024);
}

TEST_CASE("buffer box errors and empty boxes", "[data_sizes]") {
    D3D11_BUFFER_DESC desc{1024, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
    const ResourceShape buffer = shape_of(desc);

    const D3D11_BOX past{1000, 0, 0, 1025, 1, 1};
    SizeResult result = update_subresource_bytes(buffer, 0, &past, 0, 0);
    CHECK(result.bytes == 0);
    CHECK(result.error == "pDstBox: right (1025) is past the end of the buffer (1024 bytes)");

    const D3D11_BOX tall{0, 0, 0, 16, 2, 1};
    CHECK(update_subresource_bytes(buffer, 0, &tall, 0, 0).error ==
          "pDstBox: bottom (2) is past the height of the buffer (1)");

    // Empty boxes make the call a no-op, even where they lie outside.
    const D3D11_BOX empty{100, 0, 0, 100, 1, 1};
    result = update_subresource_bytes(buffer, 0, &empty, 0, 0);
    CHECK(result.ok());
    CHECK(result.bytes == 0);
    const D3D11_BOX reversed{2000, 0, 0, 1500, 1, 1};
    CHECK(bytes_of(update_subresource_bytes(buffer, 0, &reversed, 0, 0)) == 0);
    const D3D11_BOX flat{0, 0, 0, 16, 0, 1};
    CHECK(bytes_of(update_subresource_bytes(buffer, 0, &flat, 0, 0)) == 0);

    CHECK(update_subresource_bytes(buffer, 1, nullptr, 0, 0).error ==
          "DstSubresource: 1 is out of range: the resource has 1 subresource (1 mip x 1 slice)");
    CHECK(initial_data_bytes(buffer, 1, 0, 0).error ==
          "pInitialData: element 1 is out of range: the resource has 1 subresource (1 mip x 1 "
          "slice)");

    D3D11_BUFFER_DESC none{0, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
    CHECK(update_subresource_bytes(shape_of(none), 0, nullptr, 0, 0).error ==
          "pDstResource: ByteWidth is 0");
}

TEST_CASE("RGBA8 2D texture, mip 0 and mip 3 with pitches larger than the row", "[data_sizes]") {
    const ResourceShape shape =
        shape_of(texture2d(1024, 1024, DXGI_FORMAT_R8G8B8A8_UNORM, 0));  // 11 mips
    // Mip 0: 1024 texels of 4 bytes = 4096 bytes a row, 1024 rows, pitch 4352:
    // 1023 * 4352 + 4096 = 4456192. The depth pitch is unused.
    CHECK(bytes_of(update_subresource_bytes(shape, 0, nullptr, 4352, 0)) == 4456192);
    CHECK(bytes_of(update_subresource_bytes(shape, 0, nullptr, 4352, 123)) == 4456192);
    // Tightly packed: 1024 * 1024 * 4.
    CHECK(bytes_of(update_subresource_bytes(shape, 0, nullptr, 4096, 0)) == 4194304);
    // Mip 3: 128x128, 512 bytes a row, pitch 768: 127 * 768 + 512 = 98048.
    CHECK(bytes_of(update_subresource_bytes(shape, 3, nullptr, 768, 0)) == 98048);
    // A box on mip 3: 16 texels (64 bytes) by 8 rows, pitch 768: 7 * 768 + 64.
    const D3D11_BOX box{4, 2, 0, 20, 10, 1};
    CHECK(bytes_of(update_subresource_bytes(shape, 3, &box, 768, 0)) == 5440);
    // The last mip, 1x1: one texel.
    CHECK(bytes_of(update_subresource_bytes(shape, 10, nullptr, 4, 4)) == 4);

    CHECK(bytes_of(initial_data_bytes(shape, 3, 768, 0)) == 98048);
    // A Map of mip 3 with a 1024-byte row pitch: 127 * 1024 + 512.
    CHECK(bytes_of(mapped_subresource_bytes(shape, 3, 1024, 131072)) == 130560);
}

TEST_CASE("2D texture box past the edge and subresource out of range", "[data_sizes]") {
    const ResourceShape shape = shape_of(texture2d(1024, 1024, DXGI_FORMAT_R8G8B8A8_UNORM, 0));
    const D3D11_BOX wide{0, 0, 0, 300, 16, 1};
    SizeResult result = update_subresource_bytes(shape, 2, &wide, 4096, 0);
    CHECK(result.bytes == 0);
    CHECK(result.error == "pDstBox: right (300) is past the width of mip 2 (256)");
    const D3D11_BOX tall{0, 0, 0, 16, 257, 1};
    CHECK(update_subresource_bytes(shape, 2, &tall, 4096, 0).error ==
          "pDstBox: bottom (257) is past the height of mip 2 (256)");
    const D3D11_BOX deep{0, 0, 0, 16, 16, 2};
    CHECK(update_subresource_bytes(shape, 2, &deep, 4096, 0).error ==
          "pDstBox: back (2) is past the depth of mip 2 (1)");
    // The same box fits mip 0.
    CHECK(bytes_of(update_subresource_bytes(shape, 0, &wide, 4096, 0)) == 15 * 4096 + 1200);

    CHECK(update_subresource_bytes(shape, 11, nullptr, 4096, 0).error ==
          "DstSubresource: 11 is out of range: the resource has 11 subresources (11 mips x 1 "
          "slice)");
    CHECK(mapped_subresource_bytes(shape, 11, 4096, 0).error ==
          "Subresource: 11 is out of range: the resource has 11 subresources (11 mips x 1 "
          "slice)");
    // An out-of-range subresource is an error even with an empty box.
    const D3D11_BOX empty{0, 0, 0, 0, 0, 0};
    CHECK_FALSE(update_subresource_bytes(shape, 11, &empty, 4096, 0).ok());

    // An empty box: a no-op of 0 bytes, even when outside the mip.
    const D3D11_BOX no_rows{10, 5, 0, 20, 5, 1};
    CHECK(bytes_of(update_subresource_bytes(shape, 0, &no_rows, 4096, 0)) == 0);
    const D3D11_BOX outside_empty{5000, 0, 0, 5000, 1, 1};
    CHECK(bytes_of(update_subresource_bytes(shape, 0, &outside_empty, 4096, 0)) == 0);
    const D3D11_BOX no_slices{0, 0, 1, 16, 16, 1};
    CHECK(bytes_of(update_subresource_bytes(shape, 0, &no_slices, 4096, 0)) == 0);
}

TEST_CASE("BC1 texture boxes in blocks with partial edge blocks", "[data_sizes]") {
    // BC1: 8 bytes per 4x4 block.
    const ResourceShape big = shape_of(texture2d(64, 64, DXGI_FORMAT_BC1_UNORM));
    // 16 texels = 4 blocks = 32 bytes a row, 16 texels = 4 block rows,
    // pitch 128 (the whole mip's row of 16 blocks): 3 * 128 + 32 = 416.
    const D3D11_BOX box{4, 8, 0, 20, 24, 1};
    CHECK(bytes_of(update_subresource_bytes(big, 0, &box, 128, 0)) == 416);
    // The whole mip: 16 blocks rows of 128 bytes = 2048.
    CHECK(bytes_of(update_subresource_bytes(big, 0, nullptr, 128, 0)) == 2048);

    // 30x30: 8x8 blocks, the last column and row of blocks only half used.
    const ResourceShape odd = shape_of(texture2d(30, 30, DXGI_FORMAT_BC1_UNORM, 0));
    REQUIRE(odd.mip_levels == 5);  // 30 15 7 3 1
    // Whole mip 0: 8 blocks (64 bytes) a row, 8 rows, pitch 64: 7 * 64 + 64.
    CHECK(bytes_of(update_subresource_bytes(odd, 0, nullptr, 64, 0)) == 512);
    // A box to the edge: 6 texels round up to 2 blocks (16 bytes), 2 rows of
    // blocks, pitch 64: 64 + 16 = 80.
    const D3D11_BOX edge{24, 24, 0, 30, 30, 1};
    CHECK(bytes_of(update_subresource_bytes(odd, 0, &edge, 64, 0)) == 80);
    // Mip 1 is 15x15: 4x4 blocks of 8 bytes, pitch 40: 3 * 40 + 32 = 152.
    CHECK(bytes_of(update_subresource_bytes(odd, 1, nullptr, 40, 0)) == 152);
    // Mip 3 is 3x3: one block.
    CHECK(bytes_of(update_subresource_bytes(odd, 3, nullptr, 8, 0)) == 8);
    const D3D11_BOX small{0, 0, 0, 3, 3, 1};
    CHECK(bytes_of(update_subresource_bytes(odd, 3, &small, 8, 0)) == 8);

    const D3D11_BOX past{24, 24, 0, 32, 30, 1};
    CHECK(update_subresource_bytes(odd, 0, &past, 64, 0).error ==
          "pDstBox: right (32) is past the width of mip 0 (30)");
    const D3D11_BOX unaligned{2, 0, 0, 8, 4, 1};
    CHECK(update_subresource_bytes(odd, 0, &unaligned, 64, 0).error ==
          "pDstBox: left (2) is not a multiple of the block width (4) of "
          "DXGI_FORMAT_BC1_UNORM (71)");
    const D3D11_BOX ragged{0, 0, 0, 8, 6, 1};
    CHECK(update_subresource_bytes(odd, 0, &ragged, 64, 0).error ==
          "pDstBox: bottom (6) is neither a multiple of the block height (4) of "
          "DXGI_FORMAT_BC1_UNORM (71) nor the height of mip 0 (30)");

    CHECK(bytes_of(initial_data_bytes(odd, 0, 64, 0)) == 512);
    CHECK(bytes_of(initial_data_bytes(odd, 4, 8, 0)) == 8);
}

TEST_CASE("BC7 texture boxes in blocks", "[data_sizes]") {
    // BC7: 16 bytes per 4x4 block. 256x128 has 9 mips: ... 4x2, 2x1, 1x1.
    const ResourceShape shape = shape_of(texture2d(256, 128, DXGI_FORMAT_BC7_UNORM, 0));
    REQUIRE(shape.mip_levels == 9);
    // 32 texels = 8 blocks = 128 bytes, 12 texels = 3 block rows, pitch 1024:
    // 2 * 1024 + 128 = 2176.
    const D3D11_BOX box{8, 4, 0, 40, 16, 1};
    CHECK(bytes_of(update_subresource_bytes(shape, 0, &box, 1024, 0)) == 2176);
    // Whole mip 0: 64 blocks x 16 bytes a row, 32 rows: 32768.
    CHECK(bytes_of(update_subresource_bytes(shape, 0, nullptr, 1024, 0)) == 32768);
    // Mip 7 (2x1) is one partial block.
    const D3D11_BOX tiny{0, 0, 0, 2, 1, 1};
    CHECK(bytes_of(update_subresource_bytes(shape, 7, &tiny, 16, 0)) == 16);
    CHECK(bytes_of(update_subresource_bytes(shape, 7, nullptr, 16, 0)) == 16);
    const D3D11_BOX ragged{8, 4, 0, 41, 16, 1};
    CHECK(update_subresource_bytes(shape, 0, &ragged, 1024, 0).error ==
          "pDstBox: right (41) is neither a multiple of the block width (4) of "
          "DXGI_FORMAT_BC7_UNORM (98) nor the width of mip 0 (256)");
}

TEST_CASE("3D texture with a depth pitch", "[data_sizes]") {
    // R16G16B16A16_FLOAT: 8 bytes a texel; 64x32x16, 3 mips.
    const ResourceShape shape = shape_of(texture3d(64, 32, 16, DXGI_FORMAT_R16G16B16A16_FLOAT, 3));
    // Tight: 64 * 32 * 16 * 8 = 262144 (15 * 16384 + 31 * 512 + 512).
    CHECK(bytes_of(update_subresource_bytes(shape, 0, nullptr, 512, 16384)) == 262144);
    // Padded: 15 * 24576 + 31 * 640 + 512 = 388992.
    CHECK(bytes_of(update_subresource_bytes(shape, 0, nullptr, 640, 24576)) == 388992);
    // A box of 16x8x4 texels: 3 * 24576 + 7 * 640 + 128 = 78336.
    const D3D11_BOX box{8, 4, 2, 24, 12, 6};
    CHECK(bytes_of(update_subresource_bytes(shape, 0, &box, 640, 24576)) == 78336);
    // Mip 2 is 16x8x4: 3 * 1024 + 7 * 128 + 128 = 4096.
    CHECK(bytes_of(update_subresource_bytes(shape, 2, nullptr, 128, 1024)) == 4096);
    const D3D11_BOX deep{0, 0, 0, 16, 8, 5};
    CHECK(update_subresource_bytes(shape, 2, &deep, 128, 1024).error ==
          "pDstBox: back (5) is past the depth of mip 2 (4)");

    CHECK(bytes_of(initial_data_bytes(shape, 0, 640, 24576)) == 388992);
    CHECK(bytes_of(mapped_subresource_bytes(shape, 1, 512, 8192)) ==
          7 * 8192 + 15 * 512 + 256);  // mip 1: 32x16x8, rows of 256 bytes
    CHECK(initial_data_bytes(shape, 3, 128, 1024).error ==
          "pInitialData: element 3 is out of range: the resource has 3 subresources (3 mips x 1 "
          "slice)");
}

TEST_CASE("texture arrays number subresources mip plus slice times mips", "[data_sizes]") {
    // R32_FLOAT 32x16, 3 mips, 4 slices: 12 subresources.
    const ResourceShape shape = shape_of(texture2d(32, 16, DXGI_FORMAT_R32_FLOAT, 3, 4));
    // Subresource 7 = mip 1 of slice 2: 16x8, 64 bytes a row, pitch 100:
    // 7 * 100 + 64 = 764.
    CHECK(bytes_of(update_subresource_bytes(shape, 7, nullptr, 100, 0)) == 764);
    // Subresource 3 = mip 0 of slice 1: 32x16, pitch 128: 15 * 128 + 128.
    CHECK(bytes_of(update_subresource_bytes(shape, 3, nullptr, 128, 0)) == 2048);
    // Subresource 11 = mip 2 of slice 3: 8x4, 32 bytes a row: 3 * 32 + 32.
    CHECK(bytes_of(initial_data_bytes(shape, 11, 32, 0)) == 128);
    // A box checked against mip 2 (8x4) of slice 1 (subresource 5).
    const D3D11_BOX box{0, 0, 0, 9, 4, 1};
    CHECK(update_subresource_bytes(shape, 5, &box, 32, 0).error ==
          "pDstBox: right (9) is past the width of mip 2 (8)");
    CHECK(update_subresource_bytes(shape, 12, nullptr, 128, 0).error ==
          "DstSubresource: 12 is out of range: the resource has 12 subresources (3 mips x 4 "
          "slices)");

    // A 1D array: RGBA8, width 100, full chain of 7, 3 slices. Subresource 9
    // = mip 2 of slice 1: 25 texels, 100 bytes; the pitches are unused.
    D3D11_TEXTURE1D_DESC one{100, 0, 3, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, 0, 0, 0};
    const ResourceShape line = shape_of(one);
    CHECK(bytes_of(update_subresource_bytes(line, 9, nullptr, 7777, 9999)) == 100);
    CHECK(bytes_of(initial_data_bytes(line, 20, 0, 0)) == 4);  // mip 6 of slice 2: 1 texel
    CHECK_FALSE(initial_data_bytes(line, 21, 0, 0).ok());
}

TEST_CASE("packed 4:2:2 formats count 2x1 pairs", "[data_sizes]") {
    // YUY2: 4 bytes per pair of texels; 10x4 is 5 pairs (20 bytes) a row.
    const ResourceShape shape = shape_of(texture2d(10, 4, DXGI_FORMAT_YUY2));
    // 6 texels = 3 pairs = 12 bytes, 2 rows, pitch 20: 20 + 12 = 32.
    const D3D11_BOX box{2, 0, 0, 8, 2, 1};
    CHECK(bytes_of(update_subresource_bytes(shape, 0, &box, 20, 0)) == 32);
    CHECK(bytes_of(mapped_subresource_bytes(shape, 0, 64, 256)) == 3 * 64 + 20);
    const D3D11_BOX odd{1, 0, 0, 8, 2, 1};
    CHECK(update_subresource_bytes(shape, 0, &odd, 20, 0).error ==
          "pDstBox: left (1) is not a multiple of the block width (2) of DXGI_FORMAT_YUY2 (107)");
}

TEST_CASE("formats and descriptions without a CPU layout are errors", "[data_sizes]") {
    CHECK(update_subresource_bytes(shape_of(texture2d(64, 64, DXGI_FORMAT_NV12)), 0, nullptr, 64, 0)
              .error ==
          "pDstResource: format DXGI_FORMAT_NV12 (103) is not supported by the capture data "
          "sizes (planar)");
    CHECK(initial_data_bytes(shape_of(texture2d(64, 64, DXGI_FORMAT_UNKNOWN)), 0, 256, 0).error ==
          "pDesc: format DXGI_FORMAT_UNKNOWN (0) has no texel size");
    CHECK(initial_data_bytes(shape_of(texture2d(64, 64, static_cast<DXGI_FORMAT>(200))), 0, 256, 0)
              .error == "pDesc: format DXGI_FORMAT value 200 (unknown) has no texel size");

    D3D11_TEXTURE2D_DESC msaa = texture2d(64, 64, DXGI_FORMAT_R8G8B8A8_UNORM);
    msaa.SampleDesc.Count = 4;
    CHECK(mapped_subresource_bytes(shape_of(msaa), 0, 256, 0).error ==
          "pResource: SampleDesc.Count is 4; only single-sampled textures have CPU-visible data");

    ResourceShape too_many = shape_of(texture2d(8, 8, DXGI_FORMAT_R8G8B8A8_UNORM));
    too_many.mip_levels = 5;
    CHECK(update_subresource_bytes(too_many, 0, nullptr, 32, 0).error ==
          "pDstResource: MipLevels (5) is not between 1 and the 4 levels of the full chain of "
          "8x8x1");
}
