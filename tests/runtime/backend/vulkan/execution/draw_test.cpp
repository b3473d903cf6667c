// Draws on the Vulkan device (lavapipe without a GPU): vertex and pixel
// shaders in the project's assembly, input layouts, vertex, index and
// instance buffers, D3D11's viewport convention, scissors, depth, blending,
// constant-buffer windows and textures in the pixel shader, each checked
// texel for texel against values the test computes.
#include <array>
#include <catch2/catch.hpp>
#include <span>
#include <string>

#include "draw_support.h"

using namespace object_tests;
using namespace execution_tests;

namespace {

// Position and colour through, instance i moved right by i * shift (clip units).
std::string instanced_vs(const char* shift) {
    return std::string(R"(vs_5_0
.input POSITION0 v0.xyzw float
.input COLOR0 v1.xyzw float
.input SV_InstanceID0 v2.x uint instance_id
.output SV_Position0 o0.xyzw float
.output COLOR0 o1.xyzw float
dcl_input v0.xyzw
dcl_input v1.xyzw
dcl_input_sgv v2.x, instance_id
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_temps 1
utof r0.x, v2.x
mad o0.x, r0.x, l()") +
           shift + R"(), v0.x
mov o0.yzw, v0.yyzw
mov o1.xyzw, v1.xyzw
ret
)";
}

// Column 0 of the target as two triangles, instanced: instance i moves
// right by i/2 clip units (column i); its colour is per-instance data of
// slot 1 at step rate 2, bound `colour_offset` bytes into `colours`.
struct StepRateColumns {
    Com<ID3D11VertexShader> vs;
    Com<ID3D11InputLayout> layout;
    Com<ID3D11Buffer> positions, colours;

