// The cost of cheap D3D11 calls on a Windows device, for measuring what the
// capture layer adds under Wine: run once without the layer and once with
// it (tests/bench/wine-call-cost). Each loop makes N calls; the program
// prints the loop's wall time per call for each kind of call. A second
// argument runs one kind only, for profiling it: marker, constants or update.
//   call_cost.exe [N [marker|constants|update]]   (default 200000, all three)
#include <d3d11_1.h>
#include <windows.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cwchar>

namespace {

double now_ns() {
    static const double ns_per_tick = [] {
        LARGE_INTEGER frequency;
        QueryPerformanceFrequency(&frequency);
        return 1e9 / static_cast<double>(frequency.QuadPart);
    }();
    LARGE_INTEGER counter;
    QueryPerformanceCounter(&counter);
    return static_cast<double>(counter.QuadPart) * ns_per_tick;
}

const char* g_only = nullptr;  // the one kind of call to measure, or all

template <class Loop>
void measure(const char* kind, const char* name, int calls, Loop&& loop) {
    if (g_only != nullptr && std::strcmp(g_only, kind) != 0) return;
    const double start = now_ns();
    for (int i = 0; i < calls; ++i) loop(i);
    std::printf("%-48s %8.1f ns/call\n", name, (now_ns() - start) / calls);
}

int fail(const char* call, HRESULT hr) {
    std::fprintf(stderr, "call_cost: %s failed: HRESULT 0x%08x\n", call, static_cast<unsigned>(hr));
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    const int calls = argc > 1 ? std::atoi(argv[1]) : 200000;
    if (calls <= 0) return fail("parsing the call count", E_INVALIDARG);
    if (argc > 2) g_only = argv[2];
    ID3D11Device* device = nullptr;
    ID3D11DeviceContext* immediate = nullptr;
    const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1;
    HRESULT hr = D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, &level, 1,
                                   D3D11_SDK_VERSION, &device, nullptr, &immediate);
    if (FAILED(hr)) return fail("D3D11CreateDevice", hr);
    ID3D11DeviceContext1* context = nullptr;
    ID3DUserDefinedAnnotation* annotation = nullptr;
    if (FAILED(hr = immediate->QueryInterface(__uuidof(ID3D11DeviceContext1),
                                              reinterpret_cast<void**>(&context))) ||
        FAILED(hr = immediate->QueryInterface(__uuidof(ID3DUserDefinedAnnotation),
                                              reinterpret_cast<void**>(&annotation))))
        return fail("QueryInterface", hr);
    D3D11_BUFFER_DESC desc{};
    desc.ByteWidth = 4096;
    desc.BindFlags = D3D11_BIND_CONSTANT_BUFFER;
    ID3D11Buffer* buffers[2] = {};
    for (ID3D11Buffer*& buffer : buffers)
        if (FAILED(hr = device->CreateBuffer(&desc, nullptr, &buffer)))
            return fail("CreateBuffer", hr);
    // Updated whole: the data's size is the buffer's.
    desc.ByteWidth = 256;
    ID3D11Buffer* updated = nullptr;
    if (FAILED(hr = device->CreateBuffer(&desc, nullptr, &updated)))
        return fail("CreateBuffer", hr);

    // A label of changing text, as markers of frames and passes have.
    wchar_t label[32];
    measure("marker", "ID3DUserDefinedAnnotation::SetMarker", calls, [&](int i) {
        std::swprintf(label, 32, L"marker %d", i & 1023);
        annotation->SetMarker(label);
    });
    measure("constants", "ID3D11DeviceContext1::PSSetConstantBuffers1 (2, windows)", calls,
            [&](int i) {
                const UINT first[2] = {static_cast<UINT>(16 * (i & 7)), 0};
                const UINT count[2] = {16, 32};
                context->PSSetConstantBuffers1(0, 2, buffers, first, count);
            });
    unsigned char data[256];
    std::memset(data, 0x5a, sizeof data);
    measure("update", "ID3D11DeviceContext1::UpdateSubresource1 (256 bytes)", calls, [&](int i) {
        data[0] = static_cast<unsigned char>(i);
        context->UpdateSubresource1(updated, 0, nullptr, data, 0, 0, 0);
    });

    for (ID3D11Buffer* buffer : buffers) buffer->Release();
    updated->Release();
    annotation->Release();
    context->Release();
    immediate->Release();
    device->Release();
    return 0;
}
