#include "runtime/backend/vulkan/gpu_context.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <system_error>
#include <thread>

namespace d3dcap::runtime::backend::vulkan {
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
    VkSemaphoreTypeCreateInfo timeline_type{};
    timeline_type.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO;
    timeline_type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo semaphore_info{};
    semaphore_info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
    semaphore_info.pNext = &timeline_type;
    if (vkCreateCommandPool(dev, &pool_info, nullptr, &pool_) != VK_SUCCESS ||
        vkCreateSemaphore(dev, &semaphore_info, nullptr, &timeline_) != VK_SUCCESS) {
        error = "cannot create a command pool or timeline semaphore";
        return false;
    }
    const char* sync = std::getenv("D3DCAP_VULKAN_SYNC");
    sync_steps_ = sync != nullptr && std::string(sync) == "1";
    cpu_device_ = device_->adapter().type == VK_PHYSICAL_DEVICE_TYPE_CPU;

    VkPhysicalDeviceProperties properties{};
    vkGetPhysicalDeviceProperties(device_->physical_device(), &properties);
    timestamp_period_ns_ = properties.limits.timestampPeriod;
    std::uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device_->physical_device(), &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(device_->physical_device(), &family_count,
                                             families.data());
    timestamps_valid_ = device_->general_family() < family_count &&
                        families[device_->general_family()].timestampValidBits > 0;

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
        // Labels go into the command stream; lavapipe (Mesa 22) crashes
        // recording them, so there they go on the queue, after the work
        // before them is submitted.
        queue_labels_ = device_->adapter().type == VK_PHYSICAL_DEVICE_TYPE_CPU;
        const VkInstance instance = device_->instance();
        const auto function = [&](const char* name) {
            return queue_labels_ ? vkGetInstanceProcAddr(instance, name)
                                 : vkGetDeviceProcAddr(dev, name);
        };
        if (queue_labels_) {
            queue_begin_label_ = reinterpret_cast<PFN_vkQueueBeginDebugUtilsLabelEXT>(
                function("vkQueueBeginDebugUtilsLabelEXT"));
            queue_end_label_ = reinterpret_cast<PFN_vkQueueEndDebugUtilsLabelEXT>(
                function("vkQueueEndDebugUtilsLabelEXT"));
            queue_insert_label_ = reinterpret_cast<PFN_vkQueueInsertDebugUtilsLabelEXT>(
                function("vkQueueInsertDebugUtilsLabelEXT"));
        } else {
            begin_label_ = reinterpret_cast<PFN_vkCmdBeginDebugUtilsLabelEXT>(
                function("vkCmdBeginDebugUtilsLabelEXT"));
            end_label_ = reinterpret_cast<PFN_vkCmdEndDebugUtilsLabelEXT>(
                function("vkCmdEndDebugUtilsLabelEXT"));
            insert_label_ = reinterpret_cast<PFN_vkCmdInsertDebugUtilsLabelEXT>(
                function("vkCmdInsertDebugUtilsLabelEXT"));
        }
    }
    return true;
}

GpuContext::~GpuContext() {
    const VkDevice dev = vk();
    finish();
    vkDeviceWaitIdle(dev);
    if (open_) {  // finish failed: the device is lost
        free_buffers_.push_back(open_->buffer);
        if (open_->queries) free_query_pools_.push_back(open_->queries);
    }
    for (Batch& batch : in_flight_)
        if (batch.queries) free_query_pools_.push_back(batch.queries);
    for (VkQueryPool queries : free_query_pools_) vkDestroyQueryPool(dev, queries, nullptr);
    if (staging_) vkDestroyBuffer(dev, staging_, nullptr);
    allocator_.free(staging_memory_);
    if (timeline_) vkDestroySemaphore(dev, timeline_, nullptr);
    if (pool_) vkDestroyCommandPool(dev, pool_, nullptr);
}

bool GpuContext::timestamp_frequency(std::uint64_t* frequency) const {
    if (!timestamps_valid_) return false;
    *frequency = static_cast<std::uint64_t>(1e9 / timestamp_period_ns_);
    return true;
}

