// What an event draws into, for views that follow the frame as a texture
// viewer does: a call on a swap chain (Present) shows its back buffer; any
// other event the first render target bound on its context after it, else
// the depth-stencil target.
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <functional>
#include <optional>

namespace d3dcap::replay {

class Replayer;

struct EventOutput {
    std::uint64_t resource = 0;  // the recorded id
    std::uint32_t subresource = 0;
};

// The recorded id of a replayed object (0: replay does not know it).
using RecordedId = std::function<std::uint64_t(IUnknown* object)>;

// nullopt when the event draws into nothing replay knows.
std::optional<EventOutput> output_of_event(const Replayer& replayer, std::uint64_t event,
                                           const RecordedId& id_of);

}  // namespace d3dcap::replay
