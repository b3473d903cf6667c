// The exported D3D11/DXGI entry points of libd3dcap_capture.so: each calls
// the real provider and hands the application wrappers of what it made.
#include <d3dcap/capture/wrappers.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "capture/interposer/platform.h"
#include "capture/layer/recorder.h"

namespace d3dcap::capture {

namespace {

using CreateDeviceFn = HRESULT(WINAPI*)(IDXGIAdapter*, D3D_DRIVER_TYPE, HMODULE, UINT,
                                        const D3D_FEATURE_LEVEL*, UINT, UINT, ID3D11Device**,
                                        D3D_FEATURE_LEVEL*, ID3D11DeviceContext**);
using CreateDeviceAndSwapChainFn = HRESULT(WINAPI*)(IDXGIAdapter*, D3D_DRIVER_TYPE, HMODULE, UINT,
                                                    const D3D_FEATURE_LEVEL*, UINT, UINT,
                                                    const DXGI_SWAP_CHAIN_DESC*, IDXGISwapChain**,
                                                    ID3D11Device**, D3D_FEATURE_LEVEL*,
                                                    ID3D11DeviceContext**);
using CreateFactoryFn = HRESULT(WINAPI*)(REFIID, void**);
using CreateFactory2Fn = HRESULT(WINAPI*)(UINT, REFIID, void**);

// Calls the real provider makes into these entry points while it serves one
// of them (Windows' d3d11.dll imports CreateDXGIFactory1 from dxgi.dll, which
// may resolve to the layer's own proxy) go straight through, unrecorded.
thread_local int t_inside_provider = 0;

// Calls the provider's create with the guard up.
template <class Create, class... Args>
HRESULT inside_provider(Create create, Args... args) {
    ++t_inside_provider;
    const HRESULT result = create(args...);
    --t_inside_provider;
    return result;
}

}  // namespace

const platform::ProviderLibrary& provider() {
    // Never destroyed: static destructors of the program may still create
    // factories or devices.
    static const platform::ProviderLibrary* library = [] {
        auto* p = new platform::ProviderLibrary(platform::load_provider());
        if (!p->error.empty()) std::fprintf(stderr, "d3dcap capture: %s\n", p->error.c_str());
        return p;
    }();
    return *library;
}

namespace {

// D3DCAP_DEVICE=reference|hardware|warp|null replaces the driver type the
// application asks for (how `d3dcap capture --device` works).
D3D_DRIVER_TYPE chosen_driver(D3D_DRIVER_TYPE requested) {
    const char* device = std::getenv("D3DCAP_DEVICE");
    if (device == nullptr || *device == 0) return requested;
    if (std::strcmp(device, "reference") == 0) return D3D_DRIVER_TYPE_REFERENCE;
    if (std::strcmp(device, "hardware") == 0) return D3D_DRIVER_TYPE_HARDWARE;
    if (std::strcmp(device, "warp") == 0) return D3D_DRIVER_TYPE_WARP;
    if (std::strcmp(device, "null") == 0) return D3D_DRIVER_TYPE_NULL;
    return requested;
}

// Windows ends every thread but the exiting one before DLLs hear of the
// exit, the writer's in whatever step it was; the trace is finished before
// that instead, on the exiting thread while the others still run. Modules
// loaded since the layer was (a C runtime, say) are routed as devices are made.
void finish_before_exit() {
#ifdef _WIN32
    platform::finish_before_process_exit([] { Layer::get().stop_and_report(); });
#endif
}

void describe(ID3D11Device** device, D3D_DRIVER_TYPE type) {
    if (device == nullptr || *device == nullptr) return;
    finish_before_exit();
    Layer::get().describe_device(unwrap(*device), type);
}

__attribute__((constructor)) void start_layer() {
    std::string error;
    CaptureConfig config = CaptureConfig::from_environment(error);
    if (!error.empty()) {
        std::fprintf(stderr, "d3dcap capture: %s; capturing nothing\n", error.c_str());
        config.start_at_load = false;
    }
    config.process_name = platform::process_name();
    config.command_line = platform::command_line();
    Layer& layer = Layer::get();
    layer.configure(config);
    finish_before_exit();
    if (config.start_at_load && config.first_frame == 0 && !layer.start(error))
        std::fprintf(stderr, "d3dcap capture: %s\n", error.c_str());
}

__attribute__((destructor)) void stop_layer() {
    Layer::get().stop_and_report();
}

}  // namespace

}  // namespace d3dcap::capture

