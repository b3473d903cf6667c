// One call going through the layer: its event number (taken when the call
// enters, so the trace keeps the order in which calls entered), the record
// builder of this thread, and the objects the call handed out.
#pragma once

#include <d3dcap/api/call_encoders.h>

#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "capture/layer/facet.h"
#include "capture/layer/layer.h"
#include "format/trace/records.h"

namespace d3dcap::capture {

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

    // A wrapper the call created (wrap_out); its creation is recorded after
    // the call.
    void created(Wrapper* wrapper) { created_.push_back(wrapper); }

    std::uint64_t object() const { return object_; }

  private:
    void submit();

    Layer& layer_;
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
