// What the capture layer needs from the operating system, in one place:
// finding the real D3D11/DXGI provider and knowing the process.
#pragma once

#include <string>

// What the layer exports (on Windows, d3dcap_capture.def lists them too).
#ifdef _WIN32
#define D3DCAP_CAPTURE_EXPORT extern "C" __declspec(dllexport)
#else
#define D3DCAP_CAPTURE_EXPORT extern "C" __attribute__((visibility("default")))
#endif

namespace d3dcap::capture::platform {

struct ProviderLibrary {
    void* create_device = nullptr;                 // D3D11CreateDevice
    void* create_device_and_swap_chain = nullptr;  // D3D11CreateDeviceAndSwapChain
    void* create_factory = nullptr;                // CreateDXGIFactory
    void* create_factory1 = nullptr;
    void* create_factory2 = nullptr;
    std::string name;
    std::string error;  // empty when loaded
#ifdef _WIN32
    void* d3d11 = nullptr;  // the real DLLs' HMODULEs
    void* dxgi = nullptr;
#endif
};

// Linux: loads the provider named by D3DCAP_PROVIDER, else the d3dcap
// runtime. Windows: the system directory's d3d11.dll and dxgi.dll (or those
// named by D3DCAP_REAL_D3D11 and D3DCAP_REAL_DXGI).
ProviderLibrary load_provider();

#ifdef _WIN32
// An export of the real d3d11 ("d3d11") or dxgi ("dxgi"), or null.
void* real_entry(const ProviderLibrary& provider, const char* dll, const char* name);

// Has `finish` run once on the thread that ends the process, before the
// system ends the other threads (the trace writer's among them), which it
// does before DLLs hear of the exit: the ExitProcess (and
// RtlExitUserProcess) imports of every module loaded now are routed through
// it. Called again as modules load; TerminateProcess and crashes end the
// process without it.
void finish_before_process_exit(void (*finish)());
#endif

std::string process_name();
std::string command_line();

}  // namespace d3dcap::capture::platform

namespace d3dcap::capture {

// The provider, loaded on first use and kept to the end of the process.
const platform::ProviderLibrary& provider();

}  // namespace d3dcap::capture
