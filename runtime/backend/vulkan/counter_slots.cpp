// Counters the GPU keeps per object (counter_slots.h).
#include "runtime/backend/vulkan/counter_slots.h"

namespace d3dcap::runtime::backend::vulkan {

bool CounterSlots::create() {
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = VkDeviceSize{kCount} * stride_;
    info.usage = usage_;
    if (vkCreateBuffer(gpu_.vk(), &info, nullptr, &buffer_) != VK_SUCCESS) {
        buffer_ = VK_NULL_HANDLE;
        return false;
    }
    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(gpu_.vk(), buffer_, &requirements);
    if (gpu_.allocator().allocate(requirements, true, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                                  VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, memory_) != VK_SUCCESS ||
        vkBindBufferMemory(gpu_.vk(), buffer_, memory_.memory, memory_.offset) != VK_SUCCESS) {
        destroy();
        return false;
    }
    for (std::uint32_t slot = kCount; slot-- > 0;) free_.push_back(slot);
    return true;
}

bool CounterSlots::slot(ObjectId owner, bool make, VkDeviceSize& offset) {
    if (const auto found = slots_.find(owner); found != slots_.end()) {
        offset = VkDeviceSize{found->second} * stride_;
        return true;
    }
    if (!make) return false;
    if (!make_buffer()) return false;
    if (free_.empty()) return false;
    const std::uint32_t slot = free_.back();
    free_.pop_back();
    slots_[owner] = slot;
    offset = VkDeviceSize{slot} * stride_;
    vkCmdFillBuffer(gpu_.commands(), buffer_, offset, 4, 0);
    gpu_.barrier();  // before anything else is written over it
    return true;
}

void CounterSlots::forget(ObjectId owner) {
    const auto found = slots_.find(owner);
    if (found == slots_.end()) return;
    free_.push_back(found->second);
    slots_.erase(found);
}

void CounterSlots::destroy() {
    const VkBuffer buffer = buffer_;
    const Allocation memory = memory_;
    if (buffer != VK_NULL_HANDLE || memory.memory != VK_NULL_HANDLE) {
        gpu_.when_done([&gpu = gpu_, buffer, memory] {
            if (buffer != VK_NULL_HANDLE) vkDestroyBuffer(gpu.vk(), buffer, nullptr);
            if (memory.memory != VK_NULL_HANDLE) gpu.allocator().free(memory);
        });
    }
    buffer_ = VK_NULL_HANDLE;
    memory_ = {};
    slots_.clear();
    free_.clear();
}

}  // namespace d3dcap::runtime::backend::vulkan
