// The shape of a resource's subresources as the replay device created them:
// what Map/Unmap and the size rules need to lay out and bound recorded bytes.
#pragma once

#include <d3d11_2.h>

#include <cstdint>

namespace d3dcap::replay {

struct SubresourceShape {
    D3D11_RESOURCE_DIMENSION dimension = D3D11_RESOURCE_DIMENSION_UNKNOWN;
    bool buffer = false;
    DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;
    UINT width = 0;  // texels, or bytes for a buffer
    UINT height = 1;
    UINT depth = 1;
    D3D11_USAGE usage = D3D11_USAGE_DEFAULT;
    UINT bind_flags = 0;
    UINT misc_flags = 0;
    UINT sample_count = 1;
    // Where the subresource sits: its mip and array slice, of how many.
    UINT mip = 0, slice = 0;
    UINT mip_levels = 1, array_size = 1;
    UINT structure_stride = 0;  // structured buffers
};

// The shape of one subresource; false when resource is NULL or the
// subresource does not exist.
bool shape_of(ID3D11Resource* resource, UINT subresource, SubresourceShape* shape);

// Rows of blocks (or texels) and slices of a width x height x depth region.
struct Extent {
    std::uint64_t row_bytes = 0;
    std::uint32_t rows = 0;
    std::uint32_t slices = 0;
};
Extent extent_of(const SubresourceShape& shape, UINT width, UINT height, UINT depth);

// Bytes from the start of the data to the end of its last row, with these
// pitches; 0 for an empty extent.
std::uint64_t bytes_spanned(const Extent& extent, std::uint64_t row_pitch,
                            std::uint64_t depth_pitch);

}  // namespace d3dcap::replay
