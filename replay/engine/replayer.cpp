#include "replay/engine/replayer.h"

#include <d3dcap/api/call_decoders.h>
#include <d3dcap/api/call_encoders.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

#include "format/trace/reader.h"
#include "replay/engine/event_clock.h"
#include "replay/engine/record_limits.h"
#include "replay/engine/session.h"
#include "runtime/backend/backend.h"
#include "runtime/inspection.h"

namespace d3dcap::replay {

namespace {

// WKPDID_D3DDebugObjectName.
constexpr GUID kDebugObjectName = {
    0x429b8c22, 0x9188, 0x4b0c, {0x87, 0x42, 0xac, 0xb0, 0xbf, 0x85, 0xc2, 0x00}};

std::string call_name(const api::CallInfo& info) {
    if (info.interface_name.empty()) return std::string(info.method);
    return std::string(info.interface_name) + "::" + std::string(info.method);
}

enum class Route : std::uint8_t { Unknown, Generated, ByHand, NotReplayed };

// How each call id is replayed, from the generated lists.
struct Routes {
    std::vector<Route> route;
    std::vector<std::string_view> reason;
    std::vector<std::string> names;  // "Interface::Method"

    Routes() {
        std::size_t size = 0;
        for (const api::CallInfo& call : api::kCalls)
            size = std::max(size, static_cast<std::size_t>(call.id) + 1);
        route.assign(size, Route::Unknown);
        reason.assign(size, {});
        names.assign(size, {});
        for (const api::CallInfo& call : api::kCalls)
            names[static_cast<std::size_t>(call.id)] = call_name(call);
        for (api::CallId id : api::kInvokedCalls) set(id, Route::Generated, {});
        for (const auto& call : api::kHandWrittenReplays)
            set(call.call, Route::ByHand, call.reason);
        for (const auto& call : api::kNotReplayed) set(call.call, Route::NotReplayed, call.reason);
    }
    void set(api::CallId id, Route r, std::string_view why) {
        route[static_cast<std::size_t>(id)] = r;
        reason[static_cast<std::size_t>(id)] = why;
    }
    Route of(std::uint16_t id) const { return id < route.size() ? route[id] : Route::Unknown; }
};

const Routes& routes() {
    static const Routes table;
    return table;
}

bool is_supported(D3D_DRIVER_TYPE driver) {
    return driver == D3D_DRIVER_TYPE_HARDWARE || driver == D3D_DRIVER_TYPE_REFERENCE ||
           driver == D3D_DRIVER_TYPE_WARP || driver == D3D_DRIVER_TYPE_NULL;
}

// SetPrivateData on whichever interface of the object has it.
HRESULT set_debug_name(IUnknown* object, const flatbuffers::String* name) {
    const UINT size = name != nullptr ? name->size() : 0;
    const void* data = name != nullptr ? name->data() : nullptr;
    HRESULT hr = E_NOINTERFACE;
    void* found = nullptr;
    if (SUCCEEDED(object->QueryInterface(__uuidof(ID3D11DeviceChild), &found))) {
        hr = static_cast<ID3D11DeviceChild*>(found)->SetPrivateData(kDebugObjectName, size, data);
    } else if (SUCCEEDED(object->QueryInterface(__uuidof(ID3D11Device), &found))) {
        hr = static_cast<ID3D11Device*>(found)->SetPrivateData(kDebugObjectName, size, data);
    } else if (SUCCEEDED(object->QueryInterface(__uuidof(IDXGIObject), &found))) {
        hr = static_cast<IDXGIObject*>(found)->SetPrivateData(kDebugObjectName, size, data);
    }
    if (found != nullptr) static_cast<IUnknown*>(found)->Release();
    return hr;
}

// UpdateTileMappings of a resource this device tiles otherwise than the recording one.
bool adapted(Session& s, const fb::Record& record) {
    const auto* p = api::CallOf<fb::ID3D11DeviceContext2_UpdateTileMappings>::get(record);
    return p != nullptr && s.adaptation.remaps(p->p_tiled_resource());
}

// A format the replay device supports otherwise than the recording one: a
// capability difference (the program's later calls show whether it matters).
void compare_format_support(Session& s, const fb::Record& record) {
    const auto* p = api::CallOf<fb::ID3D11Device_CheckFormatSupport>::get(record);
    std::string why;
    void* device =
        s.objects.find(record.header()->object(), __uuidof(ID3D11Device), "ID3D11Device", &why);
    if (p == nullptr || device == nullptr) return;
    UINT support = 0;
    const HRESULT hr = static_cast<ID3D11Device*>(device)->CheckFormatSupport(
        static_cast<DXGI_FORMAT>(p->format()), &support);
    // A failure is an HRESULT difference, which the caller reports.
    if (FAILED(hr) || support == p->p_format_support()) return;
    char text[160];
    std::snprintf(text, sizeof text,
                  "DXGI format %u: the recording device's support was 0x%x, this device's is 0x%x",
                  p->format(), p->p_format_support(), support);
    s.mismatch(0, 0, text);
}

// What replay follows of the device's answers and of the tile calls.
// A successful ResizeBuffers proves the program held no reference to the
// back buffers: they die inside the call, and their ObjectDestroyed records
// follow it. Replay lets go of them first, as the program did.
void before_call(Session& s, const fb::Record& record, api::CallId id) {
    if (id != api::CallId::IDXGISwapChain_ResizeBuffers ||
        FAILED(static_cast<HRESULT>(record.header()->result())))
        return;
    const auto buffers = s.back_buffers.find(record.header()->object());
    if (buffers == s.back_buffers.end()) return;
    for (const std::uint64_t buffer : buffers->second) s.objects.release(buffer);
    buffers->second.clear();
}

void after_call(Session& s, const fb::Record& record, api::CallId id, const api::Invoked& invoked) {
    if (id == api::CallId::ID3D11Device_CheckFormatSupport &&
        SUCCEEDED(static_cast<HRESULT>(record.header()->result()))) {
        compare_format_support(s, record);
    } else if (id == api::CallId::ID3D11DeviceContext2_ResizeTilePool &&
               SUCCEEDED(invoked.result)) {
        if (const auto* p = api::CallOf<fb::ID3D11DeviceContext2_ResizeTilePool>::get(record))
            s.adaptation.pool_resized(p->p_tile_pool(), p->new_size_in_bytes());
    } else if (id == api::CallId::ID3D11DeviceContext2_CopyTileMappings) {
        const auto* p = api::CallOf<fb::ID3D11DeviceContext2_CopyTileMappings>::get(record);
        if (p != nullptr && (s.adaptation.remaps(p->p_dest_tiled_resource()) ||
                             s.adaptation.remaps(p->p_source_tiled_resource())))
            s.adaptations.push_back({s.event, p->p_dest_tiled_resource(),
                                     "CopyTileMappings with a resource whose packed mips differ "
                                     "on this device replays as recorded",
                                     false});
    }
}

}  // namespace

struct Replayer::State {
    State(std::unique_ptr<trace::TraceReader> trace_reader, const ReplayOptions& options)
        : reader(std::move(trace_reader)), session(options) {
        session.objects.set_added_sink([this](std::uint64_t id, IUnknown* object) {
            session.adaptation.object_added(id, object, session.event, session.adaptations);
            adopt(object);
        });
        session.adaptation.load(reader->index());
    }

