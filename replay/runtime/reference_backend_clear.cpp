// Clears, Discard* and GenerateMips of the reference device.
//
// What a view selects: mips [first_mip, first_mip + mip_count) and array
// slices [first_slice, first_slice + slice_count), clipped to the resource
// (so UINT32_MAX counts mean "all"; so do counts of 0). For a Texture3D, first_slice and
// slice_count are W slices of each selected mip (FirstWSlice/WSize). For a
// buffer, [first_element, first_element + element_count) in elements of the
// view's format (structure_stride bytes when the format is UNKNOWN);
// element_count 0 means to the end of the buffer.
//
// Discard* poison: every discarded byte becomes 0xDD.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "replay/formats.h"
#include "replay/runtime/reference_backend.h"

namespace d3dcap::runtime::reference {
namespace {

// The end of [first, first + count) inside [0, limit); a count of 0 (which no
// view has) is taken as "all", like UINT32_MAX.
std::uint32_t clipped_end(std::uint32_t first, std::uint32_t count, std::uint32_t limit) {
    if (count == 0) return limit;
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(std::uint64_t{first} + count, limit));
}

std::uint32_t clamp_coordinate(LONG value, std::uint32_t limit) {
    return static_cast<std::uint32_t>(std::clamp<std::int64_t>(value, 0, limit));
}

std::uint32_t view_element_bytes(const Resource& resource, const ViewInfo& view) {
    if (view.format == DXGI_FORMAT_UNKNOWN)
        return std::max<std::uint32_t>(1, resource.info.structure_stride);
    return std::max<std::uint32_t>(1, formats::info(view.format).bits_per_element / 8);
}

// One element's pattern (and mask) from a texel's: the texel repeated over
// the element's bytes (every MSAA sample, or every byte for 1-byte poison).
bool repeat_to(const std::vector<std::uint8_t>& texel, std::uint32_t bytes,
               std::vector<std::uint8_t>& out) {
    if (texel.empty() || bytes % texel.size() != 0) return false;
    out.resize(bytes);
    for (std::uint32_t at = 0; at < bytes; ++at) out[at] = texel[at % texel.size()];
    return true;
}

// Which bytes of a texel hold the given channels.
std::vector<std::uint8_t> channel_mask(const PixelLayout& layout, bool first, bool second) {
    std::vector<std::uint8_t> mask(layout.bytes, 0);
    for (unsigned index = 0; index < 2; ++index) {
        const ChannelLayout& c = layout.channels[index];
        if (c.type == ChannelType::Absent || !(index == 0 ? first : second)) continue;
        for (unsigned bit = c.offset; bit < c.offset + c.bits; ++bit) mask[bit / 8] = 1;
    }
    return mask;
}

// One mip from the one above it, a row at a time: each output row needs two
// input rows (four for a Texture3D).
void downsample(SubresourceAccess& from, SubresourceAccess& to, const PixelDecoder& decoder,
                const PixelLayout& pixel, bool volume) {
    const SubresourceLayout& in = from.layout();
    const SubresourceLayout& out = to.layout();
    const std::uint32_t rows_in = volume ? 4 : 2;
    std::vector<std::uint8_t> raw(in.row_bytes());
    std::vector<float> rows(std::size_t{rows_in} * in.width * 4);
    std::vector<std::uint8_t> result(out.row_bytes());
    for (std::uint32_t z = 0; z < out.depth; ++z) {
        for (std::uint32_t y = 0; y < out.height; ++y) {
            for (std::uint32_t row = 0; row < rows_in; ++row) {
                const std::uint32_t sy = std::min(2 * y + row % 2, in.height - 1);
                const std::uint32_t sz = std::min(2 * z + row / 2, in.depth - 1);
                from.read(0, sy, sz, in.width, raw.data());
                float* decoded = rows.data() + std::size_t{row} * in.width * 4;
                for (std::uint32_t x = 0; x < in.width; ++x) {
                    decoder.decode(raw.data() + std::size_t{x} * pixel.bytes, decoded + x * 4);
                }
            }
            for (std::uint32_t x = 0; x < out.width; ++x) {
                double sum[4] = {};
                for (std::uint32_t row = 0; row < rows_in; ++row) {
                    for (std::uint32_t dx = 0; dx < 2; ++dx) {
                        const std::uint32_t sx = std::min(2 * x + dx, in.width - 1);
                        const float* texel = rows.data() + (std::size_t{row} * in.width + sx) * 4;
                        for (unsigned c = 0; c < 4; ++c) sum[c] += texel[c];
                    }
                }
                float average[4];
                for (unsigned c = 0; c < 4; ++c)
                    average[c] = static_cast<float>(sum[c] / (2.0 * rows_in));
                encode_pixel(pixel, average, result.data() + std::size_t{x} * pixel.bytes);
            }
            to.write(0, y, z, out.width, result.data());
        }
    }
}

}  // namespace

