// Map/Unmap replay: the bytes an application wrote into mapped memory are
// recorded at Unmap as ranges relative to the start of the subresource, laid
// out with the pitches the capturing device's Map returned. Replay keeps a
// copy of each subresource's recorded content (what a WRITE_DISCARD mapping
// holds), applies the ranges to it and copies into the replay device's
// mapping, row by row where the pitches differ.
#pragma once

#include <d3d11_2.h>
#include <d3dcap/fb/record_generated.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "replay/engine/resource_shape.h"

namespace d3dcap::replay {

// One subresource mapping: where the recorded bytes go.
struct Mapping {
    D3D11_MAP type = D3D11_MAP_WRITE;
    Extent extent;  // rows of the subresource on the replay device
    std::uint64_t recorded_row_pitch = 0;
    std::uint64_t recorded_depth_pitch = 0;
    bool replayed = false;              // the replayed Map succeeded
    D3D11_MAPPED_SUBRESOURCE replay{};  // what it returned
};

using MapWrites = flatbuffers::Vector<flatbuffers::Offset<fb::MappedWrite>>;

class MappedMemory {
  public:
    // The most bytes one recorded subresource layout may span.
    static constexpr std::uint64_t kMaxSpan = std::uint64_t{1} << 30;

    // Remembers a mapping of (resource id, subresource); an error text when
    // its recorded layout cannot be held.
    std::string begin(std::uint64_t resource, UINT subresource, const Mapping& mapping);
    // The open mapping of (resource id, subresource), or nullptr.
    const Mapping* find(std::uint64_t resource, UINT subresource) const;
    // Applies an Unmap's recorded writes to the copy and to the replay
    // mapping and closes it; an error text (nothing written) when a range
    // leaves the subresource.
    std::string end(std::uint64_t resource, UINT subresource, const MapWrites* writes);
    // Forgets a resource's copies (it was destroyed).
    void forget(std::uint64_t resource);

  private:
    using Key = std::pair<std::uint64_t, UINT>;
    std::map<Key, Mapping> open_;
    std::map<Key, std::vector<std::uint8_t>> content_;  // as of the last Unmap
};

}  // namespace d3dcap::replay
