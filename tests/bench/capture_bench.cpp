// The cost the capture layer adds to a call: each call made on a reference
// device created through the layer while it records to a trace file, and
// the same call on a reference device created directly with the runtime's
// D3D11CreateDevice, in the same process and run. Each call is timed per
// call in wall-clock time (the trace's writer thread compresses and writes
// meanwhile; short of cores, the caller waits for it) and in the calling
// thread's CPU time; the table at the end gives layer - direct and
// layer / direct for both, from the medians when repeated. Then the loop
// figures: D3DCAP_BENCH_LOOP_CALLS calls (2 million; 0: none) in a loop,
// with the whole process's CPU time and the trace's bytes per call.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "capture/support/capture_session.h"
#include "format/trace/reader.h"
#include "support/temp_dir.h"

namespace {

using d3dcap::testing::CaptureSession;
using d3dcap::testing::TempDir;

constexpr UINT kTileBytes = 65536;
constexpr UINT kRegions = 16;

void check(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "capture_bench: %s failed\n", what);
        std::exit(1);
    }
}

// One device and the objects the benchmarked calls use.
struct Side {
    ID3D11Device2* device = nullptr;
    ID3D11DeviceContext2* context = nullptr;
    ID3D11Buffer* constants[2] = {};
    ID3D11Texture2D* tiled = nullptr;  // 1024x1024 RGBA8: 8x8 tiles
    ID3D11Buffer* pool = nullptr;      // 64 tiles
    ID3D11Buffer* updated = nullptr;   // 256 bytes, UpdateSubresource1's target

    void create(ID3D11Device* base, ID3D11DeviceContext* base_context) {
        check(base->QueryInterface(__uuidof(ID3D11Device2), reinterpret_cast<void**>(&device)) ==
                  S_OK,
              "ID3D11Device2");
        check(base_context->QueryInterface(__uuidof(ID3D11DeviceContext2),
                                           reinterpret_cast<void**>(&context)) == S_OK,
              "ID3D11DeviceContext2");
        base->Release();
        base_context->Release();
        D3D11_BUFFER_DESC cb{};
        cb.ByteWidth = 4096;  // 256 constants
        cb.Usage = D3D11_USAGE_DEFAULT;
        cb.BindFlags = D3D11_BIND_CONSTANT_BUFFER;
        for (ID3D11Buffer*& buffer : constants)
            check(device->CreateBuffer(&cb, nullptr, &buffer) == S_OK, "CreateBuffer");
        D3D11_BUFFER_DESC small{};
        small.ByteWidth = 256;
        small.Usage = D3D11_USAGE_DEFAULT;
        small.BindFlags = D3D11_BIND_CONSTANT_BUFFER;
        check(device->CreateBuffer(&small, nullptr, &updated) == S_OK, "CreateBuffer 256");
        D3D11_TEXTURE2D_DESC desc{};
        desc.Width = 1024;
        desc.Height = 1024;
        desc.MipLevels = 1;
        desc.ArraySize = 1;
        desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        desc.SampleDesc = {1, 0};
        desc.Usage = D3D11_USAGE_DEFAULT;
        desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
        desc.MiscFlags = D3D11_RESOURCE_MISC_TILED;
        check(device->CreateTexture2D(&desc, nullptr, &tiled) == S_OK, "tiled CreateTexture2D");
        D3D11_BUFFER_DESC pool_desc{};
        pool_desc.ByteWidth = 64 * kTileBytes;
        pool_desc.Usage = D3D11_USAGE_DEFAULT;
        pool_desc.MiscFlags = D3D11_RESOURCE_MISC_TILE_POOL;
        check(device->CreateBuffer(&pool_desc, nullptr, &pool) == S_OK, "tile pool");
        // Every tile mapped, so that UpdateTiles writes pool memory.
        const D3D11_TILED_RESOURCE_COORDINATE origin{0, 0, 0, 0};
        const D3D11_TILE_REGION_SIZE all{64, FALSE, 0, 0, 0};
        const UINT offset = 0, count = 64;
        check(context->UpdateTileMappings(tiled, 1, &origin, &all, pool, 1, nullptr, &offset,
                                          &count, 0) == S_OK,
              "UpdateTileMappings");
    }

