#include "gpu_support.h"

#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace gpu_tests {

using d3dcap::runtime::backend::vulkan::vk_result_name;

void check(VkResult result, const char* what) {
    if (result != VK_SUCCESS) {
        throw std::runtime_error(std::string(what) + ": " + vk_result_name(result));
    }
}

Gpu open_sparse_gpu() {
    Gpu gpu;
    auto device = VulkanDevice::create();
    if (!device) {
        gpu.skip_reason = "no Vulkan device: " + device.error().message;
        gpu.no_vulkan = true;
        return gpu;
    }
    const VulkanDevice& d = **device;
    const auto& caps = d.enabled();
    if (!caps.sparse_binding || !caps.sparse_residency_image_2d || !d.sparse_queue()) {
        gpu.skip_reason = "Vulkan device " + d.adapter().name + " (" + d.adapter().driver_name +
                          ") has no sparseBinding with sparseResidencyImage2D (tiled resources " +
                          d3dcap::runtime::backend::vulkan::tier_name(d.tier().tier) + ": " +
                          d.tier().reason + ")";
        return gpu;
    }
    std::uint32_t count = 0;
    vkGetPhysicalDeviceSparseImageFormatProperties(
        d.physical_device(), VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_SAMPLE_COUNT_1_BIT,
        VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
            VK_IMAGE_USAGE_SAMPLED_BIT,
        VK_IMAGE_TILING_OPTIMAL, &count, nullptr);
    if (count == 0) {
        gpu.skip_reason = "Vulkan device " + d.adapter().name +
                          " has no sparse-residency R8G8B8A8_UNORM 2D images";
        return gpu;
    }
    gpu.device = std::move(device.value());
    return gpu;
}

HostBuffer::HostBuffer(const VulkanDevice& device, VkDeviceSize bytes, VkBufferUsageFlags usage)
    : device_(device.device()), bytes_(bytes) {
    VkBufferCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    info.size = bytes;
    info.usage = usage;
    info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    check(vkCreateBuffer(device_, &info, nullptr, &buffer_), "vkCreateBuffer (host)");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device_, buffer_, &req);
    auto type = device.find_memory_type(
        req.memoryTypeBits,
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
        VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
    if (!type) throw std::runtime_error("no host-visible coherent memory type for a buffer");
    VkMemoryAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    alloc.allocationSize = req.size;
    alloc.memoryTypeIndex = *type;
    check(vkAllocateMemory(device_, &alloc, nullptr, &memory_), "vkAllocateMemory (host)");
    check(vkBindBufferMemory(device_, buffer_, memory_, 0), "vkBindBufferMemory");
    check(vkMapMemory(device_, memory_, 0, VK_WHOLE_SIZE, 0, &mapped_), "vkMapMemory");
}

HostBuffer::~HostBuffer() {
    if (buffer_) vkDestroyBuffer(device_, buffer_, nullptr);
    if (memory_) vkFreeMemory(device_, memory_, nullptr);
}

