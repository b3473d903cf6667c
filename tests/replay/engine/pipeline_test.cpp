// The pipeline state after an event, read from the replayed context: the
// vertex shader bound with its disassembly, a constant buffer's window and
// values, the input layout's elements, the vertex buffer, the viewport and
// the render target, by the trace's ids and debug names; a draw recorded on
// a deferred context shows that context's state.
#include <algorithm>

#include "recorder.h"
#include "replay/engine/contents.h"
#include "runtime/shader/assembler.h"

using namespace engine_tests;
using d3dcap::replay::ContentsReplay;
using d3dcap::replay::StateRow;

namespace {

constexpr const char* kVertexShader = R"(vs_5_0
.input POSITION0 v0.xyzw float
.output SV_Position0 o0.xyzw float
dcl_constantbuffer cb0[2], immediateIndexed
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
add o0.xyzw, v0.xyzw, cb0[1].xyzw
ret
)";

// The value of the row named name under the section, or "(none)".
std::string value_of(const std::vector<StateRow>& rows, const std::string& section,
                     const std::string& name) {
    bool inside = false;
    for (const StateRow& row : rows) {
        if (row.depth == 0) inside = row.name == section;
        if (inside && row.name == name) return row.value;
    }
    return "(none)";
}

}  // namespace

TEST_CASE("the pipeline after an event: shaders, buffers, layout, viewport, targets",
          "[replay][engine][contents]") {
    testing::TempDir dir;
    Recorder rec(dir.file("pipeline.d3dcap"));
    DirectDevice direct(rec);
    ID3D11DeviceContext2* context = direct.context.get();
    ID3D11Device* device = direct.device.get();

    const auto assembled = d3dcap::runtime::shader::assemble(kVertexShader);
    REQUIRE(assembled.ok());
    const auto& code = assembled.container;
    Com<ID3D11VertexShader> shader;
    REQUIRE(device->CreateVertexShader(code.data(), code.size(), nullptr, shader.out()) == S_OK);
    const std::uint64_t shader_id = rec.track(shader.get());
    ID3D11VertexShader* shader_out = shader.get();
    rec.call(device,
             api::encode_ID3D11Device_CreateVertexShader(rec.b, rec, code.data(), code.size(),
                                                         nullptr, &shader_out),
             S_OK);
    rec.meta(fb::CreateDebugNameDirect(rec.b, shader_id, "offset_vs"));

    const D3D11_INPUT_ELEMENT_DESC element{
        "POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0};
    Com<ID3D11InputLayout> layout;
    REQUIRE(device->CreateInputLayout(&element, 1, code.data(), code.size(), layout.out()) == S_OK);
    const std::uint64_t layout_id = rec.track(layout.get());
    ID3D11InputLayout* layout_out = layout.get();
    rec.call(device,
             api::encode_ID3D11Device_CreateInputLayout(rec.b, rec, &element, 1, code.data(),
                                                        code.size(), &layout_out),
             S_OK);

    // 32 constants: constant n holds n, n + 0.5, -n, 1.
    std::vector<std::uint8_t> constants(32 * 16);
    for (int n = 0; n < 32; ++n) {
        const float values[4] = {float(n), float(n) + 0.5f, -float(n), 1.0f};
        std::memcpy(constants.data() + n * 16, values, 16);
    }
    Com<ID3D11Buffer> buffer;
    const std::uint64_t buffer_id =
        create_buffer(rec, direct, {512, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0},
                      &constants, buffer);
    Com<ID3D11Buffer> vertices;
    const auto vertex_bytes = pattern(64, 1);
    const std::uint64_t vertices_id =
        create_buffer(rec, direct, {64, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0},
                      &vertex_bytes, vertices);

    const auto on_context = [&](auto params) { rec.call(context, params, std::nullopt, true); };
    on_context(api::encode_ID3D11DeviceContext_VSSetShader(rec.b, rec, shader.get(), nullptr, 0));
    on_context(api::encode_ID3D11DeviceContext_IASetInputLayout(rec.b, rec, layout.get()));
    ID3D11Buffer* vertex_buffer = vertices.get();
    const UINT stride = 16, offset = 0;
    on_context(api::encode_ID3D11DeviceContext_IASetVertexBuffers(rec.b, rec, 0, 1, &vertex_buffer,
                                                                  &stride, &offset));
    ID3D11Buffer* constant_buffer = buffer.get();
    const UINT first = 16, count = 16;
    on_context(api::encode_ID3D11DeviceContext1_VSSetConstantBuffers1(
        rec.b, rec, 0, 1, &constant_buffer, &first, &count));
    D3D11_RASTERIZER_DESC rasterizer{};
    rasterizer.FillMode = D3D11_FILL_WIREFRAME;
    rasterizer.CullMode = D3D11_CULL_FRONT;
    rasterizer.DepthClipEnable = TRUE;
    Com<ID3D11RasterizerState> state;
    REQUIRE(device->CreateRasterizerState(&rasterizer, state.out()) == S_OK);
    const std::uint64_t state_id = rec.track(state.get());
    ID3D11RasterizerState* state_out = state.get();
    rec.call(device,
             api::encode_ID3D11Device_CreateRasterizerState(rec.b, rec, &rasterizer, &state_out),
             S_OK);
    on_context(api::encode_ID3D11DeviceContext_RSSetState(rec.b, rec, state.get()));
    on_context(api::encode_ID3D11DeviceContext_IASetPrimitiveTopology(
        rec.b, rec, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP));
    const D3D11_VIEWPORT viewport{0, 0, 64, 32, 0, 1};
    on_context(api::encode_ID3D11DeviceContext_RSSetViewports(rec.b, rec, 1, &viewport));
    const std::uint64_t draw =
        rec.call(context, fb::CreateID3D11DeviceContext_Draw(rec.b, 3, 0), std::nullopt, true);
    // A draw recorded on a deferred context with a topology of its own.
    Com<ID3D11DeviceContext> deferred;
    REQUIRE(device->CreateDeferredContext(0, deferred.out()) == S_OK);
    const std::uint64_t deferred_id = rec.track(deferred.get());
    rec.call(device, fb::CreateID3D11Device_CreateDeferredContext(rec.b, 0, deferred_id), S_OK);
    rec.call(deferred.get(),
             api::encode_ID3D11DeviceContext_IASetPrimitiveTopology(
                 rec.b, rec, D3D11_PRIMITIVE_TOPOLOGY_LINELIST),
             std::nullopt, true);
    const std::uint64_t deferred_draw = rec.call(
        deferred.get(), fb::CreateID3D11DeviceContext_Draw(rec.b, 2, 0), std::nullopt, true);
    const std::uint64_t events = rec.close();
    REQUIRE(deferred_draw == events - 1);

    auto opened = ContentsReplay::open(rec.path(), D3D_DRIVER_TYPE_REFERENCE);
    REQUIRE(opened.ok());
    auto after = opened.value()->contents_after(draw, 0, 0);
    REQUIRE(after.ok());
    const std::vector<StateRow>& rows = after->pipeline;
    const auto id = [](std::uint64_t n) { return "#" + std::to_string(n); };
    CHECK(value_of(rows, "VS", "VS") == "offset_vs " + id(shader_id));
    CHECK(value_of(rows, "VS", "0") == "vs_5_0");
    CHECK(std::count_if(rows.begin(), rows.end(), [](const StateRow& row) {
              return row.value == "add o0.xyzw, v0.xyzw, cb0[1].xyzw";
          }) == 1);
    CHECK(value_of(rows, "VS", "cb0") == id(buffer_id) + ", constants 16-31");
    CHECK(value_of(rows, "VS", "c16") == "16, 16.5, -16, 1");
    CHECK(value_of(rows, "VS", "c31") == "31, 31.5, -31, 1");
    CHECK(value_of(rows, "VS", "c15") == "(none)");
    CHECK(value_of(rows, "IA", "input layout") == id(layout_id));
    CHECK(value_of(rows, "IA", "POSITION0") == "R32G32B32A32_FLOAT, slot 0, offset 0, per vertex");
    CHECK(value_of(rows, "IA", "vb0") == id(vertices_id) + ", stride 16, offset 0");
    CHECK(value_of(rows, "RS", "viewport 0") == "0, 0, 64x32, depth 0-1");
    CHECK(value_of(rows, "RS", "RS") ==
          id(state_id) + ": fill WIREFRAME, cull FRONT, depth bias 0, depth clip");
    CHECK(value_of(rows, "IA", "IA") == "TRIANGLESTRIP");
    CHECK(value_of(rows, "PS", "PS") == "none");
    CHECK(value_of(rows, "CS", "CS") == "none");
    // The deferred draw shows the state it recorded, not the immediate
    // context's.
    auto deferred_after = opened.value()->contents_after(deferred_draw, 0, 0);
    REQUIRE(deferred_after.ok());
    CHECK(value_of(deferred_after->pipeline, "IA", "IA") == "LINELIST");
    CHECK(value_of(deferred_after->pipeline, "VS", "VS") == "none");
}

TEST_CASE("a bound constant buffer lists its values by the names the shader's reflection gives",
          "[replay][engine][contents]") {
    testing::TempDir dir;
    Recorder rec(dir.file("named.d3dcap"));
    DirectDevice direct(rec);
    ID3D11Device* device = direct.device.get();
    const auto assembled = d3dcap::runtime::shader::assemble(R"(vs_5_0
.cbuffer Globals b1 144
.variable world 0 float4x4
.variable tint 64 float4
.variable weights 80 float[3]
.variable flags 120 int2
.binding linear s2
.input POSITION0 v0.xyzw float
.output SV_Position0 o0.xyzw float
dcl_constantbuffer cb1[9], immediateIndexed
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
add o0.xyzw, v0.xyzw, cb1[4].xyzw
ret
)");
    REQUIRE(assembled.ok());
    const auto& code = assembled.container;
    Com<ID3D11VertexShader> shader;
    REQUIRE(device->CreateVertexShader(code.data(), code.size(), nullptr, shader.out()) == S_OK);
    rec.track(shader.get());
    ID3D11VertexShader* shader_out = shader.get();
    rec.call(device,
             api::encode_ID3D11Device_CreateVertexShader(rec.b, rec, code.data(), code.size(),
                                                         nullptr, &shader_out),
             S_OK);
    // world: column c holds 4c .. 4c + 3; tint 1, 2, 3, 4; weights 0.5, 1.5,
    // 2.5 (one a register); flags -7, 9.
    std::vector<std::uint8_t> bytes(144);
    const auto put_float = [&](std::size_t at, float value) { std::memcpy(&bytes[at], &value, 4); };
    for (int i = 0; i < 16; ++i) put_float(std::size_t(i) * 4, float(i));
    for (int i = 0; i < 4; ++i) put_float(64 + std::size_t(i) * 4, float(i + 1));
    for (int i = 0; i < 3; ++i) put_float(80 + std::size_t(i) * 16, float(i) + 0.5f);
    const std::int32_t flags[2] = {-7, 9};
    std::memcpy(&bytes[120], flags, 8);
    Com<ID3D11Buffer> buffer;
    create_buffer(rec, direct, {144, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0},
                  &bytes, buffer);
    ID3D11DeviceContext2* context = direct.context.get();
    rec.call(context,
             api::encode_ID3D11DeviceContext_VSSetShader(rec.b, rec, shader.get(), nullptr, 0),
             std::nullopt, true);
    D3D11_SAMPLER_DESC sampler_desc{};
    sampler_desc.Filter = D3D11_FILTER_MIN_MAG_MIP_LINEAR;
    sampler_desc.AddressU = sampler_desc.AddressV = sampler_desc.AddressW =
        D3D11_TEXTURE_ADDRESS_CLAMP;
    sampler_desc.MaxLOD = D3D11_FLOAT32_MAX;
    Com<ID3D11SamplerState> sampler;
    REQUIRE(device->CreateSamplerState(&sampler_desc, sampler.out()) == S_OK);
    const std::uint64_t sampler_id = rec.track(sampler.get());
    ID3D11SamplerState* sampler_out = sampler.get();
    rec.call(device,
             api::encode_ID3D11Device_CreateSamplerState(rec.b, rec, &sampler_desc, &sampler_out),
             S_OK);
    rec.call(context, api::encode_ID3D11DeviceContext_VSSetSamplers(rec.b, rec, 2, 1, &sampler_out),
             std::nullopt, true);
    // A compute shader naming its UAV u1, and a buffer's UAV bound there.
    const auto compute_code = d3dcap::runtime::shader::assemble(R"(cs_5_0
.binding results u1
dcl_uav_raw u1
dcl_thread_group 1, 1, 1
ret
)");
    REQUIRE(compute_code.ok());
    const auto& cs = compute_code.container;
    Com<ID3D11ComputeShader> compute;
    REQUIRE(device->CreateComputeShader(cs.data(), cs.size(), nullptr, compute.out()) == S_OK);
    rec.track(compute.get());
    ID3D11ComputeShader* compute_out = compute.get();
    rec.call(device,
             api::encode_ID3D11Device_CreateComputeShader(rec.b, rec, cs.data(), cs.size(), nullptr,
                                                          &compute_out),
             S_OK);
    Com<ID3D11Buffer> raw;
    create_buffer(rec, direct,
                  {64, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0,
                   D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0},
                  nullptr, raw);
    D3D11_UNORDERED_ACCESS_VIEW_DESC uav_desc{};
    uav_desc.Format = DXGI_FORMAT_R32_TYPELESS;
    uav_desc.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
    uav_desc.Buffer = {0, 16, D3D11_BUFFER_UAV_FLAG_RAW};
    Com<ID3D11UnorderedAccessView> uav;
    REQUIRE(device->CreateUnorderedAccessView(raw.get(), &uav_desc, uav.out()) == S_OK);
    const std::uint64_t uav_id = rec.track(uav.get());
    ID3D11UnorderedAccessView* uav_out = uav.get();
    rec.call(device,
             api::encode_ID3D11Device_CreateUnorderedAccessView(rec.b, rec, raw.get(), &uav_desc,
                                                                &uav_out),
             S_OK);
    rec.call(context,
             api::encode_ID3D11DeviceContext_CSSetShader(rec.b, rec, compute.get(), nullptr, 0),
             std::nullopt, true);
    rec.call(context,
             api::encode_ID3D11DeviceContext_CSSetUnorderedAccessViews(rec.b, rec, 1, 1, &uav_out,
                                                                       nullptr),
             std::nullopt, true);
    ID3D11Buffer* bound = buffer.get();
    const std::uint64_t set = rec.call(
        context, api::encode_ID3D11DeviceContext_VSSetConstantBuffers(rec.b, rec, 1, 1, &bound),
        std::nullopt, true);
    rec.close();

    auto opened = ContentsReplay::open(rec.path(), D3D_DRIVER_TYPE_REFERENCE);
    REQUIRE(opened.ok());
    auto after = opened.value()->contents_after(set, 0, 0);
    REQUIRE(after.ok());
    const std::vector<StateRow>& rows = after->pipeline;
    CHECK(value_of(rows, "VS", "Globals") == "cbuffer, 144 bytes");
    CHECK(value_of(rows, "VS", "world (float4x4)") ==
          "0, 1, 2, 3 | 4, 5, 6, 7 | 8, 9, 10, 11 | 12, 13, 14, 15");
    CHECK(value_of(rows, "VS", "tint (float4)") == "1, 2, 3, 4");
    CHECK(value_of(rows, "VS", "weights[0] (float[3])") == "0.5");
    CHECK(value_of(rows, "VS", "weights[2] (float[3])") == "2.5");
    CHECK(value_of(rows, "VS", "flags (int2)") == "-7, 9");
    CHECK(value_of(rows, "VS", "c0") == "(none)");  // named, not raw
    CHECK(value_of(rows, "CS", "u1").rfind("results: #" + std::to_string(uav_id) + " of #", 0) ==
          0);
    CHECK(value_of(rows, "VS", "s2") == "linear: #" + std::to_string(sampler_id) +
                                            ": MIN_MAG_MIP_LINEAR, address CLAMP CLAMP CLAMP");
}
