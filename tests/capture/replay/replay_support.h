// Replays a captured trace on the reference device, as the tests here do.
#pragma once

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "replay/engine/replayer.h"

namespace d3dcap::testing {

// The trace replayed to its end on the reference device; the test fails on
// a replay error or on any HRESULT that differs from the recorded one.
inline std::unique_ptr<replay::Replayer> replay_on_reference(const std::string& trace_path) {
    replay::ReplayOptions options;
    options.driver = D3D_DRIVER_TYPE_REFERENCE;
    auto opened = replay::Replayer::open(trace_path, options);
    REQUIRE(opened.ok());
    std::unique_ptr<replay::Replayer> replayer = std::move(opened.value());
    const auto run = replayer->run_all();
    INFO((run.ok() ? std::string() : run.error().to_string()));
    REQUIRE(run.ok());
    CHECK(replayer->mismatches().size() == 0);
    return replayer;
}

}  // namespace d3dcap::testing
