// DXGI and work under capture: a program that lets go of its back buffer
// and resizes the swap chain (the back buffer dies inside ResizeBuffers, so
// its ObjectDestroyed record comes after the call, yet the replay must
// resize as the live run did), the DXGI 1.3-1.6 factory calls, and the
// dispatches a replay device did not run.
#include <dxgi1_6.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <initializer_list>
#include <string>

#include "capture/replay/replay_support.h"
#include "capture/support/capture_session.h"
#include "runtime/shader/assembler.h"
#include "support/temp_dir.h"

using namespace d3dcap;

TEST_CASE("ResizeBuffers after the back buffer was released replays without a mismatch") {
    testing::TempDir dir;
    const auto session = testing::CaptureSession::load(dir.file("resize.d3dcap"));
    DXGI_SWAP_CHAIN_DESC desc{};
    desc.BufferDesc.Width = 32;
    desc.BufferDesc.Height = 16;
    desc.BufferDesc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc = {1, 0};
    desc.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
    desc.BufferCount = 2;
    desc.OutputWindow = reinterpret_cast<HWND>(std::uintptr_t{7});
    desc.Windowed = TRUE;
    desc.SwapEffect = DXGI_SWAP_EFFECT_FLIP_DISCARD;
    IDXGISwapChain* swap_chain = nullptr;
    ID3D11Device* device = nullptr;
    ID3D11DeviceContext* context = nullptr;
    REQUIRE(session.create_device_and_swap_chain(nullptr, D3D_DRIVER_TYPE_REFERENCE, nullptr, 0,
                                                 nullptr, 0, D3D11_SDK_VERSION, &desc, &swap_chain,
                                                 &device, nullptr, &context) == S_OK);
    for (UINT width : {32u, 64u}) {
        ID3D11Texture2D* back = nullptr;
        REQUIRE(swap_chain->GetBuffer(0, __uuidof(ID3D11Texture2D),
                                      reinterpret_cast<void**>(&back)) == S_OK);
        D3D11_TEXTURE2D_DESC back_desc{};
        back->GetDesc(&back_desc);
        CHECK(back_desc.Width == width);
        ID3D11RenderTargetView* view = nullptr;
        REQUIRE(device->CreateRenderTargetView(back, nullptr, &view) == S_OK);
        const FLOAT colour[4] = {0.0f, 0.5f, 1.0f, 1.0f};
        context->ClearRenderTargetView(view, colour);
        REQUIRE(swap_chain->Present(0, 0) == S_OK);
        view->Release();
        back->Release();
        if (width == 32) {
            REQUIRE(swap_chain->ResizeBuffers(0, 64, 32, DXGI_FORMAT_UNKNOWN, 0) == S_OK);
        }
    }
    REQUIRE(session.api->stop() == 0);

    testing::replay_on_reference(session.trace_path);
    context->Release();
    device->Release();
    swap_chain->Release();
}

TEST_CASE("IDXGIFactory6 through the layer: adapters picked by preference and LUID replay") {
    testing::TempDir dir;
    const auto session = testing::CaptureSession::load(dir.file("factory.d3dcap"));
    ID3D11Device2* device = nullptr;
    ID3D11DeviceContext2* context = nullptr;
    REQUIRE(session.device(D3D_DRIVER_TYPE_REFERENCE, &device, &context) == S_OK);
    IDXGIDevice* dxgi = nullptr;
    REQUIRE(device->QueryInterface(__uuidof(IDXGIDevice), reinterpret_cast<void**>(&dxgi)) == S_OK);
    IDXGIAdapter* adapter = nullptr;
    REQUIRE(dxgi->GetAdapter(&adapter) == S_OK);
    IDXGIFactory6* factory = nullptr;
    REQUIRE(adapter->GetParent(__uuidof(IDXGIFactory6), reinterpret_cast<void**>(&factory)) ==
            S_OK);
    IDXGIFactory7* seven = nullptr;
    CHECK(factory->QueryInterface(__uuidof(IDXGIFactory7), reinterpret_cast<void**>(&seven)) ==
          E_NOINTERFACE);
    IDXGIAdapter1* preferred = nullptr;
    REQUIRE(factory->EnumAdapterByGpuPreference(0, DXGI_GPU_PREFERENCE_MINIMUM_POWER,
                                                __uuidof(IDXGIAdapter1),
                                                reinterpret_cast<void**>(&preferred)) == S_OK);
    DXGI_ADAPTER_DESC1 desc{};
    REQUIRE(preferred->GetDesc1(&desc) == S_OK);
    IDXGIAdapter* by_luid = nullptr;
    REQUIRE(factory->EnumAdapterByLuid(desc.AdapterLuid, __uuidof(IDXGIAdapter),
                                       reinterpret_cast<void**>(&by_luid)) == S_OK);
    BOOL tearing = TRUE;
    REQUIRE(factory->CheckFeatureSupport(DXGI_FEATURE_PRESENT_ALLOW_TEARING, &tearing,
                                         sizeof tearing) == S_OK);
    CHECK(tearing == FALSE);
    for (IUnknown* object : std::initializer_list<IUnknown*>{by_luid, preferred, factory, adapter,
                                                             dxgi, context, device})
        object->Release();
    REQUIRE(session.api->stop() == 0);

    const auto calls = testing::recorded_calls(session.trace_path);
    auto recorded = [&](const char* name) {
        return std::count(calls.begin(), calls.end(), std::string(name));
    };
    CHECK(recorded("IDXGIFactory6::EnumAdapterByGpuPreference") == 1);
    CHECK(recorded("IDXGIFactory4::EnumAdapterByLuid") == 1);
    CHECK(recorded("IDXGIFactory5::CheckFeatureSupport") == 1);

    testing::replay_on_reference(session.trace_path);
}

TEST_CASE("Replay counts the dispatches a device did not execute") {
    testing::TempDir dir;
    const auto session = testing::CaptureSession::load(dir.file("dispatch.d3dcap"));
    ID3D11Device2* device = nullptr;
    ID3D11DeviceContext2* context = nullptr;
    REQUIRE(session.device(D3D_DRIVER_TYPE_REFERENCE, &device, &context) == S_OK);
    const auto shader_text = runtime::shader::assemble(R"(cs_5_0
dcl_uav_raw u0
dcl_thread_group 1, 1, 1
store_raw u0.x, l(0), l(7)
ret
)");
    REQUIRE(shader_text.ok());
    ID3D11ComputeShader* shader = nullptr;
    REQUIRE(device->CreateComputeShader(shader_text.container.data(), shader_text.container.size(),
                                        nullptr, &shader) == S_OK);
    context->CSSetShader(shader, nullptr, 0);
    context->Dispatch(1, 1, 1);
    context->Dispatch(2, 1, 1);
    shader->Release();
    context->Release();
    device->Release();
    REQUIRE(session.api->stop() == 0);

    const auto replayer = testing::replay_on_reference(session.trace_path);
    const runtime::DrawCounts work = replayer->draw_counts();
    CHECK(work.dispatches == 2);
    CHECK(work.not_executed == 2);  // the reference device runs no shaders
}
