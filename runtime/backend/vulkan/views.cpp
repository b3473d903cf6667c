#include "runtime/backend/vulkan/views.h"

#include <cstring>

#include "runtime/backend/vulkan/hazards.h"

namespace d3dcap::runtime::backend::vulkan {
namespace {

template <class T>
bool same(const T& a, const T& b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

}  // namespace

void ViewCache::clear() {
    for (const auto& [owner, entries] : by_owner_) destroy(forget_entries(entries));
    by_owner_.clear();
}

VkImageView ViewCache::image_view(const VkImageViewCreateInfo& info, VkImageUsageFlags usage) {
    ImageKey key;
    std::memset(&key, 0, sizeof key);  // padding compares too
    key.type = info.viewType;
    key.format = info.format;
    key.components = info.components;
    key.range = info.subresourceRange;
    key.usage = usage;
    std::vector<Entry>& entries = by_owner_[handle_key(info.image)];
    for (const Entry& entry : entries)
        if (entry.is_image && same(entry.image, key)) return entry.image_view;
    VkImageViewUsageCreateInfo usage_info{};
    usage_info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO;
    usage_info.usage = usage;
    VkImageViewCreateInfo create = info;
    create.pNext = &usage_info;
    VkImageView view = VK_NULL_HANDLE;
    if (vkCreateImageView(device_, &create, nullptr, &view) != VK_SUCCESS) return VK_NULL_HANDLE;
    Entry entry{};
    entry.image = key;
    entry.is_image = true;
    entry.image_view = view;
    entries.push_back(entry);
    return view;
}

VkBufferView ViewCache::buffer_view(const VkBufferViewCreateInfo& info) {
    BufferKey key;
    std::memset(&key, 0, sizeof key);
    key.format = info.format;
    key.offset = info.offset;
    key.range = info.range;
    std::vector<Entry>& entries = by_owner_[handle_key(info.buffer)];
    for (const Entry& entry : entries)
        if (!entry.is_image && same(entry.buffer, key)) return entry.buffer_view;
    VkBufferView view = VK_NULL_HANDLE;
    if (vkCreateBufferView(device_, &info, nullptr, &view) != VK_SUCCESS) return VK_NULL_HANDLE;
    Entry entry{};
    entry.buffer = key;
    entry.is_image = false;
    entry.buffer_view = view;
    entries.push_back(entry);
    return view;
}

ViewCache::Views ViewCache::forget(std::uint64_t owner) {
    const auto found = by_owner_.find(owner);
    if (found == by_owner_.end()) return {};
    Views views = forget_entries(found->second);
    by_owner_.erase(found);
    return views;
}

ViewCache::Views ViewCache::forget_entries(const std::vector<Entry>& entries) {
    Views views;
    for (const Entry& entry : entries) {
        if (entry.is_image)
            views.images.push_back(entry.image_view);
        else
            views.buffers.push_back(entry.buffer_view);
    }
    return views;
}

void ViewCache::destroy(const Views& views) const {
    for (VkImageView view : views.images) vkDestroyImageView(device_, view, nullptr);
    for (VkBufferView view : views.buffers) vkDestroyBufferView(device_, view, nullptr);
}

}  // namespace d3dcap::runtime::backend::vulkan
