// Dispatches on the Vulkan device: the compute shader translated by
// vkd3d-shader, its bound slots in set 0 of the flat binding space
// (vulkan_descriptors.cpp), one vkCmdDispatch (or vkCmdDispatchIndirect,
// whose arguments D3D11 lays out the same way).
#include <cstring>

#include "runtime/backend/vulkan/vulkan_backend.h"
#include "runtime/shader/container.h"

namespace d3dcap::runtime::backend::vulkan {

void VulkanBackend::destroy_pipelines() {
    samplers_.destroy();
    pipelines_.clear();
    last_draw_ = {};
    descriptors_.destroy();
}

std::string VulkanBackend::prepare_shader(std::span<const std::uint8_t> bytecode,
                                          const StreamOutputDeclaration* stream_output) {
    std::string error;
    // A domain shader is translated for the hull shader of each draw (what
    // it cannot run is said there).
    if (const auto chunks = shader::read_container(bytecode, error);
        chunks && shader::program_type(*chunks, error) == 4)
        return {};
    TranslationOptions options;
    options.stream_output = stream_output;
    return translator_.translate(bytecode, error, options) ? std::string() : error;
}

std::string VulkanBackend::dispatch(const StageWork& compute, const DispatchSize& groups,
                                    WorkResults& results) {
    const Operation call(*this);
    GpuResource* arguments = groups.arguments ? use(groups.arguments) : nullptr;
    if (groups.arguments && (arguments == nullptr || !arguments->is_buffer()))
        return "pBufferForArgs is not a buffer of this device";
    std::string error;
    const auto slices = uav_first_slices(compute);
    TranslationOptions options;
    options.uav_first_slices = slices;
    const auto shader = translator_.translate(compute.bytecode, error, options);
    if (!shader) return error;
    if (shader->program_type != 5) return "the bound compute shader holds another stage";
    const ComputePipeline* pipeline = pipelines_.compute(shader, error);
    if (pipeline == nullptr) return error;

    // The descriptors, from the bound slots (the set of the dispatch before
    // where they are the same).
    std::string why = resolve_stage(compute, *shader, pipeline->dynamic_constants, stage_scratch_);
    if (why.empty()) why = stage_set(pipeline->set_layout, stage_scratch_, compute_set_);
    if (!why.empty()) return why;
    PendingCounts counts;
    if (!queries_.start(false, groups.count_statistics, false, counts))
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
    for (std::uint32_t i = 0; i < count; ++i) offsets[i] = compute_set_.dynamic_offsets[i].offset;
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
    results.ticket = queries_.keep(counts);
    return {};
}

}  // namespace d3dcap::runtime::backend::vulkan
