// What a device does with data. The object model (device, contexts,
// resources, views) validates every call and keeps all state; then it asks
// the backend to do the data work. The reference device keeps texels in
// 64 KiB tiles on the CPU; the state-only (NULL driver type) device does
// nothing; the Vulkan device runs it on a GPU.
#pragma once

#include <d3d11_2.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/backend/input_element.h"
#include "runtime/backend/work_timing.h"
#include "runtime/formats/element_window.h"
#include "runtime/tiles/tile_state.h"

namespace d3dcap::runtime::backend {

using ObjectId = tiles::ObjectId;

// A resource as the backend sees it (from its desc).
struct ResourceInfo {
    ObjectId id = 0;
    D3D11_RESOURCE_DIMENSION dimension = D3D11_RESOURCE_DIMENSION_UNKNOWN;
    std::uint64_t byte_width = 0;  // buffers
    std::uint32_t structure_stride = 0;
    std::uint32_t width = 0, height = 1, depth = 1;
    std::uint32_t mip_levels = 1;
    std::uint32_t array_size = 1;
    DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;
    std::uint32_t sample_count = 1;
    D3D11_USAGE usage = D3D11_USAGE_DEFAULT;
    std::uint32_t bind_flags = 0, cpu_access_flags = 0, misc_flags = 0;

