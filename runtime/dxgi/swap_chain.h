// Swap chains whose back buffers are ordinary Texture2D objects.
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

class SwapChain final : public ComObject<Object, IDXGISwapChain1> {
  public:
    SwapChain(Factory& factory, d3d11::Device& device, HWND window,
              const DXGI_SWAP_CHAIN_DESC1& desc, const DXGI_SWAP_CHAIN_FULLSCREEN_DESC& fullscreen);
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
    Ref<d3d11::Device> device_;
    HWND window_;
    DXGI_SWAP_CHAIN_DESC1 desc_;
    DXGI_SWAP_CHAIN_FULLSCREEN_DESC fullscreen_;
    std::vector<Ref<d3d11::Texture2D>> buffers_;
    UINT present_count_ = 0;
    DXGI_RGBA background_{0.0f, 0.0f, 0.0f, 0.0f};
    DXGI_MODE_ROTATION rotation_ = DXGI_MODE_ROTATION_IDENTITY;
    std::string screenshot_directory_;  // D3DCAP_SCREENSHOT_DIR or set by the internal API
};

// Writes tightly packed rows of a display format as an 8-bit RGBA PNG.
bool write_png_file(const std::string& path, DXGI_FORMAT format, UINT width, UINT height,
                    const std::vector<std::uint8_t>& texels, std::string& error);

}  // namespace d3dcap::runtime::dxgi
