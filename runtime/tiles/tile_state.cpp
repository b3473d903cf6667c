// The tile-mapping rules of UpdateTileMappings, CopyTileMappings and
// ResizeTilePool (as the Direct3D 11.2 reference documents them), over copy-on-write state.
//
// Storage. A resource's mapping is one vector of pool tile indices (kNullTile
// for NULL) plus the one pool the resource refers to; pools are a size each.
// Which (resource, tile) maps a pool tile is computed on demand. Objects live
// in id-sorted vectors of shared pointers, so copying a TileState shares
// everything, and a change copies the object list and then only the resource
// it touches.
//
// Every call checks all of its arguments before it changes anything.
#include "runtime/tiles/tile_state.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "runtime/tiles/tile_state_layout.h"

namespace d3dcap::runtime::tiles {

namespace detail {

struct Resource {
    std::shared_ptr<const Layout> layout;
    ObjectId pool = 0;                 // 0 until the first pool is named
    std::vector<std::uint32_t> tiles;  // pool tile per overall tile; kNullTile when NULL
};

struct PoolRecord {
    ObjectId id = 0;
    std::uint64_t tiles = 0;
    bool released = false;  // destroyed by the app, kept while resources refer to it
};

struct ResourceRecord {
    ObjectId id = 0;
    std::shared_ptr<Resource> resource;  // shared with copies of the state until written
};

}  // namespace detail

namespace {

using detail::Layout;
using detail::PoolRecord;
using detail::Resource;
using detail::ResourceRecord;
using detail::TileRun;
using runtime::MessageSink;

constexpr const char* kUpdateCall = "ID3D11DeviceContext2::UpdateTileMappings";
constexpr const char* kCopyCall = "ID3D11DeviceContext2::CopyTileMappings";
constexpr const char* kResizeCall = "ID3D11DeviceContext2::ResizeTilePool";
constexpr const char* kCreatePoolCall = "ID3D11Device::CreateBuffer";
constexpr const char* kCreateResourceCall =
    "d3dcap::runtime::tiles::TileState::create_tiled_resource";

// Pool tile indices must stay below kNullTile.
constexpr std::uint64_t kMaxPoolTiles = kNullTile;

HRESULT reject(MessageSink* sink, const char* call, std::string parameter, std::string text,
               HRESULT result = E_INVALIDARG) {
    if (sink != nullptr) {
        sink->message(runtime::Message{.severity = runtime::Severity::Error,
                                       .call = call,
                                       .parameter = std::move(parameter),
                                       .text = std::move(text)});
    }
    return result;
}

std::string hex(std::uint32_t value) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string digits;
    do {
        digits.insert(digits.begin(), kDigits[value % 16]);
        value /= 16;
    } while (value != 0);
    return "0x" + digits;
}

std::string indexed(const char* name, std::uint32_t index) {
    return std::string(name) + "[" + std::to_string(index) + "]";
}

std::string object_text(ObjectId id) {
    return id == 0 ? std::string("NULL") : "object " + std::to_string(id);
}

template <class Record>
auto find_record(std::vector<Record>& records, ObjectId id) {
    auto found =
        std::lower_bound(records.begin(), records.end(), id,
                         [](const Record& record, ObjectId key) { return record.id < key; });
    return found != records.end() && found->id == id ? found : records.end();
}

template <class Record>
auto find_record(const std::vector<Record>& records, ObjectId id) {
    auto found =
        std::lower_bound(records.begin(), records.end(), id,
                         [](const Record& record, ObjectId key) { return record.id < key; });
    return found != records.end() && found->id == id ? found : records.end();
}

template <class Record>
void insert_record(std::vector<Record>& records, Record record) {
    auto place =
        std::lower_bound(records.begin(), records.end(), record.id,
                         [](const Record& existing, ObjectId key) { return existing.id < key; });
    records.insert(place, std::move(record));
}

// Owned alone: after another owner's release (a release operation) this
// thread may write, so order the writes after that release.
template <class Pointer>
bool owned_alone(const Pointer& pointer) {
    if (pointer.use_count() != 1) return false;
    std::atomic_thread_fence(std::memory_order_acquire);
    return true;
}

// The regions of an UpdateTileMappings call with the defaults of NULL arrays:
// start at 0; the whole resource when both arrays are NULL; 1 tile each when
// only the sizes are.
struct MappingRegions {
    const D3D11_TILED_RESOURCE_COORDINATE* starts = nullptr;
    const D3D11_TILE_REGION_SIZE* sizes = nullptr;
    std::uint32_t resource_tiles = 0;

