// Buffers rewritten with WRITE_DISCARD while the GPU still reads them, as
// most D3D11 renderers do before every draw. Dynamic constant, vertex and
// index buffers move to the next slice of a ring in one VkBuffer, so that
// the descriptor sets naming that VkBuffer stay valid and only the dynamic
// offsets and buffer offsets the draws bind move (as a driver renames a
// buffer without new descriptors); other buffers get new memory.
#include <algorithm>
#include <cstring>

#include "runtime/backend/vulkan/vulkan_backend.h"

namespace d3dcap::runtime::backend::vulkan {
namespace {

// A ring never grows past this; beyond it WRITE_DISCARD renames the buffer.
constexpr VkDeviceSize kMostRingBytes = VkDeviceSize{64} << 20;
// What a slice no work has used yet is marked used in.
constexpr std::uint64_t kUnused = ~std::uint64_t{0};

constexpr std::uint32_t kSlicedBinds =
    D3D11_BIND_CONSTANT_BUFFER | D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER;

// Buffers only constants, vertices and indices are read from (views would
// need one per slice).
bool sliced(const ResourceInfo& info) {
    return info.usage == D3D11_USAGE_DYNAMIC && info.bind_flags != 0 &&
           (info.bind_flags & ~kSlicedBinds) == 0 && info.misc_flags == 0;
}

}  // namespace

// WRITE_DISCARD of a buffer that work not yet done reads: new memory (with
// the old bytes, as the reference device hands them back); the old memory
// goes once that work is done. False when there is no memory for it.
bool VulkanBackend::rename_buffer(GpuResource& resource) {
    if (!replace_buffer(resource, std::max<std::uint64_t>(resource.info.byte_width, 4), 0))
        return false;
    resource.slice_stride = 0;
    resource.slices_used_in.clear();
    return true;
}

// A new host-visible VkBuffer of `size` bytes for a buffer, its contents at
// offset 0; the old one goes once the work using it is done.
bool VulkanBackend::replace_buffer(GpuResource& resource, VkDeviceSize size,
                                   VkMemoryPropertyFlags preferred) {
    VkBufferCreateInfo create{};
    create.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    create.usage = buffer_usage();
    create.size = size;
    VkBuffer buffer = VK_NULL_HANDLE;
    Allocation memory;
    if (vkCreateBuffer(gpu_->vk(), &create, nullptr, &buffer) != VK_SUCCESS) return false;
    if (!bind_buffer_memory(resource.info, buffer, memory, preferred) || memory.mapped == nullptr) {
        vkDestroyBuffer(gpu_->vk(), buffer, nullptr);
        gpu_->allocator().free(memory);
        return false;
    }
    std::memcpy(memory.mapped,
                static_cast<const std::uint8_t*>(resource.memory.mapped) + resource.slice,
                resource.info.byte_width);
    release_later(resource.buffer, VK_NULL_HANDLE, resource.memory);
    resource.buffer = buffer;
    resource.memory = memory;
    resource.slice = 0;
    return true;
}

bool VulkanBackend::next_slice(GpuResource& resource) {
    if (!sliced(resource.info) || resource.memory.mapped == nullptr) return false;
    if (resource.slices_used_in.empty() && !grow_slices(resource)) return false;
    std::vector<std::uint64_t>& used_in = resource.slices_used_in;
    const auto current = static_cast<std::size_t>(resource.slice / resource.slice_stride);
    used_in[current] = resource.used_in;
    // Oldest first: the slice after the current one was used before any other.
    std::size_t next = (current + 1) % used_in.size();
    if (used_in[next] != kUnused && !gpu_->batch_done(used_in[next])) {
        if (!grow_slices(resource)) return false;
        next = 1;  // the grown ring holds the contents in slice 0
    }
    auto* bytes = static_cast<std::uint8_t*>(resource.memory.mapped);
    const VkDeviceSize from = resource.slice, to = next * resource.slice_stride;
    std::memcpy(bytes + to, bytes + from, resource.info.byte_width);  // as renaming keeps them
    resource.slice = to;
    if (resource.info.bind_flags & D3D11_BIND_CONSTANT_BUFFER) ++slice_moves_;
    if (resource.info.bind_flags & (D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER))
        ++vertex_slice_moves_;
    return true;
}

// A ring of twice the slices (eight at first), in a new VkBuffer whose
// slice 0 holds the contents; the old buffer goes once the work using it
// is done. Cached host memory where there is some: each move reads the
// contents back, which device memory the host sees uncached makes cost
// microseconds (the GPU reads them through its caches either way).
bool VulkanBackend::grow_slices(GpuResource& resource) {
    const VkDeviceSize alignment =
        std::max<VkDeviceSize>(gpu_->device().adapter().min_uniform_buffer_alignment, 16);
    const VkDeviceSize stride = (resource.info.byte_width + alignment - 1) / alignment * alignment;
    const std::size_t count = std::max<std::size_t>(8, 2 * resource.slices_used_in.size());
    if (stride * count > kMostRingBytes) return false;
    if (!replace_buffer(resource, stride * count, VK_MEMORY_PROPERTY_HOST_CACHED_BIT)) return false;
    resource.slice_stride = stride;
    resource.slices_used_in.assign(count, kUnused);
    return true;
}

}  // namespace d3dcap::runtime::backend::vulkan
