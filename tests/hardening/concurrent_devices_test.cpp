// Devices created on eight threads at once through the capture layer, each
// used and released on its thread: every creation is recorded once, the
// trace replays with no mismatch. Run under ThreadSanitizer by the tsan preset.
#include <d3dcap/api/calls.h>

#include <array>
#include <catch2/catch.hpp>
#include <latch>
#include <thread>
#include <vector>

#include "capture/support/capture_session.h"
#include "hardening/trace_checks.h"
#include "support/com.h"
#include "support/temp_dir.h"

using namespace d3dcap;
using d3dcap::testing::Com;

namespace {

constexpr int kThreads = 8;

// One thread's device: made, used through a deferred context and released.
HRESULT use_own_device(const testing::CaptureSession& session, int thread) {
    Com<ID3D11Device2> device;
    Com<ID3D11DeviceContext2> immediate;
    const D3D_DRIVER_TYPE driver = thread % 2 ? D3D_DRIVER_TYPE_NULL : D3D_DRIVER_TYPE_REFERENCE;
    if (const HRESULT hr = session.device(driver, device.out(), immediate.out()); FAILED(hr))
        return hr;
    const D3D11_BUFFER_DESC desc{256, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
    Com<ID3D11Buffer> buffer;
    if (const HRESULT hr = device->CreateBuffer(&desc, nullptr, buffer.out()); FAILED(hr))
        return hr;
    Com<ID3D11DeviceContext> deferred;
    if (const HRESULT hr = device->CreateDeferredContext(0, deferred.out()); FAILED(hr)) return hr;
    ID3D11Buffer* bound = buffer.get();
    std::array<UINT, 64> constants{};  // the whole 256-byte buffer
    for (UINT i = 0; i < 100; ++i) {
        constants[0] = i;
        deferred->UpdateSubresource(buffer.get(), 0, nullptr, constants.data(), 0, 0);
        deferred->PSSetConstantBuffers(i % 14, 1, &bound);
        deferred->Draw(3, i);
    }
    Com<ID3D11CommandList> list;
    if (const HRESULT hr = deferred->FinishCommandList(FALSE, list.out()); FAILED(hr)) return hr;
    immediate->ExecuteCommandList(list.get(), FALSE);
    immediate->SetMarkerInt(L"thread", thread);
    return S_OK;
}

}  // namespace

TEST_CASE("devices created on eight threads at once are each recorded once and replay",
          "[hardening][threads]") {
    testing::TempDir dir;
    const std::string path = dir.file("devices.d3dcap");
    {
        const auto session = testing::CaptureSession::load(path);
        std::vector<HRESULT> results(kThreads, E_FAIL);
        std::latch start(kThreads);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&, t] {
                start.arrive_and_wait();  // every thread creates its device at the same time
                results[t] = use_own_device(session, t);
            });
        for (std::thread& thread : threads) thread.join();
        CHECK(results == std::vector<HRESULT>(kThreads, S_OK));
        REQUIRE(session.api->stop() == 0);
    }
    CHECK(hardening::count_calls(path, api::CallId::D3D11CreateDevice).first == kThreads);
    CHECK(hardening::count_calls(path, api::CallId::ID3D11DeviceContext_Draw).first ==
          kThreads * 100);
    hardening::require_clean_replay(path, D3D_DRIVER_TYPE_NULL);
}
