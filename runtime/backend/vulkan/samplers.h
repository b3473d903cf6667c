// Vulkan samplers made from D3D11 sampler descriptions, one per distinct
// description, kept for the device's life. Internal to libd3dcap.
#pragma once

#include <vulkan/vulkan_core.h>

#include <string>
#include <unordered_map>

#include "runtime/backend/vulkan/gpu_context.h"

namespace d3dcap::runtime::backend::vulkan {

class Samplers {
  public:
    explicit Samplers(GpuContext& gpu) : gpu_(gpu) {}
    Samplers(const Samplers&) = delete;
    Samplers& operator=(const Samplers&) = delete;

    // The sampler of a description; null, with what this GPU lacks for it
    // in `error`, where it cannot make one.
    VkSampler find(const D3D11_SAMPLER_DESC& desc, std::string& error);
    void destroy();

  private:
    GpuContext& gpu_;
    std::unordered_map<std::string, VkSampler> samplers_;  // by description bytes
};

}  // namespace d3dcap::runtime::backend::vulkan
