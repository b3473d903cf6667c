// ID3DDeviceContextState.
#include "runtime/d3d11/device_context_state.h"

#include "runtime/d3d11/context.h"

namespace d3dcap::runtime::d3d11 {

DeviceContextState::DeviceContextState(Device& device, D3D_FEATURE_LEVEL level, const IID& emulated)
    : ChildObject(ObjectKind::DeviceContextState, device),
      state_(std::make_unique<ContextState>()),
      level_(level),
      emulated_(emulated) {}

DeviceContextState::~DeviceContextState() = default;

void* DeviceContextState::find_interface(REFIID riid) {
    if (iid_is<ID3DDeviceContextState, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3DDeviceContextState*>(this);
    }
    return nullptr;
}

}  // namespace d3dcap::runtime::d3d11
