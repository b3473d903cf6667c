// Moving bytes between the host and the Vulkan device's resources through
// staging memory, in the canonical layout; clears as pattern copies; and
// GenerateMips and resolves through the reference device's conversions.
#include <algorithm>
#include <array>
#include <cstring>

#include "runtime/backend/vulkan/vulkan_backend.h"

namespace d3dcap::runtime::backend::vulkan {
namespace {

// A run of a buffer-like resource's bytes in one VkBuffer.
struct Segment {
    VkBuffer buffer = VK_NULL_HANDLE;
    std::uint64_t offset = 0, size = 0;  // in that buffer
    std::uint64_t at = 0;                // offset in the resource
};

// Where bytes [offset, offset + size) of a buffer or tile pool live.
std::vector<Segment> segments_of(const GpuResource& resource, std::uint64_t offset,
                                 std::uint64_t size) {
    std::vector<Segment> segments;
    if (!resource.info.tile_pool()) {
        if (resource.buffer)
            segments.push_back({resource.buffer, resource.slice + offset, size, offset});
        return segments;
    }
    const std::uint64_t end = offset + size;
    for (const PoolChunk& chunk : resource.chunks) {
        const std::uint64_t chunk_begin = chunk.first_tile * tiles::kTileBytes;
        const std::uint64_t chunk_end = chunk_begin + chunk.tiles * tiles::kTileBytes;
        const std::uint64_t begin = std::max(offset, chunk_begin);
        const std::uint64_t finish = std::min(end, chunk_end);
        if (begin < finish) {
            segments.push_back({chunk.buffer, begin - chunk_begin, finish - begin, begin});
        }
    }
    return segments;
}

// A band of a box: whole slices [front, back) when they fit in staging
// memory, else rows [top, bottom) of one slice.
struct Band {
    std::uint32_t top, bottom, front, back;
};

std::vector<Band> bands_of(const ElementBox& box, std::uint64_t row_bytes) {
    std::vector<Band> bands;
    const std::uint64_t slice_bytes = row_bytes * box.height();
    const std::uint64_t capacity = GpuContext::kStagingBytes;
    if (slice_bytes <= capacity) {
        const std::uint32_t slices = static_cast<std::uint32_t>(capacity / slice_bytes);
        for (std::uint32_t z = box.front; z < box.back; z += slices) {
            bands.push_back({box.top, box.bottom, z, std::min(box.back, z + slices)});
        }
        return bands;
    }
    const auto rows = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, capacity / row_bytes));
    for (std::uint32_t z = box.front; z < box.back; ++z) {
        for (std::uint32_t y = box.top; y < box.bottom; y += rows) {
            bands.push_back({y, std::min(box.bottom, y + rows), z, z + 1});
        }
    }
    return bands;
}

// The copy of a band of elements at a staging offset, rows tightly packed.
VkBufferImageCopy band_region(const GpuResource& resource, std::uint32_t sub, const ElementBox& box,
                              const Band& band, VkDeviceSize staging_offset) {
    const ImageStorage& storage = resource.storage;
    VkBufferImageCopy region = image_region(
        resource, sub, {box.left, band.top, band.front, box.right, band.bottom, band.back});
    region.bufferOffset = staging_offset;
    region.bufferRowLength = box.width() * storage.texels_x;
    region.bufferImageHeight = (band.bottom - band.top) * storage.texels_y;
    return region;
}

