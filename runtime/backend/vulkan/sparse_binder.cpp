#include "runtime/backend/vulkan/sparse_binder.h"

#include <algorithm>
#include <string>

namespace d3dcap::runtime::backend::vulkan {

const char* layout_name(MultiBlockLayout layout) {
    switch (layout) {
        case MultiBlockLayout::kPerBlock:
            return "per block";
        case MultiBlockLayout::kRowsOnly:
            return "rows only";
        case MultiBlockLayout::kRowMajor:
            return "row-major (x, then y, then z)";
    }
    return "unknown";
}

namespace {

// Image tile keys: z, y and x in 21-bit fields, so that key + 1 is the next
// tile along x of the same row (x never reaches 2^21).
constexpr std::uint64_t image_key(std::uint32_t x, std::uint32_t y, std::uint32_t z) {
    return (std::uint64_t{z} << 42) | (std::uint64_t{y} << 21) | x;
}

}  // namespace

template <class Mapping, class KeyOf>
Status SparseBinder::sort_unique(std::span<const Mapping> mappings, KeyOf key_of,
                                 std::uint64_t key_limit, const RadixDigits& radix) {
    keyed_.clear();
    keyed_.reserve(mappings.size());
    bool increasing = true;
    for (std::size_t i = 0; i < mappings.size(); ++i) {
        const std::uint64_t key = key_of(mappings[i]);
        if (key >= key_limit) return Error{"tile mapping " + std::to_string(i) + " is outside"};
        increasing = increasing && (keyed_.empty() || key > keyed_.back().key);
        keyed_.push_back({key, static_cast<std::uint32_t>(i)});
    }
    if (increasing) return {};  // the common case: regions walked in order
    // Stable either way: of equal keys the last mapping ends up last.
    const std::uint64_t buckets = std::uint64_t{radix.low_buckets} + radix.high_buckets;
    if (radix.low_buckets > 0 && buckets <= 8 * std::uint64_t{keyed_.size()} + 4096) {
        counting_pass(radix.low_buckets, [&](std::uint64_t key) { return key & radix.low_mask; });
        counting_pass(radix.high_buckets, [&](std::uint64_t key) {
            return (key >> radix.high_shift) * radix.high_stride +
                   ((key >> radix.mid_shift) & radix.low_mask);
        });
    } else {
        std::stable_sort(keyed_.begin(), keyed_.end(),
                         [](const Keyed& a, const Keyed& b) { return a.key < b.key; });
    }
    std::size_t out = 0;
    for (std::size_t i = 0; i < keyed_.size(); ++i) {
        if (i + 1 < keyed_.size() && keyed_[i + 1].key == keyed_[i].key) continue;
        keyed_[out++] = keyed_[i];
    }
    keyed_.resize(out);
    return {};
}

// One stable counting-sort pass of keyed_ by digit(key) < buckets.
template <class Digit>
void SparseBinder::counting_pass(std::uint64_t buckets, Digit digit) {
    counts_.assign(buckets + 1, 0);
    for (const Keyed& k : keyed_) ++counts_[digit(k.key) + 1];
    for (std::uint64_t b = 0; b < buckets; ++b) counts_[b + 1] += counts_[b];
    spare_.resize(keyed_.size());
    for (const Keyed& k : keyed_) spare_[counts_[digit(k.key)]++] = k;
    keyed_.swap(spare_);
}

void SparseBinder::emit(const SparseImageTarget& target, const Box& box,
                        std::vector<VkSparseImageMemoryBind>& out) const {
    const VkExtent3D& b = target.block;
    VkSparseImageMemoryBind bind{};
    bind.subresource = target.subresource;
    bind.offset = {static_cast<std::int32_t>(box.x * b.width),
                   static_cast<std::int32_t>(box.y * b.height),
                   static_cast<std::int32_t>(box.z * b.depth)};
    // Edge blocks: the extent stops at the subresource's edge.
    bind.extent = {std::min(box.w * b.width, target.extent.width - box.x * b.width),
                   std::min(box.h * b.height, target.extent.height - box.y * b.height),
                   std::min(box.d * b.depth, target.extent.depth - box.z * b.depth)};
    bind.memory = box.memory;
    bind.memoryOffset = box.memory ? box.page * kTileBytes : 0;
    out.push_back(bind);
}

Status SparseBinder::coalesce_image(const SparseImageTarget& target,
                                    std::span<const ImageTileMapping> mappings,
                                    std::vector<VkSparseImageMemoryBind>& out) {
    const VkExtent3D& b = target.block;
    if (b.width == 0 || b.height == 0 || b.depth == 0 || target.extent.width == 0 ||
        target.extent.height == 0 || target.extent.depth == 0) {
        return Error{"sparse image target has an empty block shape or extent"};
    }
    const std::uint32_t bx = target.blocks_x(), by = target.blocks_y(), bz = target.blocks_z();
    if (bx >= (1u << 21) || by >= (1u << 21) || bz >= (1u << 21)) {
        return Error{"sparse image target has more than 2^21 blocks along an axis"};
    }
    Status sorted = sort_unique(
        mappings,
        [bx, by, bz](const ImageTileMapping& m) {
            if (m.x >= bx || m.y >= by || m.z >= bz) return ~std::uint64_t{0};
            return image_key(m.x, m.y, m.z);
        },
        ~std::uint64_t{0},
        // Radix passes: by x, then by row (z * rows + y).
        RadixDigits{bx, std::uint64_t{by} * bz, (1u << 21) - 1, 42, by, 21});
    if (!sorted) {
        return Error{sorted.error().message + " the subresource (" + std::to_string(bx) + "x" +
                     std::to_string(by) + "x" + std::to_string(bz) + " tiles)"};
    }
    out.reserve(out.size() + keyed_.size());  // at most one entry per tile

    auto box_of = [&](const Keyed& k) {
        const ImageTileMapping& m = mappings[k.index];
        const std::uint32_t uniform = m.memory ? m.uniform_pages : 0;
        return Box{m.x, m.y, m.z, 1, 1, 1, m.memory, m.memory && !uniform ? m.page : 0, uniform};
    };
    if (target.layout == MultiBlockLayout::kPerBlock) {
        for (const Keyed& k : keyed_) emit(target, box_of(k), out);
        return {};
    }

    // Runs along x, then (row-major layout) runs stacked into boxes.
    const bool stack = target.layout == MultiBlockLayout::kRowMajor;
    open_.clear();
    next_open_.clear();
    closed_.clear();
    std::size_t oi = 0;  // next box of open_ the current row may extend
    std::uint32_t row_y = 0, row_z = 0;
    bool have_row = false;
    auto finish_row = [&]() {
        for (; oi < open_.size(); ++oi) closed_.push_back(open_[oi]);
        open_.clear();
        oi = 0;
    };
    auto add_run = [&](const Box& run) {
        if (!stack) {
            closed_.push_back(run);
            return;
        }
        if (!have_row || run.y != row_y || run.z != row_z) {
            finish_row();
            const bool adjacent = have_row && run.z == row_z && run.y == row_y + 1;
            if (adjacent) {
                open_.swap(next_open_);
            } else {
                closed_.insert(closed_.end(), next_open_.begin(), next_open_.end());
            }
            next_open_.clear();
            row_y = run.y;
            row_z = run.z;
            have_row = true;
        }
        while (oi < open_.size() && open_[oi].x < run.x) closed_.push_back(open_[oi++]);
        if (oi < open_.size() && open_[oi].x == run.x) {
            Box& box = open_[oi++];
            const bool fits =
                box.w == run.w && box.followed_by(run, std::uint64_t{box.h} * box.w, run.w);
            if (fits) {
                ++box.h;
                next_open_.push_back(box);
                return;
            }
            closed_.push_back(box);
        }
        next_open_.push_back(run);
    };

    Box run{};
    std::uint64_t next_key = ~std::uint64_t{0};
    for (const Keyed& k : keyed_) {
        const Box tile = box_of(k);
        if (k.key == next_key && run.followed_by(tile, run.w, 1)) {
            ++run.w;
        } else {
            if (next_key != ~std::uint64_t{0}) add_run(run);
            run = tile;
        }
        next_key = k.key + 1;
    }
    if (next_key != ~std::uint64_t{0}) add_run(run);
    finish_row();
    closed_.insert(closed_.end(), next_open_.begin(), next_open_.end());

    if (stack && bz > 1 && closed_.size() > 1) {
        // Stack equal boxes of consecutive z whose memory follows on.
        std::sort(closed_.begin(), closed_.end(), [](const Box& a, const Box& c) {
            if (a.x != c.x) return a.x < c.x;
            if (a.y != c.y) return a.y < c.y;
            if (a.w != c.w) return a.w < c.w;
            if (a.h != c.h) return a.h < c.h;
            return a.z < c.z;
        });
        std::size_t n = 0;
        for (const Box& c : closed_) {
            if (n > 0) {
                Box& p = closed_[n - 1];
                const std::uint64_t layer = std::uint64_t{p.w} * p.h;
                if (p.x == c.x && p.y == c.y && p.w == c.w && p.h == c.h && p.z + p.d == c.z &&
                    p.followed_by(c, p.d * layer, c.d * layer)) {
                    ++p.d;
                    continue;
                }
            }
            closed_[n++] = c;
        }
        closed_.resize(n);
    }
    for (const Box& box : closed_) emit(target, box, out);
    return {};
}

Status SparseBinder::coalesce_buffer(std::uint64_t buffer_tiles,
                                     std::span<const BufferTileMapping> mappings,
                                     std::vector<VkSparseMemoryBind>& out) {
    Status sorted = sort_unique(
        mappings, [](const BufferTileMapping& m) { return m.tile; }, buffer_tiles, RadixDigits{});
    if (!sorted) {
        return Error{sorted.error().message + " the buffer (" + std::to_string(buffer_tiles) +
                     " tiles)"};
    }
    // Runs along the buffer, as boxes one tile high.
    Box run{};
    auto emit_run = [&] {
        out.push_back({std::uint64_t{run.x} * kTileBytes, std::uint64_t{run.w} * kTileBytes,
                       run.memory, run.page * kTileBytes, 0});
    };
    std::uint64_t next_tile = ~std::uint64_t{0};
    for (const Keyed& k : keyed_) {
        const BufferTileMapping& m = mappings[k.index];
        const std::uint32_t uniform = m.memory ? m.uniform_pages : 0;
        const Box tile{static_cast<std::uint32_t>(m.tile), 0,      0, 1, 1, 1, m.memory,
                       m.memory && !uniform ? m.page : 0,  uniform};
        if (k.key == next_tile && run.followed_by(tile, run.w, 1)) {
            ++run.w;
        } else {
            if (next_tile != ~std::uint64_t{0}) emit_run();
            run = tile;
        }
        next_tile = k.key + 1;
    }
    if (next_tile != ~std::uint64_t{0}) emit_run();
    return {};
}

void per_tile_image_binds(const SparseImageTarget& target,
                          std::span<const ImageTileMapping> mappings,
                          std::vector<VkSparseImageMemoryBind>& out) {
    const VkExtent3D& b = target.block;
    out.reserve(out.size() + mappings.size());
    for (const ImageTileMapping& m : mappings) {
        VkSparseImageMemoryBind bind{};
        bind.subresource = target.subresource;
        bind.offset = {static_cast<std::int32_t>(m.x * b.width),
                       static_cast<std::int32_t>(m.y * b.height),
                       static_cast<std::int32_t>(m.z * b.depth)};
        bind.extent = {std::min(b.width, target.extent.width - m.x * b.width),
                       std::min(b.height, target.extent.height - m.y * b.height),
                       std::min(b.depth, target.extent.depth - m.z * b.depth)};
        bind.memory = m.memory;
        bind.memoryOffset = m.memory ? m.page * kTileBytes : 0;
        out.push_back(bind);
    }
}

void per_tile_buffer_binds(std::span<const BufferTileMapping> mappings,
                           std::vector<VkSparseMemoryBind>& out) {
    out.reserve(out.size() + mappings.size());
    for (const BufferTileMapping& m : mappings) {
        out.push_back(
            {m.tile * kTileBytes, kTileBytes, m.memory, m.memory ? m.page * kTileBytes : 0, 0});
    }
}

VkResult submit_sparse_batch(VkQueue queue, const SparseBatch& batch, VkFence fence) {
    VkSparseImageMemoryBindInfo image{};
    image.image = batch.image;
    image.bindCount = static_cast<std::uint32_t>(batch.image_binds.size());
    image.pBinds = batch.image_binds.data();
    VkSparseImageOpaqueMemoryBindInfo opaque{};
    opaque.image = batch.image;
    opaque.bindCount = static_cast<std::uint32_t>(batch.image_opaque_binds.size());
    opaque.pBinds = batch.image_opaque_binds.data();
    VkSparseBufferMemoryBindInfo buffer{};
    buffer.buffer = batch.buffer;
    buffer.bindCount = static_cast<std::uint32_t>(batch.buffer_binds.size());
    buffer.pBinds = batch.buffer_binds.data();

    VkTimelineSemaphoreSubmitInfo timeline{};
    timeline.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO;
    VkBindSparseInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BIND_SPARSE_INFO;
    if (batch.image && image.bindCount > 0) {
        info.imageBindCount = 1;
        info.pImageBinds = &image;
    }
    if (batch.image && opaque.bindCount > 0) {
        info.imageOpaqueBindCount = 1;
        info.pImageOpaqueBinds = &opaque;
    }
    if (batch.buffer && buffer.bindCount > 0) {
        info.bufferBindCount = 1;
        info.pBufferBinds = &buffer;
    }
    if (batch.wait) {
        info.waitSemaphoreCount = 1;
        info.pWaitSemaphores = &batch.wait;
        timeline.waitSemaphoreValueCount = 1;
        timeline.pWaitSemaphoreValues = &batch.wait_value;
    }
    if (batch.signal) {
        info.signalSemaphoreCount = 1;
        info.pSignalSemaphores = &batch.signal;
        timeline.signalSemaphoreValueCount = 1;
        timeline.pSignalSemaphoreValues = &batch.signal_value;
    }
    if (batch.wait || batch.signal) info.pNext = &timeline;
    return vkQueueBindSparse(queue, 1, &info, fence);
}

}  // namespace d3dcap::runtime::backend::vulkan