    bool tiled() const { return misc_flags & D3D11_RESOURCE_MISC_TILED; }
    bool tile_pool() const { return misc_flags & D3D11_RESOURCE_MISC_TILE_POOL; }
    std::uint32_t subresource_count() const { return mip_levels * array_size; }
};

// A GPU adapter as DXGI describes it.
struct AdapterIdentity {
    std::string name;
    std::uint32_t vendor_id = 0, device_id = 0;  // PCI ids
    std::uint64_t dedicated_video_memory = 0;
    std::uint8_t luid[8] = {};
    bool software = false;          // a CPU implementation (lavapipe)
    bool sparse_residency = false;  // tiled resources bound by the GPU itself
};

// The part of a resource a view selects.
struct ViewInfo {
    ObjectId resource = 0;
    DXGI_FORMAT format =
        DXGI_FORMAT_UNKNOWN;  // the view's format (may differ from a typeless resource's)
    std::uint32_t first_mip = 0, mip_count = 1;
    std::uint32_t first_slice = 0, slice_count = 1;      // for 3D: first W slice and W size
    std::uint64_t first_element = 0, element_count = 0;  // buffer views
};

// A constant buffer's window: bytes [offset, offset + size) of a buffer
// (16 x FirstConstant and 16 x NumConstants, clamped to the buffer).
struct ConstantBufferWindow {
    ObjectId buffer = 0;
    std::uint64_t offset = 0, size = 0;
};

// What one shader stage runs with at a draw or dispatch: its bytecode and
// the bound slots (resources and UAVs by slot; unbound slots are absent).
struct StageWork {
    std::span<const std::uint8_t> bytecode;  // empty: no shader bound
    ObjectId shader = 0;                     // the shader object's id (ids are never reused)
    std::array<ConstantBufferWindow, D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT>
        constant_buffers{};
    std::vector<std::pair<std::uint32_t, ViewInfo>> resources, uavs;
    std::vector<std::pair<std::uint32_t, D3D11_SAMPLER_DESC>> samplers;
    // The bound UAVs' views by slot: the device keeps their hidden counters
    // (set_uav_counter), which the work starts from and leaves its own in.
    std::vector<std::pair<std::uint32_t, ObjectId>> uav_counters;
};

// A predicate the device evaluates in the command stream (gpu_predicate):
// the work is skipped when its value equals `skip_when`.
struct GpuPredicate {
    std::uint64_t id = 0;  // 0: none
    bool skip_when = false;
};

// The thread groups of a dispatch: x * y * z, or (indirect) the three UINTs
// at `offset` in buffer `arguments`.
struct DispatchSize {
    std::uint32_t x = 0, y = 0, z = 0;
    ObjectId arguments = 0;
    std::uint64_t offset = 0;
    bool count_statistics = false;  // a pipeline-statistics query is running
    GpuPredicate predicate{};
};

struct VertexBufferSlot {
    ObjectId buffer = 0;  // 0: nothing bound
    std::uint32_t stride = 0, offset = 0;
};

// A geometry shader's stream-output declaration
// (CreateGeometryShaderWithStreamOutput; it and its semantic names live in
// the shader object, which outlives any call that passes them).
struct StreamOutputDeclaration {
    std::vector<D3D11_SO_DECLARATION_ENTRY> entries;                  // empty: no stream output
    std::array<std::uint32_t, D3D11_SO_BUFFER_SLOT_COUNT> strides{};  // 0: packed entries
    std::uint32_t rasterized_stream = 0;  // D3D11_SO_NO_RASTERIZED_STREAM: none
};

// Stream output at a draw: the declaration and the SOSetTargets buffers.
struct StreamOutputWork {
    const StreamOutputDeclaration* declaration = nullptr;  // the bound geometry shader's
    std::array<ObjectId, D3D11_SO_BUFFER_SLOT_COUNT> targets{};
    // Where this draw starts writing each target: the offset SOSetTargets
    // gave, or kAppend (after what the buffer's earlier stream output wrote).
    static constexpr std::uint32_t kAppend = 0xffffffffu;
    std::array<std::uint32_t, D3D11_SO_BUFFER_SLOT_COUNT> offsets{};
    bool active() const { return declaration != nullptr; }
};

// The parts of a DrawWork, as bits of DrawWork::changed. The stage bits
// are shifted left by the stage's index (vertex 0 ... pixel 4).
enum DrawPart : std::uint32_t {
    kStageShaderPart = 1u << 0,     // << stage: the shader it runs
    kStageConstantsPart = 1u << 5,  // << stage: its constant-buffer windows
    kStageViewsPart = 1u << 10,     // << stage: its shader resources and samplers
    kInputLayoutPart = 1u << 15,    // the input layout and the topology
    kVertexBuffersPart = 1u << 16,  // the vertex and index buffers
    kRasterizerPart = 1u << 17,     // the rasterizer state
    kViewportsPart = 1u << 18,      // viewports and scissor rectangles
    kBlendPart = 1u << 19,          // the blend state and the sample mask
    kBlendFactorPart = 1u << 20,
    kDepthStencilPart = 1u << 21,  // the depth-stencil state
    kStencilRefPart = 1u << 22,
    kOutputPart = 1u << 23,        // render targets, the depth-stencil view, the pixel UAVs
    kStreamOutputPart = 1u << 24,  // targets, offsets, the declaration
    kAllDrawParts = (1u << 25) - 1,
};
constexpr std::uint32_t kStageShaderParts = 0x1fu * kStageShaderPart;
constexpr std::uint32_t kStageConstantsParts = 0x1fu * kStageConstantsPart;
constexpr std::uint32_t stage_parts(int stage) {
    return (kStageShaderPart | kStageConstantsPart | kStageViewsPart) << stage;
}

// Everything a draw runs with, the output merger's and rasterizer's states
// filled with D3D11's defaults where none is bound.
struct DrawWork {
    // The parts that changed since the draw before that was given this
    // DrawWork; a device may keep what it made from the others. A DrawWork
    // filled anew says all.
    std::uint32_t changed = kAllDrawParts;
    std::array<StageWork, 5> stages;             // vertex, hull, domain, geometry, pixel
    std::span<const InputElement> input_layout;  // the bound input layout's, for the call
    std::array<VertexBufferSlot, D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT> vertex_buffers{};
    ObjectId index_buffer = 0;
    DXGI_FORMAT index_format = DXGI_FORMAT_UNKNOWN;
    std::uint32_t index_offset = 0;
    D3D11_PRIMITIVE_TOPOLOGY topology = D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED;
    D3D11_RASTERIZER_DESC1 rasterizer{};
    D3D11_BLEND_DESC1 blend{};
    std::array<float, 4> blend_factor{1, 1, 1, 1};
    std::uint32_t sample_mask = 0xffffffff;
    D3D11_DEPTH_STENCIL_DESC depth_stencil{};
    std::uint32_t stencil_ref = 0;
    std::vector<D3D11_VIEWPORT> viewports;
    std::vector<D3D11_RECT> scissors;
    std::vector<std::pair<std::uint32_t, ViewInfo>> render_targets;  // by slot
    std::optional<ViewInfo> depth_stencil_view;
    StreamOutputWork stream_output;
    // Queries are running: count the samples that pass, the pipeline's work,
    // the primitives streamed out.
    bool count_samples = false;
    bool count_statistics = false;
    bool count_stream_output = false;
    // Changes whenever a query that counts begins or ends: draws with the
    // same value run inside the same queries (and may share Vulkan ones).
    std::uint64_t counting_epoch = 0;
    GpuPredicate predicate{};
};

// What a draw or dispatch counted for the queries running around it. A
// device that counts in the command stream gives a ticket instead, whose
// values read_results delivers once the work is done.
struct WorkResults {
    std::uint64_t samples_passed = 0;
    D3D11_QUERY_DATA_PIPELINE_STATISTICS statistics{};
    std::array<D3D11_QUERY_DATA_SO_STATISTICS, D3D11_SO_STREAM_COUNT> stream_output{};
    std::uint64_t timestamp = 0;  // a TIMESTAMP query's ticks
    std::uint64_t ticket = 0;     // 0: the values above are the counts
};

// A draw's vertices and instances, or (indirect) D3D11's argument structure
// at `offset` in buffer `arguments`.
struct DrawArguments {
    bool indexed = false;
    std::uint32_t count = 0, instances = 1;  // vertices or indices
    std::uint32_t start = 0;                 // first vertex or index
    std::int32_t base_vertex = 0;
    std::uint32_t start_instance = 0;
    ObjectId arguments = 0;
    std::uint64_t offset = 0;
    // DrawAuto: as many vertices as stream output wrote to the buffer in
    // vertex-buffer slot 0 (past that slot's offset, by its stride).
    bool from_stream_output = false;
};

// How a device that records GPU commands (the Vulkan device) recorded its
// work since it was made, for tests and benchmarks.
struct RecordingCounts {
    std::uint64_t render_passes = 0;    // render pass instances begun
    std::uint64_t barriers = 0;         // pipeline barriers recorded
    std::uint64_t descriptor_sets = 0;  // descriptor sets written
    std::uint64_t submissions = 0;      // command buffers submitted
};

class Backend {
  public:
    virtual ~Backend() = default;
    virtual const char* name() const = 0;

