// The device children: resources, views, states, shaders, queries, command
// lists and context-state objects. Each is a COM class built from
// ComObject<Base, Interfaces...>; Base carries the data the contexts use.
#pragma once

#include <d3d11_2.h>
#include <dxgi1_2.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/backend.h"
#include "runtime/com.h"
#include "runtime/tiles/tiling.h"

namespace d3dcap::runtime {

class Device;
class Context;
struct ContextState;

// Gives out the device's ID3D11Device with a public reference.
void hand_out_device(Device& device, ID3D11Device** out);

// An object created by a device; it keeps the device alive (an internal
// reference, so the device's public count is the app's alone).
class DeviceChildBase : public Object {
  public:
    DeviceChildBase(ObjectKind kind, Device& device, bool hold_device = true);
    ~DeviceChildBase() override;
    Device& device() const { return *device_; }

  private:
    Device* device_;
    bool holds_device_;
};

template <class Base, class... Interfaces>
class ChildObject : public ComObject<Base, Interfaces...> {
  public:
    using ComObject<Base, Interfaces...>::ComObject;
    void STDMETHODCALLTYPE GetDevice(ID3D11Device** out) { hand_out_device(this->device(), out); }
};

class Resource;

// The DXGI face of a resource (IDXGIResource1, and IDXGISurface2 for
// Texture2D). A separate C++ object because IDXGIResource and
// ID3D11Resource declare SetEvictionPriority with different return types.
class DxgiResource final : public IDXGISurface2, public IDXGIResource1 {
  public:
    explicit DxgiResource(Resource& owner) : owner_(owner) {}

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
    Resource& owner_;
};

// What every Buffer and Texture shares.
class Resource : public DeviceChildBase {
  public:
    Resource(ObjectKind kind, Device& device, const ResourceInfo& info);
    ~Resource() override;

    const ResourceInfo& info() const { return info_; }
    virtual ID3D11Resource* d3d() = 0;
    DxgiResource& dxgi() { return dxgi_; }

    // Set once the backend (and for tiled resources the tile model) holds it.
    void mark_created() { created_ = true; }
    std::optional<tiles::ResourceTiling> tiling;  // tiled resources only
    // A flip-model swap chain's back buffer: DXGI lets its UNORM format be
    // viewed as the matching UNORM_SRGB one (how programs render in sRGB).
    bool srgb_views = false;

    // Map state per subresource (0 = not mapped), owned by the immediate context.
    D3D11_MAP mapped(std::uint32_t subresource) const {
        return subresource < mapped_.size() ? static_cast<D3D11_MAP>(mapped_[subresource])
                                            : D3D11_MAP{};
    }
    void set_mapped(std::uint32_t subresource, D3D11_MAP type) {
        if (mapped_.size() < info_.subresource_count()) mapped_.resize(info_.subresource_count());
        mapped_[subresource] = static_cast<std::uint8_t>(type);
    }
    bool any_mapped() const;

    std::atomic<UINT> eviction_priority{DXGI_RESOURCE_PRIORITY_NORMAL};
    std::atomic<bool> offered{false};
    float min_lod = 0.0f;
    // Mip size of a subresource in texels (1 for buffers beyond x).
    std::uint32_t mip_width(std::uint32_t mip) const;
    std::uint32_t mip_height(std::uint32_t mip) const;
    std::uint32_t mip_depth(std::uint32_t mip) const;

    // ResizeTilePool changes a pool's size.
    void set_byte_width(std::uint64_t byte_width) { info_.byte_width = byte_width; }

  private:
    ResourceInfo info_;
    DxgiResource dxgi_{*this};
    std::vector<std::uint8_t> mapped_;
    bool created_ = false;
};

template <class Interface, class Desc, D3D11_RESOURCE_DIMENSION Dimension, ObjectKind Kind>
class ResourceObject final : public ChildObject<Resource, Interface> {
  public:
    ResourceObject(Device& device, const ResourceInfo& info, const Desc& desc)
        : ChildObject<Resource, Interface>(Kind, device, info), desc_(desc) {}

