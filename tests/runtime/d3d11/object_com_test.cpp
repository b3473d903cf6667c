// COM behaviour of the object model: interface identities, reference
// counts, private data and debug names, GetDevice, object lifetimes.

#include "object_support.h"

using namespace object_tests;

namespace {

IUnknown* identity(IUnknown* object) {
    IUnknown* unknown = nullptr;
    REQUIRE(object->QueryInterface(__uuidof(IUnknown), reinterpret_cast<void**>(&unknown)) == S_OK);
    unknown->Release();
    return unknown;
}

template <class I>
bool answers(IUnknown* object) {
    void* found = nullptr;
    const HRESULT hr = object->QueryInterface(__uuidof(I), &found);
    if (hr == S_OK) static_cast<IUnknown*>(found)->Release();
    return hr == S_OK && found;
}

}  // namespace

TEST_CASE("The device answers its D3D11 and DXGI interfaces with one identity", "[object][com]") {
    TestDevice test;
    IUnknown* unknown = identity(test.device.get());
    auto device = test.device.as<ID3D11Device>();
    auto device1 = test.device.as<ID3D11Device1>();
    auto dxgi = test.device.as<IDXGIDevice>();
    auto dxgi2 = test.device.as<IDXGIDevice2>();
    REQUIRE(device);
    REQUIRE(device1);
    REQUIRE(dxgi);
    REQUIRE(dxgi2);
    CHECK(identity(device.get()) == unknown);
    CHECK(identity(dxgi2.get()) == unknown);
    CHECK(static_cast<void*>(device.get()) == static_cast<void*>(test.device.get()));
    // Nothing else: no context, no resource, no debug interface.
    CHECK_FALSE(answers<ID3D11DeviceContext>(test.device.get()));
    CHECK_FALSE(answers<ID3D11Resource>(test.device.get()));
    void* none = reinterpret_cast<void*>(1);
    CHECK(test.device->QueryInterface(__uuidof(ID3D11Buffer), &none) == E_NOINTERFACE);
    CHECK(none == nullptr);
}

TEST_CASE("The immediate context answers ID3D11DeviceContext1/2 and ID3DUserDefinedAnnotation",
          "[object][com]") {
    TestDevice test;
    auto annotation = test.context.as<ID3DUserDefinedAnnotation>();
    REQUIRE(annotation);
    CHECK(answers<ID3D11DeviceContext>(test.context.get()));
    CHECK(answers<ID3D11DeviceContext1>(test.context.get()));
    CHECK(identity(annotation.get()) == identity(test.context.get()));
    CHECK(annotation->GetStatus() == FALSE);
    CHECK(annotation->BeginEvent(L"frame") == -1);
    annotation->SetMarker(L"marker");
    CHECK(annotation->EndEvent() == -1);
    CHECK(test.context->IsAnnotationEnabled() == FALSE);
    test.context->BeginEventInt(L"pass", 7);
    test.context->SetMarkerInt(L"draw", 8);
    test.context->EndEvent();
    CHECK(test.context->GetType() == D3D11_DEVICE_CONTEXT_IMMEDIATE);
}

TEST_CASE("The immediate context shares the device's reference count", "[object][com]") {
    TestDevice test;
    // One reference each from the test's device and context pointers.
    CHECK(count_of(test.device.get()) == 2);
    Com<ID3D11DeviceContext> again;
    test.device->GetImmediateContext(again.out());
    CHECK(again.get() == static_cast<ID3D11DeviceContext*>(test.context.get()));
    CHECK(count_of(test.device.get()) == 3);
    again.reset();
    CHECK(count_of(test.device.get()) == 2);
}

