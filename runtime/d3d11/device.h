// ID3D11Device2 and IDXGIDevice2: object creation with validation, feature
// queries, the tile model and the backend every context uses.
#pragma once

#include <d3d11_2.h>
#include <dxgi1_2.h>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "runtime/backend/backend.h"
#include "runtime/com.h"
#include "runtime/d3d11/context.h"
#include "runtime/d3d11/device_context_state.h"
#include "runtime/d3d11/resource.h"
#include "runtime/d3d11/state_objects.h"
#include "runtime/d3d11/view.h"
#include "runtime/messages.h"
#include "runtime/tiles/tile_state.h"

namespace d3dcap::runtime::dxgi {
class Adapter;
}  // namespace d3dcap::runtime::dxgi

namespace d3dcap::runtime::d3d11 {

class Device final : public ComObject<Object, ID3D11Device2, IDXGIDevice2> {
  public:
    Device(std::unique_ptr<backend::Backend> backend, D3D_DRIVER_TYPE driver_type,
           D3D_FEATURE_LEVEL feature_level, UINT creation_flags, dxgi::Adapter& adapter);
    ~Device() override;

    void* find_interface(REFIID riid) override;

    // What contexts and children use.
    MessageLog& log() { return log_; }
    backend::Backend& backend() { return *backend_; }
    tiles::TileState& tiles() { return tiles_; }
    // Guards the backend and the tile model (device methods are free-threaded)
    // with the backend's own per-call mutex where it has one, so that a call
    // takes one lock; holds nothing for a device created with
    // D3D11_CREATE_DEVICE_SINGLETHREADED, or called from one thread only.
    std::unique_lock<std::recursive_mutex> lock() {
        return single_threaded_ ? std::unique_lock(*mutex_, std::defer_lock)
                                : std::unique_lock(*mutex_);
    }
    // Every call to the device and its contexts comes from one thread from
    // now on: no lock per call (deferred contexts stay allowed).
    void calls_from_one_thread() {
        single_threaded_ = true;
        backend_->set_single_threaded();
    }
    Context& immediate() { return *immediate_; }
    D3D_FEATURE_LEVEL feature_level() const { return feature_level_; }
    D3D_DRIVER_TYPE driver_type() const { return driver_type_; }
    dxgi::Adapter& adapter() { return *adapter_; }
    UINT uav_slots() const {
        return feature_level_ >= D3D_FEATURE_LEVEL_11_1 ? D3D11_1_UAV_SLOT_COUNT
                                                        : D3D11_PS_CS_UAV_REGISTER_COUNT;
    }
    // The state object a state-cache entry names is going away.
    void forget_state(StateBase& state);
    // A Texture2D for a swap chain's back buffer (the same checks as
    // CreateTexture2D, reported under `call`).
    HRESULT create_texture2d(const char* call, const D3D11_TEXTURE2D_DESC& desc,
                             Ref<Texture2D>& texture);
    // SwapDeviceContextState: saves the immediate state into the active
    // state object and loads `next` (never null).
    Ref<DeviceContextState> swap_context_state(DeviceContextState& next);
    // Frees what a resource holds in the backend and the tile model.
    void release_resource(Resource& resource);

