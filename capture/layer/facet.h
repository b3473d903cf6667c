// Wrappers and their facets: how the layer tells its own interface pointers
// from others, and how it gets from one to the real object behind it.
//
// A wrapper stands for one real object and has one facet per interface chain
// the object exposes (capture/wrappers.h, generated). The application only
// ever sees facet pointers. Every facet class puts a FacetHeader right after
// its vtable pointer, so the header of a pointer known to be a facet (its
// vtable is one of ours) is found without any lookup.
#pragma once

#include <d3d11_2.h>
#include <dxgi1_6.h>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <vector>

namespace d3dcap::capture {

class Wrapper;
struct ResourceInfo;

struct FacetHeader {
    Wrapper* owner = nullptr;
    void* real = nullptr;  // the real object's interface of this facet, no reference held
    int level = 0;         // how many interfaces of the chain (IUnknown not counted) it has
    bool context = false;  // a device context: its calls carry the context id
};

enum class WrapperKind : std::uint8_t;

class Wrapper {
  public:
    explicit Wrapper(WrapperKind wrapper_kind);
    virtual ~Wrapper();
    Wrapper(const Wrapper&) = delete;
    Wrapper& operator=(const Wrapper&) = delete;

    // Finds the facets' interfaces on real; false when it lacks the first.
    virtual bool attach(IUnknown* real) = 0;
    // The facet pointer that answers QueryInterface(riid), or nullptr.
    virtual void* facet_for(REFIID riid) = 0;
    virtual std::span<FacetHeader* const> facets() = 0;
    // Stores sentinel in the real object's private data: the object releases
    // it when it is destroyed, which is how the layer learns of destruction.
    virtual HRESULT watch_lifetime(REFGUID guid, IUnknown* sentinel) = 0;

    template <class I>
    I* as() {
        return static_cast<I*>(facet_for(__uuidof(I)));
    }

    const WrapperKind kind;
    std::uint64_t id = 0;
    std::vector<const void*> registry_keys;  // the layer's keys for it (real pointers)
    IUnknown* identity = nullptr;            // the real object's IUnknown, no reference held
    // The record of the call that made the object, kept while capturing a
    // frame range so the snapshot can recreate it.
    std::shared_ptr<const std::vector<std::uint8_t>> creation_record;
    // Resources: shape, tiling and the shadows of mapped subresources.
    std::unique_ptr<ResourceInfo> resource;
};

// Tries each IID (most-derived first); stores the first interface found in
// *out (releasing the reference QueryInterface added) and returns how many
// IIDs from the end of the list the object has (0: none).
int find_interface(IUnknown* real, void** out, std::initializer_list<const IID*> iids);

// The header of p when p is one of the layer's facet pointers, else nullptr.
FacetHeader* header_of(const void* p);

// The real interface behind an application pointer; pointers that are not
// the layer's pass through unchanged.
template <class I>
I* unwrap(I* p) {
    FacetHeader* header = header_of(p);
    if (header == nullptr) return p;
    if constexpr (std::is_same_v<std::remove_const_t<I>, IUnknown>)
        return header->owner->identity;
    else
        return static_cast<I*>(header->real);
}

// An array of application pointers unwrapped for the real call.
template <class I>
class Unwrapped {
  public:
    Unwrapped(I* const* objects, std::size_t count) {
        if (objects == nullptr) return;
        I** out = count <= kInline ? inline_.data() : (heap_.resize(count), heap_.data());
        for (std::size_t i = 0; i < count; ++i) out[i] = unwrap(objects[i]);
        data_ = out;
    }
    Unwrapped(const Unwrapped&) = delete;
    Unwrapped& operator=(const Unwrapped&) = delete;
    I* const* data() const { return data_; }

  private:
    static constexpr std::size_t kInline = 16;
    std::array<I*, kInline> inline_{};
    std::vector<I*> heap_;
    I** data_ = nullptr;
};

}  // namespace d3dcap::capture
