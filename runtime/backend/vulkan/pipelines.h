// The Vulkan pipelines of draws and dispatches. A draw state's graphics
// pipeline is made once and kept by a key of everything it depends on (the
// translated shaders, input layout, topology, rasterizer, blend and
// depth-stencil states, attachment formats and sample count), with a set
// layout per graphics stage; a compute shader's pipeline is kept by its
// translation.
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/backend/backend.h"
#include "runtime/backend/vulkan/descriptor_pools.h"
#include "runtime/backend/vulkan/shader_translator.h"
#include "runtime/backend/vulkan/vulkan_device.h"

namespace d3dcap::runtime::backend::vulkan {

// The translated shaders of a draw, by stage (vertex, hull, domain,
// geometry, pixel); null where none is bound.
struct PipelineShaders {
    std::array<std::shared_ptr<const TranslatedShader>, 5> stages;
};

// A graphics pipeline of one draw state; set N holds stage N's slots.
struct GraphicsPipeline {
    PipelineShaders shaders;
    VkDescriptorSetLayout set_layouts[5] = {};  // null for stages without a shader (not owned)
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    std::vector<std::uint32_t> vertex_slots;  // the vertex-buffer slots it reads
    bool dynamic_constants = false;
};

// A compute shader's pipeline (its descriptor set 0 holds what the shader uses).
struct ComputePipeline {
    std::shared_ptr<const TranslatedShader> shader;
    bool dynamic_constants = false;
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
};

// What a draw renders into: formats by render-target slot (gaps
// undefined), the depth-stencil format, one sample count for all; none
// where the rasterizer discards everything (stream output only).
struct PipelineTargets {
    std::vector<VkFormat> colors;
    VkFormat depth = VK_FORMAT_UNDEFINED;
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
    bool discard = false;
    // Bits by slot: a D3D11 format without alpha kept in a Vulkan format
    // with one (B8G8R8X8: its alpha reads 1 in blending), and an alpha-only
    // format kept as red (A8: blended by the alpha factors).
    std::uint8_t alpha_one = 0, alpha_in_red = 0;
};

// Whether a signature element is a varying (not a system value the
// rasterizer or the output merger gives or takes).
bool varying(const shader::SignatureElement& e);

class PipelineCache {
  public:
    PipelineCache(const VulkanDevice& device, DescriptorPools& descriptors)
        : device_(device), descriptors_(descriptors) {}
    PipelineCache(const PipelineCache&) = delete;
    PipelineCache& operator=(const PipelineCache&) = delete;

    // The pipeline of a draw's state; null, with why, where the GPU cannot
    // make it. Draws mostly keep the state of the draw before: its key is
    // compared first.
    const GraphicsPipeline* graphics(const DrawWork& work, const PipelineShaders& shaders,
                                     const PipelineTargets& targets, std::string& error);
    const ComputePipeline* compute(const std::shared_ptr<const TranslatedShader>& shader,
                                   std::string& error);
    // Destroys every pipeline (the device is idle); nothing else does, as
    // the device may be gone when a process ends.
    void clear();

  private:
    const GraphicsPipeline* make_graphics(const DrawWork& work, const PipelineShaders& shaders,
                                          const PipelineTargets& targets,
                                          VkPrimitiveTopology topology, std::string& error);
    void destroy(GraphicsPipeline& pipeline);

    const VulkanDevice& device_;
    DescriptorPools& descriptors_;
    std::unordered_map<std::string, GraphicsPipeline> graphics_;  // by state key
    std::unordered_map<const TranslatedShader*, ComputePipeline> compute_;
    std::string key_, last_key_;
    const GraphicsPipeline* last_ = nullptr;
};

}  // namespace d3dcap::runtime::backend::vulkan