void ReferenceBackend::fill_box(Resource& resource, std::uint32_t sub, const ElementBox& box,
                                const std::vector<std::uint8_t>& pattern,
                                const std::uint8_t* mask) {
    if (box.empty()) return;
    SubresourceAccess access(*this, resource, sub);
    const std::size_t size = pattern.size();
    std::vector<std::uint8_t> row(std::size_t{box.width()} * size);
    for (std::size_t at = 0; at < row.size(); ++at) row[at] = pattern[at % size];
    std::vector<std::uint8_t> merged(mask != nullptr ? row.size() : 0);
    for (std::uint32_t z = box.front; z < box.back; ++z) {
        for (std::uint32_t y = box.top; y < box.bottom; ++y) {
            if (mask == nullptr) {
                access.write(box.left, y, z, box.width(), row.data());
                continue;
            }
            access.read(box.left, y, z, box.width(), merged.data());
            for (std::size_t at = 0; at < merged.size(); ++at) {
                if (mask[at % size] != 0) merged[at] = row[at];
            }
            access.write(box.left, y, z, box.width(), merged.data());
        }
    }
}

void ReferenceBackend::fill_view(const ViewInfo& view, const std::vector<std::uint8_t>& texel,
                                 const std::uint8_t* texel_mask, const D3D11_RECT* rects,
                                 std::uint32_t rect_count) {
    Resource* resource = find(view.resource);
    if (resource == nullptr || texel.empty()) return;
    const std::vector<std::uint8_t> mask_bytes =
        texel_mask == nullptr ? std::vector<std::uint8_t>{}
                              : std::vector<std::uint8_t>(texel_mask, texel_mask + texel.size());
    const D3D11_RECT whole{0, 0, std::numeric_limits<LONG>::max(),
                           std::numeric_limits<LONG>::max()};
    if (rects == nullptr || rect_count == 0) {
        rects = &whole;
        rect_count = 1;
    }

    if (resource->info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
        const std::uint32_t element = view_element_bytes(*resource, view);
        const std::uint64_t buffer_elements = resource->info.byte_width / element;
        const std::uint64_t first = std::min(view.first_element, buffer_elements);
        const std::uint64_t end = view.element_count == 0
                                      ? buffer_elements
                                      : std::min(first + view.element_count, buffer_elements);
        std::vector<std::uint8_t> pattern, mask;
        if (!repeat_to(texel, element, pattern)) return;
        if (texel_mask != nullptr) repeat_to(mask_bytes, element, mask);
        // A buffer is one row of bytes: the left and right of each rectangle
        // are elements from the view's first; the pattern repeats per element.
        SubresourceAccess access(*this, *resource, 0);
        const auto elements = static_cast<std::uint32_t>(end - first);
        for (std::uint32_t index = 0; index < rect_count; ++index) {
            const D3D11_RECT& rect = rects[index];
            const std::uint64_t left = first + clamp_coordinate(rect.left, elements);
            const std::uint64_t right = first + clamp_coordinate(rect.right, elements);
            if (rect.top >= rect.bottom || left >= right) continue;  // empty: nothing to do
            const auto begin = static_cast<std::uint32_t>(left * element);
            const auto count = static_cast<std::uint32_t>((right - left) * element);
            std::vector<std::uint8_t> row(count);
            if (texel_mask != nullptr) access.read(begin, 0, 0, count, row.data());
            for (std::size_t at = 0; at < row.size(); ++at) {
                if (texel_mask == nullptr || mask[at % element] != 0)
                    row[at] = pattern[at % element];
            }
            access.write(begin, 0, 0, count, row.data());
        }
        return;
    }

    const bool volume = resource->info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    const std::uint32_t slices = volume ? 1 : std::max<std::uint32_t>(1, resource->info.array_size);
    const std::uint32_t mip_end = clipped_end(view.first_mip, view.mip_count, resource->mip_levels);
    const std::uint32_t slice_begin = volume ? 0 : view.first_slice;
    const std::uint32_t slice_end =
        volume ? 1 : clipped_end(view.first_slice, view.slice_count, slices);
    for (std::uint32_t slice = slice_begin; slice < slice_end; ++slice) {
        for (std::uint32_t mip = view.first_mip; mip < mip_end; ++mip) {
            const std::uint32_t sub = mip + slice * resource->mip_levels;
            const SubresourceLayout layout = layout_of(resource->info, sub);
            std::vector<std::uint8_t> pattern, mask;
            if (!repeat_to(texel, layout.element_bytes, pattern)) continue;
            if (texel_mask != nullptr) repeat_to(mask_bytes, layout.element_bytes, mask);
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
                const ElementBox box{left / layout.block_width,
                                     top / layout.block_height,
                                     front,
                                     (right + layout.block_width - 1) / layout.block_width,
                                     (bottom + layout.block_height - 1) / layout.block_height,
                                     back};
                fill_box(*resource, sub, box, pattern,
                         texel_mask != nullptr ? mask.data() : nullptr);
            }
        }
    }
}

