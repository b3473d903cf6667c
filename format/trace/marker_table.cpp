#include "marker_table.h"

#include <cstring>

#include "chunk_codec.h"

namespace d3dcap::trace {
namespace {

constexpr std::size_t kLongestRow = 10 + 1 + 5 + 10 + 5;

void put_varint(std::vector<std::uint8_t>& out, std::uint64_t value) {
    for (; value >= 0x80; value >>= 7) out.push_back(static_cast<std::uint8_t>(value | 0x80));
    out.push_back(static_cast<std::uint8_t>(value));
}

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t value) {
    const std::size_t at = out.size();
    out.resize(at + sizeof value);
    std::memcpy(out.data() + at, &value, sizeof value);
}

}  // namespace

void MarkerTableWriter::add(const Marker& marker, std::string_view label) {
    auto found = label_numbers_.find(label);
    if (found == label_numbers_.end()) {
        found =
            label_numbers_.emplace(std::string(label), static_cast<std::uint32_t>(labels_.size()))
                .first;
        labels_.push_back(&found->first);  // keys of a node-based map stay put
    }
    put_varint(rows_, marker.event - last_event_);
    rows_.push_back(static_cast<std::uint8_t>(static_cast<std::uint8_t>(marker.kind) |
                                              (marker.has_data ? 4 : 0)));
    put_varint(rows_, found->second);
    if (marker.has_data) {
        const std::int64_t change = std::int64_t{marker.data} - last_data_;
        put_varint(rows_, (static_cast<std::uint64_t>(change) << 1) ^
                              static_cast<std::uint64_t>(change >> 63));
        last_data_ = marker.data;
    }
    put_varint(rows_, marker.depth);
    last_event_ = marker.event;
    ++count_;
    if (rows_.size() + kLongestRow > kMarkerBlockBytes) {
        seal(blocks_, rows_);
        rows_.clear();
    }
}

void MarkerTableWriter::seal(std::vector<std::uint8_t>& blocks,
                             const std::vector<std::uint8_t>& rows) const {
    if (rows.empty()) return;
    BlockBytes stored;
    if (!encode_chunk(rows.data(), rows.size(), true, stored))
        store_as_lz4_literals(rows.data(), rows.size(), stored);
    put_u32(blocks, static_cast<std::uint32_t>(rows.size()));
    put_u32(blocks, static_cast<std::uint32_t>(stored.size()));
    blocks.insert(blocks.end(), stored.begin(), stored.end());
}

flatbuffers::Offset<fb::MarkerTable> MarkerTableWriter::finish(
    flatbuffers::FlatBufferBuilder& builder) const {
    std::vector<flatbuffers::Offset<flatbuffers::String>> labels;
    labels.reserve(labels_.size());
    for (const std::string* label : labels_) labels.push_back(builder.CreateString(*label));
    std::vector<std::uint8_t> blocks = blocks_;
    seal(blocks, rows_);
    return fb::CreateMarkerTableDirect(builder, count_, &labels, &blocks);
}

}  // namespace d3dcap::trace
