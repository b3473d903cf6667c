// The IDXGIDevice2 calls of the device that act on resources: OfferResources,
// ReclaimResources, EnqueueSetEvent.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "runtime/d3d11/device.h"

namespace d3dcap::runtime::d3d11 {

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

}  // namespace d3dcap::runtime::d3d11
