// Draws on the Vulkan device: the D3D11 pipeline state as a Vulkan graphics
// pipeline (made once per state, kept by a key of everything it depends
// on), each stage's slots in a descriptor set of its own, vertex and index
// buffers, D3D11 viewports (flipped: y = TopLeftY + Height, negative
// height) and scissors as dynamic state, and dynamic rendering into the
// bound render-target and depth-stencil views.
#include <algorithm>
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
constexpr VkShaderStageFlagBits kStageBits[] = {
    VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT,
    VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, VK_SHADER_STAGE_GEOMETRY_BIT,
    VK_SHADER_STAGE_FRAGMENT_BIT};

// The primitive topology, or false for the ones the device does not draw yet.
bool topology_of(D3D11_PRIMITIVE_TOPOLOGY topology, VkPrimitiveTopology& out) {
    if (topology >= D3D11_PRIMITIVE_TOPOLOGY_1_CONTROL_POINT_PATCHLIST &&
        topology <= D3D11_PRIMITIVE_TOPOLOGY_32_CONTROL_POINT_PATCHLIST) {
        out = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
        return true;
    }
    switch (topology) {
        case D3D11_PRIMITIVE_TOPOLOGY_POINTLIST:
            out = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
            return true;
        case D3D11_PRIMITIVE_TOPOLOGY_LINELIST:
            out = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
            return true;
        case D3D11_PRIMITIVE_TOPOLOGY_LINESTRIP:
            out = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
            return true;
        case D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST:
            out = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
            return true;
        case D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP:
            out = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
            return true;
        case D3D11_PRIMITIVE_TOPOLOGY_LINELIST_ADJ:
            out = VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY;
            return true;
        case D3D11_PRIMITIVE_TOPOLOGY_LINESTRIP_ADJ:
            out = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY;
            return true;
        case D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST_ADJ:
            out = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY;
            return true;
        case D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP_ADJ:
            out = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY;
            return true;
        default:
            return false;
    }
}

bool strip(VkPrimitiveTopology topology) {
    return topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP ||
           topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP ||
           topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY ||
           topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY;
}

VkBlendFactor blend_factor(D3D11_BLEND blend) {
    switch (blend) {
        case D3D11_BLEND_ZERO:
            return VK_BLEND_FACTOR_ZERO;
        case D3D11_BLEND_SRC_COLOR:
            return VK_BLEND_FACTOR_SRC_COLOR;
        case D3D11_BLEND_INV_SRC_COLOR:
            return VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR;
        case D3D11_BLEND_SRC_ALPHA:
            return VK_BLEND_FACTOR_SRC_ALPHA;
        case D3D11_BLEND_INV_SRC_ALPHA:
            return VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        case D3D11_BLEND_DEST_ALPHA:
            return VK_BLEND_FACTOR_DST_ALPHA;
        case D3D11_BLEND_INV_DEST_ALPHA:
            return VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA;
        case D3D11_BLEND_DEST_COLOR:
            return VK_BLEND_FACTOR_DST_COLOR;
        case D3D11_BLEND_INV_DEST_COLOR:
            return VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR;
        case D3D11_BLEND_SRC_ALPHA_SAT:
            return VK_BLEND_FACTOR_SRC_ALPHA_SATURATE;
        case D3D11_BLEND_BLEND_FACTOR:
            return VK_BLEND_FACTOR_CONSTANT_COLOR;
        case D3D11_BLEND_INV_BLEND_FACTOR:
            return VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR;
        case D3D11_BLEND_SRC1_COLOR:
            return VK_BLEND_FACTOR_SRC1_COLOR;
        case D3D11_BLEND_INV_SRC1_COLOR:
            return VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR;
        case D3D11_BLEND_SRC1_ALPHA:
            return VK_BLEND_FACTOR_SRC1_ALPHA;
        case D3D11_BLEND_INV_SRC1_ALPHA:
            return VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA;
        default:
            return VK_BLEND_FACTOR_ONE;
    }
}

bool dual_source(D3D11_BLEND blend) {
    return blend >= D3D11_BLEND_SRC1_COLOR && blend <= D3D11_BLEND_INV_SRC1_ALPHA;
}

