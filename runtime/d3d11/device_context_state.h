// ID3DDeviceContextState: a saved immediate-context state.
#pragma once

#include <d3d11_2.h>

#include <memory>

#include "runtime/d3d11/device_child.h"

namespace d3dcap::runtime::d3d11 {

struct ContextState;

class DeviceContextState final : public ChildObject<DeviceChildBase, ID3DDeviceContextState> {
  public:
    DeviceContextState(Device& device, D3D_FEATURE_LEVEL level, const IID& emulated);
    ~DeviceContextState() override;
    void* find_interface(REFIID riid) override;
    ContextState& state() { return *state_; }
    D3D_FEATURE_LEVEL feature_level() const { return level_; }

  private:
    std::unique_ptr<ContextState> state_;
    D3D_FEATURE_LEVEL level_;
    IID emulated_;
};

}  // namespace d3dcap::runtime::d3d11