#ifdef _WIN32
extern "C" BOOL WINAPI DllMainCRTStartup(HINSTANCE, DWORD, LPVOID);

// The DLL's entry point, ahead of the C runtime's. Windows ends every other
// thread of an exiting process (the trace writer's included) before it
// unloads DLLs, and a thread ended inside the threads library can leave its
// locks held, so that the runtime's own teardown (static destructors, thread
// keys) would wait forever. At process exit the trace is finished on this
// thread and nothing else of this DLL runs, as Windows advises for that case.
// The layer stays loaded to the end of the process, whatever the program
// frees: programs that load d3d11.dll to probe it and free it again would
// otherwise unload the capture with it.
extern "C" BOOL WINAPI d3dcap_dll_entry(HINSTANCE instance, DWORD reason, LPVOID reserved) {
    if (reason == DLL_PROCESS_DETACH && reserved != nullptr) {
        d3dcap::capture::Layer::get().stop_at_process_exit();
        return TRUE;
    }
    const BOOL result = DllMainCRTStartup(instance, reason, reserved);
    if (reason == DLL_PROCESS_ATTACH && result) {
        HMODULE pinned = nullptr;
        GetModuleHandleExW(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_PIN,
                           reinterpret_cast<LPCWSTR>(&d3dcap_dll_entry), &pinned);
    }
    return result;
}
#endif

using namespace d3dcap::capture;
using d3dcap::api::CallId;

D3DCAP_CAPTURE_EXPORT HRESULT WINAPI
D3D11CreateDevice(IDXGIAdapter* pAdapter, D3D_DRIVER_TYPE DriverType, HMODULE Software, UINT Flags,
                  const D3D_FEATURE_LEVEL* pFeatureLevels, UINT FeatureLevels, UINT SDKVersion,
                  ID3D11Device** ppDevice, D3D_FEATURE_LEVEL* pFeatureLevel,
                  ID3D11DeviceContext** ppImmediateContext) {
    auto create = reinterpret_cast<CreateDeviceFn>(provider().create_device);
    if (create == nullptr) return E_FAIL;
    if (t_inside_provider > 0)
        return create(pAdapter, DriverType, Software, Flags, pFeatureLevels, FeatureLevels,
                      SDKVersion, ppDevice, pFeatureLevel, ppImmediateContext);
    const D3D_DRIVER_TYPE type = chosen_driver(DriverType);
    const HRESULT result =
        inside_provider(create, unwrap(pAdapter), type, Software, Flags, pFeatureLevels,
                        FeatureLevels, SDKVersion, ppDevice, pFeatureLevel, ppImmediateContext);
    // Recorded from here: a capture that starts with the process opens its
    // trace now, when the header can describe the device.
    if (SUCCEEDED(result)) describe(ppDevice, type);
    CallRecorder call(nullptr, CallId::D3D11CreateDevice);
    if (SUCCEEDED(result)) {
        wrap_out(call, ppDevice);
        wrap_out(call, ppImmediateContext);
    }
    if (call.wanted())
        call.finish(d3dcap::api::encode_D3D11CreateDevice(
                        call.builder(), call.ids(), pAdapter, DriverType, Software, Flags,
                        pFeatureLevels, FeatureLevels, SDKVersion, ppDevice,
                        SUCCEEDED(result) ? pFeatureLevel : nullptr, ppImmediateContext),
                    result_value(result), true);
    return result;
}

