// Decoding a marker table (marker_table.h) read from a file, where any byte
// may be wrong: every varint, kind, label number and size is checked.
#include <lz4.h>

#include <cstring>

#include "marker_table.h"

namespace d3dcap::trace {
namespace {

class RowReader {
  public:
    RowReader(const std::uint8_t* data, std::size_t size) : at_(data), end_(data + size) {}
    bool done() const { return at_ == end_; }
    bool byte(std::uint8_t& value) {
        if (at_ == end_) return false;
        value = *at_++;
        return true;
    }
    bool varint(std::uint64_t& value) {
        value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            std::uint8_t b = 0;
            if (!byte(b)) return false;
            value |= std::uint64_t{b & 0x7fu} << shift;
            if ((b & 0x80) == 0) return true;
        }
        return false;  // longer than 10 bytes
    }

  private:
    const std::uint8_t* at_;
    const std::uint8_t* end_;
};

}  // namespace

std::string visit_marker_table(const fb::MarkerTable& table,
                               const std::function<void(const Marker&)>& visit) {
    const std::size_t label_count = table.labels() ? table.labels()->size() : 0;
    const std::uint8_t* blocks = table.blocks() ? table.blocks()->data() : nullptr;
    const std::size_t size = table.blocks() ? table.blocks()->size() : 0;
    std::uint64_t count = 0;
    std::vector<std::uint8_t> rows(kMarkerBlockBytes);
    std::uint64_t event = 0;
    std::int32_t data = 0;
    std::size_t block = 0;
    for (std::size_t pos = 0; pos < size; ++block) {
        const auto where = [&] { return "marker table, block " + std::to_string(block); };
        std::uint32_t row_bytes = 0;
        std::uint32_t stored = 0;
        if (size - pos < 2 * sizeof(std::uint32_t)) return where() + ": its header is cut short";
        std::memcpy(&row_bytes, blocks + pos, sizeof row_bytes);
        std::memcpy(&stored, blocks + pos + 4, sizeof stored);
        pos += 8;
        if (row_bytes > kMarkerBlockBytes) {
            return where() + ": " + std::to_string(row_bytes) + " bytes of rows, more than " +
                   std::to_string(kMarkerBlockBytes);
        }
        if (stored > size - pos) return where() + ": its data is cut short";
        const int got = LZ4_decompress_safe(reinterpret_cast<const char*>(blocks + pos),
                                            reinterpret_cast<char*>(rows.data()),
                                            static_cast<int>(stored), static_cast<int>(row_bytes));
        if (got < 0 || static_cast<std::uint32_t>(got) != row_bytes)
            return where() + ": LZ4 data does not decompress to its row bytes";
        pos += stored;
        RowReader reader(rows.data(), row_bytes);
        while (!reader.done()) {
            const auto row = [&] { return where() + ", marker " + std::to_string(count); };
            std::uint64_t step = 0;
            std::uint8_t kind = 0;
            std::uint64_t label = 0;
            std::uint64_t depth = 0;
            if (!reader.varint(step) || !reader.byte(kind)) return row() + ": the row is cut short";
            if ((kind & 3) > static_cast<std::uint8_t>(fb::MarkerKind::MAX) || kind > 7)
                return row() + ": kind byte " + std::to_string(kind) + " is no marker kind";
            Marker marker;
            marker.kind = static_cast<fb::MarkerKind>(kind & 3);
            marker.has_data = (kind & 4) != 0;
            if (!reader.varint(label)) return row() + ": the row is cut short";
            if (label >= label_count) {
                return row() + ": label " + std::to_string(label) + " of " +
                       std::to_string(label_count);
            }
            if (marker.has_data) {
                std::uint64_t zigzag = 0;
                if (!reader.varint(zigzag)) return row() + ": the row is cut short";
                const auto change = static_cast<std::int64_t>((zigzag >> 1) ^ (~(zigzag & 1) + 1));
                data = static_cast<std::int32_t>(static_cast<std::uint32_t>(data) +
                                                 static_cast<std::uint32_t>(change));
            }
            if (!reader.varint(depth)) return row() + ": the row is cut short";
            if (depth > 0xffffffffu) return row() + ": depth " + std::to_string(depth);
            event += step;
            marker.event = event;
            marker.data = marker.has_data ? data : 0;
            marker.label = static_cast<std::uint32_t>(label);
            marker.depth = static_cast<std::uint32_t>(depth);
            visit(marker);
            ++count;
        }
    }
    if (count != table.count()) {
        return "marker table holds " + std::to_string(count) + " markers, its count says " +
               std::to_string(table.count());
    }
    return {};
}

Expected<MarkerList, std::string> read_marker_table(const fb::MarkerTable& table) {
    MarkerList list;
    if (table.labels() != nullptr) {
        list.labels.reserve(table.labels()->size());
        for (const flatbuffers::String* label : *table.labels())
            list.labels.push_back(label->str());
    }
    // Sized once, so that it does not grow by copying; a file's count is
    // believed only as far as the blocks could hold (LZ4 expands at most 255
    // times, and a row takes 4 bytes or more).
    const std::uint64_t stored = table.blocks() ? table.blocks()->size() : 0;
    list.entries.reserve(std::min<std::uint64_t>(table.count(), stored * 64));
    std::string error =
        visit_marker_table(table, [&](const Marker& marker) { list.entries.push_back(marker); });
    if (!error.empty()) return error;
    return list;
}

}  // namespace d3dcap::trace
