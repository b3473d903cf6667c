// The coalescer without a GPU: entry counts and fields for each shape, and
// every coalesced result expanded back tile by tile equals the mappings.
#include "runtime/backend/vulkan/sparse_binder.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "mapping_fixtures.h"

using namespace d3dcap::runtime::backend::vulkan;

namespace {

VkDeviceMemory fake_memory(std::uintptr_t n) {
    return reinterpret_cast<VkDeviceMemory>(n);
}
const VkDeviceMemory kA = fake_memory(0x1000), kB = fake_memory(0x2000);

SparseImageTarget target_2d(std::uint32_t width, std::uint32_t height,
                            MultiBlockLayout layout = MultiBlockLayout::kRowMajor) {
    SparseImageTarget t;
    t.block = {128, 128, 1};
    t.extent = {width, height, 1};
    t.layout = layout;
    return t;
}

using Tile = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>;
struct Where {
    VkDeviceMemory memory;
    std::uint64_t page;
    bool operator==(const Where&) const = default;
};

// What each tile ends up bound to when the binds are applied, under the
// layout the binds were made for (row-major within each entry).
std::map<Tile, Where> expand(const SparseImageTarget& t,
                             const std::vector<VkSparseImageMemoryBind>& binds) {
    std::map<Tile, Where> tiles;
    for (const auto& b : binds) {
        const std::uint32_t x0 = b.offset.x / t.block.width, y0 = b.offset.y / t.block.height,
                            z0 = b.offset.z / t.block.depth;
        const std::uint32_t w = (b.extent.width + t.block.width - 1) / t.block.width;
        const std::uint32_t h = (b.extent.height + t.block.height - 1) / t.block.height;
        const std::uint32_t d = (b.extent.depth + t.block.depth - 1) / t.block.depth;
        for (std::uint32_t z = 0; z < d; ++z)
            for (std::uint32_t y = 0; y < h; ++y)
                for (std::uint32_t x = 0; x < w; ++x) {
                    const std::uint64_t page = b.memoryOffset / kTileBytes + (z * h + y) * w + x;
                    const Tile tile{x0 + x, y0 + y, z0 + z};
                    REQUIRE(tiles.count(tile) == 0);  // a tile bound twice in a batch
                    tiles[tile] = {b.memory, b.memory ? page : 0};
                }
    }
    return tiles;
}

std::map<Tile, Where> resolve(const std::vector<ImageTileMapping>& mappings) {
    std::map<Tile, Where> tiles;
    for (const auto& m : mappings) {
        tiles[{m.x, m.y, m.z}] = {m.memory, m.memory ? m.page : 0};
    }
    return tiles;
}

std::vector<ImageTileMapping> box(std::uint32_t x0, std::uint32_t y0, std::uint32_t w,
                                  std::uint32_t h, VkDeviceMemory memory, std::uint64_t page0,
                                  std::uint64_t pitch) {
    std::vector<ImageTileMapping> out;
    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x)
            out.push_back({x0 + x, y0 + y, 0, memory, page0 + y * pitch + x});
    return out;
}

std::vector<VkSparseImageMemoryBind> coalesce(const SparseImageTarget& t,
                                              const std::vector<ImageTileMapping>& m) {
    SparseBinder binder;
    std::vector<VkSparseImageMemoryBind> out;
    REQUIRE(binder.coalesce_image(t, m, out));
    return out;
}

}  // namespace

TEST_CASE("a 64x64-tile box onto contiguous pages is one entry, in any input order") {
    const auto t = target_2d(16384, 16384);
    auto mappings = box(10, 20, 64, 64, kA, 500, 64);
    auto binds = coalesce(t, mappings);
    REQUIRE(binds.size() == 1);
    CHECK(binds[0].offset.x == 1280);
    CHECK(binds[0].offset.y == 2560);
    CHECK(binds[0].offset.z == 0);
    CHECK(binds[0].extent.width == 8192);
    CHECK(binds[0].extent.height == 8192);
    CHECK(binds[0].extent.depth == 1);
    CHECK(binds[0].memory == kA);
    CHECK(binds[0].memoryOffset == 500 * kTileBytes);
    CHECK(binds[0].subresource.aspectMask == VK_IMAGE_ASPECT_COLOR_BIT);

    std::shuffle(mappings.begin(), mappings.end(), std::mt19937(7));
    CHECK(coalesce(t, mappings).size() == 1);
}