    StepRateColumns(TestDevice& test, std::span<const std::uint32_t> colour_elements,
                    UINT colour_offset) {
        const auto vs_code = assemble(instanced_vs("0.500000").c_str());
        REQUIRE(test.device->CreateVertexShader(vs_code.data(), vs_code.size(), nullptr,
                                                vs.out()) == S_OK);
        const D3D11_INPUT_ELEMENT_DESC elements[] = {
            {"POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
            {"COLOR", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 0, D3D11_INPUT_PER_INSTANCE_DATA, 2}};
        REQUIRE(test.device->CreateInputLayout(elements, 2, vs_code.data(), vs_code.size(),
                                               layout.out()) == S_OK);
        test.context->IASetInputLayout(layout.get());
        test.context->VSSetShader(vs.get(), nullptr, 0);
        const float corners[6][4] = {{-1, 1, 0.5f, 1},  {-0.5f, 1, 0.5f, 1}, {-1, -1, 0.5f, 1},
                                     {-1, -1, 0.5f, 1}, {-0.5f, 1, 0.5f, 1}, {-0.5f, -1, 0.5f, 1}};
        positions = test.buffer(sizeof corners, D3D11_BIND_VERTEX_BUFFER, D3D11_USAGE_DEFAULT, 0, 0,
                                0, corners);
        colours =
            test.buffer(static_cast<UINT>(colour_elements.size_bytes()), D3D11_BIND_VERTEX_BUFFER,
                        D3D11_USAGE_DEFAULT, 0, 0, 0, colour_elements.data());
        ID3D11Buffer* buffers[] = {positions.get(), colours.get()};
        const UINT strides[] = {16, 4}, offsets[] = {0, colour_offset};
        test.context->IASetVertexBuffers(0, 2, buffers, strides, offsets);
    }
};

}  // namespace

TEST_CASE("A draw fills the top half of the target: D3D11's viewport has y down", "[draw]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    // y in [0, 1] of clip space is the top half of the viewport.
    const auto vb = scene.vertices(quad(-1, 0, 1, 1, 0.5f, {1.0f, 0.2f, 0.6f, 1.0f}));
    scene.draw(6);
    CHECK(scene.texels() == rows(2, rgba(255, 51, 153, 255), rgba(0, 0, 0, 255)));
    check_validation_clean();
}

TEST_CASE("Back faces are culled by default, and FrontCounterClockwise flips which those are",
          "[draw]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    // quad() winds clockwise on the screen; reversed, counter-clockwise.
    auto vertices = quad(-1, -1, 1, 1, 0.5f, {1, 1, 1, 1});
    std::reverse(vertices.begin(), vertices.end());
    const auto vb = scene.vertices(vertices);
    scene.draw(6);
    CHECK(scene.texels() == rows(0, 0, rgba(0, 0, 0, 255)));
    const auto rasterizer = scene.rasterizer(D3D11_CULL_BACK, TRUE, FALSE);
    scene.draw(6);
    CHECK(scene.texels() == rows(4, rgba(255, 255, 255, 255), 0));
    check_validation_clean();
}

TEST_CASE("Indexed, instanced draws: 16-bit indices, a per-instance colour slot", "[draw]") {
    TestDevice& test = *hardware_device();
    // The colour comes from slot 1, one per instance; positions from slot 0.
    Scene scene(test);
    const auto vs_code = assemble(instanced_vs("1.000000").c_str());
    Com<ID3D11VertexShader> vs;
    REQUIRE(test.device->CreateVertexShader(vs_code.data(), vs_code.size(), nullptr, vs.out()) ==
            S_OK);
    const D3D11_INPUT_ELEMENT_DESC elements[] = {
        {"POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
        {"COLOR", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 1, 0, D3D11_INPUT_PER_INSTANCE_DATA, 1}};
    Com<ID3D11InputLayout> layout;
    REQUIRE(test.device->CreateInputLayout(elements, 2, vs_code.data(), vs_code.size(),
                                           layout.out()) == S_OK);
    test.context->IASetInputLayout(layout.get());
    test.context->VSSetShader(vs.get(), nullptr, 0);
    // Four corners of the left half; instance i moves right by i (clip units).
    const float positions[4][4] = {
        {-1, 1, 0.5f, 1}, {0, 1, 0.5f, 1}, {-1, -1, 0.5f, 1}, {0, -1, 0.5f, 1}};
    const std::uint32_t colours[2] = {rgba(255, 0, 0, 255), rgba(0, 255, 0, 255)};
    const std::uint16_t indices[6] = {0, 1, 2, 2, 1, 3};
    auto position_buffer = test.buffer(sizeof positions, D3D11_BIND_VERTEX_BUFFER,
                                       D3D11_USAGE_DEFAULT, 0, 0, 0, positions);
    auto colour_buffer = test.buffer(sizeof colours, D3D11_BIND_VERTEX_BUFFER, D3D11_USAGE_DEFAULT,
                                     0, 0, 0, colours);
    auto index_buffer =
        test.buffer(sizeof indices, D3D11_BIND_INDEX_BUFFER, D3D11_USAGE_DEFAULT, 0, 0, 0, indices);
    ID3D11Buffer* buffers[] = {position_buffer.get(), colour_buffer.get()};
    const UINT strides[] = {16, 4}, offsets[] = {0, 0};
    test.context->IASetVertexBuffers(0, 2, buffers, strides, offsets);
    test.context->IASetIndexBuffer(index_buffer.get(), DXGI_FORMAT_R16_UINT, 0);
    test.clear_messages();
    test.context->DrawIndexedInstanced(6, 2, 0, 0, 0);
    INFO(test.last_message());
    CHECK(test.messages().empty());
    std::vector<std::uint32_t> expected;
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) expected.push_back(colours[x / 2]);
    CHECK(scene.texels() == expected);
    check_validation_clean();
}

TEST_CASE("The depth test keeps the nearer quad whichever is drawn first", "[draw][depth]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    auto depth = test.texture2d(4, 4, DXGI_FORMAT_D32_FLOAT, D3D11_BIND_DEPTH_STENCIL);
    Com<ID3D11DepthStencilView> dsv;
    REQUIRE(test.device->CreateDepthStencilView(depth.get(), nullptr, dsv.out()) == S_OK);
    test.context->ClearDepthStencilView(dsv.get(), D3D11_CLEAR_DEPTH, 1.0f, 0);
    ID3D11RenderTargetView* targets[] = {scene.rtv.get()};
    test.context->OMSetRenderTargets(1, targets, dsv.get());
    // Near red on the left half, far green over everything, then near blue on the right.
    auto vertices = quad(-1, -1, 0, 1, 0.25f, {1, 0, 0, 1});
    const auto far = quad(-1, -1, 1, 1, 0.75f, {0, 1, 0, 1});
    const auto near = quad(0, -1, 1, 1, 0.25f, {0, 0, 1, 1});
    vertices.insert(vertices.end(), far.begin(), far.end());
    vertices.insert(vertices.end(), near.begin(), near.end());
    const auto vb = scene.vertices(vertices);
    scene.draw(18);
    std::vector<std::uint32_t> expected;
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x)
            expected.push_back(x < 2 ? rgba(255, 0, 0, 255) : rgba(0, 0, 255, 255));
    CHECK(scene.texels() == expected);

