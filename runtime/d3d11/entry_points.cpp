// The exported entry points: D3D11CreateDevice, D3D11CreateDeviceAndSwapChain,
// CreateDXGIFactory, CreateDXGIFactory1, CreateDXGIFactory2.
#include <cstdio>
#include <string>

#include "runtime/d3d11/device.h"
#include "runtime/dxgi/factory.h"

#define D3DCAP_ENTRY_POINT extern "C" __attribute__((visibility("default")))

namespace d3dcap::runtime::d3d11 {
namespace {

MessageLog& entry_log() {
    static MessageLog log;
    return log;
}

const char* driver_name(D3D_DRIVER_TYPE type) {
    switch (type) {
        case D3D_DRIVER_TYPE_UNKNOWN:
            return "D3D_DRIVER_TYPE_UNKNOWN";
        case D3D_DRIVER_TYPE_HARDWARE:
            return "D3D_DRIVER_TYPE_HARDWARE";
        case D3D_DRIVER_TYPE_REFERENCE:
            return "D3D_DRIVER_TYPE_REFERENCE";
        case D3D_DRIVER_TYPE_NULL:
            return "D3D_DRIVER_TYPE_NULL";
        case D3D_DRIVER_TYPE_SOFTWARE:
            return "D3D_DRIVER_TYPE_SOFTWARE";
        case D3D_DRIVER_TYPE_WARP:
            return "D3D_DRIVER_TYPE_WARP";
    }
    return "?";
}

bool known_level(D3D_FEATURE_LEVEL level) {
    switch (level) {
        case D3D_FEATURE_LEVEL_1_0_CORE:
        case D3D_FEATURE_LEVEL_9_1:
        case D3D_FEATURE_LEVEL_9_2:
        case D3D_FEATURE_LEVEL_9_3:
        case D3D_FEATURE_LEVEL_10_0:
        case D3D_FEATURE_LEVEL_10_1:
        case D3D_FEATURE_LEVEL_11_0:
        case D3D_FEATURE_LEVEL_11_1:
        case D3D_FEATURE_LEVEL_12_0:
        case D3D_FEATURE_LEVEL_12_1:
        case D3D_FEATURE_LEVEL_12_2:
            return true;
    }
    return false;
}

constexpr UINT kKnownCreateFlags =
    D3D11_CREATE_DEVICE_SINGLETHREADED | D3D11_CREATE_DEVICE_DEBUG |
    D3D11_CREATE_DEVICE_SWITCH_TO_REF |
    D3D11_CREATE_DEVICE_PREVENT_INTERNAL_THREADING_OPTIMIZATIONS |
    D3D11_CREATE_DEVICE_BGRA_SUPPORT | D3D11_CREATE_DEVICE_DEBUGGABLE |
    D3D11_CREATE_DEVICE_PREVENT_ALTERING_LAYER_SETTINGS_FROM_REGISTRY |
    D3D11_CREATE_DEVICE_DISABLE_GPU_TIMEOUT | D3D11_CREATE_DEVICE_VIDEO_SUPPORT;

HRESULT create_device(const char* call, IDXGIAdapter* adapter_interface, D3D_DRIVER_TYPE type,
                      HMODULE software, UINT flags, const D3D_FEATURE_LEVEL* levels,
                      UINT level_count, UINT sdk_version, Device** created,
                      D3D_FEATURE_LEVEL* chosen) {
    MessageLog& log = entry_log();
    dxgi::Adapter* adapter = nullptr;
    if (adapter_interface) {
        Object* object = object_of(adapter_interface);
        if (!object || object->kind() != ObjectKind::Adapter) {
            log.error(call, "pAdapter", "is not an adapter of this runtime's DXGI factory");
            return E_INVALIDARG;
        }
        adapter = static_cast<dxgi::Adapter*>(object);
        if (type != D3D_DRIVER_TYPE_UNKNOWN) {
            log.error(call, "DriverType",
                      std::string(driver_name(type)) +
                          " with an adapter; an explicit adapter needs D3D_DRIVER_TYPE_UNKNOWN");
            return E_INVALIDARG;
        }
    } else if (type == D3D_DRIVER_TYPE_UNKNOWN) {
        log.error(call, "DriverType", "D3D_DRIVER_TYPE_UNKNOWN needs an adapter");
        return E_INVALIDARG;
    }
    if (software && type != D3D_DRIVER_TYPE_SOFTWARE) {
        log.error(call, "Software", "must be NULL unless DriverType is D3D_DRIVER_TYPE_SOFTWARE");
        return E_INVALIDARG;
    }
    std::unique_ptr<backend::Backend> backend;
    switch (type) {
        case D3D_DRIVER_TYPE_UNKNOWN:  // our adapter is the reference device
        case D3D_DRIVER_TYPE_REFERENCE:
            break;
        case D3D_DRIVER_TYPE_WARP: {
            // The Vulkan device on the CPU (lavapipe), as WARP is Windows'
            // software rasterizer; the reference device where there is none.
            std::string error;
            backend = backend::make_vulkan_backend(error, backend::VulkanAdapter::Cpu);
            if (!backend) {
                std::fprintf(stderr,
                             "d3dcap: %s: D3D_DRIVER_TYPE_WARP: %s; using the reference "
                             "device\n",
                             call, error.c_str());
            }
            break;
        }
        case D3D_DRIVER_TYPE_NULL:
            break;
        case D3D_DRIVER_TYPE_HARDWARE: {
            // The Vulkan GPU device. Said on stderr always when there is
            // none: this is the first thing a user meets.
            std::string error;
            backend = backend::make_vulkan_backend(error);
            if (!backend) {
                std::fprintf(stderr, "d3dcap: %s: D3D_DRIVER_TYPE_HARDWARE: %s\n", call,
                             error.c_str());
                return DXGI_ERROR_UNSUPPORTED;
            }
            break;
        }
        case D3D_DRIVER_TYPE_SOFTWARE:
            log.error(call, "Software",
                      software ? "software rasterizer modules cannot be loaded on Linux"
                               : "is NULL with D3D_DRIVER_TYPE_SOFTWARE");
            return software ? E_FAIL : E_INVALIDARG;
        default:
            log.error(call, "DriverType", std::to_string(type) + " is not a D3D_DRIVER_TYPE");
            return E_INVALIDARG;
    }
    if (flags & ~kKnownCreateFlags) {
        log.error(call, "Flags", hex(flags) + " has unknown D3D11_CREATE_DEVICE bits");
        return E_INVALIDARG;
    }
    if (sdk_version != D3D11_SDK_VERSION) {
        log.error(call, "SDKVersion",
                  std::to_string(sdk_version) + " is not D3D11_SDK_VERSION (7)");
        return E_INVALIDARG;
    }
    // Without a list: 11_0, 10_1, 10_0, 9_3, 9_2, 9_1 (11_1 only when asked).
    static const D3D_FEATURE_LEVEL kDefaultLevels[] = {
        D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_10_1, D3D_FEATURE_LEVEL_10_0,
        D3D_FEATURE_LEVEL_9_3,  D3D_FEATURE_LEVEL_9_2,  D3D_FEATURE_LEVEL_9_1};
    if (!levels) {
        levels = kDefaultLevels;
        level_count = 6;
    } else if (level_count == 0) {
        log.error(call, "FeatureLevels", "is 0 with a pFeatureLevels array");
        return E_INVALIDARG;
    }
    D3D_FEATURE_LEVEL level{};
    for (UINT i = 0; i < level_count; ++i) {
        if (!known_level(levels[i])) {
            log.error(call, "pFeatureLevels[" + std::to_string(i) + "]",
                      hex(levels[i]) + " is not a D3D_FEATURE_LEVEL");
            return E_INVALIDARG;
        }
        if (!level &&
            (levels[i] == D3D_FEATURE_LEVEL_11_0 || levels[i] == D3D_FEATURE_LEVEL_11_1)) {
            level = levels[i];
        }
    }
    if (!level) {
        log.error(call, "pFeatureLevels",
                  "none of the levels is supported; this device runs 11_0 and 11_1");
        return E_FAIL;
    }
    if (chosen) *chosen = level;
    if (!created) return S_OK;
    if (!backend) {
        backend = type == D3D_DRIVER_TYPE_NULL
                      ? backend::make_null_backend()
                      : backend::make_timed_backend(backend::make_reference_backend());
    }
    Ref<dxgi::Adapter> owned_adapter;
    if (!adapter) {
        auto* factory = new dxgi::Factory;
        owned_adapter = adopt_internal(new dxgi::Adapter(*factory));
        factory->release();  // the adapter keeps it
        adapter = owned_adapter.get();
        if (const std::optional<backend::AdapterIdentity> gpu = backend->adapter_identity())
            owned_adapter->set_gpu(*gpu);
        if (type == D3D_DRIVER_TYPE_NULL)
            owned_adapter->set_description(dxgi::kNullAdapterDescription);
    }
    const D3D_DRIVER_TYPE driver =
        type == D3D_DRIVER_TYPE_UNKNOWN ? D3D_DRIVER_TYPE_REFERENCE : type;
    *created = new Device(std::move(backend), driver, level, flags, *adapter);
    return S_OK;
}

}  // namespace
}  // namespace d3dcap::runtime::d3d11

