#include "capture/layer/layer.h"

#include <d3dcap/fb/trace_generated.h>
#include <d3dcap/version.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "capture/layer/recorder.h"
#include "capture/layer/resource_info.h"
#include "capture/layer/snapshot.h"
#include "capture/layer/tile_tracker.h"
#include "format/trace/thread_end.h"

namespace d3dcap::capture {

namespace {

// {5d3c4a1e-7f0b-4b8e-9a61-d3dcap000001}: the private-data slot of the
// lifetime sentinel.
constexpr GUID kSentinelGuid = {
    0x5d3c4a1e, 0x7f0b, 0x4b8e, {0x9a, 0x61, 0xd3, 0xdc, 0xa9, 0x00, 0x00, 0x01}};

// Held only by the real object (in its private data): released when the
// object is destroyed, it tells the layer.
class LifetimeSentinel final : public IUnknown {
  public:
    explicit LifetimeSentinel(Wrapper* wrapper) : wrapper_(wrapper) {}
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void** out) override {
        if (out == nullptr) return E_POINTER;
        *out = nullptr;
        if (riid != __uuidof(IUnknown)) return E_NOINTERFACE;
        AddRef();
        *out = this;
        return S_OK;
    }
    ULONG STDMETHODCALLTYPE AddRef() override { return ++refs_; }
    ULONG STDMETHODCALLTYPE Release() override {
        const ULONG left = --refs_;
        if (left == 0) {
            Layer::get().destroyed(wrapper_);
            delete this;
        }
        return left;
    }

  private:
    std::atomic<ULONG> refs_{1};
    Wrapper* wrapper_;
};

class LayerIds final : public api::ObjectIds {
  public:
    std::uint64_t id_of(const void* object) override {
        const FacetHeader* header = header_of(object);
        return header == nullptr ? 0 : header->owner->id;
    }
};

std::atomic<std::uint32_t> g_next_thread{1};

// This thread's number where its builders are gone.
std::uint32_t numbered_thread() {
    thread_local const std::uint32_t number D3DCAP_INITIAL_EXEC_TLS = g_next_thread.fetch_add(1);
    return number;
}

// This thread's builders and number, on the heap and ended through a thread
// key (format/trace/thread_end.h says why not as a thread_local object).
struct ThreadBuilders {
    std::vector<std::unique_ptr<flatbuffers::FlatBufferBuilder>> builders;
    std::size_t depth = 0;
    // Record templates by call id (a call whose slot another took builds
    // anew).
    std::unique_ptr<std::array<RecordTemplate, 64>> templates;
    std::uint32_t number = numbered_thread();
};
// Gone when this thread's builders are freed, as it ends. Records made after
// that (objects released by thread_local destructors) get a builder of their
// own.
D3DCAP_THREAD_POINTER(ThreadBuilders, ThisThreadBuilders);

void end_builders(void* state) {
    ThisThreadBuilders::set(ThisThreadBuilders::gone());
    delete static_cast<ThreadBuilders*>(state);
}

// This thread's builders, made on first use; null once they are freed.
ThreadBuilders* this_thread_builders() {
    ThreadBuilders* builders = ThisThreadBuilders::get();
    if (builders == ThisThreadBuilders::gone()) return nullptr;
    if (builders == nullptr) {
        static const trace::ThreadEnd builders_end(end_builders);
        builders = new ThreadBuilders;
        ThisThreadBuilders::set(builders);
        builders_end.watch(builders);
    }
    return builders;
}

bool parse_frames(const std::string& text, std::uint64_t& first, std::uint64_t& count) {
    const auto dash = text.find('-');
    char* end = nullptr;
    const std::string a = text.substr(0, dash);
    if (a.empty()) return false;
    first = std::strtoull(a.c_str(), &end, 10);
    if (*end != 0) return false;
    if (dash == std::string::npos) {
        count = 1;
        return true;
    }
    const std::string b = text.substr(dash + 1);
    if (b.empty()) {
        count = 0;
        return true;
    }
    const std::uint64_t last = std::strtoull(b.c_str(), &end, 10);
    if (*end != 0 || last < first) return false;
    count = last - first + 1;
    return true;
}

}  // namespace

