// Sparse binding on a real GPU: the memory order of a multi-block bind, and
// that the coalescer's binds give the same contents as one bind per tile.
// The program exits as skipped (77), saying why, when no Vulkan device has
// sparseBinding with sparseResidencyImage2D (lavapipe, for one), and a case
// does when the device lacks a feature it needs; without any Vulkan device
// it fails under CI (lavapipe is installed with the rest).
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gpu_support.h"
#include "mapping_fixtures.h"
#include "support/catch_run.h"
#include "support/skip.h"

using namespace gpu_tests;
using d3dcap::runtime::backend::vulkan::ImageTileMapping;
using d3dcap::runtime::backend::vulkan::kTileBytes;
using d3dcap::runtime::backend::vulkan::per_tile_image_binds;
using d3dcap::runtime::backend::vulkan::SparseBinder;

namespace {

Gpu* g_gpu = nullptr;
const VulkanDevice& device() {
    return *g_gpu->device;
}

// Ends this case's process as skipped when the device lacks a feature.
void needs(bool present, const char* what) {
    if (!present) test_support::skip_test(std::string("this device has no ") + what);
}

std::vector<TileCoord> box_tiles(std::uint32_t x0, std::uint32_t y0, std::uint32_t z0,
                                 std::uint32_t w, std::uint32_t h, std::uint32_t d) {
    std::vector<TileCoord> tiles;
    for (std::uint32_t z = 0; z < d; ++z)
        for (std::uint32_t y = 0; y < h; ++y)
            for (std::uint32_t x = 0; x < w; ++x) tiles.push_back({x0 + x, y0 + y, z0 + z});
    return tiles;
}

std::vector<std::int64_t> contents(const SparseImage& image, const std::vector<std::uint32_t>& w,
                                   std::size_t tiles) {
    const std::size_t words = image.block_bytes() / 4;
    std::vector<std::int64_t> pages;
    for (std::size_t i = 0; i < tiles; ++i) {
        pages.push_back(tile_contents(std::span(w).subspan(i * words, words)));
    }
    return pages;
}

// The order a bind of w x h x d blocks at memory offset 0 consumed pages in:
// page[i] for block i of the box in x, y, z order (kZero, kMixed: neither).
struct LayoutProbe {
    std::vector<std::int64_t> written_by_blocks;  // blocks written per block, read via the box
    std::vector<std::int64_t> read_by_blocks;     // box written per position, read per block
};

LayoutProbe probe_layout(VkImageType type, VkExtent3D extent, std::uint32_t w, std::uint32_t h,
                         std::uint32_t d, std::uint32_t page_count) {
    const VulkanDevice& dev = device();
    Runner runner(dev);
    PageMemory memory(dev);  // freed after the image is gone
    SparseImage image(dev, runner, {type, VK_FORMAT_R8G8B8A8_UNORM, extent, true});
    REQUIRE(image.block_bytes() == kTileBytes);
    const std::uint32_t n = w * h * d;
    const auto target = image.target();
    std::printf("sparse block %ux%ux%u texels, %llu bytes\n", image.block().width,
                image.block().height, image.block().depth,
                static_cast<unsigned long long>(image.block_bytes()));
    // More pages than the box takes, so that a layout that strides by the
    // image's width in blocks would still land inside the allocation and
    // show up in the map below.
    memory.allocate(image.memory_type_bits(), page_count);

    // Page k alone behind block k of the blocks outside the box.
    std::vector<ImageTileMapping> singles;
    std::vector<TileCoord> single_tiles;
    for (std::uint32_t z = 0; z < target.blocks_z(); ++z)
        for (std::uint32_t y = 0; y < target.blocks_y(); ++y)
            for (std::uint32_t x = 0; x < target.blocks_x(); ++x) {
                if ((x < w && y < h && z < d) || singles.size() == page_count) continue;
                singles.push_back({x, y, z, memory.memory(), singles.size()});
                single_tiles.push_back({x, y, z});
            }
    REQUIRE(singles.size() == page_count);
    std::vector<VkSparseImageMemoryBind> binds;
    per_tile_image_binds(target, singles, binds);
    // The whole box in one entry at memory offset 0.
    VkSparseImageMemoryBind box{};
    box.subresource = target.subresource;
    box.extent = {w * target.block.width, h * target.block.height, d * target.block.depth};
    box.memory = memory.memory();
    binds.push_back(box);
    runner.bind(image.image(), binds);

    const std::vector<TileCoord> box_positions = box_tiles(0, 0, 0, w, h, d);
    std::vector<std::uint64_t> pages(page_count);
    for (std::uint32_t k = 0; k < page_count; ++k) pages[k] = k;
    LayoutProbe probe;
    write_tiles(runner, dev, image, single_tiles, pages);
    probe.written_by_blocks =
        contents(image, read_tiles(runner, dev, image, box_positions), box_positions.size());

    // Through a buffer on the same memory. Buffers and images do not alias
    // data-consistently (the spec leaves these bytes implementation-defined),
    // so this is printed as a second view, not checked.
    {
        HostBuffer host(dev, std::uint64_t{page_count} * kTileBytes,
                        VK_BUFFER_USAGE_TRANSFER_DST_BIT);
        VkBufferCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
        info.size = std::uint64_t{page_count} * kTileBytes;
        info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
        VkBuffer alias = VK_NULL_HANDLE;
        check(vkCreateBuffer(dev.device(), &info, nullptr, &alias), "vkCreateBuffer (alias)");
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(dev.device(), alias, &req);
        if (req.memoryTypeBits & (1u << memory.type_index())) {
            check(vkBindBufferMemory(dev.device(), alias, memory.memory(), 0), "bind alias");
            runner.run([&](VkCommandBuffer cmd) {
                VkBufferCopy copy{0, 0, info.size};
                vkCmdCopyBuffer(cmd, alias, host.buffer(), 1, &copy);
            });
            std::string line = "raw memory through a buffer, page: words naming it (of 16384)";
            for (std::uint32_t p = 0; p < page_count; ++p) {
                std::uint32_t match = 0;
                const std::uint32_t* words = host.words() + p * (kTileBytes / 4);
                for (std::uint32_t i = 0; i < kTileBytes / 4; ++i) {
                    match += (words[i] >> 31) && ((words[i] >> 14) & 0x1ffff) == p;
                }
                line += "\n  page " + std::to_string(p) + ": " + std::to_string(match);
            }
            std::printf("%s\n", line.c_str());
        } else {
            std::printf("raw memory through a buffer: no buffer can use memory type %u\n",
                        memory.type_index());
        }
        vkDestroyBuffer(dev.device(), alias, nullptr);
    }

    // The other way round: write through the box, read each block alone.
    pages.resize(n);
    for (std::uint32_t k = 0; k < n; ++k) pages[k] = 1000 + k;
    write_tiles(runner, dev, image, box_positions, pages);
    probe.read_by_blocks =
        contents(image, read_tiles(runner, dev, image, single_tiles), single_tiles.size());
    // Position index of the box, or the page's own earlier pattern + 1000.
    for (auto& p : probe.read_by_blocks) p = p >= 1000 ? p - 1000 : p < 0 ? p : p + 1000;
    return probe;
}

std::string grid(const std::vector<std::int64_t>& v, std::uint32_t w, std::uint32_t h,
                 std::uint32_t d) {
    std::string s;
    for (std::uint32_t z = 0; z < d; ++z) {
        if (d > 1) s += "  z=" + std::to_string(z) + "\n";
        for (std::uint32_t y = 0; y < h; ++y) {
            s += "   ";
            for (std::uint32_t x = 0; x < w; ++x) {
                const std::int64_t p = v[(z * h + y) * w + x];
                char cell[16];
                std::snprintf(cell, sizeof cell, " %4s",
                              p == kZero    ? "0"
                              : p == kMixed ? "?"
                                            : std::to_string(p).c_str());
                s += cell;
            }
            s += "\n";
        }
    }
    return s;
}

void check_row_major(const LayoutProbe& probe, std::uint32_t w, std::uint32_t h, std::uint32_t d) {
    std::printf("%ux%ux%u-block bind at memory offset 0, page behind each block:\n%s", w, h, d,
                grid(probe.written_by_blocks, w, h, d).c_str());
    std::printf(
        "box written per position; page k read alone holds position (1000+: untouched):"
        "\n%s",
        grid(probe.read_by_blocks, static_cast<std::uint32_t>(probe.read_by_blocks.size()), 1, 1)
            .c_str());
    for (std::uint32_t i = 0; i < w * h * d; ++i) {
        INFO("block " << i % w << "," << (i / w) % h << "," << i / (w * h));
        CHECK(probe.written_by_blocks[i] == i);  // row-major: x, then y, then z
        CHECK(probe.read_by_blocks[i] == i);
    }
}

}  // namespace

