#include "index_builder.h"

#include <d3dcap/api/call_dispatch.h>

#include <algorithm>

namespace d3dcap::trace {

using api::CallId;
using api::CallOf;

void IndexBuilder::add_marker(const fb::Record& record, fb::MarkerKind kind,
                              const flatbuffers::String* label, std::int32_t data, bool has_data) {
    const fb::RecordHeader& header = *record.header();
    // Marker nesting is per context; annotation interfaces count as their context.
    std::uint32_t& depth = marker_depth_[header.context() ? header.context() : header.object()];
    if (kind == fb::MarkerKind::End && depth > 0) --depth;
    markers_.add(Marker{header.event(), data, 0, depth, kind, has_data},
                 label ? label->string_view() : std::string_view());
    if (kind == fb::MarkerKind::Begin) ++depth;
}

void IndexBuilder::add_record(const fb::Record& record, std::size_t record_bytes) {
    const fb::RecordHeader& header = *record.header();
    ++event_count_;
    uncompressed_bytes_ += record_bytes;
    // Thread 0 marks placeholders of abandoned events, not a thread.
    // Runs of records come from one thread: the set is looked up when it changes.
    if (const std::uint32_t thread = header.thread(); thread != 0 && thread != last_thread_) {
        last_thread_ = thread;
        threads_.insert(thread);
    }
    if (header.call() >= counts_.size()) counts_.resize(header.call() + 1);
    Count& count = counts_[header.call()];
    ++count.count;
    count.bytes += record_bytes;

    switch (static_cast<CallId>(header.call())) {
        case CallId::ID3D11DeviceContext2_BeginEventInt: {
            const auto* p = CallOf<fb::ID3D11DeviceContext2_BeginEventInt>::get(record);
            if (p) add_marker(record, fb::MarkerKind::Begin, p->p_label(), p->data(), true);
            return;
        }
        case CallId::ID3D11DeviceContext2_SetMarkerInt: {
            const auto* p = CallOf<fb::ID3D11DeviceContext2_SetMarkerInt>::get(record);
            if (p) add_marker(record, fb::MarkerKind::Marker, p->p_label(), p->data(), true);
            return;
        }
        case CallId::ID3D11DeviceContext2_EndEvent:
        case CallId::ID3DUserDefinedAnnotation_EndEvent:
            add_marker(record, fb::MarkerKind::End, nullptr, 0, false);
            return;
        case CallId::ID3DUserDefinedAnnotation_BeginEvent: {
            const auto* p = CallOf<fb::ID3DUserDefinedAnnotation_BeginEvent>::get(record);
            if (p) add_marker(record, fb::MarkerKind::Begin, p->name(), 0, false);
            return;
        }
        case CallId::ID3DUserDefinedAnnotation_SetMarker: {
            const auto* p = CallOf<fb::ID3DUserDefinedAnnotation_SetMarker>::get(record);
            if (p) add_marker(record, fb::MarkerKind::Marker, p->name(), 0, false);
            return;
        }
        default:
            break;
    }
    if (record.meta_type() == fb::Meta::FrameBoundary) {
        frame_first_events_.push_back(header.event());
    } else if (const fb::ResourceTiling* tiling = record.meta_as_ResourceTiling()) {
        Tiling t{tiling->resource(), tiling->num_tiles(), {}, {}, {}};
        if (tiling->packed_mip_desc()) t.packed = *tiling->packed_mip_desc();
        if (tiling->tile_shape()) t.shape = *tiling->tile_shape();
        if (tiling->subresource_tilings()) {
            for (const fb::D3D11_SUBRESOURCE_TILING* s : *tiling->subresource_tilings()) {
                t.subresources.push_back(*s);
            }
        }
        tilings_.push_back(std::move(t));
    }
}

std::vector<std::uint8_t> IndexBuilder::finish() const {
    // Sized for its tables, so that it does not grow by copying itself.
    flatbuffers::FlatBufferBuilder builder(1024 + chunks_.size() * sizeof(fb::ChunkEntry) +
                                           frame_first_events_.size() * sizeof(std::uint64_t));
    const auto markers = markers_.finish(builder);
    std::vector<fb::CallCount> counts;
    for (std::size_t call = 0; call < counts_.size(); ++call) {
        if (counts_[call].count == 0) continue;
        counts.emplace_back(static_cast<std::uint16_t>(call), counts_[call].count,
                            counts_[call].bytes);
    }
    std::vector<flatbuffers::Offset<fb::ResourceTiling>> tilings;
    for (const Tiling& t : tilings_) {
        tilings.push_back(fb::CreateResourceTilingDirect(builder, t.resource, t.num_tiles,
                                                         &t.packed, &t.shape, &t.subresources));
    }
    auto index = fb::CreateTraceIndexDirect(
        builder, event_count_, &chunks_, &frame_first_events_, nullptr, &counts,
        static_cast<std::uint32_t>(threads_.size()), &tilings, uncompressed_bytes_, markers);
    builder.Finish(index);
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

}  // namespace d3dcap::trace
