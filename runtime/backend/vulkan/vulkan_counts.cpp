// What the GPU counts for the host without the host waiting: predicates
// evaluated in the command stream (conditional rendering) from the query
// slots that QueryCounts keeps (query_counts.h), and the 32-bit counters
// the GPU keeps for UAVs and stream-output buffers, set and copied in the
// command stream.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "runtime/backend/vulkan/vulkan_backend.h"

namespace d3dcap::runtime::backend::vulkan {
namespace {

// A predicate's value from the query results at 16 + 16 i (i < the count
// in word 1): 1 where any occlusion count is not zero, or (word 2 set: an
// overflow predicate) where any draw's stream output needed more
// primitives than it wrote; into word 0. One shader for every predicate.
constexpr const char* kPredicateCs = R"(cs_5_0
dcl_uav_raw u0
dcl_temps 4
dcl_thread_group 1, 1, 1
ld_raw r0.x, l(4), u0.xxxx
mov r0.yzw, l(0, 0, 0, 0)
loop
uge r1.x, r0.y, r0.x
breakc_nz r1.x
imad r1.y, r0.y, l(16), l(16)
ld_raw r2.xyzw, r1.y, u0.xyzw
or r1.z, r2.x, r2.y
or r0.z, r0.z, r1.z
ult r3.x, r2.y, r2.w
ieq r3.y, r2.y, r2.w
ult r3.z, r2.x, r2.z
and r3.y, r3.y, r3.z
or r3.x, r3.x, r3.y
or r0.w, r0.w, r3.x
iadd r0.y, r0.y, l(1)
endloop
ld_raw r1.x, l(8), u0.xxxx
movc r0.x, r1.x, r0.w, r0.z
ine r0.x, r0.x, l(0)
and r0.x, r0.x, l(1)
store_raw u0.x, l(0), r0.x
ret
)";

}  // namespace

void VulkanBackend::set_uav_counter(ObjectId view, std::uint32_t value) {
    const Operation call(*this);
    VkDeviceSize offset = 0;
    if (!uav_counters_.slot(view, true, offset)) {
        std::fprintf(stderr, "d3dcap: Vulkan device: no room left for UAV counters\n");
        return;
    }
    vkCmdUpdateBuffer(gpu_->commands(), uav_counters_.buffer(), offset, 4, &value);
}

// The counter's value where the GPU keeps it; the runtime's own value for
// a view no work has used (it is what the view was given).
void VulkanBackend::copy_uav_counter(ObjectId view, std::uint32_t value, ObjectId dest,
                                     std::uint32_t offset) {
    const Operation call(*this);
    VkDeviceSize counter = 0;
    GpuResource* buffer = use(dest);
    if (buffer == nullptr || !buffer->is_buffer()) return;
    if (!uav_counters_.slot(view, false, counter)) {
        const D3D11_BOX box{offset, 0, 0, offset + 4, 1, 1};
        update_subresource(dest, 0, &box, &value, 4, 4, 0);
        return;
    }
    wrote(*buffer);  // before the copy: it may bind tiles
    const VkBufferCopy region{counter, buffer->slice + offset, 4};
    vkCmdCopyBuffer(gpu_->commands(), uav_counters_.buffer(), buffer->buffer, 1, &region);
}

void VulkanBackend::forget_uav_counter(ObjectId view) {
    const Operation call(*this);
    uav_counters_.forget(view);
}

