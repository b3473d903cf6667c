// Thousands of random UpdateTileMappings / CopyTileMappings / ResizeTilePool
// calls, valid and invalid, on TileState and on the simple model side by side:
// after every call the results and every tile's mapping must agree, and
// checkpoints taken along the way must still show what they showed then.
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/tiles/simple_model.h"
#include "runtime/tiles/tile_state.h"
#include "runtime/tiles/tiling_fixtures.h"

using d3dcap::runtime::tiles::kNullTile;
using d3dcap::runtime::tiles::ObjectId;
using d3dcap::runtime::tiles::TileRef;
using d3dcap::runtime::tiles::TileState;
using namespace tile_tests;

namespace {

class Random {
  public:
    explicit Random(std::uint32_t seed) : engine_(seed) {}
    // Uniform in [low, high].
    std::uint64_t between(std::uint64_t low, std::uint64_t high) {
        return std::uniform_int_distribution<std::uint64_t>(low, high)(engine_);
    }
    bool percent(unsigned chance) { return between(0, 99) < chance; }
    template <class T>
    const T& one_of(const std::vector<T>& items) {
        return items[between(0, items.size() - 1)];
    }

  private:
    std::mt19937 engine_;
};

struct Region {
    D3D11_TILED_RESOURCE_COORDINATE start{};
    D3D11_TILE_REGION_SIZE size{};
};

// Both sides of the comparison plus what the generator needs to know.
struct World {
    TileState state;
    simple_model::Model model;
    std::map<ObjectId, ResourceTiling> tilings;
    std::vector<ObjectId> live_pools;
    std::vector<ObjectId> released_pools;
    ObjectId next_pool = 100;

