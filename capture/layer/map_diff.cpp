// The diff skips equal 1 KiB chunks with memcmp, scans a differing chunk in
// 64-byte blocks of eight 64-bit XORs folded into one test, and looks at a
// differing word byte by byte only when the merge gap is below a word.
#include "capture/layer/map_diff.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace d3dcap::capture {
namespace {

constexpr std::size_t kChunk = 1024;
constexpr std::size_t kBlock = 64;
constexpr std::size_t kWord = sizeof(std::uint64_t);

std::uint64_t load(const std::uint8_t* p) {
    std::uint64_t value;
    std::memcpy(&value, p, kWord);
    return value;
}

// Byte i of a word in memory order.
constexpr unsigned shift_of(unsigned i) {
    return std::endian::native == std::endian::little ? 8 * i : 8 * (kWord - 1 - i);
}

// Collects differing spans in ascending order and merges them.
class Ranges {
  public:
    Ranges(std::vector<ByteRange>& out, std::size_t merge_gap)
        : out_(out), gap_(std::max<std::size_t>(merge_gap, 1)) {}

    // Bytes [first, end) contain differing bytes at first and end - 1.
    void add(std::size_t first, std::size_t end) {
        if (open_ && first - end_ < gap_) {
            end_ = end;
            return;
        }
        flush();
        open_ = true;
        start_ = first;
        end_ = end;
    }

    // A word at offset whose XOR is diff (not 0).
    void add_word(std::size_t offset, std::uint64_t diff) {
        // The equal bytes inside a word are at most kWord - 2 in a row; when
        // that is below the gap the whole word span is one range.
        if (gap_ > kWord - 2) {
            unsigned first = 0, last = kWord - 1;
            if constexpr (std::endian::native == std::endian::little) {
                first = static_cast<unsigned>(std::countr_zero(diff)) / 8;
                last = kWord - 1 - static_cast<unsigned>(std::countl_zero(diff)) / 8;
            } else {
                first = static_cast<unsigned>(std::countl_zero(diff)) / 8;
                last = kWord - 1 - static_cast<unsigned>(std::countr_zero(diff)) / 8;
            }
            add(offset + first, offset + last + 1);
            return;
        }
        for (unsigned i = 0; i < kWord; ++i) {
            if ((diff >> shift_of(i)) & 0xff) add(offset + i, offset + i + 1);
        }
    }

    void flush() {
        if (open_) out_.push_back(ByteRange{start_, end_ - start_});
        open_ = false;
    }

  private:
    std::vector<ByteRange>& out_;
    std::size_t gap_;
    bool open_ = false;
    std::size_t start_ = 0, end_ = 0;
};

// One 64-byte block: eight XORs folded into one test, then the differing words.
void scan_block(Ranges& ranges, const std::uint8_t* before, const std::uint8_t* after,
                std::size_t offset) {
    std::uint64_t diff[kBlock / kWord];
    std::uint64_t any = 0;
    for (std::size_t w = 0; w < kBlock / kWord; ++w) {
        diff[w] = load(before + offset + w * kWord) ^ load(after + offset + w * kWord);
        any |= diff[w];
    }
    if (any == 0) return;
    for (std::size_t w = 0; w < kBlock / kWord; ++w) {
        if (diff[w]) ranges.add_word(offset + w * kWord, diff[w]);
    }
}

}  // namespace

void changed_ranges(const std::uint8_t* before, const std::uint8_t* after, std::size_t size,
                    std::vector<ByteRange>& out, std::size_t merge_gap) {
    out.clear();
    Ranges ranges(out, merge_gap);
    std::size_t i = 0;
    while (i + kBlock <= size) {
        // Long equal stretches go through memcmp, which the C library tunes
        // for the machine (AVX2 and wider); a differing chunk is rescanned.
        if (i + kChunk <= size && std::memcmp(before + i, after + i, kChunk) == 0) {
            i += kChunk;
            continue;
        }
        const std::size_t end = std::min(size - size % kBlock, i + kChunk);
        for (; i < end; i += kBlock) {
            scan_block(ranges, before, after, i);
        }
    }
    for (; i + kWord <= size; i += kWord) {
        if (const std::uint64_t diff = load(before + i) ^ load(after + i)) ranges.add_word(i, diff);
    }
    for (; i < size; ++i) {
        if (before[i] != after[i]) ranges.add(i, i + 1);
    }
    ranges.flush();
}

}  // namespace d3dcap::capture