TEST_CASE("Releasing the last reference destroys children - children keep the device alive",
          "[object][com]") {
    TestDevice test;
    auto buffer = test.buffer(64, D3D11_BIND_VERTEX_BUFFER);
    CHECK(count_of(buffer.get()) == 1);
    // The buffer holds the device internally: the public count is the app's.
    CHECK(count_of(test.device.get()) == 2);
    Com<ID3D11Device> owner;
    buffer->GetDevice(owner.out());
    CHECK(owner.get() == static_cast<ID3D11Device*>(test.device.get()));
    CHECK(count_of(test.device.get()) == 3);
    owner.reset();

    // The app lets go of the device first; the buffer still works and can
    // hand the device out again.
    test.context.reset();
    ID3D11Device2* device = test.device.release();
    CHECK(device->Release() == 0);
    D3D11_BUFFER_DESC desc{};
    buffer->GetDesc(&desc);
    CHECK(desc.ByteWidth == 64);
    buffer->GetDevice(owner.out());
    REQUIRE(owner);
    CHECK(count_of(owner.get()) == 1);
    owner.reset();
    CHECK(buffer.release()->Release() == 0);
}

TEST_CASE("A bound object outlives its last Release until it is unbound", "[object][com]") {
    TestDevice test;
    auto buffer = test.buffer(64, D3D11_BIND_CONSTANT_BUFFER);
    ID3D11Buffer* raw = buffer.get();
    test.context->VSSetConstantBuffers(0, 1, &raw);
    CHECK(buffer.release()->Release() == 0);
    Com<ID3D11Buffer> bound;
    test.context->VSGetConstantBuffers(0, 1, bound.out());
    CHECK(bound.get() == raw);
    D3D11_BUFFER_DESC desc{};
    bound->GetDesc(&desc);
    CHECK(desc.ByteWidth == 64);
    CHECK(count_of(bound.get()) == 1);
}

TEST_CASE("Private data: sizes / MORE_DATA / NOT_FOUND / removal and interfaces", "[object][com]") {
    TestDevice test;
    auto buffer = test.buffer(16, D3D11_BIND_VERTEX_BUFFER);
    const GUID key = {0x12345678, 0x1234, 0x1234, {1, 2, 3, 4, 5, 6, 7, 8}};
    const std::uint32_t value[3] = {10, 20, 30};
    REQUIRE(buffer->SetPrivateData(key, sizeof value, value) == S_OK);

    UINT size = 0;
    CHECK(buffer->GetPrivateData(key, &size, nullptr) == S_OK);
    CHECK(size == 12);
    std::uint32_t small[2] = {};
    size = sizeof small;
    CHECK(buffer->GetPrivateData(key, &size, small) == DXGI_ERROR_MORE_DATA);
    CHECK(size == 12);
    std::uint32_t read[3] = {};
    size = sizeof read;
    CHECK(buffer->GetPrivateData(key, &size, read) == S_OK);
    CHECK(read[2] == 30);
    CHECK(buffer->GetPrivateData(key, nullptr, read) == E_INVALIDARG);
    CHECK(buffer->SetPrivateData(key, 4, nullptr) == E_INVALIDARG);

    // Removing: NULL data with size 0.
    REQUIRE(buffer->SetPrivateData(key, 0, nullptr) == S_OK);
    size = 12;
    CHECK(buffer->GetPrivateData(key, &size, read) == DXGI_ERROR_NOT_FOUND);
    CHECK(size == 0);

    // Interfaces are AddRef'd while stored and for every Get.
    auto other = test.buffer(16, D3D11_BIND_VERTEX_BUFFER);
    REQUIRE(buffer->SetPrivateDataInterface(key, other.get()) == S_OK);
    CHECK(count_of(other.get()) == 2);
    IUnknown* stored = nullptr;
    size = sizeof stored;
    REQUIRE(buffer->GetPrivateData(key, &size, &stored) == S_OK);
    CHECK(stored == identity(other.get()));
    CHECK(count_of(other.get()) == 3);
    stored->Release();
    REQUIRE(buffer->SetPrivateData(key, sizeof value, value) == S_OK);  // replaces: releases
    CHECK(count_of(other.get()) == 1);
    REQUIRE(buffer->SetPrivateDataInterface(key, other.get()) == S_OK);
    buffer.reset();  // destroying the holder releases it too
    CHECK(count_of(other.get()) == 1);
}

