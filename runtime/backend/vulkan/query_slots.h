// Queries that draws and dispatches leave in the command stream for the
// host to read only when a D3D11 query's result is asked for: slots of one
// Vulkan query type in pools that grow as needed. A slot is reset on the
// host (so that work inside a render pass instance can take one) once the
// batch that last used it is done, or, without host resets, in the command
// stream before its use.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <vector>

namespace d3dcap::runtime::backend::vulkan {

// Every pipeline statistic D3D11 reports, in the order of its structure's
// counters (Vulkan returns them in flag-bit order, which is the same).
inline constexpr VkQueryPipelineStatisticFlags kD3D11Statistics =
    VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_VERTICES_BIT |
    VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT |
    VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT |
    VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_INVOCATIONS_BIT |
    VK_QUERY_PIPELINE_STATISTIC_GEOMETRY_SHADER_PRIMITIVES_BIT |
    VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT |
    VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT |
    VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT |
    VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT |
    VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_EVALUATION_SHADER_INVOCATIONS_BIT |
    VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT;

class QuerySlots {
  public:
    struct Slot {
        VkQueryPool pool = VK_NULL_HANDLE;
        std::uint32_t index = 0;
    };
    // `values`: the 64-bit values one query returns.
    QuerySlots(VkQueryType type, VkQueryPipelineStatisticFlags statistics, std::uint32_t values)
        : type_(type), statistics_(statistics), values_(values) {}
    QuerySlots(const QuerySlots&) = delete;
    QuerySlots& operator=(const QuerySlots&) = delete;

    // A free slot, reset on the host where `commands` is null, else in
    // `commands` (outside rendering); false when the GPU cannot make a
    // pool. Slots given back are free once every batch before
    // `first_unfinished_batch` is done.
    bool take(VkDevice device, VkCommandBuffer commands, std::uint64_t first_unfinished_batch,
              Slot& out);
    // `batch`: the last batch that used it.
    void give_back(Slot slot, std::uint64_t batch) { used_.push_back({slot, batch}); }
    // The slot's values once its work is done (submitted work only: waits
    // for it); false when the device is lost.
    bool read(VkDevice device, Slot slot, std::uint64_t* values) const;
    std::uint32_t value_count() const { return values_; }
    void destroy(VkDevice device);

  private:
    static constexpr std::uint32_t kSlotsPerPool = 1024;
    VkQueryType type_;
    VkQueryPipelineStatisticFlags statistics_;
    std::uint32_t values_;
    std::vector<VkQueryPool> pools_;
    std::vector<Slot> free_;
    struct Used {
        Slot slot;
        std::uint64_t batch;
    };
    std::vector<Used> used_;  // given back, in the order given
};

}  // namespace d3dcap::runtime::backend::vulkan
