#include "runtime/shader/dxbc_checksum.h"

#include <bit>
#include <cstring>

namespace d3dcap::runtime::shader {

namespace {

// floor(abs(sin(i + 1)) * 2^32), RFC 1321 section 3.4.
constexpr std::uint32_t kSineTable[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};

// The left rotation of each step, four per round.
constexpr int kRotations[4][4] = {
    {7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

std::uint32_t load_le(const std::uint8_t* bytes) {
    return std::uint32_t{bytes[0]} | std::uint32_t{bytes[1]} << 8 | std::uint32_t{bytes[2]} << 16 |
           std::uint32_t{bytes[3]} << 24;
}

void store_le(std::uint8_t* bytes, std::uint32_t value) {
    for (int i = 0; i < 4; ++i) bytes[i] = static_cast<std::uint8_t>(value >> (8 * i));
}

}  // namespace

void md5_compress(Md5State& state, std::span<const std::uint8_t, 64> block) {
    std::uint32_t words[16];
    for (int i = 0; i < 16; ++i) words[i] = load_le(block.data() + 4 * i);
    std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    for (int step = 0; step < 64; ++step) {
        const int round = step / 16;
        std::uint32_t mixed;
        int word;
        switch (round) {
            case 0:
                mixed = (b & c) | (~b & d);
                word = step;
                break;
            case 1:
                mixed = (d & b) | (~d & c);
                word = (5 * step + 1) % 16;
                break;
            case 2:
                mixed = b ^ c ^ d;
                word = (3 * step + 5) % 16;
                break;
            default:
                mixed = c ^ (b | ~d);
                word = (7 * step) % 16;
                break;
        }
        const std::uint32_t sum = a + mixed + kSineTable[step] + words[word];
        a = d;
        d = c;
        c = b;
        b = b + std::rotl(sum, kRotations[round][step % 4]);
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
}

std::array<std::uint8_t, 16> md5(std::span<const std::uint8_t> data) {
    Md5State state = kMd5InitialState;
    std::size_t offset = 0;
    for (; data.size() - offset >= 64; offset += 64)
        md5_compress(state, std::span<const std::uint8_t, 64>(data.data() + offset, 64));
    // The tail, 0x80, zeros to 56 bytes modulo 64, then the bit count as a
    // 64-bit little-endian number.
    std::uint8_t tail[128] = {};
    const std::size_t rest = data.size() - offset;
    if (rest) std::memcpy(tail, data.data() + offset, rest);
    tail[rest] = 0x80;
    const std::size_t tail_size = rest < 56 ? 64 : 128;
    const std::uint64_t bits = std::uint64_t{data.size()} * 8;
    store_le(tail + tail_size - 8, static_cast<std::uint32_t>(bits));
    store_le(tail + tail_size - 4, static_cast<std::uint32_t>(bits >> 32));
    for (std::size_t block = 0; block < tail_size; block += 64)
        md5_compress(state, std::span<const std::uint8_t, 64>(tail + block, 64));
    std::array<std::uint8_t, 16> digest;
    for (int i = 0; i < 4; ++i) store_le(digest.data() + 4 * i, state[i]);
    return digest;
}

Md5State dxbc_checksum(std::span<const std::uint8_t> container) {
    const std::span data = container.size() > 20 ? container.subspan(20) : container.subspan(0, 0);
    Md5State state = kMd5InitialState;
    std::size_t offset = 0;
    for (; data.size() - offset >= 64; offset += 64)
        md5_compress(state, std::span<const std::uint8_t, 64>(data.data() + offset, 64));
    // DXBC's last block differs from MD5's: the 32-bit bit count comes first
    // when the tail leaves room for it, and the last word is (bits >> 2) | 1.
    const std::size_t rest = data.size() - offset;
    const std::uint32_t bits = static_cast<std::uint32_t>(data.size() * 8);
    std::uint8_t block[64] = {};
    if (rest < 56) {
        store_le(block, bits);
        if (rest) std::memcpy(block + 4, data.data() + offset, rest);
        block[4 + rest] = 0x80;
    } else {
        std::memcpy(block, data.data() + offset, rest);
        block[rest] = 0x80;
        md5_compress(state, std::span<const std::uint8_t, 64>(block, 64));
        std::memset(block, 0, sizeof block);
        store_le(block, bits);
    }
    store_le(block + 60, (bits >> 2) | 1);
    md5_compress(state, std::span<const std::uint8_t, 64>(block, 64));
    return state;
}

void write_dxbc_checksum(std::span<std::uint8_t> container) {
    if (container.size() < 20) return;
    const Md5State state = dxbc_checksum(container);
    for (int i = 0; i < 4; ++i) store_le(container.data() + 4 + 4 * i, state[i]);
}

bool dxbc_checksum_matches(std::span<const std::uint8_t> container) {
    if (container.size() < 20) return false;
    const Md5State state = dxbc_checksum(container);
    for (int i = 0; i < 4; ++i)
        if (load_le(container.data() + 4 + 4 * i) != state[i]) return false;
    return true;
}

}  // namespace d3dcap::runtime::shader