// Target 0 blends with a second source (D3D11 allows it on target 0 only).
bool dual_source_blend(const D3D11_BLEND_DESC1& desc) {
    const D3D11_RENDER_TARGET_BLEND_DESC1& t = desc.RenderTarget[0];
    return t.BlendEnable && (dual_source(t.SrcBlend) || dual_source(t.DestBlend) ||
                             dual_source(t.SrcBlendAlpha) || dual_source(t.DestBlendAlpha));
}

VkLogicOp logic_op(D3D11_LOGIC_OP op) {
    constexpr VkLogicOp kOps[] = {
        VK_LOGIC_OP_CLEAR,         VK_LOGIC_OP_SET,          VK_LOGIC_OP_COPY,
        VK_LOGIC_OP_COPY_INVERTED, VK_LOGIC_OP_NO_OP,        VK_LOGIC_OP_INVERT,
        VK_LOGIC_OP_AND,           VK_LOGIC_OP_NAND,         VK_LOGIC_OP_OR,
        VK_LOGIC_OP_NOR,           VK_LOGIC_OP_XOR,          VK_LOGIC_OP_EQUIVALENT,
        VK_LOGIC_OP_AND_REVERSE,   VK_LOGIC_OP_AND_INVERTED, VK_LOGIC_OP_OR_REVERSE,
        VK_LOGIC_OP_OR_INVERTED};
    return op >= 0 && op < 16 ? kOps[op] : VK_LOGIC_OP_NO_OP;
}

// D3D11's comparison, blend-op and stencil-op values are Vulkan's plus one.
template <class Vk>
Vk minus_one(int value, int last) {
    return static_cast<Vk>(std::clamp(value - 1, 0, last));
}

VkStencilOpState stencil_face(const D3D11_DEPTH_STENCILOP_DESC& face, std::uint32_t read_mask,
                              std::uint32_t write_mask) {
    VkStencilOpState state{};
    state.failOp = minus_one<VkStencilOp>(face.StencilFailOp, 7);
    state.passOp = minus_one<VkStencilOp>(face.StencilPassOp, 7);
    state.depthFailOp = minus_one<VkStencilOp>(face.StencilDepthFailOp, 7);
    state.compareOp = minus_one<VkCompareOp>(face.StencilFunc, 7);
    state.compareMask = read_mask;
    state.writeMask = write_mask;
    return state;
}

template <class T>
void append(std::string& key, const T& value) {
    key.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// Whether a signature element is a varying (not a system value the
// rasterizer or the output merger gives or takes).
bool varying(const shader::SignatureElement& e) {
    return e.system_value == 0 && e.register_index != 0xffffffffu;
}

// Each stage's varyings must sit where the stage before writes them
// (vkd3d-shader links by register): empty, or the first that does not.
std::string check_linkage(const PipelineShaders& shaders) {
    const TranslatedShader* producer = nullptr;
    int producer_stage = kVertex;
    for (int stage = 0; stage < 5; ++stage) {
        const TranslatedShader* consumer = shaders.stages[stage].get();
        if (consumer == nullptr) continue;
        for (const shader::SignatureElement& input : consumer->inputs) {
            if (producer == nullptr || !varying(input)) continue;
            const auto written = [&](const shader::SignatureElement& output) {
                return shader::equal_ignoring_case(output.semantic_name, input.semantic_name) &&
                       output.semantic_index == input.semantic_index &&
                       output.register_index == input.register_index;
            };
            if (std::none_of(producer->outputs.begin(), producer->outputs.end(), written))
                return std::string("the ") + kStageNames[stage] + " shader's input " +
                       input.semantic_name + std::to_string(input.semantic_index) + " (v" +
                       std::to_string(input.register_index) +
                       ") is not written to the same register by the " +
                       kStageNames[producer_stage] + " shader";
        }
        producer = consumer;
        producer_stage = stage;
    }
    return {};
}

}  // namespace

namespace {

// Stream output with D3D11_SO_NO_RASTERIZED_STREAM, or a stream the shader
// does not emit to: nothing reaches the rasterizer, and no attachment is used.
bool rasterizer_discards(const DrawWork& work) {
    return work.stream_output.active() && work.stream_output.declaration->rasterized_stream != 0;
}

}  // namespace

