// QueryInterface and reference counts: the application sees the real
// object's counts; identity is the wrapper's.
#include <d3dcap/capture/wrappers.h>

namespace d3dcap::capture::hand_written {

HRESULT IUnknown_QueryInterface(FacetHeader& self, IUnknown* real, REFIID riid, void** ppvObject) {
    if (ppvObject == nullptr) return E_POINTER;
    *ppvObject = nullptr;
    if (void* facet = self.owner->facet_for(riid); facet != nullptr) {
        real->AddRef();
        *ppvObject = facet;
        return S_OK;
    }
    // Whatever the real object has beyond the wrapped interfaces stays
    // hidden: handing it out would let calls bypass the capture. (It is not
    // even asked: some providers answer private IIDs without a reference.)
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

}  // namespace d3dcap::capture::hand_written