    CHECK(as_float(texels_4x4(test, depth.get(), DXGI_FORMAT_D32_FLOAT)[0]) == 0.25f);
    check_validation_clean();
}

TEST_CASE("Alpha blending and a scissor rectangle", "[draw][blend]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    D3D11_BLEND_DESC blend{};
    blend.RenderTarget[0].BlendEnable = TRUE;
    blend.RenderTarget[0].SrcBlend = D3D11_BLEND_SRC_ALPHA;
    blend.RenderTarget[0].DestBlend = D3D11_BLEND_INV_SRC_ALPHA;
    blend.RenderTarget[0].BlendOp = D3D11_BLEND_OP_ADD;
    blend.RenderTarget[0].SrcBlendAlpha = D3D11_BLEND_ONE;
    blend.RenderTarget[0].DestBlendAlpha = D3D11_BLEND_ZERO;
    blend.RenderTarget[0].BlendOpAlpha = D3D11_BLEND_OP_ADD;
    blend.RenderTarget[0].RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL;
    Com<ID3D11BlendState> state;
    REQUIRE(test.device->CreateBlendState(&blend, state.out()) == S_OK);
    test.context->OMSetBlendState(state.get(), nullptr, 0xffffffff);
    const auto rasterizer = scene.rasterizer(D3D11_CULL_NONE, FALSE, TRUE);
    const D3D11_RECT scissor{0, 0, 4, 3};  // not the bottom row
    test.context->RSSetScissorRects(1, &scissor);
    // White at alpha 0.2 over black: 0.2 * 255 = 51 in colour, alpha 0.2 written.
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {1, 1, 1, 0.2f}));
    scene.draw(6);
    CHECK(scene.texels() == rows(3, rgba(51, 51, 51, 51), rgba(0, 0, 0, 255)));
    check_validation_clean();
}

