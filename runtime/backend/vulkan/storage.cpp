#include "runtime/backend/vulkan/storage.h"

#include <algorithm>

#include "runtime/backend/subresource_layout.h"
#include "runtime/backend/vulkan/vk_formats.h"
#include "runtime/formats/format_rules.h"
#include "runtime/formats/formats.h"

namespace d3dcap::runtime::backend::vulkan {
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

constexpr VkImageUsageFlags kCopyUsage =
    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;

bool supported(VkPhysicalDevice physical, const ImageStorage& storage) {
    VkImageFormatProperties properties{};
    const VkResult result = vkGetPhysicalDeviceImageFormatProperties(
        physical, storage.format, storage.type, VK_IMAGE_TILING_OPTIMAL, storage.usage,
        storage.flags, &properties);
    return result == VK_SUCCESS && (properties.sampleCounts & storage.samples) &&
           storage.extent.width <= properties.maxExtent.width &&
           storage.extent.height <= properties.maxExtent.height &&
           storage.extent.depth <= properties.maxExtent.depth &&
           storage.mip_levels <= properties.maxMipLevels &&
           storage.layers <= properties.maxArrayLayers;
}

// Real storage of a texture, where the format, the bind flags and the GPU
// allow it.
bool choose_real_storage(VkPhysicalDevice physical, const ResourceInfo& info, bool sparse,
                         ImageStorage& storage) {
    const VkFormat depth = depth_storage_format(info.format);
    const bool depth_stencil = depth != VK_FORMAT_UNDEFINED &&
                               ((info.bind_flags & D3D11_BIND_DEPTH_STENCIL) || has_stencil(depth));
    if (info.sample_count > 1) {
        const std::uint32_t bytes = formats::info(info.format).bits_per_element / 8;
        const bool moved =
            depth_stencil || bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16;
        if (sparse || !moved) return false;
        storage.samples = static_cast<VkSampleCountFlagBits>(info.sample_count);
    }
    VkFormat format = depth_stencil ? depth : same_bits_format(info.format);
    if (!depth_stencil && format == VK_FORMAT_D32_SFLOAT) format = VK_FORMAT_R32_SFLOAT;
    if (!depth_stencil && format == VK_FORMAT_D16_UNORM) format = VK_FORMAT_R16_UNORM;
    if (format == VK_FORMAT_UNDEFINED || (depth_stencil && sparse)) return false;
    storage.format = format;
    storage.real = true;
    storage.usage = kCopyUsage;
    if (info.bind_flags & D3D11_BIND_SHADER_RESOURCE) storage.usage |= VK_IMAGE_USAGE_SAMPLED_BIT;
    if (info.bind_flags & D3D11_BIND_RENDER_TARGET)
        storage.usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    if (info.bind_flags & D3D11_BIND_UNORDERED_ACCESS) storage.usage |= VK_IMAGE_USAGE_STORAGE_BIT;
    // Samples are read by sampling, and colour samples written by drawing.
    if (storage.samples != VK_SAMPLE_COUNT_1_BIT)
        storage.usage |=
            VK_IMAGE_USAGE_SAMPLED_BIT | (depth_stencil ? 0 : VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    if (depth_stencil) {
        storage.aspects = VK_IMAGE_ASPECT_DEPTH_BIT;
        if (has_stencil(format)) storage.aspects |= VK_IMAGE_ASPECT_STENCIL_BIT;
        if (info.bind_flags & D3D11_BIND_DEPTH_STENCIL)
            storage.usage |= VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
    } else {
        // Views in any format of the group, each with the usages its format has.
        storage.flags |= VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
    }
    if ((info.misc_flags & D3D11_RESOURCE_MISC_TEXTURECUBE) && storage.layers % 6 == 0)
        storage.flags |= VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
    // Render-target views of a 3D texture's W slices view it as a 2D array.
    if (info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D &&
        (info.bind_flags & D3D11_BIND_RENDER_TARGET) && !sparse)
        storage.flags |= VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT;
    if (sparse) storage.flags |= sparse_image_flags();
    return supported(physical, storage);
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
    storage.mip_levels = mip_levels_of(info);
    const bool volume = info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    storage.type = info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE1D ? VK_IMAGE_TYPE_1D
                   : volume                                             ? VK_IMAGE_TYPE_3D
                                                                        : VK_IMAGE_TYPE_2D;
    storage.layers = volume ? 1 : std::max<std::uint32_t>(1, info.array_size);
    const SubresourceLayout top = layout_of(info, 0);
    const std::string what = formats::describe(info.format);
    storage.compressed = formats::block_compressed(info.format);
    if (storage.compressed) {
        storage.texels_x = storage.texels_y = 4;
        storage.extent = {top.texel_width, top.texel_height, top.depth};
    } else {
        storage.extent = {top.width, top.height, top.depth};
    }
    {
        ImageStorage real = storage;
        if (choose_real_storage(physical, info, sparse, real)) {
            out = real;
            return true;
        }
    }
    storage.usage = kCopyUsage | VK_IMAGE_USAGE_SAMPLED_BIT;
    storage.flags = sparse ? sparse_image_flags() : 0;
    if (storage.compressed) {
        error = what + " (BC) is not supported by this GPU" + (sparse ? " as a tiled texture" : "");
        return false;
    }
    // One texel per element where a format of the element's size exists and
    // the GPU takes it; else units of the largest size that divides it.
    const std::uint32_t bytes = top.element_bytes;
    storage.format = raw_format(bytes);
    storage.texels_x = 1;
    storage.extent = {top.width, top.height, top.depth};
    if (storage.format == VK_FORMAT_UNDEFINED || !supported(physical, storage)) {
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
        const SubresourceLayout layout = layout_of(info, mip);
        if (mip_extent(storage.extent.width, mip) != layout.width * storage.texels_x ||
            mip_extent(storage.extent.height, mip) != layout.height) {
            error = what + " with " + std::to_string(storage.mip_levels) +
                    " mip levels cannot be stored on this GPU (mip " + std::to_string(mip) +
                    " would change size)";
            return false;
        }
    }
    if (!supported(physical, storage)) {
        error = what + " of " + std::to_string(info.width) + "x" + std::to_string(info.height) +
                "x" + std::to_string(info.depth) + " is not supported by this GPU" +
                (sparse ? " as a tiled texture" : "");
        return false;
    }
    out = storage;
    return true;
}

VkImage make_image(VkDevice device, const ImageStorage& storage) {
    VkImageCreateInfo create{};
    create.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    create.flags = storage.flags;
    create.imageType = storage.type;
    create.format = storage.format;
    create.extent = storage.extent;
    create.mipLevels = storage.mip_levels;
    create.arrayLayers = storage.layers;
    create.samples = storage.samples;
    create.tiling = VK_IMAGE_TILING_OPTIMAL;
    create.usage = storage.usage;
    create.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkImage image = VK_NULL_HANDLE;
    if (vkCreateImage(device, &create, nullptr, &image) != VK_SUCCESS) return VK_NULL_HANDLE;
    return image;
}

void to_general_layout(VkCommandBuffer commands, VkImage image, VkImageAspectFlags aspects) {
    VkImageMemoryBarrier2 to_general{};
    to_general.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2;
    to_general.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    to_general.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    to_general.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
    to_general.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    to_general.newLayout = VK_IMAGE_LAYOUT_GENERAL;
    to_general.srcQueueFamilyIndex = to_general.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_general.image = image;
    to_general.subresourceRange = {aspects, 0, VK_REMAINING_MIP_LEVELS, 0,
                                   VK_REMAINING_ARRAY_LAYERS};
    VkDependencyInfo dependency{};
    dependency.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO;
    dependency.imageMemoryBarrierCount = 1;
    dependency.pImageMemoryBarriers = &to_general;
    vkCmdPipelineBarrier2(commands, &dependency);
}

}  // namespace d3dcap::runtime::backend::vulkan
