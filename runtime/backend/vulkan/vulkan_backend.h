// The HARDWARE device's data side: resources live on a Vulkan GPU. Buffers
// are VkBuffers and textures VkImages (see storage.h) in sub-allocated
// memory; tile pools are device memory in 64 KiB pages, tiled resources are
// sparse-residency images and buffers bound to them with vkQueueBindSparse as
// the tile model's mappings change. Contents move in the reference device's
// canonical layout, so content hashes compare across devices. Internal to
// libd3dcap.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/backend/backend.h"
#include "runtime/backend/clear_plan.h"
#include "runtime/backend/filling_backend.h"
#include "runtime/backend/subresource_layout.h"
#include "runtime/backend/vulkan/counter_slots.h"
#include "runtime/backend/vulkan/descriptor_pools.h"
#include "runtime/backend/vulkan/draw_state.h"
#include "runtime/backend/vulkan/gpu_context.h"
#include "runtime/backend/vulkan/gpu_resource.h"
#include "runtime/backend/vulkan/pipelines.h"
#include "runtime/backend/vulkan/query_counts.h"
#include "runtime/backend/vulkan/query_slots.h"
#include "runtime/backend/vulkan/samplers.h"
#include "runtime/backend/vulkan/shader_translator.h"
#include "runtime/backend/vulkan/storage.h"
#include "runtime/backend/vulkan/stream_output.h"
#include "runtime/backend/vulkan/tile_pages.h"
#include "runtime/backend/vulkan/views.h"

namespace d3dcap::runtime::backend::vulkan {

// A raw view of the first `bytes` of a buffer (the device's own shaders' UAVs).
ViewInfo raw_view(ObjectId buffer, std::uint64_t bytes);

// The image side of a copy of an element box of one subresource (its layers,
// offset and extent in texels; an edge block of a compressed format ends at
// the mip's edge); the buffer side is the caller's.
VkBufferImageCopy image_region(const GpuResource& resource, std::uint32_t sub,
                               const ElementBox& box);

// What work touching a resource names to the hazard tracker.
std::uint64_t hazard_key(const GpuResource& resource);

// "this device keeps FORMAT textures as bits only", for what cannot use them.
std::string kept_as_bits(const GpuResource& resource);

class VulkanBackend;

// Holds the device's lock for one call (none for a device used from one
// thread only); when the outermost one ends, the shadowed tiled resources
// the call wrote go back to their pools.
class Operation {
  public:
    explicit Operation(VulkanBackend& backend);
    ~Operation();
    Operation(const Operation&) = delete;
    Operation& operator=(const Operation&) = delete;

  private:
    VulkanBackend& backend_;
    std::unique_lock<std::recursive_mutex> lock_;
};

class VulkanBackend final : public FillingBackend {
  public:
    // The first discrete GPU (or D3DCAP_GPU), or with `cpu` the first CPU
    // adapter; null with a message when there is none the device can run on.
    static std::unique_ptr<VulkanBackend> create(std::string& error, bool cpu = false);
    ~VulkanBackend() override;

    const char* name() const override { return "vulkan"; }
    void set_single_threaded() override { single_threaded_ = true; }
    std::recursive_mutex* call_mutex() override { return &mutex_; }
    bool gpu_clock_ns(std::uint64_t* ns) const override;
    bool times_tagged_work() const override { return gpu_->timed(); }
    RecordingCounts recording_counts() override;
    void tag_work(std::uint64_t tag) override;
    void set_work_timing(WorkTiming timing) override;
    std::uint64_t take_work_times(bool wait, std::vector<WorkTime>& out) override;
    D3D11_TILED_RESOURCES_TIER tiled_resources_tier() const override;
    std::optional<AdapterIdentity> adapter_identity() const override;
    std::string tier_reason() const override;
    bool logic_ops() const override;
    bool draws_samples(DXGI_FORMAT format, std::uint32_t samples) override;
    bool executes_shaders() const override { return true; }
    void attach(const tiles::TileState* tiles) override {
        Backend::attach(tiles);
        pages_.attach(tiles);
    }
    std::string prepare_shader(std::span<const std::uint8_t> bytecode,
                               const StreamOutputDeclaration* stream_output) override;
    std::string dispatch(const StageWork& compute, const DispatchSize& groups,
                         WorkResults& results) override;
    std::string draw(const DrawWork& work, const DrawArguments& arguments,
                     WorkResults& results) override;
    bool read_results(std::uint64_t ticket, bool wait, WorkResults& out) override;
    void forget_results(std::uint64_t ticket) override;
    std::uint64_t gpu_predicate(const std::vector<std::uint64_t>& tickets, bool overflow) override;
    void forget_predicate(std::uint64_t id) override;
    void set_uav_counter(ObjectId view, std::uint32_t value) override;
    void copy_uav_counter(ObjectId view, std::uint32_t value, ObjectId dest,
                          std::uint32_t offset) override;
    void forget_uav_counter(ObjectId view) override;

