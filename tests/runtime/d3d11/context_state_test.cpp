// Every Set/Get pair of the context round-trips; constant-buffer windows
// follow the 16-constant and 4096-constant rules; ClearState resets all.
#include "object_support.h"

using namespace object_tests;

namespace {

// The Set/Get methods of one shader stage, as member pointers.
template <class Shader>
struct StageCalls {
    const char* name;
    std::uint32_t program_type;
    void (STDMETHODCALLTYPE ID3D11DeviceContext::*set_cbs)(UINT, UINT, ID3D11Buffer* const*);
    void (STDMETHODCALLTYPE ID3D11DeviceContext::*get_cbs)(UINT, UINT, ID3D11Buffer**);
    void (STDMETHODCALLTYPE ID3D11DeviceContext1::*set_cbs1)(UINT, UINT, ID3D11Buffer* const*,
                                                             const UINT*, const UINT*);
    void (STDMETHODCALLTYPE ID3D11DeviceContext1::*get_cbs1)(UINT, UINT, ID3D11Buffer**, UINT*,
                                                             UINT*);
    void (STDMETHODCALLTYPE ID3D11DeviceContext::*set_srvs)(UINT, UINT,
                                                            ID3D11ShaderResourceView* const*);
    void (STDMETHODCALLTYPE ID3D11DeviceContext::*get_srvs)(UINT, UINT, ID3D11ShaderResourceView**);
    void (STDMETHODCALLTYPE ID3D11DeviceContext::*set_samplers)(UINT, UINT,
                                                                ID3D11SamplerState* const*);
    void (STDMETHODCALLTYPE ID3D11DeviceContext::*get_samplers)(UINT, UINT, ID3D11SamplerState**);
    void (STDMETHODCALLTYPE ID3D11DeviceContext::*set_shader)(Shader*, ID3D11ClassInstance* const*,
                                                              UINT);
    void (STDMETHODCALLTYPE ID3D11DeviceContext::*get_shader)(Shader**, ID3D11ClassInstance**,
                                                              UINT*);
    HRESULT(STDMETHODCALLTYPE ID3D11Device::*create)
    (const void*, SIZE_T, ID3D11ClassLinkage*, Shader**);
};

using C = ID3D11DeviceContext;
using C1 = ID3D11DeviceContext1;
using D = ID3D11Device;

template <class Shader>
void check_stage(const StageCalls<Shader>& calls) {
    INFO("stage " << calls.name);
    TestDevice test;
    C* context = test.context.get();
    C1* context1 = test.context.get();

    auto cb = test.buffer(4096 * 16 * 2, D3D11_BIND_CONSTANT_BUFFER);
    ID3D11Buffer* buffers[2] = {cb.get(), nullptr};
    (context->*calls.set_cbs)(12, 2, buffers);
    Com<ID3D11Buffer> read[2];
    ID3D11Buffer* raw[2] = {};
    (context->*calls.get_cbs)(12, 2, raw);
    read[0] = Com<ID3D11Buffer>(raw[0]);
    read[1] = Com<ID3D11Buffer>(raw[1]);
    CHECK(read[0].get() == cb.get());
    CHECK(read[1].get() == nullptr);

    // Windows: offsets and counts in 16-constant steps, at most 4096.
    const UINT first[1] = {4096}, count[1] = {256};
    (context1->*calls.set_cbs1)(3, 1, buffers, first, count);
    UINT got_first = 0, got_count = 0;
    (context1->*calls.get_cbs1)(3, 1, raw, &got_first, &got_count);
    Com<ID3D11Buffer> windowed(raw[0]);
    CHECK(windowed.get() == cb.get());
    CHECK(got_first == 4096);
    CHECK(got_count == 256);
    // A plain bind shows the whole window [0, 4096).
    (context1->*calls.get_cbs1)(12, 1, raw, &got_first, &got_count);
    Com<ID3D11Buffer> plain(raw[0]);
    CHECK(got_first == 0);
    CHECK(got_count == 4096);
    // So does an empty slot, before and after ClearState (as on Windows).
    got_first = got_count = 7;
    (context1->*calls.get_cbs1)(13, 1, raw, &got_first, &got_count);
    CHECK(raw[0] == nullptr);
    CHECK(got_first == 0);
    CHECK(got_count == 4096);

    auto view_texture =
        test.texture2d(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE);
    Com<ID3D11ShaderResourceView> srv;
    REQUIRE(test.device->CreateShaderResourceView(view_texture.get(), nullptr, srv.out()) == S_OK);
    ID3D11ShaderResourceView* views[1] = {srv.get()};
    (context->*calls.set_srvs)(127, 1, views);
    ID3D11ShaderResourceView* got_view = nullptr;
    (context->*calls.get_srvs)(127, 1, &got_view);
    Com<ID3D11ShaderResourceView> view_ref(got_view);
    CHECK(got_view == srv.get());

    D3D11_SAMPLER_DESC sampler_desc{};
    sampler_desc.Filter = D3D11_FILTER_MIN_MAG_MIP_POINT;
    sampler_desc.AddressU = sampler_desc.AddressV = sampler_desc.AddressW =
        D3D11_TEXTURE_ADDRESS_CLAMP;
    sampler_desc.MaxLOD = D3D11_FLOAT32_MAX;
    Com<ID3D11SamplerState> sampler;
    REQUIRE(test.device->CreateSamplerState(&sampler_desc, sampler.out()) == S_OK);
    ID3D11SamplerState* samplers[1] = {sampler.get()};
    (context->*calls.set_samplers)(15, 1, samplers);
    ID3D11SamplerState* got_sampler = nullptr;
    (context->*calls.get_samplers)(15, 1, &got_sampler);
    Com<ID3D11SamplerState> sampler_ref(got_sampler);
    CHECK(got_sampler == sampler.get());

    const auto bytecode = fake_shader(calls.program_type);
    Com<Shader> shader;
    ID3D11Device* device = test.device.get();
    REQUIRE((device->*calls.create)(bytecode.data(), bytecode.size(), nullptr, shader.out()) ==
            S_OK);
    (context->*calls.set_shader)(shader.get(), nullptr, 0);
    Shader* got_shader = nullptr;
    UINT instances = 99;
    (context->*calls.get_shader)(&got_shader, nullptr, &instances);
    Com<Shader> shader_ref(got_shader);
    CHECK(got_shader == shader.get());
    CHECK(instances == 0);

    // Out-of-range slots drop the call and say why.
    (context->*calls.set_samplers)(15, 2, samplers);
    const std::string prefix = std::string("ID3D11DeviceContext::") + calls.name + "SetSamplers";
    CHECK(test.messages().back().call == prefix);
    CHECK(test.messages().back().parameter == "StartSlot/NumSamplers");
}

}  // namespace

