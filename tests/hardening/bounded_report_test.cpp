// A replay without a report file keeps only the slowest events' times, so
// that its memory does not grow with the trace; the regions are timed the
// same way either way.
#include <catch2/catch.hpp>

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
