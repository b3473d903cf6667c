// Descriptor sets and their layouts for draws and dispatches: layouts made
// once per list of bindings (pipelines share them, so that a stage keeps
// its set across pipelines), sets taken from pools that are reset and
// reused once the work recorded with their sets is done, and a generation
// that says when a set kept for reuse may no longer be bound.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "runtime/backend/vulkan/gpu_context.h"
#include "runtime/backend/vulkan/shader_translator.h"

namespace d3dcap::runtime::backend::vulkan {

// Constant buffers bind as UNIFORM_BUFFER_DYNAMIC where a pipeline's fit
// the GPU's limit, their windows' offsets given at bind time.
VkDescriptorType descriptor_type(const ShaderDescriptor& d, bool dynamic_constants);
// The set-layout bindings of a translated shader's descriptors (UAV
// counters included) for one stage.
std::vector<VkDescriptorSetLayoutBinding> layout_bindings(const TranslatedShader& shader,
                                                          VkShaderStageFlags stage,
                                                          bool dynamic_constants);
std::uint32_t constant_buffer_count(const TranslatedShader& shader);

class DescriptorPools {
  public:
    explicit DescriptorPools(GpuContext& gpu) : gpu_(gpu) {}
    DescriptorPools(const DescriptorPools&) = delete;
    DescriptorPools& operator=(const DescriptorPools&) = delete;

    // The layout of these bindings (null when the GPU cannot make it).
    VkDescriptorSetLayout layout(const std::vector<VkDescriptorSetLayoutBinding>& bindings);
    // A set of `layout`; empty, or why there is none.
    std::string allocate(VkDescriptorSetLayout layout, VkDescriptorSet& set);
    // Sets taken in an older generation may be gone (their pool was reset)
    // or name a buffer, image or view that was destroyed.
    std::uint64_t generation() const { return generation_; }
    void invalidate() { ++generation_; }
    std::uint64_t sets_written() const { return sets_written_; }
    void wrote_set() { ++sets_written_; }
    // Destroys every pool and layout (the device is idle).
    void destroy();

  private:
    GpuContext& gpu_;
    std::map<std::string, VkDescriptorSetLayout> layouts_;  // by bindings
    VkDescriptorPool pool_ = VK_NULL_HANDLE;                // sets come from here
    std::vector<VkDescriptorPool> free_pools_;
    std::uint64_t generation_ = 1;
    std::uint64_t sets_written_ = 0;
};

}  // namespace d3dcap::runtime::backend::vulkan
