#include "runtime/d3d11/device.h"

#include <algorithm>
#include <cstring>

#include "runtime/dxgi/factory.h"
#include "runtime/formats/format_rules.h"

namespace d3dcap::runtime::d3d11 {

DeviceChildBase::DeviceChildBase(ObjectKind kind, Device& device, bool hold_device)
    : Object(kind), device_(&device), holds_device_(hold_device) {
    if (holds_device_) device_->add_internal_ref();
}

DeviceChildBase::~DeviceChildBase() {
    if (holds_device_) device_->release_internal_ref();
}

void hand_out_device(Device& device, ID3D11Device** out) {
    if (!out) return;
    device.add_ref();
    *out = &device;
}

Device::Device(std::unique_ptr<backend::Backend> backend, D3D_DRIVER_TYPE driver_type,
               D3D_FEATURE_LEVEL feature_level, UINT creation_flags, dxgi::Adapter& adapter)
    : ComObject(ObjectKind::Device),
      backend_(std::move(backend)),
      driver_type_(driver_type),
      feature_level_(feature_level),
      creation_flags_(creation_flags),
      adapter_(&adapter) {
    if (creation_flags & D3D11_CREATE_DEVICE_SINGLETHREADED) calls_from_one_thread();
    if (std::recursive_mutex* backend_mutex = backend_->call_mutex()) mutex_ = backend_mutex;
    backend_->attach(&tiles_);
    immediate_ = std::make_unique<Context>(*this, false, 0);
    default_context_state_ =
        adopt_internal(new DeviceContextState(*this, feature_level, __uuidof(ID3D11Device2)));
    active_context_state_ = default_context_state_;
}

Device::~Device() {
    immediate_.reset();
}

void* Device::find_interface(REFIID riid) {
    if (iid_is<ID3D11Device, ID3D11Device1, ID3D11Device2, IUnknown>(riid)) {
        return static_cast<ID3D11Device2*>(this);
    }
    if (iid_is<IDXGIObject, IDXGIDevice, IDXGIDevice1, IDXGIDevice2>(riid)) {
        return static_cast<IDXGIDevice2*>(this);
    }
    return nullptr;
}

void Device::on_public_release() {
    // Nothing outside can reach the immediate context now; drop what it and
    // the device hold so that the last child's release ends the device.
    immediate_->clear_state();
    active_context_state_.reset();
    default_context_state_.reset();
}

// Contexts

void Device::GetImmediateContext(ID3D11DeviceContext** context) {
    if (!context) return;
    add_ref();
    *context = immediate_.get();
}

void Device::GetImmediateContext1(ID3D11DeviceContext1** context) {
    if (!context) return;
    add_ref();
    *context = immediate_.get();
}

void Device::GetImmediateContext2(ID3D11DeviceContext2** context) {
    if (!context) return;
    add_ref();
    *context = immediate_.get();
}

template <class T>
HRESULT Device::create_deferred_context(const char* call, UINT flags, T** context) {
    if (context) *context = nullptr;  // on every failure too, as Windows does
    if (flags != 0) {
        log_.error(call, "ContextFlags", hex(flags) + " is not 0, the only value D3D11 defines");
        return E_INVALIDARG;
    }
    if (creation_flags_ & D3D11_CREATE_DEVICE_SINGLETHREADED) {
        log_.error(call, "",
                   "the device was created with D3D11_CREATE_DEVICE_SINGLETHREADED, which "
                   "allows no deferred contexts");
        return DXGI_ERROR_INVALID_CALL;
    }
    if (!context) return S_FALSE;
    *context = new Context(*this, true, flags);
    return S_OK;
}

HRESULT Device::CreateDeferredContext(UINT flags, ID3D11DeviceContext** context) {
    return create_deferred_context("ID3D11Device::CreateDeferredContext", flags, context);
}
HRESULT Device::CreateDeferredContext1(UINT flags, ID3D11DeviceContext1** context) {
    return create_deferred_context("ID3D11Device1::CreateDeferredContext1", flags, context);
}
HRESULT Device::CreateDeferredContext2(UINT flags, ID3D11DeviceContext2** context) {
    return create_deferred_context("ID3D11Device2::CreateDeferredContext2", flags, context);
}

HRESULT Device::CreateDeviceContextState(UINT flags, const D3D_FEATURE_LEVEL* levels,
                                         UINT level_count, UINT sdk_version,
                                         REFIID emulated_interface, D3D_FEATURE_LEVEL* chosen,
                                         ID3DDeviceContextState** state) {
    const char* call = "ID3D11Device1::CreateDeviceContextState";
    // Both outs are cleared on every failure, as Windows does: a program that
    // releases *ppContextState after a failed call must find NULL there.
    if (chosen) *chosen = D3D_FEATURE_LEVEL{};
    if (state) *state = nullptr;
    if (flags & ~UINT{D3D11_1_CREATE_DEVICE_CONTEXT_STATE_SINGLETHREADED}) {
        log_.error(call, "Flags", hex(flags) + " has bits other than SINGLETHREADED");
        return E_INVALIDARG;
    }
    if (sdk_version != D3D11_SDK_VERSION) {
        log_.error(call, "SDKVersion",
                   std::to_string(sdk_version) + " is not D3D11_SDK_VERSION (7)");
        return E_INVALIDARG;
    }
    if (!iid_is<ID3D11Device, ID3D11Device1, ID3D11Device2>(emulated_interface)) {
        log_.error(call, "EmulatedInterface",
                   "only ID3D11Device, ID3D11Device1 and ID3D11Device2 can be emulated here "
                   "(no Direct3D 10 devices on Linux)");
        return E_INVALIDARG;
    }
    if (!levels || level_count == 0) {
        log_.error(call, "pFeatureLevels", "no feature levels given");
        return E_INVALIDARG;
    }
    D3D_FEATURE_LEVEL level{};
    for (UINT i = 0; i < level_count && !level; ++i) {
        if (levels[i] == D3D_FEATURE_LEVEL_11_0 ||
            (levels[i] == D3D_FEATURE_LEVEL_11_1 && feature_level_ >= D3D_FEATURE_LEVEL_11_1)) {
            level = levels[i];
        }
    }
    if (!level) {
        log_.error(call, "pFeatureLevels",
                   "none of the levels is 11_0 or (on an 11_1 device) 11_1, the levels this "
                   "device runs");
        return E_INVALIDARG;
    }
    if (chosen) *chosen = level;
    if (!state) return S_FALSE;
    *state = new DeviceContextState(*this, level, emulated_interface);
    return S_OK;
}

Ref<DeviceContextState> Device::swap_context_state(DeviceContextState& next) {
    Ref<DeviceContextState> previous = active_context_state_;
    if (previous) previous->state() = immediate_->state();
    immediate_->state() = next.state();
    active_context_state_ = Ref<DeviceContextState>(&next);
    return previous;
}

// Feature queries

HRESULT Device::CheckFormatSupport(DXGI_FORMAT format, UINT* support) {
    if (!support) {
        log_.error("ID3D11Device::CheckFormatSupport", "pFormatSupport", "is NULL");
        return E_INVALIDARG;
    }
    *support = formats::support(format);
    return *support ? S_OK : E_FAIL;
}

HRESULT Device::CheckMultisampleQualityLevels(DXGI_FORMAT format, UINT samples, UINT* levels) {
    return CheckMultisampleQualityLevels1(format, samples, 0, levels);
}

HRESULT Device::CheckMultisampleQualityLevels1(DXGI_FORMAT format, UINT samples, UINT flags,
                                               UINT* levels) {
    const char* call = "ID3D11Device2::CheckMultisampleQualityLevels1";
    if (!levels) {
        log_.error(call, "pNumQualityLevels", "is NULL");
        return E_INVALIDARG;
    }
    *levels = 0;
    if (flags & ~UINT{D3D11_CHECK_MULTISAMPLE_QUALITY_LEVELS_TILED_RESOURCE}) {
        log_.error(call, "Flags", hex(flags) + " has unknown bits");
        return E_INVALIDARG;
    }
    if (samples == 0 || samples > D3D11_MAX_MULTISAMPLE_SAMPLE_COUNT) {
        log_.error(call, "SampleCount", std::to_string(samples) + " is outside 1..32");
        return E_FAIL;
    }
    *levels = formats::quality_levels(format, samples);
    if (*levels != 0 && samples > 1 && !backend().draws_samples(format, samples)) *levels = 0;
    if ((flags & D3D11_CHECK_MULTISAMPLE_QUALITY_LEVELS_TILED_RESOURCE) && samples != 1) {
        // Tiled resources: 1 or 4 samples, and no 128-bit formats with MSAA.
        const bool is_128 =
            format >= DXGI_FORMAT_R32G32B32A32_TYPELESS && format <= DXGI_FORMAT_R32G32B32A32_SINT;
        if (samples != 4 || is_128) *levels = 0;
    }
    return S_OK;
}

void Device::CheckCounterInfo(D3D11_COUNTER_INFO* info) {
    if (!info) return;
    info->LastDeviceDependentCounter = static_cast<D3D11_COUNTER>(0);  // none
    info->NumSimultaneousCounters = 0;
    info->NumDetectableParallelUnits = 1;
}

HRESULT Device::CheckCounter(const D3D11_COUNTER_DESC* desc, D3D11_COUNTER_TYPE*, UINT*, char*,
                             UINT*, char*, UINT*, char*, UINT*) {
    log_.error("ID3D11Device::CheckCounter", "pDesc",
               desc ? "counter " + hex(desc->Counter) +
                          " does not exist: this device has no counters (CheckCounterInfo)"
                    : std::string("is NULL"));
    return E_INVALIDARG;
}

namespace {

template <class T>
bool fill(void* data, UINT size, const T& value) {
    if (size != sizeof(T)) return false;
    std::memcpy(data, &value, sizeof(T));
    return true;
}

}  // namespace

HRESULT Device::CheckFeatureSupport(D3D11_FEATURE feature, void* data, UINT size) {
    const char* call = "ID3D11Device::CheckFeatureSupport";
    if (!data) {
        log_.error(call, "pFeatureSupportData", "is NULL");
        return E_INVALIDARG;
    }
    bool filled = false;
    switch (feature) {
        case D3D11_FEATURE_THREADING:
            // Deferred contexts record and replay natively (no emulation).
            filled = fill(data, size, D3D11_FEATURE_DATA_THREADING{TRUE, TRUE});
            break;
        case D3D11_FEATURE_DOUBLES:
            filled = fill(data, size, D3D11_FEATURE_DATA_DOUBLES{FALSE});
            break;
        case D3D11_FEATURE_FORMAT_SUPPORT: {
            if (size != sizeof(D3D11_FEATURE_DATA_FORMAT_SUPPORT)) break;
            auto* query = static_cast<D3D11_FEATURE_DATA_FORMAT_SUPPORT*>(data);
            query->OutFormatSupport = formats::support(query->InFormat);
            return query->OutFormatSupport ? S_OK : E_FAIL;
        }
        case D3D11_FEATURE_FORMAT_SUPPORT2: {
            if (size != sizeof(D3D11_FEATURE_DATA_FORMAT_SUPPORT2)) break;
            auto* query = static_cast<D3D11_FEATURE_DATA_FORMAT_SUPPORT2*>(data);
            query->OutFormatSupport2 = formats::support2(query->InFormat);
            return formats::support(query->InFormat) ? S_OK : E_FAIL;
        }
        case D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS:
            filled = fill(data, size, D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS{TRUE});
            break;
        case D3D11_FEATURE_D3D11_OPTIONS: {
            D3D11_FEATURE_DATA_D3D11_OPTIONS options{};
            options.DiscardAPIsSeenByDriver = TRUE;
            options.FlagsForUpdateAndCopySeenByDriver = TRUE;
            options.ClearView = TRUE;
            options.CopyWithOverlap = TRUE;
            options.ConstantBufferPartialUpdate = TRUE;
            options.ConstantBufferOffsetting = TRUE;
            options.MapNoOverwriteOnDynamicConstantBuffer = TRUE;
            options.MapNoOverwriteOnDynamicBufferSRV = TRUE;
            options.OutputMergerLogicOp = backend().logic_ops() ? TRUE : FALSE;
            filled = fill(data, size, options);
            break;
        }
        case D3D11_FEATURE_ARCHITECTURE_INFO:
            filled = fill(data, size, D3D11_FEATURE_DATA_ARCHITECTURE_INFO{FALSE});
            break;
        case D3D11_FEATURE_D3D9_OPTIONS:
            filled = fill(data, size, D3D11_FEATURE_DATA_D3D9_OPTIONS{TRUE});
            break;
        case D3D11_FEATURE_SHADER_MIN_PRECISION_SUPPORT:
            filled = fill(data, size, D3D11_FEATURE_DATA_SHADER_MIN_PRECISION_SUPPORT{0, 0});
            break;
        case D3D11_FEATURE_D3D9_SHADOW_SUPPORT:
            filled = fill(data, size, D3D11_FEATURE_DATA_D3D9_SHADOW_SUPPORT{TRUE});
            break;
        case D3D11_FEATURE_D3D11_OPTIONS1: {
            // The backend's tier: tier 3 for the CPU devices (NULL tiles read
            // 0, writes dropped, min/max filtering, tiled Texture3D); a GPU's
            // from its sparse features. Min/max filtering comes with tier 2.
            D3D11_FEATURE_DATA_D3D11_OPTIONS1 options{};
            options.TiledResourcesTier = backend_->tiled_resources_tier();
            options.MinMaxFiltering =
                options.TiledResourcesTier >= D3D11_TILED_RESOURCES_TIER_2 ? TRUE : FALSE;
            options.ClearViewAlsoSupportsDepthOnlyFormats = TRUE;
            options.MapOnDefaultBuffers = FALSE;
            filled = fill(data, size, options);
            break;
        }
        case D3D11_FEATURE_D3D9_SIMPLE_INSTANCING_SUPPORT:
            filled = fill(data, size, D3D11_FEATURE_DATA_D3D9_SIMPLE_INSTANCING_SUPPORT{TRUE});
            break;
        case D3D11_FEATURE_MARKER_SUPPORT:
            filled = fill(data, size, D3D11_FEATURE_DATA_MARKER_SUPPORT{FALSE});
            break;
        case D3D11_FEATURE_D3D9_OPTIONS1:
            filled = fill(data, size, D3D11_FEATURE_DATA_D3D9_OPTIONS1{TRUE, TRUE, TRUE, TRUE});
            break;
        default:
            log_.error(call, "Feature", std::to_string(feature) + " is not a D3D11.2 feature");
            return E_INVALIDARG;
    }
    if (!filled) {
        log_.error(call, "FeatureSupportDataSize",
                   std::to_string(size) + " is not the size of the structure of feature " +
                       std::to_string(feature));
        return E_INVALIDARG;
    }
    return S_OK;
}

HRESULT Device::SetExceptionMode(UINT flags) {
    if (flags & ~UINT{D3D11_RAISE_FLAG_DRIVER_INTERNAL_ERROR}) {
        log_.error("ID3D11Device::SetExceptionMode", "RaiseFlags",
                   hex(flags) + " has unknown bits");
        return E_INVALIDARG;
    }
    exception_mode_ = flags;
    return S_OK;
}

HRESULT Device::OpenSharedResource(HANDLE, REFIID, void** resource) {
    if (resource) *resource = nullptr;
    log_.error("ID3D11Device::OpenSharedResource", "hResource",
               "resource sharing between devices is not supported on Linux");
    return E_NOTIMPL;
}

HRESULT Device::OpenSharedResource1(HANDLE, REFIID, void** resource) {
    if (resource) *resource = nullptr;
    log_.error("ID3D11Device1::OpenSharedResource1", "hResource",
               "resource sharing between devices is not supported on Linux");
    return E_NOTIMPL;
}

HRESULT Device::OpenSharedResourceByName(LPCWSTR, DWORD, REFIID, void** resource) {
    if (resource) *resource = nullptr;
    log_.error("ID3D11Device1::OpenSharedResourceByName", "lpName",
               "resource sharing between devices is not supported on Linux");
    return E_NOTIMPL;
}

void Device::GetResourceTiling(ID3D11Resource* resource, UINT* total_tiles,
                               D3D11_PACKED_MIP_DESC* packed, D3D11_TILE_SHAPE* shape,
                               UINT* subresource_count, UINT first_subresource,
                               D3D11_SUBRESOURCE_TILING* subresources) {
    Resource* target = to_resource(resource);
    const tiles::ResourceTiling* tiling = target && target->tiling ? &*target->tiling : nullptr;
    if (!tiling) {
        // Not a tiled resource: every answer is zero.
        if (resource) {
            log_.warning("ID3D11Device2::GetResourceTiling", "pTiledResource",
                         "is not a tiled resource; every answer is 0");
        }
        if (total_tiles) *total_tiles = 0;
        if (packed) *packed = {};
        if (shape) *shape = {};
        if (subresource_count) *subresource_count = 0;
        return;
    }
    if (total_tiles) *total_tiles = tiling->total_tiles;
    if (packed) *packed = tiling->packed;
    if (shape) *shape = tiling->shape;
    if (subresource_count) {
        const auto available = static_cast<UINT>(tiling->subresources.size());
        const UINT count = first_subresource >= available
                               ? 0
                               : std::min(*subresource_count, available - first_subresource);
        if (subresources) {
            for (UINT i = 0; i < count; ++i) {
                subresources[i] = tiling->subresources[first_subresource + i];
            }
        }
        *subresource_count = count;
    }
}

// State cache

StateBase* Device::find_or_add_state(const std::string& key,
                                     const std::function<StateBase*()>& make) {
    std::lock_guard lock(cache_mutex_);
    auto it = state_cache_.find(key);
    // An entry whose object is on its way out is replaced; its destroy()
    // then leaves the new entry alone.
    if (it != state_cache_.end() && it->second->try_add_ref()) return it->second;
    StateBase* created = make();
    state_cache_[key] = created;
    return created;
}

void Device::forget_state(StateBase& state) {
    std::lock_guard lock(cache_mutex_);
    auto it = state_cache_.find(state.key());
    if (it != state_cache_.end() && it->second == &state) state_cache_.erase(it);
}

void StateBase::destroy() {
    device().forget_state(*this);
    delete this;
}

// IDXGIObject / IDXGIDevice2

HRESULT Device::GetParent(REFIID riid, void** parent) {
    return adapter_->QueryInterface(riid, parent);
}

HRESULT Device::GetAdapter(IDXGIAdapter** adapter) {
    if (!adapter) return E_INVALIDARG;
    adapter_->add_ref();
    *adapter = adapter_.get();
    return S_OK;
}

HRESULT Device::CreateSurface(const DXGI_SURFACE_DESC*, UINT, DXGI_USAGE,
                              const DXGI_SHARED_RESOURCE*, IDXGISurface** surface) {
    if (surface) *surface = nullptr;
    log_.error("IDXGIDevice::CreateSurface", "",
               "not implemented; create a Texture2D and query IDXGISurface from it");
    return E_NOTIMPL;
}

HRESULT Device::QueryResourceResidency(IUnknown* const* resources, DXGI_RESIDENCY* status,
                                       UINT count) {
    const char* call = "IDXGIDevice::QueryResourceResidency";
    if (!resources || !status) {
        log_.error(call, !resources ? "ppResources" : "pResidencyStatus", "is NULL");
        return E_INVALIDARG;
    }
    for (UINT i = 0; i < count; ++i) {
        Object* object = object_of(resources[i]);
        if (!object || !is_resource_kind(object->kind())) {
            log_.error(call, "ppResources[" + std::to_string(i) + "]",
                       "is not a resource of this runtime");
            return E_INVALIDARG;
        }
        status[i] = DXGI_RESIDENCY_FULLY_RESIDENT;  // CPU memory is always resident
    }
    return S_OK;
}

HRESULT Device::SetGPUThreadPriority(INT priority) {
    if (priority < -7 || priority > 7) {
        log_.error("IDXGIDevice::SetGPUThreadPriority", "Priority",
                   std::to_string(priority) + " is outside -7..7");
        return E_INVALIDARG;
    }
    gpu_thread_priority_ = priority;
    return S_OK;
}

HRESULT Device::GetGPUThreadPriority(INT* priority) {
    if (!priority) return E_INVALIDARG;
    *priority = gpu_thread_priority_;
    return S_OK;
}

HRESULT Device::SetMaximumFrameLatency(UINT latency) {
    if (latency > DXGI_MAX_SWAP_CHAIN_BUFFERS) {
        log_.error("IDXGIDevice1::SetMaximumFrameLatency", "MaxLatency",
                   std::to_string(latency) + " is more than 16");
        return E_INVALIDARG;
    }
    maximum_frame_latency_ = latency == 0 ? 3 : latency;  // 0 restores the default
    return S_OK;
}

HRESULT Device::GetMaximumFrameLatency(UINT* latency) {
    if (!latency) return E_INVALIDARG;
    *latency = maximum_frame_latency_;
    return S_OK;
}

}  // namespace d3dcap::runtime::d3d11
