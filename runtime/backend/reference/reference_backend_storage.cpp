// Where the reference backend keeps each byte: the walk from (subresource,
// element) to private, pool or mapped tiles.
#include <algorithm>
#include <cstring>
#include <new>

#include "runtime/backend/reference/reference_backend.h"
#include "runtime/backend/subresource_layout.h"
#include "runtime/formats/formats.h"

namespace d3dcap::runtime::backend::reference {
namespace {

bool is_buffer(const ResourceInfo& info) {
    return info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER || info.tile_pool();
}

}  // namespace

ZeroedBytes allocate_zeroed(std::uint64_t bytes) {
    void* memory = std::calloc(std::max<std::uint64_t>(1, bytes), 1);
    if (memory == nullptr) throw std::bad_alloc();
    return ZeroedBytes(static_cast<std::uint8_t*>(memory));
}

SubresourceAccess::SubresourceAccess(ReferenceBackend& backend, Resource& resource,
                                     std::uint32_t subresource)
    : backend_(backend), resource_(resource), layout_(layout_of(resource.info, subresource)) {
    if (!resource.tiled() || is_buffer(resource.info)) return;
    const tiles::ResourceTiling& tiling = resource.tiling;
    if (layout_.mip < tiling.packed.NumStandardMips) {
        tile_width_ = std::max<std::uint32_t>(1, tiling.shape.WidthInTexels / layout_.block_width);
        tile_height_ =
            std::max<std::uint32_t>(1, tiling.shape.HeightInTexels / layout_.block_height);
        tile_depth_ = std::max<std::uint32_t>(1, tiling.shape.DepthInTexels);
        return;
    }
    packed_ = true;
    const std::uint32_t first_of_slice = layout_.slice * resource.mip_levels;
    for (std::uint32_t mip = tiling.packed.NumStandardMips; mip < layout_.mip; ++mip) {
        packed_offset_ += layout_of(resource.info, first_of_slice + mip).bytes();
    }
}

std::uint8_t* SubresourceAccess::tile_bytes(std::uint32_t tile, bool writing) {
    if (tile == cached_tile_ && (cached_bytes_ != nullptr || !writing)) return cached_bytes_;
    std::uint8_t* bytes = nullptr;
    if (resource_.pool()) {
        bytes = backend_.pool_tile(resource_.info.id, tile, writing);
    } else if (const tiles::TileState* state = backend_.tile_state(); state != nullptr) {
        const tiles::TileMapping mapping = state->mapping(resource_.info.id, tile);
        if (mapping.pool != 0 && mapping.pool_tile != tiles::kNullTile) {
            bytes = backend_.pool_tile(mapping.pool, mapping.pool_tile, writing);
        }
    }
    cached_tile_ = tile;
    cached_bytes_ = bytes;
    return bytes;
}

SubresourceAccess::Run SubresourceAccess::locate(std::uint64_t offset, std::uint32_t y,
                                                 std::uint32_t z, bool writing) {
    const std::uint64_t row_left = layout_.row_bytes() - offset;
    if (resource_.contiguous()) {
        const std::uint64_t start =
            resource_.subresource_offsets.at(layout_.mip + layout_.slice * resource_.mip_levels) +
            z * layout_.slice_bytes() + y * layout_.row_bytes() + offset;
        return Run{resource_.bytes.get() + start, row_left};
    }
    std::uint32_t tile = 0;
    std::uint64_t in_tile = 0, run = 0;
    if (is_buffer(resource_.info) || packed_) {
        // Byte streams: a buffer, a pool, or the packed mips of one slice.
        std::uint64_t position = offset;
        std::uint64_t first_tile = 0;
        if (packed_) {
            position += packed_offset_ + z * layout_.slice_bytes() + y * layout_.row_bytes();
            first_tile = resource_.tiling.packed_start(layout_.slice);
            if (position / kTileBytes >= resource_.tiling.packed.NumTilesForPackedMips) {
                return Run{nullptr, row_left};  // past the packed tiles: nothing backs it
            }
        }
        tile = static_cast<std::uint32_t>(first_tile + position / kTileBytes);
        in_tile = position % kTileBytes;
        run = std::min<std::uint64_t>(kTileBytes - in_tile, row_left);
    } else {
        const std::uint32_t eb = layout_.element_bytes;
        const auto x = static_cast<std::uint32_t>(offset / eb);
        const std::uint64_t within = offset % eb;
        const D3D11_SUBRESOURCE_TILING& sub =
            resource_.tiling.subresources.at(layout_.mip + layout_.slice * resource_.mip_levels);
        const std::uint32_t tx = x / tile_width_, ty = y / tile_height_, tz = z / tile_depth_;
        tile = sub.StartTileIndexInOverallResource + tx + ty * sub.WidthInTiles +
               tz * sub.WidthInTiles * std::uint32_t{sub.HeightInTiles};
        const std::uint32_t ix = x % tile_width_, iy = y % tile_height_, iz = z % tile_depth_;
        in_tile = ((std::uint64_t{iz} * tile_height_ + iy) * tile_width_ + ix) * eb + within;
        run = std::min<std::uint64_t>(std::uint64_t{tile_width_ - ix} * eb - within, row_left);
    }
    std::uint8_t* bytes = tile_bytes(tile, writing);
    return Run{bytes == nullptr ? nullptr : bytes + in_tile, run};
}

template <typename Visit>
void SubresourceAccess::walk(std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t count,
                             bool writing, Visit&& visit) {
    const std::uint64_t begin = std::uint64_t{x} * layout_.element_bytes;
    const std::uint64_t end = begin + std::uint64_t{count} * layout_.element_bytes;
    std::uint64_t done = 0;
    for (std::uint64_t offset = begin; offset < end;) {
        Run run = locate(offset, y, z, writing);
        const std::uint64_t size = std::min(run.bytes, end - offset);
        visit(run.data, done, size);
        done += size;
        offset += size;
    }
}

void SubresourceAccess::read(std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t count,
                             std::uint8_t* out) {
    walk(x, y, z, count, false,
         [out](const std::uint8_t* data, std::uint64_t at, std::uint64_t size) {
             if (data != nullptr) {
                 std::memcpy(out + at, data, size);
             } else {
                 std::memset(out + at, 0, size);  // a NULL tile reads zeros
             }
         });
}

void SubresourceAccess::write(std::uint32_t x, std::uint32_t y, std::uint32_t z,
                              std::uint32_t count, const std::uint8_t* in) {
    walk(x, y, z, count, true, [in](std::uint8_t* data, std::uint64_t at, std::uint64_t size) {
        if (data != nullptr) std::memcpy(data, in + at, size);  // a NULL tile drops the write
    });
}

void SubresourceAccess::read_all(std::uint8_t* out) {
    for (std::uint32_t z = 0; z < layout_.depth; ++z) {
        for (std::uint32_t y = 0; y < layout_.height; ++y) {
            read(0, y, z, layout_.width, out + z * layout_.slice_bytes() + y * layout_.row_bytes());
        }
    }
}

void SubresourceAccess::write_all(const std::uint8_t* in) {
    for (std::uint32_t z = 0; z < layout_.depth; ++z) {
        for (std::uint32_t y = 0; y < layout_.height; ++y) {
            write(0, y, z, layout_.width, in + z * layout_.slice_bytes() + y * layout_.row_bytes());
        }
    }
}

std::uint8_t* ReferenceBackend::pool_tile(ObjectId pool, std::uint32_t tile, bool writing) {
    Resource* storage = find(pool);
    if (storage == nullptr) {
        auto retired = retired_pools_.find(pool);
        if (retired == retired_pools_.end()) return nullptr;
        storage = retired->second.get();
    }
    if (!storage->pool()) return nullptr;
    std::vector<std::unique_ptr<std::uint8_t[]>>& tiles = storage->pool_tiles;
    if (tile >= tiles.size()) {
        if (!writing) return nullptr;
        tiles.resize(std::size_t{tile} + 1);
    }
    if (!tiles[tile] && writing) tiles[tile] = std::make_unique<std::uint8_t[]>(kTileBytes);
    return tiles[tile].get();
}

Resource* ReferenceBackend::find(ObjectId id) {
    auto found = resources_.find(id);
    return found == resources_.end() ? nullptr : found->second.get();
}

}  // namespace d3dcap::runtime::backend::reference