    ID3D11Resource* d3d() override { return static_cast<Interface*>(this); }
    void* find_interface(REFIID riid) override {
        if (iid_is<Interface, ID3D11Resource, ID3D11DeviceChild, IUnknown>(riid)) {
            return static_cast<Interface*>(this);
        }
        return this->dxgi().find(riid);
    }
    void STDMETHODCALLTYPE GetType(D3D11_RESOURCE_DIMENSION* dimension) override {
        if (dimension) *dimension = Dimension;
    }
    void STDMETHODCALLTYPE SetEvictionPriority(UINT priority) override {
        this->eviction_priority = priority;
    }
    UINT STDMETHODCALLTYPE GetEvictionPriority() override { return this->eviction_priority; }
    void STDMETHODCALLTYPE GetDesc(Desc* desc) override {
        if (desc) *desc = desc_;
    }
    const Desc& desc() const { return desc_; }
    Desc& mutable_desc() { return desc_; }

  private:
    Desc desc_;
};

using Buffer = ResourceObject<ID3D11Buffer, D3D11_BUFFER_DESC, D3D11_RESOURCE_DIMENSION_BUFFER,
                              ObjectKind::Buffer>;
using Texture1D = ResourceObject<ID3D11Texture1D, D3D11_TEXTURE1D_DESC,
                                 D3D11_RESOURCE_DIMENSION_TEXTURE1D, ObjectKind::Texture1D>;
using Texture2D = ResourceObject<ID3D11Texture2D, D3D11_TEXTURE2D_DESC,
                                 D3D11_RESOURCE_DIMENSION_TEXTURE2D, ObjectKind::Texture2D>;
using Texture3D = ResourceObject<ID3D11Texture3D, D3D11_TEXTURE3D_DESC,
                                 D3D11_RESOURCE_DIMENSION_TEXTURE3D, ObjectKind::Texture3D>;

// Our Resource behind an ID3D11Resource of this runtime (nullptr for NULL).
Resource* to_resource(ID3D11Resource* resource);
inline Buffer* to_buffer(ID3D11Buffer* buffer) {
    return static_cast<Buffer*>(buffer);
}
bool is_resource_kind(ObjectKind kind);

// Views

class View : public DeviceChildBase {
  public:
    View(ObjectKind kind, Device& device, Resource& resource, const ViewInfo& info)
        : DeviceChildBase(kind, device), resource_(&resource), info_(info) {}
    ~View() override;
    Resource& resource() const { return *resource_; }
    const ViewInfo& info() const { return info_; }
    virtual ID3D11View* d3d_view() = 0;
    std::uint32_t structure_counter = 0;  // UAV hidden counter (append/consume)

  private:
    Ref<Resource> resource_;
    ViewInfo info_;
};

template <class Interface, class Desc, ObjectKind Kind>
class ViewObject final : public ChildObject<View, Interface> {
  public:
    ViewObject(Device& device, Resource& resource, const ViewInfo& info, const Desc& desc)
        : ChildObject<View, Interface>(Kind, device, resource, info), desc_(desc) {}
    void* find_interface(REFIID riid) override {
        if (iid_is<Interface, ID3D11View, ID3D11DeviceChild, IUnknown>(riid)) {
            return static_cast<Interface*>(this);
        }
        return nullptr;
    }
    ID3D11View* d3d_view() override { return static_cast<Interface*>(this); }
    void STDMETHODCALLTYPE GetResource(ID3D11Resource** out) override {
        if (!out) return;
        this->resource().add_ref();
        *out = this->resource().d3d();
    }
    void STDMETHODCALLTYPE GetDesc(Desc* desc) override {
        if (desc) *desc = desc_;
    }
    const Desc& desc() const { return desc_; }

  private:
    Desc desc_;
};

using ShaderResourceView = ViewObject<ID3D11ShaderResourceView, D3D11_SHADER_RESOURCE_VIEW_DESC,
                                      ObjectKind::ShaderResourceView>;
using RenderTargetView =
    ViewObject<ID3D11RenderTargetView, D3D11_RENDER_TARGET_VIEW_DESC, ObjectKind::RenderTargetView>;
using DepthStencilView =
    ViewObject<ID3D11DepthStencilView, D3D11_DEPTH_STENCIL_VIEW_DESC, ObjectKind::DepthStencilView>;
using UnorderedAccessView = ViewObject<ID3D11UnorderedAccessView, D3D11_UNORDERED_ACCESS_VIEW_DESC,
                                       ObjectKind::UnorderedAccessView>;
// Buffer UAVs with APPEND or COUNTER have a hidden counter.
bool has_hidden_counter(const UnorderedAccessView& view);

// Our View behind any ID3D11View / view interface of this runtime.
View* to_view(IUnknown* view);

// State objects, de-duplicated per device by their (normalized) desc.

class StateBase : public DeviceChildBase {
  public:
    StateBase(ObjectKind kind, Device& device, std::string key)
        : DeviceChildBase(kind, device), key_(std::move(key)) {}
    const std::string& key() const { return key_; }

