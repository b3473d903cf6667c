// Reading resources back through the real device and its immediate context:
// nothing goes through the wrappers, so nothing is recorded and the
// application sees none of it. Snapshots and content hashes use it.
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "capture/layer/resource_info.h"

namespace d3dcap::capture {

// A subresource as Map of its staging copy shows it.
struct MappedCopy {
    const std::uint8_t* data = nullptr;
    UINT row_pitch = 0;
    UINT depth_pitch = 0;
};

// The canonical linear layout of a subresource: rows of elements packed
// tightly, then depth slices, nothing else (what the runtime's content hash
// covers). Buffers are one row of ByteWidth bytes.
struct CanonicalLayout {
    std::uint64_t row_bytes = 0;
    std::uint32_t rows = 0;  // per depth slice
    std::uint32_t depth = 0;

    std::uint64_t bytes() const { return row_bytes * rows * depth; }
};

// Of a subresource that exists and is not multisampled.
CanonicalLayout canonical_layout(const ResourceShape& shape, UINT subresource);

// Hands the bytes of a mapped copy to run(data, size) in canonical order:
// the whole span at once when the pitches are tight, else row by row.
template <class Run>
void for_each_canonical_run(const CanonicalLayout& layout, const MappedCopy& copy, Run&& run) {
    const std::uint64_t slice = layout.row_bytes * layout.rows;
    if (copy.row_pitch == layout.row_bytes && (layout.depth <= 1 || copy.depth_pitch == slice)) {
        run(copy.data, static_cast<std::size_t>(layout.bytes()));
        return;
    }
    for (std::uint32_t z = 0; z < layout.depth; ++z)
        for (std::uint32_t y = 0; y < layout.rows; ++y)
            run(copy.data + std::uint64_t{z} * copy.depth_pitch + std::uint64_t{y} * copy.row_pitch,
                static_cast<std::size_t>(layout.row_bytes));
}

class Readback {
  public:
    // context: a real immediate context; its device makes the staging copies.
    explicit Readback(ID3D11DeviceContext* context);
    ~Readback();
    Readback(const Readback&) = delete;
    Readback& operator=(const Readback&) = delete;

    // Copies one subresource of src (a real resource of this device) into a
    // staging resource of its size and calls visit while that is mapped.
    // False when it cannot: multisampled (staging resources have one
    // sample), or the staging resource or its Map failed.
    bool subresource(ID3D11Resource* src, const ResourceShape& shape, UINT subresource,
                     const std::function<void(const MappedCopy&)>& visit);

    // The same in pieces of whole rows of one depth slice (bytes of a
    // buffer) of at most max_bytes each, through one small staging resource,
    // when a box can address them: not for depth-stencil, block-compressed,
    // planar or 1D resources, which come whole. visit(copy, piece) gets the
    // pieces in canonical order, piece saying what each holds. False when
    // any piece could not be read.
    bool pieces(ID3D11Resource* src, const ResourceInfo& info, UINT sub, std::uint64_t max_bytes,
                const std::function<void(const MappedCopy&, const CanonicalLayout&)>& visit);

    // One tile of a tiled resource as CopyTiles lays it out in a linear
    // buffer (64 KiB).
    bool tile(ID3D11Resource* src, const D3D11_TILED_RESOURCE_COORDINATE& at,
              std::vector<std::uint8_t>& out);

  private:
    ID3D11DeviceContext* context_;
    ID3D11DeviceContext2* context2_ = nullptr;  // for CopyTiles; null below 11.2
    ID3D11Device* device_ = nullptr;
    ID3D11Buffer* tile_scratch_ = nullptr;
    ID3D11Buffer* tile_staging_ = nullptr;
};

}  // namespace d3dcap::capture
