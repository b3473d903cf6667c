#include "lz4_block.h"

#include <cstring>

namespace d3dcap::trace {
namespace {

constexpr std::size_t kMinMatch = 4;
constexpr std::size_t kLastLiterals = 5;   // a block ends with this many literals or more
constexpr std::size_t kNoMatchTail = 12;   // no match starts in a block's last 12 bytes
constexpr std::size_t kMaxOffset = 65535;  // how far back a match may start
constexpr unsigned kHashBits = 12;         // 4096 candidates
constexpr unsigned kSkipShift = 6;         // after 64 misses, step 2 bytes, and so on

std::uint32_t read32(const std::uint8_t* at) {
    std::uint32_t value;
    std::memcpy(&value, at, sizeof value);
    return value;
}

std::uint64_t read64(const std::uint8_t* at) {
    std::uint64_t value;
    std::memcpy(&value, at, sizeof value);
    return value;
}

// A hash of the 5 bytes at a position: 4-byte matches that share a fifth
// byte are the ones worth finding in data that repeats 4 bytes by chance.
std::uint32_t hash_at(const std::uint8_t* at) {
    return static_cast<std::uint32_t>(((read64(at) << 24) * 889523592379ull) >> (64 - kHashBits));
}

// The bytes a and b have in common, up to `limit` past a.
std::size_t common_length(const std::uint8_t* a, const std::uint8_t* b, const std::uint8_t* limit) {
    const std::uint8_t* start = a;
    while (a + 8 <= limit) {
        const std::uint64_t differ = read64(a) ^ read64(b);
        if (differ != 0) return static_cast<std::size_t>(a - start) + __builtin_ctzll(differ) / 8;
        a += 8;
        b += 8;
    }
    while (a < limit && *a == *b) ++a, ++b;
    return static_cast<std::size_t>(a - start);
}

// A length past the token's nibble of 15: bytes of 255, ended by one below.
char* put_length(char* out, std::size_t rest) {
    for (; rest >= 255; rest -= 255) *out++ = static_cast<char>(255);
    *out++ = static_cast<char>(rest);
    return out;
}

// One sequence: its literals, then (match_length >= kMinMatch) a match
// `offset` bytes back; the last sequence has literals only.
char* put_sequence(char* out, const std::uint8_t* literals, std::size_t literal_count,
                   std::size_t offset, std::size_t match_length) {
    char* token = out++;
    const std::size_t match_code = match_length >= kMinMatch ? match_length - kMinMatch : 0;
    *token = static_cast<char>((literal_count < 15 ? literal_count : 15) << 4 |
                               (match_length >= kMinMatch && match_code < 15 ? match_code : 0));
    if (literal_count >= 15) out = put_length(out, literal_count - 15);
    if (literal_count > 0) std::memcpy(out, literals, literal_count);  // an empty block: null
    out += literal_count;
    if (match_length < kMinMatch) return out;
    *out++ = static_cast<char>(offset & 0xFF);
    *out++ = static_cast<char>(offset >> 8);
    if (match_code >= 15) {
        *token = static_cast<char>(*token | 15);
        out = put_length(out, match_code - 15);
    }
    return out;
}

}  // namespace

void lz4_compress_block(const std::uint8_t* source, std::size_t size, BlockBytes& out) {
    out.resize(lz4_block_bound(size));
    char* op = out.data();
    std::size_t anchor = 0;  // the first byte not yet written
    if (size > kNoMatchTail) {
        std::vector<std::uint32_t> table(std::size_t{1} << kHashBits, 0);
        const std::size_t match_starts_below = size - kNoMatchTail;
        const std::uint8_t* const match_ends_by = source + size - kLastLiterals;
        std::size_t at = 1;  // position 0 has nothing before it to match
        table[hash_at(source)] = 0;
        std::size_t misses = 0;
        while (at < match_starts_below) {
            const std::uint32_t prefix = read32(source + at);
            const std::uint32_t slot = hash_at(source + at);
            const std::size_t candidate = table[slot];
            table[slot] = static_cast<std::uint32_t>(at);
            if (candidate >= at || at - candidate > kMaxOffset ||
                read32(source + candidate) != prefix) {
                at += 1 + (misses++ >> kSkipShift);
                continue;
            }
            misses = 0;
            // The match, grown back over literals not yet written and forward.
            std::size_t start = at, from = candidate;
            while (start > anchor && from > 0 && source[start - 1] == source[from - 1])
                --start, --from;
            const std::size_t end = at + kMinMatch +
                                    common_length(source + at + kMinMatch,
                                                  source + candidate + kMinMatch, match_ends_by);
            op = put_sequence(op, source + anchor, start - anchor, at - candidate, end - start);
            anchor = end;
            // A position near the match's end, for the matches that follow.
            if (end - 2 < match_starts_below)
                table[hash_at(source + end - 2)] = static_cast<std::uint32_t>(end - 2);
            at = end;
        }
    }
    op = put_sequence(op, source + anchor, size - anchor, 0, 0);
    out.resize(static_cast<std::size_t>(op - out.data()));
}

}  // namespace d3dcap::trace