    void add_resource(ObjectId id, const ResourceTiling& tiling) {
        REQUIRE(state.create_tiled_resource(id, tiling, nullptr) == S_OK);
        model.add_resource(id, tiling);
        tilings[id] = tiling;
    }
    void add_pool(std::uint64_t tiles) {
        const ObjectId id = next_pool++;
        REQUIRE(state.create_pool(id, pool_bytes(tiles), nullptr) == S_OK);
        model.add_pool(id, tiles);
        live_pools.push_back(id);
    }
    std::vector<ObjectId> resources() const {
        std::vector<ObjectId> ids;
        for (const auto& entry : tilings) ids.push_back(entry.first);
        return ids;
    }
};

// The first difference between the implementation and the model, or "".
std::string difference(const TileState& state, const simple_model::Model& model,
                       const World& world) {
    std::ostringstream out;
    for (const auto& [id, tiling] : world.tilings) {
        if (state.pool_of(id) != model.pool_of(id)) {
            out << "resource " << id << " is on pool " << state.pool_of(id) << ", model "
                << model.pool_of(id);
            return out.str();
        }
        const auto mappings = state.mappings(id);
        if (mappings.size() != tiling.total_tiles) return "wrong tile count";
        for (std::uint32_t tile = 0; tile < tiling.total_tiles; ++tile) {
            const auto expected = model.at(id, tile);
            const bool same =
                expected ? mappings[tile].pool == expected->pool &&
                               mappings[tile].pool_tile == expected->pool_tile
                         : mappings[tile].pool == 0 && mappings[tile].pool_tile == kNullTile;
            if (!same) {
                out << "resource " << id << " tile " << tile << ": (" << mappings[tile].pool << ", "
                    << mappings[tile].pool_tile << "), model ";
                if (expected) {
                    out << "(" << expected->pool << ", " << expected->pool_tile << ")";
                } else {
                    out << "NULL";
                }
                return out.str();
            }
        }
    }
    for (ObjectId pool = 100; pool < world.next_pool; ++pool) {
        if (state.is_pool(pool) != model.is_pool(pool))
            return "is_pool differs for " + std::to_string(pool);
        if (model.is_pool(pool) && state.pool_tiles(pool) != model.pool_tiles(pool)) {
            return "pool_tiles differs for " + std::to_string(pool);
        }
    }
    return "";
}

// A region that is usually inside the resource and sometimes just outside.
Region random_region(Random& random, const World& world, ObjectId id) {
    const ResourceTiling& tiling = world.tilings.at(id);
    const auto count = static_cast<std::uint32_t>(tiling.subresources.size());
    Region region;
    region.start.Subresource =
        static_cast<UINT>(random.between(0, count - (random.percent(3) ? 0 : 1)));
    if (region.start.Subresource >= count) {
        region.size = tiles(static_cast<UINT>(random.between(0, 3)));
        return region;
    }
    const std::uint32_t mips = tiling.mip_levels;
    const std::uint32_t slice = region.start.Subresource / mips;
    const D3D11_SUBRESOURCE_TILING& sub = tiling.subresources[region.start.Subresource];
    const bool packed = sub.StartTileIndexInOverallResource == kPackedStart;
    const auto remaining_from = [&](const D3D11_TILED_RESOURCE_COORDINATE& start) -> std::uint64_t {
        const auto position = world.model.position(
            id, simple_model::Coordinate{start.Subresource, start.X, start.Y, start.Z});
        return position ? world.model.tile_count(id) - *position : 3;
    };
    const auto linear_count = [&](std::uint64_t remaining) {
        if (random.percent(5)) return static_cast<UINT>(remaining + 1);
        return static_cast<UINT>(random.between(0, std::min<std::uint64_t>(remaining, 40)));
    };

    if (packed) {
        const std::uint32_t first_packed = mips - tiling.packed.NumPackedMips;
        if (random.percent(80)) region.start.Subresource = first_packed + slice * mips;
        const std::uint32_t set = tiling.packed.NumTilesForPackedMips;
        region.start.X = static_cast<UINT>(random.between(0, set - (random.percent(5) ? 0 : 1)));
        region.start.Y = random.percent(5) ? 1 : 0;
        if (random.percent(10)) {
            region.size = box(1, 1);
        } else {
            region.size = tiles(linear_count(remaining_from(region.start)));
        }
        return region;
    }

    const bool array = tiling.array_size > 1;
    const auto inside = [&](std::uint32_t extent) {
        return static_cast<UINT>(random.between(0, extent - (random.percent(4) ? 0 : 1)));
    };
    region.start.X = inside(sub.WidthInTiles);
    region.start.Y = inside(sub.HeightInTiles);
    region.start.Z = inside(sub.DepthInTiles);
    if (random.percent(50)) {
        const auto extent = [&](std::uint32_t from, std::uint32_t limit) {
            const std::uint32_t room = limit > from ? limit - from : 0;
            return static_cast<UINT>(random.between(room == 0 ? 0 : 1, room) +
                                     (random.percent(4) ? 1 : 0));
        };
        const UINT width = random.percent(3) ? 0 : extent(region.start.X, sub.WidthInTiles);
        const UINT height = extent(region.start.Y, sub.HeightInTiles);
        const UINT depth =
            array ? extent(slice, tiling.array_size) : extent(region.start.Z, sub.DepthInTiles);
        region.size = box(width, height, depth);
        if (random.percent(4)) region.size.NumTiles += 1;
    } else {
        region.size = tiles(linear_count(remaining_from(region.start)));
    }
    return region;
}

struct RangeSet {
    std::vector<UINT> flags, offsets, counts;
    bool flags_null = false, offsets_null = false, counts_null = false;
};

// Ranges that add up to `total` tiles (usually) on a pool of `pool_size` tiles.
RangeSet random_ranges(Random& random, std::uint64_t total, std::uint64_t pool_size,
                       std::uint32_t range_count) {
    RangeSet ranges;
    std::vector<std::uint64_t> cuts = {0, total};
    for (std::uint32_t i = 1; i < range_count; ++i) cuts.push_back(random.between(0, total));
    std::sort(cuts.begin(), cuts.end());
    const std::vector<UINT> kinds = {0, D3D11_TILE_RANGE_NULL, D3D11_TILE_RANGE_SKIP,
                                     D3D11_TILE_RANGE_REUSE_SINGLE_TILE};
    bool all_zero_flags = true, all_ones = true, needs_pool = false;
    for (std::uint32_t i = 0; i < range_count; ++i) {
        const auto count = static_cast<UINT>(cuts[i + 1] - cuts[i]);
        UINT flag = random.one_of(kinds);
        if (random.percent(2)) flag = random.percent(50) ? 3 : 8;
        UINT offset = static_cast<UINT>(random.between(0, 50));
        if (flag == 0) {
            offset = pool_size >= count ? static_cast<UINT>(random.between(0, pool_size - count))
                                        : static_cast<UINT>(random.between(0, 3));
            if (random.percent(4)) offset = static_cast<UINT>(pool_size - count + 1);
        } else if (flag == D3D11_TILE_RANGE_REUSE_SINGLE_TILE) {
            offset = static_cast<UINT>(
                random.between(0, pool_size));  // pool_size itself is past the end
        }
        ranges.flags.push_back(flag);
        ranges.offsets.push_back(offset);
        ranges.counts.push_back(count);
        all_zero_flags = all_zero_flags && flag == 0;
        all_ones = all_ones && count == 1;
        needs_pool =
            needs_pool || ((flag == 0 || flag == D3D11_TILE_RANGE_REUSE_SINGLE_TILE) && count > 0);
    }
    if (random.percent(4) && range_count > 0) {
        UINT& count = ranges.counts[random.between(0, range_count - 1)];
        count = count > 0 && random.percent(50) ? count - 1 : count + 1;
    }
    ranges.flags_null = all_zero_flags && random.percent(60);
    ranges.offsets_null = (!needs_pool && random.percent(60)) || random.percent(2);
    ranges.counts_null =
        ((range_count == 1 && ranges.counts[0] == total) || (range_count > 1 && all_ones)) &&
        random.percent(60);
    return ranges;
}

struct Outcome {
    HRESULT real = S_OK, model = S_OK;
    std::size_t messages = 0;  // what the implementation said
    std::string what;
};

Outcome random_update(Random& random, World& world) {
    std::vector<ObjectId> targets = world.resources();
    const ObjectId resource = random.percent(3) ? random.one_of(std::vector<ObjectId>{0, 100, 999})
                                                : random.one_of(targets);
    const bool tiled = world.tilings.count(resource) > 0;
    const ObjectId current = tiled ? world.model.pool_of(resource) : 0;

    ObjectId pool = 0;
    const auto pool_choice = random.between(0, 99);
    if (pool_choice < 30) {
        pool = 0;
    } else if (pool_choice < 55) {
        pool = current;
    } else if (pool_choice < 95 && !world.live_pools.empty()) {
        pool = random.one_of(world.live_pools);
    } else if (!world.released_pools.empty() && random.percent(50)) {
        pool = random.one_of(world.released_pools);
    } else {
        pool = random.percent(50) ? 1 : 999;
    }
    const ObjectId memory = pool != 0 ? pool : current;
    const std::uint64_t pool_size =
        memory != 0 && world.model.is_pool(memory) ? world.model.pool_tiles(memory) : 8;

    std::vector<D3D11_TILED_RESOURCE_COORDINATE> starts;
    std::vector<D3D11_TILE_REGION_SIZE> sizes;
    bool starts_null = false, sizes_null = false;
    std::uint64_t total = 0;
    UINT region_count = 1;
    const auto mode = random.between(0, 99);
    if (!tiled) {
        starts_null = sizes_null = true;
    } else if (mode < 10) {  // the whole resource
        starts_null = sizes_null = true;
        total = world.model.tile_count(resource);
    } else if (mode < 25) {  // scattered single tiles
        sizes_null = true;
        region_count = static_cast<UINT>(random.between(1, 6));
        for (UINT i = 0; i < region_count; ++i)
            starts.push_back(random_region(random, world, resource).start);
        total = region_count;
    } else if (mode < 33) {  // one region from the origin
        starts_null = true;
        sizes.push_back(random_region(random, world, resource).size);
        total = sizes[0].NumTiles;
    } else if (mode < 35) {  // NULL starts for several regions: refused
        starts_null = true;
        region_count = 2;
        sizes = {tiles(1), tiles(1)};
        total = 2;
    } else {
        region_count = static_cast<UINT>(random.between(0, 4));
        for (UINT i = 0; i < region_count; ++i) {
            const Region region = random_region(random, world, resource);
            starts.push_back(region.start);
            sizes.push_back(region.size);
            total += region.size.NumTiles;
        }
    }

    const bool one_per_region = sizes_null && !starts_null && random.percent(60);
    const auto range_count = static_cast<std::uint32_t>(
        one_per_region ? region_count : random.between(total == 0 ? 0 : 1, 5));
    const RangeSet ranges = random_ranges(random, total, pool_size, range_count);
    const UINT flags = random.percent(6) ? random.one_of(std::vector<UINT>{2, 3, 0x80000000u})
                                         : static_cast<UINT>(random.between(0, 1));

    const auto* starts_ptr = starts_null ? nullptr : starts.data();
    const auto* sizes_ptr = sizes_null ? nullptr : sizes.data();
    const UINT* flags_ptr = ranges.flags_null ? nullptr : ranges.flags.data();
    const UINT* offsets_ptr = ranges.offsets_null ? nullptr : ranges.offsets.data();
    const UINT* counts_ptr = ranges.counts_null ? nullptr : ranges.counts.data();
    Outcome outcome;
    RecordingSink sink;
    outcome.model = tiled
                        ? world.model.update(resource, region_count, starts_ptr, sizes_ptr, pool,
                                             range_count, flags_ptr, offsets_ptr, counts_ptr, flags)
                        : E_INVALIDARG;
    outcome.real = world.state.update_tile_mappings(resource, region_count, starts_ptr, sizes_ptr,
                                                    pool, range_count, flags_ptr, offsets_ptr,
                                                    counts_ptr, flags, &sink);
    outcome.messages = sink.messages.size();
    outcome.what = "UpdateTileMappings on " + std::to_string(resource) + " with pool " +
                   std::to_string(pool) + ", " + std::to_string(region_count) + " regions, " +
                   std::to_string(range_count) + " ranges";
    return outcome;
}

Outcome random_copy(Random& random, World& world) {
    const std::vector<ObjectId> targets = world.resources();
    ObjectId source = random.one_of(targets);
    ObjectId dest = random.percent(40) ? source : random.one_of(targets);
    const Region from = random_region(random, world, source);
    const D3D11_TILED_RESOURCE_COORDINATE to = random_region(random, world, dest).start;
    if (random.percent(2)) (random.percent(50) ? source : dest) = random.percent(50) ? 100 : 0;
    const UINT flags = random.percent(5) ? 4 : static_cast<UINT>(random.between(0, 1));
    const bool tiled = world.tilings.count(source) > 0 && world.tilings.count(dest) > 0;
    Outcome outcome;
    RecordingSink sink;
    outcome.model =
        tiled ? world.model.copy(dest, to, source, from.start, from.size, flags) : E_INVALIDARG;
    outcome.real =
        world.state.copy_tile_mappings(dest, to, source, from.start, from.size, flags, &sink);
    outcome.messages = sink.messages.size();
    outcome.what =
        "CopyTileMappings from " + std::to_string(source) + " to " + std::to_string(dest);
    return outcome;
}

Outcome random_resize(Random& random, World& world) {
    ObjectId pool = world.live_pools.empty() ? 1 : random.one_of(world.live_pools);
    if (random.percent(5)) pool = random.percent(50) ? 1 : world.next_pool;
    std::uint64_t bytes = pool_bytes(random.between(0, 40));
    if (random.percent(8)) bytes += random.between(1, 65535);
    Outcome outcome;
    RecordingSink sink;
    outcome.model = world.model.resize(pool, bytes);
    outcome.real = world.state.resize_tile_pool(pool, bytes, &sink);
    outcome.messages = sink.messages.size();
    outcome.what = "ResizeTilePool of " + std::to_string(pool) + " to " + std::to_string(bytes);
    return outcome;
}

}  // namespace