TEST_CASE("rows whose memory does not follow on stay separate rows") {
    const auto t = target_2d(4096, 4096);
    CHECK(coalesce(t, box(0, 0, 8, 4, kA, 0, 10)).size() == 4);
    CHECK(coalesce(t, box(0, 0, 8, 4, kA, 0, 8)).size() == 1);
    // Rows of different lengths cannot stack.
    auto l_shape = box(0, 0, 8, 1, kA, 0, 8);
    auto second = box(0, 1, 6, 1, kA, 8, 6);
    l_shape.insert(l_shape.end(), second.begin(), second.end());
    CHECK(coalesce(t, l_shape).size() == 2);
}

TEST_CASE("layouts other than row-major merge less") {
    auto mappings = box(0, 0, 16, 8, kA, 0, 16);
    CHECK(coalesce(target_2d(4096, 4096, MultiBlockLayout::kRowMajor), mappings).size() == 1);
    CHECK(coalesce(target_2d(4096, 4096, MultiBlockLayout::kRowsOnly), mappings).size() == 8);
    CHECK(coalesce(target_2d(4096, 4096, MultiBlockLayout::kPerBlock), mappings).size() == 128);
}

TEST_CASE("different memory objects and shared pages do not merge") {
    const auto t = target_2d(4096, 4096);
    std::vector<ImageTileMapping> m = {{0, 0, 0, kA, 0}, {1, 0, 0, kB, 1}, {2, 0, 0, kB, 2}};
    CHECK(coalesce(t, m).size() == 2);
    // REUSE_SINGLE_TILE: every tile on one page needs its own entry.
    std::vector<ImageTileMapping> reuse;
    for (std::uint32_t x = 0; x < 10; ++x) reuse.push_back({x, 3, 0, kA, 5});
    const auto binds = coalesce(t, reuse);
    REQUIRE(binds.size() == 10);
    for (const auto& b : binds) CHECK(b.memoryOffset == 5 * kTileBytes);
}

TEST_CASE("tiles on copies of one page merge into boxes as large as the copies") {
    const auto t = target_2d(4096, 4096);
    // A 16x10 box on a replica of 256 copies: one entry from its first copy.
    std::vector<ImageTileMapping> m;
    for (std::uint32_t y = 0; y < 10; ++y)
        for (std::uint32_t x = 0; x < 16; ++x) m.push_back({3 + x, 5 + y, 0, kA, 77, 256});
    auto binds = coalesce(t, m);
    REQUIRE(binds.size() == 1);
    CHECK(binds[0].memory == kA);
    CHECK(binds[0].memoryOffset == 0);
    CHECK(binds[0].offset.x == 3 * 128);
    CHECK(binds[0].offset.y == 5 * 128);
    CHECK(binds[0].extent.width == 16 * 128);
    CHECK(binds[0].extent.height == 10 * 128);

    // 64 copies: boxes of at most 4 rows of 16.
    for (auto& mapping : m) mapping.uniform_pages = 64;
    binds = coalesce(t, m);
    REQUIRE(binds.size() == 3);
    std::vector<std::uint32_t> heights;
    for (const auto& b : binds) {
        CHECK(b.memoryOffset == 0);
        CHECK(b.extent.width == 16 * 128);
        heights.push_back(b.extent.height / 128);
    }
    std::sort(heights.begin(), heights.end());
    CHECK(heights == std::vector<std::uint32_t>{2, 4, 4});

    // A row longer than the copies splits along x; ordinary tiles between
    // two replica runs keep their own entry.
    std::vector<ImageTileMapping> row;
    for (std::uint32_t x = 0; x < 20; ++x) row.push_back({x, 0, 0, kB, 0, 8});
    row[10] = {10, 0, 0, kA, 40};
    binds = coalesce(t, row);
    REQUIRE(binds.size() == 5);  // x 0-7, 8-9, 10 (its own page), 11-18, 19
    CHECK(binds[2].memoryOffset == 40 * kTileBytes);
}

