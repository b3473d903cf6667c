// The Vulkan features and extensions the device enables for executing D3D11
// work (samplers, shader stages, storage images, unbound slots), each where
// the adapter has it; what is missing is reported by the work that needs it.
#pragma once

#include <vulkan/vulkan_core.h>

#include <vector>

// VK_EXT_depth_bias_control, newer than the packaged headers (the
// registry's numbers and layouts).
#ifndef VK_EXT_depth_bias_control
#define VK_EXT_depth_bias_control 1
#define VK_EXT_DEPTH_BIAS_CONTROL_EXTENSION_NAME "VK_EXT_depth_bias_control"
inline constexpr auto VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_BIAS_CONTROL_FEATURES_EXT =
    static_cast<VkStructureType>(1000283000);
inline constexpr auto VK_STRUCTURE_TYPE_DEPTH_BIAS_REPRESENTATION_INFO_EXT =
    static_cast<VkStructureType>(1000283002);
typedef enum VkDepthBiasRepresentationEXT {
    VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORMAT_EXT = 0,
    VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORCE_UNORM_EXT = 1,
    VK_DEPTH_BIAS_REPRESENTATION_FLOAT_EXT = 2,
} VkDepthBiasRepresentationEXT;
typedef struct VkPhysicalDeviceDepthBiasControlFeaturesEXT {
    VkStructureType sType;
    void* pNext;
    VkBool32 depthBiasControl;
    VkBool32 leastRepresentableValueForceUnormRepresentation;
    VkBool32 floatRepresentation;
    VkBool32 depthBiasExact;
} VkPhysicalDeviceDepthBiasControlFeaturesEXT;
typedef struct VkDepthBiasRepresentationInfoEXT {
    VkStructureType sType;
    const void* pNext;
    VkDepthBiasRepresentationEXT depthBiasRepresentation;
    VkBool32 depthBiasExact;
} VkDepthBiasRepresentationInfoEXT;
#endif

namespace d3dcap::runtime::backend::vulkan {

// What was enabled, for the backend's checks.
struct ExecutionFeatures {
    bool anisotropy = false;       // D3D11_FILTER_ANISOTROPIC
    bool mirror_once = false;      // D3D11_TEXTURE_ADDRESS_MIRROR_ONCE
    bool minmax_filter = false;    // the MINIMUM_/MAXIMUM_ filters
    bool custom_border = false;    // any BorderColor
    bool null_descriptor = false;  // unbound slots read zero
    bool cube_arrays = false;      // TEXTURECUBEARRAY views
    bool storage_write_without_format = false;
    bool storage_read_without_format = false;
    bool occlusion_precise = false;  // exact sample counts in occlusion queries
    bool pipeline_statistics = false;
    bool step_rates = false;             // InstanceDataStepRate other than 1
    bool step_rate_zero = false;         // ... and 0 (every instance the same element)
    bool transform_feedback = false;     // stream output, DrawAuto, SO queries
    bool conditional_rendering = false;  // predicates evaluated on the GPU
    bool host_query_reset = false;       // vkResetQueryPool
    // DepthBias in steps of exactly the format's r (VK_EXT_depth_bias_control);
    // without it Vulkan lets r of a UNORM depth be up to twice 1 / 2^bits,
    // and the constant factor is scaled by what the driver is known to use.
    bool exact_depth_bias = false;
    float unorm_depth_bias_scale = 1.0f;
};

// The feature chain vkCreateDevice takes: every execution feature the
// adapter has, plus the ones the caller sets on features2 (sparse binding,
// logic ops). Holds the structs the chain points into; keep it alive until
// the device is created.
class FeatureChain {
  public:
    // `validation`: the Khronos validation layer is on; extensions newer than
    // the packaged layer are left out, as it reports structs it does not know.
    FeatureChain(VkPhysicalDevice physical, const std::vector<VkExtensionProperties>& extensions,
                 bool validation);
    FeatureChain(const FeatureChain&) = delete;
    FeatureChain& operator=(const FeatureChain&) = delete;

    VkPhysicalDeviceFeatures2& features2() { return features2_; }
    const std::vector<const char*>& extensions() const { return extensions_; }
    const ExecutionFeatures& enabled() const { return enabled_; }

  private:
    VkPhysicalDeviceFeatures2 features2_{};
    VkPhysicalDeviceVulkan11Features features11_{};
    VkPhysicalDeviceVulkan12Features features12_{};
    VkPhysicalDeviceVulkan13Features features13_{};
    VkPhysicalDeviceCustomBorderColorFeaturesEXT border_{};
    VkPhysicalDeviceRobustness2FeaturesEXT robustness_{};
    VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT divisor_{};
    VkPhysicalDeviceTransformFeedbackFeaturesEXT feedback_{};
    VkPhysicalDeviceConditionalRenderingFeaturesEXT conditional_{};
    VkPhysicalDeviceDepthBiasControlFeaturesEXT depth_bias_{};
    std::vector<const char*> extensions_;
    ExecutionFeatures enabled_;
};

}  // namespace d3dcap::runtime::backend::vulkan
