// The DXGI 1.3-1.6 factory calls programs use to pick an adapter, and the
// D3D11.3/11.4 and video interfaces a D3D11.2 runtime does not have.
#include <d3d11_4.h>
#include <dxgi1_6.h>

#include "runtime/d3d11/object_support.h"

using namespace object_tests;

TEST_CASE("IDXGIFactory6 finds the one adapter by preference, LUID and as WARP", "[dxgi]") {
    Com<IDXGIFactory6> factory;
    REQUIRE(CreateDXGIFactory2(DXGI_CREATE_FACTORY_DEBUG, __uuidof(IDXGIFactory6),
                               factory.out_void()) == S_OK);
    CHECK(factory->GetCreationFlags() == DXGI_CREATE_FACTORY_DEBUG);
    Com<IDXGIFactory7> seven;
    CHECK(factory->QueryInterface(__uuidof(IDXGIFactory7), seven.out_void()) == E_NOINTERFACE);
    CHECK(!seven);

    Com<IDXGIAdapter1> first;
    REQUIRE(factory->EnumAdapterByGpuPreference(0, DXGI_GPU_PREFERENCE_HIGH_PERFORMANCE,
                                                __uuidof(IDXGIAdapter1), first.out_void()) == S_OK);
    DXGI_ADAPTER_DESC1 desc{};
    REQUIRE(first->GetDesc1(&desc) == S_OK);
    CHECK(std::wstring(desc.Description) == L"d3dcap reference device");
    CHECK(desc.Flags == DXGI_ADAPTER_FLAG_SOFTWARE);
    Com<IDXGIAdapter> second;
    CHECK(factory->EnumAdapterByGpuPreference(1, DXGI_GPU_PREFERENCE_UNSPECIFIED,
                                              __uuidof(IDXGIAdapter),
                                              second.out_void()) == DXGI_ERROR_NOT_FOUND);
    CHECK(factory->EnumAdapterByGpuPreference(0, static_cast<DXGI_GPU_PREFERENCE>(3),
                                              __uuidof(IDXGIAdapter),
                                              second.out_void()) == E_INVALIDARG);
    CHECK(!second);

    Com<IDXGIAdapter> by_luid;
    REQUIRE(factory->EnumAdapterByLuid(desc.AdapterLuid, __uuidof(IDXGIAdapter),
                                       by_luid.out_void()) == S_OK);
    LUID other = desc.AdapterLuid;
    ++other.LowPart;
    CHECK(factory->EnumAdapterByLuid(other, __uuidof(IDXGIAdapter), by_luid.out_void()) ==
          DXGI_ERROR_NOT_FOUND);
    CHECK(!by_luid);
    Com<IDXGIAdapter> warp;
    REQUIRE(factory->EnumWarpAdapter(__uuidof(IDXGIAdapter), warp.out_void()) == S_OK);
    // The WARP adapter makes a device (D3D_DRIVER_TYPE_UNKNOWN with an adapter).
    Com<ID3D11Device> device;
    REQUIRE(D3D11CreateDevice(warp.get(), D3D_DRIVER_TYPE_UNKNOWN, nullptr, 0, nullptr, 0,
                              D3D11_SDK_VERSION, device.out(), nullptr, nullptr) == S_OK);

    BOOL tearing = TRUE;
    REQUIRE(factory->CheckFeatureSupport(DXGI_FEATURE_PRESENT_ALLOW_TEARING, &tearing,
                                         sizeof tearing) == S_OK);
    CHECK(tearing == FALSE);
    CHECK(factory->CheckFeatureSupport(DXGI_FEATURE_PRESENT_ALLOW_TEARING, &tearing, 1) ==
          E_INVALIDARG);
    CHECK(factory->CheckFeatureSupport(static_cast<DXGI_FEATURE>(7), &tearing, sizeof tearing) ==
          E_INVALIDARG);
}

TEST_CASE("The D3D11.3, D3D11.4 and video interfaces answer E_NOINTERFACE", "[dxgi]") {
    TestDevice test;
    auto absent = [&](IUnknown* object, REFIID iid) {
        void* out = &test;  // must come back NULL
        const HRESULT hr = object->QueryInterface(iid, &out);
        return hr == E_NOINTERFACE && out == nullptr;
    };
    CHECK(absent(test.device.get(), __uuidof(ID3D11Device3)));
    CHECK(absent(test.device.get(), __uuidof(ID3D11Device5)));
    CHECK(absent(test.device.get(), __uuidof(ID3D11VideoDevice)));
    CHECK(absent(test.device.get(), __uuidof(ID3D11Multithread)));
    CHECK(absent(test.device.get(), __uuidof(IDXGIDevice3)));
    CHECK(absent(test.context.get(), __uuidof(ID3D11DeviceContext3)));
    CHECK(absent(test.context.get(), __uuidof(ID3D11VideoContext)));
    auto texture = test.texture2d(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
    CHECK(absent(texture.get(), __uuidof(ID3D11Texture2D1)));

    // D3D11_FEATURE values past 13 exist in the headers; a D3D11.2 runtime
    // does not know them.
    D3D11_FEATURE_DATA_D3D11_OPTIONS2 options2{};
    CHECK(test.device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS2, &options2,
                                           sizeof options2) == E_INVALIDARG);
    D3D11_FEATURE_DATA_D3D11_OPTIONS5 options5{};
    CHECK(test.device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS5, &options5,
                                           sizeof options5) == E_INVALIDARG);
    static_assert(D3D11_FEATURE_D3D11_OPTIONS5 == 19);
    static_assert(sizeof(D3D11_FEATURE_DATA_D3D11_OPTIONS2) == 32);
}

TEST_CASE("Windows code passes nullptr windows", "[dxgi]") {
    Com<IDXGIFactory2> factory;
    REQUIRE(CreateDXGIFactory1(__uuidof(IDXGIFactory2), factory.out_void()) == S_OK);
    CHECK(factory->MakeWindowAssociation(nullptr, 0) == S_OK);
    HWND window = test_window(9);
    REQUIRE(factory->GetWindowAssociation(&window) == S_OK);
    CHECK(window == nullptr);
    static_assert(sizeof(HWND) == sizeof(void*));
    static_assert(offsetof(DXGI_SWAP_CHAIN_DESC, Windowed) == 56);  // as on 64-bit Windows
}
