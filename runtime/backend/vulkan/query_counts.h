// What draws and dispatches count for the D3D11 queries running around
// them, left in the command stream until a query's result is asked for:
// the Vulkan query slots of each piece of work, kept under a ticket that
// the runtime reads or forgets. Consecutive draws in one render pass
// instance inside the same D3D11 queries share one set of slots (a run),
// begun by the first (whose ticket it is) and ended before a draw outside
// them, at the render pass's end, or when its ticket is read. Timestamps
// are kept the same way.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "runtime/backend/backend.h"
#include "runtime/backend/vulkan/gpu_context.h"
#include "runtime/backend/vulkan/query_slots.h"

namespace d3dcap::runtime::backend::vulkan {

// The query slots of one draw or dispatch, by what the running queries count.
struct PendingCounts {
    std::optional<QuerySlots::Slot> samples, statistics, stream_output, timestamp;
    std::uint64_t batch = 0;  // the batch that records the work
};

class QueryCounts {
  public:
    explicit QueryCounts(GpuContext& gpu) : gpu_(gpu) {}
    QueryCounts(const QueryCounts&) = delete;
    QueryCounts& operator=(const QueryCounts&) = delete;

    // Takes (and resets) the slots of one piece of work, before rendering;
    // false: the GPU cannot make a query.
    bool start(bool samples, bool statistics, bool stream_output, PendingCounts& out);
    // The ticket of recorded counts (0 when nothing was counted).
    std::uint64_t keep(const PendingCounts& counts);
    // A draw's counts in the run of the draws before it, its queries begun
    // in `commands` (a render pass instance) where it starts a new run:
    // `ticket` is the run's for the draw that begins it, else 0 (counted
    // already); false: the GPU cannot make a query.
    bool count_in_run(VkCommandBuffer commands, bool samples, bool statistics, std::uint64_t epoch,
                      std::uint64_t& ticket);
    bool running() const { return run_.has_value(); }
    void end_run(VkCommandBuffer commands);
    // A timestamp written after all work recorded so far (0: none).
    std::uint64_t write_timestamp();
    // The counts of a ticket (null when it is not kept).
    const PendingCounts* find(std::uint64_t ticket) const;
    // The counts once their work is done (with wait, waiting for it);
    // false while it is not, or when the device is lost.
    bool read(std::uint64_t ticket, bool wait, WorkResults& out);
    void forget(std::uint64_t ticket);
    void destroy();

  private:
    // Where slots are reset: null on the host, else untracked commands.
    VkCommandBuffer reset_commands();
    void give_back(const PendingCounts& counts);

    GpuContext& gpu_;
    QuerySlots occlusion_{VK_QUERY_TYPE_OCCLUSION, 0, 1};
    QuerySlots statistics_{VK_QUERY_TYPE_PIPELINE_STATISTICS, kD3D11Statistics, 11};
    QuerySlots stream_{VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT, 0, 2};
    QuerySlots timestamps_{VK_QUERY_TYPE_TIMESTAMP, 0, 1};
    std::unordered_map<std::uint64_t, PendingCounts> pending_;
    std::uint64_t next_ticket_ = 1;
    struct Run {
        PendingCounts counts;
        std::uint64_t ticket = 0, epoch = 0;
        bool samples = false, statistics = false;
    };
    std::optional<Run> run_;
};

}  // namespace d3dcap::runtime::backend::vulkan
