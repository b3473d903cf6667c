// A device's copies, updates and Map, and the state-only device's answers,
// byte for byte.
#include <catch2/catch.hpp>

#include "data_support.h"

using namespace data_tests;

namespace {

Bytes slice(const Bytes& bytes, std::size_t from, std::size_t count) {
    return Bytes(bytes.begin() + from, bytes.begin() + from + count);
}

}  // namespace

TEST_CASE("UpdateSubresource on a constant buffer takes 16-byte-aligned byte boxes",
          "[data][copy]") {
    DataDevice device;
    device.create(buffer(1, 64, D3D11_BIND_CONSTANT_BUFFER));
    // For buffers the box is in bytes and the data starts at the box's first byte.
    const Bytes constants = pattern(32, 100);
    const D3D11_BOX middle{16, 0, 0, 48, 1, 1};
    device.backend->update_subresource(1, 0, &middle, constants.data(), 0, 0, 0);
    Bytes expected(64, 0);
    std::copy(constants.begin(), constants.end(), expected.begin() + 16);
    CHECK(device.read(1) == expected);

    const Bytes last(16, 0xAB);
    const D3D11_BOX tail{48, 0, 0, 64, 1, 1};
    device.backend->update_subresource(1, 0, &tail, last.data(), 0, 0, D3D11_COPY_DISCARD);
    std::fill(expected.begin() + 48, expected.end(), std::uint8_t{0xAB});
    CHECK(device.read(1) == expected);

    const Bytes whole = pattern(64, 7);
    device.backend->update_subresource(1, 0, nullptr, whole.data(), 0, 0, D3D11_COPY_NO_OVERWRITE);
    CHECK(device.read(1) == whole);
}

TEST_CASE("UpdateSubresource writes a texture box with the caller's pitches", "[data][copy]") {
    DataDevice device;
    device.create(texture2d(1, 4, 3, DXGI_FORMAT_R8G8B8A8_UNORM));
    // Two rows of two texels, each row padded by one more texel (pitch 12).
    const Bytes rows{1, 1, 1, 1, 2, 2, 2, 2, 9, 9, 9, 9, 3, 3, 3, 3, 4, 4, 4, 4, 9, 9, 9, 9};
    const D3D11_BOX box{1, 1, 0, 3, 3, 1};
    device.backend->update_subresource(1, 0, &box, rows.data(), 12, 0, 0);
    const Bytes image = device.read(1);
    CHECK(slice(image, 0, 16) == Bytes(16, 0));
    CHECK(slice(image, 16, 16) == Bytes{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0});
    CHECK(slice(image, 32, 16) == Bytes{0, 0, 0, 0, 3, 3, 3, 3, 4, 4, 4, 4, 0, 0, 0, 0});

    ResourceInfo volume = texture2d(2, 2, 2, DXGI_FORMAT_R8_UINT);
    volume.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    volume.depth = 2;
    device.create(volume);
    const Bytes back_slice{5, 6, 0, 0, 7, 8, 0, 0};  // row pitch 4
    const D3D11_BOX back{0, 0, 1, 2, 2, 2};
    device.backend->update_subresource(2, 0, &back, back_slice.data(), 4, 8, 0);
    CHECK(device.read(2) == Bytes{0, 0, 0, 0, 5, 6, 7, 8});
}

