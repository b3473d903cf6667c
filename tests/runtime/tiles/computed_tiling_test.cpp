// The tile model on tilings from compute_tiling (the reference device's
// numbering), not only on the hand-built ones: every one is accepted, and a
// whole-resource walk visits each tile once, in overall order.
#include <catch2/catch.hpp>
#include <cstdint>
#include <numeric>
#include <vector>

#include "runtime/tiles/tile_state.h"
#include "runtime/tiles/tiling.h"
#include "runtime/tiles/tiling_fixtures.h"

using d3dcap::runtime::tiles::ObjectId;
using d3dcap::runtime::tiles::ResourceShape;
using d3dcap::runtime::tiles::TileState;
using namespace tile_tests;

namespace {

ResourceShape texture(D3D11_RESOURCE_DIMENSION dimension, DXGI_FORMAT format, std::uint32_t width,
                      std::uint32_t height, std::uint32_t depth, std::uint32_t mips,
                      std::uint32_t slices) {
    ResourceShape shape;
    shape.dimension = dimension;
    shape.format = format;
    shape.width = width;
    shape.height = height;
    shape.depth = depth;
    shape.mip_levels = mips;
    shape.array_size = slices;
    return shape;
}

}  // namespace

TEST_CASE("tilings from compute_tiling are accepted and walked in overall tile order",
          "[tiles][tiling]") {
    ResourceShape buffer;
    buffer.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
    buffer.byte_width = 5 * 65536 + 1;
    const std::vector<ResourceShape> shapes = {
        buffer,
        texture(D3D11_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 1000, 700, 1, 0, 1),
        texture(D3D11_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 512, 512, 1, 0, 6),
        texture(D3D11_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_BC1_UNORM, 2048, 1024, 1, 0, 3),
        texture(D3D11_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R16_FLOAT, 64, 64, 1, 0, 4),
        texture(D3D11_RESOURCE_DIMENSION_TEXTURE3D, DXGI_FORMAT_R32_FLOAT, 128, 96, 40, 0, 1),
    };
    ObjectId next_id = 1;
    for (const ResourceShape& shape : shapes) {
        d3dcap::runtime::tiles::ResourceTiling tiling;
        RecordingSink sink;
        REQUIRE(d3dcap::runtime::tiles::compute_tiling(shape, tiling, &sink) == S_OK);
        INFO("format " << shape.format << ", " << shape.width << "x" << shape.height << "x"
                       << shape.depth << ", " << tiling.total_tiles << " tiles");

        TileState state;
        const ObjectId pool = 1000;
        const ObjectId resource = next_id++;
        REQUIRE(state.create_pool(pool, pool_bytes(tiling.total_tiles), &sink) == S_OK);
        REQUIRE(state.create_tiled_resource(resource, tiling, &sink) == S_OK);
        const UINT offset = 0;
        REQUIRE(state.update_tile_mappings(resource, 1, nullptr, nullptr, pool, 1, nullptr, &offset,
                                           nullptr, 0, &sink) == S_OK);
        std::vector<std::uint32_t> expected(tiling.total_tiles);
        std::iota(expected.begin(), expected.end(), 0u);
        CHECK(pool_tile_table(state, resource) == expected);
        CHECK(sink.messages.empty());
    }
}

TEST_CASE("a computed array's packed tiles are addressed per slice", "[tiles][tiling]") {
    // 512x512 RGBA8: mips 0..2 are 4x4, 2x2, 1x1 tiles; mips 3..9 (64x64 and smaller) are packed.
    const ResourceShape shape =
        texture(D3D11_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_R8G8B8A8_UNORM, 512, 512, 1, 0, 2);
    d3dcap::runtime::tiles::ResourceTiling tiling;
    REQUIRE(d3dcap::runtime::tiles::compute_tiling(shape, tiling, nullptr) == S_OK);
    REQUIRE(tiling.mip_levels == 10);
    REQUIRE(tiling.packed.NumStandardMips == 3);
    REQUIRE(tiling.packed.NumTilesForPackedMips == 1);
    REQUIRE(tiling.total_tiles == 2 * (16 + 4 + 1 + 1));

    TileState state;
    REQUIRE(state.create_pool(1000, pool_bytes(4), nullptr) == S_OK);
    REQUIRE(state.create_tiled_resource(1, tiling, nullptr) == S_OK);
    // Slice 1's packed set: Subresource = 3 + 1 * 10, X = 0; overall tile 22 + 21.
    const D3D11_TILED_RESOURCE_COORDINATE packed = at(0, 0, 0, 13);
    const UINT reuse = D3D11_TILE_RANGE_REUSE_SINGLE_TILE;
    const UINT offset = 2;
    REQUIRE(state.update_tile_mappings(1, 1, &packed, nullptr, 1000, 1, &reuse, &offset, nullptr, 0,
                                       nullptr) == S_OK);
    CHECK(state.mapping(1, 43).pool_tile == 2);
    CHECK(state.referenced_pool_tiles(1000) == std::vector<std::uint32_t>{2});
    CHECK(state.references(1000, 2) == std::vector<std::pair<ObjectId, std::uint32_t>>{{1, 43}});
}
