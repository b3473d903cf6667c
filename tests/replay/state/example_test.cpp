// The example program captured through the capture layer (all of it, and a
// frame range that starts with a state snapshot): at random events the
// timeline's tile state equals that of the state-only device replaying the
// trace up to the same event.
#include <algorithm>
#include <cstdlib>
#include <random>
#include <regex>

#include "format/trace/reader.h"
#include "replay/engine/contents.h"
#include "replay/state/replay_compare.h"
#include "replay/state/timeline_support.h"

using namespace timeline_tests;

namespace {

// d3dcap capture of the example on the state-only device.
std::string capture_example(const d3dcap::testing::TempDir& dir, const std::string& name,
                            const std::string& frames) {
    const std::string trace = dir.file(name);
    const std::string command = std::string("'") + D3DCAP_CLI_PATH + "' capture --device null" +
                                (frames.empty() ? "" : " --frames " + frames) + " -o '" + trace +
                                "' -- '" + D3DCAP_EXAMPLE_PATH + "' --quiet > '" +
                                dir.file(name + ".log") + "' 2>&1";
    INFO(command);
    REQUIRE(std::system(command.c_str()) == 0);
    return trace;
}

// Random events in ascending order (replay only runs forward), and the last.
std::vector<std::uint64_t> random_events(std::uint64_t count, std::uint32_t seed) {
    std::mt19937 random(seed);
    std::vector<std::uint64_t> events;
    for (int i = 0; i < 24; ++i)
        events.push_back(std::uniform_int_distribution<std::uint64_t>(0, count - 1)(random));
    events.push_back(count - 1);
    std::sort(events.begin(), events.end());
    events.erase(std::unique(events.begin(), events.end()), events.end());
    return events;
}

void check_against_replay(const std::string& trace, std::uint32_t seed,
                          std::uint64_t checkpoint_interval) {
    auto timeline = open_timeline(trace, checkpoint_interval);
    d3dcap::replay::ReplayOptions options;
    options.driver = D3D_DRIVER_TYPE_NULL;
    auto replayer = d3dcap::replay::Replayer::open(trace, options);
    REQUIRE(replayer.ok());
    std::size_t compared_resources = 0;
    for (const std::uint64_t event : random_events(timeline->event_count(), seed)) {
        INFO("event " << event);
        const auto run = replayer.value()->run_to(event);
        INFO((run.ok() ? std::string() : run.error().to_string()));
        REQUIRE(run.ok());
        const runtime::tiles::TileState mine = state_at(*timeline, event);
        ID3D11Device* device = replayed_device(*replayer.value());
        if (device == nullptr) {  // before the device is created, after it is destroyed
            CHECK(mine.tiled_resources().empty());
            CHECK(mine.pools().empty());
            continue;
        }
        check_matches(mine, *runtime::device_tile_state(device), runtime_ids(*replayer.value()));
        compared_resources += mine.tiled_resources().size();
    }
    CHECK(compared_resources > 0);
    CHECK(timeline->notes_until(timeline->event_count() - 1).empty());
}

}  // namespace

TEST_CASE("the example's tile state at random events equals the state-only replay's",
          "[state][example]") {
    d3dcap::testing::TempDir dir;
    const std::string trace = capture_example(dir, "example.d3dcap", "");
    auto timeline = open_timeline(trace);
    // At the last Present: the virtual texture, the clipmap and the aliasing
    // buffer, and the pool at the example's final size.
    auto reader = trace::TraceReader::open(trace);
    REQUIRE(reader.ok());
    const std::uint64_t last_present =
        reader.value()->index().frame_first_events()->size() > 0
            ? *(reader.value()->index().frame_first_events()->end() - 1) - 1
            : 0;
    const runtime::tiles::TileState last = state_at(*timeline, last_present);
    CHECK(last.tiled_resources().size() == 3);
    REQUIRE(last.pools().size() == 1);
    CHECK(last.pool_tiles(last.pools().front()) == 320);
    // After the program's teardown nothing is left.
    const runtime::tiles::TileState end = state_at(*timeline, timeline->event_count() - 1);
    CHECK(end.tiled_resources().empty());
    CHECK(end.pools().empty());
    check_against_replay(trace, 1, 65536);
    check_against_replay(trace, 2, 64);
}