TEST_CASE("The pixel shader samples a texture and reads a constant-buffer window",
          "[draw][texture]") {
    TestDevice& test = *hardware_device();
    // Texel at the pixel's position (point sampling at pixel centres) plus cb0[0].
    constexpr const char* kTexturePs = R"(ps_5_0
.input SV_Position0 v0.xyzw float
.input COLOR0 v1.xyzw float
.output SV_Target0 o0.xyzw float
dcl_constantbuffer cb0[1], immediateIndexed
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_output o0.xyzw
dcl_temps 1
mul r0.xy, v0.xyxx, l(0.250000, 0.250000, 0.000000, 0.000000)
sample_indexable(texture2d)(float,float,float,float) r0.xyzw, r0.xyxx, t0.xyzw, s0
add o0.xyzw, r0.xyzw, cb0[0].xyzw
ret
)";
    Scene scene(test, kTexturePs);
    // Texel (x, y) = {x * 0.2, y * 0.2, 0, 1} as RGBA8 (x*51, y*51).
    std::vector<std::uint32_t> texels;
    for (std::uint32_t y = 0; y < 4; ++y)
        for (std::uint32_t x = 0; x < 4; ++x)
            texels.push_back(
                rgba(static_cast<std::uint8_t>(x * 51), static_cast<std::uint8_t>(y * 51), 0, 255));
    D3D11_TEXTURE2D_DESC desc{4,
                              4,
                              1,
                              1,
                              DXGI_FORMAT_R8G8B8A8_UNORM,
                              {1, 0},
                              D3D11_USAGE_DEFAULT,
                              D3D11_BIND_SHADER_RESOURCE,
                              0,
                              0};
    const D3D11_SUBRESOURCE_DATA initial{texels.data(), 16, 0};
    Com<ID3D11Texture2D> texture;
    REQUIRE(test.device->CreateTexture2D(&desc, &initial, texture.out()) == S_OK);
    Com<ID3D11ShaderResourceView> srv;
    REQUIRE(test.device->CreateShaderResourceView(texture.get(), nullptr, srv.out()) == S_OK);
    D3D11_SAMPLER_DESC sampler_desc{};
    sampler_desc.Filter = D3D11_FILTER_MIN_MAG_MIP_POINT;
    sampler_desc.AddressU = sampler_desc.AddressV = sampler_desc.AddressW =
        D3D11_TEXTURE_ADDRESS_CLAMP;
    sampler_desc.ComparisonFunc = D3D11_COMPARISON_NEVER;
    sampler_desc.MaxLOD = D3D11_FLOAT32_MAX;
    Com<ID3D11SamplerState> sampler;
    REQUIRE(test.device->CreateSamplerState(&sampler_desc, sampler.out()) == S_OK);
    // The window starts at constant 16: blue 0.6 there.
    std::vector<float> constants(32 * 4, 0.0f);
    constants[16 * 4 + 2] = 0.6f;
    auto cb = test.buffer(32 * 16, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DEFAULT, 0, 0, 0,
                          constants.data());
    ID3D11ShaderResourceView* srvs[] = {srv.get()};
    test.context->PSSetShaderResources(0, 1, srvs);
    ID3D11SamplerState* samplers[] = {sampler.get()};
    test.context->PSSetSamplers(0, 1, samplers);
    ID3D11Buffer* cbs[] = {cb.get()};
    const UINT first = 16, count = 16;
    test.context->PSSetConstantBuffers1(0, 1, cbs, &first, &count);
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {0, 0, 0, 0}));
    scene.draw(6);
    std::vector<std::uint32_t> expected;
    for (std::uint32_t y = 0; y < 4; ++y)
        for (std::uint32_t x = 0; x < 4; ++x)
            expected.push_back(rgba(static_cast<std::uint8_t>(x * 51),
                                    static_cast<std::uint8_t>(y * 51), 153, 255));
    CHECK(scene.texels() == expected);
    check_validation_clean();
}

TEST_CASE("The reference device counts the draws it does not run", "[draw]") {
    TestDevice test;
    Scene scene(test);
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {1, 1, 1, 1}));
    test.context->Draw(6, 0);
    CHECK(d3dcap::runtime::context_draw_counts(test.context.get()).not_executed == 1);
}

TEST_CASE("A geometry shader makes a quad of each point", "[draw][geometry]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    const auto gs = scene.point_to_square_gs();
    const auto rasterizer = scene.rasterizer(D3D11_CULL_NONE, FALSE, FALSE);
    // Points at the top-left and bottom-right quarters' corners.
    const std::vector<Vertex> points = {{-1, 1, 0.5f, 1, 1, 0, 0, 1}, {0, 0, 0.5f, 1, 0, 0, 1, 1}};
    const auto vb = scene.vertices(points);
    scene.draw(2);
    std::vector<std::uint32_t> expected(16, rgba(0, 0, 0, 255));
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 2; ++x) {
            expected[y * 4 + x] = rgba(255, 0, 0, 255);
            expected[(y + 2) * 4 + x + 2] = rgba(0, 0, 255, 255);
        }
    CHECK(scene.texels() == expected);
    check_validation_clean();
}

