// Staging textures in host memory. A staging texture is only ever copied to
// and from and mapped, so it has no image: its subresources lie one after
// another in a host-visible buffer, in the canonical layout Map hands out.
// Copies from a texture write that memory directly and Map returns it once
// the work writing it is done, with no readback at Map and no copy in or
// out of it on the host. Depth-stencil formats keep an image (their planes
// are joined on the host, vulkan_transfer.cpp).
#include <algorithm>
#include <cstring>

#include "runtime/backend/vulkan/vulkan_backend.h"

namespace d3dcap::runtime::backend::vulkan {

namespace {

// Where an element of a subresource of a linear texture lies in its buffer.
VkDeviceSize linear_at(const GpuResource& resource, std::uint32_t sub, std::uint32_t x,
                       std::uint32_t y, std::uint32_t z) {
    VkDeviceSize at = 0;
    for (std::uint32_t s = 0; s < sub; ++s) at += layout_of(resource.info, s).bytes();
    const SubresourceLayout layout = layout_of(resource.info, sub);
    return at + z * layout.slice_bytes() + y * layout.row_bytes() +
           std::uint64_t{x} * layout.element_bytes;
}

// The copy between `box` of an image's subresource and the linear texture's
// subresource at element (x, y, z).
VkBufferImageCopy linear_region(const GpuResource& image, std::uint32_t image_sub,
                                const ElementBox& box, const GpuResource& linear,
                                std::uint32_t linear_sub, std::uint32_t x, std::uint32_t y,
                                std::uint32_t z) {
    const ImageStorage& storage = image.storage;
    const SubresourceLayout linear_layout = layout_of(linear.info, linear_sub);
    VkBufferImageCopy region = image_region(image, image_sub, box);
    region.bufferOffset = linear_at(linear, linear_sub, x, y, z);
    region.bufferRowLength = linear_layout.width * storage.texels_x;
    region.bufferImageHeight = linear_layout.height * storage.texels_y;
    return region;
}

// Appends a copy, joined to the one before where both ranges follow on
// (whole rows: one copy a slice, or one for the box).
void add_copy(std::vector<VkBufferCopy>& copies, VkDeviceSize from, VkDeviceSize to,
              VkDeviceSize size) {
    if (!copies.empty()) {
        VkBufferCopy& last = copies.back();
        if (last.srcOffset + last.size == from && last.dstOffset + last.size == to) {
            last.size += size;
            return;
        }
    }
    copies.push_back({from, to, size});
}

}  // namespace

bool VulkanBackend::wants_linear(const GpuResource& resource) {
    return resource.info.usage == D3D11_USAGE_STAGING && !resource.is_buffer() &&
           !resource.info.tiled() && resource.storage.aspects == VK_IMAGE_ASPECT_COLOR_BIT &&
           resource.storage.samples == VK_SAMPLE_COUNT_1_BIT;
}

HRESULT VulkanBackend::create_linear(GpuResource& resource) {
    resource.linear = true;
    const std::uint64_t bytes = total_bytes(resource.info);
    VkBufferCreateInfo create{};
    create.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    create.size = std::max<std::uint64_t>(bytes, 4);
    create.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (vkCreateBuffer(gpu_->vk(), &create, nullptr, &resource.buffer) != VK_SUCCESS ||
        !bind_buffer_memory(resource.info, resource.buffer, resource.memory) ||
        resource.memory.mapped == nullptr) {
        return E_OUTOFMEMORY;
    }
    // New resources read as zeros, as on the reference device.
    std::memset(resource.memory.mapped, 0, bytes);
    return S_OK;
}

std::uint8_t* VulkanBackend::linear_bytes(GpuResource& resource, std::uint32_t sub) {
    if (!gpu_->batch_done(resource.used_in) && !gpu_->finish()) return nullptr;
    return resource.memory.mapped + linear_at(resource, sub, 0, 0, 0);
}

// GPU-ordered, as UpdateSubresource is: copies from staging memory.
void VulkanBackend::upload_linear(GpuResource& resource, std::uint32_t sub, const ElementBox& box,
                                  const std::uint8_t* bytes, std::uint64_t row_pitch,
                                  std::uint64_t slice_pitch) {
    const SubresourceLayout layout = layout_of(resource.info, sub);
    const std::uint64_t row = std::uint64_t{box.width()} * layout.element_bytes;
    const std::uint64_t rows = std::uint64_t{box.height()} * box.depth();
    const VkDeviceSize corner = linear_at(resource, sub, box.left, box.top, box.front);
    for (std::uint64_t first = 0; first < rows;) {
        const std::uint64_t count =
            std::min(rows - first, std::max<std::uint64_t>(1, GpuContext::kStagingBytes / row));
        const GpuContext::Staging staging = gpu_->stage(count * row);
        std::vector<VkBufferCopy> regions;
        for (std::uint64_t k = 0; k < count; ++k) {
            const std::uint64_t y = (first + k) % box.height(), z = (first + k) / box.height();
            std::memcpy(staging.data + k * row, bytes + z * slice_pitch + y * row_pitch, row);
            add_copy(regions, staging.offset + k * row,
                     corner + z * layout.slice_bytes() + y * layout.row_bytes(), row);
        }
        gpu_->begin_work();
        gpu_->touch(hazard_key(resource), true, VK_PIPELINE_STAGE_2_COPY_BIT);
        vkCmdCopyBuffer(gpu_->transfer(), gpu_->staging_buffer(), resource.buffer,
                        static_cast<std::uint32_t>(regions.size()), regions.data());
        first += count;
    }
    resource.used_in = gpu_->recording_batch();
    gpu_->end_step();
}

void VulkanBackend::download_linear(GpuResource& resource, std::uint32_t sub, const ElementBox& box,
                                    const ByteSink& sink) {
    const std::uint8_t* bytes = linear_bytes(resource, sub);
    if (bytes == nullptr) return;
    const SubresourceLayout layout = layout_of(resource.info, sub);
    const std::uint64_t row = std::uint64_t{box.width()} * layout.element_bytes;
    for (std::uint32_t z = box.front; z < box.back; ++z) {
        const std::uint8_t* slice = bytes + z * layout.slice_bytes();
        if (box.width() == layout.width) {  // whole rows: one piece
            sink(slice + box.top * layout.row_bytes(), row * box.height());
            continue;
        }
        for (std::uint32_t y = box.top; y < box.bottom; ++y)
            sink(slice + y * layout.row_bytes() + std::uint64_t{box.left} * layout.element_bytes,
                 row);
    }
}

// Tracked work, as copies between images are.
void VulkanBackend::copy_linear(GpuResource& dest, std::uint32_t dest_sub, const ElementBox& target,
                                GpuResource& source, std::uint32_t source_sub,
                                const ElementBox& box) {
    gpu_->begin_work();
    gpu_->touch(hazard_key(source), false, VK_PIPELINE_STAGE_2_COPY_BIT);
    gpu_->touch(hazard_key(dest), true, VK_PIPELINE_STAGE_2_COPY_BIT);
    const VkCommandBuffer commands = gpu_->transfer();
    if (dest.linear && source.linear) {
        const SubresourceLayout in = layout_of(source.info, source_sub);
        const SubresourceLayout out = layout_of(dest.info, dest_sub);
        const std::uint64_t row = std::uint64_t{box.width()} * out.element_bytes;
        const VkDeviceSize from = linear_at(source, source_sub, box.left, box.top, box.front);
        const VkDeviceSize to = linear_at(dest, dest_sub, target.left, target.top, target.front);
        std::vector<VkBufferCopy> regions;
        for (std::uint64_t z = 0; z < box.depth(); ++z) {
            for (std::uint64_t y = 0; y < box.height(); ++y) {
                add_copy(regions, from + z * in.slice_bytes() + y * in.row_bytes(),
                         to + z * out.slice_bytes() + y * out.row_bytes(), row);
            }
        }
        vkCmdCopyBuffer(commands, source.buffer, dest.buffer,
                        static_cast<std::uint32_t>(regions.size()), regions.data());
    } else if (dest.linear) {
        const VkBufferImageCopy region = linear_region(source, source_sub, box, dest, dest_sub,
                                                       target.left, target.top, target.front);
        vkCmdCopyImageToBuffer(commands, source.image, VK_IMAGE_LAYOUT_GENERAL, dest.buffer, 1,
                               &region);
    } else {
        const VkBufferImageCopy region =
            linear_region(dest, dest_sub, target, source, source_sub, box.left, box.top, box.front);
        vkCmdCopyBufferToImage(commands, source.buffer, dest.image, VK_IMAGE_LAYOUT_GENERAL, 1,
                               &region);
    }
    dest.used_in = source.used_in = gpu_->recording_batch();
    gpu_->end_step();
}

}  // namespace d3dcap::runtime::backend::vulkan
