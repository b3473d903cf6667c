// What the Vulkan device's backend runs its work with: a sub-allocator of
// device memory, command buffers on the general queue, a ring of host-visible
// staging memory, and sparse binds on the sparse queue. Calls record their
// commands into a batch that is submitted at Flush, Present, when full, or
// when the host needs results (finish); nothing waits per call. Timestamps
// in the command stream time every step, read when its batch is done. Queue
// order between binds and other work goes through one timeline semaphore.
// Draws and dispatches are tracked work: they name what they touch and get
// a barrier only for a hazard (hazards.h), and draws to the same attachments
// share one render pass instance. Other commands are untracked: a full
// barrier orders them after everything before and before everything after.
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/backend/backend.h"
#include "runtime/backend/vulkan/hazards.h"
#include "runtime/backend/vulkan/sparse_binder.h"
#include "runtime/backend/vulkan/vulkan_device.h"
#include "runtime/backend/work_timing.h"

namespace d3dcap::runtime::backend::vulkan {

// A range of device memory handed out by the allocator.
struct Allocation {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize offset = 0, size = 0;
    std::uint8_t* mapped = nullptr;  // host-visible memory: its bytes
    std::uint32_t block = 0;         // where it came from (for free)
};

// Blocks of 64 MiB per memory type (and kind: linear resources and images
// never share a block, so bufferImageGranularity needs no care), handed out
// first fit; requests over a quarter block get memory of their own.
class DeviceAllocator {
  public:
    DeviceAllocator(const vulkan::VulkanDevice& device);
    ~DeviceAllocator();
    DeviceAllocator(const DeviceAllocator&) = delete;
    DeviceAllocator& operator=(const DeviceAllocator&) = delete;

    // Memory for requirements with every flag in `required`, preferring
    // `preferred`; VK_ERROR_OUT_OF_DEVICE_MEMORY and the like on failure.
    VkResult allocate(const VkMemoryRequirements& requirements, bool linear,
                      VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred,
                      Allocation& out);
    void free(const Allocation& allocation);

  private:
    struct Block {
        VkDeviceMemory memory = VK_NULL_HANDLE;
        VkDeviceSize size = 0;
        std::uint32_t type = 0;
        bool linear = false, dedicated = false;
        std::uint8_t* mapped = nullptr;
        std::map<VkDeviceSize, VkDeviceSize> free_ranges;  // offset -> size
    };
    VkResult new_block(std::uint32_t type, bool linear, VkDeviceSize size, bool dedicated,
                       std::uint32_t& index);

    const vulkan::VulkanDevice& device_;
    std::vector<Block> blocks_;  // freed dedicated blocks leave a hole (memory null)
};

// The attachments of a render pass instance (dynamic rendering), all loaded
// and stored.
struct RenderTargets {
    static constexpr std::uint32_t kColors = 8;
    std::array<VkImageView, kColors> colors{};  // by slot; gaps are null
    std::uint32_t color_count = 0;
    VkImageView depth = VK_NULL_HANDLE;
    bool stencil = false;
    VkExtent2D area{};
    std::uint32_t layers = 1;
    // The images they view, as hazard keys.
    std::array<std::uint64_t, kColors + 1> images{};
    std::uint32_t image_count = 0;
    bool operator==(const RenderTargets& other) const {
        return colors == other.colors && color_count == other.color_count && depth == other.depth &&
               stencil == other.stencil && area.width == other.area.width &&
               area.height == other.area.height && layers == other.layers;
    }
};

class GpuContext {
  public:
    // Fails with a message when the device lacks what the backend needs.
    static std::unique_ptr<GpuContext> create(std::unique_ptr<vulkan::VulkanDevice> device,
                                              std::string& error);
    ~GpuContext();
    GpuContext(const GpuContext&) = delete;
    GpuContext& operator=(const GpuContext&) = delete;

    const vulkan::VulkanDevice& device() const { return *device_; }
    VkDevice vk() const { return device_->device(); }
    DeviceAllocator& allocator() { return allocator_; }