TEST_CASE("Debug names are private data under WKPDID_D3DDebugObjectName / shared with DXGI",
          "[object][com]") {
    TestDevice test;
    auto texture = test.texture2d(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE);
    const char name[] = "albedo";
    REQUIRE(texture->SetPrivateData(WKPDID_D3DDebugObjectName, sizeof name - 1, name) == S_OK);
    auto resource = texture.as<IDXGIResource>();
    REQUIRE(resource);
    char read[16] = {};
    UINT size = sizeof read;
    REQUIRE(resource->GetPrivateData(WKPDID_D3DDebugObjectName, &size, read) == S_OK);
    CHECK(size == 6);
    CHECK(std::string(read) == "albedo");
    // The device keeps its own.
    REQUIRE(test.device->SetPrivateData(WKPDID_D3DDebugObjectName, 3, "dev") == S_OK);
    size = sizeof read;
    auto dxgi = test.device.as<IDXGIDevice>();
    REQUIRE(dxgi->GetPrivateData(WKPDID_D3DDebugObjectName, &size, read) == S_OK);
    CHECK(size == 3);
}

TEST_CASE("Resources answer IDXGIResource1 - only Texture2D answers IDXGISurface2",
          "[object][com]") {
    TestDevice test;
    auto texture = test.texture2d(8, 8, DXGI_FORMAT_B8G8R8A8_UNORM, D3D11_BIND_RENDER_TARGET);
    auto buffer = test.buffer(16, D3D11_BIND_VERTEX_BUFFER);
    auto surface = texture.as<IDXGISurface2>();
    REQUIRE(surface);
    CHECK(answers<IDXGIResource1>(texture.get()));
    CHECK(answers<IDXGIResource>(buffer.get()));
    CHECK_FALSE(answers<IDXGISurface>(buffer.get()));
    CHECK(identity(surface.get()) == identity(texture.get()));
    CHECK(count_of(texture.get()) == 2);

    DXGI_SURFACE_DESC desc{};
    REQUIRE(surface->GetDesc(&desc) == S_OK);
    CHECK(desc.Width == 8);
    CHECK(desc.Format == DXGI_FORMAT_B8G8R8A8_UNORM);
    Com<ID3D11Texture2D> back;
    UINT subresource = 9;
    REQUIRE(surface->GetResource(__uuidof(ID3D11Texture2D), back.out_void(), &subresource) == S_OK);
    CHECK(back.get() == texture.get());
    CHECK(subresource == 0);

    auto dxgi = texture.as<IDXGIResource>();
    DXGI_USAGE usage = 0;
    REQUIRE(dxgi->GetUsage(&usage) == S_OK);
    CHECK(usage == DXGI_USAGE_RENDER_TARGET_OUTPUT);
    REQUIRE(dxgi->SetEvictionPriority(DXGI_RESOURCE_PRIORITY_HIGH) == S_OK);
    CHECK(texture->GetEvictionPriority() == DXGI_RESOURCE_PRIORITY_HIGH);
    texture->SetEvictionPriority(DXGI_RESOURCE_PRIORITY_MINIMUM);
    UINT priority = 0;
    REQUIRE(dxgi->GetEvictionPriority(&priority) == S_OK);
    CHECK(priority == DXGI_RESOURCE_PRIORITY_MINIMUM);
    Com<IDXGIDevice> parent;
    REQUIRE(dxgi->GetDevice(__uuidof(IDXGIDevice), parent.out_void()) == S_OK);
    CHECK(identity(parent.get()) == identity(test.device.get()));
    D3D11_RESOURCE_DIMENSION dimension{};
    texture->GetType(&dimension);
    CHECK(dimension == D3D11_RESOURCE_DIMENSION_TEXTURE2D);
}

TEST_CASE("Objects get distinct non-zero ids", "[object][com]") {
    TestDevice test;
    auto a = test.buffer(16, D3D11_BIND_VERTEX_BUFFER);
    auto b = test.buffer(16, D3D11_BIND_VERTEX_BUFFER);
    const auto id_a = d3dcap::runtime::object_id(a.get());
    const auto id_b = d3dcap::runtime::object_id(b.get());
    CHECK(id_a != 0);
    CHECK(id_b != 0);
    CHECK(id_a != id_b);
    CHECK(d3dcap::runtime::object_id(a.as<IDXGIResource>().get()) == id_a);
}