TEST_CASE("a 2D multi-block bind lays memory out row-major by block") {
    needs(device().enabled().sparse_residency_aliased, "sparseResidencyAliased");
    // 16x16 blocks; the box is 4x3 of them; 64 pages.
    const LayoutProbe probe = probe_layout(VK_IMAGE_TYPE_2D, {2048, 2048, 1}, 4, 3, 1, 64);
    check_row_major(probe, 4, 3, 1);
}

TEST_CASE("a 3D multi-block bind lays memory out row-major by block") {
    needs(device().enabled().sparse_residency_aliased, "sparseResidencyAliased");
    needs(device().enabled().sparse_residency_image_3d, "sparseResidencyImage3D");
    std::uint32_t formats = 0;
    vkGetPhysicalDeviceSparseImageFormatProperties(
        device().physical_device(), VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_3D,
        VK_SAMPLE_COUNT_1_BIT,
        VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
            VK_IMAGE_USAGE_SAMPLED_BIT,
        VK_IMAGE_TILING_OPTIMAL, &formats, nullptr);
    needs(formats > 0, "sparse R8G8B8A8_UNORM 3D images");
    // 32x32x16 blocks (32-bit texels): 4x4x4 blocks; the box is 2x2x2 of them; 32 pages.
    const LayoutProbe probe = probe_layout(VK_IMAGE_TYPE_3D, {128, 128, 64}, 2, 2, 2, 32);
    check_row_major(probe, 2, 2, 2);
}

