// Creating the Vulkan device on whatever device this machine has (lavapipe
// on a machine without a GPU): the report, the tier, and the errors.
#include "runtime/vulkan/vulkan_device.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "support/skip.h"

using d3dcap::vulkan::DeviceOptions;
using d3dcap::vulkan::VulkanDevice;

TEST_CASE("the device report names the adapter and its memory types and tier") {
    auto device = VulkanDevice::create();
    if (!device) {
        // No driver at all: the message must say so plainly.
        REQUIRE(device.error().message.find("no Vulkan") == 0);
        test_support::skip_test("no Vulkan device here: " + device.error().message);
    }
    const VulkanDevice& d = **device;
    const std::string report = d.describe();
    CHECK(report.find(d.adapter().name) != std::string::npos);
    CHECK(report.find("memory type 0: heap") != std::string::npos);
    CHECK(report.find("tiled resources: ") != std::string::npos);
    CHECK(d.adapter().api_version >= VK_API_VERSION_1_3);
    CHECK(d.general_queue() != VK_NULL_HANDLE);
    // The tier from the enabled features, by the rules written out here (the
    // tier tests cover each branch of the function itself).
    const auto& e = d.enabled();
    const bool every_feature =
        e.sparse_binding && e.sparse_residency_buffer && e.sparse_residency_image_2d &&
        e.sparse_residency_image_3d && e.sparse_residency_aliased &&
        e.residency_standard_2d_block_shape && e.residency_standard_3d_block_shape &&
        e.residency_non_resident_strict && !e.residency_aligned_mip_size &&
        e.shader_resource_residency && e.shader_resource_min_lod;
    if (every_feature) {
        CHECK(d.tier().tier == D3D11_TILED_RESOURCES_TIER_3);
        CHECK(d.tier().reason.empty());
    } else {
        CHECK(d.tier().tier != D3D11_TILED_RESOURCES_TIER_3);
        CHECK_FALSE(d.tier().reason.empty());
    }
    if (!d.enabled().sparse_binding) {
        CHECK(d.tier().tier == D3D11_TILED_RESOURCES_NOT_SUPPORTED);
        CHECK(d.sparse_queue() == VK_NULL_HANDLE);
        CHECK(d.tier().reason == "no sparseBinding");
        CHECK(report.find("tiled resources: not supported (no sparseBinding)") !=
              std::string::npos);
    }
    const auto host = d.find_memory_type(~0u, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
    CHECK(host.has_value());
    CAPTURE(report);
}

TEST_CASE("a device index past the last device names the devices there are") {
    DeviceOptions options;
    options.gpu_index = 99;
    auto device = VulkanDevice::create(options);
    REQUIRE_FALSE(device);
    const std::string& error = device.error().message;
    const bool listed = error.find("Vulkan device 99 asked for, but there are") == 0;
    const bool no_driver = error.find("no Vulkan") == 0;
    CHECK((listed || no_driver));
}

TEST_CASE("D3DCAP_GPU must be a device index") {
    ::setenv("D3DCAP_GPU", "first", 1);
    auto device = VulkanDevice::create();
    ::unsetenv("D3DCAP_GPU");
    REQUIRE_FALSE(device);
    const std::string& error = device.error().message;
    CHECK((error.find("D3DCAP_GPU='first' is not a device index") == 0 ||
           error.find("no Vulkan") == 0));
}