    // ID3D11Device
    HRESULT STDMETHODCALLTYPE CreateBuffer(const D3D11_BUFFER_DESC* desc,
                                           const D3D11_SUBRESOURCE_DATA* initial,
                                           ID3D11Buffer** buffer) override;
    HRESULT STDMETHODCALLTYPE CreateTexture1D(const D3D11_TEXTURE1D_DESC* desc,
                                              const D3D11_SUBRESOURCE_DATA* initial,
                                              ID3D11Texture1D** texture) override;
    HRESULT STDMETHODCALLTYPE CreateTexture2D(const D3D11_TEXTURE2D_DESC* desc,
                                              const D3D11_SUBRESOURCE_DATA* initial,
                                              ID3D11Texture2D** texture) override;
    HRESULT STDMETHODCALLTYPE CreateTexture3D(const D3D11_TEXTURE3D_DESC* desc,
                                              const D3D11_SUBRESOURCE_DATA* initial,
                                              ID3D11Texture3D** texture) override;
    HRESULT STDMETHODCALLTYPE CreateShaderResourceView(ID3D11Resource* resource,
                                                       const D3D11_SHADER_RESOURCE_VIEW_DESC* desc,
                                                       ID3D11ShaderResourceView** view) override;
    HRESULT STDMETHODCALLTYPE CreateUnorderedAccessView(
        ID3D11Resource* resource, const D3D11_UNORDERED_ACCESS_VIEW_DESC* desc,
        ID3D11UnorderedAccessView** view) override;
    HRESULT STDMETHODCALLTYPE CreateRenderTargetView(ID3D11Resource* resource,
                                                     const D3D11_RENDER_TARGET_VIEW_DESC* desc,
                                                     ID3D11RenderTargetView** view) override;
    HRESULT STDMETHODCALLTYPE CreateDepthStencilView(ID3D11Resource* resource,
                                                     const D3D11_DEPTH_STENCIL_VIEW_DESC* desc,
                                                     ID3D11DepthStencilView** view) override;
    HRESULT STDMETHODCALLTYPE CreateInputLayout(const D3D11_INPUT_ELEMENT_DESC* elements,
                                                UINT count, const void* bytecode, SIZE_T length,
                                                ID3D11InputLayout** layout) override;
    HRESULT STDMETHODCALLTYPE CreateVertexShader(const void* bytecode, SIZE_T length,
                                                 ID3D11ClassLinkage* linkage,
                                                 ID3D11VertexShader** shader) override;
    HRESULT STDMETHODCALLTYPE CreateGeometryShader(const void* bytecode, SIZE_T length,
                                                   ID3D11ClassLinkage* linkage,
                                                   ID3D11GeometryShader** shader) override;
    HRESULT STDMETHODCALLTYPE CreateGeometryShaderWithStreamOutput(
        const void* bytecode, SIZE_T length, const D3D11_SO_DECLARATION_ENTRY* entries,
        UINT entry_count, const UINT* strides, UINT stride_count, UINT rasterized_stream,
        ID3D11ClassLinkage* linkage, ID3D11GeometryShader** shader) override;
    HRESULT STDMETHODCALLTYPE CreatePixelShader(const void* bytecode, SIZE_T length,
                                                ID3D11ClassLinkage* linkage,
                                                ID3D11PixelShader** shader) override;
    HRESULT STDMETHODCALLTYPE CreateHullShader(const void* bytecode, SIZE_T length,
                                               ID3D11ClassLinkage* linkage,
                                               ID3D11HullShader** shader) override;
    HRESULT STDMETHODCALLTYPE CreateDomainShader(const void* bytecode, SIZE_T length,
                                                 ID3D11ClassLinkage* linkage,
                                                 ID3D11DomainShader** shader) override;
    HRESULT STDMETHODCALLTYPE CreateComputeShader(const void* bytecode, SIZE_T length,
                                                  ID3D11ClassLinkage* linkage,
                                                  ID3D11ComputeShader** shader) override;
    HRESULT STDMETHODCALLTYPE CreateClassLinkage(ID3D11ClassLinkage** linkage) override;
    HRESULT STDMETHODCALLTYPE CreateBlendState(const D3D11_BLEND_DESC* desc,
                                               ID3D11BlendState** state) override;
    HRESULT STDMETHODCALLTYPE CreateDepthStencilState(const D3D11_DEPTH_STENCIL_DESC* desc,
                                                      ID3D11DepthStencilState** state) override;
    HRESULT STDMETHODCALLTYPE CreateRasterizerState(const D3D11_RASTERIZER_DESC* desc,
                                                    ID3D11RasterizerState** state) override;
    HRESULT STDMETHODCALLTYPE CreateSamplerState(const D3D11_SAMPLER_DESC* desc,
                                                 ID3D11SamplerState** state) override;
    HRESULT STDMETHODCALLTYPE CreateQuery(const D3D11_QUERY_DESC* desc,
                                          ID3D11Query** query) override;
    HRESULT STDMETHODCALLTYPE CreatePredicate(const D3D11_QUERY_DESC* desc,
                                              ID3D11Predicate** predicate) override;
    HRESULT STDMETHODCALLTYPE CreateCounter(const D3D11_COUNTER_DESC* desc,
                                            ID3D11Counter** counter) override;
    HRESULT STDMETHODCALLTYPE CreateDeferredContext(UINT flags,
                                                    ID3D11DeviceContext** context) override;
    HRESULT STDMETHODCALLTYPE OpenSharedResource(HANDLE handle, REFIID riid,
                                                 void** resource) override;
    HRESULT STDMETHODCALLTYPE CheckFormatSupport(DXGI_FORMAT format, UINT* support) override;
    HRESULT STDMETHODCALLTYPE CheckMultisampleQualityLevels(DXGI_FORMAT format, UINT samples,
                                                            UINT* levels) override;
    void STDMETHODCALLTYPE CheckCounterInfo(D3D11_COUNTER_INFO* info) override;
    HRESULT STDMETHODCALLTYPE CheckCounter(const D3D11_COUNTER_DESC* desc, D3D11_COUNTER_TYPE* type,
                                           UINT* active, char* name, UINT* name_length, char* units,
                                           UINT* units_length, char* description,
                                           UINT* description_length) override;
    HRESULT STDMETHODCALLTYPE CheckFeatureSupport(D3D11_FEATURE feature, void* data,
                                                  UINT size) override;
    D3D_FEATURE_LEVEL STDMETHODCALLTYPE GetFeatureLevel() override { return feature_level_; }
    UINT STDMETHODCALLTYPE GetCreationFlags() override { return creation_flags_; }
    HRESULT STDMETHODCALLTYPE GetDeviceRemovedReason() override { return S_OK; }
    void STDMETHODCALLTYPE GetImmediateContext(ID3D11DeviceContext** context) override;
    HRESULT STDMETHODCALLTYPE SetExceptionMode(UINT flags) override;
    UINT STDMETHODCALLTYPE GetExceptionMode() override { return exception_mode_; }

