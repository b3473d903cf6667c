// immediate_ui: frames shaped like those an immediate-mode UI renderer's
// D3D11 backend draws, written against the standard Direct3D 11 API only.
// Each frame the UI's vertices and 16-bit indices are rebuilt in dynamic
// buffers (five windows that move with the frame, a few quads each), the
// context's state is saved, the UI's pipeline set, each window drawn by one
// scissored, textured DrawIndexed, the saved state put back and the frame
// presented: about 70 small calls and 5 draws a frame. The last frame is read
// back once, at the end, for a checksum.
#include <d3d11_2.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/com.h"
#include "ui_ps.h"
#include "ui_vs.h"

namespace immediate_ui {
namespace {

using namespace example;

constexpr UINT kWidth = 320, kHeight = 240;                  // the back buffer
constexpr UINT kWindows = 5, kQuads = 4, kTextureSize = 64;  // kQuads a window

// As UI renderers lay out a vertex: pixel position, texture coordinate, RGBA8 colour.
struct Vertex {
    float position[2];
    float uv[2];
    std::uint32_t colour;  // R in the low byte (R8G8B8A8_UNORM)
};

struct Options {
    UINT frames = 120;
    D3D_DRIVER_TYPE driver = D3D_DRIVER_TYPE_HARDWARE;
    std::string driver_name = "hardware";
    bool quiet = false;
};

constexpr const char* kUsage =
    "usage: immediate_ui [--frames N] [--driver hardware|warp|reference|null] [--quiet]\n"
    "  --frames N   frames to run, 1..100000 (default 120)\n"
    "  --driver D   D3D_DRIVER_TYPE_HARDWARE (default), _WARP, _REFERENCE or _NULL\n"
    "  --quiet      print the summary line only\n";

// 0: parsed; 1: bad command line; -1: --help.
int parse(int argc, char** argv, Options& options) {
    const std::string names[] = {"hardware", "warp", "reference", "null"};
    const D3D_DRIVER_TYPE types[] = {D3D_DRIVER_TYPE_HARDWARE, D3D_DRIVER_TYPE_WARP,
                                     D3D_DRIVER_TYPE_REFERENCE, D3D_DRIVER_TYPE_NULL};
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i], value = i + 1 < argc ? argv[i + 1] : "";
        if (arg == "--help" || arg == "-h") return -1;
        if (arg == "--quiet") {
            options.quiet = true;
        } else if (arg == "--frames") {
            char* end = nullptr;
            const unsigned long frames = std::strtoul(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0' || frames == 0 || frames > 100000) {
                std::fprintf(stderr, "immediate_ui: --frames needs a number from 1 to 100000\n");
                return 1;
            }
            options.frames = static_cast<UINT>(frames);
            ++i;
        } else if (arg == "--driver") {
            const auto found = std::find(std::begin(names), std::end(names), value);
            if (found == std::end(names)) {
                std::fputs("immediate_ui: --driver takes hardware, warp, reference or null\n",
                           stderr);
                return 1;
            }
            options.driver = types[found - std::begin(names)];
            options.driver_name = value;
            ++i;
        } else {
            std::fprintf(stderr, "immediate_ui: unknown argument '%s'\n", arg.c_str());
            return 1;
        }
    }
    return 0;
}

constexpr std::uint32_t rgba(std::uint32_t r, std::uint32_t g, std::uint32_t b, std::uint32_t a) {
    return r | g << 8 | b << 16 | a << 24;
}

// 0 up to `period` and back: integer motion, so that every run draws the same frames.
int triangle(UINT t, UINT period) {
    const UINT phase = t % (2 * period);
    return static_cast<int>(phase < period ? phase : 2 * period - phase);
}

