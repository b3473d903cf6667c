#include "runtime/backend/vulkan/vulkan_device.h"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>

namespace d3dcap::runtime::backend::vulkan {

const char* vk_result_name(VkResult result) {
    switch (result) {
#define D3DCAP_VK_RESULT(name) \
    case name:                 \
        return #name;
        D3DCAP_VK_RESULT(VK_SUCCESS)
        D3DCAP_VK_RESULT(VK_NOT_READY)
        D3DCAP_VK_RESULT(VK_TIMEOUT)
        D3DCAP_VK_RESULT(VK_EVENT_SET)
        D3DCAP_VK_RESULT(VK_EVENT_RESET)
        D3DCAP_VK_RESULT(VK_INCOMPLETE)
        D3DCAP_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
        D3DCAP_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        D3DCAP_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
        D3DCAP_VK_RESULT(VK_ERROR_DEVICE_LOST)
        D3DCAP_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
        D3DCAP_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
        D3DCAP_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
        D3DCAP_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
        D3DCAP_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
        D3DCAP_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
        D3DCAP_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
        D3DCAP_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
        D3DCAP_VK_RESULT(VK_ERROR_UNKNOWN)
        D3DCAP_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
        D3DCAP_VK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
        D3DCAP_VK_RESULT(VK_ERROR_FRAGMENTATION)
        D3DCAP_VK_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
#undef D3DCAP_VK_RESULT
        default:
            return "VkResult (unnamed)";
    }
}

const char* device_type_name(VkPhysicalDeviceType type) {
    switch (type) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
            return "discrete GPU";
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
            return "integrated GPU";
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
            return "virtual GPU";
        case VK_PHYSICAL_DEVICE_TYPE_CPU:
            return "CPU";
        default:
            return "other";
    }
}

namespace {

std::atomic<bool> g_process_exiting{false};

// Registered after the first vkCreateDevice, so after the driver's own exit
// handlers, so that it runs before them (exit handlers run last-in first-out).
void watch_process_exit() {
    static std::once_flag once;
    std::call_once(once, [] { std::atexit([] { g_process_exiting.store(true); }); });
}

void append_flag(std::string& text, bool set, const char* name) {
    if (!set) return;
    if (!text.empty()) text += ' ';
    text += name;
}

std::string format(const char* fmt, auto... args) {
    char buffer[512];
    std::snprintf(buffer, sizeof buffer, fmt, args...);
    return buffer;
}

std::string version_text(std::uint32_t v) {
    return format("%u.%u.%u", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v),
                  VK_API_VERSION_PATCH(v));
}

// NVIDIA packs 10.8.8.6 bits; Mesa and most others use the API-version layout.
std::string driver_version_text(std::uint32_t vendor, std::uint32_t v) {
    if (vendor == 0x10de) {
        return format("%u.%u.%u", (v >> 22) & 0x3ff, (v >> 14) & 0xff, (v >> 6) & 0xff);
    }
    return version_text(v);
}

std::string gib(VkDeviceSize bytes) {
    return format("%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
}

std::atomic<std::uint64_t> g_validation_messages{0};

VKAPI_ATTR VkBool32 VKAPI_CALL debug_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                             VkDebugUtilsMessageTypeFlagsEXT type,
                                             const VkDebugUtilsMessengerCallbackDataEXT* data,
                                             void*) {
    if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT && data && data->pMessage) {
        std::fprintf(stderr, "vulkan: %s\n", data->pMessage);
        if (type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) ++g_validation_messages;
    }
    return VK_FALSE;
}

