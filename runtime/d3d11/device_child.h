// What every device child shares: it keeps its device alive and hands it
// out through GetDevice.
#pragma once

#include <d3d11_2.h>

#include "runtime/com.h"

namespace d3dcap::runtime::d3d11 {

class Device;

// Gives out the device's ID3D11Device with a public reference.
void hand_out_device(Device& device, ID3D11Device** out);

// An object created by a device; it keeps the device alive (an internal
// reference, so the device's public count is the app's alone).
class DeviceChildBase : public Object {
  public:
    DeviceChildBase(ObjectKind kind, Device& device, bool hold_device = true);
    ~DeviceChildBase() override;
    Device& device() const { return *device_; }

  private:
    Device* device_;
    bool holds_device_;
};

template <class Base, class... Interfaces>
class ChildObject : public ComObject<Base, Interfaces...> {
  public:
    using ComObject<Base, Interfaces...>::ComObject;
    void STDMETHODCALLTYPE GetDevice(ID3D11Device** out) { hand_out_device(this->device(), out); }
};

}  // namespace d3dcap::runtime::d3d11
