// The changed byte ranges of a mapped subresource: hand-written cases at the
// block, word and tail boundaries, then random buffers against a byte-by-byte
// reference.
#include "capture/layer/map_diff.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <iterator>
#include <ostream>
#include <random>
#include <vector>

namespace d3dcap::capture {
std::ostream& operator<<(std::ostream& stream, const ByteRange& range) {
    return stream << "{" << range.offset << ", " << range.size << "}";
}
}  // namespace d3dcap::capture

namespace {

using d3dcap::capture::ByteRange;
using d3dcap::capture::changed_ranges;
using Ranges = std::vector<ByteRange>;

Ranges diff(const std::vector<std::uint8_t>& before, const std::vector<std::uint8_t>& after,
            std::size_t merge_gap = 64) {
    Ranges out{{1, 2}, {3, 4}};  // stale content that must be cleared
    changed_ranges(before.data(), after.data(), before.size(), out, merge_gap);
    return out;
}

// The obvious byte loop: maximal runs of differing bytes, then runs with
// fewer than merge_gap equal bytes between them joined.
Ranges reference(const std::uint8_t* before, const std::uint8_t* after, std::size_t size,
                 std::size_t merge_gap) {
    Ranges runs;
    for (std::size_t i = 0; i < size; ++i) {
        if (before[i] == after[i]) continue;
        if (!runs.empty() && runs.back().offset + runs.back().size == i) {
            ++runs.back().size;
        } else {
            runs.push_back({i, 1});
        }
    }
    Ranges merged;
    for (const ByteRange& run : runs) {
        if (!merged.empty()) {
            ByteRange& last = merged.back();
            const std::size_t equal = run.offset - (last.offset + last.size);
            if (equal < merge_gap) {
                last.size = run.offset + run.size - last.offset;
                continue;
            }
        }
        merged.push_back(run);
    }
    return merged;
}

}  // namespace

TEST_CASE("no change gives no ranges", "[map_diff]") {
    const std::vector<std::uint8_t> data(4096, 0x5a);
    CHECK(diff(data, data).empty());
    CHECK(diff(data, data, 0).empty());
    Ranges out{{7, 7}};
    changed_ranges(nullptr, nullptr, 0, out);
    CHECK(out.empty());
}

TEST_CASE("one changed byte at the first and the last offset", "[map_diff]") {
    const std::vector<std::uint8_t> before(1000, 0);
    std::vector<std::uint8_t> after = before;
    after[0] = 1;
    CHECK(diff(before, after) == Ranges{{0, 1}});
    after[0] = 0;
    after[999] = 0xff;
    CHECK(diff(before, after) == Ranges{{999, 1}});
    after[0] = 0x80;
    CHECK(diff(before, after) == Ranges{{0, 1}, {999, 1}});

    // A whole changed buffer is one range.
    const std::vector<std::uint8_t> ones(1000, 1);
    CHECK(diff(before, ones) == Ranges{{0, 1000}});
    CHECK(diff(before, ones, 0) == Ranges{{0, 1000}});
}

TEST_CASE("changes 10 bytes apart merge, 1000 bytes apart do not", "[map_diff]") {
    const std::vector<std::uint8_t> before(4096, 3);
    std::vector<std::uint8_t> after = before;
    after[100] = 4;
    after[110] = 4;
    CHECK(diff(before, after) == Ranges{{100, 11}});
    after[1110] = 4;
    CHECK(diff(before, after) == Ranges{{100, 11}, {1110, 1}});
    // Without merging every byte is its own range.
    CHECK(diff(before, after, 0) == Ranges{{100, 1}, {110, 1}, {1110, 1}});
    CHECK(diff(before, after, 9) == Ranges{{100, 1}, {110, 1}, {1110, 1}});
    CHECK(diff(before, after, 10) == Ranges{{100, 11}, {1110, 1}});
}

