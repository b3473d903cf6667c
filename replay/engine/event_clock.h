// The clock of per-event CPU times. Where the processor has an invariant
// time-stamp counter (x86-64), it reads that counter, which costs a third of
// a steady_clock read inside a virtual machine (9.5 against 23 ns, twice per
// event); the counter's rate is measured against steady_clock once, when the
// first clock is made. Elsewhere it reads steady_clock.
#pragma once

#include <cstdint>

namespace d3dcap::replay {

class EventClock {
  public:
    // Where readings come from: steady_clock's nanoseconds, and a counter
    // that runs at one rate (null where there is none).
    struct Sources {
        std::uint64_t (*steady_ns)() = nullptr;
        std::uint64_t (*counter)() = nullptr;
    };

    // The machine's: steady_clock, and the time-stamp counter where it is
    // invariant.
    EventClock();
    // These sources (a test's clock): the counter's rate is measured against
    // steady_ns over 2 ms of its readings; a counter that does not move is
    // not used.
    explicit EventClock(const Sources& sources);

    // A reading, in the clock's own units.
    std::uint64_t now() const;
    // Nanoseconds between two readings.
    std::uint64_t ns_between(std::uint64_t from, std::uint64_t to) const;

  private:
    std::uint64_t (*read_)() = nullptr;
    double ns_per_tick_ = 1.0;
};

}  // namespace d3dcap::replay
