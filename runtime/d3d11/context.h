// ID3D11DeviceContext2: the immediate context and deferred contexts.
//
// Every Set/Get pair works on a ContextState. The immediate context does
// work at once (through the device's backend); a deferred context keeps its
// own state and records closures, for work and for each state change (a
// copy of the slots that changed), into the command list FinishCommandList
// makes.
#pragma once

#include <d3d11_2.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "runtime/d3d11/class_linkage.h"
#include "runtime/d3d11/command_list.h"
#include "runtime/d3d11/device_child.h"
#include "runtime/d3d11/input_layout.h"
#include "runtime/d3d11/query.h"
#include "runtime/d3d11/resource.h"
#include "runtime/d3d11/shader.h"
#include "runtime/d3d11/state_objects.h"
#include "runtime/d3d11/view.h"
#include "runtime/messages.h"

namespace d3dcap::runtime::d3d11 {

enum class Stage : std::uint8_t { Vertex, Hull, Domain, Geometry, Pixel, Compute };
inline constexpr int kStageCount = 6;

// An empty slot reads back as Windows reports it: FirstConstant 0,
// NumConstants 4096.
struct ConstantBufferBinding {
    Ref<Buffer> buffer;
    UINT first_constant = 0;
    UINT constant_count = D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT;
};

struct StageState {
    Ref<ShaderBase> shader;
    std::vector<Ref<ClassInstance>> class_instances;
    std::array<ConstantBufferBinding, D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT>
        constant_buffers;
    std::array<Ref<ShaderResourceView>, D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT>
        shader_resources;
    std::array<Ref<SamplerState>, D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT> samplers;
};

struct VertexBufferBinding {
    Ref<Buffer> buffer;
    UINT stride = 0;
    UINT offset = 0;
};

// Everything a context binds; a default-constructed one is the state after
// ClearState.
struct ContextState {
    std::array<StageState, kStageCount> stages;
    Ref<InputLayout> input_layout;
    std::array<VertexBufferBinding, D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT> vertex_buffers;
    Ref<Buffer> index_buffer;
    DXGI_FORMAT index_format = DXGI_FORMAT_UNKNOWN;
    UINT index_offset = 0;
    D3D11_PRIMITIVE_TOPOLOGY topology = D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED;

    std::array<Ref<RenderTargetView>, D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT> render_targets;
    Ref<DepthStencilView> depth_stencil_view;
    std::array<Ref<UnorderedAccessView>, D3D11_1_UAV_SLOT_COUNT> output_uavs;
    std::array<Ref<UnorderedAccessView>, D3D11_1_UAV_SLOT_COUNT> compute_uavs;
    Ref<BlendState> blend_state;
    std::array<FLOAT, 4> blend_factor{1.0f, 1.0f, 1.0f, 1.0f};
    UINT sample_mask = D3D11_DEFAULT_SAMPLE_MASK;
    Ref<DepthStencilState> depth_stencil_state;
    UINT stencil_ref = 0;

    Ref<RasterizerState> rasterizer_state;
    UINT viewport_count = 0;
    std::array<D3D11_VIEWPORT, D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE>
        viewports{};
    UINT scissor_count = 0;
    std::array<D3D11_RECT, D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE> scissors{};

    std::array<Ref<Buffer>, D3D11_SO_BUFFER_SLOT_COUNT> stream_output_targets;
    std::array<UINT, D3D11_SO_BUFFER_SLOT_COUNT> stream_output_offsets{};

    Ref<Query> predicate;
    BOOL predicate_value = FALSE;

    // Drops every binding of a resource (OfferResources unbinds).
    void unbind(const Resource& resource);
};

struct ContextCounters {
    std::uint64_t draws = 0;         // Draw*, including indirect and DrawAuto
    std::uint64_t dispatches = 0;    // Dispatch, DispatchIndirect
    std::uint64_t not_executed = 0;  // draws and dispatches the device did not run
};

class Context;

// ID3DUserDefinedAnnotation, a separate C++ object because its EndEvent
// returns INT where ID3D11DeviceContext2::EndEvent returns void.
class Annotation final : public ID3DUserDefinedAnnotation {
  public:
    explicit Annotation(Context& owner) : owner_(owner) {}
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override;
    ULONG STDMETHODCALLTYPE AddRef() override;
    ULONG STDMETHODCALLTYPE Release() override;
    INT STDMETHODCALLTYPE BeginEvent(LPCWSTR name) override;
    INT STDMETHODCALLTYPE EndEvent() override;
    void STDMETHODCALLTYPE SetMarker(LPCWSTR name) override;
    BOOL STDMETHODCALLTYPE GetStatus() override { return FALSE; }

