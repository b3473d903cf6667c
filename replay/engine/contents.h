// What a resource holds after any event: the trace replayed on a device of
// the caller's choice up to the event, then the subresource read back in
// the canonical layout (rows tightly packed, slices after rows, the samples
// of a texel side by side). For the viewer's contents view and tools that
// look inside a frame.
//
// Replay runs forward from where the last request left it; an earlier
// event starts again from the beginning of the trace.
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "format/trace/error.h"
#include "replay/engine/resource_shape.h"

namespace d3dcap::replay {

class Replayer;

struct ResourceContents {
    std::uint64_t event = 0;  // the contents after this event
    std::uint64_t resource = 0;
    std::uint32_t subresource = 0;
    SubresourceShape shape;
    std::vector<std::uint8_t> bytes;
};

// A resource replay holds at the current event, as created (subresource 0).
struct ListedResource {
    std::uint64_t id = 0;
    SubresourceShape shape;
    std::string debug_name;
};

// "Texture2D 1280x720 R8G8B8A8_UNORM", "Texture2D 512x512x6 BC1_UNORM 10
// mips tiled", "Buffer 65536 bytes", "Texture2D 64x64 D32_FLOAT 4x MSAA".
std::string describe(const SubresourceShape& first_subresource);

class ContentsReplay {
  public:
    // Opens the trace for replay on driver (HARDWARE, WARP, REFERENCE;
    // NULL keeps no contents).
    static trace::Result<std::unique_ptr<ContentsReplay>> open(const std::string& trace_path,
                                                               D3D_DRIVER_TYPE driver);
    ~ContentsReplay();
    ContentsReplay(const ContentsReplay&) = delete;
    ContentsReplay& operator=(const ContentsReplay&) = delete;

    // Called every few thousand events; false cancels the request
    // (is_cancelled() tells that error from others).
    using StillWanted = std::function<bool()>;

    // The subresource of a recorded resource id after event. Errors name
    // the event: past the end, no such resource then, no such subresource,
    // a device that keeps no contents, or the replay error that stopped it.
    trace::Result<ResourceContents> contents_after(std::uint64_t event, std::uint64_t resource,
                                                   std::uint32_t subresource,
                                                   const StillWanted& still_wanted = {});
    static bool is_cancelled(const trace::TraceError& error);
    // Replays through event (from the start when it is behind).
    trace::Status replay_to(std::uint64_t event, const StillWanted& still_wanted = {});

    // The resources replay holds after the last event it replayed (back
    // buffers, views' resources and tiled resources alike), by id.
    std::vector<ListedResource> resources() const;

    std::uint64_t event_count() const;
    // The next event replay would run (what has been replayed is before it).
    std::uint64_t next_event() const;
    // How many times replay started from the beginning (the first included).
    std::uint64_t starts() const { return starts_; }

  private:
    ContentsReplay(std::string trace_path, D3D_DRIVER_TYPE driver);
    trace::Status start();

    const std::string trace_path_;
    const D3D_DRIVER_TYPE driver_;
    std::unique_ptr<Replayer> replayer_;
    std::uint64_t starts_ = 0;
};

}  // namespace d3dcap::replay
