#include "capture/layer/resource_info.h"

#include <d3dcap/capture/wrappers.h>

#include "capture/layer/layer.h"
#include "format/trace/records.h"
#include "runtime/tiles/recorded_tiling.h"

namespace d3dcap::capture {

namespace {

template <class Resource, class Desc>
std::unique_ptr<ResourceInfo> describe(Wrapper& wrapper) {
    Desc desc{};
    static_cast<Resource*>(wrapper.facets()[0]->real)->GetDesc(&desc);
    auto info = std::make_unique<ResourceInfo>();
    info->shape = shape_of(desc);
    info->usage = desc.Usage;
    info->bind_flags = desc.BindFlags;
    info->cpu_access_flags = desc.CPUAccessFlags;
    info->misc_flags = desc.MiscFlags;
    return info;
}

// GetResourceTiling of the real resource, asked of its real device.
bool query_tiling(ID3D11Resource* real, UINT subresources, runtime::tiles::ResourceTiling& tiling) {
    ID3D11Device* device = nullptr;
    real->GetDevice(&device);
    if (device == nullptr) return false;
    ID3D11Device2* device2 = nullptr;
    device->QueryInterface(__uuidof(ID3D11Device2), reinterpret_cast<void**>(&device2));
    device->Release();
    if (device2 == nullptr) return false;
    UINT count = subresources;
    tiling.subresources.resize(count);
    device2->GetResourceTiling(real, &tiling.total_tiles, &tiling.packed, &tiling.shape, &count, 0,
                               tiling.subresources.data());
    device2->Release();
    tiling.subresources.resize(count);
    return true;
}

ID3D11Resource* real_resource(Wrapper& wrapper) {
    return static_cast<ID3D11Resource*>(wrapper.facets()[0]->real);
}

}  // namespace

std::unique_ptr<ResourceInfo> describe_resource(Wrapper& wrapper) {
    std::unique_ptr<ResourceInfo> info;
    switch (wrapper.kind) {
        case WrapperKind::Buffer:
            info = describe<ID3D11Buffer, D3D11_BUFFER_DESC>(wrapper);
            break;
        case WrapperKind::Texture1D:
            info = describe<ID3D11Texture1D, D3D11_TEXTURE1D_DESC>(wrapper);
            break;
        case WrapperKind::Texture2D:
            info = describe<ID3D11Texture2D, D3D11_TEXTURE2D_DESC>(wrapper);
            break;
        case WrapperKind::Texture3D:
            info = describe<ID3D11Texture3D, D3D11_TEXTURE3D_DESC>(wrapper);
            break;
        default:
            return nullptr;
    }
    if (info->tiled()) {
        info->tiling.mip_levels = info->shape.mip_levels;
        info->tiling.array_size = info->shape.array_size;
        query_tiling(real_resource(wrapper), subresource_count(info->shape), info->tiling);
    }
    return info;
}

ResourceInfo* resource_info(ID3D11Resource* resource) {
    const FacetHeader* header = header_of(resource);
    return header == nullptr ? nullptr : header->owner->resource.get();
}

void record_tiling(Wrapper& wrapper) {
    if (!wrapper.resource->tiled() || !Layer::get().recording()) return;
    const runtime::tiles::ResourceTiling& t = wrapper.resource->tiling;
    Layer::get().record_meta([&](flatbuffers::FlatBufferBuilder& b) {
        trace::finish_meta(b, thread_number(), runtime::tiles::record_of_tiling(b, wrapper.id, t));
    });
}

}  // namespace d3dcap::capture
