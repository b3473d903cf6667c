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
    EventClock();
    // A reading, in the clock's own units.
    std::uint64_t now() const;
    // Nanoseconds between two readings.
    std::uint64_t ns_between(std::uint64_t from, std::uint64_t to) const;

  private:
    double ns_per_tick_ = 1.0;
    bool counter_ = false;
};

}  // namespace d3dcap::replay
