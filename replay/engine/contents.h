// What a resource holds after any event: the trace replayed on a device of
// the caller's choice up to the event, then the subresource read back in
// the canonical layout (rows tightly packed, slices after rows, the samples
// of a texel side by side). For the viewer's contents view and tools that
// look inside a frame.
//
// Replay runs forward from where the last request left it; an earlier
// event is answered from the nearest checkpoint before it (set_checkpoints),
// else replay starts again from the beginning of the trace.
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "format/trace/error.h"
#include "replay/engine/event_output.h"
#include "replay/engine/pipeline_state.h"
#include "replay/engine/resource_shape.h"

namespace d3dcap::replay {

class Replayer;

// A resource replay holds after an event, as created (subresource 0).
struct ListedResource {
    std::uint64_t id = 0;
    SubresourceShape shape;
    std::string debug_name;
};

// Which texels of a subresource to read: a rectangle (clamped to the
// subresource), and at most max_side texels a side of it, so that a view of
// a large texture reads what it can show: every step-th texel of every
// step-th row, step a power of two. Compressed formats read whole blocks
// (step 1); formats whose texels are not whole bytes, and buffers, read whole.
struct ContentsWindow {
    std::uint32_t x = 0, y = 0;
    std::uint32_t width = UINT32_MAX, height = UINT32_MAX;
    std::uint32_t max_side = UINT32_MAX;
};

struct ContentsRequest {
    // What the event draws into (event_output.h): the answer names the
    // resource and subresource it found.
    static constexpr std::uint64_t kEventOutput = UINT64_MAX;

    std::uint64_t resource = 0;  // 0: only the list of resources; or kEventOutput
    std::uint32_t subresource = 0;
    ContentsWindow window;
};

// What was read: texels [x, x + width) x [y, y + height) of every depth
// slice, every step-th texel of every step-th row (the window's elements).
struct TexelWindow {
    std::uint32_t x = 0, y = 0, width = 0, height = 0, step = 1;
    std::uint32_t columns() const { return (width + step - 1) / step; }
    std::uint32_t rows() const { return (height + step - 1) / step; }
};

// What replay holds after an event: every resource, the pipeline state,
// and the contents of the one asked for.
struct ResourceContents {
    std::uint64_t event = 0;
    std::vector<ListedResource> resources;  // ascending ids
    std::uint64_t resource = 0;             // 0: only the list was asked for
    std::uint32_t subresource = 0;
    SubresourceShape shape;  // the whole subresource
    TexelWindow window;      // what bytes hold of it
    std::vector<std::uint8_t> bytes;
    // The pipeline state then (pipeline_state.h) of the context the
    // event's call was made on: a draw on a deferred context shows what it
    // recorded; other events the immediate context's.
    std::vector<StateRow> pipeline;
    // Why the resource asked for has no contents to show ("object #3 is no
    // resource after this event"); the list holds all the same.
    std::string problem;
};

// "Texture2D 1280x720 R8G8B8A8_UNORM", "Texture2D 512x512x6 BC1_UNORM 10
// mips tiled", "Buffer 65536 bytes", "Texture2D 64x64 D32_FLOAT 4x MSAA".
std::string describe(const SubresourceShape& first_subresource);

class CheckpointProcess;

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

    // The resources after event (back buffers, views' resources and tiled
    // resources alike) and the subresource of a recorded resource id (0:
    // none). A resource that cannot be shown is a problem of the answer;
    // errors name the event: past the end, or the replay error that stopped
    // replay there.
    trace::Result<ResourceContents> contents_after(std::uint64_t event,
                                                   const ContentsRequest& request,
                                                   const StillWanted& still_wanted = {});
    // The whole subresource.
    trace::Result<ResourceContents> contents_after(std::uint64_t event, std::uint64_t resource,
                                                   std::uint32_t subresource,
                                                   const StillWanted& still_wanted = {}) {
        return contents_after(event, ContentsRequest{resource, subresource, {}}, still_wanted);
    }
    static constexpr std::string_view kCancelledMessage = "cancelled: a newer request came";
    static bool is_cancelled(const trace::TraceError& error);

    // On the reference and null devices replay pauses, in processes of its
    // own, every `interval` events it passes (at most max_checkpoints of
    // them: past that, every other one goes and the interval doubles), and
    // answers for an earlier event from the nearest pause before it.
    // interval 0: never (every earlier event replays from the start).
    void set_checkpoints(std::uint64_t interval, std::size_t max_checkpoints = 64);
    // Every 1/64 of the trace, 256 events at least: what the viewer takes.
    std::uint64_t usual_checkpoint_interval() const;
    std::size_t checkpoint_count() const { return checkpoints_.size(); }

    std::uint64_t event_count() const;
    // The next event replay would run (what has been replayed is before it).
    std::uint64_t next_event() const;
    // How many times replay started from the beginning (the first included).
    std::uint64_t starts() const { return starts_; }

  private:
    ContentsReplay(std::string trace_path, D3D_DRIVER_TYPE driver);
    trace::Status start();
    // Replays forward through event, pausing at checkpoints on the way.
    trace::Status replay_to(std::uint64_t event, const StillWanted& still_wanted);
    // The answer from this process's replay, which is at or before event.
    trace::Result<ResourceContents> read_after(std::uint64_t event, const ContentsRequest& request,
                                               const StillWanted& still_wanted);
    void take_checkpoint();
    std::vector<ListedResource> resources() const;
    // The state of the context event's call was made on (else the
    // immediate context's).
    RecordedId recorded_ids() const;
    std::vector<StateRow> pipeline(std::uint64_t event, const RecordedId& id_of) const;

    const std::string trace_path_;
    const D3D_DRIVER_TYPE driver_;
    std::unique_ptr<Replayer> replayer_;
    std::uint64_t starts_ = 0;
    std::uint64_t checkpoint_interval_ = 0;
    std::size_t max_checkpoints_ = 64;
    bool in_checkpoint_ = false;  // this process serves a checkpoint: it takes none
    std::vector<std::unique_ptr<CheckpointProcess>> checkpoints_;  // by event
};

}  // namespace d3dcap::replay
