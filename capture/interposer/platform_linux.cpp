#include <dlfcn.h>

#include <cstdlib>
#include <fstream>
#include <iterator>

#include "capture/interposer/platform.h"

namespace d3dcap::capture::platform {

ProviderLibrary load_provider() {
    ProviderLibrary provider;
    const char* name = std::getenv("D3DCAP_PROVIDER");
    provider.name = name != nullptr && *name != 0 ? name : "libd3dcap.so.0";
    void* handle = dlopen(provider.name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char* error = dlerror();
        provider.error = "cannot load the D3D11 provider " + provider.name + ": " +
                         (error != nullptr ? error : "unknown error");
        return provider;
    }
    provider.create_device = dlsym(handle, "D3D11CreateDevice");
    provider.create_device_and_swap_chain = dlsym(handle, "D3D11CreateDeviceAndSwapChain");
    provider.create_factory = dlsym(handle, "CreateDXGIFactory");
    provider.create_factory1 = dlsym(handle, "CreateDXGIFactory1");
    provider.create_factory2 = dlsym(handle, "CreateDXGIFactory2");
    // dlsym on a library that is the layer itself would loop forever.
    void* own = dlsym(RTLD_DEFAULT, "d3dcap_get_capture_api");
    Dl_info info{};
    if (provider.create_device == nullptr)
        provider.error = provider.name + " has no D3D11CreateDevice";
    else if (own != nullptr && dladdr(provider.create_device, &info) != 0 &&
             dlsym(handle, "d3dcap_get_capture_api") == own)
        provider.error = provider.name + " is the capture layer itself, not a D3D11 provider";
    return provider;
}

std::string process_name() {
    std::ifstream comm("/proc/self/comm");
    std::string name;
    std::getline(comm, name);
    return name;
}

std::string command_line() {
    std::ifstream file("/proc/self/cmdline", std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    for (char& c : text)
        if (c == 0) c = ' ';
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
}

}  // namespace d3dcap::capture::platform