TEST_CASE("3D boxes on copies of one page stack in z while the copies last") {
    SparseImageTarget t;
    t.block = {32, 32, 16};
    t.extent = {256, 256, 256};
    std::vector<ImageTileMapping> m;
    for (std::uint32_t z = 0; z < 6; ++z)
        for (std::uint32_t y = 0; y < 2; ++y)
            for (std::uint32_t x = 0; x < 2; ++x) m.push_back({x, y, z, kA, 0, 16});
    const auto binds = coalesce(t, m);
    REQUIRE(binds.size() == 2);  // 2x2x4 and 2x2x2
    std::vector<std::uint32_t> depths;
    for (const auto& b : binds) depths.push_back(b.extent.depth / 16);
    std::sort(depths.begin(), depths.end());
    CHECK(depths == std::vector<std::uint32_t>{2, 4});
}

TEST_CASE("NULL tiles merge into unbind boxes whatever their page") {
    const auto t = target_2d(4096, 4096);
    std::vector<ImageTileMapping> m;
    for (std::uint32_t y = 0; y < 5; ++y)
        for (std::uint32_t x = 0; x < 7; ++x) m.push_back({4 + x, 2 + y, 0, VK_NULL_HANDLE, x * y});
    const auto binds = coalesce(t, m);
    REQUIRE(binds.size() == 1);
    CHECK(binds[0].memory == VK_NULL_HANDLE);
    CHECK(binds[0].memoryOffset == 0);
    CHECK(binds[0].offset.x == 512);
    CHECK(binds[0].extent.width == 7 * 128);
    CHECK(binds[0].extent.height == 5 * 128);
}

TEST_CASE("a tile listed twice takes its last mapping") {
    const auto t = target_2d(4096, 4096);
    std::vector<ImageTileMapping> m = box(0, 0, 4, 4, kA, 100, 4);
    m.push_back({1, 1, 0, kB, 7});
    m.push_back({2, 2, 0, VK_NULL_HANDLE, 0});
    m.push_back({1, 1, 0, kA, 105});  // back to what the box gave it
    const auto binds = coalesce(t, m);
    const auto expanded = expand(t, binds);
    CHECK(expanded == resolve(m));
    CHECK(expanded.at({1, 1, 0}) == Where{kA, 105});
    CHECK(expanded.at({2, 2, 0}) == Where{VK_NULL_HANDLE, 0});
}

TEST_CASE("few tiles of a huge subresource sort by comparison, the last mapping winning") {
    SparseImageTarget t;
    t.block = {1, 1, 1};
    t.extent = {1000000, 300, 1};  // more rows and columns than the radix sort takes on
    std::vector<ImageTileMapping> m = {{900000, 299, 0, kA, 1}, {5, 0, 0, kA, 7}, {4, 0, 0, kA, 6},
                                       {900000, 299, 0, kB, 2}, {6, 0, 0, kA, 8}, {5, 0, 0, kA, 7}};
    const auto binds = coalesce(t, m);
    REQUIRE(binds.size() == 2);
    CHECK(binds[0].offset.x == 4);
    CHECK(binds[0].extent.width == 3);
    CHECK(binds[0].memoryOffset == 6 * kTileBytes);
    CHECK(binds[1].memory == kB);
    CHECK(expand(t, binds) == resolve(m));
}

