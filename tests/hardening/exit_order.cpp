// A program that lets go of its D3D11 objects at exit, the ways real programs
// do: from the destructor of a global, from an atexit handler, or not at all
// while a thread still makes calls when main returns. Under capture it must
// exit as it does without, and leave a complete, closed trace.
// usage: exit_order globals|atexit|thread [null|reference|hardware]
// Exits with 3 when the device cannot be created (no GPU for hardware).
#include <d3d11_2.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace {

struct Objects {
    ID3D11Device* device = nullptr;
    ID3D11DeviceContext* context = nullptr;
    ID3D11Buffer* buffer = nullptr;
    ID3D11Texture2D* texture = nullptr;

    void release() {
        if (context != nullptr) context->ClearState();
        for (IUnknown* object : {static_cast<IUnknown*>(texture), static_cast<IUnknown*>(buffer),
                                 static_cast<IUnknown*>(context), static_cast<IUnknown*>(device)}) {
            if (object != nullptr) object->Release();
        }
        *this = {};
    }
};

// Released by its destructor after main returns, as a global holding the
// device is.
struct GlobalObjects {
    Objects objects;
    bool release_at_exit = false;
    ~GlobalObjects() {
        if (release_at_exit) objects.release();
    }
} g_globals;

Objects g_for_atexit;

D3D_DRIVER_TYPE driver_named(const char* name) {
    if (std::strcmp(name, "reference") == 0) return D3D_DRIVER_TYPE_REFERENCE;
    if (std::strcmp(name, "hardware") == 0) return D3D_DRIVER_TYPE_HARDWARE;
    return D3D_DRIVER_TYPE_NULL;
}

// Creates the objects, or ends the process with 3.
void create(Objects& o, D3D_DRIVER_TYPE driver) {
    const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1;
    const HRESULT hr = D3D11CreateDevice(nullptr, driver, nullptr, 0, &level, 1, D3D11_SDK_VERSION,
                                         &o.device, nullptr, &o.context);
    if (FAILED(hr)) {
        std::printf("exit_order: no device of driver type %d: 0x%08x\n", static_cast<int>(driver),
                    static_cast<unsigned>(hr));
        std::fflush(stdout);
        std::_Exit(3);
    }
    const D3D11_BUFFER_DESC buffer_desc{4096, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0,
                                        0};
    D3D11_TEXTURE2D_DESC texture_desc{};
    texture_desc.Width = texture_desc.Height = 64;
    texture_desc.MipLevels = texture_desc.ArraySize = 1;
    texture_desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    texture_desc.SampleDesc.Count = 1;
    texture_desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    if (FAILED(o.device->CreateBuffer(&buffer_desc, nullptr, &o.buffer)) ||
        FAILED(o.device->CreateTexture2D(&texture_desc, nullptr, &o.texture))) {
        std::printf("exit_order: cannot create a buffer and a texture\n");
        std::exit(1);
    }
}

void draw_some(const Objects& o, int count) {
    ID3D11Buffer* buffers[1] = {o.buffer};
    const UINT stride = 16, offset = 0;
    o.context->IASetVertexBuffers(0, 1, buffers, &stride, &offset);
    for (int i = 0; i < count; ++i) o.context->Draw(3, static_cast<UINT>(i));
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: %s globals|atexit|thread [null|reference|hardware]\n",
                     argv[0]);
        return 2;
    }
    const char* mode = argv[1];
    const D3D_DRIVER_TYPE driver = driver_named(argc == 3 ? argv[2] : "null");
    if (std::strcmp(mode, "globals") == 0) {
        create(g_globals.objects, driver);
        draw_some(g_globals.objects, 10);
        g_globals.release_at_exit = true;
    } else if (std::strcmp(mode, "atexit") == 0) {
        create(g_for_atexit, driver);
        draw_some(g_for_atexit, 10);
        std::atexit([] { g_for_atexit.release(); });
    } else if (std::strcmp(mode, "thread") == 0) {
        // The thread keeps drawing on its own device while main returns;
        // exit() ends it wherever it is.
        static std::atomic<bool> started{false};
        std::thread([driver] {
            Objects o;
            create(o, driver);
            draw_some(o, 10);
            started = true;
            for (;;) draw_some(o, 100);
        }).detach();
        while (!started) std::this_thread::yield();
    } else {
        std::fprintf(stderr, "exit_order: no mode '%s'\n", mode);
        return 2;
    }
    std::printf("exit_order: %s: main returns\n", mode);
    return 0;
}
