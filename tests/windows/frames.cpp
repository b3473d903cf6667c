// A Windows D3D11.1 program as applications are written, for capture under
// Wine: it draws with shaders of the project's assembler, updates constant
// buffers with UpdateSubresource1 and binds windows of them with
// *SetConstantBuffers1, clears with ClearView, copies with
// CopySubresourceRegion1, maps, records command lists on deferred contexts
// from two threads, annotates, and presents to a swap chain on a window.
// It prints what the device gives it and what it rendered, so that a run
// with the capture layer can be compared with one without.
#include <d3d11_2.h>
#include <windows.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "common/com.h"
#include "tint_ps.h"
#include "triangle_vs.h"

namespace {

using example::check;
using example::Com;
using example::Failure;
using example::name;

constexpr UINT kSize = 64;
constexpr int kFrames = 3;
constexpr float kClear[4] = {0.125f, 0.25f, 0.5f, 1.0f};

struct Vertex {
    float position[2];
    float colour[4];
};

// Two windows of 16 constants; the pixel shader reads the tint at the start
// of the window it is given.
struct Tints {
    float first[16][4];
    float second[16][4];
};

HWND make_window() {
    WNDCLASSW window_class{};
    window_class.lpfnWndProc = DefWindowProcW;
    window_class.hInstance = GetModuleHandleW(nullptr);
    window_class.lpszClassName = L"d3dcap_frames";
    RegisterClassW(&window_class);
    HWND window = CreateWindowExW(0, L"d3dcap_frames", L"d3dcap frames", WS_OVERLAPPEDWINDOW, 0, 0,
                                  kSize, kSize, nullptr, nullptr, window_class.hInstance, nullptr);
    if (window == nullptr) throw Failure("CreateWindowExW", HRESULT_FROM_WIN32(GetLastError()));
    return window;
}

const char* level_name(D3D_FEATURE_LEVEL level) {
    switch (level) {
        case D3D_FEATURE_LEVEL_11_1:
            return "11_1";
        case D3D_FEATURE_LEVEL_11_0:
            return "11_0";
        case D3D_FEATURE_LEVEL_10_1:
            return "10_1";
        case D3D_FEATURE_LEVEL_10_0:
            return "10_0";
        default:
            return "below 10_0";
    }
}

class Frames {
  public:
    explicit Frames(HWND window) {
        DXGI_SWAP_CHAIN_DESC chain{};
        chain.BufferDesc.Width = chain.BufferDesc.Height = kSize;
        chain.BufferDesc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        chain.SampleDesc.Count = 1;
        chain.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
        chain.BufferCount = 1;
        chain.OutputWindow = window;
        chain.Windowed = TRUE;
        chain.SwapEffect = DXGI_SWAP_EFFECT_DISCARD;
        const D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_11_0};
        check(D3D11CreateDeviceAndSwapChain(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, levels,
                                            2, D3D11_SDK_VERSION, &chain, swap_chain_.put(),
                                            device_.put(), &level_, immediate_.put()),
              "D3D11CreateDeviceAndSwapChain");
        check(immediate_->QueryInterface(__uuidof(ID3D11DeviceContext1), context_.put_void()),
              "QueryInterface(ID3D11DeviceContext1)");
        check(
            immediate_->QueryInterface(__uuidof(ID3DUserDefinedAnnotation), annotation_.put_void()),
            "QueryInterface(ID3DUserDefinedAnnotation)");
    }

