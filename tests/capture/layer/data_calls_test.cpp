// Calls that read application memory of a size the call's rules give: the
// layer records exactly those bytes, never more (the application may have
// handed a buffer that ends there) and none when the device reads none.
#include <vector>

#include "capture/layer/layer_test.h"

namespace capture_tests {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes pattern(std::size_t size, std::uint8_t seed) {
    Bytes out(size);
    for (std::size_t i = 0; i < size; ++i)
        out[i] = static_cast<std::uint8_t>((i * 131) ^ (i >> 8) ^ seed);
    return out;
}

Bytes bytes_of(const flatbuffers::Vector<std::uint8_t>* data) {
    return data == nullptr ? Bytes() : Bytes(data->begin(), data->end());
}

TEST_CASE("CreateTexture2D records exactly the initial data bytes of each subresource") {
    Capture capture;
    // RGBA8 64x32 with a 300-byte pitch: 31 full pitches and one 256-byte
    // row; mip 1 (32x16) with a 200-byte pitch: 15 * 200 + 128.
    const Bytes mip0 = pattern(31 * 300 + 256, 1);
    const Bytes mip1 = pattern(15 * 200 + 128, 2);
    const D3D11_SUBRESOURCE_DATA init[2] = {{mip0.data(), 300, 0}, {mip1.data(), 200, 0}};
    const D3D11_TEXTURE2D_DESC desc = texture2d_desc(
        64, 32, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, 2);
    Com<ID3D11Texture2D> texture;
    REQUIRE(capture.device->CreateTexture2D(&desc, init, texture.out()) == S_OK);
    // BC1 64x32: 8 rows of 16 blocks of 8 bytes, pitch 200.
    const Bytes bc1 = pattern(7 * 200 + 128, 3);
    const D3D11_SUBRESOURCE_DATA bc1_init{bc1.data(), 200, 0};
    const D3D11_TEXTURE2D_DESC bc1_desc = texture2d_desc(
        64, 32, DXGI_FORMAT_BC1_UNORM, D3D11_USAGE_IMMUTABLE, D3D11_BIND_SHADER_RESOURCE, 0);
    Com<ID3D11Texture2D> compressed;
    REQUIRE(capture.device->CreateTexture2D(&bc1_desc, &bc1_init, compressed.out()) == S_OK);
    Com<ID3D11Texture2D> empty;
    REQUIRE(capture.device->CreateTexture2D(&desc, nullptr, empty.out()) == S_OK);
    TraceRecords records = capture.stop();

    const auto creates = records.params<fb::ID3D11Device_CreateTexture2D>();
    REQUIRE(creates.size() == 3);
    const auto* data = creates[0]->p_initial_data();
    REQUIRE(data != nullptr);
    REQUIRE(data->size() == 2);
    CHECK(data->Get(0)->p_sys_mem()->size() == 9556);
    CHECK(bytes_of(data->Get(0)->p_sys_mem()) == mip0);
    CHECK(data->Get(0)->sys_mem_pitch() == 300);
    CHECK(data->Get(1)->p_sys_mem()->size() == 3128);
    CHECK(bytes_of(data->Get(1)->p_sys_mem()) == mip1);
    CHECK(data->Get(1)->sys_mem_pitch() == 200);
    const auto* bc1_data = creates[1]->p_initial_data();
    REQUIRE(bc1_data != nullptr);
    REQUIRE(bc1_data->size() == 1);
    CHECK(bc1_data->Get(0)->p_sys_mem()->size() == 1528);
    CHECK(bytes_of(bc1_data->Get(0)->p_sys_mem()) == bc1);
    CHECK((creates[2]->p_initial_data() == nullptr || creates[2]->p_initial_data()->size() == 0));
}

TEST_CASE("UpdateSubresource and UpdateSubresource1 record exactly the bytes of the region") {
    Capture capture;
    const D3D11_TEXTURE2D_DESC desc = texture2d_desc(
        64, 32, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0);
    Com<ID3D11Texture2D> texture;
    REQUIRE(capture.device->CreateTexture2D(&desc, nullptr, texture.out()) == S_OK);
    // 16x8 texels, pitch 100: 7 * 100 + 64 bytes.
    const D3D11_BOX box{8, 4, 0, 24, 12, 1};
    const Bytes boxed = pattern(7 * 100 + 64, 4);
    capture.context->UpdateSubresource(texture.get(), 0, &box, boxed.data(), 100, 0);
    // The whole mip, pitch 256: 32 rows of 256 bytes.
    const Bytes whole = pattern(32 * 256, 5);
    capture.context->UpdateSubresource(texture.get(), 0, nullptr, whole.data(), 256, 0);
    // An empty box: D3D11 reads nothing.
    const D3D11_BOX empty_box{8, 4, 0, 8, 12, 1};
    capture.context->UpdateSubresource(texture.get(), 0, &empty_box, boxed.data(), 100, 0);

    // A buffer: the box is in bytes.
    const D3D11_BUFFER_DESC buffer_d =
        buffer_desc(256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0);
    Com<ID3D11Buffer> buffer;
    REQUIRE(capture.device->CreateBuffer(&buffer_d, nullptr, buffer.out()) == S_OK);
    const D3D11_BOX bytes_box{16, 0, 0, 48, 1, 1};
    const Bytes span = pattern(32, 6);
    capture.context->UpdateSubresource1(buffer.get(), 0, &bytes_box, span.data(), 0, 0, 0);

    // A volume: (depth - 1) * depth pitch + (rows - 1) * row pitch + row bytes.
    D3D11_TEXTURE3D_DESC volume_desc{};
    volume_desc.Width = 8;
    volume_desc.Height = 8;
    volume_desc.Depth = 4;
    volume_desc.MipLevels = 1;
    volume_desc.Format = DXGI_FORMAT_R32_FLOAT;
    volume_desc.Usage = D3D11_USAGE_DEFAULT;
    volume_desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    Com<ID3D11Texture3D> volume;
    REQUIRE(capture.device->CreateTexture3D(&volume_desc, nullptr, volume.out()) == S_OK);
    const D3D11_BOX volume_box{0, 0, 1, 4, 2, 3};
    const Bytes slices = pattern(256 + 64 + 16, 7);
    capture.context->UpdateSubresource1(volume.get(), 0, &volume_box, slices.data(), 64, 256, 0);
    TraceRecords records = capture.stop();

    const auto updates = records.params<fb::ID3D11DeviceContext_UpdateSubresource>();
    REQUIRE(updates.size() == 3);
    CHECK(bytes_of(updates[0]->p_src_data()).size() == 764);
    CHECK(bytes_of(updates[0]->p_src_data()) == boxed);
    CHECK(updates[0]->src_row_pitch() == 100);
    REQUIRE(updates[0]->p_dst_box() != nullptr);
    CHECK(updates[0]->p_dst_box()->right() == 24);
    CHECK(bytes_of(updates[1]->p_src_data()) == whole);
    CHECK(updates[1]->p_dst_box() == nullptr);
    CHECK(bytes_of(updates[2]->p_src_data()).empty());
    const auto updates1 = records.params<fb::ID3D11DeviceContext1_UpdateSubresource1>();
    REQUIRE(updates1.size() == 2);
    CHECK(bytes_of(updates1[0]->p_src_data()) == span);
    CHECK(bytes_of(updates1[1]->p_src_data()).size() == 336);
    CHECK(bytes_of(updates1[1]->p_src_data()) == slices);
    CHECK(updates1[1]->src_depth_pitch() == 256);
}

TEST_CASE(
    "UpdateTiles records NumTiles * 64 KiB, and nothing for a region larger than the "
    "resource or a box that does not hold NumTiles") {
    Capture capture;
    // 256x256 RGBA8: 2x2 tiles of 128x128 texels, mapped onto a 4-tile pool.
    D3D11_TEXTURE2D_DESC desc = texture2d_desc(256, 256, DXGI_FORMAT_R8G8B8A8_UNORM,
                                               D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0);
    desc.MiscFlags = D3D11_RESOURCE_MISC_TILED;
    Com<ID3D11Texture2D> tiled;
    REQUIRE(capture.device->CreateTexture2D(&desc, nullptr, tiled.out()) == S_OK);
    D3D11_BUFFER_DESC pool_desc = buffer_desc(4 * 65536, D3D11_USAGE_DEFAULT, 0, 0);
    pool_desc.MiscFlags = D3D11_RESOURCE_MISC_TILE_POOL;
    Com<ID3D11Buffer> pool;
    REQUIRE(capture.device->CreateBuffer(&pool_desc, nullptr, pool.out()) == S_OK);
    const D3D11_TILED_RESOURCE_COORDINATE origin{0, 0, 0, 0};
    const D3D11_TILE_REGION_SIZE all{4, FALSE, 0, 0, 0};
    const UINT offset = 0, count = 4;
    REQUIRE(capture.context->UpdateTileMappings(tiled.get(), 1, &origin, &all, pool.get(), 1,
                                                nullptr, &offset, &count, 0) == S_OK);

    const Bytes source = pattern(5 * 65536, 8);
    const D3D11_TILE_REGION_SIZE three{3, FALSE, 0, 0, 0};
    capture.context->UpdateTiles(tiled.get(), &origin, &three, source.data(), 0);
    const D3D11_TILED_RESOURCE_COORDINATE second_row{0, 1, 0, 0};
    const D3D11_TILE_REGION_SIZE box{2, TRUE, 2, 1, 1};
    capture.context->UpdateTiles(tiled.get(), &second_row, &box, source.data() + 65536, 0);
    const D3D11_TILE_REGION_SIZE too_many{5, FALSE, 0, 0, 0};
    capture.context->UpdateTiles(tiled.get(), &origin, &too_many, source.data(), 0);
    // A box of one tile that claims two: refused too, and the application's
    // buffer may hold only the box's tile.
    const Bytes one_tile = pattern(65536, 9);
    const D3D11_TILE_REGION_SIZE mismatched{2, TRUE, 1, 1, 1};
    capture.context->UpdateTiles(tiled.get(), &origin, &mismatched, one_tile.data(), 0);
    TraceRecords records = capture.stop();

    const auto updates = records.params<fb::ID3D11DeviceContext2_UpdateTiles>();
    REQUIRE(updates.size() == 4);
    CHECK(bytes_of(updates[0]->p_source_tile_data()).size() == 3 * 65536);
    CHECK(bytes_of(updates[0]->p_source_tile_data()) ==
          Bytes(source.begin(), source.begin() + 3 * 65536));
    CHECK(bytes_of(updates[1]->p_source_tile_data()).size() == 2 * 65536);
    CHECK(bytes_of(updates[1]->p_source_tile_data()) ==
          Bytes(source.begin() + 65536, source.begin() + 3 * 65536));
    REQUIRE(updates[1]->p_dest_tile_region_size() != nullptr);
    CHECK(updates[1]->p_dest_tile_region_size()->width() == 2);
    CHECK(bytes_of(updates[2]->p_source_tile_data()).empty());
    REQUIRE(updates[2]->p_dest_tile_region_size() != nullptr);
    CHECK(updates[2]->p_dest_tile_region_size()->num_tiles() == 5);
    CHECK(bytes_of(updates[3]->p_source_tile_data()).empty());
    REQUIRE(updates[3]->p_dest_tile_region_size() != nullptr);
    CHECK(updates[3]->p_dest_tile_region_size()->num_tiles() == 2);
    // The tiling the capturing device reported is in the trace.
    const auto tilings = records.meta(fb::Meta::ResourceTiling);
    REQUIRE(tilings.size() == 1);
    CHECK(tilings[0]->meta_as_ResourceTiling()->num_tiles() == 4);
}

}  // namespace
}  // namespace capture_tests
