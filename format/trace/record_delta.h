// Record deltas: how a chunk's small records are stored for LZ4 (format 2).
//
// A program calling one method in a loop makes records that differ in a few
// bytes (the event number, an argument). LZ4 alone still spends about 10
// bytes on each such record; stored as the byte-wise difference from the
// last record of the same size, a run of them becomes one repeating pattern
// that LZ4 stores in a fraction of a byte per record.
//
// A record of at most kMaxDeltaRecordBytes (its size prefix not counted)
// whose size prefix has kDeltaRecordFlag set holds, in each byte of its
// padded extent after the prefix, (byte - reference byte) mod 256, where the
// reference is the latest earlier record of the chunk with the same size.
// The writer only makes a delta of two records of the same call.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace d3dcap::trace {

inline constexpr std::uint32_t kDeltaRecordFlag = 0x80000000u;
inline constexpr std::uint32_t kMaxDeltaRecordBytes = 512;

// Turns the records of a chunk (size-prefixed, padded, none flagged) into
// deltas in place where a reference of the same call exists.
class DeltaEncoder {
  public:
    void encode(std::uint8_t* chunk, std::size_t size);

  private:
    struct Pair {
        std::size_t record;
        std::size_t reference;
    };
    std::vector<Pair> pairs_;  // kept from one chunk to the next
};

// Restores a chunk's records in place, one record at a time in order.
class DeltaDecoder {
  public:
    DeltaDecoder();

    // The record at offset pos, whose padded extent of size bytes (its
    // prefix's value, flag cleared) lies within the chunk. Restores it when
    // flagged is set; false when it is a delta with no earlier record of its size.
    bool restore(std::uint8_t* chunk, std::size_t pos, std::uint32_t size, bool flagged);

  private:
    std::array<std::uint32_t, kMaxDeltaRecordBytes + 1> latest_;  // offset by record size
};

}  // namespace d3dcap::trace