TEST_CASE("random calls agree with the simple model after every call", "[tiles][random]") {
    Random random(20240611);
    World world;
    world.add_resource(1, mipped_texture());
    world.add_resource(2, texture_array());
    world.add_resource(3, volume_texture());
    world.add_resource(4, tiled_buffer(24));
    world.add_resource(5, make_tiling({}, 2, 2));  // everything packed
    world.add_pool(24);
    world.add_pool(10);
    world.add_pool(40);

    struct Checkpoint {
        TileState state;
        simple_model::Model model;
        int call;
    };
    std::vector<Checkpoint> checkpoints;
    int accepted = 0, refused = 0;
    constexpr int kCalls = 6000;
    for (int call = 0; call < kCalls; ++call) {
        Outcome outcome;
        const auto choice = random.between(0, 99);
        if (choice < 62) {
            outcome = random_update(random, world);
        } else if (choice < 84) {
            outcome = random_copy(random, world);
        } else if (choice < 98) {
            outcome = random_resize(random, world);
        } else {  // the app lets a pool go and makes a new one
            if (world.live_pools.size() > 1) {
                const ObjectId gone = random.one_of(world.live_pools);
                world.state.destroy(gone);
                world.model.release_pool(gone);
                std::erase(world.live_pools, gone);
                world.released_pools.push_back(gone);
            }
            world.add_pool(random.between(1, 40));
            outcome.what = "destroy and create a pool";
        }
        INFO("call " << call << ": " << outcome.what);
        REQUIRE(outcome.real == outcome.model);
        REQUIRE(outcome.messages == (outcome.real == S_OK ? 0u : 1u));
        (outcome.real == S_OK ? accepted : refused) += 1;
        REQUIRE(difference(world.state, world.model, world) == "");
        if (call % 97 == 0) checkpoints.push_back({world.state, world.model, call});
    }
    // Both kinds of call were exercised in quantity.
    CHECK(accepted > kCalls / 4);
    CHECK(refused > kCalls / 10);
    for (const Checkpoint& checkpoint : checkpoints) {
        INFO("checkpoint after call " << checkpoint.call);
        CHECK(difference(checkpoint.state, checkpoint.model, world) == "");
    }
}

