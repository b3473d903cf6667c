// MSAA textures on the Vulkan device. Vulkan copies no samples between
// images and buffers, so the samples move through shaders of the project's
// own assembly, run as the device's own dispatches and draws: a compute
// shader reads each sample (ld2dms through an integer view of the texel's
// size) into a buffer in the canonical layout (each texel's samples in
// order), and a draw at sample rate writes each sample from such a buffer
// (SV_SampleIndex picks its bytes) through an integer view of the target.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "runtime/backend/vulkan/vulkan_backend.h"
#include "runtime/shader/assembler.h"

namespace d3dcap::runtime::backend::vulkan {
namespace {

// The integer view of a texel of `bytes` (1, 2, 4, 8 or 16), and the
// components it has.
DXGI_FORMAT integer_format(std::uint32_t bytes) {
    return bytes == 1   ? DXGI_FORMAT_R8_UINT
           : bytes == 2 ? DXGI_FORMAT_R16_UINT
           : bytes == 4 ? DXGI_FORMAT_R32_UINT
           : bytes == 8 ? DXGI_FORMAT_R32G32_UINT
                        : DXGI_FORMAT_R32G32B32A32_UINT;
}
const char* components(std::uint32_t bytes) {
    return bytes <= 4 ? "x" : bytes == 8 ? "xy" : "xyzw";
}

// What a texel of an MSAA texture is made of, for reading its samples.
enum class SampleKind { Colour, Depth16, Depth32, Depth24Stencil8, Depth32Stencil8 };

SampleKind kind_of(const ImageStorage& storage) {
    switch (storage.format) {
        case VK_FORMAT_D16_UNORM:
            return SampleKind::Depth16;
        case VK_FORMAT_D32_SFLOAT:
            return SampleKind::Depth32;
        case VK_FORMAT_D24_UNORM_S8_UINT:
            return SampleKind::Depth24Stencil8;
        case VK_FORMAT_D32_SFLOAT_S8_UINT:
            return SampleKind::Depth32Stencil8;
        default:
            return SampleKind::Colour;
    }
}

// Reads every sample of t0 (colour, or depth with t1 the stencil) into u0
// in the canonical layout: thread (x, y) writes texel (x, y).
std::string read_shader(SampleKind kind, std::uint32_t samples, std::uint32_t bytes) {
    const bool colour = kind == SampleKind::Colour;
    const bool stencil = kind == SampleKind::Depth24Stencil8 || kind == SampleKind::Depth32Stencil8;
    std::string text = "cs_5_0\n";
    if (stencil)
        text +=
            "dcl_resource_texture2dms(" + std::to_string(samples) + ") (uint,uint,uint,uint) t1\n";
    char line[1024];
    std::snprintf(line, sizeof line,
                  "dcl_resource_texture2dms(%u) (%s) t0\n"
                  "dcl_uav_raw u0\ndcl_input vThreadID.xy\ndcl_temps 3\n"
                  "dcl_thread_group 8, 8, 1\n"
                  "resinfo_indexable(texture2dms)(uint,uint,uint,uint)_uint r0.xy, l(0), t0.xyzw\n"
                  "uge r0.zw, vThreadID.xxxy, r0.xxxy\nor r0.z, r0.z, r0.w\nif_nz r0.z\nret\n"
                  "endif\nimad r1.x, vThreadID.y, r0.x, vThreadID.x\n"
                  "imul null, r1.x, r1.x, l(%u)\n",
                  samples, colour ? "uint,uint,uint,uint" : "float,float,float,float",
                  samples * bytes);
    text += line;
    if (bytes == 1) {  // four samples to a word; 2x texels share words (OR-ed in)
        for (std::uint32_t s = 0; s < samples; s += 4) {
            text += "mov r2.x, l(0)\n";
            for (std::uint32_t part = 0; part < std::min(samples - s, 4u); ++part) {
                std::snprintf(line, sizeof line,
                              "ld2dms_indexable(texture2dms)(uint,uint,uint,uint) r2.y, "
                              "vThreadID.xyyy, t0.yxzw, l(%u)\n"
                              "ishl r2.y, r2.y, l(%u)\nor r2.x, r2.x, r2.y\n",
                              s + part, part * 8);
                text += line;
            }
            if (samples == 2) {
                text +=
                    "and r2.z, r1.x, l(3)\nishl r2.z, r2.z, l(3)\nishl r2.x, r2.x, r2.z\n"
                    "and r2.z, r1.x, l(0xfffffffc)\natomic_or u0, r2.z, r2.x\n";
            } else {
                std::snprintf(line, sizeof line,
                              "iadd r1.y, r1.x, l(%u)\nstore_raw u0.x, r1.y, r2.x\n", s);
                text += line;
            }
        }
        return text + "ret\n";
    }
    if (bytes == 2) {  // two samples to a word (MSAA has an even sample count)
        for (std::uint32_t s = 0; s < samples; s += 2) {
            for (std::uint32_t half = 0; half < 2; ++half) {
                std::snprintf(line, sizeof line,
                              "ld2dms_indexable(texture2dms)(%s) r2.%c, vThreadID.xyyy, t0.%s, "
                              "l(%u)\n",
                              colour ? "uint,uint,uint,uint" : "float,float,float,float",
                              half ? 'y' : 'x', half ? "yxzw" : "xyzw", s + half);
                text += line;
            }
            if (!colour)  // 16-bit UNORM depth
                text +=
                    "mul r2.xy, r2.xyxx, l(65535.000000, 65535.000000, 0.000000, 0.000000)\n"
                    "round_ne r2.xy, r2.xyxx\nftou r2.xy, r2.xyxx\n";
            std::snprintf(line, sizeof line,
                          "ishl r2.y, r2.y, l(16)\nor r2.x, r2.x, r2.y\n"
                          "iadd r1.y, r1.x, l(%u)\nstore_raw u0.x, r1.y, r2.x\n",
                          s * 2);
            text += line;
        }
        return text + "ret\n";
    }
    for (std::uint32_t s = 0; s < samples; ++s) {
        auto load = [&](const char* type, const char* dest, const char* resource) {
            std::snprintf(line, sizeof line,
                          "ld2dms_indexable(texture2dms)(%s) %s, vThreadID.xyyy, %s, l(%u)\n", type,
                          dest, resource, s);
            text += line;
        };
        constexpr const char* kFloat = "float,float,float,float";
        constexpr const char* kUint = "uint,uint,uint,uint";
        const char* stored = components(bytes);
        switch (kind) {
            case SampleKind::Colour:
                load(kUint, "r2.xyzw", "t0.xyzw");
                break;
            case SampleKind::Depth16:  // 2-byte texels are read above
            case SampleKind::Depth32:
                load(kFloat, "r2.x", "t0.xyzw");
                break;
            case SampleKind::Depth24Stencil8:  // 24-bit UNORM depth, stencil in the top byte
                load(kFloat, "r2.x", "t0.xyzw");
                text +=
                    "mul r2.x, r2.x, l(16777215.000000)\nround_ne r2.x, r2.x\nftou r2.x, r2.x\n";
                load(kUint, "r2.y", "t1.xyzw");
                text += "ishl r2.y, r2.y, l(24)\nor r2.x, r2.x, r2.y\n";
                break;
            case SampleKind::Depth32Stencil8:  // the float, then the stencil byte
                load(kFloat, "r2.x", "t0.xyzw");
                load(kUint, "r2.y", "t1.xyzw");
                text += "and r2.y, r2.y, l(255)\n";
                break;
        }
        std::snprintf(line, sizeof line, "iadd r1.y, r1.x, l(%u)\nstore_raw u0.%s, r1.y, r2.%s\n",
                      s * bytes, stored,
                      bytes == 4   ? "x"
                      : bytes == 8 ? "xyxx"
                                   : "xyzw");
        text += line;
    }
    return text + "ret\n";
}

// A triangle over the whole target.
constexpr const char* kCoverVs = R"(vs_5_0
.input SV_VertexID0 v0.x uint vertex_id
.output SV_Position0 o0.xyzw float
dcl_input_sgv v0.x, vertex_id
dcl_output_siv o0.xyzw, position
dcl_temps 1
ieq r0.xy, v0.xxxx, l(1, 2, 0, 0)
movc o0.xy, r0.xyxx, l(3.000000, 3.000000, 0.000000, 0.000000), l(-1.000000, -1.000000, 0.000000, 0.000000)
mov o0.zw, l(0.000000, 0.000000, 0.500000, 1.000000)
ret
)";

// Each sample of a `width`-texel-wide target takes its bytes from t0.
std::string write_shader(std::uint32_t width, std::uint32_t samples, std::uint32_t bytes) {
    const char* mask = components(bytes);
    char text[1024];
    if (bytes <= 2) {  // the part of the word that holds the sample
        std::snprintf(text, sizeof text,
                      "ps_5_0\n.input SV_Position0 v0.xyzw float position\n"
                      ".input SV_SampleIndex0 v1.x uint sample_index\n"
                      ".output SV_Target0 o0.x uint\n"
                      "dcl_resource_raw t0\n"
                      "dcl_input_ps_siv linear noperspective v0.xy, position\n"
                      "dcl_input_ps_sgv constant v1.x, sampleIndex\n"
                      "dcl_output o0.x\ndcl_temps 1\n"
                      "ftou r0.xy, v0.xyxx\nimad r0.x, r0.y, l(%u), r0.x\n"
                      "imad r0.x, r0.x, l(%u), v1.x\nimul null, r0.y, r0.x, l(%u)\n"
                      "and r0.z, r0.y, l(0xfffffffc)\nld_raw r0.w, r0.z, t0.xxxx\n"
                      "and r0.y, r0.y, l(3)\nishl r0.y, r0.y, l(3)\nushr r0.w, r0.w, r0.y\n"
                      "and o0.x, r0.w, l(%u)\nret\n",
                      width, samples, bytes, bytes == 1 ? 0xffu : 0xffffu);
        return text;
    }
    std::snprintf(text, sizeof text,
                  "ps_5_0\n.input SV_Position0 v0.xyzw float position\n"
                  ".input SV_SampleIndex0 v1.x uint sample_index\n"
                  ".output SV_Target0 o0.%s uint\n"
                  "dcl_resource_raw t0\n"
                  "dcl_input_ps_siv linear noperspective v0.xy, position\n"
                  "dcl_input_ps_sgv constant v1.x, sampleIndex\n"
                  "dcl_output o0.%s\ndcl_temps 1\n"
                  "ftou r0.xy, v0.xyxx\nimad r0.x, r0.y, l(%u), r0.x\n"
                  "imad r0.x, r0.x, l(%u), v1.x\nimul null, r0.x, r0.x, l(%u)\n"
                  "ld_raw o0.%s, r0.x, t0.%s\nret\n",
                  mask, mask, width, samples, bytes, mask,
                  bytes == 4   ? "xxxx"
                  : bytes == 8 ? "xyxx"
                               : "xyzw");
    return text;
}

}  // namespace

