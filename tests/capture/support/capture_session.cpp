#include "capture_session.h"

#include <dlfcn.h>

#include <cstdlib>
#include <stdexcept>

namespace d3dcap::testing {

CaptureSession CaptureSession::load(const std::string& trace_path, const std::string& frames,
                                    bool manual) {
    setenv("D3DCAP_CAPTURE_OUTPUT", trace_path.c_str(), 1);
    if (frames.empty())
        unsetenv("D3DCAP_CAPTURE_FRAMES");
    else
        setenv("D3DCAP_CAPTURE_FRAMES", frames.c_str(), 1);
    if (manual)
        setenv("D3DCAP_CAPTURE_MANUAL", "1", 1);
    else
        unsetenv("D3DCAP_CAPTURE_MANUAL");
    void* layer = dlopen(D3DCAP_CAPTURE_LIBRARY_PATH, RTLD_NOW | RTLD_LOCAL);
    if (layer == nullptr) throw std::runtime_error(dlerror());
    CaptureSession session;
    session.trace_path = trace_path;
    session.create_device = reinterpret_cast<CreateDeviceFn>(dlsym(layer, "D3D11CreateDevice"));
    session.create_device_and_swap_chain =
        reinterpret_cast<CreateDeviceAndSwapChainFn>(dlsym(layer, "D3D11CreateDeviceAndSwapChain"));
    auto get_api =
        reinterpret_cast<PFN_d3dcap_get_capture_api>(dlsym(layer, "d3dcap_get_capture_api"));
    session.api = get_api(D3DCAP_CAPTURE_API_VERSION_1);
    return session;
}

HRESULT CaptureSession::device(D3D_DRIVER_TYPE type, ID3D11Device2** device,
                               ID3D11DeviceContext2** context) const {
    ID3D11Device* base = nullptr;
    ID3D11DeviceContext* base_context = nullptr;
    const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1;
    HRESULT hr = create_device(nullptr, type, nullptr, 0, &level, 1, D3D11_SDK_VERSION, &base,
                               nullptr, &base_context);
    if (FAILED(hr)) return hr;
    hr = base->QueryInterface(__uuidof(ID3D11Device2), reinterpret_cast<void**>(device));
    if (SUCCEEDED(hr))
        hr = base_context->QueryInterface(__uuidof(ID3D11DeviceContext2),
                                          reinterpret_cast<void**>(context));
    base->Release();
    base_context->Release();
    return hr;
}

}  // namespace d3dcap::testing