TEST_CASE("Every shader stage's Set/Get pairs round-trip", "[context][state]") {
    check_stage<ID3D11VertexShader>({"VS", 1, &C::VSSetConstantBuffers, &C::VSGetConstantBuffers,
                                     &C1::VSSetConstantBuffers1, &C1::VSGetConstantBuffers1,
                                     &C::VSSetShaderResources, &C::VSGetShaderResources,
                                     &C::VSSetSamplers, &C::VSGetSamplers, &C::VSSetShader,
                                     &C::VSGetShader, &D::CreateVertexShader});
    check_stage<ID3D11HullShader>({"HS", 3, &C::HSSetConstantBuffers, &C::HSGetConstantBuffers,
                                   &C1::HSSetConstantBuffers1, &C1::HSGetConstantBuffers1,
                                   &C::HSSetShaderResources, &C::HSGetShaderResources,
                                   &C::HSSetSamplers, &C::HSGetSamplers, &C::HSSetShader,
                                   &C::HSGetShader, &D::CreateHullShader});
    check_stage<ID3D11DomainShader>({"DS", 4, &C::DSSetConstantBuffers, &C::DSGetConstantBuffers,
                                     &C1::DSSetConstantBuffers1, &C1::DSGetConstantBuffers1,
                                     &C::DSSetShaderResources, &C::DSGetShaderResources,
                                     &C::DSSetSamplers, &C::DSGetSamplers, &C::DSSetShader,
                                     &C::DSGetShader, &D::CreateDomainShader});
    check_stage<ID3D11GeometryShader>({"GS", 2, &C::GSSetConstantBuffers, &C::GSGetConstantBuffers,
                                       &C1::GSSetConstantBuffers1, &C1::GSGetConstantBuffers1,
                                       &C::GSSetShaderResources, &C::GSGetShaderResources,
                                       &C::GSSetSamplers, &C::GSGetSamplers, &C::GSSetShader,
                                       &C::GSGetShader, &D::CreateGeometryShader});
    check_stage<ID3D11PixelShader>({"PS", 0, &C::PSSetConstantBuffers, &C::PSGetConstantBuffers,
                                    &C1::PSSetConstantBuffers1, &C1::PSGetConstantBuffers1,
                                    &C::PSSetShaderResources, &C::PSGetShaderResources,
                                    &C::PSSetSamplers, &C::PSGetSamplers, &C::PSSetShader,
                                    &C::PSGetShader, &D::CreatePixelShader});
    check_stage<ID3D11ComputeShader>({"CS", 5, &C::CSSetConstantBuffers, &C::CSGetConstantBuffers,
                                      &C1::CSSetConstantBuffers1, &C1::CSGetConstantBuffers1,
                                      &C::CSSetShaderResources, &C::CSGetShaderResources,
                                      &C::CSSetSamplers, &C::CSGetSamplers, &C::CSSetShader,
                                      &C::CSGetShader, &D::CreateComputeShader});
}

