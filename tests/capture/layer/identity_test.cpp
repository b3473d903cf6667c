// COM identity and lifetime through the layer: one pointer per interface of
// an object, the same pointers handed back by getters, the reference counts
// of the objects below, and destruction recorded when the object really goes.
#include <array>
#include <vector>

#include "capture/layer/layer_test.h"

namespace capture_tests {
namespace {

template <class I>
I* query(IUnknown* object) {
    I* out = nullptr;
    REQUIRE(object->QueryInterface(__uuidof(I), reinterpret_cast<void**>(&out)) == S_OK);
    REQUIRE(out != nullptr);
    out->Release();  // the test's own references keep the objects alive
    return out;
}

IUnknown* identity(IUnknown* object) {
    return query<IUnknown>(object);
}

Com<ID3D11Texture2D> make_texture(ID3D11Device* device) {
    const D3D11_TEXTURE2D_DESC desc =
        texture2d_desc(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT,
                       D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET, 0);
    Com<ID3D11Texture2D> texture;
    REQUIRE(device->CreateTexture2D(&desc, nullptr, texture.out()) == S_OK);
    return texture;
}

Com<ID3D11Buffer> make_buffer(ID3D11Device* device) {
    const D3D11_BUFFER_DESC desc =
        buffer_desc(64, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0);
    Com<ID3D11Buffer> buffer;
    REQUIRE(device->CreateBuffer(&desc, nullptr, buffer.out()) == S_OK);
    return buffer;
}

TEST_CASE("QueryInterface gives one pointer per interface and one IUnknown per object") {
    Capture capture;
    ID3D11Device2* device = capture.device.get();
    CHECK(query<ID3D11Device>(device) == query<ID3D11Device>(device));
    CHECK(query<ID3D11Device>(device) == static_cast<ID3D11Device*>(device));
    IDXGIDevice* dxgi = query<IDXGIDevice>(device);
    CHECK(query<IDXGIDevice>(device) == dxgi);
    CHECK(identity(device) == identity(dxgi));
    CHECK(query<ID3D11Device2>(dxgi) == device);

    ID3D11DeviceContext2* context = capture.context.get();
    auto* annotation = query<ID3DUserDefinedAnnotation>(context);
    CHECK(query<ID3DUserDefinedAnnotation>(context) == annotation);
    CHECK(identity(context) == identity(annotation));
    CHECK(query<ID3D11DeviceContext1>(annotation) == context);

    auto texture = make_texture(device);
    auto* surface = query<IDXGISurface2>(texture.get());
    auto* resource = query<IDXGIResource1>(texture.get());
    CHECK(query<IDXGISurface>(texture.get()) == query<IDXGISurface>(surface));
    CHECK(identity(texture.get()) == identity(surface));
    CHECK(identity(resource) == identity(surface));
    CHECK(query<ID3D11Texture2D>(resource) == texture.get());
    CHECK(identity(texture.get()) != identity(device));

    auto buffer = make_buffer(device);
    CHECK(identity(buffer.get()) == identity(query<IDXGIResource>(buffer.get())));
    CHECK(identity(buffer.get()) != identity(texture.get()));
    void* none = &none;
    CHECK(buffer->QueryInterface(__uuidof(ID3D11Buffer), nullptr) == E_POINTER);
    CHECK(buffer->QueryInterface(__uuidof(IDXGISurface), &none) == E_NOINTERFACE);
    CHECK(none == nullptr);
}

TEST_CASE(
    "GetImmediateContext, GetDevice and a view's GetResource return the pointers the "
    "application was given") {
    Capture capture;
    Com<ID3D11Device> device;
    Com<ID3D11DeviceContext> context;
    const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1;
    REQUIRE(capture.session.create_device(nullptr, D3D_DRIVER_TYPE_REFERENCE, nullptr, 0, &level, 1,
                                          D3D11_SDK_VERSION, device.out(), nullptr,
                                          context.out()) == S_OK);
    Com<ID3D11DeviceContext> immediate;
    device->GetImmediateContext(immediate.out());
    CHECK(immediate.get() == context.get());
    auto device2 = device.as<ID3D11Device2>();
    Com<ID3D11DeviceContext2> immediate2;
    device2->GetImmediateContext2(immediate2.out());
    CHECK(static_cast<ID3D11DeviceContext*>(immediate2.get()) == context.get());
    Com<ID3D11Device> parent;
    context->GetDevice(parent.out());
    CHECK(parent.get() == device.get());

    auto texture = make_texture(device.get());
    texture->GetDevice(parent.out());
    CHECK(parent.get() == device.get());
    Com<ID3D11ShaderResourceView> srv;
    REQUIRE(device->CreateShaderResourceView(texture.get(), nullptr, srv.out()) == S_OK);
    Com<ID3D11Resource> resource;
    srv->GetResource(resource.out());
    CHECK(resource.get() == static_cast<ID3D11Resource*>(texture.get()));
    Com<ID3D11RenderTargetView> rtv;
    REQUIRE(device->CreateRenderTargetView(texture.get(), nullptr, rtv.out()) == S_OK);
    rtv->GetResource(resource.out());
    CHECK(resource.get() == static_cast<ID3D11Resource*>(texture.get()));

    // Getters of bound state hand back the application's pointers too.
    auto buffer = make_buffer(device.get());
    ID3D11Buffer* const bound[1] = {buffer.get()};
    context->PSSetConstantBuffers(3, 1, bound);
    Com<ID3D11Buffer> got;
    context->PSGetConstantBuffers(3, 1, got.out());
    CHECK(got.get() == buffer.get());
    TraceRecords records = capture.stop();

    // The trace names the same objects by the same ids.
    const auto created = records.params<fb::ID3D11Device_CreateShaderResourceView>();
    REQUIRE(created.size() == 1);
    const auto textures = records.params<fb::ID3D11Device_CreateTexture2D>();
    REQUIRE(textures.size() == 1);
    CHECK(created[0]->p_resource() == textures[0]->pp_texture2_d());
    const auto get_resource = records.params<fb::ID3D11View_GetResource>();
    REQUIRE(get_resource.size() == 2);
    CHECK(get_resource[0]->pp_resource() == textures[0]->pp_texture2_d());
    CHECK(get_resource[1]->pp_resource() == textures[0]->pp_texture2_d());
}

TEST_CASE(
    "A swap chain's GetBuffer and GetDevice return one pointer per interface of the back "
    "buffer and the device the application was given") {
    Capture capture;
    DXGI_SWAP_CHAIN_DESC desc{};
    desc.BufferDesc = {32,
                       16,
                       {60, 1},
                       DXGI_FORMAT_R8G8B8A8_UNORM,
                       DXGI_MODE_SCANLINE_ORDER_UNSPECIFIED,
                       DXGI_MODE_SCALING_UNSPECIFIED};
    desc.SampleDesc = {1, 0};
    desc.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
    desc.BufferCount = 1;
    desc.Windowed = TRUE;
    desc.SwapEffect = DXGI_SWAP_EFFECT_DISCARD;
    Com<IDXGISwapChain> chain;
    Com<ID3D11Device> device;
    const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1;
    REQUIRE(capture.session.create_device_and_swap_chain(
                nullptr, D3D_DRIVER_TYPE_REFERENCE, nullptr, 0, &level, 1, D3D11_SDK_VERSION, &desc,
                chain.out(), device.out(), nullptr, nullptr) == S_OK);
    Com<ID3D11Texture2D> first, second;
    REQUIRE(chain->GetBuffer(0, __uuidof(ID3D11Texture2D), first.out_void()) == S_OK);
    REQUIRE(chain->GetBuffer(0, __uuidof(ID3D11Texture2D), second.out_void()) == S_OK);
    CHECK(first.get() == second.get());
    Com<IDXGISurface> surface;
    REQUIRE(chain->GetBuffer(0, __uuidof(IDXGISurface), surface.out_void()) == S_OK);
    CHECK(surface.get() == query<IDXGISurface>(first.get()));
    Com<ID3D11Device> parent;
    REQUIRE(chain->GetDevice(__uuidof(ID3D11Device), parent.out_void()) == S_OK);
    CHECK(parent.get() == device.get());
    CHECK(identity(chain.get()) == identity(query<IDXGISwapChain1>(chain.get())));
    TraceRecords records = capture.stop();

    const auto gets = records.params<fb::IDXGISwapChain_GetBuffer>();
    REQUIRE(gets.size() == 3);
    CHECK(gets[0]->pp_surface() != 0);
    CHECK(gets[1]->pp_surface() == gets[0]->pp_surface());
    CHECK(gets[2]->pp_surface() == gets[0]->pp_surface());
}

// The same AddRef/Release/QueryInterface/getter sequence on any device; the
// counts each call returned.
std::vector<ULONG> count_sequence(ID3D11Device2* device, ID3D11DeviceContext2* context) {
    std::vector<ULONG> counts;
    ID3D11Buffer* buffer = make_buffer(device).release();
    counts.push_back(buffer->AddRef());
    counts.push_back(buffer->AddRef());
    counts.push_back(buffer->Release());
    counts.push_back(buffer->Release());
    IDXGIResource* dxgi = nullptr;
    REQUIRE(buffer->QueryInterface(__uuidof(IDXGIResource), reinterpret_cast<void**>(&dxgi)) ==
            S_OK);
    counts.push_back(dxgi->AddRef());
    counts.push_back(dxgi->Release());
    counts.push_back(dxgi->Release());

    ID3D11Texture2D* texture = nullptr;
    const D3D11_TEXTURE2D_DESC desc = texture2d_desc(
        16, 16, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0);
    REQUIRE(device->CreateTexture2D(&desc, nullptr, &texture) == S_OK);
    ID3D11ShaderResourceView* srv = nullptr;
    REQUIRE(device->CreateShaderResourceView(texture, nullptr, &srv) == S_OK);
    counts.push_back(texture->AddRef());
    counts.push_back(texture->Release());
    ID3D11Resource* resource = nullptr;
    srv->GetResource(&resource);
    counts.push_back(resource->Release());

    counts.push_back(device->AddRef());
    counts.push_back(device->Release());
    counts.push_back(context->AddRef());
    counts.push_back(context->Release());
    ID3D11DeviceContext* immediate = nullptr;
    device->GetImmediateContext(&immediate);
    counts.push_back(immediate->Release());
    ID3D11Device* parent = nullptr;
    buffer->GetDevice(&parent);
    counts.push_back(parent->Release());

    // Bound: the last Release returns 0 while the context keeps the buffer.
    ID3D11Buffer* const bound[1] = {buffer};
    context->VSSetConstantBuffers(0, 1, bound);
    counts.push_back(buffer->AddRef());
    counts.push_back(buffer->Release());
    counts.push_back(buffer->Release());
    context->VSSetConstantBuffers(0, 1, std::array<ID3D11Buffer*, 1>{}.data());
    counts.push_back(srv->Release());
    counts.push_back(texture->Release());
    return counts;
}

TEST_CASE("AddRef and Release return the counts of the object below the layer") {
    DirectDevice direct;
    const std::vector<ULONG> expected = count_sequence(direct.device.get(), direct.context.get());
    // The runtime's own counts, as the application sees them.
    CHECK(expected[0] == 2);
    CHECK(expected[3] == 1);
    CHECK(expected[4] == 3);
    CHECK(expected[6] == 1);

    Capture capture;
    CHECK(count_sequence(capture.device.get(), capture.context.get()) == expected);
}

TEST_CASE("The last Release of an unbound buffer records ObjectDestroyed with its id") {
    Capture capture;
    ID3D11Buffer* buffer = make_buffer(capture.device.get()).release();
    auto kept = make_buffer(capture.device.get());
    capture.context->SetMarkerInt(L"before release", 1);
    CHECK(buffer->Release() == 0);
    capture.context->SetMarkerInt(L"after release", 2);
    TraceRecords records = capture.stop();

    const auto creates = records.calls(CallId::ID3D11Device_CreateBuffer);
    REQUIRE(creates.size() == 2);
    const std::uint64_t released_id =
        api::CallOf<fb::ID3D11Device_CreateBuffer>::get(*creates[0])->pp_buffer();
    const std::uint64_t kept_id =
        api::CallOf<fb::ID3D11Device_CreateBuffer>::get(*creates[1])->pp_buffer();
    CHECK(released_id != 0);
    CHECK(kept_id != released_id);
    CHECK(created_ids(records, "ID3D11Buffer") == std::vector<std::uint64_t>{released_id, kept_id});

    const auto destroyed = records.meta(fb::Meta::ObjectDestroyed);
    REQUIRE(destroyed.size() == 1);
    CHECK(destroyed[0]->meta_as_ObjectDestroyed()->id() == released_id);
    // Between the two markers: when the Release happened.
    const auto markers = records.calls(CallId::ID3D11DeviceContext2_SetMarkerInt);
    REQUIRE(markers.size() == 2);
    CHECK(markers[0]->header()->event() < destroyed[0]->header()->event());
    CHECK(destroyed[0]->header()->event() < markers[1]->header()->event());
}

TEST_CASE(
    "A shader resource view released while bound is still returned, as the same pointer, "
    "by PSGetShaderResources and is destroyed when unbound") {
    Capture capture;
    auto texture = make_texture(capture.device.get());
    ID3D11ShaderResourceView* srv = nullptr;
    REQUIRE(capture.device->CreateShaderResourceView(texture.get(), nullptr, &srv) == S_OK);
    capture.context->PSSetShaderResources(2, 1, &srv);
    CHECK(srv->Release() == 0);

    ID3D11ShaderResourceView* got = nullptr;
    capture.context->PSGetShaderResources(2, 1, &got);
    CHECK(got == srv);
    REQUIRE(got != nullptr);
    CHECK(got->Release() == 0);
    capture.context->SetMarkerInt(L"still bound", 0);
    ID3D11ShaderResourceView* const none[1] = {nullptr};
    capture.context->PSSetShaderResources(2, 1, none);
    capture.context->SetMarkerInt(L"unbound", 0);
    TraceRecords records = capture.stop();

    const auto created = records.params<fb::ID3D11Device_CreateShaderResourceView>();
    REQUIRE(created.size() == 1);
    const std::uint64_t srv_id = created[0]->pp_sr_view();
    const auto gets = records.params<fb::ID3D11DeviceContext_PSGetShaderResources>();
    REQUIRE(gets.size() == 1);
    REQUIRE(gets[0]->pp_shader_resource_views() != nullptr);
    REQUIRE(gets[0]->pp_shader_resource_views()->size() == 1);
    CHECK(gets[0]->pp_shader_resource_views()->Get(0) == srv_id);

    const auto destroyed = records.meta(fb::Meta::ObjectDestroyed);
    REQUIRE(destroyed.size() == 1);
    CHECK(destroyed[0]->meta_as_ObjectDestroyed()->id() == srv_id);
    const auto markers = records.calls(CallId::ID3D11DeviceContext2_SetMarkerInt);
    REQUIRE(markers.size() == 2);
    CHECK(destroyed[0]->header()->event() > markers[0]->header()->event());
    CHECK(destroyed[0]->header()->event() < markers[1]->header()->event());
}

TEST_CASE("QueryInterface for an interface the layer does not wrap returns E_NOINTERFACE") {
    // The runtime answers its private object interface; the layer must not
    // hand that object out, or calls would bypass the capture.
    constexpr GUID kRuntimeObject = {
        0xd3dca9f0, 0x5e11, 0x4c0b, {0x9a, 0x1e, 0x0b, 0x1e, 0xc7, 0x00, 0x00, 0x01}};
    DirectDevice direct;
    void* object = nullptr;
    REQUIRE(direct.device->QueryInterface(kRuntimeObject, &object) == S_OK);
    REQUIRE(object != nullptr);

    Capture capture;
    object = &object;
    CHECK(capture.device->QueryInterface(kRuntimeObject, &object) == E_NOINTERFACE);
    CHECK(object == nullptr);
    auto buffer = make_buffer(capture.device.get());
    object = &object;
    CHECK(buffer->QueryInterface(kRuntimeObject, &object) == E_NOINTERFACE);
    CHECK(object == nullptr);
    // Nor interfaces of other kinds of object.
    CHECK(buffer->QueryInterface(__uuidof(ID3D11Texture2D), &object) == E_NOINTERFACE);
    CHECK(capture.context->QueryInterface(__uuidof(ID3D11Device), &object) == E_NOINTERFACE);
    CHECK(object == nullptr);
    // The counts are unchanged by the refusals.
    CHECK(buffer->AddRef() == 2);
    CHECK(buffer->Release() == 1);
}

}  // namespace
}  // namespace capture_tests
