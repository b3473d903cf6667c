// Vulkan samplers made from D3D11 sampler descriptions (samplers.h).
#include "runtime/backend/vulkan/samplers.h"

#include <algorithm>
#include <cstring>

namespace d3dcap::runtime::backend::vulkan {
namespace {

VkSamplerAddressMode address_mode(D3D11_TEXTURE_ADDRESS_MODE mode) {
    switch (mode) {
        case D3D11_TEXTURE_ADDRESS_MIRROR:
            return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
        case D3D11_TEXTURE_ADDRESS_CLAMP:
            return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        case D3D11_TEXTURE_ADDRESS_BORDER:
            return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
        case D3D11_TEXTURE_ADDRESS_MIRROR_ONCE:
            return VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE;
        default:
            return VK_SAMPLER_ADDRESS_MODE_REPEAT;
    }
}

}  // namespace

VkSampler Samplers::find(const D3D11_SAMPLER_DESC& desc, std::string& error) {
    std::string key(reinterpret_cast<const char*>(&desc), sizeof desc);
    if (auto found = samplers_.find(key); found != samplers_.end()) return found->second;
    const vulkan::ExecutionFeatures& has = gpu_.device().execution();
    const vulkan::AdapterInfo& adapter = gpu_.device().adapter();
    const std::uint32_t filter = desc.Filter;
    const std::uint32_t reduction = (filter >> 7) & 3;  // standard, comparison, minimum, maximum
    const bool anisotropic = (filter & D3D11_ANISOTROPIC_FILTERING_BIT) != 0;
    VkSamplerCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
    info.minFilter = (filter >> 4) & 1 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    info.magFilter = (filter >> 2) & 1 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    info.mipmapMode = filter & 1 ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
    info.addressModeU = address_mode(desc.AddressU);
    info.addressModeV = address_mode(desc.AddressV);
    info.addressModeW = address_mode(desc.AddressW);
    info.mipLodBias =
        std::clamp(desc.MipLODBias, -adapter.max_sampler_lod_bias, adapter.max_sampler_lod_bias);
    info.anisotropyEnable = anisotropic;
    info.maxAnisotropy =
        std::clamp(static_cast<float>(desc.MaxAnisotropy), 1.0f, adapter.max_sampler_anisotropy);
    info.compareEnable = reduction == 1;
    info.compareOp = static_cast<VkCompareOp>(std::clamp<int>(desc.ComparisonFunc, 1, 8) - 1);
    info.minLod = std::clamp(desc.MinLOD, -1000.0f, 1000.0f);
    info.maxLod = std::clamp(desc.MaxLOD, info.minLod, 1000.0f);
    if (anisotropic && !has.anisotropy) {
        error = "anisotropic filtering, which this GPU lacks";
        return VK_NULL_HANDLE;
    }
    const bool mirror_once = desc.AddressU == D3D11_TEXTURE_ADDRESS_MIRROR_ONCE ||
                             desc.AddressV == D3D11_TEXTURE_ADDRESS_MIRROR_ONCE ||
                             desc.AddressW == D3D11_TEXTURE_ADDRESS_MIRROR_ONCE;
    if (mirror_once && !has.mirror_once) {
        error = "TEXTURE_ADDRESS_MIRROR_ONCE, which this GPU lacks";
        return VK_NULL_HANDLE;
    }
    VkSamplerReductionModeCreateInfo reduce{};
    reduce.sType = VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO;
    if (reduction >= 2) {
        if (!has.minmax_filter) {
            error = "a MINIMUM/MAXIMUM filter, which this GPU lacks";
            return VK_NULL_HANDLE;
        }
        reduce.reductionMode =
            reduction == 2 ? VK_SAMPLER_REDUCTION_MODE_MIN : VK_SAMPLER_REDUCTION_MODE_MAX;
        info.pNext = &reduce;
    }
    // The border colour matters only where an address mode uses it.
    VkSamplerCustomBorderColorCreateInfoEXT custom{};
    custom.sType = VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT;
    const float* c = desc.BorderColor;
    const bool border = info.addressModeU == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER ||
                        info.addressModeV == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER ||
                        info.addressModeW == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    auto is = [&](float r, float g, float b, float a) {
        return c[0] == r && c[1] == g && c[2] == b && c[3] == a;
    };
    info.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
    if (border && is(0, 0, 0, 1)) {
        info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
    } else if (border && is(1, 1, 1, 1)) {
        info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
    } else if (border && !is(0, 0, 0, 0)) {
        if (!has.custom_border) {
            error = "a border colour other than black or white, which this GPU lacks";
            return VK_NULL_HANDLE;
        }
        std::memcpy(custom.customBorderColor.float32, c, sizeof custom.customBorderColor.float32);
        custom.format = VK_FORMAT_UNDEFINED;
        custom.pNext = info.pNext;
        info.pNext = &custom;
        info.borderColor = VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
    }
    VkSampler sampler = VK_NULL_HANDLE;
    if (vkCreateSampler(gpu_.vk(), &info, nullptr, &sampler) != VK_SUCCESS) {
        error = "the GPU cannot make this sampler";
        return VK_NULL_HANDLE;
    }
    samplers_.emplace(std::move(key), sampler);
    return sampler;
}

void Samplers::destroy() {
    for (auto& [key, sampler] : samplers_) vkDestroySampler(gpu_.vk(), sampler, nullptr);
    samplers_.clear();
}

}  // namespace d3dcap::runtime::backend::vulkan