    std::unique_ptr<trace::TraceReader> reader;
    std::uint64_t events = reader->event_count();
    Session session;
    std::uint64_t next = 0;
    DeviceFacts facts;
    std::vector<ID3D11Device*> clocked_devices;  // devices with a GPU clock; referenced
    // Those of them that time in the command stream, and their backends.
    std::vector<runtime::backend::Backend*> streamed;
    // Immediate contexts, for the draws and dispatches they ran; referenced.
    std::vector<ID3D11DeviceContext*> immediate_contexts;
    ~State() {
        for (ID3D11DeviceContext* context : immediate_contexts) context->Release();
        for (ID3D11Device* device : clocked_devices) device->Release();
    }
    std::uint64_t hashes_checked = 0;
    std::uint64_t hashes_not_comparable = 0;
    // A replay device runs draws and dispatches: recorded hashes of what the
    // capturing device did not run cannot match.
    bool executes_work = false;
    std::uint64_t check_ns = 0;  // spent on checks in the current event
    EventClock clock;            // of each event's CPU time
    std::vector<HashDifference> hash_differences;

    // Devices that can time their work, and swap chains that take screenshots.
    void adopt(IUnknown* object) {
        void* found = nullptr;
        if (SUCCEEDED(object->QueryInterface(__uuidof(ID3D11Device), &found))) {
            auto* device = static_cast<ID3D11Device*>(found);
            if (!facts.known) learn(device);
            if (const runtime::backend::Backend* backend = runtime::device_backend(device))
                executes_work = executes_work || backend->executes_shaders();
            std::uint64_t ns = 0;
            if (session.options.timing && runtime::device_gpu_clock_ns(device, &ns) &&
                std::find(clocked_devices.begin(), clocked_devices.end(), device) ==
                    clocked_devices.end()) {
                clocked_devices.push_back(device);  // keeps the reference QueryInterface gave
                runtime::backend::Backend* backend = runtime::device_backend(device);
                if (backend->times_tagged_work()) {
                    backend->set_work_timing(session.options.gpu_timestamps);
                    backend->tag_work(session.event);
                    streamed.push_back(backend);
                }
            } else {
                device->Release();
            }
        }
        if (SUCCEEDED(object->QueryInterface(__uuidof(ID3D11DeviceContext), &found))) {
            auto* context = static_cast<ID3D11DeviceContext*>(found);
            if (context->GetType() == D3D11_DEVICE_CONTEXT_IMMEDIATE &&
                std::find(immediate_contexts.begin(), immediate_contexts.end(), context) ==
                    immediate_contexts.end())
                immediate_contexts.push_back(context);
            else
                context->Release();
        }
        if (!session.options.screenshot_directory.empty() &&
            SUCCEEDED(object->QueryInterface(__uuidof(IDXGISwapChain), &found))) {
            auto* swap_chain = static_cast<IDXGISwapChain*>(found);
            runtime::set_screenshot_directory(swap_chain,
                                              session.options.screenshot_directory.c_str());
            swap_chain->Release();
        }
    }

