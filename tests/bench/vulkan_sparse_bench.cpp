// Sparse binding speed on the GPU: tiles bound per second through
// vkQueueBindSparse for (a) a 64x64-tile box onto contiguous pages, (b) 4096
// scattered tiles onto random pool pages, (c) a streaming mix per frame (200
// newly visible tiles onto one shared "loading" page, 150 uploads onto fresh
// contiguous pages in runs of 4-16 along x, 120 unmaps), and (d) a 4096-tile
// buffer range; each with the coalescer and with one entry per tile, with and
// without waiting for a timeline semaphore after every vkQueueBindSparse.
// The image is 16384x16384 R8G8B8A8_UNORM, bound from one 1 GiB allocation.
// Without a sparse-capable Vulkan device only the coalescer's CPU cost runs.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <memory>
#include <random>
#include <vector>

#include "gpu_support.h"

using namespace gpu_tests;
using namespace d3dcap::runtime::backend::vulkan;

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kTilesX = 128, kTilesY = 128;  // 16384 / 128 texels
constexpr std::uint64_t kPages = 16384;                // 1 GiB
constexpr std::uint64_t kLoadingPage = 0;
constexpr std::uint64_t kInFlight = 8;  // batches queued ahead when not waiting

// Placeholder handles for the CPU-only benchmarks.
const VkDeviceMemory kCpuMemory = reinterpret_cast<VkDeviceMemory>(std::uintptr_t{0x1000});

struct Scenario {
    std::vector<std::vector<ImageTileMapping>> batches;  // one vkQueueBindSparse each
    std::size_t tiles() const {
        std::size_t n = 0;
        for (const auto& b : batches) n += b.size();
        return n;
    }
};

Scenario box_scenario(VkDeviceMemory memory) {
    Scenario s;
    for (std::uint64_t base : {std::uint64_t{4096}, std::uint64_t{8192}}) {
        std::vector<ImageTileMapping> batch;
        for (std::uint32_t y = 0; y < 64; ++y)
            for (std::uint32_t x = 0; x < 64; ++x)
                batch.push_back({32 + x, 32 + y, 0, memory, base + y * 64 + x});
        s.batches.push_back(std::move(batch));
    }
    return s;
}

Scenario scattered_scenario(VkDeviceMemory memory) {
    Scenario s;
    std::mt19937 rng(42);
    for (int set = 0; set < 2; ++set) {
        std::vector<std::uint32_t> tiles(kTilesX * kTilesY), pages(kPages - 1);
        for (std::uint32_t i = 0; i < tiles.size(); ++i) tiles[i] = i;
        for (std::uint32_t i = 0; i < pages.size(); ++i) pages[i] = i + 1;
        std::shuffle(tiles.begin(), tiles.end(), rng);
        std::shuffle(pages.begin(), pages.end(), rng);
        std::vector<ImageTileMapping> batch;
        for (std::uint32_t i = 0; i < 4096; ++i) {
            batch.push_back({tiles[i] % kTilesX, tiles[i] / kTilesX, 0, memory, pages[i]});
        }
        s.batches.push_back(std::move(batch));
    }
    return s;
}

