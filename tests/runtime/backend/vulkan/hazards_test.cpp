// The hazard tracker: which accesses need a barrier after what was noted.
#include "runtime/backend/vulkan/hazards.h"

#include <catch2/catch.hpp>

using d3dcap::runtime::backend::vulkan::HazardTracker;

namespace {

constexpr VkPipelineStageFlags2 kFragment = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
constexpr VkPipelineStageFlags2 kCompute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;

}  // namespace

TEST_CASE(
    "reads after reads need no barrier but a write after a read or anything after a write do") {
    HazardTracker tracker;
    CHECK(tracker.empty());
    tracker.touch(0x1000, false, kFragment);
    CHECK_FALSE(tracker.conflicts(0x1000, false));
    CHECK(tracker.conflicts(0x1000, true));
    CHECK_FALSE(tracker.conflicts(0x2000, true));  // another resource
    tracker.touch(0x2000, true, kCompute);
    CHECK(tracker.conflicts(0x2000, false));
    const VkMemoryBarrier2 barrier = tracker.barrier(kFragment);
    CHECK(barrier.srcStageMask == (kFragment | kCompute));
    CHECK(barrier.dstStageMask == kFragment);
    // The barrier orders everything noted: nothing conflicts after it.
    CHECK(tracker.empty());
    CHECK_FALSE(tracker.conflicts(0x2000, true));
    CHECK_FALSE(tracker.conflicts(0x1000, true));
}

TEST_CASE("thousands of resources between barriers are all remembered") {
    HazardTracker tracker;
    // Handles as drivers give them: aligned pointers and small integers.
    for (std::uint64_t i = 1; i <= 5000; ++i) tracker.touch(i * 64, i % 3 == 0, kFragment);
    for (std::uint64_t i = 1; i <= 5000; i += 7) tracker.touch(i, false, kFragment);
    for (std::uint64_t i = 1; i <= 5000; ++i) {
        CHECK(tracker.conflicts(i * 64, false) == (i % 3 == 0));
        CHECK(tracker.conflicts(i * 64, true));
    }
    for (std::uint64_t i = 1; i <= 5000; ++i)
        if (i % 64 != 0) CHECK(tracker.conflicts(i, true) == (i % 7 == 1));
    tracker.clear();
    for (std::uint64_t i = 1; i <= 5000; ++i) CHECK_FALSE(tracker.conflicts(i * 64, true));
}

TEST_CASE("untracked commands make everything after them wait for all commands") {
    HazardTracker tracker;
    tracker.poison();
    CHECK_FALSE(tracker.empty());
    CHECK(tracker.conflicts(0x1000, false));
    CHECK(tracker.barrier(kCompute).srcStageMask == VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    CHECK_FALSE(tracker.conflicts(0x1000, false));
}
