#include "replay/state/tile_writes.h"

#include <d3dcap/api/call_dispatch.h>
#include <d3dcap/fb/trace_generated.h>

#include <algorithm>

#include "runtime/formats/formats.h"

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
std::vector<std::uint32_t> tiles_in_box(const runtime::tiles::ResourceTiling& tiling,
                                        std::uint32_t subresource, const TexelBox& box) {
    std::vector<std::uint32_t> out;
    if (subresource >= tiling.subresources.size() || box.left >= box.right ||
        box.top >= box.bottom || box.front >= box.back)
        return out;
    const D3D11_SUBRESOURCE_TILING& sub = tiling.subresources[subresource];
    if (sub.StartTileIndexInOverallResource == runtime::tiles::kPackedStart) {
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
std::vector<std::uint32_t> region_tiles(const runtime::tiles::TileState& state,
                                        runtime::tiles::ObjectId resource,
                                        const fb::D3D11_TILED_RESOURCE_COORDINATE* start,
                                        const fb::D3D11_TILE_REGION_SIZE* size) {
    std::vector<runtime::tiles::TileRef> refs;
    if (FAILED(state.region_tiles(resource, coordinate_of(start), region_of(size), refs, "",
                                  nullptr, runtime::tiles::TileState::RegionAccess::Write)))
        return {};
    std::vector<std::uint32_t> out;
    out.reserve(refs.size());
    for (const runtime::tiles::TileRef& ref : refs) out.push_back(ref.tile);
    return out;
}

// A copy's destination box: from (x, y, z), the source box's size, or to
// the end of the subresource without one.
TexelBox copy_box(std::uint32_t x, std::uint32_t y, std::uint32_t z, const fb::D3D11_BOX* source) {
    TexelBox box{x, y, z};
    if (source != nullptr) {
        box.right = x + (source->right() - std::min(source->left(), source->right()));
        box.bottom = y + (source->bottom() - std::min(source->top(), source->bottom()));
        box.back = z + (source->back() - std::min(source->front(), source->back()));
    }
    return box;
}

using ViewRange = TileWriteTracker::ViewRange;

// The members every view desc shares, read by dimension.
template <class Member>
void mip_of(ViewRange& range, const Member* m) {
    if (m) range.first_mip = m->mip_slice();
}
template <class Member>
void array_of(ViewRange& range, const Member* m) {
    if (!m) return;
    range.first_mip = m->mip_slice();
    range.first_slice = m->first_array_slice();
    range.slices = m->array_size();
}
template <class Member>
void ms_array_of(ViewRange& range, const Member* m) {
    if (!m) return;
    range.first_slice = m->first_array_slice();
    range.slices = m->array_size();
}
template <class Member>
void volume_of(ViewRange& range, const Member* m) {
    if (!m) return;
    range.first_mip = m->mip_slice();
    range.first_z = m->first_w_slice();
    range.depth = m->w_size();  // -1 (all) reads as UINT32_MAX
}

// A buffer view of elements of format (RAW: 4 bytes; structured: the whole buffer).
void buffer_of(ViewRange& range, std::uint32_t first, std::uint32_t count, DXGI_FORMAT format,
               bool raw) {
    range.buffer = true;
    const std::uint32_t bits = raw ? 32 : runtime::formats::info(format).bits_per_element;
    if (bits == 0 || bits % 8 != 0) {
        range.whole = true;
        return;
    }
    range.first_byte = std::uint64_t{first} * (bits / 8);
    range.bytes = std::uint64_t{count} * (bits / 8);
}

// What a view desc names, its dimension numbered as D3D11_RTV_DIMENSION
// (UAVs number theirs alike; a DSV's is one less); a NULL desc names mip 0
// of every slice. The members each desc has are read where it has them.
template <class Desc>
ViewRange range_of(std::uint64_t resource, const Desc* d, UINT dimension, bool raw = false) {
    ViewRange range{.resource = resource};
    if (d == nullptr) return range;
    switch (dimension) {
        case D3D11_RTV_DIMENSION_BUFFER:
            if constexpr (requires { d->buffer(); }) {
                if (d->buffer())
                    buffer_of(range, d->buffer()->first_element(), d->buffer()->num_elements(),
                              static_cast<DXGI_FORMAT>(d->format()), raw);
                return range;
            }
            break;
        case D3D11_RTV_DIMENSION_TEXTURE1D:
            mip_of(range, d->texture1_d());
            return range;
        case D3D11_RTV_DIMENSION_TEXTURE1DARRAY:
            array_of(range, d->texture1_d_array());
            return range;
        case D3D11_RTV_DIMENSION_TEXTURE2D:
            mip_of(range, d->texture2_d());
            return range;
        case D3D11_RTV_DIMENSION_TEXTURE2DARRAY:
            array_of(range, d->texture2_d_array());
            return range;
        case D3D11_RTV_DIMENSION_TEXTURE2DMS:
            range.slices = 1;
            return range;
        case D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY:
            if constexpr (requires { d->texture2_dms_array(); }) {
                ms_array_of(range, d->texture2_dms_array());
                return range;
            }
            break;
        case D3D11_RTV_DIMENSION_TEXTURE3D:
            if constexpr (requires { d->texture3_d(); }) {
                volume_of(range, d->texture3_d());
                return range;
            }
            break;
        default:
            break;
    }
    range.whole = true;
    return range;
}

ViewRange rtv_range(std::uint64_t resource, const fb::D3D11_RENDER_TARGET_VIEW_DESC* d) {
    return range_of(resource, d, d ? d->view_dimension() : 0);
}

ViewRange dsv_range(std::uint64_t resource, const fb::D3D11_DEPTH_STENCIL_VIEW_DESC* d) {
    return range_of(resource, d, d ? d->view_dimension() + 1 : 0);
}

ViewRange uav_range(std::uint64_t resource, const fb::D3D11_UNORDERED_ACCESS_VIEW_DESC* d) {
    static_assert(int{D3D11_UAV_DIMENSION_TEXTURE3D} == int{D3D11_RTV_DIMENSION_TEXTURE3D} &&
                  int{D3D11_DSV_DIMENSION_TEXTURE2D} + 1 == int{D3D11_RTV_DIMENSION_TEXTURE2D});
    return range_of(resource, d, d ? d->view_dimension() : 0,
                    d && d->buffer() && (d->buffer()->flags() & D3D11_BUFFER_UAV_FLAG_RAW));
}

// The tiles of a view's subresources (of its bytes, for a buffer view).
std::vector<std::uint32_t> view_tiles(const ViewRange& view,
                                      const runtime::tiles::ResourceTiling& tiling) {
    std::vector<std::uint32_t> out;
    if (view.whole) {
        for (std::uint32_t tile = 0; tile < tiling.total_tiles; ++tile) out.push_back(tile);
        return out;
    }
    if (view.buffer) {
        constexpr std::uint64_t kTileBytes = 65536;
        const std::uint64_t end = std::min<std::uint64_t>(
            tiling.total_tiles, view.bytes == UINT64_MAX
                                    ? UINT64_MAX
                                    : (view.first_byte + view.bytes + kTileBytes - 1) / kTileBytes);
        for (std::uint64_t tile = view.first_byte / kTileBytes; tile < end; ++tile)
            out.push_back(static_cast<std::uint32_t>(tile));
        return out;
    }
    const std::uint32_t mips = std::max(1u, tiling.mip_levels);
    const std::uint32_t slices = std::max(1u, tiling.array_size);
    TexelBox box;
    if (view.first_z != 0 || view.depth != UINT32_MAX) {
        box.front = view.first_z;
        box.back = view.depth == UINT32_MAX ? UINT32_MAX : view.first_z + view.depth;
    }
    for (std::uint32_t mip = view.first_mip; mip < mips && mip - view.first_mip < view.mips;
         ++mip) {
        for (std::uint32_t slice = view.first_slice;
             slice < slices && slice - view.first_slice < view.slices; ++slice) {
            const std::vector<std::uint32_t> some = tiles_in_box(tiling, mip + slice * mips, box);
            out.insert(out.end(), some.begin(), some.end());
        }
    }
    return out;
}

}  // namespace

bool TileWriteTracker::follow(const fb::Record& record) {
    const fb::RecordHeader* header = record.header();
    if (header == nullptr) return false;
    const auto ids = [](const flatbuffers::Vector<std::uint64_t>* list, std::uint32_t count) {
        std::vector<std::uint64_t> out;
        for (std::uint32_t i = 0; list != nullptr && i < std::min(count, list->size()); ++i)
            out.push_back(list->Get(i));
        return out;
    };
    // Bindings of the immediate context only: a deferred one's replace
    // nothing here.
    const bool deferred = deferred_contexts_.count(header->context()) != 0;
    switch (static_cast<CallId>(header->call())) {
        case CallId::ID3D11Device_CreateDeferredContext:
            if (const auto* p = CallOf<fb::ID3D11Device_CreateDeferredContext>::get(record))
                deferred_contexts_.insert(p->pp_deferred_context());
            return false;
        case CallId::ID3D11Device1_CreateDeferredContext1:
            if (const auto* p = CallOf<fb::ID3D11Device1_CreateDeferredContext1>::get(record))
                deferred_contexts_.insert(p->pp_deferred_context());
            return false;
        case CallId::ID3D11Device2_CreateDeferredContext2:
            if (const auto* p = CallOf<fb::ID3D11Device2_CreateDeferredContext2>::get(record))
                deferred_contexts_.insert(p->pp_deferred_context());
            return false;
        case CallId::ID3D11Device_CreateRenderTargetView:
            if (const auto* p = CallOf<fb::ID3D11Device_CreateRenderTargetView>::get(record))
                views_[p->pp_rt_view()] = rtv_range(p->p_resource(), p->p_desc());
            return false;
        case CallId::ID3D11Device_CreateDepthStencilView:
            if (const auto* p = CallOf<fb::ID3D11Device_CreateDepthStencilView>::get(record))
                views_[p->pp_depth_stencil_view()] = dsv_range(p->p_resource(), p->p_desc());
            return false;
        case CallId::ID3D11Device_CreateUnorderedAccessView:
            if (const auto* p = CallOf<fb::ID3D11Device_CreateUnorderedAccessView>::get(record))
                views_[p->pp_ua_view()] = uav_range(p->p_resource(), p->p_desc());
            return false;
        case CallId::ID3D11DeviceContext_OMSetRenderTargets:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext_OMSetRenderTargets>::get(record);
                p && !deferred) {
                render_targets_ = ids(p->pp_render_target_views(), p->num_views());
                depth_stencil_ = p->p_depth_stencil_view();
                draw_uavs_.clear();  // they share the output slots
            }
            return false;
        case CallId::ID3D11DeviceContext_OMSetRenderTargetsAndUnorderedAccessViews:
            if (const auto* p =
                    CallOf<fb::ID3D11DeviceContext_OMSetRenderTargetsAndUnorderedAccessViews>::get(
                        record);
                p && !deferred) {
                if (p->num_rtvs() != D3D11_KEEP_RENDER_TARGETS_AND_DEPTH_STENCIL) {
                    render_targets_ = ids(p->pp_render_target_views(), p->num_rtvs());
                    depth_stencil_ = p->p_depth_stencil_view();
                }
                if (p->num_uavs() != D3D11_KEEP_UNORDERED_ACCESS_VIEWS)
                    draw_uavs_ = ids(p->pp_unordered_access_views(), p->num_uavs());
            }
            return false;
        case CallId::ID3D11DeviceContext_CSSetUnorderedAccessViews:
            if (const auto* p =
                    CallOf<fb::ID3D11DeviceContext_CSSetUnorderedAccessViews>::get(record);
                p && !deferred) {
                const std::uint32_t start = std::min(p->start_slot(), 64u);
                const std::vector<std::uint64_t> set =
                    ids(p->pp_unordered_access_views(), p->num_uavs());
                if (compute_uavs_.size() < start + set.size())
                    compute_uavs_.resize(start + set.size());
                std::copy(set.begin(), set.end(), compute_uavs_.begin() + start);
            }
            return false;
        case CallId::ID3D11DeviceContext_ClearState:
            if (!deferred) {
                render_targets_.clear();
                depth_stencil_ = 0;
                draw_uavs_.clear();
                compute_uavs_.clear();
            }
            return false;
        case CallId::ID3D11DeviceContext2_UpdateTiles:
        case CallId::ID3D11DeviceContext2_CopyTiles:
        case CallId::ID3D11DeviceContext_UpdateSubresource:
        case CallId::ID3D11DeviceContext1_UpdateSubresource1:
        case CallId::ID3D11DeviceContext_CopySubresourceRegion:
        case CallId::ID3D11DeviceContext1_CopySubresourceRegion1:
        case CallId::ID3D11DeviceContext_CopyResource:
        case CallId::ID3D11DeviceContext_ResolveSubresource:
        case CallId::ID3D11DeviceContext_ClearRenderTargetView:
        case CallId::ID3D11DeviceContext_ClearDepthStencilView:
        case CallId::ID3D11DeviceContext_ClearUnorderedAccessViewUint:
        case CallId::ID3D11DeviceContext_ClearUnorderedAccessViewFloat:
        case CallId::ID3D11DeviceContext1_ClearView:
            return !deferred;
        case CallId::ID3D11DeviceContext_Draw:
        case CallId::ID3D11DeviceContext_DrawIndexed:
        case CallId::ID3D11DeviceContext_DrawInstanced:
        case CallId::ID3D11DeviceContext_DrawIndexedInstanced:
        case CallId::ID3D11DeviceContext_DrawInstancedIndirect:
        case CallId::ID3D11DeviceContext_DrawIndexedInstancedIndirect:
        case CallId::ID3D11DeviceContext_DrawAuto:
            return !deferred &&
                   (!render_targets_.empty() || depth_stencil_ != 0 || !draw_uavs_.empty());
        case CallId::ID3D11DeviceContext_Dispatch:
        case CallId::ID3D11DeviceContext_DispatchIndirect:
            return !deferred && !compute_uavs_.empty();
        default:
            return false;
    }
}