// Images with depth and stencil move through staging memory in two planes,
// depth (4 bytes a texel) then stencil (1 byte), where the canonical element
// is D24S8's (depth in the low 24 bits, stencil in the high 8) or
// D32S8X24's (the depth float, the stencil byte, 3 unused bytes).
bool two_planes(const ImageStorage& storage) {
    return storage.aspects == (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
}

constexpr std::uint64_t kPlaneBytes = 5;  // staging bytes per texel, both planes

// `bytes` bytes of a pattern repeated from its start, by doubling copies
// (a byte at a time costs a clear tens of microseconds).
std::vector<std::uint8_t> repeated(const std::vector<std::uint8_t>& pattern, std::size_t bytes) {
    std::vector<std::uint8_t> out(bytes);
    std::size_t done = std::min(pattern.size(), bytes);
    std::memcpy(out.data(), pattern.data(), done);
    while (done < bytes) {
        const std::size_t more = std::min(done, bytes - done);
        std::memcpy(out.data() + done, out.data(), more);
        done += more;
    }
    return out;
}

// The band's two copies, the stencil plane after `texels` depth words.
std::array<VkBufferImageCopy, 2> plane_regions(VkBufferImageCopy region, std::uint64_t texels) {
    std::array<VkBufferImageCopy, 2> regions{region, region};
    regions[0].imageSubresource.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
    regions[1].imageSubresource.aspectMask = VK_IMAGE_ASPECT_STENCIL_BIT;
    regions[1].bufferOffset += texels * 4;
    return regions;
}

void split_planes(const std::uint8_t* element, std::uint32_t element_bytes, std::uint8_t* depth,
                  std::uint8_t* stencil) {
    std::memcpy(depth, element, 4);  // D24S8: the stencil byte goes unread
    *stencil = element[element_bytes == 4 ? 3 : 4];
}

void join_planes(const std::uint8_t* depth, const std::uint8_t* stencil,
                 std::uint32_t element_bytes, std::uint8_t* element) {
    std::memcpy(element, depth, 4);
    if (element_bytes == 4) {
        element[3] = *stencil;  // over the depth word's undefined byte
    } else {
        element[4] = *stencil;
        element[5] = element[6] = element[7] = 0;
    }
}

}  // namespace

VkBufferImageCopy image_region(const GpuResource& resource, std::uint32_t sub,
                               const ElementBox& box) {
    const ImageStorage& storage = resource.storage;
    const bool volume = storage.type == VK_IMAGE_TYPE_3D;
    VkBufferImageCopy region{};
    region.imageSubresource = {storage.aspects, sub % storage.mip_levels,
                               volume ? 0 : sub / storage.mip_levels, 1};
    region.imageOffset = {static_cast<std::int32_t>(box.left * storage.texels_x),
                          static_cast<std::int32_t>(box.top * storage.texels_y),
                          static_cast<std::int32_t>(box.front)};
    region.imageExtent = {box.width() * storage.texels_x, box.height() * storage.texels_y,
                          box.depth()};
    if (storage.compressed) {  // an edge block ends at the mip's edge
        const SubresourceLayout layout = layout_of(resource.info, sub);
        region.imageExtent.width =
            std::min(region.imageExtent.width, layout.texel_width - box.left * 4);
        region.imageExtent.height =
            std::min(region.imageExtent.height, layout.texel_height - box.top * 4);
    }
    return region;
}