const std::vector<std::uint8_t>& VulkanBackend::internal_shader(const std::string& text) {
    auto found = internal_shaders_.find(text);
    if (found != internal_shaders_.end()) return found->second;
    const shader::AssembleResult assembled = shader::assemble(text);
    if (!assembled.ok())
        std::fprintf(stderr, "d3dcap: Vulkan device: an internal shader does not assemble: %s\n",
                     assembled.error.c_str());
    return internal_shaders_.emplace(text, assembled.container).first->second;
}

ObjectId VulkanBackend::internal_buffer(std::uint64_t bytes, const std::uint8_t* data) {
    auto buffer = std::make_unique<GpuResource>();
    buffer->info.id = next_internal_id_++;
    buffer->info.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
    buffer->info.byte_width = bytes;
    buffer->info.bind_flags = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_UNORDERED_ACCESS;
    buffer->info.misc_flags = D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS;
    if (FAILED(create_buffer(*buffer))) return 0;
    const ElementBox whole{0, 0, 0, static_cast<std::uint32_t>(bytes), 1, 1};
    if (data != nullptr) upload_box(*buffer, 0, whole, data, bytes, bytes);
    const ObjectId id = buffer->info.id;
    resources_.add(std::move(buffer));
    return id;
}

ViewInfo raw_view(ObjectId buffer, std::uint64_t bytes) {
    ViewInfo view;
    view.resource = buffer;
    view.format = DXGI_FORMAT_R32_TYPELESS;
    view.element_count = bytes / 4;
    return view;
}

