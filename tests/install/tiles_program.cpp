// A program written only against the standard D3D11 API: it creates a device
// with D3D11CreateDevice and checks that two tiles mapped to one pool tile
// share memory and that an unmapped tile reads as zeros.
#include <d3d11_2.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#define CHECK_HR(expr)                                                             \
    do {                                                                           \
        HRESULT hr_ = (expr);                                                      \
        if (FAILED(hr_)) {                                                         \
            std::printf("%s failed: 0x%08x\n", #expr, static_cast<unsigned>(hr_)); \
            return 1;                                                              \
        }                                                                          \
    } while (0)

int main() {
    ID3D11Device* device = nullptr;
    ID3D11DeviceContext* context = nullptr;
    D3D_FEATURE_LEVEL level{};
    CHECK_HR(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_REFERENCE, nullptr, 0, nullptr, 0,
                               D3D11_SDK_VERSION, &device, &level, &context));
    ID3D11Device2* device2 = nullptr;
    ID3D11DeviceContext2* context2 = nullptr;
    CHECK_HR(device->QueryInterface(__uuidof(ID3D11Device2), reinterpret_cast<void**>(&device2)));
    CHECK_HR(context->QueryInterface(__uuidof(ID3D11DeviceContext2),
                                     reinterpret_cast<void**>(&context2)));

    D3D11_BUFFER_DESC pool_desc{};
    pool_desc.ByteWidth = 2 * 65536;
    pool_desc.Usage = D3D11_USAGE_DEFAULT;
    pool_desc.MiscFlags = D3D11_RESOURCE_MISC_TILE_POOL;
    ID3D11Buffer* pool = nullptr;
    CHECK_HR(device->CreateBuffer(&pool_desc, nullptr, &pool));

    D3D11_TEXTURE2D_DESC desc{};
    desc.Width = 256;
    desc.Height = 256;
    desc.MipLevels = 1;
    desc.ArraySize = 1;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc.Count = 1;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    desc.MiscFlags = D3D11_RESOURCE_MISC_TILED;
    ID3D11Texture2D* texture = nullptr;
    CHECK_HR(device->CreateTexture2D(&desc, nullptr, &texture));

    UINT total_tiles = 0;
    D3D11_PACKED_MIP_DESC packed{};
    D3D11_TILE_SHAPE shape{};
    UINT subresources = 1;
    D3D11_SUBRESOURCE_TILING tiling{};
    device2->GetResourceTiling(texture, &total_tiles, &packed, &shape, &subresources, 0, &tiling);

    // Tiles (0,0) and (1,1) both map pool tile 1; the others stay NULL.
    D3D11_TILED_RESOURCE_COORDINATE starts[2] = {{0, 0, 0, 0}, {1, 1, 0, 0}};
    UINT range_flags = D3D11_TILE_RANGE_REUSE_SINGLE_TILE;
    UINT pool_offset = 1;
    UINT range_count = 2;
    CHECK_HR(context2->UpdateTileMappings(texture, 2, starts, nullptr, pool, 1, &range_flags,
                                          &pool_offset, &range_count, 0));

    std::vector<std::uint8_t> tile(65536);
    for (std::size_t i = 0; i < tile.size(); ++i) tile[i] = static_cast<std::uint8_t>(i * 7 + 1);
    D3D11_TILE_REGION_SIZE one{1, FALSE, 1, 1, 1};
    context2->UpdateTiles(texture, &starts[0], &one, tile.data(), 0);

    // Read tile (1,1) and the unmapped tile (1,0) back through a staging buffer.
    D3D11_BUFFER_DESC read_desc{};
    read_desc.ByteWidth = 2 * 65536;
    read_desc.Usage = D3D11_USAGE_DEFAULT;
    // Filled with 0xab first, so that zeros read back come from the NULL tile.
    std::vector<std::uint8_t> fill(2 * 65536, 0xab);
    const D3D11_SUBRESOURCE_DATA initial{fill.data(), 0, 0};
    ID3D11Buffer* linear = nullptr;
    CHECK_HR(device->CreateBuffer(&read_desc, &initial, &linear));
    D3D11_TILED_RESOURCE_COORDINATE shared = {1, 1, 0, 0};
    D3D11_TILED_RESOURCE_COORDINATE unmapped = {1, 0, 0, 0};
    context2->CopyTiles(texture, &shared, &one, linear, 0,
                        D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
    context2->CopyTiles(texture, &unmapped, &one, linear, 65536,
                        D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
    read_desc.Usage = D3D11_USAGE_STAGING;
    read_desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    ID3D11Buffer* staging = nullptr;
    CHECK_HR(device->CreateBuffer(&read_desc, nullptr, &staging));
    context->CopyResource(staging, linear);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    CHECK_HR(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped));
    const auto* bytes = static_cast<const std::uint8_t*>(mapped.pData);
    std::size_t same = 0, zeros = 0;
    for (std::size_t i = 0; i < 65536; ++i) {
        same += bytes[i] == tile[i];
        zeros += bytes[65536 + i] == 0;
    }
    context->Unmap(staging, 0);

    std::printf(
        "feature level 0x%x, %u tiles of %ux%u texels, shared tile %zu/65536 bytes equal, "
        "unmapped tile %zu/65536 zero bytes\n",
        static_cast<unsigned>(level), total_tiles, shape.WidthInTexels, shape.HeightInTexels, same,
        zeros);
    staging->Release();
    linear->Release();
    texture->Release();
    pool->Release();
    context2->Release();
    device2->Release();
    context->Release();
    device->Release();
    return 0;
}