    D3D11_TILED_RESOURCE_COORDINATE start(UINT index) const {
        return starts != nullptr ? starts[index] : D3D11_TILED_RESOURCE_COORDINATE{0, 0, 0, 0};
    }
    D3D11_TILE_REGION_SIZE size(UINT index) const {
        if (sizes != nullptr) return sizes[index];
        return D3D11_TILE_REGION_SIZE{starts != nullptr ? 1 : resource_tiles, FALSE, 0, 0, 0};
    }
};

// One range of an UpdateTileMappings call with its defaults applied.
struct Range {
    UINT flag = 0;
    std::uint64_t tiles = 0;
    UINT pool_offset = 0;  // read only where the range needs pool memory
    bool needs_pool() const {
        return tiles > 0 && (flag == 0 || flag == D3D11_TILE_RANGE_REUSE_SINGLE_TILE);
    }
};

// Hands out the ranges' mappings tile by tile, in step with the region walk.
template <class RangeAt>
class RangeCursor {
  public:
    explicit RangeCursor(RangeAt range_at) : range_at_(std::move(range_at)) {}

    // Applies the next `count` tiles of the ranges to `tiles`; the caller has
    // checked that the ranges hold enough.
    void apply(std::uint32_t* tiles, std::uint32_t count) {
        while (count > 0) {
            while (used_ == range_.tiles) {  // also skips ranges of 0 tiles
                range_ = range_at_(next_range_++);
                used_ = 0;
            }
            const auto take =
                static_cast<std::uint32_t>(std::min<std::uint64_t>(count, range_.tiles - used_));
            switch (range_.flag) {
                case 0: {
                    const auto first = static_cast<std::uint32_t>(range_.pool_offset + used_);
                    for (std::uint32_t i = 0; i < take; ++i) tiles[i] = first + i;
                    break;
                }
                case D3D11_TILE_RANGE_REUSE_SINGLE_TILE:
                    std::fill_n(tiles, take, range_.pool_offset);
                    break;
                case D3D11_TILE_RANGE_NULL:
                    std::fill_n(tiles, take, kNullTile);
                    break;
                default:  // D3D11_TILE_RANGE_SKIP leaves the tiles as they are
                    break;
            }
            tiles += take;
            count -= take;
            used_ += take;
        }
    }

  private:
    RangeAt range_at_;
    Range range_{};
    std::uint64_t used_ = 0;
    UINT next_range_ = 0;
};

}  // namespace

struct TileState::Impl {
    std::vector<PoolRecord> pools;          // sorted by id
    std::vector<ResourceRecord> resources;  // sorted by id

    const PoolRecord* pool(ObjectId id) const {
        auto found = find_record(pools, id);
        return found == pools.end() ? nullptr : &*found;
    }
    const PoolRecord* live_pool(ObjectId id) const {
        const PoolRecord* record = pool(id);
        return record != nullptr && !record->released ? record : nullptr;
    }
    const Resource* resource(ObjectId id) const {
        auto found = find_record(resources, id);
        return found == resources.end() ? nullptr : found->resource.get();
    }
    bool exists(ObjectId id) const { return pool(id) != nullptr || resource(id) != nullptr; }

    // The resource, copied first when a copy of the state still shares it.
    Resource& writable_resource(ObjectId id) {
        auto found = find_record(resources, id);
        if (!owned_alone(found->resource)) {
            found->resource = std::make_shared<Resource>(*found->resource);
        }
        return *found->resource;
    }

    bool pool_referenced(ObjectId id) const {
        return std::any_of(resources.begin(), resources.end(), [id](const ResourceRecord& record) {
            return record.resource->pool == id;
        });
    }
    void forget_pool_if_unused(ObjectId id) {
        auto found = find_record(pools, id);
        if (found != pools.end() && found->released && !pool_referenced(id)) pools.erase(found);
    }

