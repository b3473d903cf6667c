// Replayed objects: ids handed out again (QueryInterface, getters), debug
// names, destruction, state snapshots, and which code replays each call.
#include <d3dcap/api/call_decoders.h>

#include <algorithm>
#include <cwchar>

#include "recorder.h"

using namespace engine_tests;

namespace {

// WKPDID_D3DDebugObjectName.
constexpr GUID kDebugObjectName = {
    0x429b8c22, 0x9188, 0x4b0c, {0x87, 0x42, 0xac, 0xb0, 0xbf, 0x85, 0xc2, 0x00}};

fb::Guid fb_guid(const GUID& g) {
    return fb::Guid(g.Data1, g.Data2, g.Data3, flatbuffers::span<const std::uint8_t, 8>(g.Data4));
}

std::uint64_t record_buffer(Recorder& rec, DirectDevice& direct, Com<ID3D11Buffer>& buffer,
                            const std::vector<std::uint8_t>& data) {
    const D3D11_BUFFER_DESC desc{
        static_cast<UINT>(data.size()), D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
    const D3D11_SUBRESOURCE_DATA initial{data.data(), 0, 0};
    const HRESULT hr = direct.device->CreateBuffer(&desc, &initial, buffer.out());
    REQUIRE(hr == S_OK);
    const std::uint64_t id = rec.track(buffer.get());
    ID3D11Buffer* out = buffer.get();
    rec.call(direct.device.get(),
             api::encode_ID3D11Device_CreateBuffer(rec.b, rec, &desc, &initial, &out), hr);
    return id;
}

}  // namespace

TEST_CASE("QueryInterface and getters map their out ids and check known ones", "[replay][engine]") {
    testing::TempDir dir;
    Recorder rec(dir.file("objects.d3dcap"));
    DirectDevice direct(rec);
    Com<ID3D11Buffer> buffer;
    const auto buffer_id = record_buffer(rec, direct, buffer, pattern(16, 1));

    // The same object under its own id, and under a new id (as a capture
    // layer with one wrapper per interface would record it).
    const auto device1 = fb_guid(__uuidof(ID3D11Device1));
    rec.call(direct.device.get(),
             fb::CreateIUnknown_QueryInterface(rec.b, &device1, direct.device_id), S_OK);
    rec.call(direct.device.get(), fb::CreateIUnknown_QueryInterface(rec.b, &device1, 30), S_OK);
    const auto unsupported = fb_guid(__uuidof(ID3D11Texture2D));
    rec.call(direct.device.get(), fb::CreateIUnknown_QueryInterface(rec.b, &unsupported, 0),
             E_NOINTERFACE);
    // Calls through the new id; GetDevice and GetImmediateContext1 hand out known objects.
    rec.call(buffer.get(), fb::CreateID3D11DeviceChild_GetDevice(rec.b, 30));
    rec.call(buffer.get(), fb::CreateID3D11DeviceChild_GetDevice(rec.b, direct.device_id));
    rec.call(direct.device.get(),
             fb::CreateID3D11Device1_GetImmediateContext1(rec.b, direct.context_id));
    // A getter recorded as handing out another object than the id stands for.
    const auto wrong =
        rec.call(direct.device.get(), fb::CreateID3D11Device_GetImmediateContext(rec.b, buffer_id));
    rec.close();

    auto replay = open_replay(rec.path());
    require_ok(replay->run_all());
    REQUIRE(replay->object(30) != nullptr);
    CHECK(identity(replay->object(30)) == identity(replay->object(direct.device_id)));
    const auto mismatches = replay->mismatches();
    REQUIRE(mismatches.size() == 1);
    CHECK(mismatches[0].event == wrong);
    CHECK(mismatches[0].call == "ID3D11Device::GetImmediateContext");
    CHECK(mismatches[0].detail == "object " + std::to_string(buffer_id) +
                                      " (ID3D11Buffer) was handed out again as "
                                      "another object");
}

// A damaged trace can name ids replay already holds as a new device's: the
// new device (whose only reference the table then drops) is set up before it
// goes, and the ids keep the first device.
TEST_CASE("a device created again under known ids keeps the first one", "[replay][engine]") {
    testing::TempDir dir;
    Recorder rec(dir.file("again.d3dcap"));
    DirectDevice direct(rec);
    const std::vector<std::uint32_t> levels{D3D_FEATURE_LEVEL_11_1};
    const auto again =
        rec.call(nullptr,
                 fb::CreateD3D11CreateDeviceDirect(rec.b, 0, D3D_DRIVER_TYPE_REFERENCE, 0, 0,
                                                   &levels, 1, D3D11_SDK_VERSION, direct.device_id,
                                                   D3D_FEATURE_LEVEL_11_1, direct.context_id),
                 S_OK);
    rec.close();

    auto replay = open_replay(rec.path());
    IUnknown* first = nullptr;
    require_ok(replay->run_to(again - 1));
    first = identity(replay->object(direct.device_id));
    require_ok(replay->run_all());
    CHECK(identity(replay->object(direct.device_id)) == first);
    const auto mismatches = replay->mismatches();
    REQUIRE(mismatches.size() == 2);
    CHECK(mismatches[0].event == again);
    CHECK(mismatches[0].detail == "object " + std::to_string(direct.device_id) +
                                      " (ID3D11Device) was handed out again as another object");
}

TEST_CASE("debug names are set and destroyed objects are released", "[replay][engine]") {
    testing::TempDir dir;
    Recorder rec(dir.file("lifetime.d3dcap"));
    DirectDevice direct(rec);
    Com<ID3D11Buffer> buffer;
    const auto buffer_id = record_buffer(rec, direct, buffer, pattern(16, 1));
    rec.meta(fb::CreateObjectCreatedDirect(rec.b, buffer_id, "ID3D11Buffer", direct.device_id));
    rec.meta(fb::CreateDebugNameDirect(rec.b, buffer_id, "vertices"));
    rec.meta(fb::CreateFrameBoundary(rec.b, 1));
    const auto destroyed = rec.meta(fb::CreateObjectDestroyed(rec.b, buffer_id));
    const auto use =
        rec.call(direct.context.get(),
                 fb::CreateID3D11DeviceContext_CopyResource(rec.b, buffer_id, buffer_id),
                 std::nullopt, true);
    rec.close();

    auto replay = open_replay(rec.path());
    require_ok(replay->run_to(destroyed - 1));
    Com<ID3D11Buffer> replayed;
    REQUIRE(replay->object(buffer_id)->QueryInterface(
                __uuidof(ID3D11Buffer), reinterpret_cast<void**>(replayed.out())) == S_OK);
    char name[32] = {};
    UINT size = sizeof name;
    REQUIRE(replayed->GetPrivateData(kDebugObjectName, &size, name) == S_OK);
    CHECK(std::string(name, size) == "vertices");
    const replay::Status status = replay->run_all();
    CHECK(replay->object(buffer_id) == nullptr);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().to_string() ==
          rec.path() + ": event " + std::to_string(use) +
              ": ID3D11DeviceContext::CopyResource: pDstResource: object " +
              std::to_string(buffer_id) + " (ID3D11Buffer) was destroyed at event " +
              std::to_string(destroyed));
}

