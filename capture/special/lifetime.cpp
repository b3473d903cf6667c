// QueryInterface and reference counts: the application sees the real
// object's counts; identity is the wrapper's.
#include <d3dcap/capture/wrappers.h>

namespace d3dcap::capture::hand {

HRESULT IUnknown_QueryInterface(FacetHeader& self, IUnknown* real, REFIID riid, void** ppvObject) {
    if (ppvObject == nullptr) return E_POINTER;
    *ppvObject = nullptr;
    if (void* facet = self.owner->facet_for(riid); facet != nullptr) {
        real->AddRef();
        *ppvObject = facet;
        return S_OK;
    }
    // The real object may have the interface, but the layer does not wrap
    // it: handing it out would let calls bypass the capture.
    void* other = nullptr;
    const HRESULT result = real->QueryInterface(riid, &other);
    if (SUCCEEDED(result) && other != nullptr) static_cast<IUnknown*>(other)->Release();
    return E_NOINTERFACE;
}

ULONG IUnknown_AddRef(FacetHeader& /*self*/, IUnknown* real) {
    return real->AddRef();
}

// The wrapper lives as long as the real object: the layer learns of its end
// from the lifetime sentinel, not from this count.
ULONG IUnknown_Release(FacetHeader& /*self*/, IUnknown* real) {
    return real->Release();
}

}  // namespace d3dcap::capture::hand
