// `d3dcap demo`: the runtime on the reference device, through the standard
// D3D11 API: the API reference's 22-tile UpdateTileMappings example, its tile
// map, and a write through one tile seen through another that shares its
// pool tile. scripts/demo then captures the tiled_streaming example.
#include "demo.h"

#include <d3d11_2.h>

#include <cinttypes>
#include <cstdio>
#include <vector>

#include "runtime/inspection.h"

namespace d3dcap::cli {

namespace {

constexpr UINT kTilesWide = 27, kTilesHigh = 31;  // the example's surface, in 128x128 tiles
constexpr UINT kTileBytes = 65536;

template <typename T>
void release(T*& object) {
    if (object) object->Release();
    object = nullptr;
}

// Prints the tile map of rows [first, last] of mip 0: pool tile numbers, ".."
// for NULL.
void print_rows(const std::vector<runtime::tiles::TileMapping>& mappings, UINT first, UINT last) {
    for (UINT y = first; y <= last; ++y) {
        std::printf("  row %2u ", y);
        for (UINT x = 0; x < kTilesWide; ++x) {
            const runtime::tiles::TileMapping& tile = mappings[y * kTilesWide + x];
            if (tile.pool_tile == runtime::tiles::kNullTile) {
                std::printf(" ..");
            } else {
                std::printf(" %2u", tile.pool_tile);
            }
        }
        std::printf("\n");
    }
}

const char* hresult_text(HRESULT hr) {
    return hr == S_OK ? "S_OK" : "FAILED";
}

}  // namespace

int run_demo(std::size_t calls_in_table, std::size_t context_methods) {
    std::printf(
        "d3dcap demo\n"
        "The runtime that capture and replay run on: the CPU reference device, through\n"
        "the standard D3D11 API.\n\n"
        "API table: %zu calls, %zu device-context methods (vtable slots 7-143).\n",
        calls_in_table, context_methods);

    ID3D11Device* device = nullptr;
    ID3D11DeviceContext* immediate = nullptr;
    const D3D_FEATURE_LEVEL wanted[] = {D3D_FEATURE_LEVEL_11_1};
    D3D_FEATURE_LEVEL level{};
    if (FAILED(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_REFERENCE, nullptr, 0, wanted, 1,
                                 D3D11_SDK_VERSION, &device, &level, &immediate))) {
        std::fprintf(stderr, "d3dcap demo: D3D11CreateDevice(REFERENCE) failed\n");
        return 1;
    }
    ID3D11DeviceContext2* context = nullptr;
    immediate->QueryInterface(__uuidof(ID3D11DeviceContext2), reinterpret_cast<void**>(&context));
    D3D11_FEATURE_DATA_D3D11_OPTIONS1 options{};
    device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS1, &options, sizeof options);
    std::printf("Reference device: feature level 11_%u, tiled resources tier %u\n",
                (static_cast<unsigned>(level) >> 8) & 0xf,
                static_cast<unsigned>(options.TiledResourcesTier));

    D3D11_BUFFER_DESC pool_desc{};
    pool_desc.ByteWidth = 32 * kTileBytes;
    pool_desc.MiscFlags = D3D11_RESOURCE_MISC_TILE_POOL;
    ID3D11Buffer* pool = nullptr;
    device->CreateBuffer(&pool_desc, nullptr, &pool);
    D3D11_TEXTURE2D_DESC desc{};
    desc.Width = kTilesWide * 128;
    desc.Height = kTilesHigh * 128;
    desc.MipLevels = 1;
    desc.ArraySize = 1;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc.Count = 1;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    desc.MiscFlags = D3D11_RESOURCE_MISC_TILED;
    ID3D11Texture2D* texture = nullptr;
    device->CreateTexture2D(&desc, nullptr, &texture);
    std::printf(
        "Tiled texture %ux%u RGBA8 (%ux%u tiles of 128x128 texels), tile pool of 32 tiles\n\n",
        desc.Width, desc.Height, kTilesWide, kTilesHigh);

    // Every tile onto pool tile 5 first, so that SKIP ranges show.
    const UINT reuse = D3D11_TILE_RANGE_REUSE_SINGLE_TILE, five = 5;
    HRESULT hr = context->UpdateTileMappings(texture, 1, nullptr, nullptr, pool, 1, &reuse, &five,
                                             nullptr, 0);
    std::printf("UpdateTileMappings: whole surface onto pool tile 5 (REUSE_SINGLE_TILE) -> %s\n",
                hresult_text(hr));

    // The example: boxes 2x3 at (1,1), 3x3 at (4,7), 7x1 at (20,30) against
    // ranges 3 tiles from 9 | SKIP 8 | NULL 2 | 5 x pool tile 17 | 2 | 9 | 4 | 17.
    const D3D11_TILED_RESOURCE_COORDINATE starts[3] = {{1, 1, 0, 0}, {4, 7, 0, 0}, {20, 30, 0, 0}};
    const D3D11_TILE_REGION_SIZE sizes[3] = {
        {6, TRUE, 2, 3, 1}, {9, TRUE, 3, 3, 1}, {7, TRUE, 7, 1, 1}};
    const UINT flags[8] = {0,
                           D3D11_TILE_RANGE_SKIP,
                           D3D11_TILE_RANGE_NULL,
                           D3D11_TILE_RANGE_REUSE_SINGLE_TILE,
                           0,
                           0,
                           0,
                           0};
    const UINT offsets[8] = {9, 0, 0, 17, 2, 9, 4, 17};
    const UINT counts[8] = {3, 8, 2, 5, 1, 1, 1, 1};
    hr = context->UpdateTileMappings(texture, 3, starts, sizes, pool, 8, flags, offsets, counts,
                                     D3D11_TILE_MAPPING_NO_OVERWRITE);
    std::printf("UpdateTileMappings: the 22-tile example (3 boxes, 8 ranges) -> %s\n\n",
                hresult_text(hr));

    const std::vector<runtime::tiles::TileMapping> mappings =
        runtime::device_tile_state(device)->mappings(runtime::object_id(texture));
    std::printf("Mip 0 tile map, pool tile of each tile (.. = NULL), columns 0-%u:\n",
                kTilesWide - 1);
    print_rows(mappings, 0, 10);
    std::printf("  ...\n");
    print_rows(mappings, 30, 30);

    // Tiles (5,9) and (26,30) both map pool tile 17: a write through one shows through the other.
    std::vector<std::uint8_t> texels(kTileBytes);
    for (std::size_t i = 0; i < texels.size(); ++i)
        texels[i] = static_cast<std::uint8_t>(i * 31 + 7);
    const D3D11_TILED_RESOURCE_COORDINATE written{5, 9, 0, 0}, read{26, 30, 0, 0};
    const D3D11_TILE_REGION_SIZE one{1, FALSE, 1, 1, 1};
    context->UpdateTiles(texture, &written, &one, texels.data(), 0);
    D3D11_BUFFER_DESC linear_desc{};
    linear_desc.ByteWidth = kTileBytes;
    ID3D11Buffer* linear = nullptr;
    device->CreateBuffer(&linear_desc, nullptr, &linear);
    context->CopyTiles(texture, &read, &one, linear, 0,
                       D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
    linear_desc.Usage = D3D11_USAGE_STAGING;
    linear_desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    ID3D11Buffer* staging = nullptr;
    device->CreateBuffer(&linear_desc, nullptr, &staging);
    context->CopyResource(staging, linear);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    std::size_t equal = 0;
    if (SUCCEEDED(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped))) {
        const auto* bytes = static_cast<const std::uint8_t*>(mapped.pData);
        for (std::size_t i = 0; i < kTileBytes; ++i) equal += bytes[i] == texels[i];
        context->Unmap(staging, 0);
    }
    std::printf(
        "\nUpdateTiles into tile (5,9), CopyTiles out of tile (26,30): both map pool tile 17,\n"
        "and %zu of %u bytes read back equal the bytes written.\n",
        equal, kTileBytes);
    std::printf("Content hash of the texture: %016" PRIx64 "\n",
                runtime::resource_content_hash(texture, 0));

    release(staging);
    release(linear);
    release(texture);
    release(pool);
    release(context);
    release(immediate);
    release(device);
    return equal == kTileBytes && hr == S_OK ? 0 : 1;
}

}  // namespace d3dcap::cli
