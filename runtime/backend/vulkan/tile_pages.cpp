// Tile pools' pages and the sparse binds of tiled resources (tile_pages.h).
#include "runtime/backend/vulkan/tile_pages.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace d3dcap::runtime::backend::vulkan {
namespace {

constexpr std::uint64_t kTile = tiles::kTileBytes;

std::uint32_t mip_extent(std::uint32_t size, std::uint32_t mip) {
    return std::max<std::uint32_t>(1, size >> mip);
}

// The chunk of a pool that holds a pool tile (null: none).
const PoolChunk* chunk_of(const GpuResource* pool, std::uint32_t pool_tile) {
    if (pool == nullptr) return nullptr;
    for (const PoolChunk& chunk : pool->chunks)
        if (pool_tile >= chunk.first_tile && pool_tile < chunk.first_tile + chunk.tiles)
            return &chunk;
    return nullptr;
}

}  // namespace

TilePages::TilePages(GpuContext& gpu, const ResourceTable& resources,
                     VkBufferUsageFlags buffer_usage)
    : gpu_(gpu), resources_(resources) {
    const char* per_tile = std::getenv("D3DCAP_VULKAN_BIND_PER_TILE");
    per_tile_binds_ = per_tile != nullptr && std::string(per_tile) == "1";
    if (gpu_.device().tier().tier != D3D11_TILED_RESOURCES_NOT_SUPPORTED)
        memory_types_ = sparse_memory_types(buffer_usage);
}

// The memory types both a sparse image and a sparse buffer can bind, which
// pool memory must be of.
std::uint32_t TilePages::sparse_memory_types(VkBufferUsageFlags buffer_usage) const {
    const VkDevice dev = gpu_.vk();
    std::uint32_t types = ~0u;
    VkImageCreateInfo image_info{};
    image_info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    image_info.flags = sparse_image_flags();
    image_info.imageType = VK_IMAGE_TYPE_2D;
    image_info.format = VK_FORMAT_R32_UINT;
    image_info.extent = {1024, 1024, 1};
    image_info.mipLevels = image_info.arrayLayers = 1;
    image_info.samples = VK_SAMPLE_COUNT_1_BIT;
    image_info.tiling = VK_IMAGE_TILING_OPTIMAL;
    image_info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                       VK_IMAGE_USAGE_SAMPLED_BIT;
    VkImage image = VK_NULL_HANDLE;
    if (vkCreateImage(dev, &image_info, nullptr, &image) == VK_SUCCESS) {
        VkMemoryRequirements requirements{};
        vkGetImageMemoryRequirements(dev, image, &requirements);
        types &= requirements.memoryTypeBits;
        vkDestroyImage(dev, image, nullptr);
    }
    VkBufferCreateInfo buffer_info{};
    buffer_info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    buffer_info.flags = VK_BUFFER_CREATE_SPARSE_BINDING_BIT |
                        VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT | VK_BUFFER_CREATE_SPARSE_ALIASED_BIT;
    buffer_info.size = 16 * kTile;
    buffer_info.usage = buffer_usage;
    VkBuffer buffer = VK_NULL_HANDLE;
    if (vkCreateBuffer(dev, &buffer_info, nullptr, &buffer) == VK_SUCCESS) {
        VkMemoryRequirements requirements{};
        vkGetBufferMemoryRequirements(dev, buffer, &requirements);
        types &= requirements.memoryTypeBits;
        vkDestroyBuffer(dev, buffer, nullptr);
    }
    return types;
}