    // What the device offers: the same with the capture layer as without.
    std::string describe() {
        Com<ID3D11DeviceContext2> context2;
        const HRESULT qi2 =
            immediate_->QueryInterface(__uuidof(ID3D11DeviceContext2), context2.put_void());
        D3D11_FEATURE_DATA_D3D11_OPTIONS1 options1{};
        const HRESULT options =
            device_->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS1, &options1, sizeof options1);
        char text[256];
        std::snprintf(
            text, sizeof text,
            "feature level %s, ID3D11DeviceContext2 %s, tiled resources tier %s\n",
            level_name(level_), qi2 == E_NOINTERFACE ? "E_NOINTERFACE" : "present",
            SUCCEEDED(options) ? std::to_string(options1.TiledResourcesTier).c_str() : "unknown");
        return text;
    }

    void create_resources() {
        D3D11_TEXTURE2D_DESC target_desc{};
        target_desc.Width = target_desc.Height = kSize;
        target_desc.MipLevels = target_desc.ArraySize = 1;
        target_desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        target_desc.SampleDesc.Count = 1;
        target_desc.BindFlags = D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE;
        check(device_->CreateTexture2D(&target_desc, nullptr, target_.put()), "CreateTexture2D");
        check(device_->CreateRenderTargetView(target_.get(), nullptr, target_view_.put()),
              "CreateRenderTargetView");
        name(target_.get(), "scene");
        // ClearView's target (Wine 8's ClearView does nothing: kept apart
        // from the scene, whose contents replay checks).
        check(device_->CreateTexture2D(&target_desc, nullptr, band_.put()),
              "CreateTexture2D (band)");
        check(device_->CreateRenderTargetView(band_.get(), nullptr, band_view_.put()),
              "CreateRenderTargetView (band)");
        name(band_.get(), "band");
        D3D11_TEXTURE2D_DESC staging_desc = target_desc;
        staging_desc.Usage = D3D11_USAGE_STAGING;
        staging_desc.BindFlags = 0;
        staging_desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
        check(device_->CreateTexture2D(&staging_desc, nullptr, staging_.put()),
              "CreateTexture2D (staging)");

        D3D11_BUFFER_DESC vertex_desc{};
        vertex_desc.ByteWidth = 3 * sizeof(Vertex);
        vertex_desc.Usage = D3D11_USAGE_DYNAMIC;
        vertex_desc.BindFlags = D3D11_BIND_VERTEX_BUFFER;
        vertex_desc.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
        check(device_->CreateBuffer(&vertex_desc, nullptr, vertices_.put()),
              "CreateBuffer (vertices)");
        D3D11_BUFFER_DESC tint_desc{};
        tint_desc.ByteWidth = sizeof(Tints);
        tint_desc.BindFlags = D3D11_BIND_CONSTANT_BUFFER;
        check(device_->CreateBuffer(&tint_desc, nullptr, tints_.put()), "CreateBuffer (tints)");

        check(device_->CreateVertexShader(k_triangle_vs, sizeof k_triangle_vs, nullptr,
                                          vertex_shader_.put()),
              "CreateVertexShader");
        check(device_->CreatePixelShader(k_tint_ps, sizeof k_tint_ps, nullptr, pixel_shader_.put()),
              "CreatePixelShader");
        const D3D11_INPUT_ELEMENT_DESC elements[] = {
            {"POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
            {"COLOR", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 8, D3D11_INPUT_PER_VERTEX_DATA, 0}};
        check(device_->CreateInputLayout(elements, 2, k_triangle_vs, sizeof k_triangle_vs,
                                         layout_.put()),
              "CreateInputLayout");
    }

    // One frame; returns the pixel checksum of what it rendered.
    std::uint32_t frame(int index) {
        const bool annotate = annotation_->GetStatus() != FALSE;
        if (annotate) annotation_->BeginEvent(L"frame");
        update_vertices(index);
        Tints tints{};
        tints.first[0][0] = tints.first[0][1] = tints.first[0][2] = tints.first[0][3] = 1.0f;
        tints.second[0][0] = 0.5f;
        tints.second[0][1] = 1.0f;
        tints.second[0][2] = 0.25f * static_cast<float>(index);
        tints.second[0][3] = 1.0f;
        context_->UpdateSubresource1(tints_.get(), 0, nullptr, &tints, 0, 0, 0);

        context_->ClearRenderTargetView(target_view_.get(), kClear);
        // A band across the top, of the frame's own colour.
        const float band[4] = {0.0f, 0.2f * static_cast<float>(index + 1), 0.0f, 1.0f};
        const D3D11_RECT band_rect = {0, 0, static_cast<LONG>(kSize), 8};
        context_->ClearView(band_view_.get(), band, &band_rect, 1);
        // A label beyond the BMP: UTF-16 surrogate pairs on Windows.
        if (annotate) annotation_->SetMarker(L"cleared \U0001F7E9");

        // The triangle is drawn by command lists recorded on two threads:
        // the left half with the first window's tint, the right half with
        // the second's.
        Com<ID3D11CommandList> lists[2];
        std::thread recorders[2];
        HRESULT recorded[2] = {E_FAIL, E_FAIL};
        for (int half = 0; half < 2; ++half)
            recorders[half] =
                std::thread([&, half] { recorded[half] = record_half(half, lists[half].put()); });
        for (std::thread& recorder : recorders) recorder.join();
        for (int half = 0; half < 2; ++half) {
            check(recorded[half], "recording a command list");
            context_->ExecuteCommandList(lists[half].get(), FALSE);
        }

        const D3D11_BOX whole = {0, 0, 0, kSize, kSize, 1};
        context_->CopySubresourceRegion1(staging_.get(), 0, 0, 0, 0, target_.get(), 0, &whole, 0);
        Com<ID3D11Texture2D> back_buffer;
        check(swap_chain_->GetBuffer(0, __uuidof(ID3D11Texture2D), back_buffer.put_void()),
              "IDXGISwapChain::GetBuffer");
        context_->CopyResource(back_buffer.get(), target_.get());
        const std::uint32_t checksum = read_back(index);
        if (annotate) annotation_->EndEvent();
        check(swap_chain_->Present(0, 0), "IDXGISwapChain::Present");
        return checksum;
    }

    std::string pixels;

  private:
    void update_vertices(int index) {
        D3D11_MAPPED_SUBRESOURCE mapped{};
        check(context_->Map(vertices_.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped),
              "Map (vertices)");
        const float top = 0.75f - 0.125f * static_cast<float>(index);
        const Vertex triangle[3] = {{{-0.75f, -0.75f}, {1.0f, 0.0f, 0.0f, 1.0f}},
                                    {{0.0f, top}, {0.0f, 1.0f, 0.0f, 1.0f}},
                                    {{0.75f, -0.75f}, {0.0f, 0.0f, 1.0f, 1.0f}}};
        std::memcpy(mapped.pData, triangle, sizeof triangle);
        context_->Unmap(vertices_.get(), 0);
    }

    HRESULT record_half(int half, ID3D11CommandList** list) {
        Com<ID3D11DeviceContext> deferred;
        HRESULT hr = device_->CreateDeferredContext(0, deferred.put());
        if (FAILED(hr)) return hr;
        Com<ID3D11DeviceContext1> deferred1;
        hr = deferred->QueryInterface(__uuidof(ID3D11DeviceContext1), deferred1.put_void());
        if (FAILED(hr)) return hr;
        ID3D11RenderTargetView* target = target_view_.get();
        deferred1->OMSetRenderTargets(1, &target, nullptr);
        const D3D11_VIEWPORT viewport = {0, 0, static_cast<float>(kSize), static_cast<float>(kSize),
                                         0, 1};
        deferred1->RSSetViewports(1, &viewport);
        const D3D11_RECT scissor = {
            half == 0 ? 0 : static_cast<LONG>(kSize / 2), 0,
            half == 0 ? static_cast<LONG>(kSize / 2) : static_cast<LONG>(kSize),
            static_cast<LONG>(kSize)};
        D3D11_RASTERIZER_DESC rasterizer_desc{};
        rasterizer_desc.FillMode = D3D11_FILL_SOLID;
        rasterizer_desc.CullMode = D3D11_CULL_NONE;
        rasterizer_desc.DepthClipEnable = TRUE;
        rasterizer_desc.ScissorEnable = TRUE;
        Com<ID3D11RasterizerState> rasterizer;
        hr = device_->CreateRasterizerState(&rasterizer_desc, rasterizer.put());
        if (FAILED(hr)) return hr;
        deferred1->RSSetState(rasterizer.get());
        deferred1->RSSetScissorRects(1, &scissor);
        deferred1->IASetInputLayout(layout_.get());
        deferred1->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        ID3D11Buffer* vertices = vertices_.get();
        const UINT stride = sizeof(Vertex);
        const UINT offset = 0;
        deferred1->IASetVertexBuffers(0, 1, &vertices, &stride, &offset);
        deferred1->VSSetShader(vertex_shader_.get(), nullptr, 0);
        deferred1->PSSetShader(pixel_shader_.get(), nullptr, 0);
        ID3D11Buffer* tints = tints_.get();
        const UINT first_constant = half == 0 ? 0 : 16;
        const UINT constants = 16;
        deferred1->PSSetConstantBuffers1(0, 1, &tints, &first_constant, &constants);
        deferred1->Draw(3, 0);
        return deferred1->FinishCommandList(FALSE, list);
    }

    std::uint32_t read_back(int index) {
        D3D11_MAPPED_SUBRESOURCE mapped{};
        check(context_->Map(staging_.get(), 0, D3D11_MAP_READ, 0, &mapped), "Map (staging)");
        std::uint32_t checksum = 2166136261u;  // FNV-1a of the rows
        for (UINT y = 0; y < kSize; ++y) {
            const auto* row = static_cast<const unsigned char*>(mapped.pData) + y * mapped.RowPitch;
            for (UINT x = 0; x < 4 * kSize; ++x) checksum = (checksum ^ row[x]) * 16777619u;
        }
        const auto pixel = [&](UINT x, UINT y) {
            const auto* p =
                static_cast<const unsigned char*>(mapped.pData) + y * mapped.RowPitch + 4 * x;
            char text[40];
            std::snprintf(text, sizeof text, "%u,%u,%u,%u", p[0], p[1], p[2], p[3]);
            return std::string(text);
        };
        pixels += "frame " + std::to_string(index) + ": clear " + pixel(2, 60) + ", left " +
                  pixel(24, 44) + ", right " + pixel(40, 44) + "\n";
        context_->Unmap(staging_.get(), 0);
        return checksum;
    }

    Com<IDXGISwapChain> swap_chain_;
    Com<ID3D11Device> device_;
    Com<ID3D11DeviceContext> immediate_;
    Com<ID3D11DeviceContext1> context_;
    Com<ID3DUserDefinedAnnotation> annotation_;
    D3D_FEATURE_LEVEL level_{};
    Com<ID3D11Texture2D> target_;
    Com<ID3D11RenderTargetView> target_view_;
    Com<ID3D11Texture2D> band_;
    Com<ID3D11RenderTargetView> band_view_;
    Com<ID3D11Texture2D> staging_;
    Com<ID3D11Buffer> vertices_;
    Com<ID3D11Buffer> tints_;
    Com<ID3D11VertexShader> vertex_shader_;
    Com<ID3D11PixelShader> pixel_shader_;
    Com<ID3D11InputLayout> layout_;
};

}  // namespace

int main() {
    return example::run_and_report("frames", [](std::string& summary) {
        HWND window = make_window();
        std::uint32_t checksum = 0;
        {
            Frames frames(window);
            summary = frames.describe();
            frames.create_resources();
            for (int index = 0; index < kFrames; ++index) checksum ^= frames.frame(index);
            summary += frames.pixels;
        }
        DestroyWindow(window);
        char line[64];
        std::snprintf(line, sizeof line, "summary: %d frames, checksum 0x%08x\n", kFrames,
                      static_cast<unsigned>(checksum));
        summary += line;
        return 0;
    });
}
