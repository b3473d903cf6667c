// What the Vulkan device's backend runs its work with: a sub-allocator of
// device memory, one command buffer at a time on the general queue with a
// timestamp pair around it, host-visible staging memory, and sparse binds on
// the sparse queue. Each call of the backend records its commands and waits
// for them (finish), so every event's GPU time is exact and staging memory is
// free again when the call returns. Queue order between binds and other work
// goes through one timeline semaphore.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/vulkan/sparse_binder.h"
#include "runtime/vulkan/vulkan_device.h"

namespace d3dcap::runtime::gpu {

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

    // The open command buffer (opened with a full barrier and a start
    // timestamp when none is).
    VkCommandBuffer commands();
    // A barrier between two commands of the same buffer that touch the same memory.
    void barrier();
    // Submits the open command buffer and waits for it; adds its GPU time.
    // False (and a message on stderr) when the device is lost.
    bool finish();

    // Host-visible staging memory of kStagingBytes; free whenever no command
    // buffer is open.
    static constexpr VkDeviceSize kStagingBytes = VkDeviceSize{64} << 20;
    VkBuffer staging_buffer() const { return staging_; }
    std::uint8_t* staging() const { return staging_bytes_; }

    // One vkQueueBindSparse, after the work before it unless no_overwrite,
    // before the work after it; waited for and timed on the host.
    bool bind_sparse(vulkan::SparseBatch batch, bool no_overwrite);

    // The GPU's clock now (a timestamp written by an empty submission) and
    // its ticks per second; false without timestamps on the queue.
    bool timestamp(std::uint64_t* ticks, std::uint64_t* frequency);
    // Debug-utils labels on the general queue (nothing without the extension).
    enum class Label { Begin, End, Marker };
    void label(Label kind, const std::string& text);

    // Nanoseconds of GPU work (timestamps) and binds (host time) so far.
    std::uint64_t gpu_ns() const { return gpu_ns_; }

  private:
    explicit GpuContext(std::unique_ptr<vulkan::VulkanDevice> device);
    bool init(std::string& error);
    bool wait_value(std::uint64_t value);

    std::unique_ptr<vulkan::VulkanDevice> device_;
    DeviceAllocator allocator_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer buffer_ = VK_NULL_HANDLE;
    bool open_ = false;
    VkQueryPool timestamps_ = VK_NULL_HANDLE;
    bool timestamps_valid_ = false;
    double timestamp_period_ns_ = 1.0;
    std::uint64_t last_ticks_ = 0;  // the end timestamp of the last submission
    PFN_vkQueueBeginDebugUtilsLabelEXT begin_label_ = nullptr;
    PFN_vkQueueEndDebugUtilsLabelEXT end_label_ = nullptr;
    PFN_vkQueueInsertDebugUtilsLabelEXT insert_label_ = nullptr;
    VkSemaphore timeline_ = VK_NULL_HANDLE;
    std::uint64_t timeline_value_ = 0;  // the last value signalled
    VkBuffer staging_ = VK_NULL_HANDLE;
    Allocation staging_memory_;
    std::uint8_t* staging_bytes_ = nullptr;
    std::uint64_t gpu_ns_ = 0;
};

}  // namespace d3dcap::runtime::gpu
