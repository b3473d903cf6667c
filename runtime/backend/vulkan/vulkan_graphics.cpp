// Draws on the Vulkan device: the translated shaders linked, the pipeline
// of the draw's state (pipelines.h), each stage's slots in a descriptor
// set of its own, and dynamic rendering into the bound render-target and
// depth-stencil views, which a render pass instance keeps across draws.
// What the draw binds besides is in vulkan_draw_state.cpp.
#include <algorithm>
#include <bit>
#include <cstring>

#include "runtime/backend/vulkan/vk_formats.h"
#include "runtime/backend/vulkan/vulkan_backend.h"
#include "runtime/formats/formats.h"
#include "runtime/shader/signature_names.h"

namespace d3dcap::runtime::backend::vulkan {
namespace {

constexpr int kVertex = 0, kHull = 1, kDomain = 2, kGeometry = 3, kPixel = 4;
constexpr const char* kStageNames[] = {"vertex", "hull", "domain", "geometry", "pixel"};
constexpr int kProgramTypes[] = {1, 3, 4, 2, 0};  // of each stage, in DXBC's numbering

bool dual_source(D3D11_BLEND blend) {
    return blend >= D3D11_BLEND_SRC1_COLOR && blend <= D3D11_BLEND_INV_SRC1_ALPHA;
}

// Target 0 blends with a second source (D3D11 allows it on target 0 only).
bool dual_source_blend(const D3D11_BLEND_DESC1& desc) {
    const D3D11_RENDER_TARGET_BLEND_DESC1& t = desc.RenderTarget[0];
    return t.BlendEnable && (dual_source(t.SrcBlend) || dual_source(t.DestBlend) ||
                             dual_source(t.SrcBlendAlpha) || dual_source(t.DestBlendAlpha));
}

// A bit per render-target slot whose view is of an alpha-only format, kept
// in Vulkan as a red channel.
std::uint8_t alpha_only_targets(const DrawWork& work) {
    std::uint8_t slots = 0;
    for (const auto& [slot, view] : work.render_targets)
        if (slot < 8 && view.format == DXGI_FORMAT_A8_UNORM) slots |= 1u << slot;
    return slots;
}

// Stages link by register, as D3D11's share a register array (semantics
// are not matched). vkd3d-shader links varyings by register too, but a
// register the stage before writes only as a system value (SV_Position) is
// not passed on as a varying: empty, or the first input read from one.
std::string check_linkage(const PipelineShaders& shaders) {
    const TranslatedShader* producer = nullptr;
    int producer_stage = kVertex;
    for (int stage = 0; stage < 5; ++stage) {
        const TranslatedShader* consumer = shaders.stages[stage].get();
        if (consumer == nullptr) continue;
        for (const shader::SignatureElement& input : consumer->inputs) {
            if (producer == nullptr || !varying(input)) continue;
            const auto written = [&](const shader::SignatureElement& output) {
                return output.register_index == input.register_index && varying(output);
            };
            if (std::none_of(producer->outputs.begin(), producer->outputs.end(), written))
                return std::string("the ") + kStageNames[stage] + " shader's input " +
                       input.semantic_name + std::to_string(input.semantic_index) + " (v" +
                       std::to_string(input.register_index) +
                       ") is not written to that register as a varying by the " +
                       kStageNames[producer_stage] + " shader";
        }
        producer = consumer;
        producer_stage = stage;
    }
    return {};
}

// Stream output with D3D11_SO_NO_RASTERIZED_STREAM, or a stream the shader
// does not emit to: nothing reaches the rasterizer, and no attachment is used.
bool rasterizer_discards(const DrawWork& work) {
    return work.stream_output.active() && work.stream_output.declaration->rasterized_stream != 0;
}

// The DrawWork parts each thing a draw resolves depends on.
constexpr std::uint32_t kTranslationParts =
    kStageShaderParts | kBlendPart | kStreamOutputPart | kOutputPart;
constexpr std::uint32_t kTargetParts = kOutputPart | kStreamOutputPart;
constexpr std::uint32_t kPipelineParts = kTranslationParts | kTargetParts | kInputLayoutPart |
                                         kRasterizerPart | kBlendPart | kDepthStencilPart;

bool plain(std::span<const std::uint64_t> hazard_keys) {
    return std::find(hazard_keys.begin(), hazard_keys.end(), HazardTracker::kTiledMemory) ==
           hazard_keys.end();
}

}  // namespace

std::string VulkanBackend::pipeline_targets(const DrawWork& work, PipelineTargets& out) {
    // Formats and the sample count of the attachments (D3D11: one for all);
    // none where nothing is rasterized, as draw() begins rendering with none.
    out = {};
    out.discard = rasterizer_discards(work);
    std::optional<VkSampleCountFlagBits> samples;
    auto sample_count = [&](ObjectId id) {
        const GpuResource* resource = find(id);
        const VkSampleCountFlagBits count =
            resource != nullptr ? resource->storage.samples : VK_SAMPLE_COUNT_1_BIT;
        if (samples && *samples != count) return false;
        samples = count;
        return true;
    };
    for (const auto& [slot, view] : work.render_targets) {
        if (out.discard) break;
        if (slot >= out.colors.size()) out.colors.resize(slot + 1, VK_FORMAT_UNDEFINED);
        out.colors[slot] = same_bits_format(view.format);
        if (slot < 8 && (view.format == DXGI_FORMAT_B8G8R8X8_UNORM ||
                         view.format == DXGI_FORMAT_B8G8R8X8_UNORM_SRGB))
            out.alpha_one |= 1u << slot;
        if (!sample_count(view.resource)) return "the render targets have different sample counts";
    }
    if (!out.discard) out.alpha_in_red = alpha_only_targets(work);
    if (work.depth_stencil_view && !out.discard) {
        const GpuResource* depth = find(work.depth_stencil_view->resource);
        if (depth != nullptr) out.depth = depth->storage.format;
        if (!sample_count(work.depth_stencil_view->resource)) {
            return "the depth-stencil view's sample count is not the render targets'";
        }
    }
    out.samples = samples.value_or(VK_SAMPLE_COUNT_1_BIT);
    return {};
}

std::string VulkanBackend::attachment_view(const ViewInfo& view, bool depth, VkImageView& out,
                                           VkExtent2D& extent, std::uint64_t& key) {
    const char* what = depth ? "the depth-stencil view" : "a render-target view";
    GpuResource* resource = use(view.resource);
    if (resource == nullptr || resource->is_buffer())
        return std::string(what) + " is not of a texture this device draws into";
    const ImageStorage& storage = resource->storage;
    if (!storage.real)
        return std::string(what) + ": " + kept_as_bits(*resource) +
               ", which it cannot draw into yet";
    const bool volume = storage.type == VK_IMAGE_TYPE_3D;
    const bool line = storage.type == VK_IMAGE_TYPE_1D;  // a target one texel high
    if (volume && !(storage.flags & VK_IMAGE_CREATE_2D_ARRAY_COMPATIBLE_BIT))
        return std::string(what) + " of a tiled 3D texture is not drawn into yet";
    wrote(*resource);
    key = hazard_key(*resource);
    VkImageViewCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    info.image = resource->image;
    // A 3D texture's W slices are the layers of a 2D array view of its mip.
    const bool array = view.slice_count > 1 || volume;
    info.viewType = line    ? (array ? VK_IMAGE_VIEW_TYPE_1D_ARRAY : VK_IMAGE_VIEW_TYPE_1D)
                    : array ? VK_IMAGE_VIEW_TYPE_2D_ARRAY
                            : VK_IMAGE_VIEW_TYPE_2D;
    info.format = depth ? storage.format : same_bits_format(view.format);
    info.subresourceRange = {storage.aspects, view.first_mip, 1, view.first_slice,
                             std::max<std::uint32_t>(1, view.slice_count)};
    const std::string why =
        depth ? make_view(*resource, info, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                          VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT, out)
              : make_view(*resource, info, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                          VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT, out);
    if (!why.empty())
        return std::string(what) + ": " + why + " (" + formats::describe(view.format) + ")";
    extent = {std::max<std::uint32_t>(1, storage.extent.width >> view.first_mip),
              std::max<std::uint32_t>(1, storage.extent.height >> view.first_mip)};
    return {};
}

std::string VulkanBackend::draw_shaders(const DrawWork& work, PipelineShaders& shaders) {
    std::string error;
    // Stream output comes from the last stage before the rasterizer: the
    // geometry shader, or (a geometry shader made of a vertex or domain
    // shader's bytecode, which passes its outputs through) the stage before.
    const StreamOutputDeclaration* stream_output = work.stream_output.declaration;
    bool pass_through = false;
    if (stream_output != nullptr && !work.stages[kGeometry].bytecode.empty()) {
        const auto geometry = translator_.translate(work.stages[kGeometry].bytecode, error);
        if (!geometry) return error;
        pass_through = geometry->program_type != kProgramTypes[kGeometry];
    }
    const int last_stage = !work.stages[kGeometry].bytecode.empty() && !pass_through ? kGeometry
                           : !work.stages[kDomain].bytecode.empty()                  ? kDomain
                                                                                     : kVertex;
    for (int stage = 0; stage < 5; ++stage) {
        if (work.stages[stage].bytecode.empty() || (stage == kGeometry && pass_through)) continue;
        if (stage == kDomain && !shaders.stages[kHull])
            return "a domain shader is bound without a hull shader";
        // The same shader object translated the same way as for the draw
        // before: that translation (ids are never reused).
        StageTranslation wanted{work.stages[stage].shader, {}, {}};
        TranslationOptions& options = wanted.options;
        if (stage == kDomain) options.hull = shaders.stages[kHull].get();
        if (stage == kPixel) {
            options.dual_source = dual_source_blend(work.blend);
            options.alpha_in_red = alpha_only_targets(work);
        }
        if (stage == last_stage) options.stream_output = stream_output;
        const auto slices = uav_first_slices(work.stages[stage]);
        StageTranslation& last = last_translations_[stage];
        if (wanted.shader != 0 && slices.empty() && last.result && last.same_as(wanted)) {
            shaders.stages[stage] = last.result;
        } else {
            options.uav_first_slices = slices;
            shaders.stages[stage] =
                translator_.translate(work.stages[stage].bytecode, error, options);
            options.uav_first_slices = {};
            wanted.result = slices.empty() ? shaders.stages[stage] : nullptr;
            last = wanted;
        }
        if (!shaders.stages[stage]) return error;
        if (shaders.stages[stage]->program_type != kProgramTypes[stage])
            return std::string("the bound ") + kStageNames[stage] + " shader holds another stage";
    }
    if (shaders.stages[kHull] && !shaders.stages[kDomain])
        return "a hull shader is bound without a domain shader";
    // The same shaders as the draw before were linked then.
    if (shaders.stages == linked_shaders_) return {};
    if (std::string why = check_linkage(shaders); !why.empty()) return why;
    linked_shaders_ = shaders.stages;
    return {};
}

std::string VulkanBackend::draw_targets(const DrawWork& work, RenderTargets& targets) {
    targets = {};
    VkExtent2D area{~0u, ~0u};
    const bool discard = rasterizer_discards(work);
    auto attach = [&](const ViewInfo& view, bool depth, VkImageView& out) {
        VkExtent2D extent{};
        std::uint64_t key = 0;
        std::string why = attachment_view(view, depth, out, extent, key);
        if (!why.empty()) return why;
        targets.images[targets.image_count++] = key;
        area = {std::min(area.width, extent.width), std::min(area.height, extent.height)};
        return why;
    };
    for (const auto& [slot, view] : work.render_targets) {
        if (discard) break;
        if (slot >= RenderTargets::kColors) return "render-target slot " + std::to_string(slot);
        targets.color_count = std::max(targets.color_count, slot + 1);
        if (std::string why = attach(view, false, targets.colors[slot]); !why.empty()) return why;
        targets.layers = std::max(targets.layers, view.slice_count);
    }
    if (work.depth_stencil_view && !discard) {
        if (std::string why = attach(*work.depth_stencil_view, true, targets.depth); !why.empty())
            return why;
        targets.stencil = has_stencil(find(work.depth_stencil_view->resource)->storage.format);
    }
    if (area.width == ~0u) area = {16384, 16384};  // no attachments: UAV-only rendering
    targets.area = area;
    return {};
}

bool VulkanBackend::draw_again(const DrawWork& work, std::uint32_t changed,
                               const DrawArguments& arguments, WorkResults& results) {
    LastDraw& last = last_draw_;
    if (last.render_serial == 0 || (changed & ~kStageConstantsParts) != 0 ||
        work.predicate.id != 0 || arguments.arguments || arguments.from_stream_output ||
        arguments.indexed != last.indexed || bound_draw_.epoch != gpu_->state_epoch() ||
        gpu_->rendering_serial() != last.render_serial)
        return false;
    const GraphicsPipeline& pipeline = *last.pipeline;
    // A bit per stage with a shader whose constant-buffer windows changed.
    const std::uint32_t moved =
        (changed & kStageConstantsParts) / kStageConstantsPart & last.shader_stages;
    for (std::uint32_t left = moved; left != 0; left &= left - 1) {
        const int stage = std::countr_zero(left);
        if (!move_windows(work.stages[stage], stage_sets_[stage])) return false;
    }
    const VkCommandBuffer commands = gpu_->render_again(last.render_serial);
    if (commands == VK_NULL_HANDLE) return false;
    for (std::uint32_t left = moved; left != 0; left &= left - 1)
        bind_stage_set(commands, pipeline.layout, std::countr_zero(left));
    if (!queries_.count_in_run(commands, work.count_samples, work.count_statistics,
                               work.counting_epoch, results.ticket))
        return false;
    record_draw(commands, work, arguments, last.buffers);
    return true;
}

void VulkanBackend::record_draw(VkCommandBuffer commands, const DrawWork& work,
                                const DrawArguments& arguments, const DrawBuffers& buffers) {
    const bool predicated = begin_predicated(commands, work.predicate);
    if (arguments.from_stream_output)
        stream_output_.draw_auto(commands, buffers.auto_counter, buffers.auto_counter_offset,
                                 work.vertex_buffers[0].offset, work.vertex_buffers[0].stride);
    else if (buffers.indirect != nullptr && arguments.indexed)
        vkCmdDrawIndexedIndirect(commands, buffers.indirect->buffer, arguments.offset, 1, 0);
    else if (buffers.indirect != nullptr)
        vkCmdDrawIndirect(commands, buffers.indirect->buffer, arguments.offset, 1, 0);
    else if (arguments.indexed)
        vkCmdDrawIndexed(commands, arguments.count, arguments.instances, arguments.start,
                         arguments.base_vertex, arguments.start_instance);
    else
        vkCmdDraw(commands, arguments.count, arguments.instances, arguments.start,
                  arguments.start_instance);
    end_predicated(commands, predicated);
}

std::string VulkanBackend::draw(const DrawWork& work, const DrawArguments& arguments,
                                WorkResults& results) {
    const Operation call(*this);
    gpu_->open();  // a full batch goes before anything is marked used in the open one
    LastDraw& last = last_draw_;
    const bool kept = last.work == &work && last.generation == descriptors_.generation() &&
                      last.batch == gpu_->recording_batch() && !pages_.pending() &&
                      !pages_.has_replicas();
    // Buffers moved to other slices move every kept set's offsets, or the
    // kept buffer bindings.
    const std::uint32_t moved =
        (last.slice_moves != slice_moves_ ? kStageConstantsParts : 0) |
        (last.vertex_slice_moves != vertex_slice_moves_ ? std::uint32_t{kVertexBuffersPart} : 0u);
    last.slice_moves = slice_moves_;
    last.vertex_slice_moves = vertex_slice_moves_;
    if (kept && draw_again(work, work.changed | moved, arguments, results)) return {};
    last.render_serial = 0;
    const std::uint32_t changed = kept ? work.changed | moved : kAllDrawParts;
    last.work = nullptr;  // kept again once this draw is recorded
    if (changed & kTranslationParts) {
        last.shaders = {};
        last.shader_stages = 0;
        if (std::string why = draw_shaders(work, last.shaders); !why.empty()) return why;
        for (int stage = 0; stage < 5; ++stage)
            if (last.shaders.stages[stage]) last.shader_stages |= 1u << stage;
    }
    const PipelineShaders& shaders = last.shaders;
    if (work.viewports.empty()) return {};  // D3D11 rasterizes nothing without a viewport

    // Attachments first: they fix the pipeline's formats and the render area.
    if ((changed & kTargetParts) || !last.plain_targets) {
        if (std::string why = draw_targets(work, last.targets); !why.empty()) return why;
        last.plain_targets = plain(std::span(last.targets.images).first(last.targets.image_count));
    }
    const RenderTargets& targets = last.targets;

    const GraphicsPipeline* previous = last.pipeline;
    if ((changed & kPipelineParts) || previous == nullptr) {
        PipelineTargets formats;
        if (std::string why = pipeline_targets(work, formats); !why.empty()) return why;
        std::string error;
        last.pipeline = pipelines_.graphics(work, shaders, formats, error);
        if (last.pipeline == nullptr) return error;
    }
    const GraphicsPipeline* pipeline = last.pipeline;

    // Descriptors of each stage, in its own set, kept while it binds the
    // same; a stage whose slots did not change keeps its set unresolved
    // (the descriptors a translation has come from its bytecode alone), and
    // one whose constant-buffer windows only moved, its set with new offsets.
    for (int stage = 0; stage < 5; ++stage) {
        if (!shaders.stages[stage]) continue;
        StageSet& set = stage_sets_[stage];
        const std::uint32_t stage_changes = changed & stage_parts(stage);
        if (set.layout == pipeline->set_layouts[stage] && set.plain &&
            (stage_changes == 0 || (stage_changes == kStageConstantsPart << stage &&
                                    move_windows(work.stages[stage], set))))
            continue;
        std::string why = resolve_stage(work.stages[stage], *shaders.stages[stage],
                                        pipeline->dynamic_constants, stage_scratch_);
        if (why.empty()) why = stage_set(pipeline->set_layouts[stage], stage_scratch_, set);
        if (!why.empty()) return std::string(kStageNames[stage]) + " shader: " + why;
    }

    // Buffers.
    DrawBuffers& buffers = last.buffers;
    const bool direct = !arguments.arguments && !arguments.from_stream_output;
    if ((changed & (kVertexBuffersPart | kPipelineParts)) || pipeline != previous || !direct ||
        !last.direct || arguments.indexed != last.indexed || !last.plain_buffers) {
        std::vector<std::uint64_t> touched = std::move(buffers.touched);
        touched.clear();
        buffers = {};
        buffers.touched = std::move(touched);
        if (std::string why = draw_buffers(work, arguments, *pipeline, buffers); !why.empty())
            return why;
        last.indexed = arguments.indexed;
        last.direct = direct;
        last.plain_buffers = plain(buffers.touched);
    }
    if (buffers.nothing) return {};
    StreamOutput::Targets stream_targets;
    if (work.stream_output.active()) {  // no std::function made for the draws without
        const auto stream_target = [this](ObjectId id) {
            GpuResource* buffer = use(id);
            if (buffer != nullptr && buffer->is_buffer()) wrote(*buffer);
            return buffer;
        };
        if (std::string why = stream_output_.prepare(work.stream_output, work.count_stream_output,
                                                     stream_target, stream_targets);
            !why.empty())
            return why;
    }

    // The running queries' counts stay in the command stream until asked
    // for. Where query slots are reset on the host, draws share them in
    // runs (count_in_run); otherwise each draw has its own, reset first.
    const bool runs = gpu_->device().execution().host_query_reset && !stream_targets.query;
    PendingCounts counts;
    if (!runs &&
        !queries_.start(work.count_samples, work.count_statistics, stream_targets.query, counts))
        return "the GPU cannot make a query";

    // From here on only tracked commands: what the draw touches, then the
    // render pass (the one open where the attachments are the same).
    gpu_->begin_work();
    constexpr VkPipelineStageFlags2 kShaders = VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT;
    for (int stage = 0; stage < 5; ++stage)
        if (shaders.stages[stage])
            for (const StageSet::Touch& t : stage_sets_[stage].touches)
                gpu_->touch(t.key, t.write, kShaders);
    for (std::uint64_t key : buffers.touched)
        gpu_->touch(key, false,
                    VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    for (std::uint32_t slot = 0; slot < stream_targets.count; ++slot)
        gpu_->touch(handle_key(stream_targets.buffers[slot]), true,
                    VK_PIPELINE_STAGE_2_TRANSFORM_FEEDBACK_BIT_EXT);
    if (stream_targets.count != 0 || arguments.from_stream_output)
        gpu_->touch(
            handle_key(stream_output_.counters()), true,
            VK_PIPELINE_STAGE_2_TRANSFORM_FEEDBACK_BIT_EXT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    const GpuResource* predicate = work.predicate.id ? find(work.predicate.id) : nullptr;
    if (predicate != nullptr)
        gpu_->touch(handle_key(predicate->buffer), false,
                    VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT);
    const VkCommandBuffer commands = gpu_->render(targets);
    bind_draw_state(commands, work, changed, *pipeline, shaders, buffers, targets.area);

    if (runs && !queries_.count_in_run(commands, work.count_samples, work.count_statistics,
                                       work.counting_epoch, results.ticket))
        return "the GPU cannot make a query";
    if (!runs && queries_.running()) queries_.end_run(commands);  // it would count this draw
    if (counts.statistics)
        vkCmdBeginQuery(commands, counts.statistics->pool, counts.statistics->index, 0);
    if (counts.samples)
        vkCmdBeginQuery(
            commands, counts.samples->pool, counts.samples->index,
            gpu_->device().execution().occlusion_precise ? VK_QUERY_CONTROL_PRECISE_BIT : 0);
    stream_output_.begin(commands, stream_targets, counts.stream_output);
    record_draw(commands, work, arguments, buffers);
    stream_output_.end(commands, stream_targets, counts.stream_output);
    if (counts.samples) vkCmdEndQuery(commands, counts.samples->pool, counts.samples->index);
    if (counts.statistics)
        vkCmdEndQuery(commands, counts.statistics->pool, counts.statistics->index);
    if (!runs) results.ticket = queries_.keep(counts);
    last.work = &work;
    last.generation = descriptors_.generation();
    last.batch = gpu_->recording_batch();
    bool plain_sets = true;
    for (int stage = 0; stage < 5; ++stage)
        plain_sets = plain_sets && (!shaders.stages[stage] || stage_sets_[stage].plain);
    if (plain_sets && last.plain_targets && last.plain_buffers && direct && runs &&
        stream_targets.count == 0 && predicate == nullptr)
        last.render_serial = gpu_->rendering_serial();
    return {};
}

}  // namespace d3dcap::runtime::backend::vulkan
