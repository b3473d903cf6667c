#include "container.h"

#define XXH_STATIC_LINKING_ONLY  // for XXH3_state_t on the stack
#include <xxhash.h>

namespace d3dcap::trace {

std::uint64_t chunk_checksum(const ChunkHeader& header, const void* data, std::size_t size) {
    XXH3_state_t state;
    XXH3_64bits_reset(&state);
    XXH3_64bits_update(&state, &header, offsetof(ChunkHeader, checksum));
    XXH3_64bits_update(&state, data, size);
    return XXH3_64bits_digest(&state);
}

}  // namespace d3dcap::trace
