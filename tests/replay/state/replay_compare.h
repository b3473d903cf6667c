// Compares the timeline's tile state (recorded object ids) with the tile
// state of a device of the runtime (its own ids), mapping ids through the
// objects: every tiled resource's mappings, pools mapped to pools.
#pragma once

#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <map>

#include "replay/engine/replayer.h"
#include "runtime/inspection.h"
#include "runtime/tiles/tile_state.h"

namespace timeline_tests {

// The runtime's id of a recorded object, 0 when there is none.
using RuntimeIds = std::function<std::uint64_t(std::uint64_t recorded)>;

inline RuntimeIds runtime_ids(const d3dcap::replay::Replayer& replayer) {
    return [&replayer](std::uint64_t recorded) -> std::uint64_t {
        IUnknown* object = replayer.object(recorded);
        return object != nullptr ? d3dcap::runtime::object_id(object) : 0;
    };
}

// The replayed device: the first recorded id whose object is a device.
inline ID3D11Device* replayed_device(const d3dcap::replay::Replayer& replayer) {
    for (std::uint64_t id = 1; id < 64; ++id) {
        IUnknown* object = replayer.object(id);
        ID3D11Device* device = nullptr;
        if (object != nullptr && SUCCEEDED(object->QueryInterface(
                                     __uuidof(ID3D11Device), reinterpret_cast<void**>(&device)))) {
            device->Release();  // the replay keeps it alive
            return device;
        }
    }
    return nullptr;
}

inline void check_matches(const d3dcap::runtime::tiles::TileState& mine,
                          const d3dcap::runtime::tiles::TileState& theirs,
                          const RuntimeIds& runtime_id) {
    using d3dcap::runtime::tiles::TileMapping;
    CHECK(mine.tiled_resources().size() == theirs.tiled_resources().size());
    CHECK(mine.pools().size() == theirs.pools().size());
    for (const std::uint64_t pool : mine.pools()) {
        INFO("pool " << pool);
        const std::uint64_t theirs_id = runtime_id(pool);
        REQUIRE(theirs.is_pool(theirs_id));
        CHECK(theirs.pool_tiles(theirs_id) == mine.pool_tiles(pool));
    }
    std::map<std::uint64_t, std::uint64_t> pools;  // mine to theirs, one to one
    for (const std::uint64_t id : mine.tiled_resources()) {
        INFO("resource " << id);
        const std::uint64_t theirs_id = runtime_id(id);
        REQUIRE(theirs.is_tiled_resource(theirs_id));
        CHECK(theirs.tiling(theirs_id)->total_tiles == mine.tiling(id)->total_tiles);
        const std::vector<TileMapping> a = mine.mappings(id);
        const std::vector<TileMapping> b = theirs.mappings(theirs_id);
        REQUIRE(a.size() == b.size());
        std::size_t differ = 0;
        for (std::size_t t = 0; t < a.size(); ++t) {
            if (a[t].pool_tile != b[t].pool_tile || (a[t].pool == 0) != (b[t].pool == 0)) {
                ++differ;
            } else if (a[t].pool != 0 &&
                       pools.emplace(a[t].pool, b[t].pool).first->second != b[t].pool) {
                ++differ;
            }
        }
        CHECK(differ == 0);
        if (mine.pool_of(id) != 0 && runtime_id(mine.pool_of(id)) != 0)
            CHECK(theirs.pool_of(theirs_id) == runtime_id(mine.pool_of(id)));
    }
    for (const auto& [recorded, theirs_id] : pools) {
        if (runtime_id(recorded) != 0) CHECK(runtime_id(recorded) == theirs_id);
    }
}

}  // namespace timeline_tests
