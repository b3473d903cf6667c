// What a view selects: mips [first_mip, first_mip + mip_count) and array
// slices [first_slice, first_slice + slice_count), clipped to the resource
// (so UINT32_MAX counts mean "all"; so do counts of 0). For a Texture3D,
// first_slice and slice_count are W slices of each selected mip
// (FirstWSlice/WSize). For a buffer, [first_element, first_element +
// element_count) in elements of the view's format (structure_stride bytes when
// the format is UNKNOWN); element_count 0 means to the end of the buffer.
#include "runtime/backend/clear_plan.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "runtime/backend/filling_backend.h"
#include "runtime/formats/formats.h"
#include "runtime/formats/pixels.h"

namespace d3dcap::runtime::backend {
namespace {

using formats::PixelLayout;

std::uint32_t clamp_coordinate(LONG value, std::uint32_t limit) {
    return static_cast<std::uint32_t>(std::clamp<std::int64_t>(value, 0, limit));
}

std::uint32_t round_up_divide(std::uint32_t value, std::uint32_t divisor) {
    return static_cast<std::uint32_t>((std::uint64_t{value} + divisor - 1) / divisor);
}

std::uint32_t view_element_bytes(const ResourceInfo& info, const ViewInfo& view) {
    if (view.format == DXGI_FORMAT_UNKNOWN)
        return std::max<std::uint32_t>(1, info.structure_stride);
    return std::max<std::uint32_t>(1, formats::info(view.format).bits_per_element / 8);
}

// One element's pattern from a texel's: the texel repeated over the element's
// bytes (every MSAA sample, or every byte for 1-byte poison).
bool repeat_to(const std::vector<std::uint8_t>& texel, std::uint32_t bytes,
               std::vector<std::uint8_t>& out) {
    if (texel.empty() || bytes % texel.size() != 0) return false;
    out.resize(bytes);
    for (std::uint32_t at = 0; at < bytes; ++at) out[at] = texel[at % texel.size()];
    return true;
}

// Which bytes of a texel hold the given channels.
std::vector<std::uint8_t> channel_mask(const formats::PixelLayout& layout, bool first,
                                       bool second) {
    std::vector<std::uint8_t> mask(layout.bytes, 0);
    for (unsigned index = 0; index < 2; ++index) {
        const formats::ChannelLayout& c = layout.channels[index];
        if (c.type == formats::ChannelType::Absent || !(index == 0 ? first : second)) continue;
        for (unsigned bit = c.offset; bit < c.offset + c.bits; ++bit) mask[bit / 8] = 1;
    }
    return mask;
}

void plan_buffer_fill(const ResourceInfo& info, const ViewInfo& view,
                      const std::vector<std::uint8_t>& texel,
                      const std::vector<std::uint8_t>& texel_mask, const D3D11_RECT* rects,
                      std::uint32_t rect_count, std::vector<FillBox>& out) {
    const std::uint32_t element = view_element_bytes(info, view);
    const std::uint64_t buffer_elements = info.byte_width / element;
    const std::uint64_t first = std::min(view.first_element, buffer_elements);
    const std::uint64_t end = view.element_count == 0
                                  ? buffer_elements
                                  : std::min(first + view.element_count, buffer_elements);
    std::vector<std::uint8_t> pattern, mask;
    if (!repeat_to(texel, element, pattern)) return;
    if (!texel_mask.empty()) repeat_to(texel_mask, element, mask);
    // A buffer is one row of bytes: the left and right of each rectangle are
    // elements from the view's first; the pattern repeats per element.
    const auto elements = static_cast<std::uint32_t>(end - first);
    for (std::uint32_t index = 0; index < rect_count; ++index) {
        const D3D11_RECT& rect = rects[index];
        const std::uint64_t left = first + clamp_coordinate(rect.left, elements);
        const std::uint64_t right = first + clamp_coordinate(rect.right, elements);
        if (rect.top >= rect.bottom || left >= right) continue;  // empty: nothing to do
        FillBox fill;
        fill.box = ElementBox{static_cast<std::uint32_t>(left * element),  0, 0,
                              static_cast<std::uint32_t>(right * element), 1, 1};
        fill.pattern = pattern;
        fill.mask = mask;
        out.push_back(std::move(fill));
    }
}

}  // namespace

std::uint32_t clipped_end(std::uint32_t first, std::uint32_t count, std::uint32_t limit) {
    if (count == 0) return limit;
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(std::uint64_t{first} + count, limit));
}