    // ID3D11Device1
    void STDMETHODCALLTYPE GetImmediateContext1(ID3D11DeviceContext1** context) override;
    HRESULT STDMETHODCALLTYPE CreateDeferredContext1(UINT flags,
                                                     ID3D11DeviceContext1** context) override;
    HRESULT STDMETHODCALLTYPE CreateBlendState1(const D3D11_BLEND_DESC1* desc,
                                                ID3D11BlendState1** state) override;
    HRESULT STDMETHODCALLTYPE CreateRasterizerState1(const D3D11_RASTERIZER_DESC1* desc,
                                                     ID3D11RasterizerState1** state) override;
    HRESULT STDMETHODCALLTYPE CreateDeviceContextState(UINT flags, const D3D_FEATURE_LEVEL* levels,
                                                       UINT level_count, UINT sdk_version,
                                                       REFIID emulated_interface,
                                                       D3D_FEATURE_LEVEL* chosen,
                                                       ID3DDeviceContextState** state) override;
    HRESULT STDMETHODCALLTYPE OpenSharedResource1(HANDLE handle, REFIID riid,
                                                  void** resource) override;
    HRESULT STDMETHODCALLTYPE OpenSharedResourceByName(LPCWSTR name, DWORD access, REFIID riid,
                                                       void** resource) override;

    // ID3D11Device2
    void STDMETHODCALLTYPE GetImmediateContext2(ID3D11DeviceContext2** context) override;
    HRESULT STDMETHODCALLTYPE CreateDeferredContext2(UINT flags,
                                                     ID3D11DeviceContext2** context) override;
    void STDMETHODCALLTYPE GetResourceTiling(ID3D11Resource* resource, UINT* total_tiles,
                                             D3D11_PACKED_MIP_DESC* packed, D3D11_TILE_SHAPE* shape,
                                             UINT* subresource_count, UINT first_subresource,
                                             D3D11_SUBRESOURCE_TILING* subresources) override;
    HRESULT STDMETHODCALLTYPE CheckMultisampleQualityLevels1(DXGI_FORMAT format, UINT samples,
                                                             UINT flags, UINT* levels) override;