TEST_CASE("a state snapshot's records run before the events that follow", "[replay][engine]") {
    testing::TempDir dir;
    Recorder rec(dir.file("snapshot.d3dcap"));
    rec.begin_snapshot();
    DirectDevice direct(rec);
    Com<ID3D11Buffer> buffer;
    const auto initial = pattern(64, 3, 7);
    const auto buffer_id = record_buffer(rec, direct, buffer, initial);
    // Accepted by the capturing device, refused by the reference device.
    const fb::D3D11_BUFFER_DESC empty(0, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0);
    rec.call(direct.device.get(),
             fb::CreateID3D11Device_CreateBufferDirect(rec.b, &empty, nullptr, 0), S_OK);
    const auto snapshot = rec.end_snapshot(4);
    const std::uint64_t created_hash = hash_of(buffer.get());
    rec.meta(fb::CreateFrameBoundary(rec.b, 4));
    const auto update = pattern(16, 0xE0);
    const D3D11_BOX box{8, 0, 0, 24, 1, 1};
    direct.context->UpdateSubresource(buffer.get(), 0, &box, update.data(), 0, 0);
    const fb::D3D11_BOX box_fb(8, 0, 0, 24, 1, 1);
    rec.call(direct.context.get(),
             fb::CreateID3D11DeviceContext_UpdateSubresourceDirect(rec.b, buffer_id, 0, &box_fb,
                                                                   &update, 0, 0),
             std::nullopt, true);
    // A second snapshot whose second record names an object nobody created.
    rec.begin_snapshot();
    rec.meta(fb::CreateFrameBoundary(rec.b, 5));
    rec.call(direct.context.get(), fb::CreateID3D11DeviceContext_CopyResource(rec.b, buffer_id, 88),
             std::nullopt, true);
    const auto bad = rec.end_snapshot(5);
    rec.close();

    auto replay = open_replay(rec.path());
    CHECK(snapshot == 0);
    require_ok(replay->run_to(snapshot));
    REQUIRE(replay->object(buffer_id) != nullptr);
    CHECK(replay->content_hash(buffer_id, 0) == created_hash);
    REQUIRE(replay->mismatches().size() == 1);
    CHECK(replay->mismatches()[0].event == snapshot);
    CHECK(replay->mismatches()[0].snapshot_record == 2);
    CHECK(replay->mismatches()[0].call == "ID3D11Device::CreateBuffer");
    CHECK(replay->mismatches()[0].replayed == E_INVALIDARG);
    const replay::Status status = replay->run_all();
    CHECK(replay->content_hash(buffer_id, 0) == hash_of(buffer.get()));
    CHECK(replay->content_hash(buffer_id, 0) != created_hash);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().to_string() ==
          rec.path() + ": event " + std::to_string(bad) +
              ": state snapshot record 1: ID3D11DeviceContext::CopyResource: pSrcResource: "
              "unknown object id 88");
}

