// Ends the process while the trace writer is busy, in the way the argument
// names, after a burst of large UpdateSubresource calls (64 MiB of data
// that the writer is still merging and writing when the process ends):
//   return         main returns (the C runtime's exit, then ExitProcess)
//   exit_process   ExitProcess(0) from a second thread while the main
//                  thread keeps recording
//   terminate      TerminateProcess of itself with status 0: nothing of
//                  the layer runs, so capture must report the loss
// It prints how many calls it made before the end, except for the calls
// the second thread's ExitProcess cuts short.
#include <d3d11.h>
#include <windows.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "common/com.h"

namespace {

using example::check;
using example::Com;

constexpr UINT kBufferBytes = 1 << 20;
constexpr int kUploads = 64;

}  // namespace

int main(int argc, char** argv) {
    const char* mode = argc > 1 ? argv[1] : "";
    if (std::strcmp(mode, "return") != 0 && std::strcmp(mode, "exit_process") != 0 &&
        std::strcmp(mode, "terminate") != 0) {
        std::fprintf(stderr, "usage: exit_paths return|exit_process|terminate\n");
        return 2;
    }
    Com<ID3D11Device> device;
    Com<ID3D11DeviceContext> context;
    check(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0,
                            D3D11_SDK_VERSION, device.put(), nullptr, context.put()),
          "D3D11CreateDevice");
    D3D11_BUFFER_DESC desc{};
    desc.ByteWidth = kBufferBytes;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    Com<ID3D11Buffer> buffer;
    check(device->CreateBuffer(&desc, nullptr, buffer.put()), "CreateBuffer");
    std::vector<unsigned char> data(kBufferBytes);
    for (int i = 0; i < kUploads; ++i) {
        // Different bytes each time, so that no layer can keep one copy.
        std::memset(data.data(), i + 1, data.size());
        context->UpdateSubresource(buffer.get(), 0, nullptr, data.data(), 0, 0);
    }
    if (std::strcmp(mode, "exit_process") == 0) {
        std::atomic<int> calls{0};
        std::thread([&] {
            while (calls.load() < 1000) std::this_thread::yield();
            std::printf("%d uploads, then state calls until ExitProcess\n", kUploads);
            std::fflush(stdout);
            ExitProcess(0);
        }).detach();
        for (;;) {
            context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
            calls.fetch_add(1);
        }
    }
    std::printf("%d uploads, then %s\n", kUploads, mode);
    std::fflush(stdout);
    if (std::strcmp(mode, "terminate") == 0) TerminateProcess(GetCurrentProcess(), 0);
    return 0;
}
