#include "runtime/backend/vulkan/execution_features.h"

#include <cstring>

namespace d3dcap::runtime::backend::vulkan {
namespace {

bool listed(const std::vector<VkExtensionProperties>& list, const char* name) {
    for (const VkExtensionProperties& e : list)
        if (std::strcmp(e.extensionName, name) == 0) return true;
    return false;
}

}  // namespace

FeatureChain::FeatureChain(VkPhysicalDevice physical,
                           const std::vector<VkExtensionProperties>& extensions, bool validation) {
    // What the adapter has.
    VkPhysicalDeviceFeatures2 has{};
    has.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    VkPhysicalDeviceVulkan11Features has11{};
    has11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    VkPhysicalDeviceVulkan12Features has12{};
    has12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    VkPhysicalDeviceCustomBorderColorFeaturesEXT has_border{};
    has_border.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT;
    VkPhysicalDeviceRobustness2FeaturesEXT has_robustness{};
    has_robustness.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT;
    VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT has_divisor{};
    has_divisor.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT;
    has.pNext = &has11;
    has11.pNext = &has12;
    const bool border = listed(extensions, VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME);
    const bool robustness = listed(extensions, VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
    const bool divisor = listed(extensions, VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME);
    const bool feedback = listed(extensions, VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
    VkPhysicalDeviceTransformFeedbackFeaturesEXT has_feedback{};
    has_feedback.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT;
    const bool conditional = listed(extensions, VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME);
    VkPhysicalDeviceConditionalRenderingFeaturesEXT has_conditional{};
    has_conditional.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT;
    const bool depth_bias =
        !validation && listed(extensions, VK_EXT_DEPTH_BIAS_CONTROL_EXTENSION_NAME);
    VkPhysicalDeviceDepthBiasControlFeaturesEXT has_depth_bias{};
    has_depth_bias.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_BIAS_CONTROL_FEATURES_EXT;
    void** tail = &has12.pNext;
    if (depth_bias) {
        *tail = &has_depth_bias;
        tail = &has_depth_bias.pNext;
    }
    if (border) {
        *tail = &has_border;
        tail = &has_border.pNext;
    }
    if (robustness) {
        *tail = &has_robustness;
        tail = &has_robustness.pNext;
    }
    if (divisor) {
        *tail = &has_divisor;
        tail = &has_divisor.pNext;
    }
    if (feedback) {
        *tail = &has_feedback;
        tail = &has_feedback.pNext;
    }
    if (conditional) *tail = &has_conditional;
    vkGetPhysicalDeviceFeatures2(physical, &has);

    // What to enable: the chain vkCreateDevice gets.
    features2_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    features11_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    features12_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    features13_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    features2_.pNext = &features11_;
    features11_.pNext = &features12_;
    features12_.pNext = &features13_;
    tail = &features13_.pNext;

    const VkPhysicalDeviceFeatures& a = has.features;
    VkPhysicalDeviceFeatures& f = features2_.features;
    f.samplerAnisotropy = a.samplerAnisotropy;
    f.imageCubeArray = a.imageCubeArray;
    f.shaderStorageImageWriteWithoutFormat = a.shaderStorageImageWriteWithoutFormat;
    f.shaderStorageImageReadWithoutFormat = a.shaderStorageImageReadWithoutFormat;
    f.shaderStorageImageExtendedFormats = a.shaderStorageImageExtendedFormats;
    f.shaderImageGatherExtended = a.shaderImageGatherExtended;
    f.fragmentStoresAndAtomics = a.fragmentStoresAndAtomics;
    f.vertexPipelineStoresAndAtomics = a.vertexPipelineStoresAndAtomics;
    f.textureCompressionBC = a.textureCompressionBC;
    f.independentBlend = a.independentBlend;
    f.dualSrcBlend = a.dualSrcBlend;
    f.geometryShader = a.geometryShader;
    f.tessellationShader = a.tessellationShader;
    f.depthClamp = a.depthClamp;
    f.depthBiasClamp = a.depthBiasClamp;
    f.fillModeNonSolid = a.fillModeNonSolid;
    f.multiViewport = a.multiViewport;
    f.sampleRateShading = a.sampleRateShading;
    f.occlusionQueryPrecise = a.occlusionQueryPrecise;
    f.pipelineStatisticsQuery = a.pipelineStatisticsQuery;
    f.shaderClipDistance = a.shaderClipDistance;
    f.shaderCullDistance = a.shaderCullDistance;
    // D3D11 reads zeros past the end of a buffer (vertex fetches and shader
    // loads alike) and drops writes there; its indirect draws may start at
    // any instance.
    f.robustBufferAccess = a.robustBufferAccess;
    f.drawIndirectFirstInstance = a.drawIndirectFirstInstance;
    features11_.shaderDrawParameters = has11.shaderDrawParameters;
    features12_.timelineSemaphore = has12.timelineSemaphore;
    features12_.samplerMirrorClampToEdge = has12.samplerMirrorClampToEdge;
    features12_.samplerFilterMinmax = has12.samplerFilterMinmax;
    // Query slots are reset on the host, so that draws inside a render pass
    // instance can take them.
    features12_.hostQueryReset = has12.hostQueryReset;
    // Barriers and timestamps are recorded with the synchronization2
    // commands; draws render without render-pass objects.
    features13_.synchronization2 = VK_TRUE;
    features13_.dynamicRendering = VK_TRUE;
    if (border && has_border.customBorderColors && has_border.customBorderColorWithoutFormat) {
        border_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_FEATURES_EXT;
        border_.customBorderColors = VK_TRUE;
        border_.customBorderColorWithoutFormat = VK_TRUE;
        *tail = &border_;
        tail = &border_.pNext;
        extensions_.push_back(VK_EXT_CUSTOM_BORDER_COLOR_EXTENSION_NAME);
        enabled_.custom_border = true;
    }
    if (robustness && has_robustness.nullDescriptor) {
        robustness_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT;
        robustness_.nullDescriptor = VK_TRUE;
        // Exact zeros past the end (the first robustness may return any
        // value inside the buffer), for textures too.
        robustness_.robustBufferAccess2 =
            a.robustBufferAccess && has_robustness.robustBufferAccess2;
        robustness_.robustImageAccess2 = has_robustness.robustImageAccess2;
        *tail = &robustness_;
        tail = &robustness_.pNext;
        extensions_.push_back(VK_EXT_ROBUSTNESS_2_EXTENSION_NAME);
        enabled_.null_descriptor = true;
    }
    if (divisor && has_divisor.vertexAttributeInstanceRateDivisor) {
        divisor_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT;
        divisor_.vertexAttributeInstanceRateDivisor = VK_TRUE;
        divisor_.vertexAttributeInstanceRateZeroDivisor =
            has_divisor.vertexAttributeInstanceRateZeroDivisor;
        *tail = &divisor_;
        tail = &divisor_.pNext;
        extensions_.push_back(VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME);
        enabled_.step_rates = true;
        enabled_.step_rate_zero = has_divisor.vertexAttributeInstanceRateZeroDivisor;
    }
    if (feedback && has_feedback.transformFeedback) {
        feedback_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT;
        feedback_.transformFeedback = VK_TRUE;
        feedback_.geometryStreams = has_feedback.geometryStreams;
        *tail = &feedback_;
        tail = &feedback_.pNext;
        extensions_.push_back(VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
        enabled_.transform_feedback = true;
    }
    if (conditional && has_conditional.conditionalRendering) {
        conditional_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CONDITIONAL_RENDERING_FEATURES_EXT;
        conditional_.conditionalRendering = VK_TRUE;
        *tail = &conditional_;
        tail = &conditional_.pNext;
        extensions_.push_back(VK_EXT_CONDITIONAL_RENDERING_EXTENSION_NAME);
        enabled_.conditional_rendering = true;
    }
    if (depth_bias && has_depth_bias.depthBiasControl && has_depth_bias.depthBiasExact) {
        depth_bias_.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DEPTH_BIAS_CONTROL_FEATURES_EXT;
        depth_bias_.depthBiasControl = VK_TRUE;
        depth_bias_.depthBiasExact = VK_TRUE;
        *tail = &depth_bias_;
        extensions_.push_back(VK_EXT_DEPTH_BIAS_CONTROL_EXTENSION_NAME);
        enabled_.exact_depth_bias = true;
    } else {
        // llvmpipe (lavapipe) and NVIDIA's driver take r = 2 / 2^bits
        // (measured: twice the steps D3D11 gives).
        VkPhysicalDeviceDriverProperties driver{};
        driver.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
        VkPhysicalDeviceProperties2 properties{};
        properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        properties.pNext = &driver;
        vkGetPhysicalDeviceProperties2(physical, &properties);
        if (driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE ||
            driver.driverID == VK_DRIVER_ID_NVIDIA_PROPRIETARY)
            enabled_.unorm_depth_bias_scale = 0.5f;
    }
    enabled_.anisotropy = f.samplerAnisotropy;
    enabled_.cube_arrays = f.imageCubeArray;
    enabled_.storage_write_without_format = f.shaderStorageImageWriteWithoutFormat;
    enabled_.storage_read_without_format = f.shaderStorageImageReadWithoutFormat;
    enabled_.occlusion_precise = f.occlusionQueryPrecise;
    enabled_.pipeline_statistics = f.pipelineStatisticsQuery;
    enabled_.mirror_once = features12_.samplerMirrorClampToEdge;
    enabled_.minmax_filter = features12_.samplerFilterMinmax;
    enabled_.host_query_reset = features12_.hostQueryReset;
}

}  // namespace d3dcap::runtime::backend::vulkan