void ReferenceBackend::clear_render_target(const ViewInfo& view, const float color[4]) {
    clear_view(view, color, nullptr, 0);
}

void ReferenceBackend::clear_view(const ViewInfo& view, const float color[4],
                                  const D3D11_RECT* rects, std::uint32_t rect_count) {
    std::lock_guard lock(mutex_);
    const PixelLayout layout = pixel_layout(view.format);
    if (layout.bytes == 0) return;  // not a format a view can be cleared in
    std::vector<std::uint8_t> texel(layout.bytes);
    encode_pixel(layout, color, texel.data());
    fill_view(view, texel, nullptr, rects, rect_count);
}

void ReferenceBackend::clear_unordered_access_float(const ViewInfo& view, const float values[4]) {
    clear_view(view, values, nullptr, 0);
}

// The integers go to the channels bit for bit, each cut to its low bits;
// raw and structured buffers get values[0] in every 32-bit word.
void ReferenceBackend::clear_unordered_access_uint(const ViewInfo& view,
                                                   const std::uint32_t values[4]) {
    std::lock_guard lock(mutex_);
    std::vector<std::uint8_t> texel;
    if (view.format == DXGI_FORMAT_UNKNOWN || view.format == DXGI_FORMAT_R32_TYPELESS) {
        texel.resize(4);
        std::memcpy(texel.data(), &values[0], 4);
    } else {
        const PixelLayout layout = pixel_layout(view.format);
        if (layout.bytes == 0) return;
        texel.resize(layout.bytes);
        encode_pixel_bits(layout, values, texel.data());
    }
    fill_view(view, texel, nullptr, nullptr, 0);
}

// Depth is clamped to [0, 1]; CLEAR_DEPTH / CLEAR_STENCIL pick what changes,
// and the unused bits of D32_FLOAT_S8X24_UINT are left alone.
void ReferenceBackend::clear_depth_stencil(const ViewInfo& view, std::uint32_t flags, float depth,
                                           std::uint8_t stencil) {
    std::lock_guard lock(mutex_);
    const PixelLayout layout = pixel_layout(view.format);
    if (layout.bytes == 0) return;
    const float clamped = std::isnan(depth) ? 0.0f : std::clamp(depth, 0.0f, 1.0f);
    const float values[4] = {clamped, static_cast<float>(stencil), 0.0f, 0.0f};
    std::vector<std::uint8_t> texel(layout.bytes);
    encode_pixel(layout, values, texel.data());
    const std::vector<std::uint8_t> mask =
        channel_mask(layout, (flags & D3D11_CLEAR_DEPTH) != 0, (flags & D3D11_CLEAR_STENCIL) != 0);
    fill_view(view, texel, mask.data(), nullptr, 0);
}

