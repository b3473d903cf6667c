// How a chunk's records become the LZ4 block data stored in the file:
// compressed by the LZ4 library, or by the project's own LZ4 block
// compressor in a build without it (the Windows capture layer: Debian has
// no mingw-w64 build of it; lz4_block.h), or stored as one sequence of
// literals (writers asked not to compress). Every LZ4 decoder reads all
// three alike.
#pragma once

#include <cstddef>
#include <cstdint>

#include "block_bytes.h"

namespace d3dcap::trace {

// Encodes source into out (resized to the block's size): LZ4-compressed
// when compress is set, else stored as literals. Returns false only when
// the LZ4 library fails.
bool encode_chunk(const std::uint8_t* source, std::size_t size, bool compress, BlockBytes& out);

// The LZ4 block of one literal-only sequence holding source.
void store_as_lz4_literals(const std::uint8_t* source, std::size_t size, BlockBytes& out);

}  // namespace d3dcap::trace
