// What a draw binds in the command buffer besides its pipeline's state:
// the vertex, index and argument buffers it reads, and everything bound
// through dynamic state, set only where it differs from what the command
// buffer has bound (BoundDrawState).
#include <algorithm>
#include <cstring>

#include "runtime/backend/vulkan/vulkan_backend.h"

namespace d3dcap::runtime::backend::vulkan {

std::string VulkanBackend::draw_buffers(const DrawWork& work, const DrawArguments& arguments,
                                        const GraphicsPipeline& pipeline, DrawBuffers& out) {
    auto note = [&](const GpuResource& resource) {
        const std::uint64_t key = hazard_key(resource);
        if (std::find(out.touched.begin(), out.touched.end(), key) == out.touched.end())
            out.touched.push_back(key);
    };
    for (std::uint32_t slot : pipeline.vertex_slots) {
        const VertexBufferSlot& vb = work.vertex_buffers[slot];
        GpuResource* buffer = vb.buffer ? use(vb.buffer) : nullptr;
        if (buffer == nullptr && !gpu_->device().execution().null_descriptor)
            return "vertex buffer slot " + std::to_string(slot) + " is empty";
        if (buffer != nullptr) note(*buffer);
        out.vertex[slot] = {buffer ? buffer->buffer : VK_NULL_HANDLE,
                            buffer ? buffer->slice + vb.offset : 0, vb.stride};
    }
    if (arguments.indexed) {
        out.index = work.index_buffer ? use(work.index_buffer) : nullptr;
        if (out.index == nullptr) return "an indexed draw with no index buffer bound";
        note(*out.index);
        out.index_offset = out.index->slice + work.index_offset;
    }
    out.indirect = arguments.arguments ? use(arguments.arguments) : nullptr;
    if (arguments.arguments && out.indirect == nullptr)
        return "pBufferForArgs is not a buffer of this device";
    if (out.indirect != nullptr) note(*out.indirect);
    if (arguments.from_stream_output) {
        if (!stream_output_.available()) return "this GPU has no transform feedback";
        // A buffer stream output never wrote, or no stride: no vertices.
        out.nothing = !stream_output_.written_counter(work.vertex_buffers[0].buffer,
                                                      out.auto_counter, out.auto_counter_offset) ||
                      work.vertex_buffers[0].stride == 0;
    }
    return {};
}

void VulkanBackend::bind_viewports(VkCommandBuffer commands, const DrawWork& work,
                                   VkExtent2D area) {
    BoundDrawState& bound = bound_draw_;
    viewports_.clear();
    scissors_.clear();
    for (std::size_t i = 0; i < work.viewports.size(); ++i) {
        const D3D11_VIEWPORT& v = work.viewports[i];
        const bool empty = v.Width <= 0.0f || v.Height <= 0.0f;
        viewports_.push_back({v.TopLeftX, v.TopLeftY + v.Height, empty ? 1.0f : v.Width,
                              empty ? -1.0f : -v.Height, v.MinDepth, v.MaxDepth});
        VkRect2D scissor{{0, 0}, area};
        if (work.rasterizer.ScissorEnable) {
            const D3D11_RECT rect = i < work.scissors.size() ? work.scissors[i] : D3D11_RECT{};
            const LONG left = std::max<LONG>(rect.left, 0), top = std::max<LONG>(rect.top, 0);
            scissor = {{static_cast<std::int32_t>(left), static_cast<std::int32_t>(top)},
                       {static_cast<std::uint32_t>(std::max<LONG>(rect.right - left, 0)),
                        static_cast<std::uint32_t>(std::max<LONG>(rect.bottom - top, 0))}};
        }
        if (empty) scissor.extent = {0, 0};
        scissors_.push_back(scissor);
    }
    auto same = [](const auto& a, const auto& b) {
        return a.size() == b.size() &&
               (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0);
    };
    if (!same(viewports_, bound.viewports)) {
        vkCmdSetViewportWithCount(commands, static_cast<std::uint32_t>(viewports_.size()),
                                  viewports_.data());
        bound.viewports = viewports_;
    }
    if (!same(scissors_, bound.scissors)) {
        vkCmdSetScissorWithCount(commands, static_cast<std::uint32_t>(scissors_.size()),
                                 scissors_.data());
        bound.scissors = scissors_;
    }
}

void VulkanBackend::bind_stage_set(VkCommandBuffer commands, VkPipelineLayout layout, int stage) {
    BoundDrawState& bound = bound_draw_;
    const StageSet& set = stage_sets_[stage];
    std::array<std::uint32_t, 16> offsets{};
    const std::uint32_t count = static_cast<std::uint32_t>(
        std::min<std::size_t>(set.dynamic_offsets.size(), offsets.size()));
    for (std::uint32_t i = 0; i < count; ++i) offsets[i] = set.dynamic_offsets[i].offset;
    if (bound.sets[stage] == set.set && bound.offsets[stage] == offsets) return;
    vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, layout,
                            static_cast<std::uint32_t>(stage), 1, &set.set, count, offsets.data());
    bound.sets[stage] = set.set;
    bound.offsets[stage] = offsets;
}