std::vector<FillBox> plan_view_fill(const ResourceInfo& info, const ViewInfo& view,
                                    const std::vector<std::uint8_t>& texel,
                                    const std::vector<std::uint8_t>& texel_mask,
                                    const D3D11_RECT* rects, std::uint32_t rect_count) {
    std::vector<FillBox> out;
    if (texel.empty()) return out;
    const D3D11_RECT whole{0, 0, std::numeric_limits<LONG>::max(),
                           std::numeric_limits<LONG>::max()};
    if (rects == nullptr || rect_count == 0) {
        rects = &whole;
        rect_count = 1;
    }
    if (info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
        plan_buffer_fill(info, view, texel, texel_mask, rects, rect_count, out);
        return out;
    }
    const std::uint32_t mip_levels = mip_levels_of(info);
    const bool volume = info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    const std::uint32_t slices = volume ? 1 : std::max<std::uint32_t>(1, info.array_size);
    const std::uint32_t mip_end = clipped_end(view.first_mip, view.mip_count, mip_levels);
    const std::uint32_t slice_begin = volume ? 0 : view.first_slice;
    const std::uint32_t slice_end =
        volume ? 1 : clipped_end(view.first_slice, view.slice_count, slices);
    for (std::uint32_t slice = slice_begin; slice < slice_end; ++slice) {
        for (std::uint32_t mip = view.first_mip; mip < mip_end; ++mip) {
            const std::uint32_t sub = mip + slice * mip_levels;
            const SubresourceLayout layout = layout_of(info, sub);
            std::vector<std::uint8_t> pattern, mask;
            if (!repeat_to(texel, layout.element_bytes, pattern)) continue;
            if (!texel_mask.empty()) repeat_to(texel_mask, layout.element_bytes, mask);
            const std::uint32_t front = volume ? std::min(view.first_slice, layout.depth) : 0;
            const std::uint32_t back =
                volume ? clipped_end(view.first_slice, view.slice_count, layout.depth) : 1;
            for (std::uint32_t index = 0; index < rect_count; ++index) {
                const D3D11_RECT& rect = rects[index];
                // Rectangles are in texels of the mip; elements cover them whole.
                const std::uint32_t left = clamp_coordinate(rect.left, layout.texel_width);
                const std::uint32_t top = clamp_coordinate(rect.top, layout.texel_height);
                const std::uint32_t right = clamp_coordinate(rect.right, layout.texel_width);
                const std::uint32_t bottom = clamp_coordinate(rect.bottom, layout.texel_height);
                if (left >= right || top >= bottom) continue;
                FillBox fill;
                fill.subresource = sub;
                fill.box = ElementBox{left / layout.block_width,
                                      top / layout.block_height,
                                      front,
                                      round_up_divide(right, layout.block_width),
                                      round_up_divide(bottom, layout.block_height),
                                      back};
                if (fill.box.empty()) continue;
                fill.pattern = pattern;
                fill.mask = mask;
                out.push_back(std::move(fill));
            }
        }
    }
    return out;
}

ClearTexel float_clear_texel(DXGI_FORMAT format, const float color[4]) {
    ClearTexel clear;
    const formats::PixelLayout layout = formats::pixel_layout(format);
    if (layout.bytes == 0) return clear;  // not a format a view can be cleared in
    clear.texel.resize(layout.bytes);
    formats::encode_pixel(layout, color, clear.texel.data());
    return clear;
}

