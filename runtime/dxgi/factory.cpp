// IDXGIFactory2 and IDXGIAdapter2 of the headless DXGI.
#include "runtime/dxgi/factory.h"

#include <unistd.h>

#include <cstring>
#include <cwchar>

#include "runtime/d3d11/device.h"
#include "runtime/dxgi/adapter.h"
#include "runtime/dxgi/swap_chain.h"
#include "runtime/formats/format_rules.h"

namespace d3dcap::runtime::dxgi {

namespace {

MessageLog& dxgi_log() {
    static MessageLog log;
    return log;
}

}  // namespace

// Factory

void* Factory::find_interface(REFIID riid) {
    if (iid_is<IDXGIFactory, IDXGIFactory1, IDXGIFactory2, IDXGIFactory3, IDXGIFactory4,
               IDXGIFactory5, IDXGIFactory6, IDXGIObject, IUnknown>(riid)) {
        return static_cast<IDXGIFactory6*>(this);
    }
    return nullptr;
}

HRESULT Factory::adapter_as(REFIID riid, void** adapter, const LUID* luid) {
    if (!adapter) return E_INVALIDARG;
    *adapter = nullptr;
    Ref<Adapter> found = adopt_internal(new Adapter(*this));
    if (luid) {
        DXGI_ADAPTER_DESC1 desc{};
        found->GetDesc1(&desc);
        if (desc.AdapterLuid.LowPart != luid->LowPart ||
            desc.AdapterLuid.HighPart != luid->HighPart)
            return DXGI_ERROR_NOT_FOUND;
    }
    return found->QueryInterface(riid, adapter);
}

HRESULT Factory::EnumAdapterByLuid(LUID luid, REFIID riid, void** adapter) {
    return adapter_as(riid, adapter, &luid);
}

// The software adapter: the only one, which is the reference device's.
HRESULT Factory::EnumWarpAdapter(REFIID riid, void** adapter) {
    return adapter_as(riid, adapter);
}

HRESULT Factory::CheckFeatureSupport(DXGI_FEATURE feature, void* data, UINT size) {
    if (feature != DXGI_FEATURE_PRESENT_ALLOW_TEARING || !data || size != sizeof(BOOL)) {
        dxgi_log().error("IDXGIFactory5::CheckFeatureSupport", "Feature",
                         feature != DXGI_FEATURE_PRESENT_ALLOW_TEARING
                             ? std::to_string(feature) + " is not a DXGI_FEATURE"
                             : "takes a BOOL (FeatureSupportDataSize 4)");
        return E_INVALIDARG;
    }
    *static_cast<BOOL*>(data) = FALSE;  // nothing is presented, torn or not
    return S_OK;
}

HRESULT Factory::EnumAdapterByGpuPreference(UINT index, DXGI_GPU_PREFERENCE preference, REFIID riid,
                                            void** adapter) {
    if (adapter) *adapter = nullptr;
    if (preference < DXGI_GPU_PREFERENCE_UNSPECIFIED ||
        preference > DXGI_GPU_PREFERENCE_HIGH_PERFORMANCE || !adapter) {
        return E_INVALIDARG;
    }
    if (index > 0) return DXGI_ERROR_NOT_FOUND;
    return adapter_as(riid, adapter);
}

HRESULT Factory::GetParent(REFIID, void** parent) {
    if (parent) *parent = nullptr;
    return E_NOINTERFACE;  // a factory has no parent
}

HRESULT Factory::EnumAdapters(UINT index, IDXGIAdapter** adapter) {
    IDXGIAdapter1* found = nullptr;
    const HRESULT hr = EnumAdapters1(index, adapter ? &found : nullptr);
    if (adapter) *adapter = found;
    return hr;
}

HRESULT Factory::EnumAdapters1(UINT index, IDXGIAdapter1** adapter) {
    if (!adapter) return DXGI_ERROR_INVALID_CALL;
    *adapter = nullptr;
    if (index > 0) return DXGI_ERROR_NOT_FOUND;  // one adapter: the CPU reference device
    *adapter = new Adapter(*this);
    return S_OK;
}

HRESULT Factory::MakeWindowAssociation(HWND window, UINT) {
    window_ = window;
    return S_OK;
}

HRESULT Factory::GetWindowAssociation(HWND* window) {
    if (!window) return DXGI_ERROR_INVALID_CALL;
    *window = window_;
    return S_OK;
}

HRESULT Factory::CreateSoftwareAdapter(HMODULE, IDXGIAdapter** adapter) {
    if (adapter) *adapter = nullptr;
    dxgi_log().error("IDXGIFactory::CreateSoftwareAdapter", "Module",
                     "software rasterizer modules cannot be loaded on Linux");
    return DXGI_ERROR_UNSUPPORTED;
}

HRESULT Factory::CreateSwapChain(IUnknown* device, DXGI_SWAP_CHAIN_DESC* desc,
                                 IDXGISwapChain** swap_chain) {
    if (swap_chain) *swap_chain = nullptr;
    if (!desc || !swap_chain) {
        dxgi_log().error("IDXGIFactory::CreateSwapChain", desc ? "ppSwapChain" : "pDesc",
                         "is NULL");
        return DXGI_ERROR_INVALID_CALL;
    }
    DXGI_SWAP_CHAIN_DESC1 desc1{};
    desc1.Width = desc->BufferDesc.Width;
    desc1.Height = desc->BufferDesc.Height;
    desc1.Format = desc->BufferDesc.Format;
    desc1.SampleDesc = desc->SampleDesc;
    desc1.BufferUsage = desc->BufferUsage;
    desc1.BufferCount = desc->BufferCount;
    desc1.Scaling = DXGI_SCALING_STRETCH;
    desc1.SwapEffect = desc->SwapEffect;
    desc1.AlphaMode = DXGI_ALPHA_MODE_UNSPECIFIED;
    desc1.Flags = desc->Flags;
    DXGI_SWAP_CHAIN_FULLSCREEN_DESC fullscreen{};
    fullscreen.RefreshRate = desc->BufferDesc.RefreshRate;
    fullscreen.ScanlineOrdering = desc->BufferDesc.ScanlineOrdering;
    fullscreen.Scaling = desc->BufferDesc.Scaling;
    fullscreen.Windowed = desc->Windowed;
    IDXGISwapChain1* created = nullptr;
    const HRESULT hr = create_swap_chain("IDXGIFactory::CreateSwapChain", device,
                                         desc->OutputWindow, desc1, fullscreen, &created);
    *swap_chain = created;
    return hr;
}

HRESULT Factory::CreateSwapChainForHwnd(IUnknown* device, HWND window,
                                        const DXGI_SWAP_CHAIN_DESC1* desc,
                                        const DXGI_SWAP_CHAIN_FULLSCREEN_DESC* fullscreen,
                                        IDXGIOutput*, IDXGISwapChain1** swap_chain) {
    const char* call = "IDXGIFactory2::CreateSwapChainForHwnd";
    if (swap_chain) *swap_chain = nullptr;
    if (!desc || !swap_chain) {
        dxgi_log().error(call, desc ? "ppSwapChain" : "pDesc", "is NULL");
        return DXGI_ERROR_INVALID_CALL;
    }
    DXGI_SWAP_CHAIN_FULLSCREEN_DESC windowed{};
    windowed.Windowed = TRUE;
    // The HWND names no window on Linux; it is kept for GetHwnd only.
    return create_swap_chain(call, device, window, *desc, fullscreen ? *fullscreen : windowed,
                             swap_chain);
}

HRESULT Factory::CreateSwapChainForComposition(IUnknown* device, const DXGI_SWAP_CHAIN_DESC1* desc,
                                               IDXGIOutput*, IDXGISwapChain1** swap_chain) {
    const char* call = "IDXGIFactory2::CreateSwapChainForComposition";
    if (swap_chain) *swap_chain = nullptr;
    if (!desc || !swap_chain) {
        dxgi_log().error(call, desc ? "ppSwapChain" : "pDesc", "is NULL");
        return DXGI_ERROR_INVALID_CALL;
    }
    if (desc->Width == 0 || desc->Height == 0) {
        dxgi_log().error(call, "pDesc->Width",
                         "composition swap chains have no window to take a size from; Width and "
                         "Height must not be 0");
        return DXGI_ERROR_INVALID_CALL;
    }
    if (desc->SwapEffect != DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL &&
        desc->SwapEffect != DXGI_SWAP_EFFECT_FLIP_DISCARD) {
        dxgi_log().error(call, "pDesc->SwapEffect", "composition swap chains use a flip model");
        return DXGI_ERROR_INVALID_CALL;
    }
    DXGI_SWAP_CHAIN_FULLSCREEN_DESC windowed{};
    windowed.Windowed = TRUE;
    return create_swap_chain(call, device, 0, *desc, windowed, swap_chain);
}

HRESULT Factory::CreateSwapChainForCoreWindow(IUnknown*, IUnknown*, const DXGI_SWAP_CHAIN_DESC1*,
                                              IDXGIOutput*, IDXGISwapChain1** swap_chain) {
    if (swap_chain) *swap_chain = nullptr;
    dxgi_log().error("IDXGIFactory2::CreateSwapChainForCoreWindow", "pWindow",
                     "there are no CoreWindows on Linux");
    return DXGI_ERROR_INVALID_CALL;
}

HRESULT Factory::GetSharedResourceAdapterLuid(HANDLE, LUID*) {
    return E_NOTIMPL;
}
HRESULT Factory::RegisterStereoStatusWindow(HWND, UINT, DWORD*) {
    return E_NOTIMPL;
}
HRESULT Factory::RegisterStereoStatusEvent(HANDLE, DWORD*) {
    return E_NOTIMPL;
}
HRESULT Factory::RegisterOcclusionStatusWindow(HWND, UINT, DWORD*) {
    return E_NOTIMPL;
}
HRESULT Factory::RegisterOcclusionStatusEvent(HANDLE, DWORD*) {
    return E_NOTIMPL;
}

HRESULT Factory::create_swap_chain(const char* call, IUnknown* device_object, HWND window,
                                   const DXGI_SWAP_CHAIN_DESC1& requested,
                                   const DXGI_SWAP_CHAIN_FULLSCREEN_DESC& fullscreen,
                                   IDXGISwapChain1** swap_chain) {
    MessageLog& log = dxgi_log();
    Object* object = object_of(device_object);
    if (!object || object->kind() != ObjectKind::Device) {
        log.error(call, "pDevice", "is NULL or not a device of this runtime");
        return DXGI_ERROR_INVALID_CALL;
    }
    auto& device = *static_cast<d3d11::Device*>(object);
    DXGI_SWAP_CHAIN_DESC1 desc = requested;
    const bool flip = desc.SwapEffect == DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL ||
                      desc.SwapEffect == DXGI_SWAP_EFFECT_FLIP_DISCARD;
    if (desc.SwapEffect != DXGI_SWAP_EFFECT_DISCARD &&
        desc.SwapEffect != DXGI_SWAP_EFFECT_SEQUENTIAL && !flip) {
        device.log().error(call, "pDesc->SwapEffect",
                           std::to_string(desc.SwapEffect) + " is not a DXGI_SWAP_EFFECT");
        return DXGI_ERROR_INVALID_CALL;
    }
    if (desc.BufferCount == 0 || desc.BufferCount > DXGI_MAX_SWAP_CHAIN_BUFFERS ||
        (flip && desc.BufferCount < 2)) {
        device.log().error(
            call, "pDesc->BufferCount",
            std::to_string(desc.BufferCount) + " buffers (1..16; flip models need at least 2)");
        return DXGI_ERROR_INVALID_CALL;
    }
    if (!formats::display(desc.Format) && desc.Format != DXGI_FORMAT_B8G8R8X8_UNORM) {
        device.log().error(call, "pDesc->Format",
                           format_name(desc.Format) + " is not a back-buffer format");
        return DXGI_ERROR_INVALID_CALL;
    }
    if (desc.Stereo) {
        device.log().error(call, "pDesc->Stereo", "stereo swap chains are not supported");
        return DXGI_ERROR_INVALID_CALL;
    }
    if (flip && desc.SampleDesc.Count != 1) {
        device.log().error(call, "pDesc->SampleDesc.Count", "flip models take one sample");
        return DXGI_ERROR_INVALID_CALL;
    }
    // No window to take a size from: a zero size becomes 640x480.
    if (desc.Width == 0) desc.Width = 640;
    if (desc.Height == 0) desc.Height = 480;
    auto* created = new SwapChain(*this, device, window, desc, fullscreen);
    const HRESULT hr = created->create_buffers(call);
    if (FAILED(hr)) {
        created->Release();
        return hr;
    }
    *swap_chain = created;
    return S_OK;
}

}  // namespace d3dcap::runtime::dxgi