    HRESULT create_resource(const ResourceInfo& info,
                            const D3D11_SUBRESOURCE_DATA* initial) override;
    void destroy_resource(ObjectId resource) override;
    void resize_tile_pool(ObjectId pool, std::uint64_t new_byte_width) override;
    void tile_mappings_changed(ObjectId resource, std::uint32_t flags) override;
    void flush() override;
    void wait_for_work() override;
    void begin_event(const std::string& label) override;
    void end_event() override;
    void set_marker(const std::string& label) override;
    bool timestamp_frequency(std::uint64_t* frequency) override;
    std::uint64_t write_timestamp() override;

    void copy_resource(ObjectId dest, ObjectId source) override;
    void copy_subresource_region(ObjectId dest, std::uint32_t dest_subresource, std::uint32_t x,
                                 std::uint32_t y, std::uint32_t z, ObjectId source,
                                 std::uint32_t source_subresource, const D3D11_BOX* source_box,
                                 std::uint32_t copy_flags) override;
    void update_subresource(ObjectId dest, std::uint32_t subresource, const D3D11_BOX* box,
                            const void* data, std::uint32_t row_pitch, std::uint32_t depth_pitch,
                            std::uint32_t copy_flags) override;
    void update_tiles(ObjectId resource, const std::vector<tiles::TileRef>& tiles,
                      const void* data) override;
    void copy_tiles(ObjectId resource, const std::vector<tiles::TileRef>& tiles, ObjectId buffer,
                    std::uint64_t buffer_offset, std::uint32_t flags) override;

    void generate_mips(const ViewInfo& view) override;
    void resolve_subresource(ObjectId dest, std::uint32_t dest_subresource, ObjectId source,
                             std::uint32_t source_subresource, DXGI_FORMAT format) override;

    HRESULT map(ObjectId resource, std::uint32_t subresource, D3D11_MAP type,
                D3D11_MAPPED_SUBRESOURCE* mapped) override;
    void unmap(ObjectId resource, std::uint32_t subresource) override;
    bool read_subresource(ObjectId resource, std::uint32_t subresource,
                          std::vector<std::uint8_t>& bytes) override;
    bool read_subresource_pieces(ObjectId resource, std::uint32_t subresource,
                                 const ByteSink& sink) override;
    void offer(ObjectId resource) override;
    bool reclaim(ObjectId resource) override;

  private:
    friend class Operation;
    explicit VulkanBackend(std::unique_ptr<GpuContext> gpu);
    // The per-call lock alone, for calls that record nothing (none for a
    // device used from one thread).
    std::unique_lock<std::recursive_mutex> lock_calls() {
        return single_threaded_ ? std::unique_lock(mutex_, std::defer_lock)
                                : std::unique_lock(mutex_);
    }
    GpuResource* find(ObjectId id) { return resources_.find(id); }
    // find, with the resource's pending binds made first (for work that may
    // touch any of its tiles), marked used by the batch recording now; the
    // second form for a resource already found.
    GpuResource* use(ObjectId id);
    void use(GpuResource& resource);

