// Replay speed: events replayed per second on the null and reference devices
// for the example program's trace (captured once by `d3dcap capture`), and
// for a stream of cheap calls, each with and without per-event timing.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "format/trace/records.h"
#include "format/trace/writer.h"
#include "replay/engine/replayer.h"
#include "support/trace_fixture.h"

using namespace d3dcap;

namespace {

std::string scratch(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("d3dcap-bench-" + name)).string();
}

const std::string& example_trace() {
    static const std::string path = [] {
        const std::string out = scratch("example.d3dcap");
        const std::string command = std::string(D3DCAP_CLI_PATH) +
                                    " capture --device reference -o " + out + " -- " +
                                    D3DCAP_EXAMPLE_PATH + " --quiet > /dev/null";
        if (std::system(command.c_str()) != 0) return std::string();
        return out;
    }();
    return path;
}

// D3D11CreateDevice, then `count` IASetPrimitiveTopology calls on its context.
const std::string& cheap_calls_trace() {
    static const std::string path = [] {
        const std::string out = scratch("cheap.d3dcap");
        auto writer = trace::TraceWriter::create(out, testing::sample_header());
        if (!writer) return std::string();
        flatbuffers::FlatBufferBuilder b;
        const std::vector<std::uint32_t> levels{D3D_FEATURE_LEVEL_11_1};
        trace::finish_call(
            b, {0, 0, S_OK, 1, true},
            fb::CreateD3D11CreateDeviceDirect(b, 0, D3D_DRIVER_TYPE_REFERENCE, 0, 0, &levels, 1,
                                              D3D11_SDK_VERSION, 1, D3D_FEATURE_LEVEL_11_1, 2));
        (void)writer.value()->submit(b);
        constexpr int kCalls = 1000000;
        for (int i = 0; i < kCalls; ++i) {
            b.Clear();
            trace::finish_call(b, {2, 2, 0, 1, false},
                               fb::CreateID3D11DeviceContext_IASetPrimitiveTopology(b, 1 + i % 5));
            (void)writer.value()->submit(b);
        }
        if (!writer.value()->close()) return std::string();
        return out;
    }();
    return path;
}

void replay_all(benchmark::State& state, const std::string& path, D3D_DRIVER_TYPE driver,
                bool timing) {
    if (path.empty()) {
        state.SkipWithError("the trace could not be made");
        return;
    }
    std::uint64_t events = 0;
    for (auto _ : state) {
        replay::ReplayOptions options;
        options.driver = driver;
        options.timing = timing;
        auto replayer = replay::Replayer::open(path, options);
        if (!replayer || !replayer.value()->run_all()) {
            state.SkipWithError("replay failed");
            return;
        }
        events += replayer.value()->event_count();
    }
    state.counters["events_per_s"] =
        benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
}

void BM_ExampleNull(benchmark::State& s) {
    replay_all(s, example_trace(), D3D_DRIVER_TYPE_NULL, s.range(0) != 0);
}
void BM_ExampleReference(benchmark::State& s) {
    replay_all(s, example_trace(), D3D_DRIVER_TYPE_REFERENCE, s.range(0) != 0);
}
void BM_CheapCallsNull(benchmark::State& s) {
    replay_all(s, cheap_calls_trace(), D3D_DRIVER_TYPE_NULL, s.range(0) != 0);
}

}  // namespace

// Argument: 1 with per-event timing, 0 without.
BENCHMARK(BM_ExampleNull)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExampleReference)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CheapCallsNull)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
