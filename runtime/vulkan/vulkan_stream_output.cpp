// Stream output on the Vulkan device: transform feedback into the
// SOSetTargets buffers, resumed from and counted into a per-buffer counter
// (D3D11's BufferFilledSize) that SOSetTargets' offsets set, DrawAuto reads
// (vkCmdDrawIndirectByteCountEXT) and SO statistics queries count around.
#include <cstring>

#include "runtime/vulkan/vulkan_backend.h"

namespace d3dcap::runtime::gpu {
namespace {

constexpr std::uint32_t kStreamCounterSlots = 4096;

template <class Function>
Function load(VkDevice device, const char* name) {
    return reinterpret_cast<Function>(vkGetDeviceProcAddr(device, name));
}

}  // namespace

const VulkanBackend::TransformFeedbackCommands* VulkanBackend::transform_feedback() {
    if (!gpu_->device().execution().transform_feedback) return nullptr;
    if (!transform_feedback_loaded_) {
        transform_feedback_loaded_ = true;
        const VkDevice dev = gpu_->vk();
        TransformFeedbackCommands& f = transform_feedback_;
        f.bind = load<PFN_vkCmdBindTransformFeedbackBuffersEXT>(
            dev, "vkCmdBindTransformFeedbackBuffersEXT");
        f.begin = load<PFN_vkCmdBeginTransformFeedbackEXT>(dev, "vkCmdBeginTransformFeedbackEXT");
        f.end = load<PFN_vkCmdEndTransformFeedbackEXT>(dev, "vkCmdEndTransformFeedbackEXT");
        f.begin_query = load<PFN_vkCmdBeginQueryIndexedEXT>(dev, "vkCmdBeginQueryIndexedEXT");
        f.end_query = load<PFN_vkCmdEndQueryIndexedEXT>(dev, "vkCmdEndQueryIndexedEXT");
        f.draw_byte_count =
            load<PFN_vkCmdDrawIndirectByteCountEXT>(dev, "vkCmdDrawIndirectByteCountEXT");
    }
    const TransformFeedbackCommands& f = transform_feedback_;
    return f.bind && f.begin && f.end && f.begin_query && f.end_query && f.draw_byte_count
               ? &f
               : nullptr;
}

// The byte offset of a buffer's counter; with make, a new one (zero: the
// buffer holds nothing yet) where it has none.
bool VulkanBackend::stream_counter(ObjectId buffer, bool make, VkDeviceSize& offset) {
    if (const auto found = stream_counter_slots_.find(buffer);
        found != stream_counter_slots_.end()) {
        offset = VkDeviceSize{found->second} * 4;
        return true;
    }
    if (!make) return false;
    if (!stream_counters_) {
        stream_counters_ = std::make_unique<GpuResource>();
        stream_counters_->info.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
        stream_counters_->info.byte_width = kStreamCounterSlots * 4;
        if (FAILED(create_buffer(*stream_counters_))) {
            stream_counters_.reset();
            return false;
        }
        for (std::uint32_t slot = kStreamCounterSlots; slot-- > 0;)
            free_stream_counter_slots_.push_back(slot);
    }
    if (free_stream_counter_slots_.empty()) return false;
    const std::uint32_t slot = free_stream_counter_slots_.back();
    free_stream_counter_slots_.pop_back();
    stream_counter_slots_[buffer] = slot;
    offset = VkDeviceSize{slot} * 4;
    vkCmdFillBuffer(gpu_->commands(), stream_counters_->buffer, offset, 4, 0);
    gpu_->barrier();  // before SOSetTargets' offset is written over it
    return true;
}

void VulkanBackend::forget_stream_counter(ObjectId buffer) {
    const auto found = stream_counter_slots_.find(buffer);
    if (found == stream_counter_slots_.end()) return;
    free_stream_counter_slots_.push_back(found->second);
    stream_counter_slots_.erase(found);
}

std::string VulkanBackend::prepare_stream_output(const DrawWork& work, StreamOutputTargets& out) {
    out = {};
    const StreamOutputWork& so = work.stream_output;
    if (!so.active()) return {};
    std::uint32_t declared = 0;  // slots the declaration writes
    for (const D3D11_SO_DECLARATION_ENTRY& entry : so.declaration->entries)
        declared |= 1u << entry.OutputSlot;
    std::uint32_t bound = 0;
    for (std::uint32_t slot = 0; slot < so.targets.size(); ++slot)
        if (so.targets[slot]) bound |= 1u << slot;
    if ((bound & declared) == 0) return {};  // nothing to write: the draw only rasterizes
    if ((bound & declared) != declared)
        return "the stream-output declaration writes buffer slots that have no buffer bound";
    if (transform_feedback() == nullptr) return "this GPU has no transform feedback";
    while ((declared >> out.count) != 0) ++out.count;
    for (std::uint32_t slot = 0; slot < out.count; ++slot) {
        if (!(declared & (1u << slot))) continue;
        GpuResource* buffer = use(so.targets[slot]);
        if (buffer == nullptr || !buffer->is_buffer())
            return "stream-output slot " + std::to_string(slot) +
                   " is not bound to a buffer of this device";
        VkDeviceSize counter = 0;
        if (!stream_counter(buffer->info.id, true, counter))
            return "the device has no room left for stream-output counters";
        wrote(*buffer);
        out.buffers[slot] = buffer->buffer;
        out.sizes[slot] = buffer->info.byte_width;
        out.counters[slot] = stream_counters_->buffer;
        out.counter_offsets[slot] = counter;
        // An offset from SOSetTargets: writing starts there (the counter is
        // where transform feedback resumes).
        if (so.offsets[slot] != StreamOutputWork::kAppend) {
            const std::uint32_t start = static_cast<std::uint32_t>(
                std::min<std::uint64_t>(so.offsets[slot], buffer->info.byte_width));
            vkCmdUpdateBuffer(gpu_->commands(), stream_counters_->buffer, counter, 4, &start);
        }
    }
    // Slots below the last that the declaration does not write take a
    // buffer nothing is written to, without a counter.
    for (std::uint32_t slot = 0; slot < out.count; ++slot) {
        if (declared & (1u << slot)) continue;
        out.buffers[slot] = stream_counters_->buffer;
        out.sizes[slot] = 4;
    }
    if (work.count_stream_output) {
        if (stream_query_pool_ == VK_NULL_HANDLE) {
            VkQueryPoolCreateInfo info{};
            info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
            info.queryType = VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT;
            info.queryCount = 1;
            if (vkCreateQueryPool(gpu_->vk(), &info, nullptr, &stream_query_pool_) != VK_SUCCESS)
                return "the GPU cannot make a stream-output query";
        }
        vkCmdResetQueryPool(gpu_->commands(), stream_query_pool_, 0, 1);
        out.query = true;
    }
    return {};
}

void VulkanBackend::begin_stream_output(VkCommandBuffer commands,
                                        const StreamOutputTargets& targets) {
    if (targets.count == 0) return;
    const TransformFeedbackCommands& f = *transform_feedback();
    f.bind(commands, 0, targets.count, targets.buffers, targets.offsets, targets.sizes);
    f.begin(commands, 0, targets.count, targets.counters, targets.counter_offsets);
    if (targets.query) f.begin_query(commands, stream_query_pool_, 0, 0, 0);
}

void VulkanBackend::end_stream_output(VkCommandBuffer commands,
                                      const StreamOutputTargets& targets) {
    if (targets.count == 0) return;
    const TransformFeedbackCommands& f = *transform_feedback();
    if (targets.query) f.end_query(commands, stream_query_pool_, 0, 0);
    f.end(commands, 0, targets.count, targets.counters, targets.counter_offsets);
}

// Stream 0's primitives written and needed, after the work is done.
void VulkanBackend::read_stream_output_query(WorkResults& results) {
    std::uint64_t counts[2] = {};
    if (vkGetQueryPoolResults(gpu_->vk(), stream_query_pool_, 0, 1, sizeof counts, counts,
                              sizeof counts,
                              VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT) != VK_SUCCESS)
        return;
    results.stream_output[0].NumPrimitivesWritten = counts[0];
    results.stream_output[0].PrimitivesStorageNeeded = counts[1];
}

bool VulkanBackend::draw_auto_counter(const DrawWork& work, VkBuffer& counter,
                                      VkDeviceSize& offset) {
    const ObjectId buffer = work.vertex_buffers[0].buffer;
    if (buffer == 0 || !stream_counter(buffer, false, offset)) return false;
    counter = stream_counters_->buffer;
    return true;
}

}  // namespace d3dcap::runtime::gpu
