// What a clear or Discard* writes, worked out once for every device that
// keeps data: the element pattern of the view's format (by the conversion
// rules) and the boxes of each subresource the view and rectangles select.
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <vector>

#include "runtime/backend/subresource_layout.h"

namespace d3dcap::runtime::backend {

// One box of one subresource, in its elements, filled with `pattern`
// repeated from the box's first byte of each row; where `mask` is not empty
// (pattern-sized) only the bytes it marks change.
struct FillBox {
    std::uint32_t subresource = 0;
    ElementBox box;
    std::vector<std::uint8_t> pattern, mask;
};

// The fills of a view (rects in texels of each mip, NULL/0 for all); texel
// and texel_mask are one texel of the view's format.
std::vector<FillBox> plan_view_fill(const ResourceInfo& info, const ViewInfo& view,
                                    const std::vector<std::uint8_t>& texel,
                                    const std::vector<std::uint8_t>& texel_mask,
                                    const D3D11_RECT* rects, std::uint32_t rect_count);

// One texel of a clear: empty when the view's format cannot be cleared.
struct ClearTexel {
    std::vector<std::uint8_t> texel, mask;  // mask empty: every byte
};
ClearTexel float_clear_texel(DXGI_FORMAT format, const float color[4]);
// ClearUnorderedAccessViewUint: integers bit for bit, each cut to its
// channel; raw and structured buffers get values[0] in every 32-bit word.
ClearTexel uint_clear_texel(DXGI_FORMAT format, const std::uint32_t values[4]);
// Depth clamped to [0, 1]; flags pick depth and/or stencil.
ClearTexel depth_stencil_clear_texel(DXGI_FORMAT format, std::uint32_t flags, float depth,
                                     std::uint8_t stencil);
// Discard*: every byte becomes the poison byte.
ClearTexel poison_texel();

// The end of [first, first + count) inside [0, limit); a count of 0 (which
// no view has) is taken as "all", like UINT32_MAX.
std::uint32_t clipped_end(std::uint32_t first, std::uint32_t count, std::uint32_t limit);

// A box in texels (bytes for buffers) as elements of a layout, clipped to
// it; null means the whole subresource.
ElementBox element_box(const SubresourceLayout& layout, const D3D11_BOX* box);

}  // namespace d3dcap::runtime::backend