// A camera moving over a huge texture: runs of newly visible tiles go to the
// loading page, earlier ones get their data (fresh pages from a ring), the
// oldest resident runs are evicted.
Scenario streaming_scenario(VkDeviceMemory memory, int frames) {
    struct Run {
        std::uint32_t x, y, len;
    };
    enum : std::uint8_t { kUnmapped, kLoading, kResident };
    std::vector<std::uint8_t> state(kTilesX * kTilesY, kUnmapped);
    std::deque<Run> loading, resident;
    std::mt19937 rng(7);
    std::uint64_t ring = 1;
    Scenario s;
    for (int frame = 0; frame < 40 + frames; ++frame) {
        std::vector<ImageTileMapping> batch;
        // 120 unmaps: the oldest resident runs, the last one cut short.
        for (std::uint32_t left = 120; left > 0 && !resident.empty();) {
            Run& r = resident.front();
            const std::uint32_t n = std::min(left, r.len);
            for (std::uint32_t i = 0; i < n; ++i) {
                batch.push_back({r.x + i, r.y, 0, VK_NULL_HANDLE, 0});
                state[r.y * kTilesX + r.x + i] = kUnmapped;
            }
            left -= n;
            r.x += n;
            r.len -= n;
            if (r.len == 0) resident.pop_front();
        }
        // 150 uploads: loading runs onto contiguous fresh pages.
        for (std::uint32_t left = 150; left > 0 && !loading.empty();) {
            Run r = loading.front();
            const std::uint32_t n = std::min(left, r.len);
            if (ring + n > kPages) ring = 1;
            for (std::uint32_t i = 0; i < n; ++i) {
                batch.push_back({r.x + i, r.y, 0, memory, ring + i});
                state[r.y * kTilesX + r.x + i] = kResident;
            }
            resident.push_back({r.x, r.y, n});
            ring += n;
            left -= n;
            loading.front().x += n;
            loading.front().len -= n;
            if (loading.front().len == 0) loading.pop_front();
        }
        // 200 newly visible tiles: runs of 4-16 unmapped tiles along x.
        for (std::uint32_t left = 200; left > 0;) {
            const std::uint32_t want = std::min<std::uint32_t>(left, 4 + rng() % 13);
            const std::uint32_t y = rng() % kTilesY, x0 = rng() % (kTilesX - want + 1);
            std::uint32_t len = 0;
            while (len < want && state[y * kTilesX + x0 + len] == kUnmapped) ++len;
            if (len == 0) continue;
            for (std::uint32_t i = 0; i < len; ++i) {
                batch.push_back({x0 + i, y, 0, memory, kLoadingPage});
                state[y * kTilesX + x0 + i] = kLoading;
            }
            loading.push_back({x0, y, len});
            left -= len;
        }
        if (frame >= 40) s.batches.push_back(std::move(batch));
    }
    return s;
}

SparseImageTarget big_target() {
    SparseImageTarget t;
    t.block = {128, 128, 1};
    t.extent = {16384, 16384, 1};
    return t;
}

// Rates from the wall time of the whole loop (queued batches included).
void set_counters(benchmark::State& state, std::size_t tiles, std::size_t entries,
                  std::size_t batches, Clock::time_point start) {
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    state.counters["tiles_per_s"] = double(tiles) / seconds;
    state.counters["ns_per_tile"] = seconds * 1e9 / double(tiles ? tiles : 1);
    state.counters["entries_per_batch"] = double(entries) / double(batches ? batches : 1);
    state.counters["tiles_per_batch"] = double(tiles) / double(batches ? batches : 1);
}

// The coalescer alone (no GPU), for each scenario.
void register_cpu(const char* name, std::shared_ptr<Scenario> scenario) {
    benchmark::RegisterBenchmark(name, [scenario](benchmark::State& state) {
        SparseBinder binder;
        std::vector<VkSparseImageMemoryBind> binds;
        const SparseImageTarget target = big_target();
        std::size_t i = 0, tiles = 0, entries = 0;
        const auto start = Clock::now();
        for (auto _ : state) {
            const auto& batch = scenario->batches[i++ % scenario->batches.size()];
            binds.clear();
            if (!binder.coalesce_image(target, batch, binds)) state.SkipWithError("coalesce");
            benchmark::DoNotOptimize(binds.data());
            tiles += batch.size();
            entries += binds.size();
        }
        set_counters(state, tiles, entries, i, start);
    })->Unit(benchmark::kMicrosecond);
}

struct GpuFixture {
    const VulkanDevice& device;
    Runner runner;
    PageMemory memory;  // freed after the image is gone
    SparseImage image;
    VkSemaphore timeline = VK_NULL_HANDLE;
    std::uint64_t value = 0;
    SparseBinder binder;
    std::vector<VkSparseImageMemoryBind> binds;

