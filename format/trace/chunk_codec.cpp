#include "chunk_codec.h"

#include <cstring>

#if D3DCAP_TRACE_LZ4
#include <lz4.h>
#else
#include "lz4_block.h"
#endif

namespace d3dcap::trace {

void store_as_lz4_literals(const std::uint8_t* source, std::size_t size, BlockBytes& out) {
    // The LZ4 block format: a token whose high nibble is the literal count
    // (15 = more follows in bytes of 255, ended by one below 255), then the
    // literals; the last sequence of a block has no match part.
    out.clear();
    out.reserve(size + size / 255 + 16);
    if (size < 15) {
        out.push_back(static_cast<char>(size << 4));
    } else {
        out.push_back(static_cast<char>(0xF0));
        std::size_t rest = size - 15;
        for (; rest >= 255; rest -= 255) out.push_back(static_cast<char>(255));
        out.push_back(static_cast<char>(rest));
    }
    const std::size_t start = out.size();
    out.resize(start + size);
    if (size > 0) std::memcpy(out.data() + start, source, size);
}

bool encode_chunk(const std::uint8_t* source, std::size_t size, bool compress, BlockBytes& out) {
#if D3DCAP_TRACE_LZ4
    if (compress) {
        const int source_size = static_cast<int>(size);
        out.resize(static_cast<std::size_t>(LZ4_compressBound(source_size)));
        const int compressed_size =
            LZ4_compress_default(reinterpret_cast<const char*>(source), out.data(), source_size,
                                 static_cast<int>(out.size()));
        if (compressed_size <= 0) return false;
        out.resize(static_cast<std::size_t>(compressed_size));
        return true;
    }
#else
    if (compress) {
        lz4_compress_block(source, size, out);
        return true;
    }
#endif
    store_as_lz4_literals(source, size, out);
    return true;
}

}  // namespace d3dcap::trace
