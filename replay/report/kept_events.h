// The events a replay report keeps: all of them, or with a bound only the
// slowest, so that a long replay without a report file takes memory that does
// not grow with the trace.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "replay/report/run.h"

namespace d3dcap::replay {

// All events (slowest 0), or the `slowest` slowest: a heap with the fastest
// kept event on top.
class KeptEvents {
  public:
    explicit KeptEvents(std::size_t slowest) : slowest_(slowest) {}

    void add(const EventTime& event) {
        if (slowest_ == 0) {
            events_.push_back(event);
            return;
        }
        if (events_.size() == slowest_) {
            if (event.cpu_ns <= events_.front().cpu_ns) return;
            std::pop_heap(events_.begin(), events_.end(), faster);
            events_.back() = event;
        } else {
            events_.push_back(event);
        }
        std::push_heap(events_.begin(), events_.end(), faster);
    }

    // In event order.
    std::vector<EventTime> take() {
        std::sort(events_.begin(), events_.end(),
                  [](const EventTime& a, const EventTime& b) { return a.event < b.event; });
        return std::move(events_);
    }

  private:
    static bool faster(const EventTime& a, const EventTime& b) { return a.cpu_ns > b.cpu_ns; }

    std::size_t slowest_;
    std::vector<EventTime> events_;
};

}  // namespace d3dcap::replay