TEST_CASE("the merge gap boundary counts the equal bytes between runs", "[map_diff]") {
    const std::vector<std::uint8_t> before(512, 0);
    std::vector<std::uint8_t> after = before;
    after[100] = 1;
    after[165] = 1;  // 64 equal bytes between (101..164): not merged
    CHECK(diff(before, after) == Ranges{{100, 1}, {165, 1}});
    after[165] = 0;
    after[164] = 1;  // 63 equal bytes between: merged
    CHECK(diff(before, after) == Ranges{{100, 65}});
    // Adjacent differing bytes are one run whatever the gap.
    after[101] = 1;
    after[102] = 1;
    CHECK(diff(before, after, 0) == Ranges{{100, 3}, {164, 1}});
    CHECK(diff(before, after, 1) == Ranges{{100, 3}, {164, 1}});
}

TEST_CASE("changes inside one word with small merge gaps", "[map_diff]") {
    const std::vector<std::uint8_t> before(64, 0);
    std::vector<std::uint8_t> after = before;
    after[8] = 1;
    after[10] = 1;
    after[15] = 1;
    CHECK(diff(before, after, 0) == Ranges{{8, 1}, {10, 1}, {15, 1}});
    CHECK(diff(before, after, 2) == Ranges{{8, 3}, {15, 1}});
    CHECK(diff(before, after, 5) == Ranges{{8, 8}});
    CHECK(diff(before, after, 64) == Ranges{{8, 8}});
}

TEST_CASE("a size that is not a multiple of the block", "[map_diff]") {
    // 203 bytes: three 64-byte blocks, one 8-byte word, three single bytes.
    const std::vector<std::uint8_t> before(203, 9);
    std::vector<std::uint8_t> after = before;
    after[190] = 1;  // last block
    after[197] = 1;  // the word
    after[202] = 1;  // the byte tail, last byte
    CHECK(diff(before, after, 0) == Ranges{{190, 1}, {197, 1}, {202, 1}});
    CHECK(diff(before, after) == Ranges{{190, 13}});
    after[190] = 9;
    after[197] = 9;
    CHECK(diff(before, after) == Ranges{{202, 1}});

    // Smaller than one word.
    const std::vector<std::uint8_t> small_before{1, 2, 3, 4, 5};
    const std::vector<std::uint8_t> small_after{1, 0, 3, 0, 5};
    CHECK(diff(small_before, small_after) == Ranges{{1, 3}});
    CHECK(diff(small_before, small_after, 1) == Ranges{{1, 1}, {3, 1}});
}

TEST_CASE("random buffers match a byte-by-byte reference", "[map_diff]") {
    std::mt19937_64 random(20240611);
    const std::size_t gaps[] = {0, 1, 2, 6, 7, 8, 9, 63, 64, 65, 1000};
    std::vector<std::uint8_t> before_storage, after_storage;
    Ranges out;
    for (int round = 0; round < 2000; ++round) {
        const std::size_t size = random() % 5000;
        // Misaligned starts, so that no load is at an 8-byte boundary.
        const std::size_t shift = random() % 8;
        before_storage.assign(size + 8, 0);
        for (auto& byte : before_storage) byte = static_cast<std::uint8_t>(random());
        after_storage = before_storage;
        const std::uint8_t* before = before_storage.data() + shift;
        std::uint8_t* after = after_storage.data() + shift;
        if (size > 0) {
            // Scattered bytes, and some runs of up to 40 bytes.
            const std::size_t changes = random() % 12;
            for (std::size_t c = 0; c < changes; ++c) {
                const std::size_t at = random() % size;
                const std::size_t length = (random() % 3 == 0) ? 1 + random() % 40 : 1;
                for (std::size_t i = at; i < size && i < at + length; ++i) {
                    after[i] = static_cast<std::uint8_t>(after[i] ^ (1 + random() % 255));
                }
            }
        }
        const std::size_t gap = gaps[random() % std::size(gaps)];
        changed_ranges(before, after, size, out, gap);
        INFO("round " << round << ", size " << size << ", shift " << shift << ", gap " << gap);
        REQUIRE(out == reference(before, after, size, gap));
    }
}
