// The one adapter of the headless DXGI ("d3dcap reference device").
#pragma once

#include <dxgi1_6.h>

#include <optional>
#include <string>
#include <vector>

#include "runtime/backend/backend.h"
#include "runtime/com.h"
#include "runtime/d3d11/resource.h"

namespace d3dcap::runtime::d3d11 {
class Device;
}  // namespace d3dcap::runtime::d3d11

namespace d3dcap::runtime::dxgi {

class Factory;

// The adapter's identity: PCI vendor 0x1414 (the id Microsoft's software
// adapters use, which apps already treat as "no GPU") and a device id of
// our own; DXGI_ADAPTER_FLAG_SOFTWARE.
inline constexpr UINT kAdapterVendorId = 0x1414;
inline constexpr UINT kAdapterDeviceId = 0xd3dc;
inline constexpr wchar_t kAdapterDescription[] = L"d3dcap reference device";
inline constexpr wchar_t kNullAdapterDescription[] = L"d3dcap null device";

class Adapter final : public ComObject<Object, IDXGIAdapter2> {
  public:
    explicit Adapter(Factory& factory) : ComObject(ObjectKind::Adapter), factory_(&factory) {}
    void* find_interface(REFIID riid) override;
    Factory& factory() { return *factory_; }
    // The adapter of a GPU device: its name, PCI ids, memory and LUID, and
    // no SOFTWARE flag.
    void set_gpu(const backend::AdapterIdentity& gpu) { gpu_ = gpu; }
    // The adapter of a null device names itself so.
    void set_description(const std::wstring& description) { description_ = description; }

    HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void** parent) override;
    HRESULT STDMETHODCALLTYPE EnumOutputs(UINT index, IDXGIOutput** output) override;
    HRESULT STDMETHODCALLTYPE GetDesc(DXGI_ADAPTER_DESC* desc) override;
    HRESULT STDMETHODCALLTYPE CheckInterfaceSupport(REFGUID riid, LARGE_INTEGER* version) override;
    HRESULT STDMETHODCALLTYPE GetDesc1(DXGI_ADAPTER_DESC1* desc) override;
    HRESULT STDMETHODCALLTYPE GetDesc2(DXGI_ADAPTER_DESC2* desc) override;

  private:
    Ref<Factory> factory_;
    std::optional<backend::AdapterIdentity> gpu_;
    std::wstring description_ = kAdapterDescription;
};

}  // namespace d3dcap::runtime::dxgi
