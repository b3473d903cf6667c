#include "runtime/backend/vulkan/stream_output.h"

#include <algorithm>

namespace d3dcap::runtime::backend::vulkan {
namespace {

template <class Function>
Function load(VkDevice device, const char* name) {
    return reinterpret_cast<Function>(vkGetDeviceProcAddr(device, name));
}

}  // namespace

bool StreamOutput::available() {
    if (!loaded_) {
        loaded_ = true;
        if (!gpu_.device().execution().transform_feedback) return false;
        const VkDevice dev = gpu_.vk();
        Commands& f = commands_;
        f.bind = load<PFN_vkCmdBindTransformFeedbackBuffersEXT>(
            dev, "vkCmdBindTransformFeedbackBuffersEXT");
        f.begin = load<PFN_vkCmdBeginTransformFeedbackEXT>(dev, "vkCmdBeginTransformFeedbackEXT");
        f.end = load<PFN_vkCmdEndTransformFeedbackEXT>(dev, "vkCmdEndTransformFeedbackEXT");
        f.begin_query = load<PFN_vkCmdBeginQueryIndexedEXT>(dev, "vkCmdBeginQueryIndexedEXT");
        f.end_query = load<PFN_vkCmdEndQueryIndexedEXT>(dev, "vkCmdEndQueryIndexedEXT");
        f.draw_byte_count =
            load<PFN_vkCmdDrawIndirectByteCountEXT>(dev, "vkCmdDrawIndirectByteCountEXT");
        available_ =
            f.bind && f.begin && f.end && f.begin_query && f.end_query && f.draw_byte_count;
    }
    return available_;
}

std::string StreamOutput::prepare(const StreamOutputWork& so, bool count,
                                  const std::function<GpuResource*(ObjectId)>& target,
                                  Targets& out) {
    out = {};
    if (!so.active()) return {};
    std::uint32_t declared = 0;  // slots the declaration writes
    for (const D3D11_SO_DECLARATION_ENTRY& entry : so.declaration->entries)
        declared |= 1u << entry.OutputSlot;
    std::uint32_t bound = 0;
    for (std::uint32_t slot = 0; slot < so.targets.size(); ++slot)
        if (so.targets[slot]) bound |= 1u << slot;
    // Nothing bound: nothing is written, but SO statistics count what
    // would be (through buffers of no room).
    const bool sinks = (bound & declared) == 0;
    if (sinks && !count) return {};  // the draw only rasterizes
    if (!sinks && (bound & declared) != declared)
        return "the stream-output declaration writes buffer slots that have no buffer bound";
    if (!available()) return "this GPU has no transform feedback";
    if (!counters_.make_buffer()) return "the device has no memory for stream-output counters";
    while ((declared >> out.count) != 0) ++out.count;
    for (std::uint32_t slot = 0; slot < out.count; ++slot) {
        if (!(declared & (1u << slot)) || sinks) continue;
        GpuResource* buffer = target(so.targets[slot]);
        if (buffer == nullptr || !buffer->is_buffer())
            return "stream-output slot " + std::to_string(slot) +
                   " is not bound to a buffer of this device";
        VkDeviceSize counter = 0;
        if (!counters_.slot(buffer->info.id, true, counter))
            return "the device has no room left for stream-output counters";
        out.buffers[slot] = buffer->buffer;
        out.sizes[slot] = buffer->info.byte_width;
        out.counters[slot] = counters_.buffer();
        out.counter_offsets[slot] = counter;
        // An offset from SOSetTargets: writing starts there (the counter is
        // where transform feedback resumes).
        if (so.offsets[slot] != StreamOutputWork::kAppend) {
            const std::uint32_t start = static_cast<std::uint32_t>(
                std::min<std::uint64_t>(so.offsets[slot], buffer->info.byte_width));
            vkCmdUpdateBuffer(gpu_.commands(), counters_.buffer(), counter, 4, &start);
        }
    }
    // Slots below the last that the declaration does not write take a
    // buffer nothing is written to, without a counter; sinks one with no
    // room.
    for (std::uint32_t slot = 0; slot < out.count; ++slot) {
        if ((declared & (1u << slot)) && !sinks) continue;
        out.buffers[slot] = counters_.buffer();
        out.sizes[slot] = sinks ? 0 : 4;
    }
    out.query = count;
    return {};
}

void StreamOutput::begin(VkCommandBuffer commands, const Targets& targets,
                         const std::optional<QuerySlots::Slot>& query) {
    if (targets.count == 0) return;
    const Commands& f = commands_;
    f.bind(commands, 0, targets.count, targets.buffers, targets.offsets, targets.sizes);
    f.begin(commands, 0, targets.count, targets.counters, targets.counter_offsets);
    if (query) f.begin_query(commands, query->pool, query->index, 0, 0);
}

void StreamOutput::end(VkCommandBuffer commands, const Targets& targets,
                       const std::optional<QuerySlots::Slot>& query) {
    if (targets.count == 0) return;
    const Commands& f = commands_;
    if (query) f.end_query(commands, query->pool, query->index, 0);
    f.end(commands, 0, targets.count, targets.counters, targets.counter_offsets);
}

bool StreamOutput::written_counter(ObjectId buffer, VkBuffer& counter, VkDeviceSize& offset) {
    if (buffer == 0 || !counters_.slot(buffer, false, offset)) return false;
    counter = counters_.buffer();
    return true;
}

void StreamOutput::draw_auto(VkCommandBuffer commands, VkBuffer counter,
                             VkDeviceSize counter_offset, std::uint32_t vertex_offset,
                             std::uint32_t stride) {
    commands_.draw_byte_count(commands, 1, 0, counter, counter_offset, vertex_offset, stride);
}

}  // namespace d3dcap::runtime::backend::vulkan
