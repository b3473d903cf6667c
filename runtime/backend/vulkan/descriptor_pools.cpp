#include "runtime/backend/vulkan/descriptor_pools.h"

#include <iterator>

namespace d3dcap::runtime::backend::vulkan {

VkDescriptorSetLayout DescriptorPools::layout(
    const std::vector<VkDescriptorSetLayoutBinding>& bindings) {
    std::string key;
    for (const VkDescriptorSetLayoutBinding& b : bindings) {
        const std::uint32_t fields[] = {b.binding, static_cast<std::uint32_t>(b.descriptorType),
                                        b.descriptorCount, b.stageFlags};
        key.append(reinterpret_cast<const char*>(fields), sizeof fields);
    }
    if (const auto found = layouts_.find(key); found != layouts_.end()) return found->second;
    VkDescriptorSetLayoutCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    info.bindingCount = static_cast<std::uint32_t>(bindings.size());
    info.pBindings = bindings.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    if (vkCreateDescriptorSetLayout(gpu_.vk(), &info, nullptr, &layout) != VK_SUCCESS)
        return VK_NULL_HANDLE;
    layouts_.emplace(std::move(key), layout);
    return layout;
}

// Sets come from pools of kSetsPerPool; a full pool is reset and reused
// once the work recorded with its sets is done. Sets kept for reuse die
// with it.
std::string DescriptorPools::allocate(VkDescriptorSetLayout layout, VkDescriptorSet& set) {
    constexpr std::uint32_t kSetsPerPool = 256;
    const VkDevice dev = gpu_.vk();
    VkDescriptorSetAllocateInfo set_info{};
    set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    set_info.descriptorSetCount = 1;
    set_info.pSetLayouts = &layout;
    set_info.descriptorPool = pool_;
    if (pool_ && vkAllocateDescriptorSets(dev, &set_info, &set) == VK_SUCCESS) return {};
    if (pool_) {
        // Reset after the batch that records this work, which binds sets
        // already taken from the pool (it opens now if none is open).
        gpu_.open();
        gpu_.when_done([this, dev, pool = pool_] {
            vkResetDescriptorPool(dev, pool, 0);
            free_pools_.push_back(pool);
        });
        pool_ = VK_NULL_HANDLE;
        ++generation_;
    }
    if (!free_pools_.empty()) {
        pool_ = free_pools_.back();
        free_pools_.pop_back();
    } else {
        // What one set of any stage may hold, kSetsPerPool times.
        const VkDescriptorPoolSize sizes[] = {
            {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 16 * kSetsPerPool},
            {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 16 * kSetsPerPool},
            {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 128 * kSetsPerPool},
            {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 128 * kSetsPerPool},
            {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 128 * kSetsPerPool},
            {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 64 * kSetsPerPool},
            {VK_DESCRIPTOR_TYPE_SAMPLER, 16 * kSetsPerPool}};
        VkDescriptorPoolCreateInfo pool_info{};
        pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
        pool_info.maxSets = kSetsPerPool;
        pool_info.poolSizeCount = static_cast<std::uint32_t>(std::size(sizes));
        pool_info.pPoolSizes = sizes;
        if (vkCreateDescriptorPool(dev, &pool_info, nullptr, &pool_) != VK_SUCCESS)
            return "the GPU has no descriptor memory left";
    }
    set_info.descriptorPool = pool_;
    if (vkAllocateDescriptorSets(dev, &set_info, &set) != VK_SUCCESS)
        return "the GPU has no descriptor memory left";
    return {};
}

void DescriptorPools::destroy() {
    const VkDevice dev = gpu_.vk();
    for (auto& [key, layout] : layouts_) vkDestroyDescriptorSetLayout(dev, layout, nullptr);
    layouts_.clear();
    if (pool_) free_pools_.push_back(pool_);
    for (VkDescriptorPool pool : free_pools_) vkDestroyDescriptorPool(dev, pool, nullptr);
    pool_ = VK_NULL_HANDLE;
    free_pools_.clear();
}

}  // namespace d3dcap::runtime::backend::vulkan