  private:
    Context& owner_;
};

// The *S* stage methods (VS, HS, DS, GS, PS, CS) of ID3D11DeviceContext(1).
#define D3DCAP_STAGE_METHODS(P, ShaderInterface)                                                   \
    void STDMETHODCALLTYPE P##SetConstantBuffers(UINT start, UINT count,                           \
                                                 ID3D11Buffer* const* buffers) override;           \
    void STDMETHODCALLTYPE P##GetConstantBuffers(UINT start, UINT count, ID3D11Buffer** buffers)   \
        override;                                                                                  \
    void STDMETHODCALLTYPE P##SetConstantBuffers1(UINT start, UINT count,                          \
                                                  ID3D11Buffer* const* buffers, const UINT* first, \
                                                  const UINT* counts) override;                    \
    void STDMETHODCALLTYPE P##GetConstantBuffers1(UINT start, UINT count, ID3D11Buffer** buffers,  \
                                                  UINT* first, UINT* counts) override;             \
    void STDMETHODCALLTYPE P##SetShaderResources(UINT start, UINT count,                           \
                                                 ID3D11ShaderResourceView* const* views) override; \
    void STDMETHODCALLTYPE P##GetShaderResources(UINT start, UINT count,                           \
                                                 ID3D11ShaderResourceView** views) override;       \
    void STDMETHODCALLTYPE P##SetSamplers(UINT start, UINT count,                                  \
                                          ID3D11SamplerState* const* samplers) override;           \
    void STDMETHODCALLTYPE P##GetSamplers(UINT start, UINT count, ID3D11SamplerState** samplers)   \
        override;                                                                                  \
    void STDMETHODCALLTYPE P##SetShader(                                                           \
        ShaderInterface* shader, ID3D11ClassInstance* const* instances, UINT count) override;      \
    void STDMETHODCALLTYPE P##GetShader(ShaderInterface** shader, ID3D11ClassInstance** instances, \
                                        UINT* count) override;

class Context final : public ChildObject<DeviceChildBase, ID3D11DeviceContext2> {
  public:
    // The immediate context is part of the device and shares its count.
    Context(Device& device, bool deferred, UINT flags);
    ~Context() override;

    void* find_interface(REFIID riid) override;
    ULONG STDMETHODCALLTYPE AddRef() override;
    ULONG STDMETHODCALLTYPE Release() override;

    bool deferred() const { return deferred_; }
    const ContextCounters& counters() const { return counters_; }
    // For writers from outside (context-state objects, unbinding): the
    // next draw gathers everything again.
    ContextState& state() {
        all_parts_changed();
        return state_;
    }
    // The state after ClearState (also used when the device lets go of it).
    void clear_state();
    // Runs a command list's closures with the rules of ExecuteCommandList.
    void execute(CommandList& list, bool restore_state);

    D3DCAP_STAGE_METHODS(VS, ID3D11VertexShader)
    D3DCAP_STAGE_METHODS(HS, ID3D11HullShader)
    D3DCAP_STAGE_METHODS(DS, ID3D11DomainShader)
    D3DCAP_STAGE_METHODS(GS, ID3D11GeometryShader)
    D3DCAP_STAGE_METHODS(PS, ID3D11PixelShader)
    D3DCAP_STAGE_METHODS(CS, ID3D11ComputeShader)

