// The query slots of draws and dispatches, kept under tickets
// (query_counts.h).
#include "runtime/backend/vulkan/query_counts.h"

#include <cstring>

namespace d3dcap::runtime::backend::vulkan {

bool QueryCounts::start(bool samples, bool statistics, bool stream_output, PendingCounts& out) {
    out = {};
    const VkDevice dev = gpu_.vk();
    auto take = [&](bool wanted, QuerySlots& slots, std::optional<QuerySlots::Slot>& slot) {
        if (!wanted) return true;
        QuerySlots::Slot taken;
        if (!slots.take(dev, reset_commands(), gpu_.first_unfinished_batch(), taken)) return false;
        slot = taken;
        return true;
    };
    // Without the feature the statistics stay zero.
    const bool statistics_counted = statistics && gpu_.device().execution().pipeline_statistics;
    if (take(samples, occlusion_, out.samples) &&
        take(statistics_counted, statistics_, out.statistics) &&
        take(stream_output, stream_, out.stream_output))
        return true;
    give_back(out);
    return false;
}

// After all work recorded so far.
std::uint64_t QueryCounts::write_timestamp() {
    if (!gpu_.timed()) return 0;
    PendingCounts counts;
    QuerySlots::Slot slot;
    if (!timestamps_.take(gpu_.vk(), reset_commands(), gpu_.first_unfinished_batch(), slot))
        return 0;
    // Inside or outside rendering; no barrier: it is written once the work
    // before it is done.
    vkCmdWriteTimestamp2(gpu_.recording(), VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, slot.pool,
                         slot.index);
    counts.timestamp = slot;
    return keep(counts);
}

VkCommandBuffer QueryCounts::reset_commands() {
    return gpu_.device().execution().host_query_reset ? VK_NULL_HANDLE : gpu_.commands();
}

void QueryCounts::give_back(const PendingCounts& counts) {
    if (counts.samples) occlusion_.give_back(*counts.samples, counts.batch);
    if (counts.statistics) statistics_.give_back(*counts.statistics, counts.batch);
    if (counts.stream_output) stream_.give_back(*counts.stream_output, counts.batch);
    if (counts.timestamp) timestamps_.give_back(*counts.timestamp, counts.batch);
}

std::uint64_t QueryCounts::keep(const PendingCounts& counts) {
    if (!counts.samples && !counts.statistics && !counts.stream_output && !counts.timestamp)
        return 0;
    const std::uint64_t ticket = next_ticket_++;
    PendingCounts& kept = pending_[ticket];
    kept = counts;
    kept.batch = gpu_.recording_batch();
    return ticket;
}

bool QueryCounts::count_in_run(VkCommandBuffer commands, bool samples, bool statistics,
                               std::uint64_t epoch, std::uint64_t& ticket) {
    ticket = 0;
    const bool counted = samples || statistics;
    if (run_ && counted && run_->epoch == epoch && run_->samples == samples &&
        run_->statistics == statistics)
        return true;  // counted by the run's queries
    if (run_) end_run(commands);
    if (!counted) return true;
    PendingCounts counts;
    if (!start(samples, statistics, false, counts)) return false;
    if (counts.statistics)
        vkCmdBeginQuery(commands, counts.statistics->pool, counts.statistics->index, 0);
    if (counts.samples)
        vkCmdBeginQuery(
            commands, counts.samples->pool, counts.samples->index,
            gpu_.device().execution().occlusion_precise ? VK_QUERY_CONTROL_PRECISE_BIT : 0);
    ticket = keep(counts);
    run_ = Run{counts, ticket, epoch, samples, statistics};
    return true;
}

void QueryCounts::end_run(VkCommandBuffer commands) {
    const PendingCounts& counts = run_->counts;
    if (counts.samples) vkCmdEndQuery(commands, counts.samples->pool, counts.samples->index);
    if (counts.statistics)
        vkCmdEndQuery(commands, counts.statistics->pool, counts.statistics->index);
    run_.reset();
}

bool QueryCounts::read(std::uint64_t ticket, bool wait, WorkResults& out) {
    if (run_ && run_->ticket == ticket) end_run(gpu_.recording());
    const auto found = pending_.find(ticket);
    if (found == pending_.end()) return false;
    const PendingCounts& counts = found->second;
    if (!gpu_.batch_done(counts.batch) && (!wait || !gpu_.finish())) return false;
    const VkDevice dev = gpu_.vk();
    out = {};
    if (counts.samples && !occlusion_.read(dev, *counts.samples, &out.samples_passed)) return false;
    if (counts.statistics) {
        std::uint64_t values[11] = {};
        static_assert(sizeof values == sizeof out.statistics);
        if (!statistics_.read(dev, *counts.statistics, values)) return false;
        std::memcpy(&out.statistics, values, sizeof values);
    }
    if (counts.stream_output) {
        // Stream 0's primitives written and needed.
        std::uint64_t values[2] = {};
        if (!stream_.read(dev, *counts.stream_output, values)) return false;
        out.stream_output[0].NumPrimitivesWritten = values[0];
        out.stream_output[0].PrimitivesStorageNeeded = values[1];
    }
    if (counts.timestamp && !timestamps_.read(dev, *counts.timestamp, &out.timestamp)) return false;
    return true;
}

void QueryCounts::forget(std::uint64_t ticket) {
    if (run_ && run_->ticket == ticket) end_run(gpu_.recording());
    const auto found = pending_.find(ticket);
    if (found == pending_.end()) return;
    give_back(found->second);
    pending_.erase(found);
}

const PendingCounts* QueryCounts::find(std::uint64_t ticket) const {
    const auto found = pending_.find(ticket);
    return found != pending_.end() ? &found->second : nullptr;
}

void QueryCounts::destroy() {
    for (QuerySlots* slots : {&occlusion_, &statistics_, &stream_, &timestamps_})
        slots->destroy(gpu_.vk());
}

}  // namespace d3dcap::runtime::backend::vulkan
