// Replay on a device that tiles a resource differently from the recording
// one. The trace says how the recording device tiled each tiled resource
// (ResourceTiling); when the replay device packs the small mips differently,
// tile-mapping calls on that resource are applied to a model of the recorded
// tiling and the tiles that changed are mapped onto the replay device's own
// tiles: standard tiles one to one, and the packed tails (everything from
// the first mip either device packs) tile by tile in order, so the pool
// tiles the application gave its packed mips back the replay device's.
#pragma once

#include <d3d11_2.h>
#include <d3dcap/api/call_decoders.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "format/trace/reader.h"
#include "replay/engine/replayer.h"
#include "runtime/tiles/tile_state.h"

namespace d3dcap::replay {

class TilingAdaptation {
  public:
    // The recorded tilings, from the trace index.
    void load(const fb::TraceIndex& index);

    // A replayed object appeared under a recorded id: pools are tracked, and
    // a tiled resource's tiling is compared with the recorded one.
    void object_added(std::uint64_t id, IUnknown* object, std::uint64_t event,
                      std::vector<Adaptation>& adaptations);
    void pool_resized(std::uint64_t pool, std::uint64_t bytes);
    void destroyed(std::uint64_t id);

    // True when UpdateTileMappings on this resource goes through adapt().
    bool remaps(std::uint64_t resource) const { return remaps_.count(resource) != 0; }
    // Replays a recorded UpdateTileMappings of a remapped resource.
    api::Invoked update_tile_mappings(const fb::Record& record, api::DecodeContext& ctx);

  private:
    struct Remap {
        // Per recorded tile: the replay device's tile that stands for it, or kNullTile.
        std::vector<std::uint32_t> target_of;
        // Per replay-device tile: its coordinate for UpdateTileMappings.
        std::vector<D3D11_TILED_RESOURCE_COORDINATE> coordinate;
    };

    std::unordered_map<std::uint64_t, runtime::tiles::ResourceTiling> recorded_;  // from the index
    std::unordered_map<std::uint64_t, std::uint64_t> pool_bytes_;                 // every pool
    std::unordered_map<std::uint64_t, Remap> remaps_;
    // The mappings as the recording device had them, for remapped resources
    // and the pools they use.
    runtime::tiles::TileState model_;
};

}  // namespace d3dcap::replay
