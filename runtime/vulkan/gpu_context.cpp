#include "runtime/vulkan/gpu_context.h"

#include <chrono>
#include <cstdio>

namespace d3dcap::runtime::gpu {
namespace {

constexpr VkDeviceSize kBlockBytes = VkDeviceSize{64} << 20;

VkDeviceSize align_up(VkDeviceSize value, VkDeviceSize alignment) {
    return alignment <= 1 ? value : (value + alignment - 1) / alignment * alignment;
}

}  // namespace

DeviceAllocator::DeviceAllocator(const vulkan::VulkanDevice& device) : device_(device) {}

DeviceAllocator::~DeviceAllocator() {
    for (Block& block : blocks_) {
        if (block.memory) vkFreeMemory(device_.device(), block.memory, nullptr);
    }
}

VkResult DeviceAllocator::new_block(std::uint32_t type, bool linear, VkDeviceSize size,
                                    bool dedicated, std::uint32_t& index) {
    VkMemoryAllocateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    info.allocationSize = size;
    info.memoryTypeIndex = type;
    Block block;
    if (const VkResult result = vkAllocateMemory(device_.device(), &info, nullptr, &block.memory);
        result != VK_SUCCESS) {
        return result;
    }
    block.size = size;
    block.type = type;
    block.linear = linear;
    block.dedicated = dedicated;
    for (const vulkan::MemoryTypeInfo& memory_type : device_.adapter().memory_types) {
        if (memory_type.index != type ||
            !(memory_type.flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)) {
            continue;
        }
        void* mapped = nullptr;
        if (vkMapMemory(device_.device(), block.memory, 0, VK_WHOLE_SIZE, 0, &mapped) ==
            VK_SUCCESS) {
            block.mapped = static_cast<std::uint8_t*>(mapped);
        }
    }
    if (!dedicated) block.free_ranges.emplace(0, size);
    index = static_cast<std::uint32_t>(blocks_.size());
    blocks_.push_back(std::move(block));
    return VK_SUCCESS;
}

VkResult DeviceAllocator::allocate(const VkMemoryRequirements& requirements, bool linear,
                                   VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred,
                                   Allocation& out) {
    const std::optional<std::uint32_t> type =
        device_.find_memory_type(requirements.memoryTypeBits, required, preferred);
    if (!type) return VK_ERROR_FEATURE_NOT_PRESENT;
    const VkDeviceSize size = std::max<VkDeviceSize>(requirements.size, 1);
    if (size > kBlockBytes / 4) {
        std::uint32_t index = 0;
        if (const VkResult result = new_block(*type, linear, size, true, index);
            result != VK_SUCCESS) {
            return result;
        }
        out = Allocation{blocks_[index].memory, 0, size, blocks_[index].mapped, index};
        return VK_SUCCESS;
    }
    auto try_block = [&](std::uint32_t index) {
        Block& block = blocks_[index];
        for (auto range = block.free_ranges.begin(); range != block.free_ranges.end(); ++range) {
            const VkDeviceSize start = align_up(range->first, requirements.alignment);
            const VkDeviceSize end = range->first + range->second;
            if (start + size > end) continue;
            const VkDeviceSize before = start - range->first;
            const VkDeviceSize range_start = range->first;
            block.free_ranges.erase(range);
            if (before > 0) block.free_ranges.emplace(range_start, before);
            if (start + size < end) block.free_ranges.emplace(start + size, end - start - size);
            out = Allocation{block.memory, start, size,
                             block.mapped ? block.mapped + start : nullptr, index};
            return true;
        }
        return false;
    };
    for (std::uint32_t index = 0; index < blocks_.size(); ++index) {
        const Block& block = blocks_[index];
        if (block.memory && !block.dedicated && block.type == *type && block.linear == linear &&
            try_block(index)) {
            return VK_SUCCESS;
        }
    }
    std::uint32_t index = 0;
    if (const VkResult result = new_block(*type, linear, kBlockBytes, false, index);
        result != VK_SUCCESS) {
        return result;
    }
    return try_block(index) ? VK_SUCCESS : VK_ERROR_OUT_OF_DEVICE_MEMORY;
}

void DeviceAllocator::free(const Allocation& allocation) {
    if (!allocation.memory || allocation.block >= blocks_.size()) return;
    Block& block = blocks_[allocation.block];
    if (block.dedicated) {
        vkFreeMemory(device_.device(), block.memory, nullptr);
        block.memory = VK_NULL_HANDLE;
        return;
    }
    // Merge with the free neighbours.
    VkDeviceSize start = allocation.offset, end = allocation.offset + allocation.size;
    auto next = block.free_ranges.lower_bound(start);
    if (next != block.free_ranges.end() && next->first == end) {
        end += next->second;
        next = block.free_ranges.erase(next);
    }
    if (next != block.free_ranges.begin()) {
        auto previous = std::prev(next);
        if (previous->first + previous->second == start) {
            start = previous->first;
            block.free_ranges.erase(previous);
        }
    }
    block.free_ranges.emplace(start, end - start);
}

GpuContext::GpuContext(std::unique_ptr<vulkan::VulkanDevice> device)
    : device_(std::move(device)), allocator_(*device_) {}

std::unique_ptr<GpuContext> GpuContext::create(std::unique_ptr<vulkan::VulkanDevice> device,
                                               std::string& error) {
    std::unique_ptr<GpuContext> context(new GpuContext(std::move(device)));
    if (!context->init(error)) return nullptr;
    return context;
}

bool GpuContext::init(std::string& error) {
    const VkDevice dev = vk();
    VkCommandPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool_info.queueFamilyIndex = device_->general_family();
    VkCommandBufferAllocateInfo buffer_info{};
    buffer_info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    VkSemaphoreTypeCreateInfo timeline_type{};
    timeline_type.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO;
    timeline_type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo semaphore_info{};
    semaphore_info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    semaphore_info.pNext = &timeline_type;
    if (vkCreateCommandPool(dev, &pool_info, nullptr, &pool_) != VK_SUCCESS ||
        (buffer_info.commandPool = pool_, buffer_info.commandBufferCount = 1,
         buffer_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
         vkAllocateCommandBuffers(dev, &buffer_info, &buffer_) != VK_SUCCESS) ||
        vkCreateSemaphore(dev, &semaphore_info, nullptr, &timeline_) != VK_SUCCESS) {
        error = "cannot create a command pool, command buffer or timeline semaphore";
        return false;
    }

    VkPhysicalDeviceProperties properties{};
    vkGetPhysicalDeviceProperties(device_->physical_device(), &properties);
    timestamp_period_ns_ = properties.limits.timestampPeriod;
    std::uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device_->physical_device(), &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(device_->physical_device(), &family_count,
                                             families.data());
    if (device_->general_family() < family_count &&
        families[device_->general_family()].timestampValidBits > 0) {
        VkQueryPoolCreateInfo query_info{};
        query_info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
        query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
        query_info.queryCount = 2;
        timestamps_valid_ =
            vkCreateQueryPool(dev, &query_info, nullptr, &timestamps_) == VK_SUCCESS;
    }

    VkBufferCreateInfo staging_info{};

    staging_info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    staging_info.size = kStagingBytes;
    staging_info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (vkCreateBuffer(dev, &staging_info, nullptr, &staging_) != VK_SUCCESS) {
        error = "cannot create the staging buffer";
        return false;
    }
    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(dev, staging_, &requirements);
    if (allocator_.allocate(
            requirements, true,
            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
            VK_MEMORY_PROPERTY_HOST_CACHED_BIT, staging_memory_) != VK_SUCCESS ||
        !staging_memory_.mapped ||
        vkBindBufferMemory(dev, staging_, staging_memory_.memory, staging_memory_.offset) !=
            VK_SUCCESS) {
        error = "cannot allocate 64 MiB of host-visible staging memory";
        return false;
    }
    staging_bytes_ = staging_memory_.mapped;
    if (device_->debug_utils_enabled()) {
        const VkInstance instance = device_->instance();
        begin_label_ = reinterpret_cast<PFN_vkQueueBeginDebugUtilsLabelEXT>(
            vkGetInstanceProcAddr(instance, "vkQueueBeginDebugUtilsLabelEXT"));
        end_label_ = reinterpret_cast<PFN_vkQueueEndDebugUtilsLabelEXT>(
            vkGetInstanceProcAddr(instance, "vkQueueEndDebugUtilsLabelEXT"));
        insert_label_ = reinterpret_cast<PFN_vkQueueInsertDebugUtilsLabelEXT>(
            vkGetInstanceProcAddr(instance, "vkQueueInsertDebugUtilsLabelEXT"));
    }
    return true;
}

bool GpuContext::timestamp(std::uint64_t* ticks, std::uint64_t* frequency) {
    if (!timestamps_valid_) return false;
    commands();
    if (!finish()) return false;
    *ticks = last_ticks_;
    *frequency = static_cast<std::uint64_t>(1e9 / timestamp_period_ns_);
    return true;
}

void GpuContext::label(Label kind, const std::string& text) {
    VkDebugUtilsLabelEXT label{};
    label.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT;
    label.pLabelName = text.c_str();
    const VkQueue queue = device_->general_queue();
    if (kind == Label::Begin && begin_label_) begin_label_(queue, &label);
    if (kind == Label::End && end_label_) end_label_(queue);
    if (kind == Label::Marker && insert_label_) insert_label_(queue, &label);
}

GpuContext::~GpuContext() {
    const VkDevice dev = vk();
    vkDeviceWaitIdle(dev);
    if (staging_) vkDestroyBuffer(dev, staging_, nullptr);
    allocator_.free(staging_memory_);
    if (timestamps_) vkDestroyQueryPool(dev, timestamps_, nullptr);
    if (timeline_) vkDestroySemaphore(dev, timeline_, nullptr);
    if (pool_) vkDestroyCommandPool(dev, pool_, nullptr);
}

void GpuContext::barrier() {
    VkMemoryBarrier2 memory{};
    memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2;
    memory.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    memory.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
    memory.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_HOST_BIT;
    memory.dstAccessMask =
        VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_HOST_READ_BIT;
    VkDependencyInfo dependency{};
    dependency.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO;
    dependency.memoryBarrierCount = 1;
    dependency.pMemoryBarriers = &memory;
    vkCmdPipelineBarrier2(buffer_, &dependency);
}

VkCommandBuffer GpuContext::commands() {
    if (open_) return buffer_;
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(buffer_, &begin);
    open_ = true;
    if (timestamps_valid_) {
        vkCmdResetQueryPool(buffer_, timestamps_, 0, 2);
        vkCmdWriteTimestamp2(buffer_, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, timestamps_, 0);
    }
    barrier();  // earlier calls' writes, and the host's, before this call's work
    return buffer_;
}

bool GpuContext::wait_value(std::uint64_t value) {
    VkSemaphoreWaitInfo wait{};
    wait.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO;
    wait.semaphoreCount = 1;
    wait.pSemaphores = &timeline_;
    wait.pValues = &value;
    const VkResult result = vkWaitSemaphores(vk(), &wait, UINT64_MAX);
    if (result != VK_SUCCESS) {
        std::fprintf(stderr, "d3dcap: Vulkan device: waiting for the GPU failed (VkResult %d)\n",
                     static_cast<int>(result));
        return false;
    }
    return true;
}

bool GpuContext::finish() {
    if (!open_) return true;
    barrier();  // this call's writes before the host reads staging memory
    if (timestamps_valid_) {
        vkCmdWriteTimestamp2(buffer_, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT, timestamps_, 1);
    }
    vkEndCommandBuffer(buffer_);
    open_ = false;

    const std::uint64_t wait_for = timeline_value_;  // binds before this work
    const std::uint64_t signal = ++timeline_value_;
    VkTimelineSemaphoreSubmitInfo timeline{};
    timeline.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO;
    timeline.waitSemaphoreValueCount = 1;
    timeline.pWaitSemaphoreValues = &wait_for;
    timeline.signalSemaphoreValueCount = 1;
    timeline.pSignalSemaphoreValues = &signal;
    const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.pNext = &timeline;
    submit.waitSemaphoreCount = 1;
    submit.pWaitSemaphores = &timeline_;
    submit.pWaitDstStageMask = &wait_stage;
    submit.signalSemaphoreCount = 1;
    submit.pSignalSemaphores = &timeline_;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &buffer_;
    if (const VkResult result = vkQueueSubmit(device_->general_queue(), 1, &submit, VK_NULL_HANDLE);
        result != VK_SUCCESS) {
        std::fprintf(stderr, "d3dcap: Vulkan device: vkQueueSubmit failed (VkResult %d)\n",
                     static_cast<int>(result));
        return false;
    }
    if (!wait_value(signal)) return false;
    if (timestamps_valid_) {
        std::uint64_t ticks[2] = {};
        if (vkGetQueryPoolResults(vk(), timestamps_, 0, 2, sizeof ticks, ticks, sizeof ticks[0],
                                  VK_QUERY_RESULT_64_BIT) == VK_SUCCESS &&
            ticks[1] >= ticks[0]) {
            last_ticks_ = ticks[1];
            gpu_ns_ += static_cast<std::uint64_t>(static_cast<double>(ticks[1] - ticks[0]) *
                                                  timestamp_period_ns_);
        }
    }
    return true;
}

bool GpuContext::bind_sparse(vulkan::SparseBatch batch, bool no_overwrite) {
    if (!finish()) return false;  // recorded work goes first
    const auto start = std::chrono::steady_clock::now();
    // Every earlier submission has signalled by now (finish waits), so the
    // wait only matters once work is left in flight; NO_OVERWRITE skips it.
    batch.wait = no_overwrite ? VK_NULL_HANDLE : timeline_;
    batch.wait_value = timeline_value_;
    batch.signal = timeline_;
    batch.signal_value = ++timeline_value_;
    const VkResult result =
        vulkan::submit_sparse_batch(device_->sparse_queue(), batch, VK_NULL_HANDLE);
    if (result != VK_SUCCESS) {
        std::fprintf(stderr, "d3dcap: Vulkan device: vkQueueBindSparse failed (VkResult %d)\n",
                     static_cast<int>(result));
        --timeline_value_;
        return false;
    }
    if (!wait_value(batch.signal_value)) return false;
    gpu_ns_ += static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                              std::chrono::steady_clock::now() - start)
                                              .count());
    return true;
}

}  // namespace d3dcap::runtime::gpu
