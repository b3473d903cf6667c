#include "runtime/backend/vulkan/hazards.h"

namespace d3dcap::runtime::backend::vulkan {

namespace {

// Fibonacci hashing: handles are aligned pointers or small integers.
std::size_t home(std::uint64_t key, std::size_t size) {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & (size - 1);
}

}  // namespace

const HazardTracker::Entry* HazardTracker::find(std::uint64_t key) const {
    const std::size_t mask = table_.size() - 1;
    for (std::size_t i = home(key, table_.size());; i = (i + 1) & mask) {
        const Entry& entry = table_[i];
        if (entry.stamp != stamp_) return nullptr;
        if (entry.key == key) return &entry;
    }
}

HazardTracker::Entry& HazardTracker::slot(std::uint64_t key) {
    if (2 * (count_ + 1) > table_.size()) grow();
    const std::size_t mask = table_.size() - 1;
    for (std::size_t i = home(key, table_.size());; i = (i + 1) & mask) {
        Entry& entry = table_[i];
        if (entry.stamp == stamp_ && entry.key == key) return entry;
        if (entry.stamp != stamp_) {
            entry = {key, stamp_, 0};
            ++count_;
            return entry;
        }
    }
}

void HazardTracker::grow() {
    std::vector<Entry> old(table_.size() * 2);
    old.swap(table_);
    const std::uint32_t stamp = stamp_;
    count_ = 0;
    for (const Entry& entry : old)
        if (entry.stamp == stamp) slot(entry.key).access = entry.access;
}

bool HazardTracker::conflicts(std::uint64_t key, bool write) const {
    if (poisoned_) return true;
    const Entry* found = find(key);
    if (found == nullptr) return false;
    return (found->access & kWrite) != 0 || write;
}

void HazardTracker::touch(std::uint64_t key, bool write, VkPipelineStageFlags2 stages) {
    slot(key).access |= write ? kWrite : kRead;
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
    if (count_ != 0 && ++stamp_ == 0) {  // wrapped: no entry may carry the new stamp
        table_.assign(table_.size(), Entry{});
        stamp_ = 1;
    }
    count_ = 0;
    written_stages_ = read_stages_ = 0;
    poisoned_ = false;
}

}  // namespace d3dcap::runtime::backend::vulkan