TEST_CASE("D3D11CreateDeviceAndSwapChain and GetBuffer and Present replay a cleared back buffer",
          "[replay][engine]") {
    testing::TempDir dir;
    Recorder rec(dir.file("swap_chain.d3dcap"));
    DXGI_SWAP_CHAIN_DESC desc{};
    desc.BufferDesc = {32,
                       16,
                       {60, 1},
                       DXGI_FORMAT_R8G8B8A8_UNORM,
                       DXGI_MODE_SCANLINE_ORDER_UNSPECIFIED,
                       DXGI_MODE_SCALING_UNSPECIFIED};
    desc.SampleDesc = {1, 0};
    desc.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
    desc.BufferCount = 2;
    desc.OutputWindow = reinterpret_cast<HWND>(std::uintptr_t{7});
    desc.Windowed = TRUE;
    desc.SwapEffect = DXGI_SWAP_EFFECT_FLIP_DISCARD;
    Com<IDXGISwapChain> swap_chain;
    Com<ID3D11Device> device;
    Com<ID3D11DeviceContext> context;
    D3D_FEATURE_LEVEL level{};
    HRESULT hr = D3D11CreateDeviceAndSwapChain(
        nullptr, D3D_DRIVER_TYPE_REFERENCE, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION, &desc,
        swap_chain.out(), device.out(), &level, context.out());
    REQUIRE(hr == S_OK);
    const auto swap_chain_id = rec.track(swap_chain.get());
    const auto device_id = rec.track(device.get());
    const auto context_id = rec.track(context.get());
    const fb::DXGI_SWAP_CHAIN_DESC desc_fb(
        fb::DXGI_MODE_DESC(32, 16, fb::Rational(60, 1), DXGI_FORMAT_R8G8B8A8_UNORM, 0, 0),
        fb::SampleDesc(1, 0), DXGI_USAGE_RENDER_TARGET_OUTPUT, 2, 7, TRUE,
        DXGI_SWAP_EFFECT_FLIP_DISCARD, 0);
    rec.call(nullptr,
             fb::CreateD3D11CreateDeviceAndSwapChain(rec.b, 0, D3D_DRIVER_TYPE_REFERENCE, 0, 0, 0,
                                                     0, D3D11_SDK_VERSION, &desc_fb, swap_chain_id,
                                                     device_id, level, context_id),
             hr);

    Com<ID3D11Texture2D> back;
    hr = swap_chain->GetBuffer(0, __uuidof(ID3D11Texture2D), reinterpret_cast<void**>(back.out()));
    REQUIRE(hr == S_OK);
    const auto back_id = rec.track(back.get());
    const auto texture_iid = fb_guid(__uuidof(ID3D11Texture2D));
    rec.call(swap_chain.get(), fb::CreateIDXGISwapChain_GetBuffer(rec.b, 0, &texture_iid, back_id),
             hr);
    Com<ID3D11RenderTargetView> view;
    hr = device->CreateRenderTargetView(back.get(), nullptr, view.out());
    REQUIRE(hr == S_OK);
    rec.track(view.get());
    ID3D11RenderTargetView* out = view.get();
    rec.call(device.get(),
             api::encode_ID3D11Device_CreateRenderTargetView(rec.b, rec, back.get(), nullptr, &out),
             hr);
    const FLOAT colour[4] = {0.25f, 0.5f, 1.0f, 1.0f};
    context->ClearRenderTargetView(view.get(), colour);
    rec.call(context.get(),
             api::encode_ID3D11DeviceContext_ClearRenderTargetView(rec.b, rec, view.get(), colour),
             std::nullopt, true);
    hr = swap_chain->Present(0, 0);
    rec.call(swap_chain.get(), fb::CreateIDXGISwapChain_Present(rec.b, 0, 0), hr);
    rec.close();

    auto replay = open_replay(rec.path());
    require_ok(replay->run_all());
    CHECK(replay->mismatches().empty());
    CHECK(replay->content_hash(back_id, 0) == hash_of(back.get()));
    Com<ID3D11Texture2D> blank;
    D3D11_TEXTURE2D_DESC blank_desc{};
    back->GetDesc(&blank_desc);
    REQUIRE(device->CreateTexture2D(&blank_desc, nullptr, blank.out()) == S_OK);
    CHECK(replay->content_hash(back_id, 0) != hash_of(blank.get()));
    Com<IDXGISwapChain> replayed;
    REQUIRE(replay->object(swap_chain_id)
                ->QueryInterface(__uuidof(IDXGISwapChain),
                                 reinterpret_cast<void**>(replayed.out())) == S_OK);
    UINT presents = 0;
    REQUIRE(replayed->GetLastPresentCount(&presents) == S_OK);
    CHECK(presents == 1);
}

