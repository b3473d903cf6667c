// A frame-range capture starts with a snapshot of everything that exists;
// replayed on the reference device, it must leave every resource exactly as
// the live run left it at the last captured frame.
#include <xxhash.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "capture/replay/replay_support.h"
#include "capture/support/capture_session.h"
#include "support/temp_dir.h"

using namespace d3dcap;

namespace {

constexpr UINT kTile = 65536;

// The bytes of every subresource of a resource, read through a staging copy
// on the given device and context, hashed together.
std::uint64_t content_hash(ID3D11Device* device, ID3D11DeviceContext* context,
                           ID3D11Resource* resource) {
    D3D11_RESOURCE_DIMENSION dimension{};
    resource->GetType(&dimension);
    ID3D11Resource* staging = nullptr;
    UINT subresources = 1;
    if (dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
        D3D11_BUFFER_DESC desc{};
        static_cast<ID3D11Buffer*>(resource)->GetDesc(&desc);
        desc = {desc.ByteWidth, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0};
        REQUIRE(device->CreateBuffer(&desc, nullptr, reinterpret_cast<ID3D11Buffer**>(&staging)) ==
                S_OK);
    } else {
        D3D11_TEXTURE2D_DESC desc{};
        static_cast<ID3D11Texture2D*>(resource)->GetDesc(&desc);
        desc.Usage = D3D11_USAGE_STAGING;
        desc.BindFlags = 0;
        desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
        desc.MiscFlags = 0;
        subresources = desc.MipLevels * desc.ArraySize;
        REQUIRE(device->CreateTexture2D(&desc, nullptr,
                                        reinterpret_cast<ID3D11Texture2D**>(&staging)) == S_OK);
    }
    context->CopyResource(staging, resource);
    XXH3_state_t* state = XXH3_createState();
    XXH3_64bits_reset(state);
    for (UINT sub = 0; sub < subresources; ++sub) {
        D3D11_MAPPED_SUBRESOURCE mapped{};
        REQUIRE(context->Map(staging, sub, D3D11_MAP_READ, 0, &mapped) == S_OK);
        XXH3_64bits_update(state, mapped.pData, mapped.DepthPitch);
        context->Unmap(staging, sub);
    }
    const std::uint64_t hash = XXH3_64bits_digest(state);
    XXH3_freeState(state);
    staging->Release();
    return hash;
}

struct Scene {
    ID3D11Buffer* pool = nullptr;
    ID3D11Texture2D* tiled = nullptr;
    ID3D11Texture2D* texture = nullptr;
    ID3D11Buffer* buffer = nullptr;
    ID3D11Buffer* dynamic = nullptr;

    // Ids the layer gives them: device 1, context 2, then in creation order.
    static constexpr std::uint64_t kIds[] = {3, 4, 5, 6, 7};

