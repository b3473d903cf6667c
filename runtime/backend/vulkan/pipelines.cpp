// The pipelines of draws and dispatches (pipelines.h): D3D11's states
// turned into Vulkan pipeline state, D3D11 viewports and blend factors set
// dynamically at each draw instead (vulkan_draw_state.cpp).
#include "runtime/backend/vulkan/pipelines.h"

#include <algorithm>

#include "runtime/backend/vulkan/vk_formats.h"
#include "runtime/formats/formats.h"
#include "runtime/shader/signature_names.h"

namespace d3dcap::runtime::backend::vulkan {
namespace {

constexpr int kVertex = 0, kHull = 1;
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

// A factor for a target whose D3D11 format has no alpha but whose Vulkan
// format keeps one (B8G8R8X8): the destination's alpha reads 1.
VkBlendFactor alpha_one_factor(D3D11_BLEND blend, bool color) {
    switch (blend) {
        case D3D11_BLEND_DEST_ALPHA:
            return VK_BLEND_FACTOR_ONE;
        case D3D11_BLEND_INV_DEST_ALPHA:
            return VK_BLEND_FACTOR_ZERO;
        case D3D11_BLEND_SRC_ALPHA_SAT:  // min(As, 1 - Ad) for colour, 1 for alpha
            return color ? VK_BLEND_FACTOR_ZERO : VK_BLEND_FACTOR_ONE;
        default:
            return blend_factor(blend);
    }
}

// An alpha factor applied to an alpha-only target (A8) kept as red: the
// destination's alpha is its red, the blend factor's alpha is used.
VkBlendFactor alpha_in_red_factor(D3D11_BLEND blend) {
    switch (blend) {
        case D3D11_BLEND_DEST_ALPHA:
            return VK_BLEND_FACTOR_DST_COLOR;
        case D3D11_BLEND_INV_DEST_ALPHA:
            return VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR;
        case D3D11_BLEND_SRC_ALPHA_SAT:
            return VK_BLEND_FACTOR_ONE;
        case D3D11_BLEND_BLEND_FACTOR:
            return VK_BLEND_FACTOR_CONSTANT_ALPHA;
        case D3D11_BLEND_INV_BLEND_FACTOR:
            return VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA;
        default:
            return blend_factor(blend);
    }
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

}  // namespace

bool varying(const shader::SignatureElement& e) {
    return e.system_value == 0 && e.register_index != 0xffffffffu;
}

const GraphicsPipeline* PipelineCache::graphics(const DrawWork& work,
                                                const PipelineShaders& shaders,
                                                const PipelineTargets& targets,
                                                std::string& error) {
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
    std::string& key = key_;
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
    append(key, targets.discard);
    append(key, targets.samples);
    for (VkFormat format : targets.colors) append(key, format);
    append(key, targets.alpha_one);
    append(key, targets.alpha_in_red);
    append(key, targets.depth);
    if (last_ != nullptr && key == last_key_) return last_;
    if (auto found = graphics_.find(key); found != graphics_.end()) {
        last_key_ = key;
        last_ = &found->second;
        return last_;
    }
    return make_graphics(work, shaders, targets, topology, error);
}

const GraphicsPipeline* PipelineCache::make_graphics(const DrawWork& work,
                                                     const PipelineShaders& shaders,
                                                     const PipelineTargets& targets,
                                                     VkPrimitiveTopology topology,
                                                     std::string& error) {
    const bool patches = topology == VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    const VkDevice dev = device_.device();
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
        vkGetPhysicalDeviceFormatProperties(device_.physical_device(), format, &properties);
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
            const vulkan::ExecutionFeatures& has = device_.execution();
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
    // D3D11's r for a UNORM depth is 1 / 2^bits; for a float depth,
    // 2^(e - 23), which Vulkan's is.
    const vulkan::ExecutionFeatures& has = device_.execution();
    const bool unorm_depth = targets.depth == VK_FORMAT_D16_UNORM ||
                             targets.depth == VK_FORMAT_D16_UNORM_S8_UINT ||
                             targets.depth == VK_FORMAT_X8_D24_UNORM_PACK32 ||
                             targets.depth == VK_FORMAT_D24_UNORM_S8_UINT;
    raster.depthBiasConstantFactor =
        static_cast<float>(r.DepthBias) *
        (unorm_depth && !has.exact_depth_bias ? has.unorm_depth_bias_scale : 1.0f);
    VkDepthBiasRepresentationInfoEXT exact_bias{};
    exact_bias.sType = VK_STRUCTURE_TYPE_DEPTH_BIAS_REPRESENTATION_INFO_EXT;
    exact_bias.depthBiasRepresentation =
        VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORMAT_EXT;
    exact_bias.depthBiasExact = VK_TRUE;
    if (has.exact_depth_bias && raster.depthBiasEnable) raster.pNext = &exact_bias;
    raster.depthBiasClamp = r.DepthBiasClamp;
    raster.depthBiasSlopeFactor = r.SlopeScaledDepthBias;
    raster.lineWidth = 1.0f;
    raster.rasterizerDiscardEnable = targets.discard;

    VkPipelineMultisampleStateCreateInfo multisample{};
    multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO;
    multisample.rasterizationSamples = targets.samples;
    const VkSampleMask sample_mask = work.sample_mask;
    multisample.pSampleMask = &sample_mask;
    multisample.alphaToCoverageEnable = work.blend.AlphaToCoverageEnable;

    const D3D11_DEPTH_STENCIL_DESC& ds = work.depth_stencil;
    VkPipelineDepthStencilStateCreateInfo depth{};
    depth.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
    const bool has_depth = targets.depth != VK_FORMAT_UNDEFINED;
    depth.depthTestEnable = has_depth && ds.DepthEnable;
    depth.depthWriteEnable =
        has_depth && ds.DepthEnable && ds.DepthWriteMask == D3D11_DEPTH_WRITE_MASK_ALL;
    depth.depthCompareOp = minus_one<VkCompareOp>(ds.DepthFunc, 7);
    depth.stencilTestEnable = has_stencil(targets.depth) && ds.StencilEnable;
    depth.front = stencil_face(ds.FrontFace, ds.StencilReadMask, ds.StencilWriteMask);
    depth.back = stencil_face(ds.BackFace, ds.StencilReadMask, ds.StencilWriteMask);
    depth.maxDepthBounds = 1.0f;

    std::vector<VkPipelineColorBlendAttachmentState> blends(targets.colors.size());
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
        if (targets.alpha_one >> i & 1) {
            b.srcColorBlendFactor = alpha_one_factor(t.SrcBlend, true);
            b.dstColorBlendFactor = alpha_one_factor(t.DestBlend, true);
            b.srcAlphaBlendFactor = alpha_one_factor(t.SrcBlendAlpha, false);
            b.dstAlphaBlendFactor = alpha_one_factor(t.DestBlendAlpha, false);
        } else if (targets.alpha_in_red >> i & 1) {
            b.srcColorBlendFactor = b.srcAlphaBlendFactor = alpha_in_red_factor(t.SrcBlendAlpha);
            b.dstColorBlendFactor = b.dstAlphaBlendFactor = alpha_in_red_factor(t.DestBlendAlpha);
            b.colorBlendOp = b.alphaBlendOp;
            b.colorWriteMask = t.RenderTargetWriteMask & D3D11_COLOR_WRITE_ENABLE_ALPHA
                                   ? VK_COLOR_COMPONENT_R_BIT
                                   : 0;
        }
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
    rendering.colorAttachmentCount = static_cast<std::uint32_t>(targets.colors.size());
    rendering.pColorAttachmentFormats = targets.colors.data();
    rendering.depthAttachmentFormat = targets.depth;
    rendering.stencilAttachmentFormat =
        has_stencil(targets.depth) ? targets.depth : VK_FORMAT_UNDEFINED;

    // Layout: a set per graphics stage, empty for stages not bound;
    // constant buffers are dynamic where all stages' fit the GPU's limit.
    std::uint32_t constant_buffers = 0;
    for (const auto& shader : shaders.stages)
        if (shader) constant_buffers += constant_buffer_count(*shader);
    made.dynamic_constants = constant_buffers <= device_.adapter().max_dynamic_uniform_buffers;
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
    const auto rasterizer_samples = static_cast<std::uint32_t>(targets.samples);
    const VkSpecializationMapEntry sample_count_entry{kRasterizerSampleCountConstant, 0, 4};
    const VkSpecializationInfo specialization{1, &sample_count_entry, 4, &rasterizer_samples};
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
        stage_info.pSpecializationInfo = &specialization;
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
    last_key_ = key_;
    last_ = &graphics_.emplace(key_, std::move(made)).first->second;
    return last_;
}

void PipelineCache::destroy(GraphicsPipeline& pipeline) {
    const VkDevice dev = device_.device();
    if (pipeline.pipeline) vkDestroyPipeline(dev, pipeline.pipeline, nullptr);
    if (pipeline.layout) vkDestroyPipelineLayout(dev, pipeline.layout, nullptr);
    pipeline.pipeline = VK_NULL_HANDLE;
    pipeline.layout = VK_NULL_HANDLE;
}

const ComputePipeline* PipelineCache::compute(const std::shared_ptr<const TranslatedShader>& shader,
                                              std::string& error) {
    if (auto found = compute_.find(shader.get()); found != compute_.end()) return &found->second;
    const VkDevice dev = device_.device();
    ComputePipeline made;
    made.shader = shader;
    made.dynamic_constants =
        constant_buffer_count(*shader) <= device_.adapter().max_dynamic_uniform_buffers;
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
    return &compute_.emplace(shader.get(), std::move(made)).first->second;
}

void PipelineCache::clear() {
    const VkDevice dev = device_.device();
    for (auto& [shader, pipeline] : compute_) {
        vkDestroyPipeline(dev, pipeline.pipeline, nullptr);
        vkDestroyPipelineLayout(dev, pipeline.layout, nullptr);
    }
    compute_.clear();
    for (auto& [key, pipeline] : graphics_) destroy(pipeline);
    graphics_.clear();
    last_ = nullptr;
}

}  // namespace d3dcap::runtime::backend::vulkan