ClearTexel uint_clear_texel(DXGI_FORMAT format, const std::uint32_t values[4]) {
    ClearTexel clear;
    if (format == DXGI_FORMAT_UNKNOWN || format == DXGI_FORMAT_R32_TYPELESS) {
        clear.texel.resize(4);
        std::memcpy(clear.texel.data(), &values[0], 4);
        return clear;
    }
    const formats::PixelLayout layout = formats::pixel_layout(format);
    if (layout.bytes == 0) return clear;
    clear.texel.resize(layout.bytes);
    formats::encode_pixel_bits(layout, values, clear.texel.data());
    return clear;
}

// The unused bits of D32_FLOAT_S8X24_UINT are left alone.
ClearTexel depth_stencil_clear_texel(DXGI_FORMAT format, std::uint32_t flags, float depth,
                                     std::uint8_t stencil) {
    ClearTexel clear;
    const formats::PixelLayout layout = formats::pixel_layout(format);
    if (layout.bytes == 0) return clear;
    const float clamped = std::isnan(depth) ? 0.0f : std::clamp(depth, 0.0f, 1.0f);
    const float values[4] = {clamped, static_cast<float>(stencil), 0.0f, 0.0f};
    clear.texel.resize(layout.bytes);
    formats::encode_pixel(layout, values, clear.texel.data());
    clear.mask =
        channel_mask(layout, (flags & D3D11_CLEAR_DEPTH) != 0, (flags & D3D11_CLEAR_STENCIL) != 0);
    // A mask of every byte (depth of a depth-only format) is no mask: the
    // fill need not read what it overwrites.
    if (std::all_of(clear.mask.begin(), clear.mask.end(), [](std::uint8_t m) { return m != 0; }))
        clear.mask.clear();
    return clear;
}

ClearTexel poison_texel() {
    return ClearTexel{{kPoisonByte}, {}};
}

void FillingBackend::clear_render_target(const ViewInfo& view, const float color[4]) {
    clear_view(view, color, nullptr, 0);
}

void FillingBackend::clear_view(const ViewInfo& view, const float color[4], const D3D11_RECT* rects,
                                std::uint32_t rect_count) {
    fill_view(view, float_clear_texel(view.format, color), rects, rect_count);
}

void FillingBackend::clear_unordered_access_float(const ViewInfo& view, const float values[4]) {
    clear_view(view, values, nullptr, 0);
}

void FillingBackend::clear_unordered_access_uint(const ViewInfo& view,
                                                 const std::uint32_t values[4]) {
    fill_view(view, uint_clear_texel(view.format, values), nullptr, 0);
}

void FillingBackend::clear_depth_stencil(const ViewInfo& view, std::uint32_t flags, float depth,
                                         std::uint8_t stencil) {
    fill_view(view, depth_stencil_clear_texel(view.format, flags, depth, stencil), nullptr, 0);
}

void FillingBackend::discard(const ViewInfo& view, const D3D11_RECT* rects,
                             std::uint32_t rect_count) {
    fill_view(view, poison_texel(), rects, rect_count);
}

ElementBox element_box(const SubresourceLayout& layout, const D3D11_BOX* box) {
    ElementBox result{0, 0, 0, layout.width, layout.height, layout.depth};
    if (box == nullptr) return result;
    result.left = std::min(box->left / layout.block_width, layout.width);
    result.top = std::min(box->top / layout.block_height, layout.height);
    result.front = std::min(box->front, layout.depth);
    result.right = std::min(round_up_divide(box->right, layout.block_width), layout.width);
    result.bottom = std::min(round_up_divide(box->bottom, layout.block_height), layout.height);
    result.back = std::min(box->back, layout.depth);
    return result;
}

}  // namespace d3dcap::runtime::backend