std::vector<TileWrite> TileWriteTracker::tiles_written(
    const fb::Record& record, const runtime::tiles::TileState& state) const {
    const fb::RecordHeader* header = record.header();
    if (header == nullptr || deferred_contexts_.count(header->context()) != 0) return {};
    std::vector<TileWrite> writes;
    const auto add = [&](std::uint64_t resource, std::vector<std::uint32_t> tiles) {
        if (resource == 0 || tiles.empty()) return;
        const auto same = std::find_if(writes.begin(), writes.end(),
                                       [&](const TileWrite& w) { return w.resource == resource; });
        if (same == writes.end()) {
            writes.push_back({resource, std::move(tiles)});
        } else {
            same->tiles.insert(same->tiles.end(), tiles.begin(), tiles.end());
        }
    };
    const auto box_of_subresource = [&](std::uint64_t id, std::uint32_t subresource,
                                        const TexelBox& box) {
        if (const runtime::tiles::ResourceTiling* tiling = state.tiling(id))
            add(id, tiles_in_box(*tiling, subresource, box));
    };
    const auto of_view = [&](std::uint64_t view) {
        const auto found = views_.find(view);
        if (found == views_.end()) return;
        if (const runtime::tiles::ResourceTiling* tiling = state.tiling(found->second.resource))
            add(found->second.resource, view_tiles(found->second, *tiling));
    };
    const auto call = static_cast<CallId>(header->call());
    switch (call) {
        case CallId::ID3D11DeviceContext2_UpdateTiles:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext2_UpdateTiles>::get(record))
                add(p->p_dest_tiled_resource(),
                    region_tiles(state, p->p_dest_tiled_resource(),
                                 p->p_dest_tile_region_start_coordinate(),
                                 p->p_dest_tile_region_size()));
            break;
        case CallId::ID3D11DeviceContext2_CopyTiles:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext2_CopyTiles>::get(record);
                p != nullptr &&
                (p->flags() & D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE))
                add(p->p_tiled_resource(),
                    region_tiles(state, p->p_tiled_resource(), p->p_tile_region_start_coordinate(),
                                 p->p_tile_region_size()));
            break;
        case CallId::ID3D11DeviceContext_UpdateSubresource:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext_UpdateSubresource>::get(record))
                box_of_subresource(p->p_dst_resource(), p->dst_subresource(),
                                   box_of(p->p_dst_box()));
            break;
        case CallId::ID3D11DeviceContext1_UpdateSubresource1:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext1_UpdateSubresource1>::get(record))
                box_of_subresource(p->p_dst_resource(), p->dst_subresource(),
                                   box_of(p->p_dst_box()));
            break;
        case CallId::ID3D11DeviceContext_CopySubresourceRegion:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext_CopySubresourceRegion>::get(record))
                box_of_subresource(p->p_dst_resource(), p->dst_subresource(),
                                   copy_box(p->dst_x(), p->dst_y(), p->dst_z(), p->p_src_box()));
            break;
        case CallId::ID3D11DeviceContext1_CopySubresourceRegion1:
            if (const auto* p =
                    CallOf<fb::ID3D11DeviceContext1_CopySubresourceRegion1>::get(record))
                box_of_subresource(p->p_dst_resource(), p->dst_subresource(),
                                   copy_box(p->dst_x(), p->dst_y(), p->dst_z(), p->p_src_box()));
            break;
        case CallId::ID3D11DeviceContext_ResolveSubresource:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext_ResolveSubresource>::get(record))
                box_of_subresource(p->p_dst_resource(), p->dst_subresource(), {});
            break;
        case CallId::ID3D11DeviceContext_CopyResource:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext_CopyResource>::get(record)) {
                if (const runtime::tiles::ResourceTiling* tiling =
                        state.tiling(p->p_dst_resource()))
                    add(p->p_dst_resource(), view_tiles(ViewRange{.whole = true}, *tiling));
            }
            break;
        case CallId::ID3D11DeviceContext_ClearRenderTargetView:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext_ClearRenderTargetView>::get(record))
                of_view(p->p_render_target_view());
            break;
        case CallId::ID3D11DeviceContext_ClearDepthStencilView:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext_ClearDepthStencilView>::get(record))
                of_view(p->p_depth_stencil_view());
            break;
        case CallId::ID3D11DeviceContext_ClearUnorderedAccessViewUint:
            if (const auto* p =
                    CallOf<fb::ID3D11DeviceContext_ClearUnorderedAccessViewUint>::get(record))
                of_view(p->p_unordered_access_view());
            break;
        case CallId::ID3D11DeviceContext_ClearUnorderedAccessViewFloat:
            if (const auto* p =
                    CallOf<fb::ID3D11DeviceContext_ClearUnorderedAccessViewFloat>::get(record))
                of_view(p->p_unordered_access_view());
            break;
        case CallId::ID3D11DeviceContext1_ClearView:
            if (const auto* p = CallOf<fb::ID3D11DeviceContext1_ClearView>::get(record))
                of_view(p->p_view());
            break;
        case CallId::ID3D11DeviceContext_Dispatch:
        case CallId::ID3D11DeviceContext_DispatchIndirect:
            for (const std::uint64_t view : compute_uavs_) of_view(view);
            break;
        case CallId::ID3D11DeviceContext_Draw:
        case CallId::ID3D11DeviceContext_DrawIndexed:
        case CallId::ID3D11DeviceContext_DrawInstanced:
        case CallId::ID3D11DeviceContext_DrawIndexedInstanced:
        case CallId::ID3D11DeviceContext_DrawInstancedIndirect:
        case CallId::ID3D11DeviceContext_DrawIndexedInstancedIndirect:
        case CallId::ID3D11DeviceContext_DrawAuto:
            for (const std::uint64_t view : render_targets_) of_view(view);
            of_view(depth_stencil_);
            for (const std::uint64_t view : draw_uavs_) of_view(view);
            break;
        default:
            break;
    }
    for (TileWrite& write : writes) {
        std::sort(write.tiles.begin(), write.tiles.end());
        write.tiles.erase(std::unique(write.tiles.begin(), write.tiles.end()), write.tiles.end());
    }
    return writes;
}

}  // namespace d3dcap::state
