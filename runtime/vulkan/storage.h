// How the Vulkan device stores a texture. Draws and dispatches are not
// executed yet, so a texture only has to keep its bits: every format except
// the BC formats is stored as an unsigned-integer format of the size of one
// canonical element (R8/R16/R32/R32G32/R32G32B32/R32G32B32A32_UINT), which
// every GPU copies and clears bit for bit and which tiles like the D3D11
// format (standard tile shapes depend on the element size alone). Elements
// with no such format (MSAA texels with all their samples, 12-byte formats
// where the GPU lacks R32G32B32_UINT) are stored as several texels side by
// side. BC formats keep a BC format of the same block size.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <string>

#include "runtime/backend.h"

namespace d3dcap::runtime::gpu {

struct ImageStorage {
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkImageType type = VK_IMAGE_TYPE_2D;
    VkExtent3D extent{1, 1, 1};  // mip 0, in the storage format's texels
    std::uint32_t mip_levels = 1, layers = 1;
    // Storage texels per canonical element along x and y: 4 x 4 for BC
    // blocks, n x 1 for elements stored as n texels, 1 x 1 otherwise.
    std::uint32_t texels_x = 1, texels_y = 1;
    bool compressed = false;
};

// The storage of a texture, or false with a message naming the format when
// this GPU cannot hold it.
bool choose_image_storage(VkPhysicalDevice physical, const ResourceInfo& info, bool sparse,
                          ImageStorage& out, std::string& error);

VkImageCreateFlags sparse_image_flags();

}  // namespace d3dcap::runtime::gpu
