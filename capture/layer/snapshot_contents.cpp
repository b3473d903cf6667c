// The contents part of a snapshot: the data of every resource and the tile
// mappings of every tiled resource, read back through the real device (the
// application sees none of it) and written as the calls that restore them.
#include <d3dcap/api/call_encoders.h>
#include <d3dcap/capture/wrappers.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <unordered_map>
#include <utility>

#include "capture/layer/layer.h"
#include "capture/layer/readback.h"
#include "capture/layer/resource_info.h"
#include "capture/layer/snapshot.h"
#include "capture/layer/tile_tracker.h"
#include "format/trace/records.h"

namespace d3dcap::capture {

namespace {

class ContentWriter {
  public:
    ContentWriter(Wrapper& context, ID3D11DeviceContext2* real_context, SnapshotRecords& out)
        : context_(context), readback_(real_context), out_(out) {}

    template <typename Params>
    void add(
        flatbuffers::Offset<Params> params, std::int64_t result = 0, bool hresult = false,
        flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::MappedWrite>>> writes = 0) {
        const trace::CallContext call{context_.id, context_.id, result, 0, hresult};
        trace::finish_call(b_, call, params, writes);
        out_.push_back(std::make_shared<const std::vector<std::uint8_t>>(
            b_.GetBufferPointer(), b_.GetBufferPointer() + b_.GetSize()));
        b_.Clear();
    }

    void buffer(Wrapper& w);
    void texture(Wrapper& w);
    void tiled(Wrapper& w, const runtime::tiles::TileState& state,
               const std::unordered_map<std::uint64_t, Wrapper*>& by_id);
    void packed_mips(Wrapper& w);
    // ResizeTilePool records: to hold every mapped tile before the mappings
    // (before == true), then to the pool's present size.
    void pool_size(Wrapper& pool, const runtime::tiles::TileState& state, bool before);

  private:
    // UpdateSubresource of the subresource with the bytes of its copy.
    void update(Wrapper& w, UINT sub, const MappedCopy& copy);

