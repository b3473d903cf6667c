// MSAA textures on the Vulkan device. Vulkan copies no samples between
// images and buffers, so the samples move through shaders of the project's
// own assembly, run as the device's own dispatches and draws: a compute
// shader reads each sample (ld2dms through an integer view of the texel's
// size) into a buffer in the canonical layout (each texel's samples in
// order), and a draw at sample rate writes each sample from such a buffer
// (SV_SampleIndex picks its bytes) through an integer view of the target.
#include <cstdio>
#include <cstring>

#include "runtime/shader/assembler.h"
#include "runtime/vulkan/vulkan_backend.h"

namespace d3dcap::runtime::gpu {
namespace {

// The integer view of a texel of `bytes` (4, 8 or 16), and the components
// it has.
DXGI_FORMAT integer_format(std::uint32_t bytes) {
    return bytes == 4   ? DXGI_FORMAT_R32_UINT
           : bytes == 8 ? DXGI_FORMAT_R32G32_UINT
                        : DXGI_FORMAT_R32G32B32A32_UINT;
}
const char* components(std::uint32_t bytes) {
    return bytes == 4 ? "x" : bytes == 8 ? "xy" : "xyzw";
}

// Reads every sample of t0 into u0: thread (x, y) writes texel (x, y).
std::string read_shader(std::uint32_t samples, std::uint32_t bytes) {
    std::string text = "cs_5_0\n";
    char line[1024];
    std::snprintf(line, sizeof line,
                  "dcl_resource_texture2dms(%u) (uint,uint,uint,uint) t0\n"
                  "dcl_uav_raw u0\ndcl_input vThreadID.xy\ndcl_temps 3\n"
                  "dcl_thread_group 8, 8, 1\n"
                  "resinfo_indexable(texture2dms)(uint,uint,uint,uint)_uint r0.xy, l(0), t0.xyzw\n"
                  "uge r0.zw, vThreadID.xxxy, r0.xxxy\nor r0.z, r0.z, r0.w\nif_nz r0.z\nret\n"
                  "endif\nimad r1.x, vThreadID.y, r0.x, vThreadID.x\n"
                  "imul null, r1.x, r1.x, l(%u)\n",
                  samples, samples * bytes);
    text += line;
    for (std::uint32_t s = 0; s < samples; ++s) {
        std::snprintf(line, sizeof line,
                      "ld2dms_indexable(texture2dms)(uint,uint,uint,uint) r2.xyzw, vThreadID.xyyy, "
                      "t0.xyzw, l(%u)\niadd r1.y, r1.x, l(%u)\nstore_raw u0.%s, r1.y, r2.%s\n",
                      s, s * bytes, components(bytes), components(bytes));
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
        std::fprintf(stderr, "d3dcap: Vulkan device: an MSAA shader does not assemble: %s\n",
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
    resources_[id] = std::move(buffer);
    return id;
}

namespace {

ViewInfo raw_view(ObjectId buffer, std::uint64_t bytes) {
    ViewInfo view;
    view.resource = buffer;
    view.format = DXGI_FORMAT_R32_TYPELESS;
    view.element_count = bytes / 4;
    return view;
}

}  // namespace

std::vector<std::uint8_t> VulkanBackend::read_samples(GpuResource& resource, std::uint32_t sub) {
    const reference::SubresourceLayout layout = reference::layout_of(resource.info, sub);
    const std::uint64_t size = layout.slice_bytes();
    const std::uint32_t samples = resource.storage.samples;
    const std::uint32_t bytes = layout.element_bytes / samples;
    std::vector<std::uint8_t> out;
    const ObjectId buffer = internal_buffer(size, nullptr);
    if (buffer == 0) return out;
    const std::vector<std::uint8_t>& code = internal_shader(read_shader(samples, bytes));
    StageWork compute;
    compute.bytecode = code;
    ViewInfo view;
    view.resource = resource.info.id;
    view.format = integer_format(bytes);
    view.first_slice = sub;  // MSAA textures have one mip
    compute.resources.emplace_back(0, view);
    compute.uavs.emplace_back(0, raw_view(buffer, size));
    DispatchSize groups{(layout.width + 7) / 8, (layout.height + 7) / 8, 1};
    WorkResults results;
    const std::string why = dispatch(compute, groups, results);
    if (why.empty()) {
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
    const reference::SubresourceLayout layout = reference::layout_of(resource.info, sub);
    const std::uint64_t size = layout.slice_bytes();
    const std::uint32_t samples = resource.storage.samples;
    const std::uint32_t bytes = layout.element_bytes / samples;
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

}  // namespace d3dcap::runtime::gpu