TEST_CASE("Hull and domain shaders tessellate a quad patch over the target",
          "[draw][tessellation]") {
    TestDevice& test = *hardware_device();
    const auto vs_code = assemble(R"(vs_5_0
.input POSITION0 v0.xyzw float
.input COLOR0 v1.xyzw float
.output POSITION0 o0.xyzw float
dcl_input v0.xyzw
dcl_output o0.xyzw
mov o0.xyzw, v0.xyzw
ret
)");
    // Edge and inside factors 2; the control points pass through.
    const auto hs_code = assemble(R"(hs_5_0
.input POSITION0 v0.xyzw float
.output POSITION0 o0.xyzw float
.patch_constant SV_TessFactor0 o0.x float quad_edge_tessfactor
.patch_constant SV_TessFactor1 o1.x float quad_edge_tessfactor
.patch_constant SV_TessFactor2 o2.x float quad_edge_tessfactor
.patch_constant SV_TessFactor3 o3.x float quad_edge_tessfactor
.patch_constant SV_InsideTessFactor0 o4.x float quad_inside_tessfactor
.patch_constant SV_InsideTessFactor1 o5.x float quad_inside_tessfactor
hs_decls
dcl_input_control_point_count 4
dcl_output_control_point_count 4
dcl_tessellator_domain domain_quad
dcl_tessellator_partitioning partitioning_integer
dcl_tessellator_output_primitive output_triangle_cw
hs_control_point_phase
dcl_input vOutputControlPointID
dcl_input v[4][0].xyzw
dcl_output o0.xyzw
mov o0.xyzw, v[vOutputControlPointID][0].xyzw
ret
hs_fork_phase
dcl_output_siv o0.x, finalQuadUeq0EdgeTessFactor
dcl_output_siv o1.x, finalQuadVeq0EdgeTessFactor
dcl_output_siv o2.x, finalQuadUeq1EdgeTessFactor
dcl_output_siv o3.x, finalQuadVeq1EdgeTessFactor
dcl_output_siv o4.x, finalQuadUInsideTessFactor
dcl_output_siv o5.x, finalQuadVInsideTessFactor
mov o0.x, l(2.000000)
mov o1.x, l(2.000000)
mov o2.x, l(2.000000)
mov o3.x, l(2.000000)
mov o4.x, l(2.000000)
mov o5.x, l(2.000000)
ret
)");
    // Each domain point is the bilinear blend of the four corners.
    const auto ds_code = assemble(R"(ds_5_0
.input POSITION0 v0.xyzw float
.patch_constant SV_TessFactor0 vpc0.x float quad_edge_tessfactor
.patch_constant SV_TessFactor1 vpc1.x float quad_edge_tessfactor
.patch_constant SV_TessFactor2 vpc2.x float quad_edge_tessfactor
.patch_constant SV_TessFactor3 vpc3.x float quad_edge_tessfactor
.patch_constant SV_InsideTessFactor0 vpc4.x float quad_inside_tessfactor
.patch_constant SV_InsideTessFactor1 vpc5.x float quad_inside_tessfactor
.output SV_Position0 o0.xyzw float
dcl_input_control_point_count 4
dcl_tessellator_domain domain_quad
dcl_input vDomain.xy
dcl_input vicp[4][0].xyzw
dcl_output_siv o0.xyzw, position
dcl_temps 2
add r0.xyzw, -vicp[0][0].xyzw, vicp[1][0].xyzw
mad r0.xyzw, vDomain.xxxx, r0.xyzw, vicp[0][0].xyzw
add r1.xyzw, -vicp[2][0].xyzw, vicp[3][0].xyzw
mad r1.xyzw, vDomain.xxxx, r1.xyzw, vicp[2][0].xyzw
add r1.xyzw, -r0.xyzw, r1.xyzw
mad o0.xyzw, vDomain.yyyy, r1.xyzw, r0.xyzw
ret
)");
    const auto ps_code = assemble(R"(ps_5_0
.input SV_Position0 v0.xyzw float
.output SV_Target0 o0.xyzw float
dcl_output o0.xyzw
mov o0.xyzw, l(0.000000, 1.000000, 0.000000, 1.000000)
ret
)");
    Scene scene(test);
    Com<ID3D11VertexShader> vs;
    Com<ID3D11HullShader> hs;
    Com<ID3D11DomainShader> ds;
    Com<ID3D11PixelShader> ps;
    REQUIRE(test.device->CreateVertexShader(vs_code.data(), vs_code.size(), nullptr, vs.out()) ==
            S_OK);
    REQUIRE(test.device->CreateHullShader(hs_code.data(), hs_code.size(), nullptr, hs.out()) ==
            S_OK);
    REQUIRE(test.device->CreateDomainShader(ds_code.data(), ds_code.size(), nullptr, ds.out()) ==
            S_OK);
    REQUIRE(test.device->CreatePixelShader(ps_code.data(), ps_code.size(), nullptr, ps.out()) ==
            S_OK);
    CHECK(test.messages().empty());
    test.context->VSSetShader(vs.get(), nullptr, 0);
    test.context->HSSetShader(hs.get(), nullptr, 0);
    test.context->DSSetShader(ds.get(), nullptr, 0);
    test.context->PSSetShader(ps.get(), nullptr, 0);
    test.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_4_CONTROL_POINT_PATCHLIST);
    const auto rasterizer = scene.rasterizer(D3D11_CULL_NONE, FALSE, FALSE);
    // The patch's corners: top left, top right, bottom left, bottom right.
    const std::vector<Vertex> corners = {{-1, 1, 0.5f, 1, 0, 0, 0, 0},
                                         {1, 1, 0.5f, 1, 0, 0, 0, 0},
                                         {-1, -1, 0.5f, 1, 0, 0, 0, 0},
                                         {1, -1, 0.5f, 1, 0, 0, 0, 0}};
    const auto vb = scene.vertices(corners);
    scene.draw(4);
    CHECK(scene.texels() == rows(4, rgba(0, 255, 0, 255), 0));
    check_validation_clean();
}

