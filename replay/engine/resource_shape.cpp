#include "replay/engine/resource_shape.h"

#include <algorithm>

#include "runtime/formats/formats.h"

namespace d3dcap::replay {

namespace {

template <typename Texture, typename Desc>
bool texture_desc(ID3D11Resource* resource, Desc* desc) {
    Texture* texture = nullptr;
    if (FAILED(resource->QueryInterface(__uuidof(Texture), reinterpret_cast<void**>(&texture))) ||
        texture == nullptr)
        return false;
    texture->GetDesc(desc);
    texture->Release();
    return true;
}

UINT mip_size(UINT size, UINT mip) {
    return mip >= 32 ? 1 : std::max<UINT>(1, size >> mip);
}

void set_place(SubresourceShape& shape, UINT subresource, UINT mip_levels, UINT array_size) {
    shape.mip = subresource % mip_levels;
    shape.slice = subresource / mip_levels;
    shape.mip_levels = mip_levels;
    shape.array_size = array_size;
}

}  // namespace

bool shape_of(ID3D11Resource* resource, UINT subresource, SubresourceShape* shape) {
    if (resource == nullptr) return false;
    D3D11_RESOURCE_DIMENSION dimension = D3D11_RESOURCE_DIMENSION_UNKNOWN;
    resource->GetType(&dimension);
    *shape = SubresourceShape{};
    shape->dimension = dimension;
    switch (dimension) {
        case D3D11_RESOURCE_DIMENSION_BUFFER: {
            ID3D11Buffer* buffer = nullptr;
            if (FAILED(resource->QueryInterface(__uuidof(ID3D11Buffer),
                                                reinterpret_cast<void**>(&buffer))) ||
                buffer == nullptr)
                return false;
            D3D11_BUFFER_DESC desc{};
            buffer->GetDesc(&desc);
            buffer->Release();
            if (subresource != 0) return false;
            shape->buffer = true;
            shape->width = desc.ByteWidth;
            shape->usage = desc.Usage;
            shape->bind_flags = desc.BindFlags;
            shape->misc_flags = desc.MiscFlags;
            shape->structure_stride = desc.StructureByteStride;
            return true;
        }
        case D3D11_RESOURCE_DIMENSION_TEXTURE1D: {
            D3D11_TEXTURE1D_DESC desc{};
            if (!texture_desc<ID3D11Texture1D>(resource, &desc)) return false;
            if (desc.MipLevels == 0 || subresource >= desc.MipLevels * desc.ArraySize) return false;
            set_place(*shape, subresource, desc.MipLevels, desc.ArraySize);
            shape->width = mip_size(desc.Width, shape->mip);
            shape->format = desc.Format;
            shape->usage = desc.Usage;
            shape->bind_flags = desc.BindFlags;
            shape->misc_flags = desc.MiscFlags;
            return true;
        }
        case D3D11_RESOURCE_DIMENSION_TEXTURE2D: {
            D3D11_TEXTURE2D_DESC desc{};
            if (!texture_desc<ID3D11Texture2D>(resource, &desc)) return false;
            if (desc.MipLevels == 0 || subresource >= desc.MipLevels * desc.ArraySize) return false;
            set_place(*shape, subresource, desc.MipLevels, desc.ArraySize);
            shape->width = mip_size(desc.Width, shape->mip);
            shape->height = mip_size(desc.Height, shape->mip);
            shape->format = desc.Format;
            shape->usage = desc.Usage;
            shape->bind_flags = desc.BindFlags;
            shape->misc_flags = desc.MiscFlags;
            shape->sample_count = desc.SampleDesc.Count;
            return true;
        }
        case D3D11_RESOURCE_DIMENSION_TEXTURE3D: {
            D3D11_TEXTURE3D_DESC desc{};
            if (!texture_desc<ID3D11Texture3D>(resource, &desc)) return false;
            if (desc.MipLevels == 0 || subresource >= desc.MipLevels) return false;
            set_place(*shape, subresource, desc.MipLevels, 1);
            shape->width = mip_size(desc.Width, subresource);
            shape->height = mip_size(desc.Height, subresource);
            shape->depth = mip_size(desc.Depth, subresource);
            shape->format = desc.Format;
            shape->usage = desc.Usage;
            shape->bind_flags = desc.BindFlags;
            shape->misc_flags = desc.MiscFlags;
            return true;
        }
        default:
            return false;
    }
}

Extent extent_of(const SubresourceShape& shape, UINT width, UINT height, UINT depth) {
    Extent extent;
    if (width == 0 || height == 0 || depth == 0) return extent;
    if (shape.buffer) {
        extent.row_bytes = width;
        extent.rows = 1;
        extent.slices = 1;
        return extent;
    }
    extent.row_bytes = runtime::formats::row_pitch(shape.format, width);
    extent.rows = runtime::formats::row_count(shape.format, height);
    extent.slices = depth;
    return extent;
}

std::uint64_t bytes_spanned(const Extent& extent, std::uint64_t row_pitch,
                            std::uint64_t depth_pitch) {
    if (extent.row_bytes == 0 || extent.rows == 0 || extent.slices == 0) return 0;
    // Pitches are 32-bit and counts below 2^32: no 64-bit overflow.
    return std::uint64_t{extent.slices - 1} * depth_pitch +
           std::uint64_t{extent.rows - 1} * row_pitch + extent.row_bytes;
}

}  // namespace d3dcap::replay