    void learn(ID3D11Device* device) {
        facts.known = true;
        facts.feature_level = static_cast<std::uint32_t>(device->GetFeatureLevel());
        D3D11_FEATURE_DATA_D3D11_OPTIONS1 options{};
        if (SUCCEEDED(device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS1, &options,
                                                  sizeof options)))
            facts.tiled_resources_tier = static_cast<std::uint32_t>(options.TiledResourcesTier);
        std::uint64_t ns = 0;
        facts.gpu_clock = runtime::device_gpu_clock_ns(device, &ns);
        const runtime::backend::Backend* backend = runtime::device_backend(device);
        facts.gpu_in_command_stream = backend != nullptr && backend->times_tagged_work();
        compare_tier();
        IDXGIDevice* dxgi = nullptr;
        if (FAILED(device->QueryInterface(__uuidof(IDXGIDevice), reinterpret_cast<void**>(&dxgi))))
            return;
        IDXGIAdapter* adapter = nullptr;
        if (SUCCEEDED(dxgi->GetAdapter(&adapter))) {
            DXGI_ADAPTER_DESC desc{};
            if (SUCCEEDED(adapter->GetDesc(&desc)))
                facts.adapter = api::WideToUtf8(desc.Description);
            adapter->Release();
        }
        dxgi->Release();
    }

    // Tiled calls of a trace recorded at a higher tier may fail here.
    void compare_tier() {
        const fb::DeviceDescription* recorded = reader->header().device();
        const auto* tilings = reader->index().tilings();
        if (recorded == nullptr || tilings == nullptr || tilings->size() == 0 ||
            facts.tiled_resources_tier >= recorded->tiled_resources_tier())
            return;
        session.adaptations.push_back(
            {session.event, 0,
             "this device has tiled resources tier " + std::to_string(facts.tiled_resources_tier) +
                 ", the recording device tier " + std::to_string(recorded->tiled_resources_tier()),
             false});
    }

    // The sum of the GPU clocks read around each call, or -1 when no device
    // has one (those timing in the command stream tell later).
    std::int64_t gpu_clock() const {
        if (clocked_devices.size() == streamed.size()) return -1;
        std::uint64_t total = 0;
        for (ID3D11Device* device : clocked_devices) {
            std::uint64_t ns = 0;
            if (!runtime::device_backend(device)->times_tagged_work() &&
                runtime::device_gpu_clock_ns(device, &ns))
                total += ns;
        }
        return static_cast<std::int64_t>(total);
    }

    Status fail(const std::string& where, const std::string& message) const {
        return trace::TraceError{reader->path(), where + message, -1,
                                 static_cast<std::int64_t>(session.event), -1};
    }
};