std::vector<std::uint8_t> VulkanBackend::read_samples(GpuResource& resource, std::uint32_t sub) {
    const SubresourceLayout layout = layout_of(resource.info, sub);
    const std::uint64_t size = layout.slice_bytes();
    const std::uint32_t samples = resource.storage.samples;
    const std::uint32_t bytes = layout.element_bytes / samples;
    std::vector<std::uint8_t> out;
    const ObjectId buffer = internal_buffer(size, nullptr);
    if (buffer == 0) return out;
    const SampleKind kind = kind_of(resource.storage);
    const std::vector<std::uint8_t>& code = internal_shader(read_shader(kind, samples, bytes));
    StageWork compute;
    compute.bytecode = code;
    ViewInfo view;
    view.resource = resource.info.id;
    view.first_slice = sub;  // MSAA textures have one mip
    view.format = kind == SampleKind::Colour            ? integer_format(bytes)
                  : kind == SampleKind::Depth16         ? DXGI_FORMAT_R16_UNORM
                  : kind == SampleKind::Depth32         ? DXGI_FORMAT_R32_FLOAT
                  : kind == SampleKind::Depth24Stencil8 ? DXGI_FORMAT_R24_UNORM_X8_TYPELESS
                                                        : DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS;
    compute.resources.emplace_back(0, view);
    if (kind == SampleKind::Depth24Stencil8 || kind == SampleKind::Depth32Stencil8) {
        view.format = kind == SampleKind::Depth24Stencil8 ? DXGI_FORMAT_X24_TYPELESS_G8_UINT
                                                          : DXGI_FORMAT_X32_TYPELESS_G8X24_UINT;
        compute.resources.emplace_back(1, view);
    }
    compute.uavs.emplace_back(0, raw_view(buffer, size));
    DispatchSize groups{(layout.width + 7) / 8, (layout.height + 7) / 8, 1};
    WorkResults results;
    const std::string why = dispatch(compute, groups, results);
    if (why.empty()) {
        gpu_->barrier();  // the dispatch's writes before the copy reads them, in this same step
        out = download_box(*find(buffer), 0, {0, 0, 0, static_cast<std::uint32_t>(size), 1, 1});
    } else {
        std::fprintf(stderr,
                     "d3dcap: Vulkan device: cannot read the samples of resource %llu: %s\n",
                     static_cast<unsigned long long>(resource.info.id), why.c_str());
    }
    destroy_resource(buffer);
    return out;
}