    // Naming a different pool clears every mapping of the resource first.
    void switch_pool(Resource& target, ObjectId new_pool) {
        const ObjectId old_pool = target.pool;
        std::fill(target.tiles.begin(), target.tiles.end(), kNullTile);
        target.pool = new_pool;
        if (old_pool != 0) forget_pool_if_unused(old_pool);
    }

    std::string not_tiled_text(ObjectId id) const {
        if (live_pool(id) != nullptr)
            return object_text(id) + " is a tile pool, not a tiled resource";
        return object_text(id) + " is not a tiled resource";
    }
};

TileState::TileState() {
    // Default states share one empty Impl; the first change copies it.
    static const std::shared_ptr<const Impl> empty = std::make_shared<Impl>();
    impl_ = empty;
}
TileState::~TileState() = default;
TileState::TileState(const TileState&) = default;
TileState& TileState::operator=(const TileState&) = default;
TileState::TileState(TileState&&) noexcept = default;
TileState& TileState::operator=(TileState&&) noexcept = default;

const TileState::Impl& TileState::state() const {
    static const Impl empty;
    return impl_ ? *impl_ : empty;
}

TileState::Impl& TileState::mutable_impl() {
    if (!impl_) {
        impl_ = std::make_shared<Impl>();
    } else if (!owned_alone(impl_)) {
        impl_ = std::make_shared<Impl>(*impl_);
    }
    // Every Impl is created non-const, and nobody else holds this one.
    return const_cast<Impl&>(*impl_);
}

HRESULT TileState::create_pool(ObjectId pool, std::uint64_t byte_width, MessageSink* sink) {
    const Impl& current = state();
    if (pool == 0) return reject(sink, kCreatePoolCall, "ppBuffer", "object id 0 means NULL");
    if (current.exists(pool)) {
        return reject(sink, kCreatePoolCall, "ppBuffer", object_text(pool) + " already exists");
    }
    // 0 is a pool without tiles yet, grown later by ResizeTilePool.
    if (byte_width % kTileBytes != 0) {
        return reject(sink, kCreatePoolCall, "pDesc->ByteWidth",
                      std::to_string(byte_width) +
                          " is not a multiple of 65536 (64 KiB), as a tile pool needs");
    }
    if (byte_width / kTileBytes > kMaxPoolTiles) {
        return reject(sink, kCreatePoolCall, "pDesc->ByteWidth",
                      std::to_string(byte_width) + " bytes is more tiles than a pool can index",
                      E_OUTOFMEMORY);
    }
    insert_record(mutable_impl().pools, PoolRecord{pool, byte_width / kTileBytes, false});
    return S_OK;
}

HRESULT TileState::create_tiled_resource(ObjectId resource, const ResourceTiling& tiling,
                                         MessageSink* sink) {
    const Impl& current = state();
    if (resource == 0)
        return reject(sink, kCreateResourceCall, "resource", "object id 0 means NULL");
    if (current.exists(resource)) {
        return reject(sink, kCreateResourceCall, "resource",
                      object_text(resource) + " already exists");
    }
    std::string problem;
    std::shared_ptr<const Layout> layout = Layout::build(tiling, problem);
    if (!layout) return reject(sink, kCreateResourceCall, "tiling", problem);
    auto created = std::make_shared<Resource>();
    created->tiles.assign(layout->total_tiles(), kNullTile);
    created->layout = std::move(layout);
    insert_record(mutable_impl().resources, ResourceRecord{resource, std::move(created)});
    return S_OK;
}

void TileState::destroy(ObjectId object) {
    const Impl& current = state();
    if (const Resource* found = current.resource(object)) {
        const ObjectId pool = found->pool;
        Impl& changed = mutable_impl();
        changed.resources.erase(find_record(changed.resources, object));
        if (pool != 0) changed.forget_pool_if_unused(pool);
        return;
    }
    if (current.live_pool(object) != nullptr) {
        Impl& changed = mutable_impl();
        find_record(changed.pools, object)->released = true;
        changed.forget_pool_if_unused(object);
    }
}

