// What the contents tab waits for: the example program's 4096x4096
// virtual texture (tiled, RGBA8) read back and decoded to floats after an
// event of a 100-frame capture on the reference device, at random events
// (replay goes forward from where it stands, or again from the start), and
// stepping from one draw to the next.
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
#include "runtime/formats.h"
#include "runtime/texel_decode.h"

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
        if (e.draws.empty() || !contents || !contents.value()->replay_to(e.draws.front()))
            return Example{};
        for (const replay::ListedResource& listed : contents.value()->resources()) {
            if (listed.debug_name == "virtual_texture") e.texture = listed.id;
        }
        return e;
    }();
    return found;
}

// Reads the texture's mip 0 and decodes it, as the contents tab does.
bool show(replay::ContentsReplay& contents, std::uint64_t event, std::vector<float>& rgba) {
    auto read = contents.contents_after(event, example().texture, 0);
    if (!read) return false;
    const replay::SubresourceShape& shape = read->shape;
    return runtime::decode_rgba(shape.format, read->bytes,
                                formats::row_pitch(shape.format, shape.width), shape.width,
                                shape.height, rgba);
}

void BM_ContentsAtRandomEvent(benchmark::State& state) {
    const Example& e = example();
    if (e.texture == 0) return state.SkipWithError("the example could not be captured");
    auto contents = replay::ContentsReplay::open(e.path, D3D_DRIVER_TYPE_REFERENCE);
    std::mt19937_64 random(7);
    // Past the texture's creation and first upload.
    std::uniform_int_distribution<std::uint64_t> pick(e.draws.front(), e.events - 1);
    std::vector<float> rgba;
    for (auto _ : state) {
        if (!show(*contents.value(), pick(random), rgba)) return state.SkipWithError("no contents");
    }
    state.counters["starts"] = double(contents.value()->starts());
    state.counters["events"] = double(e.events);
}
BENCHMARK(BM_ContentsAtRandomEvent)->Unit(benchmark::kMillisecond)->Iterations(20);

void BM_ContentsNextDraw(benchmark::State& state) {
    const Example& e = example();
    if (e.texture == 0) return state.SkipWithError("the example could not be captured");
    auto contents = replay::ContentsReplay::open(e.path, D3D_DRIVER_TYPE_REFERENCE);
    std::vector<float> rgba;
    std::size_t next = 0;
    for (auto _ : state) {
        if (next == e.draws.size()) {
            state.PauseTiming();  // back to the first draw: replay starts again
            next = 0;
            if (!show(*contents.value(), e.draws[next++], rgba))
                return state.SkipWithError("no contents");
            state.ResumeTiming();
        }
        if (!show(*contents.value(), e.draws[next++], rgba))
            return state.SkipWithError("no contents");
    }
    state.counters["draws"] = double(e.draws.size());
}
BENCHMARK(BM_ContentsNextDraw)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
