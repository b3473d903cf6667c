// Creating the Vulkan device on whatever device this machine has (lavapipe
// on a machine without a GPU): the report, the tier, and the errors.
#include "runtime/vulkan/vulkan_device.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

using d3dcap::vulkan::DeviceOptions;
using d3dcap::vulkan::VulkanDevice;

TEST_CASE("the device report names the adapter and its memory types and tier") {
    auto device = VulkanDevice::create();
    if (!device) {
        // No driver at all: the message must say so plainly.
        CHECK(device.error().message.find("Vulkan") != std::string::npos);
        WARN("no Vulkan device here: " << device.error().message);
        return;
    }
    const VulkanDevice& d = **device;
    const std::string report = d.describe();
    CHECK(report.find(d.adapter().name) != std::string::npos);
    CHECK(report.find("memory type 0: heap") != std::string::npos);
    CHECK(report.find("tiled resources: ") != std::string::npos);
    CHECK(d.adapter().api_version >= VK_API_VERSION_1_3);
    CHECK(d.general_queue() != VK_NULL_HANDLE);
    const auto tier = d3dcap::vulkan::derive_tiled_resources_tier(d.enabled());
    CHECK(d.tier().tier == tier.tier);
    CHECK(d.tier().reason == tier.reason);
    if (!d.enabled().sparse_binding) {
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
