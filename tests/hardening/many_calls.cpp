// A program of many cheap calls for the memory figures of long traces:
// COUNT calls on the immediate context (draws, state and, with "markers",
// a SetMarkerInt every fourth call), a frame ended through the capture API
// every 10000 calls when a capture layer is loaded, and a marker region
// around each frame.
// usage: many_calls COUNT markers|regions
#include <d3d11_2.h>
#include <d3dcap/capture_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: %s COUNT markers|regions\n", argv[0]);
        return 2;
    }
    const unsigned long long count = std::strtoull(argv[1], nullptr, 10);
    const bool markers = std::strcmp(argv[2], "markers") == 0;
    ID3D11Device* device = nullptr;
    ID3D11DeviceContext* base = nullptr;
    const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1;
    if (FAILED(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_NULL, nullptr, 0, &level, 1,
                                 D3D11_SDK_VERSION, &device, nullptr, &base))) {
        std::fprintf(stderr, "many_calls: no device\n");
        return 1;
    }
    ID3D11DeviceContext2* context = nullptr;
    base->QueryInterface(__uuidof(ID3D11DeviceContext2), reinterpret_cast<void**>(&context));
    const D3DCAP_CAPTURE_API_1* capture = d3dcap_find_capture_api();
    constexpr unsigned long long kFrameCalls = 10000;
    for (unsigned long long i = 0; i < count; ++i) {
        switch (i % kFrameCalls) {
            case 0:
                context->BeginEventInt(L"frame", static_cast<INT>(i / kFrameCalls));
                continue;
            case kFrameCalls - 1:
                context->EndEvent();
                if (capture != nullptr) capture->end_frame();
                continue;
            default:
                break;
        }
        switch (i % 4) {
            case 0:
                if (markers)
                    context->SetMarkerInt(L"step", static_cast<INT>(i));
                else
                    context->Draw(4, static_cast<UINT>(i));
                break;
            case 1:
                context->Draw(3, static_cast<UINT>(i));
                break;
            case 2:
                context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
                break;
            default:
                context->RSSetState(nullptr);
                break;
        }
    }
    context->Release();
    base->Release();
    device->Release();
    std::printf("many_calls: %llu calls\n", count);
    return 0;
}