Replayer::Replayer(std::unique_ptr<State> state) : state_(std::move(state)) {}
Replayer::~Replayer() = default;

Result<std::unique_ptr<Replayer>> Replayer::open(const std::string& trace_path,
                                                 const ReplayOptions& options) {
    if (!is_supported(options.driver)) {
        return trace::TraceError{
            trace_path,
            "replay runs on D3D_DRIVER_TYPE_HARDWARE, REFERENCE, WARP or NULL, not "
            "driver type " +
                std::to_string(options.driver)};
    }
    ReplayOptions resolved = options;
    if (resolved.memory_cap == 0) {
        std::string error;
        resolved.memory_cap = memory_cap_from_environment(error);
        if (!error.empty()) return trace::TraceError{trace_path, error};
    }
    trace::ReaderOptions reader_options;
    reader_options.max_chunk_bytes = std::min(reader_options.max_chunk_bytes, resolved.memory_cap);
    auto reader = trace::TraceReader::open(trace_path, reader_options);
    if (!reader) return reader.error();
    auto state = std::make_unique<State>(std::move(reader.value()), resolved);
    return std::unique_ptr<Replayer>(new Replayer(std::move(state)));
}

std::uint64_t Replayer::take_gpu_times(bool wait, std::vector<runtime::backend::WorkTime>& out) {
    std::uint64_t pending_from = UINT64_MAX;
    for (runtime::backend::Backend* backend : state_->streamed)
        pending_from = std::min(pending_from, backend->take_work_times(wait, out));
    return pending_from;
}

std::uint64_t Replayer::next_event() const {
    return state_->next;
}

std::uint64_t Replayer::event_count() const {
    return state_->events;
}

Status Replayer::run_all() {
    if (event_count() == 0) return trace::ok_status();
    return run_to(event_count() - 1);
}

Status Replayer::run_to(std::uint64_t last_event) {
    const std::uint64_t end = std::min(last_event, event_count() - 1);
    while (event_count() != 0 && state_->next <= end) {
        Result<EventTiming> done = step();
        if (!done) return done.error();
    }
    return trace::ok_status();
}

Result<EventTiming> Replayer::step() {
    State& s = *state_;
    if (s.next >= event_count()) {
        return trace::TraceError{s.reader->path(), "no event after the last one", -1,
                                 static_cast<std::int64_t>(s.next), -1};
    }
    Result<const fb::Record*> record = s.reader->record(s.next);
    if (!record) return record.error();
    EventTiming timing;
    timing.event = s.next;
    timing.call = record.value()->header()->call();
    timing.meta = static_cast<std::uint8_t>(record.value()->meta_type());
    s.session.event = s.next;
    s.session.objects.set_event(s.next);
    const bool timed = s.session.options.timing;
    for (runtime::backend::Backend* backend : s.streamed) backend->tag_work(s.next);
    const std::int64_t gpu_before = timed ? s.gpu_clock() : -1;
    const std::uint64_t start = timed ? s.clock.now() : 0;
    s.check_ns = 0;
    if (Status status = replay_record(*record.value(), {}); !status) return status.error();
    if (timed) {
        const std::uint64_t spent = s.clock.ns_between(start, s.clock.now());
        timing.check_ns = std::min(s.check_ns, spent);
        timing.cpu_ns = spent - timing.check_ns;
        const std::int64_t gpu_after = s.gpu_clock();
        // A device created by this event has no "before": its whole clock counts.
        if (gpu_after >= 0) timing.gpu_ns = gpu_after - std::max<std::int64_t>(gpu_before, 0);
        timing.gpu_later = !s.streamed.empty();
        if (timing.gpu_later) timing.gpu_ns = std::max<std::int64_t>(timing.gpu_ns, 0);
    }
    ++s.next;
    return timing;
}

