// The tile-mapping calls: recorded like any call, and mirrored into the
// layer's tile model when the device accepts them, so that a snapshot can
// recreate every mapping.
#include <d3dcap/capture/wrappers.h>

#include "capture/layer/recorder.h"
#include "capture/layer/tile_tracker.h"

namespace d3dcap::capture::hand_written {

namespace {

std::uint64_t id_of(const void* object) {
    return Layer::get().ids().id_of(object);
}

}  // namespace

HRESULT ID3D11DeviceContext2_UpdateTileMappings(
    FacetHeader& self, ID3D11DeviceContext2* real, ID3D11Resource* pTiledResource,
    UINT NumTiledResourceRegions,
    const D3D11_TILED_RESOURCE_COORDINATE* pTiledResourceRegionStartCoordinates,
    const D3D11_TILE_REGION_SIZE* pTiledResourceRegionSizes, ID3D11Buffer* pTilePool,
    UINT NumRanges, const UINT* pRangeFlags, const UINT* pTilePoolStartOffsets,
    const UINT* pRangeTileCounts, UINT Flags) {
    CallRecorder call(&self, api::CallId::ID3D11DeviceContext2_UpdateTileMappings);
    const HRESULT result = real->UpdateTileMappings(
        unwrap(pTiledResource), NumTiledResourceRegions, pTiledResourceRegionStartCoordinates,
        pTiledResourceRegionSizes, unwrap(pTilePool), NumRanges, pRangeFlags, pTilePoolStartOffsets,
        pRangeTileCounts, Flags);
    if (SUCCEEDED(result))
        TileTracker::get().update_tile_mappings(
            id_of(pTiledResource), NumTiledResourceRegions, pTiledResourceRegionStartCoordinates,
            pTiledResourceRegionSizes, id_of(pTilePool), NumRanges, pRangeFlags,
            pTilePoolStartOffsets, pRangeTileCounts, Flags);
    if (call.wanted())
        call.finish(api::encode_ID3D11DeviceContext2_UpdateTileMappings(
                        call.builder(), call.ids(), pTiledResource, NumTiledResourceRegions,
                        pTiledResourceRegionStartCoordinates, pTiledResourceRegionSizes, pTilePool,
                        NumRanges, pRangeFlags, pTilePoolStartOffsets, pRangeTileCounts, Flags),
                    result_value(result), true);
    return result;
}

HRESULT ID3D11DeviceContext2_CopyTileMappings(
    FacetHeader& self, ID3D11DeviceContext2* real, ID3D11Resource* pDestTiledResource,
    const D3D11_TILED_RESOURCE_COORDINATE* pDestRegionStartCoordinate,
    ID3D11Resource* pSourceTiledResource,
    const D3D11_TILED_RESOURCE_COORDINATE* pSourceRegionStartCoordinate,
    const D3D11_TILE_REGION_SIZE* pTileRegionSize, UINT Flags) {
    CallRecorder call(&self, api::CallId::ID3D11DeviceContext2_CopyTileMappings);
    const HRESULT result = real->CopyTileMappings(
        unwrap(pDestTiledResource), pDestRegionStartCoordinate, unwrap(pSourceTiledResource),
        pSourceRegionStartCoordinate, pTileRegionSize, Flags);
    if (SUCCEEDED(result) && pDestRegionStartCoordinate != nullptr &&
        pSourceRegionStartCoordinate != nullptr && pTileRegionSize != nullptr)
        TileTracker::get().copy_tile_mappings(
            id_of(pDestTiledResource), *pDestRegionStartCoordinate, id_of(pSourceTiledResource),
            *pSourceRegionStartCoordinate, *pTileRegionSize, Flags);
    if (call.wanted())
        call.finish(api::encode_ID3D11DeviceContext2_CopyTileMappings(
                        call.builder(), call.ids(), pDestTiledResource, pDestRegionStartCoordinate,
                        pSourceTiledResource, pSourceRegionStartCoordinate, pTileRegionSize, Flags),
                    result_value(result), true);
    return result;
}

HRESULT ID3D11DeviceContext2_ResizeTilePool(FacetHeader& self, ID3D11DeviceContext2* real,
                                            ID3D11Buffer* pTilePool, UINT64 NewSizeInBytes) {
    CallRecorder call(&self, api::CallId::ID3D11DeviceContext2_ResizeTilePool);
    const HRESULT result = real->ResizeTilePool(unwrap(pTilePool), NewSizeInBytes);
    if (SUCCEEDED(result)) TileTracker::get().resize_tile_pool(id_of(pTilePool), NewSizeInBytes);
    if (call.wanted())
        call.finish(api::encode_ID3D11DeviceContext2_ResizeTilePool(call.builder(), call.ids(),
                                                                    pTilePool, NewSizeInBytes),
                    result_value(result), true);
    return result;
}

}  // namespace d3dcap::capture::hand_written