void VulkanBackend::write_samples(GpuResource& resource, std::uint32_t sub,
                                  const std::uint8_t* canonical) {
    const SubresourceLayout layout = layout_of(resource.info, sub);
    const std::uint64_t size = layout.slice_bytes();
    const std::uint32_t samples = resource.storage.samples;
    const std::uint32_t bytes = layout.element_bytes / samples;
    if (resource.storage.aspects != VK_IMAGE_ASPECT_COLOR_BIT) {
        // Shaders cannot write stencil here; only clears reach these.
        std::fprintf(stderr,
                     "d3dcap: Vulkan device: resource %llu: the samples of an MSAA depth-stencil "
                     "texture are written only by clears and draws on this device\n",
                     static_cast<unsigned long long>(resource.info.id));
        return;
    }
    const ObjectId buffer = internal_buffer(size, canonical);
    if (buffer == 0) return;
    const std::vector<std::uint8_t>& vs = internal_shader(kCoverVs);
    const std::vector<std::uint8_t>& ps =
        internal_shader(write_shader(layout.width, samples, bytes));
    DrawWork work;
    work.stages[0].bytecode = vs;
    work.stages[4].bytecode = ps;
    work.stages[4].resources.emplace_back(0, raw_view(buffer, size));
    ViewInfo target;
    target.resource = resource.info.id;
    target.format = integer_format(bytes);
    target.first_slice = sub;
    work.render_targets.emplace_back(0, target);
    work.topology = D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST;
    work.rasterizer.FillMode = D3D11_FILL_SOLID;
    work.rasterizer.CullMode = D3D11_CULL_NONE;
    work.rasterizer.DepthClipEnable = TRUE;
    work.blend.RenderTarget[0].RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL;
    work.viewports.push_back(
        {0, 0, static_cast<float>(layout.width), static_cast<float>(layout.height), 0, 1});
    DrawArguments arguments;
    arguments.count = 3;
    WorkResults results;
    const std::string why = draw(work, arguments, results);
    if (!why.empty())
        std::fprintf(stderr,
                     "d3dcap: Vulkan device: cannot write the samples of resource %llu: %s\n",
                     static_cast<unsigned long long>(resource.info.id), why.c_str());
    destroy_resource(buffer);
}

