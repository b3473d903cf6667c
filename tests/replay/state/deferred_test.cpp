// Tile calls made on a deferred context change nothing until the command
// list holding them is executed on the immediate context, and then apply at
// that event, each time the list is executed. Recorded from direct calls on
// a reference device, checked against hand-written tables, the device
// itself and the state-only device's replay.
#include "replay/engine/recorder.h"
#include "replay/state/replay_compare.h"
#include "replay/state/timeline_support.h"

using namespace timeline_tests;
using d3dcap::testing::Com;
using engine_tests::DirectDevice;
using engine_tests::Recorder;

namespace {

constexpr std::uint32_t N = runtime::tiles::kNullTile;

struct Events {
    std::uint64_t deferred_update = 0, deferred_resize = 0, marker = 0, finish = 0, immediate = 0,
                  execute = 0, clear = 0, execute_again = 0, count = 0;
};

}  // namespace

TEST_CASE("deferred tile calls take effect when their command list is executed",
          "[state][deferred]") {
    d3dcap::testing::TempDir dir;
    Recorder rec(dir.file("deferred.d3dcap"));
    DirectDevice direct(rec);
    Events e;

    Com<ID3D11Buffer> pool;
    const D3D11_BUFFER_DESC pool_desc{16 * 65536, D3D11_USAGE_DEFAULT,           0,
                                      0,          D3D11_RESOURCE_MISC_TILE_POOL, 0};
    HRESULT hr = direct.device->CreateBuffer(&pool_desc, nullptr, pool.out());
    REQUIRE(hr == S_OK);
    const std::uint64_t pool_id = rec.track(pool.get());
    ID3D11Buffer* pool_out = pool.get();
    rec.call(direct.device.get(),
             api::encode_ID3D11Device_CreateBuffer(rec.b, rec, &pool_desc, nullptr, &pool_out), hr);

    Com<ID3D11Texture2D> texture;  // 4x4 tiles
    D3D11_TEXTURE2D_DESC desc{};
    desc.Width = desc.Height = 512;
    desc.MipLevels = desc.ArraySize = 1;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc.Count = 1;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    desc.MiscFlags = D3D11_RESOURCE_MISC_TILED;
    hr = direct.device->CreateTexture2D(&desc, nullptr, texture.out());
    REQUIRE(hr == S_OK);
    const std::uint64_t texture_id = rec.track(texture.get());
    ID3D11Texture2D* texture_out = texture.get();
    rec.call(direct.device.get(),
             api::encode_ID3D11Device_CreateTexture2D(rec.b, rec, &desc, nullptr, &texture_out, {}),
             hr);

    Com<ID3D11DeviceContext> deferred;
    hr = direct.device->CreateDeferredContext(0, deferred.out());
    REQUIRE(hr == S_OK);
    const std::uint64_t deferred_id = rec.track(deferred.get());
    rec.call(direct.device.get(),
             fb::CreateID3D11Device_CreateDeferredContext(rec.b, 0, deferred_id), hr);
    const Com<ID3D11DeviceContext2> deferred2 = deferred.as<ID3D11DeviceContext2>();

    // Deferred: a 2x2 box at (0,0) onto pool tiles 20..23, after growing the
    // pool to 32 tiles.
    const UINT64 grown = 32 * 65536;
    hr = deferred2->ResizeTilePool(pool.get(), grown);
    REQUIRE(hr == S_OK);
    e.deferred_resize =
        rec.call(deferred.get(),
                 fb::CreateID3D11DeviceContext2_ResizeTilePool(rec.b, pool_id, grown), hr, true);
    const D3D11_TILED_RESOURCE_COORDINATE origin{0, 0, 0, 0};
    const D3D11_TILE_REGION_SIZE box{4, TRUE, 2, 2, 1};
    const UINT twenty = 20;
    hr = deferred2->UpdateTileMappings(texture.get(), 1, &origin, &box, pool.get(), 1, nullptr,
                                       &twenty, nullptr, 0);
    REQUIRE(hr == S_OK);
    e.deferred_update = rec.call(deferred.get(),
                                 api::encode_ID3D11DeviceContext2_UpdateTileMappings(
                                     rec.b, rec, texture.get(), 1, &origin, &box, pool.get(), 1,
                                     nullptr, &twenty, nullptr, 0),
                                 hr, true);
    e.marker = rec.call(direct.context.get(),
                        fb::CreateID3D11DeviceContext2_SetMarkerIntDirect(rec.b, "between", 1),
                        std::nullopt, true);

    Com<ID3D11CommandList> list;
    hr = deferred->FinishCommandList(FALSE, list.out());
    REQUIRE(hr == S_OK);
    const std::uint64_t list_id = rec.track(list.get());
    e.finish =
        rec.call(deferred.get(), fb::CreateID3D11DeviceContext_FinishCommandList(rec.b, 0, list_id),
                 hr, true);

    // Immediate, before the list runs: tile (3,3) onto pool tile 9.
    const D3D11_TILED_RESOURCE_COORDINATE corner{3, 3, 0, 0};
    const D3D11_TILE_REGION_SIZE one{1, FALSE, 0, 0, 0};
    const UINT nine = 9;
    hr = direct.context->UpdateTileMappings(texture.get(), 1, &corner, &one, pool.get(), 1, nullptr,
                                            &nine, nullptr, 0);
    REQUIRE(hr == S_OK);
    e.immediate = rec.call(
        direct.context.get(),
        api::encode_ID3D11DeviceContext2_UpdateTileMappings(
            rec.b, rec, texture.get(), 1, &corner, &one, pool.get(), 1, nullptr, &nine, nullptr, 0),
        hr, true);

    const auto execute = [&] {
        direct.context->ExecuteCommandList(list.get(), FALSE);
        return rec.call(direct.context.get(),
                        fb::CreateID3D11DeviceContext_ExecuteCommandList(rec.b, list_id, 0),
                        std::nullopt, true);
    };
    e.execute = execute();
    const UINT null_range = D3D11_TILE_RANGE_NULL;
    hr = direct.context->UpdateTileMappings(texture.get(), 1, nullptr, nullptr, nullptr, 1,
                                            &null_range, nullptr, nullptr, 0);
    REQUIRE(hr == S_OK);
    e.clear = rec.call(direct.context.get(),
                       api::encode_ID3D11DeviceContext2_UpdateTileMappings(
                           rec.b, rec, texture.get(), 1, nullptr, nullptr, nullptr, 1, &null_range,
                           nullptr, nullptr, 0),
                       hr, true);
    e.execute_again = execute();
    e.count = rec.close();

    // clang-format off
    const std::vector<std::uint32_t> none(16, N);
    const std::vector<std::uint32_t> corner_only = {
        N, N, N, N,
        N, N, N, N,
        N, N, N, N,
        N, N, N, 9};
    const std::vector<std::uint32_t> executed = {
        20, 21, N, N,
        22, 23, N, N,
         N,  N, N, N,
         N,  N, N, 9};
    const std::vector<std::uint32_t> executed_again = {
        20, 21, N, N,
        22, 23, N, N,
         N,  N, N, N,
         N,  N, N, N};
    // clang-format on
    auto timeline = open_timeline(rec.path(), 2);
    const auto at = [&](std::uint64_t event) { return state_at(*timeline, event); };
    CHECK(pool_tiles(at(e.deferred_resize), texture_id) == none);
    CHECK(at(e.deferred_resize).pool_tiles(pool_id) == 16);
    CHECK(pool_tiles(at(e.deferred_update), texture_id) == none);
    CHECK(pool_tiles(at(e.marker), texture_id) == none);
    CHECK(pool_tiles(at(e.finish), texture_id) == none);
    CHECK(at(e.finish).pool_tiles(pool_id) == 16);
    CHECK(pool_tiles(at(e.immediate), texture_id) == corner_only);
    CHECK(pool_tiles(at(e.execute), texture_id) == executed);
    CHECK(at(e.execute).pool_tiles(pool_id) == 32);
    CHECK(pool_tiles(at(e.clear), texture_id) == none);
    CHECK(pool_tiles(at(e.execute_again), texture_id) == executed_again);
    CHECK(timeline->notes_until(e.count - 1).empty());

    // The device the calls were made on agrees.
    const runtime::tiles::TileState* device_state = runtime::device_tile_state(direct.device.get());
    REQUIRE(device_state != nullptr);
    const std::map<std::uint64_t, std::uint64_t> direct_ids = {
        {pool_id, runtime::object_id(pool.get())}, {texture_id, runtime::object_id(texture.get())}};
    check_matches(at(e.count - 1), *device_state,
                  [&](std::uint64_t id) { return direct_ids.count(id) ? direct_ids.at(id) : 0; });

    // So does the state-only device's replay, event by event.
    auto replayer = engine_tests::open_replay(rec.path(), D3D_DRIVER_TYPE_NULL);
    for (std::uint64_t event = 0; event < e.count; ++event) {
        INFO("event " << event);
        REQUIRE(replayer->run_to(event).ok());
        ID3D11Device* device = replayed_device(*replayer);
        REQUIRE(device != nullptr);
        check_matches(at(event), *runtime::device_tile_state(device), runtime_ids(*replayer));
    }
}