  protected:
    void destroy() override;  // leaves the device's cache first

  private:
    std::string key_;
};

class BlendState final : public ChildObject<StateBase, ID3D11BlendState1> {
  public:
    BlendState(Device& device, std::string key, const D3D11_BLEND_DESC1& desc)
        : ChildObject(ObjectKind::BlendState, device, std::move(key)), desc_(desc) {}
    void* find_interface(REFIID riid) override;
    void STDMETHODCALLTYPE GetDesc(D3D11_BLEND_DESC* desc) override;
    void STDMETHODCALLTYPE GetDesc1(D3D11_BLEND_DESC1* desc) override {
        if (desc) *desc = desc_;
    }

    const D3D11_BLEND_DESC1& desc() const { return desc_; }

  private:
    D3D11_BLEND_DESC1 desc_;
};

class RasterizerState final : public ChildObject<StateBase, ID3D11RasterizerState1> {
  public:
    RasterizerState(Device& device, std::string key, const D3D11_RASTERIZER_DESC1& desc)
        : ChildObject(ObjectKind::RasterizerState, device, std::move(key)), desc_(desc) {}
    void* find_interface(REFIID riid) override;
    void STDMETHODCALLTYPE GetDesc(D3D11_RASTERIZER_DESC* desc) override;
    void STDMETHODCALLTYPE GetDesc1(D3D11_RASTERIZER_DESC1* desc) override {
        if (desc) *desc = desc_;
    }

    const D3D11_RASTERIZER_DESC1& desc() const { return desc_; }

  private:
    D3D11_RASTERIZER_DESC1 desc_;
};

class DepthStencilState final : public ChildObject<StateBase, ID3D11DepthStencilState> {
  public:
    DepthStencilState(Device& device, std::string key, const D3D11_DEPTH_STENCIL_DESC& desc)
        : ChildObject(ObjectKind::DepthStencilState, device, std::move(key)), desc_(desc) {}
    void* find_interface(REFIID riid) override;
    void STDMETHODCALLTYPE GetDesc(D3D11_DEPTH_STENCIL_DESC* desc) override {
        if (desc) *desc = desc_;
    }

    const D3D11_DEPTH_STENCIL_DESC& desc() const { return desc_; }

  private:
    D3D11_DEPTH_STENCIL_DESC desc_;
};

class SamplerState final : public ChildObject<StateBase, ID3D11SamplerState> {
  public:
    SamplerState(Device& device, std::string key, const D3D11_SAMPLER_DESC& desc)
        : ChildObject(ObjectKind::SamplerState, device, std::move(key)), desc_(desc) {}
    void* find_interface(REFIID riid) override;
    void STDMETHODCALLTYPE GetDesc(D3D11_SAMPLER_DESC* desc) override {
        if (desc) *desc = desc_;
    }
    const D3D11_SAMPLER_DESC& desc() const { return desc_; }

  private:
    D3D11_SAMPLER_DESC desc_;
};

// Shaders keep a copy of their bytecode, which devices that execute shaders
// translate when the shader is created and at each draw or dispatch.
class ShaderBase : public DeviceChildBase {
  public:
    ShaderBase(ObjectKind kind, Device& device, const void* bytecode, SIZE_T length)
        : DeviceChildBase(kind, device),
          bytecode_(static_cast<const std::uint8_t*>(bytecode),
                    static_cast<const std::uint8_t*>(bytecode) + length) {}
    const std::vector<std::uint8_t>& bytecode() const { return bytecode_; }
    // CreateGeometryShaderWithStreamOutput: the declaration, its semantic
    // names kept here (a copy of the caller's).
    const StreamOutputDeclaration& stream_output() const { return stream_output_; }
    void keep_stream_output(const StreamOutputDeclaration& declaration) {
        stream_output_ = declaration;
        stream_output_names_.clear();
        for (const D3D11_SO_DECLARATION_ENTRY& entry : declaration.entries)
            stream_output_names_.emplace_back(entry.SemanticName ? entry.SemanticName : "");
        for (std::size_t i = 0; i < stream_output_.entries.size(); ++i)
            if (stream_output_.entries[i].SemanticName)
                stream_output_.entries[i].SemanticName = stream_output_names_[i].c_str();
    }