TEST_CASE("random regions walk the same tiles as the simple model", "[tiles][random]") {
    Random random(7);
    World world;
    world.add_resource(1, mipped_texture());
    world.add_resource(2, texture_array());
    world.add_resource(3, volume_texture());
    world.add_resource(4, tiled_buffer(24));
    world.add_resource(5, make_tiling({}, 2, 2));
    int inside = 0, outside = 0;
    std::vector<TileRef> refs;
    for (int i = 0; i < 4000; ++i) {
        const ObjectId id = random.between(1, 5);
        const Region region = random_region(random, world, id);
        const auto expected = world.model.region(id, region.start, region.size);
        RecordingSink sink;
        const HRESULT result = world.state.region_tiles(id, region.start, region.size, refs,
                                                        "ID3D11DeviceContext2::CopyTiles", &sink);
        INFO("region " << i << " of resource " << id);
        REQUIRE(result == (expected ? S_OK : E_INVALIDARG));
        REQUIRE(sink.messages.size() == (expected ? 0u : 1u));
        if (!expected) {
            ++outside;
            continue;
        }
        ++inside;
        std::vector<std::uint32_t> walked;
        for (const TileRef& ref : refs) walked.push_back(ref.tile);
        REQUIRE(walked == *expected);
    }
    CHECK(inside > 2000);
    CHECK(outside > 200);
}