HRESULT TileState::update_tile_mappings(
    ObjectId resource, UINT num_regions, const D3D11_TILED_RESOURCE_COORDINATE* starts,
    const D3D11_TILE_REGION_SIZE* sizes, ObjectId pool, UINT num_ranges, const UINT* range_flags,
    const UINT* pool_start_offsets, const UINT* range_tile_counts, UINT flags, MessageSink* sink) {
    const Impl& current = state();
    const Resource* target = current.resource(resource);
    if (target == nullptr) {
        return reject(sink, kUpdateCall, "pTiledResource", current.not_tiled_text(resource));
    }
    if (pool != 0 && current.live_pool(pool) == nullptr) {
        return reject(sink, kUpdateCall, "pTilePool", object_text(pool) + " is not a tile pool");
    }
    if ((flags & ~UINT{D3D11_TILE_MAPPING_NO_OVERWRITE}) != 0) {
        return reject(sink, kUpdateCall, "Flags",
                      hex(flags) + " has bits other than D3D11_TILE_MAPPING_NO_OVERWRITE (0x1)");
    }
    if (starts == nullptr && num_regions > 1) {
        return reject(sink, kUpdateCall, "pTiledResourceRegionStartCoordinates",
                      "NULL is allowed only when NumTiledResourceRegions is 1 (it is " +
                          std::to_string(num_regions) + ")");
    }

    const std::shared_ptr<const Layout> layout = target->layout;
    const MappingRegions regions{starts, sizes, layout->total_tiles()};
    std::uint64_t region_tiles = 0;
    for (UINT index = 0; index < num_regions; ++index) {
        const D3D11_TILE_REGION_SIZE size = regions.size(index);
        if (auto problem = layout->check(regions.start(index), size)) {
            const char* array = problem->about_size ? "pTiledResourceRegionSizes"
                                                    : "pTiledResourceRegionStartCoordinates";
            const bool defaulted =
                (problem->about_size ? static_cast<const void*>(sizes)
                                     : static_cast<const void*>(starts)) == nullptr;
            return reject(sink, kUpdateCall,
                          defaulted ? std::string(array) + " (NULL)" : indexed(array, index),
                          problem->text);
        }
        region_tiles += size.NumTiles;
    }

    // Ranges, with the defaults: flags 0; one range covers every region tile,
    // several ranges 1 tile each.
    const auto range_at = [=](UINT index) {
        Range range;
        range.flag = range_flags != nullptr ? range_flags[index] : 0;
        range.tiles = range_tile_counts != nullptr ? range_tile_counts[index]
                      : num_ranges == 1            ? region_tiles
                                                   : 1;
        range.pool_offset = pool_start_offsets != nullptr ? pool_start_offsets[index] : 0;
        return range;
    };
    std::uint64_t range_tiles = 0;
    std::optional<UINT> first_needing_pool;
    for (UINT index = 0; index < num_ranges; ++index) {
        const Range range = range_at(index);
        switch (range.flag) {
            case 0:
            case D3D11_TILE_RANGE_NULL:
            case D3D11_TILE_RANGE_SKIP:
            case D3D11_TILE_RANGE_REUSE_SINGLE_TILE:
                break;
            default:
                return reject(sink, kUpdateCall, indexed("pRangeFlags", index),
                              hex(range.flag) +
                                  " is not 0, D3D11_TILE_RANGE_NULL, D3D11_TILE_RANGE_SKIP or "
                                  "D3D11_TILE_RANGE_REUSE_SINGLE_TILE");
        }
        range_tiles += range.tiles;
        if (range.needs_pool() && !first_needing_pool) first_needing_pool = index;
    }
    if (range_tiles != region_tiles) {
        const std::string how = range_tile_counts == nullptr && num_ranges > 1
                                    ? " (NULL counts mean 1 tile per range)"
                                    : "";
        return reject(sink, kUpdateCall, "pRangeTileCounts",
                      "the ranges cover " + std::to_string(range_tiles) + " tiles" + how +
                          " but the regions " + std::to_string(region_tiles));
    }

    const ObjectId memory_pool = pool != 0 ? pool : target->pool;
    if (first_needing_pool) {
        const auto needing = [&] {
            return "range " + std::to_string(*first_needing_pool) + " maps pool tiles (flags " +
                   hex(range_at(*first_needing_pool).flag) + ")";
        };
        if (pool_start_offsets == nullptr) {
            return reject(sink, kUpdateCall, "pTilePoolStartOffsets", "NULL, but " + needing());
        }
        if (memory_pool == 0) {
            return reject(
                sink, kUpdateCall, "pTilePool",
                "NULL, but the resource has never been given a tile pool and " + needing());
        }
        const std::uint64_t pool_size = current.pool(memory_pool)->tiles;
        for (UINT index = *first_needing_pool; index < num_ranges; ++index) {
            const Range range = range_at(index);
            if (!range.needs_pool()) continue;
            const std::uint64_t end = range.flag == 0 ? range.pool_offset + range.tiles
                                                      : std::uint64_t{range.pool_offset} + 1;
            if (end > pool_size) {
                return reject(sink, kUpdateCall, indexed("pTilePoolStartOffsets", index),
                              "pool tiles " + std::to_string(range.pool_offset) + ".." +
                                  std::to_string(end - 1) + " are past the end of tile pool " +
                                  std::to_string(memory_pool) + " of " + std::to_string(pool_size) +
                                  " tiles");
            }
        }
    }

    Impl& changed = mutable_impl();
    Resource& written = changed.writable_resource(resource);
    if (pool != 0 && pool != written.pool) changed.switch_pool(written, pool);
    RangeCursor cursor(range_at);
    std::uint32_t* tiles = written.tiles.data();
    for (UINT index = 0; index < num_regions; ++index) {
        layout->walk(regions.start(index), regions.size(index),
                     [&](const TileRun& run) { cursor.apply(tiles + run.first_tile, run.count); });
    }
    return S_OK;
}

