// What the contents tab waits for: the example program's 4096x4096
// virtual texture (tiled, RGBA8) read back and made a picture after an
// event of a 100-frame capture on the reference device, at random events
// (replay goes forward from where it stands, or again from the start), and
// stepping from one draw to the next; each without checkpoints and with
// those the contents tab takes, whole or as a fitted view shows it.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "format/trace/reader.h"
#include "format/trace/record_json.h"
#include "format/trace/records.h"
#include "replay/engine/contents.h"
#include "viewer/contents/contents_image.h"

using namespace d3dcap;

namespace {

struct Example {
    std::string path;
    std::uint64_t events = 0;
    std::uint64_t texture = 0;         // the virtual texture
    std::vector<std::uint64_t> draws;  // events of draws and dispatches
};

const Example& example() {
    static const Example found = [] {
        Example e;
        e.path = (std::filesystem::temp_directory_path() / "d3dcap-bench-contents.d3dcap").string();
        const std::string command =
            std::string(D3DCAP_CLI_PATH) + " capture --device reference -o " + e.path + " -- " +
            D3DCAP_EXAMPLE_PATH + " --frames 100 --size 4096 --quiet" + " > /dev/null";
        if (std::system(command.c_str()) != 0) return Example{};
        auto reader = trace::TraceReader::open(e.path);
        if (!reader) return Example{};
        e.events = reader.value()->event_count();
        for (std::uint64_t event = 0; event < e.events; ++event) {
            auto record = reader.value()->record(event);
            if (!record || record.value()->header() == nullptr) continue;
            const std::string call = trace::call_name(record.value()->header()->call());
            if (call.find("::Draw") != std::string::npos ||
                call.find("::Dispatch") != std::string::npos)
                e.draws.push_back(event);
        }
        auto contents = replay::ContentsReplay::open(e.path, D3D_DRIVER_TYPE_REFERENCE);
        if (e.draws.empty() || !contents) return Example{};
        auto listing = contents.value()->contents_after(e.draws.front(), 0, 0);
        if (!listing) return Example{};
        for (const replay::ListedResource& listed : listing->resources) {
            if (listed.debug_name == "virtual_texture") e.texture = listed.id;
        }
        return e;
    }();
    return found;
}

// Checkpoints as the contents tab takes them, or none.
void paused_as_the_viewer(replay::ContentsReplay& contents, bool paused) {
    contents.set_checkpoints(paused ? contents.usual_checkpoint_interval() : 0);
}

// What the view reads: arg 0, the whole texture at full resolution (what
// it read before it read windows); arg 1, what a 1024-pixel view fitted to
// the texture shows, every 4th texel of every 4th row.
replay::ContentsWindow window_of(const benchmark::State& state) {
    replay::ContentsWindow window;
    if (state.range(1) != 0) window.max_side = 1024;
    return window;
}

// Reads the texture's mip 0, finds the range of its values and makes its
// picture, as the contents tab does.
bool show(replay::ContentsReplay& contents, std::uint64_t event,
          const replay::ContentsWindow& window) {
    auto read = contents.contents_after(event, {example().texture, 0, window});
    if (!read || !read->problem.empty()) return false;
    const auto decoded = viewer::decode_contents(std::move(read.value()), 0);
    const int expected = int(std::min<std::uint32_t>(4096, window.max_side));
    return decoded->error.isEmpty() &&
           viewer::render_contents(*decoded, viewer::ContentsDisplay{}).width() == expected;
}

void BM_ContentsAtRandomEvent(benchmark::State& state) {
    const Example& e = example();
    if (e.texture == 0) return state.SkipWithError("the example could not be captured");
    auto contents = replay::ContentsReplay::open(e.path, D3D_DRIVER_TYPE_REFERENCE);
    paused_as_the_viewer(*contents.value(), state.range(0) != 0);
    // Replay has passed the whole trace once (and taken its checkpoints),
    // as after a first look at the last frame.
    if (!contents.value()->contents_after(e.events - 1, 0, 0))
        return state.SkipWithError("no replay");
    std::mt19937_64 random(7);
    // Past the texture's creation and first upload.
    std::uniform_int_distribution<std::uint64_t> pick(e.draws.front(), e.events - 1);
    for (auto _ : state) {
        if (!show(*contents.value(), pick(random), window_of(state)))
            return state.SkipWithError("no contents");
    }
    state.counters["starts"] = double(contents.value()->starts());
    state.counters["checkpoints"] = double(contents.value()->checkpoint_count());
    state.counters["events"] = double(e.events);
}
BENCHMARK(BM_ContentsAtRandomEvent)
    ->ArgNames({"checkpoints", "view"})
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(20);

void BM_ContentsNextDraw(benchmark::State& state) {
    const Example& e = example();
    if (e.texture == 0) return state.SkipWithError("the example could not be captured");
    auto contents = replay::ContentsReplay::open(e.path, D3D_DRIVER_TYPE_REFERENCE);
    paused_as_the_viewer(*contents.value(), state.range(0) != 0);
    std::size_t next = 0;
    for (auto _ : state) {
        if (next == e.draws.size()) {
            state.PauseTiming();  // back to the first draw: replay starts again
            next = 0;
            if (!show(*contents.value(), e.draws[next++], window_of(state)))
                return state.SkipWithError("no contents");
            state.ResumeTiming();
        }
        if (!show(*contents.value(), e.draws[next++], window_of(state)))
            return state.SkipWithError("no contents");
    }
    state.counters["draws"] = double(e.draws.size());
}
BENCHMARK(BM_ContentsNextDraw)
    ->ArgNames({"checkpoints", "view"})
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
