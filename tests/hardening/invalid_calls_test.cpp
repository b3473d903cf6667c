// Calls an application makes wrongly behave the same under capture as
// without it (same HRESULT, same state afterwards for void calls), are
// recorded, and replay reproduces them with no mismatch.
#include <d3dcap/api/calls.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "capture/support/capture_session.h"
#include "hardening/trace_checks.h"
#include "support/com.h"
#include "support/temp_dir.h"

using namespace d3dcap;
using d3dcap::testing::Com;

namespace {

constexpr UINT kTileBytes = 65536;

// What the wrong calls returned, and what a void call left bound.
struct Outcomes {
    HRESULT region_outside_resource = S_OK;
    HRESULT pool_offset_past_end = S_OK;
    HRESULT tile_counts_differ = S_OK;
    HRESULT resize_pool_unaligned = S_OK;
    HRESULT map_default_texture = S_OK;
    HRESULT map_default_buffer = S_OK;
    // PSGetConstantBuffers1 after a valid window and then an unaligned one.
    bool constant_buffer_bound = false;
    UINT first_constant = 0;
    UINT constant_count = 0;

    bool operator==(const Outcomes&) const = default;
};

// The same wrong calls, on a device made directly or through the layer.
Outcomes make_wrong_calls(ID3D11Device2* device, ID3D11DeviceContext2* context) {
    Outcomes out;
    D3D11_BUFFER_DESC pool_desc{
        4 * kTileBytes, D3D11_USAGE_DEFAULT, 0, 0, D3D11_RESOURCE_MISC_TILE_POOL, 0};
    Com<ID3D11Buffer> pool;
    REQUIRE(device->CreateBuffer(&pool_desc, nullptr, pool.out()) == S_OK);
    D3D11_TEXTURE2D_DESC tiled_desc{512,
                                    512,
                                    1,
                                    1,
                                    DXGI_FORMAT_R8G8B8A8_UNORM,
                                    {1, 0},
                                    D3D11_USAGE_DEFAULT,
                                    D3D11_BIND_SHADER_RESOURCE,
                                    0,
                                    D3D11_RESOURCE_MISC_TILED};  // 4x4 tiles of 128x128
    Com<ID3D11Texture2D> tiled;
    REQUIRE(device->CreateTexture2D(&tiled_desc, nullptr, tiled.out()) == S_OK);

    const D3D11_TILED_RESOURCE_COORDINATE outside{10, 0, 0, 0};
    const D3D11_TILE_REGION_SIZE one_tile{1, FALSE, 1, 1, 1};
    const UINT offset_in_pool = 0, offset_past_end = 100, one = 1, two = 2;
    out.region_outside_resource = context->UpdateTileMappings(
        tiled.get(), 1, &outside, &one_tile, pool.get(), 1, nullptr, &offset_in_pool, &one, 0);
    const D3D11_TILED_RESOURCE_COORDINATE origin{0, 0, 0, 0};
    out.pool_offset_past_end = context->UpdateTileMappings(
        tiled.get(), 1, &origin, &one_tile, pool.get(), 1, nullptr, &offset_past_end, &one, 0);
    out.tile_counts_differ = context->UpdateTileMappings(
        tiled.get(), 1, &origin, &one_tile, pool.get(), 1, nullptr, &offset_in_pool, &two, 0);
    out.resize_pool_unaligned = context->ResizeTilePool(pool.get(), 4 * kTileBytes + 1);

    D3D11_TEXTURE2D_DESC default_desc = tiled_desc;
    default_desc.Width = default_desc.Height = 16;
    default_desc.MiscFlags = 0;
    Com<ID3D11Texture2D> texture;
    REQUIRE(device->CreateTexture2D(&default_desc, nullptr, texture.out()) == S_OK);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    out.map_default_texture = context->Map(texture.get(), 0, D3D11_MAP_WRITE, 0, &mapped);
    D3D11_BUFFER_DESC constants_desc{4096, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0,
                                     0};
    Com<ID3D11Buffer> constants;
    REQUIRE(device->CreateBuffer(&constants_desc, nullptr, constants.out()) == S_OK);
    out.map_default_buffer = context->Map(constants.get(), 0, D3D11_MAP_READ, 0, &mapped);

    ID3D11Buffer* bind = constants.get();
    const UINT aligned_first = 16, aligned_count = 32, unaligned_first = 3;
    context->PSSetConstantBuffers1(0, 1, &bind, &aligned_first, &aligned_count);
    context->PSSetConstantBuffers1(0, 1, &bind, &unaligned_first, &aligned_count);
    ID3D11Buffer* bound = nullptr;
    context->PSGetConstantBuffers1(0, 1, &bound, &out.first_constant, &out.constant_count);
    out.constant_buffer_bound = bound == constants.get();
    if (bound != nullptr) bound->Release();
    return out;
}

HRESULT direct_device(ID3D11Device2** device, ID3D11DeviceContext2** context) {
    Com<ID3D11Device> base;
    Com<ID3D11DeviceContext> base_context;
    const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1;
    const HRESULT hr =
        D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_REFERENCE, nullptr, 0, &level, 1,
                          D3D11_SDK_VERSION, base.out(), nullptr, base_context.out());
    if (FAILED(hr)) return hr;
    *device = base.as<ID3D11Device2>().release();
    *context = base_context.as<ID3D11DeviceContext2>().release();
    return S_OK;
}

}  // namespace