TEST_CASE("Occlusion queries count the samples drawn, and occlusion predicates skip draws",
          "[draw][query]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    const std::uint32_t black = rgba(0, 0, 0, 255), red = rgba(255, 0, 0, 255);
    auto vertices = quad(-1, 0, 1, 1, 0.5f, {1, 0, 0, 1});     // the top half: 8 pixels
    const auto hidden = quad(2, 2, 3, 3, 0.5f, {0, 1, 0, 1});  // outside the viewport
    const auto whole = quad(-1, -1, 1, 1, 0.5f, {1, 1, 1, 1});
    vertices.insert(vertices.end(), hidden.begin(), hidden.end());
    vertices.insert(vertices.end(), whole.begin(), whole.end());
    const auto vb = scene.vertices(vertices);
    auto query = [&](D3D11_QUERY kind) {
        const D3D11_QUERY_DESC desc{kind, 0};
        Com<ID3D11Predicate> made;
        REQUIRE(test.device->CreatePredicate(&desc, made.out()) == S_OK);
        return made;
    };
    const D3D11_QUERY_DESC occlusion_desc{D3D11_QUERY_OCCLUSION, 0};
    Com<ID3D11Query> occlusion;
    REQUIRE(test.device->CreateQuery(&occlusion_desc, occlusion.out()) == S_OK);
    test.context->Begin(occlusion.get());
    test.context->Draw(6, 0);
    test.context->End(occlusion.get());
    UINT64 samples = 0;
    REQUIRE(test.context->GetData(occlusion.get(), &samples, sizeof samples, 0) == S_OK);
    CHECK(samples == 8);

    // Nothing of the hidden quad passes: predicated on FALSE, the whole-target
    // draw is skipped (the predicate's result not read by the program yet).
    const auto nothing = query(D3D11_QUERY_OCCLUSION_PREDICATE);
    test.context->Begin(nothing.get());
    test.context->Draw(6, 6);
    test.context->End(nothing.get());
    test.context->SetPredication(nothing.get(), FALSE);
    test.context->Draw(6, 12);
    test.context->SetPredication(nullptr, FALSE);  // the read back is a copy, predicated too
    CHECK(scene.texels() == rows(2, red, black));
    BOOL passed = TRUE;
    REQUIRE(test.context->GetData(nothing.get(), &passed, sizeof passed, 0) == S_OK);
    CHECK(passed == FALSE);
    // The first quad's samples pass: the draw runs.
    const auto something = query(D3D11_QUERY_OCCLUSION_PREDICATE);
    test.context->SetPredication(nullptr, FALSE);
    test.context->Begin(something.get());
    test.context->Draw(6, 0);
    test.context->End(something.get());
    test.context->SetPredication(something.get(), FALSE);
    test.context->Draw(6, 12);
    test.context->SetPredication(nullptr, FALSE);
    CHECK(scene.texels() == rows(4, rgba(255, 255, 255, 255), 0));
    check_validation_clean();
}

