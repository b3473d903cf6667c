// Image and buffer views, made once per description and kept with the
// image or buffer they view until it is destroyed, so that draws and
// dispatches bind views without making any.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace d3dcap::runtime::backend::vulkan {

class ViewCache {
  public:
    explicit ViewCache(VkDevice device) : device_(device) {}
    ViewCache(const ViewCache&) = delete;
    ViewCache& operator=(const ViewCache&) = delete;

    // The view `info` (pNext ignored) with `usage`; VK_NULL_HANDLE when
    // the GPU cannot make it.
    VkImageView image_view(const VkImageViewCreateInfo& info, VkImageUsageFlags usage);
    VkBufferView buffer_view(const VkBufferViewCreateInfo& info);

    // The views of an image or buffer about to be destroyed, forgotten
    // here; the caller destroys them (destroy) once no work uses them.
    struct Views {
        std::vector<VkImageView> images;
        std::vector<VkBufferView> buffers;
    };
    Views forget(std::uint64_t owner);
    void destroy(const Views& views) const;
    // Destroys every view (the device is idle).
    void clear();

  private:
    struct ImageKey {
        VkImageViewType type;
        VkFormat format;
        VkComponentMapping components;
        VkImageSubresourceRange range;
        VkImageUsageFlags usage;
    };
    struct BufferKey {
        VkFormat format;
        VkDeviceSize offset, range;
    };
    struct Entry {
        union {
            ImageKey image;
            BufferKey buffer;
        };
        bool is_image;
        VkImageView image_view;
        VkBufferView buffer_view;
    };
    static Views forget_entries(const std::vector<Entry>& entries);

    VkDevice device_;
    std::unordered_map<std::uint64_t, std::vector<Entry>> by_owner_;
};

}  // namespace d3dcap::runtime::backend::vulkan
