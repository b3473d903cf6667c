#include "capture/layer/snapshot.h"

#include <algorithm>
#include <unordered_set>

#include "capture/layer/layer.h"
#include "capture/layer/resource_info.h"
#include "capture/layer/snapshot_state.h"
#include "format/trace/records.h"

namespace d3dcap::capture {

SnapshotRecords creation_records(const std::vector<Wrapper*>& live) {
    SnapshotRecords records;
    std::unordered_set<const void*> seen;
    for (const Wrapper* w : live)
        if (w->creation_record != nullptr && seen.insert(w->creation_record.get()).second)
            records.push_back(w->creation_record);
    return records;
}

void Layer::write_snapshot() {
    std::vector<Wrapper*> live;
    {
        std::lock_guard lock(objects_mutex_);
        for (const auto& [key, wrapper] : by_real_)
            if (key == wrapper->identity) live.push_back(wrapper);
    }
    std::sort(live.begin(), live.end(),
              [](const Wrapper* a, const Wrapper* b) { return a->id < b->id; });
    SnapshotRecords records = creation_records(live);
    append_contents(live, records);
    for (Wrapper* w : live)
        if (w->kind == WrapperKind::DeviceContext)
            append_pipeline_state(w->as<ID3D11DeviceContext>(), records);
    const std::uint64_t at_frame = frame();
    record_meta([&](flatbuffers::FlatBufferBuilder& b) {
        std::vector<flatbuffers::Offset<fb::NestedRecord>> nested;
        nested.reserve(records.size());
        for (const auto& r : records)
            nested.push_back(fb::CreateNestedRecord(b, b.CreateVector(*r)));
        trace::finish_meta(b, thread_number(), fb::CreateStateSnapshotDirect(b, at_frame, &nested));
    });
    // What the capturing device reported for the tiled resources that exist.
    for (Wrapper* w : live)
        if (w->resource != nullptr) record_tiling(*w);
}

}  // namespace d3dcap::capture
