// Turns D3D11 tile mappings into as few Vulkan sparse binds as possible.
//
// A D3D11 UpdateTileMappings call maps tiles one by one onto 64 KiB pool
// pages; the Vulkan device keeps a pool as large VkDeviceMemory blocks and
// binds tiles with vkQueueBindSparse. Drivers take time per bind entry, so
// runs of tiles whose memory is contiguous become one entry: along x, and
// boxes of equal rows stacked in y (and z) whose memory follows on in the
// order a multi-block VkSparseImageMemoryBind lays memory out. The Vulkan
// specification does not define that order; MultiBlockLayout names it and
// the GPU tests check it on the device.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <span>
#include <vector>

#include "runtime/backend/vulkan/status.h"

namespace d3dcap::runtime::backend::vulkan {

inline constexpr VkDeviceSize kTileBytes = 65536;  // a D3D11 tile, a Vulkan sparse block

// How one VkSparseImageMemoryBind of W x H x D blocks consumes its memory.
enum class MultiBlockLayout {
    kPerBlock,  // unknown: merge nothing, one entry per block
    kRowsOnly,  // only runs along x are known to be contiguous
    // Block (bx, by, bz) of the bind at memoryOffset + ((bz * H + by) * W + bx)
    // blocks: x fastest, then y, then z.
    kRowMajor,
};
// The order the coalescer assumes. Not yet confirmed on a GPU: the test
// "a 2D multi-block bind lays memory out row-major by block" (and its 3D
// twin) checks it, and the device must fall back to kPerBlock where it fails.
inline constexpr MultiBlockLayout kDefaultLayout = MultiBlockLayout::kRowMajor;
const char* layout_name(MultiBlockLayout layout);

// One tile of an image subresource and where it goes. memory ==
// VK_NULL_HANDLE unbinds the tile (page is ignored). uniform_pages > 0 says
// that the first uniform_pages pages of memory hold the same bytes (copies
// of one page) and the tile may be bound to any of them: such tiles merge
// into entries of up to uniform_pages tiles whatever their page.
struct ImageTileMapping {
    std::uint32_t x = 0, y = 0, z = 0;  // in tiles (sparse blocks)
    VkDeviceMemory memory = VK_NULL_HANDLE;
    std::uint64_t page = 0;  // offset into memory in 64 KiB pages
    std::uint32_t uniform_pages = 0;
};

// One tile of a sparse buffer (tile i = bytes [i * 64 KiB, (i + 1) * 64 KiB)).
struct BufferTileMapping {
    std::uint64_t tile = 0;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    std::uint64_t page = 0;
    std::uint32_t uniform_pages = 0;  // as for ImageTileMapping
};

// The image subresource the mappings are for.
struct SparseImageTarget {
    VkImageSubresource subresource{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
    VkExtent3D block{128, 128, 1};  // texels per sparse block (imageGranularity)
    VkExtent3D extent{0, 0, 1};     // the mip level's size in texels
    MultiBlockLayout layout = kDefaultLayout;

    std::uint32_t blocks_x() const { return (extent.width + block.width - 1) / block.width; }
    std::uint32_t blocks_y() const { return (extent.height + block.height - 1) / block.height; }
    std::uint32_t blocks_z() const { return (extent.depth + block.depth - 1) / block.depth; }
};

// Keeps its scratch space between calls so that steady-state coalescing
// allocates nothing. Not thread-safe; one per binding thread.
class SparseBinder {
  public:
    // Appends the binds for `mappings` to `out`. A tile listed twice takes its
    // last mapping (Vulkan forbids binding one range twice in a batch). Fails,
    // appending nothing, when a tile lies outside the subresource.
    Status coalesce_image(const SparseImageTarget& target,
                          std::span<const ImageTileMapping> mappings,
                          std::vector<VkSparseImageMemoryBind>& out);
    Status coalesce_buffer(std::uint64_t buffer_tiles, std::span<const BufferTileMapping> mappings,
                           std::vector<VkSparseMemoryBind>& out);

  private:
    struct Keyed {
        std::uint64_t key;
        std::uint32_t index;
    };
    struct Box {
        std::uint32_t x, y, z, w, h, d;
        VkDeviceMemory memory;
        std::uint64_t page;
        std::uint32_t uniform_pages;  // 0: memory follows on from page
        // Whether `more` (tiles of the same memory, `added` of them) can
        // follow this box's first `before` tiles in one entry.
        bool followed_by(const Box& more, std::uint64_t before, std::uint64_t added) const {
            if (more.memory != memory) return false;
            if (uniform_pages > 0) return before + added <= uniform_pages;
            return !memory || more.page == page + before;
        }
    };
    // Two digits of an image key for a radix sort: x (key & low_mask, below
    // low_buckets), then the row ((key >> high_shift) * high_stride +
    // ((key >> mid_shift) & low_mask), below high_buckets). low_buckets == 0:
    // a comparison sort.
    struct RadixDigits {
        std::uint64_t low_buckets = 0, high_buckets = 0;
        std::uint64_t low_mask = 0;
        std::uint32_t high_shift = 0, high_stride = 0, mid_shift = 0;
    };
    // keyed_ = the mappings' keys in order, one per tile (its last mapping).
    template <class Mapping, class KeyOf>
    Status sort_unique(std::span<const Mapping> mappings, KeyOf key_of, std::uint64_t key_limit,
                       const RadixDigits& radix);
    template <class Digit>
    void counting_pass(std::uint64_t buckets, Digit digit);
    void emit(const SparseImageTarget& target, const Box& box,
              std::vector<VkSparseImageMemoryBind>& out) const;

    std::vector<Keyed> keyed_;  // sorted, one per tile, index of the last mapping
    std::vector<Keyed> spare_;
    std::vector<std::uint32_t> counts_;
    std::vector<Box> open_;  // boxes that the current row may extend
    std::vector<Box> next_open_;
    std::vector<Box> closed_;  // finished 2D boxes, for stacking in z
};

// The naive baseline: one entry per mapping, in order (the mappings must name
// distinct tiles).
void per_tile_image_binds(const SparseImageTarget& target,
                          std::span<const ImageTileMapping> mappings,
                          std::vector<VkSparseImageMemoryBind>& out);
void per_tile_buffer_binds(std::span<const BufferTileMapping> mappings,
                           std::vector<VkSparseMemoryBind>& out);

// One vkQueueBindSparse batch for one image (and/or buffer), signalling a
// timeline semaphore value and/or a fence (either may be VK_NULL_HANDLE).
struct SparseBatch {
    VkImage image = VK_NULL_HANDLE;
    std::span<const VkSparseImageMemoryBind> image_binds;
    std::span<const VkSparseMemoryBind> image_opaque_binds;  // mip tails
    VkBuffer buffer = VK_NULL_HANDLE;
    std::span<const VkSparseMemoryBind> buffer_binds;
    VkSemaphore wait = VK_NULL_HANDLE;  // timeline semaphore to wait for, at wait_value
    std::uint64_t wait_value = 0;
    VkSemaphore signal = VK_NULL_HANDLE;  // timeline semaphore to signal, at signal_value
    std::uint64_t signal_value = 0;
};
VkResult submit_sparse_batch(VkQueue queue, const SparseBatch& batch, VkFence fence);

}  // namespace d3dcap::runtime::backend::vulkan
