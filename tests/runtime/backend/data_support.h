// A reference backend with a tile state driven by hand, for the data tests:
// the tests talk to the Backend interface directly, not through the COM
// object model.
#pragma once

#include <d3d11_2.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/backend/backend.h"
#include "runtime/messages.h"
#include "runtime/tiles/tile_state.h"
#include "runtime/tiles/tiling.h"

namespace data_tests {

using d3dcap::runtime::backend::Backend;
using d3dcap::runtime::backend::ResourceInfo;
using d3dcap::runtime::backend::ViewInfo;
using d3dcap::runtime::tiles::ObjectId;
using Bytes = std::vector<std::uint8_t>;

constexpr std::uint32_t kTile = d3dcap::runtime::tiles::kTileBytes;

class PrintingSink final : public d3dcap::runtime::MessageSink {
  public:
    void message(const d3dcap::runtime::Message& message) override {
        UNSCOPED_INFO(message.call << " " << message.parameter << ": " << message.text);
    }
};

inline ResourceInfo texture2d(ObjectId id, std::uint32_t width, std::uint32_t height,
                              DXGI_FORMAT format, std::uint32_t mips = 1,
                              std::uint32_t array_size = 1) {
    ResourceInfo info;
    info.id = id;
    info.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
    info.width = width;
    info.height = height;
    info.format = format;
    info.mip_levels = mips;
    info.array_size = array_size;
    info.bind_flags = D3D11_BIND_SHADER_RESOURCE;
    return info;
}

inline ResourceInfo buffer(ObjectId id, std::uint64_t bytes, std::uint32_t bind_flags = 0,
                           std::uint32_t misc_flags = 0) {
    ResourceInfo info;
    info.id = id;
    info.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
    info.byte_width = bytes;
    info.bind_flags = bind_flags;
    info.misc_flags = misc_flags;
    return info;
}

inline ViewInfo view_of(ObjectId resource, DXGI_FORMAT format, std::uint32_t mip = 0,
                        std::uint32_t slice = 0) {
    ViewInfo view;
    view.resource = resource;
    view.format = format;
    view.first_mip = mip;
    view.first_slice = slice;
    return view;
}

// count bytes, byte i = (seed + i * step) mod 256.
inline Bytes pattern(std::size_t count, std::uint32_t seed, std::uint32_t step = 1) {
    Bytes bytes(count);
    for (std::size_t i = 0; i < count; ++i) bytes[i] = static_cast<std::uint8_t>(seed + i * step);
    return bytes;
}

// The device under test: the reference device in the runtime tests, the
// Vulkan device in the GPU tests (each links its own definition).
std::unique_ptr<Backend> make_test_backend();

struct DataDevice {
    std::unique_ptr<Backend> backend = make_test_backend();
    d3dcap::runtime::tiles::TileState state;
    PrintingSink sink;

    DataDevice() { backend->attach(&state); }

    void create(const ResourceInfo& info, const D3D11_SUBRESOURCE_DATA* initial = nullptr) {
        REQUIRE(backend->create_resource(info, initial) == S_OK);
    }
    // One subresource of initial data, tightly packed.
    void create_with(const ResourceInfo& info, const Bytes& bytes, std::uint32_t row_pitch,
                     std::uint32_t slice_pitch = 0) {
        const D3D11_SUBRESOURCE_DATA data{bytes.data(), row_pitch, slice_pitch};
        create(info, &data);
    }
    void create_pool(ObjectId id, std::uint32_t tiles) {
        REQUIRE(state.create_pool(id, std::uint64_t{tiles} * kTile, &sink) == S_OK);
        create(buffer(id, std::uint64_t{tiles} * kTile, 0, D3D11_RESOURCE_MISC_TILE_POOL));
    }
    void create_tiled(ResourceInfo info) {
        info.misc_flags |= D3D11_RESOURCE_MISC_TILED;
        d3dcap::runtime::tiles::ResourceTiling tiling;
        const d3dcap::runtime::tiles::ResourceShape shape{.dimension = info.dimension,
                                                          .byte_width = info.byte_width,
                                                          .width = info.width,
                                                          .height = info.height,
                                                          .depth = info.depth,
                                                          .mip_levels = info.mip_levels,
                                                          .array_size = info.array_size,
                                                          .format = info.format,
                                                          .sample_count = info.sample_count};
        REQUIRE(d3dcap::runtime::tiles::compute_tiling(shape, tiling, &sink) == S_OK);
        REQUIRE(state.create_tiled_resource(info.id, tiling, &sink) == S_OK);
        create(info);
    }
    // count tiles walked linearly from start onto pool tiles first, first+1, ...
    void map_tiles(ObjectId resource, D3D11_TILED_RESOURCE_COORDINATE start, UINT count,
                   ObjectId pool, UINT first, UINT range_flag = 0) {
        const D3D11_TILE_REGION_SIZE size{count, FALSE, 0, 0, 0};
        REQUIRE(state.update_tile_mappings(resource, 1, &start, &size, pool, 1, &range_flag, &first,
                                           &count, 0, &sink) == S_OK);
        backend->tile_mappings_changed(resource, 0);
    }
    std::vector<d3dcap::runtime::tiles::TileRef> region(ObjectId resource,
                                                        D3D11_TILED_RESOURCE_COORDINATE start,
                                                        UINT count) {
        const D3D11_TILE_REGION_SIZE size{count, FALSE, 0, 0, 0};
        std::vector<d3dcap::runtime::tiles::TileRef> tiles;
        REQUIRE(state.region_tiles(resource, start, size, tiles, "test", &sink) == S_OK);
        return tiles;
    }
    Bytes read(ObjectId resource, std::uint32_t subresource = 0) {
        Bytes bytes;
        REQUIRE(backend->read_subresource(resource, subresource, bytes));
        return bytes;
    }
};

}  // namespace data_tests