std::vector<std::uint32_t> TileState::mapping_region_tiles(
    ObjectId resource, UINT num_regions, const D3D11_TILED_RESOURCE_COORDINATE* starts,
    const D3D11_TILE_REGION_SIZE* sizes) const {
    const Resource* target = state().resource(resource);
    if (target == nullptr || (starts == nullptr && num_regions > 1)) return {};
    const Layout& layout = *target->layout;
    const MappingRegions regions{starts, sizes, layout.total_tiles()};
    for (UINT index = 0; index < num_regions; ++index) {
        if (layout.check(regions.start(index), regions.size(index))) return {};
    }
    std::vector<std::uint32_t> tiles;
    for (UINT index = 0; index < num_regions; ++index) {
        layout.walk(regions.start(index), regions.size(index), [&](const TileRun& run) {
            for (std::uint32_t i = 0; i < run.count; ++i) tiles.push_back(run.first_tile + i);
        });
    }
    return tiles;
}

HRESULT TileState::copy_tile_mappings(ObjectId dest,
                                      const D3D11_TILED_RESOURCE_COORDINATE& dest_start,
                                      ObjectId source,
                                      const D3D11_TILED_RESOURCE_COORDINATE& source_start,
                                      const D3D11_TILE_REGION_SIZE& size, UINT flags,
                                      MessageSink* sink) {
    const Impl& current = state();
    const Resource* to = current.resource(dest);
    if (to == nullptr) {
        return reject(sink, kCopyCall, "pDestTiledResource", current.not_tiled_text(dest));
    }
    const Resource* from = current.resource(source);
    if (from == nullptr) {
        return reject(sink, kCopyCall, "pSourceTiledResource", current.not_tiled_text(source));
    }
    if ((flags & ~UINT{D3D11_TILE_MAPPING_NO_OVERWRITE}) != 0) {
        return reject(sink, kCopyCall, "Flags",
                      hex(flags) + " has bits other than D3D11_TILE_MAPPING_NO_OVERWRITE (0x1)");
    }
    if (auto problem = to->layout->check(dest_start, size)) {
        return reject(sink, kCopyCall,
                      problem->about_size ? "pTileRegionSize" : "pDestRegionStartCoordinate",
                      "in the destination: " + problem->text);
    }
    if (auto problem = from->layout->check(source_start, size)) {
        return reject(sink, kCopyCall,
                      problem->about_size ? "pTileRegionSize" : "pSourceRegionStartCoordinate",
                      "in the source: " + problem->text);
    }

    // Through a temporary, so that overlapping regions copy as documented.
    std::vector<std::uint32_t> copied;
    copied.reserve(size.NumTiles);
    from->layout->walk(source_start, size, [&](const TileRun& run) {
        const auto first = from->tiles.begin() + run.first_tile;
        copied.insert(copied.end(), first, first + run.count);
    });
    const ObjectId source_pool = from->pool;
    const std::shared_ptr<const Layout> dest_layout = to->layout;

    Impl& changed = mutable_impl();
    Resource& written = changed.writable_resource(dest);
    if (source_pool != 0 && source_pool != written.pool) changed.switch_pool(written, source_pool);
    std::size_t next = 0;
    dest_layout->walk(dest_start, size, [&](const TileRun& run) {
        std::copy_n(copied.begin() + static_cast<std::ptrdiff_t>(next), run.count,
                    written.tiles.begin() + run.first_tile);
        next += run.count;
    });
    return S_OK;
}

