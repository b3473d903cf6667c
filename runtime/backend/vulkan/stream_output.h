// Stream output on the Vulkan device: transform feedback into the
// SOSetTargets buffers, resumed from and counted into a per-buffer counter
// (D3D11's BufferFilledSize) that SOSetTargets' offsets set, DrawAuto reads
// (vkCmdDrawIndirectByteCountEXT) and SO statistics queries count around.
// Internal to libd3dcap.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "runtime/backend/backend.h"
#include "runtime/backend/vulkan/counter_slots.h"
#include "runtime/backend/vulkan/gpu_context.h"
#include "runtime/backend/vulkan/gpu_resource.h"
#include "runtime/backend/vulkan/query_slots.h"

namespace d3dcap::runtime::backend::vulkan {

class StreamOutput {
  public:
    // `usage`: the usage flags of the buffer that holds the counters.
    StreamOutput(GpuContext& gpu, VkBufferUsageFlags usage) : gpu_(gpu), counters_(gpu, 4, usage) {}
    StreamOutput(const StreamOutput&) = delete;
    StreamOutput& operator=(const StreamOutput&) = delete;

    // What a draw streams into: slots 0..count-1 bound.
    struct Targets {
        std::uint32_t count = 0;
        VkBuffer buffers[D3D11_SO_BUFFER_SLOT_COUNT] = {};
        VkDeviceSize offsets[D3D11_SO_BUFFER_SLOT_COUNT] = {},
                     sizes[D3D11_SO_BUFFER_SLOT_COUNT] = {};
        VkBuffer counters[D3D11_SO_BUFFER_SLOT_COUNT] = {};
        VkDeviceSize counter_offsets[D3D11_SO_BUFFER_SLOT_COUNT] = {};
        bool query = false;  // an SO statistics query runs around the draw
    };
    // Whether the GPU streams out (its commands are loaded at the first ask).
    bool available();
    // Before the draw's commands and barrier: the targets, their counters
    // set where SOSetTargets gave offsets (`count`: an SO statistics query
    // runs around the draw). `target` gives the buffer bound at a slot as
    // work recorded now uses and writes it, null where it is none of this
    // device's. Empty, or why not.
    std::string prepare(const StreamOutputWork& work, bool count,
                        const std::function<GpuResource*(ObjectId)>& target, Targets& out);
    // Inside rendering, around the draw (`query`: the SO statistics slot).
    void begin(VkCommandBuffer commands, const Targets& targets,
               const std::optional<QuerySlots::Slot>& query);
    void end(VkCommandBuffer commands, const Targets& targets,
             const std::optional<QuerySlots::Slot>& query);
    // DrawAuto of what stream output wrote to `buffer` (false where it never
    // wrote it: nothing to draw): the counter it reads.
    bool written_counter(ObjectId buffer, VkBuffer& counter, VkDeviceSize& offset);
    // DrawAuto's command, given the counter (`available()` first).
    void draw_auto(VkCommandBuffer commands, VkBuffer counter, VkDeviceSize counter_offset,
                   std::uint32_t vertex_offset, std::uint32_t stride);
    // The buffer holding every counter (null before the first), for the
    // hazards of work that streams out or draws what was streamed.
    VkBuffer counters() const { return counters_.buffer(); }
    // A buffer gone: its counter with it.
    void forget(ObjectId buffer) { counters_.forget(buffer); }
    // The device's end.
    void destroy() { counters_.destroy(); }

  private:
    struct Commands {
        PFN_vkCmdBindTransformFeedbackBuffersEXT bind = nullptr;
        PFN_vkCmdBeginTransformFeedbackEXT begin = nullptr;
        PFN_vkCmdEndTransformFeedbackEXT end = nullptr;
        PFN_vkCmdBeginQueryIndexedEXT begin_query = nullptr;
        PFN_vkCmdEndQueryIndexedEXT end_query = nullptr;
        PFN_vkCmdDrawIndirectByteCountEXT draw_byte_count = nullptr;
    };

    GpuContext& gpu_;
    CounterSlots counters_;  // by buffer
    Commands commands_;
    bool loaded_ = false, available_ = false;
};

}  // namespace d3dcap::runtime::backend::vulkan