TEST_CASE("coalesced binds read back the same as one bind per tile") {
    const VulkanDevice& dev = device();
    needs(dev.enabled().sparse_residency_aliased, "sparseResidencyAliased");
    const bool strict = dev.enabled().residency_non_resident_strict;
    Runner runner(dev);
    PageMemory memory(dev);  // freed after the image is gone
    SparseImage image(dev, runner,
                      {VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {4096, 4096, 1}, true});
    REQUIRE(image.block_bytes() == kTileBytes);
    const auto target = image.target();
    REQUIRE(target.blocks_x() == 32);
    memory.allocate(image.memory_type_bits(), 256);

    // Every page once, in rows 0-7, each holding its own pattern.
    std::vector<ImageTileMapping> writers;
    std::vector<TileCoord> writer_tiles = box_tiles(0, 0, 0, 32, 8, 1);
    std::vector<std::uint64_t> writer_pages;
    for (const TileCoord& t : writer_tiles) {
        writers.push_back({t.x, t.y, 0, memory.memory(), t.y * 32u + t.x});
        writer_pages.push_back(t.y * 32u + t.x);
    }
    std::vector<VkSparseImageMemoryBind> binds;
    per_tile_image_binds(target, writers, binds);
    runner.bind(image.image(), binds);
    write_tiles(runner, dev, image, writer_tiles, writer_pages);

    // The mixed mapping at (0, 8) coalesced and at (16, 8) one bind per tile;
    // every tile first listed onto page 255, then remapped (the last wins).
    std::vector<ImageTileMapping> coalesced_in, per_tile_in;
    for (std::uint32_t pass = 0; pass < 2; ++pass) {
        for (std::uint32_t y = 0; y < kMixedSize; ++y) {
            for (std::uint32_t x = 0; x < kMixedSize; ++x) {
                const auto page =
                    pass == 0 ? std::optional<std::uint64_t>(255) : mixed_mapping(x, y);
                const VkDeviceMemory mem = page ? memory.memory() : VK_NULL_HANDLE;
                coalesced_in.push_back({x, 8 + y, 0, mem, page.value_or(0)});
                if (pass == 1) per_tile_in.push_back({16 + x, 8 + y, 0, mem, page.value_or(0)});
            }
        }
    }
    SparseBinder binder;
    std::vector<VkSparseImageMemoryBind> coalesced, per_tile;
    REQUIRE(binder.coalesce_image(target, coalesced_in, coalesced));
    CHECK(coalesced.size() == kMixedEntries);
    per_tile_image_binds(target, per_tile_in, per_tile);
    REQUIRE(per_tile.size() == kMixedSize * kMixedSize);
    runner.bind(image.image(), coalesced);
    runner.bind(image.image(), per_tile);

    const auto left = box_tiles(0, 8, 0, kMixedSize, kMixedSize, 1);
    const auto right = box_tiles(16, 8, 0, kMixedSize, kMixedSize, 1);
    const std::vector<std::uint32_t> a = read_tiles(runner, dev, image, left);
    const std::vector<std::uint32_t> b = read_tiles(runner, dev, image, right);
    const auto a_pages = contents(image, a, left.size());
    const auto b_pages = contents(image, b, right.size());
    std::size_t compared = 0;
    for (std::uint32_t i = 0; i < left.size(); ++i) {
        const auto expected = mixed_mapping(left[i].x, left[i].y - 8);
        if (!expected && !strict) continue;  // unbound reads are undefined here
        INFO("tile " << left[i].x << "," << left[i].y - 8 << " of the mapping");
        CHECK(a_pages[i] == (expected ? static_cast<std::int64_t>(*expected) : kZero));
        CHECK(b_pages[i] == a_pages[i]);
        ++compared;
    }
    if (strict) CHECK(std::memcmp(a.data(), b.data(), a.size() * 4) == 0);
    std::printf("mixed 16x16 mapping: %zu coalesced entries for %u tiles; %zu tiles compared\n",
                coalesced.size(), kMixedSize * kMixedSize, compared);
}

