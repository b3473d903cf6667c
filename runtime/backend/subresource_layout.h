// The canonical linear layout of a subresource, in elements: what data work
// of every backend reads and writes, and what content hashes hash.
#pragma once

#include <cstdint>

#include "runtime/backend/backend.h"

namespace d3dcap::runtime::backend {

inline constexpr std::uint8_t kPoisonByte = 0xDD;  // contents after Discard*/OfferResources

// One subresource in elements: texels, 4x4 blocks of BC formats, 2x1 pairs of
// packed 4:2:2 formats, or bytes of buffers.
struct SubresourceLayout {
    std::uint32_t mip = 0, slice = 0;
    std::uint32_t texel_width = 1, texel_height = 1;  // of the mip, in texels (bytes for buffers)
    std::uint32_t width = 1, height = 1, depth = 1;   // in elements
    std::uint32_t block_width = 1, block_height = 1;  // texels per element
    std::uint32_t element_bytes = 1;                  // all samples of one element

    std::uint64_t row_bytes() const { return std::uint64_t{width} * element_bytes; }
    std::uint64_t slice_bytes() const { return row_bytes() * height; }
    std::uint64_t bytes() const { return slice_bytes() * depth; }
};

// Mip levels of a resource (0 in a desc means the full chain).
std::uint32_t mip_levels_of(const ResourceInfo& info);
// The layout of one subresource; buffers (and pools) are one row of bytes.
SubresourceLayout layout_of(const ResourceInfo& info, std::uint32_t subresource);
// Sum of the canonical sizes of every subresource.
std::uint64_t total_bytes(const ResourceInfo& info);

// A half-open box in elements.
struct ElementBox {
    std::uint32_t left = 0, top = 0, front = 0, right = 0, bottom = 0, back = 0;
    bool empty() const { return left >= right || top >= bottom || front >= back; }
    std::uint32_t width() const { return right - left; }
    std::uint32_t height() const { return bottom - top; }
    std::uint32_t depth() const { return back - front; }
};

}  // namespace d3dcap::runtime::backend