void VulkanBackend::bind_draw_state(VkCommandBuffer commands, const DrawWork& work,
                                    std::uint32_t changed, const GraphicsPipeline& pipeline,
                                    const PipelineShaders& shaders, const DrawBuffers& buffers,
                                    VkExtent2D area) {
    BoundDrawState& bound = bound_draw_;
    if (bound.epoch != gpu_->state_epoch()) {
        bound = {};
        bound.epoch = gpu_->state_epoch();
        changed = kAllDrawParts;
    }
    if (bound.pipeline != pipeline.pipeline) {
        vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.pipeline);
        bound.pipeline = pipeline.pipeline;
    }
    if (bound.layout != pipeline.layout) {  // sets bound with another layout are rebound
        bound.layout = pipeline.layout;
        bound.sets = {};
    }
    for (int stage = 0; stage < 5; ++stage)
        if (shaders.stages[stage]) bind_stage_set(commands, pipeline.layout, stage);

    if (changed & (kViewportsPart | kRasterizerPart | kOutputPart | kStreamOutputPart))
        bind_viewports(commands, work, area);
    if (!bound.constants_set || bound.blend_factor != work.blend_factor) {
        vkCmdSetBlendConstants(commands, work.blend_factor.data());
        bound.blend_factor = work.blend_factor;
    }
    if (!bound.constants_set || bound.stencil_ref != (work.stencil_ref & 0xff)) {
        vkCmdSetStencilReference(commands, VK_STENCIL_FACE_FRONT_AND_BACK, work.stencil_ref & 0xff);
        bound.stencil_ref = work.stencil_ref & 0xff;
    }
    bound.constants_set = true;
    for (std::uint32_t slot : pipeline.vertex_slots) {
        const VertexBinding& vb = buffers.vertex[slot];
        if (bound.vertex[slot] == vb) continue;
        vkCmdBindVertexBuffers2(commands, slot, 1, &vb.buffer, &vb.offset, nullptr, &vb.stride);
        bound.vertex[slot] = vb;
    }
    if (buffers.index != nullptr) {
        const VkIndexType type =
            work.index_format == DXGI_FORMAT_R16_UINT ? VK_INDEX_TYPE_UINT16 : VK_INDEX_TYPE_UINT32;
        if (bound.index_buffer != buffers.index->buffer ||
            bound.index_offset != buffers.index_offset || bound.index_type != type) {
            vkCmdBindIndexBuffer(commands, buffers.index->buffer, buffers.index_offset, type);
            bound.index_buffer = buffers.index->buffer;
            bound.index_offset = buffers.index_offset;
            bound.index_type = type;
        }
    }
}

}  // namespace d3dcap::runtime::backend::vulkan
