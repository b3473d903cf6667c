// The DXGI face of a resource: IDXGIResource1, and IDXGISurface2 for
// Texture2D.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "runtime/d3d11/device.h"

namespace d3dcap::runtime::dxgi {

HRESULT Surface::QueryInterface(REFIID riid, void** out) {
    return owner_.query_interface(riid, out);
}
ULONG Surface::AddRef() {
    return owner_.add_ref();
}
ULONG Surface::Release() {
    return owner_.release();
}

HRESULT Surface::SetPrivateData(REFGUID guid, UINT size, const void* data) {
    return owner_.private_data().set(guid, size, data);
}
HRESULT Surface::SetPrivateDataInterface(REFGUID guid, const IUnknown* object) {
    return owner_.private_data().set_interface(guid, object);
}
HRESULT Surface::GetPrivateData(REFGUID guid, UINT* size, void* data) {
    return owner_.private_data().get(guid, size, data);
}

HRESULT Surface::GetParent(REFIID riid, void** parent) {
    return owner_.device().QueryInterface(riid, parent);
}

HRESULT Surface::GetDevice(REFIID riid, void** device) {
    return owner_.device().QueryInterface(riid, device);
}

void* Surface::find(REFIID riid) {
    if (iid_is<IDXGIResource, IDXGIResource1, IDXGIDeviceSubObject, IDXGIObject>(riid)) {
        return static_cast<IDXGIResource1*>(this);
    }
    if (owner_.kind() == ObjectKind::Texture2D &&
        iid_is<IDXGISurface, IDXGISurface1, IDXGISurface2>(riid)) {
        return static_cast<IDXGISurface2*>(this);
    }
    return nullptr;
}

HRESULT Surface::GetSharedHandle(HANDLE* handle) {
    if (!handle) return E_INVALIDARG;
    *handle = nullptr;
    const char* call = "IDXGIResource::GetSharedHandle";
    if (!(owner_.info().misc_flags & D3D11_RESOURCE_MISC_SHARED)) {
        owner_.device().log().error(call, "",
                                    "the resource was not created with RESOURCE_MISC_SHARED");
        return DXGI_ERROR_INVALID_CALL;
    }
    owner_.device().log().error(call, "",
                                "sharing resources between devices is not supported on Linux");
    return E_NOTIMPL;
}

HRESULT Surface::GetUsage(DXGI_USAGE* usage) {
    if (!usage) return E_INVALIDARG;
    const backend::ResourceInfo& info = owner_.info();
    DXGI_USAGE value = 0;
    if (info.bind_flags & D3D11_BIND_SHADER_RESOURCE) value |= DXGI_USAGE_SHADER_INPUT;
    if (info.bind_flags & D3D11_BIND_RENDER_TARGET) value |= DXGI_USAGE_RENDER_TARGET_OUTPUT;
    if (info.bind_flags & D3D11_BIND_UNORDERED_ACCESS) value |= DXGI_USAGE_UNORDERED_ACCESS;
    if (info.misc_flags & D3D11_RESOURCE_MISC_SHARED) value |= DXGI_USAGE_SHARED;
    if (info.usage == D3D11_USAGE_DYNAMIC) value |= DXGI_CPU_ACCESS_DYNAMIC;
    if (info.usage == D3D11_USAGE_STAGING) value |= DXGI_CPU_ACCESS_READ_WRITE;
    *usage = value;
    return S_OK;
}

HRESULT Surface::SetEvictionPriority(UINT priority) {
    owner_.eviction_priority = priority;
    return S_OK;
}

HRESULT Surface::GetEvictionPriority(UINT* priority) {
    if (!priority) return E_INVALIDARG;
    *priority = owner_.eviction_priority;
    return S_OK;
}

HRESULT Surface::CreateSubresourceSurface(UINT, IDXGISurface2** surface) {
    if (surface) *surface = nullptr;
    owner_.device().log().error("IDXGIResource1::CreateSubresourceSurface", "", "not implemented");
    return E_NOTIMPL;
}

HRESULT Surface::CreateSharedHandle(const SECURITY_ATTRIBUTES*, DWORD, LPCWSTR, HANDLE* handle) {
    if (handle) *handle = nullptr;
    owner_.device().log().error("IDXGIResource1::CreateSharedHandle", "",
                                "sharing resources between devices is not supported on Linux");
    return E_NOTIMPL;
}

HRESULT Surface::GetDesc(DXGI_SURFACE_DESC* desc) {
    if (!desc) return E_INVALIDARG;
    const backend::ResourceInfo& info = owner_.info();
    desc->Width = info.width;
    desc->Height = info.height;
    desc->Format = info.format;
    desc->SampleDesc.Count = info.sample_count;
    desc->SampleDesc.Quality = 0;
    return S_OK;
}

HRESULT Surface::Map(DXGI_MAPPED_RECT* rect, UINT flags) {
    const char* call = "IDXGISurface::Map";
    if (!rect) return E_INVALIDARG;
    *rect = {};
    if (owner_.info().subresource_count() != 1) {
        owner_.device().log().error(call, "", "only surfaces of one subresource can be mapped");
        return DXGI_ERROR_INVALID_CALL;
    }
    D3D11_MAP type;
    switch (flags & (DXGI_MAP_READ | DXGI_MAP_WRITE | DXGI_MAP_DISCARD)) {
        case DXGI_MAP_READ:
            type = D3D11_MAP_READ;
            break;
        case DXGI_MAP_WRITE:
            type = D3D11_MAP_WRITE;
            break;
        case DXGI_MAP_READ | DXGI_MAP_WRITE:
            type = D3D11_MAP_READ_WRITE;
            break;
        case DXGI_MAP_WRITE | DXGI_MAP_DISCARD:
        case DXGI_MAP_DISCARD:
            type = D3D11_MAP_WRITE_DISCARD;
            break;
        default:
            owner_.device().log().error(call, "MapFlags", hex(flags) + " is no map type");
            return E_INVALIDARG;
    }
    D3D11_MAPPED_SUBRESOURCE mapped{};
    const HRESULT hr = owner_.device().immediate().Map(owner_.d3d(), 0, type, 0, &mapped);
    if (FAILED(hr)) return hr;
    rect->Pitch = static_cast<INT>(mapped.RowPitch);
    rect->pBits = static_cast<BYTE*>(mapped.pData);
    return S_OK;
}

HRESULT Surface::Unmap() {
    owner_.device().immediate().Unmap(owner_.d3d(), 0);
    return S_OK;
}

HRESULT Surface::GetDC(BOOL, HDC* hdc) {
    if (hdc) *hdc = 0;
    owner_.device().log().error("IDXGISurface1::GetDC", "", "there is no GDI on Linux");
    return DXGI_ERROR_INVALID_CALL;
}

HRESULT Surface::ReleaseDC(RECT*) {
    return DXGI_ERROR_INVALID_CALL;
}

HRESULT Surface::GetResource(REFIID riid, void** resource, UINT* subresource) {
    if (subresource) *subresource = 0;
    return owner_.query_interface(riid, resource);
}

}  // namespace d3dcap::runtime::dxgi
