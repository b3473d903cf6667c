// Tile pools, sparse binding and the tile copies of the Vulkan device.
//
// A pool is VkDeviceMemory handed out in 64 KiB pages: one allocation for its
// first size and one more for each growth, so existing pages (and what maps
// them) never move; shrinking frees nothing, and growing again reuses those
// pages first, as the tile model says. A tiled resource is a sparse image or
// buffer; the tiles whose mapping changed in the tile model since they were
// last bound are bound again when GPU work needs them, coalesced into few
// bind entries (vulkan::SparseBinder). Packed mips are bound through the image's
// mip tail, tile k of a slice's packed tiles at byte k * 64 KiB of the tail.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "runtime/backend/vulkan/vulkan_backend.h"

namespace d3dcap::runtime::backend::vulkan {
namespace {

constexpr std::uint64_t kTile = tiles::kTileBytes;

std::uint32_t mip_extent(std::uint32_t size, std::uint32_t mip) {
    return std::max<std::uint32_t>(1, size >> mip);
}

}  // namespace

HRESULT VulkanBackend::create_pool(GpuResource& pool) {
    return grow_pool(pool, pool.info.byte_width / kTile) ? S_OK : E_OUTOFMEMORY;
}

bool VulkanBackend::allocate_pages(std::uint64_t pages, PoolChunk& chunk) {
    const VkDevice dev = gpu_->vk();
    chunk.tiles = pages;
    VkBufferCreateInfo buffer_info{};
    buffer_info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    buffer_info.size = pages * kTile;
    buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (vkCreateBuffer(dev, &buffer_info, nullptr, &chunk.buffer) != VK_SUCCESS) return false;
    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(dev, chunk.buffer, &requirements);
    // Pool memory must suit sparse images and buffers too.
    requirements.memoryTypeBits &= pool_memory_types_;
    const std::optional<std::uint32_t> type = gpu_->device().find_memory_type(
        requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VkMemoryAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocate.allocationSize = pages * kTile;
    allocate.memoryTypeIndex = type.value_or(0);
    if (!type || vkAllocateMemory(dev, &allocate, nullptr, &chunk.memory) != VK_SUCCESS ||
        vkBindBufferMemory(dev, chunk.buffer, chunk.memory, 0) != VK_SUCCESS) {
        vkDestroyBuffer(dev, chunk.buffer, nullptr);
        if (chunk.memory) vkFreeMemory(dev, chunk.memory, nullptr);
        chunk.buffer = VK_NULL_HANDLE;
        chunk.memory = VK_NULL_HANDLE;
        return false;
    }
    return true;
}

void VulkanBackend::release_pages(std::vector<PoolChunk> chunks) {
    if (chunks.empty()) return;
    gpu_->when_done([dev = gpu_->vk(), chunks = std::move(chunks)] {
        for (const PoolChunk& chunk : chunks) {
            if (chunk.buffer) vkDestroyBuffer(dev, chunk.buffer, nullptr);
            if (chunk.memory) vkFreeMemory(dev, chunk.memory, nullptr);
        }
    });
}

bool VulkanBackend::grow_pool(GpuResource& pool, std::uint64_t tiles) {
    if (tiles == 0) return true;
    PoolChunk chunk;
    chunk.first_tile =
        pool.chunks.empty() ? 0 : pool.chunks.back().first_tile + pool.chunks.back().tiles;
    if (!allocate_pages(tiles, chunk)) {
        std::fprintf(stderr, "d3dcap: Vulkan device: cannot allocate %llu pool tiles\n",
                     static_cast<unsigned long long>(tiles));
        return false;
    }
    // Pool tiles nobody wrote read as zeros.
    vkCmdFillBuffer(gpu_->commands(), chunk.buffer, 0, VK_WHOLE_SIZE, 0);
    pool.chunks.push_back(chunk);
    gpu_->end_step();
    return true;
}

void VulkanBackend::resize_tile_pool(ObjectId id, std::uint64_t new_byte_width) {
    const Operation call(*this);
    GpuResource* pool = find(id);
    if (pool == nullptr) return;
    std::uint64_t allocated = 0;
    for (const PoolChunk& chunk : pool->chunks) allocated += chunk.tiles;
    const std::uint64_t wanted = new_byte_width / kTile;
    if (wanted > allocated) grow_pool(*pool, wanted - allocated);
    pool->info.byte_width = new_byte_width;
}

bool VulkanBackend::pool_page(ObjectId pool_id, std::uint32_t pool_tile, VkDeviceMemory& memory,
                              std::uint64_t& page) {
    GpuResource* pool = find(pool_id);
    if (pool == nullptr) {  // destroyed while tiles still map it
        const auto retired = retired_pools_.find(pool_id);
        if (retired == retired_pools_.end()) return false;
        pool = retired->second.get();
    }
    for (const PoolChunk& chunk : pool->chunks) {
        if (pool_tile >= chunk.first_tile && pool_tile < chunk.first_tile + chunk.tiles) {
            memory = chunk.memory;
            page = pool_tile - chunk.first_tile;
            return true;
        }
    }
    return false;
}

bool VulkanBackend::packed_tile(const GpuResource& resource, const tiles::TileRef& tile) const {
    const tiles::ResourceTiling& tiling = resource.tiling;
    if (tiling.packed.NumPackedMips == 0 || resource.is_buffer()) return false;
    const std::uint32_t slice = tile.subresource / std::max<std::uint32_t>(1, tiling.mip_levels);
    const std::uint32_t first = tiling.packed_start(slice);
    return tile.tile >= first && tile.tile < first + tiling.packed.NumTilesForPackedMips;
}

VkBufferImageCopy VulkanBackend::tile_region(const GpuResource& resource,
                                             const tiles::TileRef& tile,
                                             VkDeviceSize buffer_offset) const {
    const ImageStorage& storage = resource.storage;
    const D3D11_TILE_SHAPE& shape = resource.tiling.shape;
    const std::uint32_t mip = tile.subresource % storage.mip_levels;
    const bool volume = storage.type == VK_IMAGE_TYPE_3D;
    VkBufferImageCopy region{};
    region.bufferOffset = buffer_offset;
    // Rows are pitched at the full tile width, also at the edges.
    region.bufferRowLength = shape.WidthInTexels;
    region.bufferImageHeight = shape.HeightInTexels;
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, mip,
                               volume ? 0 : tile.subresource / storage.mip_levels, 1};
    const std::uint32_t x = tile.x * shape.WidthInTexels, y = tile.y * shape.HeightInTexels,
                        z = tile.z * shape.DepthInTexels;
    region.imageOffset = {static_cast<std::int32_t>(x), static_cast<std::int32_t>(y),
                          static_cast<std::int32_t>(z)};
    region.imageExtent = {
        std::min(shape.WidthInTexels, mip_extent(storage.extent.width, mip) - x),
        std::min(shape.HeightInTexels, mip_extent(storage.extent.height, mip) - y),
        std::min(shape.DepthInTexels, mip_extent(storage.extent.depth, mip) - z)};
    return region;
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
    pending_binds_.insert(id);
    if (per_tile_binds_) bind_pending(*resource);  // the baseline binds at once
}

void VulkanBackend::flush() {
    if (vulkan::process_exiting()) return;  // no binds for a process that is ending
    const Operation call(*this);
    while (!pending_binds_.empty()) {
        GpuResource* resource = find(*pending_binds_.begin());
        if (resource == nullptr) {
            pending_binds_.erase(pending_binds_.begin());
            continue;
        }
        bind_pending(*resource);
    }
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
    if (!pending_binds_.empty() && pending_binds_.count(resource.info.id) != 0)
        bind_pending(resource);  // before it counts as used
    resource.used_in = gpu_->recording_batch();
    if (resource.shadowed) sync_shadow(resource);
}

void VulkanBackend::bind_pending(GpuResource& r) {
    const auto pending = pending_binds_.find(r.info.id);
    if (pending == pending_binds_.end()) return;
    pending_binds_.erase(pending);
    const std::vector<tiles::TileMapping> now = tiles_->mappings(r.info.id);
    std::vector<std::pair<std::uint32_t, tiles::TileMapping>> changes;
    for (std::uint32_t tile = 0; tile < std::min(now.size(), r.bound.size()); ++tile) {
        changes.emplace_back(tile, now[tile]);
    }
    bind_changes(r, changes);
}

void VulkanBackend::bind_changes(
    GpuResource& r, const std::vector<std::pair<std::uint32_t, tiles::TileMapping>>& changes) {
    auto changed = [&r](std::uint32_t tile, const tiles::TileMapping& mapping) {
        const tiles::TileMapping& bound = r.bound[tile];
        return mapping.pool != bound.pool || mapping.pool_tile != bound.pool_tile;
    };
    // The pages changed tiles map, sorted: where many tiles map one, a
    // replica of it lets runs of them share one bind entry. Packed tiles
    // keep their page (a mip tail's memory is laid out as the driver likes).
    std::vector<std::pair<ObjectId, std::uint32_t>> pages;
    if (!per_tile_binds_) {
        for (const auto& [tile, mapping] : changes) {
            if (mapping.pool != 0 && changed(tile, mapping) && !packed_index(r, tile))
                pages.emplace_back(mapping.pool, mapping.pool_tile);
        }
        std::sort(pages.begin(), pages.end());
    }
    std::vector<TileMemory> binds;
    for (const auto& [tile, mapping] : changes) {
        if (!changed(tile, mapping)) continue;
        if (r.on_replica[tile]) leave_replica(r, tile);
        r.bound[tile] = mapping;
        TileMemory bind{tile};
        if (mapping.pool != 0) {
            const auto [first, last] = std::equal_range(pages.begin(), pages.end(),
                                                        std::pair{mapping.pool, mapping.pool_tile});
            const auto sharing = static_cast<std::uint64_t>(last - first);
            PageReplica* replica = sharing == 0 ? nullptr : replica_for(r, mapping, sharing);
            if (replica != nullptr) {
                bind.memory = replica->copies.memory;
                bind.uniform_pages = static_cast<std::uint32_t>(replica->copies.tiles);
                ++replica->tiles_bound;
                r.on_replica[tile] = 1;
                ++r.replica_tiles;
            } else {
                pool_page(mapping.pool, mapping.pool_tile, bind.memory, bind.page);
            }
        }
        binds.push_back(bind);
    }
    if (binds.empty()) return;
    r.no_replicated_pages_at = 0;
    bind_tiles(r, binds);
    release_unbound_replicas();
}

void VulkanBackend::bind_tiles(GpuResource& r, const std::vector<TileMemory>& tiles) {
    GpuResource* resource = &r;
    const tiles::ResourceTiling& tiling = resource->tiling;
    std::map<std::uint32_t, std::vector<vulkan::ImageTileMapping>> standard;  // by subresource
    std::vector<VkSparseMemoryBind> opaque;
    std::vector<vulkan::BufferTileMapping> buffer_tiles;
    const bool single_tail =
        (resource->tail.formatProperties.flags & VK_SPARSE_IMAGE_FORMAT_SINGLE_MIPTAIL_BIT) != 0;
    const std::uint32_t packed_tiles = tiling.packed.NumTilesForPackedMips;
    for (const TileMemory& t : tiles) {
        if (resource->is_buffer()) {
            buffer_tiles.push_back({t.tile, t.memory, t.page, t.uniform_pages});
            continue;
        }
        tiles::TileRef where;
        if (!tile_position(*resource, t.tile, where)) continue;
        if (packed_tile(*resource, where)) {
            const std::uint32_t slice = where.subresource / tiling.mip_levels;
            const std::uint64_t index = where.tile - tiling.packed_start(slice);
            // Packed tiles past the GPU's tail hold nothing on this GPU.
            if ((index + 1) * kTile > resource->tail.imageMipTailSize) continue;
            VkSparseMemoryBind bind{};
            bind.resourceOffset =
                resource->tail.imageMipTailOffset +
                (single_tail ? (std::uint64_t{slice} * packed_tiles + index) * kTile
                             : slice * resource->tail.imageMipTailStride + index * kTile);
            bind.size = kTile;
            bind.memory = t.memory;
            bind.memoryOffset = t.page * kTile;
            opaque.push_back(bind);
            continue;
        }
        standard[where.subresource].push_back(
            {where.x, where.y, where.z, t.memory, t.page, t.uniform_pages});
    }

    std::vector<VkSparseImageMemoryBind> image_binds;
    std::vector<VkSparseMemoryBind> buffer_binds;
    for (const auto& [sub, mappings] : standard) {
        const ImageStorage& storage = resource->storage;
        const std::uint32_t mip = sub % storage.mip_levels;
        vulkan::SparseImageTarget target;
        target.subresource = {VK_IMAGE_ASPECT_COLOR_BIT, mip,
                              storage.type == VK_IMAGE_TYPE_3D ? 0 : sub / storage.mip_levels};
        target.block = {tiling.shape.WidthInTexels, tiling.shape.HeightInTexels,
                        tiling.shape.DepthInTexels};
        target.extent = {mip_extent(storage.extent.width, mip),
                         mip_extent(storage.extent.height, mip),
                         mip_extent(storage.extent.depth, mip)};
        if (per_tile_binds_) {
            vulkan::per_tile_image_binds(target, mappings, image_binds);
        } else if (!binder_.coalesce_image(target, mappings, image_binds)) {
            std::fprintf(stderr, "d3dcap: Vulkan device: resource %llu: tiles outside mip %u\n",
                         static_cast<unsigned long long>(resource->info.id), mip);
        }
    }
    if (per_tile_binds_) {
        vulkan::per_tile_buffer_binds(buffer_tiles, buffer_binds);
    } else if (!buffer_tiles.empty()) {
        binder_.coalesce_buffer(tiling.total_tiles, buffer_tiles, buffer_binds);
    }
    vulkan::SparseBatch batch;
    batch.image = resource->image;
    batch.image_binds = image_binds;
    batch.image_opaque_binds = opaque;
    batch.buffer = resource->buffer;
    batch.buffer_binds = buffer_binds;
    // Work recorded since the last submission that uses the old mapping goes
    // first; otherwise the binds go before that work, with the others.
    if (per_tile_binds_ || resource->used_in == gpu_->recording_batch())
        gpu_->bind_sparse(batch);
    else
        gpu_->bind_before_batch(batch);
}

bool VulkanBackend::packed_index(const GpuResource& resource, std::uint32_t tile) const {
    const tiles::ResourceTiling& tiling = resource.tiling;
    if (tiling.packed.NumPackedMips == 0 || resource.is_buffer()) return false;
    for (std::uint32_t slice = 0; slice < tiling.array_size; ++slice) {
        const std::uint32_t first = tiling.packed_start(slice);
        if (tile >= first && tile < first + tiling.packed.NumTilesForPackedMips) return true;
    }
    return false;
}

bool VulkanBackend::tile_position(const GpuResource& resource, std::uint32_t tile,
                                  tiles::TileRef& where) const {
    const tiles::ResourceTiling& tiling = resource.tiling;
    where.tile = tile;
    for (std::uint32_t slice = 0; slice < tiling.array_size && tiling.packed.NumPackedMips > 0;
         ++slice) {
        const std::uint32_t first = tiling.packed_start(slice);
        if (tile >= first && tile < first + tiling.packed.NumTilesForPackedMips) {
            where.subresource = slice * tiling.mip_levels + tiling.packed.NumStandardMips;
            where.x = tile - first;
            return true;
        }
    }
    for (std::uint32_t sub = 0; sub < tiling.subresources.size(); ++sub) {
        const D3D11_SUBRESOURCE_TILING& s = tiling.subresources[sub];
        if (s.StartTileIndexInOverallResource == D3D11_PACKED_TILE) continue;
        const std::uint64_t count =
            std::uint64_t{s.WidthInTiles} * s.HeightInTiles * s.DepthInTiles;
        if (tile < s.StartTileIndexInOverallResource ||
            tile >= s.StartTileIndexInOverallResource + count) {
            continue;
        }
        const std::uint32_t index = tile - s.StartTileIndexInOverallResource;
        where.subresource = sub;
        where.x = index % s.WidthInTiles;
        where.y = index / s.WidthInTiles % s.HeightInTiles;
        where.z = index / (s.WidthInTiles * s.HeightInTiles);
        return true;
    }
    return false;
}

void VulkanBackend::update_tiles(ObjectId id, const std::vector<tiles::TileRef>& tile_list,
                                 const void* data) {
    const Operation call(*this);
    GpuResource* resource = find(id);
    if (resource == nullptr || data == nullptr) return;
    if (resource->shadowed) {
        sync_shadow(*resource);
    } else {
        bind_pending(*resource);
    }
    resource->used_in = gpu_->recording_batch();
    std::vector<std::uint32_t> written;
    for (const tiles::TileRef& tile : tile_list) written.push_back(tile.tile);
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
    if (resource->shadowed) {
        sync_shadow(*resource);
    } else {
        bind_pending(*resource);
    }
    resource->used_in = gpu_->recording_batch();
    if (to_tiles) {
        std::vector<std::uint32_t> written;
        for (const tiles::TileRef& tile : tile_list) written.push_back(tile.tile);
        wrote(*resource, &written);
    }
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
