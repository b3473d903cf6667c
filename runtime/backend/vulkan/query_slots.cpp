#include "runtime/backend/vulkan/query_slots.h"

namespace d3dcap::runtime::backend::vulkan {

bool QuerySlots::take(VkDevice device, VkCommandBuffer commands,
                      std::uint64_t first_unfinished_batch, Slot& out) {
    if (free_.empty() && !used_.empty()) {
        std::size_t done = 0;
        while (done < used_.size() && used_[done].batch < first_unfinished_batch)
            free_.push_back(used_[done++].slot);
        used_.erase(used_.begin(), used_.begin() + static_cast<std::ptrdiff_t>(done));
    }
    if (free_.empty()) {
        VkQueryPoolCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
        info.queryType = type_;
        info.queryCount = kSlotsPerPool;
        info.pipelineStatistics = statistics_;
        VkQueryPool pool = VK_NULL_HANDLE;
        if (vkCreateQueryPool(device, &info, nullptr, &pool) != VK_SUCCESS) return false;
        pools_.push_back(pool);
        for (std::uint32_t index = kSlotsPerPool; index-- > 0;) free_.push_back({pool, index});
    }
    out = free_.back();
    free_.pop_back();
    if (commands != VK_NULL_HANDLE)
        vkCmdResetQueryPool(commands, out.pool, out.index, 1);
    else
        vkResetQueryPool(device, out.pool, out.index, 1);
    return true;
}

bool QuerySlots::read(VkDevice device, Slot slot, std::uint64_t* values) const {
    const VkDeviceSize bytes = VkDeviceSize{values_} * sizeof(std::uint64_t);
    return vkGetQueryPoolResults(device, slot.pool, slot.index, 1, bytes, values, bytes,
                                 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) == VK_SUCCESS;
}

void QuerySlots::destroy(VkDevice device) {
    for (VkQueryPool pool : pools_) vkDestroyQueryPool(device, pool, nullptr);
    pools_.clear();
    free_.clear();
    used_.clear();
}

}  // namespace d3dcap::runtime::backend::vulkan