    // IDXGIObject / IDXGIDevice / IDXGIDevice1 / IDXGIDevice2
    HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void** parent) override;
    HRESULT STDMETHODCALLTYPE GetAdapter(IDXGIAdapter** adapter) override;
    HRESULT STDMETHODCALLTYPE CreateSurface(const DXGI_SURFACE_DESC* desc, UINT count,
                                            DXGI_USAGE usage, const DXGI_SHARED_RESOURCE* shared,
                                            IDXGISurface** surface) override;
    HRESULT STDMETHODCALLTYPE QueryResourceResidency(IUnknown* const* resources,
                                                     DXGI_RESIDENCY* status, UINT count) override;
    HRESULT STDMETHODCALLTYPE SetGPUThreadPriority(INT priority) override;
    HRESULT STDMETHODCALLTYPE GetGPUThreadPriority(INT* priority) override;
    HRESULT STDMETHODCALLTYPE SetMaximumFrameLatency(UINT latency) override;
    HRESULT STDMETHODCALLTYPE GetMaximumFrameLatency(UINT* latency) override;
    HRESULT STDMETHODCALLTYPE OfferResources(UINT count, IDXGIResource* const* resources,
                                             DXGI_OFFER_RESOURCE_PRIORITY priority) override;
    HRESULT STDMETHODCALLTYPE ReclaimResources(UINT count, IDXGIResource* const* resources,
                                               BOOL* discarded) override;
    // Linux: hEvent is an eventfd file descriptor cast to a pointer,
    // (HANDLE)(intptr_t)fd. Work finishes at once on the CPU devices, so the
    // call writes 1 to the eventfd before it returns.
    HRESULT STDMETHODCALLTYPE EnqueueSetEvent(HANDLE event) override;

  private:
    void on_public_release() override;
    // The common path of the four Create*Resource methods.
    // Registers a validated resource with the tile model and the backend;
    // *created gets it with one public reference.
    template <class T, class Desc>
    HRESULT create_resource(const char* call, const backend::ResourceInfo& info, const Desc& desc,
                            const D3D11_SUBRESOURCE_DATA* initial,
                            std::optional<tiles::ResourceTiling> tiling, T** created);
    // E_INVALIDARG, saying why, when the device's tiled-resources tier cannot
    // hold a tiled resource or tile pool of this kind. Checked before a
    // Create* with a NULL output returns S_FALSE, so that validating gives
    // the answer creating would.
    HRESULT check_tier(const char* call, const backend::ResourceInfo& info);
    // The common path of the four Create*View methods.
    template <class View, class Desc, class Interface>
    HRESULT create_view(const char* call, ID3D11Resource* resource, const Desc* desc,
                        Interface** view, UINT bind_flag, const char* bind_name,
                        bool (*make_default)(MessageLog&, const char*, const Resource&, Desc&),
                        bool (*check)(MessageLog&, const char*, const Resource&, Desc&,
                                      backend::ViewInfo&));
    // The cached state with this key (AddRef'd), else a new one from make().
    StateBase* find_or_add_state(const std::string& key, const std::function<StateBase*()>& make);
    // The common end of the Create*State methods: S_FALSE without an out
    // pointer, else the cached or new state of this kind for normalized.
    template <class State, class Desc, class Interface>
    HRESULT add_state(char kind, const Desc& normalized, Interface** state);
    // CreateBlendState1 and CreateRasterizerState1: a NULL desc, then make()
    // validates and normalizes it for add_state.
    template <class State, class Desc, class Interface>
    HRESULT create_state(const char* call, const char* parameter, const Desc* desc,
                         HRESULT (*make)(MessageLog&, const char*, const Desc&, Desc&), char kind,
                         Interface** state);
    template <class T>
    HRESULT create_deferred_context(const char* call, UINT flags, T** context);

    std::recursive_mutex own_mutex_;
    std::recursive_mutex* mutex_ = &own_mutex_;  // the backend's where it has one
    bool single_threaded_ = false;
    MessageLog log_;
    std::unique_ptr<backend::Backend> backend_;
    tiles::TileState tiles_;
    D3D_DRIVER_TYPE driver_type_;
    D3D_FEATURE_LEVEL feature_level_;
    UINT creation_flags_;
    Ref<dxgi::Adapter> adapter_;
    std::unique_ptr<Context> immediate_;
    Ref<DeviceContextState> default_context_state_;
    Ref<DeviceContextState> active_context_state_;

    std::mutex cache_mutex_;
    std::unordered_map<std::string, StateBase*> state_cache_;

    UINT exception_mode_ = 0;
    INT gpu_thread_priority_ = 0;
    UINT maximum_frame_latency_ = 3;
};

inline Device& device_of(ID3D11Device* device) {
    return *static_cast<Device*>(device);
}

}  // namespace d3dcap::runtime::d3d11