Wrapper::Wrapper(WrapperKind wrapper_kind) : kind(wrapper_kind) {}
Wrapper::~Wrapper() = default;

int find_interface(IUnknown* real, void** out, std::initializer_list<const IID*> iids) {
    int level = static_cast<int>(iids.size());
    for (const IID* iid : iids) {
        void* found = nullptr;
        if (SUCCEEDED(real->QueryInterface(*iid, &found)) && found != nullptr) {
            static_cast<IUnknown*>(found)->Release();
            *out = found;
            return level;
        }
        --level;
    }
    *out = nullptr;
    return 0;
}

FacetHeader* header_of(const void* p) {
    if (p == nullptr) return nullptr;
    const void* vtable = *static_cast<const void* const*>(p);
    if (!is_facet_vtable(vtable)) return nullptr;
    // Every facet class keeps its header right after the vtable pointer.
    return reinterpret_cast<FacetHeader*>(const_cast<char*>(static_cast<const char*>(p)) +
                                          sizeof(void*));
}

std::uint32_t thread_number() {
    const ThreadBuilders* builders = this_thread_builders();
    return builders != nullptr ? builders->number : numbered_thread();
}

RecordTemplate* thread_template(api::CallId call) {
    ThreadBuilders* builders = this_thread_builders();
    if (builders == nullptr) return nullptr;
    auto& templates = builders->templates;
    if (!templates) templates = std::make_unique<std::array<RecordTemplate, 64>>();
    return &(*templates)[static_cast<std::size_t>(call) % templates->size()];
}

BuilderScope::BuilderScope() {
    ThreadBuilders* t = this_thread_builders();
    if (t == nullptr) {
        own_ = std::make_unique<flatbuffers::FlatBufferBuilder>(1024);
        builder_ = own_.get();
        return;
    }
    if (t->depth == t->builders.size())
        t->builders.push_back(std::make_unique<flatbuffers::FlatBufferBuilder>(1024));
    builder_ = t->builders[t->depth++].get();
    builder_->Clear();
}

BuilderScope::~BuilderScope() {
    if (own_ == nullptr) --ThisThreadBuilders::get()->depth;
}

CaptureConfig CaptureConfig::from_environment(std::string& error) {
    CaptureConfig config;
    if (const char* out = std::getenv("D3DCAP_CAPTURE_OUTPUT"); out != nullptr && *out != 0)
        config.output_path = out;
    if (const char* frames = std::getenv("D3DCAP_CAPTURE_FRAMES"); frames != nullptr && *frames) {
        if (!parse_frames(frames, config.first_frame, config.frame_count))
            error = std::string("D3DCAP_CAPTURE_FRAMES: '") + frames +
                    "' is not a frame range (A-B, A- or A, frames counted from 0)";
    }
    if (const char* manual = std::getenv("D3DCAP_CAPTURE_MANUAL"); manual != nullptr)
        config.start_at_load = std::strcmp(manual, "1") != 0;
    if (const char* kill = std::getenv("D3DCAP_CAPTURE_KILL_AT_EVENT"); kill && *kill) {
        char* end = nullptr;
        const std::uint64_t event = std::strtoull(kill, &end, 10);
        if (*end == 0 && *kill != '-')
            config.kill_at_event = event;
        else if (error.empty())
            error =
                std::string("D3DCAP_CAPTURE_KILL_AT_EVENT: '") + kill + "' is not an event number";
    }
    if (const char* hashes = std::getenv("D3DCAP_CAPTURE_HASHES"); hashes != nullptr) {
        std::string why;
        if (!HashSelection::parse(hashes, config.hashes, why) && error.empty())
            error = std::string("D3DCAP_CAPTURE_HASHES: '") + hashes + "': " + why;
    }
    return config;
}

