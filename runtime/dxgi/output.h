// The one output of the headless DXGI: a 1920x1080 desktop that nothing is
// shown on, with the display modes programs look for at start-up.
#pragma once

#include <dxgi1_6.h>

#include <map>
#include <vector>

#include "runtime/com.h"
#include "runtime/dxgi/factory.h"  // the adapter, with what its inline parts need

namespace d3dcap::runtime::dxgi {

inline constexpr wchar_t kOutputDeviceName[] = L"\\\\.\\DISPLAY1";
inline constexpr UINT kDesktopWidth = 1920, kDesktopHeight = 1080;

class Output final : public ComObject<Object, IDXGIOutput1> {
  public:
    explicit Output(Adapter& adapter) : ComObject(ObjectKind::Output), adapter_(&adapter) {}
    void* find_interface(REFIID riid) override;
    // The modes this output lists for a format from now on (a replay gives
    // those its trace recorded, so that the program's choices stay valid).
    void set_modes(DXGI_FORMAT format, std::vector<DXGI_MODE_DESC> modes);

    HRESULT STDMETHODCALLTYPE GetParent(REFIID riid, void** parent) override;
    HRESULT STDMETHODCALLTYPE GetDesc(DXGI_OUTPUT_DESC* desc) override;
    HRESULT STDMETHODCALLTYPE GetDisplayModeList(DXGI_FORMAT format, UINT flags, UINT* count,
                                                 DXGI_MODE_DESC* modes) override;
    HRESULT STDMETHODCALLTYPE FindClosestMatchingMode(const DXGI_MODE_DESC* wanted,
                                                      DXGI_MODE_DESC* closest,
                                                      IUnknown* device) override;
    HRESULT STDMETHODCALLTYPE WaitForVBlank() override;
    HRESULT STDMETHODCALLTYPE TakeOwnership(IUnknown* device, BOOL exclusive) override;
    void STDMETHODCALLTYPE ReleaseOwnership() override {}
    HRESULT STDMETHODCALLTYPE
    GetGammaControlCapabilities(DXGI_GAMMA_CONTROL_CAPABILITIES* capabilities) override;
    HRESULT STDMETHODCALLTYPE SetGammaControl(const DXGI_GAMMA_CONTROL* gamma) override;
    HRESULT STDMETHODCALLTYPE GetGammaControl(DXGI_GAMMA_CONTROL* gamma) override;
    HRESULT STDMETHODCALLTYPE SetDisplaySurface(IDXGISurface* surface) override;
    HRESULT STDMETHODCALLTYPE GetDisplaySurfaceData(IDXGISurface* destination) override;
    HRESULT STDMETHODCALLTYPE GetFrameStatistics(DXGI_FRAME_STATISTICS* statistics) override;
    HRESULT STDMETHODCALLTYPE GetDisplayModeList1(DXGI_FORMAT format, UINT flags, UINT* count,
                                                  DXGI_MODE_DESC1* modes) override;
    HRESULT STDMETHODCALLTYPE FindClosestMatchingMode1(const DXGI_MODE_DESC1* wanted,
                                                       DXGI_MODE_DESC1* closest,
                                                       IUnknown* device) override;
    HRESULT STDMETHODCALLTYPE GetDisplaySurfaceData1(IDXGIResource* destination) override;
    HRESULT STDMETHODCALLTYPE DuplicateOutput(IUnknown* device,
                                              IDXGIOutputDuplication** duplication) override;

  private:
    const std::vector<DXGI_MODE_DESC>& modes_of(DXGI_FORMAT format) const;

    Ref<Adapter> adapter_;
    std::map<DXGI_FORMAT, std::vector<DXGI_MODE_DESC>> set_modes_;
};

}  // namespace d3dcap::runtime::dxgi
