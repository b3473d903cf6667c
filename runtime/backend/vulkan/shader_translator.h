// DXBC to SPIR-V for the Vulkan device, through vkd3d-shader. Every stage
// binds into one flat space of descriptor set 0 (below), so that a shader's
// registers always land on the same bindings: vkd3d-shader gets a full
// register-to-binding table for the registers the shader uses (without one
// it numbers bindings in declaration order, and they collide). Translations
// are cached by bytecode hash.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/backend/backend.h"
#include "runtime/shader/program.h"

namespace d3dcap::runtime::backend::vulkan {

// Where each register kind starts in set 0 (D3D11's per-stage slot counts:
// 14 constant buffers, 128 resources, 16 samplers, 64 UAVs with counters).
struct BindingSpace {
    static constexpr std::uint32_t kConstantBuffers = 0;
    static constexpr std::uint32_t kResources = 16;
    static constexpr std::uint32_t kSamplers = kResources + 128;
    static constexpr std::uint32_t kUavs = kSamplers + 16;
    static constexpr std::uint32_t kUavCounters = kUavs + 64;
};

enum class RegisterKind : std::uint8_t { ConstantBuffer, Resource, Sampler, Uav };

// What a resource or UAV register is declared as (the values are
// vkd3d-shader's resource types); a texture's view must have this shape.
enum class ResourceShape : std::uint8_t {
    None,
    Buffer,
    Texture1D,
    Texture2D,
    Texture2DMS,
    Texture3D,
    Cube,
    Texture1DArray,
    Texture2DArray,
    Texture2DMSArray,
    CubeArray,
};

// One descriptor a translated shader reads: its D3D register and how it is
// bound in Vulkan.
struct ShaderDescriptor {
    RegisterKind kind = RegisterKind::ConstantBuffer;
    std::uint32_t reg = 0;      // cb#, t#, s#, u#
    std::uint32_t binding = 0;  // in set 0
    bool buffer = false;        // a buffer resource or UAV (else a texture)
    bool counter = false;       // a UAV with a hidden counter
    ResourceShape shape = ResourceShape::None;
    std::uint32_t first_w_slice = 0;  // Texture3D UAVs: added to z (uav_slices.h)
};

struct TranslatedShader {
    std::vector<std::uint32_t> spirv;
    std::vector<ShaderDescriptor> descriptors;
    int program_type = -1;  // 0 pixel, 1 vertex, 2 geometry, 3 hull, 4 domain, 5 compute
    std::uint32_t set = 0;  // the descriptor set of its stage (descriptor_set_of)
    std::vector<shader::SignatureElement> inputs, outputs;  // ISGN and OSGN (OSG5)
    // Hull shaders: what the tessellator makes (the domain shader's
    // translation needs it); D3D11's values, which are vkd3d-shader's.
    std::uint32_t tess_output_primitive = 0, tess_partitioning = 0;
    bool streams_out = false;  // translated with a stream-output declaration
};

// The specialization constant that carries the rasterizer's sample count
// (what samplepos and sampleinfo read from the rasterizer register); every
// graphics pipeline sets it from its targets.
inline constexpr std::uint32_t kRasterizerSampleCountConstant = 0;

// Each graphics stage binds its slots in a set of its own (vertex 0, hull 1,
// domain 2, geometry 3, pixel 4), so that stages' registers do not collide;
// compute uses set 0.
std::uint32_t descriptor_set_of(int program_type);

// What a shader is translated for besides its bytecode.
struct TranslationOptions {
    // A domain shader: the hull shader it runs after.
    const TranslatedShader* hull = nullptr;
    // A pixel shader whose outputs feed dual-source blending: o0 and o1 are
    // the two sources of target 0.
    bool dual_source = false;
    // A pixel shader: a bit per render target kept as one red channel for an
    // alpha-only format (A8_UNORM); its o# writes alpha into red.
    std::uint8_t alpha_in_red = 0;
    // The last stage before the rasterizer, with a stream-output declaration:
    // it streams its outputs (transform feedback, stream_output_layout.h).
    const StreamOutputDeclaration* stream_output = nullptr;
    // Texture3D UAVs bound from a first W slice: (register, slice), uav_slices.h.
    std::span<const std::pair<std::uint32_t, std::uint32_t>> uav_first_slices;

    bool same_variant(const TranslationOptions& o) const {
        return hull == o.hull && dual_source == o.dual_source && alpha_in_red == o.alpha_in_red &&
               stream_output == o.stream_output;
    }
};

class ShaderTranslator {
  public:
    // The translation of a DXBC container, or null with the reason (vkd3d's
    // own messages included) in `error`.
    std::shared_ptr<const TranslatedShader> translate(std::span<const std::uint8_t> bytecode,
                                                      std::string& error,
                                                      const TranslationOptions& options = {});

  private:
    std::mutex mutex_;
    std::unordered_map<std::uint64_t, std::shared_ptr<const TranslatedShader>> cache_;
};

}  // namespace d3dcap::runtime::backend::vulkan
