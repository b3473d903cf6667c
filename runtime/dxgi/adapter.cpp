// IDXGIAdapter2 of the headless DXGI.
#include <unistd.h>

#include <cstring>
#include <cwchar>

#include "runtime/d3d11/device.h"
#include "runtime/dxgi/factory.h"
#include "runtime/dxgi/output.h"
#include "runtime/formats/format_rules.h"

namespace d3dcap::runtime::dxgi {

void* Adapter::find_interface(REFIID riid) {
    if (iid_is<IDXGIAdapter, IDXGIAdapter1, IDXGIAdapter2, IDXGIObject, IUnknown>(riid)) {
        return static_cast<IDXGIAdapter2*>(this);
    }
    return nullptr;
}

HRESULT Adapter::GetParent(REFIID riid, void** parent) {
    return factory_->QueryInterface(riid, parent);
}

HRESULT Adapter::EnumOutputs(UINT index, IDXGIOutput** output) {
    if (!output) return E_INVALIDARG;
    *output = nullptr;
    if (index > 0) return DXGI_ERROR_NOT_FOUND;  // one headless output
    *output = new Output(*this);
    return S_OK;
}

HRESULT Adapter::GetDesc2(DXGI_ADAPTER_DESC2* desc) {
    if (!desc) return E_INVALIDARG;
    *desc = {};
    std::wcsncpy(desc->Description, description_.c_str(), 127);
    desc->VendorId = kAdapterVendorId;
    desc->DeviceId = kAdapterDeviceId;
    desc->Revision = 1;
    const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    desc->SharedSystemMemory =
        pages > 0 && page_size > 0 ? static_cast<SIZE_T>(pages) * page_size / 2 : 0;
    desc->AdapterLuid.LowPart = 0xd3dca9;
    desc->Flags = DXGI_ADAPTER_FLAG_SOFTWARE;
    if (gpu_) {
        // The GPU's own name, PCI ids, memory and LUID, so that a trace says
        // which GPU it was captured on.
        std::size_t i = 0;
        for (; i < gpu_->name.size() && i < 127; ++i)
            desc->Description[i] = static_cast<unsigned char>(gpu_->name[i]);
        desc->Description[i] = 0;
        desc->VendorId = gpu_->vendor_id;
        desc->DeviceId = gpu_->device_id;
        desc->DedicatedVideoMemory = static_cast<SIZE_T>(gpu_->dedicated_video_memory);
        std::memcpy(&desc->AdapterLuid.LowPart, gpu_->luid, 4);
        std::memcpy(&desc->AdapterLuid.HighPart, gpu_->luid + 4, 4);
        desc->Flags = DXGI_ADAPTER_FLAG_NONE;
    }
    desc->GraphicsPreemptionGranularity = DXGI_GRAPHICS_PREEMPTION_DMA_BUFFER_BOUNDARY;
    desc->ComputePreemptionGranularity = DXGI_COMPUTE_PREEMPTION_DMA_BUFFER_BOUNDARY;
    return S_OK;
}

namespace {

// The fields every adapter desc version shares, from the newest one.
template <typename Desc>
void copy_shared_desc(const DXGI_ADAPTER_DESC2& full, Desc* desc) {
    std::wmemcpy(desc->Description, full.Description, 128);
    desc->VendorId = full.VendorId;
    desc->DeviceId = full.DeviceId;
    desc->SubSysId = full.SubSysId;
    desc->Revision = full.Revision;
    desc->DedicatedVideoMemory = full.DedicatedVideoMemory;
    desc->DedicatedSystemMemory = full.DedicatedSystemMemory;
    desc->SharedSystemMemory = full.SharedSystemMemory;
    desc->AdapterLuid = full.AdapterLuid;
}

}  // namespace

HRESULT Adapter::GetDesc1(DXGI_ADAPTER_DESC1* desc) {
    if (!desc) return E_INVALIDARG;
    DXGI_ADAPTER_DESC2 full;
    GetDesc2(&full);
    copy_shared_desc(full, desc);
    desc->Flags = full.Flags;
    return S_OK;
}

HRESULT Adapter::GetDesc(DXGI_ADAPTER_DESC* desc) {
    if (!desc) return E_INVALIDARG;
    DXGI_ADAPTER_DESC2 full;
    GetDesc2(&full);
    copy_shared_desc(full, desc);
    return S_OK;
}

HRESULT Adapter::CheckInterfaceSupport(REFGUID, LARGE_INTEGER* version) {
    // As on Windows for Direct3D 11 interfaces (and there is no Direct3D 10).
    if (version) version->QuadPart = 0;
    return DXGI_ERROR_UNSUPPORTED;
}

}  // namespace d3dcap::runtime::dxgi
