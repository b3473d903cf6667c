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

// Nanoseconds per counter tick over a 2 ms window of steady_ns; 0 for a
// counter that did not move.
double measure_ns_per_tick(const EventClock::Sources& sources) {
    const std::uint64_t ns0 = sources.steady_ns();
    const std::uint64_t tick0 = sources.counter();
    std::uint64_t ns1 = ns0;
    while (ns1 - ns0 < 2'000'000) ns1 = sources.steady_ns();
    const std::uint64_t ticks = sources.counter() - tick0;
    return ticks == 0 ? 0.0 : static_cast<double>(ns1 - ns0) / static_cast<double>(ticks);
}

#if D3DCAP_EVENT_CLOCK_TSC
// CPUID 0x80000007, EDX bit 8: the counter runs at one rate in every
// power state.
bool invariant_counter() {
    unsigned a = 0, b = 0, c = 0, d = 0;
    return __get_cpuid(0x80000007, &a, &b, &c, &d) != 0 && (d & (1u << 8)) != 0;
}

std::uint64_t time_stamp_counter() {
    return __rdtsc();
}
#endif

}  // namespace

EventClock::EventClock() : read_(steady_ns) {
#if D3DCAP_EVENT_CLOCK_TSC
    // Measured once for the process: every clock made after it converts alike.
    static const double ns_per_tick =
        invariant_counter() ? measure_ns_per_tick({steady_ns, time_stamp_counter}) : 0.0;
    if (ns_per_tick > 0.0) {
        read_ = time_stamp_counter;
        ns_per_tick_ = ns_per_tick;
    }
#endif
}

EventClock::EventClock(const Sources& sources) : read_(sources.steady_ns) {
    if (sources.counter == nullptr) return;
    const double ns_per_tick = measure_ns_per_tick(sources);
    if (ns_per_tick > 0.0) {
        read_ = sources.counter;
        ns_per_tick_ = ns_per_tick;
    }
}

std::uint64_t EventClock::now() const {
    return read_();
}

std::uint64_t EventClock::ns_between(std::uint64_t from, std::uint64_t to) const {
    if (to <= from) return 0;
    return static_cast<std::uint64_t>(static_cast<double>(to - from) * ns_per_tick_ + 0.5);
}

}  // namespace d3dcap::replay