HRESULT TileState::resize_tile_pool(ObjectId pool, std::uint64_t new_byte_width,
                                    MessageSink* sink) {
    const Impl& current = state();
    if (current.live_pool(pool) == nullptr) {
        const std::string what = current.resource(pool) != nullptr
                                     ? object_text(pool) + " is a tiled resource, not a tile pool"
                                     : object_text(pool) + " is not a tile pool";
        return reject(sink, kResizeCall, "pTilePool", what);
    }
    if (new_byte_width % kTileBytes != 0) {
        return reject(sink, kResizeCall, "NewSizeInBytes",
                      std::to_string(new_byte_width) + " is not a multiple of 65536 (64 KiB)");
    }
    if (new_byte_width / kTileBytes > kMaxPoolTiles) {
        return reject(sink, kResizeCall, "NewSizeInBytes",
                      std::to_string(new_byte_width) + " bytes is more tiles than a pool can index",
                      E_OUTOFMEMORY);
    }
    // Mappings past a new, smaller end stay: only new mappings see the size.
    find_record(mutable_impl().pools, pool)->tiles = new_byte_width / kTileBytes;
    return S_OK;
}

HRESULT TileState::region_tiles(ObjectId resource, const D3D11_TILED_RESOURCE_COORDINATE& start,
                                const D3D11_TILE_REGION_SIZE& size, std::vector<TileRef>& tiles,
                                const char* call, MessageSink* sink, RegionAccess access) const {
    tiles.clear();
    if (call == nullptr) call = "d3dcap::runtime::tiles::TileState::region_tiles";
    // The parameter names differ between CopyTiles and UpdateTiles.
    const bool update_tiles = std::string_view(call).find("UpdateTiles") != std::string_view::npos;
    const Impl& current = state();
    const Resource* target = current.resource(resource);
    if (target == nullptr) {
        return reject(sink, call, update_tiles ? "pDestTiledResource" : "pTiledResource",
                      current.not_tiled_text(resource));
    }
    if (auto problem = target->layout->check(start, size)) {
        const char* parameter =
            problem->about_size
                ? (update_tiles ? "pDestTileRegionSize" : "pTileRegionSize")
                : (update_tiles ? "pDestTileRegionStartCoordinate" : "pTileRegionStartCoordinate");
        return reject(sink, call, parameter, problem->text);
    }
    tiles.reserve(size.NumTiles);
    target->layout->walk(start, size, [&](const TileRun& run) {
        for (std::uint32_t i = 0; i < run.count; ++i) {
            tiles.push_back(TileRef{run.subresource, run.x + i, run.y, run.z, run.first_tile + i});
        }
    });
    if (access == RegionAccess::Write) {
        const ResourceTiling& tiling = target->layout->tiling();
        for (const TileRef& tile : tiles) {
            if (tile.subresource < tiling.subresources.size() &&
                tiling.subresources[tile.subresource].StartTileIndexInOverallResource ==
                    kPackedStart) {
                tiles.clear();
                return reject(
                    sink, call,
                    update_tiles ? "pDestTileRegionStartCoordinate" : "pTileRegionStartCoordinate",
                    update_tiles ? "addresses packed-mip tiles, which UpdateTiles cannot "
                                   "write (use UpdateSubresource1)"
                                 : "addresses packed-mip tiles, which CopyTiles cannot "
                                   "write (use CopySubresourceRegion1)");
            }
        }
    }
    return S_OK;
}

