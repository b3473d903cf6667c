#include "runtime/backend/vulkan/tier.h"

namespace d3dcap::runtime::backend::vulkan {

SparseCapabilities sparse_capabilities(const VkPhysicalDeviceFeatures& features,
                                       const VkPhysicalDeviceSparseProperties& properties) {
    SparseCapabilities caps;
    caps.sparse_binding = features.sparseBinding;
    caps.sparse_residency_buffer = features.sparseResidencyBuffer;
    caps.sparse_residency_image_2d = features.sparseResidencyImage2D;
    caps.sparse_residency_image_3d = features.sparseResidencyImage3D;
    caps.sparse_residency_aliased = features.sparseResidencyAliased;
    caps.residency_standard_2d_block_shape = properties.residencyStandard2DBlockShape;
    caps.residency_standard_3d_block_shape = properties.residencyStandard3DBlockShape;
    caps.residency_non_resident_strict = properties.residencyNonResidentStrict;
    caps.residency_aligned_mip_size = properties.residencyAlignedMipSize;
    caps.shader_resource_residency = features.shaderResourceResidency;
    caps.shader_resource_min_lod = features.shaderResourceMinLod;
    return caps;
}

namespace {

void missing(std::string& reason, bool present, const char* what) {
    if (present) return;
    if (!reason.empty()) reason += ", ";
    reason += what;
}

}  // namespace

// The mapping, tier by tier (D3D11_TILED_RESOURCES_TIER's definitions):
//
// Tier 1 needs tiled Buffers and Texture2Ds whose tiles follow D3D's standard
// 64 KiB tile shapes, and pool tiles mapped at several places at once
// (REUSE_SINGLE_TILE, one pool tile in two resources) reading the same data:
//   sparseBinding (the base; without it nothing else is meaningful, so it is
//   reported alone), sparseResidencyBuffer, sparseResidencyImage2D,
//   residencyStandard2DBlockShape (an app's tile coordinates are in standard
//   shapes; custom Vulkan block shapes would not line up with them), and
//   sparseResidencyAliased (without it Vulkan forbids binding one memory range
//   at two places, and gives no data consistency).
// Tier 2 adds: NULL-mapped tiles read 0 and drop writes
//   (residencyNonResidentStrict); a mip at least one tile large in every
//   dimension is never packed (Vulkan may put mips that are not a multiple of
//   the block into the mip tail when residencyAlignedMipSize is set); the
//   residency-feedback and LOD-clamp shader instructions
//   (shaderResourceResidency, shaderResourceMinLod).
// Tier 3 adds tiled Texture3Ds: sparseResidencyImage3D with the standard 3D
//   block shapes (residencyStandard3DBlockShape).
//
// The block size (64 KiB, VkMemoryRequirements::alignment) and MSAA support
// (sparseResidency4Samples) are per format and sample count, so they are
// checked when a resource is created, not here.
TierDecision derive_tiled_resources_tier(const SparseCapabilities& caps) {
    TierDecision decision;
    if (!caps.sparse_binding) {
        decision.reason = "no sparseBinding";
        return decision;
    }
    std::string reason;
    missing(reason, caps.sparse_residency_buffer, "no sparseResidencyBuffer");
    missing(reason, caps.sparse_residency_image_2d, "no sparseResidencyImage2D");
    missing(reason, caps.residency_standard_2d_block_shape, "no residencyStandard2DBlockShape");
    missing(reason, caps.sparse_residency_aliased, "no sparseResidencyAliased");
    if (!reason.empty()) {
        decision.reason = reason;
        return decision;
    }
    decision.tier = D3D11_TILED_RESOURCES_TIER_1;
    missing(reason, caps.residency_non_resident_strict, "no residencyNonResidentStrict");
    missing(reason, !caps.residency_aligned_mip_size,
            "residencyAlignedMipSize (mips of at least one tile may be packed)");
    missing(reason, caps.shader_resource_residency, "no shaderResourceResidency");
    missing(reason, caps.shader_resource_min_lod, "no shaderResourceMinLod");
    if (!reason.empty()) {
        decision.reason = reason;
        return decision;
    }
    decision.tier = D3D11_TILED_RESOURCES_TIER_2;
    missing(reason, caps.sparse_residency_image_3d, "no sparseResidencyImage3D");
    missing(reason, caps.residency_standard_3d_block_shape, "no residencyStandard3DBlockShape");
    if (!reason.empty()) {
        decision.reason = reason;
        return decision;
    }
    decision.tier = D3D11_TILED_RESOURCES_TIER_3;
    return decision;
}

const char* tier_name(D3D11_TILED_RESOURCES_TIER tier) {
    switch (tier) {
        case D3D11_TILED_RESOURCES_NOT_SUPPORTED:
            return "not supported";
        case D3D11_TILED_RESOURCES_TIER_1:
            return "tier 1";
        case D3D11_TILED_RESOURCES_TIER_2:
            return "tier 2";
        case D3D11_TILED_RESOURCES_TIER_3:
            return "tier 3";
    }
    return "unknown tier";
}

}  // namespace d3dcap::runtime::backend::vulkan