void VulkanBackend::upload_box(GpuResource& resource, std::uint32_t sub, const ElementBox& box,
                               const std::uint8_t* bytes, std::uint64_t row_pitch,
                               std::uint64_t slice_pitch) {
    if (box.empty()) return;
    wrote_box(resource, sub, box);
    if (resource.is_buffer()) {
        // A buffer's own memory (not tiles, which pool memory may alias) is
        // written as tracked work: it waits only for the work that uses the
        // buffer, and only the work reading it next waits for it.
        const std::uint64_t key = hazard_key(resource);
        const bool tracked = key != HazardTracker::kTiledMemory;
        for (const Segment& segment : segments_of(resource, box.left, box.width())) {
            for (std::uint64_t done = 0; done < segment.size; done += GpuContext::kStagingBytes) {
                const std::uint64_t size = std::min(GpuContext::kStagingBytes, segment.size - done);
                const GpuContext::Staging staging = gpu_->stage(size);
                GpuContext::copy_in(staging.data, bytes + (segment.at - box.left) + done, size);
                const VkBufferCopy region{staging.offset, segment.offset + done, size};
                if (tracked) {
                    gpu_->begin_work();
                    gpu_->touch(key, true, VK_PIPELINE_STAGE_2_COPY_BIT);
                }
                vkCmdCopyBuffer(tracked ? gpu_->transfer() : gpu_->commands(),
                                gpu_->staging_buffer(), segment.buffer, 1, &region);
            }
        }
        gpu_->end_step();
        return;
    }
    if (resource.linear) {
        upload_linear(resource, sub, box, bytes, row_pitch, slice_pitch);
        return;
    }
    const SubresourceLayout layout = layout_of(resource.info, sub);
    const std::uint64_t row = std::uint64_t{box.width()} * layout.element_bytes;
    if (resource.multisampled()) {  // the whole subresource's samples, the box's replaced
        const bool whole = box.width() == layout.width && box.height() == layout.height;
        std::vector<std::uint8_t> canonical =
            whole ? std::vector<std::uint8_t>(layout.slice_bytes()) : read_samples(resource, sub);
        if (canonical.size() != layout.slice_bytes()) return;
        for (std::uint32_t y = box.top; y < box.bottom; ++y)
            std::memcpy(canonical.data() + y * layout.row_bytes() + box.left * layout.element_bytes,
                        bytes + (y - box.top) * row_pitch, row);
        write_samples(resource, sub, canonical.data());
        return;
    }
    if (two_planes(resource.storage)) {
        for (const Band& band : bands_of(box, box.width() * kPlaneBytes)) {
            const std::uint64_t texels =
                std::uint64_t{box.width()} * (band.bottom - band.top) * (band.back - band.front);
            const GpuContext::Staging slice = gpu_->stage(texels * kPlaneBytes);
            std::uint8_t* staging = slice.data;
            std::uint64_t at = 0;
            for (std::uint32_t z = band.front; z < band.back; ++z) {
                for (std::uint32_t y = band.top; y < band.bottom; ++y) {
                    const std::uint8_t* in =
                        bytes + (z - box.front) * slice_pitch + (y - box.top) * row_pitch;
                    for (std::uint32_t x = 0; x < box.width(); ++x, ++at) {
                        split_planes(in + x * layout.element_bytes, layout.element_bytes,
                                     staging + at * 4, staging + texels * 4 + at);
                    }
                }
            }
            const auto regions =
                plane_regions(band_region(resource, sub, box, band, slice.offset), texels);
            vkCmdCopyBufferToImage(gpu_->commands(), gpu_->staging_buffer(), resource.image,
                                   VK_IMAGE_LAYOUT_GENERAL, 2, regions.data());
        }
        gpu_->end_step();
        return;
    }
    for (const Band& band : bands_of(box, row)) {
        const GpuContext::Staging slice =
            gpu_->stage(row * (band.bottom - band.top) * (band.back - band.front));
        std::uint8_t* out = slice.data;
        for (std::uint32_t z = band.front; z < band.back; ++z) {
            for (std::uint32_t y = band.top; y < band.bottom; ++y, out += row) {
                std::memcpy(out, bytes + (z - box.front) * slice_pitch + (y - box.top) * row_pitch,
                            row);
            }
        }
        const VkBufferImageCopy region = band_region(resource, sub, box, band, slice.offset);
        vkCmdCopyBufferToImage(gpu_->commands(), gpu_->staging_buffer(), resource.image,
                               VK_IMAGE_LAYOUT_GENERAL, 1, &region);
    }
    gpu_->end_step();
}

