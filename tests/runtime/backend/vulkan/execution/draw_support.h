// What the draw tests share: colour shaders in the project's assembly, a
// 4x4 RGBA8 target with its view and viewport bound, quads in clip space,
// and the target's texels read back.
#pragma once

#include <array>
#include <cstring>
#include <vector>

#include "execution_support.h"

namespace execution_tests {

// The colour from cb0[0].
inline constexpr const char* kConstantPs = R"(ps_5_0
.input SV_Position0 v0.xyzw float
.input COLOR0 v1.xyzw float
.output SV_Target0 o0.xyzw float
dcl_constantbuffer cb0[1], immediateIndexed
dcl_output o0.xyzw
mov o0.xyzw, cb0[0].xyzw
ret
)";

// Position and colour through; the colour is the pixel's.
constexpr const char* kColourVs = R"(vs_5_0
.input POSITION0 v0.xyzw float
.input COLOR0 v1.xyzw float
.output SV_Position0 o0.xyzw float
.output COLOR0 o1.xyzw float
dcl_input v0.xyzw
dcl_input v1.xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
mov o0.xyzw, v0.xyzw
mov o1.xyzw, v1.xyzw
ret
)";

constexpr const char* kColourPs = R"(ps_5_0
.input SV_Position0 v0.xyzw float
.input COLOR0 v1.xyzw float
.output SV_Target0 o0.xyzw float
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
mov o0.xyzw, v1.xyzw
ret
)";

// Each point becomes a square of two triangles (a 4-vertex strip) to its
// lower right, one clip unit wide (2x2 pixels of the 4x4 target).
constexpr const char* kPointToSquareGs = R"(gs_4_0
.input SV_Position0 v0.xyzw float
.input COLOR0 v1.xyzw float
.output SV_Position0 o0.xyzw float
.output COLOR0 o1.xyzw float
dcl_input_siv v[1][0].xyzw, position
dcl_input v[1][1].xyzw
dcl_inputprimitive point
dcl_outputtopology trianglestrip
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_maxout 4
mov o0.xyzw, v[0][0].xyzw
mov o1.xyzw, v[0][1].xyzw
emit
add o0.xyzw, v[0][0].xyzw, l(1.000000, 0.000000, 0.000000, 0.000000)
mov o1.xyzw, v[0][1].xyzw
emit
add o0.xyzw, v[0][0].xyzw, l(0.000000, -1.000000, 0.000000, 0.000000)
mov o1.xyzw, v[0][1].xyzw
emit
add o0.xyzw, v[0][0].xyzw, l(1.000000, -1.000000, 0.000000, 0.000000)
mov o1.xyzw, v[0][1].xyzw
emit
ret
)";

struct Vertex {
    float x, y, z, w;
    float r, g, b, a;
};

// Two triangles covering [x0, x1] x [y0, y1] in clip space at depth z.
inline std::vector<Vertex> quad(float x0, float y0, float x1, float y1, float z,
                                std::array<float, 4> colour) {
    auto v = [&](float x, float y) {
        return Vertex{x, y, z, 1, colour[0], colour[1], colour[2], colour[3]};
    };
    return {v(x0, y1), v(x1, y1), v(x0, y0), v(x0, y0), v(x1, y1), v(x1, y0)};
}

inline std::uint32_t rgba(std::uint8_t r, std::uint8_t g, std::uint8_t b, std::uint8_t a) {
    return r | g << 8 | b << 16 | static_cast<std::uint32_t>(a) << 24;
}

