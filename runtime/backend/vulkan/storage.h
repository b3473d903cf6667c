// How the Vulkan device stores a texture. Where Vulkan has a format with
// the same bits as the D3D11 format and the GPU takes it for the texture's
// bind flags, the image has that format ("real" storage): mutable, so that
// views reinterpret within the typeless group, and with the usages the bind
// flags ask for; depth-capable groups bound as depth-stencil (and the
// groups with stencil) are Vulkan depth-stencil images. Copies and clears in
// the canonical layout stay bit-exact, since the texels hold the same bits
// (but for the 24 unused bits of the D32_FLOAT_S8X24 group, which a Vulkan
// depth-stencil image does not have: they read zero, as on GPUs).
// Otherwise (MSAA, formats Vulkan lacks, tiled depth) the texture keeps only
// its bits, in an unsigned-integer format of the canonical element's size
// (R8..R32G32B32A32_UINT, several texels side by side where no format of
// that size exists), which tiles like the D3D11 format; shaders cannot see
// such a texture.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <string>

#include "runtime/backend/backend.h"

namespace d3dcap::runtime::backend::vulkan {

struct ImageStorage {
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkImageType type = VK_IMAGE_TYPE_2D;
    VkExtent3D extent{1, 1, 1};  // mip 0, in the storage format's texels
    std::uint32_t mip_levels = 1, layers = 1;
    // Storage texels per canonical element along x and y: 4 x 4 for BC
    // blocks, n x 1 for elements stored as n texels, 1 x 1 otherwise.
    std::uint32_t texels_x = 1, texels_y = 1;
    bool compressed = false;
    bool real = false;  // the texels are the D3D11 format's (see above)
    VkImageAspectFlags aspects = VK_IMAGE_ASPECT_COLOR_BIT;
    VkImageCreateFlags flags = 0;
    VkImageUsageFlags usage = 0;
    // MSAA depth-stencil textures and colour textures of 1-, 2-, 4-, 8- or
    // 16-byte texels are real multisampled images, their samples moved by
    // shaders (vulkan_multisample.cpp); other MSAA textures keep only bits.
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
};

// The storage of a texture, or false with a message naming the format when
// this GPU cannot hold it.
bool choose_image_storage(VkPhysicalDevice physical, const ResourceInfo& info, bool sparse,
                          ImageStorage& out, std::string& error);

VkImageCreateFlags sparse_image_flags();

// A new image of that storage, without memory (null where it cannot be made).
VkImage make_image(VkDevice device, const ImageStorage& storage);
// The layout every image of the device is kept in, from UNDEFINED.
void to_general_layout(VkCommandBuffer commands, VkImage image, VkImageAspectFlags aspects);

}  // namespace d3dcap::runtime::backend::vulkan