Runner::Runner(const VulkanDevice& device) : device_(device) {
    VkCommandPoolCreateInfo pool{};
    pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool.queueFamilyIndex = device.general_family();
    check(vkCreateCommandPool(device.device(), &pool, nullptr, &pool_), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.commandPool = pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(device.device(), &alloc, &cmd_), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fence{};
    fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    check(vkCreateFence(device.device(), &fence, nullptr, &fence_), "vkCreateFence");
}

Runner::~Runner() {
    vkDeviceWaitIdle(device_.device());
    vkDestroyFence(device_.device(), fence_, nullptr);
    vkDestroyCommandPool(device_.device(), pool_, nullptr);
}

void Runner::bind(VkImage image, std::span<const VkSparseImageMemoryBind> binds) {
    d3dcap::runtime::backend::vulkan::SparseBatch batch;
    batch.image = image;
    batch.image_binds = binds;
    check(d3dcap::runtime::backend::vulkan::submit_sparse_batch(device_.sparse_queue(), batch,
                                                                fence_),
          "vkQueueBindSparse");
    check(vkWaitForFences(device_.device(), 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    check(vkResetFences(device_.device(), 1, &fence_), "vkResetFences");
}

void Runner::bind_opaque(VkImage image, const VkSparseMemoryBind& bind) {
    VkSparseImageOpaqueMemoryBindInfo opaque{image, 1, &bind};
    VkBindSparseInfo info{};
    info.sType = VK_STRUCTURE_TYPE_BIND_SPARSE_INFO;
    info.imageOpaqueBindCount = 1;
    info.pImageOpaqueBinds = &opaque;
    check(vkQueueBindSparse(device_.sparse_queue(), 1, &info, fence_), "vkQueueBindSparse");
    check(vkWaitForFences(device_.device(), 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    check(vkResetFences(device_.device(), 1, &fence_), "vkResetFences");
}

void Runner::run(const std::function<void(VkCommandBuffer)>& record) {
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cmd_, &begin), "vkBeginCommandBuffer");
    // Earlier submissions' transfers before this one's.
    VkMemoryBarrier barrier{};
    barrier.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                         &barrier, 0, nullptr, 0, nullptr);
    record(cmd_);
    barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &barrier, 0, nullptr, 0, nullptr);
    check(vkEndCommandBuffer(cmd_), "vkEndCommandBuffer");
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd_;
    check(vkQueueSubmit(device_.general_queue(), 1, &submit, fence_), "vkQueueSubmit");
    check(vkWaitForFences(device_.device(), 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    check(vkResetFences(device_.device(), 1, &fence_), "vkResetFences");
    check(vkResetCommandPool(device_.device(), pool_, 0), "vkResetCommandPool");
}

SparseImage::SparseImage(const VulkanDevice& device, Runner& runner, const SparseImageDesc& desc)
    : device_(device) {
    VkImageCreateInfo info{};
    info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    info.flags = VK_IMAGE_CREATE_SPARSE_BINDING_BIT | VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT |
                 (desc.aliased ? VK_IMAGE_CREATE_SPARSE_ALIASED_BIT : 0);
    info.imageType = desc.type;
    info.format = desc.format;
    info.extent = desc.extent;
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                 VK_IMAGE_USAGE_SAMPLED_BIT;
    const std::uint32_t families[2] = {device.general_family(), device.sparse_family()};
    if (families[0] != families[1]) {
        info.sharingMode = VK_SHARING_MODE_CONCURRENT;
        info.queueFamilyIndexCount = 2;
        info.pQueueFamilyIndices = families;
    }
    info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    check(vkCreateImage(device.device(), &info, nullptr, &image_), "vkCreateImage (sparse)");

    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device.device(), image_, &req);
    block_bytes_ = req.alignment;
    memory_type_bits_ = req.memoryTypeBits;
    std::uint32_t count = 0;
    vkGetImageSparseMemoryRequirements(device.device(), image_, &count, nullptr);
    std::vector<VkSparseImageMemoryRequirements> sparse(count);
    vkGetImageSparseMemoryRequirements(device.device(), image_, &count, sparse.data());
    bool found = false;
    for (const VkSparseImageMemoryRequirements& s : sparse) {
        if (s.formatProperties.aspectMask & VK_IMAGE_ASPECT_METADATA_BIT) {
            bind_metadata(device, runner, s);
            continue;
        }
        if (!(s.formatProperties.aspectMask & VK_IMAGE_ASPECT_COLOR_BIT)) continue;
        if (s.imageMipTailFirstLod == 0) throw std::runtime_error("mip 0 is in the mip tail");
        target_.block = s.formatProperties.imageGranularity;
        found = true;
    }
    if (!found) throw std::runtime_error("the sparse image has no color aspect requirements");
    target_.extent = desc.extent;

    runner.run([&](VkCommandBuffer cmd) {
        VkImageMemoryBarrier to_general{};
        to_general.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
        to_general.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        to_general.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        to_general.newLayout = VK_IMAGE_LAYOUT_GENERAL;
        to_general.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        to_general.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        to_general.image = image_;
        to_general.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             0, 0, nullptr, 0, nullptr, 1, &to_general);
    });
}

SparseImage::~SparseImage() {
    vkDeviceWaitIdle(device_.device());
    vkDestroyImage(device_.device(), image_, nullptr);
    if (metadata_) vkFreeMemory(device_.device(), metadata_, nullptr);
}

// Metadata must be bound before the image is used; it lives in the
// metadata aspect's mip tail and is bound opaquely.
void SparseImage::bind_metadata(const VulkanDevice& device, Runner& runner,
                                const VkSparseImageMemoryRequirements& req) {
    VkMemoryRequirements memory_req;
    vkGetImageMemoryRequirements(device.device(), image_, &memory_req);
    const VkDeviceSize size = (req.imageMipTailSize + memory_req.alignment - 1) /
                              memory_req.alignment * memory_req.alignment;
    auto type =
        device.find_memory_type(memory_req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (!type) throw std::runtime_error("no memory type for the image's metadata");
    VkMemoryAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    alloc.allocationSize = size;
    alloc.memoryTypeIndex = *type;
    check(vkAllocateMemory(device.device(), &alloc, nullptr, &metadata_), "vkAllocateMemory");
    VkSparseMemoryBind bind{req.imageMipTailOffset, req.imageMipTailSize, metadata_, 0,
                            VK_SPARSE_MEMORY_BIND_METADATA_BIT};
    runner.bind_opaque(image_, bind);
    std::printf("sparse image: %llu bytes of metadata bound\n",
                static_cast<unsigned long long>(req.imageMipTailSize));
}

d3dcap::runtime::backend::vulkan::SparseImageTarget SparseImage::target(
    d3dcap::runtime::backend::vulkan::MultiBlockLayout layout) const {
    d3dcap::runtime::backend::vulkan::SparseImageTarget t = target_;
    t.layout = layout;
    return t;
}

PageMemory::PageMemory(const VulkanDevice& device, std::uint32_t type_bits, std::uint64_t pages)
    : PageMemory(device) {
    allocate(type_bits, pages);
}

void PageMemory::allocate(std::uint32_t type_bits, std::uint64_t pages) {
    auto type = vk_.find_memory_type(type_bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (!type) type = vk_.find_memory_type(type_bits, 0);
    if (!type) throw std::runtime_error("no memory type for sparse blocks");
    type_ = *type;
    VkMemoryAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    alloc.allocationSize = pages * d3dcap::runtime::backend::vulkan::kTileBytes;
    alloc.memoryTypeIndex = type_;
    check(vkAllocateMemory(device_, &alloc, nullptr, &memory_), "vkAllocateMemory (pages)");
}

PageMemory::~PageMemory() {
    if (!memory_) return;
    vkDeviceWaitIdle(device_);
    vkFreeMemory(device_, memory_, nullptr);
}

namespace {

std::uint32_t tile_words(const SparseImage& image) {
    const VkExtent3D& b = image.block();
    if (std::uint64_t{b.width} * b.height * b.depth * 4 != image.block_bytes()) {
        throw std::runtime_error("the tests need 32-bit texels filling a block exactly");
    }
    return b.width * b.height * b.depth;
}

VkBufferImageCopy tile_copy(const SparseImage& image, const TileCoord& t, VkDeviceSize offset) {
    const VkExtent3D& b = image.block();
    VkBufferImageCopy copy{};
    copy.bufferOffset = offset;
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageOffset = {static_cast<std::int32_t>(t.x * b.width),
                        static_cast<std::int32_t>(t.y * b.height),
                        static_cast<std::int32_t>(t.z * b.depth)};
    copy.imageExtent = b;
    return copy;
}

}  // namespace

void write_tiles(Runner& runner, const VulkanDevice& device, const SparseImage& image,
                 std::span<const TileCoord> tiles, std::span<const std::uint64_t> pages) {
    const std::uint32_t words = tile_words(image);
    HostBuffer staging(device, image.block_bytes() * tiles.size(),
                       VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    std::vector<VkBufferImageCopy> copies;
    for (std::size_t i = 0; i < tiles.size(); ++i) {
        std::uint32_t* out = staging.words() + i * words;
        for (std::uint32_t w = 0; w < words; ++w) out[w] = pattern(pages[i], w);
        copies.push_back(tile_copy(image, tiles[i], i * image.block_bytes()));
    }
    runner.run([&](VkCommandBuffer cmd) {
        vkCmdCopyBufferToImage(cmd, staging.buffer(), image.image(), VK_IMAGE_LAYOUT_GENERAL,
                               static_cast<std::uint32_t>(copies.size()), copies.data());
    });
}

std::vector<std::uint32_t> read_tiles(Runner& runner, const VulkanDevice& device,
                                      const SparseImage& image, std::span<const TileCoord> tiles) {
    const std::uint32_t words = tile_words(image);
    HostBuffer readback(device, image.block_bytes() * tiles.size(),
                        VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    std::vector<VkBufferImageCopy> copies;
    for (std::size_t i = 0; i < tiles.size(); ++i) {
        copies.push_back(tile_copy(image, tiles[i], i * image.block_bytes()));
    }
    runner.run([&](VkCommandBuffer cmd) {
        vkCmdCopyImageToBuffer(cmd, image.image(), VK_IMAGE_LAYOUT_GENERAL, readback.buffer(),
                               static_cast<std::uint32_t>(copies.size()), copies.data());
    });
    std::vector<std::uint32_t> result(std::size_t{words} * tiles.size());
    std::memcpy(result.data(), readback.words(), result.size() * 4);
    return result;
}

std::int64_t tile_contents(std::span<const std::uint32_t> words) {
    bool zero = true;
    for (std::uint32_t w : words) zero = zero && w == 0;
    if (zero) return kZero;
    const std::int64_t page = pattern_page(words[0], 0);
    if (page < 0) return kMixed;
    for (std::uint32_t i = 0; i < words.size(); ++i) {
        if (words[i] != pattern(static_cast<std::uint64_t>(page), i)) return kMixed;
    }
    return page;
}

}  // namespace gpu_tests