TEST_CASE("unbound tiles read as zero and drop writes") {
    const VulkanDevice& dev = device();
    needs(dev.enabled().residency_non_resident_strict, "residencyNonResidentStrict");
    Runner runner(dev);
    PageMemory memory(dev);  // freed after the image is gone
    SparseImage image(dev, runner,
                      {VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {2048, 2048, 1}, false});
    REQUIRE(image.block_bytes() == kTileBytes);
    const auto target = image.target();
    memory.allocate(image.memory_type_bits(), 64);
    SparseBinder binder;

    std::vector<ImageTileMapping> mapped;
    for (std::uint32_t y = 0; y < 8; ++y)
        for (std::uint32_t x = 0; x < 8; ++x)
            mapped.push_back({x, y, 0, memory.memory(), y * 8 + x});
    std::vector<VkSparseImageMemoryBind> binds;
    REQUIRE(binder.coalesce_image(target, mapped, binds));
    REQUIRE(binds.size() == 1);
    runner.bind(image.image(), binds);
    const auto region = box_tiles(0, 0, 0, 8, 8, 1);
    std::vector<std::uint64_t> pages;
    for (const TileCoord& t : region) pages.push_back(t.y * 8 + t.x);
    write_tiles(runner, dev, image, region, pages);

    // Unmap a 4x4 box and every other tile of rows 0-1.
    std::vector<ImageTileMapping> unmapped;
    auto is_unmapped = [](std::uint32_t x, std::uint32_t y) {
        return (x >= 2 && x < 6 && y >= 2 && y < 6) || (y < 2 && x % 2 == 0);
    };
    for (const TileCoord& t : region) {
        if (is_unmapped(t.x, t.y)) unmapped.push_back({t.x, t.y, 0, VK_NULL_HANDLE, 0});
    }
    binds.clear();
    REQUIRE(binder.coalesce_image(target, unmapped, binds));
    CHECK(binds.size() == 1 + 4);  // the box, and the single tiles stacked into 1x2 columns
    for (const VkSparseImageMemoryBind& b : binds) CHECK(b.memory == VK_NULL_HANDLE);
    runner.bind(image.image(), binds);

    // A write to an unbound tile is dropped.
    const TileCoord dropped[] = {{3, 3, 0}};
    const std::uint64_t dropped_page[] = {999};
    write_tiles(runner, dev, image, dropped, dropped_page);

    auto tiles = region;
    tiles.push_back({12, 12, 0});  // never bound
    tiles.push_back({15, 15, 0});
    const auto got = contents(image, read_tiles(runner, dev, image, tiles), tiles.size());
    std::size_t zeros = 0;
    for (std::size_t i = 0; i < tiles.size(); ++i) {
        const TileCoord& t = tiles[i];
        const bool unbound = t.x >= 8 || t.y >= 8 || is_unmapped(t.x, t.y);
        INFO("tile " << t.x << "," << t.y);
        CHECK(got[i] == (unbound ? kZero : static_cast<std::int64_t>(t.y * 8 + t.x)));
        zeros += unbound;
    }
    CHECK(zeros == 16 + 8 + 2);
}