void GpuContext::label(Label kind, const std::string& text) {
    VkDebugUtilsLabelEXT label{};
    label.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT;
    label.pLabelName = text.c_str();
    if (queue_labels_ && queue_begin_label_ && queue_end_label_ && queue_insert_label_) {
        if (!submit()) return;
        const VkQueue queue = device_->general_queue();
        if (kind == Label::Begin) queue_begin_label_(queue, &label);
        if (kind == Label::End) queue_end_label_(queue);
        if (kind == Label::Marker) queue_insert_label_(queue, &label);
        return;
    }
    if (!begin_label_ || !end_label_ || !insert_label_) return;
    if (!open_ && !open_batch()) return;
    const VkCommandBuffer buffer = open_->buffer;  // no step of its own
    if (kind == Label::Begin) begin_label_(buffer, &label);
    if (kind == Label::End) end_label_(buffer);
    if (kind == Label::Marker) insert_label_(buffer, &label);
}

void GpuContext::barrier() {
    if (rendering_) end_rendering();
    full_barrier();
    hazards_.poison();
}

void GpuContext::full_barrier() {
    hazards_.clear();
    VkMemoryBarrier2 memory{};
    memory.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2;
    memory.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    memory.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
    memory.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_HOST_BIT;
    memory.dstAccessMask =
        VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_HOST_READ_BIT;
    record_barrier(memory);
}

void GpuContext::record_barrier(const VkMemoryBarrier2& memory) {
    VkDependencyInfo dependency{};
    dependency.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO;
    dependency.memoryBarrierCount = 1;
    dependency.pMemoryBarriers = &memory;
    vkCmdPipelineBarrier2(open_->buffer, &dependency);
    ++counts_.barriers;
}

bool GpuContext::open_batch() {
    auto batch = std::make_unique<Batch>();
    if (!free_buffers_.empty()) {
        batch->buffer = free_buffers_.back();
        free_buffers_.pop_back();
    } else {
        VkCommandBufferAllocateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
        info.commandPool = pool_;
        info.commandBufferCount = 1;
        info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        if (vkAllocateCommandBuffers(vk(), &info, &batch->buffer) != VK_SUCCESS) return false;
    }
    if (timestamps_valid_ && !free_query_pools_.empty()) {
        batch->queries = free_query_pools_.back();
        free_query_pools_.pop_back();
    } else if (timestamps_valid_) {
        VkQueryPoolCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
        info.queryType = VK_QUERY_TYPE_TIMESTAMP;
        info.queryCount = kStepsPerBatch + 1;
        if (vkCreateQueryPool(vk(), &info, nullptr, &batch->queries) != VK_SUCCESS)
            batch->queries = VK_NULL_HANDLE;
    }
    batch->number = next_batch_;
    batch->first_tag = tag_;
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(batch->buffer, &begin);
    if (batch->queries) vkCmdResetQueryPool(batch->buffer, batch->queries, 0, kStepsPerBatch + 1);
    open_ = std::move(batch);
    step_open_ = false;
    ++state_epoch_;
    return true;
}

void GpuContext::open() {
    if (open_ && !step_open_ && open_->steps >= steps_per_batch()) submit();
    if (!open_ && !open_batch()) {
        std::fprintf(stderr, "d3dcap: Vulkan device: cannot allocate a command buffer\n");
        std::abort();  // nothing can record work any more
    }
}

void GpuContext::start_step() {
    step_open_ = true;
    Batch& batch = *open_;
    const bool per_step = step_timing_ == WorkTiming::PerStep;
    // Not a barrier: an ALL_COMMANDS timestamp is written once the work
    // before it is done, so a step's time runs from the end of the work
    // before it to the end of its own, and the steps' times add up to the
    // batch's.
    if (batch.queries && (per_step || batch.query_count == 0)) {
        vkCmdWriteTimestamp2(batch.buffer, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, batch.queries,
                             batch.query_count++);
        batch.tags.push_back(tag_);
    }
    // Per submission the batch's time goes to its last tag of an event.
    if (!per_step && !batch.tags.empty() && tag_ != kUntimedWork) batch.tags.back() = tag_;
    ++batch.steps;
}

VkCommandBuffer GpuContext::commands() {
    open();
    if (rendering_) end_rendering();
    if (step_open_ && !work_step_) return open_->buffer;
    if (!step_open_) start_step();
    work_step_ = false;
    ++state_epoch_;  // untracked commands may bind anything
    // After everything before it (earlier batches, the host's writes to
    // staging memory are ordered by the submission).
    if (!hazards_.empty()) full_barrier();
    hazards_.poison();  // and everything after waits for it
    return open_->buffer;
}

void GpuContext::begin_work() {
    open();
    if (!step_open_) start_step();
    work_step_ = true;
    touched_.clear();
}

