// Content hashes: XXH3-64 of a subresource in the canonical linear layout
// (rows of elements packed tightly, then depth slices), so the same content
// hashes the same whether it lives in private tiles, pool tiles or GPU memory.
#include <xxhash.h>

#include <memory>
#include <vector>

#include "runtime/backend/backend.h"

namespace d3dcap::runtime::backend {

// 0 when the backend keeps no data (the state-only device) or the
// subresource does not exist.
__attribute__((visibility("default"))) std::uint64_t content_hash(Backend& backend,
                                                                  ObjectId resource,
                                                                  std::uint32_t subresource) {
    const std::unique_ptr<XXH3_state_t, XXH_errorcode (*)(XXH3_state_t*)> state(XXH3_createState(),
                                                                                XXH3_freeState);
    if (state == nullptr) return 0;
    XXH3_64bits_reset(state.get());
    const bool read = backend.read_subresource_pieces(
        resource, subresource, [&state](const std::uint8_t* bytes, std::size_t size) {
            XXH3_64bits_update(state.get(), bytes, size);
        });
    return read ? XXH3_64bits_digest(state.get()) : 0;
}

}  // namespace d3dcap::runtime::backend