Status Replayer::replay_record(const fb::Record& record, const std::string& where) {
    State& s = *state_;
    Session& session = s.session;
    const std::uint16_t call = record.header()->call();
    if (call == 0) return replay_meta(record, where);
    const api::CallInfo* info = api::find_call(static_cast<api::CallId>(call));
    if (info == nullptr) {
        return s.fail(where, "call id " + std::to_string(call) +
                                 " is unknown to this build of d3dcap (a newer trace?)");
    }
    session.call = routes().names[call];
    if (const std::string why = check_record_limits(record, session.options.memory_cap);
        !why.empty())
        return s.fail(where, std::string(session.call) + ": " + why);
    session.arena.reset();
    session.ctx.error.clear();
    api::Invoked invoked;
    const api::CallId id = info->id;
    before_call(session, record, id);
    if (id == api::CallId::ID3D11DeviceContext2_UpdateTileMappings && adapted(session, record)) {
        invoked = session.adaptation.update_tile_mappings(record, session.ctx);
    } else
        switch (routes().of(call)) {
            case Route::Generated:
                invoked = api::invoke_call(record, session.ctx);
                break;
            case Route::ByHand:
                invoked = replay_by_hand(session, info->id, record);
                break;
            case Route::NotReplayed:
                return s.fail(where, std::string(session.call) +
                                         ": not replayed: " + std::string(routes().reason[call]));
            case Route::Unknown:
                return s.fail(where,
                              std::string(session.call) + ": replay has no code for this call");
        }
    if (!invoked.ok) return s.fail(where, std::string(session.call) + ": " + session.ctx.error);
    after_call(session, record, id, invoked);
    if (info->returns == "HRESULT") {
        const auto recorded = static_cast<HRESULT>(record.header()->result());
        const auto replayed = static_cast<HRESULT>(invoked.result);
        if (recorded != replayed && !(FAILED(recorded) && FAILED(replayed))) {
            session.mismatch(recorded, replayed);
        }
    }
    return trace::ok_status();
}

Status Replayer::replay_meta(const fb::Record& record, const std::string& where) {
    State& s = *state_;
    Session& session = s.session;
    if (record.meta_type() != fb::Meta::NONE && record.meta() == nullptr) {
        return s.fail(where, std::string("a ") + fb::EnumNameMeta(record.meta_type()) +
                                 " record without its table");
    }
    switch (record.meta_type()) {
        case fb::Meta::ObjectCreated: {
            const auto* created = record.meta_as_ObjectCreated();
            session.objects.note_interface(
                created->id(), created->interface_name() ? created->interface_name()->str() : "");
            const std::string_view name =
                created->interface_name() ? created->interface_name()->string_view() : "";
            if (name.starts_with("IDXGISwapChain")) {
                session.back_buffers[created->id()];
            } else if (auto chain = session.back_buffers.find(created->parent());
                       chain != session.back_buffers.end()) {
                chain->second.push_back(created->id());
            }
            return trace::ok_status();
        }
        case fb::Meta::ObjectDestroyed: {
            const std::uint64_t id = record.meta_as_ObjectDestroyed()->id();
            session.objects.release(id);
            session.back_buffers.erase(id);
            session.mapped.forget(id);
            session.adaptation.destroyed(id);
            return trace::ok_status();
        }
        case fb::Meta::DebugName: {
            const auto* name = record.meta_as_DebugName();
            session.call = "DebugName";
            if (session.objects.creation_failed(name->id())) return trace::ok_status();
            std::string why;
            void* object = session.objects.find(name->id(), __uuidof(IUnknown), "IUnknown", &why);
            if (object == nullptr) return s.fail(where, "DebugName: id: " + why);
            set_debug_name(static_cast<IUnknown*>(object), name->name());
            return trace::ok_status();
        }
        case fb::Meta::StateSnapshot: {
            const auto* records = record.meta_as_StateSnapshot()->records();
            if (records == nullptr) return trace::ok_status();
            if (!where.empty()) return s.fail(where, "a state snapshot inside a state snapshot");
            std::vector<std::uint64_t> aligned;
            for (flatbuffers::uoffset_t i = 0; i < records->size(); ++i) {
                // The reader verified every nested record with its snapshot. A
                // byte vector is only 4-byte aligned: its record is read from a copy.
                const auto* bytes = records->Get(i)->data();
                aligned.assign((bytes->size() + 7) / 8, 0);
                std::memcpy(aligned.data(), bytes->data(), bytes->size());
                const auto& nested = *flatbuffers::GetSizePrefixedRoot<fb::Record>(aligned.data());
                const std::string at = "state snapshot record " + std::to_string(i) + ": ";
                session.snapshot_record = i;
                Status status = replay_record(nested, at);
                session.snapshot_record = -1;
                if (!status) return status;
            }
            return trace::ok_status();
        }
        case fb::Meta::ContentHashes:
            if (session.options.verify) check_hashes(*record.meta_as_ContentHashes());
            return trace::ok_status();
        case fb::Meta::SwapChainSize: {
            // The window's size that the swap chain took when it was made,
            // before anything holds its buffers.
            const auto* size = record.meta_as_SwapChainSize();
            session.call = "SwapChainSize";
            if (session.objects.creation_failed(size->swap_chain())) return trace::ok_status();
            std::string why;
            auto* chain = static_cast<IDXGISwapChain*>(session.objects.find(
                size->swap_chain(), __uuidof(IDXGISwapChain), "IDXGISwapChain", &why));
            if (chain == nullptr) return s.fail(where, "SwapChainSize: swap_chain: " + why);
            DXGI_SWAP_CHAIN_DESC desc{};
            chain->GetDesc(&desc);
            if (desc.BufferDesc.Width == size->width() && desc.BufferDesc.Height == size->height())
                return trace::ok_status();
            const HRESULT hr = chain->ResizeBuffers(0, size->width(), size->height(),
                                                    DXGI_FORMAT_UNKNOWN, desc.Flags);
            if (FAILED(hr))
                return s.fail(where, "SwapChainSize: the swap chain cannot take the size " +
                                         std::to_string(size->width()) + "x" +
                                         std::to_string(size->height()) + " its window gave it");
            return trace::ok_status();
        }
        case fb::Meta::FrameBoundary:
        case fb::Meta::ResourceTiling:
        case fb::Meta::NONE:
        default:
            return trace::ok_status();
    }
}

