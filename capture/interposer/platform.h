// What the capture layer needs from the operating system, in one place:
// finding the real D3D11/DXGI provider and knowing the process.
#pragma once

#include <string>

namespace d3dcap::capture::platform {

struct ProviderLibrary {
    void* create_device = nullptr;                 // D3D11CreateDevice
    void* create_device_and_swap_chain = nullptr;  // D3D11CreateDeviceAndSwapChain
    void* create_factory = nullptr;                // CreateDXGIFactory
    void* create_factory1 = nullptr;
    void* create_factory2 = nullptr;
    std::string name;
    std::string error;  // empty when loaded
};

// Loads the provider named by D3DCAP_PROVIDER, else the d3dcap runtime.
ProviderLibrary load_provider();

std::string process_name();
std::string command_line();

}  // namespace d3dcap::capture::platform
