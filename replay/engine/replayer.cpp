#include "replay/engine/replayer.h"

#include <d3dcap/api/call_decoders.h>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

#include "format/trace/reader.h"
#include "replay/engine/session.h"
#include "replay/runtime/internal.h"

namespace d3dcap::replay {

namespace {

// WKPDID_D3DDebugObjectName.
constexpr GUID kDebugObjectName = {
    0x429b8c22, 0x9188, 0x4b0c, {0x87, 0x42, 0xac, 0xb0, 0xbf, 0x85, 0xc2, 0x00}};

enum class Route : std::uint8_t { Unknown, Generated, ByHand, NotReplayed };

// How each call id is replayed, from the generated lists.
struct Routes {
    std::vector<Route> route;
    std::vector<std::string_view> reason;

    Routes() {
        std::size_t size = 0;
        for (const api::CallInfo& call : api::kCalls)
            size = std::max(size, static_cast<std::size_t>(call.id) + 1);
        route.assign(size, Route::Unknown);
        reason.assign(size, {});
        for (api::CallId id : api::kInvokedCalls) set(id, Route::Generated, {});
        for (const auto& call : api::kReplayedByHand) set(call.call, Route::ByHand, call.reason);
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

std::string call_name(const api::CallInfo& info) {
    if (info.interface_name.empty()) return std::string(info.method);
    return std::string(info.interface_name) + "::" + std::string(info.method);
}

bool is_supported(D3D_DRIVER_TYPE driver) {
    return driver == D3D_DRIVER_TYPE_REFERENCE || driver == D3D_DRIVER_TYPE_WARP ||
           driver == D3D_DRIVER_TYPE_NULL;
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

}  // namespace

struct Replayer::State {
    State(std::unique_ptr<trace::TraceReader> trace_reader, const ReplayOptions& options)
        : reader(std::move(trace_reader)), session(options) {}

    std::unique_ptr<trace::TraceReader> reader;
    Session session;
    std::uint64_t next = 0;

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
        return trace::TraceError{trace_path,
                                 "replay runs on D3D_DRIVER_TYPE_REFERENCE, WARP or NULL, not "
                                 "driver type " +
                                     std::to_string(options.driver)};
    }
    auto reader = trace::TraceReader::open(trace_path);
    if (!reader) return reader.error();
    auto state = std::make_unique<State>(std::move(reader.value()), options);
    return std::unique_ptr<Replayer>(new Replayer(std::move(state)));
}

std::uint64_t Replayer::next_event() const {
    return state_->next;
}

std::uint64_t Replayer::event_count() const {
    return state_->reader->event_count();
}

Status Replayer::run_all() {
    if (event_count() == 0) return trace::ok_status();
    return run_to(event_count() - 1);
}

Status Replayer::run_to(std::uint64_t last_event) {
    State& s = *state_;
    const std::uint64_t end = std::min(last_event, event_count() - 1);
    while (event_count() != 0 && s.next <= end) {
        Result<const fb::Record*> record = s.reader->record(s.next);
        if (!record) return record.error();
        s.session.event = s.next;
        s.session.objects.set_event(s.next);
        if (Status status = replay_record(*record.value(), {}); !status) return status;
        ++s.next;
    }
    return trace::ok_status();
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
    session.call = call_name(*info);
    session.arena.reset();
    session.ctx.error.clear();
    api::Invoked invoked;
    switch (routes().of(call)) {
        case Route::Generated:
            invoked = api::invoke_call(record, session.ctx);
            break;
        case Route::ByHand:
            invoked = replay_by_hand(session, info->id, record);
            break;
        case Route::NotReplayed:
            return s.fail(where,
                          session.call + ": not replayed: " + std::string(routes().reason[call]));
        case Route::Unknown:
            return s.fail(where, session.call + ": replay has no code for this call");
    }
    if (!invoked.ok) return s.fail(where, session.call + ": " + session.ctx.error);
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
            return trace::ok_status();
        }
        case fb::Meta::ObjectDestroyed: {
            const std::uint64_t id = record.meta_as_ObjectDestroyed()->id();
            session.objects.release(id);
            session.mapped.forget(id);
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

std::vector<Mismatch> Replayer::mismatches() const {
    return state_->session.mismatches;
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
