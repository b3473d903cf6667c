// The project's own LZ4 block compressor, for builds without the LZ4
// library (the Windows capture layer: Debian has no mingw-w64 build of it).
// It writes the LZ4 block format as its description defines it (sequences
// of a token, literals, and a match of at least 4 bytes up to 65,535 bytes
// back; the last sequence literals only, at least the last 5 bytes, and no
// match starting in the last 12), so that every LZ4 decoder reads it.
// Greedy matching through a hash table of 4-byte prefixes, skipping faster
// through data that does not compress.
#pragma once

#include <cstddef>
#include <cstdint>

#include "block_bytes.h"

namespace d3dcap::trace {

// The most bytes an LZ4 block of `size` bytes of input can take.
constexpr std::size_t lz4_block_bound(std::size_t size) {
    return size + size / 255 + 16;
}

// `size` bytes of source as one LZ4 block; out is resized to it.
void lz4_compress_block(const std::uint8_t* source, std::size_t size, BlockBytes& out);

}  // namespace d3dcap::trace