AdapterInfo query_adapter(VkPhysicalDevice physical, std::uint32_t index) {
    AdapterInfo info;
    info.index = index;
    VkPhysicalDeviceIDProperties ids{};
    ids.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
    VkPhysicalDeviceDriverProperties driver{};
    driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
    driver.pNext = &ids;
    VkPhysicalDeviceProperties2 properties{};
    properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    VkPhysicalDeviceProperties basic{};
    vkGetPhysicalDeviceProperties(physical, &basic);
    // Properties2 and its driver block need a 1.1 / 1.2 device.
    if (basic.apiVersion >= VK_API_VERSION_1_2) {
        properties.pNext = &driver;
        vkGetPhysicalDeviceProperties2(physical, &properties);
        info.driver_name = driver.driverName;
        info.driver_info = driver.driverInfo;
        const std::uint8_t* luid = ids.deviceLUIDValid ? ids.deviceLUID : ids.deviceUUID;
        std::copy(luid, luid + 8, info.luid.begin());
    }
    info.name = basic.deviceName;
    info.type = basic.deviceType;
    info.vendor_id = basic.vendorID;
    info.device_id = basic.deviceID;
    info.api_version = basic.apiVersion;
    info.min_texel_buffer_alignment = basic.limits.minTexelBufferOffsetAlignment;
    info.max_sampler_lod_bias = basic.limits.maxSamplerLodBias;
    info.max_dynamic_uniform_buffers = basic.limits.maxDescriptorSetUniformBuffersDynamic;
    info.min_uniform_buffer_alignment = basic.limits.minUniformBufferOffsetAlignment;
    info.max_sampler_anisotropy = basic.limits.maxSamplerAnisotropy;
    info.driver_version = basic.driverVersion;
    info.driver_version_text = driver_version_text(basic.vendorID, basic.driverVersion);

    VkPhysicalDeviceFeatures2 features{};
    features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    VkPhysicalDeviceVulkan12Features features12{};
    features12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    if (basic.apiVersion >= VK_API_VERSION_1_2) {
        features.pNext = &features12;
        vkGetPhysicalDeviceFeatures2(physical, &features);
    } else {
        vkGetPhysicalDeviceFeatures(physical, &features.features);
    }
    info.sparse = sparse_capabilities(features.features, basic.sparseProperties);
    info.timeline_semaphore = features12.timelineSemaphore;
    info.logic_op = features.features.logicOp != VK_FALSE;

    VkPhysicalDeviceMemoryProperties memory{};
    vkGetPhysicalDeviceMemoryProperties(physical, &memory);
    for (std::uint32_t i = 0; i < memory.memoryHeapCount; ++i) {
        if (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            info.device_local_bytes =
                std::max<std::uint64_t>(info.device_local_bytes, memory.memoryHeaps[i].size);
    }
    for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
        const VkMemoryType& type = memory.memoryTypes[i];
        info.memory_types.push_back({i, type.propertyFlags, type.heapIndex,
                                     memory.memoryHeaps[type.heapIndex].size,
                                     memory.memoryHeaps[type.heapIndex].flags});
    }
    std::uint32_t family_count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, nullptr);
    std::vector<VkQueueFamilyProperties> families(family_count);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &family_count, families.data());
    for (std::uint32_t i = 0; i < family_count; ++i) {
        info.queue_families.push_back({i, families[i].queueFlags, families[i].queueCount});
    }
    return info;
}

std::string adapter_list(const std::vector<AdapterInfo>& adapters) {
    std::string text;
    for (const AdapterInfo& a : adapters) {
        text += format("\n  %u: %s (%s, Vulkan %s)", a.index, a.name.c_str(),
                       device_type_name(a.type), version_text(a.api_version).c_str());
    }
    return text;
}

// The default choice: the first discrete GPU, then integrated, virtual, CPU.
std::uint32_t default_adapter(const std::vector<AdapterInfo>& adapters) {
    for (VkPhysicalDeviceType type :
         {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU, VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU,
          VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU, VK_PHYSICAL_DEVICE_TYPE_CPU}) {
        for (const AdapterInfo& a : adapters) {
            if (a.type == type && a.api_version >= VK_API_VERSION_1_3) return a.index;
        }
    }
    return 0;
}

bool has_extension(const std::vector<VkExtensionProperties>& list, const char* name) {
    for (const VkExtensionProperties& e : list) {
        if (std::strcmp(e.extensionName, name) == 0) return true;
    }
    return false;
}

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool env_flag(const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr && std::string(value) == "1";
}

