#include "replay/engine/tiling_adaptation.h"

#include <algorithm>
#include <numeric>

#include "runtime/tiles/recorded_tiling.h"

namespace d3dcap::replay {

namespace {

using runtime::tiles::kNullTile;
using runtime::tiles::ResourceTiling;

struct TileAt {
    std::uint32_t index = 0;  // overall tile index
    std::uint32_t slice = 0, mip = 0;
    D3D11_TILED_RESOURCE_COORDINATE coordinate{};
};

std::uint32_t standard_mips(const ResourceTiling& t) {
    return t.packed.NumPackedMips == 0 ? t.mip_levels : t.packed.NumStandardMips;
}

// Tiles of a tiling's standard mips and packed mips, over its slices.
std::uint64_t tile_count(const ResourceTiling& t) {
    std::uint64_t tiles = 0;
    const std::uint32_t standard = std::min(standard_mips(t), t.mip_levels);
    for (std::uint32_t slice = 0; slice < t.array_size; ++slice) {
        for (std::uint32_t mip = 0; mip < standard; ++mip) {
            const std::uint32_t s = mip + slice * t.mip_levels;
            if (s >= t.subresources.size()) break;
            const D3D11_SUBRESOURCE_TILING& sub = t.subresources[s];
            tiles += std::uint64_t{sub.WidthInTiles} * sub.HeightInTiles * sub.DepthInTiles;
        }
        if (t.packed.NumPackedMips != 0) tiles += t.packed.NumTilesForPackedMips;
    }
    return tiles;
}

// Tile shapes and packing differ between devices, but not by this much.
constexpr std::uint64_t kMostRecordedTilesPerTile = 64;

// Every tile of a tiling, slice by slice: the standard mips (X, then Y, then
// Z), then the slice's packed tiles.
std::vector<TileAt> every_tile(const ResourceTiling& t) {
    std::vector<TileAt> out;
    const std::uint32_t standard = std::min(standard_mips(t), t.mip_levels);
    for (std::uint32_t slice = 0; slice < t.array_size; ++slice) {
        for (std::uint32_t mip = 0; mip < standard; ++mip) {
            const std::uint32_t s = mip + slice * t.mip_levels;
            if (s >= t.subresources.size()) return {};
            const D3D11_SUBRESOURCE_TILING& sub = t.subresources[s];
            for (std::uint32_t z = 0; z < sub.DepthInTiles; ++z)
                for (std::uint32_t y = 0; y < sub.HeightInTiles; ++y)
                    for (std::uint32_t x = 0; x < sub.WidthInTiles; ++x)
                        out.push_back({sub.StartTileIndexInOverallResource + x +
                                           (y + z * sub.HeightInTiles) * sub.WidthInTiles,
                                       slice, mip, D3D11_TILED_RESOURCE_COORDINATE{x, y, z, s}});
        }
        if (t.packed.NumPackedMips == 0) continue;
        const std::uint32_t first = t.packed_start(slice);
        for (std::uint32_t i = 0; i < t.packed.NumTilesForPackedMips; ++i)
            out.push_back(
                {first + i, slice, standard,
                 D3D11_TILED_RESOURCE_COORDINATE{i, 0, 0, standard + slice * t.mip_levels}});
    }
    return out;
}

std::string describe(const ResourceTiling& t) {
    return std::to_string(t.total_tiles) + " tiles, " + std::to_string(standard_mips(t)) +
           " standard mips, " + std::to_string(t.packed.NumPackedMips) + " packed mips in " +
           std::to_string(t.packed.NumTilesForPackedMips) + " tiles per slice";
}

// The replay device's answer of GetResourceTiling, with the resource's mips and slices.
bool device_tiling(ID3D11Resource* resource, ResourceTiling& t) {
    D3D11_RESOURCE_DIMENSION dimension{};
    resource->GetType(&dimension);
    void* found = nullptr;
    if (dimension == D3D11_RESOURCE_DIMENSION_TEXTURE2D &&
        SUCCEEDED(resource->QueryInterface(__uuidof(ID3D11Texture2D), &found))) {
        D3D11_TEXTURE2D_DESC desc{};
        static_cast<ID3D11Texture2D*>(found)->GetDesc(&desc);
        static_cast<IUnknown*>(found)->Release();
        t.mip_levels = desc.MipLevels;
        t.array_size = desc.ArraySize;
    } else if (dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D &&
               SUCCEEDED(resource->QueryInterface(__uuidof(ID3D11Texture3D), &found))) {
        D3D11_TEXTURE3D_DESC desc{};
        static_cast<ID3D11Texture3D*>(found)->GetDesc(&desc);
        static_cast<IUnknown*>(found)->Release();
        t.mip_levels = desc.MipLevels;
    }
    ID3D11Device* device = nullptr;
    resource->GetDevice(&device);
    if (device == nullptr) return false;
    ID3D11Device2* device2 = nullptr;
    const HRESULT hr =
        device->QueryInterface(__uuidof(ID3D11Device2), reinterpret_cast<void**>(&device2));
    device->Release();
    if (FAILED(hr)) return false;
    UINT count = t.mip_levels * t.array_size;
    t.subresources.assign(count, {});
    UINT total = 0;
    device2->GetResourceTiling(resource, &total, &t.packed, &t.shape, &count, 0,
                               t.subresources.data());
    device2->Release();
    t.total_tiles = total;
    t.subresources.resize(count);
    return true;
}

// A recorded array the call reads count elements of (absent stays empty).
template <typename F, typename C>
bool structs_in(api::DecodeContext& ctx, const flatbuffers::Vector<const F*>* values, UINT count,
                const char* name, std::vector<C>& out) {
    if (values == nullptr) return true;
    if (values->size() < count)
        return ctx.fail(name, "the record holds " + std::to_string(values->size()) +
                                  " elements, the call reads " + std::to_string(count));
    out.resize(count);
    for (UINT i = 0; i < count; ++i)
        if (!api::from_fb(*values->Get(i), out[i], ctx, name)) return false;
    return true;
}

bool scalars_in(api::DecodeContext& ctx, const flatbuffers::Vector<std::uint32_t>* values,
                UINT count, const char* name, std::vector<UINT>& out) {
    if (values == nullptr) return true;
    if (values->size() < count)
        return ctx.fail(name, "the record holds " + std::to_string(values->size()) +
                                  " elements, the call reads " + std::to_string(count));
    out.assign(values->begin(), values->begin() + count);
    return true;
}

}  // namespace

void TilingAdaptation::load(const fb::TraceIndex& index) {
    if (index.tilings() == nullptr) return;
    for (const fb::ResourceTiling* recorded : *index.tilings()) {
        ResourceTiling t = runtime::tiles::tiling_of_record(*recorded);
        recorded_[recorded->resource()] = std::move(t);
    }
}

void TilingAdaptation::object_added(std::uint64_t id, IUnknown* object, std::uint64_t event,
                                    std::vector<Adaptation>& adaptations) {
    ID3D11Buffer* buffer = nullptr;
    if (SUCCEEDED(
            object->QueryInterface(__uuidof(ID3D11Buffer), reinterpret_cast<void**>(&buffer)))) {
        D3D11_BUFFER_DESC desc{};
        buffer->GetDesc(&desc);
        buffer->Release();
        if (desc.MiscFlags & D3D11_RESOURCE_MISC_TILE_POOL) {
            pool_bytes_[id] = desc.ByteWidth;
            model_.create_pool(id, desc.ByteWidth, nullptr);
        }
    }
    auto recorded = recorded_.find(id);
    if (recorded == recorded_.end()) return;
    ID3D11Resource* resource = nullptr;
    if (FAILED(
            object->QueryInterface(__uuidof(ID3D11Resource), reinterpret_cast<void**>(&resource))))
        return;
    ResourceTiling target;
    const bool known = device_tiling(resource, target);
    resource->Release();
    ResourceTiling& r = recorded->second;
    r.mip_levels = target.mip_levels;
    r.array_size = target.array_size;
    if (!known || runtime::tiles::same_tiling(r, target)) return;

    const std::string both = "recorded " + describe(r) + "; this device " + describe(target);
    // The recorded tiling is the trace's word: one with far more tiles than
    // this device gives the resource is damaged, and is not walked tile by tile.
    if (tile_count(r) >
        kMostRecordedTilesPerTile * std::max<std::uint64_t>(1, tile_count(target))) {
        adaptations.push_back({event, id,
                               "not adapted: the recorded tiling has far more tiles (" + both + ")",
                               false});
        return;
    }
    const std::uint32_t common = std::min(standard_mips(r), standard_mips(target));
    const std::vector<TileAt> from = every_tile(r), to = every_tile(target);
    // Standard mips both devices tile alike map one to one; they must match.
    const auto standard_part = [common](const std::vector<TileAt>& tiles) {
        std::vector<TileAt> out;
        for (const TileAt& t : tiles)
            if (t.mip < common) out.push_back(t);
        return out;
    };
    const std::vector<TileAt> from_standard = standard_part(from), to_standard = standard_part(to);
    const bool comparable =
        !from.empty() && !to.empty() && r.shape.WidthInTexels == target.shape.WidthInTexels &&
        r.shape.HeightInTexels == target.shape.HeightInTexels &&
        r.shape.DepthInTexels == target.shape.DepthInTexels &&
        from_standard.size() == to_standard.size() &&
        std::equal(from_standard.begin(), from_standard.end(), to_standard.begin(),
                   [](const TileAt& a, const TileAt& b) {
                       return a.coordinate.X == b.coordinate.X &&
                              a.coordinate.Y == b.coordinate.Y &&
                              a.coordinate.Z == b.coordinate.Z &&
                              a.coordinate.Subresource == b.coordinate.Subresource;
                   });
    if (!comparable || FAILED(model_.create_tiled_resource(id, r, nullptr))) {
        adaptations.push_back(
            {event, id,
             "tiling differs beyond the packed mips (" + both + "): tile calls replay as recorded",
             false});
        return;
    }
    Remap remap;
    remap.target_of.assign(r.total_tiles, kNullTile);
    remap.coordinate.assign(target.total_tiles, {});
    for (const TileAt& t : to) remap.coordinate[t.index] = t.coordinate;
    for (std::size_t i = 0; i < from_standard.size(); ++i)
        remap.target_of[from_standard[i].index] = to_standard[i].index;
    // The tails (mips from `common` on) pair up tile by tile within each slice.
    const auto tails = [common, slices = r.array_size](const std::vector<TileAt>& tiles) {
        std::vector<std::vector<std::uint32_t>> out(slices);
        for (const TileAt& t : tiles)
            if (t.mip >= common) out[t.slice].push_back(t.index);
        return out;
    };
    const std::vector<std::vector<std::uint32_t>> tails_from = tails(from), tails_to = tails(to);
    bool enough = true;
    for (std::uint32_t slice = 0; slice < r.array_size; ++slice) {
        const std::vector<std::uint32_t>&tail_from = tails_from[slice], &tail_to = tails_to[slice];
        for (std::size_t i = 0; i < tail_from.size() && i < tail_to.size(); ++i)
            remap.target_of[tail_from[i]] = tail_to[i];
        if (tail_to.size() > tail_from.size()) {
            enough = false;
            adaptations.push_back(
                {event, id,
                 "slice " + std::to_string(slice) + " needs " + std::to_string(tail_to.size()) +
                     " tiles for mips " + std::to_string(common) + " and up, the recording " +
                     "mapped " + std::to_string(tail_from.size()) + " (" + both + ")",
                 false});
        }
    }
    if (enough)
        adaptations.push_back(
            {event, id, "packed mips differ (" + both + "): tiles remapped", true});
    remaps_[id] = std::move(remap);
}

void TilingAdaptation::pool_resized(std::uint64_t pool, std::uint64_t bytes) {
    if (pool_bytes_.count(pool) == 0) return;
    pool_bytes_[pool] = bytes;
    model_.resize_tile_pool(pool, bytes, nullptr);
}

void TilingAdaptation::destroyed(std::uint64_t id) {
    pool_bytes_.erase(id);
    remaps_.erase(id);
    model_.destroy(id);
}

api::Invoked TilingAdaptation::update_tile_mappings(const fb::Record& record,
                                                    api::DecodeContext& ctx) {
    const auto* p = api::CallOf<fb::ID3D11DeviceContext2_UpdateTileMappings>::get(record);
    if (p == nullptr) {
        ctx.fail("parameters", "the record holds no parameter table for its call");
        return {};
    }
    ID3D11DeviceContext2* self = nullptr;
    ID3D11Resource* resource = nullptr;
    if (!api::object_in(ctx, record.header()->object(), "this", "ID3D11DeviceContext2", &self) ||
        !api::object_in(ctx, p->p_tiled_resource(), "pTiledResource", "ID3D11Resource", &resource))
        return {};
    const UINT regions = p->num_tiled_resource_regions(), ranges = p->num_ranges();
    std::vector<D3D11_TILED_RESOURCE_COORDINATE> starts;
    std::vector<D3D11_TILE_REGION_SIZE> sizes;
    std::vector<UINT> flags, offsets, counts;
    if (!structs_in(ctx, p->p_tiled_resource_region_start_coordinates(), regions,
                    "pTiledResourceRegionStartCoordinates", starts) ||
        !structs_in(ctx, p->p_tiled_resource_region_sizes(), regions, "pTiledResourceRegionSizes",
                    sizes) ||
        !scalars_in(ctx, p->p_range_flags(), ranges, "pRangeFlags", flags) ||
        !scalars_in(ctx, p->p_tile_pool_start_offsets(), ranges, "pTilePoolStartOffsets",
                    offsets) ||
        !scalars_in(ctx, p->p_range_tile_counts(), ranges, "pRangeTileCounts", counts))
        return {};
    const auto data = [](auto& v, bool present) { return present ? v.data() : nullptr; };

    // The call on the recorded tiling, then the tiles it changed on this
    // device's. Only the tiles its regions cover can change, unless it names a
    // new pool, which unmaps every tile first.
    const std::uint64_t id = p->p_tiled_resource();
    const auto* region_starts =
        data(starts, p->p_tiled_resource_region_start_coordinates() != nullptr);
    const auto* region_sizes = data(sizes, p->p_tiled_resource_region_sizes() != nullptr);
    std::vector<std::uint32_t> tiles;
    if (p->p_tile_pool() != 0 && p->p_tile_pool() != model_.pool_of(id)) {
        const runtime::tiles::ResourceTiling* tiling = model_.tiling(id);
        tiles.resize(tiling != nullptr ? tiling->total_tiles : 0);
        std::iota(tiles.begin(), tiles.end(), 0U);
    } else {
        tiles = model_.mapping_region_tiles(id, regions, region_starts, region_sizes);
        std::sort(tiles.begin(), tiles.end());
        tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
    }
    std::vector<runtime::tiles::TileMapping> before;
    before.reserve(tiles.size());
    for (std::uint32_t tile : tiles) before.push_back(model_.mapping(id, tile));
    const HRESULT hr = model_.update_tile_mappings(
        id, regions, region_starts, region_sizes, p->p_tile_pool(), ranges,
        data(flags, p->p_range_flags() != nullptr),
        data(offsets, p->p_tile_pool_start_offsets() != nullptr),
        data(counts, p->p_range_tile_counts() != nullptr), p->flags(), nullptr);
    if (FAILED(hr)) return api::Invoked{true, hr};
    const Remap& remap = remaps_.at(id);
    std::vector<D3D11_TILED_RESOURCE_COORDINATE> at;
    std::vector<UINT> range_flags, pool_tiles;
    for (std::size_t i = 0; i < tiles.size(); ++i) {
        const runtime::tiles::TileMapping after = model_.mapping(id, tiles[i]);
        const std::uint32_t target =
            tiles[i] < remap.target_of.size() ? remap.target_of[tiles[i]] : kNullTile;
        if (target == kNullTile ||
            (before[i].pool == after.pool && before[i].pool_tile == after.pool_tile))
            continue;
        at.push_back(remap.coordinate[target]);
        const bool null = after.pool == 0;
        range_flags.push_back(null ? D3D11_TILE_RANGE_NULL : 0);
        pool_tiles.push_back(null ? 0 : after.pool_tile);
    }
    if (at.empty()) return api::Invoked{true, hr};
    ID3D11Buffer* pool = nullptr;
    const std::uint64_t pool_id = model_.pool_of(id);
    if (pool_id != 0 && !api::object_in(ctx, pool_id, "pTilePool", "ID3D11Buffer", &pool))
        return {};
    const std::vector<D3D11_TILE_REGION_SIZE> one_tile(at.size(),
                                                       D3D11_TILE_REGION_SIZE{1, FALSE, 0, 0, 0});
    const std::vector<UINT> ones(at.size(), 1);
    const HRESULT replayed =
        self->UpdateTileMappings(resource, static_cast<UINT>(at.size()), at.data(), one_tile.data(),
                                 pool, static_cast<UINT>(at.size()), range_flags.data(),
                                 pool_tiles.data(), ones.data(), p->flags());
    return api::Invoked{true, replayed};
}

}  // namespace d3dcap::replay