    void start_tiles(GpuResource& resource);
    HRESULT create_buffer(GpuResource& resource);
    bool bind_buffer_memory(const ResourceInfo& info, VkBuffer buffer, Allocation& memory,
                            VkMemoryPropertyFlags preferred = 0);
    // WRITE_DISCARD of a buffer in use (vulkan_slices.cpp): a dynamic
    // constant, vertex or index buffer's next slice (false where it is not
    // sliced or has no memory), else new memory.
    bool next_slice(GpuResource& resource);
    bool rename_buffer(GpuResource& resource);
    bool replace_buffer(GpuResource& resource, VkDeviceSize size, VkMemoryPropertyFlags preferred);
    bool grow_slices(GpuResource& resource);
    HRESULT create_image(GpuResource& resource);
    HRESULT create_pool(GpuResource& resource);
    void release(GpuResource& resource);
    void release_later(VkBuffer buffer, VkImage image, const Allocation& memory);

    // Host bytes <-> an element box of one subresource. Upload rows are
    // row_pitch apart and slices slice_pitch apart; downloads hand the box's
    // canonical bytes to the sink in order, a piece at a time.
    void upload_box(GpuResource& resource, std::uint32_t sub, const ElementBox& box,
                    const std::uint8_t* bytes, std::uint64_t row_pitch, std::uint64_t slice_pitch);
    void download_box(GpuResource& resource, std::uint32_t sub, const ElementBox& box,
                      const ByteSink& sink);
    std::vector<std::uint8_t> download_box(GpuResource& resource, std::uint32_t sub,
                                           const ElementBox& box);
    void fill(GpuResource& resource, const FillBox& fill);
    // Staging textures in host memory (vulkan_staging_textures.cpp): which
    // ones, their creation, their bytes once the work using them is done
    // (null when the device is lost), and the transfers above for them.
    static bool wants_linear(const GpuResource& resource);
    HRESULT create_linear(GpuResource& resource);
    std::uint8_t* linear_bytes(GpuResource& resource, std::uint32_t sub);
    void upload_linear(GpuResource& resource, std::uint32_t sub, const ElementBox& box,
                       const std::uint8_t* bytes, std::uint64_t row_pitch,
                       std::uint64_t slice_pitch);
    void download_linear(GpuResource& resource, std::uint32_t sub, const ElementBox& box,
                         const ByteSink& sink);
    // A copy with a linear destination or source (the other an image or linear).
    void copy_linear(GpuResource& dest, std::uint32_t dest_sub, const ElementBox& target,
                     GpuResource& source, std::uint32_t source_sub, const ElementBox& box);
    void fill_view(const ViewInfo& view, const ClearTexel& clear, const D3D11_RECT* rects,
                   std::uint32_t rect_count) override;
    void copy_box(GpuResource& dest, std::uint32_t dest_sub, std::uint32_t x, std::uint32_t y,
                  std::uint32_t z, GpuResource& source, std::uint32_t source_sub,
                  const ElementBox& box);
    // Runs a reference-device operation on copies of resources' contents and
    // writes the results back (GenerateMips and resolves, which need the
    // conversion rules the reference device implements).
    void run_on_reference(const std::vector<ObjectId>& ids,
                          const std::function<void(Backend&)>& operation);

    // The packed mips of a slice as the tile model's byte stream.
    std::vector<std::uint8_t> packed_stream(GpuResource& resource, std::uint32_t slice);