// Texture 0 is like a font atlas, 8x8 "glyphs" of white with their coverage
// in alpha; texture 1 a user's colourful image. Both keep their top-left 4x4
// texels opaque white, where solid quads sample, as font atlases keep a
// white texel.
Com<ID3D11ShaderResourceView> make_texture(ID3D11Device* device, UINT which) {
    std::vector<std::uint32_t> texels(kTextureSize * kTextureSize);
    for (UINT y = 0; y < kTextureSize; ++y) {
        for (UINT x = 0; x < kTextureSize; ++x) {
            const std::uint32_t glyph = (x / 8 + y / 8 * 8 + 1) * 2654435761u;
            const bool ink =
                x % 8 < 6 && y % 8 < 7 && (glyph >> (y % 8 / 2 * 3 + x % 8 / 2 + 8) & 1);
            std::uint32_t& texel = texels[y * kTextureSize + x];
            texel = which == 0 ? rgba(255, 255, 255, ink ? 255 : 0)
                               : rgba(x * 4, y * 4, (x / 8 + y / 8) % 2 ? 255 : 64, 255);
            if (x < 4 && y < 4) texel = rgba(255, 255, 255, 255);
        }
    }
    D3D11_TEXTURE2D_DESC desc{};
    desc.Width = desc.Height = kTextureSize;
    desc.MipLevels = desc.ArraySize = desc.SampleDesc.Count = 1;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.Usage = D3D11_USAGE_IMMUTABLE;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    const D3D11_SUBRESOURCE_DATA data{texels.data(), kTextureSize * 4, 0};
    Com<ID3D11Texture2D> texture;
    Com<ID3D11ShaderResourceView> view;
    check(device->CreateTexture2D(&desc, &data, texture.put()), "CreateTexture2D");
    name(texture.get(), which == 0 ? "font_atlas" : "user_image");
    check(device->CreateShaderResourceView(texture.get(), nullptr, view.put()),
          "CreateShaderResourceView");
    return view;
}

Com<ID3D11Buffer> make_dynamic(ID3D11Device* device, UINT bytes, UINT bind) {
    const D3D11_BUFFER_DESC desc{bytes, D3D11_USAGE_DYNAMIC, bind, D3D11_CPU_ACCESS_WRITE, 0, 0};
    Com<ID3D11Buffer> buffer;
    check(device->CreateBuffer(&desc, nullptr, buffer.put()), "CreateBuffer");
    return buffer;
}

// One window's quads: panel, title bar, a line of "text" longer than the
// window (its clip rect cuts it) and a slider's knob. Its vertices count from
// 0, as a UI's per-window lists do; its draw adds a base vertex.
D3D11_RECT build_window(UINT window, UINT frame, Vertex* vertices, std::uint16_t* indices) {
    const float x = static_cast<float>(8 + 40 * window + triangle(frame * 2 + 23 * window, 40));
    const float y = static_cast<float>(8 + 30 * window + triangle(frame + 11 * window, 20));
    const float w = 112, h = 80, knob = static_cast<float>(triangle(frame * 3 + 7 * window, 40));
    const float white = 2.0f / kTextureSize;  // inside the white 4x4 texels
    const std::uint32_t tint = rgba(80 + 35 * window, 200 - 30 * window, 160, 255),
                        amber = rgba(255, 200, 60, 255);
    const struct {
        float x0, y0, x1, y1, u0, v0, u1, v1;
        std::uint32_t colour;
    } quads[kQuads] = {
        {x, y, x + w, y + h, white, white, white, white, rgba(30, 30, 40, 220)},
        {x, y, x + w, y + 14, white, white, white, white, tint},
        {x + 4, y + 20, x + w + 40, y + 52, 0.0625f, 0.0625f, 1, 0.5f, rgba(255, 255, 255, 255)},
        {x + 8 + knob, y + 60, x + 24 + knob, y + 74, white, white, white, white, amber}};
    for (UINT q = 0; q < kQuads; ++q) {
        const auto& s = quads[q];
        *vertices++ = {{s.x0, s.y0}, {s.u0, s.v0}, s.colour};
        *vertices++ = {{s.x1, s.y0}, {s.u1, s.v0}, s.colour};
        *vertices++ = {{s.x1, s.y1}, {s.u1, s.v1}, s.colour};
        *vertices++ = {{s.x0, s.y1}, {s.u0, s.v1}, s.colour};
        for (const UINT corner : {0, 1, 2, 0, 2, 3})
            *indices++ = static_cast<std::uint16_t>(q * 4 + corner);
    }
    // Inside the window and the back buffer.
    return {static_cast<LONG>(x) + 2, static_cast<LONG>(y) + 2,
            std::min<LONG>(static_cast<LONG>(x + w) - 2, kWidth),
            std::min<LONG>(static_cast<LONG>(y + h) - 2, kHeight)};
}

