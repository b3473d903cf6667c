// How a resource is cut into 64 KiB tiles: tile shapes per format, tile
// numbering, packed mips, and the answers of ID3D11Device2::GetResourceTiling.
// The reference device's choices where the documentation leaves one to the
// hardware are described in docs/runtime.md.
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <vector>

#include "runtime/messages.h"

namespace d3dcap::runtime::tiles {

inline constexpr std::uint32_t kTileBytes = 65536;
inline constexpr std::uint32_t kPackedStart =
    0xffffffff;  // StartTileIndexInOverallResource of packed mips

// What the tile model needs to know of a resource.
struct ResourceShape {
    D3D11_RESOURCE_DIMENSION dimension = D3D11_RESOURCE_DIMENSION_UNKNOWN;
    std::uint64_t byte_width = 0;                    // buffers
    std::uint32_t width = 0, height = 1, depth = 1;  // texels; depth for Texture3D
    std::uint32_t mip_levels = 1;
    std::uint32_t array_size = 1;  // slices (6 per cube)
    DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;
    std::uint32_t sample_count = 1;
};

// The answers of GetResourceTiling for every subresource, plus where each
// subresource's tiles start in the resource's overall tile numbering.
struct ResourceTiling {
    std::uint32_t total_tiles = 0;
    D3D11_PACKED_MIP_DESC packed{};  // per slice: NumPackedMips, NumTilesForPackedMips
    D3D11_TILE_SHAPE shape{};
    std::vector<D3D11_SUBRESOURCE_TILING> subresources;  // mip + slice * mip_levels
    std::uint32_t mip_levels = 1;
    std::uint32_t array_size = 1;

    // Overall tile index of the first packed tile of a slice.
    std::uint32_t packed_start(std::uint32_t slice) const;
};

// True when two tilings number every tile the same way.
bool same_tiling(const ResourceTiling& a, const ResourceTiling& b);

// The reference device's tiling of a resource that may be tiled, or
// E_INVALIDARG with a message when it may not (format, dimension, samples).
HRESULT compute_tiling(const ResourceShape& shape, ResourceTiling& tiling,
                       runtime::MessageSink* sink);

}  // namespace d3dcap::runtime::tiles