TEST_CASE("a frame-range capture's tile state starts from its snapshot", "[state][example]") {
    d3dcap::testing::TempDir dir;
    const std::string trace = capture_example(dir, "frames.d3dcap", "3-5");
    auto timeline = open_timeline(trace);
    // The snapshot is event 0 or close to it: the mappings exist right after it.
    std::uint64_t mapped = 0;
    const runtime::tiles::TileState first = state_at(*timeline, 2);
    for (const std::uint64_t id : first.tiled_resources())
        for (const runtime::tiles::TileMapping& mapping : first.mappings(id))
            mapped += mapping.pool != 0;
    CHECK(mapped > 0);
    check_against_replay(trace, 3, 32);
}

TEST_CASE("the pipeline of the example's first terrain draw, as the contents tab shows it",
          "[state][example][pipeline]") {
    d3dcap::testing::TempDir dir;
    const std::string trace = capture_example(dir, "pipeline.d3dcap", "");
    auto reader = d3dcap::trace::TraceReader::open(trace);
    REQUIRE(reader.ok());
    std::uint64_t draw = 0;
    for (std::uint64_t event = 0; event < reader.value()->event_count() && draw == 0; ++event) {
        auto record = reader.value()->record(event);
        REQUIRE(record.ok());
        if (record.value()->header()->call() ==
            static_cast<std::uint16_t>(api::CallId::ID3D11DeviceContext_DrawInstanced))
            draw = event;
    }
    REQUIRE(draw != 0);
    auto contents = d3dcap::replay::ContentsReplay::open(trace, D3D_DRIVER_TYPE_REFERENCE);
    REQUIRE(contents.ok());
    auto after = contents.value()->contents_after(draw, 0, 0);
    REQUIRE(after.ok());
    // The row of a section ("" when absent), and whether it reads as pattern.
    const auto row = [&](const std::string& section, const std::string& name) {
        bool inside = false;
        for (const d3dcap::replay::StateRow& r : after->pipeline) {
            if (r.depth == 0) inside = r.name == section;
            if (inside && r.name == name) return r.value;
        }
        return std::string();
    };
    const auto matches = [](const std::string& text, const char* pattern) {
        INFO(text << " ~ " << pattern);
        return std::regex_match(text, std::regex(pattern));
    };
    // scene.cpp: the terrain's corners and cells, the virtual texture at t1,
    // the record's constants (frame.cpp: 32 a record, 16 for the vertex
    // stage, the 4096-constant ring in slot 1), the 1024x576 view.
    CHECK(row("IA", "IA") == "TRIANGLESTRIP");
    CHECK(matches(row("IA", "vb0"), R"(#\d+, stride 8, offset 0)"));
    CHECK(matches(row("IA", "vb1"), R"(#\d+, stride 8, offset 0)"));
    CHECK(matches(row("VS", "cb0"), R"(#\d+, constants 0-15)"));
    CHECK(matches(row("PS", "cb0"), R"(#\d+, constants 0-31)"));
    CHECK(matches(row("PS", "cb1"), R"(#\d+, constants 0-4095)"));
    CHECK(matches(row("PS", "t1"), R"(#\d+ of virtual_texture #\d+ \(\w+\))"));
    CHECK(row("RS", "viewport 0") == "0, 0, 1024x576, depth 0-1");
    CHECK(matches(row("OM", "rt0"), R"(#\d+ of view #\d+ \(\w+\))"));
    CHECK(matches(row("OM", "depth"), R"(#\d+ of #\d+ \(D\w+\))"));
}
