// One call going through the layer: its event number (taken when the call
// enters, so the trace keeps the order in which calls entered), the record
// builder of this thread, and the objects the call handed out.
#pragma once

#include <d3dcap/api/call_dispatch.h>
#include <d3dcap/api/call_encoders.h>

#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "capture/layer/facet.h"
#include "capture/layer/layer.h"
#include "format/trace/records.h"

namespace d3dcap::capture {

// The last record of a call a thread made, kept to be patched for its next
// call of the same shape (api::RecordShape).
struct RecordTemplate {
    api::CallId call{};
    api::RecordShape shape;
    std::vector<std::uint64_t> storage;  // the size-prefixed record, 8-byte aligned
    std::size_t size = 0;
    std::uint8_t* bytes() { return reinterpret_cast<std::uint8_t*>(storage.data()); }
    void keep(api::CallId kept_call, const api::RecordShape& kept_shape, const std::uint8_t* data,
              std::size_t bytes_count);
};
// This thread's template slot for call; nullptr once the thread's builders
// are gone (at its exit).
RecordTemplate* thread_template(api::CallId call);

class CallRecorder {
  public:
    // self is the facet called (nullptr for entry points).
    CallRecorder(const FacetHeader* self, api::CallId call);
    ~CallRecorder();
    CallRecorder(const CallRecorder&) = delete;
    CallRecorder& operator=(const CallRecorder&) = delete;

    // True while the layer records this call, or when it made objects whose
    // creation must be kept for a later snapshot.
    bool wanted() const { return recording_ || (!created_.empty() && layer_.keeps_creation()); }
    bool recording() const { return recording_; }

    // Taken on first use: a call the layer does not record costs no builder.
    flatbuffers::FlatBufferBuilder& builder() {
        if (!scope_) scope_.emplace();
        return scope_->builder();
    }
    api::ObjectIds& ids() { return layer_.ids(); }

    // Finishes the record with the call's parameters and submits it; then
    // records the objects the call made.
    template <typename Params>
    void finish(flatbuffers::Offset<Params> params, std::int64_t result = 0,
                bool result_is_hresult = false,
                flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::MappedWrite>>>
                    map_writes = 0) {
        trace::CallContext context{object_,         context_,          result,
                                   thread_number(), result_is_hresult, event_};
        trace::finish_call(builder(), context, params, map_writes);
        submit();
    }

    // finish() for a void call whose arguments have shape (nullptr: none
    // that can be patched): the thread's last record of the call patched in
    // place when its shape is the same, else the one encode builds, with
    // every scalar present so that it is kept as the template.
    template <typename Params, typename Encode, typename Patch>
    void finish_templated(const api::RecordShape* shape, Encode&& encode, Patch&& patch) {
        RecordTemplate* kept =
            shape != nullptr && recording_ && created_.empty() ? thread_template(call_) : nullptr;
        if (kept == nullptr) {
            finish(encode(builder()));
            return;
        }
        if (kept->size != 0 && kept->call == call_ && kept->shape == *shape) {
            auto* record = flatbuffers::GetMutableSizePrefixedRoot<fb::Record>(kept->bytes());
            patch(*const_cast<Params*>(api::CallOf<Params>::get(*record)));
            fb::RecordHeader* header = record->mutable_header();
            header->mutate_event(event_);
            header->mutate_object(object_);
            header->mutate_context(context_);
            header->mutate_thread(thread_number());
            submitted_ = true;
            layer_.writer()->submit_numbered(kept->bytes(), kept->size, event_);
            return;
        }
        flatbuffers::FlatBufferBuilder& b = builder();
        b.ForceDefaults(true);
        finish(encode(b));
        b.ForceDefaults(false);
        kept->keep(call_, *shape, b.GetBufferPointer(), b.GetSize());
    }

    // A wrapper the call created (wrap_out); its creation is recorded after
    // the call.
    void created(Wrapper* wrapper) { created_.push_back(wrapper); }

    std::uint64_t object() const { return object_; }

  private:
    void submit();

    Layer& layer_;
    api::CallId call_;
    std::optional<BuilderScope> scope_;
    std::uint64_t object_ = 0;
    std::uint64_t context_ = 0;
    std::uint64_t event_ = 0;
    bool recording_ = false;
    bool submitted_ = false;
    std::vector<Wrapper*> created_;
};

// A result of any type as the record header's integer.
template <typename T>
std::int64_t result_value(T value) {
    if constexpr (std::is_pointer_v<T>)
        return static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(value));
    else
        return static_cast<std::int64_t>(value);
}

// Replaces the real object a call handed out with its wrapper.
template <class I>
void wrap_out(CallRecorder& call, I** out) {
    if (out != nullptr && *out != nullptr) *out = Layer::get().wrap(*out, &call);
}

template <class I>
void wrap_out(CallRecorder& call, I** out, std::size_t count) {
    if (out == nullptr) return;
    for (std::size_t i = 0; i < count; ++i) wrap_out(call, out + i);
}

// The object a call handed out through a void** for riid.
void wrap_out_iid(CallRecorder& call, REFIID riid, void** out);

// An object of an interface the layer does not wrap: handing it out would let
// calls bypass the capture, so the application gets NULL.
template <class I>
void refuse_out(CallRecorder& /*call*/, I** out) {
    if (out != nullptr && *out != nullptr) {
        (*out)->Release();
        *out = nullptr;
    }
}

}  // namespace d3dcap::capture
