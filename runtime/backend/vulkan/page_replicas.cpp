// Page replicas of the Vulkan device. Drivers take time per sparse bind
// entry, and tiles that REUSE_SINGLE_TILE maps onto one page (a streaming
// texture's "loading" tile) would need one entry each, since their memory
// is not contiguous. Such tiles are bound instead to a replica: copies of
// the page laid out one after another, so that a run or box of them is one
// entry. Replicas are read-only: before a call writes tiles bound to one,
// those tiles are bound to their page, and once a call may have changed a
// page its replicas are copied from it again, so every tile reads what its
// page holds, as D3D11 says.
#include <algorithm>
#include <bit>

#include "runtime/backend/vulkan/tile_pages.h"

namespace d3dcap::runtime::backend::vulkan {
namespace {

constexpr std::uint64_t kTile = tiles::kTileBytes;
// Fewer tiles of one page than this in one bind are bound to the page.
constexpr std::uint64_t kReplicaMinTiles = 4;
// Copies in one replica (16 MiB): a larger box takes several entries.
constexpr std::uint64_t kReplicaMaxPages = 256;
// Pages all replicas may hold (128 MiB); past it tiles bind to their page.
constexpr std::uint64_t kReplicaPageBudget = 2048;

// The whole tiles of a texture's mip 0 along each axis.
VkExtent3D whole_tiles(const GpuResource& resource) {
    const D3D11_TILE_SHAPE& shape = resource.tiling.shape;
    const VkExtent3D& extent = resource.storage.extent;
    if (shape.WidthInTexels == 0 || shape.HeightInTexels == 0 || shape.DepthInTexels == 0)
        return {0, 0, 0};
    return {extent.width / shape.WidthInTexels, extent.height / shape.HeightInTexels,
            extent.depth / shape.DepthInTexels};
}

}  // namespace

PageReplica* TilePages::replica_for(const GpuResource& resource, const tiles::TileMapping& page,
                                    std::uint64_t tiles) {
    const ReplicaKey key{page.pool, page.pool_tile, resource.is_buffer() ? 0 : resource.info.id};
    const auto found = replicas_.find(key);
    if (found != replicas_.end()) return &found->second;
    if (tiles < kReplicaMinTiles) return nullptr;
    std::uint64_t copies = std::min(kReplicaMaxPages, std::bit_ceil(tiles));
    if (!resource.is_buffer()) {
        const VkExtent3D whole = whole_tiles(resource);
        copies = std::min<std::uint64_t>(copies,
                                         std::uint64_t{whole.width} * whole.height * whole.depth);
    }
    if (copies < kReplicaMinTiles || replica_pages_ + copies > kReplicaPageBudget) return nullptr;
    PageReplica replica;
    if (!allocate(copies, replica.copies)) return nullptr;  // bound to the page instead
    if (!resource.is_buffer() && !make_image_replica(resource, page, copies, replica)) {
        release_replica(replica);
        return nullptr;
    }
    replica_pages_ += copies;
    ++replica_generation_;
    PageReplica& made = replicas_.emplace(key, std::move(replica)).first->second;
    record_refill(key, made);
    return &made;
}

bool TilePages::make_image_replica(const GpuResource& resource, const tiles::TileMapping& page,
                                   std::uint64_t copies, PageReplica& replica) {
    const ImageStorage& storage = resource.storage;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    std::uint64_t page_index = 0;
    if (!page_memory(page.pool, page.pool_tile, memory, page_index)) return false;
    replica.source = make_image(gpu_.vk(), storage);
    replica.clone = make_image(gpu_.vk(), storage);
    if (!replica.source || !replica.clone) return false;
    to_general_layout(gpu_.commands(), replica.source, storage.aspects);
    to_general_layout(gpu_.commands(), replica.clone, storage.aspects);

    const D3D11_TILE_SHAPE& shape = resource.tiling.shape;
    vulkan::SparseImageTarget target;
    target.block = {shape.WidthInTexels, shape.HeightInTexels, shape.DepthInTexels};
    target.extent = storage.extent;
    const VkExtent3D whole = whole_tiles(resource);
    std::vector<vulkan::ImageTileMapping> tiles;
    for (std::uint64_t k = 0; k < copies; ++k) {
        const auto x = static_cast<std::uint32_t>(k % whole.width);
        const auto y = static_cast<std::uint32_t>(k / whole.width % whole.height);
        const auto z = static_cast<std::uint32_t>(k / (std::uint64_t{whole.width} * whole.height));
        tiles.push_back({x, y, z, replica.copies.memory, k});
        VkImageCopy region{};
        region.srcSubresource = region.dstSubresource = {storage.aspects, 0, 0, 1};
        region.dstOffset = {static_cast<std::int32_t>(x * shape.WidthInTexels),
                            static_cast<std::int32_t>(y * shape.HeightInTexels),
                            static_cast<std::int32_t>(z * shape.DepthInTexels)};
        region.extent = target.block;
        replica.regions.push_back(region);
    }
    const vulkan::ImageTileMapping first_tile{0, 0, 0, memory, page_index};
    for (const auto& [image, mappings] :
         {std::pair{replica.source, std::span(&first_tile, 1)},
          std::pair{replica.clone, std::span<const vulkan::ImageTileMapping>(tiles)}}) {
        std::vector<VkSparseImageMemoryBind> binds;
        if (!binder_.coalesce_image(target, mappings, binds)) return false;
        vulkan::SparseBatch batch;
        batch.image = image;
        batch.image_binds = binds;
        if (!gpu_.bind_before_batch(batch)) return false;  // new images: no work uses them
    }
    return true;
}

// Copies the page into every copy of the replica, after the work before.
void TilePages::record_refill(const ReplicaKey& key, const PageReplica& replica) {
    const VkCommandBuffer commands = gpu_.commands();
    gpu_.barrier();
    if (replica.clone) {
        vkCmdCopyImage(commands, replica.source, VK_IMAGE_LAYOUT_GENERAL, replica.clone,
                       VK_IMAGE_LAYOUT_GENERAL, static_cast<std::uint32_t>(replica.regions.size()),
                       replica.regions.data());
    } else {
        VkBuffer page = VK_NULL_HANDLE;
        std::uint64_t offset = 0, version = 0;
        if (!page_buffer(key.pool, key.page, page, offset, version)) return;
        std::vector<VkBufferCopy> regions(replica.copies.tiles);
        for (std::uint64_t k = 0; k < regions.size(); ++k) regions[k] = {offset, k * kTile, kTile};
        vkCmdCopyBuffer(commands, page, replica.copies.buffer,
                        static_cast<std::uint32_t>(regions.size()), regions.data());
    }
    gpu_.barrier();
}

void TilePages::written(GpuResource& resource, const std::vector<std::uint32_t>* tiles) {
    if (resource.info.tile_pool()) {
        for (auto& [key, replica] : replicas_) {
            if (key.pool == resource.info.id) replica.stale = replicas_stale_ = true;
        }
        return;
    }
    if (resource.bound.empty()) return;  // not tiled
    if (tiles == nullptr && resource.no_replicated_pages_at == replica_generation_) return;
    bool maps_replicated = false;
    std::vector<TileMemory> to_pages;  // tiles bound to a replica, to bind to their page
    auto check = [&](std::uint32_t tile) {
        if (tile >= resource.bound.size()) return;
        const tiles::TileMapping& mapping = resource.bound[tile];
        if (mapping.pool == 0) return;
        for (auto replica = replicas_.lower_bound({mapping.pool, mapping.pool_tile, 0});
             replica != replicas_.end() && replica->first.pool == mapping.pool &&
             replica->first.page == mapping.pool_tile;
             ++replica) {
            maps_replicated = true;
            replica->second.stale = replicas_stale_ = true;
        }
        if (!resource.on_replica[tile]) return;
        leave_replica(resource, tile);
        TileMemory bind{tile};
        page_memory(mapping.pool, mapping.pool_tile, bind.memory, bind.page);
        to_pages.push_back(bind);
    };
    if (tiles != nullptr) {
        for (const std::uint32_t tile : *tiles) check(tile);
    } else {
        for (std::uint32_t tile = 0; tile < resource.bound.size(); ++tile) check(tile);
        if (!maps_replicated) resource.no_replicated_pages_at = replica_generation_;
    }
    if (to_pages.empty()) return;
    bind_tiles(resource, to_pages);
    release_unbound_replicas();
}

void TilePages::refresh() {
    replicas_stale_ = false;
    gpu_.end_step();  // after the call's own work
    for (auto& [key, replica] : replicas_) {
        if (!replica.stale) continue;
        replica.stale = false;
        record_refill(key, replica);
    }
}

void TilePages::leave_replica(GpuResource& resource, std::uint32_t tile) {
    const tiles::TileMapping& mapping = resource.bound[tile];
    resource.on_replica[tile] = 0;
    --resource.replica_tiles;
    const auto replica = replicas_.find(
        {mapping.pool, mapping.pool_tile, resource.is_buffer() ? 0 : resource.info.id});
    if (replica != replicas_.end()) --replica->second.tiles_bound;
}

void TilePages::release_replica(PageReplica& replica) {
    gpu_.when_done([dev = gpu_.vk(), source = replica.source, clone = replica.clone] {
        if (source) vkDestroyImage(dev, source, nullptr);
        if (clone) vkDestroyImage(dev, clone, nullptr);
    });
    release({replica.copies});
    replica = PageReplica{};
}

void TilePages::release_unbound_replicas() {
    for (auto replica = replicas_.begin(); replica != replicas_.end();) {
        if (replica->second.tiles_bound > 0) {
            ++replica;
            continue;
        }
        replica_pages_ -= replica->second.copies.tiles;
        release_replica(replica->second);
        replica = replicas_.erase(replica);
    }
}

void TilePages::destroy() {
    for (auto& [key, replica] : replicas_) release_replica(replica);
    replicas_.clear();
}

}  // namespace d3dcap::runtime::backend::vulkan