IUnknown* Replayer::object(std::uint64_t id) const {
    return state_->session.objects.object(id);
}

std::vector<std::uint64_t> Replayer::object_ids() const {
    return state_->session.objects.ids();
}

ID3D11DeviceContext* Replayer::immediate_context() const {
    return state_->immediate_contexts.empty() ? nullptr : state_->immediate_contexts.front();
}

ID3D11DeviceContext* Replayer::context_of(std::uint64_t event) const {
    Result<const fb::Record*> record = state_->reader->record(event);
    if (!record || record.value()->header() == nullptr) return nullptr;
    const std::uint64_t id = record.value()->header()->context();
    if (id == 0) return nullptr;
    // Not AddRef'd: this object() holds the context.
    ID3D11DeviceContext* context = nullptr;
    IUnknown* object = this->object(id);
    if (object == nullptr || FAILED(object->QueryInterface(__uuidof(ID3D11DeviceContext),
                                                           reinterpret_cast<void**>(&context))))
        return nullptr;
    context->Release();
    return context;
}

std::uint64_t Replayer::called_object(std::uint64_t event) const {
    Result<const fb::Record*> record = state_->reader->record(event);
    if (!record || record.value()->header() == nullptr) return 0;
    return record.value()->header()->object();
}

std::string Replayer::debug_name(std::uint64_t id) const {
    IUnknown* object = this->object(id);
    ID3D11DeviceChild* child = nullptr;
    if (object == nullptr || FAILED(object->QueryInterface(__uuidof(ID3D11DeviceChild),
                                                           reinterpret_cast<void**>(&child))))
        return {};
    UINT size = 0;
    std::string name;
    if (SUCCEEDED(child->GetPrivateData(kDebugObjectName, &size, nullptr)) && size > 0) {
        name.resize(size);
        if (FAILED(child->GetPrivateData(kDebugObjectName, &size, name.data()))) name.clear();
        name.resize(std::min<std::size_t>(size, name.size()));
    }
    child->Release();
    return name;
}

const std::vector<Mismatch>& Replayer::mismatches() const {
    return state_->session.mismatches;
}

runtime::DrawCounts Replayer::draw_counts() const {
    runtime::DrawCounts total;
    for (ID3D11DeviceContext* context : state_->immediate_contexts) {
        const runtime::DrawCounts counts = runtime::context_draw_counts(context);
        total.draws += counts.draws;
        total.dispatches += counts.dispatches;
        total.not_executed += counts.not_executed;
    }
    return total;
}

std::uint64_t Replayer::hashes_checked() const {
    return state_->hashes_checked;
}

std::uint64_t Replayer::hashes_not_comparable() const {
    return state_->hashes_not_comparable;
}

const std::vector<HashDifference>& Replayer::hash_differences() const {
    return state_->hash_differences;
}

