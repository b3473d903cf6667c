#include "runtime/vulkan/storage.h"

#include <algorithm>

#include "runtime/formats.h"
#include "runtime/reference/reference_backend.h"

namespace d3dcap::runtime::gpu {
namespace {

VkFormat raw_format(std::uint32_t bytes) {
    switch (bytes) {
        case 1:
            return VK_FORMAT_R8_UINT;
        case 2:
            return VK_FORMAT_R16_UINT;
        case 4:
            return VK_FORMAT_R32_UINT;
        case 8:
            return VK_FORMAT_R32G32_UINT;
        case 12:
            return VK_FORMAT_R32G32B32_UINT;
        case 16:
            return VK_FORMAT_R32G32B32A32_UINT;
        default:
            return VK_FORMAT_UNDEFINED;
    }
}

// The BC format of each DXGI BC family (the bits are copied, never decoded).
VkFormat bc_format(DXGI_FORMAT format) {
    switch (format) {
        case DXGI_FORMAT_BC1_TYPELESS:
        case DXGI_FORMAT_BC1_UNORM:
        case DXGI_FORMAT_BC1_UNORM_SRGB:
            return VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
        case DXGI_FORMAT_BC2_TYPELESS:
        case DXGI_FORMAT_BC2_UNORM:
        case DXGI_FORMAT_BC2_UNORM_SRGB:
            return VK_FORMAT_BC2_UNORM_BLOCK;
        case DXGI_FORMAT_BC3_TYPELESS:
        case DXGI_FORMAT_BC3_UNORM:
        case DXGI_FORMAT_BC3_UNORM_SRGB:
            return VK_FORMAT_BC3_UNORM_BLOCK;
        case DXGI_FORMAT_BC4_TYPELESS:
        case DXGI_FORMAT_BC4_UNORM:
        case DXGI_FORMAT_BC4_SNORM:
            return VK_FORMAT_BC4_UNORM_BLOCK;
        case DXGI_FORMAT_BC5_TYPELESS:
        case DXGI_FORMAT_BC5_UNORM:
        case DXGI_FORMAT_BC5_SNORM:
            return VK_FORMAT_BC5_UNORM_BLOCK;
        case DXGI_FORMAT_BC6H_TYPELESS:
        case DXGI_FORMAT_BC6H_UF16:
        case DXGI_FORMAT_BC6H_SF16:
            return VK_FORMAT_BC6H_UFLOAT_BLOCK;
        case DXGI_FORMAT_BC7_TYPELESS:
        case DXGI_FORMAT_BC7_UNORM:
        case DXGI_FORMAT_BC7_UNORM_SRGB:
            return VK_FORMAT_BC7_UNORM_BLOCK;
        default:
            return VK_FORMAT_UNDEFINED;
    }
}

constexpr VkImageUsageFlags kUsage =
    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;

bool supported(VkPhysicalDevice physical, const ImageStorage& storage, bool sparse) {
    VkImageFormatProperties properties{};
    const VkResult result = vkGetPhysicalDeviceImageFormatProperties(
        physical, storage.format, storage.type, VK_IMAGE_TILING_OPTIMAL, kUsage,
        sparse ? sparse_image_flags() : 0, &properties);
    return result == VK_SUCCESS && storage.extent.width <= properties.maxExtent.width &&
           storage.extent.height <= properties.maxExtent.height &&
           storage.extent.depth <= properties.maxExtent.depth &&
           storage.mip_levels <= properties.maxMipLevels &&
           storage.layers <= properties.maxArrayLayers;
}

std::uint32_t mip_extent(std::uint32_t size, std::uint32_t mip) {
    return std::max<std::uint32_t>(1, size >> mip);
}

}  // namespace

VkImageCreateFlags sparse_image_flags() {
    return VK_IMAGE_CREATE_SPARSE_BINDING_BIT | VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT |
           VK_IMAGE_CREATE_SPARSE_ALIASED_BIT;
}

bool choose_image_storage(VkPhysicalDevice physical, const ResourceInfo& info, bool sparse,
                          ImageStorage& out, std::string& error) {
    ImageStorage storage;
    storage.mip_levels = reference::mip_levels_of(info);
    const bool volume = info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    storage.type = info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE1D ? VK_IMAGE_TYPE_1D
                   : volume                                             ? VK_IMAGE_TYPE_3D
                                                                        : VK_IMAGE_TYPE_2D;
    storage.layers = volume ? 1 : std::max<std::uint32_t>(1, info.array_size);
    const reference::SubresourceLayout top = reference::layout_of(info, 0);
    const std::string what = formats::describe(info.format);
    if (const VkFormat bc = bc_format(info.format); bc != VK_FORMAT_UNDEFINED) {
        storage.format = bc;
        storage.compressed = true;
        storage.texels_x = storage.texels_y = 4;
        storage.extent = {top.texel_width, top.texel_height, top.depth};
        if (!supported(physical, storage, sparse)) {
            error =
                what + " (BC) is not supported by this GPU" + (sparse ? " as a tiled texture" : "");
            return false;
        }
        out = storage;
        return true;
    }
    // One texel per element where a format of the element's size exists and
    // the GPU takes it; else units of the largest size that divides it.
    const std::uint32_t bytes = top.element_bytes;
    storage.format = raw_format(bytes);
    storage.texels_x = 1;
    storage.extent = {top.width, top.height, top.depth};
    if (storage.format == VK_FORMAT_UNDEFINED || !supported(physical, storage, sparse)) {
        for (std::uint32_t unit : {16u, 8u, 4u, 2u, 1u}) {
            if (bytes % unit != 0 || unit == bytes) continue;
            storage.format = raw_format(unit);
            storage.texels_x = bytes / unit;
            break;
        }
        storage.extent.width = top.width * storage.texels_x;
        if (sparse) {
            error = what + " has " + std::to_string(bytes) +
                    "-byte elements, which this GPU cannot tile";
            return false;
        }
    }
    // The storage's mip chain must give each mip the canonical element size.
    for (std::uint32_t mip = 1; mip < storage.mip_levels; ++mip) {
        const reference::SubresourceLayout layout = reference::layout_of(info, mip);
        if (mip_extent(storage.extent.width, mip) != layout.width * storage.texels_x ||
            mip_extent(storage.extent.height, mip) != layout.height) {
            error = what + " with " + std::to_string(storage.mip_levels) +
                    " mip levels cannot be stored on this GPU (mip " + std::to_string(mip) +
                    " would change size)";
            return false;
        }
    }
    if (!supported(physical, storage, sparse)) {
        error = what + " of " + std::to_string(info.width) + "x" + std::to_string(info.height) +
                "x" + std::to_string(info.depth) + " is not supported by this GPU" +
                (sparse ? " as a tiled texture" : "");
        return false;
    }
    out = storage;
    return true;
}

}  // namespace d3dcap::runtime::gpu