TEST_CASE("edge blocks end at the subresource's edge") {
    const auto t = target_2d(1000, 700);  // 8x6 blocks, the last ones partial
    const auto binds = coalesce(t, box(0, 0, 8, 6, kA, 0, 8));
    REQUIRE(binds.size() == 1);
    CHECK(binds[0].extent.width == 1000);
    CHECK(binds[0].extent.height == 700);
    std::vector<VkSparseImageMemoryBind> single;
    per_tile_image_binds(t, std::vector<ImageTileMapping>{{7, 5, 0, kA, 0}}, single);
    REQUIRE(single.size() == 1);
    CHECK(single[0].offset.x == 896);
    CHECK(single[0].extent.width == 104);
    CHECK(single[0].extent.height == 60);
}

TEST_CASE("3D boxes stack in z when each slice's memory follows on") {
    SparseImageTarget t;
    t.block = {32, 32, 16};
    t.extent = {256, 256, 128};
    std::vector<ImageTileMapping> m;
    for (std::uint32_t z = 0; z < 3; ++z)
        for (std::uint32_t y = 0; y < 2; ++y)
            for (std::uint32_t x = 0; x < 4; ++x)
                m.push_back({x, y, z, kA, 40 + (z * 2 + y) * 4 + x});
    auto binds = coalesce(t, m);
    REQUIRE(binds.size() == 1);
    CHECK(binds[0].extent.width == 128);
    CHECK(binds[0].extent.height == 64);
    CHECK(binds[0].extent.depth == 48);
    CHECK(binds[0].memoryOffset == 40 * kTileBytes);
    m.back().page += 1;  // slice 2: row 0, the rest of row 1, and its last tile
    binds = coalesce(t, m);
    CHECK(binds.size() == 4);
    CHECK(expand(t, binds) == resolve(m));
}

TEST_CASE("the mixed mapping coalesces to its expected entry count") {
    const auto t = target_2d(4096, 4096);
    std::vector<ImageTileMapping> m;
    for (std::uint32_t y = 0; y < gpu_tests::kMixedSize; ++y)
        for (std::uint32_t x = 0; x < gpu_tests::kMixedSize; ++x) {
            const auto page = gpu_tests::mixed_mapping(x, y);
            m.push_back({x, 8 + y, 0, page ? kA : VK_NULL_HANDLE, page.value_or(0)});
        }
    const auto binds = coalesce(t, m);
    CHECK(binds.size() == gpu_tests::kMixedEntries);
    CHECK(expand(t, binds) == resolve(m));
}

TEST_CASE("random mappings expand back to themselves under every layout") {
    std::mt19937 rng(1234);
    for (int round = 0; round < 200; ++round) {
        const std::uint32_t w = 1 + rng() % 24, h = 1 + rng() % 24;
        std::vector<ImageTileMapping> m;
        const int pieces = 1 + static_cast<int>(rng() % 12);
        for (int p = 0; p < pieces; ++p) {
            const std::uint32_t bw = 1 + rng() % w, bh = 1 + rng() % h;
            const std::uint32_t x0 = rng() % (w - bw + 1), y0 = rng() % (h - bh + 1);
            const int kind = static_cast<int>(rng() % 4);
            const VkDeviceMemory mem = kind == 0 ? VK_NULL_HANDLE : (rng() % 2 ? kA : kB);
            const std::uint64_t page = rng() % 1000;
            for (std::uint32_t y = 0; y < bh; ++y)
                for (std::uint32_t x = 0; x < bw; ++x) {
                    std::uint64_t pg = page;
                    if (kind == 1) pg = page + y * bw + x;        // contiguous box
                    if (kind == 2) pg = page + y * (bw + 3) + x;  // rows with a gap
                    if (kind == 3) pg = rng() % 50;               // scattered, shared
                    m.push_back({x0 + x, y0 + y, 0, mem, pg});
                }
        }
        for (MultiBlockLayout layout : {MultiBlockLayout::kRowMajor, MultiBlockLayout::kRowsOnly,
                                        MultiBlockLayout::kPerBlock}) {
            const auto t = target_2d(w * 128, h * 128, layout);
            const auto binds = coalesce(t, m);
            INFO("round " << round << " layout " << layout_name(layout));
            REQUIRE(expand(t, binds) == resolve(m));
            CHECK(binds.size() <= resolve(m).size());
        }
    }
}

