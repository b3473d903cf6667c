// A program written as for Windows, built against the installed Linux headers.
#include <d3d11_2.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>

// Maps one 2x2 box of tiles onto pool tile 7; never called here, it only has to compile.
HRESULT map_box(ID3D11DeviceContext2* context, ID3D11Resource* texture, ID3D11Buffer* pool) {
    D3D11_TILED_RESOURCE_COORDINATE start = {};
    D3D11_TILE_REGION_SIZE size = {};
    size.bUseBox = TRUE;
    size.Width = 2;
    size.Height = 2;
    size.Depth = 1;
    size.NumTiles = 4;
    UINT flags = D3D11_TILE_RANGE_REUSE_SINGLE_TILE;
    UINT offset = 7;
    UINT count = 4;
    return context->UpdateTileMappings(texture, 1, &start, &size, pool, 1, &flags, &offset, &count,
                                       0);
}

static int vtable_slot(HRESULT (STDMETHODCALLTYPE ID3D11DeviceContext2::*method)(
    ID3D11Resource*, UINT, const D3D11_TILED_RESOURCE_COORDINATE*, const D3D11_TILE_REGION_SIZE*,
    ID3D11Buffer*, UINT, const UINT*, const UINT*, const UINT*, UINT)) {
    std::uintptr_t raw[2];
    std::memcpy(raw, &method, sizeof raw);
    return static_cast<int>((raw[0] - 1) / sizeof(void*));
}

int main() {
    const GUID& iid = IID_ID3D11DeviceContext2;
    std::printf(
        "IID_ID3D11DeviceContext2 %08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x, "
        "tile region %zu bytes, UpdateTileMappings at slot %d\n",
        iid.Data1, iid.Data2, iid.Data3, iid.Data4[0], iid.Data4[1], iid.Data4[2], iid.Data4[3],
        iid.Data4[4], iid.Data4[5], iid.Data4[6], iid.Data4[7], sizeof(D3D11_TILE_REGION_SIZE),
        vtable_slot(&ID3D11DeviceContext2::UpdateTileMappings));
    HRESULT (*volatile keep)(ID3D11DeviceContext2*, ID3D11Resource*, ID3D11Buffer*) = map_box;
    return keep == nullptr;
}