// The context state the UI pass changes, saved before it and put back after
// it, so that the application's own rendering finds its state. The Get calls
// add references, which the Com members release.
struct SavedState {
    static constexpr UINT kMax = D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE;
    UINT scissor_count = kMax, viewport_count = kMax;
    D3D11_RECT scissors[kMax]{};
    D3D11_VIEWPORT viewports[kMax]{};
    Com<ID3D11RasterizerState> rasterizer;
    Com<ID3D11BlendState> blend;
    FLOAT blend_factor[4]{};
    UINT sample_mask = 0, stencil_ref = 0, index_offset = 0, stride = 0, offset = 0;
    Com<ID3D11DepthStencilState> depth_stencil;
    Com<ID3D11ShaderResourceView> texture;
    Com<ID3D11SamplerState> sampler;
    Com<ID3D11PixelShader> pixel_shader;
    Com<ID3D11VertexShader> vertex_shader;
    Com<ID3D11GeometryShader> geometry_shader;
    Com<ID3D11Buffer> constants, index_buffer, vertex_buffer;
    D3D11_PRIMITIVE_TOPOLOGY topology{};
    DXGI_FORMAT index_format{};
    Com<ID3D11InputLayout> layout;

    void save(ID3D11DeviceContext* c) {
        c->RSGetScissorRects(&scissor_count, scissors);
        c->RSGetViewports(&viewport_count, viewports);
        c->RSGetState(rasterizer.put());
        c->OMGetBlendState(blend.put(), blend_factor, &sample_mask);
        c->OMGetDepthStencilState(depth_stencil.put(), &stencil_ref);
        c->PSGetShaderResources(0, 1, texture.put());
        c->PSGetSamplers(0, 1, sampler.put());
        c->PSGetShader(pixel_shader.put(), nullptr, nullptr);
        c->VSGetShader(vertex_shader.put(), nullptr, nullptr);
        c->GSGetShader(geometry_shader.put(), nullptr, nullptr);
        c->VSGetConstantBuffers(0, 1, constants.put());
        c->IAGetPrimitiveTopology(&topology);
        c->IAGetIndexBuffer(index_buffer.put(), &index_format, &index_offset);
        c->IAGetVertexBuffers(0, 1, vertex_buffer.put(), &stride, &offset);
        c->IAGetInputLayout(layout.put());
    }

    void restore(ID3D11DeviceContext* c) {
        ID3D11ShaderResourceView* const views[] = {texture.get()};
        ID3D11SamplerState* const samplers[] = {sampler.get()};
        ID3D11Buffer* const buffers[] = {constants.get(), vertex_buffer.get()};
        c->RSSetScissorRects(scissor_count, scissors);
        c->RSSetViewports(viewport_count, viewports);
        c->RSSetState(rasterizer.get());
        c->OMSetBlendState(blend.get(), blend_factor, sample_mask);
        c->OMSetDepthStencilState(depth_stencil.get(), stencil_ref);
        c->PSSetShaderResources(0, 1, views);
        c->PSSetSamplers(0, 1, samplers);
        c->PSSetShader(pixel_shader.get(), nullptr, 0);
        c->VSSetShader(vertex_shader.get(), nullptr, 0);
        c->GSSetShader(geometry_shader.get(), nullptr, 0);
        c->VSSetConstantBuffers(0, 1, &buffers[0]);
        c->IASetPrimitiveTopology(topology);
        c->IASetIndexBuffer(index_buffer.get(), index_format, index_offset);
        c->IASetVertexBuffers(0, 1, &buffers[1], &stride, &offset);
        c->IASetInputLayout(layout.get());
    }
};

