// Dispatches on the Vulkan device: the compute shader translated by
// vkd3d-shader, its bound slots in set 0 of the flat binding space
// (vulkan_descriptors.cpp), one vkCmdDispatch (or vkCmdDispatchIndirect,
// whose arguments D3D11 lays out the same way).
#include <cstring>

#include "runtime/backend/vulkan/vulkan_backend.h"
#include "runtime/shader/container.h"

namespace d3dcap::runtime::backend::vulkan {

void VulkanBackend::destroy_pipelines() {
    const VkDevice dev = gpu_->vk();
    for (auto& [shader, pipeline] : compute_pipelines_) {
        vkDestroyPipeline(dev, pipeline.pipeline, nullptr);
        vkDestroyPipelineLayout(dev, pipeline.layout, nullptr);
    }
    compute_pipelines_.clear();
    for (auto& [key, sampler] : samplers_) vkDestroySampler(dev, sampler, nullptr);
    samplers_.clear();
    for (auto& [key, pipeline] : graphics_pipelines_) destroy(pipeline);
    graphics_pipelines_.clear();
    last_pipeline_ = nullptr;
    last_draw_ = {};
    descriptors_.destroy();
}

const ComputePipeline* VulkanBackend::compute_pipeline(
    const std::shared_ptr<const TranslatedShader>& shader, std::string& error) {
    if (auto found = compute_pipelines_.find(shader.get()); found != compute_pipelines_.end())
        return &found->second;
    const VkDevice dev = gpu_->vk();
    ComputePipeline made;
    made.shader = shader;
    made.dynamic_constants =
        constant_buffer_count(*shader) <= gpu_->device().adapter().max_dynamic_uniform_buffers;
    made.set_layout = descriptors_.layout(
        layout_bindings(*shader, VK_SHADER_STAGE_COMPUTE_BIT, made.dynamic_constants));
    VkPipelineLayoutCreateInfo layout_info{};
    layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &made.set_layout;
    VkShaderModuleCreateInfo module_info{};
    module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    module_info.codeSize = shader->spirv.size() * 4;
    module_info.pCode = shader->spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    if (made.set_layout == VK_NULL_HANDLE ||
        vkCreatePipelineLayout(dev, &layout_info, nullptr, &made.layout) != VK_SUCCESS ||
        vkCreateShaderModule(dev, &module_info, nullptr, &module) != VK_SUCCESS) {
        error = "the GPU refused the translated shader's layout or module";
        vkDestroyPipelineLayout(dev, made.layout, nullptr);
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
        return nullptr;
    }
    return &compute_pipelines_.emplace(shader.get(), std::move(made)).first->second;
}

std::string VulkanBackend::prepare_shader(std::span<const std::uint8_t> bytecode,
                                          const StreamOutputDeclaration* stream_output) {
    std::string error;
    // A domain shader is translated for the hull shader of each draw (what
    // it cannot run is said there).
    if (const auto chunks = shader::read_container(bytecode, error);
        chunks && shader::program_type(*chunks, error) == 4)
        return {};
    return translator_.translate(bytecode, error, nullptr, false, stream_output) ? std::string()
                                                                                 : error;
}

std::string VulkanBackend::dispatch(const StageWork& compute, const DispatchSize& groups,
                                    WorkResults& results) {
    const Operation call(*this);
    GpuResource* arguments = groups.arguments ? use(groups.arguments) : nullptr;
    if (groups.arguments && (arguments == nullptr || !arguments->is_buffer()))
        return "pBufferForArgs is not a buffer of this device";
    std::string error;
    const auto shader = translator_.translate(compute.bytecode, error, nullptr, false, nullptr,
                                              uav_first_slices(compute));
    if (!shader) return error;
    if (shader->program_type != 5) return "the bound compute shader holds another stage";
    const ComputePipeline* pipeline = compute_pipeline(shader, error);
    if (pipeline == nullptr) return error;

    // The descriptors, from the bound slots (the set of the dispatch before
    // where they are the same).
    std::string why = resolve_stage(compute, *shader, pipeline->dynamic_constants, stage_scratch_);
    if (why.empty()) why = stage_set(pipeline->set_layout, stage_scratch_, compute_set_);
    if (!why.empty()) return why;
    PendingCounts counts;
    if (!start_counts(false, groups.count_statistics, false, counts))
        return "the GPU cannot make a pipeline-statistics query";
    const GpuResource* predicate = groups.predicate.id ? find(groups.predicate.id) : nullptr;

    // Only tracked commands from here on.
    gpu_->begin_work();
    constexpr VkPipelineStageFlags2 kCompute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    for (const StageSet::Touch& t : compute_set_.touches) gpu_->touch(t.key, t.write, kCompute);
    if (arguments != nullptr)
        gpu_->touch(hazard_key(*arguments), false, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    if (predicate != nullptr)
        gpu_->touch(handle_key(predicate->buffer), false,
                    VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT);
    const VkCommandBuffer commands = gpu_->compute();
    if (counts.statistics)
        vkCmdBeginQuery(commands, counts.statistics->pool, counts.statistics->index, 0);
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->pipeline);
    std::array<std::uint32_t, 16> offsets{};
    const std::uint32_t count = static_cast<std::uint32_t>(
        std::min<std::size_t>(compute_set_.dynamic_offsets.size(), offsets.size()));
    for (std::uint32_t i = 0; i < count; ++i) offsets[i] = compute_set_.dynamic_offsets[i].second;
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline->layout, 0, 1,
                            &compute_set_.set, count, offsets.data());
    const bool predicated = begin_predicated(commands, groups.predicate);
    if (arguments != nullptr)
        vkCmdDispatchIndirect(commands, arguments->buffer, groups.offset);
    else
        vkCmdDispatch(commands, groups.x, groups.y, groups.z);
    end_predicated(commands, predicated);
    if (counts.statistics)
        vkCmdEndQuery(commands, counts.statistics->pool, counts.statistics->index);
    results.ticket = keep_counts(counts);
    return {};
}

}  // namespace d3dcap::runtime::backend::vulkan
