// The DXGI face of a resource: IDXGIResource1, and IDXGISurface2 for Texture2D.
#pragma once

#include <d3d11_2.h>
#include <dxgi1_2.h>

namespace d3dcap::runtime::d3d11 {
class Resource;
}  // namespace d3dcap::runtime::d3d11

namespace d3dcap::runtime::dxgi {

// The DXGI face of a resource (IDXGIResource1, and IDXGISurface2 for
// Texture2D). A separate C++ object because IDXGIResource and
// ID3D11Resource declare SetEvictionPriority with different return types.
class Surface final : public IDXGISurface2, public IDXGIResource1 {
  public:
    explicit Surface(d3d11::Resource& owner) : owner_(owner) {}

    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override;
    ULONG STDMETHODCALLTYPE AddRef() override;
    ULONG STDMETHODCALLTYPE Release() override;
    HRESULT STDMETHODCALLTYPE SetPrivateData(REFGUID guid, UINT size, const void* data) override;
    HRESULT STDMETHODCALLTYPE SetPrivateDataInterface(REFGUID guid,
                                                      const IUnknown* object) override;
    HRESULT STDMETHODCALLTYPE GetPrivateData(REFGUID guid, UINT* size, void* data) override;
    HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void** parent) override;
    HRESULT STDMETHODCALLTYPE GetDevice(REFIID riid, void** device) override;
    // IDXGIResource / IDXGIResource1
    HRESULT STDMETHODCALLTYPE GetSharedHandle(HANDLE* handle) override;
    HRESULT STDMETHODCALLTYPE GetUsage(DXGI_USAGE* usage) override;
    HRESULT STDMETHODCALLTYPE SetEvictionPriority(UINT priority) override;
    HRESULT STDMETHODCALLTYPE GetEvictionPriority(UINT* priority) override;
    HRESULT STDMETHODCALLTYPE CreateSubresourceSurface(UINT index,
                                                       IDXGISurface2** surface) override;
    HRESULT STDMETHODCALLTYPE CreateSharedHandle(const SECURITY_ATTRIBUTES* attributes,
                                                 DWORD access, LPCWSTR name,
                                                 HANDLE* handle) override;
    // IDXGISurface / IDXGISurface1 / IDXGISurface2 (Texture2D only)
    HRESULT STDMETHODCALLTYPE GetDesc(DXGI_SURFACE_DESC* desc) override;
    HRESULT STDMETHODCALLTYPE Map(DXGI_MAPPED_RECT* rect, UINT flags) override;
    HRESULT STDMETHODCALLTYPE Unmap() override;
    HRESULT STDMETHODCALLTYPE GetDC(BOOL discard, HDC* hdc) override;
    HRESULT STDMETHODCALLTYPE ReleaseDC(RECT* dirty) override;
    HRESULT STDMETHODCALLTYPE GetResource(REFIID riid, void** resource, UINT* subresource) override;

    // The interface for riid, or nullptr (used by the owner's lookup).
    void* find(REFIID riid);

  private:
    d3d11::Resource& owner_;
};

}  // namespace d3dcap::runtime::dxgi
