// A replay without a report file keeps only the slowest events' times, so
// that its memory does not grow with the trace; the regions are timed the
// same way either way.
#include <catch2/catch.hpp>

#include "replay/report/kept_events.h"
#include "replay/report/run.h"

using namespace d3dcap;

TEST_CASE("a replay that keeps the slowest events times the same regions", "[hardening][replay]") {
    replay::RunOptions options;
    options.trace = D3DCAP_HOSTILE_SOURCE_TRACE;
    options.driver = D3D_DRIVER_TYPE_NULL;
    auto every = replay::run_replay(options);
    REQUIRE(every.ok());
    options.slowest_events = 5;
    auto slowest = replay::run_replay(options);
    REQUIRE(slowest.ok());

    CHECK(every->events.size() == every->last_event - every->first_event + 1);
    REQUIRE(slowest->events.size() == 5);
    for (std::size_t i = 1; i < slowest->events.size(); ++i)
        CHECK(slowest->events[i - 1].event < slowest->events[i].event);
    REQUIRE(slowest->markers.size() == every->markers.size());
    REQUIRE_FALSE(slowest->markers.empty());
    for (std::size_t i = 0; i < slowest->markers.size(); ++i) {
        CHECK(slowest->markers[i].first_event == every->markers[i].first_event);
        CHECK(slowest->markers[i].last_event == every->markers[i].last_event);
        CHECK(slowest->markers[i].self_cpu_ns <= slowest->markers[i].cpu_ns);
    }
    // A region's time is the sum of its events' times: the whole trace's
    // outermost regions cannot take longer than all events together.
    std::uint64_t all_events = 0;
    for (const replay::EventTime& e : every->events) all_events += e.cpu_ns;
    for (const replay::MarkerTime& m : every->markers)
        if (m.depth == 0) CHECK(m.cpu_ns <= all_events);
}

TEST_CASE("a bounded report keeps exactly the slowest events, in event order",
          "[hardening][replay]") {
    // Times that rise and fall: events 3, 17, 40, 41 and 77 take 900-990 ns.
    // Event 55 (890 ns) is kept until event 77 pushes it out; event 90 ties
    // the fastest kept event (40) and stays out: a tie keeps the earlier event.
    replay::KeptEvents kept(5);
    for (std::uint64_t event = 0; event < 100; ++event) {
        std::uint64_t ns = 100 + (event * 37) % 500;
        if (event == 3) ns = 990;
        if (event == 17) ns = 950;
        if (event == 40) ns = 900;
        if (event == 41) ns = 930;
        if (event == 77) ns = 970;
        if (event == 55) ns = 890;
        if (event == 90) ns = 900;
        kept.add({event, 0, 0, ns, -1});
    }
    const std::vector<replay::EventTime> events = kept.take();
    REQUIRE(events.size() == 5);
    const std::uint64_t expected_events[5] = {3, 17, 40, 41, 77};
    const std::uint64_t expected_ns[5] = {990, 950, 900, 930, 970};
    for (std::size_t i = 0; i < 5; ++i) {
        CHECK(events[i].event == expected_events[i]);
        CHECK(events[i].cpu_ns == expected_ns[i]);
    }

    replay::KeptEvents every(0);
    for (std::uint64_t event = 0; event < 10; ++event) every.add({event, 0, 0, 10 - event, -1});
    CHECK(every.take().size() == 10);
}