    std::vector<ID3D11Resource*> resources() const {
        return {pool, tiled, texture, buffer, dynamic};
    }
};

Scene make_scene(ID3D11Device2* device) {
    Scene s;
    const D3D11_BUFFER_DESC pool{16 * kTile, D3D11_USAGE_DEFAULT,           0,
                                 0,          D3D11_RESOURCE_MISC_TILE_POOL, 0};
    REQUIRE(device->CreateBuffer(&pool, nullptr, &s.pool) == S_OK);
    D3D11_TEXTURE2D_DESC tiled{};
    tiled.Width = tiled.Height = 512;
    tiled.MipLevels = 0;
    tiled.ArraySize = 1;
    tiled.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    tiled.SampleDesc.Count = 1;
    tiled.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    tiled.MiscFlags = D3D11_RESOURCE_MISC_TILED;
    REQUIRE(device->CreateTexture2D(&tiled, nullptr, &s.tiled) == S_OK);
    D3D11_TEXTURE2D_DESC plain = tiled;
    plain.Width = plain.Height = 64;
    plain.MipLevels = 1;
    plain.MiscFlags = 0;
    std::vector<std::uint32_t> texels(64 * 64, 0x11223344);
    const D3D11_SUBRESOURCE_DATA initial{texels.data(), 64 * 4, 0};
    REQUIRE(device->CreateTexture2D(&plain, &initial, &s.texture) == S_OK);
    const D3D11_BUFFER_DESC buffer{4096, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, 0, 0};
    REQUIRE(device->CreateBuffer(&buffer, nullptr, &s.buffer) == S_OK);
    const D3D11_BUFFER_DESC dynamic{
        1024, D3D11_USAGE_DYNAMIC, D3D11_BIND_SHADER_RESOURCE, D3D11_CPU_ACCESS_WRITE, 0, 0};
    REQUIRE(device->CreateBuffer(&dynamic, nullptr, &s.dynamic) == S_OK);
    return s;
}

// One frame of work that changes every resource, differently each frame.
void frame(ID3D11DeviceContext2* context, const Scene& s, std::uint32_t f) {
    // Tile f of mip 0 onto pool tile f, the packed mips onto pool tile 15.
    const D3D11_TILED_RESOURCE_COORDINATE at{f % 4, f / 4, 0, 0};
    const D3D11_TILE_REGION_SIZE one{1, FALSE, 0, 0, 0};
    const UINT offset = f;
    REQUIRE(context->UpdateTileMappings(s.tiled, 1, &at, &one, s.pool, 1, nullptr, &offset, nullptr,
                                        0) == S_OK);
    if (f == 0) {
        // Grow the pool, map a tile near its end, then (next frame) shrink the
        // pool below that tile: the mapping stays valid, and the snapshot
        // must reproduce both the size and the mapping.
        REQUIRE(context->ResizeTilePool(s.pool, 20 * kTile) == S_OK);
        const D3D11_TILED_RESOURCE_COORDINATE far{3, 3, 0, 0};
        const UINT far_tile = 18;
        REQUIRE(context->UpdateTileMappings(s.tiled, 1, &far, &one, s.pool, 1, nullptr, &far_tile,
                                            nullptr, 0) == S_OK);
        std::vector<std::uint8_t> far_data(kTile, 0x5a);
        context->UpdateTiles(s.tiled, &far, &one, far_data.data(), 0);
        const D3D11_TILED_RESOURCE_COORDINATE packed{0, 0, 0, 2};
        const UINT pool_tile = 15;
        REQUIRE(context->UpdateTileMappings(s.tiled, 1, &packed, &one, s.pool, 1, nullptr,
                                            &pool_tile, nullptr, 0) == S_OK);
    }
    if (f == 1) REQUIRE(context->ResizeTilePool(s.pool, 17 * kTile) == S_OK);
    std::vector<std::uint8_t> tile(kTile);
    for (std::size_t i = 0; i < tile.size(); ++i) tile[i] = static_cast<std::uint8_t>(i * 7 + f);
    context->UpdateTiles(s.tiled, &at, &one, tile.data(), 0);
    std::vector<std::uint32_t> texels(16 * 16, 0xff000000u | (f * 0x010203u));
    const D3D11_BOX box{f * 8, f * 4, 0, f * 8 + 16, f * 4 + 16, 1};
    context->UpdateSubresource(s.texture, 0, &box, texels.data(), 16 * 4, 0);
    const std::vector<std::uint32_t> mip3(64 * 64, 0x80808080u + f);  // 512 >> 3 = 64
    context->UpdateSubresource(s.tiled, 3, nullptr, mip3.data(), 64 * 4, 0);
    std::vector<std::uint8_t> bytes(256, static_cast<std::uint8_t>(f + 1));
    const D3D11_BOX range{f * 256, 0, 0, f * 256 + 256, 1, 1};
    context->UpdateSubresource(s.buffer, 0, &range, bytes.data(), 0, 0);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(context->Map(s.dynamic, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
    std::memset(static_cast<std::uint8_t*>(mapped.pData) + f * 100, 0x40 + f, 60);
    context->Unmap(s.dynamic, 0);
}

}  // namespace

TEST_CASE("a frame-range capture replays from its snapshot to the live run's contents") {
    testing::TempDir dir;
    const auto session = testing::CaptureSession::load(dir.file("frames.d3dcap"), "2-3");
    ID3D11Device2* device = nullptr;
    ID3D11DeviceContext2* context = nullptr;
    REQUIRE(session.device(D3D_DRIVER_TYPE_REFERENCE, &device, &context) == S_OK);
    const Scene scene = make_scene(device);
    for (std::uint32_t f = 0; f < 4; ++f) {
        CHECK(session.api->is_recording() == (f >= 2 ? 1 : 0));
        frame(context, scene, f);
        session.api->end_frame();
    }
    CHECK(session.api->is_recording() == 0);  // frame 4 is past the range
    std::vector<std::uint64_t> live;
    for (ID3D11Resource* r : scene.resources())
        if (r != scene.pool) live.push_back(content_hash(device, context, r));
    REQUIRE(session.api->stop() == 0);

    const auto replayer = testing::replay_on_reference(session.trace_path);
    ID3D11Device* replay_device = nullptr;
    ID3D11DeviceContext* replay_context = nullptr;
    REQUIRE(replayer->object(1)->QueryInterface(__uuidof(ID3D11Device),
                                                reinterpret_cast<void**>(&replay_device)) == S_OK);
    replay_device->GetImmediateContext(&replay_context);
    std::size_t i = 0;
    for (std::size_t k = 1; k < std::size(Scene::kIds); ++k, ++i) {
        INFO("object " << Scene::kIds[k]);
        ID3D11Resource* replayed = nullptr;
        REQUIRE(replayer->object(Scene::kIds[k]) != nullptr);
        REQUIRE(replayer->object(Scene::kIds[k])
                    ->QueryInterface(__uuidof(ID3D11Resource),
                                     reinterpret_cast<void**>(&replayed)) == S_OK);
        CHECK(content_hash(replay_device, replay_context, replayed) == live[i]);
        replayed->Release();
    }
    replay_context->Release();
    replay_device->Release();
    for (ID3D11Resource* r : scene.resources()) r->Release();
    context->Release();
    device->Release();
}