    explicit GpuFixture(const VulkanDevice& d)
        : device(d),
          runner(d),
          memory(d),
          image(d, runner,
                {VK_IMAGE_TYPE_2D,
                 VK_FORMAT_R8G8B8A8_UNORM,
                 {16384, 16384, 1},
                 d.enabled().sparse_residency_aliased}) {
        memory.allocate(image.memory_type_bits(), kPages);
        VkSemaphoreTypeCreateInfo type{};
        type.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO;
        type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
        VkSemaphoreCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
        info.pNext = &type;
        check(vkCreateSemaphore(d.device(), &info, nullptr, &timeline), "vkCreateSemaphore");
        // Steady state: every tile bound once, so page tables exist.
        VkSparseImageMemoryBind all{};
        all.subresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
        all.extent = {16384, 16384, 1};
        all.memory = memory.memory();
        runner.bind(image.image(), std::span(&all, 1));
    }
    ~GpuFixture() {
        wait(value);
        vkDestroySemaphore(device.device(), timeline, nullptr);
    }
    void wait(std::uint64_t v) {
        VkSemaphoreWaitInfo info{};
        info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO;
        info.semaphoreCount = 1;
        info.pSemaphores = &timeline;
        info.pValues = &v;
        check(vkWaitSemaphores(device.device(), &info, UINT64_MAX), "vkWaitSemaphores");
    }
    // One batch: build the entries, bind, and wait or keep kInFlight queued.
    std::size_t bind(const std::vector<ImageTileMapping>& batch, bool coalesce, bool wait_each) {
        binds.clear();
        if (coalesce) {
            if (!binder.coalesce_image(image.target(), batch, binds)) return 0;
        } else {
            per_tile_image_binds(image.target(), batch, binds);
        }
        SparseBatch b;
        b.image = image.image();
        b.image_binds = binds;
        b.signal = timeline;
        b.signal_value = ++value;
        check(submit_sparse_batch(device.sparse_queue(), b, VK_NULL_HANDLE), "vkQueueBindSparse");
        if (wait_each) {
            wait(value);
        } else if (value > kInFlight) {
            wait(value - kInFlight);
        }
        return binds.size();
    }
};

GpuFixture* g_fixture = nullptr;

void register_gpu(const std::string& name, std::shared_ptr<Scenario> scenario,
                  std::int64_t iterations) {
    for (int coalesce = 0; coalesce < 2; ++coalesce) {
        for (int wait_each = 1; wait_each >= 0; --wait_each) {
            const std::string full =
                name + (coalesce ? "/coalesced" : "/per_tile") + (wait_each ? "/wait" : "/nowait");
            benchmark::RegisterBenchmark(
                full.c_str(),
                [scenario, coalesce, wait_each, iterations](benchmark::State& state) {
                    GpuFixture& f = *g_fixture;
                    f.wait(f.value);
                    std::size_t i = 0, tiles = 0, entries = 0;
                    const auto start = Clock::now();
                    for (auto _ : state) {
                        const auto& batch = scenario->batches[i % scenario->batches.size()];
                        entries += f.bind(batch, coalesce, wait_each);
                        tiles += batch.size();
                        // The queued batches finish inside the timed loop.
                        if (++i == static_cast<std::size_t>(iterations)) f.wait(f.value);
                    }
                    set_counters(state, tiles, entries, i, start);
                })
                ->Iterations(iterations)
                ->UseRealTime()
                ->Unit(benchmark::kMillisecond);
        }
    }
}

// (d) A sparse buffer of 4096 tiles bound as one range or one entry per tile.
struct BufferFixture {
    VkBuffer buffer = VK_NULL_HANDLE;
    std::unique_ptr<PageMemory> memory;
};