void ReferenceBackend::discard(const ViewInfo& view, const D3D11_RECT* rects,
                               std::uint32_t rect_count) {
    std::lock_guard lock(mutex_);
    fill_view(view, std::vector<std::uint8_t>{kPoisonByte}, nullptr, rects, rect_count);
}

// A box filter: each texel of mip m+1 is the average of the 2x2 (2x2x2 for
// Texture3D) texels of mip m it covers, the last row/column repeated where mip
// m is odd-sized, averaged as linear floats (sRGB decoded first) and encoded
// back by the conversion rules.
void ReferenceBackend::generate_mips(const ViewInfo& view) {
    std::lock_guard lock(mutex_);
    Resource* resource = find(view.resource);
    if (resource == nullptr || resource->info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) return;
    const PixelLayout pixel = pixel_layout(view.format);
    if (pixel.bytes == 0) return;
    const PixelDecoder decoder(pixel);
    const bool volume = resource->info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    const std::uint32_t slices = volume ? 1 : std::max<std::uint32_t>(1, resource->info.array_size);
    const std::uint32_t mip_end = clipped_end(view.first_mip, view.mip_count, resource->mip_levels);
    const std::uint32_t slice_end =
        volume ? 1 : clipped_end(view.first_slice, view.slice_count, slices);
    for (std::uint32_t slice = volume ? 0 : view.first_slice; slice < slice_end; ++slice) {
        for (std::uint32_t mip = view.first_mip + 1; mip < mip_end; ++mip) {
            const std::uint32_t base = slice * resource->mip_levels;
            SubresourceAccess from(*this, *resource, base + mip - 1);
            SubresourceAccess to(*this, *resource, base + mip);
            if (from.layout().element_bytes != pixel.bytes ||
                to.layout().element_bytes != pixel.bytes) {
                return;
            }
            downsample(from, to, decoder, pixel, volume);
        }
    }
}

void ReferenceBackend::resolve_subresource(ObjectId dest_id, std::uint32_t dest_subresource,
                                           ObjectId source_id, std::uint32_t source_subresource,
                                           DXGI_FORMAT format) {
    std::lock_guard lock(mutex_);
    Resource* dest = find(dest_id);
    Resource* source = find(source_id);
    const PixelLayout pixel = pixel_layout(format);
    if (dest == nullptr || source == nullptr || pixel.bytes == 0) return;
    SubresourceAccess from(*this, *source, source_subresource);
    SubresourceAccess to(*this, *dest, dest_subresource);
    const std::uint32_t samples = std::max<std::uint32_t>(1, source->info.sample_count);
    if (from.layout().element_bytes != pixel.bytes * samples ||
        to.layout().element_bytes != pixel.bytes) {
        return;
    }
    const std::uint32_t width = std::min(from.layout().width, to.layout().width);
    const std::uint32_t height = std::min(from.layout().height, to.layout().height);
    std::vector<std::uint8_t> in(std::uint64_t{width} * pixel.bytes * samples);
    std::vector<std::uint8_t> out(std::uint64_t{width} * pixel.bytes);
    for (std::uint32_t y = 0; y < height; ++y) {
        from.read(0, y, 0, width, in.data());
        for (std::uint32_t x = 0; x < width; ++x) {
            float sum[4] = {};
            for (std::uint32_t s = 0; s < samples; ++s) {
                float rgba[4];
                decode_pixel(pixel, in.data() + (std::uint64_t{x} * samples + s) * pixel.bytes,
                             rgba);
                for (int c = 0; c < 4; ++c) sum[c] += rgba[c];
            }
            for (float& channel : sum) channel /= static_cast<float>(samples);
            encode_pixel(pixel, sum, out.data() + std::uint64_t{x} * pixel.bytes);
        }
        to.write(0, y, 0, width, out.data());
    }
}

}  // namespace d3dcap::runtime::reference
