// The capture layer of a process: what to record and when, the trace being
// written, and the map from real objects to their wrappers.
#pragma once

#include <d3dcap/api/call_encoders.h>
#include <d3dcap/capture/wrappers.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "capture/layer/facet.h"
#include "format/trace/writer.h"

namespace d3dcap::capture {

class CallRecorder;

// Which resources get content hashes at each frame end (and, staging
// resources, at each Map that reads them).
struct HashSelection {
    bool all = false;
    std::vector<std::string> names;  // debug names or object ids, as given

    bool none() const { return !all && names.empty(); }
    // "", "all" or the names joined by commas (the trace header's text).
    std::string text() const;
    bool selects(std::uint64_t id, const std::string& debug_name) const;

    // "all", names and ids separated by commas, or "" / "none"; false with
    // error set when a name is empty or "all" comes with names.
    static bool parse(const std::string& text, HashSelection& out, std::string& error);
};

struct CaptureConfig {
    std::string output_path = "capture.d3dcap";
    std::uint64_t first_frame = 0;
    std::uint64_t frame_count = 0;  // 0: until the process ends or stop()
    bool start_at_load = true;      // false: only the C API starts a capture
    std::string command_line;
    std::string process_name;
    HashSelection hashes;
    // For crash tests: the process kills itself (SIGKILL) when this event is
    // reserved, as a crash inside a frame would.
    std::optional<std::uint64_t> kill_at_event;

    // From D3DCAP_CAPTURE_OUTPUT, D3DCAP_CAPTURE_FRAMES ("A-B" or "A-"),
    // D3DCAP_CAPTURE_MANUAL=1, D3DCAP_CAPTURE_HASHES,
    // D3DCAP_CAPTURE_KILL_AT_EVENT; an error names the variable and its value.
    static CaptureConfig from_environment(std::string& error);
};

class Layer {
  public:
    static Layer& get();

    void configure(const CaptureConfig& config);
    const CaptureConfig& config() const { return config_; }
    // Event at which the process kills itself; none: never.
    std::uint64_t kill_at_event() const { return kill_at_event_.load(std::memory_order_relaxed); }

    // -- recording -----------------------------------------------------------
    bool recording() const { return recording_.load(std::memory_order_acquire); }
    // Creation records are kept while a later frame range may need a snapshot.
    bool keeps_creation() const { return keeps_creation_.load(std::memory_order_relaxed); }
    // The trace being written, or nullptr. A capture that starts before any
    // device exists opens its trace at the first call it records, so that
    // the header can describe the device.
    trace::TraceWriter* writer() { return writer_ptr_.load(std::memory_order_acquire); }
    trace::TraceWriter* writer_for_call();
    api::ObjectIds& ids();

    // Starts recording now (opens the trace, writes the snapshot when objects
    // already exist). False with error set when the trace cannot be created.
    bool start(std::string& error);
    // Stops recording and closes the trace; returns its first error, if any.
    std::string stop();
    // stop(), printing its error unless the writer printed it already.
    void stop_and_report();
    // For a process the system is ending after it ended every other thread,
    // the trace writer's included (Windows, before it unloads DLLs): closes
    // the trace on this thread; stop() does nothing after it.
    void stop_at_process_exit();
    // Before a Present shows the frame: its content hashes, while the back
    // buffer still holds the picture (after the Present of a DISCARD or
    // FLIP_DISCARD swap chain its contents are undefined).
    void frame_presenting();
    // The end of a frame (a Present, or the C API): its content hashes
    // unless frame_presenting took them, then starts or stops a frame
    // range, and numbers the frames of the trace.
    void frame_ended();
    std::uint64_t frame() const { return frame_.load(std::memory_order_relaxed); }
    // Records the next frames (from the next frame on), like a key press in
    // an interactive tool.
    void trigger(std::uint64_t frames);
    void set_frame_range(std::uint64_t first, std::uint64_t count);

    // A meta record, submitted when recording.
    template <typename Build>
    void record_meta(Build&& build);