    void release() {
        for (ID3D11Buffer* buffer : constants) buffer->Release();
        tiled->Release();
        pool->Release();
        updated->Release();
        context->Release();
        device->Release();
    }
};

struct Devices {
    TempDir dir;
    CaptureSession session;
    Side layer, direct;

    Devices() : session(CaptureSession::load(dir.file("bench.d3dcap"))) {
        const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1;
        ID3D11Device* device = nullptr;
        ID3D11DeviceContext* context = nullptr;
        check(session.create_device(nullptr, D3D_DRIVER_TYPE_REFERENCE, nullptr, 0, &level, 1,
                                    D3D11_SDK_VERSION, &device, nullptr, &context) == S_OK,
              "D3D11CreateDevice through the layer");
        layer.create(device, context);
        check(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_REFERENCE, nullptr, 0, &level, 1,
                                D3D11_SDK_VERSION, &device, nullptr, &context) == S_OK,
              "D3D11CreateDevice");
        direct.create(device, context);
        check(session.api->is_recording() == 1, "recording");
    }
};

std::unique_ptr<Devices> g_devices;

Side& side(bool through_layer) {
    return through_layer ? g_devices->layer : g_devices->direct;
}

// One call of each kind the loop figures measure; i changes the data.
void set_marker_int_once(Side& s, std::uint32_t i) {
    s.context->SetMarkerInt(L"draw call", static_cast<INT>(i));
}

void ps_set_constant_buffers1_once(Side& s, std::uint32_t /*i*/) {
    // Two windows of 16 and 32 constants, as a renderer binds per draw.
    const UINT first[2] = {16, 64};
    const UINT num[2] = {16, 32};
    s.context->PSSetConstantBuffers1(0, 2, s.constants, first, num);
}

void update_subresource1_256_once(Side& s, std::uint32_t i) {
    std::uint32_t data[64];
    for (std::uint32_t k = 0; k < 64; ++k) data[k] = i * 64 + k;  // new data every call
    s.context->UpdateSubresource1(s.updated, 0, nullptr, data, 0, 0, 0);
}

template <void (*Once)(Side&, std::uint32_t)>
void repeat(benchmark::State& state, bool through_layer) {
    Side& s = side(through_layer);
    std::uint32_t i = 0;
    for (auto _ : state) Once(s, i++);
}

void update_tile_mappings(benchmark::State& state, bool through_layer) {
    Side& s = side(through_layer);
    D3D11_TILED_RESOURCE_COORDINATE coordinates[kRegions];
    D3D11_TILE_REGION_SIZE sizes[kRegions];
    UINT offsets[kRegions], counts[kRegions];
    for (UINT i = 0; i < kRegions; ++i) {
        coordinates[i] = {(i * 3) % 8, (i * 5) % 8, 0, 0};
        sizes[i] = {1, FALSE, 0, 0, 0};
        offsets[i] = (i * 7) % 64;
        counts[i] = 1;
    }
    check(s.context->UpdateTileMappings(s.tiled, kRegions, coordinates, sizes, s.pool, kRegions,
                                        nullptr, offsets, counts, 0) == S_OK,
          "UpdateTileMappings of 16 regions");
    for (auto _ : state) {
        const HRESULT hr = s.context->UpdateTileMappings(
            s.tiled, kRegions, coordinates, sizes, s.pool, kRegions, nullptr, offsets, counts, 0);
        benchmark::DoNotOptimize(hr);
    }
}

void update_tiles(benchmark::State& state, bool through_layer) {
    Side& s = side(through_layer);
    // Noise: tile data that LZ4 cannot shrink, the trace writer's worst case.
    std::vector<std::uint8_t> data(kTileBytes);
    std::uint64_t x = 0x9e3779b97f4a7c15;
    for (std::uint8_t& byte : data) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        byte = static_cast<std::uint8_t>(x);
    }
    const D3D11_TILE_REGION_SIZE one{1, FALSE, 0, 0, 0};
    UINT tile = 0;
    for (auto _ : state) {
        const D3D11_TILED_RESOURCE_COORDINATE at{tile % 8, (tile / 8) % 8, 0, 0};
        s.context->UpdateTiles(s.tiled, &at, &one, data.data(), 0);
        ++tile;
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * kTileBytes);
}

