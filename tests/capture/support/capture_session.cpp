#include "capture_session.h"

#include <d3dcap/api/call_json.h>
#include <d3dcap/api/calls.h>
#include <dlfcn.h>

#include <cstdlib>
#include <stdexcept>

#include "format/trace/reader.h"

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

std::vector<RecordedCall> recorded_context_calls(const std::string& trace_path,
                                                 std::uint64_t context) {
    auto reader = trace::TraceReader::open(trace_path);
    if (!reader.ok()) throw std::runtime_error(reader.error().to_string());
    std::vector<RecordedCall> calls;
    for (std::uint64_t event = 0; event < reader.value()->event_count(); ++event) {
        auto record = reader.value()->record(event);
        if (!record.ok()) throw std::runtime_error(record.error().to_string());
        const fb::RecordHeader& header = *record.value()->header();
        const api::CallInfo* info = api::find_call(static_cast<api::CallId>(header.call()));
        if (header.context() != context || info == nullptr ||
            !info->interface_name.starts_with("ID3D11DeviceContext"))
            continue;
        calls.push_back({header.call(), {}});
        api::append_args_json(*record.value(), calls.back().args);
    }
    return calls;
}

std::vector<std::string> recorded_calls(const std::string& trace_path) {
    auto reader = trace::TraceReader::open(trace_path);
    if (!reader.ok()) throw std::runtime_error(reader.error().to_string());
    std::vector<std::string> calls;
    for (std::uint64_t event = 0; event < reader.value()->event_count(); ++event) {
        auto record = reader.value()->record(event);
        if (!record.ok()) throw std::runtime_error(record.error().to_string());
        const api::CallInfo* info =
            api::find_call(static_cast<api::CallId>(record.value()->header()->call()));
        if (info == nullptr) continue;
        calls.push_back(info->interface_name.empty()
                            ? std::string(info->method)
                            : std::string(info->interface_name) + "::" + std::string(info->method));
    }
    return calls;
}

}  // namespace d3dcap::testing
