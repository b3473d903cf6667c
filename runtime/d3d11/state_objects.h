// State objects (blend, rasterizer, depth-stencil, sampler), de-duplicated
// per device by their (normalized) desc.
#pragma once

#include <d3d11_2.h>

#include <string>

#include "runtime/d3d11/device_child.h"

namespace d3dcap::runtime::d3d11 {

class StateBase : public DeviceChildBase {
  public:
    StateBase(ObjectKind kind, Device& device, std::string key)
        : DeviceChildBase(kind, device), key_(std::move(key)) {}
    const std::string& key() const { return key_; }

  protected:
    void destroy() override;  // leaves the device's cache first

  private:
    std::string key_;
};

class BlendState final : public ChildObject<StateBase, ID3D11BlendState1> {
  public:
    BlendState(Device& device, std::string key, const D3D11_BLEND_DESC1& desc)
        : ChildObject(ObjectKind::BlendState, device, std::move(key)), desc_(desc) {}
    void* find_interface(REFIID riid) override;
    void STDMETHODCALLTYPE GetDesc(D3D11_BLEND_DESC* desc) override;
    void STDMETHODCALLTYPE GetDesc1(D3D11_BLEND_DESC1* desc) override {
        if (desc) *desc = desc_;
    }

    const D3D11_BLEND_DESC1& desc() const { return desc_; }

  private:
    D3D11_BLEND_DESC1 desc_;
};

class RasterizerState final : public ChildObject<StateBase, ID3D11RasterizerState1> {
  public:
    RasterizerState(Device& device, std::string key, const D3D11_RASTERIZER_DESC1& desc)
        : ChildObject(ObjectKind::RasterizerState, device, std::move(key)), desc_(desc) {}
    void* find_interface(REFIID riid) override;
    void STDMETHODCALLTYPE GetDesc(D3D11_RASTERIZER_DESC* desc) override;
    void STDMETHODCALLTYPE GetDesc1(D3D11_RASTERIZER_DESC1* desc) override {
        if (desc) *desc = desc_;
    }

    const D3D11_RASTERIZER_DESC1& desc() const { return desc_; }

  private:
    D3D11_RASTERIZER_DESC1 desc_;
};

class DepthStencilState final : public ChildObject<StateBase, ID3D11DepthStencilState> {
  public:
    DepthStencilState(Device& device, std::string key, const D3D11_DEPTH_STENCIL_DESC& desc)
        : ChildObject(ObjectKind::DepthStencilState, device, std::move(key)), desc_(desc) {}
    void* find_interface(REFIID riid) override;
    void STDMETHODCALLTYPE GetDesc(D3D11_DEPTH_STENCIL_DESC* desc) override {
        if (desc) *desc = desc_;
    }

    const D3D11_DEPTH_STENCIL_DESC& desc() const { return desc_; }

  private:
    D3D11_DEPTH_STENCIL_DESC desc_;
};

class SamplerState final : public ChildObject<StateBase, ID3D11SamplerState> {
  public:
    SamplerState(Device& device, std::string key, const D3D11_SAMPLER_DESC& desc)
        : ChildObject(ObjectKind::SamplerState, device, std::move(key)), desc_(desc) {}
    void* find_interface(REFIID riid) override;
    void STDMETHODCALLTYPE GetDesc(D3D11_SAMPLER_DESC* desc) override {
        if (desc) *desc = desc_;
    }
    const D3D11_SAMPLER_DESC& desc() const { return desc_; }

  private:
    D3D11_SAMPLER_DESC desc_;
};

}  // namespace d3dcap::runtime::d3d11