// once: one call, for the loop figures (the cheap calls only).
struct Call {
    const char* name;
    void (*run)(benchmark::State&, bool);
    void (*once)(Side&, std::uint32_t);
};
constexpr Call kCalls[] = {
    {"SetMarkerInt", repeat<set_marker_int_once>, set_marker_int_once},
    {"PSSetConstantBuffers1", repeat<ps_set_constant_buffers1_once>, ps_set_constant_buffers1_once},
    {"UpdateSubresource1_256", repeat<update_subresource1_256_once>, update_subresource1_256_once},
    {"UpdateTileMappings16", update_tile_mappings, nullptr},
    {"UpdateTiles64KiB", update_tiles, nullptr}};

// Keeps the per-call wall and CPU times of each run (the medians when
// repeated).
class TableReporter : public benchmark::ConsoleReporter {
  public:
    TableReporter() : ConsoleReporter(isatty(fileno(stdout)) ? OO_Defaults : OO_Tabular) {}

    struct Times {
        double real = 0, cpu = 0;
    };

    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& run : runs) {
            if (run.error_occurred) continue;
            const std::string& name = run.run_name.function_name;
            const Times times{run.GetAdjustedRealTime(), run.GetAdjustedCPUTime()};
            if (run.run_type == Run::RT_Aggregate) {
                if (run.aggregate_name == "median") median_[name] = times;
            } else {
                single_[name] = times;
            }
        }
        ConsoleReporter::ReportRuns(runs);
    }

    bool has(const std::string& name) const { return median_.count(name) || single_.count(name); }
    Times ns(const std::string& name) const {
        const auto it = median_.find(name);
        return it != median_.end() ? it->second : single_.at(name);
    }

  private:
    std::map<std::string, Times> median_, single_;
};

// The loop figures, measured the way the other capture tools were: a loop of
// calls, its wall time and the whole process's CPU time (every thread: the
// trace writer's merging and compression included), through the layer from
// starting the capture to its trace closed, and on the direct device.

double process_cpu_ns() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

