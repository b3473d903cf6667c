// The Vulkan instance, physical device and logical device that the runtime's
// HARDWARE device will run on: Vulkan 1.3 through the system loader, the
// sparse-residency features that D3D11 tiled resources need, and a report of
// the adapter. Errors come back as messages (no exceptions).
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/backend/vulkan/execution_features.h"
#include "runtime/backend/vulkan/status.h"
#include "runtime/backend/vulkan/tier.h"

namespace d3dcap::runtime::backend::vulkan {

struct MemoryTypeInfo {
    std::uint32_t index = 0;
    VkMemoryPropertyFlags flags = 0;
    std::uint32_t heap = 0;
    VkDeviceSize heap_size = 0;
    VkMemoryHeapFlags heap_flags = 0;
};

struct QueueFamilyInfo {
    std::uint32_t index = 0;
    VkQueueFlags flags = 0;
    std::uint32_t count = 0;
};

// What the adapter is and supports, before any device is created.
struct AdapterInfo {
    std::uint32_t index = 0;  // in vkEnumeratePhysicalDevices order (what D3DCAP_GPU selects)
    std::string name;
    VkPhysicalDeviceType type = VK_PHYSICAL_DEVICE_TYPE_OTHER;
    std::uint32_t vendor_id = 0, device_id = 0;
    std::uint32_t api_version = 0;
    std::uint32_t driver_version = 0;  // as reported; vendor-specific encoding
    std::string driver_version_text;   // decoded (NVIDIA's and Mesa's encodings)
    std::string driver_name, driver_info;
    std::vector<MemoryTypeInfo> memory_types;
    std::uint64_t device_local_bytes = 0;  // the largest DEVICE_LOCAL heap
    // VkPhysicalDeviceIDProperties: the LUID when the driver gives one, else
    // the first 8 bytes of the device UUID (stable for one GPU and driver).
    std::array<std::uint8_t, 8> luid{};
    std::vector<QueueFamilyInfo> queue_families;
    SparseCapabilities sparse;  // what the adapter supports
    bool timeline_semaphore = false;
    bool logic_op = false;                           // VkPhysicalDeviceFeatures::logicOp
    std::uint64_t min_texel_buffer_alignment = 256;  // minTexelBufferOffsetAlignment
    float max_sampler_lod_bias = 0, max_sampler_anisotropy = 1;
    // Constant-buffer windows bind as dynamic offsets where they fit these.
    std::uint32_t max_dynamic_uniform_buffers = 0;     // maxDescriptorSetUniformBuffersDynamic
    std::uint64_t min_uniform_buffer_alignment = 256;  // minUniformBufferOffsetAlignment
};

const char* device_type_name(VkPhysicalDeviceType type);
std::string memory_flags_text(VkMemoryPropertyFlags flags);
std::string queue_flags_text(VkQueueFlags flags);

struct DeviceOptions {
    // Physical device index; unset: the D3DCAP_GPU environment variable, or
    // else the first discrete GPU (then integrated, virtual, CPU).
    std::optional<std::uint32_t> gpu_index;
    // The first CPU adapter (lavapipe) instead, whatever D3DCAP_GPU says.
    bool cpu_adapter = false;
    bool debug_utils = true;  // enable VK_EXT_debug_utils when the loader has it
    // Run under the Khronos validation layer with synchronization validation,
    // counting every message (validation_messages()); creation fails when the
    // layer or its messenger cannot be had. Also set by D3DCAP_VULKAN_VALIDATION=1.
    bool validation = false;
};

// True once the process has begun to exit (exit(), or a return from main)
// after a Vulkan device was created. Drivers tear themselves down in exit
// handlers of their own, which run before the program's static destructors;
// a device released from one of those then leaves its Vulkan objects to the
// end of the process instead of calling into the driver.
bool process_exiting();

// Warnings and errors the validation layer (DeviceOptions::validation, or
// enabled from outside with VK_INSTANCE_LAYERS) has reported so far.
std::uint64_t validation_messages();

class VulkanDevice {
  public:
    static Expected<std::unique_ptr<VulkanDevice>> create(const DeviceOptions& options = {});
    ~VulkanDevice();
    VulkanDevice(const VulkanDevice&) = delete;
    VulkanDevice& operator=(const VulkanDevice&) = delete;

    VkInstance instance() const { return instance_; }
    bool validation_enabled() const { return validation_; }
    VkPhysicalDevice physical_device() const { return physical_; }
    VkDevice device() const { return device_; }
    const AdapterInfo& adapter() const { return adapter_; }
    // Every adapter the loader listed (the chosen one is adapter()).
    const std::vector<AdapterInfo>& adapters() const { return adapters_; }

    // Graphics + compute + transfer work.
    std::uint32_t general_family() const { return general_family_; }
    VkQueue general_queue() const { return general_queue_; }
    // vkQueueBindSparse; VK_NULL_HANDLE without sparseBinding. A queue of its
    // own where the family has two, so binds do not wait behind rendering.
    std::uint32_t sparse_family() const { return sparse_family_; }
    VkQueue sparse_queue() const { return sparse_queue_; }

    // The sparse features enabled on the device, and the tier they give.
    const SparseCapabilities& enabled() const { return enabled_; }
    const TierDecision& tier() const { return tier_; }
    // The features for executing D3D11 work that the device enabled.
    const ExecutionFeatures& execution() const { return execution_; }
    bool debug_utils_enabled() const { return messenger_ != VK_NULL_HANDLE; }

    // A memory type in type_bits with all of `required`, preferring one with
    // `preferred` too.
    std::optional<std::uint32_t> find_memory_type(std::uint32_t type_bits,
                                                  VkMemoryPropertyFlags required,
                                                  VkMemoryPropertyFlags preferred = 0) const;

    // The adapter report: name, driver, queues, memory, sparse features, tier.
    std::string describe() const;

  private:
    VulkanDevice() = default;
    Status init(const DeviceOptions& options);

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    bool validation_ = false;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    std::uint32_t general_family_ = 0, sparse_family_ = 0;
    VkQueue general_queue_ = VK_NULL_HANDLE, sparse_queue_ = VK_NULL_HANDLE;
    AdapterInfo adapter_;
    std::vector<AdapterInfo> adapters_;
    SparseCapabilities enabled_;
    ExecutionFeatures execution_;
    TierDecision tier_;
};

}  // namespace d3dcap::runtime::backend::vulkan
