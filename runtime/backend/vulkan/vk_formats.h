// DXGI formats as Vulkan formats: the Vulkan format whose texels hold the
// same bits in memory (so that copies in the canonical layout stay exact),
// how a view of a DXGI format reads its channels, and which aspect of a
// depth-stencil image a view of a depth group's format sees.
#pragma once

#include <dxgiformat.h>
#include <vulkan/vulkan_core.h>

namespace d3dcap::runtime::backend::vulkan {

// The Vulkan format with the same bits per texel and channel layout as a
// DXGI format (B5G6R5_UNORM is R5G6B5_UNORM_PACK16, R10G10B10A2 is
// A2B10G10R10_PACK32; B8G8R8X8 is B8G8R8A8 and A8 is R8, read through
// view_swizzle); a typeless format gives a member of its group and depth
// formats their Vulkan depth formats. VK_FORMAT_UNDEFINED where Vulkan has
// no such format (R1, the 4:2:2 and video formats, the XR_BIAS format).
VkFormat same_bits_format(DXGI_FORMAT format);

// How a view of `format` reads channels (A8: alpha from R; X8 formats:
// alpha one; the stencil of a depth group in G, as D3D11 returns it).
VkComponentMapping view_swizzle(DXGI_FORMAT format);

// The Vulkan depth-stencil format of a depth-capable group
// (R24G8_TYPELESS -> D24_UNORM_S8_UINT), or UNDEFINED.
VkFormat depth_storage_format(DXGI_FORMAT resource_format);
// The aspects a view format reads on a depth-stencil image: depth for
// R24_UNORM_X8_TYPELESS, R32_FLOAT, D16_UNORM...; stencil for
// X24_TYPELESS_G8_UINT and X32_TYPELESS_G8X24_UINT; both for D24_UNORM_S8_UINT
// and D32_FLOAT_S8X24_UINT.
VkImageAspectFlags depth_view_aspects(DXGI_FORMAT view_format);

bool has_stencil(VkFormat format);
bool is_depth(VkFormat format);

}  // namespace d3dcap::runtime::backend::vulkan
