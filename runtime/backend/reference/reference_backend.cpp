// The CPU reference device: resource lifetime, tile pools, Map, offers, and
// the tile-level copies. See reference_backend.h for where bytes live.
#include "runtime/backend/reference/reference_backend.h"

#include <algorithm>
#include <cstring>
#include <new>

#include "runtime/backend/subresource_layout.h"

namespace d3dcap::runtime::backend::reference {
namespace {

bool map_writes(D3D11_MAP type) {
    return type != D3D11_MAP_READ;
}

std::uint64_t tiles_for(std::uint64_t bytes) {
    return (bytes + kTileBytes - 1) / kTileBytes;
}

}  // namespace

HRESULT ReferenceBackend::create_resource(const ResourceInfo& info,
                                          const D3D11_SUBRESOURCE_DATA* initial) {
    std::lock_guard lock(mutex_);
    try {
        auto resource = std::make_unique<Resource>();
        resource->info = info;
        resource->mip_levels = mip_levels_of(info);
        if (resource->pool()) {
            resource->pool_size_tiles = tiles_for(info.byte_width);
            resource->pool_tiles.resize(resource->pool_size_tiles);
        } else if (resource->tiled()) {
            // Tiled resources take no initial data and start with every tile NULL.
            tiles::ResourceShape shape{.dimension = info.dimension,
                                       .byte_width = info.byte_width,
                                       .width = info.width,
                                       .height = info.height,
                                       .depth = info.depth,
                                       .mip_levels = resource->mip_levels,
                                       .array_size = info.array_size,
                                       .format = info.format,
                                       .sample_count = info.sample_count};
            const HRESULT result = tiles::compute_tiling(shape, resource->tiling, nullptr);
            if (FAILED(result)) return result;
        } else {
            const std::uint32_t count =
                resource->mip_levels * std::max<std::uint32_t>(1, info.array_size);
            std::uint64_t offset = 0;
            resource->subresource_offsets.reserve(count);
            for (std::uint32_t sub = 0; sub < count; ++sub) {
                resource->subresource_offsets.push_back(offset);
                offset += layout_of(info, sub).bytes();
            }
            resource->byte_size = std::max<std::uint64_t>(1, tiles_for(offset)) * kTileBytes;
            resource->bytes = allocate_zeroed(resource->byte_size);
        }
        Resource& created = *resource;
        resources_[info.id] = std::move(resource);
        if (initial == nullptr || created.tiled()) return S_OK;

        const std::uint32_t count =
            created.pool() ? 1 : created.mip_levels * std::max<std::uint32_t>(1, info.array_size);
        for (std::uint32_t sub = 0; sub < count; ++sub) {
            const D3D11_SUBRESOURCE_DATA& data = initial[sub];
            if (data.pSysMem == nullptr) continue;
            SubresourceAccess access(*this, created, sub);
            const SubresourceLayout& layout = access.layout();
            const std::uint64_t row_pitch =
                data.SysMemPitch != 0 ? data.SysMemPitch : layout.row_bytes();
            const std::uint64_t slice_pitch =
                data.SysMemSlicePitch != 0 ? data.SysMemSlicePitch : row_pitch * layout.height;
            const auto* source = static_cast<const std::uint8_t*>(data.pSysMem);
            for (std::uint32_t z = 0; z < layout.depth; ++z) {
                for (std::uint32_t y = 0; y < layout.height; ++y) {
                    access.write(0, y, z, layout.width, source + z * slice_pitch + y * row_pitch);
                }
            }
        }
        return S_OK;
    } catch (const std::bad_alloc&) {
        resources_.erase(info.id);
        return E_OUTOFMEMORY;
    }
}

void ReferenceBackend::destroy_resource(ObjectId id) {
    std::lock_guard lock(mutex_);
    auto found = resources_.find(id);
    if (found == resources_.end()) return;
    // A pool's memory outlives the pool while tiled resources still map it.
    if (found->second->pool() && tiles_ != nullptr) retired_pools_[id] = std::move(found->second);
    resources_.erase(found);
    forget_unused_pools();
}

void ReferenceBackend::forget_unused_pools() {
    for (auto pool = retired_pools_.begin(); pool != retired_pools_.end();) {
        bool mapped = false;
        if (tiles_ != nullptr) {
            for (ObjectId resource : tiles_->tiled_resources()) {
                if (tiles_->pool_of(resource) == pool->first) {
                    mapped = true;
                    break;
                }
            }
        }
        pool = mapped ? std::next(pool) : retired_pools_.erase(pool);
    }
}

void ReferenceBackend::resize_tile_pool(ObjectId id, std::uint64_t new_byte_width) {
    std::lock_guard lock(mutex_);
    Resource* pool = find(id);
    if (pool == nullptr || !pool->pool()) return;
    const std::uint64_t new_tiles = tiles_for(new_byte_width);
    auto& tiles = pool->pool_tiles;
    // Growing keeps (and reuses) tiles kept past the end by an earlier shrink.
    if (tiles.size() < new_tiles) tiles.resize(new_tiles);
    // Shrinking frees the tiles past the end that no mapping uses; mapped ones stay alive.
    if (tiles.size() > new_tiles) {
        std::vector<bool> mapped(tiles.size(), false);
        if (tiles_ != nullptr) {
            for (std::uint32_t tile : tiles_->referenced_pool_tiles(id)) {
                if (tile < mapped.size()) mapped[tile] = true;
            }
        }
        for (std::uint64_t tile = new_tiles; tile < tiles.size(); ++tile) {
            if (!mapped[tile]) tiles[tile].reset();
        }
    }
    std::size_t keep = tiles.size();
    while (keep > new_tiles && !tiles[keep - 1]) --keep;
    tiles.resize(keep);
    pool->pool_size_tiles = new_tiles;
    pool->info.byte_width = new_byte_width;
}

HRESULT ReferenceBackend::map(ObjectId id, std::uint32_t subresource, D3D11_MAP type,
                              D3D11_MAPPED_SUBRESOURCE* mapped) {
    std::lock_guard lock(mutex_);
    Resource* resource = find(id);
    if (resource == nullptr || mapped == nullptr) return E_INVALIDARG;
    const std::uint32_t count =
        resource->contiguous()
            ? static_cast<std::uint32_t>(resource->subresource_offsets.size())
            : resource->mip_levels * std::max<std::uint32_t>(1, resource->info.array_size);
    if (subresource >= count) return E_INVALIDARG;
    const SubresourceLayout layout = layout_of(resource->info, subresource);
    mapped->RowPitch = static_cast<UINT>(layout.row_bytes());
    mapped->DepthPitch = static_cast<UINT>(layout.slice_bytes());
    if (resource->contiguous()) {
        // WRITE_DISCARD hands back the old bytes: undefined to the app, deterministic here.
        mapped->pData = resource->bytes.get() + resource->subresource_offsets.at(subresource);
        return S_OK;
    }
    try {
        // Bytes spread over tiles: a staging copy, written back at Unmap.
        std::vector<std::uint8_t>& staging = resource->staging[subresource];
        staging.resize(layout.bytes());
        SubresourceAccess(*this, *resource, subresource).read_all(staging.data());
        resource->map_types[subresource] = type;
        mapped->pData = staging.data();
        return S_OK;
    } catch (const std::bad_alloc&) {
        resource->staging.erase(subresource);
        return E_OUTOFMEMORY;
    }
}

void ReferenceBackend::unmap(ObjectId id, std::uint32_t subresource) {
    std::lock_guard lock(mutex_);
    Resource* resource = find(id);
    if (resource == nullptr) return;
    auto staging = resource->staging.find(subresource);
    if (staging == resource->staging.end()) return;
    if (map_writes(resource->map_types[subresource])) {
        SubresourceAccess(*this, *resource, subresource).write_all(staging->second.data());
    }
    resource->staging.erase(staging);
    resource->map_types.erase(subresource);
}

void ReferenceBackend::fill_resource(Resource& resource, std::uint8_t value) {
    if (resource.contiguous()) {
        std::memset(resource.bytes.get(), value, resource.byte_size);
    } else if (resource.pool()) {
        for (std::uint64_t tile = 0; tile < resource.pool_size_tiles; ++tile) {
            std::uint8_t* bytes =
                pool_tile(resource.info.id, static_cast<std::uint32_t>(tile), true);
            std::memset(bytes, value, kTileBytes);
        }
    }
}

// The reference device always discards offered contents: Offer fills the
// resource with the poison pattern (0xDD) and Reclaim reports the discard.
// A tiled resource has no memory of its own to offer (its pool's tiles may be
// shared), so offering one changes nothing and Reclaim reports false.
void ReferenceBackend::offer(ObjectId id) {
    std::lock_guard lock(mutex_);
    Resource* resource = find(id);
    if (resource == nullptr) return;
    resource->offered = true;
    if (!resource->tiled()) fill_resource(*resource, kPoisonByte);
}

bool ReferenceBackend::reclaim(ObjectId id) {
    std::lock_guard lock(mutex_);
    Resource* resource = find(id);
    if (resource == nullptr) return false;
    const bool discarded = resource->offered && !resource->tiled();
    resource->offered = false;
    return discarded;
}

void ReferenceBackend::read_bytes(Resource& resource, std::uint64_t offset, std::uint64_t size,
                                  std::uint8_t* out) {
    SubresourceAccess access(*this, resource, 0);
    const std::uint64_t width = access.layout().width;
    const std::uint64_t inside = offset >= width ? 0 : std::min(size, width - offset);
    if (inside > 0) {
        access.read(static_cast<std::uint32_t>(offset), 0, 0, static_cast<std::uint32_t>(inside),
                    out);
    }
    std::memset(out + inside, 0, size - inside);  // past the end reads zeros
}

void ReferenceBackend::write_bytes(Resource& resource, std::uint64_t offset, std::uint64_t size,
                                   const std::uint8_t* in) {
    SubresourceAccess access(*this, resource, 0);
    const std::uint64_t width = access.layout().width;
    const std::uint64_t inside = offset >= width ? 0 : std::min(size, width - offset);
    if (inside > 0) {
        access.write(static_cast<std::uint32_t>(offset), 0, 0, static_cast<std::uint32_t>(inside),
                     in);
    }
}

// UpdateTiles: the app's memory holds each tile as 64 KiB in the tile's own
// layout, tiles in the order given. Several tiles mapping one pool tile: the
// later write wins (hardware leaves it undefined).
void ReferenceBackend::update_tiles(ObjectId resource, const std::vector<tiles::TileRef>& refs,
                                    const void* data) {
    std::lock_guard lock(mutex_);
    if (tiles_ == nullptr || data == nullptr) return;
    const auto* source = static_cast<const std::uint8_t*>(data);
    for (std::size_t index = 0; index < refs.size(); ++index) {
        const tiles::TileMapping mapping = tiles_->mapping(resource, refs[index].tile);
        if (mapping.pool == 0 || mapping.pool_tile == tiles::kNullTile) continue;  // dropped
        std::uint8_t* bytes = pool_tile(mapping.pool, mapping.pool_tile, true);
        if (bytes != nullptr) std::memcpy(bytes, source + index * kTileBytes, kTileBytes);
    }
}

// CopyTiles: the buffer holds tile i of the list at buffer_offset + i * 64 KiB.
void ReferenceBackend::copy_tiles(ObjectId resource, const std::vector<tiles::TileRef>& refs,
                                  ObjectId buffer_id, std::uint64_t buffer_offset,
                                  std::uint32_t flags) {
    std::lock_guard lock(mutex_);
    Resource* buffer = find(buffer_id);
    if (tiles_ == nullptr || buffer == nullptr) return;
    const bool to_tiles = flags & D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE;
    const bool to_buffer = flags & D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER;
    if (to_tiles == to_buffer) return;  // exactly one direction (validated by the caller)
    std::vector<std::uint8_t> tile(kTileBytes);
    for (std::size_t index = 0; index < refs.size(); ++index) {
        const std::uint64_t at = buffer_offset + index * kTileBytes;
        const tiles::TileMapping mapping = tiles_->mapping(resource, refs[index].tile);
        const bool mapped = mapping.pool != 0 && mapping.pool_tile != tiles::kNullTile;
        if (to_tiles) {
            if (!mapped) continue;  // writes to NULL tiles are dropped
            read_bytes(*buffer, at, kTileBytes, tile.data());
            std::uint8_t* bytes = pool_tile(mapping.pool, mapping.pool_tile, true);
            if (bytes != nullptr) std::memcpy(bytes, tile.data(), kTileBytes);
        } else {
            const std::uint8_t* bytes =
                mapped ? pool_tile(mapping.pool, mapping.pool_tile, false) : nullptr;
            if (bytes != nullptr) {
                std::memcpy(tile.data(), bytes, kTileBytes);
            } else {
                std::fill(tile.begin(), tile.end(), std::uint8_t{0});  // NULL tiles read zeros
            }
            write_bytes(*buffer, at, kTileBytes, tile.data());
        }
    }
}

std::uint32_t subresource_count(const Resource& resource) {
    return resource.info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER
               ? 1
               : resource.mip_levels * std::max<std::uint32_t>(1, resource.info.array_size);
}

bool ReferenceBackend::read_subresource(ObjectId id, std::uint32_t subresource,
                                        std::vector<std::uint8_t>& bytes) {
    std::lock_guard lock(mutex_);
    Resource* resource = find(id);
    if (resource == nullptr) return false;
    if (subresource >= subresource_count(*resource)) return false;
    SubresourceAccess access(*this, *resource, subresource);
    bytes.resize(access.layout().bytes());
    access.read_all(bytes.data());
    return true;
}

bool ReferenceBackend::read_subresource_window(ObjectId id, std::uint32_t subresource,
                                               const formats::ElementWindow& window,
                                               std::vector<std::uint8_t>& bytes) {
    std::lock_guard lock(mutex_);
    Resource* resource = find(id);
    if (resource == nullptr || subresource >= subresource_count(*resource)) return false;
    SubresourceAccess access(*this, *resource, subresource);
    const SubresourceLayout& layout = access.layout();
    if (window.step == 0 || window.width == 0 || window.height == 0 || window.x >= layout.width ||
        window.y >= layout.height || window.width > layout.width - window.x ||
        window.height > layout.height - window.y)
        return false;
    const std::uint64_t element = layout.element_bytes;
    bytes.resize(std::uint64_t{window.columns()} * window.rows() * layout.depth * element);
    std::uint8_t* out = bytes.data();
    // A sampled row is read whole, then every step-th element kept.
    std::vector<std::uint8_t> row(window.step == 1 ? 0 : window.width * element);
    for (std::uint32_t z = 0; z < layout.depth; ++z) {
        for (std::uint32_t y = window.y; y < window.y + window.height; y += window.step) {
            if (window.step == 1) {
                access.read(window.x, y, z, window.width, out);
                out += window.width * element;
                continue;
            }
            access.read(window.x, y, z, window.width, row.data());
            for (std::uint64_t x = 0; x < window.width; x += window.step, out += element)
                std::memcpy(out, row.data() + x * element, element);
        }
    }
    return true;
}

bool ReferenceBackend::read_subresource_pieces(ObjectId id, std::uint32_t subresource,
                                               const ByteSink& sink) {
    std::lock_guard lock(mutex_);
    Resource* resource = find(id);
    if (resource == nullptr || subresource >= subresource_count(*resource)) return false;
    SubresourceAccess access(*this, *resource, subresource);
    const SubresourceLayout& layout = access.layout();
    // About 1 MiB of whole rows at a time.
    const std::uint64_t row_bytes = layout.row_bytes();
    const std::uint32_t rows_per_piece = static_cast<std::uint32_t>(std::max<std::uint64_t>(
        1, (std::uint64_t{1} << 20) / std::max<std::uint64_t>(row_bytes, 1)));
    std::vector<std::uint8_t> piece(rows_per_piece * row_bytes);
    for (std::uint32_t z = 0; z < layout.depth; ++z) {
        for (std::uint32_t y = 0; y < layout.height; y += rows_per_piece) {
            const std::uint32_t rows = std::min(rows_per_piece, layout.height - y);
            for (std::uint32_t r = 0; r < rows; ++r)
                access.read(0, y + r, z, layout.width, piece.data() + r * row_bytes);
            sink(piece.data(), rows * row_bytes);
        }
    }
    return true;
}

}  // namespace d3dcap::runtime::backend::reference

namespace d3dcap::runtime::backend {

// Exported so that tests and tools linking libd3dcap can reach the backend.
__attribute__((visibility("default"))) std::unique_ptr<Backend> make_reference_backend() {
    return std::make_unique<reference::ReferenceBackend>();
}

}  // namespace d3dcap::runtime::backend
