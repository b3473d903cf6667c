// How many bytes of application memory a D3D11 call reads (or a Map exposes),
// computed from the resource description alone: the capture layer copies
// exactly that span into the trace, and replay checks a record holds it.
#pragma once

#include <d3d11_2.h>

#include <cstddef>
#include <string>

namespace d3dcap::runtime::formats {

// The facts of a resource description that its memory layout depends on.
// Buffers: width is ByteWidth, format DXGI_FORMAT_UNKNOWN, everything else 1.
struct ResourceShape {
    D3D11_RESOURCE_DIMENSION dimension = D3D11_RESOURCE_DIMENSION_UNKNOWN;
    DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;
    UINT width = 0, height = 1, depth = 1;
    UINT mip_levels = 1;  // never 0: shape_of resolves 0 to the full chain
    UINT array_size = 1;
    UINT sample_count = 1;
};

ResourceShape shape_of(const D3D11_BUFFER_DESC& desc);
ResourceShape shape_of(const D3D11_TEXTURE1D_DESC& desc);
ResourceShape shape_of(const D3D11_TEXTURE2D_DESC& desc);
ResourceShape shape_of(const D3D11_TEXTURE3D_DESC& desc);

// Levels of a full mip chain down to 1x1x1: 1 + floor(log2(largest extent)).
UINT full_mip_levels(UINT width, UINT height = 1, UINT depth = 1);
// Extent of a mip level: max(1, extent >> mip).
UINT mip_extent(UINT extent, UINT mip);
// mip_levels * array_size.
UINT subresource_count(const ResourceShape& shape);

// bytes is the span to copy; error, when not empty, is one sentence that names
// the parameter at fault ("pDstBox: right (300) is past the width of mip 2
// (256)") and bytes is 0.
struct SizeResult {
    std::size_t bytes = 0;
    std::string error;

    bool ok() const { return error.empty(); }
};

// UpdateSubresource / UpdateSubresource1: the bytes read from pSrcData. For
// buffers the box is in bytes (left, right) and the pitches are unused; for
// textures the region (box or whole mip) is counted in rows of blocks, and the
// span is (depth - 1) * depth_pitch + (rows - 1) * row_pitch + row bytes. An
// empty box gives 0 bytes: D3D11 does nothing for it.
SizeResult update_subresource_bytes(const ResourceShape& shape, UINT dst_subresource,
                                    const D3D11_BOX* box, UINT src_row_pitch, UINT src_depth_pitch);

// D3D11_SUBRESOURCE_DATA of CreateBuffer (ByteWidth) and CreateTexture1D/2D/3D
// (the whole mip, with the same span as above); subresource is the index
// into pInitialData.
SizeResult initial_data_bytes(const ResourceShape& shape, UINT subresource, UINT sys_mem_pitch,
                              UINT sys_mem_slice_pitch);

// The span a Map of the subresource exposes through D3D11_MAPPED_SUBRESOURCE
// (RowPitch, DepthPitch), for the shadow copy the application writes into.
SizeResult mapped_subresource_bytes(const ResourceShape& shape, UINT subresource, UINT row_pitch,
                                    UINT depth_pitch);

}  // namespace d3dcap::runtime::formats