TEST_CASE("wrong calls return the same under capture, are recorded and replay the same",
          "[hardening][capture]") {
    Com<ID3D11Device2> direct;
    Com<ID3D11DeviceContext2> direct_context;
    REQUIRE(direct_device(direct.out(), direct_context.out()) == S_OK);
    const Outcomes expected = make_wrong_calls(direct.get(), direct_context.get());
    CHECK(expected.region_outside_resource == E_INVALIDARG);
    CHECK(expected.pool_offset_past_end == E_INVALIDARG);
    CHECK(expected.tile_counts_differ == E_INVALIDARG);
    CHECK(expected.resize_pool_unaligned == E_INVALIDARG);
    CHECK(expected.map_default_texture == E_INVALIDARG);
    CHECK(expected.map_default_buffer == E_INVALIDARG);
    // The unaligned window is dropped: the valid one stays bound.
    CHECK(expected.constant_buffer_bound);
    CHECK(expected.first_constant == 16);
    CHECK(expected.constant_count == 32);

    testing::TempDir dir;
    const std::string path = dir.file("wrong_calls.d3dcap");
    {
        auto session = testing::CaptureSession::load(path);
        Com<ID3D11Device2> device;
        Com<ID3D11DeviceContext2> context;
        REQUIRE(session.device(D3D_DRIVER_TYPE_REFERENCE, device.out(), context.out()) == S_OK);
        const Outcomes captured = make_wrong_calls(device.get(), context.get());
        CHECK(captured == expected);
        REQUIRE(session.api->stop() == 0);
    }
    CHECK(hardening::count_calls(path, api::CallId::ID3D11DeviceContext2_UpdateTileMappings) ==
          std::pair{3, 3});
    CHECK(hardening::count_calls(path, api::CallId::ID3D11DeviceContext2_ResizeTilePool) ==
          std::pair{1, 1});
    CHECK(hardening::count_calls(path, api::CallId::ID3D11DeviceContext_Map) == std::pair{2, 2});
    CHECK(hardening::count_calls(path, api::CallId::ID3D11DeviceContext1_PSSetConstantBuffers1)
              .first == 2);

    for (const D3D_DRIVER_TYPE driver : {D3D_DRIVER_TYPE_REFERENCE, D3D_DRIVER_TYPE_NULL})
        hardening::require_clean_replay(path, driver);
}