    // The tile state the device keeps, for resolving tiled resources.
    virtual void attach(const tiles::TileState* tiles) { tiles_ = tiles; }
    // The device is used from one thread only (created with
    // D3D11_CREATE_DEVICE_SINGLETHREADED): the backend need not lock.
    virtual void set_single_threaded() {}
    // The recursive mutex the backend holds during each call, for the device
    // to take as its own lock, so that a call through the device takes one
    // lock (the backend's is then taken again by its owner, which costs no
    // atomic operation); null where the backend has no such mutex.
    virtual std::recursive_mutex* call_mutex() { return nullptr; }
    // Nanoseconds the device has spent executing work so far, where it can
    // tell (the reference device: its CPU time inside the backend).
    virtual bool gpu_clock_ns(std::uint64_t* ns) const {
        (void)ns;
        return false;
    }
    // Devices that time work in the command stream (work_timing.h): the tag
    // of the work recorded from now on; the times of tagged work once it is
    // done (with wait, after waiting for all of it), returning the lowest tag
    // of work not done yet (UINT64_MAX: none).
    virtual bool times_tagged_work() const { return false; }
    virtual RecordingCounts recording_counts() { return {}; }
    virtual void tag_work(std::uint64_t tag) { (void)tag; }
    virtual void set_work_timing(WorkTiming timing) { (void)timing; }
    virtual std::uint64_t take_work_times(bool wait, std::vector<WorkTime>& out) {
        (void)wait;
        (void)out;
        return UINT64_MAX;
    }

    // What the device reports: its tiled-resources tier (the tile model
    // supports tier 3) and, for GPU devices, the adapter's name.
    virtual D3D11_TILED_RESOURCES_TIER tiled_resources_tier() const {
        return D3D11_TILED_RESOURCES_TIER_3;
    }
    // What DXGI_ADAPTER_DESC says of a GPU backend's adapter; nothing for
    // the CPU devices (the headless adapter's own values).
    virtual std::optional<AdapterIdentity> adapter_identity() const { return std::nullopt; }
    std::string adapter_name() const {
        const std::optional<AdapterIdentity> identity = adapter_identity();
        return identity ? identity->name : std::string();
    }
    // Why the tier is not 3 (e.g. "no sparseBinding"); empty at tier 3.
    virtual std::string tier_reason() const { return {}; }
    // Whether the device draws into `samples`-sample textures of `format`
    // (CheckMultisampleQualityLevels says 0 levels where it does not).
    virtual bool draws_samples(DXGI_FORMAT format, std::uint32_t samples) {
        (void)format, (void)samples;
        return true;
    }
    // True when the device applies D3D11_LOGIC_OP to UINT render targets
    // (D3D11_OPTIONS.OutputMergerLogicOp).
    virtual bool logic_ops() const { return false; }

