// A timed replay of a trace: the frames to time, how often, on which device,
// and what came out (per-event, per-marker and per-frame times, differences
// from the recording, adaptations, content-hash checks).
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "replay/engine/replayer.h"

namespace d3dcap::replay {

struct FrameRange {
    std::uint64_t first = 0;
    std::uint64_t last = 0;  // inclusive
};

struct RunOptions {
    std::string trace;
    D3D_DRIVER_TYPE driver = D3D_DRIVER_TYPE_REFERENCE;
    std::string device_choice;         // what the user asked for ("auto", "reference"...)
    std::string device_reason;         // why auto chose the driver
    std::optional<FrameRange> frames;  // the trace's frames to time; all when absent
    // 0: one timed pass. K > 0: one warm-up pass, then K timed passes, each on
    // a fresh device brought to the range's start by replaying what precedes it.
    unsigned loops = 0;
    bool verify = false;
    bool strict = false;
    std::string screenshot_directory;
    // GPU timestamps per event, or per submission (cheaper, per frame).
    runtime::backend::WorkTiming gpu_timestamps = runtime::backend::WorkTiming::PerStep;
    // 0: RunReport::events holds every timed event (for a report file); N:
    // only the N slowest, so that a single pass takes memory that does not
    // grow with the trace (with loops, the per-pass times of each timed
    // event are kept for their medians).
    std::size_t slowest_events = 0;
    // Called now and then with events replayed and events to replay in all.
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

struct DeviceSummary {
    std::string requested;
    std::string driver;  // "reference", "null"
    std::string reason;
    std::string adapter;
    bool gpu_timing = false;      // the device reports GPU times
    std::string gpu_timing_mode;  // how it measured them
};

struct RecordedDevice {
    std::string adapter;
    std::string driver;
    std::uint32_t feature_level = 0;
    std::uint32_t tiled_resources_tier = 0;
};

struct EventTime {
    std::uint64_t event = 0;
    std::uint16_t call = 0;
    std::uint8_t meta = 0;     // fb::Meta of a record that is no call
    std::uint64_t cpu_ns = 0;  // median over the timed passes
    std::int64_t gpu_ns = -1;  // -1: the device cannot tell
};

struct FrameTime {
    std::uint64_t frame = 0;
    std::uint64_t first_event = 0, last_event = 0;
    std::vector<double> cpu_ms;  // one per timed pass
    std::vector<double> gpu_ms;  // one per timed pass; empty without GPU times
};

// A BeginEvent/EndEvent region (INT or string label): the events it spans and
// their time, in all and without the regions nested in it.
struct MarkerTime {
    std::string label;
    std::int32_t data = 0;
    bool has_data = false;
    std::uint32_t depth = 0;
    std::uint64_t first_event = 0, last_event = 0;
    std::uint64_t cpu_ns = 0, self_cpu_ns = 0;
    std::int64_t gpu_ns = -1, self_gpu_ns = -1;
};

struct RunReport {
    std::string trace;
    DeviceSummary device;
    RecordedDevice recorded;
    unsigned loops = 0;
    std::uint64_t events_in_trace = 0;
    std::uint64_t first_event = 0, last_event = 0;  // the timed events
    std::uint64_t events_replayed = 0;              // over all passes
    double seconds = 0;                             // wall time of all passes
    std::vector<FrameTime> frames;
    std::vector<EventTime> events;
    std::vector<MarkerTime> markers;
    std::vector<Mismatch> mismatches;
    // Capability queries the replaying device answered otherwise: facts
    // about the two devices, kept apart from mismatches.
    std::vector<Mismatch> capability_differences;
    std::vector<Adaptation> adaptations;
    bool verified = false;
    std::uint64_t hashes_checked = 0;
    std::uint64_t hashes_not_comparable = 0;  // Replayer::hashes_not_comparable
    std::vector<HashDifference> hash_differences;
    // Draws and dispatches replayed, and those the device did not execute.
    std::uint64_t draws = 0, dispatches = 0, not_executed = 0;
};

// Replays and times. An error stops the replay: it names the file, event,
// call and parameter.
Result<RunReport> run_replay(const RunOptions& options);

}  // namespace d3dcap::replay
