// Resource creation: desc validation with the messages it sends, resolved
// descs, tiled resources and tile pools, GetResourceTiling.
#include <cstdlib>

#include "object_support.h"
#include "support/skip.h"

using namespace object_tests;

namespace {

HRESULT create_buffer(TestDevice& test, D3D11_BUFFER_DESC desc,
                      const D3D11_SUBRESOURCE_DATA* initial = nullptr) {
    Com<ID3D11Buffer> buffer;
    return test.device->CreateBuffer(&desc, initial, buffer.out());
}

HRESULT create_texture(TestDevice& test, D3D11_TEXTURE2D_DESC desc) {
    Com<ID3D11Texture2D> texture;
    return test.device->CreateTexture2D(&desc, nullptr, texture.out());
}

D3D11_TEXTURE2D_DESC texture_desc(UINT width, UINT height, DXGI_FORMAT format, UINT bind) {
    D3D11_TEXTURE2D_DESC desc{};
    desc.Width = width;
    desc.Height = height;
    desc.MipLevels = 1;
    desc.ArraySize = 1;
    desc.Format = format;
    desc.SampleDesc = {1, 0};
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = bind;
    return desc;
}

}  // namespace

TEST_CASE("CreateBuffer rejects the descs D3D11 rejects / naming the parameter",
          "[object][resources]") {
    TestDevice test;
    CHECK(create_buffer(test, {0, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0}) ==
          E_INVALIDARG);
    CHECK(test.last_message() ==
          "ID3D11Device::CreateBuffer: pDesc->ByteWidth: is 0; a buffer needs at least one byte");

    CHECK(create_buffer(test, {20, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0}) ==
          E_INVALIDARG);
    CHECK(test.last_message() ==
          "ID3D11Device::CreateBuffer: pDesc->ByteWidth: 20 is not a multiple of 16 for a "
          "constant buffer");

    CHECK(create_buffer(test, {16, D3D11_USAGE_IMMUTABLE, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0}) ==
          E_INVALIDARG);
    CHECK(test.last_message() ==
          "ID3D11Device::CreateBuffer: pInitialData: is NULL; a D3D11_USAGE_IMMUTABLE resource "
          "needs its contents at creation");

    CHECK(create_buffer(test, {16, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER,
                               D3D11_CPU_ACCESS_READ, 0, 0}) == E_INVALIDARG);
    CHECK(test.messages().back().parameter == "pDesc->CPUAccessFlags");
    CHECK(create_buffer(test, {16, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER,
                               D3D11_CPU_ACCESS_WRITE, 0, 0}) == E_INVALIDARG);
    CHECK(create_buffer(test, {16, D3D11_USAGE_STAGING, D3D11_BIND_VERTEX_BUFFER,
                               D3D11_CPU_ACCESS_READ, 0, 0}) == E_INVALIDARG);
    CHECK(create_buffer(test, {16, D3D11_USAGE_STAGING, 0, 0, 0, 0}) == E_INVALIDARG);
    CHECK(create_buffer(test, {16, D3D11_USAGE_DYNAMIC, D3D11_BIND_UNORDERED_ACCESS,
                               D3D11_CPU_ACCESS_WRITE, 0, 0}) == E_INVALIDARG);
    CHECK(create_buffer(test, {16, D3D11_USAGE_DEFAULT,
                               D3D11_BIND_CONSTANT_BUFFER | D3D11_BIND_VERTEX_BUFFER, 0, 0, 0}) ==
          E_INVALIDARG);
    // Structured: stride a multiple of 4 that divides the width.
    CHECK(create_buffer(test, {64, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0,
                               D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 6}) == E_INVALIDARG);
    CHECK(create_buffer(test, {60, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0,
                               D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 8}) == E_INVALIDARG);
    CHECK(create_buffer(test, {64, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0,
                               D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 16}) == S_OK);
    // Valid descs with NULL out-pointers only validate: S_FALSE.
    const D3D11_BUFFER_DESC good{16, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
    CHECK(test.device->CreateBuffer(&good, nullptr, nullptr) == S_FALSE);
    CHECK(test.device->CreateBuffer(nullptr, nullptr, nullptr) == E_INVALIDARG);
}

TEST_CASE("Buffers keep their desc and initial data", "[object][resources]") {
    TestDevice test;
    const std::uint32_t data[4] = {1, 2, 3, 4};
    auto buffer = test.buffer(16, D3D11_BIND_VERTEX_BUFFER, D3D11_USAGE_IMMUTABLE, 0, 0, 0, data);
    D3D11_BUFFER_DESC desc{};
    buffer->GetDesc(&desc);
    CHECK(desc.ByteWidth == 16);
    CHECK(desc.Usage == D3D11_USAGE_IMMUTABLE);
    CHECK(desc.BindFlags == D3D11_BIND_VERTEX_BUFFER);
    CHECK(desc.StructureByteStride == 0);
}

TEST_CASE("CreateTexture2D validates sizes / mips / formats / binds and samples",
          "[object][resources]") {
    TestDevice test;
    auto desc = texture_desc(0, 4, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE);
    CHECK(create_texture(test, desc) == E_INVALIDARG);
    CHECK(test.last_message() ==
          "ID3D11Device::CreateTexture2D: pDesc->Width: 0 is outside 1..16384");

    desc = texture_desc(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE);
    desc.MipLevels = 6;
    CHECK(create_texture(test, desc) == E_INVALIDARG);
    CHECK(test.last_message() ==
          "ID3D11Device::CreateTexture2D: pDesc->MipLevels: 6 is more than the 5 levels of a full "
          "chain for this size");

    desc = texture_desc(16, 16, DXGI_FORMAT_UNKNOWN, D3D11_BIND_SHADER_RESOURCE);
    CHECK(create_texture(test, desc) == E_INVALIDARG);
    desc = texture_desc(16, 16, DXGI_FORMAT_BC1_UNORM, D3D11_BIND_RENDER_TARGET);
    CHECK(create_texture(test, desc) == E_INVALIDARG);
    desc = texture_desc(10, 16, DXGI_FORMAT_BC1_UNORM, D3D11_BIND_SHADER_RESOURCE);
    CHECK(create_texture(test, desc) == E_INVALIDARG);
    desc = texture_desc(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_DEPTH_STENCIL);
    CHECK(create_texture(test, desc) == E_INVALIDARG);
    desc = texture_desc(16, 16, DXGI_FORMAT_D24_UNORM_S8_UINT,
                        D3D11_BIND_DEPTH_STENCIL | D3D11_BIND_SHADER_RESOURCE);
    CHECK(create_texture(test, desc) == E_INVALIDARG);
    CHECK(test.messages().back().parameter == "pDesc->BindFlags");
    desc.Format = DXGI_FORMAT_R24G8_TYPELESS;
    CHECK(create_texture(test, desc) == S_OK);

    // Dynamic textures: one mip, one slice, write access only.
    desc = texture_desc(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE);
    desc.Usage = D3D11_USAGE_DYNAMIC;
    desc.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
    CHECK(create_texture(test, desc) == S_OK);
    desc.MipLevels = 2;
    CHECK(create_texture(test, desc) == E_INVALIDARG);

    // Cubes: six square faces.
    desc = texture_desc(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE);
    desc.MiscFlags = D3D11_RESOURCE_MISC_TEXTURECUBE;
    desc.ArraySize = 4;
    CHECK(create_texture(test, desc) == E_INVALIDARG);
    desc.ArraySize = 12;
    CHECK(create_texture(test, desc) == S_OK);

    // Multisampling: 4 samples of a render target, one mip.
    desc = texture_desc(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_RENDER_TARGET);
    desc.SampleDesc = {4, 0};
    CHECK(create_texture(test, desc) == S_OK);
    desc.SampleDesc = {4, 1};
    CHECK(create_texture(test, desc) == E_INVALIDARG);
    desc.SampleDesc = {3, 0};
    CHECK(create_texture(test, desc) == E_INVALIDARG);
    desc.SampleDesc = {0, 0};
    CHECK(create_texture(test, desc) == E_INVALIDARG);

    // GENERATE_MIPS needs render-target and shader-resource binding.
    desc = texture_desc(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE);
    desc.MipLevels = 0;
    desc.MiscFlags = D3D11_RESOURCE_MISC_GENERATE_MIPS;
    CHECK(create_texture(test, desc) == E_INVALIDARG);
    desc.BindFlags |= D3D11_BIND_RENDER_TARGET;
    Com<ID3D11Texture2D> full_chain;
    REQUIRE(test.device->CreateTexture2D(&desc, nullptr, full_chain.out()) == S_OK);
    D3D11_TEXTURE2D_DESC stored{};
    full_chain->GetDesc(&stored);
    CHECK(stored.MipLevels == 5);  // 0 asks for the full chain
}

TEST_CASE("Texture1D and Texture3D limits", "[object][resources]") {
    TestDevice test;
    D3D11_TEXTURE1D_DESC one{
        64, 0, 3, DXGI_FORMAT_R32_FLOAT, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, 0};
    Com<ID3D11Texture1D> texture1d;
    REQUIRE(test.device->CreateTexture1D(&one, nullptr, texture1d.out()) == S_OK);
    D3D11_TEXTURE1D_DESC read1{};
    texture1d->GetDesc(&read1);
    CHECK(read1.MipLevels == 7);
    CHECK(read1.ArraySize == 3);
    one.MiscFlags = D3D11_RESOURCE_MISC_TILED;
    CHECK(test.device->CreateTexture1D(&one, nullptr, texture1d.out()) == E_INVALIDARG);

    D3D11_TEXTURE3D_DESC three{
        32, 16, 8, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE,
        0,  0};
    Com<ID3D11Texture3D> texture3d;
    REQUIRE(test.device->CreateTexture3D(&three, nullptr, texture3d.out()) == S_OK);
    three.Depth = 4096;
    CHECK(test.device->CreateTexture3D(&three, nullptr, texture3d.out()) == E_INVALIDARG);
    CHECK(test.last_message() ==
          "ID3D11Device::CreateTexture3D: pDesc->Depth: 4096 is outside 1..2048");
    three.Depth = 8;
    three.BindFlags = D3D11_BIND_DEPTH_STENCIL;
    CHECK(test.device->CreateTexture3D(&three, nullptr, texture3d.out()) == E_INVALIDARG);
}

TEST_CASE("Tile pools and tiled resources follow the tiled-resource rules",
          "[object][resources][tiles]") {
    TestDevice test;
    // A pool is a multiple of 64 KiB with no binding.
    CHECK(create_buffer(test, {65536 + 16, D3D11_USAGE_DEFAULT, 0, 0, D3D11_RESOURCE_MISC_TILE_POOL,
                               0}) == E_INVALIDARG);
    CHECK(test.last_message() ==
          "ID3D11Device::CreateBuffer: pDesc->ByteWidth: 65552 is not a multiple of 65536 (64 "
          "KiB) for a tile pool");
    CHECK(create_buffer(test, {65536, D3D11_USAGE_DYNAMIC, 0, D3D11_CPU_ACCESS_WRITE,
                               D3D11_RESOURCE_MISC_TILE_POOL, 0}) == E_INVALIDARG);
    CHECK(create_buffer(test, {2 * 65536, D3D11_USAGE_DEFAULT, 0, 0, D3D11_RESOURCE_MISC_TILE_POOL,
                               0}) == S_OK);

    auto desc = texture_desc(512, 512, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE);
    desc.MiscFlags = D3D11_RESOURCE_MISC_TILED | D3D11_RESOURCE_MISC_TILE_POOL;
    CHECK(create_texture(test, desc) == E_INVALIDARG);
    desc.MiscFlags = D3D11_RESOURCE_MISC_TILED | D3D11_RESOURCE_MISC_SHARED;
    CHECK(create_texture(test, desc) == E_INVALIDARG);
    desc.MiscFlags = D3D11_RESOURCE_MISC_TILED;
    desc.Format = DXGI_FORMAT_R32G32B32_FLOAT;  // 96 bits per texel cannot be tiled
    CHECK(create_texture(test, desc) == E_INVALIDARG);
    CHECK(create_buffer(test, {65536, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0,
                               D3D11_RESOURCE_MISC_TILED, 0}) == E_INVALIDARG);
    const std::uint8_t bytes[16] = {};
    const D3D11_SUBRESOURCE_DATA initial{bytes, 0, 0};
    CHECK(create_buffer(test,
                        {65536, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0,
                         D3D11_RESOURCE_MISC_TILED, 0},
                        &initial) == E_INVALIDARG);
    CHECK(test.messages().back().parameter == "pInitialData");
}

TEST_CASE("GetResourceTiling reports the tiling computed at creation",
          "[object][resources][tiles]") {
    TestDevice test;
    auto desc = texture_desc(512, 256, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE);
    desc.MiscFlags = D3D11_RESOURCE_MISC_TILED;
    Com<ID3D11Texture2D> tiled;
    REQUIRE(test.device->CreateTexture2D(&desc, nullptr, tiled.out()) == S_OK);
    UINT total = 0, count = 4;
    D3D11_PACKED_MIP_DESC packed{};
    D3D11_TILE_SHAPE shape{};
    D3D11_SUBRESOURCE_TILING subresources[4] = {};
    test.device->GetResourceTiling(tiled.get(), &total, &packed, &shape, &count, 0, subresources);
    // 32-bit texels: 128x128 tiles, so 4x2 tiles for one mip.
    CHECK(total == 8);
    CHECK(shape.WidthInTexels == 128);
    CHECK(shape.HeightInTexels == 128);
    CHECK(shape.DepthInTexels == 1);
    CHECK(count == 1);
    CHECK(subresources[0].WidthInTiles == 4);
    CHECK(subresources[0].HeightInTiles == 2);
    CHECK(subresources[0].StartTileIndexInOverallResource == 0);
    CHECK(packed.NumPackedMips == 0);

    // Asking from past the end gets nothing; a non-tiled resource answers 0.
    count = 4;
    test.device->GetResourceTiling(tiled.get(), &total, nullptr, nullptr, &count, 5, subresources);
    CHECK(count == 0);
    auto plain = test.texture2d(8, 8, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE);
    count = 4;
    test.device->GetResourceTiling(plain.get(), &total, &packed, &shape, &count, 0, subresources);
    CHECK(total == 0);
    CHECK(count == 0);
    CHECK(shape.WidthInTexels == 0);
}

TEST_CASE("Feature and format queries of the CPU devices", "[object][resources]") {
    TestDevice test;
    D3D11_FEATURE_DATA_D3D11_OPTIONS1 options1{};
    REQUIRE(test.device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS1, &options1,
                                             sizeof options1) == S_OK);
    CHECK(options1.TiledResourcesTier == D3D11_TILED_RESOURCES_TIER_3);
    CHECK(options1.MapOnDefaultBuffers == FALSE);
    D3D11_FEATURE_DATA_THREADING threading{};
    REQUIRE(test.device->CheckFeatureSupport(D3D11_FEATURE_THREADING, &threading,
                                             sizeof threading) == S_OK);
    CHECK(threading.DriverCommandLists == TRUE);
    CHECK(test.device->CheckFeatureSupport(D3D11_FEATURE_THREADING, &threading, 4) == E_INVALIDARG);
    D3D11_FEATURE_DATA_D3D11_OPTIONS options{};
    REQUIRE(test.device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS, &options,
                                             sizeof options) == S_OK);
    CHECK(options.ConstantBufferOffsetting == TRUE);
    CHECK(options.ClearView == TRUE);
    D3D11_FEATURE_DATA_DOUBLES doubles{TRUE};
    REQUIRE(test.device->CheckFeatureSupport(D3D11_FEATURE_DOUBLES, &doubles, sizeof doubles) ==
            S_OK);
    CHECK(doubles.DoublePrecisionFloatShaderOps == FALSE);

    UINT support = 0;
    REQUIRE(test.device->CheckFormatSupport(DXGI_FORMAT_R8G8B8A8_UNORM, &support) == S_OK);
    CHECK((support & D3D11_FORMAT_SUPPORT_RENDER_TARGET) != 0);
    CHECK((support & D3D11_FORMAT_SUPPORT_DISPLAY) != 0);
    REQUIRE(test.device->CheckFormatSupport(DXGI_FORMAT_D32_FLOAT, &support) == S_OK);
    CHECK(support & D3D11_FORMAT_SUPPORT_DEPTH_STENCIL);
    CHECK_FALSE(support & D3D11_FORMAT_SUPPORT_RENDER_TARGET);
    CHECK(test.device->CheckFormatSupport(DXGI_FORMAT_NV12, &support) == E_FAIL);
    CHECK(support == 0);

    UINT levels = 0;
    REQUIRE(test.device->CheckMultisampleQualityLevels(DXGI_FORMAT_R8G8B8A8_UNORM, 4, &levels) ==
            S_OK);
    CHECK(levels == 1);
    REQUIRE(test.device->CheckMultisampleQualityLevels(DXGI_FORMAT_BC1_UNORM, 4, &levels) == S_OK);
    CHECK(levels == 0);
    REQUIRE(test.device->CheckMultisampleQualityLevels1(
                DXGI_FORMAT_R8G8B8A8_UNORM, 2,
                D3D11_CHECK_MULTISAMPLE_QUALITY_LEVELS_TILED_RESOURCE, &levels) == S_OK);
    CHECK(levels == 0);  // tiled resources take 1 or 4 samples

    D3D11_COUNTER_INFO counters{};
    test.device->CheckCounterInfo(&counters);
    CHECK(counters.LastDeviceDependentCounter == 0);
    CHECK(counters.NumSimultaneousCounters == 0);
    CHECK(test.device->GetFeatureLevel() == D3D_FEATURE_LEVEL_11_1);
    CHECK(test.device->GetDeviceRemovedReason() == S_OK);
    CHECK(test.device->GetCreationFlags() == 0);
}