    // Runs a compute shader over its thread groups: an empty string, or why
    // the device did not run it (it then changed nothing).
    virtual std::string dispatch(const StageWork& compute, const DispatchSize& groups,
                                 WorkResults& results) {
        (void)compute, (void)groups, (void)results;
        return std::string(name()) + " device does not execute shaders";
    }
    // Runs a draw: an empty string, or why the device did not run it (it
    // then changed nothing).
    virtual std::string draw(const DrawWork& work, const DrawArguments& arguments,
                             WorkResults& results) {
        (void)work, (void)arguments, (void)results;
        return std::string(name()) + " device does not execute shaders";
    }
    // The counts of a draw or dispatch that gave a ticket, with wait once
    // its work is done (false: the device was lost), without wait false
    // while it is not; forget_results gives the ticket back.
    virtual bool read_results(std::uint64_t ticket, bool wait, WorkResults& out) {
        (void)ticket, (void)wait, (void)out;
        return false;
    }
    virtual void forget_results(std::uint64_t ticket) { (void)ticket; }
    // SetPredication without a wait: a predicate evaluated in the command
    // stream from the counts of `tickets` (whether any samples passed; with
    // overflow, whether any stream output overflowed), for the draws and
    // dispatches it predicates; 0 where the device cannot.
    virtual std::uint64_t gpu_predicate(const std::vector<std::uint64_t>& tickets, bool overflow) {
        (void)tickets, (void)overflow;
        return 0;
    }
    virtual void forget_predicate(std::uint64_t id) { (void)id; }
    // Hidden UAV counters, on devices that execute shaders: the value an
    // initial count sets, CopyStructureCount (`value`: the runtime's own
    // copy, which devices that run no shaders write) and the view's end.
    virtual void set_uav_counter(ObjectId view, std::uint32_t value) { (void)view, (void)value; }
    virtual void copy_uav_counter(ObjectId view, std::uint32_t value, ObjectId dest,
                                  std::uint32_t offset) {
        (void)view;
        const D3D11_BOX box{offset, 0, 0, offset + 4, 1, 1};
        update_subresource(dest, 0, &box, &value, 4, 4, 0);
    }
    virtual void forget_uav_counter(ObjectId view) { (void)view; }
    // True for devices that execute shaders, whose refusals are worth a message.
    virtual bool executes_shaders() const { return false; }
    // Readies a new shader for execution (translation, with the stream
    // output a geometry shader declares): empty, or why work with it will
    // not be executed.
    virtual std::string prepare_shader(std::span<const std::uint8_t> bytecode,
                                       const StreamOutputDeclaration* stream_output = nullptr) {
        (void)bytecode, (void)stream_output;
        return {};
    }

    virtual HRESULT create_resource(const ResourceInfo& info,
                                    const D3D11_SUBRESOURCE_DATA* initial) = 0;
    virtual void destroy_resource(ObjectId resource) = 0;
    virtual void resize_tile_pool(ObjectId pool, std::uint64_t new_byte_width) = 0;
    // After UpdateTileMappings or CopyTileMappings changed the attached tile
    // state's mappings of a tiled resource (flags: D3D11_TILE_MAPPING_*).
    // Devices that resolve tiles through the tile state on access need nothing.
    virtual void tile_mappings_changed(ObjectId resource, std::uint32_t flags) {
        (void)resource;
        (void)flags;
    }
    // Annotations of the immediate context (BeginEventInt/EndEvent/SetMarkerInt
    // and ID3DUserDefinedAnnotation), for GPU debuggers and profilers.
    virtual void begin_event(const std::string& label) { (void)label; }
    virtual void end_event() {}
    virtual void set_marker(const std::string& label) { (void)label; }
    // The ticks per second of the device's own clock (TIMESTAMP_DISJOINT),
    // and a TIMESTAMP query's End: the clock written after the work so far,
    // the ticket of results whose `timestamp` holds it. False and 0 where
    // the device has no clock (the runtime then uses steady-clock
    // nanoseconds at End).
    virtual bool timestamp_frequency(std::uint64_t* frequency) {
        (void)frequency;
        return false;
    }
    virtual std::uint64_t write_timestamp() { return 0; }
    // ID3D11DeviceContext::Flush on the immediate context and Present: work
    // a device holds back (the Vulkan device's batch and sparse binds) goes
    // to the GPU now, not waited for.
    virtual void flush() {}
    // Waits until the work so far is done (GetData of an EVENT query).
    virtual void wait_for_work() {}