TEST_CASE("a 64x64-tile box onto contiguous memory is one bind entry") {
    const VulkanDevice& dev = device();
    needs(dev.enabled().sparse_residency_aliased, "sparseResidencyAliased");
    Runner runner(dev);
    PageMemory memory(dev);  // freed after the image is gone
    SparseImage image(dev, runner,
                      {VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, {8192, 16384, 1}, true});
    REQUIRE(image.block_bytes() == kTileBytes);
    const auto target = image.target();
    REQUIRE(target.blocks_x() == 64);
    memory.allocate(image.memory_type_bits(), 4096 + 7);

    // The box onto pages 7..4102 (one entry), and the same pages one tile at
    // a time in rows 64-127.
    std::vector<ImageTileMapping> box, singles;
    for (std::uint32_t y = 0; y < 64; ++y) {
        for (std::uint32_t x = 0; x < 64; ++x) {
            box.push_back({x, y, 0, memory.memory(), 7 + y * 64u + x});
            singles.push_back({x, 64 + y, 0, memory.memory(), 7 + y * 64u + x});
        }
    }
    SparseBinder binder;
    std::vector<VkSparseImageMemoryBind> binds;
    REQUIRE(binder.coalesce_image(target, box, binds));
    REQUIRE(binds.size() == 1);
    CHECK(binds[0].offset.x == 0);
    CHECK(binds[0].offset.y == 0);
    CHECK(binds[0].extent.width == 8192);
    CHECK(binds[0].extent.height == 8192);
    CHECK(binds[0].extent.depth == 1);
    CHECK(binds[0].memoryOffset == 7 * kTileBytes);
    per_tile_image_binds(target, singles, binds);
    runner.bind(image.image(), binds);

    const auto lower = box_tiles(0, 64, 0, 64, 64, 1);
    std::vector<std::uint64_t> pages;
    for (const TileCoord& t : lower) pages.push_back(7 + (t.y - 64) * 64 + t.x);
    write_tiles(runner, dev, image, lower, pages);
    const auto upper = box_tiles(0, 0, 0, 64, 64, 1);
    const auto got = contents(image, read_tiles(runner, dev, image, upper), upper.size());
    std::size_t equal = 0;
    for (std::size_t i = 0; i < upper.size(); ++i) {
        equal += got[i] == static_cast<std::int64_t>(7 + upper[i].y * 64 + upper[i].x);
    }
    CHECK(equal == 4096);
}

int main(int argc, char** argv) {
    Gpu gpu;
    return test_support::run_catch(argc, argv, [&] {
        gpu = open_sparse_gpu();
        if (gpu.no_vulkan) test_support::missing_dependency(gpu.skip_reason);
        if (!gpu.device) test_support::skip_test(gpu.skip_reason);
        std::printf("%scoalescer layout: %s\n", gpu.device->describe().c_str(),
                    d3dcap::runtime::backend::vulkan::layout_name(
                        d3dcap::runtime::backend::vulkan::kDefaultLayout));
        g_gpu = &gpu;
    });
}