TEST_CASE("a command list executed on a deferred context runs with the list that holds it",
          "[state][deferred]") {
    d3dcap::testing::TempDir dir;
    TraceBuilder t(dir.file("nested.d3dcap"));
    constexpr std::uint64_t kPool = 3, kTexture = 4, kFirst = 20, kSecond = 21;
    constexpr std::uint64_t kInner = 30, kOuter = 31, kEmpty = 32;
    t.create_pool(kPool, 16);
    t.create_texture(kTexture, 512, 512, 1, 1, std::nullopt);  // 4x4 tiles
    t.call(kDevice, fb::CreateID3D11Device1_CreateDeferredContext1(t.b, 0, kFirst));
    t.call(kDevice, fb::CreateID3D11Device2_CreateDeferredContext2(t.b, 0, kSecond));
    const D3D11_TILE_REGION_SIZE one{1, FALSE, 0, 0, 0};
    const D3D11_TILED_RESOURCE_COORDINATE first{0, 0, 0, 0}, second{1, 0, 0, 0};
    const UINT pool_one = 1, pool_two = 2;
    t.update(kFirst, kTexture, 1, &first, &one, kPool, 1, nullptr, &pool_one, nullptr);
    t.on(kFirst, fb::CreateID3D11DeviceContext_FinishCommandList(t.b, 0, kInner));
    const std::uint64_t nested = t.on(
        kSecond, fb::CreateID3D11DeviceContext_ExecuteCommandList(t.b, kInner, 0), std::nullopt);
    t.update(kSecond, kTexture, 1, &second, &one, kPool, 1, nullptr, &pool_two, nullptr);
    t.on(kSecond, fb::CreateID3D11DeviceContext_FinishCommandList(t.b, 0, kOuter));
    const std::uint64_t executed = t.on(
        kContext, fb::CreateID3D11DeviceContext_ExecuteCommandList(t.b, kOuter, 0), std::nullopt);
    // A call the deferred context refused is not in the list.
    const UINT pool_nine = 9;
    t.update(kFirst, kTexture, 1, &second, &one, kPool, 1, nullptr, &pool_nine, nullptr, 0,
             E_INVALIDARG);
    t.on(kFirst, fb::CreateID3D11DeviceContext_FinishCommandList(t.b, 0, kEmpty));
    const std::uint64_t executed_empty = t.on(
        kContext, fb::CreateID3D11DeviceContext_ExecuteCommandList(t.b, kEmpty, 0), std::nullopt);
    const std::uint64_t events = t.close();

    auto timeline = open_timeline(t.path(), 3);
    std::vector<std::uint32_t> expected(16, N);
    CHECK(pool_tiles(state_at(*timeline, nested), kTexture) == expected);
    CHECK(pool_tiles(state_at(*timeline, executed - 1), kTexture) == expected);
    expected[0] = 1;
    expected[1] = 2;
    CHECK(pool_tiles(state_at(*timeline, executed), kTexture) == expected);
    CHECK(pool_tiles(state_at(*timeline, executed_empty), kTexture) == expected);
    CHECK(pool_tiles(state_at(*timeline, events - 1), kTexture) == expected);
    CHECK(timeline->notes_until(events - 1).empty());
}
