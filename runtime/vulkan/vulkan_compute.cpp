// Dispatches on the Vulkan device: the compute shader translated by
// vkd3d-shader, its constant-buffer windows, buffer resources and buffer
// UAVs bound in set 0 of the flat binding space, one vkCmdDispatch (or
// vkCmdDispatchIndirect, whose arguments D3D11 lays out the same way).
#include <algorithm>

#include "runtime/formats.h"
#include "runtime/vulkan/vulkan_backend.h"

namespace d3dcap::runtime::gpu {

namespace {

// The Vulkan format of a typed buffer view; raw and structured views read
// 32-bit words. VK_FORMAT_UNDEFINED: no texel-buffer format for it.
VkFormat texel_buffer_format(DXGI_FORMAT format) {
    switch (format) {
        case DXGI_FORMAT_UNKNOWN:       // structured
        case DXGI_FORMAT_R32_TYPELESS:  // raw
        case DXGI_FORMAT_R32_UINT:
            return VK_FORMAT_R32_UINT;
        case DXGI_FORMAT_R32_SINT:
            return VK_FORMAT_R32_SINT;
        case DXGI_FORMAT_R32_FLOAT:
            return VK_FORMAT_R32_SFLOAT;
        case DXGI_FORMAT_R32G32_UINT:
            return VK_FORMAT_R32G32_UINT;
        case DXGI_FORMAT_R32G32_SINT:
            return VK_FORMAT_R32G32_SINT;
        case DXGI_FORMAT_R32G32_FLOAT:
            return VK_FORMAT_R32G32_SFLOAT;
        case DXGI_FORMAT_R32G32B32A32_UINT:
            return VK_FORMAT_R32G32B32A32_UINT;
        case DXGI_FORMAT_R32G32B32A32_SINT:
            return VK_FORMAT_R32G32B32A32_SINT;
        case DXGI_FORMAT_R32G32B32A32_FLOAT:
            return VK_FORMAT_R32G32B32A32_SFLOAT;
        case DXGI_FORMAT_R16G16B16A16_FLOAT:
            return VK_FORMAT_R16G16B16A16_SFLOAT;
        case DXGI_FORMAT_R16G16B16A16_UINT:
            return VK_FORMAT_R16G16B16A16_UINT;
        case DXGI_FORMAT_R8G8B8A8_UNORM:
            return VK_FORMAT_R8G8B8A8_UNORM;
        case DXGI_FORMAT_R8G8B8A8_UINT:
            return VK_FORMAT_R8G8B8A8_UINT;
        case DXGI_FORMAT_R16_UINT:
            return VK_FORMAT_R16_UINT;
        case DXGI_FORMAT_R16_FLOAT:
            return VK_FORMAT_R16_SFLOAT;
        case DXGI_FORMAT_R8_UINT:
            return VK_FORMAT_R8_UINT;
        case DXGI_FORMAT_R8_UNORM:
            return VK_FORMAT_R8_UNORM;
        default:
            return VK_FORMAT_UNDEFINED;
    }
}

VkDescriptorType descriptor_type(const ShaderDescriptor& d) {
    switch (d.kind) {
        case RegisterKind::ConstantBuffer:
            return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
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

const ViewInfo* view_in(const std::vector<std::pair<std::uint32_t, ViewInfo>>& slots,
                        std::uint32_t slot) {
    for (const auto& [bound, view] : slots)
        if (bound == slot) return &view;
    return nullptr;
}

}  // namespace

void VulkanBackend::destroy_pipelines() {
    const VkDevice dev = gpu_->vk();
    for (auto& [shader, pipeline] : compute_pipelines_) {
        vkDestroyPipeline(dev, pipeline.pipeline, nullptr);
        vkDestroyPipelineLayout(dev, pipeline.layout, nullptr);
        vkDestroyDescriptorSetLayout(dev, pipeline.set_layout, nullptr);
    }
    compute_pipelines_.clear();
}

const ComputePipeline* VulkanBackend::compute_pipeline(
    const std::shared_ptr<const TranslatedShader>& shader, std::string& error) {
    if (auto found = compute_pipelines_.find(shader.get()); found != compute_pipelines_.end())
        return &found->second;
    const VkDevice dev = gpu_->vk();
    ComputePipeline made;
    made.shader = shader;
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (const ShaderDescriptor& d : shader->descriptors) {
        bindings.push_back(
            {d.binding, descriptor_type(d), 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    }
    VkDescriptorSetLayoutCreateInfo set_info{};
    set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
    set_info.bindingCount = static_cast<std::uint32_t>(bindings.size());
    set_info.pBindings = bindings.data();
    VkPipelineLayoutCreateInfo layout_info{};
    layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &made.set_layout;
    VkShaderModuleCreateInfo module_info{};
    module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    module_info.codeSize = shader->spirv.size() * 4;
    module_info.pCode = shader->spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    if (vkCreateDescriptorSetLayout(dev, &set_info, nullptr, &made.set_layout) != VK_SUCCESS ||
        vkCreatePipelineLayout(dev, &layout_info, nullptr, &made.layout) != VK_SUCCESS ||
        vkCreateShaderModule(dev, &module_info, nullptr, &module) != VK_SUCCESS) {
        error = "the GPU refused the translated shader's layout or module";
        vkDestroyPipelineLayout(dev, made.layout, nullptr);
        vkDestroyDescriptorSetLayout(dev, made.set_layout, nullptr);
        return nullptr;
    }
    VkComputePipelineCreateInfo pipeline_info{};
    pipeline_info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    pipeline_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipeline_info.stage.module = module;
    pipeline_info.stage.pName = "main";
    pipeline_info.layout = made.layout;
    const VkResult result =
        vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &pipeline_info, nullptr, &made.pipeline);
    vkDestroyShaderModule(dev, module, nullptr);
    if (result != VK_SUCCESS) {
        error = "the GPU cannot build a compute pipeline of the translated shader (VkResult " +
                std::to_string(result) + ")";
        vkDestroyPipelineLayout(dev, made.layout, nullptr);
        vkDestroyDescriptorSetLayout(dev, made.set_layout, nullptr);
        return nullptr;
    }
    return &compute_pipelines_.emplace(shader.get(), std::move(made)).first->second;
}

std::string VulkanBackend::prepare_shader(std::span<const std::uint8_t> bytecode) {
    std::string error;
    return translator_.translate(bytecode, error) ? std::string() : error;
}

std::string VulkanBackend::dispatch(const StageWork& compute, const DispatchSize& groups) {
    std::lock_guard lock(mutex_);
    GpuResource* arguments = groups.arguments ? use(groups.arguments) : nullptr;
    if (groups.arguments && (arguments == nullptr || !arguments->is_buffer()))
        return "pBufferForArgs is not a buffer of this device";
    std::string error;
    const auto shader = translator_.translate(compute.bytecode, error);
    if (!shader) return error;
    if (shader->program_type != 5) return "the bound compute shader holds another stage";
    const ComputePipeline* pipeline = compute_pipeline(shader, error);
    if (pipeline == nullptr) return error;

    // The descriptors, from the bound slots. Views live until the work is done.
    const VkDevice dev = gpu_->vk();
    std::vector<VkBufferView> views;
    auto release_views = [&] {
        for (VkBufferView view : views) vkDestroyBufferView(dev, view, nullptr);
    };
    std::vector<VkDescriptorBufferInfo> buffers;
    buffers.reserve(shader->descriptors.size());
    views.reserve(shader->descriptors.size());
    std::vector<VkWriteDescriptorSet> writes;
    const VkDeviceSize texel_alignment = gpu_->device().adapter().min_texel_buffer_alignment;
    for (const ShaderDescriptor& d : shader->descriptors) {
        VkWriteDescriptorSet write{};
        write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        write.dstBinding = d.binding;
        write.descriptorCount = 1;
        write.descriptorType = descriptor_type(d);
        if (d.counter) {
            release_views();
            return "u" + std::to_string(d.reg) + " has a hidden counter (append/consume), " +
                   "which the Vulkan device does not run yet";
        }
        if (d.kind == RegisterKind::ConstantBuffer) {
            const ConstantBufferWindow& window = compute.constant_buffers[d.reg];
            GpuResource* buffer = window.buffer ? use(window.buffer) : nullptr;
            if (buffer == nullptr || window.size == 0) {
                release_views();
                return "cb" + std::to_string(d.reg) + " is not bound";
            }
            buffers.push_back(
                {buffer->buffer, window.offset, std::min<VkDeviceSize>(window.size, 65536)});
            write.pBufferInfo = &buffers.back();
        } else if (d.buffer) {
            const bool uav = d.kind == RegisterKind::Uav;
            const ViewInfo* view = view_in(uav ? compute.uavs : compute.resources, d.reg);
            const std::string name = (uav ? "u" : "t") + std::to_string(d.reg);
            GpuResource* buffer = view ? use(view->resource) : nullptr;
            if (buffer == nullptr || !buffer->is_buffer()) {
                release_views();
                return name + " is not bound to a buffer view";
            }
            const VkFormat format = texel_buffer_format(view->format);
            const std::uint32_t element = view->format == DXGI_FORMAT_UNKNOWN
                                              ? buffer->info.structure_stride
                                          : view->format == DXGI_FORMAT_R32_TYPELESS
                                              ? 4
                                              : formats::info(view->format).bits_per_element / 8u;
            const VkDeviceSize offset = view->first_element * element;
            if (format == VK_FORMAT_UNDEFINED || offset % texel_alignment) {
                release_views();
                return name + (format == VK_FORMAT_UNDEFINED
                                   ? " has a format the Vulkan device does not read in shaders yet"
                                   : " starts at a byte offset this GPU cannot view");
            }
            VkBufferViewCreateInfo view_info{};
            view_info.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO;
            view_info.buffer = buffer->buffer;
            view_info.format = format;
            view_info.offset = offset;
            view_info.range = view->element_count * element;
            VkBufferView made = VK_NULL_HANDLE;
            if (vkCreateBufferView(dev, &view_info, nullptr, &made) != VK_SUCCESS) {
                release_views();
                return name + ": the GPU cannot view this buffer range";
            }
            views.push_back(made);
            write.pTexelBufferView = &views.back();
        } else {
            release_views();
            return std::string(d.kind == RegisterKind::Sampler ? "s" : "t/u") +
                   std::to_string(d.reg) +
                   ": textures and samplers in shaders are not run by the Vulkan device yet";
        }
        writes.push_back(write);
    }

    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 16},
                                    {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 128},
                                    {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 64}};
    VkDescriptorPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = 3;
    pool_info.pPoolSizes = sizes;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkDescriptorSet set = VK_NULL_HANDLE;
    VkDescriptorSetAllocateInfo set_info{};
    set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    set_info.descriptorSetCount = 1;
    set_info.pSetLayouts = &pipeline->set_layout;
    if (vkCreateDescriptorPool(dev, &pool_info, nullptr, &pool) != VK_SUCCESS ||
        (set_info.descriptorPool = pool,
         vkAllocateDescriptorSets(dev, &set_info, &set) != VK_SUCCESS)) {
        vkDestroyDescriptorPool(dev, pool, nullptr);
        release_views();
        return "the GPU has no descriptor memory left";
    }
    for (VkWriteDescriptorSet& write : writes) write.dstSet = set;
    vkUpdateDescriptorSets(dev, static_cast<std::uint32_t>(writes.size()), writes.data(), 0,
                           nullptr);

    const VkCommandBuffer commands = gpu_->commands();
    gpu_->barrier();
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->pipeline);
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->layout, 0, 1, &set,
                            0, nullptr);
    if (arguments != nullptr)
        vkCmdDispatchIndirect(commands, arguments->buffer, groups.offset);
    else
        vkCmdDispatch(commands, groups.x, groups.y, groups.z);
    const bool done = gpu_->finish();
    vkDestroyDescriptorPool(dev, pool, nullptr);
    release_views();
    return done ? std::string() : "the GPU was lost running the dispatch";
}

}  // namespace d3dcap::runtime::gpu
