// Test support for the tile timeline: traces written record by record with
// object ids chosen by the test, and comparisons of tile states.
#pragma once

#include <d3d11_2.h>
#include <d3dcap/api/call_encoders.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/tiles_command.h"
#include "replay/state/tile_timeline.h"
#include "runtime/tiles/recorded_tiling.h"
#include "support/record_writer.h"
#include "support/temp_dir.h"
#include "support/trace_fixture.h"

namespace timeline_tests {

using namespace d3dcap;

// The encoders see objects as pointers; here a pointer's value is its id.
template <class T>
T* object(std::uint64_t id) {
    return reinterpret_cast<T*>(static_cast<std::uintptr_t>(id));
}

inline constexpr std::uint64_t kDevice = 1;
inline constexpr std::uint64_t kContext = 2;

class TraceBuilder final : public testing::RecordWriter, public api::ObjectIds {
  public:
    explicit TraceBuilder(std::string path, const trace::WriterOptions& options = {})
        : RecordWriter(std::move(path), options) {}

    std::uint64_t id_of(const void* pointer) override {
        return reinterpret_cast<std::uintptr_t>(pointer);
    }

    // A call on object; a context call when context is not 0.
    template <typename Params>
    std::uint64_t call(std::uint64_t self, flatbuffers::Offset<Params> params,
                       std::optional<HRESULT> result = S_OK, std::uint64_t context = 0) {
        return call_record(self, context, params, result);
    }
    // A call on a device context.
    template <typename Params>
    std::uint64_t on(std::uint64_t context, flatbuffers::Offset<Params> params,
                     std::optional<HRESULT> result = S_OK) {
        return call(context, params, result, context);
    }
    std::uint64_t create_pool(std::uint64_t id, std::uint64_t tiles, HRESULT result = S_OK) {
        const fb::D3D11_BUFFER_DESC desc(static_cast<std::uint32_t>(tiles * 65536),
                                         D3D11_USAGE_DEFAULT, 0, 0, D3D11_RESOURCE_MISC_TILE_POOL,
                                         0);
        return call(kDevice, fb::CreateID3D11Device_CreateBuffer(b, &desc, 0, id), result);
    }
    // A tiled RGBA8 texture, as the capture layer records it: the creation,
    // then (when given) the tiling the capturing device reported.
    std::uint64_t create_texture(std::uint64_t id, std::uint32_t width, std::uint32_t height,
                                 std::uint32_t mips, std::uint32_t slices,
                                 const std::optional<runtime::tiles::ResourceTiling>& tiling,
                                 HRESULT result = S_OK,
                                 DXGI_FORMAT format = DXGI_FORMAT_R8G8B8A8_UNORM) {
        const fb::D3D11_TEXTURE2D_DESC desc(
            width, height, mips, slices, format, fb::SampleDesc(1, 0), D3D11_USAGE_DEFAULT,
            D3D11_BIND_SHADER_RESOURCE, 0, D3D11_RESOURCE_MISC_TILED);
        const std::uint64_t event =
            call(kDevice, fb::CreateID3D11Device_CreateTexture2D(b, &desc, 0, id), result);
        meta(fb::CreateObjectCreatedDirect(b, id, "ID3D11Texture2D", kDevice));
        if (tiling) resource_tiling(id, *tiling);
        return event;
    }
    std::uint64_t create_tiled_buffer(std::uint64_t id, std::uint32_t bytes) {
        const fb::D3D11_BUFFER_DESC desc(bytes, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0,
                                         D3D11_RESOURCE_MISC_TILED, 0);
        return call(kDevice, fb::CreateID3D11Device_CreateBuffer(b, &desc, 0, id));
    }
    std::uint64_t resource_tiling(std::uint64_t id, const runtime::tiles::ResourceTiling& t) {
        return meta(runtime::tiles::record_of_tiling(b, id, t));
    }
    std::uint64_t name(std::uint64_t id, const char* text) {
        return meta(fb::CreateDebugNameDirect(b, id, text));
    }
    std::uint64_t destroyed(std::uint64_t id) { return meta(fb::CreateObjectDestroyed(b, id)); }

