// Clears, Discard* and GenerateMips of the reference device.
//
// What a view selects and the patterns: clear_plan.h.
//
// Discard* poison: every discarded byte becomes 0xDD.
#include <algorithm>

#include "runtime/backend/clear_plan.h"
#include "runtime/backend/reference/reference_backend.h"
#include "runtime/backend/subresource_layout.h"
#include "runtime/formats/formats.h"
#include "runtime/formats/pixels.h"

namespace d3dcap::runtime::backend::reference {
namespace {

// One mip from the one above it, a row at a time: each output row needs two
// input rows (four for a Texture3D).
void downsample(SubresourceAccess& from, SubresourceAccess& to,
                const formats::PixelDecoder& decoder, const formats::PixelLayout& pixel,
                bool volume) {
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
                formats::encode_pixel(pixel, average, result.data() + std::size_t{x} * pixel.bytes);
            }
            to.write(0, y, z, out.width, result.data());
        }
    }
}

}  // namespace

void ReferenceBackend::fill_box(Resource& resource, const FillBox& fill) {
    if (fill.box.empty() || fill.pattern.empty()) return;
    const ElementBox& box = fill.box;
    SubresourceAccess access(*this, resource, fill.subresource);
    const std::size_t size = fill.pattern.size();
    std::vector<std::uint8_t> row(std::size_t{box.width()} * access.layout().element_bytes);
    for (std::size_t at = 0; at < row.size(); ++at) row[at] = fill.pattern[at % size];
    std::vector<std::uint8_t> merged(fill.mask.empty() ? 0 : row.size());
    for (std::uint32_t z = box.front; z < box.back; ++z) {
        for (std::uint32_t y = box.top; y < box.bottom; ++y) {
            if (fill.mask.empty()) {
                access.write(box.left, y, z, box.width(), row.data());
                continue;
            }
            access.read(box.left, y, z, box.width(), merged.data());
            for (std::size_t at = 0; at < merged.size(); ++at) {
                if (fill.mask[at % size] != 0) merged[at] = row[at];
            }
            access.write(box.left, y, z, box.width(), merged.data());
        }
    }
}

void ReferenceBackend::fill_view(const ViewInfo& view, const ClearTexel& clear,
                                 const D3D11_RECT* rects, std::uint32_t rect_count) {
    std::lock_guard lock(mutex_);
    Resource* resource = find(view.resource);
    if (resource == nullptr) return;
    for (const FillBox& fill :
         plan_view_fill(resource->info, view, clear.texel, clear.mask, rects, rect_count)) {
        fill_box(*resource, fill);
    }
}

// A box filter: each texel of mip m+1 is the average of the 2x2 (2x2x2 for
// Texture3D) texels of mip m it covers, the last row/column repeated where mip
// m is odd-sized, averaged as linear floats (sRGB decoded first) and encoded
// back by the conversion rules.
void ReferenceBackend::generate_mips(const ViewInfo& view) {
    std::lock_guard lock(mutex_);
    Resource* resource = find(view.resource);
    if (resource == nullptr || resource->info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) return;
    const formats::PixelLayout pixel = formats::pixel_layout(view.format);
    if (pixel.bytes == 0) return;
    const formats::PixelDecoder decoder(pixel);
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
    const formats::PixelLayout pixel = formats::pixel_layout(format);
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
                formats::decode_pixel(
                    pixel, in.data() + (std::uint64_t{x} * samples + s) * pixel.bytes, rgba);
                for (int c = 0; c < 4; ++c) sum[c] += rgba[c];
            }
            for (float& channel : sum) channel /= static_cast<float>(samples);
            formats::encode_pixel(pixel, sum, out.data() + std::uint64_t{x} * pixel.bytes);
        }
        to.write(0, y, 0, width, out.data());
    }
}

}  // namespace d3dcap::runtime::backend::reference
