// The D3D11 tiled-resources tier a Vulkan device can honour, derived from its
// sparse-residency features alone (a pure function, so every branch is tested
// without a GPU).
#pragma once

#include <d3d11_2.h>
#include <vulkan/vulkan_core.h>

#include <string>

namespace d3dcap::runtime::backend::vulkan {

// The VkPhysicalDeviceFeatures / VkPhysicalDeviceSparseProperties fields the
// tier depends on.
struct SparseCapabilities {
    bool sparse_binding = false;
    bool sparse_residency_buffer = false;
    bool sparse_residency_image_2d = false;
    bool sparse_residency_image_3d = false;
    bool sparse_residency_aliased = false;
    bool residency_standard_2d_block_shape = false;
    bool residency_standard_3d_block_shape = false;
    bool residency_non_resident_strict = false;
    bool residency_aligned_mip_size = false;  // true = worse: mips may go into the tail early
    bool shader_resource_residency = false;   // CheckAccessFullyMapped
    bool shader_resource_min_lod = false;     // the LOD-clamping Sample overloads
};

SparseCapabilities sparse_capabilities(const VkPhysicalDeviceFeatures& features,
                                       const VkPhysicalDeviceSparseProperties& properties);

struct TierDecision {
    D3D11_TILED_RESOURCES_TIER tier = D3D11_TILED_RESOURCES_NOT_SUPPORTED;
    // Why the tier is not 3: the missing capabilities that stop the next tier,
    // e.g. "no sparseBinding"; empty at tier 3.
    std::string reason;
};

TierDecision derive_tiled_resources_tier(const SparseCapabilities& caps);

const char* tier_name(D3D11_TILED_RESOURCES_TIER tier);

}  // namespace d3dcap::runtime::backend::vulkan