const std::vector<Adaptation>& Replayer::adaptations() const {
    return state_->session.adaptations;
}

const Replayer::DeviceFacts& Replayer::device_facts() const {
    return state_->facts;
}

void Replayer::check_hashes(const fb::ContentHashes& recorded) {
    State& s = *state_;
    if (recorded.hashes() == nullptr) return;
    const auto start = std::chrono::steady_clock::now();
    struct AddTime {
        std::uint64_t& total;
        std::chrono::steady_clock::time_point start;
        ~AddTime() {
            total +=
                static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                               std::chrono::steady_clock::now() - start)
                                               .count());
        }
    } add{s.check_ns, start};
    // The readbacks are no event's work.
    struct Untimed {
        const std::vector<runtime::backend::Backend*>& backends;
        std::uint64_t event;
        ~Untimed() {
            for (runtime::backend::Backend* backend : backends) backend->tag_work(event);
        }
    } untimed{s.streamed, s.next};
    for (runtime::backend::Backend* backend : s.streamed)
        backend->tag_work(runtime::backend::kUntimedWork);
    const auto* unexecuted = s.executes_work ? recorded.unexecuted() : nullptr;
    for (const fb::SubresourceHash* hash : *recorded.hashes()) {
        if (unexecuted != nullptr && std::find(unexecuted->begin(), unexecuted->end(),
                                               hash->resource()) != unexecuted->end()) {
            ++s.hashes_not_comparable;
            continue;
        }
        HashDifference difference{s.session.event,
                                  recorded.frame(),
                                  hash->resource(),
                                  hash->subresource(),
                                  hash->hash(),
                                  0,
                                  {},
                                  {}};
        ++s.hashes_checked;
        IUnknown* object = s.session.objects.object(hash->resource());
        if (object == nullptr) {
            difference.detail = "the resource does not exist in the replay";
        } else {
            difference.replayed = content_hash(hash->resource(), hash->subresource());
            if (difference.replayed == difference.recorded) continue;
            if (difference.replayed == 0) difference.detail = "the subresource cannot be read";
            if (recorded.images() != nullptr)
                for (const fb::SubresourceImage* image : *recorded.images())
                    if (image->resource() == hash->resource() &&
                        image->subresource() == hash->subresource())
                        difference.image = image_distance(*image);
        }
        s.hash_differences.push_back(std::move(difference));
    }
}

// The replayed render target downscaled as capture did, against the copy
// recorded beside its hash: texel for texel where capture kept every texel.
runtime::formats::ImageDistance Replayer::image_distance(
    const fb::SubresourceImage& recorded) const {
    IUnknown* object = state_->session.objects.object(recorded.resource());
    ID3D11Texture2D* texture = nullptr;
    if (object == nullptr || recorded.rgba() == nullptr ||
        FAILED(object->QueryInterface(__uuidof(ID3D11Texture2D),
                                      reinterpret_cast<void**>(&texture))) ||
        texture == nullptr)
        return {};
    D3D11_TEXTURE2D_DESC desc{};
    texture->GetDesc(&desc);
    std::vector<std::uint8_t> texels;
    const bool read = runtime::resource_contents(texture, recorded.subresource(), texels);
    texture->Release();
    if (!read || texels.size() != std::size_t{desc.Width} * desc.Height * 4) return {};
    runtime::formats::Thumbnail before;
    before.width = recorded.width();
    before.height = recorded.height();
    before.scale = recorded.scale();
    before.rgba.assign(recorded.rgba()->begin(), recorded.rgba()->end());
    const runtime::formats::Thumbnail after =
        runtime::formats::make_thumbnail(texels.data(), desc.Width, desc.Height);
    return runtime::formats::image_distance(
        before, after, runtime::formats::thumbnail_channels(desc.Format), desc.Width, desc.Height);
}

std::uint64_t Replayer::content_hash(std::uint64_t id, UINT subresource) const {
    IUnknown* object = state_->session.objects.object(id);
    if (object == nullptr) return 0;
    ID3D11Resource* resource = nullptr;
    if (FAILED(object->QueryInterface(__uuidof(ID3D11Resource),
                                      reinterpret_cast<void**>(&resource))) ||
        resource == nullptr)
        return 0;
    const std::uint64_t hash = runtime::resource_content_hash(resource, subresource);
    resource->Release();
    return hash;
}

}  // namespace d3dcap::replay
