// What the GPU tests and the sparse-binding benchmark share: the device (or
// why there is none to test on), sparse images, memory, host buffers, and
// one-shot transfers that fill or read whole tiles.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/backend/vulkan/sparse_binder.h"
#include "runtime/backend/vulkan/vulkan_device.h"

namespace gpu_tests {

using d3dcap::runtime::backend::vulkan::Status;
using d3dcap::runtime::backend::vulkan::VulkanDevice;

// A Vulkan device with sparse residency for 2D images, or why not.
struct Gpu {
    std::unique_ptr<VulkanDevice> device;
    std::string skip_reason;  // set when device is null
    bool no_vulkan = false;   // no Vulkan device at all (lavapipe is a dependency)
};
Gpu open_sparse_gpu();

// Aborts the test program with a message when a Vulkan call fails.
void check(VkResult result, const char* what);

class HostBuffer {
  public:
    HostBuffer(const VulkanDevice& device, VkDeviceSize bytes, VkBufferUsageFlags usage);
    ~HostBuffer();
    HostBuffer(const HostBuffer&) = delete;
    HostBuffer& operator=(const HostBuffer&) = delete;
    VkBuffer buffer() const { return buffer_; }
    std::uint32_t* words() const { return static_cast<std::uint32_t*>(mapped_); }
    VkDeviceSize bytes() const { return bytes_; }

  private:
    VkDevice device_;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    void* mapped_ = nullptr;
    VkDeviceSize bytes_;
};

// Runs command buffers on the general queue and sparse batches on the sparse
// queue, each waited for on the host.
class Runner {
  public:
    explicit Runner(const VulkanDevice& device);
    ~Runner();
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    void bind(VkImage image, std::span<const VkSparseImageMemoryBind> binds);
    void bind_opaque(VkImage image, const VkSparseMemoryBind& bind);
    // Records into a command buffer that starts with a transfer-to-transfer
    // memory barrier and ends with one to the host, submits it and waits.
    void run(const std::function<void(VkCommandBuffer)>& record);

  private:
    const VulkanDevice& device_;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkCommandBuffer cmd_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
};

struct SparseImageDesc {
    VkImageType type = VK_IMAGE_TYPE_2D;
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    VkExtent3D extent{0, 0, 1};
    bool aliased = false;  // VK_IMAGE_CREATE_SPARSE_ALIASED_BIT
};

// A sparse-residency image with one mip level, in VK_IMAGE_LAYOUT_GENERAL.
class SparseImage {
  public:
    SparseImage(const VulkanDevice& device, Runner& runner, const SparseImageDesc& desc);
    ~SparseImage();
    SparseImage(const SparseImage&) = delete;
    SparseImage& operator=(const SparseImage&) = delete;
    VkImage image() const { return image_; }
    const VkExtent3D& block() const { return target_.block; }
    // Mip 0 of layer 0, with the device's block shape and the given layout.
    d3dcap::runtime::backend::vulkan::SparseImageTarget target(
        d3dcap::runtime::backend::vulkan::MultiBlockLayout layout =
            d3dcap::runtime::backend::vulkan::kDefaultLayout) const;
    VkDeviceSize block_bytes() const { return block_bytes_; }
    std::uint32_t memory_type_bits() const { return memory_type_bits_; }

  private:
    void bind_metadata(const VulkanDevice& device, Runner& runner,
                       const VkSparseImageMemoryRequirements& req);

    const VulkanDevice& device_;
    VkImage image_ = VK_NULL_HANDLE;
    VkDeviceMemory metadata_ = VK_NULL_HANDLE;
    d3dcap::runtime::backend::vulkan::SparseImageTarget target_;
    VkDeviceSize block_bytes_ = 0;
    std::uint32_t memory_type_bits_ = 0;
};

// Device-local memory of `pages` 64 KiB pages for sparse binds. Declare it
// before the images it backs, so that they are destroyed before it is freed.
class PageMemory {
  public:
    explicit PageMemory(const VulkanDevice& device) : vk_(device), device_(device.device()) {}
    PageMemory(const VulkanDevice& device, std::uint32_t type_bits, std::uint64_t pages);
    void allocate(std::uint32_t type_bits, std::uint64_t pages);
    ~PageMemory();
    PageMemory(const PageMemory&) = delete;
    PageMemory& operator=(const PageMemory&) = delete;
    VkDeviceMemory memory() const { return memory_; }
    std::uint32_t type_index() const { return type_; }

  private:
    const VulkanDevice& vk_;
    VkDevice device_;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    std::uint32_t type_ = 0;
};

// A tile of an image, in tiles.
struct TileCoord {
    std::uint32_t x = 0, y = 0, z = 0;
};

// The test pattern: word i of a tile that holds page p. Never 0.
inline std::uint32_t pattern(std::uint64_t page, std::uint32_t word) {
    return 0x80000000u | static_cast<std::uint32_t>((page & 0x1ffff) << 14) | (word & 0x3fff);
}
// The page a pattern word names, or -1 for a word that is no pattern.
inline std::int64_t pattern_page(std::uint32_t value, std::uint32_t word) {
    if (!(value & 0x80000000u) || (value & 0x3fff) != (word & 0x3fff)) return -1;
    return (value >> 14) & 0x1ffff;
}

// Writes pattern(pages[i], .) into every texel of tiles[i] (32-bit texels,
// whole tiles of block_bytes).
void write_tiles(Runner& runner, const VulkanDevice& device, const SparseImage& image,
                 std::span<const TileCoord> tiles, std::span<const std::uint64_t> pages);
// Reads tiles[i] into words [i * block words, (i + 1) * block words).
std::vector<std::uint32_t> read_tiles(Runner& runner, const VulkanDevice& device,
                                      const SparseImage& image, std::span<const TileCoord> tiles);

// What a tile read back holds: the page every word of it names, kZero when
// it is all zeros, kMixed otherwise.
inline constexpr std::int64_t kZero = -1, kMixed = -2;
std::int64_t tile_contents(std::span<const std::uint32_t> words);

}  // namespace gpu_tests
