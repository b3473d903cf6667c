// Resources: buffers and textures, with their map state and tiling.
#pragma once

#include <d3d11_2.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/backend/backend.h"
#include "runtime/d3d11/device_child.h"
#include "runtime/dxgi/surface.h"
#include "runtime/tiles/tiling.h"

namespace d3dcap::runtime::d3d11 {

// What every Buffer and Texture shares.
class Resource : public DeviceChildBase {
  public:
    Resource(ObjectKind kind, Device& device, const backend::ResourceInfo& info);
    ~Resource() override;

    const backend::ResourceInfo& info() const { return info_; }
    virtual ID3D11Resource* d3d() = 0;
    dxgi::Surface& dxgi() { return dxgi_; }

    // Set once the backend (and for tiled resources the tile model) holds it.
    void mark_created() { created_ = true; }
    std::optional<tiles::ResourceTiling> tiling;  // tiled resources only
    // A swap chain's back buffer (any swap effect): DXGI lets its UNORM
    // format be viewed as the matching UNORM_SRGB one (how programs render
    // in sRGB).
    bool srgb_views = false;

    // Map state per subresource (0 = not mapped), owned by the immediate context.
    D3D11_MAP mapped(std::uint32_t subresource) const {
        return subresource < mapped_.size() ? static_cast<D3D11_MAP>(mapped_[subresource])
                                            : D3D11_MAP{};
    }
    void set_mapped(std::uint32_t subresource, D3D11_MAP type) {
        if (mapped_.size() < info_.subresource_count()) mapped_.resize(info_.subresource_count());
        mapped_[subresource] = static_cast<std::uint8_t>(type);
    }
    bool any_mapped() const;

    std::atomic<UINT> eviction_priority{DXGI_RESOURCE_PRIORITY_NORMAL};
    std::atomic<bool> offered{false};
    float min_lod = 0.0f;
    // Mip size of a subresource in texels (1 for buffers beyond x).
    std::uint32_t mip_width(std::uint32_t mip) const;
    std::uint32_t mip_height(std::uint32_t mip) const;
    std::uint32_t mip_depth(std::uint32_t mip) const;

    // Whether its content came, in part, from draws or dispatches the device
    // did not execute; kept as private data (kUnexecutedContentGuid) too.
    bool unexecuted_content() const { return unexecuted_content_; }
    void set_unexecuted_content(bool unexecuted);

    // ResizeTilePool changes a pool's size.
    void set_byte_width(std::uint64_t byte_width) { info_.byte_width = byte_width; }

  private:
    bool unexecuted_content_ = false;
    backend::ResourceInfo info_;
    dxgi::Surface dxgi_{*this};
    std::vector<std::uint8_t> mapped_;
    bool created_ = false;
};

template <class Interface, class Desc, D3D11_RESOURCE_DIMENSION Dimension, ObjectKind Kind>
class ResourceObject final : public ChildObject<Resource, Interface> {
  public:
    ResourceObject(Device& device, const backend::ResourceInfo& info, const Desc& desc)
        : ChildObject<Resource, Interface>(Kind, device, info), desc_(desc) {}

    ID3D11Resource* d3d() override { return static_cast<Interface*>(this); }
    void* find_interface(REFIID riid) override {
        if (iid_is<Interface, ID3D11Resource, ID3D11DeviceChild, IUnknown>(riid)) {
            return static_cast<Interface*>(this);
        }
        return this->dxgi().find(riid);
    }
    void STDMETHODCALLTYPE GetType(D3D11_RESOURCE_DIMENSION* dimension) override {
        if (dimension) *dimension = Dimension;
    }
    void STDMETHODCALLTYPE SetEvictionPriority(UINT priority) override {
        this->eviction_priority = priority;
    }
    UINT STDMETHODCALLTYPE GetEvictionPriority() override { return this->eviction_priority; }
    void STDMETHODCALLTYPE GetDesc(Desc* desc) override {
        if (desc) *desc = desc_;
    }
    const Desc& desc() const { return desc_; }
    Desc& mutable_desc() { return desc_; }

  private:
    Desc desc_;
};

using Buffer = ResourceObject<ID3D11Buffer, D3D11_BUFFER_DESC, D3D11_RESOURCE_DIMENSION_BUFFER,
                              ObjectKind::Buffer>;
using Texture1D = ResourceObject<ID3D11Texture1D, D3D11_TEXTURE1D_DESC,
                                 D3D11_RESOURCE_DIMENSION_TEXTURE1D, ObjectKind::Texture1D>;
using Texture2D = ResourceObject<ID3D11Texture2D, D3D11_TEXTURE2D_DESC,
                                 D3D11_RESOURCE_DIMENSION_TEXTURE2D, ObjectKind::Texture2D>;
using Texture3D = ResourceObject<ID3D11Texture3D, D3D11_TEXTURE3D_DESC,
                                 D3D11_RESOURCE_DIMENSION_TEXTURE3D, ObjectKind::Texture3D>;

// Our Resource behind an ID3D11Resource of this runtime (nullptr for NULL).
Resource* to_resource(ID3D11Resource* resource);
inline Buffer* to_buffer(ID3D11Buffer* buffer) {
    return static_cast<Buffer*>(buffer);
}
bool is_resource_kind(ObjectKind kind);

}  // namespace d3dcap::runtime::d3d11
