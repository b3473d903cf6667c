// Loads d3d11.dll at run time, makes a device and clears a target with it,
// frees the DLL, and does it all again: as programs that probe for D3D11
// before they use it. Under capture the layer stays loaded through the
// FreeLibrary, so both devices and their clears are in the one trace; at
// the end it frees the layer itself and says whether it stayed.
#include <d3d11.h>
#include <windows.h>

#include <cstdio>

namespace {

HRESULT round_trip(int round) {
    HMODULE d3d11 = LoadLibraryW(L"d3d11.dll");
    if (d3d11 == nullptr) return HRESULT_FROM_WIN32(GetLastError());
    auto create = reinterpret_cast<PFN_D3D11_CREATE_DEVICE>(
        reinterpret_cast<void (*)()>(GetProcAddress(d3d11, "D3D11CreateDevice")));
    ID3D11Device* device = nullptr;
    ID3D11DeviceContext* context = nullptr;
    HRESULT hr = create != nullptr ? create(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr,
                                            0, D3D11_SDK_VERSION, &device, nullptr, &context)
                                   : E_NOINTERFACE;
    if (SUCCEEDED(hr)) {
        D3D11_TEXTURE2D_DESC desc{};
        desc.Width = desc.Height = 16;
        desc.MipLevels = desc.ArraySize = 1;
        desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        desc.SampleDesc.Count = 1;
        desc.BindFlags = D3D11_BIND_RENDER_TARGET;
        ID3D11Texture2D* texture = nullptr;
        ID3D11RenderTargetView* view = nullptr;
        hr = device->CreateTexture2D(&desc, nullptr, &texture);
        if (SUCCEEDED(hr)) hr = device->CreateRenderTargetView(texture, nullptr, &view);
        if (SUCCEEDED(hr)) {
            const float colour[4] = {0.25f * static_cast<float>(round + 1), 0, 0, 1};
            context->ClearRenderTargetView(view, colour);
            view->Release();
        }
        if (texture != nullptr) texture->Release();
        context->Release();
        device->Release();
    }
    FreeLibrary(d3d11);
    return hr;
}

}  // namespace

int main() {
    for (int round = 0; round < 2; ++round) {
        const HRESULT hr = round_trip(round);
        if (FAILED(hr)) {
            std::fprintf(stderr, "probe: round %d failed: HRESULT 0x%08x\n", round,
                         static_cast<unsigned>(hr));
            return 1;
        }
        std::printf("round %d: device made, target cleared, d3d11.dll freed\n", round);
    }
    // Under capture, the layer does not go even when freed outright.
    if (HMODULE layer = GetModuleHandleW(L"d3dcap_capture.dll"); layer != nullptr) {
        for (int i = 0; i < 8; ++i) FreeLibrary(layer);
        std::printf("the capture layer %s\n", GetModuleHandleW(L"d3dcap_capture.dll") != nullptr
                                                  ? "stayed loaded"
                                                  : "was unloaded");
    }
    return 0;
}