  private:
    std::vector<std::uint8_t> bytecode_;
    StreamOutputDeclaration stream_output_;
    std::vector<std::string> stream_output_names_;
};

template <class Interface, ObjectKind Kind>
class ShaderObject final : public ChildObject<ShaderBase, Interface> {
  public:
    ShaderObject(Device& device, const void* bytecode, SIZE_T length)
        : ChildObject<ShaderBase, Interface>(Kind, device, bytecode, length) {}
    void* find_interface(REFIID riid) override {
        if (iid_is<Interface, ID3D11DeviceChild, IUnknown>(riid)) {
            return static_cast<Interface*>(this);
        }
        return nullptr;
    }
};

using VertexShader = ShaderObject<ID3D11VertexShader, ObjectKind::VertexShader>;
using HullShader = ShaderObject<ID3D11HullShader, ObjectKind::HullShader>;
using DomainShader = ShaderObject<ID3D11DomainShader, ObjectKind::DomainShader>;
using GeometryShader = ShaderObject<ID3D11GeometryShader, ObjectKind::GeometryShader>;
using PixelShader = ShaderObject<ID3D11PixelShader, ObjectKind::PixelShader>;
using ComputeShader = ShaderObject<ID3D11ComputeShader, ObjectKind::ComputeShader>;

class InputLayout final : public ChildObject<DeviceChildBase, ID3D11InputLayout> {
  public:
    InputLayout(Device& device, const D3D11_INPUT_ELEMENT_DESC* elements, UINT count);
    void* find_interface(REFIID riid) override;
    const std::vector<D3D11_INPUT_ELEMENT_DESC>& elements() const { return elements_; }

  private:
    std::vector<std::string> names_;
    std::vector<D3D11_INPUT_ELEMENT_DESC> elements_;
};

class ClassLinkage;

class ClassInstance final : public ChildObject<DeviceChildBase, ID3D11ClassInstance> {
  public:
    ClassInstance(Device& device, ClassLinkage& linkage, std::string type_name,
                  const D3D11_CLASS_INSTANCE_DESC& desc);
    void* find_interface(REFIID riid) override;
    void STDMETHODCALLTYPE GetClassLinkage(ID3D11ClassLinkage** linkage) override;
    void STDMETHODCALLTYPE GetDesc(D3D11_CLASS_INSTANCE_DESC* desc) override {
        if (desc) *desc = desc_;
    }
    void STDMETHODCALLTYPE GetInstanceName(char* name, SIZE_T* length) override;
    void STDMETHODCALLTYPE GetTypeName(char* name, SIZE_T* length) override;

  private:
    Ref<ClassLinkage> linkage_;
    std::string type_name_;
    D3D11_CLASS_INSTANCE_DESC desc_;
};

class ClassLinkage final : public ChildObject<DeviceChildBase, ID3D11ClassLinkage> {
  public:
    explicit ClassLinkage(Device& device) : ChildObject(ObjectKind::ClassLinkage, device) {}
    void* find_interface(REFIID riid) override;
    HRESULT STDMETHODCALLTYPE GetClassInstance(LPCSTR name, UINT index,
                                               ID3D11ClassInstance** instance) override;
    HRESULT STDMETHODCALLTYPE CreateClassInstance(LPCSTR type_name, UINT constant_buffer_offset,
                                                  UINT constant_vector_offset, UINT texture_offset,
                                                  UINT sampler_offset,
                                                  ID3D11ClassInstance** instance) override;

  private:
    UINT next_instance_id_ = 0;
};

// A draw's or dispatch's counts still in the device's command stream (a
// ticket of its backend), shared by the queries that ran around it; the
// device forgets them with the last of those queries.
class PendingResults {
  public:
    PendingResults(Backend& backend, std::uint64_t ticket) : backend_(backend), ticket_(ticket) {}
    ~PendingResults() { backend_.forget_results(ticket_); }
    PendingResults(const PendingResults&) = delete;
    PendingResults& operator=(const PendingResults&) = delete;
    // The counts (zero when the device was lost), waiting for the work the
    // first time; without wait, null while it is not done.
    const WorkResults* values(bool wait);
    std::uint64_t ticket() const { return ticket_; }

  private:
    Backend& backend_;
    std::uint64_t ticket_;
    std::optional<WorkResults> values_;
};

// Queries and predicates. The CPU devices count at each call; the GPU
// counts in the command stream, added in when the result is asked for.
class Query final : public ChildObject<DeviceChildBase, ID3D11Predicate> {
  public:
    Query(Device& device, const D3D11_QUERY_DESC& desc)
        : ChildObject(ObjectKind::Query, device), desc_(desc) {}
    ~Query() override;
    void* find_interface(REFIID riid) override;
    UINT STDMETHODCALLTYPE GetDataSize() override;
    void STDMETHODCALLTYPE GetDesc(D3D11_QUERY_DESC* desc) override {
        if (desc) *desc = desc_;
    }
    const D3D11_QUERY_DESC& desc() const { return desc_; }
    bool needs_begin() const {
        return desc_.Query != D3D11_QUERY_EVENT && desc_.Query != D3D11_QUERY_TIMESTAMP;
    }
    static UINT data_size(D3D11_QUERY query);

