// What the commands recorded since the last barrier read and wrote, so that
// draws and dispatches get a barrier only where one needs another's results
// (read after write, write after write, write after read), as a D3D11
// driver orders them, instead of one before every call. Keys are the
// VkBuffer or VkImage a command touches; every tiled resource shares one key,
// since tiles of different resources can be the same pool memory. Barriers
// are global memory barriers (images stay in the GENERAL layout), from the
// stages that wrote to the stages that touch.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace d3dcap::runtime::backend::vulkan {

// A Vulkan handle as a number (non-dispatchable handles are pointers on
// 64-bit hosts and integers elsewhere).
template <class Handle>
std::uint64_t handle_key(Handle handle) {
    if constexpr (std::is_pointer_v<Handle>)
        return reinterpret_cast<std::uintptr_t>(handle);
    else
        return handle;
}

class HazardTracker {
  public:
    // The key that stands for the memory of every tiled resource.
    static constexpr std::uint64_t kTiledMemory = ~std::uint64_t{0};

    // Whether touching `key` so needs a barrier after what was recorded.
    bool conflicts(std::uint64_t key, bool write) const;
    // Notes an access (after any barrier it needed).
    void touch(std::uint64_t key, bool write, VkPipelineStageFlags2 stages);
    // Everything before has to be waited for (untracked commands ran).
    void poison() { poisoned_ = true; }
    bool poisoned() const { return poisoned_; }
    bool empty() const { return count_ == 0 && !poisoned_; }
    // The barrier that makes everything noted visible to `stages`; clears
    // what was noted. Untracked commands wait for ALL_COMMANDS.
    VkMemoryBarrier2 barrier(VkPipelineStageFlags2 stages);
    void clear();

  private:
    static constexpr std::uint8_t kRead = 1, kWrite = 2;
    // Looked up at every draw: an open-addressed table whose entries count
    // only when stamped with the current stamp, so that clearing it after
    // every barrier is one increment.
    struct Entry {
        std::uint64_t key = 0;
        std::uint32_t stamp = 0;
        std::uint8_t access = 0;
    };
    const Entry* find(std::uint64_t key) const;
    Entry& slot(std::uint64_t key);
    void grow();
    std::vector<Entry> table_ = std::vector<Entry>(64);
    std::uint32_t stamp_ = 1;
    std::size_t count_ = 0;
    VkPipelineStageFlags2 written_stages_ = 0, read_stages_ = 0;
    bool poisoned_ = false;
};

}  // namespace d3dcap::runtime::backend::vulkan
