// How a chunk's records become the LZ4 block data stored in the file.
//
// A build without the LZ4 library (the Windows capture layer: Debian has no
// mingw-w64 build of it) still writes valid LZ4 blocks: one sequence of
// literals only, which the LZ4 block format allows and every LZ4 decoder
// reads, so readers see no difference. `d3dcap repack` compresses such a
// trace afterwards.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace d3dcap::trace {

// True when this build compresses chunks with LZ4.
bool chunk_compression_available();

// Encodes source into out (resized to the block's size): LZ4-compressed
// when compress is set and this build has LZ4, else stored as literals.
// Returns false only when LZ4 fails.
bool encode_chunk(const std::uint8_t* source, std::size_t size, bool compress,
                  std::vector<char>& out);

// The LZ4 block of one literal-only sequence holding source.
void store_as_lz4_literals(const std::uint8_t* source, std::size_t size, std::vector<char>& out);

}  // namespace d3dcap::trace
