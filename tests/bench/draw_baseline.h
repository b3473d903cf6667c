// draw_bench's frame written as a native Vulkan renderer would write it: the
// limit the D3D11 device on Vulkan is measured against. The shaders are the
// benchmark's own (shared here so both run the same DXBC), translated once
// to SPIR-V with vkd3d-shader; everything else is made once, and each frame
// records one command buffer of 10,000 draws, submits it and waits. The
// predicated frame draws as draw_bench's Predicated runs do, with what a
// native renderer needs for it: each even draw inside an occlusion query,
// its result copied (between render passes) into a buffer that the odd
// draw's conditional rendering reads.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace d3dcap::bench {

inline constexpr unsigned kDraws = 10000;

// The vertex shader: each draw's position offset and colour from cb0.
inline constexpr const char* kVs = R"(vs_5_0
.input POSITION0 v0.xy float
.output SV_Position0 o0.xyzw float
.output COLOR0 o1.xyzw float
dcl_constantbuffer cb0[2], immediateIndexed
dcl_input v0.xy
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
add o0.xy, v0.xyxx, cb0[0].xyxx
mov o0.zw, l(0, 0, 0.500000, 1.000000)
mov o1.xyzw, cb0[1].xyzw
ret
)";

inline constexpr const char* kPs = R"(ps_5_0
.input SV_Position0 v0.xyzw float
.input COLOR0 v1.xyzw float
.output SV_Target0 o0.xyzw float
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
mov o0.xyzw, v1.xyzw
ret
)";

// 256 windows of 16 constants: an offset and a colour each.
inline std::vector<float> constant_windows() {
    std::vector<float> windows(256 * 16 * 4, 0.0f);
    for (int w = 0; w < 256; ++w) {
        float* c = &windows[w * 64];
        c[0] = (w % 16) / 8.0f - 0.9f;
        c[1] = (w / 16) / 8.0f - 0.9f;
        c[4] = (w % 7) / 7.0f, c[5] = (w % 5) / 5.0f, c[6] = (w % 3) / 3.0f, c[7] = 0.5f;
    }
    return windows;
}

// 64 triangles' vertices (x, y); each draw takes one.
inline std::vector<float> triangle_vertices() {
    std::vector<float> positions;
    for (int t = 0; t < 64; ++t)
        positions.insert(positions.end(), {-0.1f, 0.1f, 0.1f, 0.1f, -0.1f, -0.1f});
    return positions;
}

class PlainVulkanFrame {
  public:
    // Hardware: the first discrete or integrated GPU, else as Cpu. Cpu: the
    // first VK_PHYSICAL_DEVICE_TYPE_CPU device (lavapipe). With
    // D3DCAP_BASELINE_VALIDATE=1 the Khronos validation layer reports to stderr.
    enum class Device { Hardware, Cpu };
    explicit PlainVulkanFrame(Device device);
    ~PlainVulkanFrame();
    PlainVulkanFrame(const PlainVulkanFrame&) = delete;
    PlainVulkanFrame& operator=(const PlainVulkanFrame&) = delete;

    // Empty once the frame is ready; why not otherwise.
    const std::string& error() const { return error_; }
    // Records, submits and waits for one frame; false (and error()) on failure.
    bool frame();
    // The same frame with every odd draw predicated on the draw before it
    // (VK_EXT_conditional_rendering); false where the device lacks it.
    bool predicated_frame();

  private:
    struct Vulkan;
    std::unique_ptr<Vulkan> vk_;
    std::string error_;
};

}  // namespace d3dcap::bench