double wall_ns() {
    return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

// A process of its own for each loop (one process writes one trace): the
// direct loop, then the layer's loop from its first call to its trace
// closed; prints "direct_wall direct_cpu layer_wall layer_cpu file_bytes".
int run_loop_process(const std::string& name, std::uint32_t calls) {
    const Call* call = nullptr;
    for (const Call& c : kCalls)
        if (name == c.name && c.once != nullptr) call = &c;
    check(call != nullptr, "--loop: an unknown call");
    g_devices = std::make_unique<Devices>();
    double wall = wall_ns(), cpu = process_cpu_ns();
    for (std::uint32_t i = 0; i < calls; ++i) call->once(g_devices->direct, i);
    const double direct_wall = wall_ns() - wall, direct_cpu = process_cpu_ns() - cpu;
    wall = wall_ns(), cpu = process_cpu_ns();
    for (std::uint32_t i = 0; i < calls; ++i) call->once(g_devices->layer, i);
    check(g_devices->session.api->stop() == 0, "closing the trace");
    const double layer_wall = wall_ns() - wall, layer_cpu = process_cpu_ns() - cpu;
    std::printf("%.0f %.0f %.0f %.0f %ju\n", direct_wall, direct_cpu, layer_wall, layer_cpu,
                std::filesystem::file_size(g_devices->session.trace_path));
    std::fflush(stdout);
    std::error_code ignored;
    std::filesystem::remove_all(std::filesystem::path(g_devices->session.trace_path).parent_path(),
                                ignored);
    std::_Exit(0);  // the devices and the layer are left as a program at exit leaves them
}

struct LoopRun {
    double direct_wall = 0, direct_cpu = 0, layer_wall = 0, layer_cpu = 0, bytes = 0;
};

LoopRun loop_process(const char* self, const char* name, std::uint32_t calls) {
    const std::string command = std::string(self) + " --loop " + name + " " + std::to_string(calls);
    FILE* out = popen(command.c_str(), "r");
    check(out != nullptr, "starting a loop process");
    LoopRun run;
    const int fields = std::fscanf(out, "%lf %lf %lf %lf %lf", &run.direct_wall, &run.direct_cpu,
                                   &run.layer_wall, &run.layer_cpu, &run.bytes);
    check(pclose(out) == 0 && fields == 5, "a loop process");
    return run;
}

void print_loop_figures(const char* self, std::uint32_t calls, int repetitions) {
    std::printf(
        "\nloop of %u calls, median of %d processes (ns per call; cpu: the whole process,"
        " the trace closed)\n",
        calls, repetitions);
    std::printf("%-22s %8s %8s %8s   %8s %8s %8s   %10s\n", "", "direct", "layer", "added",
                "d. cpu", "l. cpu", "added", "file B/call");
    auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    };
    for (const Call& call : kCalls) {
        if (call.once == nullptr) continue;
        const double empty = loop_process(self, call.name, 0).bytes;
        std::vector<double> dw, dc, lw, lc, bytes;
        for (int r = 0; r < repetitions; ++r) {
            const LoopRun run = loop_process(self, call.name, calls);
            dw.push_back(run.direct_wall / calls);
            dc.push_back(run.direct_cpu / calls);
            lw.push_back(run.layer_wall / calls);
            lc.push_back(run.layer_cpu / calls);
            bytes.push_back((run.bytes - empty) / calls);
        }
        const double w0 = median(dw), w1 = median(lw), c0 = median(dc), c1 = median(lc);
        std::printf("%-22s %8.1f %8.1f %8.1f   %8.1f %8.1f %8.1f   %10.2f\n", call.name, w0, w1,
                    w1 - w0, c0, c1, c1 - c0, median(bytes));
    }
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 4 && std::string(argv[1]) == "--loop")
        return run_loop_process(argv[2], static_cast<std::uint32_t>(std::atol(argv[3])));
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    g_devices = std::make_unique<Devices>();
    // All direct runs first: none of them shares the cores with the trace
    // writer finishing the layer's records.
    for (const bool through_layer : {false, true})
        for (const Call& call : kCalls)
            benchmark::RegisterBenchmark(
                (std::string(call.name) + (through_layer ? "/layer" : "/direct")).c_str(), call.run,
                through_layer)
                ->Unit(benchmark::kNanosecond)
                ->UseRealTime();
    TableReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);

    // Wall: what the calling thread waited, the writer thread's share
    // included when it runs short of cores. CPU: the calling thread alone.
    std::printf("\n%-22s %10s %10s %10s %7s   %10s %10s %10s %7s\n", "per call (ns)", "direct",
                "layer", "added", "ratio", "direct cpu", "layer cpu", "added cpu", "ratio");
    for (const Call& call : kCalls) {
        const std::string direct = std::string(call.name) + "/direct";
        const std::string layer = std::string(call.name) + "/layer";
        if (!reporter.has(direct) || !reporter.has(layer)) continue;
        const TableReporter::Times d = reporter.ns(direct), l = reporter.ns(layer);
        std::printf("%-22s %10.1f %10.1f %10.1f %7.2f   %10.1f %10.1f %10.1f %7.2f\n", call.name,
                    d.real, l.real, l.real - d.real, l.real / d.real, d.cpu, l.cpu, l.cpu - d.cpu,
                    l.cpu / d.cpu);
    }

    const std::string path = g_devices->session.trace_path;
    check(g_devices->session.api->stop() == 0, "closing the trace");
    {
        auto trace = d3dcap::trace::TraceReader::open(path);
        check(trace.ok(), "reading the trace");
        std::printf("\ntrace: %llu events, %.1f MiB on disk\n",
                    static_cast<unsigned long long>(trace.value()->event_count()),
                    static_cast<double>(trace.value()->file_size()) / (1 << 20));
    }
    const char* loop_calls = std::getenv("D3DCAP_BENCH_LOOP_CALLS");
    const auto calls = static_cast<std::uint32_t>(loop_calls ? std::atol(loop_calls) : 2000000);
    if (calls > 0) print_loop_figures(argv[0], calls, 3);
    g_devices->layer.release();
    g_devices->direct.release();
    g_devices.reset();
    benchmark::Shutdown();
    return 0;
}