void VulkanBackend::download_box(GpuResource& resource, std::uint32_t sub, const ElementBox& box,
                                 const ByteSink& sink) {
    if (box.empty()) return;
    if (resource.is_buffer()) {
        std::uint64_t at = box.left;
        for (const Segment& segment : segments_of(resource, box.left, box.width())) {
            for (std::uint64_t done = 0; done < segment.size; done += GpuContext::kStagingBytes) {
                const std::uint64_t size = std::min(GpuContext::kStagingBytes, segment.size - done);
                const GpuContext::Staging staging = gpu_->stage(size);
                const VkBufferCopy region{segment.offset + done, staging.offset, size};
                vkCmdCopyBuffer(gpu_->commands(), segment.buffer, gpu_->staging_buffer(), 1,
                                &region);
                gpu_->finish();
                sink(staging.data, size);
                at += size;
            }
        }
        // Bytes no memory backs (a pool past its pages) read as zeros.
        const std::vector<std::uint8_t> zeros(std::min<std::uint64_t>(box.right - at, 1 << 20), 0);
        while (at < box.right) {
            const std::uint64_t size = std::min<std::uint64_t>(zeros.size(), box.right - at);
            sink(zeros.data(), size);
            at += size;
        }
        return;
    }
    if (resource.linear) {
        download_linear(resource, sub, box, sink);
        return;
    }
    const SubresourceLayout layout = layout_of(resource.info, sub);
    const std::uint64_t row = std::uint64_t{box.width()} * layout.element_bytes;
    if (resource.multisampled()) {
        const std::vector<std::uint8_t> canonical = read_samples(resource, sub);
        if (canonical.size() != layout.slice_bytes()) return;
        for (std::uint32_t y = box.top; y < box.bottom; ++y)
            sink(canonical.data() + y * layout.row_bytes() + box.left * layout.element_bytes, row);
        return;
    }
    if (two_planes(resource.storage)) {
        std::vector<std::uint8_t> joined;
        for (const Band& band : bands_of(box, box.width() * kPlaneBytes)) {
            const std::uint64_t texels =
                std::uint64_t{box.width()} * (band.bottom - band.top) * (band.back - band.front);
            const GpuContext::Staging slice = gpu_->stage(texels * kPlaneBytes);
            const std::uint8_t* staging = slice.data;
            const auto regions =
                plane_regions(band_region(resource, sub, box, band, slice.offset), texels);
            vkCmdCopyImageToBuffer(gpu_->commands(), resource.image, VK_IMAGE_LAYOUT_GENERAL,
                                   gpu_->staging_buffer(), 2, regions.data());
            gpu_->finish();
            joined.resize(texels * layout.element_bytes);
            for (std::uint64_t at = 0; at < texels; ++at) {
                join_planes(staging + at * 4, staging + texels * 4 + at, layout.element_bytes,
                            joined.data() + at * layout.element_bytes);
            }
            sink(joined.data(), joined.size());
        }
        return;
    }
    for (const Band& band : bands_of(box, row)) {
        const std::uint64_t size = row * (band.bottom - band.top) * (band.back - band.front);
        const GpuContext::Staging staging = gpu_->stage(size);
        const VkBufferImageCopy region = band_region(resource, sub, box, band, staging.offset);
        vkCmdCopyImageToBuffer(gpu_->commands(), resource.image, VK_IMAGE_LAYOUT_GENERAL,
                               gpu_->staging_buffer(), 1, &region);
        gpu_->finish();
        sink(staging.data, size);
    }
}

std::vector<std::uint8_t> VulkanBackend::download_box(GpuResource& resource, std::uint32_t sub,
                                                      const ElementBox& box) {
    std::vector<std::uint8_t> bytes;
    download_box(resource, sub, box, [&](const std::uint8_t* piece, std::size_t size) {
        bytes.insert(bytes.end(), piece, piece + size);
    });
    return bytes;
}

