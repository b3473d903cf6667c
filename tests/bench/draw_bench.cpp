// Draws through the D3D11 API on the Vulkan device: a frame of 10,000 small
// draws (one triangle each, in a 256x256 target) with state changes, as
// draws per wall-clock second: every draw binds another constant-buffer
// window (its colour and offset), every 16th another blend state, every
// 64th another vertex buffer offset; the frame ends when an EVENT query
// says the GPU is done. On the default adapter (the GPU, or lavapipe where
// there is none) and on the CPU adapter (WARP), batched as the device runs,
// and with D3DCAP_VULKAN_SYNC=1 (every call submitted and waited for: the
// baseline). The Queried runs keep an occlusion and a pipeline-statistics
// query around the whole frame, read at its end; the Predicated runs draw
// as occlusion culling does, each even draw inside an occlusion predicate
// that the odd draw after it is predicated on; the Discarded runs write each
// draw's constants into one dynamic buffer with Map(WRITE_DISCARD), as most
// D3D11 renderers do, instead of moving a window. The PlainVulkan runs draw
// the same frame as a native Vulkan renderer would (draw_baseline.h), plain
// and predicated: the limit each D3D11 figure is a ratio to.
#include <benchmark/benchmark.h>
#include <d3d11_2.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "draw_baseline.h"
#include "runtime/backend/backend.h"
#include "runtime/inspection.h"
#include "runtime/shader/assembler.h"

namespace {

using d3dcap::bench::kDraws;
using d3dcap::bench::kPs;
using d3dcap::bench::kVs;

struct Scene {
    ID3D11Device* device = nullptr;
    ID3D11DeviceContext1* context = nullptr;
    std::vector<IUnknown*> owned;
    ID3D11Buffer* constants = nullptr;
    ID3D11Buffer* dynamic_constants = nullptr;  // one window, rewritten per draw
    std::vector<float> windows = d3dcap::bench::constant_windows();
    ID3D11Buffer* vertices = nullptr;
    ID3D11BlendState* blends[2] = {};
    ID3D11Query* done = nullptr;
    ID3D11Query* occlusion = nullptr;
    ID3D11Query* statistics = nullptr;
    ID3D11Predicate* predicate = nullptr;

    template <class T>
    T* keep(T* object) {
        owned.push_back(object);
        return object;
    }