void GpuContext::touch(std::uint64_t key, bool write, VkPipelineStageFlags2 stages) {
    touched_.push_back({key, write, stages});
}

VkCommandBuffer GpuContext::render(const RenderTargets& targets) {
    constexpr VkPipelineStageFlags2 kAttachmentStages =
        VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT |
        VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
    const bool same = rendering_ && targets == targets_;
    bool hazard = false;
    for (const Touch& t : touched_) hazard = hazard || hazards_.conflicts(t.key, t.write);
    if (rendering_ && (hazard || !same)) end_rendering();
    if (!rendering_)  // the attachments are written from the start of the pass
        for (std::uint32_t i = 0; i < targets.image_count; ++i)
            hazard = hazard || hazards_.conflicts(targets.images[i], true);
    const VkCommandBuffer buffer = open_->buffer;
    if (hazard) hazard_barrier(VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT);
    for (const Touch& t : touched_) hazards_.touch(t.key, t.write, t.stages);
    touched_.clear();
    if (rendering_) return buffer;
    for (std::uint32_t i = 0; i < targets.image_count; ++i)
        hazards_.touch(targets.images[i], true, kAttachmentStages);
    std::array<VkRenderingAttachmentInfo, RenderTargets::kColors> colors{};
    for (std::uint32_t slot = 0; slot < targets.color_count; ++slot) {
        VkRenderingAttachmentInfo& color = colors[slot];
        color.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
        color.imageView = targets.colors[slot];
        color.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
        color.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
        color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    }
    VkRenderingAttachmentInfo depth = colors[0];
    depth.imageView = targets.depth;
    if (targets.color_count == 0) {
        depth.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
        depth.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
        depth.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
        depth.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    }
    VkRenderingInfo rendering{};
    rendering.sType = VK_STRUCTURE_TYPE_RENDERING_INFO;
    rendering.renderArea = {{0, 0}, targets.area};
    rendering.layerCount = targets.layers;
    rendering.colorAttachmentCount = targets.color_count;
    rendering.pColorAttachments = colors.data();
    if (targets.depth != VK_NULL_HANDLE) {
        rendering.pDepthAttachment = &depth;
        if (targets.stencil) rendering.pStencilAttachment = &depth;
    }
    vkCmdBeginRendering(buffer, &rendering);
    ++counts_.render_passes;
    rendering_ = true;
    ++render_serial_;
    targets_ = targets;
    return buffer;
}

VkCommandBuffer GpuContext::render_again(std::uint64_t serial) {
    if (!rendering_ || serial != render_serial_) return VK_NULL_HANDLE;
    begin_work();
    return open_->buffer;
}

VkCommandBuffer GpuContext::compute() {
    return outside_rendering(VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                             VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT |
                             VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT);
}

