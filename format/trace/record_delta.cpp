#include "record_delta.h"

#include <d3dcap/fb/record_generated.h>

#include <cstring>

#include "container.h"

namespace d3dcap::trace {
namespace {

constexpr std::uint32_t kNoRecord = 0xffffffffu;  // in a table of latest records by size

// Sixteen bytes at a time (one SSE2 paddb/psubb on x86-64), then the last
// eight of an extent that is a multiple of eight.
using Bytes16 = std::uint8_t __attribute__((vector_size(16)));
using Bytes8 = std::uint8_t __attribute__((vector_size(8)));

template <typename Vector, bool kAdd>
void apply_one(std::uint8_t* record, const std::uint8_t* reference) {
    Vector a;
    Vector b;
    std::memcpy(&a, record, sizeof a);
    std::memcpy(&b, reference, sizeof b);
    a = kAdd ? a + b : a - b;
    std::memcpy(record, &a, sizeof a);
}

template <bool kAdd>
void apply(std::uint8_t* record, const std::uint8_t* reference, std::size_t bytes) {
    std::size_t at = 0;
    for (; at + 16 <= bytes; at += 16) apply_one<Bytes16, kAdd>(record + at, reference + at);
    if (at < bytes) apply_one<Bytes8, kAdd>(record + at, reference + at);
}

std::uint32_t size_prefix(const std::uint8_t* record) {
    std::uint32_t size = 0;
    std::memcpy(&size, record, sizeof size);
    return size;
}

}  // namespace

void DeltaEncoder::encode(std::uint8_t* chunk, std::size_t size) {
    // Pairs are found front to back and applied back to front, so that each
    // reference is still whole when a later record is made its delta.
    struct Latest {
        std::uint32_t offset = kNoRecord;
        std::uint16_t call = 0;
    };
    std::array<Latest, kMaxDeltaRecordBytes + 1> latest{};  // by record size
    pairs_.clear();
    for (std::size_t pos = 0; pos + sizeof(std::uint32_t) <= size;) {
        const std::uint32_t bytes = size_prefix(chunk + pos);
        if (bytes <= kMaxDeltaRecordBytes) {
            const std::uint16_t call =
                flatbuffers::GetSizePrefixedRoot<fb::Record>(chunk + pos)->header()->call();
            if (latest[bytes].offset != kNoRecord && latest[bytes].call == call)
                pairs_.push_back({pos, latest[bytes].offset});
            latest[bytes] = {static_cast<std::uint32_t>(pos), call};
        }
        pos += padded(sizeof bytes + bytes);
    }
    for (auto pair = pairs_.rbegin(); pair != pairs_.rend(); ++pair) {
        const std::uint32_t bytes = size_prefix(chunk + pair->record);
        apply<false>(chunk + pair->record, chunk + pair->reference, padded(sizeof bytes + bytes));
        const std::uint32_t flagged = bytes | kDeltaRecordFlag;  // the prefix's delta is 0
        std::memcpy(chunk + pair->record, &flagged, sizeof flagged);
    }
}

DeltaDecoder::DeltaDecoder() {
    latest_.fill(kNoRecord);
}

bool DeltaDecoder::restore(std::uint8_t* chunk, std::size_t pos, std::uint32_t size, bool flagged) {
    if (size > kMaxDeltaRecordBytes) return !flagged;
    if (flagged) {
        const std::uint32_t reference = latest_[size];
        if (reference == kNoRecord) return false;
        std::memset(chunk + pos, 0, sizeof size);  // the prefix's delta
        apply<true>(chunk + pos, chunk + reference, padded(sizeof size + size));
    }
    latest_[size] = static_cast<std::uint32_t>(pos);
    return true;
}

}  // namespace d3dcap::trace