D3DCAP_CAPTURE_EXPORT HRESULT WINAPI D3D11CreateDeviceAndSwapChain(
    IDXGIAdapter* pAdapter, D3D_DRIVER_TYPE DriverType, HMODULE Software, UINT Flags,
    const D3D_FEATURE_LEVEL* pFeatureLevels, UINT FeatureLevels, UINT SDKVersion,
    const DXGI_SWAP_CHAIN_DESC* pSwapChainDesc, IDXGISwapChain** ppSwapChain,
    ID3D11Device** ppDevice, D3D_FEATURE_LEVEL* pFeatureLevel,
    ID3D11DeviceContext** ppImmediateContext) {
    auto create =
        reinterpret_cast<CreateDeviceAndSwapChainFn>(provider().create_device_and_swap_chain);
    if (create == nullptr) return E_FAIL;
    if (t_inside_provider > 0)
        return create(pAdapter, DriverType, Software, Flags, pFeatureLevels, FeatureLevels,
                      SDKVersion, pSwapChainDesc, ppSwapChain, ppDevice, pFeatureLevel,
                      ppImmediateContext);
    const D3D_DRIVER_TYPE type = chosen_driver(DriverType);
    const HRESULT result = inside_provider(
        create, unwrap(pAdapter), type, Software, Flags, pFeatureLevels, FeatureLevels, SDKVersion,
        pSwapChainDesc, ppSwapChain, ppDevice, pFeatureLevel, ppImmediateContext);
    if (SUCCEEDED(result)) describe(ppDevice, type);
    CallRecorder call(nullptr, CallId::D3D11CreateDeviceAndSwapChain);
    if (SUCCEEDED(result)) {
        wrap_out(call, ppDevice);
        wrap_out(call, ppImmediateContext);
        wrap_out(call, ppSwapChain);
    }
    if (call.wanted())
        call.finish(d3dcap::api::encode_D3D11CreateDeviceAndSwapChain(
                        call.builder(), call.ids(), pAdapter, DriverType, Software, Flags,
                        pFeatureLevels, FeatureLevels, SDKVersion, pSwapChainDesc, ppSwapChain,
                        ppDevice, SUCCEEDED(result) ? pFeatureLevel : nullptr, ppImmediateContext),
                    result_value(result), true);
    return result;
}

D3DCAP_CAPTURE_EXPORT HRESULT WINAPI CreateDXGIFactory(REFIID riid, void** ppFactory) {
    auto create = reinterpret_cast<CreateFactoryFn>(provider().create_factory);
    if (create == nullptr) return E_FAIL;
    if (t_inside_provider > 0) return create(riid, ppFactory);
    CallRecorder call(nullptr, CallId::CreateDXGIFactory);
    const HRESULT result = inside_provider(create, riid, ppFactory);
    if (SUCCEEDED(result)) wrap_out_iid(call, riid, ppFactory);
    if (call.wanted())
        call.finish(
            d3dcap::api::encode_CreateDXGIFactory(call.builder(), call.ids(), riid, ppFactory),
            result_value(result), true);
    return result;
}

D3DCAP_CAPTURE_EXPORT HRESULT WINAPI CreateDXGIFactory1(REFIID riid, void** ppFactory) {
    auto create = reinterpret_cast<CreateFactoryFn>(provider().create_factory1);
    if (create == nullptr) return E_FAIL;
    if (t_inside_provider > 0) return create(riid, ppFactory);
    CallRecorder call(nullptr, CallId::CreateDXGIFactory1);
    const HRESULT result = inside_provider(create, riid, ppFactory);
    if (SUCCEEDED(result)) wrap_out_iid(call, riid, ppFactory);
    if (call.wanted())
        call.finish(
            d3dcap::api::encode_CreateDXGIFactory1(call.builder(), call.ids(), riid, ppFactory),
            result_value(result), true);
    return result;
}

D3DCAP_CAPTURE_EXPORT HRESULT WINAPI CreateDXGIFactory2(UINT Flags, REFIID riid, void** ppFactory) {
    auto create = reinterpret_cast<CreateFactory2Fn>(provider().create_factory2);
    if (create == nullptr) return E_FAIL;
    if (t_inside_provider > 0) return create(Flags, riid, ppFactory);
    CallRecorder call(nullptr, CallId::CreateDXGIFactory2);
    const HRESULT result = inside_provider(create, Flags, riid, ppFactory);
    if (SUCCEEDED(result)) wrap_out_iid(call, riid, ppFactory);
    if (call.wanted())
        call.finish(d3dcap::api::encode_CreateDXGIFactory2(call.builder(), call.ids(), Flags, riid,
                                                           ppFactory),
                    result_value(result), true);
    return result;
}