    enum class State { Idle, Building, Issued };
    State state = State::Idle;
    std::uint64_t timestamp = 0;                        // TIMESTAMP: the device's clock at End
    std::uint64_t frequency = 1000000000ull;            // TIMESTAMP_DISJOINT: its ticks per second
    std::uint64_t samples_passed = 0;                   // OCCLUSION(_PREDICATE): since Begin
    D3D11_QUERY_DATA_PIPELINE_STATISTICS statistics{};  // PIPELINE_STATISTICS: since Begin
    // SO_STATISTICS(_STREAMn), SO_OVERFLOW_PREDICATE(_STREAMn): per stream
    // since Begin.
    std::array<D3D11_QUERY_DATA_SO_STATISTICS, D3D11_SO_STREAM_COUNT> stream_output{};
    bool occlusion() const {
        return desc_.Query == D3D11_QUERY_OCCLUSION ||
               desc_.Query == D3D11_QUERY_OCCLUSION_PREDICATE;
    }
    bool counts_stream_output() const {
        return desc_.Query == D3D11_QUERY_SO_STATISTICS ||
               desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE ||
               (desc_.Query >= D3D11_QUERY_SO_STATISTICS_STREAM0 &&
                desc_.Query <= D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3);
    }
    // What a stream-output query reports: its stream's counts (all streams
    // summed for the queries without a stream) and whether they overflowed.
    D3D11_QUERY_DATA_SO_STATISTICS stream_output_counts() const;
    bool stream_output_overflowed() const;
    // What one draw or dispatch counted, added to what this query counts
    // (a TIMESTAMP query: its time); counts still on the device are added
    // when settle() is called (waits).
    void add(const WorkResults& results);
    void add_later(std::shared_ptr<PendingResults> pending);
    void settle() { settle_pending(true); }
    // Begin: counting starts again from zero.
    void restart();
    // A predicate's result (whether samples passed, whether stream output
    // overflowed) where it is known without waiting for the device: all
    // its counts in, or enough of them to decide.
    std::optional<bool> known_result() const;
    // The predicate evaluated by the device in its command stream from
    // the counts still there, made once per issue (0: the device cannot).
    std::uint64_t gpu_predicate(Backend& backend);

  private:
    D3D11_QUERY_DESC desc_;
    // A query that runs for long keeps adding in the counts of finished
    // work once it holds this many, so its memory stays bounded.
    void settle_pending(bool wait);
    void forget_gpu_predicate();
    std::vector<std::shared_ptr<PendingResults>> pending_;
    std::uint64_t gpu_predicate_ = 0;
    Backend* gpu_predicate_backend_ = nullptr;
    std::size_t settle_at_ = kSettleAfter;
    static constexpr std::size_t kSettleAfter = 1024;
};

// A deferred context's recording: closures run against the executing context.
using Command = std::function<void(Context&)>;

class CommandList final : public ChildObject<DeviceChildBase, ID3D11CommandList> {
  public:
    CommandList(Device& device, UINT context_flags, std::vector<Command> commands)
        : ChildObject(ObjectKind::CommandList, device),
          context_flags_(context_flags),
          commands_(std::move(commands)) {}
    void* find_interface(REFIID riid) override;
    UINT STDMETHODCALLTYPE GetContextFlags() override { return context_flags_; }
    const std::vector<Command>& commands() const { return commands_; }

  private:
    UINT context_flags_;
    std::vector<Command> commands_;
};

// ID3DDeviceContextState: a saved immediate-context state.
class DeviceContextState final : public ChildObject<DeviceChildBase, ID3DDeviceContextState> {
  public:
    DeviceContextState(Device& device, D3D_FEATURE_LEVEL level, const IID& emulated);
    ~DeviceContextState() override;
    void* find_interface(REFIID riid) override;
    ContextState& state() { return *state_; }
    D3D_FEATURE_LEVEL feature_level() const { return level_; }

  private:
    std::unique_ptr<ContextState> state_;
    D3D_FEATURE_LEVEL level_;
    IID emulated_;
};

}  // namespace d3dcap::runtime