    // Shadowed tiled resources (no sparse residency on this GPU): brought
    // up to date from the pool before a call uses them, written back after
    // a call wrote them (NULL tiles read zero again), and the tiles a write
    // may have touched (all of them when `tiles` is null).
    void sync_shadow(GpuResource& resource);
    void write_back_shadows();
    void write_back(GpuResource& resource);
    void wrote(GpuResource& resource, const std::vector<std::uint32_t>* tiles = nullptr);
    void wrote_box(GpuResource& resource, std::uint32_t sub, const ElementBox& box);
    struct PageCopy {
        std::uint32_t tile = 0;
        VkBuffer page = VK_NULL_HANDLE;  // a pool chunk (or the zero tile)
        std::uint64_t offset = 0;
    };
    std::set<std::uint32_t> copy_pages(GpuResource& resource, const std::vector<PageCopy>& copies,
                                       bool to_pages);
    // Shaders: the pipeline of a translated compute shader (made once).
    void destroy_pipelines();
    // Descriptors: the bound slots of a stage resolved to what its shader's
    // descriptors bind (empty, or why the work cannot run), and the set
    // holding them: `last`, the stage's set before, where it binds the
    // same, else a new one written (and kept in `last`).
    std::string resolve_stage(const StageWork& work, const TranslatedShader& shader,
                              bool dynamic_constants, StageSet& out);
    std::string stage_set(VkDescriptorSetLayout layout, StageSet& next, StageSet& last);
    // Where a stage's constant-buffer windows only moved within the buffers
    // its set holds (dynamic offsets): the set's offsets moved with them.
    // False, changing nothing, where the set has to be resolved again.
    bool move_windows(const StageWork& work, StageSet& set) const;
    std::string image_view(const ViewInfo& view, const ShaderDescriptor& d, VkImageView& out,
                           std::uint64_t& key);
    // A view of one usage: empty, or why not (the image lacks the usage, or
    // the GPU the format feature `needed`).
    // The (u#, first W slice) of a stage's Texture3D UAVs that do not start
    // at slice 0, for the translation (uav_slices.h).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> uav_first_slices(const StageWork& work);
    std::string make_view(const GpuResource& resource, const VkImageViewCreateInfo& info,
                          VkImageUsageFlags usage, VkFormatFeatureFlags needed, VkImageView& out);
    std::string counter_descriptor(const StageWork& work, const ShaderDescriptor& d,
                                   VkBufferView& view);
    // Draws: the formats and sample count of what a draw renders into (for
    // its pipeline), and a view of a render target or depth-stencil view
    // with its size.
    std::string pipeline_targets(const DrawWork& work, PipelineTargets& out);
    // A draw's translated shaders, linked (empty, or why it cannot run).
    std::string draw_shaders(const DrawWork& work, PipelineShaders& shaders);
    std::string draw_buffers(const DrawWork& work, const DrawArguments& arguments,
                             const GraphicsPipeline& pipeline, DrawBuffers& out);
    // The attachments of a draw, with their render area.
    std::string draw_targets(const DrawWork& work, RenderTargets& targets);
    // Binds what the draw needs and the command buffer does not have bound
    // (`changed`: the DrawWork parts that may differ from the last draw's).
    void bind_draw_state(VkCommandBuffer commands, const DrawWork& work, std::uint32_t changed,
                         const GraphicsPipeline& pipeline, const PipelineShaders& shaders,
                         const DrawBuffers& buffers, VkExtent2D area);
    void bind_stage_set(VkCommandBuffer commands, VkPipelineLayout layout, int stage);
    // The draw after a kept one that changed at most where constant-buffer
    // windows lie within the same buffers, in the same render pass: only
    // the moved offsets bound, and the draw. False where it needs draw().
    bool draw_again(const DrawWork& work, std::uint32_t changed, const DrawArguments& arguments,
                    WorkResults& results);
    // Records the draw's command, inside conditional rendering where the
    // work's predicate is on the GPU.
    void record_draw(VkCommandBuffer commands, const DrawWork& work, const DrawArguments& arguments,
                     const DrawBuffers& buffers);
    // The viewports (flipped to D3D11's convention) and scissors.
    void bind_viewports(VkCommandBuffer commands, const DrawWork& work, VkExtent2D area);
    std::string attachment_view(const ViewInfo& view, bool depth, VkImageView& out,
                                VkExtent2D& extent, std::uint64_t& key);

    // MSAA textures (vulkan_multisample.cpp): a subresource's samples in
    // the canonical layout, read and written by the device's own shaders,
    // which run on buffers of the device's own (ids above every D3D11 one).
    std::vector<std::uint8_t> read_samples(GpuResource& resource, std::uint32_t sub);
    void write_samples(GpuResource& resource, std::uint32_t sub, const std::uint8_t* canonical);
    // ClearDepthStencilView of an MSAA depth-stencil texture.
    void clear_depth_samples(GpuResource& resource, const FillBox& fill);
    const std::vector<std::uint8_t>& internal_shader(const std::string& text);
    ObjectId internal_buffer(std::uint64_t bytes, const std::uint8_t* data);

