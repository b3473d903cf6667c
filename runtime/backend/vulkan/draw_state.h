// What the Vulkan device keeps between draws and dispatches so that each
// records only what changed: a stage's descriptor set and what it holds,
// the buffers a draw reads, what the open command buffer has bound, and
// what the last draw resolved. Internal to libd3dcap.
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <cstdint>
#include <vector>

#include "runtime/backend/backend.h"
#include "runtime/backend/vulkan/gpu_context.h"
#include "runtime/backend/vulkan/gpu_resource.h"
#include "runtime/backend/vulkan/pipelines.h"

namespace d3dcap::runtime::backend::vulkan {

// One descriptor of a stage as bound at a draw or dispatch (compared
// bytewise, so made with memset).
struct BoundDescriptor {
    std::uint32_t binding;
    VkDescriptorType type;
    VkDescriptorBufferInfo buffer;
    VkDescriptorImageInfo image;
    VkBufferView texel;
};

// A dynamic uniform buffer's offset, with the window it was resolved from:
// `buffer` and `size` where the offset is the window's (0, 0 where the
// descriptor is null; 0 and ~0 where the descriptor holds the offset), so
// that a window moved within the same buffer needs only a new offset.
struct DynamicOffset {
    std::uint32_t binding = 0, offset = 0, reg = 0;
    ObjectId buffer = 0;
    VkDeviceSize size = 0;
    const GpuResource* resource = nullptr;  // the buffer's, for its slice
};

// What a stage's descriptor set holds, the set written with it (reused
// while the stage binds the same), and what the work touches through it.
struct StageSet {
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    std::vector<BoundDescriptor> descriptors;
    std::vector<DynamicOffset> dynamic_offsets;  // in binding order
    struct Touch {
        std::uint64_t key;
        bool write;
    };
    std::vector<Touch> touches;
    VkDescriptorSet set = VK_NULL_HANDLE;
    std::uint64_t generation = 0;  // the descriptor generation it was written in
    bool plain = false;            // it writes nothing and holds no tiled resource
};

// What a draw reads vertices, indices and arguments from.
struct VertexBinding {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceSize offset = 0, stride = 0;
    bool operator==(const VertexBinding&) const = default;
};
struct DrawBuffers {
    std::array<VertexBinding, D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT> vertex{};
    GpuResource* index = nullptr;
    VkDeviceSize index_offset = 0;  // in its VkBuffer
    GpuResource* indirect = nullptr;
    VkBuffer auto_counter = VK_NULL_HANDLE;  // DrawAuto's vertex count
    VkDeviceSize auto_counter_offset = 0;
    bool nothing = false;                // DrawAuto of what stream output never wrote
    std::vector<std::uint64_t> touched;  // hazard keys, once each
};

// What the open command buffer has bound for draws, so that a draw binds
// only what changed; valid while the GPU context's state epoch is.
struct BoundDrawState {
    std::uint64_t epoch = ~std::uint64_t{0};
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    std::array<VkDescriptorSet, 5> sets{};
    std::array<std::array<std::uint32_t, 16>, 5> offsets{};
    std::vector<VkViewport> viewports;
    std::vector<VkRect2D> scissors;
    bool constants_set = false;  // blend factor and stencil reference
    std::array<float, 4> blend_factor{};
    std::uint32_t stencil_ref = 0;
    std::array<VertexBinding, D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT> vertex{};
    VkBuffer index_buffer = VK_NULL_HANDLE;
    VkDeviceSize index_offset = 0;
    VkIndexType index_type = VK_INDEX_TYPE_UINT16;
};

// What the last draw resolved from its DrawWork. The next draw given the
// same DrawWork resolves again only the parts its `changed` bits name,
// while nothing it resolved can have changed under it: no resource was
// released (descriptor generation), no batch was submitted (resources'
// used_in), no tile mapping waits to be bound, no page has replicas, and
// no tiled resource is among the kept parts (those sync and mark their
// tiles at every use).
struct LastDraw {
    const DrawWork* work = nullptr;  // null: nothing kept
    std::uint64_t generation = 0, batch = 0;
    PipelineShaders shaders;
    std::uint32_t shader_stages = 0;  // a bit per stage with a shader
    RenderTargets targets;
    bool plain_targets = false;
    const GraphicsPipeline* pipeline = nullptr;
    DrawBuffers buffers;
    bool indexed = false, direct = false, plain_buffers = false;
    // Set where the draw touched only what it reads through plain sets,
    // buffers and targets, without stream output, predicate or queries of
    // its own: the render pass it drew in (GpuContext::rendering_serial).
    std::uint64_t render_serial = 0;
    std::uint64_t slice_moves = 0, vertex_slice_moves = 0;  // the backend's when kept
};

}  // namespace d3dcap::runtime::backend::vulkan