    Scene(D3D_DRIVER_TYPE driver, UINT flags) {
        ID3D11DeviceContext* immediate = nullptr;
        const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1;
        if (FAILED(D3D11CreateDevice(nullptr, driver, nullptr, flags, &level, 1, D3D11_SDK_VERSION,
                                     &device, nullptr, &immediate)))
            return;
        immediate->QueryInterface(__uuidof(ID3D11DeviceContext1),
                                  reinterpret_cast<void**>(&context));
        immediate->Release();
        const auto vs_code = d3dcap::runtime::shader::assemble(kVs);
        const auto ps_code = d3dcap::runtime::shader::assemble(kPs);
        ID3D11VertexShader* vs = nullptr;
        ID3D11PixelShader* ps = nullptr;
        device->CreateVertexShader(vs_code.container.data(), vs_code.container.size(), nullptr,
                                   &vs);
        device->CreatePixelShader(ps_code.container.data(), ps_code.container.size(), nullptr, &ps);
        const D3D11_INPUT_ELEMENT_DESC element{
            "POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0};
        ID3D11InputLayout* layout = nullptr;
        device->CreateInputLayout(&element, 1, vs_code.container.data(), vs_code.container.size(),
                                  &layout);
        const std::vector<float> positions = d3dcap::bench::triangle_vertices();
        const D3D11_BUFFER_DESC vb_desc{static_cast<UINT>(positions.size() * 4),
                                        D3D11_USAGE_DEFAULT,
                                        D3D11_BIND_VERTEX_BUFFER,
                                        0,
                                        0,
                                        0};
        const D3D11_SUBRESOURCE_DATA vb_data{positions.data(), 0, 0};
        device->CreateBuffer(&vb_desc, &vb_data, &vertices);
        const D3D11_BUFFER_DESC dynamic_desc{
            256, D3D11_USAGE_DYNAMIC, D3D11_BIND_CONSTANT_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0};
        device->CreateBuffer(&dynamic_desc, nullptr, &dynamic_constants);
        const D3D11_BUFFER_DESC cb_desc{static_cast<UINT>(windows.size() * 4),
                                        D3D11_USAGE_DEFAULT,
                                        D3D11_BIND_CONSTANT_BUFFER,
                                        0,
                                        0,
                                        0};
        const D3D11_SUBRESOURCE_DATA cb_data{windows.data(), 0, 0};
        device->CreateBuffer(&cb_desc, &cb_data, &constants);
        D3D11_TEXTURE2D_DESC target_desc{256,
                                         256,
                                         1,
                                         1,
                                         DXGI_FORMAT_R8G8B8A8_UNORM,
                                         {1, 0},
                                         D3D11_USAGE_DEFAULT,
                                         D3D11_BIND_RENDER_TARGET,
                                         0,
                                         0};
        ID3D11Texture2D* target = nullptr;
        device->CreateTexture2D(&target_desc, nullptr, &target);
        ID3D11RenderTargetView* rtv = nullptr;
        device->CreateRenderTargetView(target, nullptr, &rtv);
        D3D11_BLEND_DESC blend{};
        blend.RenderTarget[0].RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL;
        blend.RenderTarget[0].SrcBlend = blend.RenderTarget[0].SrcBlendAlpha = D3D11_BLEND_ONE;
        blend.RenderTarget[0].DestBlend = blend.RenderTarget[0].DestBlendAlpha = D3D11_BLEND_ZERO;
        blend.RenderTarget[0].BlendOp = blend.RenderTarget[0].BlendOpAlpha = D3D11_BLEND_OP_ADD;
        device->CreateBlendState(&blend, &blends[0]);
        blend.RenderTarget[0].BlendEnable = TRUE;
        blend.RenderTarget[0].SrcBlend = D3D11_BLEND_SRC_ALPHA;
        blend.RenderTarget[0].DestBlend = D3D11_BLEND_INV_SRC_ALPHA;
        device->CreateBlendState(&blend, &blends[1]);
        const D3D11_QUERY_DESC event{D3D11_QUERY_EVENT, 0};
        device->CreateQuery(&event, &done);
        const D3D11_QUERY_DESC occlusion_desc{D3D11_QUERY_OCCLUSION, 0},
            statistics_desc{D3D11_QUERY_PIPELINE_STATISTICS, 0};
        device->CreateQuery(&occlusion_desc, &occlusion);
        device->CreateQuery(&statistics_desc, &statistics);
        const D3D11_QUERY_DESC predicate_desc{D3D11_QUERY_OCCLUSION_PREDICATE, 0};
        device->CreatePredicate(&predicate_desc, &predicate);
        keep(vs), keep(ps), keep(layout), keep(vertices), keep(constants), keep(dynamic_constants),
            keep(target), keep(rtv), keep(blends[0]), keep(blends[1]), keep(done), keep(occlusion),
            keep(statistics), keep(predicate);
        context->IASetInputLayout(layout);
        context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        context->VSSetShader(vs, nullptr, 0);
        context->PSSetShader(ps, nullptr, 0);
        context->OMSetRenderTargets(1, &rtv, nullptr);
        const D3D11_VIEWPORT viewport{0, 0, 256, 256, 0, 1};
        context->RSSetViewports(1, &viewport);
    }

    ~Scene() {
        if (context) {
            context->ClearState();
            context->Release();
        }
        for (IUnknown* object : owned)
            if (object) object->Release();
        if (device) device->Release();
    }

    enum class Mode { Plain, Queried, Predicated, Discarded };
    void frame(Mode mode) {
        const bool queried = mode == Mode::Queried, predicated = mode == Mode::Predicated;
        if (queried) context->Begin(occlusion), context->Begin(statistics);
        if (mode == Mode::Discarded) context->VSSetConstantBuffers(0, 1, &dynamic_constants);
        for (UINT draw = 0; draw < kDraws; ++draw) {
            if (mode == Mode::Discarded) {
                D3D11_MAPPED_SUBRESOURCE mapped{};
                context->Map(dynamic_constants, 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped);
                if (mapped.pData) std::memcpy(mapped.pData, &windows[(draw % 256) * 64], 32);
                context->Unmap(dynamic_constants, 0);
            } else {
                const UINT first = (draw % 256) * 16, count = 16;
                context->VSSetConstantBuffers1(0, 1, &constants, &first, &count);
            }
            if (draw % 16 == 0) context->OMSetBlendState(blends[(draw / 16) % 2], nullptr, ~0u);
            if (draw % 64 == 0) {
                const UINT stride = 8, offset = (draw / 64) % 64 * 24;
                context->IASetVertexBuffers(0, 1, &vertices, &stride, &offset);
            }
            if (predicated && draw % 2 == 0) context->Begin(predicate);
            if (predicated && draw % 2 == 1) context->SetPredication(predicate, FALSE);
            context->Draw(3, 0);
            if (predicated && draw % 2 == 0) context->End(predicate);
            if (predicated && draw % 2 == 1) context->SetPredication(nullptr, FALSE);
        }
        if (queried) {
            context->End(occlusion), context->End(statistics);
            UINT64 samples = 0;
            D3D11_QUERY_DATA_PIPELINE_STATISTICS counts{};
            while (context->GetData(occlusion, &samples, sizeof samples, 0) == S_FALSE) {
            }
            while (context->GetData(statistics, &counts, sizeof counts, 0) == S_FALSE) {
            }
            if (counts.IAPrimitives != kDraws) std::fprintf(stderr, "wrong primitive count\n");
            return;
        }
        context->End(done);
        BOOL finished = FALSE;
        while (context->GetData(done, &finished, sizeof finished, 0) == S_FALSE) {
        }
    }
};

void run(benchmark::State& state, D3D_DRIVER_TYPE driver, bool sync = false,
         Scene::Mode mode = Scene::Mode::Plain, UINT flags = 0) {
    if (sync) setenv("D3DCAP_VULKAN_SYNC", "1", 1);
    Scene scene(driver, flags);
    unsetenv("D3DCAP_VULKAN_SYNC");
    if (scene.context == nullptr) {
        state.SkipWithError("no Vulkan device for this driver type");
        return;
    }
    // WARP falls back to the reference device where lavapipe is missing,
    // which executes no draw: no figure rather than a false one.
    const d3dcap::runtime::backend::Backend* backend =
        d3dcap::runtime::device_backend(scene.device);
    if (backend == nullptr || !backend->executes_shaders()) {
        state.SkipWithError(
            "this driver type fell back to the reference device, which executes no draw");
        return;
    }
    scene.frame(mode);  // untimed: pipelines and set layouts are made once per device
    for (auto _ : state) scene.frame(mode);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * kDraws);
    state.counters["draws/s"] = benchmark::Counter(static_cast<double>(state.iterations()) * kDraws,
                                                   benchmark::Counter::kIsRate);
}

void run_plain_vulkan(benchmark::State& state, d3dcap::bench::PlainVulkanFrame::Device device,
                      bool predicated = false) {
    d3dcap::bench::PlainVulkanFrame frame(device);
    if (!frame.error().empty()) {
        state.SkipWithError(("plain Vulkan baseline: " + frame.error()).c_str());
        return;
    }
    for (auto _ : state)
        if (!(predicated ? frame.predicated_frame() : frame.frame())) {
            state.SkipWithError(("plain Vulkan baseline: " + frame.error()).c_str());
            return;
        }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * kDraws);
    state.counters["draws/s"] = benchmark::Counter(static_cast<double>(state.iterations()) * kDraws,
                                                   benchmark::Counter::kIsRate);
}

