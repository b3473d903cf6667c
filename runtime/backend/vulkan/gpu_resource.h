// A resource of the Vulkan device (buffer, texture or tile pool) with what
// the device keeps of it, and the table of them by id. Internal to libd3dcap.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "runtime/backend/backend.h"
#include "runtime/backend/vulkan/gpu_context.h"
#include "runtime/backend/vulkan/storage.h"
#include "runtime/tiles/tile_state.h"

namespace d3dcap::runtime::backend::vulkan {

// 64 KiB pages of device memory, one allocation per growth of the pool.
struct PoolChunk {
    std::uint64_t first_tile = 0, tiles = 0;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkBuffer buffer = VK_NULL_HANDLE;  // the same memory as a buffer, for reads and zeroing
};

struct GpuResource {
    ResourceInfo info;
    VkBuffer buffer = VK_NULL_HANDLE;
    VkImage image = VK_NULL_HANDLE;
    Allocation memory;  // non-sparse resources
    ImageStorage storage;
    // Tiled resources: the mapping each tile is bound to now, and where the
    // packed mips live.
    std::vector<tiles::TileMapping> bound;
    // Per tile: 1 where it is bound to a replica of its page, not the page.
    std::vector<std::uint8_t> on_replica;
    std::uint64_t replica_tiles = 0;  // how many are
    // The replica generation at which no tile was seen to map a replicated
    // page (0: not known), so that writes need not look again.
    std::uint64_t no_replicated_pages_at = 0;
    tiles::ResourceTiling tiling;
    VkSparseImageMemoryRequirements tail{};
    bool has_tail = false;
    // Tiled resources on a GPU without sparse residency: a dense image or
    // buffer, `bound` telling what each dense tile holds (vulkan_shadow.cpp),
    // the pool version it was last brought up to date with, and the tiles
    // the current call may have written.
    bool shadowed = false;
    std::uint64_t synced_version = 0;
    std::vector<std::uint32_t> written;
    bool all_written = false;
    // Tile pools; `version` changes whenever its pages may have changed.
    std::vector<PoolChunk> chunks;
    std::uint64_t version = 1;
    bool offered = false;
    std::uint64_t used_in = 0;  // the last batch that recorded work with it
    // Dynamic constant, vertex and index buffers: `buffer` holds a ring of
    // slices of their size, `slice` the byte offset of the one with their
    // contents now (0 for every other resource), and what each slice was
    // last used in.
    VkDeviceSize slice = 0, slice_stride = 0;
    std::vector<std::uint64_t> slices_used_in;
    // Staging textures but depth-stencil ones (vulkan_staging_textures.cpp):
    // no image; `buffer` holds the subresources in the canonical layout, one
    // after another, in host-visible memory that Map hands out.
    bool linear = false;
    // Maps of other textures: the subresource in canonical layout until Unmap.
    std::map<std::uint32_t, std::vector<std::uint8_t>> mapped;
    std::map<std::uint32_t, D3D11_MAP> map_types;

    bool is_buffer() const { return info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER; }
    bool multisampled() const { return storage.samples != VK_SAMPLE_COUNT_1_BIT; }
};

// The device's resources by id, and the tile pools the program released
// while tiles still map them: their pages stay until no tile does.
class ResourceTable {
  public:
    GpuResource* find(ObjectId id) const {
        const auto found = live_.find(id);
        return found != live_.end() ? found->second.get() : nullptr;
    }
    // A pool, live or retired.
    GpuResource* pool(ObjectId id) const {
        if (GpuResource* live = find(id)) return live;
        const auto found = retired_.find(id);
        return found != retired_.end() ? found->second.get() : nullptr;
    }
    GpuResource& add(std::unique_ptr<GpuResource> resource) {
        GpuResource& added = *resource;
        live_[added.info.id] = std::move(resource);
        return added;
    }
    // The resource, out of the table (null where there is none).
    std::unique_ptr<GpuResource> take(ObjectId id) {
        const auto found = live_.find(id);
        if (found == live_.end()) return nullptr;
        std::unique_ptr<GpuResource> taken = std::move(found->second);
        live_.erase(found);
        return taken;
    }
    void retire(std::unique_ptr<GpuResource> pool) {
        const ObjectId id = pool->info.id;
        retired_[id] = std::move(pool);
    }
    // Retired pools no live resource's tile maps any more, out of the table.
    std::vector<std::unique_ptr<GpuResource>> take_unmapped_retired();
    bool has_retired() const { return !retired_.empty(); }
    // Every resource, retired pools included (the device's end).
    template <class Visit>
    void each(Visit visit) {
        for (auto& [id, resource] : live_) visit(*resource);
        for (auto& [id, resource] : retired_) visit(*resource);
    }

  private:
    std::unordered_map<ObjectId, std::unique_ptr<GpuResource>> live_, retired_;
};

}  // namespace d3dcap::runtime::backend::vulkan