TEST_CASE("A draw recorded on a deferred context runs when its command list executes",
          "[draw][deferred]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    const auto vb = scene.vertices(quad(-1, 0, 1, 1, 0.5f, {1.0f, 0.2f, 0.6f, 1.0f}));
    Com<ID3D11DeviceContext> deferred;
    REQUIRE(test.device->CreateDeferredContext(0, deferred.out()) == S_OK);
    // The deferred context's own state: the scene's bindings again.
    ID3D11Buffer* buffers[] = {vb.get()};
    const UINT stride = sizeof(Vertex), offset = 0;
    deferred->IASetVertexBuffers(0, 1, buffers, &stride, &offset);
    deferred->IASetInputLayout(scene.layout.get());
    deferred->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    deferred->VSSetShader(scene.vs.get(), nullptr, 0);
    deferred->PSSetShader(scene.ps.get(), nullptr, 0);
    ID3D11RenderTargetView* targets[] = {scene.rtv.get()};
    deferred->OMSetRenderTargets(1, targets, nullptr);
    const D3D11_VIEWPORT viewport{0, 0, 4, 4, 0, 1};
    deferred->RSSetViewports(1, &viewport);
    deferred->Draw(6, 0);
    Com<ID3D11CommandList> list;
    REQUIRE(deferred->FinishCommandList(FALSE, list.out()) == S_OK);
    CHECK(scene.texels() == rows(0, 0, rgba(0, 0, 0, 255)));  // nothing ran yet
    test.clear_messages();
    test.context->ExecuteCommandList(list.get(), TRUE);
    INFO(test.last_message());
    CHECK(test.messages().empty());
    CHECK(scene.texels() == rows(2, rgba(255, 51, 153, 255), rgba(0, 0, 0, 255)));
    check_validation_clean();
}

TEST_CASE("An instance step rate of 2 gives two instances each element", "[draw][instancing]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    const std::uint32_t colours[2] = {rgba(255, 0, 0, 255), rgba(0, 255, 0, 255)};
    const StepRateColumns columns(test, colours, 0);
    test.clear_messages();
    test.context->DrawInstanced(6, 4, 0, 0);
    INFO(test.last_message());
    CHECK(test.messages().empty());
    std::vector<std::uint32_t> expected;
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) expected.push_back(colours[x / 2]);
    CHECK(scene.texels() == expected);
    check_validation_clean();
}

TEST_CASE("StartInstanceLocation is added after the step rate divides, past the slot's offset",
          "[draw][instancing]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    // Instance i's colour is element 1 + i / 2 of slot 1, whose buffer is
    // bound 4 bytes (one element) in.
    const std::uint32_t colours[4] = {rgba(255, 0, 0, 255), rgba(0, 255, 0, 255),
                                      rgba(0, 0, 255, 255), rgba(240, 240, 240, 255)};
    const StepRateColumns columns(test, colours, 4);
    test.clear_messages();
    test.context->DrawInstanced(6, 4, 0, 1);
    INFO(test.last_message());
    CHECK(test.messages().empty());
    std::vector<std::uint32_t> expected;
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) expected.push_back(colours[2 + x / 2]);
    CHECK(scene.texels() == expected);

    // The same from an indirect draw's arguments.
    const float black[4] = {0, 0, 0, 1};
    test.context->ClearRenderTargetView(scene.rtv.get(), black);
    const UINT arguments[4] = {6, 4, 0, 1};
    auto argument_buffer = test.buffer(sizeof arguments, 0, D3D11_USAGE_DEFAULT, 0,
                                       D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS, 0, arguments);
    test.context->DrawInstancedIndirect(argument_buffer.get(), 0);
    CHECK(scene.texels() == expected);
    check_validation_clean();
}