// The 16 texels of a 4x4 texture of 4-byte texels as words, row by row
// (RGBA8: red in the low byte; D32_FLOAT: the depth's bits; D24S8: the
// stencil in the top byte).
inline std::vector<std::uint32_t> texels_4x4(object_tests::TestDevice& test,
                                             ID3D11Texture2D* texture, DXGI_FORMAT format) {
    auto staging =
        test.texture2d(4, 4, format, 0, 1, 1, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ);
    test.context->CopyResource(staging.get(), texture);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(test.context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    std::vector<std::uint32_t> out(16);
    for (UINT y = 0; y < 4; ++y)
        std::memcpy(&out[y * 4],
                    static_cast<const std::uint8_t*>(mapped.pData) + y * mapped.RowPitch, 16);
    test.context->Unmap(staging.get(), 0);
    return out;
}

// A 4x4 RGBA8 render target with its view, the viewport over it, and the
// colour shaders with their input layout bound.
struct Scene {
    object_tests::TestDevice& test;
    Com<ID3D11Texture2D> target;
    Com<ID3D11RenderTargetView> rtv;
    Com<ID3D11VertexShader> vs;
    Com<ID3D11PixelShader> ps;
    Com<ID3D11InputLayout> layout;

    explicit Scene(object_tests::TestDevice& t, const char* pixel_shader = kColourPs) : test(t) {
        target = test.texture2d(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM,
                                D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE);
        REQUIRE(test.device->CreateRenderTargetView(target.get(), nullptr, rtv.out()) == S_OK);
        const auto vs_code = assemble(kColourVs);
        const auto ps_code = assemble(pixel_shader);
        REQUIRE(test.device->CreateVertexShader(vs_code.data(), vs_code.size(), nullptr,
                                                vs.out()) == S_OK);
        REQUIRE(test.device->CreatePixelShader(ps_code.data(), ps_code.size(), nullptr, ps.out()) ==
                S_OK);
        const D3D11_INPUT_ELEMENT_DESC elements[] = {
            {"POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
            {"COLOR", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, D3D11_APPEND_ALIGNED_ELEMENT,
             D3D11_INPUT_PER_VERTEX_DATA, 0}};
        REQUIRE(test.device->CreateInputLayout(elements, 2, vs_code.data(), vs_code.size(),
                                               layout.out()) == S_OK);
        test.context->ClearState();
        const float black[4] = {0, 0, 0, 1};
        test.context->ClearRenderTargetView(rtv.get(), black);
        test.context->IASetInputLayout(layout.get());
        test.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        test.context->VSSetShader(vs.get(), nullptr, 0);
        test.context->PSSetShader(ps.get(), nullptr, 0);
        ID3D11RenderTargetView* targets[] = {rtv.get()};
        test.context->OMSetRenderTargets(1, targets, nullptr);
        const D3D11_VIEWPORT viewport{0, 0, 4, 4, 0, 1};
        test.context->RSSetViewports(1, &viewport);
    }

    // Binds kPointToSquareGs, drawing point lists.
    Com<ID3D11GeometryShader> point_to_square_gs() {
        const auto code = assemble(kPointToSquareGs);
        Com<ID3D11GeometryShader> gs;
        REQUIRE(test.device->CreateGeometryShader(code.data(), code.size(), nullptr, gs.out()) ==
                S_OK);
        test.context->GSSetShader(gs.get(), nullptr, 0);
        test.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_POINTLIST);
        return gs;
    }

    // Binds a solid rasterizer state with depth clipping.
    Com<ID3D11RasterizerState> rasterizer(D3D11_CULL_MODE cull, BOOL front_counter_clockwise,
                                          BOOL scissor) {
        D3D11_RASTERIZER_DESC desc{};
        desc.FillMode = D3D11_FILL_SOLID;
        desc.CullMode = cull;
        desc.FrontCounterClockwise = front_counter_clockwise;
        desc.DepthClipEnable = TRUE;
        desc.ScissorEnable = scissor;
        Com<ID3D11RasterizerState> state;
        REQUIRE(test.device->CreateRasterizerState(&desc, state.out()) == S_OK);
        test.context->RSSetState(state.get());
        return state;
    }

    Com<ID3D11Buffer> vertices(const std::vector<Vertex>& data, UINT slot = 0) {
        auto buffer =
            test.buffer(static_cast<UINT>(data.size() * sizeof(Vertex)), D3D11_BIND_VERTEX_BUFFER,
                        D3D11_USAGE_DEFAULT, 0, 0, 0, data.data());
        ID3D11Buffer* buffers[] = {buffer.get()};
        const UINT stride = sizeof(Vertex), offset = 0;
        test.context->IASetVertexBuffers(slot, 1, buffers, &stride, &offset);
        return buffer;
    }

    void draw(UINT count) {
        test.clear_messages();
        test.context->Draw(count, 0);
        INFO(test.last_message());
        CHECK(test.messages().empty());
    }

    // The target's texels, row by row.
    std::vector<std::uint32_t> texels() {
        return texels_4x4(test, target.get(), DXGI_FORMAT_R8G8B8A8_UNORM);
    }
};

inline float as_float(std::uint32_t word) {
    float value;
    std::memcpy(&value, &word, 4);
    return value;
}

// Rows of 4 texels: the top `rows` of colour `top`, the rest `bottom`.
inline std::vector<std::uint32_t> rows(UINT top_rows, std::uint32_t top, std::uint32_t bottom) {
    std::vector<std::uint32_t> out(16, bottom);
    std::fill(out.begin(), out.begin() + top_rows * 4, top);
    return out;
}

}  // namespace execution_tests
