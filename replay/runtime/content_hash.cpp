// Content hashes: XXH3-64 of a subresource in the canonical linear layout
// (rows of elements packed tightly, then depth slices), so the same content
// hashes the same whether it lives in private tiles, pool tiles or GPU memory.
#include <xxhash.h>

#include <vector>

#include "replay/runtime/backend.h"

namespace d3dcap::runtime {

// 0 when the backend keeps no data (the state-only device) or the
// subresource does not exist.
__attribute__((visibility("default"))) std::uint64_t content_hash(Backend& backend,
                                                                  ObjectId resource,
                                                                  std::uint32_t subresource) {
    std::vector<std::uint8_t> bytes;
    if (!backend.read_subresource(resource, subresource, bytes)) return 0;
    return XXH3_64bits(bytes.data(), bytes.size());
}

}  // namespace d3dcap::runtime
