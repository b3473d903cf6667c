#include "replay/engine/event_clock.h"

#include <chrono>

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#define D3DCAP_EVENT_CLOCK_TSC 1
#else
#define D3DCAP_EVENT_CLOCK_TSC 0
#endif

namespace d3dcap::replay {

namespace {

using Steady = std::chrono::steady_clock;

std::uint64_t steady_ns() {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Steady::now().time_since_epoch())
            .count());
}

#if D3DCAP_EVENT_CLOCK_TSC
// CPUID 0x80000007, EDX bit 8: the counter runs at one rate in every
// power state.
bool invariant_counter() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid(0x80000007, &a, &b, &c, &d) != 0 && (d & (1u << 8)) != 0;
}

// Counter ticks per nanosecond over a 2 ms window, measured once.
double measured_ns_per_tick() {
    static const double ns_per_tick = [] {
        const std::uint64_t ns0 = steady_ns();
        const std::uint64_t tick0 = __rdtsc();
        std::uint64_t ns1 = ns0;
        while (ns1 - ns0 < 2'000'000) ns1 = steady_ns();
        const std::uint64_t ticks = __rdtsc() - tick0;
        return ticks == 0 ? 0.0 : static_cast<double>(ns1 - ns0) / static_cast<double>(ticks);
    }();
    return ns_per_tick;
}
#endif

}  // namespace

EventClock::EventClock() {
#if D3DCAP_EVENT_CLOCK_TSC
    const double ns_per_tick = invariant_counter() ? measured_ns_per_tick() : 0.0;
    counter_ = ns_per_tick > 0.0;
    if (counter_) ns_per_tick_ = ns_per_tick;
#endif
}

std::uint64_t EventClock::now() const {
#if D3DCAP_EVENT_CLOCK_TSC
    if (counter_) return __rdtsc();
#endif
    return steady_ns();
}

std::uint64_t EventClock::ns_between(std::uint64_t from, std::uint64_t to) const {
    if (to <= from) return 0;
    return static_cast<std::uint64_t>(static_cast<double>(to - from) * ns_per_tick_ + 0.5);
}

}  // namespace d3dcap::replay
