#include "runtime/backend/vulkan/hazards.h"

namespace d3dcap::runtime::backend::vulkan {

bool HazardTracker::conflicts(std::uint64_t key, bool write) const {
    if (poisoned_) return true;
    const auto found = accesses_.find(key);
    if (found == accesses_.end()) return false;
    return (found->second & kWrite) != 0 || write;
}

void HazardTracker::touch(std::uint64_t key, bool write, VkPipelineStageFlags2 stages) {
    accesses_[key] |= write ? kWrite : kRead;
    (write ? written_stages_ : read_stages_) |= stages;
}

VkMemoryBarrier2 HazardTracker::barrier(VkPipelineStageFlags2 stages) {
    VkMemoryBarrier2 memory{};
    memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2;
    // Writes are made visible; reads only have to be done before a write.
    memory.srcStageMask =
        poisoned_ ? VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT : written_stages_ | read_stages_;
    if (memory.srcStageMask == 0) memory.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    memory.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
    memory.dstStageMask = stages;
    memory.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
    clear();
    return memory;
}

void HazardTracker::clear() {
    if (!accesses_.empty()) accesses_.clear();
    written_stages_ = read_stages_ = 0;
    poisoned_ = false;
}

}  // namespace d3dcap::runtime::backend::vulkan
