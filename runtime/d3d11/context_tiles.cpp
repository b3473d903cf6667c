// The tiled-resource calls of ID3D11DeviceContext2. The rules live in the
// device's tiles::TileState (the one implementation); this file resolves
// objects to ids, records deferred calls, and moves tile data through the
// backend.
#include <optional>

#include "runtime/d3d11/context.h"
#include "runtime/d3d11/device.h"

namespace d3dcap::runtime::d3d11 {

namespace {

// A copy of an optional input array (NULL stays NULL).
template <class T>
std::optional<std::vector<T>> copy_array(const T* values, UINT count) {
    if (!values) return std::nullopt;
    return std::vector<T>(values, values + count);
}

template <class T>
const T* data_of(const std::optional<std::vector<T>>& values) {
    return values ? values->data() : nullptr;
}

}  // namespace

HRESULT Context::UpdateTileMappings(ID3D11Resource* target, UINT region_count,
                                    const D3D11_TILED_RESOURCE_COORDINATE* starts,
                                    const D3D11_TILE_REGION_SIZE* sizes, ID3D11Buffer* pool,
                                    UINT range_count, const UINT* range_flags,
                                    const UINT* pool_offsets, const UINT* range_tile_counts,
                                    UINT flags) {
    const char* call = "ID3D11DeviceContext2::UpdateTileMappings";
    Resource* resource = to_resource(target);
    if (!resource) {
        log().error(call, "pTiledResource", "is NULL or not a resource of this runtime");
        return E_INVALIDARG;
    }
    Buffer* pool_buffer = to_buffer(pool);
    if (deferred_) {
        // Checked against the tile state when the command list runs.
        if (flags & ~UINT{D3D11_TILE_MAPPING_NO_OVERWRITE}) {
            log().error(call, "Flags", hex(flags) + " has bits other than NO_OVERWRITE");
            return E_INVALIDARG;
        }
        record([ref = Ref<Resource>(resource), region_count,
                starts_copy = copy_array(starts, region_count),
                sizes_copy = copy_array(sizes, region_count), pool_ref = Ref<Buffer>(pool_buffer),
                range_count, flags_copy = copy_array(range_flags, range_count),
                offsets_copy = copy_array(pool_offsets, range_count),
                counts_copy = copy_array(range_tile_counts, range_count), flags](Context& context) {
            context.UpdateTileMappings(ref->d3d(), region_count, data_of(starts_copy),
                                       data_of(sizes_copy), pool_ref.get(), range_count,
                                       data_of(flags_copy), data_of(offsets_copy),
                                       data_of(counts_copy), flags);
        });
        return S_OK;
    }
    auto guard = device().lock();
    const HRESULT hr = device().tiles().update_tile_mappings(
        resource->id(), region_count, starts, sizes, pool_buffer ? pool_buffer->id() : 0,
        range_count, range_flags, pool_offsets, range_tile_counts, flags, &log());
    if (SUCCEEDED(hr)) device().backend().tile_mappings_changed(resource->id(), flags);
    return hr;
}

HRESULT Context::CopyTileMappings(ID3D11Resource* dst_resource,
                                  const D3D11_TILED_RESOURCE_COORDINATE* dst_start,
                                  ID3D11Resource* src_resource,
                                  const D3D11_TILED_RESOURCE_COORDINATE* src_start,
                                  const D3D11_TILE_REGION_SIZE* size, UINT flags) {
    const char* call = "ID3D11DeviceContext2::CopyTileMappings";
    Resource* dst = to_resource(dst_resource);
    Resource* src = to_resource(src_resource);
    if (!dst || !src) {
        log().error(call, dst ? "pSourceTiledResource" : "pDestTiledResource",
                    "is NULL or not a resource of this runtime");
        return E_INVALIDARG;
    }
    if (!dst_start || !src_start || !size) {
        log().error(call,
                    !dst_start   ? "pDestRegionStartCoordinate"
                    : !src_start ? "pSourceRegionStartCoordinate"
                                 : "pTileRegionSize",
                    "is NULL");
        return E_INVALIDARG;
    }
    if (deferred_) {
        if (flags & ~UINT{D3D11_TILE_MAPPING_NO_OVERWRITE}) {
            log().error(call, "Flags", hex(flags) + " has bits other than NO_OVERWRITE");
            return E_INVALIDARG;
        }
        record([dref = Ref<Resource>(dst), sref = Ref<Resource>(src), d = *dst_start,
                s = *src_start, extent = *size, flags](Context& context) {
            context.CopyTileMappings(dref->d3d(), &d, sref->d3d(), &s, &extent, flags);
        });
        return S_OK;
    }
    auto guard = device().lock();
    const HRESULT hr = device().tiles().copy_tile_mappings(dst->id(), *dst_start, src->id(),
                                                           *src_start, *size, flags, &log());
    if (SUCCEEDED(hr)) device().backend().tile_mappings_changed(dst->id(), flags);
    return hr;
}

HRESULT Context::ResizeTilePool(ID3D11Buffer* pool, UINT64 new_size) {
    const char* call = "ID3D11DeviceContext2::ResizeTilePool";
    Buffer* buffer = to_buffer(pool);
    if (!buffer) {
        log().error(call, "pTilePool", "is NULL");
        return E_INVALIDARG;
    }
    if (deferred_) {
        if (new_size % tiles::kTileBytes) {
            log().error(call, "NewSizeInBytes",
                        std::to_string(new_size) + " is not a multiple of 65536");
            return E_INVALIDARG;
        }
        record([ref = Ref<Buffer>(buffer), new_size](Context& context) {
            context.ResizeTilePool(ref.get(), new_size);
        });
        return S_OK;
    }
    auto guard = device().lock();
    const HRESULT hr = device().tiles().resize_tile_pool(buffer->id(), new_size, &log());
    if (FAILED(hr)) return hr;
    device().backend().resize_tile_pool(buffer->id(), new_size);
    // GetDesc reports the pool's current size.
    buffer->set_byte_width(new_size);
    buffer->mutable_desc().ByteWidth = static_cast<UINT>(new_size);
    return hr;
}

void Context::CopyTiles(ID3D11Resource* target, const D3D11_TILED_RESOURCE_COORDINATE* start,
                        const D3D11_TILE_REGION_SIZE* size, ID3D11Buffer* linear,
                        UINT64 buffer_offset, UINT flags) {
    const char* call = "ID3D11DeviceContext2::CopyTiles";
    Resource* resource = to_resource(target);
    Buffer* buffer = to_buffer(linear);
    auto drop = [&](const char* parameter, const std::string& text) {
        log().error(call, parameter, text + "; dropped");
    };
    if (!resource) return drop("pTiledResource", "is NULL or not a resource of this runtime");
    if (!start || !size) {
        return drop(!start ? "pTileRegionStartCoordinate" : "pTileRegionSize", "is NULL");
    }
    if (!buffer) return drop("pBuffer", "is NULL");
    const UINT direction = flags & (D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE |
                                    D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
    if ((flags & ~UINT{D3D11_TILE_COPY_NO_OVERWRITE |
                       D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE |
                       D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER}) ||
        (direction != D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE &&
         direction != D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER)) {
        return drop("Flags", hex(flags) + " must name exactly one copy direction");
    }
    if (buffer->info().tiled() || buffer->info().tile_pool()) {
        return drop("pBuffer", "is a tiled resource or tile pool, not a linear buffer");
    }
    if (deferred_) {
        record([ref = Ref<Resource>(resource), s = *start, extent = *size,
                bref = Ref<Buffer>(buffer), buffer_offset, flags](Context& context) {
            context.CopyTiles(ref->d3d(), &s, &extent, bref.get(), buffer_offset, flags);
        });
        return;
    }
    if (predicated()) return;  // SetPredication skips it
    auto guard = device().lock();
    std::vector<tiles::TileRef> tile_list;
    const auto access = (flags & D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE)
                            ? tiles::TileState::RegionAccess::Write
                            : tiles::TileState::RegionAccess::Read;
    if (FAILED(device().tiles().region_tiles(resource->id(), *start, *size, tile_list, call, &log(),
                                             access))) {
        return;
    }
    const std::uint64_t bytes = std::uint64_t{tile_list.size()} * tiles::kTileBytes;
    if (buffer_offset > buffer->info().byte_width ||
        bytes > buffer->info().byte_width - buffer_offset) {
        return drop("BufferStartOffsetInBytes",
                    std::to_string(buffer_offset) + " + " + std::to_string(bytes) +
                        " bytes of tiles leave the " + std::to_string(buffer->info().byte_width) +
                        "-byte buffer");
    }
    device().backend().copy_tiles(resource->id(), tile_list, buffer->id(), buffer_offset, flags);
}

void Context::UpdateTiles(ID3D11Resource* target, const D3D11_TILED_RESOURCE_COORDINATE* start,
                          const D3D11_TILE_REGION_SIZE* size, const void* data, UINT flags) {
    const char* call = "ID3D11DeviceContext2::UpdateTiles";
    Resource* resource = to_resource(target);
    auto drop = [&](const char* parameter, const std::string& text) {
        log().error(call, parameter, text + "; dropped");
    };
    if (!resource) return drop("pDestTiledResource", "is NULL or not a resource of this runtime");
    if (!start || !size) {
        return drop(!start ? "pDestTileRegionStartCoordinate" : "pDestTileRegionSize", "is NULL");
    }
    if (!data) return drop("pSourceTileData", "is NULL");
    if (flags & ~UINT{D3D11_TILE_COPY_NO_OVERWRITE}) {
        return drop("Flags", hex(flags) + " has bits other than NO_OVERWRITE");
    }
    auto guard = device().lock();
    std::vector<tiles::TileRef> tile_list;
    if (FAILED(device().tiles().region_tiles(resource->id(), *start, *size, tile_list, call, &log(),
                                             tiles::TileState::RegionAccess::Write))) {
        return;
    }
    if (deferred_) {
        // The app may reuse its memory at once: keep a copy of the tiles.
        const auto* bytes = static_cast<const std::uint8_t*>(data);
        auto copy = std::make_shared<std::vector<std::uint8_t>>(
            bytes, bytes + tile_list.size() * std::size_t{tiles::kTileBytes});
        record([ref = Ref<Resource>(resource), s = *start, extent = *size, copy,
                flags](Context& context) {
            context.UpdateTiles(ref->d3d(), &s, &extent, copy->data(), flags);
        });
        return;
    }
    if (predicated()) return;  // SetPredication skips it
    device().backend().update_tiles(resource->id(), tile_list, data);
}

void Context::TiledResourceBarrier(ID3D11DeviceChild*, ID3D11DeviceChild*) {
    // The CPU devices run every call to completion in order: nothing to order.
}

}  // namespace d3dcap::runtime::d3d11