bool TileState::is_pool(ObjectId object) const {
    return state().live_pool(object) != nullptr;
}

bool TileState::is_tiled_resource(ObjectId object) const {
    return state().resource(object) != nullptr;
}

const ResourceTiling* TileState::tiling(ObjectId resource) const {
    const Resource* found = state().resource(resource);
    return found != nullptr ? &found->layout->tiling() : nullptr;
}

ObjectId TileState::pool_of(ObjectId resource) const {
    const Resource* found = state().resource(resource);
    return found != nullptr ? found->pool : 0;
}

TileMapping TileState::mapping(ObjectId resource, std::uint32_t tile) const {
    const Resource* found = state().resource(resource);
    if (found == nullptr || tile >= found->tiles.size() || found->tiles[tile] == kNullTile)
        return {};
    return TileMapping{found->pool, found->tiles[tile]};
}

std::vector<TileMapping> TileState::mappings(ObjectId resource) const {
    const Resource* found = state().resource(resource);
    if (found == nullptr) return {};
    std::vector<TileMapping> result;
    result.reserve(found->tiles.size());
    for (std::uint32_t pool_tile : found->tiles) {
        result.push_back(pool_tile == kNullTile ? TileMapping{}
                                                : TileMapping{found->pool, pool_tile});
    }
    return result;
}

std::uint64_t TileState::pool_tiles(ObjectId pool) const {
    const PoolRecord* found = state().pool(pool);
    return found != nullptr ? found->tiles : 0;
}

std::vector<std::pair<ObjectId, std::uint32_t>> TileState::references(
    ObjectId pool, std::uint32_t pool_tile) const {
    std::vector<std::pair<ObjectId, std::uint32_t>> result;
    if (pool == 0 || pool_tile == kNullTile) return result;
    for (const ResourceRecord& record : state().resources) {
        if (record.resource->pool != pool) continue;
        const std::vector<std::uint32_t>& tiles = record.resource->tiles;
        for (std::uint32_t tile = 0; tile < tiles.size(); ++tile) {
            if (tiles[tile] == pool_tile) result.emplace_back(record.id, tile);
        }
    }
    return result;
}

std::vector<std::uint32_t> TileState::referenced_pool_tiles(ObjectId pool) const {
    std::vector<std::uint32_t> result;
    if (pool == 0) return result;
    for (const ResourceRecord& record : state().resources) {
        if (record.resource->pool != pool) continue;
        for (std::uint32_t pool_tile : record.resource->tiles) {
            if (pool_tile != kNullTile) result.push_back(pool_tile);
        }
    }
    std::sort(result.begin(), result.end());
    result.erase(std::unique(result.begin(), result.end()), result.end());
    return result;
}

std::vector<ObjectId> TileState::tiled_resources() const {
    std::vector<ObjectId> result;
    for (const ResourceRecord& record : state().resources) result.push_back(record.id);
    return result;
}

std::vector<ObjectId> TileState::pools() const {
    std::vector<ObjectId> result;
    for (const PoolRecord& record : state().pools) {
        if (!record.released) result.push_back(record.id);
    }
    return result;
}

std::uint64_t TileState::storage_bytes() const {
    const Impl& current = state();
    std::uint64_t bytes = sizeof(Impl) + current.pools.capacity() * sizeof(PoolRecord) +
                          current.resources.capacity() * sizeof(ResourceRecord);
    for (const ResourceRecord& record : current.resources) {
        bytes += sizeof(Resource) + record.resource->tiles.capacity() * sizeof(std::uint32_t) +
                 record.resource->layout->storage_bytes();
    }
    return bytes;
}

}  // namespace d3dcap::runtime::tiles