Layer& Layer::get() {
    // Never destroyed: objects may be released by static destructors of the
    // application after ours would have run.
    static Layer* layer = new Layer();
    return *layer;
}

Layer::Layer() = default;
Layer::~Layer() = default;

api::ObjectIds& Layer::ids() {
    static LayerIds* ids = new LayerIds();  // used by static destructors too
    return *ids;
}

void Layer::configure(const CaptureConfig& config) {
    std::lock_guard lock(control_mutex_);
    config_ = config;
    keeps_creation_ = !config.start_at_load || config.first_frame > 0;
    stop_after_frame_ = config.frame_count == 0 ? 0 : config.first_frame + config.frame_count;
    kill_at_event_ = config.kill_at_event.value_or(UINT64_MAX);
}

bool Layer::open_trace_locked(std::string& error) {
    flatbuffers::FlatBufferBuilder b;
    const auto options = fb::CreateCaptureOptions(
        b, config_.first_frame, config_.frame_count, b.CreateString(config_.command_line),
        b.CreateString(config_.process_name), b.CreateString(config_.hashes.text()));
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::system_clock::now().time_since_epoch());
    const auto device = fb::CreateDeviceDescription(
        b, b.CreateString(device_.adapter), device_.vendor_id, device_.device_id, 0,
        device_.driver_type, device_.feature_level, device_.tier, device_.dedicated_video_memory,
        device_.luid);
    b.Finish(fb::CreateTraceHeader(b, b.CreateString("d3dcap capture"),
                                   b.CreateString(D3DCAP_VERSION),
                                   static_cast<std::uint64_t>(now.count()), options, device));
    auto writer = trace::TraceWriter::create(config_.output_path, b.Release());
    if (!writer.ok()) {
        error = writer.error().to_string();
        return false;
    }
    writer_ = std::move(writer.value());
    writer_ptr_.store(writer_.get(), std::memory_order_release);
    record_meta([&](flatbuffers::FlatBufferBuilder& fb_builder) {
        trace::finish_meta(fb_builder, thread_number(),
                           fb::CreateFrameBoundary(fb_builder, frame()));
    });
    if (keeps_creation()) write_snapshot();
    return true;
}

trace::TraceWriter* Layer::writer_for_call() {
    if (!recording()) return nullptr;
    if (trace::TraceWriter* w = writer(); w != nullptr) return w;
    std::lock_guard lock(control_mutex_);
    if (writer_ == nullptr && recording()) {
        std::string error;
        if (!open_trace_locked(error)) {
            recording_.store(false, std::memory_order_release);
            std::fprintf(stderr, "d3dcap capture: %s\n", error.c_str());
        }
    }
    return writer();
}

void Layer::describe_device(ID3D11Device* real, D3D_DRIVER_TYPE driver_type) {
    std::lock_guard lock(control_mutex_);
    if (device_.known) return;
    device_.known = true;
    device_.driver_type = static_cast<std::uint32_t>(driver_type);
    device_.feature_level = static_cast<std::uint32_t>(real->GetFeatureLevel());
    D3D11_FEATURE_DATA_D3D11_OPTIONS1 options{};
    if (SUCCEEDED(
            real->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS1, &options, sizeof options)))
        device_.tier = static_cast<std::uint32_t>(options.TiledResourcesTier);
    IDXGIDevice* dxgi = nullptr;
    if (SUCCEEDED(real->QueryInterface(__uuidof(IDXGIDevice), reinterpret_cast<void**>(&dxgi)))) {
        IDXGIAdapter* adapter = nullptr;
        if (SUCCEEDED(dxgi->GetAdapter(&adapter))) {
            DXGI_ADAPTER_DESC desc{};
            if (SUCCEEDED(adapter->GetDesc(&desc))) {
                device_.adapter = api::WideToUtf8(desc.Description);
                device_.vendor_id = desc.VendorId;
                device_.device_id = desc.DeviceId;
                device_.dedicated_video_memory = desc.DedicatedVideoMemory;
                device_.luid = std::uint64_t(std::uint32_t(desc.AdapterLuid.HighPart)) << 32 |
                               desc.AdapterLuid.LowPart;
            }
            adapter->Release();
        }
        dxgi->Release();
    }
}