    std::uint64_t update(std::uint64_t context, std::uint64_t resource, UINT regions,
                         const D3D11_TILED_RESOURCE_COORDINATE* starts,
                         const D3D11_TILE_REGION_SIZE* sizes, std::uint64_t pool, UINT ranges,
                         const UINT* flags, const UINT* offsets, const UINT* counts,
                         UINT call_flags = 0, HRESULT result = S_OK) {
        return on(context,
                  api::encode_ID3D11DeviceContext2_UpdateTileMappings(
                      b, *this, object<ID3D11Resource>(resource), regions, starts, sizes,
                      object<ID3D11Buffer>(pool), ranges, flags, offsets, counts, call_flags),
                  result);
    }
    std::uint64_t copy(std::uint64_t context, std::uint64_t dest,
                       const D3D11_TILED_RESOURCE_COORDINATE& dest_start, std::uint64_t source,
                       const D3D11_TILED_RESOURCE_COORDINATE& source_start,
                       const D3D11_TILE_REGION_SIZE& size) {
        return on(context, api::encode_ID3D11DeviceContext2_CopyTileMappings(
                               b, *this, object<ID3D11Resource>(dest), &dest_start,
                               object<ID3D11Resource>(source), &source_start, &size, 0));
    }
    std::uint64_t resize(std::uint64_t context, std::uint64_t pool, std::uint64_t bytes) {
        return on(context, fb::CreateID3D11DeviceContext2_ResizeTilePool(b, pool, bytes));
    }
    std::uint64_t marker(std::uint64_t context, int data) {
        return on(context, fb::CreateID3D11DeviceContext2_SetMarkerIntDirect(b, "frame", data),
                  std::nullopt);
    }
};

inline std::unique_ptr<state::TileTimeline> open_timeline(const std::string& path,
                                                          std::uint64_t interval = 65536,
                                                          std::uint64_t chunks = 8) {
    state::TimelineOptions options;
    options.checkpoint_interval = interval;
    options.checkpoint_chunks = chunks;
    auto timeline = state::TileTimeline::open(path, options);
    REQUIRE(timeline.ok());
    return std::move(timeline.value());
}

inline runtime::tiles::TileState state_at(state::TileTimeline& timeline, std::uint64_t event) {
    auto state = timeline.state_at(event);
    INFO((state.ok() ? std::string() : state.error().to_string()));
    REQUIRE(state.ok());
    return state.value();
}

// The pool tile of every tile of a resource, by overall index.
inline std::vector<std::uint32_t> pool_tiles(const runtime::tiles::TileState& state,
                                             std::uint64_t id) {
    std::vector<std::uint32_t> out;
    for (const runtime::tiles::TileMapping& mapping : state.mappings(id))
        out.push_back(mapping.pool_tile);
    return out;
}

// Every pool, resource, pool size and mapping of two states, ids equal.
inline void check_same_state(const runtime::tiles::TileState& a,
                             const runtime::tiles::TileState& b) {
    REQUIRE(a.pools() == b.pools());
    REQUIRE(a.tiled_resources() == b.tiled_resources());
    for (const std::uint64_t pool : a.pools()) {
        INFO("pool " << pool);
        CHECK(a.pool_tiles(pool) == b.pool_tiles(pool));
    }
    for (const std::uint64_t id : a.tiled_resources()) {
        INFO("resource " << id);
        CHECK(a.pool_of(id) == b.pool_of(id));
        CHECK(a.tiling(id)->total_tiles == b.tiling(id)->total_tiles);
        CHECK(pool_tiles(a, id) == pool_tiles(b, id));
    }
}

struct CommandResult {
    int exit = 0;
    std::string out, err;
};

inline CommandResult run_tiles(const cli::TilesOptions& options) {
    std::ostringstream out, err;
    CommandResult result;
    result.exit = cli::run_tiles(options, out, err);
    result.out = out.str();
    result.err = err.str();
    return result;
}

}  // namespace timeline_tests
