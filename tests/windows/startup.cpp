// What many programs do at start-up, before their first frame: enumerate
// the adapter's outputs and display modes, probe formats and features,
// make a swap chain sized from its window (Width = Height = 0), view its
// back buffer as sRGB, and copy the back buffer into a staging texture of
// the window's size. It prints what it found, then presents one frame.
#include <d3d11.h>
#include <dxgi.h>
#include <windows.h>

#include <cstdio>
#include <string>
#include <vector>

#include "common/com.h"

namespace {

using example::check;
using example::Com;
using example::Failure;

// A client area no mode has, as a resizable window gives.
constexpr int kClientWidth = 632, kClientHeight = 453;

HWND make_window() {
    WNDCLASSW window_class{};
    window_class.lpfnWndProc = DefWindowProcW;
    window_class.hInstance = GetModuleHandleW(nullptr);
    window_class.lpszClassName = L"d3dcap_startup";
    RegisterClassW(&window_class);
    RECT rect{0, 0, kClientWidth, kClientHeight};
    AdjustWindowRect(&rect, WS_OVERLAPPEDWINDOW, FALSE);
    HWND window = CreateWindowExW(0, L"d3dcap_startup", L"d3dcap startup", WS_OVERLAPPEDWINDOW, 0,
                                  0, rect.right - rect.left, rect.bottom - rect.top, nullptr,
                                  nullptr, window_class.hInstance, nullptr);
    if (window == nullptr) throw Failure("CreateWindowExW", HRESULT_FROM_WIN32(GetLastError()));
    return window;
}

// The first output's modes of one format, and the mode closest to 640x480.
std::string outputs() {
    Com<IDXGIFactory1> factory;
    check(CreateDXGIFactory1(__uuidof(IDXGIFactory1), factory.put_void()), "CreateDXGIFactory1");
    Com<IDXGIAdapter1> adapter;
    check(factory->EnumAdapters1(0, adapter.put()), "EnumAdapters1");
    Com<IDXGIOutput> output;
    check(adapter->EnumOutputs(0, output.put()), "EnumOutputs");
    DXGI_OUTPUT_DESC desc{};
    check(output->GetDesc(&desc), "IDXGIOutput::GetDesc");
    UINT count = 0;
    check(output->GetDisplayModeList(DXGI_FORMAT_R8G8B8A8_UNORM, 0, &count, nullptr),
          "GetDisplayModeList (count)");
    std::vector<DXGI_MODE_DESC> modes(count);
    if (count > 0)
        check(output->GetDisplayModeList(DXGI_FORMAT_R8G8B8A8_UNORM, 0, &count, modes.data()),
              "GetDisplayModeList");
    DXGI_MODE_DESC wanted{};
    wanted.Width = 640;
    wanted.Height = 480;
    wanted.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    DXGI_MODE_DESC closest{};
    check(output->FindClosestMatchingMode(&wanted, &closest, nullptr), "FindClosestMatchingMode");
    const bool attached = desc.AttachedToDesktop != FALSE;
    return "an output " + std::string(attached ? "on" : "off") + " the desktop with " +
           (count > 0 ? "modes" : "no modes") + "\n";
}

// Probes as programs do; the answers depend on the device, so only that
// they were answered is printed.
std::string probes(ID3D11Device* device) {
    int answered = 0;
    for (DXGI_FORMAT format : {DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_BC7_UNORM,
                               DXGI_FORMAT_R32G32B32_FLOAT, DXGI_FORMAT_D24_UNORM_S8_UINT}) {
        UINT support = 0;
        if (SUCCEEDED(device->CheckFormatSupport(format, &support))) ++answered;
        UINT quality = 0;
        if (SUCCEEDED(device->CheckMultisampleQualityLevels(format, 4, &quality))) ++answered;
    }
    D3D11_FEATURE_DATA_THREADING threading{};
    if (SUCCEEDED(
            device->CheckFeatureSupport(D3D11_FEATURE_THREADING, &threading, sizeof threading)))
        ++answered;
    return std::to_string(answered) + " probes answered\n";
}

}  // namespace

int main() {
    return example::run_and_report("startup", [](std::string& summary) {
        summary = outputs();
        HWND window = make_window();
        {
            DXGI_SWAP_CHAIN_DESC chain{};  // Width = Height = 0: the window's size
            chain.BufferDesc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
            chain.SampleDesc.Count = 1;
            chain.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
            chain.BufferCount = 1;
            chain.OutputWindow = window;
            chain.Windowed = TRUE;
            chain.SwapEffect = DXGI_SWAP_EFFECT_DISCARD;
            Com<IDXGISwapChain> swap_chain;
            Com<ID3D11Device> device;
            Com<ID3D11DeviceContext> context;
            check(D3D11CreateDeviceAndSwapChain(
                      nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0, D3D11_SDK_VERSION,
                      &chain, swap_chain.put(), device.put(), nullptr, context.put()),
                  "D3D11CreateDeviceAndSwapChain");
            summary += probes(device.get());
            Com<ID3D11Texture2D> back_buffer;
            check(swap_chain->GetBuffer(0, __uuidof(ID3D11Texture2D), back_buffer.put_void()),
                  "GetBuffer");
            D3D11_TEXTURE2D_DESC desc{};
            back_buffer->GetDesc(&desc);
            char size[64];
            std::snprintf(size, sizeof size, "back buffer %ux%u\n", desc.Width, desc.Height);
            summary += size;
            // sRGB rendering into a UNORM back buffer, as Windows allows for
            // every swap effect.
            D3D11_RENDER_TARGET_VIEW_DESC view_desc{};
            view_desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM_SRGB;
            view_desc.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2D;
            Com<ID3D11RenderTargetView> view;
            check(device->CreateRenderTargetView(back_buffer.get(), &view_desc, view.put()),
                  "CreateRenderTargetView (sRGB)");
            const float color[4] = {0.5f, 0.25f, 0.125f, 1.0f};
            context->ClearRenderTargetView(view.get(), color);
            // A staging copy of the window's size, read back.
            D3D11_TEXTURE2D_DESC staging_desc = desc;
            staging_desc.Width = kClientWidth;
            staging_desc.Height = kClientHeight;
            staging_desc.Usage = D3D11_USAGE_STAGING;
            staging_desc.BindFlags = 0;
            staging_desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
            staging_desc.MiscFlags = 0;
            Com<ID3D11Texture2D> staging;
            check(device->CreateTexture2D(&staging_desc, nullptr, staging.put()),
                  "CreateTexture2D (staging)");
            context->CopyResource(staging.get(), back_buffer.get());
            D3D11_MAPPED_SUBRESOURCE mapped{};
            check(context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped), "Map");
            const auto* texel = static_cast<const unsigned char*>(mapped.pData);
            char line[64];
            std::snprintf(line, sizeof line, "copied texel %u,%u,%u,%u\n", texel[0], texel[1],
                          texel[2], texel[3]);
            summary += line;
            context->Unmap(staging.get(), 0);
            check(swap_chain->Present(0, 0), "Present");
        }
        DestroyWindow(window);
        return 0;
    });
}