// The counts' query results copied into an internal buffer (runs of slots
// one copy each), reduced by kPredicateCs to the predicate's value: the
// buffer's id. An occlusion predicate counted in one query slot (one draw,
// or draws sharing a slot) needs no reduction: its count, copied as 32
// bits, is the value conditional rendering reads. (Vulkan lets a 32-bit
// copy saturate or wrap: only a count of a nonzero multiple of 2^32
// samples, where it wraps, would read as none.)
std::uint64_t VulkanBackend::gpu_predicate(const std::vector<std::uint64_t>& tickets,
                                           bool overflow) {
    const Operation call(*this);
    if (!gpu_->device().execution().conditional_rendering) return 0;
    if (begin_conditional_ == nullptr) {
        begin_conditional_ = reinterpret_cast<PFN_vkCmdBeginConditionalRenderingEXT>(
            vkGetDeviceProcAddr(gpu_->vk(), "vkCmdBeginConditionalRenderingEXT"));
        end_conditional_ = reinterpret_cast<PFN_vkCmdEndConditionalRenderingEXT>(
            vkGetDeviceProcAddr(gpu_->vk(), "vkCmdEndConditionalRenderingEXT"));
    }
    if (begin_conditional_ == nullptr || end_conditional_ == nullptr) return 0;
    std::vector<QuerySlots::Slot> slots;
    for (const std::uint64_t ticket : tickets) {
        const PendingCounts* counts = queries_.find(ticket);
        if (counts == nullptr) continue;
        const auto& slot = overflow ? counts->stream_output : counts->samples;
        if (slot) slots.push_back(*slot);
    }
    const ObjectId buffer = predicate_buffer(16 + 16 * std::uint64_t{slots.size()});
    if (buffer == 0) return 0;
    const GpuResource& held = *find(buffer);
    const VkBuffer values = held.buffer;
    const std::uint64_t bytes = held.info.byte_width;
    const auto same_slot = [&](const QuerySlots::Slot& slot) {
        return slot.pool == slots[0].pool && slot.index == slots[0].index;
    };
    const bool one_slot =
        !overflow && !slots.empty() && std::all_of(slots.begin(), slots.end(), same_slot);
    // Tracked: the header and the copies (which do not overlap) wait only
    // for earlier work on this buffer; the copies wait for the results.
    gpu_->begin_work();
    gpu_->touch(handle_key(values), true, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT);
    const VkCommandBuffer commands = gpu_->transfer();
    if (one_slot) {
        vkCmdCopyQueryPoolResults(commands, slots[0].pool, slots[0].index, 1, values, 0, 4,
                                  VK_QUERY_RESULT_WAIT_BIT);
        return buffer;
    }
    const std::uint32_t header[4] = {0, static_cast<std::uint32_t>(slots.size()), overflow, 0};
    vkCmdUpdateBuffer(commands, values, 0, sizeof header, header);
    for (std::size_t first = 0; first < slots.size();) {
        std::size_t end = first + 1;
        while (end < slots.size() && slots[end].pool == slots[first].pool &&
               slots[end].index == slots[end - 1].index + 1)
            ++end;
        vkCmdCopyQueryPoolResults(commands, slots[first].pool, slots[first].index,
                                  static_cast<std::uint32_t>(end - first), values, 16 + 16 * first,
                                  16, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        first = end;
    }
    StageWork compute;
    compute.bytecode = internal_shader(kPredicateCs);
    compute.uavs.emplace_back(0, raw_view(buffer, bytes));
    WorkResults results;
    if (const std::string why = dispatch(compute, DispatchSize{1, 1, 1}, results); !why.empty()) {
        std::fprintf(stderr, "d3dcap: Vulkan device: cannot evaluate a predicate: %s\n",
                     why.c_str());
        destroy_resource(buffer);
        return 0;
    }
    return buffer;
}

// Predicates come and go with every occlusion-culled draw: their buffers
// are kept and used again once the work that read them is done, so that
// their views and the descriptor sets naming them stay.
ObjectId VulkanBackend::predicate_buffer(std::uint64_t bytes) {
    // Oldest first: past the first one still in use, all are.
    for (auto kept = free_predicates_.begin();
         kept != free_predicates_.end() && gpu_->batch_done(kept->batch); ++kept) {
        const GpuResource* resource = find(kept->id);
        if (resource == nullptr || resource->info.byte_width < bytes) continue;
        const ObjectId id = kept->id;
        free_predicates_.erase(kept);
        return id;
    }
    std::uint64_t capacity = 256;
    while (capacity < bytes) capacity *= 2;
    return internal_buffer(capacity, nullptr);
}

void VulkanBackend::forget_predicate(std::uint64_t id) {
    const Operation call(*this);
    constexpr std::size_t kKept = 4096;  // a frame's occlusion-culled draws
    if (find(id) == nullptr) return;
    if (free_predicates_.size() >= kKept) {
        destroy_resource(free_predicates_.front().id);
        free_predicates_.erase(free_predicates_.begin());
    }
    free_predicates_.push_back({id, gpu_->recording_batch()});
}

bool VulkanBackend::begin_predicated(VkCommandBuffer commands, const GpuPredicate& predicate) {
    if (predicate.id == 0) return false;
    const GpuResource* values = find(predicate.id);
    if (values == nullptr || begin_conditional_ == nullptr) return false;
    VkConditionalRenderingBeginInfoEXT info{};
    info.sType = VK_STRUCTURE_TYPE_CONDITIONAL_RENDERING_BEGIN_INFO_EXT;
    info.buffer = values->buffer;
    // The work runs where the value is not zero; D3D11 skips it where the
    // result equals the value SetPredication was given.
    info.flags = predicate.skip_when ? VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT : 0;
    begin_conditional_(commands, &info);
    return true;
}

void VulkanBackend::end_predicated(VkCommandBuffer commands, bool predicated) {
    if (predicated) end_conditional_(commands);
}

bool VulkanBackend::read_results(std::uint64_t ticket, bool wait, WorkResults& out) {
    const Operation call(*this);
    return queries_.read(ticket, wait, out);
}

void VulkanBackend::forget_results(std::uint64_t ticket) {
    const Operation call(*this);
    queries_.forget(ticket);
}

std::uint64_t VulkanBackend::write_timestamp() {
    const Operation call(*this);
    return queries_.write_timestamp();
}

}  // namespace d3dcap::runtime::backend::vulkan
