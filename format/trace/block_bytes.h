// The bytes of an LZ4 block being made. An encoder sizes the buffer to the
// most its block can take and then writes only what the block needs, so the
// buffer's growth leaves new bytes as they are: zeroing that bound first
// cost the trace writer more than the writing (and touched every page).
#pragma once

#include <memory>
#include <utility>
#include <vector>

namespace d3dcap::trace {

template <class T>
struct UninitializedAllocator : std::allocator<T> {
    template <class U>
    struct rebind {
        using other = UninitializedAllocator<U>;
    };
    UninitializedAllocator() = default;
    template <class U>
    UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
    // Default construction (what resize does) leaves the value as it is.
    template <class U>
    void construct(U* at) noexcept {
        ::new (static_cast<void*>(at)) U;
    }
    template <class U, class... Args>
    void construct(U* at, Args&&... args) {
        ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
    }
};

using BlockBytes = std::vector<char, UninitializedAllocator<char>>;

}  // namespace d3dcap::trace