    // The open command buffer for untracked commands, outside rendering,
    // after a full barrier from what was recorded before. A step (one
    // call's work, or a part of it) starts, when timed, with a timestamp.
    VkCommandBuffer commands();
    // Tracked work (draws, dispatches, copies): begin_work starts its step
    // (timed, no barrier), touch names a buffer or image it reads or
    // writes, and render, compute or transfer hands out the command buffer
    // inside rendering to `targets` or outside rendering, after a barrier
    // only where what it touches needs one. Nothing between begin_work and
    // the work's last command may record untracked commands.
    void begin_work();
    void touch(std::uint64_t key, bool write, VkPipelineStageFlags2 stages);
    VkCommandBuffer render(const RenderTargets& targets);
    VkCommandBuffer compute();
    VkCommandBuffer transfer();
    // Work that touches only what the draws since rendering began (at
    // rendering_serial()) touched, the way they did, needs no barrier while
    // that pass is open: its command buffer, its step begun; null once the
    // pass has ended.
    std::uint64_t rendering_serial() const { return rendering_ ? render_serial_ : 0; }
    VkCommandBuffer render_again(std::uint64_t serial);
    // Changes whenever commands bound in the open command buffer may no
    // longer be bound (a new batch, untracked commands), so that recorders
    // that skip binding what is bound know to bind again.
    std::uint64_t state_epoch() const { return state_epoch_; }
    // A batch is open (descriptor sets taken now belong to it).
    void open();
    // Runs before every render pass instance ends (what began inside it
    // ends there).
    void before_rendering_ends(std::function<void(VkCommandBuffer)> hook) {
        rendering_ends_ = std::move(hook);
    }
    // The open command buffer as it is, inside or outside rendering (for
    // commands valid in both that need no ordering, such as timestamps).
    VkCommandBuffer recording() {
        open();
        return open_->buffer;
    }
    // A barrier between two commands of the same step that touch the same memory.
    void barrier();
    // Ends the current step: the next commands() starts a new one. With
    // D3DCAP_VULKAN_SYNC=1 every step is submitted and waited for.
    void end_step();
    // Submits the open command buffer without waiting (Flush, Present, a
    // full batch); false (and a message on stderr) when the device is lost.
    bool submit();
    // Submits and waits for all work: the host reads what it wrote next.
    bool finish();

    // Host-visible staging memory for the open command buffer's copies:
    // `bytes` (at most kStagingBytes) at `offset` of staging_buffer(),
    // reused once the work reading it is done (waits when the ring is full).
    static constexpr VkDeviceSize kStagingBytes = VkDeviceSize{64} << 20;
    struct Staging {
        VkDeviceSize offset = 0;
        std::uint8_t* data = nullptr;
    };
    Staging stage(VkDeviceSize bytes);
    // memcpy into staging memory, on several threads when it is large (one
    // core copies about 9 GB/s, short of what the GPU takes).
    static void copy_in(std::uint8_t* to, const std::uint8_t* from, std::size_t bytes);
    VkBuffer staging_buffer() const { return staging_; }

    // Runs `release` once the work recorded so far is done (objects it uses).
    void when_done(std::function<void()> release);
    // The number of the batch that records now, and whether a batch is done:
    // host writes to memory a batch reads wait for it.
    std::uint64_t recording_batch() const { return next_batch_; }
    bool batch_done(std::uint64_t batch) const { return batch < first_unfinished_batch(); }
    std::uint64_t first_unfinished_batch() const;

    // One vkQueueBindSparse after the work before it and before the work
    // after it, not waited for; its host time counts as GPU time.
    bool bind_sparse(const vulkan::SparseBatch& batch);
    // Binds of a resource the open batch has not used yet: made now, before
    // that batch (which waits for them when it is submitted), so that the
    // work recorded so far is not submitted early and the GPU starts on
    // them at once.
    bool bind_before_batch(const vulkan::SparseBatch& batch);

    // The ticks per second of the GPU's clock; false without timestamps on
    // the queue.
    bool timestamp_frequency(std::uint64_t* frequency) const;
    // Debug-utils labels in the command stream, or on the queue after the
    // work before them (nothing without the extension).
    enum class Label { Begin, End, Marker };
    void label(Label kind, const std::string& text);

    // The tag of the work recorded from now on, and how it is timed.
    void set_tag(std::uint64_t tag) { tag_ = tag; }
    void set_timing(WorkTiming timing) { step_timing_ = timing; }
    bool timed() const { return timestamps_valid_; }
    // Moves the times of finished work to `out` (with wait, after waiting for
    // all of it); returns the lowest tag of work not finished (UINT64_MAX: none).
    std::uint64_t take_times(bool wait, std::vector<WorkTime>& out);
    // Nanoseconds of finished GPU work (timestamps) and binds (host time).
    std::uint64_t gpu_ns() const { return gpu_ns_; }
    // Render passes, barriers and submissions so far (descriptor sets are
    // the backend's to count).
    const RecordingCounts& counts() const { return counts_; }

  private:
    struct Batch {
        VkCommandBuffer buffer = VK_NULL_HANDLE;
        VkQueryPool queries = VK_NULL_HANDLE;
        std::uint32_t query_count = 0;
        std::vector<std::uint64_t> tags;  // the tag of the time after query i
        std::uint64_t first_tag = 0;
        std::uint64_t number = 0;  // batches are numbered in recording order
        std::uint64_t value = 0;   // the timeline value it signals
        std::uint32_t steps = 0;
        VkDeviceSize staging_end = 0, staging_bytes = 0;
        std::vector<std::function<void()>> after;
    };
    static constexpr std::uint32_t kStepsPerBatch = 1024;
    // A CPU device's batches (see steps_per_batch).
    static constexpr std::uint32_t kCpuStepsPerBatch = 65536;
    static constexpr std::size_t kBatchesInFlight = 4;

