// stages: a small program that runs the pipeline stages the tiled_streaming
// example does not, written against the standard Direct3D 11 API only. Each
// frame, particles move on the GPU (a vertex shader streamed out through a
// geometry shader made of its bytecode, not rasterized, from the previous
// frame's stream-output buffer by DrawAuto), a ground patch is tessellated
// more finely each frame (hull and domain shaders, a wave from a constant
// buffer), and the particles are drawn as squares a geometry shader makes
// of each point, again by DrawAuto, all into a 4x MSAA target resolved into
// the back buffer. SO statistics and pipeline-statistics queries count the
// particles streamed and the triangles tessellated; the picture is read back
// for a checksum and presented.
#include <d3d11_2.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "colour_ps.h"
#include "common/com.h"
#include "ground_ds.h"
#include "ground_hs.h"
#include "ground_vs.h"
#include "particle_gs.h"
#include "particle_move_vs.h"
#include "particle_vs.h"

namespace stages {
namespace {

using namespace example;

constexpr UINT kSize = 64;  // the back buffer's width and height
constexpr UINT kParticles = 64;

struct Particle {
    float position[4];
    float velocity[4];  // x, y; z is the hue
};

struct Constants {
    float time_step, tess_factor, phase, unused;
};

struct Options {
    UINT frames = 6;
    D3D_DRIVER_TYPE driver = D3D_DRIVER_TYPE_HARDWARE;
    const char* driver_name = "hardware";
    bool quiet = false;
};

constexpr const char* kUsage =
    "usage: stages [--frames N] [--driver hardware|warp|reference|null] [--quiet]\n"
    "  --frames N   frames to run, 1..64 (default 6)\n"
    "  --driver D   D3D_DRIVER_TYPE_HARDWARE (default), _WARP, _REFERENCE or _NULL\n"
    "  --quiet      print the summary line only\n";

// 0: parsed; 1: bad command line; -1: --help.
int parse(int argc, char** argv, Options& options) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
        if (arg == "--help" || arg == "-h") return -1;
        if (arg == "--quiet") {
            options.quiet = true;
        } else if (arg == "--frames") {
            char* end = nullptr;
            const unsigned long frames = value ? std::strtoul(value, &end, 10) : 0;
            if (!value || *end != '\0' || frames == 0 || frames > 64) {
                std::fprintf(stderr, "stages: --frames needs a number from 1 to 64\n");
                return 1;
            }
            options.frames = static_cast<UINT>(frames);
            ++i;
        } else if (arg == "--driver") {
            const std::string name = value ? value : "";
            if (name == "hardware") {
                options.driver = D3D_DRIVER_TYPE_HARDWARE;
            } else if (name == "warp") {
                options.driver = D3D_DRIVER_TYPE_WARP;
            } else if (name == "reference") {
                options.driver = D3D_DRIVER_TYPE_REFERENCE;
            } else if (name == "null") {
                options.driver = D3D_DRIVER_TYPE_NULL;
            } else {
                std::fprintf(stderr, "stages: --driver takes hardware, warp, reference or null\n");
                return 1;
            }
            options.driver_name = value;
            ++i;
        } else {
            std::fprintf(stderr, "stages: unknown argument '%s'\n", arg.c_str());
            return 1;
        }
    }
    return 0;
}

// The same particles on every run: a linear congruential generator.
std::vector<Particle> first_particles() {
    std::uint32_t state = 12345;
    auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return static_cast<float>(state >> 8) / static_cast<float>(1u << 24);  // [0, 1)
    };
    std::vector<Particle> particles(kParticles);
    for (Particle& p : particles) {
        p.position[0] = next() * 2 - 1;
        p.position[1] = next() * 2 - 1;
        p.position[2] = 0.5f;
        p.position[3] = 1;
        p.velocity[0] = next() - 0.5f;
        p.velocity[1] = next() - 0.5f;
        p.velocity[2] = next();
        p.velocity[3] = 0;
    }
    return particles;
}

std::uint32_t fnv1a(const void* data, std::size_t size, std::uint32_t hash) {
    for (std::size_t i = 0; i < size; ++i) {
        hash ^= static_cast<const std::uint8_t*>(data)[i];
        hash *= 16777619u;
    }
    return hash;
}

Com<ID3D11Buffer> make_buffer(ID3D11Device* device, UINT bytes, UINT bind, const void* data,
                              const char* call) {
    D3D11_BUFFER_DESC desc{};
    desc.ByteWidth = bytes;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = bind;
    const D3D11_SUBRESOURCE_DATA initial{data, 0, 0};
    Com<ID3D11Buffer> buffer;
    check(device->CreateBuffer(&desc, data ? &initial : nullptr, buffer.put()), call);
    return buffer;
}

