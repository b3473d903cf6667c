// IDXGIOutput1 of the headless DXGI. Nothing is shown, so what needs a
// screen (gamma ramps, a display surface, desktop duplication, full screen)
// is not available; modes and the desktop are those of a 1920x1080 display.
#include "runtime/dxgi/output.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cwchar>

namespace d3dcap::runtime::dxgi {

namespace {

// Common resolutions up to the desktop's, at 60 Hz, progressive, in the
// order Windows lists them (by width, then height).
std::vector<DXGI_MODE_DESC> standard_modes(DXGI_FORMAT format) {
    static constexpr UINT kSizes[][2] = {
        {640, 480},  {800, 600},   {1024, 768},
        {1280, 720}, {1280, 800},  {1280, 1024},
        {1600, 900}, {1680, 1050}, {kDesktopWidth, kDesktopHeight}};
    std::vector<DXGI_MODE_DESC> modes;
    for (const auto& size : kSizes) {
        DXGI_MODE_DESC mode{};
        mode.Width = size[0];
        mode.Height = size[1];
        mode.RefreshRate = {60, 1};
        mode.Format = format;
        mode.ScanlineOrdering = DXGI_MODE_SCANLINE_ORDER_PROGRESSIVE;
        mode.Scaling = DXGI_MODE_SCALING_UNSPECIFIED;
        modes.push_back(mode);
    }
    return modes;
}

double refresh_hz(const DXGI_RATIONAL& rate) {
    return rate.Denominator == 0 ? 0.0 : static_cast<double>(rate.Numerator) / rate.Denominator;
}

// How far a mode is from what was asked for: resolution first (unset
// fields match anything), then refresh rate.
std::pair<std::uint64_t, double> distance(const DXGI_MODE_DESC& wanted,
                                          const DXGI_MODE_DESC& mode) {
    const auto gap = [](UINT want, UINT have) -> std::uint64_t {
        if (want == 0) return 0;
        return want > have ? want - have : have - want;
    };
    const std::uint64_t size = gap(wanted.Width, mode.Width) + gap(wanted.Height, mode.Height);
    const double wanted_hz = refresh_hz(wanted.RefreshRate);
    const double rate = wanted_hz == 0.0 ? 0.0 : std::abs(wanted_hz - refresh_hz(mode.RefreshRate));
    return {size, rate};
}

DXGI_MODE_DESC1 with_stereo(const DXGI_MODE_DESC& mode) {
    return DXGI_MODE_DESC1{mode.Width,  mode.Height,           mode.RefreshRate,
                           mode.Format, mode.ScanlineOrdering, mode.Scaling,
                           FALSE};
}

DXGI_MODE_DESC without_stereo(const DXGI_MODE_DESC1& mode) {
    return DXGI_MODE_DESC{mode.Width,  mode.Height,           mode.RefreshRate,
                          mode.Format, mode.ScanlineOrdering, mode.Scaling};
}

}  // namespace

void* Output::find_interface(REFIID riid) {
    if (iid_is<IDXGIOutput, IDXGIOutput1, IDXGIObject, IUnknown>(riid))
        return static_cast<IDXGIOutput1*>(this);
    return nullptr;
}

void Output::set_modes(DXGI_FORMAT format, std::vector<DXGI_MODE_DESC> modes) {
    set_modes_[format] = std::move(modes);
}

const std::vector<DXGI_MODE_DESC>& Output::modes_of(DXGI_FORMAT format) const {
    if (const auto it = set_modes_.find(format); it != set_modes_.end()) return it->second;
    // The formats a display scans out, as Windows lists modes for them.
    static const std::map<DXGI_FORMAT, std::vector<DXGI_MODE_DESC>> standard = [] {
        std::map<DXGI_FORMAT, std::vector<DXGI_MODE_DESC>> all;
        for (DXGI_FORMAT scanned_out :
             {DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB,
              DXGI_FORMAT_B8G8R8A8_UNORM, DXGI_FORMAT_B8G8R8A8_UNORM_SRGB,
              DXGI_FORMAT_R10G10B10A2_UNORM, DXGI_FORMAT_R16G16B16A16_FLOAT})
            all[scanned_out] = standard_modes(scanned_out);
        return all;
    }();
    static const std::vector<DXGI_MODE_DESC> none;
    const auto it = standard.find(format);
    return it != standard.end() ? it->second : none;
}

HRESULT Output::GetParent(REFIID riid, void** parent) {
    return adapter_->QueryInterface(riid, parent);
}

HRESULT Output::GetDesc(DXGI_OUTPUT_DESC* desc) {
    if (!desc) return E_INVALIDARG;
    *desc = {};
    std::wcsncpy(desc->DeviceName, kOutputDeviceName, 31);
    desc->DesktopCoordinates = {0, 0, static_cast<LONG>(kDesktopWidth),
                                static_cast<LONG>(kDesktopHeight)};
    desc->AttachedToDesktop = TRUE;
    desc->Rotation = DXGI_MODE_ROTATION_IDENTITY;
    desc->Monitor = nullptr;  // no monitor behind it
    return S_OK;
}

HRESULT Output::GetDisplayModeList(DXGI_FORMAT format, UINT, UINT* count, DXGI_MODE_DESC* modes) {
    if (!count) return DXGI_ERROR_INVALID_CALL;
    const std::vector<DXGI_MODE_DESC>& listed = modes_of(format);
    const UINT available = static_cast<UINT>(listed.size());
    if (!modes) {
        *count = available;
        return S_OK;
    }
    const UINT copied = std::min(*count, available);
    std::copy_n(listed.begin(), copied, modes);
    if (copied < available) return DXGI_ERROR_MORE_DATA;  // *count stays the caller's
    *count = available;
    return S_OK;
}

HRESULT Output::FindClosestMatchingMode(const DXGI_MODE_DESC* wanted, DXGI_MODE_DESC* closest,
                                        IUnknown* device) {
    if (!wanted || !closest) return DXGI_ERROR_INVALID_CALL;
    // Without a device to say which formats it renders, the format is needed.
    if (wanted->Format == DXGI_FORMAT_UNKNOWN && !device) return DXGI_ERROR_INVALID_CALL;
    const DXGI_FORMAT format =
        wanted->Format == DXGI_FORMAT_UNKNOWN ? DXGI_FORMAT_R8G8B8A8_UNORM : wanted->Format;
    const std::vector<DXGI_MODE_DESC>& listed = modes_of(format);
    if (listed.empty()) return DXGI_ERROR_NOT_FOUND;
    const auto best = std::min_element(listed.begin(), listed.end(),
                                       [&](const DXGI_MODE_DESC& a, const DXGI_MODE_DESC& b) {
                                           return distance(*wanted, a) < distance(*wanted, b);
                                       });
    *closest = *best;
    return S_OK;
}

HRESULT Output::WaitForVBlank() {
    return S_OK;  // no display to wait for
}

HRESULT Output::TakeOwnership(IUnknown* device, BOOL) {
    return device ? S_OK : DXGI_ERROR_INVALID_CALL;
}

HRESULT Output::GetGammaControlCapabilities(DXGI_GAMMA_CONTROL_CAPABILITIES* capabilities) {
    if (!capabilities) return E_INVALIDARG;
    *capabilities = {};
    // An identity ramp of 1025 points from 0 to 1.
    capabilities->MaxConvertedValue = 1.0f;
    capabilities->NumGammaControlPoints = 1025;
    for (UINT i = 0; i < capabilities->NumGammaControlPoints; ++i)
        capabilities->ControlPointPositions[i] = static_cast<float>(i) / 1024.0f;
    return S_OK;
}

// Gamma ramps and display surfaces belong to full-screen outputs, which a
// headless display never has.
HRESULT Output::SetGammaControl(const DXGI_GAMMA_CONTROL*) {
    return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;
}

HRESULT Output::GetGammaControl(DXGI_GAMMA_CONTROL*) {
    return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;
}

HRESULT Output::SetDisplaySurface(IDXGISurface*) {
    return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;
}

HRESULT Output::GetDisplaySurfaceData(IDXGISurface*) {
    return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;
}

HRESULT Output::GetDisplaySurfaceData1(IDXGIResource*) {
    return DXGI_ERROR_NOT_CURRENTLY_AVAILABLE;
}

HRESULT Output::GetFrameStatistics(DXGI_FRAME_STATISTICS* statistics) {
    if (!statistics) return E_INVALIDARG;
    *statistics = {};
    return S_OK;
}

HRESULT Output::GetDisplayModeList1(DXGI_FORMAT format, UINT flags, UINT* count,
                                    DXGI_MODE_DESC1* modes) {
    if (!count) return DXGI_ERROR_INVALID_CALL;
    if (!modes) return GetDisplayModeList(format, flags, count, nullptr);
    std::vector<DXGI_MODE_DESC> plain(*count);
    const HRESULT hr = GetDisplayModeList(format, flags, count, plain.data());
    if (SUCCEEDED(hr) || hr == DXGI_ERROR_MORE_DATA)
        for (UINT i = 0; i < std::min<UINT>(*count, static_cast<UINT>(plain.size())); ++i)
            modes[i] = with_stereo(plain[i]);
    return hr;
}

HRESULT Output::FindClosestMatchingMode1(const DXGI_MODE_DESC1* wanted, DXGI_MODE_DESC1* closest,
                                         IUnknown* device) {
    if (!wanted || !closest) return DXGI_ERROR_INVALID_CALL;
    if (wanted->Stereo) return DXGI_ERROR_NOT_FOUND;  // no stereo display
    const DXGI_MODE_DESC plain = without_stereo(*wanted);
    DXGI_MODE_DESC found{};
    const HRESULT hr = FindClosestMatchingMode(&plain, &found, device);
    if (SUCCEEDED(hr)) *closest = with_stereo(found);
    return hr;
}

HRESULT Output::DuplicateOutput(IUnknown*, IDXGIOutputDuplication** duplication) {
    if (duplication) *duplication = nullptr;
    return DXGI_ERROR_UNSUPPORTED;  // nothing on the screen to duplicate
}

}  // namespace d3dcap::runtime::dxgi