TEST_CASE("a tile outside the subresource is an error and appends nothing") {
    const auto t = target_2d(1024, 1024);  // 8x8 blocks
    SparseBinder binder;
    std::vector<VkSparseImageMemoryBind> out;
    const std::vector<ImageTileMapping> m = {{0, 0, 0, kA, 0}, {8, 0, 0, kA, 1}};
    const Status status = binder.coalesce_image(t, m, out);
    CHECK_FALSE(status);
    CHECK(status.error().message == "tile mapping 1 is outside the subresource (8x8x1 tiles)");
    CHECK(out.empty());
    SparseImageTarget empty;
    CHECK_FALSE(binder.coalesce_image(empty, m, out));
}

TEST_CASE("buffer tiles on copies of one page merge into ranges as long as the copies") {
    SparseBinder binder;
    std::vector<BufferTileMapping> m;
    for (std::uint64_t i = 10; i < 310; ++i) m.push_back({i, kB, 5, 256});
    m.push_back({310, kA, 5});
    std::vector<VkSparseMemoryBind> out;
    REQUIRE(binder.coalesce_buffer(400, m, out));
    REQUIRE(out.size() == 3);
    CHECK(out[0].resourceOffset == 10 * kTileBytes);
    CHECK(out[0].size == 256 * kTileBytes);
    CHECK(out[0].memory == kB);
    CHECK(out[0].memoryOffset == 0);
    CHECK(out[1].resourceOffset == 266 * kTileBytes);
    CHECK(out[1].size == 44 * kTileBytes);
    CHECK(out[1].memoryOffset == 0);
    CHECK(out[2].memory == kA);
    CHECK(out[2].memoryOffset == 5 * kTileBytes);
}

TEST_CASE("buffer tiles coalesce into ranges") {
    SparseBinder binder;
    std::vector<BufferTileMapping> m;
    for (std::uint64_t i = 0; i < 4096; ++i) m.push_back({i, kA, 8192 + i});
    std::vector<VkSparseMemoryBind> out;
    REQUIRE(binder.coalesce_buffer(4096, m, out));
    REQUIRE(out.size() == 1);
    CHECK(out[0].resourceOffset == 0);
    CHECK(out[0].size == 4096 * kTileBytes);
    CHECK(out[0].memoryOffset == 8192 * kTileBytes);

    // Out of order, a duplicate (the last wins), a NULL run and a memory switch.
    m = {{5, kA, 9},
         {3, kA, 7},
         {4, kA, 8},
         {4, kA, 50},
         {4, kA, 8},
         {6, VK_NULL_HANDLE, 1},
         {7, VK_NULL_HANDLE, 99},
         {8, kB, 10}};
    out.clear();
    REQUIRE(binder.coalesce_buffer(16, m, out));
    REQUIRE(out.size() == 3);
    CHECK(out[0].resourceOffset == 3 * kTileBytes);
    CHECK(out[0].size == 3 * kTileBytes);
    CHECK(out[0].memoryOffset == 7 * kTileBytes);
    CHECK(out[1].memory == VK_NULL_HANDLE);
    CHECK(out[1].size == 2 * kTileBytes);
    CHECK(out[1].memoryOffset == 0);
    CHECK(out[2].memory == kB);

    out.clear();
    CHECK_FALSE(binder.coalesce_buffer(8, m, out));
    CHECK(out.empty());
    std::vector<VkSparseMemoryBind> naive;
    per_tile_buffer_binds(m, naive);
    CHECK(naive.size() == m.size());
}
