// 32-bit counters the GPU keeps for the objects they belong to (a UAV's
// hidden counter, the bytes stream output wrote to a buffer): slots of one
// device buffer, `stride` bytes apart, handed out per object and set,
// copied and read in the command stream. Internal to libd3dcap.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "runtime/backend/vulkan/gpu_context.h"

namespace d3dcap::runtime::backend::vulkan {

class CounterSlots {
  public:
    // `usage`: the usage flags of the buffer that holds the counters.
    CounterSlots(GpuContext& gpu, std::uint32_t stride, VkBufferUsageFlags usage)
        : gpu_(gpu), stride_(stride), usage_(usage) {}
    CounterSlots(const CounterSlots&) = delete;
    CounterSlots& operator=(const CounterSlots&) = delete;

    // The byte offset of an object's counter; with make, a new one (zero)
    // where it has none (false: no room, or no memory for the buffer).
    bool slot(ObjectId owner, bool make, VkDeviceSize& offset);
    void forget(ObjectId owner);
    // The buffer holding the counters (null before the first slot).
    VkBuffer buffer() const { return buffer_; }
    // The buffer, made where there is none yet (false: no memory for it).
    bool make_buffer() { return buffer_ != VK_NULL_HANDLE || create(); }
    // The device's end: the buffer released once work using it is done.
    void destroy();

  private:
    static constexpr std::uint32_t kCount = 4096;
    bool create();

    GpuContext& gpu_;
    std::uint32_t stride_;
    VkBufferUsageFlags usage_;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    Allocation memory_;
    std::unordered_map<ObjectId, std::uint32_t> slots_;
    std::vector<std::uint32_t> free_;
};

}  // namespace d3dcap::runtime::backend::vulkan
