// Tile pools, tile-mapping changes and the tile copies (UpdateTiles,
// CopyTiles) of the Vulkan device; pool pages and sparse binds are
// TilePages' (tile_pages.h).
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "runtime/backend/vulkan/vulkan_backend.h"

namespace d3dcap::runtime::backend::vulkan {
namespace {

constexpr std::uint64_t kTile = tiles::kTileBytes;

}  // namespace

HRESULT VulkanBackend::create_pool(GpuResource& pool) {
    return pages_.grow(pool, pool.info.byte_width / kTile) ? S_OK : E_OUTOFMEMORY;
}

void VulkanBackend::resize_tile_pool(ObjectId id, std::uint64_t new_byte_width) {
    const Operation call(*this);
    GpuResource* pool = find(id);
    if (pool == nullptr) return;
    std::uint64_t allocated = 0;
    for (const PoolChunk& chunk : pool->chunks) allocated += chunk.tiles;
    const std::uint64_t wanted = new_byte_width / kTile;
    if (wanted > allocated) pages_.grow(*pool, wanted - allocated);
    pool->info.byte_width = new_byte_width;
}

// Binds wait until GPU work uses the tiles: a tile remapped twice before that
// is bound once. UpdateTiles/CopyTiles bind all that is pending of their
// resource, not only their tiles: drivers spend a bind's time mostly per
// vkQueueBindSparse, and the work that uses the rest needs no second one.
void VulkanBackend::tile_mappings_changed(ObjectId id, std::uint32_t /*flags*/) {
    const Operation call(*this);
    GpuResource* resource = find(id);
    if (resource == nullptr || !resource->info.tiled() || tiles_ == nullptr) return;
    if (resource->shadowed) return;  // read from the tile model at the next use
    pages_.mappings_changed(*resource);
}

void VulkanBackend::flush() {
    if (vulkan::process_exiting()) return;  // no binds for a process that is ending
    const Operation call(*this);
    pages_.bind_all_pending();
    gpu_->submit();
}

void VulkanBackend::wait_for_work() {
    flush();
    const Operation call(*this);
    gpu_->finish();
}

GpuResource* VulkanBackend::use(ObjectId id) {
    GpuResource* resource = find(id);
    if (resource != nullptr) use(*resource);
    return resource;
}

void VulkanBackend::use(GpuResource& resource) {
    if (pages_.pending(resource.info.id))
        pages_.bind_pending(resource);  // before it counts as used
    resource.used_in = gpu_->recording_batch();
    if (resource.shadowed) sync_shadow(resource);
}

void VulkanBackend::update_tiles(ObjectId id, const std::vector<tiles::TileRef>& tile_list,
                                 const void* data) {
    const Operation call(*this);
    GpuResource* resource = find(id);
    if (resource == nullptr || data == nullptr) return;
    std::vector<std::uint32_t> written;
    for (const tiles::TileRef& tile : tile_list) written.push_back(tile.tile);
    if (resource->shadowed) {
        sync_shadow(*resource);
    } else {
        pages_.bind_pending(*resource, &written);
    }
    resource->used_in = gpu_->recording_batch();
    wrote(*resource, &written);
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    const std::size_t per_batch = GpuContext::kStagingBytes / kTile;
    for (std::size_t first = 0; first < tile_list.size(); first += per_batch) {
        const std::size_t count = std::min(per_batch, tile_list.size() - first);
        const GpuContext::Staging staging = gpu_->stage(count * kTile);
        GpuContext::copy_in(staging.data, bytes + first * kTile, count * kTile);
        std::vector<VkBufferImageCopy> image_regions;
        std::vector<VkBufferCopy> buffer_regions;
        for (std::size_t k = 0; k < count; ++k) {
            const tiles::TileRef& tile = tile_list[first + k];
            if (resource->is_buffer()) {
                buffer_regions.push_back({staging.offset + k * kTile, tile.tile * kTile, kTile});
            } else if (!packed_tile(*resource, tile)) {  // the tile model refuses packed writes
                image_regions.push_back(tile_region(*resource, tile, staging.offset + k * kTile));
            }
        }
        const VkCommandBuffer commands = gpu_->commands();
        if (!buffer_regions.empty()) {
            vkCmdCopyBuffer(commands, gpu_->staging_buffer(), resource->buffer,
                            static_cast<std::uint32_t>(buffer_regions.size()),
                            buffer_regions.data());
        }
        if (!image_regions.empty()) {
            vkCmdCopyBufferToImage(
                commands, gpu_->staging_buffer(), resource->image, VK_IMAGE_LAYOUT_GENERAL,
                static_cast<std::uint32_t>(image_regions.size()), image_regions.data());
        }
    }
    gpu_->end_step();
}

std::vector<std::uint8_t> VulkanBackend::packed_stream(GpuResource& resource, std::uint32_t slice) {
    const tiles::ResourceTiling& tiling = resource.tiling;
    std::vector<std::uint8_t> stream(std::uint64_t{tiling.packed.NumTilesForPackedMips} * kTile, 0);
    std::uint64_t at = 0;
    for (std::uint32_t mip = tiling.packed.NumStandardMips; mip < tiling.mip_levels; ++mip) {
        const std::uint32_t sub = slice * tiling.mip_levels + mip;
        download_box(resource, sub, element_box(layout_of(resource.info, sub), nullptr),
                     [&](const std::uint8_t* piece, std::size_t size) {
                         const std::size_t fits =
                             at < stream.size() ? std::min<std::size_t>(size, stream.size() - at)
                                                : 0;
                         std::memcpy(stream.data() + at, piece, fits);
                         at += size;
                     });
    }
    return stream;
}

void VulkanBackend::copy_tiles(ObjectId id, const std::vector<tiles::TileRef>& tile_list,
                               ObjectId buffer_id, std::uint64_t buffer_offset,
                               std::uint32_t flags) {
    const Operation call(*this);
    GpuResource* resource = find(id);
    GpuResource* buffer = find(buffer_id);
    if (resource == nullptr || buffer == nullptr || !buffer->buffer) return;
    const bool to_tiles = (flags & D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE) != 0;
    std::vector<std::uint32_t> written;
    if (to_tiles)
        for (const tiles::TileRef& tile : tile_list) written.push_back(tile.tile);
    if (resource->shadowed) {
        sync_shadow(*resource);
    } else {
        pages_.bind_pending(*resource, to_tiles ? &written : nullptr);
    }
    resource->used_in = gpu_->recording_batch();
    if (to_tiles) wrote(*resource, &written);
    use(buffer_id);  // a shadowed buffer up to date
    if (!to_tiles) {
        const ElementBox range{static_cast<std::uint32_t>(buffer_offset),
                               0,
                               0,
                               static_cast<std::uint32_t>(buffer_offset + tile_list.size() * kTile),
                               1,
                               1};
        wrote_box(*buffer, 0, range);
    }
    std::vector<VkBufferImageCopy> image_regions;
    std::vector<VkBufferCopy> buffer_regions;
    std::map<std::uint32_t, std::vector<std::uint8_t>> streams;  // packed mips by slice
    std::vector<std::pair<std::uint64_t, const std::uint8_t*>> packed_reads;
    for (std::size_t k = 0; k < tile_list.size(); ++k) {
        const tiles::TileRef& tile = tile_list[k];
        const std::uint64_t linear = buffer_offset + k * kTile;
        if (resource->is_buffer()) {
            buffer_regions.push_back(to_tiles ? VkBufferCopy{linear, tile.tile * kTile, kTile}
                                              : VkBufferCopy{tile.tile * kTile, linear, kTile});
        } else if (!packed_tile(*resource, tile)) {
            image_regions.push_back(tile_region(*resource, tile, linear));
        } else if (!to_tiles) {
            // Packed tiles read as the tile model's byte stream of the slice.
            const std::uint32_t slice = tile.subresource / resource->tiling.mip_levels;
            auto stream = streams.find(slice);
            if (stream == streams.end()) {
                stream = streams.emplace(slice, packed_stream(*resource, slice)).first;
            }
            const std::uint64_t index = tile.tile - resource->tiling.packed_start(slice);
            packed_reads.emplace_back(linear, stream->second.data() + index * kTile);
        }
    }
    const VkCommandBuffer commands = gpu_->commands();
    if (!buffer_regions.empty()) {
        const VkBuffer from = to_tiles ? buffer->buffer : resource->buffer;
        const VkBuffer to = to_tiles ? resource->buffer : buffer->buffer;
        vkCmdCopyBuffer(commands, from, to, static_cast<std::uint32_t>(buffer_regions.size()),
                        buffer_regions.data());
    }
    if (!image_regions.empty()) {
        const auto region_count = static_cast<std::uint32_t>(image_regions.size());
        if (to_tiles) {
            vkCmdCopyBufferToImage(commands, buffer->buffer, resource->image,
                                   VK_IMAGE_LAYOUT_GENERAL, region_count, image_regions.data());
        } else {
            vkCmdCopyImageToBuffer(commands, resource->image, VK_IMAGE_LAYOUT_GENERAL,
                                   buffer->buffer, region_count, image_regions.data());
        }
    }
    gpu_->end_step();
    for (const auto& [linear, bytes] : packed_reads) {
        const ElementBox box{static_cast<std::uint32_t>(linear),         0, 0,
                             static_cast<std::uint32_t>(linear + kTile), 1, 1};
        upload_box(*buffer, 0, box, bytes, kTile, kTile);
    }
}

}  // namespace d3dcap::runtime::backend::vulkan
