// The markers of a trace (BeginEvent/EndEvent/SetMarker and their Int forms)
// as the footer index keeps them from format 2: a few bytes a marker on disk
// and while capturing, where a table per marker took 28 and more.
//
//   row    varint event - previous marker's event
//          byte   kind | has_data << 2
//          varint label number (MarkerTable.labels)
//          varint zigzag(data - previous data), when has_data
//          varint depth
//   block  u32 row bytes, u32 stored bytes, then the rows as an LZ4 block;
//          rows never straddle blocks, and a block holds at most kMarkerBlockBytes
//
// MarkerTable.blocks is the blocks one after another.
#pragma once

#include <d3dcap/fb/trace_generated.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "error.h"

namespace d3dcap::trace {

inline constexpr std::size_t kMarkerBlockBytes = 64 * 1024;

struct Marker {
    std::uint64_t event = 0;
    std::int32_t data = 0;    // the INT of BeginEventInt/SetMarkerInt
    std::uint32_t label = 0;  // in MarkerList::labels
    std::uint32_t depth = 0;  // nesting depth at the marker
    fb::MarkerKind kind = fb::MarkerKind::Marker;
    bool has_data = false;  // false for string markers without an INT
};

struct MarkerList {
    std::vector<Marker> entries;  // in event order
    std::vector<std::string> labels;

    const std::string& label(const Marker& marker) const { return labels[marker.label]; }
};

class MarkerTableWriter {
  public:
    // marker.label is not read: labels are numbered here, by first use.
    void add(const Marker& marker, std::string_view label);
    std::uint64_t count() const { return count_; }
    flatbuffers::Offset<fb::MarkerTable> finish(flatbuffers::FlatBufferBuilder& builder) const;

  private:
    struct LabelHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view text) const {
            return std::hash<std::string_view>{}(text);
        }
    };
    // Appends the open rows to blocks as a block.
    void seal(std::vector<std::uint8_t>& blocks, const std::vector<std::uint8_t>& rows) const;

    std::uint64_t count_ = 0;
    std::uint64_t last_event_ = 0;
    std::int32_t last_data_ = 0;
    std::vector<std::uint8_t> rows_;    // the open block's
    std::vector<std::uint8_t> blocks_;  // sealed
    std::unordered_map<std::string, std::uint32_t, LabelHash, std::equal_to<>> label_numbers_;
    std::vector<const std::string*> labels_;  // label_numbers_' keys, by number
};

// Decodes a table read from a file, handing each marker to visit in order;
// the error (empty when none) names the block and row that do not hold what
// the format and the count say.
std::string visit_marker_table(const fb::MarkerTable& table,
                               const std::function<void(const Marker&)>& visit);
// The same, kept in a list.
Expected<MarkerList, std::string> read_marker_table(const fb::MarkerTable& table);

}  // namespace d3dcap::trace