void VulkanBackend::clear_depth_samples(GpuResource& resource, const FillBox& fill) {
    const SubresourceLayout layout = layout_of(resource.info, fill.subresource);
    const std::uint32_t bytes = layout.element_bytes / resource.storage.samples;
    const std::vector<std::uint8_t>& pattern = fill.pattern;
    bool uniform = (pattern.size() == bytes || pattern.size() == layout.element_bytes) &&
                   fill.box.width() == layout.width && fill.box.height() == layout.height &&
                   (fill.mask.empty() || fill.mask.size() == pattern.size());
    for (std::size_t at = bytes; uniform && at < pattern.size(); ++at)
        uniform = pattern[at] == pattern[at % bytes];
    if (!uniform) {
        std::fprintf(stderr,
                     "d3dcap: Vulkan device: resource %llu: an MSAA depth-stencil texture is "
                     "written only whole, by clears and draws, on this device\n",
                     static_cast<unsigned long long>(resource.info.id));
        return;
    }
    auto kept = [&](std::size_t byte) { return fill.mask.empty() || fill.mask[byte] != 0; };
    VkClearDepthStencilValue value{};
    VkImageAspectFlags aspects = 0;
    std::uint32_t word = 0;
    std::memcpy(&word, pattern.data(), std::min<std::size_t>(4, pattern.size()));
    if (resource.storage.format == VK_FORMAT_D16_UNORM) {
        value.depth = static_cast<float>(word & 0xffffu) / 65535.0f;
        if (kept(0)) aspects |= VK_IMAGE_ASPECT_DEPTH_BIT;
    } else if (resource.storage.format == VK_FORMAT_D24_UNORM_S8_UINT) {
        value.depth = static_cast<float>(word & 0xffffffu) / 16777215.0f;
        value.stencil = word >> 24;
        if (kept(0)) aspects |= VK_IMAGE_ASPECT_DEPTH_BIT;
        if (kept(3)) aspects |= VK_IMAGE_ASPECT_STENCIL_BIT;
    } else {  // D32_FLOAT, then (D32_FLOAT_S8X24) the stencil byte
        std::memcpy(&value.depth, &word, 4);
        if (kept(0)) aspects |= VK_IMAGE_ASPECT_DEPTH_BIT;
        if (bytes == 8) {
            value.stencil = pattern[4];
            if (kept(4)) aspects |= VK_IMAGE_ASPECT_STENCIL_BIT;
        }
    }
    if (aspects == 0) return;
    const std::uint32_t mips = resource.storage.mip_levels;
    const VkImageSubresourceRange range{aspects, fill.subresource % mips, 1,
                                        fill.subresource / mips, 1};
    vkCmdClearDepthStencilImage(gpu_->commands(), resource.image, VK_IMAGE_LAYOUT_GENERAL, &value,
                                1, &range);
    gpu_->end_step();
}

}  // namespace d3dcap::runtime::backend::vulkan