bool Layer::start(std::string& error) {
    std::lock_guard lock(control_mutex_);
    if (recording()) return true;
    if (writer_ != nullptr) {
        error = "a capture was already written to " + config_.output_path +
                "; one process writes one trace";
        return false;
    }
    recording_.store(true, std::memory_order_release);
    // Without a device yet, the first recorded call opens the trace.
    if (device_.known && !open_trace_locked(error)) {
        recording_.store(false, std::memory_order_release);
        return false;
    }
    return true;
}

std::string Layer::stop() {
    if (process_ended_.load(std::memory_order_acquire)) return {};
    std::lock_guard lock(control_mutex_);
    // A trace that stopped recording after a write error is closed here too
    // (close() again only returns its result).
    if (recording()) {
        recording_.store(false, std::memory_order_release);
        keeps_creation_ = false;
    }
    if (writer_ == nullptr) return {};
    const trace::Status status = writer_->close();
    return status.ok() ? std::string() : status.error().to_string();
}

void Layer::stop_and_report() {
    const bool wrote = writer() != nullptr && recording();
    const std::string error = stop();
    // The writer reported its own write error when it happened.
    if (!error.empty() && (writer() == nullptr || writer()->error().empty()))
        std::fprintf(stderr, "d3dcap capture: %s\n", error.c_str());
    if (wrote && !config_.hashes.none() && hash_records_.load() == 0)
        std::fprintf(stderr,
                     "d3dcap capture: --hashes %s: nothing was hashed (the program presented no "
                     "frame and mapped no staging copy of what it names for reading), so replay "
                     "--verify has nothing to check\n",
                     config_.hashes.text().c_str());
}

void Layer::stop_at_process_exit() {
    recording_.store(false, std::memory_order_release);
    // An ended thread may hold the lock, and then the trace stays as it is.
    std::unique_lock lock(control_mutex_, std::try_to_lock);
    process_ended_.store(true, std::memory_order_release);
    if (!lock.owns_lock()) {
        std::fprintf(stderr,
                     "d3dcap capture: the process ended while a thread was starting or stopping "
                     "the capture; the trace is left without its index\n");
        return;
    }
    // It prints its own errors.
    if (writer_ != nullptr) writer_->close_after_threads_ended();
}

void Layer::frame_presenting() {
    if (!recording() || config_.hashes.none()) return;
    const std::uint64_t frame = frame_.load();
    record_content_hashes(frame);
    hashed_frames_.store(frame + 1);
}

void Layer::frame_ended() {
    const std::uint64_t frame = frame_.fetch_add(1) + 1;  // the frame that begins
    // A trace that cannot be written any more records nothing (and reads
    // nothing back for hashes) until the process ends.
    if (const trace::TraceWriter* w = writer(); recording() && w != nullptr && !w->error().empty())
        recording_.store(false, std::memory_order_release);
    if (recording()) {
        // Before the frame's boundary (or the end of a frame range).
        if (hashed_frames_.load() < frame) record_content_hashes(frame - 1);
        if (stop_after_frame_ != 0 && frame >= stop_after_frame_) {
            stop_and_report();
            return;
        }
        record_meta([&](flatbuffers::FlatBufferBuilder& b) {
            trace::finish_meta(b, thread_number(), fb::CreateFrameBoundary(b, frame));
        });
        if (writer_ != nullptr) writer_->flush();
        return;
    }
    bool begin = false;
    {
        std::lock_guard lock(control_mutex_);
        begin = keeps_creation() && writer_ == nullptr && config_.start_at_load &&
                frame == config_.first_frame;
    }
    if (begin) {
        std::string error;
        if (!start(error)) std::fprintf(stderr, "d3dcap capture: %s\n", error.c_str());
    }
}

