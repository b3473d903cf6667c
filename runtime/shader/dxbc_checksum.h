// The DXBC container checksum: MD5's compression function run over the
// container from byte 20 (after the magic and the checksum itself) to its
// end, with a non-standard last block (see dxbc_checksum.cpp). The runtime
// and vkd3d-shader refuse containers whose stored checksum differs.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace d3dcap::runtime::shader {

// The four MD5 state words.
using Md5State = std::array<std::uint32_t, 4>;

// MD5's initial state (RFC 1321, section 3.3).
inline constexpr Md5State kMd5InitialState = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};

// One application of MD5's compression function to a 64-byte block.
void md5_compress(Md5State& state, std::span<const std::uint8_t, 64> block);

// Standard MD5 (RFC 1321) of `data`: the compression function with the
// standard padding. Here so tests can check md5_compress against the RFC.
std::array<std::uint8_t, 16> md5(std::span<const std::uint8_t> data);

// The checksum of a container: the state after hashing bytes 20..end. A
// container shorter than 20 bytes hashes as if empty.
Md5State dxbc_checksum(std::span<const std::uint8_t> container);

// Writes the checksum into bytes 4..19 (the four words little-endian).
// Does nothing to a container shorter than 20 bytes.
void write_dxbc_checksum(std::span<std::uint8_t> container);

// Whether bytes 4..19 hold the container's checksum.
bool dxbc_checksum_matches(std::span<const std::uint8_t> container);

}  // namespace d3dcap::runtime::shader
