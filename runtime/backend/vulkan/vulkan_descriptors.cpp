// One stage's bound slots as the descriptors of its translated shader:
// constant-buffer windows, buffer views (typed, raw, structured), texture
// views in the shape the shader declares, storage images, and samplers
// (samplers.h). Unbound slots read zero
// where the GPU has null descriptors, as on Windows.
#include <algorithm>
#include <cstring>

#include "runtime/backend/vulkan/vk_formats.h"
#include "runtime/backend/vulkan/vulkan_backend.h"
#include "runtime/formats/formats.h"

namespace d3dcap::runtime::backend::vulkan {
namespace {

// The Vulkan format of a typed buffer view; raw and structured views read
// 32-bit words. VK_FORMAT_UNDEFINED: no texel-buffer format for it.
VkFormat texel_buffer_format(DXGI_FORMAT format) {
    if (format == DXGI_FORMAT_UNKNOWN || format == DXGI_FORMAT_R32_TYPELESS)
        return VK_FORMAT_R32_UINT;  // structured, raw
    const VkFormat same = same_bits_format(format);
    return is_depth(same) ? VK_FORMAT_UNDEFINED : same;
}

const ViewInfo* view_in(const std::vector<std::pair<std::uint32_t, ViewInfo>>& slots,
                        std::uint32_t slot) {
    for (const auto& [bound, view] : slots)
        if (bound == slot) return &view;
    return nullptr;
}

std::string register_name(const ShaderDescriptor& d) {
    const char* prefix = d.kind == RegisterKind::ConstantBuffer ? "cb"
                         : d.kind == RegisterKind::Resource     ? "t"
                         : d.kind == RegisterKind::Sampler      ? "s"
                                                                : "u";
    return prefix + std::to_string(d.reg);
}

VkImageViewType view_type(ResourceShape shape) {
    switch (shape) {
        case ResourceShape::Texture1D:
            return VK_IMAGE_VIEW_TYPE_1D;
        case ResourceShape::Texture1DArray:
            return VK_IMAGE_VIEW_TYPE_1D_ARRAY;
        case ResourceShape::Texture2DArray:
        case ResourceShape::Texture2DMSArray:
            return VK_IMAGE_VIEW_TYPE_2D_ARRAY;
        case ResourceShape::Texture3D:
            return VK_IMAGE_VIEW_TYPE_3D;
        case ResourceShape::Cube:
            return VK_IMAGE_VIEW_TYPE_CUBE;
        case ResourceShape::CubeArray:
            return VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
        default:
            return VK_IMAGE_VIEW_TYPE_2D;
    }
}

VkImageType image_type_of(VkImageViewType type) {
    switch (type) {
        case VK_IMAGE_VIEW_TYPE_1D:
        case VK_IMAGE_VIEW_TYPE_1D_ARRAY:
            return VK_IMAGE_TYPE_1D;
        case VK_IMAGE_VIEW_TYPE_3D:
            return VK_IMAGE_TYPE_3D;
        default:
            return VK_IMAGE_TYPE_2D;
    }
}

// D3D11's sampler when none is bound.
D3D11_SAMPLER_DESC default_sampler() {
    D3D11_SAMPLER_DESC desc{};
    desc.Filter = D3D11_FILTER_MIN_MAG_MIP_LINEAR;
    desc.AddressU = desc.AddressV = desc.AddressW = D3D11_TEXTURE_ADDRESS_CLAMP;
    desc.MaxAnisotropy = 1;
    desc.ComparisonFunc = D3D11_COMPARISON_NEVER;
    std::fill(std::begin(desc.BorderColor), std::end(desc.BorderColor), 1.0f);
    desc.MinLOD = -3.402823466e+38f;
    desc.MaxLOD = 3.402823466e+38f;
    return desc;
}

}  // namespace

// A UAV's hidden counter: its slot in the device's counter buffer (a view
// without a counter of its own uses the shared slot 0), seen through an
// R32_UINT view.
std::string VulkanBackend::counter_descriptor(const StageWork& work, const ShaderDescriptor& d,
                                              VkBufferView& view) {
    ObjectId owner = 0;
    for (const auto& [slot, uav] : work.uav_counters)
        if (slot == d.reg) owner = uav;
    VkDeviceSize offset = 0;
    if (!uav_counters_.slot(owner, true, offset))
        return "the device has no room left for UAV counters";
    VkBufferViewCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO;
    info.buffer = uav_counters_.buffer();
    info.format = VK_FORMAT_R32_UINT;
    info.offset = offset;
    info.range = 4;
    view = views_.buffer_view(info);
    if (view == VK_NULL_HANDLE)
        return "u" + std::to_string(d.reg) + ": the GPU cannot view its counter";
    return {};
}

std::string VulkanBackend::image_view(const ViewInfo& view, const ShaderDescriptor& d,
                                      VkImageView& out, std::uint64_t& key) {
    const std::string name = register_name(d);
    GpuResource* resource = use(view.resource);
    if (resource == nullptr || resource->is_buffer()) return name + " is not bound to a texture";
    const ImageStorage& storage = resource->storage;
    if (!storage.real)
        return name + ": " + kept_as_bits(*resource) + ", which shaders cannot read yet";
    const bool uav = d.kind == RegisterKind::Uav;
    if (uav) wrote(*resource);
    key = hazard_key(*resource);
    VkImageViewCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    info.image = resource->image;
    info.viewType = view_type(d.shape);
    if (image_type_of(info.viewType) != storage.type)
        return name + " is declared with another dimension than the bound view's texture";
    if (info.viewType == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY && !gpu_->device().execution().cube_arrays)
        return name + " is a cube array, which this GPU lacks";
    info.format = storage.aspects == VK_IMAGE_ASPECT_COLOR_BIT ? same_bits_format(view.format)
                                                               : storage.format;
    if (info.format == VK_FORMAT_UNDEFINED)
        return name + ": " + formats::describe(view.format) + " has no Vulkan format";
    info.components = uav ? VkComponentMapping{} : view_swizzle(view.format);
    VkImageAspectFlags aspect = storage.aspects;
    if (aspect != VK_IMAGE_ASPECT_COLOR_BIT) {  // a sampled view sees one aspect
        aspect = depth_view_aspects(view.format);
        if (aspect != VK_IMAGE_ASPECT_STENCIL_BIT) aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
    }
    const bool volume = storage.type == VK_IMAGE_TYPE_3D;
    std::uint32_t layers = 1;
    if (info.viewType == VK_IMAGE_VIEW_TYPE_CUBE) layers = 6;
    if (info.viewType == VK_IMAGE_VIEW_TYPE_1D_ARRAY ||
        info.viewType == VK_IMAGE_VIEW_TYPE_2D_ARRAY ||
        info.viewType == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY)
        layers = view.slice_count;
    // A Texture3D UAV's first W slice is added to z in the shader.
    if (volume && uav && view.first_slice != d.first_w_slice)
        return name + ": the shader was translated for another first W slice";
    info.subresourceRange = {aspect, view.first_mip, uav ? 1 : view.mip_count,
                             volume ? 0 : view.first_slice, layers};
    const std::string why = uav ? make_view(*resource, info, VK_IMAGE_USAGE_STORAGE_BIT,
                                            VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT, out)
                                : make_view(*resource, info, VK_IMAGE_USAGE_SAMPLED_BIT,
                                            VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT, out);
    return why.empty() ? why : name + ": " + why + " (" + formats::describe(view.format) + ")";
}

std::vector<std::pair<std::uint32_t, std::uint32_t>> VulkanBackend::uav_first_slices(
    const StageWork& work) {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
    for (const auto& [slot, view] : work.uavs) {
        const GpuResource* resource = find(view.resource);
        if (resource != nullptr && !resource->is_buffer() &&
            resource->storage.type == VK_IMAGE_TYPE_3D && view.first_slice != 0)
            out.emplace_back(slot, view.first_slice);
    }
    return out;
}

std::string kept_as_bits(const GpuResource& resource) {
    return "this device keeps " + formats::describe(resource.info.format) +
           (resource.info.sample_count > 1 ? " with MSAA" : "") + " textures as bits only";
}

std::uint64_t hazard_key(const GpuResource& resource) {
    if (resource.info.tiled() || resource.info.tile_pool()) return HazardTracker::kTiledMemory;
    return resource.image != VK_NULL_HANDLE ? handle_key(resource.image)
                                            : handle_key(resource.buffer);
}

std::string VulkanBackend::make_view(const GpuResource& resource, const VkImageViewCreateInfo& info,
                                     VkImageUsageFlags usage, VkFormatFeatureFlags needed,
                                     VkImageView& out) {
    if (!(resource.storage.usage & usage)) return "the texture was not created for this binding";
    out = views_.image_view(info, usage);
    if (out != VK_NULL_HANDLE) return {};
    VkFormatProperties properties{};
    vkGetPhysicalDeviceFormatProperties(gpu_->device().physical_device(), info.format, &properties);
    if (info.format == VK_FORMAT_UNDEFINED || !(properties.optimalTilingFeatures & needed))
        return "this GPU cannot use the view's format this way";
    return "the GPU cannot make this view";
}

std::string VulkanBackend::resolve_stage(const StageWork& work, const TranslatedShader& shader,
                                         bool dynamic_constants, StageSet& out) {
    out.descriptors.clear();
    out.dynamic_offsets.clear();
    out.touches.clear();
    const bool null_descriptors = gpu_->device().execution().null_descriptor;
    const VkDeviceSize texel_alignment = gpu_->device().adapter().min_texel_buffer_alignment;
    const VkDeviceSize uniform_alignment = gpu_->device().adapter().min_uniform_buffer_alignment;
    for (const ShaderDescriptor& d : shader.descriptors) {
        BoundDescriptor bound;
        std::memset(&bound, 0, sizeof bound);  // compared bytewise
        bound.binding = d.binding;
        bound.type = descriptor_type(d, dynamic_constants);
        bound.image.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
        if (d.kind == RegisterKind::Sampler) {
            const D3D11_SAMPLER_DESC* desc = nullptr;
            for (const auto& [slot, sampler] : work.samplers)
                if (slot == d.reg) desc = &sampler;
            const D3D11_SAMPLER_DESC fallback = default_sampler();
            std::string why;
            bound.image.sampler = samplers_.find(desc ? *desc : fallback, why);
            if (bound.image.sampler == VK_NULL_HANDLE) return register_name(d) + ": " + why;
            out.descriptors.push_back(bound);
            continue;
        }
        if (d.kind == RegisterKind::ConstantBuffer) {
            const ConstantBufferWindow& window = work.constant_buffers[d.reg];
            GpuResource* buffer = window.buffer ? use(window.buffer) : nullptr;
            DynamicOffset dynamic{d.binding, 0, d.reg, 0, 0, nullptr};
            if (buffer != nullptr && window.size != 0) {
                // The window's offset (in the buffer's slice) goes in the
                // dynamic offset, so that windows of one size in one buffer
                // share a set.
                VkDeviceSize base = buffer->slice + window.offset;
                const VkDeviceSize size = std::min<VkDeviceSize>(window.size, 65536);
                dynamic.size = ~VkDeviceSize{0};
                if (dynamic_constants && window.offset % uniform_alignment == 0) {
                    dynamic = {d.binding, static_cast<std::uint32_t>(base),
                               d.reg,     window.buffer,
                               size,      buffer};
                    base = 0;
                }
                bound.buffer = {buffer->buffer, base, size};
                out.touches.push_back({hazard_key(*buffer), false});
            } else if (null_descriptors) {
                bound.buffer = {VK_NULL_HANDLE, 0, VK_WHOLE_SIZE};
            } else {
                return register_name(d) + " is not bound";
            }
            if (dynamic_constants) out.dynamic_offsets.push_back(dynamic);
            out.descriptors.push_back(bound);
            continue;
        }
        const bool uav = d.kind == RegisterKind::Uav;
        const ViewInfo* view = view_in(uav ? work.uavs : work.resources, d.reg);
        if (view == nullptr) {
            if (!null_descriptors) return register_name(d) + " is not bound";
            out.descriptors.push_back(bound);  // a null view or image
            if (d.counter) {
                BoundDescriptor counter = bound;
                counter.binding = BindingSpace::kUavCounters + d.reg;
                counter.type = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
                out.descriptors.push_back(counter);
            }
            continue;
        }
        if (!d.buffer) {
            std::uint64_t key = 0;
            const std::string why = image_view(*view, d, bound.image.imageView, key);
            if (!why.empty()) return why;
            out.touches.push_back({key, uav});
            out.descriptors.push_back(bound);
            continue;
        }
        const std::string name = register_name(d);
        GpuResource* buffer = use(view->resource);
        if (buffer == nullptr || !buffer->is_buffer())
            return name + " is not bound to a buffer view";
        if (uav) wrote(*buffer);
        const VkFormat format = texel_buffer_format(view->format);
        const std::uint32_t element = view->format == DXGI_FORMAT_UNKNOWN
                                          ? buffer->info.structure_stride
                                      : view->format == DXGI_FORMAT_R32_TYPELESS
                                          ? 4
                                          : formats::info(view->format).bits_per_element / 8u;
        const VkDeviceSize offset = view->first_element * element;
        if (format == VK_FORMAT_UNDEFINED)
            return name + " has a format the Vulkan device does not read in shaders yet";
        if (offset % texel_alignment) return name + " starts at a byte offset this GPU cannot view";
        VkBufferViewCreateInfo view_info{};
        view_info.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO;
        view_info.buffer = buffer->buffer;
        view_info.format = format;
        view_info.offset = offset;
        view_info.range = view->element_count * element;
        bound.texel = views_.buffer_view(view_info);
        if (bound.texel == VK_NULL_HANDLE) return name + ": the GPU cannot view this buffer range";
        out.touches.push_back({hazard_key(*buffer), uav});
        out.descriptors.push_back(bound);
        if (d.counter) {
            BoundDescriptor counter = bound;
            counter.binding = BindingSpace::kUavCounters + d.reg;
            counter.type = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
            const std::string why = counter_descriptor(work, d, counter.texel);
            if (!why.empty()) return why;
            out.touches.push_back({handle_key(uav_counters_.buffer()), true});
            out.descriptors.push_back(counter);
        }
    }
    // Dynamic offsets go in binding order.
    std::sort(out.dynamic_offsets.begin(), out.dynamic_offsets.end(),
              [](const DynamicOffset& a, const DynamicOffset& b) { return a.binding < b.binding; });
    return {};
}

bool VulkanBackend::move_windows(const StageWork& work, StageSet& set) const {
    const VkDeviceSize alignment = gpu_->device().adapter().min_uniform_buffer_alignment;
    for (const DynamicOffset& dynamic : set.dynamic_offsets) {
        const ConstantBufferWindow& window = work.constant_buffers[dynamic.reg];
        if (window.buffer == 0 || window.size == 0) {
            if (dynamic.buffer != 0 || dynamic.size != 0) return false;  // it was bound
        } else if (window.buffer != dynamic.buffer ||
                   std::min<VkDeviceSize>(window.size, 65536) != dynamic.size ||
                   window.offset % alignment != 0) {
            return false;
        }
    }
    for (DynamicOffset& dynamic : set.dynamic_offsets)
        dynamic.offset = static_cast<std::uint32_t>(
            dynamic.buffer != 0
                ? dynamic.resource->slice + work.constant_buffers[dynamic.reg].offset
                : 0);
    return true;
}

std::string VulkanBackend::stage_set(VkDescriptorSetLayout layout, StageSet& next, StageSet& last) {
    next.layout = layout;
    next.plain = std::none_of(next.touches.begin(), next.touches.end(), [](StageSet::Touch t) {
        return t.write || t.key == HazardTracker::kTiledMemory;
    });
    if (last.set != VK_NULL_HANDLE && last.generation == descriptors_.generation() &&
        last.layout == layout && last.descriptors.size() == next.descriptors.size() &&
        (next.descriptors.empty() ||
         std::memcmp(last.descriptors.data(), next.descriptors.data(),
                     next.descriptors.size() * sizeof(BoundDescriptor)) == 0)) {
        last.dynamic_offsets.swap(next.dynamic_offsets);
        last.touches.swap(next.touches);
        last.plain = next.plain;
        return {};
    }
    VkDescriptorSet set = VK_NULL_HANDLE;
    if (std::string why = descriptors_.allocate(layout, set); !why.empty()) return why;
    std::vector<VkWriteDescriptorSet>& writes = write_scratch_;
    writes.clear();
    for (const BoundDescriptor& d : next.descriptors) {
        VkWriteDescriptorSet write{};
        write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        write.dstSet = set;
        write.dstBinding = d.binding;
        write.descriptorCount = 1;
        write.descriptorType = d.type;
        write.pBufferInfo = &d.buffer;
        write.pImageInfo = &d.image;
        write.pTexelBufferView = &d.texel;
        writes.push_back(write);
    }
    vkUpdateDescriptorSets(gpu_->vk(), static_cast<std::uint32_t>(writes.size()), writes.data(), 0,
                           nullptr);
    descriptors_.wrote_set();
    std::swap(last, next);
    last.set = set;
    last.generation = descriptors_.generation();
    return {};
}

std::vector<VkDescriptorSetLayoutBinding> layout_bindings(const TranslatedShader& shader,
                                                          VkShaderStageFlags stage,
                                                          bool dynamic_constants) {
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (const ShaderDescriptor& d : shader.descriptors) {
        bindings.push_back({d.binding, descriptor_type(d, dynamic_constants), 1, stage, nullptr});
        if (d.counter)
            bindings.push_back({BindingSpace::kUavCounters + d.reg,
                                VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1, stage, nullptr});
    }
    return bindings;
}

VkDescriptorType descriptor_type(const ShaderDescriptor& d, bool dynamic_constants) {
    switch (d.kind) {
        case RegisterKind::ConstantBuffer:
            return dynamic_constants ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC
                                     : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
        case RegisterKind::Resource:
            return d.buffer ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER
                            : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
        case RegisterKind::Sampler:
            return VK_DESCRIPTOR_TYPE_SAMPLER;
        case RegisterKind::Uav:
            return d.buffer ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER
                            : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    }
    return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
}

std::uint32_t constant_buffer_count(const TranslatedShader& shader) {
    return static_cast<std::uint32_t>(std::count_if(
        shader.descriptors.begin(), shader.descriptors.end(),
        [](const ShaderDescriptor& d) { return d.kind == RegisterKind::ConstantBuffer; }));
}

}  // namespace d3dcap::runtime::backend::vulkan