    explicit GpuContext(std::unique_ptr<vulkan::VulkanDevice> device);
    bool init(std::string& error);
    // The steps a batch holds before it goes without waiting for a flush
    // point: as many as its timestamp pool has room for where each step is
    // timed; otherwise, on a GPU, few enough that the GPU starts on them
    // while the rest are recorded; on a CPU device (lavapipe), whose
    // execution shares the processor with the recording and gains nothing
    // from starting early, many more (a batch sent mid-frame there made
    // 10,000 draws on 2 cores take 94 ms instead of 52).
    std::uint32_t steps_per_batch() const {
        return step_timing_ == WorkTiming::PerStep || !cpu_device_ ? kStepsPerBatch
                                                                   : kCpuStepsPerBatch;
    }
    bool open_batch();
    void start_step();
    void end_rendering();
    // Tracked work outside rendering, waited for by `stages`.
    VkCommandBuffer outside_rendering(VkPipelineStageFlags2 stages);
    void full_barrier();
    // The barrier a hazard needs: what was noted, made visible to `stages`.
    void hazard_barrier(VkPipelineStageFlags2 stages);
    void record_barrier(const VkMemoryBarrier2& memory);
    bool wait_value(std::uint64_t value);
    // One vkQueueBindSparse after the work submitted so far.
    bool bind_now(vulkan::SparseBatch batch);
    // Retires the batches done (all of them when wait), oldest first.
    bool retire(bool wait_all);
    // Whether the GPU is past every batch and sparse bind made so far.
    bool bound_done();
    bool retire_oldest();
    void record_times(Batch& batch);
    void add_time(std::uint64_t tag, std::uint64_t ns);

    std::unique_ptr<vulkan::VulkanDevice> device_;
    DeviceAllocator allocator_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    std::vector<VkCommandBuffer> free_buffers_;
    std::vector<VkQueryPool> free_query_pools_;
    std::unique_ptr<Batch> open_;   // recording
    std::vector<Batch> in_flight_;  // submitted, oldest first
    bool step_open_ = false;
    bool work_step_ = false;  // the open step is tracked work
    HazardTracker hazards_;
    struct Touch {
        std::uint64_t key;
        bool write;
        VkPipelineStageFlags2 stages;
    };
    std::vector<Touch> touched_;  // by the work being recorded
    bool rendering_ = false;
    std::uint64_t render_serial_ = 0;  // render passes begun
    RenderTargets targets_;            // of the open render pass instance
    std::function<void(VkCommandBuffer)> rendering_ends_;
    std::uint64_t state_epoch_ = 0;
    RecordingCounts counts_;
    bool sync_steps_ = false;
    bool cpu_device_ = false;
    std::uint64_t next_batch_ = 0;
    bool timestamps_valid_ = false;
    double timestamp_period_ns_ = 1.0;
    WorkTiming step_timing_ = WorkTiming::PerSubmission;  // what a replay asks for otherwise
    std::uint64_t tag_ = 0;
    std::vector<WorkTime> times_;  // finished, not taken yet
    PFN_vkCmdBeginDebugUtilsLabelEXT begin_label_ = nullptr;
    PFN_vkCmdEndDebugUtilsLabelEXT end_label_ = nullptr;
    PFN_vkCmdInsertDebugUtilsLabelEXT insert_label_ = nullptr;
    bool queue_labels_ = false;
    PFN_vkQueueBeginDebugUtilsLabelEXT queue_begin_label_ = nullptr;
    PFN_vkQueueEndDebugUtilsLabelEXT queue_end_label_ = nullptr;
    PFN_vkQueueInsertDebugUtilsLabelEXT queue_insert_label_ = nullptr;
    VkSemaphore timeline_ = VK_NULL_HANDLE;
    std::uint64_t timeline_value_ = 0;  // the last value signalled
    // Releases that wait for sparse binds made outside a batch (bind_now)
    // after the last batch submitted: run once the timeline reaches value.
    struct AfterBind {
        std::uint64_t value;
        std::function<void()> release;
    };
    std::vector<AfterBind> after_binds_;
    VkBuffer staging_ = VK_NULL_HANDLE;
    Allocation staging_memory_;
    std::uint8_t* staging_bytes_ = nullptr;
    // The staging ring: bytes [tail, head) (wrapping) are in use.
    VkDeviceSize staging_head_ = 0, staging_tail_ = 0, staging_used_ = 0;
    std::uint64_t gpu_ns_ = 0;
};

}  // namespace d3dcap::runtime::backend::vulkan
