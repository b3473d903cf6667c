// Calls whose data size follows a rule: the layer copies exactly the bytes
// the call reads from application memory, no more (the application may have
// handed a buffer that ends there).
#include <d3dcap/capture/wrappers.h>

#include <vector>

#include "capture/layer/recorder.h"
#include "capture/layer/resource_info.h"

namespace d3dcap::capture::hand_written {

namespace {

// One size per subresource of pInitialData; a subresource whose pitches do
// not fit the rule is recorded empty (the device refuses the call anyway).
template <class Desc>
std::vector<std::size_t> initial_data_sizes(const Desc* desc, const D3D11_SUBRESOURCE_DATA* data) {
    std::vector<std::size_t> sizes;
    if (desc == nullptr || data == nullptr) return sizes;
    const ResourceShape shape = shape_of(*desc);
    const UINT count = subresource_count(shape);
    if (count > D3D11_REQ_MIP_LEVELS * D3D11_REQ_TEXTURE2D_ARRAY_AXIS_DIMENSION) return sizes;
    sizes.reserve(count);
    for (UINT i = 0; i < count; ++i) {
        const SizeResult size =
            initial_data_bytes(shape, i, data[i].SysMemPitch, data[i].SysMemSlicePitch);
        sizes.push_back(size.ok() && data[i].pSysMem != nullptr ? size.bytes : 0);
    }
    return sizes;
}

template <class Desc, class Texture, class Create, class Encode>
HRESULT create_texture(FacetHeader& self, api::CallId id, const Desc* desc,
                       const D3D11_SUBRESOURCE_DATA* data, Texture** out, Create create,
                       Encode encode) {
    CallRecorder call(&self, id);
    const HRESULT result = create(desc, data, out);
    if (SUCCEEDED(result)) wrap_out(call, out);
    if (call.wanted()) {
        const std::vector<std::size_t> sizes = initial_data_sizes(desc, data);
        call.finish(encode(call, sizes.empty() ? nullptr : data, sizes), result_value(result),
                    true);
    }
    return result;
}

std::size_t update_bytes(ID3D11Resource* resource, UINT subresource, const D3D11_BOX* box,
                         const void* data, UINT row_pitch, UINT depth_pitch) {
    const ResourceInfo* info = resource_info(resource);
    if (info == nullptr || data == nullptr) return 0;
    const SizeResult size =
        update_subresource_bytes(info->shape, subresource, box, row_pitch, depth_pitch);
    return size.ok() ? size.bytes : 0;
}

}  // namespace

HRESULT ID3D11Device_CreateTexture1D(FacetHeader& self, ID3D11Device* real,
                                     const D3D11_TEXTURE1D_DESC* pDesc,
                                     const D3D11_SUBRESOURCE_DATA* pInitialData,
                                     ID3D11Texture1D** ppTexture1D) {
    return create_texture(
        self, api::CallId::ID3D11Device_CreateTexture1D, pDesc, pInitialData, ppTexture1D,
        [&](auto... a) { return real->CreateTexture1D(a...); },
        [&](CallRecorder& call, const D3D11_SUBRESOURCE_DATA* data, const auto& sizes) {
            return api::encode_ID3D11Device_CreateTexture1D(call.builder(), call.ids(), pDesc, data,
                                                            ppTexture1D, sizes);
        });
}

HRESULT ID3D11Device_CreateTexture2D(FacetHeader& self, ID3D11Device* real,
                                     const D3D11_TEXTURE2D_DESC* pDesc,
                                     const D3D11_SUBRESOURCE_DATA* pInitialData,
                                     ID3D11Texture2D** ppTexture2D) {
    return create_texture(
        self, api::CallId::ID3D11Device_CreateTexture2D, pDesc, pInitialData, ppTexture2D,
        [&](auto... a) { return real->CreateTexture2D(a...); },
        [&](CallRecorder& call, const D3D11_SUBRESOURCE_DATA* data, const auto& sizes) {
            return api::encode_ID3D11Device_CreateTexture2D(call.builder(), call.ids(), pDesc, data,
                                                            ppTexture2D, sizes);
        });
}

HRESULT ID3D11Device_CreateTexture3D(FacetHeader& self, ID3D11Device* real,
                                     const D3D11_TEXTURE3D_DESC* pDesc,
                                     const D3D11_SUBRESOURCE_DATA* pInitialData,
                                     ID3D11Texture3D** ppTexture3D) {
    return create_texture(
        self, api::CallId::ID3D11Device_CreateTexture3D, pDesc, pInitialData, ppTexture3D,
        [&](auto... a) { return real->CreateTexture3D(a...); },
        [&](CallRecorder& call, const D3D11_SUBRESOURCE_DATA* data, const auto& sizes) {
            return api::encode_ID3D11Device_CreateTexture3D(call.builder(), call.ids(), pDesc, data,
                                                            ppTexture3D, sizes);
        });
}

void ID3D11DeviceContext_UpdateSubresource(FacetHeader& self, ID3D11DeviceContext* real,
                                           ID3D11Resource* pDstResource, UINT DstSubresource,
                                           const D3D11_BOX* pDstBox, const void* pSrcData,
                                           UINT SrcRowPitch, UINT SrcDepthPitch) {
    CallRecorder call(&self, api::CallId::ID3D11DeviceContext_UpdateSubresource);
    real->UpdateSubresource(unwrap(pDstResource), DstSubresource, pDstBox, pSrcData, SrcRowPitch,
                            SrcDepthPitch);
    if (!call.wanted()) return;
    const std::size_t bytes =
        update_bytes(pDstResource, DstSubresource, pDstBox, pSrcData, SrcRowPitch, SrcDepthPitch);
    call.finish(api::encode_ID3D11DeviceContext_UpdateSubresource(
        call.builder(), call.ids(), pDstResource, DstSubresource, pDstBox, pSrcData, SrcRowPitch,
        SrcDepthPitch, bytes));
}

void ID3D11DeviceContext1_UpdateSubresource1(FacetHeader& self, ID3D11DeviceContext1* real,
                                             ID3D11Resource* pDstResource, UINT DstSubresource,
                                             const D3D11_BOX* pDstBox, const void* pSrcData,
                                             UINT SrcRowPitch, UINT SrcDepthPitch, UINT CopyFlags) {
    CallRecorder call(&self, api::CallId::ID3D11DeviceContext1_UpdateSubresource1);
    real->UpdateSubresource1(unwrap(pDstResource), DstSubresource, pDstBox, pSrcData, SrcRowPitch,
                             SrcDepthPitch, CopyFlags);
    if (!call.wanted()) return;
    const std::size_t bytes =
        update_bytes(pDstResource, DstSubresource, pDstBox, pSrcData, SrcRowPitch, SrcDepthPitch);
    call.finish(api::encode_ID3D11DeviceContext1_UpdateSubresource1(
        call.builder(), call.ids(), pDstResource, DstSubresource, pDstBox, pSrcData, SrcRowPitch,
        SrcDepthPitch, CopyFlags, bytes));
}

void ID3D11DeviceContext2_UpdateTiles(
    FacetHeader& self, ID3D11DeviceContext2* real, ID3D11Resource* pDestTiledResource,
    const D3D11_TILED_RESOURCE_COORDINATE* pDestTileRegionStartCoordinate,
    const D3D11_TILE_REGION_SIZE* pDestTileRegionSize, const void* pSourceTileData, UINT Flags) {
    CallRecorder call(&self, api::CallId::ID3D11DeviceContext2_UpdateTiles);
    real->UpdateTiles(unwrap(pDestTiledResource), pDestTileRegionStartCoordinate,
                      pDestTileRegionSize, pSourceTileData, Flags);
    if (!call.wanted()) return;
    // A region larger than the resource, or a box whose tiles are not
    // NumTiles, is refused by the device, which then reads nothing: neither
    // does the layer (the buffer may hold only the box's tiles).
    const ResourceInfo* info = resource_info(pDestTiledResource);
    const D3D11_TILE_REGION_SIZE* size = pDestTileRegionSize;
    const bool plausible =
        info != nullptr && size != nullptr && size->NumTiles <= info->tiling.total_tiles &&
        (!size->bUseBox ||
         std::uint64_t{size->Width} * size->Height * size->Depth == size->NumTiles);
    call.finish(api::encode_ID3D11DeviceContext2_UpdateTiles(
        call.builder(), call.ids(), pDestTiledResource, pDestTileRegionStartCoordinate,
        pDestTileRegionSize, plausible ? pSourceTileData : nullptr, Flags));
}

}  // namespace d3dcap::capture::hand_written
