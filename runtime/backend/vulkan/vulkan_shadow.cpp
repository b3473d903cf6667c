// Tiled resources on a GPU without sparse residency (lavapipe): each tiled
// resource is a dense image or buffer, its "shadow". The tile model knows
// which pool page backs each tile, so before a call uses the resource its
// shadow is brought up to date (tiles whose mapping or pool changed copied
// from their pages, NULL tiles zeroed), and after a call wrote it the tiles
// it may have written go back to their pages; NULL tiles then read zero
// again at the next use, so writes to them are dropped. Pool pages shared by
// several resources stay coherent at every use: a pool's version changes
// whenever its pages may have, and a shadow older than its pool is renewed.
// Packed mips move as the tile model's byte stream of their slice.
#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "runtime/backend/vulkan/vulkan_backend.h"

namespace d3dcap::runtime::backend::vulkan {
namespace {

constexpr std::uint64_t kTile = tiles::kTileBytes;
// A dense tile whose content is unknown (written while NULL): renewed at
// the next use.
constexpr ObjectId kStale = ~ObjectId{0};

}  // namespace

Operation::Operation(VulkanBackend& backend) : backend_(backend), lock_(backend.lock_calls()) {
    ++backend_.depth_;
}

Operation::~Operation() {
    if (--backend_.depth_ != 0) return;
    if (!backend_.written_.empty()) backend_.write_back_shadows();
    if (backend_.pages_.stale()) backend_.pages_.refresh();
    backend_.gpu_->end_step();
}

void VulkanBackend::wrote(GpuResource& resource, const std::vector<std::uint32_t>* tiles) {
    if (pages_.has_replicas()) pages_.written(resource, tiles);
    if (syncing_) return;
    if (resource.info.tile_pool()) {
        ++resource.version;
        return;
    }
    if (!resource.shadowed) return;
    if (std::find(written_.begin(), written_.end(), resource.info.id) == written_.end())
        written_.push_back(resource.info.id);
    if (tiles == nullptr) {
        resource.all_written = true;
    } else {
        resource.written.insert(resource.written.end(), tiles->begin(), tiles->end());
    }
}

void VulkanBackend::wrote_box(GpuResource& resource, std::uint32_t sub, const ElementBox& box) {
    // Sparse resources need the tiles only while pages have replicas.
    if (syncing_ || (!resource.shadowed && (!pages_.has_replicas() || resource.bound.empty()))) {
        wrote(resource);  // pools: their version
        return;
    }
    std::vector<std::uint32_t> touched;
    const tiles::ResourceTiling& tiling = resource.tiling;
    if (resource.is_buffer()) {
        for (std::uint64_t t = box.left / kTile; t * kTile < box.right; ++t)
            touched.push_back(static_cast<std::uint32_t>(t));
        wrote(resource, &touched);
        return;
    }
    if (sub >= tiling.subresources.size()) return;
    const D3D11_SUBRESOURCE_TILING& s = tiling.subresources[sub];
    if (s.StartTileIndexInOverallResource == D3D11_PACKED_TILE) {
        const std::uint32_t slice = sub / std::max<std::uint32_t>(1, tiling.mip_levels);
        for (std::uint32_t k = 0; k < tiling.packed.NumTilesForPackedMips; ++k)
            touched.push_back(tiling.packed_start(slice) + k);
        wrote(resource, &touched);
        return;
    }
    // The box in texels (BC elements are 4x4 blocks), then in tiles.
    const ImageStorage& storage = resource.storage;
    const std::uint32_t bw = storage.compressed ? 4 : 1;
    const D3D11_TILE_SHAPE& shape = tiling.shape;
    const std::uint32_t x0 = box.left * bw / shape.WidthInTexels,
                        x1 = (box.right * bw - 1) / shape.WidthInTexels;
    const std::uint32_t y0 = box.top * bw / shape.HeightInTexels,
                        y1 = (box.bottom * bw - 1) / shape.HeightInTexels;
    const std::uint32_t z0 = box.front / shape.DepthInTexels,
                        z1 = (box.back - 1) / shape.DepthInTexels;
    for (std::uint32_t z = z0; z <= z1 && z < s.DepthInTiles; ++z)
        for (std::uint32_t y = y0; y <= y1 && y < s.HeightInTiles; ++y)
            for (std::uint32_t x = x0; x <= x1 && x < s.WidthInTiles; ++x)
                touched.push_back(s.StartTileIndexInOverallResource +
                                  (z * s.HeightInTiles + y) * s.WidthInTiles + x);
    wrote(resource, &touched);
}

// Copies standard tiles between a shadow and pool pages (or the zero tile)
// on the GPU, waiting for them; returns the slices whose packed tiles were
// among them, which move through the host.
std::set<std::uint32_t> VulkanBackend::copy_pages(GpuResource& r,
                                                  const std::vector<PageCopy>& copies,
                                                  bool to_pages) {
    std::map<VkBuffer, std::vector<VkBufferImageCopy>> image_copies;
    std::map<VkBuffer, std::vector<VkBufferCopy>> buffer_copies;
    std::set<std::uint32_t> packed_slices;
    for (const PageCopy& copy : copies) {
        if (r.is_buffer()) {
            const std::uint64_t size = std::min(kTile, r.info.byte_width - copy.tile * kTile);
            const std::uint64_t at = std::uint64_t{copy.tile} * kTile;
            buffer_copies[copy.page].push_back(to_pages ? VkBufferCopy{at, copy.offset, size}
                                                        : VkBufferCopy{copy.offset, at, size});
            continue;
        }
        tiles::TileRef where;
        if (!tile_position(r, copy.tile, where)) continue;
        if (packed_tile(r, where)) {
            packed_slices.insert(where.subresource / r.tiling.mip_levels);
            continue;
        }
        image_copies[copy.page].push_back(tile_region(r, where, copy.offset));
    }
    const VkCommandBuffer commands = gpu_->commands();
    for (const auto& [page, regions] : buffer_copies) {
        const auto n = static_cast<std::uint32_t>(regions.size());
        if (to_pages)
            vkCmdCopyBuffer(commands, r.buffer, page, n, regions.data());
        else
            vkCmdCopyBuffer(commands, page, r.buffer, n, regions.data());
    }
    for (const auto& [page, regions] : image_copies) {
        const auto n = static_cast<std::uint32_t>(regions.size());
        if (to_pages)
            vkCmdCopyImageToBuffer(commands, r.image, VK_IMAGE_LAYOUT_GENERAL, page, n,
                                   regions.data());
        else
            vkCmdCopyBufferToImage(commands, page, r.image, VK_IMAGE_LAYOUT_GENERAL, n,
                                   regions.data());
    }
    gpu_->end_step();
    return packed_slices;
}

void VulkanBackend::sync_shadow(GpuResource& r) {
    if (!r.shadowed || tiles_ == nullptr || syncing_) return;
    const std::vector<tiles::TileMapping> now = tiles_->mappings(r.info.id);
    if (!zero_tile_) {
        zero_tile_ = std::make_unique<GpuResource>();
        zero_tile_->info.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
        zero_tile_->info.byte_width = kTile;
        create_buffer(*zero_tile_);
    }
    std::vector<PageCopy> copies;
    std::uint64_t pool_version = r.synced_version;
    const std::uint32_t count = static_cast<std::uint32_t>(std::min(now.size(), r.bound.size()));
    for (std::uint32_t t = 0; t < count; ++t) {
        const tiles::TileMapping& m = now[t];
        tiles::TileMapping& held = r.bound[t];
        PageCopy copy{t, zero_tile_->buffer, 0};
        std::uint64_t version = 0;
        if (m.pool != 0 &&
            !pages_.page_buffer(m.pool, m.pool_tile, copy.page, copy.offset, version)) {
            copy.page = zero_tile_->buffer;  // a page past the pool's end reads zero
            copy.offset = 0;
        }
        const bool same = m.pool == held.pool && m.pool_tile == held.pool_tile;
        if (same && (m.pool == 0 || version == r.synced_version)) continue;
        if (m.pool != 0) pool_version = version;
        held = m;
        copies.push_back(copy);
    }
    syncing_ = true;
    const std::set<std::uint32_t> packed_slices = copy_pages(r, copies, false);
    for (std::uint32_t slice : packed_slices) {
        // The slice's packed tiles as one stream, then each packed mip from it.
        const tiles::ResourceTiling& tiling = r.tiling;
        std::vector<std::uint8_t> stream(std::uint64_t{tiling.packed.NumTilesForPackedMips} * kTile,
                                         0);
        for (std::uint32_t k = 0; k < tiling.packed.NumTilesForPackedMips; ++k) {
            const tiles::TileMapping& m = r.bound[tiling.packed_start(slice) + k];
            GpuResource* pool = m.pool != 0 ? find(m.pool) : nullptr;
            if (pool == nullptr) continue;
            const ElementBox page{static_cast<std::uint32_t>(m.pool_tile * kTile),       0, 0,
                                  static_cast<std::uint32_t>((m.pool_tile + 1) * kTile), 1, 1};
            const std::vector<std::uint8_t> bytes = download_box(*pool, 0, page);
            std::memcpy(stream.data() + k * kTile, bytes.data(), std::min(bytes.size(), kTile));
        }
        std::uint64_t at = 0;
        for (std::uint32_t mip = tiling.packed.NumStandardMips; mip < tiling.mip_levels; ++mip) {
            const std::uint32_t sub = slice * tiling.mip_levels + mip;
            const SubresourceLayout layout = layout_of(r.info, sub);
            const std::uint64_t size = layout.slice_bytes() * layout.depth;
            if (at + size > stream.size()) break;
            upload_box(r, sub, element_box(layout, nullptr), stream.data() + at, layout.row_bytes(),
                       layout.slice_bytes());
            at += size;
        }
    }
    syncing_ = false;
    r.synced_version = pool_version;
}

void VulkanBackend::write_back(GpuResource& r) {
    std::vector<std::uint32_t> tiles = std::move(r.written);
    r.written.clear();
    if (r.all_written) {
        tiles.resize(r.bound.size());
        for (std::uint32_t t = 0; t < tiles.size(); ++t) tiles[t] = t;
    }
    r.all_written = false;
    std::sort(tiles.begin(), tiles.end());
    tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
    std::vector<PageCopy> copies;
    std::set<std::pair<ObjectId, std::uint32_t>> pages;
    std::set<ObjectId> pools;
    bool shared_page = false;
    for (std::uint32_t t : tiles) {
        if (t >= r.bound.size()) continue;
        tiles::TileMapping& held = r.bound[t];
        if (held.pool == 0 || held.pool == kStale) {
            held.pool = kStale;  // a dropped write: zero again at the next use
            continue;
        }
        PageCopy copy{t, VK_NULL_HANDLE, 0};
        std::uint64_t version = 0;
        if (!pages_.page_buffer(held.pool, held.pool_tile, copy.page, copy.offset, version))
            continue;
        shared_page |= !pages.emplace(held.pool, held.pool_tile).second;
        pools.insert(held.pool);
        copies.push_back(copy);
    }
    // Tiles the call did not write that map a written page hold its old bytes.
    for (std::uint32_t t = 0; t < r.bound.size() && !shared_page && !pages.empty(); ++t) {
        const tiles::TileMapping& held = r.bound[t];
        shared_page = pages.count({held.pool, held.pool_tile}) != 0 &&
                      !std::binary_search(tiles.begin(), tiles.end(), t);
    }
    syncing_ = true;
    const std::set<std::uint32_t> packed_slices = copy_pages(r, copies, true);
    for (std::uint32_t slice : packed_slices) {
        const std::vector<std::uint8_t> stream = packed_stream(r, slice);
        for (std::uint32_t k = 0; k < r.tiling.packed.NumTilesForPackedMips; ++k) {
            const tiles::TileMapping& m = r.bound[r.tiling.packed_start(slice) + k];
            GpuResource* pool = m.pool != 0 && m.pool != kStale ? find(m.pool) : nullptr;
            if (pool == nullptr) continue;
            const ElementBox page{static_cast<std::uint32_t>(m.pool_tile * kTile),       0, 0,
                                  static_cast<std::uint32_t>((m.pool_tile + 1) * kTile), 1, 1};
            upload_box(*pool, 0, page, stream.data() + k * kTile, kTile, kTile);
        }
    }
    syncing_ = false;
    // The pools changed; this shadow is their latest content unless two of
    // its tiles share a written page (the last written wins there, and the
    // others are copied from it at the next use).
    std::uint64_t version = 0;
    for (ObjectId id : pools) {
        if (GpuResource* pool = resources_.pool(id)) version = ++pool->version;
    }
    if (!shared_page && pools.size() == 1) r.synced_version = version;
}

void VulkanBackend::write_back_shadows() {
    gpu_->end_step();  // after the call's own work
    std::vector<ObjectId> written = std::move(written_);
    written_.clear();
    for (ObjectId id : written)
        if (GpuResource* resource = find(id)) write_back(*resource);
}

}  // namespace d3dcap::runtime::backend::vulkan
