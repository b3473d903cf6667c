#include "runtime/backend/vulkan/shader_translator.h"

// vkd3d_shader.h uses size_t without including <stddef.h>.
#include <stddef.h>
#include <vkd3d_shader.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>

#include "runtime/backend/vulkan/stream_output_layout.h"
#include "runtime/backend/vulkan/uav_slices.h"
#include "runtime/backend/vulkan/vkd3d_checks.h"
#include "runtime/shader/container.h"
#include "runtime/shader/decoder.h"

namespace d3dcap::runtime::backend::vulkan {

namespace {

std::string take_messages(char* messages) {
    std::string text = messages ? messages : "";
    vkd3d_shader_free_messages(messages);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
}

vkd3d_shader_visibility visibility_of(int program_type) {
    switch (program_type) {
        case 0:
            return VKD3D_SHADER_VISIBILITY_PIXEL;
        case 1:
            return VKD3D_SHADER_VISIBILITY_VERTEX;
        case 2:
            return VKD3D_SHADER_VISIBILITY_GEOMETRY;
        case 3:
            return VKD3D_SHADER_VISIBILITY_HULL;
        case 4:
            return VKD3D_SHADER_VISIBILITY_DOMAIN;
        default:
            return VKD3D_SHADER_VISIBILITY_COMPUTE;
    }
}

// The descriptors the shader uses, as vkd3d-shader scans them.
bool scan(const vkd3d_shader_compile_info& base, std::vector<ShaderDescriptor>& out,
          std::string& error) {
    vkd3d_shader_scan_descriptor_info scanned{};
    scanned.type = VKD3D_SHADER_STRUCTURE_TYPE_SCAN_DESCRIPTOR_INFO;
    vkd3d_shader_compile_info info = base;
    info.next = &scanned;
    char* messages = nullptr;
    const int result = vkd3d_shader_scan(&info, &messages);
    const std::string text = take_messages(messages);
    if (result != VKD3D_OK) {
        error = "vkd3d-shader cannot read it (" + std::to_string(result) + ")" +
                (text.empty() ? "" : ": " + text);
        return false;
    }
    for (unsigned i = 0; i < scanned.descriptor_count; ++i) {
        const vkd3d_shader_descriptor_info& d = scanned.descriptors[i];
        ShaderDescriptor descriptor;
        descriptor.reg = d.register_index;
        descriptor.buffer = d.resource_type == VKD3D_SHADER_RESOURCE_BUFFER;
        descriptor.counter = d.flags & VKD3D_SHADER_DESCRIPTOR_INFO_FLAG_UAV_COUNTER;
        if (d.resource_type <= VKD3D_SHADER_RESOURCE_TEXTURE_CUBEARRAY)
            descriptor.shape = static_cast<ResourceShape>(d.resource_type);
        switch (d.type) {
            case VKD3D_SHADER_DESCRIPTOR_TYPE_CBV:
                descriptor.kind = RegisterKind::ConstantBuffer;
                descriptor.binding = BindingSpace::kConstantBuffers + d.register_index;
                break;
            case VKD3D_SHADER_DESCRIPTOR_TYPE_SRV:
                descriptor.kind = RegisterKind::Resource;
                descriptor.binding = BindingSpace::kResources + d.register_index;
                break;
            case VKD3D_SHADER_DESCRIPTOR_TYPE_SAMPLER:
                descriptor.kind = RegisterKind::Sampler;
                descriptor.binding = BindingSpace::kSamplers + d.register_index;
                break;
            default:
                descriptor.kind = RegisterKind::Uav;
                descriptor.binding = BindingSpace::kUavs + d.register_index;
                break;
        }
        const std::uint32_t limits[] = {14, 128, 16, 64};
        if (d.count != 1 || d.register_index >= limits[static_cast<int>(descriptor.kind)]) {
            error = "register " + std::to_string(d.register_index) +
                    " (or an array of registers) is outside D3D11's slots";
            vkd3d_shader_free_scan_descriptor_info(&scanned);
            return false;
        }
        out.push_back(descriptor);
    }
    vkd3d_shader_free_scan_descriptor_info(&scanned);
    return true;
}

// D3DCAP_SPIRV_DIR=DIR: every translated module is written to
// DIR/<bytecode hash>.spv, for spirv-val, spirv-dis and the tests.
void dump_module(std::uint64_t key, const std::vector<std::uint32_t>& spirv) {
    const char* directory = std::getenv("D3DCAP_SPIRV_DIR");
    if (directory == nullptr || *directory == 0) return;
    char name[32];
    std::snprintf(name, sizeof name, "/%016llx.spv", static_cast<unsigned long long>(key));
    if (std::FILE* file = std::fopen((std::string(directory) + name).c_str(), "wb")) {
        std::fwrite(spirv.data(), 4, spirv.size(), file);
        std::fclose(file);
    }
}

// Tells declarations apart in the cache key (names by value).
std::uint64_t declaration_hash(const StreamOutputDeclaration& declaration) {
    std::string bytes;
    for (const D3D11_SO_DECLARATION_ENTRY& entry : declaration.entries) {
        bytes += entry.SemanticName != nullptr ? entry.SemanticName : "";
        const std::uint32_t fields[] = {entry.Stream, entry.SemanticIndex, entry.StartComponent,
                                        entry.ComponentCount, entry.OutputSlot};
        bytes.append(reinterpret_cast<const char*>(fields), sizeof fields);
    }
    bytes.append(reinterpret_cast<const char*>(declaration.strides.data()),
                 sizeof declaration.strides);
    return XXH3_64bits(bytes.data(), bytes.size()) | 1;
}

}  // namespace

std::uint32_t descriptor_set_of(int program_type) {
    switch (program_type) {
        case 3:  // hull
            return 1;
        case 4:  // domain
            return 2;
        case 2:  // geometry
            return 3;
        case 0:  // pixel
            return 4;
        default:  // vertex, compute
            return 0;
    }
}

std::shared_ptr<const TranslatedShader> ShaderTranslator::translate(
    std::span<const std::uint8_t> bytecode, std::string& error, const TranslationOptions& options) {
    const TranslatedShader* hull = options.hull;
    const StreamOutputDeclaration* stream_output = options.stream_output;
    const auto uav_first_slices = options.uav_first_slices;
    std::uint64_t key = XXH3_64bits(bytecode.data(), bytecode.size());
    if (!uav_first_slices.empty())
        key ^= XXH3_64bits(uav_first_slices.data(), uav_first_slices.size_bytes()) | 2;
    if (options.dual_source) key ^= std::uint64_t{1} << 40;
    key ^= std::uint64_t{options.alpha_in_red} << 32;
    if (stream_output != nullptr && !stream_output->entries.empty())
        key ^= declaration_hash(*stream_output);
    else
        stream_output = nullptr;
    if (hull != nullptr)
        key ^= std::uint64_t{hull->tess_output_primitive} << 56 |
               std::uint64_t{hull->tess_partitioning} << 48;
    {
        std::lock_guard lock(mutex_);
        if (auto found = cache_.find(key); found != cache_.end()) return found->second;
    }
    auto shader = std::make_shared<TranslatedShader>();
    const auto chunks = shader::read_container(bytecode, error);
    if (!chunks) return nullptr;
    shader->program_type = shader::program_type(*chunks, error);
    if (shader->program_type < 0) return nullptr;
    shader->set = descriptor_set_of(shader->program_type);
    if (shader->program_type == 3) {  // hull: what the tessellator makes
        const auto program = shader::decode_container(bytecode, error);
        if (!program) return nullptr;
        shader->tess_output_primitive = static_cast<std::uint32_t>(program->tess_output_primitive);
        shader->tess_partitioning = static_cast<std::uint32_t>(program->tess_partitioning);
        if (program->tess_partitioning == shader::TessPartitioning::Pow2) {
            error = "pow2 partitioning is approximated by vkd3d-shader 1.2";
            return nullptr;
        }
        // Without a control-point phase the control points pass through:
        // what comes in goes out (vkd3d-shader asserts otherwise).
        const bool passes_through =
            std::none_of(program->hull_phases.begin(), program->hull_phases.end(),
                         [](const shader::HullPhase& phase) {
                             return phase.kind == shader::Opcode::HsControlPointPhase;
                         });
        const auto& in = program->input_signature;
        const auto& out = program->output_signature;
        const bool same =
            in.size() == out.size() &&
            std::equal(in.begin(), in.end(), out.begin(),
                       [](const shader::SignatureElement& a, const shader::SignatureElement& b) {
                           return a.register_index == b.register_index && a.mask == b.mask;
                       });
        if (passes_through && !same) {
            error =
                "a hull shader without a control-point phase whose input and output "
                "signatures differ";
            return nullptr;
        }
    }
    if (shader->program_type == 4 && hull == nullptr) {
        error = "a domain shader without a hull shader";
        return nullptr;
    }
    if (const shader::ContainerChunk* inputs = shader::find_chunk(*chunks, "ISGN"))
        if (!shader::read_signature(*inputs, shader->inputs, error)) return nullptr;
    if (!shader::output_signature(*chunks, shader->outputs, error)) return nullptr;
    // vkd3d-shader asserts on elements of no component type.
    for (const auto* elements : {&shader->inputs, &shader->outputs})
        for (const shader::SignatureElement& e : *elements)
            if (e.component_type == shader::ComponentType::Unknown ||
                static_cast<int>(e.component_type) > 3) {
                error = "signature element " + e.semantic_name + std::to_string(e.semantic_index) +
                        " has no component type (float, int or uint)";
                return nullptr;
            }
    std::vector<std::uint8_t> lowered(bytecode.begin(), bytecode.end());
    if (!lower(lowered, error)) return nullptr;
    if (!uav_first_slices.empty() && !offset_uav_w_slices(lowered, uav_first_slices, error))
        return nullptr;
    XfbLayout xfb_layout;
    if (stream_output != nullptr) {
        if (shader->program_type != 1 && shader->program_type != 2 && shader->program_type != 4) {
            error = "stream output after a shader that is not a vertex, domain or geometry shader";
            return nullptr;
        }
        error = lay_out_stream_output(*stream_output, shader->outputs, xfb_layout);
        if (!error.empty()) return nullptr;
    }

    vkd3d_shader_compile_info info{};
    info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
    info.source = {lowered.data(), lowered.size()};
    info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
    info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
    info.log_level = VKD3D_SHADER_LOG_WARNING;
    if (!scan(info, shader->descriptors, error)) return nullptr;
    for (ShaderDescriptor& d : shader->descriptors)
        for (const auto& [reg, first] : uav_first_slices)
            if (d.kind == RegisterKind::Uav && d.reg == reg) d.first_w_slice = first;

    // The full table for the registers the shader uses; counters beside
    // their UAVs.
    const vkd3d_shader_visibility visibility = visibility_of(shader->program_type);
    std::vector<vkd3d_shader_resource_binding> bindings;
    std::vector<vkd3d_shader_uav_counter_binding> counters;
    for (const ShaderDescriptor& d : shader->descriptors) {
        vkd3d_shader_resource_binding binding{};
        binding.type = d.kind == RegisterKind::ConstantBuffer ? VKD3D_SHADER_DESCRIPTOR_TYPE_CBV
                       : d.kind == RegisterKind::Resource     ? VKD3D_SHADER_DESCRIPTOR_TYPE_SRV
                       : d.kind == RegisterKind::Sampler      ? VKD3D_SHADER_DESCRIPTOR_TYPE_SAMPLER
                                                              : VKD3D_SHADER_DESCRIPTOR_TYPE_UAV;
        binding.register_index = d.reg;
        binding.shader_visibility = visibility;
        // vkd3d-shader matches a binding by this flag for every kind: constant
        // buffers are buffers, samplers go with images.
        const bool buffer =
            d.kind == RegisterKind::ConstantBuffer || (d.kind != RegisterKind::Sampler && d.buffer);
        binding.flags = buffer ? VKD3D_SHADER_BINDING_FLAG_BUFFER : VKD3D_SHADER_BINDING_FLAG_IMAGE;
        binding.binding = {shader->set, d.binding, 1};
        bindings.push_back(binding);
        if (d.counter) {
            vkd3d_shader_uav_counter_binding counter{};
            counter.register_index = d.reg;
            counter.shader_visibility = visibility;
            counter.binding = {shader->set, BindingSpace::kUavCounters + d.reg, 1};
            counters.push_back(counter);
        }
    }
    vkd3d_shader_spirv_target_info target{};
    target.type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO;
    target.environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0;
    target.dual_source_blending = options.dual_source;
    // o# of an alpha-only target: (w, y, z, w), alpha in red and in alpha
    // (blending reads it there).
    std::array<unsigned, 8> swizzles{};
    if (options.alpha_in_red != 0 && shader->program_type == 0) {
        for (unsigned i = 0; i < swizzles.size(); ++i)
            swizzles[i] = options.alpha_in_red >> i & 1 ? VKD3D_SHADER_SWIZZLE(W, Y, Z, W)
                                                        : VKD3D_SHADER_NO_SWIZZLE;
        target.output_swizzles = swizzles.data();
        target.output_swizzle_count = static_cast<unsigned>(swizzles.size());
    }
    vkd3d_shader_parameter sample_count{};
    sample_count.name = VKD3D_SHADER_PARAMETER_NAME_RASTERIZER_SAMPLE_COUNT;
    sample_count.type = VKD3D_SHADER_PARAMETER_TYPE_SPECIALIZATION_CONSTANT;
    sample_count.data_type = VKD3D_SHADER_PARAMETER_DATA_TYPE_UINT32;
    sample_count.u.specialization_constant.id = kRasterizerSampleCountConstant;
    target.parameters = &sample_count;
    target.parameter_count = 1;
    vkd3d_shader_spirv_domain_shader_target_info domain{};
    if (shader->program_type == 4) {
        domain.type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_DOMAIN_SHADER_TARGET_INFO;
        domain.output_primitive =
            static_cast<vkd3d_shader_tessellator_output_primitive>(hull->tess_output_primitive);
        domain.partitioning =
            static_cast<vkd3d_shader_tessellator_partitioning>(hull->tess_partitioning);
        target.next = &domain;
    }
    std::vector<vkd3d_shader_transform_feedback_element> xfb_elements;
    for (const XfbElement& e : xfb_layout.elements)
        xfb_elements.push_back({0, e.semantic.c_str(), e.semantic_index, 0,
                                static_cast<std::uint8_t>(e.component_count),
                                static_cast<std::uint8_t>(e.slot)});
    vkd3d_shader_transform_feedback_info xfb{};
    xfb.type = VKD3D_SHADER_STRUCTURE_TYPE_TRANSFORM_FEEDBACK_INFO;
    xfb.next = &target;
    xfb.elements = xfb_elements.data();
    xfb.element_count = static_cast<unsigned>(xfb_elements.size());
    xfb.buffer_strides = xfb_layout.strides.data();
    xfb.buffer_stride_count = static_cast<unsigned>(xfb_layout.strides.size());
    vkd3d_shader_interface_info shader_interface{};
    shader_interface.type = VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO;
    shader_interface.next = stream_output != nullptr ? static_cast<const void*>(&xfb) : &target;
    shader_interface.bindings = bindings.data();
    shader_interface.binding_count = static_cast<unsigned>(bindings.size());
    shader_interface.uav_counters = counters.data();
    shader_interface.uav_counter_count = static_cast<unsigned>(counters.size());
    info.next = &shader_interface;
    const vkd3d_shader_compile_option strip{VKD3D_SHADER_COMPILE_OPTION_STRIP_DEBUG, 1};
    info.options = &strip;
    info.option_count = 1;

    vkd3d_shader_code spirv{};
    char* messages = nullptr;
    const int result = vkd3d_shader_compile(&info, &spirv, &messages);
    const std::string text = take_messages(messages);
    if (result != VKD3D_OK) {
        error = "vkd3d-shader cannot translate it (" + std::to_string(result) + ")" +
                (text.empty() ? "" : ": " + text);
        return nullptr;
    }
    const auto* words = static_cast<const std::uint32_t*>(spirv.code);
    shader->spirv.assign(words, words + spirv.size / 4);
    vkd3d_shader_free_shader_code(&spirv);
    if (stream_output != nullptr) {
        error = set_xfb_offsets(shader->spirv, xfb_layout);
        if (!error.empty()) return nullptr;
        shader->streams_out = true;
    }
    dump_module(key, shader->spirv);

    std::lock_guard lock(mutex_);
    return cache_.emplace(key, std::move(shader)).first->second;
}

}  // namespace d3dcap::runtime::backend::vulkan
