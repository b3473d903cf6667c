#include "replay/engine/size_rules.h"

#include <algorithm>

#include "replay/engine/resource_shape.h"
#include "runtime/formats/data_sizes.h"

namespace d3dcap::replay {

namespace {

using Bytes = flatbuffers::Vector<std::uint8_t>;
using InitialData = flatbuffers::Vector<flatbuffers::Offset<fb::D3D11_SUBRESOURCE_DATA>>;

std::string shortfall(std::uint64_t have, std::uint64_t need) {
    return "the record holds " + std::to_string(have) + " bytes, the call reads " +
           std::to_string(need);
}

// Calls the runtime rejects before reading need nothing; the rest read their
// region (the whole subresource without a box) with the recorded pitches.
std::string check_update(ID3D11Resource* resource, UINT subresource, const D3D11_BOX* box,
                         const Bytes* recorded, UINT row_pitch, UINT depth_pitch) {
    if (recorded == nullptr) return {};
    SubresourceShape shape;
    if (!shape_of(resource, subresource, &shape)) return {};
    if ((shape.usage != D3D11_USAGE_DEFAULT && shape.usage != D3D11_USAGE_STAGING) ||
        (shape.bind_flags & D3D11_BIND_DEPTH_STENCIL) || shape.sample_count > 1)
        return {};
    UINT width = shape.width, height = shape.height, depth = shape.depth;
    if (box != nullptr) {
        if (box->right <= box->left || box->bottom <= box->top || box->back <= box->front)
            return {};
        if (box->right > shape.width || box->bottom > shape.height || box->back > shape.depth)
            return {};
        width = box->right - box->left;
        height = box->bottom - box->top;
        depth = box->back - box->front;
    }
    const std::uint64_t need =
        bytes_spanned(extent_of(shape, width, height, depth), row_pitch, depth_pitch);
    if (recorded->size() < need) return shortfall(recorded->size(), need);
    return {};
}

// The largest dimensions D3D11 allows; bigger descriptions are rejected
// before any initial data is read.
constexpr UINT kMaxTexture1D2D = 16384;
constexpr UINT kMaxTexture3D = 2048;
constexpr UINT kMaxArraySize = 2048;

std::string check_initial_data(const InitialData* recorded, const D3D11_SUBRESOURCE_DATA* data,
                               DXGI_FORMAT format, UINT width, UINT height, UINT depth,
                               UINT mip_levels, UINT array_size, UINT max_size) {
    if (recorded == nullptr || data == nullptr) return {};
    if (width == 0 || height == 0 || depth == 0 || array_size == 0) return {};
    if (std::max({width, height, depth}) > max_size || array_size > kMaxArraySize) return {};
    const UINT full = runtime::formats::full_mip_levels(width, height, depth);
    const UINT mips = mip_levels == 0 ? full : mip_levels;
    if (mips > full) return {};
    const std::uint64_t count = std::uint64_t{mips} * array_size;
    if (recorded->size() < count) {
        return "the record holds " + std::to_string(recorded->size()) +
               " entries, the texture has " + std::to_string(count) + " subresources";
    }
    SubresourceShape shape;
    shape.format = format;
    for (std::uint32_t i = 0; i < count; ++i) {
        const Bytes* bytes = recorded->Get(i)->p_sys_mem();
        if (bytes == nullptr) continue;  // a NULL pSysMem fails the call
        const UINT mip = i % mips;
        const Extent extent =
            extent_of(shape, std::max<UINT>(1, width >> mip), std::max<UINT>(1, height >> mip),
                      std::max<UINT>(1, depth >> mip));
        const std::uint64_t need =
            bytes_spanned(extent, data[i].SysMemPitch, data[i].SysMemSlicePitch);
        if (bytes->size() < need) {
            return "entry " + std::to_string(i) + " (mip " + std::to_string(mip) + ", slice " +
                   std::to_string(i / mips) + "): " + shortfall(bytes->size(), need);
        }
    }
    return {};
}

}  // namespace

std::string SizeRuleChecks::subresource_data(
    const fb::ID3D11DeviceContext_UpdateSubresource& params, ID3D11Resource* pDstResource,
    UINT DstSubresource, const D3D11_BOX* pDstBox, const std::uint8_t*, UINT SrcRowPitch,
    UINT SrcDepthPitch) {
    return check_update(pDstResource, DstSubresource, pDstBox, params.p_src_data(), SrcRowPitch,
                        SrcDepthPitch);
}

std::string SizeRuleChecks::subresource_data(
    const fb::ID3D11DeviceContext1_UpdateSubresource1& params, ID3D11Resource* pDstResource,
    UINT DstSubresource, const D3D11_BOX* pDstBox, const std::uint8_t*, UINT SrcRowPitch,
    UINT SrcDepthPitch, UINT) {
    return check_update(pDstResource, DstSubresource, pDstBox, params.p_src_data(), SrcRowPitch,
                        SrcDepthPitch);
}

std::string SizeRuleChecks::texture_initial_data(const fb::ID3D11Device_CreateTexture1D& params,
                                                 const D3D11_TEXTURE1D_DESC* pDesc,
                                                 const D3D11_SUBRESOURCE_DATA* pInitialData,
                                                 ID3D11Texture1D**) {
    if (pDesc == nullptr) return {};
    return check_initial_data(params.p_initial_data(), pInitialData, pDesc->Format, pDesc->Width, 1,
                              1, pDesc->MipLevels, pDesc->ArraySize, kMaxTexture1D2D);
}

std::string SizeRuleChecks::texture_initial_data(const fb::ID3D11Device_CreateTexture2D& params,
                                                 const D3D11_TEXTURE2D_DESC* pDesc,
                                                 const D3D11_SUBRESOURCE_DATA* pInitialData,
                                                 ID3D11Texture2D**) {
    if (pDesc == nullptr) return {};
    return check_initial_data(params.p_initial_data(), pInitialData, pDesc->Format, pDesc->Width,
                              pDesc->Height, 1, pDesc->MipLevels, pDesc->ArraySize,
                              kMaxTexture1D2D);
}

std::string SizeRuleChecks::texture_initial_data(const fb::ID3D11Device_CreateTexture3D& params,
                                                 const D3D11_TEXTURE3D_DESC* pDesc,
                                                 const D3D11_SUBRESOURCE_DATA* pInitialData,
                                                 ID3D11Texture3D**) {
    if (pDesc == nullptr) return {};
    return check_initial_data(params.p_initial_data(), pInitialData, pDesc->Format, pDesc->Width,
                              pDesc->Height, pDesc->Depth, pDesc->MipLevels, 1, kMaxTexture3D);
}

}  // namespace d3dcap::replay
