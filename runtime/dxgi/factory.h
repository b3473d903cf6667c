// Headless DXGI's one factory kind.
#pragma once

#include <dxgi1_6.h>

#include <optional>
#include <string>
#include <vector>

#include "runtime/backend/backend.h"
#include "runtime/com.h"
#include "runtime/d3d11/resource.h"
#include "runtime/dxgi/adapter.h"

namespace d3dcap::runtime::dxgi {

// IDXGIFactory6 without IDXGIFactory7 (adapter-change events), as a
// Windows 10 1803 runtime has it: enough for programs to pick an adapter.
class Factory final : public ComObject<Object, IDXGIFactory6> {
  public:
    explicit Factory(UINT creation_flags = 0)
        : ComObject(ObjectKind::Factory), creation_flags_(creation_flags) {}
    void* find_interface(REFIID riid) override;

    HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void** parent) override;
    HRESULT STDMETHODCALLTYPE EnumAdapters(UINT index, IDXGIAdapter** adapter) override;
    HRESULT STDMETHODCALLTYPE MakeWindowAssociation(HWND window, UINT flags) override;
    HRESULT STDMETHODCALLTYPE GetWindowAssociation(HWND* window) override;
    HRESULT STDMETHODCALLTYPE CreateSwapChain(IUnknown* device, DXGI_SWAP_CHAIN_DESC* desc,
                                              IDXGISwapChain** swap_chain) override;
    HRESULT STDMETHODCALLTYPE CreateSoftwareAdapter(HMODULE module,
                                                    IDXGIAdapter** adapter) override;
    HRESULT STDMETHODCALLTYPE EnumAdapters1(UINT index, IDXGIAdapter1** adapter) override;
    BOOL STDMETHODCALLTYPE IsCurrent() override { return TRUE; }
    BOOL STDMETHODCALLTYPE IsWindowedStereoEnabled() override { return FALSE; }
    HRESULT STDMETHODCALLTYPE
    CreateSwapChainForHwnd(IUnknown* device, HWND window, const DXGI_SWAP_CHAIN_DESC1* desc,
                           const DXGI_SWAP_CHAIN_FULLSCREEN_DESC* fullscreen, IDXGIOutput* output,
                           IDXGISwapChain1** swap_chain) override;
    HRESULT STDMETHODCALLTYPE CreateSwapChainForCoreWindow(IUnknown* device, IUnknown* window,
                                                           const DXGI_SWAP_CHAIN_DESC1* desc,
                                                           IDXGIOutput* output,
                                                           IDXGISwapChain1** swap_chain) override;
    HRESULT STDMETHODCALLTYPE GetSharedResourceAdapterLuid(HANDLE resource, LUID* luid) override;
    HRESULT STDMETHODCALLTYPE RegisterStereoStatusWindow(HWND window, UINT message,
                                                         DWORD* cookie) override;
    HRESULT STDMETHODCALLTYPE RegisterStereoStatusEvent(HANDLE event, DWORD* cookie) override;
    void STDMETHODCALLTYPE UnregisterStereoStatus(DWORD) override {}
    HRESULT STDMETHODCALLTYPE RegisterOcclusionStatusWindow(HWND window, UINT message,
                                                            DWORD* cookie) override;
    HRESULT STDMETHODCALLTYPE RegisterOcclusionStatusEvent(HANDLE event, DWORD* cookie) override;
    void STDMETHODCALLTYPE UnregisterOcclusionStatus(DWORD) override {}
    HRESULT STDMETHODCALLTYPE CreateSwapChainForComposition(IUnknown* device,
                                                            const DXGI_SWAP_CHAIN_DESC1* desc,
                                                            IDXGIOutput* output,
                                                            IDXGISwapChain1** swap_chain) override;
    UINT STDMETHODCALLTYPE GetCreationFlags() override { return creation_flags_; }
    HRESULT STDMETHODCALLTYPE EnumAdapterByLuid(LUID luid, REFIID riid, void** adapter) override;
    HRESULT STDMETHODCALLTYPE EnumWarpAdapter(REFIID riid, void** adapter) override;
    HRESULT STDMETHODCALLTYPE CheckFeatureSupport(DXGI_FEATURE feature, void* data,
                                                  UINT size) override;
    HRESULT STDMETHODCALLTYPE EnumAdapterByGpuPreference(UINT index, DXGI_GPU_PREFERENCE preference,
                                                         REFIID riid, void** adapter) override;

    // The swap-chain path shared by the three creation methods.
    HRESULT create_swap_chain(const char* call, IUnknown* device, HWND window,
                              const DXGI_SWAP_CHAIN_DESC1& desc,
                              const DXGI_SWAP_CHAIN_FULLSCREEN_DESC& fullscreen,
                              IDXGISwapChain1** swap_chain);

  private:
    // The one adapter, as the interface riid asks for (if it has that LUID).
    HRESULT adapter_as(REFIID riid, void** adapter, const LUID* luid = nullptr);

    UINT creation_flags_;
    HWND window_ = nullptr;
};

}  // namespace d3dcap::runtime::dxgi