TEST_CASE("Dual-source blending takes the second source from the pixel shader's o1",
          "[draw][blend]") {
    TestDevice& test = *hardware_device();
    Scene scene(test, R"(ps_5_0
.input SV_Position0 v0.xyzw float
.input COLOR0 v1.xyzw float
.output SV_Target0 o0.xyzw float
.output SV_Target1 o1.xyzw float
dcl_output o0.xyzw
dcl_output o1.xyzw
mov o0.xyzw, l(0.200000, 0.000000, 0.000000, 1.000000)
mov o1.xyzw, l(0.600000, 0.200000, 0.000000, 0.000000)
ret
)");
    const float white[4] = {1, 1, 1, 1};
    test.context->ClearRenderTargetView(scene.rtv.get(), white);
    // colour = source 0 + destination * source 1; alpha = source 0's.
    D3D11_BLEND_DESC blend{};
    D3D11_RENDER_TARGET_BLEND_DESC& t = blend.RenderTarget[0];
    t.BlendEnable = TRUE;
    t.SrcBlend = D3D11_BLEND_ONE;
    t.DestBlend = D3D11_BLEND_SRC1_COLOR;
    t.BlendOp = D3D11_BLEND_OP_ADD;
    t.SrcBlendAlpha = D3D11_BLEND_ONE;
    t.DestBlendAlpha = D3D11_BLEND_ZERO;
    t.BlendOpAlpha = D3D11_BLEND_OP_ADD;
    t.RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL;
    Com<ID3D11BlendState> state;
    REQUIRE(test.device->CreateBlendState(&blend, state.out()) == S_OK);
    test.context->OMSetBlendState(state.get(), nullptr, 0xffffffff);
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {0, 0, 0, 0}));
    scene.draw(6);
    CHECK(scene.texels() == rows(4, rgba(204, 51, 0, 255), 0));
    check_validation_clean();
}

TEST_CASE(
    "Pipeline-statistics queries count a draw's vertices and primitives and a dispatch's "
    "invocations",
    "[draw][query]") {
    TestDevice& test = *hardware_device();
    Scene scene(test);
    const auto vb = scene.vertices(quad(-1, -1, 1, 1, 0.5f, {1, 1, 1, 1}));
    const D3D11_QUERY_DESC desc{D3D11_QUERY_PIPELINE_STATISTICS, 0};
    Com<ID3D11Query> query;
    REQUIRE(test.device->CreateQuery(&desc, query.out()) == S_OK);
    // 64-thread groups writing nothing.
    const auto shader = compute_shader(test, R"(cs_5_0
dcl_thread_group 64, 1, 1
ret
)");
    test.context->Begin(query.get());
    test.context->Draw(6, 0);
    test.context->CSSetShader(shader.get(), nullptr, 0);
    test.context->Dispatch(3, 1, 1);
    test.context->End(query.get());
    D3D11_QUERY_DATA_PIPELINE_STATISTICS statistics{};
    REQUIRE(test.context->GetData(query.get(), &statistics, sizeof statistics, 0) == S_OK);
    CHECK(statistics.IAVertices == 6);
    CHECK(statistics.IAPrimitives == 2);
    CHECK(statistics.CInvocations == 2);
    CHECK(statistics.GSInvocations == 0);
    CHECK(statistics.HSInvocations == 0);
    CHECK(statistics.CSInvocations == 3 * 64);
    check_validation_clean();
}