using d3dcap::runtime::d3d11::Device;

D3DCAP_ENTRY_POINT HRESULT WINAPI D3D11CreateDevice(
    IDXGIAdapter* adapter, D3D_DRIVER_TYPE type, HMODULE software, UINT flags,
    const D3D_FEATURE_LEVEL* levels, UINT level_count, UINT sdk_version, ID3D11Device** device,
    D3D_FEATURE_LEVEL* feature_level, ID3D11DeviceContext** context) {
    if (device) *device = nullptr;
    if (context) *context = nullptr;
    if (feature_level) *feature_level = D3D_FEATURE_LEVEL{};
    const bool wanted = device || context;
    Device* created = nullptr;
    const HRESULT hr = d3dcap::runtime::d3d11::create_device(
        "D3D11CreateDevice", adapter, type, software, flags, levels, level_count, sdk_version,
        wanted ? &created : nullptr, feature_level);
    if (FAILED(hr)) return hr;
    if (!wanted) return S_FALSE;  // only checking: nothing was created
    if (context) created->GetImmediateContext(context);
    if (device) {
        *device = created;
    } else {
        created->Release();  // the context keeps the device
    }
    return S_OK;
}

D3DCAP_ENTRY_POINT HRESULT WINAPI D3D11CreateDeviceAndSwapChain(
    IDXGIAdapter* adapter, D3D_DRIVER_TYPE type, HMODULE software, UINT flags,
    const D3D_FEATURE_LEVEL* levels, UINT level_count, UINT sdk_version,
    const DXGI_SWAP_CHAIN_DESC* swap_chain_desc, IDXGISwapChain** swap_chain, ID3D11Device** device,
    D3D_FEATURE_LEVEL* feature_level, ID3D11DeviceContext** context) {
    using namespace d3dcap::runtime::d3d11;
    if (swap_chain) *swap_chain = nullptr;
    if (device) *device = nullptr;
    if (context) *context = nullptr;
    if (swap_chain && !swap_chain_desc) {
        entry_log().error("D3D11CreateDeviceAndSwapChain", "pSwapChainDesc",
                          "is NULL while ppSwapChain is not");
        return E_INVALIDARG;
    }
    ID3D11Device* created = nullptr;
    ID3D11DeviceContext* immediate = nullptr;
    HRESULT hr = D3D11CreateDevice(adapter, type, software, flags, levels, level_count, sdk_version,
                                   &created, feature_level, &immediate);
    if (FAILED(hr)) return hr;
    if (swap_chain) {
        IDXGIFactory* factory = nullptr;
        IDXGIAdapter* device_adapter = nullptr;
        static_cast<Device*>(created)->GetAdapter(&device_adapter);
        device_adapter->GetParent(__uuidof(IDXGIFactory), reinterpret_cast<void**>(&factory));
        device_adapter->Release();
        DXGI_SWAP_CHAIN_DESC desc = *swap_chain_desc;
        hr = factory->CreateSwapChain(created, &desc, swap_chain);
        factory->Release();
        if (FAILED(hr)) {
            immediate->Release();
            created->Release();
            return hr;
        }
    }
    if (context) {
        *context = immediate;
    } else {
        immediate->Release();
    }
    if (device) {
        *device = created;
    } else {
        created->Release();
    }
    return S_OK;
}
