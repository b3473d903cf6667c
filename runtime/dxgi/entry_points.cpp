// The exported DXGI entry points: CreateDXGIFactory, CreateDXGIFactory1,
// CreateDXGIFactory2.
#include "runtime/dxgi/factory.h"

#define D3DCAP_ENTRY_POINT extern "C" __attribute__((visibility("default")))

namespace d3dcap::runtime::dxgi {
namespace {

HRESULT create_factory(REFIID riid, void** factory, UINT flags = 0) {
    if (!factory) return E_INVALIDARG;
    *factory = nullptr;
    auto* created = new d3dcap::runtime::dxgi::Factory(flags);
    const HRESULT hr = created->QueryInterface(riid, factory);
    created->Release();
    return hr;
}

}  // namespace
}  // namespace d3dcap::runtime::dxgi

D3DCAP_ENTRY_POINT HRESULT WINAPI CreateDXGIFactory(REFIID riid, void** factory) {
    return d3dcap::runtime::dxgi::create_factory(riid, factory);
}

D3DCAP_ENTRY_POINT HRESULT WINAPI CreateDXGIFactory1(REFIID riid, void** factory) {
    return d3dcap::runtime::dxgi::create_factory(riid, factory);
}

D3DCAP_ENTRY_POINT HRESULT WINAPI CreateDXGIFactory2(UINT flags, REFIID riid, void** factory) {
    if (flags & ~UINT{0x1}) {  // DXGI_CREATE_FACTORY_DEBUG
        if (factory) *factory = nullptr;
        return E_INVALIDARG;
    }
    return d3dcap::runtime::dxgi::create_factory(riid, factory, flags);
}