void register_buffer(const VulkanDevice& d, BufferFixture& fx) {
    if (!d.enabled().sparse_residency_buffer) return;
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.flags = VK_BUFFER_CREATE_SPARSE_BINDING_BIT | VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT;
    info.size = 4096 * kTileBytes;
    info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    check(vkCreateBuffer(d.device(), &info, nullptr, &fx.buffer), "vkCreateBuffer (sparse)");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(d.device(), fx.buffer, &req);
    if (req.alignment != kTileBytes) {
        std::printf("sparse buffer blocks are %llu bytes, not 64 KiB: buffer benchmark skipped\n",
                    static_cast<unsigned long long>(req.alignment));
        return;
    }
    fx.memory = std::make_unique<PageMemory>(d, req.memoryTypeBits, 8192);
    for (int coalesce = 0; coalesce < 2; ++coalesce) {
        const std::string name =
            std::string("buffer_4096_range") + (coalesce ? "/coalesced" : "/per_tile") + "/wait";
        benchmark::RegisterBenchmark(
            name.c_str(),
            [&fx, coalesce](benchmark::State& state) {
                GpuFixture& f = *g_fixture;
                SparseBinder binder;
                std::vector<BufferTileMapping> m[2];
                for (int s = 0; s < 2; ++s)
                    for (std::uint64_t t = 0; t < 4096; ++t)
                        m[s].push_back({t, fx.memory->memory(), s * 4096 + t});
                std::vector<VkSparseMemoryBind> binds;
                std::size_t i = 0, tiles = 0, entries = 0;
                const auto start = Clock::now();
                for (auto _ : state) {
                    binds.clear();
                    const auto& batch = m[i++ % 2];
                    if (coalesce) {
                        if (!binder.coalesce_buffer(4096, batch, binds)) state.SkipWithError("x");
                    } else {
                        per_tile_buffer_binds(batch, binds);
                    }
                    SparseBatch b;
                    b.buffer = fx.buffer;
                    b.buffer_binds = binds;
                    b.signal = f.timeline;
                    b.signal_value = ++f.value;
                    check(submit_sparse_batch(f.device.sparse_queue(), b, VK_NULL_HANDLE),
                          "vkQueueBindSparse (buffer)");
                    f.wait(f.value);
                    tiles += batch.size();
                    entries += binds.size();
                }
                set_counters(state, tiles, entries, i, start);
            })
            ->Iterations(coalesce ? 20 : 4)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    register_cpu("coalesce_only/box_64x64", std::make_shared<Scenario>(box_scenario(kCpuMemory)));
    register_cpu("coalesce_only/scattered_4096",
                 std::make_shared<Scenario>(scattered_scenario(kCpuMemory)));
    register_cpu("coalesce_only/streaming_frame",
                 std::make_shared<Scenario>(streaming_scenario(kCpuMemory, 32)));

    Gpu gpu = open_sparse_gpu();
    std::unique_ptr<GpuFixture> fixture;
    BufferFixture buffer;
    if (!gpu.device) {
        std::printf("vulkan_sparse_bench: GPU benchmarks skipped: %s\n", gpu.skip_reason.c_str());
    } else {
        std::printf("%s", gpu.device->describe().c_str());
        fixture = std::make_unique<GpuFixture>(*gpu.device);
        g_fixture = fixture.get();
        const VkDeviceMemory mem = fixture->memory.memory();
        register_gpu("box_64x64", std::make_shared<Scenario>(box_scenario(mem)), 8);
        register_gpu("scattered_4096", std::make_shared<Scenario>(scattered_scenario(mem)), 4);
        register_gpu("streaming_frame", std::make_shared<Scenario>(streaming_scenario(mem, 32)),
                     32);
        register_buffer(*gpu.device, buffer);
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    if (buffer.buffer) vkDestroyBuffer(gpu.device->device(), buffer.buffer, nullptr);
    buffer.memory.reset();
    fixture.reset();
    return 0;
}
