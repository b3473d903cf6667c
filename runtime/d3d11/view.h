// Views: shader-resource, render-target, depth-stencil and unordered-access.
#pragma once

#include <d3d11_2.h>

#include "runtime/backend/backend.h"
#include "runtime/d3d11/resource.h"

namespace d3dcap::runtime::d3d11 {

class View : public DeviceChildBase {
  public:
    View(ObjectKind kind, Device& device, Resource& resource, const backend::ViewInfo& info)
        : DeviceChildBase(kind, device), resource_(&resource), info_(info) {}
    ~View() override;
    Resource& resource() const { return *resource_; }
    const backend::ViewInfo& info() const { return info_; }
    virtual ID3D11View* d3d_view() = 0;
    std::uint32_t structure_counter = 0;  // UAV hidden counter (append/consume)

  private:
    Ref<Resource> resource_;
    backend::ViewInfo info_;
};

template <class Interface, class Desc, ObjectKind Kind>
class ViewObject final : public ChildObject<View, Interface> {
  public:
    ViewObject(Device& device, Resource& resource, const backend::ViewInfo& info, const Desc& desc)
        : ChildObject<View, Interface>(Kind, device, resource, info), desc_(desc) {}
    void* find_interface(REFIID riid) override {
        if (iid_is<Interface, ID3D11View, ID3D11DeviceChild, IUnknown>(riid)) {
            return static_cast<Interface*>(this);
        }
        return nullptr;
    }
    ID3D11View* d3d_view() override { return static_cast<Interface*>(this); }
    void STDMETHODCALLTYPE GetResource(ID3D11Resource** out) override {
        if (!out) return;
        this->resource().add_ref();
        *out = this->resource().d3d();
    }
    void STDMETHODCALLTYPE GetDesc(Desc* desc) override {
        if (desc) *desc = desc_;
    }
    const Desc& desc() const { return desc_; }

  private:
    Desc desc_;
};

using ShaderResourceView = ViewObject<ID3D11ShaderResourceView, D3D11_SHADER_RESOURCE_VIEW_DESC,
                                      ObjectKind::ShaderResourceView>;
using RenderTargetView =
    ViewObject<ID3D11RenderTargetView, D3D11_RENDER_TARGET_VIEW_DESC, ObjectKind::RenderTargetView>;
using DepthStencilView =
    ViewObject<ID3D11DepthStencilView, D3D11_DEPTH_STENCIL_VIEW_DESC, ObjectKind::DepthStencilView>;
using UnorderedAccessView = ViewObject<ID3D11UnorderedAccessView, D3D11_UNORDERED_ACCESS_VIEW_DESC,
                                       ObjectKind::UnorderedAccessView>;
// Buffer UAVs with APPEND or COUNTER have a hidden counter.
bool has_hidden_counter(const UnorderedAccessView& view);

// Our View behind any ID3D11View / view interface of this runtime.
View* to_view(IUnknown* view);

}  // namespace d3dcap::runtime::d3d11
