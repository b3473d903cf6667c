// Worker threads that record through the capture layer and end, one after
// another, as a program's short-lived threads do: each records a command
// list on a deferred context of its own and ends; the main thread executes
// the list. Each thread's end frees what the layer kept for that thread.
#include <d3d11.h>
#include <windows.h>

#include <string>
#include <thread>

#include "common/com.h"

namespace {

using example::check;
using example::Com;

constexpr int kThreads = 200;
constexpr UINT kBufferBytes = 256;

}  // namespace

int main() {
    return example::run_and_report("thread_ends", [](std::string& summary) {
        Com<ID3D11Device> device;
        Com<ID3D11DeviceContext> context;
        check(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, nullptr, 0,
                                D3D11_SDK_VERSION, device.put(), nullptr, context.put()),
              "D3D11CreateDevice");
        D3D11_BUFFER_DESC buffer_desc{};
        buffer_desc.ByteWidth = kBufferBytes;
        buffer_desc.BindFlags = D3D11_BIND_VERTEX_BUFFER;
        Com<ID3D11Buffer> buffer;
        check(device->CreateBuffer(&buffer_desc, nullptr, buffer.put()), "CreateBuffer");
        for (int t = 0; t < kThreads; ++t) {
            Com<ID3D11CommandList> list;
            HRESULT recorded = E_FAIL;
            std::thread([&] {
                Com<ID3D11DeviceContext> deferred;
                recorded = device->CreateDeferredContext(0, deferred.put());
                if (FAILED(recorded)) return;
                ID3D11Buffer* buffers[] = {buffer.get()};
                const UINT stride = 16;
                const UINT offset = 0;
                deferred->IASetVertexBuffers(0, 1, buffers, &stride, &offset);
                recorded = deferred->FinishCommandList(FALSE, list.put());
            }).join();
            check(recorded, "recording a command list");
            context->ExecuteCommandList(list.get(), FALSE);
        }
        D3D11_BUFFER_DESC after{};
        buffer->GetDesc(&after);
        if (after.ByteWidth != kBufferBytes) throw example::Failure("the buffer's GetDesc", E_FAIL);
        summary = std::to_string(kThreads) + " threads recorded and ended\n";
        return 0;
    });
}
