#include "capture/layer/recorder.h"

#include <cstring>

#ifdef _WIN32
#include <windows.h>
#else
#include <csignal>
#endif

namespace d3dcap::capture {

namespace {

// D3DCAP_CAPTURE_KILL_AT_EVENT: how the tests end a capture as kill -9 would.
void kill_now() {
#ifdef _WIN32
    TerminateProcess(GetCurrentProcess(), 137);
#else
    ::raise(SIGKILL);
#endif
}

}  // namespace

CallRecorder::CallRecorder(const FacetHeader* self, api::CallId call)
    : layer_(Layer::get()), call_(call) {
    if (self != nullptr) {
        object_ = self->owner->id;
        if (self->context) context_ = object_;
    }
    if (!layer_.recording()) return;
    trace::TraceWriter* writer = layer_.writer_for_call();
    if (writer == nullptr) return;
    if (const std::optional<std::uint64_t> event = writer->reserve()) {
        if (*event == layer_.kill_at_event()) kill_now();
        event_ = *event;
        recording_ = true;
    }
}

CallRecorder::~CallRecorder() {
    // A reserved event always gets a record, so that events stay contiguous.
    if (recording_ && !submitted_) layer_.writer()->abandon(event_);
}

void CallRecorder::submit() {
    submitted_ = true;
    std::shared_ptr<const std::vector<std::uint8_t>> record;
    if (!created_.empty() && layer_.keeps_creation()) {
        const std::uint8_t* data = builder().GetBufferPointer();
        record =
            std::make_shared<const std::vector<std::uint8_t>>(data, data + builder().GetSize());
    }
    if (recording_) layer_.writer()->submit_numbered(builder(), event_);
    if (created_.empty()) return;  // most calls make nothing
    for (Wrapper* wrapper : created_) layer_.record_created(wrapper, object_, record);
    if (!recording_) return;
    const auto& made = *flatbuffers::GetSizePrefixedRoot<fb::Record>(builder().GetBufferPointer());
    for (Wrapper* wrapper : created_) layer_.record_swap_chain_size(*wrapper, made);
}

void RecordTemplate::keep(api::CallId kept_call, const api::RecordShape& kept_shape,
                          const std::uint8_t* data, std::size_t bytes_count) {
    call = kept_call;
    shape = kept_shape;
    storage.resize((bytes_count + 7) / 8);
    std::memcpy(storage.data(), data, bytes_count);
    size = bytes_count;
}

void wrap_out_iid(CallRecorder& call, REFIID riid, void** out) {
    if (out == nullptr || *out == nullptr) return;
    IUnknown* facet = Layer::get().wrap(static_cast<IUnknown*>(*out), &call);
    if (facet == nullptr) {
        *out = nullptr;
        return;
    }
    void* wanted = header_of(facet)->owner->facet_for(riid);
    if (wanted == nullptr) facet->Release();  // an interface the layer does not wrap
    *out = wanted;
}

}  // namespace d3dcap::capture