void VulkanBackend::fill(GpuResource& resource, const FillBox& fill) {
    const ElementBox& box = fill.box;
    if (box.empty() || fill.pattern.empty()) return;
    wrote_box(resource, fill.subresource, box);
    const SubresourceLayout layout = layout_of(resource.info, fill.subresource);
    const std::uint64_t row = std::uint64_t{box.width()} * layout.element_bytes;
    const std::size_t size = fill.pattern.size();
    if (resource.multisampled() && resource.storage.aspects != VK_IMAGE_ASPECT_COLOR_BIT) {
        clear_depth_samples(resource, fill);
        return;
    }
    // Staging memory holds up to kFillBytes of pattern rows (at least one);
    // copies repeat them, so a clear costs the host little whatever its size.
    constexpr std::uint64_t kFillBytes = std::uint64_t{64} << 10;
    if (two_planes(resource.storage) && fill.mask.empty() && size == layout.element_bytes) {
        // Rows of both planes (depth words, then stencil bytes).
        const std::uint64_t width = box.width();
        const auto rows = static_cast<std::uint32_t>(std::min<std::uint64_t>(
            box.height(), std::max<std::uint64_t>(1, kFillBytes / (width * kPlaneBytes))));
        const std::uint64_t texels = width * rows;
        std::uint8_t depth[4] = {}, stencil = 0;
        split_planes(fill.pattern.data(), layout.element_bytes, depth, &stencil);
        const GpuContext::Staging staging = gpu_->stage(texels * kPlaneBytes);
        for (std::uint64_t t = 0; t < texels; ++t) std::memcpy(staging.data + t * 4, depth, 4);
        std::memset(staging.data + texels * 4, stencil, texels);
        std::vector<VkBufferImageCopy> regions;
        for (std::uint32_t z = box.front; z < box.back; ++z) {
            for (std::uint32_t y = box.top; y < box.bottom; y += rows) {
                const Band band{y, std::min(box.bottom, y + rows), z, z + 1};
                for (const VkBufferImageCopy& region : plane_regions(
                         band_region(resource, fill.subresource, box, band, staging.offset),
                         texels))
                    regions.push_back(region);
            }
        }
        vkCmdCopyBufferToImage(gpu_->commands(), gpu_->staging_buffer(), resource.image,
                               VK_IMAGE_LAYOUT_GENERAL, static_cast<std::uint32_t>(regions.size()),
                               regions.data());
        gpu_->end_step();
        return;
    }
    if (two_planes(resource.storage) && fill.mask.empty()) {  // one plane copy per band
        const std::vector<std::uint8_t> bytes =
            repeated(fill.pattern, row * box.height() * box.depth());
        upload_box(resource, fill.subresource, box, bytes.data(), row, row * box.height());
        return;
    }
    if (!fill.mask.empty() || resource.multisampled() || resource.linear) {
        // Only some bytes change (read, merge, write back), or the samples
        // of an MSAA texture or the bytes of a staging texture, which are
        // written as bytes.
        std::vector<std::uint8_t> bytes;
        if (fill.mask.empty()) {
            bytes = repeated(fill.pattern, row * box.height() * box.depth());
        } else {
            bytes = download_box(resource, fill.subresource, box);
            for (std::size_t at = 0; at < bytes.size(); ++at)
                if (fill.mask[at % size] != 0) bytes[at] = fill.pattern[at % size];
        }
        upload_box(resource, fill.subresource, box, bytes.data(), row, row * box.height());
        return;
    }
    if (resource.is_buffer()) {
        // A whole number of patterns, plus one for the phase of each segment.
        const std::uint64_t chunk =
            std::min<std::uint64_t>(row, std::max<std::uint64_t>(kFillBytes / size, 1) * size);
        const std::vector<std::uint8_t> patterns = repeated(fill.pattern, chunk + size);
        const GpuContext::Staging staging = gpu_->stage(patterns.size());
        std::memcpy(staging.data, patterns.data(), patterns.size());
        for (const Segment& segment : segments_of(resource, box.left, box.width())) {
            const std::uint64_t phase = (segment.at - box.left) % size;
            std::vector<VkBufferCopy> regions;
            for (std::uint64_t done = 0; done < segment.size; done += chunk) {
                regions.push_back({staging.offset + phase, segment.offset + done,
                                   std::min(chunk, segment.size - done)});
            }
            vkCmdCopyBuffer(gpu_->commands(), gpu_->staging_buffer(), segment.buffer,
                            static_cast<std::uint32_t>(regions.size()), regions.data());
        }
        gpu_->end_step();
        return;
    }
    const auto rows = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(box.height(), std::max<std::uint64_t>(1, kFillBytes / row)));
    // One row built in host memory, copied row by row (staging memory may be
    // uncached, where byte writes are slow).
    const std::vector<std::uint8_t> pattern_row = repeated(fill.pattern, row);
    const GpuContext::Staging staging = gpu_->stage(row * rows);
    for (std::uint32_t line = 0; line < rows; ++line) {
        std::memcpy(staging.data + std::uint64_t{line} * row, pattern_row.data(), row);
    }
    std::vector<VkBufferImageCopy> regions;
    for (std::uint32_t z = box.front; z < box.back; ++z) {
        for (std::uint32_t y = box.top; y < box.bottom; y += rows) {
            const Band band{y, std::min(box.bottom, y + rows), z, z + 1};
            regions.push_back(band_region(resource, fill.subresource, box, band, staging.offset));
        }
    }
    vkCmdCopyBufferToImage(gpu_->commands(), gpu_->staging_buffer(), resource.image,
                           VK_IMAGE_LAYOUT_GENERAL, static_cast<std::uint32_t>(regions.size()),
                           regions.data());
    gpu_->end_step();
}