    // Every buffer's usage flags (what stream output and predicates need
    // where the GPU has them).
    VkBufferUsageFlags buffer_usage() const;

    std::recursive_mutex mutex_;              // the device is free-threaded
    bool single_threaded_ = false;            // unless it was created otherwise
    int depth_ = 0;                           // Operations open on this thread
    bool shadow_tiles_ = false;               // tiled resources are shadowed (no sparse residency)
    bool syncing_ = false;                    // inside sync_shadow/write_back: no marking
    std::vector<ObjectId> written_;           // shadowed resources the current call wrote
    std::unique_ptr<GpuResource> zero_tile_;  // 64 KiB of zeros, for NULL tiles
    std::unique_ptr<GpuContext> gpu_;
    ResourceTable resources_;
    TilePages pages_{*gpu_, resources_, buffer_usage()};
    std::unique_ptr<Backend> scratch_;  // reference device for run_on_reference
    ShaderTranslator translator_;
    Samplers samplers_{*gpu_};
    DescriptorPools descriptors_;
    PipelineCache pipelines_{gpu_->device(), descriptors_};
    std::vector<VkWriteDescriptorSet> write_scratch_;
    ViewCache views_;
    // Draws and dispatches: each stage's set, scratch for the next, what
    // the command buffer has bound, what the last draw resolved, and the
    // last linked shaders.
    std::array<StageSet, 5> stage_sets_;
    StageSet compute_set_, stage_scratch_;
    BoundDrawState bound_draw_;
    LastDraw last_draw_;
    // Bumped whenever a dynamic buffer bound as a constant buffer (or as a
    // vertex or index buffer) moves to another slice: kept sets' dynamic
    // offsets (kept buffer bindings) are computed again.
    std::uint64_t slice_moves_ = 0, vertex_slice_moves_ = 0;
    std::vector<VkViewport> viewports_;
    std::vector<VkRect2D> scissors_;
    std::array<std::shared_ptr<const TranslatedShader>, 5> linked_shaders_;
    // Each graphics stage's last translation and what it was made for.
    struct StageTranslation {
        ObjectId shader = 0;
        TranslationOptions options;  // without UAV slices: those are never kept
        std::shared_ptr<const TranslatedShader> result;
        bool same_as(const StageTranslation& o) const {
            return shader == o.shader && options.same_variant(o.options);
        }
    };
    std::array<StageTranslation, 5> last_translations_;
    StreamOutput stream_output_{*gpu_, buffer_usage()};
    // By UAV view (0: the one UAVs without a counter of their own share);
    // 256 bytes apart, past any texel-buffer alignment.
    CounterSlots uav_counters_{*gpu_, 256, buffer_usage()};
    std::unordered_map<std::string, std::vector<std::uint8_t>> internal_shaders_;  // by text
    ObjectId next_internal_id_ = ObjectId{1} << 62;

    // Counts the GPU keeps (vulkan_counts.cpp).
    QueryCounts queries_{*gpu_};  // query_counts.h
    // Work a GPU predicate predicates runs inside conditional rendering on
    // its value (an internal buffer's first word); false: not predicated.
    bool begin_predicated(VkCommandBuffer commands, const GpuPredicate& predicate);
    void end_predicated(VkCommandBuffer commands, bool predicated);
    // An internal buffer of at least `bytes` for a predicate's value, and
    // the ones given back (forget_predicate) with the last batch using them.
    ObjectId predicate_buffer(std::uint64_t bytes);
    struct KeptBuffer {
        ObjectId id = 0;
        std::uint64_t batch = 0;
    };
    std::deque<KeptBuffer> free_predicates_;  // oldest first
    PFN_vkCmdBeginConditionalRenderingEXT begin_conditional_ = nullptr;
    PFN_vkCmdEndConditionalRenderingEXT end_conditional_ = nullptr;
};

}  // namespace d3dcap::runtime::backend::vulkan