// Runs the frames; `summary` gets the last line, printed once every object
// has been released.
int run(const Options& options, std::string& summary) {
    // Headless: no window; the runtime's swap chain keeps its buffers as textures.
    DXGI_SWAP_CHAIN_DESC chain{};
    chain.BufferDesc.Width = kWidth;
    chain.BufferDesc.Height = kHeight;
    chain.BufferDesc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    chain.SampleDesc.Count = 1;
    chain.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
    chain.BufferCount = 1;
    chain.Windowed = TRUE;
    chain.SwapEffect = DXGI_SWAP_EFFECT_DISCARD;
    const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_0;
    Com<IDXGISwapChain> swap_chain;
    Com<ID3D11Device> device;
    Com<ID3D11DeviceContext> context;
    check(D3D11CreateDeviceAndSwapChain(nullptr, options.driver, nullptr, 0, &level, 1,
                                        D3D11_SDK_VERSION, &chain, swap_chain.put(), device.put(),
                                        nullptr, context.put()),
          "D3D11CreateDeviceAndSwapChain");
    Com<ID3D11Texture2D> back_buffer;
    Com<ID3D11RenderTargetView> target;
    check(swap_chain->GetBuffer(0, __uuidof(ID3D11Texture2D), back_buffer.put_void()), "GetBuffer");
    check(device->CreateRenderTargetView(back_buffer.get(), nullptr, target.put()),
          "CreateRenderTargetView");

    Com<ID3D11VertexShader> vs;
    Com<ID3D11PixelShader> ps;
    Com<ID3D11InputLayout> layout;
    check(device->CreateVertexShader(k_ui_vs, sizeof k_ui_vs, nullptr, vs.put()),
          "CreateVertexShader");
    check(device->CreatePixelShader(k_ui_ps, sizeof k_ui_ps, nullptr, ps.put()),
          "CreatePixelShader");
    const D3D11_INPUT_ELEMENT_DESC elements[] = {
        {"POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
        {"TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 8, D3D11_INPUT_PER_VERTEX_DATA, 0},
        {"COLOR", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 0, 16, D3D11_INPUT_PER_VERTEX_DATA, 0}};
    check(device->CreateInputLayout(elements, 3, k_ui_vs, sizeof k_ui_vs, layout.put()),
          "CreateInputLayout");
    const Com<ID3D11Buffer> vertex_buffer = make_dynamic(
        device.get(), kWindows * kQuads * 4 * sizeof(Vertex), D3D11_BIND_VERTEX_BUFFER);
    const Com<ID3D11Buffer> index_buffer =
        make_dynamic(device.get(), kWindows * kQuads * 6 * 2, D3D11_BIND_INDEX_BUFFER);
    const Com<ID3D11Buffer> constants = make_dynamic(device.get(), 64, D3D11_BIND_CONSTANT_BUFFER);
    const Com<ID3D11ShaderResourceView> textures[2] = {make_texture(device.get(), 0),
                                                       make_texture(device.get(), 1)};

    // A UI's state: alpha blending, no depth test, scissor on, no culling.
    D3D11_BLEND_DESC blend_desc{};
    D3D11_RENDER_TARGET_BLEND_DESC& rt = blend_desc.RenderTarget[0];
    rt.BlendEnable = TRUE;
    rt.SrcBlend = D3D11_BLEND_SRC_ALPHA;
    rt.DestBlend = rt.DestBlendAlpha = D3D11_BLEND_INV_SRC_ALPHA;
    rt.BlendOp = rt.BlendOpAlpha = D3D11_BLEND_OP_ADD;
    rt.SrcBlendAlpha = D3D11_BLEND_ONE;
    rt.RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL;
    const D3D11_DEPTH_STENCILOP_DESC keep{D3D11_STENCIL_OP_KEEP, D3D11_STENCIL_OP_KEEP,
                                          D3D11_STENCIL_OP_KEEP, D3D11_COMPARISON_ALWAYS};
    const D3D11_DEPTH_STENCIL_DESC depth_desc{
        FALSE, D3D11_DEPTH_WRITE_MASK_ALL, D3D11_COMPARISON_ALWAYS, FALSE, 0, 0, keep, keep};
    const D3D11_RASTERIZER_DESC raster_desc{
        D3D11_FILL_SOLID, D3D11_CULL_NONE, FALSE, 0, 0, 0, TRUE, TRUE, FALSE, FALSE};
    D3D11_SAMPLER_DESC sampler_desc{};
    sampler_desc.Filter = D3D11_FILTER_MIN_MAG_MIP_LINEAR;
    sampler_desc.AddressU = sampler_desc.AddressV = sampler_desc.AddressW =
        D3D11_TEXTURE_ADDRESS_WRAP;
    sampler_desc.ComparisonFunc = D3D11_COMPARISON_ALWAYS;
    Com<ID3D11BlendState> blend;
    Com<ID3D11DepthStencilState> depth;
    Com<ID3D11RasterizerState> rasterizer;
    Com<ID3D11SamplerState> sampler;
    check(device->CreateBlendState(&blend_desc, blend.put()), "CreateBlendState");
    check(device->CreateDepthStencilState(&depth_desc, depth.put()), "CreateDepthStencilState");
    check(device->CreateRasterizerState(&raster_desc, rasterizer.put()), "CreateRasterizerState");
    check(device->CreateSamplerState(&sampler_desc, sampler.put()), "CreateSamplerState");

    const float blend_factor[4] = {0, 0, 0, 0}, clear[4] = {0.45f, 0.55f, 0.60f, 1};
    const UINT stride = sizeof(Vertex), offset = 0;
    const D3D11_VIEWPORT viewport{0, 0, kWidth, kHeight, 0, 1};
    // Pixels to clip space, (x / W * 2 - 1, 1 - y / H * 2): rows the vertex
    // shader weights by x, y, 0 and 1.
    const float projection[4][4] = {
        {2.0f / kWidth, 0, 0, 0}, {0, -2.0f / kHeight, 0, 0}, {0, 0, 0.5f, 0}, {-1, 1, 0.5f, 1}};
    ID3D11RenderTargetView* const targets[] = {target.get()};
    ID3D11Buffer* const buffers[] = {vertex_buffer.get(), constants.get()};
    ID3D11SamplerState* const samplers[] = {sampler.get()};
    auto map = [&](ID3D11Resource* resource, D3D11_MAP how) {
        D3D11_MAPPED_SUBRESOURCE mapped{};
        check(context->Map(resource, 0, how, 0, &mapped), "Map");
        return mapped;
    };
    for (UINT frame = 0; frame < options.frames; ++frame) {
        auto* vertices =
            static_cast<Vertex*>(map(vertex_buffer.get(), D3D11_MAP_WRITE_DISCARD).pData);
        auto* indices =
            static_cast<std::uint16_t*>(map(index_buffer.get(), D3D11_MAP_WRITE_DISCARD).pData);
        D3D11_RECT clips[kWindows];
        for (UINT w = 0; w < kWindows; ++w)
            clips[w] = build_window(w, frame, vertices + w * kQuads * 4, indices + w * kQuads * 6);
        context->Unmap(vertex_buffer.get(), 0);
        context->Unmap(index_buffer.get(), 0);
        std::memcpy(map(constants.get(), D3D11_MAP_WRITE_DISCARD).pData, projection,
                    sizeof projection);
        context->Unmap(constants.get(), 0);

        SavedState saved;
        saved.save(context.get());
        context->OMSetRenderTargets(1, targets, nullptr);
        context->ClearRenderTargetView(target.get(), clear);
        context->RSSetViewports(1, &viewport);
        context->IASetInputLayout(layout.get());
        context->IASetVertexBuffers(0, 1, &buffers[0], &stride, &offset);
        context->IASetIndexBuffer(index_buffer.get(), DXGI_FORMAT_R16_UINT, 0);
        context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        context->VSSetShader(vs.get(), nullptr, 0);
        context->VSSetConstantBuffers(0, 1, &buffers[1]);
        context->PSSetShader(ps.get(), nullptr, 0);
        context->PSSetSamplers(0, 1, samplers);
        context->GSSetShader(nullptr, nullptr, 0);
        context->OMSetBlendState(blend.get(), blend_factor, 0xffffffffu);
        context->OMSetDepthStencilState(depth.get(), 0);
        context->RSSetState(rasterizer.get());
        // A draw a window, clipped to it; windows alternate between the atlas
        // and the user's image, as a UI showing images does.
        for (UINT w = 0; w < kWindows; ++w) {
            ID3D11ShaderResourceView* const views[] = {textures[w % 2].get()};
            context->RSSetScissorRects(1, &clips[w]);
            context->PSSetShaderResources(0, 1, views);
            context->DrawIndexed(kQuads * 6, w * kQuads * 6, static_cast<INT>(w * kQuads * 4));
        }
        saved.restore(context.get());
        check(swap_chain->Present(1, 0), "Present");
        if (!options.quiet)
            std::printf("frame %u: %u windows, the first clipped at (%ld, %ld)\n", frame, kWindows,
                        static_cast<long>(clips[0].left), static_cast<long>(clips[0].top));
    }

    // The last frame, read back once.
    D3D11_TEXTURE2D_DESC staging_desc{};
    back_buffer->GetDesc(&staging_desc);
    staging_desc.Usage = D3D11_USAGE_STAGING;
    staging_desc.BindFlags = 0;
    staging_desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    Com<ID3D11Texture2D> staging;
    check(device->CreateTexture2D(&staging_desc, nullptr, staging.put()), "CreateTexture2D");
    context->CopyResource(staging.get(), back_buffer.get());
    const D3D11_MAPPED_SUBRESOURCE mapped = map(staging.get(), D3D11_MAP_READ);
    const auto* texels = static_cast<const std::uint8_t*>(mapped.pData);
    std::uint32_t checksum = 0x811c9dc5u;  // FNV-1a of the rows' texels
    for (UINT y = 0; y < kHeight; ++y)
        for (UINT x = 0; x < kWidth * 4; ++x)
            checksum = (checksum ^ texels[y * mapped.RowPitch + x]) * 16777619u;
    context->Unmap(staging.get(), 0);

    char line[160];
    std::snprintf(line, sizeof line,
                  "summary: %u frames on the %s device, %u draws a frame, checksum 0x%08x\n",
                  options.frames, options.driver_name.c_str(), kWindows, checksum);
    summary = line;
    context->ClearState();
    context->Flush();
    return 0;
}

}  // namespace
}  // namespace immediate_ui

int main(int argc, char** argv) {
    using namespace immediate_ui;
    Options options;
    const int parsed = parse(argc, argv, options);
    if (parsed != 0) {
        std::fputs(kUsage, parsed < 0 ? stdout : stderr);
        return parsed < 0 ? 0 : 1;
    }
    return example::run_and_report("immediate_ui",
                                   [&](std::string& summary) { return run(options, summary); });
}