TEST_CASE("SetConstantBuffers1 drops windows that break the 16- and 4096-constant rules",
          "[context][state]") {
    TestDevice test;
    auto cb = test.buffer(65536, D3D11_BIND_CONSTANT_BUFFER);
    auto other = test.buffer(256, D3D11_BIND_CONSTANT_BUFFER);
    ID3D11Buffer* buffer = cb.get();
    ID3D11Buffer* other_buffer = other.get();
    // Bound first so that a dropped call visibly leaves it.
    test.context->PSSetConstantBuffers(0, 1, &other_buffer);
    auto bound_first = [&] {
        ID3D11Buffer* raw = nullptr;
        UINT first = 0, count = 0;
        test.context->PSGetConstantBuffers1(0, 1, &raw, &first, &count);
        Com<ID3D11Buffer> ref(raw);
        return std::tuple{raw, first, count};
    };

    const UINT unaligned_first = 8, sixteen = 16;
    test.context->PSSetConstantBuffers1(0, 1, &buffer, &unaligned_first, &sixteen);
    CHECK(test.last_message() ==
          "ID3D11DeviceContext1::PSSetConstantBuffers1: pFirstConstant[0]: 8 is not a multiple of "
          "16 constants; the call is dropped");
    CHECK(std::get<0>(bound_first()) == other_buffer);

    const UINT zero = 0, unaligned_count = 40;
    test.context->PSSetConstantBuffers1(0, 1, &buffer, &zero, &unaligned_count);
    CHECK(test.messages().back().parameter == "pNumConstants[0]");
    CHECK(std::get<0>(bound_first()) == other_buffer);

    const UINT too_many = 4096 + 16;
    test.context->PSSetConstantBuffers1(0, 1, &buffer, &zero, &too_many);
    CHECK(test.last_message() ==
          "ID3D11DeviceContext1::PSSetConstantBuffers1: pNumConstants[0]: 4112 is more than the "
          "4096 constants a shader can see; the call is dropped");
    CHECK(std::get<0>(bound_first()) == other_buffer);

    test.context->PSSetConstantBuffers1(0, 1, &buffer, &zero, nullptr);
    CHECK(test.messages().back().parameter == "pNumConstants");
    CHECK(std::get<0>(bound_first()) == other_buffer);

    // A window may reach past the buffer's end; the shader sees the overlap.
    const UINT far_first = 8192, full = 4096;
    test.context->PSSetConstantBuffers1(0, 1, &buffer, &far_first, &full);
    const auto [raw, first, count] = bound_first();
    CHECK(raw == buffer);
    CHECK(first == 8192);
    CHECK(count == 4096);

    // Buffers without the constant-buffer bind flag leave the slot NULL.
    auto vertices = test.buffer(64, D3D11_BIND_VERTEX_BUFFER);
    ID3D11Buffer* wrong = vertices.get();
    test.context->VSSetConstantBuffers(0, 1, &wrong);
    ID3D11Buffer* slot = reinterpret_cast<ID3D11Buffer*>(1);
    test.context->VSGetConstantBuffers(0, 1, &slot);
    CHECK(slot == nullptr);
}