TEST_CASE("CopySubresourceRegion copies a box between textures of different sizes",
          "[data][copy]") {
    DataDevice device;
    device.create_with(texture2d(1, 8, 8, DXGI_FORMAT_R8_UINT), pattern(64, 0), 8);  // texel x + 8y
    device.create_with(texture2d(2, 4, 6, DXGI_FORMAT_R8_UINT), Bytes(24, 0xEE), 4);
    const D3D11_BOX box{5, 2, 0, 8, 5, 1};
    device.backend->copy_subresource_region(2, 0, 1, 2, 0, 1, 0, &box, 0);
    CHECK(device.read(2) == Bytes{0xEE, 0xEE, 0xEE, 0xEE,  //
                                  0xEE, 0xEE, 0xEE, 0xEE,  //
                                  0xEE, 21,   22,   23,    //
                                  0xEE, 29,   30,   31,    //
                                  0xEE, 37,   38,   39,    //
                                  0xEE, 0xEE, 0xEE, 0xEE});

    // What does not fit at the destination is left out.
    device.create_with(texture2d(3, 4, 6, DXGI_FORMAT_R8_UINT), Bytes(24, 0xEE), 4);
    const D3D11_BOX wide{4, 0, 0, 8, 8, 1};
    device.backend->copy_subresource_region(3, 0, 2, 3, 0, 1, 0, &wide, D3D11_COPY_NO_OVERWRITE);
    CHECK(device.read(3) == Bytes{0xEE, 0xEE, 0xEE, 0xEE,  //
                                  0xEE, 0xEE, 0xEE, 0xEE,  //
                                  0xEE, 0xEE, 0xEE, 0xEE,  //
                                  0xEE, 0xEE, 4,    5,     //
                                  0xEE, 0xEE, 12,   13,    //
                                  0xEE, 0xEE, 20,   21});

    // Within one subresource, overlapping: as if through a temporary.
    device.create_with(texture2d(4, 4, 1, DXGI_FORMAT_R8_UINT), Bytes{1, 2, 3, 4}, 4);
    const D3D11_BOX first_three{0, 0, 0, 3, 1, 1};
    device.backend->copy_subresource_region(4, 0, 1, 0, 0, 4, 0, &first_three, 0);
    CHECK(device.read(4) == Bytes{1, 1, 2, 3});
}

TEST_CASE("CopySubresourceRegion copies between texture dimensions", "[data][copy]") {
    DataDevice device;
    // A row of a 1D array's second slice into row 1 of a 2D texture, at x = 1.
    ResourceInfo row = texture2d(1, 4, 1, DXGI_FORMAT_R8_UINT, 1, 2);
    row.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE1D;
    const Bytes slices{1, 2, 3, 4, 5, 6, 7, 8};
    const D3D11_SUBRESOURCE_DATA row_data[2] = {{slices.data(), 4, 0}, {slices.data() + 4, 4, 0}};
    device.create(row, row_data);
    device.create_with(texture2d(2, 4, 3, DXGI_FORMAT_R8_UINT), Bytes(12, 0xEE), 4);
    const D3D11_BOX first_three{0, 0, 0, 3, 1, 1};
    device.backend->copy_subresource_region(2, 0, 1, 1, 0, 1, 1, &first_three, 0);
    CHECK(device.read(2) == Bytes{0xEE, 0xEE, 0xEE, 0xEE,  //
                                  0xEE, 5, 6, 7,           //
                                  0xEE, 0xEE, 0xEE, 0xEE});

    // A whole 2D texture into slice 1 of a 3D texture.
    ResourceInfo volume = texture2d(3, 4, 3, DXGI_FORMAT_R8_UINT);
    volume.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    volume.depth = 3;
    device.create_with(volume, Bytes(36, 0), 4, 12);
    device.backend->copy_subresource_region(3, 0, 0, 0, 1, 2, 0, nullptr, 0);
    Bytes expected(36, 0);
    const Bytes image = device.read(2);
    std::copy(image.begin(), image.end(), expected.begin() + 12);
    CHECK(device.read(3) == expected);

    // And back: row 1 of slice 1 of the volume into the 1D array's first slice.
    const D3D11_BOX volume_row{1, 1, 1, 4, 2, 2};
    device.backend->copy_subresource_region(1, 0, 0, 0, 0, 3, 0, &volume_row, 0);
    CHECK(device.read(1, 0) == Bytes{5, 6, 7, 4});
    CHECK(device.read(1, 1) == Bytes{5, 6, 7, 8});
}

TEST_CASE("BC1 copies move whole 4x4 blocks", "[data][copy]") {
    DataDevice device;
    // 8x8 BC1: 2x2 blocks of 8 bytes, 16 bytes a row of blocks.
    const Bytes blocks = pattern(32, 1);
    device.create_with(texture2d(1, 8, 8, DXGI_FORMAT_BC1_UNORM), blocks, 16);
    device.create(texture2d(2, 12, 8, DXGI_FORMAT_BC1_UNORM));  // 3x2 blocks
    const D3D11_BOX block{4, 0, 0, 8, 4, 1};                    // block (1, 0)
    device.backend->copy_subresource_region(2, 0, 8, 4, 0, 1, 0, &block, 0);
    Bytes expected(48, 0);
    std::copy(blocks.begin() + 8, blocks.begin() + 16, expected.begin() + 24 + 16);  // block (2, 1)
    CHECK(device.read(2) == expected);

    // A block reinterpreted as one texel of a 64-bit format, and a whole copy.
    device.create(texture2d(3, 2, 2, DXGI_FORMAT_R32G32_UINT));
    device.backend->copy_subresource_region(3, 0, 0, 0, 0, 1, 0, nullptr, 0);
    CHECK(device.read(3) == blocks);
    device.create(texture2d(4, 8, 8, DXGI_FORMAT_BC1_UNORM));
    device.backend->copy_resource(4, 1);
    CHECK(device.read(4) == blocks);
}

