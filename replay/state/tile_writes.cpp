#include "replay/state/tile_writes.h"

#include <d3dcap/api/call_dispatch.h>
#include <d3dcap/fb/trace_generated.h>

#include <algorithm>
#include <optional>

namespace d3dcap::state {

namespace {

using api::CallId;
using api::CallOf;

// A box in texels (bytes for buffers) of one subresource, half-open.
struct TexelBox {
    std::uint32_t left = 0, top = 0, front = 0;
    std::uint32_t right = UINT32_MAX, bottom = UINT32_MAX, back = UINT32_MAX;
};

TexelBox box_of(const fb::D3D11_BOX* box) {
    if (box == nullptr) return {};
    return {box->left(), box->top(), box->front(), box->right(), box->bottom(), box->back()};
}

// The tiles of subresource that a box of it touches; every packed tile of
// its slice for a packed mip.
std::vector<std::uint32_t> tiles_in_box(const tiles::ResourceTiling& tiling,
                                        std::uint32_t subresource, const TexelBox& box) {
    std::vector<std::uint32_t> out;
    if (subresource >= tiling.subresources.size() || box.left >= box.right ||
        box.top >= box.bottom || box.front >= box.back)
        return out;
    const D3D11_SUBRESOURCE_TILING& sub = tiling.subresources[subresource];
    if (sub.StartTileIndexInOverallResource == tiles::kPackedStart) {
        const std::uint32_t slice = subresource / std::max(1u, tiling.mip_levels);
        const std::uint32_t first = tiling.packed_start(slice);
        for (std::uint32_t i = 0; i < tiling.packed.NumTilesForPackedMips; ++i)
            out.push_back(first + i);
        return out;
    }
    const D3D11_TILE_SHAPE& shape = tiling.shape;
    const auto span = [](std::uint32_t from, std::uint32_t to, std::uint32_t tile,
                         std::uint32_t count, std::uint32_t& first, std::uint32_t& end) {
        tile = std::max(1u, tile);
        first = from / tile;
        end = static_cast<std::uint32_t>(
            std::min<std::uint64_t>(count, (std::uint64_t{to} + tile - 1) / tile));
    };
    std::uint32_t x0, x1, y0, y1, z0, z1;
    span(box.left, box.right, shape.WidthInTexels, sub.WidthInTiles, x0, x1);
    span(box.top, box.bottom, shape.HeightInTexels, sub.HeightInTiles, y0, y1);
    span(box.front, box.back, shape.DepthInTexels, sub.DepthInTiles, z0, z1);
    for (std::uint32_t z = z0; z < z1; ++z)
        for (std::uint32_t y = y0; y < y1; ++y)
            for (std::uint32_t x = x0; x < x1; ++x)
                out.push_back(sub.StartTileIndexInOverallResource + x +
                              (y + z * sub.HeightInTiles) * sub.WidthInTiles);
    return out;
}

D3D11_TILED_RESOURCE_COORDINATE coordinate_of(const fb::D3D11_TILED_RESOURCE_COORDINATE* c) {
    return c ? D3D11_TILED_RESOURCE_COORDINATE{c->x(), c->y(), c->z(), c->subresource()}
             : D3D11_TILED_RESOURCE_COORDINATE{};
}

D3D11_TILE_REGION_SIZE region_of(const fb::D3D11_TILE_REGION_SIZE* s) {
    return s ? D3D11_TILE_REGION_SIZE{s->num_tiles(), s->b_use_box() != 0, s->width(),
                                      static_cast<UINT16>(s->height()),
                                      static_cast<UINT16>(s->depth())}
             : D3D11_TILE_REGION_SIZE{};
}

// The tiles of a CopyTiles/UpdateTiles region, as the tile rules walk it.
std::vector<std::uint32_t> region_tiles(const tiles::TileState& state, tiles::ObjectId resource,
                                        const fb::D3D11_TILED_RESOURCE_COORDINATE* start,
                                        const fb::D3D11_TILE_REGION_SIZE* size) {
    std::vector<tiles::TileRef> refs;
    if (FAILED(state.region_tiles(resource, coordinate_of(start), region_of(size), refs, "",
                                  nullptr, tiles::TileState::RegionAccess::Write)))
        return {};
    std::vector<std::uint32_t> out;
    out.reserve(refs.size());
    for (const tiles::TileRef& ref : refs) out.push_back(ref.tile);
    return out;
}

}  // namespace

bool may_write_tiles(std::uint16_t call) {
    switch (static_cast<CallId>(call)) {
        case CallId::ID3D11DeviceContext2_UpdateTiles:
        case CallId::ID3D11DeviceContext2_CopyTiles:
        case CallId::ID3D11DeviceContext_UpdateSubresource:
        case CallId::ID3D11DeviceContext1_UpdateSubresource1:
        case CallId::ID3D11DeviceContext_CopySubresourceRegion:
        case CallId::ID3D11DeviceContext1_CopySubresourceRegion1:
        case CallId::ID3D11DeviceContext_CopyResource:
            return true;
        default:
            return false;
    }
}

std::vector<TileWrite> tiles_written(const fb::Record& record, const tiles::TileState& state) {
    const fb::RecordHeader* header = record.header();
    if (header == nullptr) return {};
    tiles::ObjectId resource = 0;
    std::vector<std::uint32_t> written;
    const auto whole_or_box = [&](std::uint64_t id, std::uint32_t subresource,
                                  const TexelBox& box) {
        resource = id;
        if (const tiles::ResourceTiling* tiling = state.tiling(id))
            written = tiles_in_box(*tiling, subresource, box);
    };
    switch (static_cast<CallId>(header->call())) {
        case CallId::ID3D11DeviceContext2_UpdateTiles:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext2_UpdateTiles>::get(record)) {
                resource = p->p_dest_tiled_resource();
                written = region_tiles(state, resource, p->p_dest_tile_region_start_coordinate(),
                                       p->p_dest_tile_region_size());
            }
            break;
        case CallId::ID3D11DeviceContext2_CopyTiles:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext2_CopyTiles>::get(record);
                p != nullptr &&
                (p->flags() & D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE)) {
                resource = p->p_tiled_resource();
                written = region_tiles(state, resource, p->p_tile_region_start_coordinate(),
                                       p->p_tile_region_size());
            }
            break;
        case CallId::ID3D11DeviceContext_UpdateSubresource:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext_UpdateSubresource>::get(record))
                whole_or_box(p->p_dst_resource(), p->dst_subresource(), box_of(p->p_dst_box()));
            break;
        case CallId::ID3D11DeviceContext1_UpdateSubresource1:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext1_UpdateSubresource1>::get(record))
                whole_or_box(p->p_dst_resource(), p->dst_subresource(), box_of(p->p_dst_box()));
            break;
        case CallId::ID3D11DeviceContext_CopySubresourceRegion:
        case CallId::ID3D11DeviceContext1_CopySubresourceRegion1: {
            // Both tables share the fields read here.
            const auto* p = static_cast<CallId>(header->call()) ==
                                    CallId::ID3D11DeviceContext_CopySubresourceRegion
                                ? CallOf<fb::ID3D11DeviceContext_CopySubresourceRegion>::get(record)
                                : nullptr;
            const auto* p1 =
                p ? nullptr : CallOf<fb::ID3D11DeviceContext1_CopySubresourceRegion1>::get(record);
            if (p == nullptr && p1 == nullptr) break;
            const fb::D3D11_BOX* source = p ? p->p_src_box() : p1->p_src_box();
            TexelBox box;
            box.left = p ? p->dst_x() : p1->dst_x();
            box.top = p ? p->dst_y() : p1->dst_y();
            box.front = p ? p->dst_z() : p1->dst_z();
            if (source != nullptr) {
                box.right =
                    box.left + (source->right() - std::min(source->left(), source->right()));
                box.bottom =
                    box.top + (source->bottom() - std::min(source->top(), source->bottom()));
                box.back = box.front + (source->back() - std::min(source->front(), source->back()));
            }
            whole_or_box(p ? p->p_dst_resource() : p1->p_dst_resource(),
                         p ? p->dst_subresource() : p1->dst_subresource(), box);
            break;
        }
        case CallId::ID3D11DeviceContext_CopyResource:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext_CopyResource>::get(record)) {
                resource = p->p_dst_resource();
                if (const tiles::ResourceTiling* tiling = state.tiling(resource)) {
                    for (std::uint32_t tile = 0; tile < tiling->total_tiles; ++tile)
                        written.push_back(tile);
                }
            }
            break;
        default:
            break;
    }
    if (written.empty()) return {};
    std::sort(written.begin(), written.end());
    written.erase(std::unique(written.begin(), written.end()), written.end());
    return {TileWrite{resource, std::move(written)}};
}

}  // namespace d3dcap::state