TEST_CASE("Input assembler / output merger / rasterizer and stream output round-trip",
          "[context][state]") {
    TestDevice test;
    ID3D11DeviceContext* context = test.context.get();
    auto vb = test.buffer(256, D3D11_BIND_VERTEX_BUFFER);
    auto ib = test.buffer(256, D3D11_BIND_INDEX_BUFFER);
    ID3D11Buffer* vbs[2] = {vb.get(), vb.get()};
    const UINT strides[2] = {12, 20}, offsets[2] = {0, 64};
    context->IASetVertexBuffers(30, 2, vbs, strides, offsets);
    ID3D11Buffer* got[2] = {};
    UINT got_strides[2] = {}, got_offsets[2] = {};
    context->IAGetVertexBuffers(30, 2, got, got_strides, got_offsets);
    Com<ID3D11Buffer> g0(got[0]), g1(got[1]);
    CHECK(got[1] == vb.get());
    CHECK(got_strides[1] == 20);
    CHECK(got_offsets[1] == 64);

    context->IASetIndexBuffer(ib.get(), DXGI_FORMAT_R16_UINT, 6);
    ID3D11Buffer* got_ib = nullptr;
    DXGI_FORMAT format{};
    UINT offset = 0;
    context->IAGetIndexBuffer(&got_ib, &format, &offset);
    Com<ID3D11Buffer> ib_ref(got_ib);
    CHECK(got_ib == ib.get());
    CHECK(format == DXGI_FORMAT_R16_UINT);
    CHECK(offset == 6);
    context->IASetIndexBuffer(ib.get(), DXGI_FORMAT_R8_UINT, 0);  // dropped
    CHECK(test.messages().back().parameter == "Format");

    context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);
    D3D11_PRIMITIVE_TOPOLOGY topology{};
    context->IAGetPrimitiveTopology(&topology);
    CHECK(topology == D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);

    auto target = test.texture2d(8, 8, DXGI_FORMAT_R8G8B8A8_UNORM,
                                 D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS);
    auto depth = test.texture2d(8, 8, DXGI_FORMAT_D24_UNORM_S8_UINT, D3D11_BIND_DEPTH_STENCIL);
    Com<ID3D11RenderTargetView> rtv;
    Com<ID3D11DepthStencilView> dsv;
    Com<ID3D11UnorderedAccessView> uav;
    REQUIRE(test.device->CreateRenderTargetView(target.get(), nullptr, rtv.out()) == S_OK);
    REQUIRE(test.device->CreateDepthStencilView(depth.get(), nullptr, dsv.out()) == S_OK);
    REQUIRE(test.device->CreateUnorderedAccessView(target.get(), nullptr, uav.out()) == S_OK);
    ID3D11RenderTargetView* rtvs[1] = {rtv.get()};
    ID3D11UnorderedAccessView* uavs[1] = {uav.get()};
    context->OMSetRenderTargetsAndUnorderedAccessViews(1, rtvs, dsv.get(), 2, 1, uavs, nullptr);
    ID3D11RenderTargetView* got_rtvs[2] = {};
    ID3D11DepthStencilView* got_dsv = nullptr;
    ID3D11UnorderedAccessView* got_uavs[3] = {};
    context->OMGetRenderTargetsAndUnorderedAccessViews(2, got_rtvs, &got_dsv, 1, 3, got_uavs);
    Com<ID3D11RenderTargetView> r0(got_rtvs[0]);
    Com<ID3D11DepthStencilView> d0(got_dsv);
    Com<ID3D11UnorderedAccessView> u1(got_uavs[1]);
    CHECK(got_rtvs[0] == rtv.get());
    CHECK(got_rtvs[1] == nullptr);
    CHECK(got_dsv == dsv.get());
    CHECK(got_uavs[0] == nullptr);
    CHECK(got_uavs[1] == uav.get());
    // UAV slots start at or after the render targets.
    context->OMSetRenderTargetsAndUnorderedAccessViews(2, rtvs, nullptr, 1, 1, uavs, nullptr);
    CHECK(test.messages().back().parameter == "UAVStartSlot");

    context->CSSetUnorderedAccessViews(63, 1, uavs, nullptr);  // 64 slots at 11_1
    ID3D11UnorderedAccessView* got_cs = nullptr;
    context->CSGetUnorderedAccessViews(63, 1, &got_cs);
    Com<ID3D11UnorderedAccessView> cs_ref(got_cs);
    CHECK(got_cs == uav.get());

    const FLOAT factor[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    context->OMSetBlendState(nullptr, factor, 0x0f);
    FLOAT got_factor[4] = {};
    UINT mask = 0;
    ID3D11BlendState* blend = reinterpret_cast<ID3D11BlendState*>(1);
    context->OMGetBlendState(&blend, got_factor, &mask);
    CHECK(blend == nullptr);
    CHECK(got_factor[2] == 0.75f);
    CHECK(mask == 0x0f);
    context->OMSetBlendState(nullptr, nullptr, 0xffffffff);
    context->OMGetBlendState(&blend, got_factor, &mask);
    CHECK(got_factor[0] == 1.0f);

    context->OMSetDepthStencilState(nullptr, 0x42);
    UINT stencil_ref = 0;
    ID3D11DepthStencilState* dss = nullptr;
    context->OMGetDepthStencilState(&dss, &stencil_ref);
    CHECK(stencil_ref == 0x42);

    const D3D11_VIEWPORT viewports[2] = {{0, 0, 640, 480, 0, 1}, {10, 20, 30, 40, 0.5f, 1}};
    context->RSSetViewports(2, viewports);
    UINT viewport_count = 0;
    context->RSGetViewports(&viewport_count, nullptr);
    CHECK(viewport_count == 2);
    D3D11_VIEWPORT got_viewports[3] = {};
    viewport_count = 3;
    context->RSGetViewports(&viewport_count, got_viewports);
    CHECK(got_viewports[1].TopLeftY == 20.0f);
    CHECK(got_viewports[2].Width == 0.0f);
    CHECK(viewport_count == 2);  // the count bound, written back
    viewport_count = 1;
    context->RSGetViewports(&viewport_count, got_viewports);
    CHECK(viewport_count == 2);
    const D3D11_RECT rects[1] = {{1, 2, 3, 4}};
    context->RSSetScissorRects(1, rects);
    UINT rect_count = 3;
    D3D11_RECT got_rects[3] = {{9, 9, 9, 9}, {9, 9, 9, 9}, {9, 9, 9, 9}};
    context->RSGetScissorRects(&rect_count, got_rects);
    CHECK(got_rects[0].bottom == 4);
    CHECK(got_rects[1].right == 0);  // past the bound ones: zeros
    CHECK(rect_count == 1);

    auto so = test.buffer(256, D3D11_BIND_STREAM_OUTPUT);
    ID3D11Buffer* targets[1] = {so.get()};
    const UINT so_offsets[1] = {16};
    context->SOSetTargets(1, targets, so_offsets);
    ID3D11Buffer* got_so[2] = {};
    context->SOGetTargets(2, got_so);
    Com<ID3D11Buffer> so_ref(got_so[0]);
    CHECK(got_so[0] == so.get());
    CHECK(got_so[1] == nullptr);

    const D3D11_QUERY_DESC occlusion{D3D11_QUERY_OCCLUSION_PREDICATE, 0};
    Com<ID3D11Predicate> predicate;
    REQUIRE(test.device->CreatePredicate(&occlusion, predicate.out()) == S_OK);
    context->SetPredication(predicate.get(), TRUE);
    ID3D11Predicate* got_predicate = nullptr;
    BOOL value = FALSE;
    context->GetPredication(&got_predicate, &value);
    Com<ID3D11Predicate> predicate_ref(got_predicate);
    CHECK(got_predicate == predicate.get());
    CHECK(value == TRUE);
}