    virtual void copy_resource(ObjectId dest, ObjectId source) = 0;
    virtual void copy_subresource_region(ObjectId dest, std::uint32_t dest_subresource,
                                         std::uint32_t x, std::uint32_t y, std::uint32_t z,
                                         ObjectId source, std::uint32_t source_subresource,
                                         const D3D11_BOX* source_box, std::uint32_t copy_flags) = 0;
    virtual void update_subresource(ObjectId dest, std::uint32_t subresource, const D3D11_BOX* box,
                                    const void* data, std::uint32_t row_pitch,
                                    std::uint32_t depth_pitch, std::uint32_t copy_flags) = 0;
    virtual void update_tiles(ObjectId resource, const std::vector<tiles::TileRef>& tiles,
                              const void* data) = 0;
    virtual void copy_tiles(ObjectId resource, const std::vector<tiles::TileRef>& tiles,
                            ObjectId buffer, std::uint64_t buffer_offset, std::uint32_t flags) = 0;

    virtual void clear_render_target(const ViewInfo& view, const float color[4]) = 0;
    virtual void clear_depth_stencil(const ViewInfo& view, std::uint32_t flags, float depth,
                                     std::uint8_t stencil) = 0;
    virtual void clear_unordered_access_uint(const ViewInfo& view,
                                             const std::uint32_t values[4]) = 0;
    virtual void clear_unordered_access_float(const ViewInfo& view, const float values[4]) = 0;
    // ClearView: rects NULL/0 means the whole view.
    virtual void clear_view(const ViewInfo& view, const float color[4], const D3D11_RECT* rects,
                            std::uint32_t rect_count) = 0;
    virtual void generate_mips(const ViewInfo& view) = 0;
    // ResolveSubresource: averages the samples of each texel in format.
    virtual void resolve_subresource(ObjectId dest, std::uint32_t dest_subresource, ObjectId source,
                                     std::uint32_t source_subresource, DXGI_FORMAT format) = 0;
    virtual void discard(const ViewInfo& view, const D3D11_RECT* rects,
                         std::uint32_t rect_count) = 0;

    // Map of a DYNAMIC or STAGING subresource, after validation.
    virtual HRESULT map(ObjectId resource, std::uint32_t subresource, D3D11_MAP type,
                        D3D11_MAPPED_SUBRESOURCE* mapped) = 0;
    virtual void unmap(ObjectId resource, std::uint32_t subresource) = 0;

    // The subresource in a canonical linear layout (rows tightly packed,
    // slices after rows), for hashes, screenshots and tests. False when the
    // backend keeps no data.
    virtual bool read_subresource(ObjectId resource, std::uint32_t subresource,
                                  std::vector<std::uint8_t>& bytes) = 0;
    // The same bytes handed to sink piece by piece, in order, so that a large
    // subresource can be hashed without a copy of it all.
    using ByteSink = std::function<void(const std::uint8_t* bytes, std::size_t size)>;
    virtual bool read_subresource_pieces(ObjectId resource, std::uint32_t subresource,
                                         const ByteSink& sink) {
        std::vector<std::uint8_t> bytes;
        if (!read_subresource(resource, subresource, bytes)) return false;
        sink(bytes.data(), bytes.size());
        return true;
    }

    // The elements of a window of a subresource (element_window.h), packed
    // as read_subresource packs whole rows. False when the device reads whole
    // subresources only (the caller then crops read_subresource), keeps no
    // data, or the window leaves the subresource.
    virtual bool read_subresource_window(ObjectId resource, std::uint32_t subresource,
                                         const formats::ElementWindow& window,
                                         std::vector<std::uint8_t>& bytes) {
        (void)resource;
        (void)subresource;
        (void)window;
        (void)bytes;
        return false;
    }

    // IDXGIDevice2::OfferResources / ReclaimResources.
    virtual void offer(ObjectId resource) = 0;
    virtual bool reclaim(ObjectId resource) = 0;  // true when the contents were discarded

  protected:
    const tiles::TileState* tiles_ = nullptr;
};

std::unique_ptr<Backend> make_reference_backend();
std::unique_ptr<Backend> make_null_backend();
// The Vulkan device on the default adapter (the first discrete GPU, or
// D3DCAP_GPU), or on the first CPU adapter (lavapipe: what WARP is here);
// null with a message in error when there is none it can run on.
enum class VulkanAdapter : std::uint8_t { Default, Cpu };
std::unique_ptr<Backend> make_vulkan_backend(std::string& error,
                                             VulkanAdapter adapter = VulkanAdapter::Default);
// Times every call of inner as the device's GPU clock (gpu_clock_ns).
std::unique_ptr<Backend> make_timed_backend(std::unique_ptr<Backend> inner);

// XXH3-64 of a subresource in the canonical linear layout: the same content
// gives the same hash on every device that keeps data.
std::uint64_t content_hash(Backend& backend, ObjectId resource, std::uint32_t subresource);

}  // namespace d3dcap::runtime::backend