void VulkanBackend::fill_view(const ViewInfo& view, const ClearTexel& clear,
                              const D3D11_RECT* rects, std::uint32_t rect_count) {
    const Operation call(*this);
    GpuResource* resource = use(view.resource);
    if (resource == nullptr) return;
    for (const FillBox& box :
         plan_view_fill(resource->info, view, clear.texel, clear.mask, rects, rect_count)) {
        fill(*resource, box);
    }
}

void VulkanBackend::run_on_reference(const std::vector<ObjectId>& ids,
                                     const std::function<void(Backend&)>& operation) {
    const Operation call(*this);
    std::vector<GpuResource*> resources;
    for (ObjectId id : ids) {
        GpuResource* resource = use(id);
        if (resource == nullptr || resource->is_buffer()) return;
        ResourceInfo copy = resource->info;
        copy.misc_flags &= ~UINT{D3D11_RESOURCE_MISC_TILED};
        copy.usage = D3D11_USAGE_DEFAULT;
        if (FAILED(scratch_->create_resource(copy, nullptr))) return;
        for (std::uint32_t sub = 0; sub < copy.subresource_count(); ++sub) {
            const SubresourceLayout layout = layout_of(copy, sub);
            const std::vector<std::uint8_t> bytes =
                download_box(*resource, sub, element_box(layout, nullptr));
            scratch_->update_subresource(id, sub, nullptr, bytes.data(),
                                         static_cast<std::uint32_t>(layout.row_bytes()),
                                         static_cast<std::uint32_t>(layout.slice_bytes()), 0);
        }
        resources.push_back(resource);
    }
    operation(*scratch_);
    for (GpuResource* resource : resources) {
        const ObjectId id = resource->info.id;
        std::vector<std::uint8_t> bytes;
        for (std::uint32_t sub = 0; sub < resource->info.subresource_count(); ++sub) {
            if (!scratch_->read_subresource(id, sub, bytes)) continue;
            const SubresourceLayout layout = layout_of(resource->info, sub);
            upload_box(*resource, sub, element_box(layout, nullptr), bytes.data(),
                       layout.row_bytes(), layout.slice_bytes());
        }
        scratch_->destroy_resource(id);
    }
}

void VulkanBackend::generate_mips(const ViewInfo& view) {
    run_on_reference({view.resource}, [&](Backend& reference) { reference.generate_mips(view); });
}

void VulkanBackend::resolve_subresource(ObjectId dest, std::uint32_t dest_subresource,
                                        ObjectId source, std::uint32_t source_subresource,
                                        DXGI_FORMAT format) {
    run_on_reference({dest, source}, [&](Backend& reference) {
        reference.resolve_subresource(dest, dest_subresource, source, source_subresource, format);
    });
}

}  // namespace d3dcap::runtime::backend::vulkan
