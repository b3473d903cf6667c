// The DXGI faces of resources (IDXGIResource1, IDXGISurface2) and the
// IDXGIDevice2 calls that act on resources: OfferResources,
// ReclaimResources, EnqueueSetEvent.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "runtime/device.h"

namespace d3dcap::runtime {

HRESULT DxgiResource::QueryInterface(REFIID riid, void** out) {
    return owner_.query_interface(riid, out);
}
ULONG DxgiResource::AddRef() {
    return owner_.add_ref();
}
ULONG DxgiResource::Release() {
    return owner_.release();
}

HRESULT DxgiResource::SetPrivateData(REFGUID guid, UINT size, const void* data) {
    return owner_.private_data().set(guid, size, data);
}
HRESULT DxgiResource::SetPrivateDataInterface(REFGUID guid, const IUnknown* object) {
    return owner_.private_data().set_interface(guid, object);
}
HRESULT DxgiResource::GetPrivateData(REFGUID guid, UINT* size, void* data) {
    return owner_.private_data().get(guid, size, data);
}

HRESULT DxgiResource::GetParent(REFIID riid, void** parent) {
    return owner_.device().QueryInterface(riid, parent);
}

HRESULT DxgiResource::GetDevice(REFIID riid, void** device) {
    return owner_.device().QueryInterface(riid, device);
}

void* DxgiResource::find(REFIID riid) {
    if (iid_is<IDXGIResource, IDXGIResource1, IDXGIDeviceSubObject, IDXGIObject>(riid)) {
        return static_cast<IDXGIResource1*>(this);
    }
    if (owner_.kind() == ObjectKind::Texture2D &&
        iid_is<IDXGISurface, IDXGISurface1, IDXGISurface2>(riid)) {
        return static_cast<IDXGISurface2*>(this);
    }
    return nullptr;
}

HRESULT DxgiResource::GetSharedHandle(HANDLE* handle) {
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

HRESULT DxgiResource::GetUsage(DXGI_USAGE* usage) {
    if (!usage) return E_INVALIDARG;
    const ResourceInfo& info = owner_.info();
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

HRESULT DxgiResource::SetEvictionPriority(UINT priority) {
    owner_.eviction_priority = priority;
    return S_OK;
}

HRESULT DxgiResource::GetEvictionPriority(UINT* priority) {
    if (!priority) return E_INVALIDARG;
    *priority = owner_.eviction_priority;
    return S_OK;
}

HRESULT DxgiResource::CreateSubresourceSurface(UINT, IDXGISurface2** surface) {
    if (surface) *surface = nullptr;
    owner_.device().log().error("IDXGIResource1::CreateSubresourceSurface", "", "not implemented");
    return E_NOTIMPL;
}

HRESULT DxgiResource::CreateSharedHandle(const SECURITY_ATTRIBUTES*, DWORD, LPCWSTR,
                                         HANDLE* handle) {
    if (handle) *handle = nullptr;
    owner_.device().log().error("IDXGIResource1::CreateSharedHandle", "",
                                "sharing resources between devices is not supported on Linux");
    return E_NOTIMPL;
}

HRESULT DxgiResource::GetDesc(DXGI_SURFACE_DESC* desc) {
    if (!desc) return E_INVALIDARG;
    const ResourceInfo& info = owner_.info();
    desc->Width = info.width;
    desc->Height = info.height;
    desc->Format = info.format;
    desc->SampleDesc.Count = info.sample_count;
    desc->SampleDesc.Quality = 0;
    return S_OK;
}

HRESULT DxgiResource::Map(DXGI_MAPPED_RECT* rect, UINT flags) {
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

HRESULT DxgiResource::Unmap() {
    owner_.device().immediate().Unmap(owner_.d3d(), 0);
    return S_OK;
}

HRESULT DxgiResource::GetDC(BOOL, HDC* hdc) {
    if (hdc) *hdc = 0;
    owner_.device().log().error("IDXGISurface1::GetDC", "", "there is no GDI on Linux");
    return DXGI_ERROR_INVALID_CALL;
}

HRESULT DxgiResource::ReleaseDC(RECT*) {
    return DXGI_ERROR_INVALID_CALL;
}

HRESULT DxgiResource::GetResource(REFIID riid, void** resource, UINT* subresource) {
    if (subresource) *subresource = 0;
    return owner_.query_interface(riid, resource);
}

// IDXGIDevice2

namespace {

Resource* offered_resource(Device& device, const char* call, IDXGIResource* const* resources,
                           UINT index) {
    Object* object = object_of(resources[index]);
    const std::string parameter = "ppResources[" + std::to_string(index) + "]";
    if (!object || !is_resource_kind(object->kind())) {
        device.log().error(call, parameter, "is NULL or not a resource of this runtime");
        return nullptr;
    }
    auto* resource = static_cast<Resource*>(object);
    if (&resource->device() != &device) {
        device.log().error(call, parameter, "belongs to another device");
        return nullptr;
    }
    return resource;
}

}  // namespace

HRESULT Device::OfferResources(UINT count, IDXGIResource* const* resources,
                               DXGI_OFFER_RESOURCE_PRIORITY priority) {
    const char* call = "IDXGIDevice2::OfferResources";
    if (priority < DXGI_OFFER_RESOURCE_PRIORITY_LOW ||
        priority > DXGI_OFFER_RESOURCE_PRIORITY_HIGH) {
        log_.error(call, "Priority", std::to_string(priority) + " is not LOW, NORMAL or HIGH");
        return E_INVALIDARG;
    }
    if (count && !resources) {
        log_.error(call, "ppResources", "is NULL");
        return E_INVALIDARG;
    }
    std::vector<Resource*> offered;
    for (UINT i = 0; i < count; ++i) {
        Resource* resource = offered_resource(*this, call, resources, i);
        if (!resource) return E_INVALIDARG;
        const std::string parameter = "ppResources[" + std::to_string(i) + "]";
        if (resource->info().usage == D3D11_USAGE_IMMUTABLE) {
            log_.error(call, parameter, "is immutable; immutable resources cannot be offered");
            return E_INVALIDARG;
        }
        if (resource->any_mapped()) {
            log_.error(call, parameter, "is mapped; unmap it before offering it");
            return E_INVALIDARG;
        }
        if (resource->offered) {
            log_.error(call, parameter, "is already offered");
            return E_INVALIDARG;
        }
        offered.push_back(resource);
    }
    auto guard = lock();
    for (Resource* resource : offered) {
        // An offered resource is unbound and may lose its contents.
        immediate_->state().unbind(*resource);
        backend_->offer(resource->id());
        resource->offered = true;
    }
    return S_OK;
}

HRESULT Device::ReclaimResources(UINT count, IDXGIResource* const* resources, BOOL* discarded) {
    const char* call = "IDXGIDevice2::ReclaimResources";
    if (count && !resources) {
        log_.error(call, "ppResources", "is NULL");
        return E_INVALIDARG;
    }
    std::vector<Resource*> reclaimed;
    for (UINT i = 0; i < count; ++i) {
        Resource* resource = offered_resource(*this, call, resources, i);
        if (!resource) return E_INVALIDARG;
        if (!resource->offered) {
            log_.error(call, "ppResources[" + std::to_string(i) + "]",
                       "was not offered (IDXGIDevice2::OfferResources)");
            return E_INVALIDARG;
        }
        reclaimed.push_back(resource);
    }
    auto guard = lock();
    for (UINT i = 0; i < count; ++i) {
        const bool lost = backend_->reclaim(reclaimed[i]->id());
        reclaimed[i]->offered = false;
        if (discarded) discarded[i] = lost ? TRUE : FALSE;
    }
    return S_OK;
}

HRESULT Device::EnqueueSetEvent(HANDLE event) {
    const char* call = "IDXGIDevice2::EnqueueSetEvent";
    const auto fd = static_cast<int>(reinterpret_cast<std::intptr_t>(event));
    if (!event || fd < 0) {
        log_.error(call, "hEvent", "is not an eventfd (pass (HANDLE)(intptr_t)eventfd(0, 0))");
        return E_INVALIDARG;
    }
    // Only an eventfd may be written: an 8-byte write to another kind of
    // file would succeed and corrupt it.
    char target[64] = {};
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    const ssize_t length = readlink(link.c_str(), target, sizeof target - 1);
    if (length < 0 || std::strcmp(target, "anon_inode:[eventfd]") != 0) {
        log_.error(call, "hEvent",
                   "file descriptor " + std::to_string(fd) +
                       " is not an eventfd (HANDLE means an eventfd file descriptor on Linux)");
        return E_INVALIDARG;
    }
    // Work is finished when each call returns, so the event is due now.
    const std::uint64_t one = 1;
    if (write(fd, &one, sizeof one) != sizeof one) {
        log_.error(call, "hEvent",
                   std::string("writing the eventfd failed: ") + std::strerror(errno));
        return E_INVALIDARG;
    }
    return S_OK;
}

}  // namespace d3dcap::runtime
