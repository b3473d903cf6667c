// The project's own LZ4 block compressor (the Windows layer's), checked
// against the LZ4 library's decoder: every block decodes to its input, stays
// within the bound, and compresses what repeats.
#include "format/trace/lz4_block.h"

#include <lz4.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace trace = d3dcap::trace;

namespace {

trace::BlockBytes compressed(const std::vector<std::uint8_t>& source) {
    trace::BlockBytes block;
    trace::lz4_compress_block(source.data(), source.size(), block);
    return block;
}

// The LZ4 library's decoding of a block (empty with a failure noted).
std::vector<std::uint8_t> decoded(const trace::BlockBytes& block, std::size_t size) {
    std::vector<std::uint8_t> out(size + 1);
    const int got =
        LZ4_decompress_safe(block.data(), reinterpret_cast<char*>(out.data()),
                            static_cast<int>(block.size()), static_cast<int>(out.size()));
    REQUIRE(got == static_cast<int>(size));
    out.resize(size);
    return out;
}

void check_round_trip(const std::vector<std::uint8_t>& source) {
    const trace::BlockBytes block = compressed(source);
    CHECK(block.size() <= trace::lz4_block_bound(source.size()));
    CHECK(decoded(block, source.size()) == source);
}

std::vector<std::uint8_t> random_bytes(std::size_t size, std::uint32_t seed) {
    std::mt19937 random(seed);
    std::vector<std::uint8_t> bytes(size);
    for (std::uint8_t& byte : bytes) byte = static_cast<std::uint8_t>(random());
    return bytes;
}

}  // namespace

TEST_CASE("LZ4 blocks of the project's compressor decode with the LZ4 library") {
    SECTION("sizes around the end rules (no match in the last 12 bytes, 5 literals last)") {
        for (std::size_t size : {0, 1, 4, 11, 12, 13, 14, 17, 18, 19, 20, 64}) {
            INFO("size " << size);
            check_round_trip(std::vector<std::uint8_t>(size, 0xAB));
            check_round_trip(random_bytes(size, static_cast<std::uint32_t>(size)));
        }
    }
    SECTION("incompressible data") {
        check_round_trip(random_bytes(1 << 20, 7));
    }
    SECTION("runs, overlapping matches and lengths past 15 and 270") {
        std::vector<std::uint8_t> source;
        for (std::size_t run : {3, 15, 19, 270, 271, 600, 5000}) {
            const std::vector<std::uint8_t> literals = random_bytes(run, 100 + run);
            source.insert(source.end(), literals.begin(), literals.end());
            source.insert(source.end(), run, static_cast<std::uint8_t>(run));  // offset-1 copies
            source.insert(source.end(), literals.begin(),
                          literals.end());  // a match run bytes back
        }
        check_round_trip(source);
    }
    SECTION("matches up to the farthest offset, and past it") {
        const std::vector<std::uint8_t> pattern = random_bytes(64, 3);
        for (std::size_t gap : {65535 - 64, 65536 - 64, 70000}) {
            INFO("gap " << gap);
            std::vector<std::uint8_t> source = pattern;
            const std::vector<std::uint8_t> filler = random_bytes(gap, 9);
            source.insert(source.end(), filler.begin(), filler.end());
            source.insert(source.end(), pattern.begin(), pattern.end());
            source.resize(source.size() + 32, 0);
            check_round_trip(source);
        }
    }
    SECTION("records of a trace: the same layout again and again") {
        std::vector<std::uint8_t> source;
        for (std::uint32_t event = 0; event < 20000; ++event) {
            const std::uint32_t record[6] = {24, event, 0x1234, event * 3, 0, 7};
            const auto* bytes = reinterpret_cast<const std::uint8_t*>(record);
            source.insert(source.end(), bytes, bytes + sizeof record);
        }
        const trace::BlockBytes block = compressed(source);
        CHECK(decoded(block, source.size()) == source);
        CHECK(block.size() < source.size() / 2);
    }
}

// Worked by hand from the LZ4 block format: 1000 zero bytes are a sequence
// of 1 literal and a match 1 byte back of 994 bytes (token 0x1F, the
// literal, offset 01 00, match length 994 - 4 - 15 = 975 as 255 255 255
// 210), then the 5 last literals (token 0x50 and five zeros): 14 bytes.
TEST_CASE("1000 zero bytes are 14 bytes of LZ4 block") {
    const trace::BlockBytes block = compressed(std::vector<std::uint8_t>(1000, 0));
    const std::vector<std::uint8_t> expected = {0x1F, 0,    1, 0, 255, 255, 255,
                                                210,  0x50, 0, 0, 0,   0,   0};
    REQUIRE(block.size() == expected.size());
    CHECK(std::memcmp(block.data(), expected.data(), expected.size()) == 0);
}