    // -- objects ---------------------------------------------------------------
    // The wrapper of a real object (made on first sight); the reference the
    // caller held on real now belongs to the returned facet. NULL (and real
    // released) when the layer cannot wrap the object.
    template <class I>
    I* wrap(I* real, CallRecorder* call) {
        std::optional<WrapperKind> kind;
        if constexpr (KindOf<I>::known) kind = KindOf<I>::kind;
        Wrapper* wrapper = find_or_wrap(real, kind, call);
        if (wrapper == nullptr) {
            report_unwrapped(__uuidof(I));
            real->Release();
            return nullptr;
        }
        return wrapper->as<I>();
    }
    Wrapper* find(const void* real);
    // Says (once) that an object the provider handed out could not be
    // wrapped, so the application got NULL.
    void report_unwrapped(REFIID iid);
    // Called once the real object is gone.
    void destroyed(Wrapper* wrapper);
    // Records the creation of a wrapper made by a call (after the call).
    void record_created(Wrapper* wrapper, std::uint64_t parent,
                        const std::shared_ptr<const std::vector<std::uint8_t>>& record);

    // Map for reading of a staging resource (what a program without frames
    // reads its results through): a ContentHashes record of that
    // subresource, read from the mapping, when the resource is chosen.
    void record_mapped_hash(Wrapper& resource, UINT subresource,
                            const D3D11_MAPPED_SUBRESOURCE& mapped);

    // After the record of the call that made a swap chain: the size it took
    // from its window where the call asked for that (swap_chain_size.cpp).
    void record_swap_chain_size(Wrapper& swap_chain, const fb::Record& creation);

    // The first device the process creates describes the capture in the
    // trace header.
    void describe_device(ID3D11Device* real, D3D_DRIVER_TYPE driver_type);

  private:
    Layer();
    ~Layer();
    Wrapper* find_or_wrap(IUnknown* real, std::optional<WrapperKind> kind, CallRecorder* call);
    // Opens the trace, numbers the first frame and writes the snapshot;
    // control_mutex_ held.
    bool open_trace_locked(std::string& error);
    void write_snapshot();
    // The ContentHashes record of the frame that just ended, when chosen.
    void record_content_hashes(std::uint64_t frame);

    struct DeviceInfo {
        std::string adapter;
        std::uint32_t vendor_id = 0, device_id = 0;
        std::uint64_t dedicated_video_memory = 0, luid = 0;
        std::uint32_t driver_type = 0, feature_level = 0, tier = 0;
        bool known = false;
    };

    CaptureConfig config_;
    DeviceInfo device_;
    std::atomic<bool> recording_{false};
    std::atomic<bool> keeps_creation_{false};
    std::atomic<std::uint64_t> frame_{0};
    std::uint64_t stop_after_frame_ = 0;  // 0: no end
    std::atomic<std::uint64_t> kill_at_event_{UINT64_MAX};
    std::mutex control_mutex_;  // start/stop/frame_ended
    std::atomic<bool> process_ended_{false};
    std::atomic<std::uint64_t> hash_records_{0};   // ContentHashes records with a hash
    std::atomic<std::uint64_t> hashed_frames_{0};  // frames before it have their hashes
    std::unique_ptr<trace::TraceWriter> writer_;
    std::atomic<trace::TraceWriter*> writer_ptr_{nullptr};
    // Closed traces stay allocated: other threads may still hold the pointer.
    std::vector<std::unique_ptr<trace::TraceWriter>> closed_writers_;

    std::mutex objects_mutex_;
    std::unordered_map<const void*, Wrapper*> by_real_;
    std::uint64_t next_object_id_ = 1;
};

// The builder of the innermost record being made on this thread (a call can
// cause another record, e.g. an object destroyed inside it).
class BuilderScope {
  public:
    BuilderScope();
    ~BuilderScope();
    BuilderScope(const BuilderScope&) = delete;
    BuilderScope& operator=(const BuilderScope&) = delete;
    flatbuffers::FlatBufferBuilder& builder() { return *builder_; }

  private:
    flatbuffers::FlatBufferBuilder* builder_;
    std::unique_ptr<flatbuffers::FlatBufferBuilder> own_;  // once the thread's builders are gone
};

// This thread's number in the trace (from 1, in order of first use).
std::uint32_t thread_number();

template <typename Build>
void Layer::record_meta(Build&& build) {
    if (!recording()) return;
    trace::TraceWriter* w = writer();
    if (w == nullptr) return;
    const std::optional<std::uint64_t> event = w->reserve();
    if (!event) return;
    BuilderScope scope;
    build(scope.builder());
    w->submit(scope.builder(), *event);
}

}  // namespace d3dcap::capture
