// Building records: a call with its parameters, or a meta record.
#pragma once

#include <d3dcap/api/call_dispatch.h>
#include <d3dcap/fb/record_generated.h>

#include <cstdint>

namespace d3dcap::trace {

// Who made a call and what it returned; the writer fills in the event number.
struct CallContext {
    std::uint64_t object = 0;   // this-object id
    std::uint64_t context = 0;  // device context id for context calls
    std::int64_t result = 0;    // HRESULT or returned value
    std::uint32_t thread = 0;
    bool result_is_hresult = false;
    std::uint64_t event = 0;  // the reserved event number (TraceWriter::submit_numbered)
};

// Finishes builder with a size-prefixed Record holding a call.
template <typename Params>
void finish_call(
    flatbuffers::FlatBufferBuilder& builder, const CallContext& call,
    flatbuffers::Offset<Params> params,
    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::MappedWrite>>> map_writes = 0) {
    const fb::RecordHeader header(
        call.event, call.object, call.context, call.result, call.thread,
        static_cast<std::uint16_t>(api::CallOf<Params>::id),
        static_cast<std::uint16_t>(call.result_is_hresult ? fb::RecordFlags::ResultIsHresult
                                                          : fb::RecordFlags::NONE));
    fb::RecordBuilder record(builder);
    record.add_header(&header);
    api::CallOf<Params>::add_to(record, params);
    if (!map_writes.IsNull()) record.add_map_writes(map_writes);
    builder.FinishSizePrefixed(record.Finish());
}

// Finishes builder with a size-prefixed Record holding a meta record.
template <typename Meta>
void finish_meta(flatbuffers::FlatBufferBuilder& builder, std::uint32_t thread,
                 flatbuffers::Offset<Meta> meta) {
    const fb::RecordHeader header(0, 0, 0, 0, thread, 0, 0);
    fb::RecordBuilder record(builder);
    record.add_header(&header);
    record.add_meta_type(fb::MetaTraits<Meta>::enum_value);
    record.add_meta(meta.Union());
    builder.FinishSizePrefixed(record.Finish());
}

}  // namespace d3dcap::trace