VkCommandBuffer GpuContext::transfer() {
    return outside_rendering(VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
}

VkCommandBuffer GpuContext::outside_rendering(VkPipelineStageFlags2 stages) {
    if (rendering_) end_rendering();
    bool hazard = false;
    for (const Touch& t : touched_) hazard = hazard || hazards_.conflicts(t.key, t.write);
    if (hazard) hazard_barrier(stages);
    for (const Touch& t : touched_) hazards_.touch(t.key, t.write, t.stages);
    touched_.clear();
    return open_->buffer;
}

void GpuContext::hazard_barrier(VkPipelineStageFlags2 stages) {
    record_barrier(hazards_.barrier(stages));
}

void GpuContext::end_rendering() {
    if (rendering_ends_) rendering_ends_(open_->buffer);
    vkCmdEndRendering(open_->buffer);
    rendering_ = false;
}

void GpuContext::end_step() {
    if (!step_open_) return;
    step_open_ = false;
    work_step_ = false;
    // A full batch goes now, not when the next call's work begins: that
    // call may mark what it uses as used in the open batch before it
    // records anything.
    if (open_ && open_->steps >= steps_per_batch()) submit();
    if (sync_steps_) finish();
}

void GpuContext::copy_in(std::uint8_t* to, const std::uint8_t* from, std::size_t bytes) {
    constexpr std::size_t kPerThread = std::size_t{2} << 20;
    const std::size_t threads = std::min<std::size_t>(
        {4, std::max(1u, std::thread::hardware_concurrency()), bytes / kPerThread});
    if (threads < 2) {
        std::memcpy(to, from, bytes);
        return;
    }
    const std::size_t part = bytes / threads;
    std::vector<std::future<void>> others;
    for (std::size_t k = 1; k < threads; ++k) {
        const std::size_t size = k + 1 == threads ? bytes - k * part : part;
        try {
            others.push_back(std::async(
                std::launch::async, [=] { std::memcpy(to + k * part, from + k * part, size); }));
        } catch (const std::system_error&) {  // no thread to be had
            std::memcpy(to + k * part, from + k * part, size);
        }
    }
    std::memcpy(to, from, part);
    for (std::future<void>& other : others) other.get();
}

GpuContext::Staging GpuContext::stage(VkDeviceSize bytes) {
    constexpr VkDeviceSize kAlignment = 256;  // any texel size and copy offset
    bytes = align_up(std::max<VkDeviceSize>(bytes, 1), kAlignment);
    for (;;) {
        open();  // the slice belongs to the open batch (which may be a new one)
        if (staging_used_ == 0) staging_head_ = staging_tail_ = 0;
        VkDeviceSize at = kStagingBytes;  // none
        VkDeviceSize skipped = 0;
        if (staging_head_ >= staging_tail_ && staging_used_ < kStagingBytes) {
            if (kStagingBytes - staging_head_ >= bytes) {
                at = staging_head_;
            } else if (staging_tail_ >= bytes) {  // wrap; the end stays unused
                skipped = kStagingBytes - staging_head_;
                at = 0;
            }
        } else if (staging_tail_ - staging_head_ >= bytes) {
            at = staging_head_;
        }
        if (at != kStagingBytes) {
            staging_head_ = at + bytes;
            if (staging_head_ == kStagingBytes) staging_head_ = 0;
            staging_used_ += bytes + skipped;
            open_->staging_bytes += bytes + skipped;
            return {at, staging_bytes_ + at};
        }
        // Full: wait for the oldest batch, or for this one.
        const bool progressed = in_flight_.empty() ? finish() : retire_oldest();
        if (!progressed) return {0, staging_bytes_};  // the device is lost
    }
}

void GpuContext::when_done(std::function<void()> release) {
    const std::uint64_t submitted = in_flight_.empty() ? 0 : in_flight_.back().value;
    if (open_)
        open_->after.push_back(std::move(release));
    else if (timeline_value_ > submitted && !bound_done())
        // A sparse bind made since (bind_now) may still use what is released.
        after_binds_.push_back({timeline_value_, std::move(release)});
    else if (!in_flight_.empty())
        in_flight_.back().after.push_back(std::move(release));
    else
        release();
}

bool GpuContext::bound_done() {
    std::uint64_t reached = 0;
    return vkGetSemaphoreCounterValue(vk(), timeline_, &reached) == VK_SUCCESS &&
           reached >= timeline_value_;
}

std::uint64_t GpuContext::first_unfinished_batch() const {
    if (!in_flight_.empty()) return in_flight_.front().number;
    return open_ ? open_->number : next_batch_ + 1;
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

bool GpuContext::submit() {
    if (!open_) return true;
    Batch& batch = *open_;
    if (batch.queries) {
        vkCmdWriteTimestamp2(batch.buffer, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, batch.queries,
                             batch.query_count++);
    }
    if (rendering_) end_rendering();
    full_barrier();  // this batch's writes before the host reads them
    vkEndCommandBuffer(batch.buffer);
    step_open_ = false;
    work_step_ = false;
    hazards_.clear();  // the next batch waits for this one's semaphore

    const std::uint64_t wait_for = timeline_value_;  // binds and work before this
    const std::uint64_t signal = ++timeline_value_;
    VkTimelineSemaphoreSubmitInfo timeline{};
    timeline.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO;
    timeline.waitSemaphoreValueCount = 1;
    timeline.pWaitSemaphoreValues = &wait_for;
    timeline.signalSemaphoreValueCount = 1;
    timeline.pSignalSemaphoreValues = &signal;
    const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkSubmitInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    info.pNext = &timeline;
    info.waitSemaphoreCount = 1;
    info.pWaitSemaphores = &timeline_;
    info.pWaitDstStageMask = &wait_stage;
    info.signalSemaphoreCount = 1;
    info.pSignalSemaphores = &timeline_;
    info.commandBufferCount = 1;
    info.pCommandBuffers = &batch.buffer;
    if (const VkResult result = vkQueueSubmit(device_->general_queue(), 1, &info, VK_NULL_HANDLE);
        result != VK_SUCCESS) {
        std::fprintf(stderr, "d3dcap: Vulkan device: vkQueueSubmit failed (VkResult %d)\n",
                     static_cast<int>(result));
        --timeline_value_;
        return false;
    }
    batch.value = signal;
    ++counts_.submissions;
    batch.staging_end = staging_head_;
    in_flight_.push_back(std::move(batch));
    open_.reset();
    ++next_batch_;
    if (in_flight_.size() > kBatchesInFlight) return retire_oldest();
    return retire(false);
}

bool GpuContext::finish() {
    if (!submit()) return false;
    return retire(true);
}

bool GpuContext::retire_oldest() {
    if (in_flight_.empty()) return true;
    if (!wait_value(in_flight_.front().value)) return false;
    return retire(false);
}

bool GpuContext::retire(bool wait_all) {
    // Everything: the batches and the sparse binds made after them.
    if (wait_all && (!in_flight_.empty() || !after_binds_.empty()) && !wait_value(timeline_value_))
        return false;
    std::uint64_t reached = 0;
    if (vkGetSemaphoreCounterValue(vk(), timeline_, &reached) != VK_SUCCESS) return false;
    std::size_t bound = 0;
    while (bound < after_binds_.size() && after_binds_[bound].value <= reached)
        after_binds_[bound++].release();
    after_binds_.erase(after_binds_.begin(),
                       after_binds_.begin() + static_cast<std::ptrdiff_t>(bound));
    std::size_t done = 0;
    while (done < in_flight_.size() && in_flight_[done].value <= reached) {
        Batch& batch = in_flight_[done++];
        record_times(batch);
        for (auto& release : batch.after) release();
        staging_used_ -= batch.staging_bytes;
        staging_tail_ = batch.staging_end;
        free_buffers_.push_back(batch.buffer);
        if (batch.queries) free_query_pools_.push_back(batch.queries);
    }
    in_flight_.erase(in_flight_.begin(), in_flight_.begin() + static_cast<std::ptrdiff_t>(done));
    return true;
}

void GpuContext::record_times(Batch& batch) {
    if (batch.query_count < 2) return;
    std::vector<std::uint64_t> ticks(batch.query_count);
    if (vkGetQueryPoolResults(vk(), batch.queries, 0, batch.query_count,
                              ticks.size() * sizeof ticks[0], ticks.data(), sizeof ticks[0],
                              VK_QUERY_RESULT_64_BIT) != VK_SUCCESS)
        return;
    for (std::uint32_t i = 0; i + 1 < batch.query_count; ++i) {
        if (ticks[i + 1] < ticks[i]) continue;
        add_time(batch.tags[i],
                 static_cast<std::uint64_t>(static_cast<double>(ticks[i + 1] - ticks[i]) *
                                            timestamp_period_ns_));
    }
}

void GpuContext::add_time(std::uint64_t tag, std::uint64_t ns) {
    gpu_ns_ += ns;
    if (!times_.empty() && times_.back().tag == tag)
        times_.back().ns += ns;
    else
        times_.push_back({tag, ns});
}

std::uint64_t GpuContext::take_times(bool wait, std::vector<WorkTime>& out) {
    if (wait)
        finish();
    else
        retire(false);
    out.insert(out.end(), times_.begin(), times_.end());
    times_.clear();
    if (!in_flight_.empty()) return in_flight_.front().first_tag;
    return open_ ? open_->first_tag : UINT64_MAX;
}

bool GpuContext::bind_sparse(const vulkan::SparseBatch& batch) {
    if (!submit()) return false;  // recorded work goes first
    return bind_now(batch);
}

bool GpuContext::bind_before_batch(const vulkan::SparseBatch& batch) {
    open();  // a full batch goes first
    return bind_now(batch);
}

bool GpuContext::bind_now(vulkan::SparseBatch batch) {
    const auto start = std::chrono::steady_clock::now();
    batch.wait = timeline_;
    batch.wait_value = timeline_value_;
    batch.signal = timeline_;
    batch.signal_value = timeline_value_ + 1;
    const VkResult result =
        vulkan::submit_sparse_batch(device_->sparse_queue(), batch, VK_NULL_HANDLE);
    if (result != VK_SUCCESS) {
        std::fprintf(stderr, "d3dcap: Vulkan device: vkQueueBindSparse failed (VkResult %d)\n",
                     static_cast<int>(result));
        return false;
    }
    ++timeline_value_;
    add_time(tag_, static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                  std::chrono::steady_clock::now() - start)
                                                  .count()));
    return true;
}

}  // namespace d3dcap::runtime::backend::vulkan