TEST_CASE("ClearState returns every binding to its default", "[context][state]") {
    TestDevice test;
    ID3D11DeviceContext* context = test.context.get();
    auto vb = test.buffer(64, D3D11_BIND_VERTEX_BUFFER);
    ID3D11Buffer* buffer = vb.get();
    const UINT stride = 4, offset = 0;
    context->IASetVertexBuffers(0, 1, &buffer, &stride, &offset);
    context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_POINTLIST);
    const FLOAT factor[4] = {0, 0, 0, 0};
    context->OMSetBlendState(nullptr, factor, 3);
    const D3D11_VIEWPORT viewport{0, 0, 1, 1, 0, 1};
    context->RSSetViewports(1, &viewport);
    const auto bytecode = fake_shader(0);
    Com<ID3D11PixelShader> shader;
    REQUIRE(test.device->CreatePixelShader(bytecode.data(), bytecode.size(), nullptr,
                                           shader.out()) == S_OK);
    context->PSSetShader(shader.get(), nullptr, 0);
    auto cb = test.buffer(256, D3D11_BIND_CONSTANT_BUFFER);
    ID3D11Buffer* constants = cb.get();
    const UINT first = 16, num = 16;
    test.context->PSSetConstantBuffers1(1, 1, &constants, &first, &num);

    context->ClearState();
    ID3D11Buffer* got_cb = constants;
    UINT got_first = 9, got_num = 9;
    test.context->PSGetConstantBuffers1(1, 1, &got_cb, &got_first, &got_num);
    CHECK(got_cb == nullptr);
    CHECK(got_first == 0);
    CHECK(got_num == 4096);
    ID3D11Buffer* got = reinterpret_cast<ID3D11Buffer*>(1);
    UINT got_stride = 9, got_offset = 9;
    context->IAGetVertexBuffers(0, 1, &got, &got_stride, &got_offset);
    CHECK(got == nullptr);
    CHECK(got_stride == 0);
    D3D11_PRIMITIVE_TOPOLOGY topology{};
    context->IAGetPrimitiveTopology(&topology);
    CHECK(topology == D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED);
    FLOAT got_factor[4] = {};
    UINT mask = 0;
    context->OMGetBlendState(nullptr, got_factor, &mask);
    CHECK(got_factor[3] == 1.0f);
    CHECK(mask == 0xffffffff);
    UINT count = 5;
    context->RSGetViewports(&count, nullptr);
    CHECK(count == 0);
    ID3D11PixelShader* got_shader = reinterpret_cast<ID3D11PixelShader*>(1);
    context->PSGetShader(&got_shader, nullptr, nullptr);
    CHECK(got_shader == nullptr);
    // The shader lives on: only the binding went away.
    CHECK(count_of(shader.get()) == 1);
}