TEST_CASE("CopyResource copies every subresource, depth bits as they are", "[data][copy]") {
    DataDevice device;
    std::vector<Bytes> levels;
    std::vector<D3D11_SUBRESOURCE_DATA> initial;
    for (std::uint32_t sub = 0; sub < 6; ++sub)
        levels.push_back(pattern(16 >> (2 * (sub % 3)), sub * 40));
    for (const Bytes& level : levels) initial.push_back({level.data(), 0, 0});
    device.create(texture2d(1, 4, 4, DXGI_FORMAT_R8_UNORM, 3, 2), initial.data());
    device.create(texture2d(2, 4, 4, DXGI_FORMAT_R8_UNORM, 3, 2));
    device.backend->copy_resource(2, 1);
    for (std::uint32_t sub = 0; sub < 6; ++sub) {
        INFO("subresource " << sub);
        CHECK(device.read(2, sub) == levels[sub]);
    }

    const Bytes depth{1, 2, 3, 4, 5, 6, 7, 8};
    device.create_with(texture2d(3, 2, 1, DXGI_FORMAT_R24G8_TYPELESS), depth, 8);
    device.create(texture2d(4, 2, 1, DXGI_FORMAT_R24G8_TYPELESS));
    device.backend->copy_resource(4, 3);
    CHECK(device.read(4) == depth);
}

TEST_CASE("Map of a staging texture: READ sees the contents, WRITE_DISCARD keeps old bytes",
          "[data][map]") {
    DataDevice device;
    ResourceInfo info = texture2d(1, 4, 2, DXGI_FORMAT_R8G8B8A8_UNORM);
    info.usage = D3D11_USAGE_STAGING;
    info.bind_flags = 0;
    info.cpu_access_flags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
    const Bytes contents = pattern(32, 50);
    device.create_with(info, contents, 16);

    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(device.backend->map(1, 0, D3D11_MAP_READ, &mapped) == S_OK);
    CHECK(mapped.RowPitch == 16);
    CHECK(mapped.DepthPitch == 32);
    const auto* bytes = static_cast<const std::uint8_t*>(mapped.pData);
    CHECK(Bytes(bytes, bytes + 32) == contents);
    device.backend->unmap(1, 0);

    REQUIRE(device.backend->map(1, 0, D3D11_MAP_WRITE_DISCARD, &mapped) == S_OK);
    auto* writable = static_cast<std::uint8_t*>(mapped.pData);
    CHECK(Bytes(writable, writable + 32) == contents);  // undefined to the app, old bytes here
    std::fill(writable + mapped.RowPitch, writable + 2 * mapped.RowPitch, std::uint8_t{0x99});
    device.backend->unmap(1, 0);
    Bytes expected = contents;
    std::fill(expected.begin() + 16, expected.end(), std::uint8_t{0x99});
    CHECK(device.read(1) == expected);

    ResourceInfo dynamic = buffer(2, 48, D3D11_BIND_VERTEX_BUFFER);
    dynamic.usage = D3D11_USAGE_DYNAMIC;
    dynamic.cpu_access_flags = D3D11_CPU_ACCESS_WRITE;
    device.create(dynamic);
    REQUIRE(device.backend->map(2, 0, D3D11_MAP_WRITE_DISCARD, &mapped) == S_OK);
    CHECK(mapped.RowPitch == 48);
    CHECK(mapped.DepthPitch == 48);
    std::fill_n(static_cast<std::uint8_t*>(mapped.pData), 48, std::uint8_t{0x5A});
    device.backend->unmap(2, 0);
    CHECK(device.read(2) == Bytes(48, 0x5A));
}