    // Input assembler, output merger, rasterizer, stream output
    void STDMETHODCALLTYPE IASetInputLayout(ID3D11InputLayout* layout) override;
    void STDMETHODCALLTYPE IAGetInputLayout(ID3D11InputLayout** layout) override;
    void STDMETHODCALLTYPE IASetVertexBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers,
                                              const UINT* strides, const UINT* offsets) override;
    void STDMETHODCALLTYPE IAGetVertexBuffers(UINT start, UINT count, ID3D11Buffer** buffers,
                                              UINT* strides, UINT* offsets) override;
    void STDMETHODCALLTYPE IASetIndexBuffer(ID3D11Buffer* buffer, DXGI_FORMAT format,
                                            UINT offset) override;
    void STDMETHODCALLTYPE IAGetIndexBuffer(ID3D11Buffer** buffer, DXGI_FORMAT* format,
                                            UINT* offset) override;
    void STDMETHODCALLTYPE IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY topology) override;
    void STDMETHODCALLTYPE IAGetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY* topology) override;
    void STDMETHODCALLTYPE OMSetRenderTargets(UINT count, ID3D11RenderTargetView* const* views,
                                              ID3D11DepthStencilView* depth) override;
    void STDMETHODCALLTYPE OMGetRenderTargets(UINT count, ID3D11RenderTargetView** views,
                                              ID3D11DepthStencilView** depth) override;
    void STDMETHODCALLTYPE OMSetRenderTargetsAndUnorderedAccessViews(
        UINT rtv_count, ID3D11RenderTargetView* const* rtvs, ID3D11DepthStencilView* depth,
        UINT uav_start, UINT uav_count, ID3D11UnorderedAccessView* const* uavs,
        const UINT* initial_counts) override;
    void STDMETHODCALLTYPE OMGetRenderTargetsAndUnorderedAccessViews(
        UINT rtv_count, ID3D11RenderTargetView** rtvs, ID3D11DepthStencilView** depth,
        UINT uav_start, UINT uav_count, ID3D11UnorderedAccessView** uavs) override;
    void STDMETHODCALLTYPE OMSetBlendState(ID3D11BlendState* state, const FLOAT factor[4],
                                           UINT sample_mask) override;
    void STDMETHODCALLTYPE OMGetBlendState(ID3D11BlendState** state, FLOAT factor[4],
                                           UINT* sample_mask) override;
    void STDMETHODCALLTYPE OMSetDepthStencilState(ID3D11DepthStencilState* state,
                                                  UINT stencil_ref) override;
    void STDMETHODCALLTYPE OMGetDepthStencilState(ID3D11DepthStencilState** state,
                                                  UINT* stencil_ref) override;
    void STDMETHODCALLTYPE CSSetUnorderedAccessViews(UINT start, UINT count,
                                                     ID3D11UnorderedAccessView* const* views,
                                                     const UINT* initial_counts) override;
    void STDMETHODCALLTYPE CSGetUnorderedAccessViews(UINT start, UINT count,
                                                     ID3D11UnorderedAccessView** views) override;
    void STDMETHODCALLTYPE RSSetState(ID3D11RasterizerState* state) override;
    void STDMETHODCALLTYPE RSGetState(ID3D11RasterizerState** state) override;
    void STDMETHODCALLTYPE RSSetViewports(UINT count, const D3D11_VIEWPORT* viewports) override;
    void STDMETHODCALLTYPE RSGetViewports(UINT* count, D3D11_VIEWPORT* viewports) override;
    void STDMETHODCALLTYPE RSSetScissorRects(UINT count, const D3D11_RECT* rects) override;
    void STDMETHODCALLTYPE RSGetScissorRects(UINT* count, D3D11_RECT* rects) override;
    void STDMETHODCALLTYPE SOSetTargets(UINT count, ID3D11Buffer* const* buffers,
                                        const UINT* offsets) override;
    void STDMETHODCALLTYPE SOGetTargets(UINT count, ID3D11Buffer** buffers) override;
    void STDMETHODCALLTYPE SetPredication(ID3D11Predicate* predicate, BOOL value) override;
    void STDMETHODCALLTYPE GetPredication(ID3D11Predicate** predicate, BOOL* value) override;
    void STDMETHODCALLTYPE ClearState() override;

    // Draws and dispatches (validated and counted)
    void STDMETHODCALLTYPE Draw(UINT vertex_count, UINT start_vertex) override;
    void STDMETHODCALLTYPE DrawIndexed(UINT index_count, UINT start_index,
                                       INT base_vertex) override;
    void STDMETHODCALLTYPE DrawInstanced(UINT vertex_count, UINT instance_count, UINT start_vertex,
                                         UINT start_instance) override;
    void STDMETHODCALLTYPE DrawIndexedInstanced(UINT index_count, UINT instance_count,
                                                UINT start_index, INT base_vertex,
                                                UINT start_instance) override;
    void STDMETHODCALLTYPE DrawAuto() override;
    void STDMETHODCALLTYPE DrawIndexedInstancedIndirect(ID3D11Buffer* args, UINT offset) override;
    void STDMETHODCALLTYPE DrawInstancedIndirect(ID3D11Buffer* args, UINT offset) override;
    void STDMETHODCALLTYPE Dispatch(UINT x, UINT y, UINT z) override;
    void STDMETHODCALLTYPE DispatchIndirect(ID3D11Buffer* args, UINT offset) override;

    // Queries
    void STDMETHODCALLTYPE Begin(ID3D11Asynchronous* async) override;
    void STDMETHODCALLTYPE End(ID3D11Asynchronous* async) override;
    HRESULT STDMETHODCALLTYPE GetData(ID3D11Asynchronous* async, void* data, UINT size,
                                      UINT flags) override;

    // Data
    HRESULT STDMETHODCALLTYPE Map(ID3D11Resource* resource, UINT subresource, D3D11_MAP type,
                                  UINT flags, D3D11_MAPPED_SUBRESOURCE* mapped) override;
    void STDMETHODCALLTYPE Unmap(ID3D11Resource* resource, UINT subresource) override;
    void STDMETHODCALLTYPE CopySubresourceRegion(ID3D11Resource* dst, UINT dst_subresource, UINT x,
                                                 UINT y, UINT z, ID3D11Resource* src,
                                                 UINT src_subresource,
                                                 const D3D11_BOX* box) override;
    void STDMETHODCALLTYPE CopySubresourceRegion1(ID3D11Resource* dst, UINT dst_subresource, UINT x,
                                                  UINT y, UINT z, ID3D11Resource* src,
                                                  UINT src_subresource, const D3D11_BOX* box,
                                                  UINT flags) override;
    void STDMETHODCALLTYPE CopyResource(ID3D11Resource* dst, ID3D11Resource* src) override;
    void STDMETHODCALLTYPE UpdateSubresource(ID3D11Resource* dst, UINT subresource,
                                             const D3D11_BOX* box, const void* data, UINT row_pitch,
                                             UINT depth_pitch) override;
    void STDMETHODCALLTYPE UpdateSubresource1(ID3D11Resource* dst, UINT subresource,
                                              const D3D11_BOX* box, const void* data,
                                              UINT row_pitch, UINT depth_pitch,
                                              UINT flags) override;
    void STDMETHODCALLTYPE CopyStructureCount(ID3D11Buffer* dst, UINT offset,
                                              ID3D11UnorderedAccessView* view) override;
    void STDMETHODCALLTYPE ClearRenderTargetView(ID3D11RenderTargetView* view,
                                                 const FLOAT color[4]) override;
    void STDMETHODCALLTYPE ClearUnorderedAccessViewUint(ID3D11UnorderedAccessView* view,
                                                        const UINT values[4]) override;
    void STDMETHODCALLTYPE ClearUnorderedAccessViewFloat(ID3D11UnorderedAccessView* view,
                                                         const FLOAT values[4]) override;
    void STDMETHODCALLTYPE ClearDepthStencilView(ID3D11DepthStencilView* view, UINT flags,
                                                 FLOAT depth, UINT8 stencil) override;
    void STDMETHODCALLTYPE ClearView(ID3D11View* view, const FLOAT color[4],
                                     const D3D11_RECT* rects, UINT rect_count) override;
    void STDMETHODCALLTYPE GenerateMips(ID3D11ShaderResourceView* view) override;
    void STDMETHODCALLTYPE SetResourceMinLOD(ID3D11Resource* resource, FLOAT min_lod) override;
    FLOAT STDMETHODCALLTYPE GetResourceMinLOD(ID3D11Resource* resource) override;
    void STDMETHODCALLTYPE ResolveSubresource(ID3D11Resource* dst, UINT dst_subresource,
                                              ID3D11Resource* src, UINT src_subresource,
                                              DXGI_FORMAT format) override;
    void STDMETHODCALLTYPE DiscardResource(ID3D11Resource* resource) override;
    void STDMETHODCALLTYPE DiscardView(ID3D11View* view) override;
    void STDMETHODCALLTYPE DiscardView1(ID3D11View* view, const D3D11_RECT* rects,
                                        UINT rect_count) override;

    // Command lists, flushing, context state objects
    void STDMETHODCALLTYPE ExecuteCommandList(ID3D11CommandList* list, BOOL restore) override;
    HRESULT STDMETHODCALLTYPE FinishCommandList(BOOL restore, ID3D11CommandList** list) override;
    void STDMETHODCALLTYPE Flush() override;
    D3D11_DEVICE_CONTEXT_TYPE STDMETHODCALLTYPE GetType() override;
    UINT STDMETHODCALLTYPE GetContextFlags() override { return flags_; }
    void STDMETHODCALLTYPE SwapDeviceContextState(ID3DDeviceContextState* state,
                                                  ID3DDeviceContextState** previous) override;

    // Tiled resources (ID3D11DeviceContext2)
    HRESULT STDMETHODCALLTYPE UpdateTileMappings(ID3D11Resource* resource, UINT region_count,
                                                 const D3D11_TILED_RESOURCE_COORDINATE* starts,
                                                 const D3D11_TILE_REGION_SIZE* sizes,
                                                 ID3D11Buffer* pool, UINT range_count,
                                                 const UINT* range_flags, const UINT* pool_offsets,
                                                 const UINT* range_tile_counts,
                                                 UINT flags) override;
    HRESULT STDMETHODCALLTYPE CopyTileMappings(ID3D11Resource* dst,
                                               const D3D11_TILED_RESOURCE_COORDINATE* dst_start,
                                               ID3D11Resource* src,
                                               const D3D11_TILED_RESOURCE_COORDINATE* src_start,
                                               const D3D11_TILE_REGION_SIZE* size,
                                               UINT flags) override;
    void STDMETHODCALLTYPE CopyTiles(ID3D11Resource* resource,
                                     const D3D11_TILED_RESOURCE_COORDINATE* start,
                                     const D3D11_TILE_REGION_SIZE* size, ID3D11Buffer* buffer,
                                     UINT64 buffer_offset, UINT flags) override;
    void STDMETHODCALLTYPE UpdateTiles(ID3D11Resource* resource,
                                       const D3D11_TILED_RESOURCE_COORDINATE* start,
                                       const D3D11_TILE_REGION_SIZE* size, const void* data,
                                       UINT flags) override;
    HRESULT STDMETHODCALLTYPE ResizeTilePool(ID3D11Buffer* pool, UINT64 new_size) override;
    void STDMETHODCALLTYPE TiledResourceBarrier(ID3D11DeviceChild* before,
                                                ID3D11DeviceChild* after) override;

    // Markers
    BOOL STDMETHODCALLTYPE IsAnnotationEnabled() override { return FALSE; }
    void STDMETHODCALLTYPE SetMarkerInt(LPCWSTR label, INT data) override;
    void STDMETHODCALLTYPE BeginEventInt(LPCWSTR label, INT data) override;
    void STDMETHODCALLTYPE EndEvent() override;

  private:
    friend class Annotation;
    MessageLog& log() const;
    // Call names for messages.
    static const char* stage_prefix(Stage stage);
    UINT uav_slots() const;

    void set_constant_buffers(Stage stage, const char* call, UINT start, UINT count,
                              ID3D11Buffer* const* buffers, const UINT* first, const UINT* counts);
    void get_constant_buffers(Stage stage, const char* call, UINT start, UINT count,
                              ID3D11Buffer** buffers, UINT* first, UINT* counts);
    void set_shader_resources(Stage stage, const char* call, UINT start, UINT count,
                              ID3D11ShaderResourceView* const* views);
    void get_shader_resources(Stage stage, const char* call, UINT start, UINT count,
                              ID3D11ShaderResourceView** views);
    void set_samplers(Stage stage, const char* call, UINT start, UINT count,
                      ID3D11SamplerState* const* samplers);
    void get_samplers(Stage stage, const char* call, UINT start, UINT count,
                      ID3D11SamplerState** samplers);
    void set_shader(Stage stage, const char* call, ShaderBase* shader,
                    ID3D11ClassInstance* const* instances, UINT count);
    ShaderBase* get_shader(Stage stage, ID3D11ClassInstance** instances, UINT* count);
    void set_uavs(bool compute, UINT start, UINT count, ID3D11UnorderedAccessView* const* views,
                  const UINT* initial_counts, bool unbind_outside);
    void set_uav_counter(UnorderedAccessView& view, UINT value);

    // Deferred recording. State changes are recorded as closures that copy
    // the changed part of this context's state into the executing context.
    void record(Command command) { commands_.push_back(std::move(command)); }
    template <class Select>
    void record_slots(Select select, UINT start, UINT count);
    bool check_draw_args(const char* call, ID3D11Buffer* args, UINT offset, UINT size);
    // What a stage runs with now, and a dispatch of the bound compute shader.
    // What the bound state gives a dispatch's or draw's stage (the parts
    // named, unshifted kStage*Part bits), and a draw, written into `work`
    // (whose vectors keep their memory between draws).
    void stage_work(Stage stage, backend::StageWork& work, std::uint32_t parts,
                    std::uint16_t constant_slots = kAllConstantSlots) const;
    void draw_work(backend::DrawWork& work);
    // A graphics stage's part (unshifted) changed: draw_work writes only
    // the parts of draw_scratch_ that changed (dirty_, DrawPart bits).
    void stage_changed(Stage stage, std::uint32_t part) {
        if (stage == Stage::Compute) return;
        dirty_ |= part << static_cast<int>(stage);
        if (stage == Stage::Geometry && part == backend::kStageShaderPart)
            dirty_ |= backend::kStreamOutputPart;
    }
    void all_parts_changed() {
        dirty_ = backend::kAllDrawParts;
        changed_constant_slots_.fill(kAllConstantSlots);
    }
    void run_dispatch(const char* call, backend::DispatchSize groups);
    // Counts a draw; an immediate context runs it on the device.
    // Counts work the device did not execute and marks what it would have
    // written (Resource::unexecuted_content).
    void not_executed(bool compute);
    void run_draw(const char* call, const backend::DrawArguments& arguments);
    void count_draw() { ++counters_.draws; }
    bool predicated(backend::GpuPredicate* gpu = nullptr) const;

    void copy_region(const char* call, ID3D11Resource* dst, UINT dst_subresource, UINT x, UINT y,
                     UINT z, ID3D11Resource* src, UINT src_subresource, const D3D11_BOX* box,
                     UINT flags, bool allow_same_subresource);
    void update_subresource(const char* call, ID3D11Resource* dst, UINT subresource,
                            const D3D11_BOX* box, const void* data, UINT row_pitch,
                            UINT depth_pitch, UINT flags);
    HRESULT map_deferred(Resource& resource, UINT subresource, D3D11_MAP type,
                         D3D11_MAPPED_SUBRESOURCE* mapped);
    void unmap_deferred(Resource& resource, UINT subresource);
    void discard(const char* call, View* view, const D3D11_RECT* rects, UINT rect_count);

    bool deferred_;
    UINT flags_;
    Annotation annotation_{*this};
    ContextState state_;
    ContextCounters counters_;
    backend::DrawWork draw_scratch_;  // the last draw's work, its vectors reused
    std::uint32_t dirty_ = backend::kAllDrawParts;
    // Per graphics stage, the constant-buffer slots whose windows draw_work
    // writes again (bit per slot), beside the stage's constants part.
    static constexpr std::uint16_t kAllConstantSlots = 0xffff;
    std::array<std::uint16_t, 5> changed_constant_slots_ = {kAllConstantSlots, kAllConstantSlots,
                                                            kAllConstantSlots, kAllConstantSlots,
                                                            kAllConstantSlots};
    // Occlusion queries between their Begin and End (not state: ClearState keeps them).
    std::vector<Ref<Query>> running_occlusion_;
    std::vector<Ref<Query>> running_statistics_;     // PIPELINE_STATISTICS likewise
    std::vector<Ref<Query>> running_stream_output_;  // SO_STATISTICS and SO_OVERFLOW_*
    std::uint64_t counting_epoch_ = 0;               // bumped as the running queries change
    // Adds what a draw or dispatch counted to the queries running.
    void count_results(const backend::WorkResults& results);
    int event_depth_ = 0;
    // Counts nesting; the immediate context's labels go to the backend.
    enum class LabelKind { Begin, End, Marker };
    void label(LabelKind kind, LPCWSTR name);

    // Deferred contexts only.
    std::vector<Command> commands_;
    struct DeferredMapping {
        std::shared_ptr<std::vector<std::uint8_t>> bytes;
        UINT row_pitch = 0, depth_pitch = 0;
        D3D11_MAP type{};
        bool mapped = false;
    };
    std::map<std::pair<ObjectId, UINT>, DeferredMapping> deferred_maps_;
};

#undef D3DCAP_STAGE_METHODS

}  // namespace d3dcap::runtime::d3d11
