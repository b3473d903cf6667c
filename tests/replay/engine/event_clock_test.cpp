// The clock of per-event times, on sources the test drives: a fake
// steady_clock that moves 1 us a reading and a fake counter at 2.5 ticks a
// nanosecond give a rate of 0.4 ns a tick, whatever the machine. On the
// machine's own sources: readings that never go backwards, one rate for
// every clock.
#include "replay/engine/event_clock.h"

#include <catch2/catch.hpp>

using d3dcap::replay::EventClock;

namespace {

std::uint64_t fake_time_ns = 0;

// Each reading moves the fake time on by 1 us.
std::uint64_t fake_steady_ns() {
    fake_time_ns += 1000;
    return fake_time_ns;
}

// 2.5 GHz: 5 ticks every 2 ns of fake time.
std::uint64_t fake_counter() {
    return fake_time_ns * 5 / 2;
}

std::uint64_t stopped_counter() {
    return 7;
}

}  // namespace

TEST_CASE("the event clock reads a counter and converts its ticks at the measured rate") {
    fake_time_ns = 1'000'000;
    const EventClock clock({fake_steady_ns, fake_counter});
    // Readings are the counter's, not steady_clock's (which would move on).
    fake_time_ns = 4'000'000;
    CHECK(clock.now() == 10'000'000);
    CHECK(clock.now() == 10'000'000);
    // 2.5 ticks a nanosecond.
    CHECK(clock.ns_between(1000, 3500) == 1000);
    CHECK(clock.ns_between(0, 5'000'000'000) == 2'000'000'000);
    CHECK(clock.ns_between(100, 102) == 1);  // 0.8 ns, rounded
    CHECK(clock.ns_between(100, 101) == 0);  // 0.4 ns, rounded
    CHECK(clock.ns_between(7, 7) == 0);
    CHECK(clock.ns_between(3500, 1000) == 0);  // a span that ends before it starts
}

TEST_CASE("without a counter, or with one that does not move, the event clock reads steady_clock") {
    fake_time_ns = 0;
    for (const EventClock::Sources sources :
         {EventClock::Sources{fake_steady_ns, nullptr},
          EventClock::Sources{fake_steady_ns, stopped_counter}}) {
        const EventClock clock(sources);
        fake_time_ns = 50'000'000;
        CHECK(clock.now() == 50'001'000);
        CHECK(clock.now() == 50'002'000);
        CHECK(clock.ns_between(1000, 3500) == 2500);
        CHECK(clock.ns_between(3500, 1000) == 0);
    }
}

TEST_CASE("the machine's event clock never runs backwards and every clock converts alike") {
    const EventClock clock;
    std::uint64_t last = clock.now();
    for (int i = 0; i < 100000; ++i) {
        const std::uint64_t reading = clock.now();
        REQUIRE(reading >= last);
        last = reading;
    }
    CHECK(clock.ns_between(last, last) == 0);
    CHECK(clock.ns_between(last + 1000, last) == 0);
    // The rate is measured once for the process.
    const EventClock another;
    CHECK(another.ns_between(0, 123'456'789) == clock.ns_between(0, 123'456'789));
    CHECK(clock.ns_between(0, 123'456'789) > 0);
}