// Whether the loader finds the instance layer, and the extensions it brings.
bool layer_installed(const char* name, std::vector<VkExtensionProperties>& extensions) {
    std::uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    for (const VkLayerProperties& layer : layers) {
        if (std::string(layer.layerName) != name) continue;
        std::uint32_t extension_count = 0;
        vkEnumerateInstanceExtensionProperties(name, &extension_count, nullptr);
        extensions.resize(extension_count);
        vkEnumerateInstanceExtensionProperties(name, &extension_count, extensions.data());
        return true;
    }
    return false;
}

}  // namespace

std::uint64_t validation_messages() {
    return g_validation_messages.load();
}

std::string memory_flags_text(VkMemoryPropertyFlags flags) {
    std::string text;
    append_flag(text, flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, "device-local");
    append_flag(text, flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, "host-visible");
    append_flag(text, flags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, "host-coherent");
    append_flag(text, flags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT, "host-cached");
    append_flag(text, flags & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT, "lazily-allocated");
    append_flag(text, flags & VK_MEMORY_PROPERTY_PROTECTED_BIT, "protected");
    return text.empty() ? "none" : text;
}

std::string queue_flags_text(VkQueueFlags flags) {
    std::string text;
    append_flag(text, flags & VK_QUEUE_GRAPHICS_BIT, "graphics");
    append_flag(text, flags & VK_QUEUE_COMPUTE_BIT, "compute");
    append_flag(text, flags & VK_QUEUE_TRANSFER_BIT, "transfer");
    append_flag(text, flags & VK_QUEUE_SPARSE_BINDING_BIT, "sparse");
    return text.empty() ? "none" : text;
}

Expected<std::unique_ptr<VulkanDevice>> VulkanDevice::create(const DeviceOptions& options) {
    try {
        std::unique_ptr<VulkanDevice> device(new VulkanDevice());
        Status status = device->init(options);
        if (!status) return status.error();
        return device;
    } catch (const std::exception& e) {
        return Error{std::string("creating the Vulkan device: ") + e.what()};
    }
}

