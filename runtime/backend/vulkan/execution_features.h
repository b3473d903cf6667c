// The Vulkan features and extensions the device enables for executing D3D11
// work (samplers, shader stages, storage images, unbound slots), each where
// the adapter has it; what is missing is reported by the work that needs it.
#pragma once

#include <vulkan/vulkan_core.h>

#include <vector>

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
};

// The feature chain vkCreateDevice takes: every execution feature the
// adapter has, plus the ones the caller sets on features2 (sparse binding,
// logic ops). Holds the structs the chain points into; keep it alive until
// the device is created.
class FeatureChain {
  public:
    FeatureChain(VkPhysicalDevice physical, const std::vector<VkExtensionProperties>& extensions);
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
    std::vector<const char*> extensions_;
    ExecutionFeatures enabled_;
};

}  // namespace d3dcap::runtime::backend::vulkan