TEST_CASE("A tile pool may start empty and grow with ResizeTilePool",
          "[object][resources][tiles]") {
    TestDevice test;
    Com<ID3D11Buffer> pool;
    const D3D11_BUFFER_DESC empty{0, D3D11_USAGE_DEFAULT, 0, 0, D3D11_RESOURCE_MISC_TILE_POOL, 0};
    REQUIRE(test.device->CreateBuffer(&empty, nullptr, pool.out()) == S_OK);
    CHECK(test.context->ResizeTilePool(pool.get(), 3 * 65536) == S_OK);
    D3D11_BUFFER_DESC got{};
    pool->GetDesc(&got);
    CHECK(got.ByteWidth == 3 * 65536);
    // Other buffers still need a byte at least.
    CHECK(create_buffer(test, {0, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0}) ==
          E_INVALIDARG);
}

TEST_CASE("Min/max filtering follows the tiled-resources tier", "[object][resources][tiles]") {
    D3D11_SAMPLER_DESC sampler{};
    sampler.Filter = D3D11_FILTER_MINIMUM_MIN_MAG_MIP_POINT;
    sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D11_TEXTURE_ADDRESS_CLAMP;
    sampler.MaxLOD = D3D11_FLOAT32_MAX;
    TestDevice test;  // the reference device: tier 3
    D3D11_FEATURE_DATA_D3D11_OPTIONS1 options{};
    REQUIRE(test.device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS1, &options,
                                             sizeof options) == S_OK);
    CHECK(options.MinMaxFiltering == TRUE);
    Com<ID3D11SamplerState> state;
    CHECK(test.device->CreateSamplerState(&sampler, state.out()) == S_OK);
}

