#include "replay/engine/mapped_memory.h"

#include <algorithm>
#include <cstring>

namespace d3dcap::replay {

namespace {

std::uint64_t span_of(const Mapping& m) {
    return bytes_spanned(m.extent, m.recorded_row_pitch, m.recorded_depth_pitch);
}

// The index of the row (or slice) of pitch that holds byte offset, clamped to count.
std::uint32_t index_of(std::uint64_t offset, std::uint64_t pitch, std::uint32_t count) {
    if (pitch == 0) return 0;
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(offset / pitch, count - 1));
}

// Copies the bytes of [begin, end) of the recorded layout (source holds the
// whole recorded layout when whole is true, else only that range) into the
// replay mapping, row by row.
void copy_rows(const Mapping& m, std::uint64_t begin, std::uint64_t end, const std::uint8_t* from,
               bool whole) {
    auto* to = static_cast<std::uint8_t*>(m.replay.pData);
    const Extent& e = m.extent;
    const std::uint64_t rp = m.recorded_row_pitch, dp = m.recorded_depth_pitch;
    const bool one_slice = e.slices == 1 || dp == 0;
    const std::uint32_t s0 = one_slice ? 0 : index_of(begin, dp, e.slices);
    const std::uint32_t s1 = one_slice ? e.slices - 1 : index_of(end - 1, dp, e.slices);
    for (std::uint32_t s = s0; s <= s1; ++s) {
        const std::uint64_t base = std::uint64_t{s} * dp;
        const bool one_row = e.rows == 1 || rp == 0;
        const std::uint32_t r0 = one_row || begin <= base ? 0 : index_of(begin - base, rp, e.rows);
        const std::uint32_t r1 =
            one_row ? e.rows - 1 : (end - 1 < base ? 0 : index_of(end - 1 - base, rp, e.rows));
        for (std::uint32_t r = r0; r <= r1; ++r) {
            const std::uint64_t row = base + std::uint64_t{r} * rp;
            const std::uint64_t a = std::max(begin, row);
            const std::uint64_t b = std::min(end, row + e.row_bytes);
            if (a >= b) continue;
            std::memcpy(to + std::uint64_t{s} * m.replay.DepthPitch +
                            std::uint64_t{r} * m.replay.RowPitch + (a - row),
                        from + (whole ? a : a - begin), b - a);
        }
    }
}

}  // namespace

std::string MappedMemory::begin(std::uint64_t resource, UINT subresource, const Mapping& mapping) {
    const std::uint64_t span = span_of(mapping);
    if (span > kMaxSpan) {
        return "the recorded pitches (row " + std::to_string(mapping.recorded_row_pitch) +
               ", depth " + std::to_string(mapping.recorded_depth_pitch) + ") span " +
               std::to_string(span) + " bytes, more than replay allows";
    }
    open_[{resource, subresource}] = mapping;
    return {};
}

const Mapping* MappedMemory::find(std::uint64_t resource, UINT subresource) const {
    auto it = open_.find({resource, subresource});
    return it == open_.end() ? nullptr : &it->second;
}

std::string MappedMemory::end(std::uint64_t resource, UINT subresource, const MapWrites* writes) {
    const Key key{resource, subresource};
    auto it = open_.find(key);
    if (it == open_.end()) {
        if (writes != nullptr && writes->size() != 0)
            return "the record holds written bytes but no Map of the subresource precedes it";
        return {};
    }
    const Mapping m = it->second;
    open_.erase(it);
    const std::uint64_t span = span_of(m);
    if (writes != nullptr) {
        for (flatbuffers::uoffset_t i = 0; i < writes->size(); ++i) {
            const fb::MappedWrite* w = writes->Get(i);
            const std::uint64_t size = w->data() != nullptr ? w->data()->size() : 0;
            if (w->offset() > span || size > span - w->offset()) {
                return "map write " + std::to_string(i) + " (" + std::to_string(size) +
                       " bytes at offset " + std::to_string(w->offset()) +
                       ") leaves the mapped subresource of " + std::to_string(span) + " bytes";
            }
        }
    }
    std::vector<std::uint8_t>& content = content_[key];
    content.resize(span);
    if (writes != nullptr) {
        for (const fb::MappedWrite* w : *writes) {
            if (w->data() == nullptr || w->data()->size() == 0) continue;
            std::memcpy(content.data() + w->offset(), w->data()->data(), w->data()->size());
        }
    }
    if (m.replay.pData == nullptr || span == 0) return {};
    if (m.type == D3D11_MAP_WRITE_DISCARD) {
        // The mapping's previous content is undefined: write all of it.
        copy_rows(m, 0, span, content.data(), true);
    } else if (writes != nullptr) {
        for (const fb::MappedWrite* w : *writes) {
            if (w->data() == nullptr || w->data()->size() == 0) continue;
            copy_rows(m, w->offset(), w->offset() + w->data()->size(), w->data()->data(), false);
        }
    }
    return {};
}

void MappedMemory::forget(std::uint64_t resource) {
    for (auto it = content_.begin(); it != content_.end();) {
        it = it->first.first == resource ? content_.erase(it) : std::next(it);
    }
    for (auto it = open_.begin(); it != open_.end();) {
        it = it->first.first == resource ? open_.erase(it) : std::next(it);
    }
}

}  // namespace d3dcap::replay