    Wrapper& context_;
    Readback readback_;
    SnapshotRecords& out_;
    flatbuffers::FlatBufferBuilder b_;
    api::ObjectIds& ids_ = Layer::get().ids();
    std::set<std::pair<std::uint64_t, std::uint32_t>> written_;  // pool tiles already restored
};

ID3D11Resource* real_of(Wrapper& w) {
    return static_cast<ID3D11Resource*>(w.facets()[0]->real);
}
ID3D11Resource* facet_of(Wrapper& w) {
    return w.as<ID3D11Resource>();
}

void ContentWriter::buffer(Wrapper& w) {
    ResourceInfo& info = *w.resource;
    if (info.usage == D3D11_USAGE_DYNAMIC) {
        // What the application last wrote through Map, as a discarding Map.
        std::lock_guard lock(info.mutex);
        const auto it = info.contents.find(0);
        if (it == info.contents.end()) return;
        D3D11_MAPPED_SUBRESOURCE pitches{nullptr, info.shape.width, info.shape.width};
        add(api::encode_ID3D11DeviceContext_Map(b_, ids_, facet_of(w), 0, D3D11_MAP_WRITE_DISCARD,
                                                0, &pitches),
            S_OK, true);
        const auto writes = b_.CreateVector(std::vector<flatbuffers::Offset<fb::MappedWrite>>{
            fb::CreateMappedWrite(b_, 0, b_.CreateVector(it->second))});
        add(api::encode_ID3D11DeviceContext_Unmap(b_, ids_, facet_of(w), 0), 0, false, writes);
        return;
    }
    if (info.usage != D3D11_USAGE_DEFAULT) return;  // IMMUTABLE: its creation has the data
    readback_.subresource(real_of(w), info.shape, 0, [&](const MappedCopy& copy) {
        add(api::encode_ID3D11DeviceContext_UpdateSubresource(b_, ids_, facet_of(w), 0, nullptr,
                                                              copy.data, 0, 0, info.shape.width));
    });
}

void ContentWriter::texture(Wrapper& w) {
    ResourceInfo& info = *w.resource;
    // Multisampled and depth-stencil textures cannot take UpdateSubresource.
    if (info.usage != D3D11_USAGE_DEFAULT || info.shape.sample_count > 1 ||
        (info.bind_flags & D3D11_BIND_DEPTH_STENCIL) != 0)
        return;
    for (UINT sub = 0; sub < subresource_count(info.shape); ++sub)
        readback_.subresource(real_of(w), info.shape, sub,
                              [&](const MappedCopy& copy) { update(w, sub, copy); });
}

void ContentWriter::tiled(Wrapper& w, const runtime::tiles::TileState& state,
                          const std::unordered_map<std::uint64_t, Wrapper*>& by_id) {
    const ResourceInfo& info = *w.resource;
    const auto pool_it = by_id.find(state.pool_of(w.id));
    if (pool_it == by_id.end()) return;
    const std::vector<runtime::tiles::TileMapping> mappings = state.mappings(w.id);
    std::vector<D3D11_TILED_RESOURCE_COORDINATE> starts;
    std::vector<UINT> offsets;
    for (std::uint32_t t = 0; t < mappings.size(); ++t) {
        if (mappings[t].pool_tile == runtime::tiles::kNullTile) continue;
        starts.push_back(tile_coordinate(info.tiling, t));
        offsets.push_back(mappings[t].pool_tile);
    }
    if (starts.empty()) return;
    // One tile per region and per range: mappings need not follow any order.
    const std::vector<D3D11_TILE_REGION_SIZE> sizes(starts.size(), {1, FALSE, 0, 0, 0});
    const std::vector<UINT> flags(starts.size(), 0), counts(starts.size(), 1);
    const UINT n = static_cast<UINT>(starts.size());
    add(api::encode_ID3D11DeviceContext2_UpdateTileMappings(
            b_, ids_, facet_of(w), n, starts.data(), sizes.data(),
            pool_it->second->as<ID3D11Buffer>(), n, flags.data(), offsets.data(), counts.data(), 0),
        S_OK, true);
    // The data of each pool tile once, through the first tile that maps it;
    // packed mips through their subresources.
    std::vector<std::uint8_t> tile;
    bool packed = false;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        if (info.tiling.subresources.size() > starts[i].Subresource &&
            info.tiling.subresources[starts[i].Subresource].StartTileIndexInOverallResource ==
                runtime::tiles::kPackedStart) {
            packed = true;
            continue;
        }
        if (!written_.insert({pool_it->first, offsets[i]}).second) continue;
        if (!readback_.tile(real_of(w), starts[i], tile)) continue;
        const D3D11_TILE_REGION_SIZE one{1, FALSE, 0, 0, 0};
        add(api::encode_ID3D11DeviceContext2_UpdateTiles(b_, ids_, facet_of(w), &starts[i], &one,
                                                         tile.data(), 0));
    }
    if (packed) packed_mips(w);
}

void ContentWriter::pool_size(Wrapper& pool, const runtime::tiles::TileState& state, bool before) {
    const std::uint64_t created = pool.resource->shape.width / runtime::tiles::kTileBytes;
    const std::uint64_t now = state.pool_tiles(pool.id);
    const std::vector<std::uint32_t> used = state.referenced_pool_tiles(pool.id);
    // A shrunk pool keeps the tiles mapped past its end: replay needs them
    // in the pool while it maps them, then shrinks it the same way.
    const std::uint64_t needed = std::max<std::uint64_t>(now, used.empty() ? 0 : used.back() + 1);
    const std::uint64_t from = before ? created : needed;
    const std::uint64_t to = before ? needed : now;
    if (from == to) return;
    add(api::encode_ID3D11DeviceContext2_ResizeTilePool(b_, ids_, pool.as<ID3D11Buffer>(),
                                                        to * runtime::tiles::kTileBytes),
        S_OK, true);
}

void ContentWriter::packed_mips(Wrapper& w) {
    const ResourceInfo& info = *w.resource;
    if (info.shape.dimension != D3D11_RESOURCE_DIMENSION_TEXTURE2D) return;
    for (UINT slice = 0; slice < info.shape.array_size; ++slice) {
        for (UINT mip = info.tiling.packed.NumStandardMips; mip < info.shape.mip_levels; ++mip) {
            const UINT sub = mip + slice * info.shape.mip_levels;
            readback_.subresource(real_of(w), info.shape, sub,
                                  [&](const MappedCopy& copy) { update(w, sub, copy); });
        }
    }
}

void ContentWriter::update(Wrapper& w, UINT sub, const MappedCopy& copy) {
    const SizeResult size =
        update_subresource_bytes(w.resource->shape, sub, nullptr, copy.row_pitch, copy.depth_pitch);
    if (!size.ok()) return;
    add(api::encode_ID3D11DeviceContext_UpdateSubresource(b_, ids_, facet_of(w), sub, nullptr,
                                                          copy.data, copy.row_pitch,
                                                          copy.depth_pitch, size.bytes));
}

}  // namespace

void append_contents(const std::vector<Wrapper*>& live, SnapshotRecords& out) {
    std::unordered_map<std::uint64_t, Wrapper*> by_id;
    Wrapper* immediate = nullptr;
    for (Wrapper* w : live) {
        by_id.emplace(w->id, w);
        if (immediate == nullptr && w->kind == WrapperKind::DeviceContext &&
            static_cast<ID3D11DeviceContext*>(w->facets()[0]->real)->GetType() ==
                D3D11_DEVICE_CONTEXT_IMMEDIATE)
            immediate = w;
    }
    if (immediate == nullptr || immediate->facets()[0]->level < 3) return;
    ContentWriter writer(*immediate,
                         static_cast<ID3D11DeviceContext2*>(immediate->facets()[0]->real), out);
    const runtime::tiles::TileState state = TileTracker::get().state();
    auto is_pool = [](const Wrapper* w) {
        return w->resource != nullptr &&
               (w->resource->misc_flags & D3D11_RESOURCE_MISC_TILE_POOL) != 0;
    };
    for (Wrapper* w : live)
        if (is_pool(w)) writer.pool_size(*w, state, true);
    for (Wrapper* w : live) {
        if (w->resource == nullptr) continue;
        if ((w->resource->misc_flags & D3D11_RESOURCE_MISC_TILE_POOL) != 0) continue;
        if (w->resource->tiled())
            writer.tiled(*w, state, by_id);
        else if (w->kind == WrapperKind::Buffer)
            writer.buffer(*w);
        else
            writer.texture(*w);
    }
    for (Wrapper* w : live)
        if (is_pool(w)) writer.pool_size(*w, state, false);
}

}  // namespace d3dcap::capture
