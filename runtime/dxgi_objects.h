// Headless DXGI: one factory kind, one adapter ("d3dcap reference device"),
// and swap chains whose back buffers are ordinary Texture2D objects.
#pragma once

#include <dxgi1_6.h>

#include <optional>
#include <string>
#include <vector>

#include "runtime/backend.h"
#include "runtime/com.h"
#include "runtime/objects.h"

namespace d3dcap::runtime {

class Device;

// The adapter's identity: PCI vendor 0x1414 (the id Microsoft's software
// adapters use, which apps already treat as "no GPU") and a device id of
// our own; DXGI_ADAPTER_FLAG_SOFTWARE.
inline constexpr UINT kAdapterVendorId = 0x1414;
inline constexpr UINT kAdapterDeviceId = 0xd3dc;
inline constexpr wchar_t kAdapterDescription[] = L"d3dcap reference device";
inline constexpr wchar_t kNullAdapterDescription[] = L"d3dcap null device";

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

class Adapter final : public ComObject<Object, IDXGIAdapter2> {
  public:
    explicit Adapter(Factory& factory) : ComObject(ObjectKind::Adapter), factory_(&factory) {}
    void* find_interface(REFIID riid) override;
    Factory& factory() { return *factory_; }
    // The adapter of a GPU device: its name, PCI ids, memory and LUID, and
    // no SOFTWARE flag.
    void set_gpu(const AdapterIdentity& gpu) { gpu_ = gpu; }
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
    std::optional<AdapterIdentity> gpu_;
    std::wstring description_ = kAdapterDescription;
};

class SwapChain final : public ComObject<Object, IDXGISwapChain1> {
  public:
    SwapChain(Factory& factory, Device& device, HWND window, const DXGI_SWAP_CHAIN_DESC1& desc,
              const DXGI_SWAP_CHAIN_FULLSCREEN_DESC& fullscreen);
    void* find_interface(REFIID riid) override;
    // Makes the back buffers; E_INVALIDARG when their desc is rejected.
    HRESULT create_buffers(const char* call);
    // Writes back buffer 0 as a PNG. False with an empty error when the
    // backend keeps no texels (the NULL device), else with the reason.
    bool write_png(const std::string& path, std::string& error);
    void set_screenshot_directory(std::string directory) { screenshot_directory_ = directory; }

    HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void** parent) override;
    HRESULT STDMETHODCALLTYPE GetDevice(REFIID riid, void** device) override;
    HRESULT STDMETHODCALLTYPE Present(UINT sync_interval, UINT flags) override;
    HRESULT STDMETHODCALLTYPE GetBuffer(UINT index, REFIID riid, void** surface) override;
    HRESULT STDMETHODCALLTYPE SetFullscreenState(BOOL fullscreen, IDXGIOutput* target) override;
    HRESULT STDMETHODCALLTYPE GetFullscreenState(BOOL* fullscreen, IDXGIOutput** target) override;
    HRESULT STDMETHODCALLTYPE GetDesc(DXGI_SWAP_CHAIN_DESC* desc) override;
    HRESULT STDMETHODCALLTYPE ResizeBuffers(UINT count, UINT width, UINT height, DXGI_FORMAT format,
                                            UINT flags) override;
    HRESULT STDMETHODCALLTYPE ResizeTarget(const DXGI_MODE_DESC* mode) override;
    HRESULT STDMETHODCALLTYPE GetContainingOutput(IDXGIOutput** output) override;
    HRESULT STDMETHODCALLTYPE GetFrameStatistics(DXGI_FRAME_STATISTICS* stats) override;
    HRESULT STDMETHODCALLTYPE GetLastPresentCount(UINT* count) override;
    HRESULT STDMETHODCALLTYPE GetDesc1(DXGI_SWAP_CHAIN_DESC1* desc) override;
    HRESULT STDMETHODCALLTYPE GetFullscreenDesc(DXGI_SWAP_CHAIN_FULLSCREEN_DESC* desc) override;
    HRESULT STDMETHODCALLTYPE GetHwnd(HWND* window) override;
    HRESULT STDMETHODCALLTYPE GetCoreWindow(REFIID riid, void** window) override;
    HRESULT STDMETHODCALLTYPE Present1(UINT sync_interval, UINT flags,
                                       const DXGI_PRESENT_PARAMETERS* parameters) override;
    BOOL STDMETHODCALLTYPE IsTemporaryMonoSupported() override { return FALSE; }
    HRESULT STDMETHODCALLTYPE GetRestrictToOutput(IDXGIOutput** output) override;
    HRESULT STDMETHODCALLTYPE SetBackgroundColor(const DXGI_RGBA* color) override;
    HRESULT STDMETHODCALLTYPE GetBackgroundColor(DXGI_RGBA* color) override;
    HRESULT STDMETHODCALLTYPE SetRotation(DXGI_MODE_ROTATION rotation) override;
    HRESULT STDMETHODCALLTYPE GetRotation(DXGI_MODE_ROTATION* rotation) override;

  private:
    HRESULT present(const char* call, UINT sync_interval, UINT flags);

    Ref<Factory> factory_;
    Ref<Device> device_;
    HWND window_;
    DXGI_SWAP_CHAIN_DESC1 desc_;
    DXGI_SWAP_CHAIN_FULLSCREEN_DESC fullscreen_;
    std::vector<Ref<Texture2D>> buffers_;
    UINT present_count_ = 0;
    DXGI_RGBA background_{0.0f, 0.0f, 0.0f, 0.0f};
    DXGI_MODE_ROTATION rotation_ = DXGI_MODE_ROTATION_IDENTITY;
    std::string screenshot_directory_;  // D3DCAP_SCREENSHOT_DIR or set by the internal API
};

// Writes tightly packed rows of a display format as an 8-bit RGBA PNG.
bool write_png_file(const std::string& path, DXGI_FORMAT format, UINT width, UINT height,
                    const std::vector<std::uint8_t>& texels, std::string& error);

}  // namespace d3dcap::runtime