void Layer::set_frame_range(std::uint64_t first, std::uint64_t count) {
    std::lock_guard lock(control_mutex_);
    config_.first_frame = first;
    config_.frame_count = count;
    config_.start_at_load = true;
    keeps_creation_ = keeps_creation_ || writer_ == nullptr;
    stop_after_frame_ = count == 0 ? 0 : first + count;
}

void Layer::trigger(std::uint64_t frames) {
    set_frame_range(frame() + 1, frames);
}

Wrapper* Layer::find(const void* real) {
    std::lock_guard lock(objects_mutex_);
    const auto it = by_real_.find(real);
    return it == by_real_.end() ? nullptr : it->second;
}

Wrapper* Layer::find_or_wrap(IUnknown* real, std::optional<WrapperKind> kind, CallRecorder* call) {
    std::lock_guard lock(objects_mutex_);
    if (const auto it = by_real_.find(real); it != by_real_.end()) return it->second;
    IUnknown* identity = nullptr;
    if (FAILED(real->QueryInterface(__uuidof(IUnknown), reinterpret_cast<void**>(&identity))) ||
        identity == nullptr)
        return nullptr;
    identity->Release();
    if (const auto it = by_real_.find(identity); it != by_real_.end()) {
        it->second->registry_keys.push_back(real);
        by_real_.emplace(real, it->second);
        return it->second;
    }
    if (!kind) kind = probe_kind(real);
    if (!kind) return nullptr;
    std::unique_ptr<Wrapper> wrapper(make_wrapper(*kind));
    if (!wrapper->attach(real)) return nullptr;
    wrapper->identity = identity;
    wrapper->id = next_object_id_++;
    wrapper->resource = describe_resource(*wrapper);
    auto* sentinel = new LifetimeSentinel(wrapper.get());
    const HRESULT watched = wrapper->watch_lifetime(kSentinelGuid, sentinel);
    sentinel->Release();  // the real object holds it now (or it is gone)
    if (FAILED(watched)) return nullptr;
    Wrapper* w = wrapper.release();
    auto add_key = [&](const void* key) {
        if (key != nullptr && by_real_.emplace(key, w).second) w->registry_keys.push_back(key);
    };
    add_key(identity);
    add_key(real);
    for (FacetHeader* facet : w->facets()) add_key(facet->real);
    TileTracker::get().created(*w);
    if (call != nullptr) call->created(w);
    return w;
}

void Layer::report_unwrapped(REFIID iid) {
    static std::atomic<bool> reported{false};
    if (reported.exchange(true)) return;
    std::fprintf(stderr,
                 "d3dcap capture: the provider returned an object of interface "
                 "{%08x-%04x-%04x-...} that the layer cannot wrap; the program got NULL\n",
                 static_cast<unsigned>(iid.Data1), iid.Data2, iid.Data3);
}

void Layer::destroyed(Wrapper* wrapper) {
    {
        std::lock_guard lock(objects_mutex_);
        for (const void* key : wrapper->registry_keys) by_real_.erase(key);
    }
    const std::uint64_t id = wrapper->id;
    TileTracker::get().destroyed(id);
    record_meta([&](flatbuffers::FlatBufferBuilder& b) {
        trace::finish_meta(b, thread_number(), fb::CreateObjectDestroyed(b, id));
    });
    delete wrapper;
}

void Layer::record_created(Wrapper* wrapper, std::uint64_t parent,
                           const std::shared_ptr<const std::vector<std::uint8_t>>& record) {
    if (keeps_creation()) wrapper->creation_record = record;
    record_meta([&](flatbuffers::FlatBufferBuilder& b) {
        const auto name = kWrapperInterfaces[static_cast<std::size_t>(wrapper->kind)];
        trace::finish_meta(b, thread_number(),
                           fb::CreateObjectCreated(
                               b, wrapper->id, b.CreateString(name.data(), name.size()), parent));
    });
    if (wrapper->resource != nullptr) record_tiling(*wrapper);
}

}  // namespace d3dcap::capture