TEST_CASE("the state-only backend keeps no data", "[data][null]") {
    const std::unique_ptr<Backend> backend = d3dcap::runtime::backend::make_null_backend();
    ResourceInfo info = texture2d(1, 4, 3, DXGI_FORMAT_R16G16_FLOAT);
    info.usage = D3D11_USAGE_STAGING;
    const Bytes contents(48, 0x77);
    const D3D11_SUBRESOURCE_DATA initial{contents.data(), 16, 0};
    REQUIRE(backend->create_resource(info, &initial) == S_OK);
    const float red[4] = {1, 0, 0, 1};
    backend->clear_view(view_of(1, DXGI_FORMAT_R16G16_FLOAT), red, nullptr, 0);

    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(backend->map(1, 0, D3D11_MAP_READ_WRITE, &mapped) == S_OK);
    CHECK(mapped.RowPitch == 16);
    CHECK(mapped.DepthPitch == 48);
    auto* bytes = static_cast<std::uint8_t*>(mapped.pData);
    CHECK(Bytes(bytes, bytes + 48) == Bytes(48, 0));
    std::fill_n(bytes, 48, std::uint8_t{0xFF});  // the scratch is writable until Unmap
    backend->unmap(1, 0);

    Bytes read;
    CHECK_FALSE(backend->read_subresource(1, 0, read));
    CHECK(d3dcap::runtime::backend::content_hash(*backend, 1, 0) == 0);
    backend->offer(1);
    CHECK_FALSE(backend->reclaim(1));
    CHECK(std::string(backend->name()) == "null");
}

namespace {

ResourceInfo staging(ResourceInfo info) {
    info.usage = D3D11_USAGE_STAGING;
    info.bind_flags = 0;
    info.cpu_access_flags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
    return info;
}

// What Map hands out for a subresource: its pitches and first `bytes` bytes.
struct Mapped {
    UINT row_pitch = 0, depth_pitch = 0;
    Bytes bytes;
};

Mapped map_read(DataDevice& device, ObjectId id, std::uint32_t sub, std::size_t bytes) {
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(device.backend->map(id, sub, D3D11_MAP_READ, &mapped) == S_OK);
    const auto* data = static_cast<const std::uint8_t*>(mapped.pData);
    Mapped out{mapped.RowPitch, mapped.DepthPitch, Bytes(data, data + bytes)};
    device.backend->unmap(id, sub);
    return out;
}

}  // namespace

TEST_CASE("Staging textures take copies at any box mip and slice and Map each subresource",
          "[data][copy][map]") {
    DataDevice device;
    // Every subresource of a 4x4 array of two slices and two mips.
    std::vector<Bytes> levels{pattern(16, 0), pattern(4, 100), pattern(16, 50), pattern(4, 200)};
    std::vector<D3D11_SUBRESOURCE_DATA> initial;
    for (const Bytes& level : levels) initial.push_back({level.data(), 0, 0});
    device.create(texture2d(1, 4, 4, DXGI_FORMAT_R8_UINT, 2, 2), initial.data());
    device.create(staging(texture2d(2, 4, 4, DXGI_FORMAT_R8_UINT, 2, 2)));
    device.backend->copy_resource(2, 1);
    for (std::uint32_t sub = 0; sub < 4; ++sub) {
        INFO("subresource " << sub);
        const Mapped mapped = map_read(device, 2, sub, levels[sub].size());
        CHECK(mapped.row_pitch == (sub % 2 == 0 ? 4u : 2u));
        CHECK(mapped.bytes == levels[sub]);
    }

    // A box of an 8x8 texture (texel x + 8y) into slice 1, mip 0 at (1, 1).
    device.create_with(texture2d(3, 8, 8, DXGI_FORMAT_R8_UINT), pattern(64, 0), 8);
    const D3D11_BOX box{5, 2, 0, 8, 5, 1};
    device.backend->copy_subresource_region(2, 2, 1, 1, 0, 3, 0, &box, 0);
    CHECK(map_read(device, 2, 2, 16).bytes == Bytes{50, 51, 52, 53,  //
                                                    54, 21, 22, 23,  //
                                                    58, 29, 30, 31,  //
                                                    62, 37, 38, 39});
    CHECK(map_read(device, 2, 3, 4).bytes == levels[3]);  // the next subresource untouched

    // Out of it: slice 1's 2x2 mip into a texture at (2, 0), and a box of it
    // into another staging texture.
    device.create_with(texture2d(4, 4, 2, DXGI_FORMAT_R8_UINT), Bytes(8, 0xEE), 4);
    device.backend->copy_subresource_region(4, 0, 2, 0, 0, 2, 3, nullptr, 0);
    CHECK(device.read(4) == Bytes{0xEE, 0xEE, 200, 201, 0xEE, 0xEE, 202, 203});
    device.create_with(staging(texture2d(5, 3, 2, DXGI_FORMAT_R8_UINT)), Bytes(6, 0xEE), 3);
    const D3D11_BOX column{2, 1, 0, 3, 3, 1};
    device.backend->copy_subresource_region(5, 0, 0, 0, 0, 2, 2, &column, 0);
    CHECK(device.read(5) == Bytes{22, 0xEE, 0xEE, 30, 0xEE, 0xEE});

    // A write through Map reaches what a copy takes from it.
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(device.backend->map(5, 0, D3D11_MAP_WRITE, &mapped) == S_OK);
    static_cast<std::uint8_t*>(mapped.pData)[mapped.RowPitch + 2] = 0x42;
    device.backend->unmap(5, 0);
    device.create(texture2d(6, 3, 2, DXGI_FORMAT_R8_UINT));
    device.backend->copy_resource(6, 5);
    CHECK(device.read(6) == Bytes{22, 0xEE, 0xEE, 30, 0xEE, 0x42});

    // Whole rows between staging textures, and a box of mip 0 of slice 1
    // into a wider one at (1, 0).
    device.create(staging(texture2d(7, 3, 2, DXGI_FORMAT_R8_UINT)));
    device.backend->copy_resource(7, 5);
    CHECK(device.read(7) == Bytes{22, 0xEE, 0xEE, 30, 0xEE, 0x42});
    device.create_with(staging(texture2d(8, 5, 2, DXGI_FORMAT_R8_UINT)), Bytes(10, 0), 5);
    const D3D11_BOX two_rows{0, 2, 0, 3, 4, 1};
    device.backend->copy_subresource_region(8, 0, 1, 0, 0, 2, 2, &two_rows, 0);
    CHECK(device.read(8) == Bytes{0, 58, 29, 30, 0, 0, 62, 37, 38, 0});
}