bool TilePages::allocate(std::uint64_t pages, PoolChunk& chunk) {
    const VkDevice dev = gpu_.vk();
    chunk.tiles = pages;
    VkBufferCreateInfo buffer_info{};
    buffer_info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    buffer_info.size = pages * kTile;
    buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (vkCreateBuffer(dev, &buffer_info, nullptr, &chunk.buffer) != VK_SUCCESS) return false;
    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(dev, chunk.buffer, &requirements);
    // Pool memory must suit sparse images and buffers too.
    requirements.memoryTypeBits &= memory_types_;
    const std::optional<std::uint32_t> type = gpu_.device().find_memory_type(
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

void TilePages::release(std::vector<PoolChunk> chunks) {
    if (chunks.empty()) return;
    gpu_.when_done([dev = gpu_.vk(), chunks = std::move(chunks)] {
        for (const PoolChunk& chunk : chunks) {
            if (chunk.buffer) vkDestroyBuffer(dev, chunk.buffer, nullptr);
            if (chunk.memory) vkFreeMemory(dev, chunk.memory, nullptr);
        }
    });
}

bool TilePages::grow(GpuResource& pool, std::uint64_t tiles) {
    if (tiles == 0) return true;
    PoolChunk chunk;
    chunk.first_tile =
        pool.chunks.empty() ? 0 : pool.chunks.back().first_tile + pool.chunks.back().tiles;
    if (!allocate(tiles, chunk)) {
        std::fprintf(stderr, "d3dcap: Vulkan device: cannot allocate %llu pool tiles\n",
                     static_cast<unsigned long long>(tiles));
        return false;
    }
    // Pool tiles nobody wrote read as zeros.
    vkCmdFillBuffer(gpu_.commands(), chunk.buffer, 0, VK_WHOLE_SIZE, 0);
    pool.chunks.push_back(chunk);
    gpu_.end_step();
    return true;
}

bool TilePages::page_memory(ObjectId pool, std::uint32_t pool_tile, VkDeviceMemory& memory,
                            std::uint64_t& page) const {
    const PoolChunk* chunk = chunk_of(resources_.pool(pool), pool_tile);
    if (chunk == nullptr) return false;
    memory = chunk->memory;
    page = pool_tile - chunk->first_tile;
    return true;
}

bool TilePages::page_buffer(ObjectId pool_id, std::uint32_t pool_tile, VkBuffer& buffer,
                            std::uint64_t& offset, std::uint64_t& version) const {
    const GpuResource* pool = resources_.pool(pool_id);
    const PoolChunk* chunk = chunk_of(pool, pool_tile);
    if (chunk == nullptr) return false;
    version = pool->version;
    buffer = chunk->buffer;
    offset = (pool_tile - chunk->first_tile) * kTile;
    return true;
}

void TilePages::bind_pending(GpuResource& r, const std::vector<std::uint32_t>* writing) {
    const auto pending = pending_.find(r.info.id);
    if (pending == pending_.end()) return;
    pending_.erase(pending);
    const std::vector<tiles::TileMapping> now = tiles_->mappings(r.info.id);
    std::vector<std::pair<std::uint32_t, tiles::TileMapping>> changes;
    for (std::uint32_t tile = 0; tile < std::min(now.size(), r.bound.size()); ++tile) {
        changes.emplace_back(tile, now[tile]);
    }
    std::vector<std::uint32_t> written;
    if (writing != nullptr) {
        written = *writing;
        std::sort(written.begin(), written.end());
    }
    const auto replicable = [&](std::uint32_t tile) {
        return writing == nullptr || !std::binary_search(written.begin(), written.end(), tile);
    };
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
            if (mapping.pool != 0 && changed(tile, mapping) && !packed_index(r, tile) &&
                replicable(tile))
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
            PageReplica* replica =
                sharing == 0 || !replicable(tile) ? nullptr : replica_for(r, mapping, sharing);
            if (replica != nullptr) {
                bind.memory = replica->copies.memory;
                bind.uniform_pages = static_cast<std::uint32_t>(replica->copies.tiles);
                ++replica->tiles_bound;
                r.on_replica[tile] = 1;
                ++r.replica_tiles;
            } else {
                page_memory(mapping.pool, mapping.pool_tile, bind.memory, bind.page);
            }
        }
        binds.push_back(bind);
    }
    if (binds.empty()) return;
    r.no_replicated_pages_at = 0;
    bind_tiles(r, binds);
    release_unbound_replicas();
}

void TilePages::bind_tiles(GpuResource& r, const std::vector<TileMemory>& tiles) {
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
    if (per_tile_binds_ || resource->used_in == gpu_.recording_batch())
        gpu_.bind_sparse(batch);
    else
        gpu_.bind_before_batch(batch);
}

bool packed_tile(const GpuResource& resource, const tiles::TileRef& tile) {
    const tiles::ResourceTiling& tiling = resource.tiling;
    if (tiling.packed.NumPackedMips == 0 || resource.is_buffer()) return false;
    const std::uint32_t slice = tile.subresource / std::max<std::uint32_t>(1, tiling.mip_levels);
    const std::uint32_t first = tiling.packed_start(slice);
    return tile.tile >= first && tile.tile < first + tiling.packed.NumTilesForPackedMips;
}

bool packed_index(const GpuResource& resource, std::uint32_t tile) {
    const tiles::ResourceTiling& tiling = resource.tiling;
    if (tiling.packed.NumPackedMips == 0 || resource.is_buffer()) return false;
    for (std::uint32_t slice = 0; slice < tiling.array_size; ++slice) {
        const std::uint32_t first = tiling.packed_start(slice);
        if (tile >= first && tile < first + tiling.packed.NumTilesForPackedMips) return true;
    }
    return false;
}

bool tile_position(const GpuResource& resource, std::uint32_t tile, tiles::TileRef& where) {
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

VkBufferImageCopy tile_region(const GpuResource& resource, const tiles::TileRef& tile,
                              VkDeviceSize buffer_offset) {
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

void TilePages::mappings_changed(GpuResource& resource) {
    pending_.insert(resource.info.id);
    if (per_tile_binds_) bind_pending(resource);  // the baseline binds at once
}

void TilePages::bind_all_pending() {
    while (!pending_.empty()) {
        GpuResource* resource = resources_.find(*pending_.begin());
        if (resource == nullptr) {
            pending_.erase(pending_.begin());
            continue;
        }
        bind_pending(*resource);
    }
}

void TilePages::forget(GpuResource& resource) {
    pending_.erase(resource.info.id);
    for (std::uint32_t tile = 0; resource.replica_tiles > 0 && tile < resource.on_replica.size();
         ++tile)
        if (resource.on_replica[tile]) leave_replica(resource, tile);
    release_unbound_replicas();
}

}  // namespace d3dcap::runtime::backend::vulkan
