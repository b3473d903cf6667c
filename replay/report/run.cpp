#include "replay/report/run.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>

#include "format/trace/reader.h"
#include "replay/report/kept_events.h"

namespace d3dcap::replay {

namespace {

using Clock = std::chrono::steady_clock;

double milliseconds(Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}

std::string driver_name(D3D_DRIVER_TYPE driver) {
    switch (driver) {
        case D3D_DRIVER_TYPE_NULL:
            return "null";
        case D3D_DRIVER_TYPE_HARDWARE:
            return "hardware";
        case D3D_DRIVER_TYPE_WARP:
            return "warp";
        default:
            return "reference";
    }
}

// What the index says of the trace: frames as event ranges and the marker regions.
struct TraceLayout {
    std::uint64_t events = 0;
    std::vector<std::uint64_t> frame_starts;  // frame i begins here; at least one frame
    std::vector<MarkerTime> regions;          // times not filled in
    RecordedDevice recorded;

    std::uint64_t frame_end(std::size_t frame) const {  // one past its last event
        return frame + 1 < frame_starts.size() ? frame_starts[frame + 1] : events;
    }
};

TraceLayout read_layout(const trace::TraceReader& reader) {
    TraceLayout layout;
    const fb::TraceIndex& index = reader.index();
    layout.events = index.event_count();
    if (index.frame_first_events() != nullptr)
        layout.frame_starts.assign(index.frame_first_events()->begin(),
                                   index.frame_first_events()->end());
    if (layout.frame_starts.empty() || layout.frame_starts.front() != 0)
        layout.frame_starts.insert(layout.frame_starts.begin(), 0);
    // Begin/End pairs by nesting; a region left open ends with the trace.
    std::vector<std::size_t> open;
    reader.visit_markers([&](const trace::Marker& marker, std::string_view label) {
        if (marker.kind == fb::MarkerKind::Begin) {
            MarkerTime region;
            region.label = label;
            region.data = marker.data;
            region.has_data = marker.has_data;
            region.depth = static_cast<std::uint32_t>(open.size());
            region.first_event = marker.event;
            region.last_event = layout.events == 0 ? 0 : layout.events - 1;
            open.push_back(layout.regions.size());
            layout.regions.push_back(std::move(region));
        } else if (marker.kind == fb::MarkerKind::End && !open.empty()) {
            layout.regions[open.back()].last_event = marker.event;
            open.pop_back();
        }
    });
    const fb::TraceHeader& header = reader.header();
    if (const fb::DeviceDescription* device = header.device()) {
        layout.recorded.adapter = device->adapter_name() ? device->adapter_name()->str() : "";
        layout.recorded.driver = driver_name(static_cast<D3D_DRIVER_TYPE>(device->driver_type()));
        layout.recorded.feature_level = device->feature_level();
        layout.recorded.tiled_resources_tier = device->tiled_resources_tier();
    }
    return layout;
}

std::uint64_t median(std::vector<std::uint64_t>& values) {
    if (values.empty()) return 0;
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

// Running sums of the timed events' times, kept only at the events where a
// region begins or ends: each region's time is a difference of two of them,
// in memory that grows with the regions, not with the events.
class RegionSums {
  public:
    RegionSums(const std::vector<MarkerTime>& regions, std::uint64_t first, std::uint64_t end)
        : first_(first), end_(end), next_(first) {
        for (const MarkerTime& r : regions) {
            if (r.last_event < first || r.first_event >= end) continue;
            bounds_.push_back(std::max(r.first_event, first));
            bounds_.push_back(std::min(r.last_event + 1, end));
        }
        std::sort(bounds_.begin(), bounds_.end());
        bounds_.erase(std::unique(bounds_.begin(), bounds_.end()), bounds_.end());
        cpu_.resize(bounds_.size());
        gpu_.resize(bounds_.size());
    }

    // The times of the next timed event, in event order.
    void add(std::uint64_t cpu_ns, std::int64_t gpu_ns) {
        record_bounds();
        cpu_sum_ += cpu_ns;
        gpu_sum_ += static_cast<std::uint64_t>(std::max<std::int64_t>(gpu_ns, 0));
        ++next_;
    }

    // Fills in the times of the regions inside the timed events (cut to
    // them) and drops the others; self time leaves out the regions directly
    // nested in it.
    void time(bool gpu, std::vector<MarkerTime>& regions) {
        record_bounds();
        std::vector<MarkerTime> timed;
        for (MarkerTime region : regions) {
            if (region.last_event < first_ || region.first_event >= end_) continue;
            region.first_event = std::max(region.first_event, first_);
            region.last_event = std::min(region.last_event, end_ - 1);
            const std::size_t a = at(region.first_event), b = at(region.last_event + 1);
            region.cpu_ns = region.self_cpu_ns = cpu_[b] - cpu_[a];
            if (gpu)
                region.gpu_ns = region.self_gpu_ns = static_cast<std::int64_t>(gpu_[b] - gpu_[a]);
            timed.push_back(std::move(region));
        }
        // Regions come in order of their first event: a parent precedes its children.
        std::vector<std::size_t> open;
        for (std::size_t i = 0; i < timed.size(); ++i) {
            while (!open.empty() && timed[open.back()].last_event < timed[i].first_event)
                open.pop_back();
            if (!open.empty() && timed[i].depth > timed[open.back()].depth) {
                MarkerTime& parent = timed[open.back()];
                parent.self_cpu_ns -= std::min(parent.self_cpu_ns, timed[i].cpu_ns);
                if (gpu) parent.self_gpu_ns -= std::min(parent.self_gpu_ns, timed[i].gpu_ns);
            }
            open.push_back(i);
        }
        regions = std::move(timed);
    }

  private:
    void record_bounds() {
        for (; bound_ < bounds_.size() && bounds_[bound_] <= next_; ++bound_) {
            cpu_[bound_] = cpu_sum_;
            gpu_[bound_] = gpu_sum_;
        }
    }
    std::size_t at(std::uint64_t event) const {
        return static_cast<std::size_t>(std::lower_bound(bounds_.begin(), bounds_.end(), event) -
                                        bounds_.begin());
    }

    std::uint64_t first_, end_;
    std::vector<std::uint64_t> bounds_;     // sorted events where a region begins or ends
    std::vector<std::uint64_t> cpu_, gpu_;  // the sums of the events before each bound
    std::uint64_t cpu_sum_ = 0, gpu_sum_ = 0;
    std::uint64_t next_;
    std::size_t bound_ = 0;
};

// Timed events whose GPU times may still come (devices that time in the
// command stream tell once the work is done), in event order; released to
// `done` once final, with each frame's totals after its last event.
class PendingTimes {
  public:
    using Done = std::function<void(const EventTime&)>;
    using FrameDone = std::function<void(double cpu_ms, double gpu_ms)>;
    PendingTimes(const TraceLayout& layout, std::size_t first_frame, Done done,
                 FrameDone frame_done)
        : layout_(layout),
          frame_(first_frame),
          done_(std::move(done)),
          frame_done_(std::move(frame_done)) {}

    void add(const EventTime& event) { events_.push_back(event); }
    void close_frame(double cpu_ms) { frame_cpu_ms_.push_back(cpu_ms); }
    void add_gpu(const runtime::backend::WorkTime& time) {
        if (events_.empty() || time.tag < events_.front().event) return;  // not timed
        const std::uint64_t at = time.tag - events_.front().event;        // events are consecutive
        if (at >= events_.size()) return;
        std::int64_t& ns = events_[at].gpu_ns;
        ns = std::max<std::int64_t>(ns, 0) + static_cast<std::int64_t>(time.ns);
    }
    // Every event before `pending_from` is final.
    void release(std::uint64_t pending_from) {
        while (!events_.empty() && events_.front().event < pending_from) {
            const EventTime event = events_.front();
            const bool frame_ends = event.event + 1 == layout_.frame_end(frame_);
            if (frame_ends && frame_cpu_ms_.empty()) return;  // its frame is still running
            events_.pop_front();
            done_(event);
            frame_gpu_ns_ += std::max<std::int64_t>(event.gpu_ns, 0);
            if (frame_ends) {
                frame_done_(frame_cpu_ms_.front(), static_cast<double>(frame_gpu_ns_) / 1e6);
                frame_cpu_ms_.pop_front();
                frame_gpu_ns_ = 0;
                ++frame_;
            }
        }
    }

  private:
    const TraceLayout& layout_;
    std::size_t frame_;  // of the oldest event not released
    Done done_;
    FrameDone frame_done_;
    std::deque<EventTime> events_;
    std::deque<double> frame_cpu_ms_;  // frames that ended, oldest first
    std::int64_t frame_gpu_ns_ = 0;
};

struct Pass {
    std::unique_ptr<Replayer> replayer;
    std::vector<std::uint64_t> cpu_ns;  // per timed event
    std::vector<std::int64_t> gpu_ns;
    std::vector<std::uint16_t> calls;
    std::vector<std::uint8_t> metas;
    std::vector<double> frame_cpu_ms, frame_gpu_ms;
};

}  // namespace

Result<RunReport> run_replay(const RunOptions& options) {
    auto reader = trace::TraceReader::open(options.trace);
    if (!reader) return reader.error();
    const TraceLayout layout = read_layout(*reader.value());
    reader.value().reset();

    RunReport report;
    report.trace = options.trace;
    report.recorded = layout.recorded;
    report.loops = options.loops;
    report.events_in_trace = layout.events;
    report.device.requested =
        options.device_choice.empty() ? driver_name(options.driver) : options.device_choice;
    report.device.driver = driver_name(options.driver);
    report.device.reason = options.device_reason;
    if (layout.events == 0) return report;

    const std::size_t frame_count = layout.frame_starts.size();
    FrameRange frames{0, frame_count - 1};
    if (options.frames) {
        if (options.frames->first > options.frames->last || options.frames->last >= frame_count) {
            return trace::TraceError{
                options.trace, "--frames " + std::to_string(options.frames->first) + "-" +
                                   std::to_string(options.frames->last) +
                                   ": the trace has frames 0-" + std::to_string(frame_count - 1)};
        }
        frames = *options.frames;
    }
    const std::uint64_t first = layout.frame_starts[frames.first];
    const std::uint64_t end = layout.frame_end(frames.last);  // one past the last timed event
    report.first_event = first;
    report.last_event = end - 1;
    const unsigned passes = options.loops == 0 ? 1 : options.loops + 1;
    const std::uint64_t total = end * passes;

    ReplayOptions replay_options;
    replay_options.driver = options.driver;
    replay_options.timing = true;
    replay_options.gpu_timestamps = options.gpu_timestamps;
    std::vector<Pass> timed;
    // One pass feeds these as it goes; with loops, the per-event medians do.
    RegionSums sums(layout.regions, first, end);
    KeptEvents kept(options.slowest_events);
    const Clock::time_point started = Clock::now();
    for (unsigned pass = 0; pass < passes; ++pass) {
        const bool first_pass = pass == 0;
        replay_options.verify = options.verify && first_pass;
        replay_options.screenshot_directory = first_pass ? options.screenshot_directory : "";
        auto opened = Replayer::open(options.trace, replay_options);
        if (!opened) return opened.error();
        Pass run;
        run.replayer = std::move(opened.value());
        Replayer& replayer = *run.replayer;
        if (passes > 1) {
            run.cpu_ns.reserve(end - first);
            run.gpu_ns.reserve(end - first);
        }
        PendingTimes pending(
            layout, frames.first,
            [&](const EventTime& e) {
                if (passes == 1) {
                    sums.add(e.cpu_ns, e.gpu_ns);
                    kept.add(e);
                } else {
                    run.cpu_ns.push_back(e.cpu_ns);
                    run.gpu_ns.push_back(e.gpu_ns);
                    run.calls.push_back(e.call);
                    run.metas.push_back(e.meta);
                }
            },
            [&](double cpu_ms, double gpu_ms) {
                run.frame_cpu_ms.push_back(cpu_ms);
                run.frame_gpu_ms.push_back(gpu_ms);
            });
        std::vector<runtime::backend::WorkTime> gpu_times;
        std::uint64_t pending_from = 0;  // the first event whose GPU time may still come
        // Work of later events may still come: they are not final either.
        const auto take_gpu_times = [&](bool wait, std::uint64_t next_event) {
            gpu_times.clear();
            pending_from = std::min(replayer.take_gpu_times(wait, gpu_times), next_event);
            for (const runtime::backend::WorkTime& time : gpu_times) pending.add_gpu(time);
        };
        std::size_t frame = frames.first;
        Clock::time_point frame_start{};
        std::uint64_t frame_checks = 0;  // ns of replay's own checks, not the frame's
        for (std::uint64_t event = 0; event < end; ++event) {
            if (event == layout.frame_starts[frame] && event >= first) {
                frame_start = Clock::now();
                frame_checks = 0;
            }
            Result<EventTiming> done = replayer.step();
            if (!done) return done.error();
            if (event >= first) {
                pending.add({event, done->call, done->meta, done->cpu_ns, done->gpu_ns});
                frame_checks += done->check_ns;
                const bool frame_ends = event + 1 == layout.frame_end(frame);
                if (frame_ends) {
                    pending.close_frame(milliseconds(Clock::now() - frame_start) -
                                        static_cast<double>(frame_checks) / 1e6);
                    ++frame;
                }
                if (done->gpu_later && (frame_ends || (event & 1023) == 0))
                    take_gpu_times(false, event + 1);
                pending.release(done->gpu_later ? pending_from : UINT64_MAX);
            }
            if (options.progress && (event & 1023) == 0)
                options.progress(pass * end + event, total);
        }
        take_gpu_times(true, UINT64_MAX);
        pending.release(UINT64_MAX);
        report.events_replayed += end;
        if (first_pass) {
            report.device.adapter = replayer.device_facts().adapter;
            report.device.gpu_timing = replayer.device_facts().gpu_clock;
            report.device.gpu_timing_mode =
                !report.device.gpu_timing ? ""
                : !replayer.device_facts().gpu_in_command_stream
                    ? "the device's clock around each call"
                : options.gpu_timestamps == runtime::backend::WorkTiming::PerStep
                    ? "GPU timestamps per event in the command stream, no barrier added (an "
                      "event's time runs from the end of the work before it to the end of its "
                      "own)"
                    : "GPU timestamps per submission (a frame's GPU time on its last event)";
            for (const Mismatch& m : replayer.mismatches())
                (m.capability_query ? report.capability_differences : report.mismatches)
                    .push_back(m);
            report.adaptations = replayer.adaptations();
            report.verified = options.verify;
            report.hashes_checked = replayer.hashes_checked();
            report.hashes_not_comparable = replayer.hashes_not_comparable();
            report.hash_differences = replayer.hash_differences();
            const runtime::DrawCounts work = replayer.draw_counts();
            report.draws = work.draws;
            report.dispatches = work.dispatches;
            report.not_executed = work.not_executed;
            if (options.strict && !report.adaptations.empty()) {
                const Adaptation& a = report.adaptations.front();
                return trace::TraceError{options.trace,
                                         "--strict: the replay device differs from the recording "
                                         "one: resource " +
                                             std::to_string(a.resource) + ": " + a.what,
                                         -1, static_cast<std::int64_t>(a.event), -1};
            }
        }
        run.replayer.reset();  // the device goes before the next pass makes its own
        if (!first_pass || passes == 1) timed.push_back(std::move(run));
    }
    report.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    if (options.progress) options.progress(total, total);

    // Per event: the median over the timed passes.
    const bool gpu = report.device.gpu_timing;
    std::vector<std::uint64_t> cpu, gpu_values;
    for (std::uint64_t i = 0; passes > 1 && i < end - first; ++i) {
        cpu.clear();
        gpu_values.clear();
        for (const Pass& run : timed) {
            cpu.push_back(run.cpu_ns[i]);
            gpu_values.push_back(
                static_cast<std::uint64_t>(std::max<std::int64_t>(run.gpu_ns[i], 0)));
        }
        EventTime event;
        event.event = first + i;
        event.call = timed.front().calls[i];
        event.meta = timed.front().metas[i];
        event.cpu_ns = median(cpu);
        event.gpu_ns = static_cast<std::int64_t>(median(gpu_values));
        sums.add(event.cpu_ns, event.gpu_ns);
        kept.add(event);
    }
    report.events = kept.take();
    if (!gpu)
        for (EventTime& event : report.events) event.gpu_ns = -1;
    for (std::size_t f = frames.first; f <= frames.last; ++f) {
        FrameTime frame;
        frame.frame = f;
        frame.first_event = layout.frame_starts[f];
        frame.last_event = layout.frame_end(f) - 1;
        for (const Pass& run : timed) {
            frame.cpu_ms.push_back(run.frame_cpu_ms[f - frames.first]);
            if (gpu) frame.gpu_ms.push_back(run.frame_gpu_ms[f - frames.first]);
        }
        report.frames.push_back(std::move(frame));
    }
    report.markers = layout.regions;
    sums.time(gpu, report.markers);
    return report;
}

}  // namespace d3dcap::replay