TEST_CASE("every call is decoded by generated code or replayed by hand or refused",
          "[replay][engine]") {
    std::size_t generated = 0, by_hand = 0, refused = 0;
    for (const api::CallInfo& call : api::kCalls) {
        const bool g = std::count(api::kInvokedCalls.begin(), api::kInvokedCalls.end(), call.id);
        const bool h = std::any_of(api::kHandWrittenReplays.begin(), api::kHandWrittenReplays.end(),
                                   [&](const auto& c) { return c.call == call.id; });
        const bool r = std::any_of(api::kNotReplayed.begin(), api::kNotReplayed.end(),
                                   [&](const auto& c) { return c.call == call.id; });
        INFO(call.interface_name << "::" << call.method);
        CHECK(int{g} + int{h} + int{r} == 1);
        generated += g;
        by_hand += h;
        refused += r;
    }
    CHECK(generated + by_hand + refused == api::kCalls.size());
    CHECK(by_hand == 11);
    CHECK(refused == 10);
    CHECK(api::has_invoker(api::CallId::ID3D11DeviceContext1_UpdateSubresource1));
    CHECK(api::has_invoker(api::CallId::IUnknown_QueryInterface));
    CHECK_FALSE(api::has_invoker(api::CallId::ID3D11DeviceContext_Map));
}

TEST_CASE("wide strings come back from UTF-8 with bad bytes as U+FFFD", "[replay][engine]") {
    flatbuffers::FlatBufferBuilder b;
    b.Finish(fb::CreateID3D11DeviceContext2_SetMarkerIntDirect(
        b, "a\xC3\xB1\xE2\x82\xAC\xF0\x9F\x98\x80|\xFF|\xE2\x82", 0));
    const auto* text =
        flatbuffers::GetRoot<fb::ID3D11DeviceContext2_SetMarkerInt>(b.GetBufferPointer())
            ->p_label();
    api::Arena arena;
    const wchar_t* wide = api::wide_string_in(arena, text);
    CHECK(std::wstring(wide) == std::wstring(L"a\u00F1\u20AC\U0001F600|\uFFFD|\uFFFD\uFFFD"));
    CHECK(api::wide_string_in(arena, nullptr) == nullptr);
}

TEST_CASE("open refuses driver types it cannot replay on", "[replay][engine]") {
    replay::ReplayOptions options;
    options.driver = D3D_DRIVER_TYPE_SOFTWARE;
    const auto replayer = replay::Replayer::open("any.d3dcap", options);
    REQUIRE_FALSE(replayer.ok());
    CHECK(replayer.error().to_string() ==
          "any.d3dcap: replay runs on D3D_DRIVER_TYPE_HARDWARE, REFERENCE, WARP or NULL, not "
          "driver type 4");
    const auto missing = replay::Replayer::open("missing.d3dcap");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().to_string() == "missing.d3dcap: cannot open: No such file or directory");
}
