// How a device that runs work later (the Vulkan device) times it: work is
// tagged (a replay tags it with the event number) and the GPU writes
// timestamps into the command stream, read once the work is done.
#pragma once

#include <cstdint>

namespace d3dcap::runtime::backend {

// GPU time of the work with one tag, in nanoseconds.
struct WorkTime {
    std::uint64_t tag = 0, ns = 0;
};

// A timestamp at every step of the work (exact per tag), or only around each
// submission of a batch (its whole time goes to the last tag in it).
enum class WorkTiming { PerStep, PerSubmission };

// The tag of work that belongs to no event (a replay's hash readbacks).
constexpr std::uint64_t kUntimedWork = UINT64_MAX;

}  // namespace d3dcap::runtime::backend