const GraphicsPipeline* VulkanBackend::graphics_pipeline(const DrawWork& work,
                                                         const PipelineShaders& shaders,
                                                         std::string& error) {
    // Formats and the sample count of the attachments (D3D11: one for all);
    // none where nothing is rasterized, as draw() begins rendering with none.
    const bool discard = rasterizer_discards(work);
    std::vector<VkFormat> color_formats;
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
        if (discard) break;
        if (slot >= color_formats.size()) color_formats.resize(slot + 1, VK_FORMAT_UNDEFINED);
        color_formats[slot] = same_bits_format(view.format);
        if (!sample_count(view.resource)) {
            error = "the render targets have different sample counts";
            return nullptr;
        }
    }
    VkFormat depth_format = VK_FORMAT_UNDEFINED;
    if (work.depth_stencil_view && !discard) {
        const GpuResource* depth = find(work.depth_stencil_view->resource);
        if (depth != nullptr) depth_format = depth->storage.format;
        if (!sample_count(work.depth_stencil_view->resource)) {
            error = "the depth-stencil view's sample count is not the render targets'";
            return nullptr;
        }
    }
    VkPrimitiveTopology topology{};
    if (!topology_of(work.topology, topology)) {
        error = "no primitive topology is set";
        return nullptr;
    }
    const bool patches = topology == VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    if (patches != (shaders.stages[kHull] != nullptr)) {
        error = patches ? "patch lists need hull and domain shaders"
                        : "hull and domain shaders need a patch-list topology";
        return nullptr;
    }

    // The key: everything the pipeline depends on. Draws mostly keep the
    // pipeline of the draw before, so the key is compared with that one's
    // before any lookup.
    std::string& key = pipeline_key_;
    key.clear();
    for (const auto& shader : shaders.stages) append(key, shader.get());
    for (const InputElement& element : work.input_layout) {
        key += element.semantic;
        append(key, element.semantic_index);
        append(key, element.format);
        append(key, element.slot);
        append(key, element.offset);
        append(key, element.per_instance);
        append(key, element.step_rate);
    }
    append(key, topology);
    append(key, work.rasterizer);
    append(key, work.blend);
    append(key, work.depth_stencil);
    append(key, work.sample_mask);
    append(key, discard);
    append(key, samples.value_or(VK_SAMPLE_COUNT_1_BIT));
    for (VkFormat format : color_formats) append(key, format);
    append(key, depth_format);
    if (last_pipeline_ != nullptr && key == last_pipeline_key_) return last_pipeline_;
    if (auto found = graphics_pipelines_.find(key); found != graphics_pipelines_.end()) {
        last_pipeline_key_ = key;
        last_pipeline_ = &found->second;
        return last_pipeline_;
    }

    const VkDevice dev = gpu_->vk();
    GraphicsPipeline made;
    made.shaders = shaders;

    // Vertex input: each shader input matched by semantic to a layout element.
    const TranslatedShader& vertex = *shaders.stages[kVertex];
    std::vector<VkVertexInputAttributeDescription> attributes;
    std::vector<VkVertexInputBindingDescription> bindings;
    std::vector<VkVertexInputBindingDivisorDescriptionEXT> divisors;
    for (const shader::SignatureElement& input : vertex.inputs) {
        if (!varying(input)) continue;
        const InputElement* element = nullptr;
        for (const InputElement& e : work.input_layout)
            if (shader::equal_ignoring_case(e.semantic, input.semantic_name) &&
                e.semantic_index == input.semantic_index)
                element = &e;
        if (element == nullptr) {
            error = "the vertex shader's input " + input.semantic_name +
                    std::to_string(input.semantic_index) + " has no element in the input layout";
            return nullptr;
        }
        const VkFormat format = same_bits_format(element->format);
        VkFormatProperties properties{};
        vkGetPhysicalDeviceFormatProperties(gpu_->device().physical_device(), format, &properties);
        if (format == VK_FORMAT_UNDEFINED ||
            !(properties.bufferFeatures & VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT)) {
            error = "this GPU cannot read vertices of " + formats::describe(element->format);
            return nullptr;
        }
        attributes.push_back({input.register_index, element->slot, format, element->offset});
        const auto bound = std::find_if(bindings.begin(), bindings.end(),
                                        [&](const auto& b) { return b.binding == element->slot; });
        // Instance step rates are per slot in Vulkan (divisors).
        const auto divisor = std::find_if(divisors.begin(), divisors.end(), [&](const auto& d) {
            return d.binding == element->slot;
        });
        if (bound != bindings.end()) {
            const std::uint32_t rate = divisor != divisors.end() ? divisor->divisor : 1;
            if (element->per_instance && rate != element->step_rate) {
                error = "elements of slot " + std::to_string(element->slot) +
                        " step at different instance rates, which Vulkan cannot";
                return nullptr;
            }
            continue;
        }
        bindings.push_back(
            {element->slot, 0,
             element->per_instance ? VK_VERTEX_INPUT_RATE_INSTANCE : VK_VERTEX_INPUT_RATE_VERTEX});
        if (element->per_instance && element->step_rate != 1) {
            const vulkan::ExecutionFeatures& has = gpu_->device().execution();
            if (!has.step_rates || (element->step_rate == 0 && !has.step_rate_zero)) {
                error = "instance data step rate " + std::to_string(element->step_rate) +
                        ", which this GPU lacks";
                return nullptr;
            }
            divisors.push_back({element->slot, element->step_rate});
        }
    }
    VkPipelineVertexInputDivisorStateCreateInfoEXT divisor_info{};
    divisor_info.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT;
    divisor_info.vertexBindingDivisorCount = static_cast<std::uint32_t>(divisors.size());
    divisor_info.pVertexBindingDivisors = divisors.data();
    VkPipelineVertexInputStateCreateInfo vertex_input{};
    vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
    vertex_input.vertexBindingDescriptionCount = static_cast<std::uint32_t>(bindings.size());
    vertex_input.pVertexBindingDescriptions = bindings.data();
    vertex_input.vertexAttributeDescriptionCount = static_cast<std::uint32_t>(attributes.size());
    vertex_input.pVertexAttributeDescriptions = attributes.data();
    if (!divisors.empty()) vertex_input.pNext = &divisor_info;
    made.vertex_slots.clear();
    for (const auto& binding : bindings) made.vertex_slots.push_back(binding.binding);

    VkPipelineInputAssemblyStateCreateInfo assembly{};
    assembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO;
    assembly.topology = topology;
    assembly.primitiveRestartEnable = strip(topology);  // D3D11 always cuts strips

    const D3D11_RASTERIZER_DESC1& r = work.rasterizer;
    VkPipelineTessellationStateCreateInfo tessellation{};
    tessellation.sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO;
    tessellation.patchControlPoints =
        patches ? work.topology - D3D11_PRIMITIVE_TOPOLOGY_1_CONTROL_POINT_PATCHLIST + 1 : 1;

    VkPipelineRasterizationStateCreateInfo raster{};
    raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO;
    raster.depthClampEnable = !r.DepthClipEnable;
    raster.polygonMode =
        r.FillMode == D3D11_FILL_WIREFRAME ? VK_POLYGON_MODE_LINE : VK_POLYGON_MODE_FILL;
    raster.cullMode = r.CullMode == D3D11_CULL_FRONT  ? VK_CULL_MODE_FRONT_BIT
                      : r.CullMode == D3D11_CULL_BACK ? VK_CULL_MODE_BACK_BIT
                                                      : VK_CULL_MODE_NONE;
    raster.frontFace =
        r.FrontCounterClockwise ? VK_FRONT_FACE_COUNTER_CLOCKWISE : VK_FRONT_FACE_CLOCKWISE;
    raster.depthBiasEnable =
        r.DepthBias != 0 || r.SlopeScaledDepthBias != 0.0f || r.DepthBiasClamp != 0.0f;
    raster.depthBiasConstantFactor = static_cast<float>(r.DepthBias);
    raster.depthBiasClamp = r.DepthBiasClamp;
    raster.depthBiasSlopeFactor = r.SlopeScaledDepthBias;
    raster.lineWidth = 1.0f;
    raster.rasterizerDiscardEnable = discard;

    VkPipelineMultisampleStateCreateInfo multisample{};
    multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
    multisample.rasterizationSamples = samples.value_or(VK_SAMPLE_COUNT_1_BIT);
    const VkSampleMask sample_mask = work.sample_mask;
    multisample.pSampleMask = &sample_mask;
    multisample.alphaToCoverageEnable = work.blend.AlphaToCoverageEnable;

    const D3D11_DEPTH_STENCIL_DESC& ds = work.depth_stencil;
    VkPipelineDepthStencilStateCreateInfo depth{};
    depth.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
    const bool has_depth = depth_format != VK_FORMAT_UNDEFINED;
    depth.depthTestEnable = has_depth && ds.DepthEnable;
    depth.depthWriteEnable =
        has_depth && ds.DepthEnable && ds.DepthWriteMask == D3D11_DEPTH_WRITE_MASK_ALL;
    depth.depthCompareOp = minus_one<VkCompareOp>(ds.DepthFunc, 7);
    depth.stencilTestEnable = has_stencil(depth_format) && ds.StencilEnable;
    depth.front = stencil_face(ds.FrontFace, ds.StencilReadMask, ds.StencilWriteMask);
    depth.back = stencil_face(ds.BackFace, ds.StencilReadMask, ds.StencilWriteMask);
    depth.maxDepthBounds = 1.0f;

    std::vector<VkPipelineColorBlendAttachmentState> blends(color_formats.size());
    for (std::size_t i = 0; i < blends.size(); ++i) {
        const D3D11_RENDER_TARGET_BLEND_DESC1& t =
            work.blend.RenderTarget[work.blend.IndependentBlendEnable ? i : 0];
        VkPipelineColorBlendAttachmentState& b = blends[i];
        b.blendEnable = t.BlendEnable && !t.LogicOpEnable;
        b.srcColorBlendFactor = blend_factor(t.SrcBlend);
        b.dstColorBlendFactor = blend_factor(t.DestBlend);
        b.colorBlendOp = minus_one<VkBlendOp>(t.BlendOp, 4);
        b.srcAlphaBlendFactor = blend_factor(t.SrcBlendAlpha);
        b.dstAlphaBlendFactor = blend_factor(t.DestBlendAlpha);
        b.alphaBlendOp = minus_one<VkBlendOp>(t.BlendOpAlpha, 4);
        b.colorWriteMask = t.RenderTargetWriteMask & 0xf;
    }
    VkPipelineColorBlendStateCreateInfo blend{};
    blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO;
    blend.logicOpEnable = work.blend.RenderTarget[0].LogicOpEnable;
    blend.logicOp = logic_op(work.blend.RenderTarget[0].LogicOp);
    blend.attachmentCount = static_cast<std::uint32_t>(blends.size());
    blend.pAttachments = blends.data();

    std::vector<VkDynamicState> dynamic_states = {
        VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT,
        VK_DYNAMIC_STATE_BLEND_CONSTANTS, VK_DYNAMIC_STATE_STENCIL_REFERENCE};
    // Strides are dynamic where there are vertex buffers to bind (a draw of
    // SV_VertexID alone binds none, and so sets none).
    if (!bindings.empty()) dynamic_states.push_back(VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE);
    VkPipelineDynamicStateCreateInfo dynamic{};
    dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
    dynamic.dynamicStateCount = static_cast<std::uint32_t>(dynamic_states.size());
    dynamic.pDynamicStates = dynamic_states.data();
    VkPipelineViewportStateCreateInfo viewport{};
    viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO;

    VkPipelineRenderingCreateInfo rendering{};
    rendering.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO;
    rendering.colorAttachmentCount = static_cast<std::uint32_t>(color_formats.size());
    rendering.pColorAttachmentFormats = color_formats.data();
    rendering.depthAttachmentFormat = depth_format;
    rendering.stencilAttachmentFormat =
        has_stencil(depth_format) ? depth_format : VK_FORMAT_UNDEFINED;

    // Layout: a set per graphics stage, empty for stages not bound;
    // constant buffers are dynamic where all stages' fit the GPU's limit.
    std::uint32_t constant_buffers = 0;
    for (const auto& shader : shaders.stages)
        if (shader) constant_buffers += constant_buffer_count(*shader);
    made.dynamic_constants =
        constant_buffers <= gpu_->device().adapter().max_dynamic_uniform_buffers;
    VkDescriptorSetLayout set_layouts[5];
    for (int stage = 0; stage < 5; ++stage) {
        const auto& shader = shaders.stages[stage];
        set_layouts[stage] = descriptors_.layout(
            shader ? layout_bindings(*shader, static_cast<VkShaderStageFlags>(kStageBits[stage]),
                                     made.dynamic_constants)
                   : std::vector<VkDescriptorSetLayoutBinding>{});
        if (shader) made.set_layouts[stage] = set_layouts[stage];
    }
    VkPipelineLayoutCreateInfo layout_info{};
    layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    layout_info.setLayoutCount = 5;
    layout_info.pSetLayouts = set_layouts;
    vkCreatePipelineLayout(dev, &layout_info, nullptr, &made.layout);

    std::vector<VkPipelineShaderStageCreateInfo> stages;
    std::vector<VkShaderModule> modules;
    for (int stage = 0; stage < 5; ++stage) {
        const auto& shader = shaders.stages[stage];
        if (!shader) continue;
        VkShaderModuleCreateInfo module_info{};
        module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
        module_info.codeSize = shader->spirv.size() * 4;
        module_info.pCode = shader->spirv.data();
        VkShaderModule module = VK_NULL_HANDLE;
        vkCreateShaderModule(dev, &module_info, nullptr, &module);
        modules.push_back(module);
        VkPipelineShaderStageCreateInfo stage_info{};
        stage_info.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        stage_info.stage = kStageBits[stage];
        stage_info.module = module;
        stage_info.pName = "main";
        stages.push_back(stage_info);
    }
    VkGraphicsPipelineCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
    info.pNext = &rendering;
    info.stageCount = static_cast<std::uint32_t>(stages.size());
    info.pStages = stages.data();
    info.pVertexInputState = &vertex_input;
    info.pInputAssemblyState = &assembly;
    info.pTessellationState = patches ? &tessellation : nullptr;
    info.pViewportState = &viewport;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depth;
    info.pColorBlendState = &blend;
    info.pDynamicState = &dynamic;
    info.layout = made.layout;
    const VkResult result =
        vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &info, nullptr, &made.pipeline);
    for (VkShaderModule module : modules) vkDestroyShaderModule(dev, module, nullptr);
    if (result != VK_SUCCESS) {
        error = "the GPU cannot build a graphics pipeline of these shaders and states (VkResult " +
                std::to_string(result) + ")";
        destroy(made);
        return nullptr;
    }
    last_pipeline_key_ = key;
    last_pipeline_ = &graphics_pipelines_.emplace(key, std::move(made)).first->second;
    return last_pipeline_;
}