Com<ID3D11Query> make_query(ID3D11Device* device, D3D11_QUERY kind, const char* call) {
    const D3D11_QUERY_DESC desc{kind, 0};
    Com<ID3D11Query> query;
    check(device->CreateQuery(&desc, query.put()), call);
    return query;
}

// Waits for a query's data (GetData returns S_FALSE until it is ready).
template <class T>
T query_data(ID3D11DeviceContext* context, ID3D11Query* query, const char* call) {
    T data{};
    HRESULT hr;
    while ((hr = context->GetData(query, &data, sizeof data, 0)) == S_FALSE) {
    }
    check(hr, call);
    return data;
}

// Runs the frames; `summary` gets the last line, printed once every object
// has been released.
int run(const Options& options, std::string& summary) {
    // Headless: no window; the runtime's swap chain keeps its buffers as textures.
    DXGI_SWAP_CHAIN_DESC chain{};
    chain.BufferDesc.Width = kSize;
    chain.BufferDesc.Height = kSize;
    chain.BufferDesc.RefreshRate = {60, 1};
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
    Com<ID3DUserDefinedAnnotation> annotation;
    query(context.get(), annotation,
          "ID3D11DeviceContext::QueryInterface(ID3DUserDefinedAnnotation)");
    Com<ID3D11Texture2D> back_buffer;
    check(swap_chain->GetBuffer(0, __uuidof(ID3D11Texture2D), back_buffer.put_void()),
          "IDXGISwapChain::GetBuffer");
    // The frame is drawn 4x multisampled and resolved into the back buffer.
    D3D11_TEXTURE2D_DESC multisampled_desc{};
    back_buffer->GetDesc(&multisampled_desc);
    multisampled_desc.SampleDesc = {4, 0};
    multisampled_desc.BindFlags = D3D11_BIND_RENDER_TARGET;
    Com<ID3D11Texture2D> multisampled;
    check(device->CreateTexture2D(&multisampled_desc, nullptr, multisampled.put()),
          "ID3D11Device::CreateTexture2D (4x MSAA target)");
    Com<ID3D11RenderTargetView> target;
    check(device->CreateRenderTargetView(multisampled.get(), nullptr, target.put()),
          "ID3D11Device::CreateRenderTargetView");

    // Shaders. The particles' mover streams its outputs, nothing rasterized.
    Com<ID3D11VertexShader> move_vs, particle_vs, ground_vs;
    Com<ID3D11GeometryShader> move_gs, particle_gs;
    Com<ID3D11HullShader> ground_hs;
    Com<ID3D11DomainShader> ground_ds;
    Com<ID3D11PixelShader> colour_ps;
    check(device->CreateVertexShader(k_particle_move_vs, sizeof k_particle_move_vs, nullptr,
                                     move_vs.put()),
          "ID3D11Device::CreateVertexShader (particle_move_vs)");
    const D3D11_SO_DECLARATION_ENTRY so_entries[] = {{0, "POSITION", 0, 0, 4, 0},
                                                     {0, "VELOCITY", 0, 0, 4, 0}};
    const UINT so_stride = sizeof(Particle);
    check(device->CreateGeometryShaderWithStreamOutput(
              k_particle_move_vs, sizeof k_particle_move_vs, so_entries, 2, &so_stride, 1,
              D3D11_SO_NO_RASTERIZED_STREAM, nullptr, move_gs.put()),
          "ID3D11Device::CreateGeometryShaderWithStreamOutput (particle_move_vs)");
    check(
        device->CreateVertexShader(k_particle_vs, sizeof k_particle_vs, nullptr, particle_vs.put()),
        "ID3D11Device::CreateVertexShader (particle_vs)");
    check(device->CreateGeometryShader(k_particle_gs, sizeof k_particle_gs, nullptr,
                                       particle_gs.put()),
          "ID3D11Device::CreateGeometryShader (particle_gs)");
    check(device->CreateVertexShader(k_ground_vs, sizeof k_ground_vs, nullptr, ground_vs.put()),
          "ID3D11Device::CreateVertexShader (ground_vs)");
    check(device->CreateHullShader(k_ground_hs, sizeof k_ground_hs, nullptr, ground_hs.put()),
          "ID3D11Device::CreateHullShader (ground_hs)");
    check(device->CreateDomainShader(k_ground_ds, sizeof k_ground_ds, nullptr, ground_ds.put()),
          "ID3D11Device::CreateDomainShader (ground_ds)");
    check(device->CreatePixelShader(k_colour_ps, sizeof k_colour_ps, nullptr, colour_ps.put()),
          "ID3D11Device::CreatePixelShader (colour_ps)");

    const D3D11_INPUT_ELEMENT_DESC particle_elements[] = {
        {"POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
        {"VELOCITY", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, D3D11_APPEND_ALIGNED_ELEMENT,
         D3D11_INPUT_PER_VERTEX_DATA, 0}};
    const D3D11_INPUT_ELEMENT_DESC ground_elements[] = {
        {"POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0}};
    Com<ID3D11InputLayout> particle_layout, ground_layout;
    check(device->CreateInputLayout(particle_elements, 2, k_particle_move_vs,
                                    sizeof k_particle_move_vs, particle_layout.put()),
          "ID3D11Device::CreateInputLayout (particles)");
    check(device->CreateInputLayout(ground_elements, 1, k_ground_vs, sizeof k_ground_vs,
                                    ground_layout.put()),
          "ID3D11Device::CreateInputLayout (ground)");

    // Buffers: the first particles, two stream-output buffers the frames
    // alternate between, the ground's corners, the frame's constants.
    const std::vector<Particle> particles = first_particles();
    const UINT particle_bytes = kParticles * sizeof(Particle);
    const Com<ID3D11Buffer> first =
        make_buffer(device.get(), particle_bytes, D3D11_BIND_VERTEX_BUFFER, particles.data(),
                    "ID3D11Device::CreateBuffer (particles)");
    Com<ID3D11Buffer> streamed[2];
    for (Com<ID3D11Buffer>& buffer : streamed)
        buffer = make_buffer(device.get(), particle_bytes,
                             D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_STREAM_OUTPUT, nullptr,
                             "ID3D11Device::CreateBuffer (stream output)");
    const float corners[4][4] = {
        {-1, -0.25f, 0.5f, 1}, {1, -0.25f, 0.5f, 1}, {-1, -1, 0.5f, 1}, {1, -1, 0.5f, 1}};
    const Com<ID3D11Buffer> ground =
        make_buffer(device.get(), sizeof corners, D3D11_BIND_VERTEX_BUFFER, corners,
                    "ID3D11Device::CreateBuffer (ground)");
    const Com<ID3D11Buffer> constants =
        make_buffer(device.get(), sizeof(Constants), D3D11_BIND_CONSTANT_BUFFER, nullptr,
                    "ID3D11Device::CreateBuffer (constants)");

    D3D11_RASTERIZER_DESC raster{};
    raster.FillMode = D3D11_FILL_SOLID;
    raster.CullMode = D3D11_CULL_NONE;
    raster.DepthClipEnable = TRUE;
    Com<ID3D11RasterizerState> rasterizer;
    check(device->CreateRasterizerState(&raster, rasterizer.put()),
          "ID3D11Device::CreateRasterizerState");
    const Com<ID3D11Query> streamed_query =
        make_query(device.get(), D3D11_QUERY_SO_STATISTICS, "ID3D11Device::CreateQuery (SO)");
    const Com<ID3D11Query> statistics_query = make_query(
        device.get(), D3D11_QUERY_PIPELINE_STATISTICS, "ID3D11Device::CreateQuery (statistics)");
    D3D11_TEXTURE2D_DESC staging_desc{};
    back_buffer->GetDesc(&staging_desc);
    staging_desc.Usage = D3D11_USAGE_STAGING;
    staging_desc.BindFlags = 0;
    staging_desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    Com<ID3D11Texture2D> staging;
    check(device->CreateTexture2D(&staging_desc, nullptr, staging.put()),
          "ID3D11Device::CreateTexture2D (staging)");

    ID3D11RenderTargetView* targets[] = {target.get()};
    context->OMSetRenderTargets(1, targets, nullptr);
    const D3D11_VIEWPORT viewport{0, 0, kSize, kSize, 0, 1};
    context->RSSetViewports(1, &viewport);
    context->RSSetState(rasterizer.get());
    ID3D11Buffer* constant_buffers[] = {constants.get()};
    context->VSSetConstantBuffers(0, 1, constant_buffers);
    context->HSSetConstantBuffers(0, 1, constant_buffers);
    context->DSSetConstantBuffers(0, 1, constant_buffers);
    const UINT stride = sizeof(Particle), ground_stride = sizeof corners[0], offset = 0;
    const bool annotate = annotation->GetStatus() != FALSE;
    auto begin = [&](const wchar_t* label) {
        if (annotate) annotation->BeginEvent(label);
    };
    auto end = [&] {
        if (annotate) annotation->EndEvent();
    };

    std::uint64_t particles_streamed = 0, triangles = 0;
    std::uint32_t total = 0x811c9dc5u;
    for (UINT frame = 0; frame < options.frames; ++frame) {
        const Constants values{0.125f, static_cast<float>(2 + frame % 7), 0.5f * frame, 0};
        context->UpdateSubresource(constants.get(), 0, nullptr, &values, 0, 0);
        const float sky[4] = {0.05f, 0.05f, 0.2f, 1};
        context->ClearRenderTargetView(target.get(), sky);

        // Move: last frame's particles (the first ones, then what frame
        // streamed) into this frame's buffer.
        begin(L"Move particles");
        ID3D11Buffer* source = frame == 0 ? first.get() : streamed[(frame + 1) % 2].get();
        ID3D11Buffer* destination = streamed[frame % 2].get();
        context->IASetInputLayout(particle_layout.get());
        context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_POINTLIST);
        context->IASetVertexBuffers(0, 1, &source, &stride, &offset);
        context->VSSetShader(move_vs.get(), nullptr, 0);
        context->GSSetShader(move_gs.get(), nullptr, 0);
        context->PSSetShader(nullptr, nullptr, 0);
        context->SOSetTargets(1, &destination, &offset);
        context->Begin(streamed_query.get());
        if (frame == 0)
            context->Draw(kParticles, 0);
        else
            context->DrawAuto();
        context->End(streamed_query.get());
        ID3D11Buffer* no_target = nullptr;
        context->SOSetTargets(1, &no_target, &offset);
        end();

        // The ground, tessellated.
        begin(L"Ground");
        ID3D11Buffer* ground_buffer = ground.get();
        context->IASetInputLayout(ground_layout.get());
        context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_4_CONTROL_POINT_PATCHLIST);
        context->IASetVertexBuffers(0, 1, &ground_buffer, &ground_stride, &offset);
        context->VSSetShader(ground_vs.get(), nullptr, 0);
        context->HSSetShader(ground_hs.get(), nullptr, 0);
        context->DSSetShader(ground_ds.get(), nullptr, 0);
        context->GSSetShader(nullptr, nullptr, 0);
        context->PSSetShader(colour_ps.get(), nullptr, 0);
        context->Begin(statistics_query.get());
        context->Draw(4, 0);
        context->End(statistics_query.get());
        context->HSSetShader(nullptr, nullptr, 0);
        context->DSSetShader(nullptr, nullptr, 0);
        end();

        // The particles, a square each, as many as were streamed.
        begin(L"Particles");
        context->IASetInputLayout(particle_layout.get());
        context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_POINTLIST);
        context->IASetVertexBuffers(0, 1, &destination, &stride, &offset);
        context->VSSetShader(particle_vs.get(), nullptr, 0);
        context->GSSetShader(particle_gs.get(), nullptr, 0);
        context->DrawAuto();
        end();

        const auto so = query_data<D3D11_QUERY_DATA_SO_STATISTICS>(
            context.get(), streamed_query.get(), "ID3D11DeviceContext::GetData (SO)");
        const auto statistics = query_data<D3D11_QUERY_DATA_PIPELINE_STATISTICS>(
            context.get(), statistics_query.get(), "ID3D11DeviceContext::GetData (statistics)");
        particles_streamed += so.NumPrimitivesWritten;
        triangles += statistics.CInvocations;

        context->ResolveSubresource(back_buffer.get(), 0, multisampled.get(), 0,
                                    DXGI_FORMAT_R8G8B8A8_UNORM);
        context->CopyResource(staging.get(), back_buffer.get());
        D3D11_MAPPED_SUBRESOURCE mapped{};
        check(context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped),
              "ID3D11DeviceContext::Map (staging)");
        std::uint32_t checksum = 0x811c9dc5u;
        for (UINT y = 0; y < kSize; ++y)
            checksum = fnv1a(static_cast<const std::uint8_t*>(mapped.pData) + y * mapped.RowPitch,
                             kSize * 4, checksum);
        context->Unmap(staging.get(), 0);
        total = fnv1a(&checksum, sizeof checksum, total);
        check(swap_chain->Present(0, 0), "IDXGISwapChain::Present");
        if (!options.quiet)
            std::printf(
                "frame %u: %llu particles streamed, ground tessellated %g times a side into %llu "
                "triangles, checksum 0x%08x\n",
                frame, static_cast<unsigned long long>(so.NumPrimitivesWritten), values.tess_factor,
                static_cast<unsigned long long>(statistics.CInvocations), checksum);
    }

    char line[256];
    std::snprintf(line, sizeof line,
                  "summary: %u frames on the %s device, %llu particles streamed, %llu ground "
                  "triangles, checksum 0x%08x\n",
                  options.frames, options.driver_name,
                  static_cast<unsigned long long>(particles_streamed),
                  static_cast<unsigned long long>(triangles), total);
    summary = line;
    context->ClearState();
    context->Flush();
    return 0;
}

}  // namespace
}  // namespace stages

int main(int argc, char** argv) {
    using namespace stages;
    Options options;
    const int parsed = parse(argc, argv, options);
    if (parsed != 0) {
        std::fputs(kUsage, parsed < 0 ? stdout : stderr);
        return parsed < 0 ? 0 : 1;
    }
    return example::run_and_report("stages",
                                   [&](std::string& summary) { return run(options, summary); });
}