TEST_CASE("Without tiled resources, validating a tiled creation answers as creating does",
          "[object][resources][tiles]") {
    // The Vulkan device on a driver without sparse binding (lavapipe), told
    // not to shadow tiled resources, has none; elsewhere there is nothing to
    // check here.
    setenv("D3DCAP_VULKAN_SHADOW_TILES", "0", 1);
    const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1;
    Com<ID3D11Device> device;
    if (FAILED(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, &level, 1,
                                 D3D11_SDK_VERSION, device.out(), nullptr, nullptr)))
        test_support::missing_dependency("no Vulkan device here (lavapipe: mesa-vulkan-drivers)");
    D3D11_FEATURE_DATA_D3D11_OPTIONS1 options{};
    REQUIRE(device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS1, &options, sizeof options) ==
            S_OK);
    if (options.TiledResourcesTier != D3D11_TILED_RESOURCES_NOT_SUPPORTED)  // a GPU's
        test_support::skip_test("this Vulkan device has tiled resources");
    CHECK(options.MinMaxFiltering == FALSE);

    const D3D11_BUFFER_DESC pool_desc{65536, D3D11_USAGE_DEFAULT,           0,
                                      0,     D3D11_RESOURCE_MISC_TILE_POOL, 0};
    CHECK(device->CreateBuffer(&pool_desc, nullptr, nullptr) == E_INVALIDARG);
    Com<ID3D11Buffer> pool;
    CHECK(device->CreateBuffer(&pool_desc, nullptr, pool.out()) == E_INVALIDARG);
    auto tiled = texture_desc(256, 256, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE);
    tiled.MiscFlags = D3D11_RESOURCE_MISC_TILED;
    CHECK(device->CreateTexture2D(&tiled, nullptr, nullptr) == E_INVALIDARG);
    Com<ID3D11Texture2D> texture;
    CHECK(device->CreateTexture2D(&tiled, nullptr, texture.out()) == E_INVALIDARG);
    // An untiled texture still validates.
    tiled.MiscFlags = 0;
    CHECK(device->CreateTexture2D(&tiled, nullptr, nullptr) == S_FALSE);

    D3D11_SAMPLER_DESC sampler{};
    sampler.Filter = D3D11_FILTER_MAXIMUM_MIN_MAG_MIP_LINEAR;
    sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D11_TEXTURE_ADDRESS_CLAMP;
    Com<ID3D11SamplerState> state;
    CHECK(device->CreateSamplerState(&sampler, state.out()) == E_INVALIDARG);
}
