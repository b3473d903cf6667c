// Tile pools' pages and the sparse binds of tiled resources on a GPU with
// sparse residency. A pool is VkDeviceMemory handed out in 64 KiB pages:
// one allocation for its first size and one more for each growth, so
// existing pages (and what maps them) never move; shrinking frees nothing,
// and growing again reuses those pages first, as the tile model says. A
// tiled resource is a sparse image or buffer; the tiles whose mapping
// changed in the tile model since they were last bound are bound again
// when GPU work needs them, coalesced into few bind entries (SparseBinder).
// Packed mips are bound through the image's mip tail, tile k of a slice's
// packed tiles at byte k * 64 KiB of the tail. Where many tiles of a
// resource map one page, they are bound to a replica of it
// (page_replicas.cpp). Internal to libd3dcap.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "runtime/backend/vulkan/gpu_context.h"
#include "runtime/backend/vulkan/gpu_resource.h"
#include "runtime/backend/vulkan/sparse_binder.h"

namespace d3dcap::runtime::backend::vulkan {

// Read-only copies of one pool page, laid out one after another, that tiles
// mapping that page are bound to instead of it, so that a run or box of such
// tiles (REUSE_SINGLE_TILE) is one bind entry, not one per tile. Buffers
// share byte copies. A GPU may keep image texels in pages in a form only
// images of that kind read back (compressed), so a texture's replica is its
// own, copied image to image: `source`, an image made like the texture with
// its first tile on the page, into the full tiles of mip 0 of `clone`,
// another such image, whose tiles are the copies.
struct PageReplica {
    PoolChunk copies;  // `tiles` copies of the page
    VkImage source = VK_NULL_HANDLE, clone = VK_NULL_HANDLE;
    std::vector<VkImageCopy> regions;  // source -> clone, one per copy
    std::uint64_t tiles_bound = 0;     // tiles bound to it
    bool stale = false;                // the page may have changed since it was copied
};
// A replica of a pool page for a texture (owner: its id) or for buffers (0).
struct ReplicaKey {
    ObjectId pool = 0;
    std::uint32_t page = 0;
    ObjectId owner = 0;
    auto operator<=>(const ReplicaKey&) const = default;
};

class TilePages {
  public:
    // Pool memory suits sparse images and buffers of `buffer_usage` where
    // the GPU binds tiles.
    TilePages(GpuContext& gpu, const ResourceTable& resources, VkBufferUsageFlags buffer_usage);
    TilePages(const TilePages&) = delete;
    TilePages& operator=(const TilePages&) = delete;
    void attach(const tiles::TileState* tiles) { tiles_ = tiles; }

    // Pool pages: `tiles` more of them for a pool (zeroed), their release
    // once work using them is done, and where a pool tile lives (false: a
    // tile past the pool's end, or a pool that is gone).
    bool grow(GpuResource& pool, std::uint64_t tiles);
    bool allocate(std::uint64_t pages, PoolChunk& chunk);
    void release(std::vector<PoolChunk> chunks);
    bool page_memory(ObjectId pool, std::uint32_t pool_tile, VkDeviceMemory& memory,
                     std::uint64_t& page) const;
    bool page_buffer(ObjectId pool, std::uint32_t pool_tile, VkBuffer& buffer,
                     std::uint64_t& offset, std::uint64_t& version) const;

    // Binds wait until GPU work uses the tiles: a tile remapped twice before
    // that is bound once (D3DCAP_VULKAN_BIND_PER_TILE=1, the baseline the
    // coalescer is measured against, binds at once, an entry per tile).
    void mappings_changed(GpuResource& resource);
    bool pending() const { return !pending_.empty(); }
    bool pending(ObjectId id) const { return !pending_.empty() && pending_.count(id) != 0; }
    // What changed in the resource's mapping since its last bind, bound;
    // the tiles the call is `writing` (where known) to their pages, never
    // to a replica that the write would make them leave at once.
    void bind_pending(GpuResource& resource, const std::vector<std::uint32_t>* writing = nullptr);
    void bind_all_pending();
    // A resource the program released: no bind waits for it, and the
    // replicas it alone was bound to go.
    void forget(GpuResource& resource);

    // Replicas. A write to these tiles of a resource (all of them when
    // null; a pool: any of its pages): tiles bound to a replica are bound
    // to their page first, so that the write reaches it, and the replicas
    // of pages it may change are marked stale.
    bool has_replicas() const { return !replicas_.empty(); }
    void written(GpuResource& resource, const std::vector<std::uint32_t>* tiles);
    // Stale replicas copied again from their pages, after the call's work.
    bool stale() const { return replicas_stale_; }
    void refresh();
    // The device's end: every replica released.
    void destroy();

  private:
    // One tile's memory: a pool page, a replica (uniform_pages > 0) or none.
    struct TileMemory {
        std::uint32_t tile = 0;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        std::uint64_t page = 0;
        std::uint32_t uniform_pages = 0;
    };
    // Binds tiles of one resource in one batch, coalesced (or one entry per
    // tile for the baseline).
    void bind_tiles(GpuResource& resource, const std::vector<TileMemory>& tiles);
    std::uint32_t sparse_memory_types(VkBufferUsageFlags buffer_usage) const;

    // The replica to bind `tiles` tiles of a resource mapping a pool page
    // to: an existing one, a new one where that many tiles are worth it, or
    // null.
    PageReplica* replica_for(const GpuResource& resource, const tiles::TileMapping& page,
                             std::uint64_t tiles);
    bool make_image_replica(const GpuResource& resource, const tiles::TileMapping& page,
                            std::uint64_t copies, PageReplica& replica);
    void record_refill(const ReplicaKey& key, const PageReplica& replica);
    void release_replica(PageReplica& replica);
    // A tile leaves its replica; replicas no tile is bound to are released
    // by release_unbound_replicas, after the binds that left them.
    void leave_replica(GpuResource& resource, std::uint32_t tile);
    void release_unbound_replicas();

    GpuContext& gpu_;
    const ResourceTable& resources_;
    const tiles::TileState* tiles_ = nullptr;
    SparseBinder binder_;
    bool per_tile_binds_ = false;
    std::uint32_t memory_types_ = ~0u;  // types sparse images and buffers can bind
    std::set<ObjectId> pending_;        // resources whose mappings changed since their last bind
    // Page replicas by (pool, pool tile); the generation bumped whenever
    // one is made.
    std::map<ReplicaKey, PageReplica> replicas_;
    std::uint64_t replica_generation_ = 1;
    std::uint64_t replica_pages_ = 0;  // pages all replicas hold
    bool replicas_stale_ = false;
};

// Where tiles lie in a tiled texture. Overall tile `tile` (subresource, and
// x, y, z in tiles, or x = index among the slice's packed tiles); whether a
// tile is a packed one; the image region of a standard tile, its rows
// pitched at the full tile width.
bool tile_position(const GpuResource& resource, std::uint32_t tile, tiles::TileRef& where);
bool packed_tile(const GpuResource& resource, const tiles::TileRef& tile);
bool packed_index(const GpuResource& resource, std::uint32_t tile);
VkBufferImageCopy tile_region(const GpuResource& resource, const tiles::TileRef& tile,
                              VkDeviceSize buffer_offset);

}  // namespace d3dcap::runtime::backend::vulkan