void VulkanBackend::destroy(GraphicsPipeline& pipeline) {
    const VkDevice dev = gpu_->vk();
    if (pipeline.pipeline) vkDestroyPipeline(dev, pipeline.pipeline, nullptr);
    if (pipeline.layout) vkDestroyPipelineLayout(dev, pipeline.layout, nullptr);
    pipeline.pipeline = VK_NULL_HANDLE;
    pipeline.layout = VK_NULL_HANDLE;
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
        StageTranslation wanted{work.stages[stage].shader,
                                stage == kDomain ? shaders.stages[kHull].get() : nullptr,
                                stage == kPixel && dual_source_blend(work.blend),
                                stage == last_stage ? stream_output : nullptr,
                                {}};
        const auto slices = uav_first_slices(work.stages[stage]);
        StageTranslation& last = last_translations_[stage];
        if (wanted.shader != 0 && slices.empty() && last.result && last.same_as(wanted)) {
            shaders.stages[stage] = last.result;
        } else {
            shaders.stages[stage] =
                translator_.translate(work.stages[stage].bytecode, error, wanted.hull,
                                      wanted.dual_source, wanted.stream_output, slices);
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

namespace {

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

std::string VulkanBackend::draw(const DrawWork& work, const DrawArguments& arguments,
                                WorkResults& results) {
    const Operation call(*this);
    LastDraw& last = last_draw_;
    const bool kept = last.work == &work && last.generation == descriptors_.generation() &&
                      last.batch == gpu_->recording_batch() && pending_binds_.empty() &&
                      replicas_.empty();
    const std::uint32_t changed = kept ? work.changed : kAllDrawParts;
    last.work = nullptr;  // kept again once this draw is recorded
    if (changed & kTranslationParts) {
        last.shaders = {};
        if (std::string why = draw_shaders(work, last.shaders); !why.empty()) return why;
    }
    const PipelineShaders& shaders = last.shaders;
    if (work.viewports.empty()) return {};  // D3D11 rasterizes nothing without a viewport

    // Attachments first: they fix the pipeline's formats and the render area.
    if ((changed & kTargetParts) || !last.plain_targets) {
        if (std::string why = draw_targets(work, last.targets); !why.empty()) return why;
        last.plain_targets = plain(std::span(last.targets.images).first(last.targets.image_count));
    }
    const RenderTargets& targets = last.targets;

    std::string error;
    const GraphicsPipeline* previous = last.pipeline;
    if ((changed & kPipelineParts) || previous == nullptr)
        last.pipeline = graphics_pipeline(work, shaders, error);
    const GraphicsPipeline* pipeline = last.pipeline;
    if (pipeline == nullptr) return error;

    // Descriptors of each stage, in its own set, kept while it binds the
    // same; a stage whose slots did not change keeps its set unresolved
    // (the descriptors a translation has come from its bytecode alone).
    for (int stage = 0; stage < 5; ++stage) {
        if (!shaders.stages[stage]) continue;
        StageSet& set = stage_sets_[stage];
        if (!(changed & stage_parts(stage)) && set.layout == pipeline->set_layouts[stage] &&
            set.plain)
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
    StreamOutputTargets stream_targets;
    if (std::string why = prepare_stream_output(work, stream_targets); !why.empty()) return why;

    // The running queries' counts stay in the command stream until asked
    // for. Where query slots are reset on the host, draws share them in
    // runs (count_in_run); otherwise each draw has its own, reset first.
    const bool runs = gpu_->device().execution().host_query_reset && !stream_targets.query;
    PendingCounts counts;
    if (!runs &&
        !start_counts(work.count_samples, work.count_statistics, stream_targets.query, counts))
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
            handle_key(stream_counters_.buffer->buffer), true,
            VK_PIPELINE_STAGE_2_TRANSFORM_FEEDBACK_BIT_EXT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT);
    const GpuResource* predicate = work.predicate.id ? find(work.predicate.id) : nullptr;
    if (predicate != nullptr)
        gpu_->touch(handle_key(predicate->buffer), false,
                    VK_PIPELINE_STAGE_2_CONDITIONAL_RENDERING_BIT_EXT);
    const VkCommandBuffer commands = gpu_->render(targets);
    bind_draw_state(commands, work, changed, *pipeline, shaders, buffers, targets.area);

    if (runs && !count_in_run(commands, work, results.ticket)) return "the GPU cannot make a query";
    if (!runs && count_run_) end_count_run(commands);  // it would count this draw
    if (counts.statistics)
        vkCmdBeginQuery(commands, counts.statistics->pool, counts.statistics->index, 0);
    if (counts.samples)
        vkCmdBeginQuery(
            commands, counts.samples->pool, counts.samples->index,
            gpu_->device().execution().occlusion_precise ? VK_QUERY_CONTROL_PRECISE_BIT : 0);
    begin_stream_output(commands, stream_targets, counts.stream_output);
    const bool predicated = begin_predicated(commands, work.predicate);
    if (arguments.from_stream_output)
        transform_feedback()->draw_byte_count(
            commands, 1, 0, buffers.auto_counter, buffers.auto_counter_offset,
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
    end_stream_output(commands, stream_targets, counts.stream_output);
    if (counts.samples) vkCmdEndQuery(commands, counts.samples->pool, counts.samples->index);
    if (counts.statistics)
        vkCmdEndQuery(commands, counts.statistics->pool, counts.statistics->index);
    if (!runs) results.ticket = keep_counts(counts);
    last.work = &work;
    last.generation = descriptors_.generation();
    last.batch = gpu_->recording_batch();
    return {};
}

}  // namespace d3dcap::runtime::backend::vulkan
