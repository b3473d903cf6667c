// Tiled Texture3Ds and buffers, and pools the application released while a
// resource still maps them, as `d3dcap tiles` shows them.
#include <nlohmann/json.hpp>

#include "replay/state/timeline_support.h"

using namespace timeline_tests;

namespace {

constexpr std::uint64_t kPool = 3, kVolume = 4, kBuffer = 5;

}  // namespace

TEST_CASE("d3dcap tiles shows Texture3D tiles in x, y, z order and buffers in x order",
          "[state][cli]") {
    d3dcap::testing::TempDir dir;
    TraceBuilder t(dir.file("kinds.d3dcap"));
    t.create_pool(kPool, 32);
    t.name(kPool, "pool");
    // 64x64x32 RGBA8 in 32x32x16 tiles: 2x2x2 tiles, one mip.
    const fb::D3D11_TEXTURE3D_DESC desc(64, 64, 32, 1, DXGI_FORMAT_R8G8B8A8_UNORM,
                                        D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0,
                                        D3D11_RESOURCE_MISC_TILED);
    t.call(kDevice, fb::CreateID3D11Device_CreateTexture3D(t.b, &desc, 0, kVolume));
    t.create_tiled_buffer(kBuffer, 3 * 65536);
    // A 2x1x2 box at (0,1,0) onto pool tiles 10..13.
    const D3D11_TILED_RESOURCE_COORDINATE start{0, 1, 0, 0};
    const D3D11_TILE_REGION_SIZE box{4, TRUE, 2, 1, 2};
    const UINT ten = 10;
    t.update(kContext, kVolume, 1, &start, &box, kPool, 1, nullptr, &ten, nullptr);
    // Buffer tiles 1 and 2 onto pool tiles 20 and 21.
    const D3D11_TILED_RESOURCE_COORDINATE second{1, 0, 0, 0};
    const D3D11_TILE_REGION_SIZE two{2, FALSE, 0, 0, 0};
    const UINT twenty = 20;
    t.update(kContext, kBuffer, 1, &second, &two, kPool, 1, nullptr, &twenty, nullptr);
    // SetPrivateData(WKPDID_D3DDebugObjectName) names the buffer.
    fb::Guid debug_object_name(0x429b8c22, 0x9188, 0x4b0c);
    const std::uint8_t tail[8] = {0x87, 0x42, 0xac, 0xb0, 0xbf, 0x85, 0xc2, 0x00};
    for (int i = 0; i < 8; ++i) debug_object_name.mutable_data4()->Mutate(i, tail[i]);
    const std::vector<std::uint8_t> name{'s', 't', 'r', 'e', 'a', 'm', 0};
    t.call(kBuffer,
           fb::CreateID3D11DeviceChild_SetPrivateDataDirect(t.b, &debug_object_name, 7, &name));
    // The application releases the pool; the resources keep it.
    const std::uint64_t released = t.destroyed(kPool);
    const std::uint64_t events = t.close();

    cli::TilesOptions options;
    options.trace = dir.file("kinds.d3dcap");
    options.event = released;
    options.json = true;
    const CommandResult json_result = run_tiles(options);
    REQUIRE(json_result.exit == 0);
    const auto json = nlohmann::json::parse(json_result.out);
    CHECK(json["pools"] ==
          nlohmann::json::parse(R"([{"id":3,"name":"pool","size_bytes":2097152}])"));
    REQUIRE(json["resources"].size() == 2);
    CHECK(json["resources"][0] == nlohmann::json::parse(R"({
        "id":4, "name":null, "kind":"texture3d", "pool":3,
        "tiling":{"total_tiles":8,"standard_mips":1,"packed_mips":0,"packed_tiles":0,
                  "packed_start":0},
        "subresources":[{"index":0,"mip":0,"slice":0,"width_tiles":2,"height_tiles":2,
                         "depth_tiles":2,"tiles":[-1,-1,10,11,-1,-1,12,13]}],
        "packed":[]})"));
    CHECK(json["resources"][1] == nlohmann::json::parse(R"({
        "id":5, "name":"stream", "kind":"buffer", "pool":3,
        "tiling":{"total_tiles":3,"standard_mips":1,"packed_mips":0,"packed_tiles":0,
                  "packed_start":0},
        "subresources":[{"index":0,"mip":0,"slice":0,"width_tiles":3,"height_tiles":1,
                         "depth_tiles":1,"tiles":[-1,20,21]}],
        "packed":[]})"));

    options.json = false;
    options.resource = "4";
    const CommandResult text = run_tiles(options);
    REQUIRE(text.exit == 0);
    CHECK(text.out == dir.file("kinds.d3dcap") + " after event " + std::to_string(released) +
                          " (of " + std::to_string(events) +
                          " events)\n"
                          "pool 3 \"pool\": 2097152 bytes, 32 tiles\n"
                          "resource 4: texture3d, pool 3, 8 tiles (1 standard mip)\n"
                          "  subresource 0 (mip 0, slice 0): 2x2x2 tiles, 4 mapped\n"
                          "   z 0:\n"
                          "         0  1\n"
                          "    y 0  .  .\n"
                          "    y 1 10 11\n"
                          "   z 1:\n"
                          "         0  1\n"
                          "    y 0  .  .\n"
                          "    y 1 12 13\n");
}
