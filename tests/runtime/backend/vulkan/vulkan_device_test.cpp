// Creating the Vulkan device on whatever device this machine has (lavapipe
// on a machine without a GPU): the report, the tier, the errors, and the
// validation layer, proven to count what it finds. Lavapipe and the layer are
// installed with the rest: without them these tests fail under CI.
#include "runtime/backend/vulkan/vulkan_device.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "support/skip.h"

using d3dcap::runtime::backend::vulkan::DeviceOptions;
using d3dcap::runtime::backend::vulkan::VulkanDevice;

namespace {

// Ends the case when this machine has no Vulkan device at all.
void needs_a_vulkan_device() {
    auto device = VulkanDevice::create();
    if (device) return;
    // No driver at all: the message must say so plainly.
    REQUIRE(device.error().message.find("no Vulkan") == 0);
    test_support::missing_dependency("no Vulkan device here: " + device.error().message);
}

std::unique_ptr<VulkanDevice> validated_device() {
    DeviceOptions options;
    options.validation = true;
    auto device = VulkanDevice::create(options);
    if (!device) test_support::missing_dependency(device.error().message);
    return std::move(device.value());
}

}  // namespace

TEST_CASE("the device report names the adapter and its memory types and tier") {
    needs_a_vulkan_device();
    auto device = VulkanDevice::create();
    REQUIRE(device);
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
    const bool every_feature = e.sparse_binding && e.sparse_residency_buffer &&
                               e.sparse_residency_image_2d && e.sparse_residency_image_3d &&
                               e.sparse_residency_aliased && e.residency_standard_2d_block_shape &&
                               e.residency_standard_3d_block_shape &&
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
    needs_a_vulkan_device();
    DeviceOptions options;
    options.gpu_index = 99;
    auto device = VulkanDevice::create(options);
    REQUIRE_FALSE(device);
    const std::string& error = device.error().message;
    CHECK(error.find("Vulkan device 99 asked for, but there are ") == 0);
    CHECK(error.find("\n  0: ") != std::string::npos);
}

TEST_CASE("D3DCAP_GPU must be a device index") {
    needs_a_vulkan_device();
    ::setenv("D3DCAP_GPU", "first", 1);
    auto device = VulkanDevice::create();
    ::unsetenv("D3DCAP_GPU");
    REQUIRE_FALSE(device);
    const std::string& error = device.error().message;
    CHECK(error.find("D3DCAP_GPU='first' is not a device index") == 0);
}

TEST_CASE("the validation layer counts one message for one invalid call") {
    const auto device = validated_device();
    CHECK(device->validation_enabled());
    CHECK(device->describe().find("synchronization validation on") != std::string::npos);
    const std::uint64_t before = d3dcap::runtime::backend::vulkan::validation_messages();
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = 0;  // VUID-VkBufferCreateInfo-size-00912: size must be greater than 0
    info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    vkCreateBuffer(device->device(), &info, nullptr, &buffer);
    if (buffer) vkDestroyBuffer(device->device(), buffer, nullptr);
    CHECK(d3dcap::runtime::backend::vulkan::validation_messages() - before == 1);
}

TEST_CASE("synchronization validation reports two unordered writes of one buffer") {
    const auto device = validated_device();
    const VkDevice dev = device->device();
    VkBufferCreateInfo buffer_info{};
    buffer_info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    buffer_info.size = 256;
    buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer buffer = VK_NULL_HANDLE;
    REQUIRE(vkCreateBuffer(dev, &buffer_info, nullptr, &buffer) == VK_SUCCESS);
    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(dev, buffer, &requirements);
    const auto type = device->find_memory_type(requirements.memoryTypeBits, 0);
    REQUIRE(type);
    VkMemoryAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    allocate.allocationSize = requirements.size;
    allocate.memoryTypeIndex = *type;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    REQUIRE(vkAllocateMemory(dev, &allocate, nullptr, &memory) == VK_SUCCESS);
    REQUIRE(vkBindBufferMemory(dev, buffer, memory, 0) == VK_SUCCESS);
    VkCommandPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool_info.queueFamilyIndex = device->general_family();
    VkCommandPool pool = VK_NULL_HANDLE;
    REQUIRE(vkCreateCommandPool(dev, &pool_info, nullptr, &pool) == VK_SUCCESS);
    VkCommandBufferAllocateInfo command_info{};
    command_info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    command_info.commandPool = pool;
    command_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    command_info.commandBufferCount = 1;
    VkCommandBuffer commands = VK_NULL_HANDLE;
    REQUIRE(vkAllocateCommandBuffers(dev, &command_info, &commands) == VK_SUCCESS);
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    REQUIRE(vkBeginCommandBuffer(commands, &begin) == VK_SUCCESS);

    const std::uint64_t before = d3dcap::runtime::backend::vulkan::validation_messages();
    vkCmdFillBuffer(commands, buffer, 0, 256, 1);
    CHECK(d3dcap::runtime::backend::vulkan::validation_messages() - before == 0);
    vkCmdFillBuffer(commands, buffer, 0, 256, 2);  // SYNC-HAZARD-WRITE-AFTER-WRITE: no barrier
    CHECK(d3dcap::runtime::backend::vulkan::validation_messages() - before == 1);

    vkEndCommandBuffer(commands);
    vkDestroyCommandPool(dev, pool, nullptr);
    vkDestroyBuffer(dev, buffer, nullptr);
    vkFreeMemory(dev, memory, nullptr);
}