Status VulkanDevice::init(const DeviceOptions& options) {
    std::uint32_t loader_version = VK_API_VERSION_1_0;
    vkEnumerateInstanceVersion(&loader_version);
    if (loader_version < VK_API_VERSION_1_3) {
        return Error{"the Vulkan loader supports Vulkan " + version_text(loader_version) +
                     "; d3dcap needs 1.3"};
    }

    std::uint32_t count = 0;
    vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data());
    std::vector<const char*> enabled_extensions;
    std::vector<const char*> enabled_layers;
    validation_ = options.validation || env_flag("D3DCAP_VULKAN_VALIDATION");
    // Synchronization validation too: hazards between commands are what a
    // missing barrier leaves, and the rest of the layer does not see them.
    const VkValidationFeatureEnableEXT validation_checks[] = {
        VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT validation_features{};
    validation_features.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT;
    validation_features.enabledValidationFeatureCount = 1;
    validation_features.pEnabledValidationFeatures = validation_checks;
    if (validation_) {
        std::vector<VkExtensionProperties> layer_extensions;
        if (!layer_installed(kValidationLayer, layer_extensions)) {
            return Error{std::string("the Khronos validation layer (") + kValidationLayer +
                         ") was asked for (D3DCAP_VULKAN_VALIDATION=1) but is not installed: "
                         "install vulkan-validationlayers, or name its folder in VK_LAYER_PATH"};
        }
        if (!has_extension(layer_extensions, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
            return Error{std::string(kValidationLayer) + " has no " +
                         VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME +
                         ": synchronization validation cannot be enabled"};
        }
        enabled_layers.push_back(kValidationLayer);
        enabled_extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
        extensions.insert(extensions.end(), layer_extensions.begin(), layer_extensions.end());
    }
    const bool debug_utils = (options.debug_utils || validation_) &&
                             has_extension(extensions, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (debug_utils) enabled_extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (validation_ && !debug_utils) {
        return Error{
            "the validation layer's messages need VK_EXT_debug_utils, which neither "
            "the loader nor the layer has"};
    }

    VkApplicationInfo app{};
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pApplicationName = "d3dcap";
    app.pEngineName = "d3dcap";
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo instance_info{};
    instance_info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    instance_info.pApplicationInfo = &app;
    instance_info.enabledExtensionCount = static_cast<std::uint32_t>(enabled_extensions.size());
    instance_info.ppEnabledExtensionNames = enabled_extensions.data();
    instance_info.enabledLayerCount = static_cast<std::uint32_t>(enabled_layers.size());
    instance_info.ppEnabledLayerNames = enabled_layers.data();
    if (validation_) instance_info.pNext = &validation_features;
    VkResult result = vkCreateInstance(&instance_info, nullptr, &instance_);
    if (result == VK_ERROR_INCOMPATIBLE_DRIVER) {
        return Error{
            "no Vulkan driver found (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER); install a "
            "GPU driver or mesa-vulkan-drivers, or name its ICD file in VK_DRIVER_FILES"};
    }
    if (result != VK_SUCCESS) return vk_error("vkCreateInstance", result);

    if (debug_utils) {
        auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
        VkDebugUtilsMessengerCreateInfoEXT messenger_info{};
        messenger_info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
        messenger_info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                         VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        // Not the performance hints: images stay in the GENERAL layout by design.
        messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                     VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
        messenger_info.pfnUserCallback = debug_message;
        if (!create_messenger ||
            create_messenger(instance_, &messenger_info, nullptr, &messenger_) != VK_SUCCESS) {
            messenger_ = VK_NULL_HANDLE;
            // Without the messenger the layer's messages would go uncounted.
            if (validation_) return Error{"cannot create the validation layer's messenger"};
        }
    }

    vkEnumeratePhysicalDevices(instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> physicals(count);
    result = vkEnumeratePhysicalDevices(instance_, &count, physicals.data());
    if (result != VK_SUCCESS && result != VK_INCOMPLETE) {
        return vk_error("vkEnumeratePhysicalDevices", result);
    }
    if (count == 0) return Error{"no Vulkan device found (the loader listed none)"};
    for (std::uint32_t i = 0; i < count; ++i) adapters_.push_back(query_adapter(physicals[i], i));

    std::uint32_t chosen = 0;
    if (options.gpu_index) {
        chosen = *options.gpu_index;
    } else if (options.cpu_adapter) {
        const auto cpu = std::find_if(adapters_.begin(), adapters_.end(), [](const AdapterInfo& a) {
            return a.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
        });
        if (cpu == adapters_.end()) {
            return Error{
                "no CPU Vulkan device (lavapipe, in Debian's mesa-vulkan-drivers); the "
                "Vulkan devices are:" +
                adapter_list(adapters_)};
        }
        chosen = cpu->index;
    } else if (const char* env = std::getenv("D3DCAP_GPU"); env && *env) {
        char* end = nullptr;
        unsigned long value = std::strtoul(env, &end, 10);
        if (*end != '\0' || value > 0xffffffffUL) {
            return Error{
                std::string("D3DCAP_GPU='") + env +
                "' is not a device index; the Vulkan devices are:" + adapter_list(adapters_)};
        }
        chosen = static_cast<std::uint32_t>(value);
    } else {
        chosen = default_adapter(adapters_);
    }
    if (chosen >= count) {
        return Error{format("Vulkan device %u asked for, but there are %u:", chosen, count) +
                     adapter_list(adapters_)};
    }
    physical_ = physicals[chosen];
    adapter_ = adapters_[chosen];
    if (adapter_.api_version < VK_API_VERSION_1_3) {
        return Error{"Vulkan device " + std::to_string(chosen) + " (" + adapter_.name +
                     ") supports Vulkan " + version_text(adapter_.api_version) +
                     "; d3dcap needs 1.3"};
    }
    if (!adapter_.timeline_semaphore) {
        return Error{"Vulkan device " + adapter_.name + " has no timelineSemaphore"};
    }

    // Queues: one family for graphics + compute (+ transfer, implied), and the
    // same or another family for sparse binds.
    const auto& families = adapter_.queue_families;
    std::optional<std::uint32_t> general, sparse;
    for (const QueueFamilyInfo& f : families) {
        if ((f.flags & VK_QUEUE_GRAPHICS_BIT) && (f.flags & VK_QUEUE_COMPUTE_BIT) && f.count > 0) {
            general = f.index;
            break;
        }
    }
    if (!general) {
        return Error{"Vulkan device " + adapter_.name +
                     " has no queue family with graphics, compute and transfer"};
    }
    if (adapter_.sparse.sparse_binding) {
        if (families[*general].flags & VK_QUEUE_SPARSE_BINDING_BIT) {
            sparse = general;
        } else {
            for (const QueueFamilyInfo& f : families) {
                if ((f.flags & VK_QUEUE_SPARSE_BINDING_BIT) && f.count > 0) {
                    sparse = f.index;
                    break;
                }
            }
        }
    }
    general_family_ = *general;
    sparse_family_ = sparse.value_or(*general);
    const bool shared_family = sparse && *sparse == *general;
    const bool own_sparse_queue = shared_family && families[*general].count >= 2;

    const float priorities[2] = {1.0f, 1.0f};
    VkDeviceQueueCreateInfo queues[2]{};
    std::uint32_t queue_count = 1;
    queues[0].sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    queues[0].queueFamilyIndex = *general;
    queues[0].queueCount = own_sparse_queue ? 2 : 1;
    queues[0].pQueuePriorities = priorities;
    if (sparse && !shared_family) {
        queues[1].sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
        queues[1].queueFamilyIndex = *sparse;
        queues[1].queueCount = 1;
        queues[1].pQueuePriorities = priorities;
        queue_count = 2;
    }

    // Every sparse feature the adapter has (the tier follows from them),
    // and every feature executing D3D11 work uses.
    std::uint32_t extension_count = 0;
    vkEnumerateDeviceExtensionProperties(physical_, nullptr, &extension_count, nullptr);
    std::vector<VkExtensionProperties> device_extensions(extension_count);
    vkEnumerateDeviceExtensionProperties(physical_, nullptr, &extension_count,
                                         device_extensions.data());
    FeatureChain chain(physical_, device_extensions, validation_);
    const SparseCapabilities& has = adapter_.sparse;
    VkPhysicalDeviceFeatures all{};
    vkGetPhysicalDeviceFeatures(physical_, &all);
    VkPhysicalDeviceFeatures& f = chain.features2().features;
    f.sparseBinding = has.sparse_binding;
    f.sparseResidencyBuffer = has.sparse_residency_buffer;
    f.sparseResidencyImage2D = has.sparse_residency_image_2d;
    f.sparseResidencyImage3D = has.sparse_residency_image_3d;
    f.sparseResidencyAliased = has.sparse_residency_aliased;
    f.sparseResidency4Samples = all.sparseResidency4Samples;  // 4x MSAA tiled textures
    f.shaderResourceResidency = has.shader_resource_residency;
    f.shaderResourceMinLod = has.shader_resource_min_lod;
    f.logicOp = adapter_.logic_op;  // D3D11_LOGIC_OP in blend states

    VkDeviceCreateInfo device_info{};
    device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    device_info.pNext = &chain.features2();
    device_info.enabledExtensionCount = static_cast<std::uint32_t>(chain.extensions().size());
    device_info.ppEnabledExtensionNames = chain.extensions().data();
    device_info.queueCreateInfoCount = queue_count;
    device_info.pQueueCreateInfos = queues;
    result = vkCreateDevice(physical_, &device_info, nullptr, &device_);
    if (result != VK_SUCCESS) {
        device_ = VK_NULL_HANDLE;
        return vk_error("vkCreateDevice on " + adapter_.name, result);
    }
    watch_process_exit();
    vkGetDeviceQueue(device_, *general, 0, &general_queue_);
    if (sparse) {
        vkGetDeviceQueue(device_, *sparse, own_sparse_queue ? 1 : 0, &sparse_queue_);
    }
    enabled_ = has;
    execution_ = chain.enabled();
    tier_ = derive_tiled_resources_tier(enabled_);
    return {};
}

bool process_exiting() {
    return g_process_exiting.load();
}

VulkanDevice::~VulkanDevice() {
    if (process_exiting()) return;  // the driver may be gone already
    if (device_) {
        vkDeviceWaitIdle(device_);
        vkDestroyDevice(device_, nullptr);
    }
    if (messenger_) {
        auto destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroy_messenger) destroy_messenger(instance_, messenger_, nullptr);
    }
    if (instance_) vkDestroyInstance(instance_, nullptr);
}

std::optional<std::uint32_t> VulkanDevice::find_memory_type(std::uint32_t type_bits,
                                                            VkMemoryPropertyFlags required,
                                                            VkMemoryPropertyFlags preferred) const {
    std::optional<std::uint32_t> fallback;
    for (const MemoryTypeInfo& t : adapter_.memory_types) {
        if (!(type_bits & (1u << t.index)) || (t.flags & required) != required) continue;
        if ((t.flags & preferred) == preferred) return t.index;
        if (!fallback) fallback = t.index;
    }
    return fallback;
}

std::string VulkanDevice::describe() const {
    const AdapterInfo& a = adapter_;
    std::string text =
        format("Vulkan device %u: %s (%s, vendor 0x%04x, device 0x%04x), Vulkan %s\n", a.index,
               a.name.c_str(), device_type_name(a.type), a.vendor_id, a.device_id,
               version_text(a.api_version).c_str());
    text += format("driver: %s %s (driverVersion %s, raw 0x%08x)\n", a.driver_name.c_str(),
                   a.driver_info.c_str(), a.driver_version_text.c_str(), a.driver_version);
    for (const QueueFamilyInfo& q : a.queue_families) {
        text += format("queue family %u: %s, %u queues\n", q.index,
                       queue_flags_text(q.flags).c_str(), q.count);
    }
    text += format("work on queue family %u; sparse binds on %s\n", general_family_,
                   sparse_queue_ ? format("queue family %u%s", sparse_family_,
                                          sparse_queue_ != general_queue_ ? " (own queue)" : "")
                                       .c_str()
                                 : "no queue (no sparseBinding)");
    for (const MemoryTypeInfo& m : a.memory_types) {
        text += format("memory type %u: heap %u (%s%s), %s\n", m.index, m.heap,
                       gib(m.heap_size).c_str(),
                       (m.heap_flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) ? ", device-local" : "",
                       memory_flags_text(m.flags).c_str());
    }
    const SparseCapabilities& s = enabled_;
    auto yn = [](bool b) { return b ? "yes" : "no"; };
    text += format(
        "sparse: binding %s, residency buffer %s, image2D %s, image3D %s, aliased %s; "
        "standard 2D/3D block shapes %s/%s, non-resident strict %s, aligned mip size %s; "
        "shader residency %s, min LOD %s\n",
        yn(s.sparse_binding), yn(s.sparse_residency_buffer), yn(s.sparse_residency_image_2d),
        yn(s.sparse_residency_image_3d), yn(s.sparse_residency_aliased),
        yn(s.residency_standard_2d_block_shape), yn(s.residency_standard_3d_block_shape),
        yn(s.residency_non_resident_strict), yn(s.residency_aligned_mip_size),
        yn(s.shader_resource_residency), yn(s.shader_resource_min_lod));
    text += std::string("tiled resources: ") + tier_name(tier_.tier) +
            (tier_.reason.empty() ? "" : " (" + tier_.reason + ")") + "\n";
    text += std::string("VK_EXT_debug_utils: ") + (messenger_ ? "enabled" : "not enabled") + "\n";
    if (validation_) text += "validation: the Khronos layer, synchronization validation on\n";
    return text;
}

}  // namespace d3dcap::runtime::backend::vulkan
