// The replay engine: decodes every recorded call of a trace and re-issues it
// through the standard D3D11/DXGI API on a device of the chosen driver type
// (created by the recorded D3D11CreateDevice*), mapping recorded object ids
// to the replayed objects.
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "format/trace/error.h"
#include "runtime/backend/work_timing.h"
#include "runtime/formats/thumbnail.h"
#include "runtime/inspection.h"

namespace d3dcap::fb {
struct Record;
struct ContentHashes;
struct SubresourceImage;
}  // namespace d3dcap::fb

namespace d3dcap::replay {

using trace::Result;
using trace::Status;

struct ReplayOptions {
    // REFERENCE (or WARP): the CPU reference device; NULL: the state-only device.
    D3D_DRIVER_TYPE driver = D3D_DRIVER_TYPE_REFERENCE;
    // Time each event (CPU, and GPU where the device can tell).
    bool timing = false;
    // Devices that time their work in the command stream: a timestamp per
    // event, or only per submission (a frame: its time goes to its last event).
    runtime::backend::WorkTiming gpu_timestamps = runtime::backend::WorkTiming::PerStep;
    // Recompute the recorded content hashes (ContentHashes records).
    bool verify = false;
    // Every Present writes DIR/frame-NNNNN.png when not empty.
    std::string screenshot_directory;
    // The most one resource, tile pool or chunk of the trace may make replay
    // allocate; a record past it stops replay with an error. 0: from
    // D3DCAP_REPLAY_MEMORY_CAP (MiB), else 16 GiB.
    std::uint64_t memory_cap = 0;
};

// One replayed event: its call (0 for records that are no call) and, with
// ReplayOptions::timing, the CPU time of decoding and making the call and
// the device's execution time (-1 where the device cannot tell).
struct EventTiming {
    std::uint64_t event = 0;
    std::uint16_t call = 0;
    std::uint8_t meta = 0;  // fb::Meta of a record that is no call
    std::uint64_t cpu_ns = 0;
    std::int64_t gpu_ns = -1;
    // The device times the event's GPU work once it is done: take_gpu_times
    // adds it to gpu_ns later.
    bool gpu_later = false;
    // Time replay spent on its own checks (content hashes), left out of cpu_ns.
    std::uint64_t check_ns = 0;
};

// A recorded content hash and what replay computed for the same subresource
// (replayed 0 with a detail when the resource is not there to hash).
struct HashDifference {
    std::uint64_t event = 0;
    std::uint64_t frame = 0;
    std::uint64_t resource = 0;
    std::uint32_t subresource = 0;
    std::uint64_t recorded = 0;
    std::uint64_t replayed = 0;
    std::string detail;
    // Render targets recorded with an image (downscaled when wider than
    // runtime::formats::kThumbnailWidth): how far the replayed one is from it (not
    // comparable when there was no image).
    runtime::formats::ImageDistance image;

    // Rounding (another GPU's last bits), not a wrong picture.
    bool within_tolerance() const { return image.within_tolerance(); }
};

// A replayed call whose HRESULT differs from the recorded one (a call that
// failed when recorded and fails again is no difference), or, with detail,
// another difference replay noticed.
struct Mismatch {
    std::uint64_t event = 0;
    std::string call;  // "ID3D11Device::CreateBuffer"
    std::int64_t recorded = 0;
    std::int64_t replayed = 0;
    std::string detail;  // empty for an HRESULT difference
    // The call's index among the records of the event's state snapshot; -1
    // for a call that is the event itself.
    std::int64_t snapshot_record = -1;
    // A Check* call: a question about what the device supports, whose answer
    // is a fact about the two devices, not a replay error.
    bool capability_query = false;
};

// A difference between the recording device and the replay device that
// replay worked around (adapted) or could not.
struct Adaptation {
    std::uint64_t event = 0;
    std::uint64_t resource = 0;
    std::string what;
    bool adapted = false;
};

class Replayer {
  public:
    // Opens the trace (header and index only); nothing is replayed yet.
    static Result<std::unique_ptr<Replayer>> open(const std::string& trace_path,
                                                  const ReplayOptions& options = {});
    ~Replayer();
    Replayer(const Replayer&) = delete;
    Replayer& operator=(const Replayer&) = delete;

    // Replays events from next_event() through last_event (or the last
    // event of the trace). A record that cannot be decoded or replayed stops
    // it with an error naming the event, the call and the parameter; that
    // event is then next_event().
    Status run_to(std::uint64_t last_event);
    Status run_all();
    // Replays next_event() alone.
    Result<EventTiming> step();
    std::uint64_t next_event() const;
    std::uint64_t event_count() const;

    // The replayed object of a recorded id (no new reference), or nullptr.
    IUnknown* object(std::uint64_t id) const;
    // The recorded ids of every object replay holds now, ascending.
    std::vector<std::uint64_t> object_ids() const;
    // The immediate context of the first device replay made (no new
    // reference), or nullptr before there is one.
    ID3D11DeviceContext* immediate_context() const;
    // The replayed device context an event's call was made on (no new
    // reference): a deferred one for calls recorded into a command list;
    // nullptr for calls on no context or an event that cannot be read.
    ID3D11DeviceContext* context_of(std::uint64_t event) const;
    // The recorded id of the object an event's call was made on (0: an
    // entry point, a record that is no call, or an event that cannot be read).
    std::uint64_t called_object(std::uint64_t event) const;
    // The debug name the trace gave a device child, "" when none.
    std::string debug_name(std::uint64_t id) const;
    const std::vector<Mismatch>& mismatches() const;
    // With ReplayOptions::verify: subresource hashes compared so far, and
    // those that differed.
    std::uint64_t hashes_checked() const;
    // Recorded hashes of content the capturing device did not compute (work
    // it did not execute), which replay does not compare.
    std::uint64_t hashes_not_comparable() const;
    // The draws and dispatches the replay devices ran, and how many of them
    // a device did not execute.
    runtime::DrawCounts draw_counts() const;
    const std::vector<HashDifference>& hash_differences() const;
    const std::vector<Adaptation>& adaptations() const;
    // What the first device the trace created says of itself.
    struct DeviceFacts {
        bool known = false;
        std::string adapter;
        std::uint32_t feature_level = 0;
        std::uint32_t tiled_resources_tier = 0;
        bool gpu_clock = false;
        bool gpu_in_command_stream = false;  // GPU timestamps, read when the work is done
    };
    const DeviceFacts& device_facts() const;
    // The GPU times (by event) of work done since the last call, on devices
    // that time in the command stream; with wait, after all work is done.
    // Returns the first event whose GPU time may still be missing
    // (UINT64_MAX: none).
    std::uint64_t take_gpu_times(bool wait, std::vector<runtime::backend::WorkTime>& out);
    // The runtime's content hash of a replayed resource's subresource; 0
    // for ids that are no resource of this runtime.
    std::uint64_t content_hash(std::uint64_t id, UINT subresource) const;
    runtime::formats::ImageDistance image_distance(const fb::SubresourceImage& recorded) const;

  private:
    struct State;
    explicit Replayer(std::unique_ptr<State> state);
    Status replay_record(const fb::Record& record, const std::string& where);
    Status replay_meta(const fb::Record& record, const std::string& where);
    void check_hashes(const fb::ContentHashes& recorded);

    std::unique_ptr<State> state_;
};

}  // namespace d3dcap::replay