void BM_PlainVulkanHardware(benchmark::State& state) {
    run_plain_vulkan(state, d3dcap::bench::PlainVulkanFrame::Device::Hardware);
}
void BM_PlainVulkanWarp(benchmark::State& state) {
    run_plain_vulkan(state, d3dcap::bench::PlainVulkanFrame::Device::Cpu);
}
void BM_PlainVulkanHardwarePredicated(benchmark::State& state) {
    run_plain_vulkan(state, d3dcap::bench::PlainVulkanFrame::Device::Hardware, true);
}
void BM_PlainVulkanWarpPredicated(benchmark::State& state) {
    run_plain_vulkan(state, d3dcap::bench::PlainVulkanFrame::Device::Cpu, true);
}
void BM_DrawsHardware(benchmark::State& state) {
    run(state, D3D_DRIVER_TYPE_HARDWARE);
}
void BM_DrawsWarp(benchmark::State& state) {
    run(state, D3D_DRIVER_TYPE_WARP);
}
// A device created for one thread takes no lock per call.
void BM_DrawsHardwareSingleThreaded(benchmark::State& state) {
    run(state, D3D_DRIVER_TYPE_HARDWARE, false, Scene::Mode::Plain,
        D3D11_CREATE_DEVICE_SINGLETHREADED);
}
void BM_DrawsWarpSingleThreaded(benchmark::State& state) {
    run(state, D3D_DRIVER_TYPE_WARP, false, Scene::Mode::Plain, D3D11_CREATE_DEVICE_SINGLETHREADED);
}
void BM_DrawsHardwareSync(benchmark::State& state) {
    run(state, D3D_DRIVER_TYPE_HARDWARE, true);
}
void BM_DrawsWarpSync(benchmark::State& state) {
    run(state, D3D_DRIVER_TYPE_WARP, true);
}
void BM_DrawsHardwareQueried(benchmark::State& state) {
    run(state, D3D_DRIVER_TYPE_HARDWARE, false, Scene::Mode::Queried);
}
void BM_DrawsHardwareQueriedSync(benchmark::State& state) {
    run(state, D3D_DRIVER_TYPE_HARDWARE, true, Scene::Mode::Queried);
}
void BM_DrawsHardwarePredicated(benchmark::State& state) {
    run(state, D3D_DRIVER_TYPE_HARDWARE, false, Scene::Mode::Predicated);
}
void BM_DrawsWarpPredicated(benchmark::State& state) {
    run(state, D3D_DRIVER_TYPE_WARP, false, Scene::Mode::Predicated);
}
void BM_DrawsHardwareDiscarded(benchmark::State& state) {
    run(state, D3D_DRIVER_TYPE_HARDWARE, false, Scene::Mode::Discarded);
}
void BM_DrawsWarpDiscarded(benchmark::State& state) {
    run(state, D3D_DRIVER_TYPE_WARP, false, Scene::Mode::Discarded);
}
void BM_DrawsHardwarePredicatedSync(benchmark::State& state) {
    run(state, D3D_DRIVER_TYPE_HARDWARE, true, Scene::Mode::Predicated);
}

// The limits first, so that one sitting measures both.
BENCHMARK(BM_PlainVulkanHardware)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_PlainVulkanWarp)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_PlainVulkanHardwarePredicated)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();
BENCHMARK(BM_PlainVulkanWarpPredicated)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();
BENCHMARK(BM_DrawsHardware)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_DrawsHardwareSingleThreaded)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();
BENCHMARK(BM_DrawsWarpSingleThreaded)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_DrawsHardwareSync)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_DrawsWarp)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_DrawsWarpSync)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_DrawsHardwareQueried)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_DrawsHardwareQueriedSync)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_DrawsHardwarePredicated)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_DrawsWarpPredicated)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_DrawsHardwareDiscarded)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_DrawsWarpDiscarded)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_DrawsHardwarePredicatedSync)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