TEST_CASE("Staging textures hold BC blocks and volume slices as Map lays them out",
          "[data][copy][map]") {
    DataDevice device;
    // 8x8 BC1 (2x2 blocks of 8 bytes) into a 12x8 staging texture at block (2, 1).
    const Bytes blocks = pattern(32, 1);
    device.create_with(texture2d(1, 8, 8, DXGI_FORMAT_BC1_UNORM), blocks, 16);
    device.create(staging(texture2d(2, 12, 8, DXGI_FORMAT_BC1_UNORM)));
    const D3D11_BOX block{4, 0, 0, 8, 4, 1};  // block (1, 0)
    device.backend->copy_subresource_region(2, 0, 8, 4, 0, 1, 0, &block, 0);
    Bytes expected(48, 0);
    std::copy(blocks.begin() + 8, blocks.begin() + 16, expected.begin() + 24 + 16);
    const Mapped bc = map_read(device, 2, 0, 48);
    CHECK(bc.row_pitch == 24);
    CHECK(bc.bytes == expected);

    // A 4x3 texture into slice 1 of a 4x3x3 staging volume, and the volume's
    // slice 1 back into a texture.
    ResourceInfo volume = staging(texture2d(3, 4, 3, DXGI_FORMAT_R8_UINT));
    volume.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    volume.depth = 3;
    device.create(volume);
    device.create_with(texture2d(4, 4, 3, DXGI_FORMAT_R8_UINT), pattern(12, 70), 4);
    device.backend->copy_subresource_region(3, 0, 0, 0, 1, 4, 0, nullptr, 0);
    Bytes slices(36, 0);
    const Bytes image = pattern(12, 70);
    std::copy(image.begin(), image.end(), slices.begin() + 12);
    const Mapped mapped = map_read(device, 3, 0, 36);
    CHECK(mapped.row_pitch == 4);
    CHECK(mapped.depth_pitch == 12);
    CHECK(mapped.bytes == slices);
    device.create(texture2d(5, 4, 3, DXGI_FORMAT_R8_UINT));
    const D3D11_BOX middle{0, 0, 1, 4, 3, 2};
    device.backend->copy_subresource_region(5, 0, 0, 0, 0, 3, 0, &middle, 0);
    CHECK(device.read(5) == image);
}
