// Loads the capture layer into a test process, as LD_PRELOAD would, and
// hands out its entry points. The layer writes one trace per process, and
// ctest runs each test case in a process of its own.
#pragma once

#include <d3d11_2.h>
#include <d3dcap/capture_api.h>
#include <dxgi1_2.h>

#include <cstdint>
#include <string>
#include <vector>

namespace d3dcap::testing {

// A call recorded on a device context: its call id and its arguments as the
// trace's JSON shows them.
struct RecordedCall {
    std::uint16_t call = 0;
    std::string args;
};

// The device-context calls a trace recorded on the context with that object
// id, in order.
std::vector<RecordedCall> recorded_context_calls(const std::string& trace_path,
                                                 std::uint64_t context);

// Every call a trace recorded, as "Interface::Method" (entry points by name).
std::vector<std::string> recorded_calls(const std::string& trace_path);

struct CaptureSession {
    using CreateDeviceFn = HRESULT(WINAPI*)(IDXGIAdapter*, D3D_DRIVER_TYPE, HMODULE, UINT,
                                            const D3D_FEATURE_LEVEL*, UINT, UINT, ID3D11Device**,
                                            D3D_FEATURE_LEVEL*, ID3D11DeviceContext**);
    using CreateDeviceAndSwapChainFn = HRESULT(WINAPI*)(IDXGIAdapter*, D3D_DRIVER_TYPE, HMODULE,
                                                        UINT, const D3D_FEATURE_LEVEL*, UINT, UINT,
                                                        const DXGI_SWAP_CHAIN_DESC*,
                                                        IDXGISwapChain**, ID3D11Device**,
                                                        D3D_FEATURE_LEVEL*, ID3D11DeviceContext**);

    CreateDeviceFn create_device = nullptr;
    CreateDeviceAndSwapChainFn create_device_and_swap_chain = nullptr;
    const D3DCAP_CAPTURE_API_1* api = nullptr;
    std::string trace_path;

    // Loads the layer writing to trace_path. frames: "" records from the
    // start, "A-B" a frame range; manual: nothing until api->start().
    static CaptureSession load(const std::string& trace_path, const std::string& frames = "",
                               bool manual = false);

    // A device (and its immediate context) of the given driver type,
    // through the layer.
    HRESULT device(D3D_DRIVER_TYPE type, ID3D11Device2** device,
                   ID3D11DeviceContext2** context) const;
};

}  // namespace d3dcap::testing
