// The tiled-resources tier of a Vulkan device, branch by branch.
#include "runtime/backend/vulkan/tier.h"

#include <catch2/catch.hpp>

using d3dcap::runtime::backend::vulkan::derive_tiled_resources_tier;
using d3dcap::runtime::backend::vulkan::SparseCapabilities;

namespace {

SparseCapabilities full() {
    SparseCapabilities c;
    c.sparse_binding = c.sparse_residency_buffer = c.sparse_residency_image_2d = true;
    c.sparse_residency_image_3d = c.sparse_residency_aliased = true;
    c.residency_standard_2d_block_shape = c.residency_standard_3d_block_shape = true;
    c.residency_non_resident_strict = true;
    c.residency_aligned_mip_size = false;
    c.shader_resource_residency = c.shader_resource_min_lod = true;
    return c;
}

}  // namespace

TEST_CASE("a device with every sparse feature is tier 3") {
    const auto d = derive_tiled_resources_tier(full());
    CHECK(d.tier == D3D11_TILED_RESOURCES_TIER_3);
    CHECK(d.reason.empty());
}

TEST_CASE("no sparseBinding (lavapipe) is not supported, for that reason alone") {
    const auto d = derive_tiled_resources_tier(SparseCapabilities{});
    CHECK(d.tier == D3D11_TILED_RESOURCES_NOT_SUPPORTED);
    CHECK(d.reason == "no sparseBinding");
    SparseCapabilities c = full();
    c.sparse_binding = false;
    CHECK(derive_tiled_resources_tier(c).reason == "no sparseBinding");
}

TEST_CASE("each tier 1 requirement missing makes tiled resources unsupported") {
    auto check_missing = [](bool SparseCapabilities::*field, const char* reason) {
        SparseCapabilities c = full();
        c.*field = false;
        const auto d = derive_tiled_resources_tier(c);
        CHECK(d.tier == D3D11_TILED_RESOURCES_NOT_SUPPORTED);
        CHECK(d.reason == reason);
    };
    check_missing(&SparseCapabilities::sparse_residency_buffer, "no sparseResidencyBuffer");
    check_missing(&SparseCapabilities::sparse_residency_image_2d, "no sparseResidencyImage2D");
    check_missing(&SparseCapabilities::residency_standard_2d_block_shape,
                  "no residencyStandard2DBlockShape");
    check_missing(&SparseCapabilities::sparse_residency_aliased, "no sparseResidencyAliased");

    SparseCapabilities only_binding;
    only_binding.sparse_binding = true;
    CHECK(derive_tiled_resources_tier(only_binding).reason ==
          "no sparseResidencyBuffer, no sparseResidencyImage2D, "
          "no residencyStandard2DBlockShape, no sparseResidencyAliased");
}

TEST_CASE("each tier 2 requirement missing gives tier 1") {
    auto check_tier1 = [](SparseCapabilities c, const char* reason) {
        const auto d = derive_tiled_resources_tier(c);
        CHECK(d.tier == D3D11_TILED_RESOURCES_TIER_1);
        CHECK(d.reason == reason);
    };
    SparseCapabilities c = full();
    c.residency_non_resident_strict = false;
    check_tier1(c, "no residencyNonResidentStrict");
    c = full();
    c.residency_aligned_mip_size = true;
    check_tier1(c, "residencyAlignedMipSize (mips of at least one tile may be packed)");
    c = full();
    c.shader_resource_residency = false;
    check_tier1(c, "no shaderResourceResidency");
    c = full();
    c.shader_resource_min_lod = false;
    check_tier1(c, "no shaderResourceMinLod");
    // Tier 3 features do not lift a device past tier 1.
    c = full();
    c.residency_non_resident_strict = false;
    c.sparse_residency_image_3d = false;
    check_tier1(c, "no residencyNonResidentStrict");
}

TEST_CASE("each tier 3 requirement missing gives tier 2") {
    SparseCapabilities c = full();
    c.sparse_residency_image_3d = false;
    auto d = derive_tiled_resources_tier(c);
    CHECK(d.tier == D3D11_TILED_RESOURCES_TIER_2);
    CHECK(d.reason == "no sparseResidencyImage3D");
    c = full();
    c.residency_standard_3d_block_shape = false;
    d = derive_tiled_resources_tier(c);
    CHECK(d.tier == D3D11_TILED_RESOURCES_TIER_2);
    CHECK(d.reason == "no residencyStandard3DBlockShape");
    c.sparse_residency_image_3d = false;
    CHECK(derive_tiled_resources_tier(c).reason ==
          "no sparseResidencyImage3D, no residencyStandard3DBlockShape");
}

TEST_CASE("the capabilities are read from the Vulkan feature and property fields") {
    VkPhysicalDeviceFeatures f{};
    VkPhysicalDeviceSparseProperties p{};
    f.sparseBinding = f.sparseResidencyImage2D = f.sparseResidencyAliased = VK_TRUE;
    f.shaderResourceMinLod = VK_TRUE;
    p.residencyStandard3DBlockShape = p.residencyAlignedMipSize = VK_TRUE;
    const auto c = d3dcap::runtime::backend::vulkan::sparse_capabilities(f, p);
    CHECK(c.sparse_binding);
    CHECK_FALSE(c.sparse_residency_buffer);
    CHECK(c.sparse_residency_image_2d);
    CHECK_FALSE(c.sparse_residency_image_3d);
    CHECK(c.sparse_residency_aliased);
    CHECK_FALSE(c.residency_standard_2d_block_shape);
    CHECK(c.residency_standard_3d_block_shape);
    CHECK_FALSE(c.residency_non_resident_strict);
    CHECK(c.residency_aligned_mip_size);
    CHECK_FALSE(c.shader_resource_residency);
    CHECK(c.shader_resource_min_lod);
    CHECK(std::string(d3dcap::runtime::backend::vulkan::tier_name(D3D11_TILED_RESOURCES_TIER_2)) ==
          "tier 2");
    CHECK(std::string(d3dcap::runtime::backend::vulkan::tier_name(
              D3D11_TILED_RESOURCES_NOT_SUPPORTED)) == "not supported");
}
