// The binary framing of a trace file around its FlatBuffers tables.
//
//   prologue  "D3DCAPTR", u16 major, u16 minor, u32 header size
//             then the TraceHeader FlatBuffer, padded to 8 bytes
//   chunk*    ChunkHeader, then compressed_size bytes of LZ4 block data that
//             decompress to size-prefixed Record FlatBuffers, each padded to 8
//             (from format 2 small ones may be deltas: record_delta.h)
//   index     IndexHeader, then the TraceIndex FlatBuffer
//   trailer   u64 index offset, "D3DCAPIX"
//
// All integers are little-endian. A file cut anywhere still holds every chunk
// before the cut; the reader finds them by scanning when the trailer is gone.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace d3dcap::trace {

static_assert(std::endian::native == std::endian::little, "trace I/O assumes a little-endian host");

inline constexpr std::string_view kFileMagic = "D3DCAPTR";
inline constexpr std::string_view kTrailerMagic = "D3DCAPIX";
inline constexpr std::uint32_t kChunkMagic = 0x4b4e4843;  // "CHNK"
inline constexpr std::uint32_t kIndexMagic = 0x58444e49;  // "INDX"

// Major changes break old readers; minor ones only add (append-only ids).
// 2: records may be deltas of earlier ones (record_delta.h).
inline constexpr std::uint16_t kFormatMajor = 2;
inline constexpr std::uint16_t kFormatMinor = 0;

inline constexpr std::size_t kRecordAlignment = 8;

struct Prologue {
    char magic[8];
    std::uint16_t major;
    std::uint16_t minor;
    std::uint32_t header_size;
};
static_assert(sizeof(Prologue) == 16);

struct ChunkHeader {
    std::uint32_t magic;
    std::uint32_t compressed_size;
    std::uint32_t uncompressed_size;
    std::uint32_t record_count;
    std::uint64_t first_event;
    std::uint64_t checksum;  // XXH3-64 of the 24 bytes above, then the compressed data
};
static_assert(sizeof(ChunkHeader) == 32);

struct IndexHeader {
    std::uint32_t magic;
    std::uint32_t size;
    std::uint64_t checksum;  // XXH3-64 of the index FlatBuffer
};
static_assert(sizeof(IndexHeader) == 16);

struct Trailer {
    std::uint64_t index_offset;
    char magic[8];
};
static_assert(sizeof(Trailer) == 16);

inline constexpr std::size_t padded(std::size_t size) {
    return (size + kRecordAlignment - 1) & ~(kRecordAlignment - 1);
}

// The checksum of a chunk: its header fields (not the checksum) and its data.
std::uint64_t chunk_checksum(const ChunkHeader& header, const void* data, std::size_t size);

}  // namespace d3dcap::trace
