// Views (NULL-desc defaults, resolved descs, validation), state objects
// (defaults, de-duplication), shaders, input layouts and queries.
#include "object_support.h"

using namespace object_tests;

TEST_CASE("A NULL view desc stands for the whole resource - GetDesc returns it resolved",
          "[object][views]") {
    TestDevice test;
    auto array = test.texture2d(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM,
                                D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET, 0, 3);
    Com<ID3D11ShaderResourceView> srv;
    REQUIRE(test.device->CreateShaderResourceView(array.get(), nullptr, srv.out()) == S_OK);
    D3D11_SHADER_RESOURCE_VIEW_DESC srv_desc{};
    srv->GetDesc(&srv_desc);
    CHECK(srv_desc.Format == DXGI_FORMAT_R8G8B8A8_UNORM);
    CHECK(srv_desc.ViewDimension == D3D11_SRV_DIMENSION_TEXTURE2DARRAY);
    CHECK(srv_desc.Texture2DArray.MostDetailedMip == 0);
    CHECK(srv_desc.Texture2DArray.MipLevels == 5);
    CHECK(srv_desc.Texture2DArray.FirstArraySlice == 0);
    CHECK(srv_desc.Texture2DArray.ArraySize == 3);
    Com<ID3D11Resource> resource;
    srv->GetResource(resource.out());
    CHECK(static_cast<void*>(resource.get()) == static_cast<void*>(array.get()));

    Com<ID3D11RenderTargetView> rtv;
    REQUIRE(test.device->CreateRenderTargetView(array.get(), nullptr, rtv.out()) == S_OK);
    D3D11_RENDER_TARGET_VIEW_DESC rtv_desc{};
    rtv->GetDesc(&rtv_desc);
    CHECK(rtv_desc.ViewDimension == D3D11_RTV_DIMENSION_TEXTURE2DARRAY);
    CHECK(rtv_desc.Texture2DArray.MipSlice == 0);
    CHECK(rtv_desc.Texture2DArray.ArraySize == 3);

    // "All remaining mips" (-1) comes back as a count.
    D3D11_SHADER_RESOURCE_VIEW_DESC partial{};
    partial.Format = DXGI_FORMAT_R8G8B8A8_UNORM_SRGB;
    partial.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DARRAY;
    partial.Texture2DArray = {2, UINT(-1), 1, 2};
    auto typeless =
        test.texture2d(16, 16, DXGI_FORMAT_R8G8B8A8_TYPELESS, D3D11_BIND_SHADER_RESOURCE, 0, 3);
    REQUIRE(test.device->CreateShaderResourceView(typeless.get(), &partial, srv.out()) == S_OK);
    srv->GetDesc(&srv_desc);
    CHECK(srv_desc.Texture2DArray.MostDetailedMip == 2);
    CHECK(srv_desc.Texture2DArray.MipLevels == 3);

    auto cube = test.texture2d(8, 8, DXGI_FORMAT_R16G16B16A16_FLOAT, D3D11_BIND_SHADER_RESOURCE, 1,
                               6, D3D11_USAGE_DEFAULT, 0, D3D11_RESOURCE_MISC_TEXTURECUBE);
    REQUIRE(test.device->CreateShaderResourceView(cube.get(), nullptr, srv.out()) == S_OK);
    srv->GetDesc(&srv_desc);
    CHECK(srv_desc.ViewDimension == D3D11_SRV_DIMENSION_TEXTURECUBE);
    CHECK(srv_desc.TextureCube.MipLevels == 1);

    auto depth = test.texture2d(8, 8, DXGI_FORMAT_D32_FLOAT, D3D11_BIND_DEPTH_STENCIL);
    Com<ID3D11DepthStencilView> dsv;
    REQUIRE(test.device->CreateDepthStencilView(depth.get(), nullptr, dsv.out()) == S_OK);
    D3D11_DEPTH_STENCIL_VIEW_DESC dsv_desc{};
    dsv->GetDesc(&dsv_desc);
    CHECK(dsv_desc.Format == DXGI_FORMAT_D32_FLOAT);
    CHECK(dsv_desc.ViewDimension == D3D11_DSV_DIMENSION_TEXTURE2D);
    CHECK(dsv_desc.Flags == 0);

    auto structured =
        test.buffer(64, D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_UNORDERED_ACCESS,
                    D3D11_USAGE_DEFAULT, 0, D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 16);
    Com<ID3D11UnorderedAccessView> uav;
    REQUIRE(test.device->CreateUnorderedAccessView(structured.get(), nullptr, uav.out()) == S_OK);
    D3D11_UNORDERED_ACCESS_VIEW_DESC uav_desc{};
    uav->GetDesc(&uav_desc);
    CHECK(uav_desc.Format == DXGI_FORMAT_UNKNOWN);
    CHECK(uav_desc.ViewDimension == D3D11_UAV_DIMENSION_BUFFER);
    CHECK(uav_desc.Buffer.NumElements == 4);
}

TEST_CASE("Views are checked against their resource", "[object][views]") {
    TestDevice test;
    auto texture =
        test.texture2d(16, 16, DXGI_FORMAT_R8G8B8A8_TYPELESS, D3D11_BIND_SHADER_RESOURCE, 2);
    Com<ID3D11ShaderResourceView> srv;
    CHECK(test.device->CreateShaderResourceView(texture.get(), nullptr, srv.out()) == E_INVALIDARG);
    CHECK(test.messages().back().parameter == "pDesc");

    D3D11_SHADER_RESOURCE_VIEW_DESC desc{};
    desc.Format = DXGI_FORMAT_R16G16_FLOAT;  // another cast group
    desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2D;
    desc.Texture2D = {0, 1};
    CHECK(test.device->CreateShaderResourceView(texture.get(), &desc, srv.out()) == E_INVALIDARG);
    CHECK(test.last_message() ==
          "ID3D11Device::CreateShaderResourceView: pDesc->Format: DXGI_FORMAT_R16G16_FLOAT cannot "
          "view a resource of DXGI_FORMAT_R8G8B8A8_TYPELESS");
    desc.Format = DXGI_FORMAT_R8G8B8A8_UINT;
    desc.Texture2D = {1, 2};  // mips 1..2 of 2
    CHECK(test.device->CreateShaderResourceView(texture.get(), &desc, srv.out()) == E_INVALIDARG);
    desc.Texture2D = {1, 1};
    CHECK(test.device->CreateShaderResourceView(texture.get(), &desc, srv.out()) == S_OK);

    Com<ID3D11RenderTargetView> rtv;
    CHECK(test.device->CreateRenderTargetView(texture.get(), nullptr, rtv.out()) == E_INVALIDARG);
    CHECK(test.last_message() ==
          "ID3D11Device::CreateRenderTargetView: pResource: was created without "
          "D3D11_BIND_RENDER_TARGET");
    CHECK(test.device->CreateShaderResourceView(nullptr, nullptr, srv.out()) == E_INVALIDARG);

    auto vertices = test.buffer(64, D3D11_BIND_SHADER_RESOURCE);
    CHECK(test.device->CreateShaderResourceView(vertices.get(), nullptr, srv.out()) ==
          E_INVALIDARG);
    desc = {};
    desc.Format = DXGI_FORMAT_R32_FLOAT;
    desc.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
    desc.Buffer.FirstElement = 4;
    desc.Buffer.NumElements = 13;  // 4 + 13 elements of 4 bytes > 64
    CHECK(test.device->CreateShaderResourceView(vertices.get(), &desc, srv.out()) == E_INVALIDARG);
    desc.Buffer.NumElements = 12;
    CHECK(test.device->CreateShaderResourceView(vertices.get(), &desc, srv.out()) == S_OK);
}

TEST_CASE("Identical state descs give the same object", "[object][states]") {
    TestDevice test;
    D3D11_BLEND_DESC blend{};
    blend.RenderTarget[0] = {TRUE,
                             D3D11_BLEND_SRC_ALPHA,
                             D3D11_BLEND_INV_SRC_ALPHA,
                             D3D11_BLEND_OP_ADD,
                             D3D11_BLEND_ONE,
                             D3D11_BLEND_ZERO,
                             D3D11_BLEND_OP_ADD,
                             D3D11_COLOR_WRITE_ENABLE_ALL};
    Com<ID3D11BlendState> first, second;
    REQUIRE(test.device->CreateBlendState(&blend, first.out()) == S_OK);
    // Without independent blending, targets 1..7 do not count.
    blend.RenderTarget[3].SrcBlend = D3D11_BLEND_DEST_COLOR;
    REQUIRE(test.device->CreateBlendState(&blend, second.out()) == S_OK);
    CHECK(first.get() == second.get());
    CHECK(count_of(first.get()) == 2);
    D3D11_BLEND_DESC read{};
    first->GetDesc(&read);
    CHECK(read.RenderTarget[5].SrcBlend == D3D11_BLEND_SRC_ALPHA);
    auto blend1 = first.as<ID3D11BlendState1>();
    REQUIRE(blend1);
    D3D11_BLEND_DESC1 read1{};
    blend1->GetDesc1(&read1);
    CHECK(read1.RenderTarget[0].LogicOp == D3D11_LOGIC_OP_NOOP);
    blend.IndependentBlendEnable = TRUE;
    Com<ID3D11BlendState> third;
    REQUIRE(test.device->CreateBlendState(&blend, third.out()) == S_OK);
    CHECK(third.get() != first.get());

    // After the last release a new object is made.
    const D3D11_SAMPLER_DESC sampler{D3D11_FILTER_MIN_MAG_MIP_LINEAR,
                                     D3D11_TEXTURE_ADDRESS_WRAP,
                                     D3D11_TEXTURE_ADDRESS_WRAP,
                                     D3D11_TEXTURE_ADDRESS_CLAMP,
                                     0.0f,
                                     1,
                                     D3D11_COMPARISON_NEVER,
                                     {0, 0, 0, 0},
                                     0.0f,
                                     D3D11_FLOAT32_MAX};
    Com<ID3D11SamplerState> s1, s2;
    REQUIRE(test.device->CreateSamplerState(&sampler, s1.out()) == S_OK);
    REQUIRE(test.device->CreateSamplerState(&sampler, s2.out()) == S_OK);
    CHECK(s1.get() == s2.get());
    s1.reset();
    s2.reset();
    REQUIRE(test.device->CreateSamplerState(&sampler, s1.out()) == S_OK);
    D3D11_SAMPLER_DESC read_sampler{};
    s1->GetDesc(&read_sampler);
    CHECK(read_sampler.AddressW == D3D11_TEXTURE_ADDRESS_CLAMP);
    CHECK(count_of(s1.get()) == 1);

    const D3D11_RASTERIZER_DESC raster{
        D3D11_FILL_SOLID, D3D11_CULL_BACK, FALSE, 0, 0.0f, 0.0f, TRUE, FALSE, FALSE, FALSE};
    Com<ID3D11RasterizerState> r1;
    Com<ID3D11RasterizerState1> r2;
    REQUIRE(test.device->CreateRasterizerState(&raster, r1.out()) == S_OK);
    const D3D11_RASTERIZER_DESC1 raster1{
        D3D11_FILL_SOLID, D3D11_CULL_BACK, FALSE, 0, 0.0f, 0.0f, TRUE, FALSE, FALSE, FALSE, 0};
    REQUIRE(test.device->CreateRasterizerState1(&raster1, r2.out()) == S_OK);
    CHECK(static_cast<void*>(r1.get()) == static_cast<void*>(r2.get()));

    D3D11_DEPTH_STENCIL_DESC depth{};
    depth.DepthEnable = TRUE;
    depth.DepthWriteMask = D3D11_DEPTH_WRITE_MASK_ALL;
    depth.DepthFunc = D3D11_COMPARISON_LESS;
    Com<ID3D11DepthStencilState> d1, d2;
    REQUIRE(test.device->CreateDepthStencilState(&depth, d1.out()) == S_OK);
    REQUIRE(test.device->CreateDepthStencilState(&depth, d2.out()) == S_OK);
    CHECK(d1.get() == d2.get());
}

TEST_CASE("State descs with values outside their enums are rejected", "[object][states]") {
    TestDevice test;
    D3D11_RASTERIZER_DESC raster{};  // FillMode 0 is not a fill mode
    Com<ID3D11RasterizerState> state;
    CHECK(test.device->CreateRasterizerState(&raster, state.out()) == E_INVALIDARG);
    CHECK(test.last_message() ==
          "ID3D11Device1::CreateRasterizerState1: pRasterizerDesc->FillMode: 0 is not a "
          "D3D11_FILL_MODE");
    D3D11_BLEND_DESC blend{};
    blend.RenderTarget[0].BlendEnable = TRUE;
    blend.RenderTarget[0].SrcBlend = D3D11_BLEND_ONE;
    blend.RenderTarget[0].DestBlend = D3D11_BLEND_ZERO;
    blend.RenderTarget[0].BlendOp = D3D11_BLEND_OP_ADD;
    blend.RenderTarget[0].SrcBlendAlpha = D3D11_BLEND_SRC_COLOR;  // color factor for alpha
    blend.RenderTarget[0].DestBlendAlpha = D3D11_BLEND_ZERO;
    blend.RenderTarget[0].BlendOpAlpha = D3D11_BLEND_OP_ADD;
    Com<ID3D11BlendState> blend_state;
    CHECK(test.device->CreateBlendState(&blend, blend_state.out()) == E_INVALIDARG);
    // The reference device rasterizes nothing, so it has no logic ops.
    D3D11_FEATURE_DATA_D3D11_OPTIONS options{};
    REQUIRE(test.device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS, &options,
                                             sizeof options) == S_OK);
    CHECK(options.OutputMergerLogicOp == FALSE);
    D3D11_BLEND_DESC1 logic{};
    logic.RenderTarget[0].LogicOpEnable = TRUE;
    logic.RenderTarget[0].LogicOp = D3D11_LOGIC_OP_XOR;
    Com<ID3D11BlendState1> logic_state;
    CHECK(test.device->CreateBlendState1(&logic, logic_state.out()) == E_INVALIDARG);
    CHECK(test.last_message() ==
          "ID3D11Device1::CreateBlendState1: pBlendStateDesc->RenderTarget[0].LogicOpEnable: "
          "logic operations are not supported (OutputMergerLogicOp is FALSE)");
    D3D11_SAMPLER_DESC sampler{};
    sampler.Filter = D3D11_FILTER_ANISOTROPIC;
    sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D11_TEXTURE_ADDRESS_WRAP;
    sampler.MaxAnisotropy = 17;
    Com<ID3D11SamplerState> sampler_state;
    CHECK(test.device->CreateSamplerState(&sampler, sampler_state.out()) == E_INVALIDARG);
    CHECK(test.messages().back().parameter == "pSamplerDesc->MaxAnisotropy");
}

TEST_CASE("Shaders keep DXBC bytecode of their own stage", "[object][shaders]") {
    TestDevice test;
    const auto vertex = fake_shader(1);
    const auto pixel = fake_shader(0);
    Com<ID3D11VertexShader> vs;
    REQUIRE(test.device->CreateVertexShader(vertex.data(), vertex.size(), nullptr, vs.out()) ==
            S_OK);
    CHECK(test.device->CreateVertexShader(pixel.data(), pixel.size(), nullptr, vs.out()) ==
          E_INVALIDARG);
    CHECK(test.last_message() ==
          "ID3D11Device::CreateVertexShader: pShaderBytecode: holds a pixel shader, not a vertex "
          "shader");
    const std::uint8_t junk[40] = {1, 2, 3};
    Com<ID3D11PixelShader> ps;
    CHECK(test.device->CreatePixelShader(junk, sizeof junk, nullptr, ps.out()) == E_INVALIDARG);
    REQUIRE(test.device->CreatePixelShader(pixel.data(), pixel.size(), nullptr, ps.out()) == S_OK);
    const auto compute = fake_shader(5);
    Com<ID3D11ComputeShader> cs;
    REQUIRE(test.device->CreateComputeShader(compute.data(), compute.size(), nullptr, cs.out()) ==
            S_OK);

    // Stream output without a geometry shader takes the vertex (or domain)
    // shader's bytecode; a pixel shader's it refuses.
    const D3D11_SO_DECLARATION_ENTRY so_entry{0, "POSITION", 0, 0, 4, 0};
    const UINT so_stride = 16;
    Com<ID3D11GeometryShader> so;
    CHECK(test.device->CreateGeometryShaderWithStreamOutput(
              vertex.data(), vertex.size(), &so_entry, 1, &so_stride, 1,
              D3D11_SO_NO_RASTERIZED_STREAM, nullptr, so.out()) == S_OK);
    const auto domain = fake_shader(4);
    CHECK(test.device->CreateGeometryShaderWithStreamOutput(domain.data(), domain.size(), &so_entry,
                                                            1, &so_stride, 1, 0, nullptr,
                                                            so.out()) == S_OK);
    CHECK(test.device->CreateGeometryShaderWithStreamOutput(pixel.data(), pixel.size(), &so_entry,
                                                            1, &so_stride, 1, 0, nullptr,
                                                            so.out()) == E_INVALIDARG);
    CHECK(test.last_message() ==
          "ID3D11Device::CreateGeometryShaderWithStreamOutput: pShaderBytecode: holds a pixel "
          "shader, not a geometry, vertex or domain shader");

    const D3D11_INPUT_ELEMENT_DESC elements[] = {
        {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
        {"TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 12, D3D11_INPUT_PER_VERTEX_DATA, 0}};
    Com<ID3D11InputLayout> layout;
    REQUIRE(test.device->CreateInputLayout(elements, 2, vertex.data(), vertex.size(),
                                           layout.out()) == S_OK);
    const D3D11_INPUT_ELEMENT_DESC bad[] = {
        {"POSITION", 0, DXGI_FORMAT_BC1_UNORM, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0}};
    CHECK(test.device->CreateInputLayout(bad, 1, vertex.data(), vertex.size(), layout.out()) ==
          E_INVALIDARG);
    CHECK(test.messages().back().parameter == "pInputElementDescs[0].Format");

    Com<ID3D11ClassLinkage> linkage;
    REQUIRE(test.device->CreateClassLinkage(linkage.out()) == S_OK);
    Com<ID3D11ClassInstance> instance;
    REQUIRE(linkage->CreateClassInstance("Light", 1, 2, 3, 4, instance.out()) == S_OK);
    D3D11_CLASS_INSTANCE_DESC instance_desc{};
    instance->GetDesc(&instance_desc);
    CHECK(instance_desc.Created == TRUE);
    CHECK(instance_desc.BaseTexture == 3);
    char name[16] = {};
    SIZE_T length = sizeof name;
    instance->GetTypeName(name, &length);
    CHECK(std::string(name) == "Light");
    CHECK(length == 6);
}

TEST_CASE("A vertex or domain shader writing SV_RenderTargetArrayIndex needs D3D11.3",
          "[object][shaders]") {
    TestDevice test;
    const auto layered =
        shader_with_outputs(1, {{"SV_Position", D3D_NAME_POSITION},
                                {"SV_RenderTargetArrayIndex", D3D_NAME_RENDER_TARGET_ARRAY_INDEX}});
    Com<ID3D11VertexShader> vs;
    CHECK(test.device->CreateVertexShader(layered.data(), layered.size(), nullptr, vs.out()) ==
          E_INVALIDARG);
    CHECK(test.last_message() ==
          "ID3D11Device::CreateVertexShader: pShaderBytecode: writes SV_RenderTargetArrayIndex "
          "from a vertex shader, a D3D11.3 feature "
          "(VPAndRTArrayIndexFromAnyShaderFeedingRasterizer) that this device does not report");
    D3D11_FEATURE_DATA_D3D11_OPTIONS3 options3{TRUE};
    CHECK(test.device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS3, &options3,
                                           sizeof options3) == E_INVALIDARG);
    const auto viewport =
        shader_with_outputs(4, {{"SV_ViewportArrayIndex", D3D_NAME_VIEWPORT_ARRAY_INDEX}});
    Com<ID3D11DomainShader> ds;
    CHECK(test.device->CreateDomainShader(viewport.data(), viewport.size(), nullptr, ds.out()) ==
          E_INVALIDARG);
    // A geometry shader may write both, and plain outputs are fine anywhere.
    const auto geometry =
        shader_with_outputs(2, {{"SV_RenderTargetArrayIndex", D3D_NAME_RENDER_TARGET_ARRAY_INDEX}});
    Com<ID3D11GeometryShader> gs;
    CHECK(test.device->CreateGeometryShader(geometry.data(), geometry.size(), nullptr, gs.out()) ==
          S_OK);
    const auto plain =
        shader_with_outputs(1, {{"SV_Position", D3D_NAME_POSITION}, {"TEXCOORD", 0}});
    CHECK(test.device->CreateVertexShader(plain.data(), plain.size(), nullptr, vs.out()) == S_OK);
    // A signature that runs past its chunk is refused, not read.
    auto broken = plain;
    broken[44] = 200;  // the first chunk's size
    CHECK(test.device->CreateVertexShader(broken.data(), broken.size(), nullptr, vs.out()) ==
          E_INVALIDARG);
}

TEST_CASE("Queries / predicates and counters", "[object][queries]") {
    TestDevice test;
    const D3D11_QUERY_DESC occlusion{D3D11_QUERY_OCCLUSION_PREDICATE, 0};
    Com<ID3D11Predicate> predicate;
    REQUIRE(test.device->CreatePredicate(&occlusion, predicate.out()) == S_OK);
    CHECK(predicate->GetDataSize() == sizeof(BOOL));
    const D3D11_QUERY_DESC event{D3D11_QUERY_EVENT, 0};
    CHECK(test.device->CreatePredicate(&event, predicate.out()) == E_INVALIDARG);
    Com<ID3D11Query> query;
    REQUIRE(test.device->CreateQuery(&event, query.out()) == S_OK);
    CHECK_FALSE(query.as<ID3D11Predicate>());
    const D3D11_QUERY_DESC statistics{D3D11_QUERY_PIPELINE_STATISTICS, 0};
    REQUIRE(test.device->CreateQuery(&statistics, query.out()) == S_OK);
    CHECK(query->GetDataSize() == sizeof(D3D11_QUERY_DATA_PIPELINE_STATISTICS));
    const D3D11_QUERY_DESC bad_flags{D3D11_QUERY_EVENT, 2};
    CHECK(test.device->CreateQuery(&bad_flags, query.out()) == E_INVALIDARG);
    const D3D11_COUNTER_DESC counter{D3D11_COUNTER_DEVICE_DEPENDENT_0, 0};
    Com<ID3D11Counter> counter_object;
    CHECK(test.device->CreateCounter(&counter, counter_object.out()) == E_INVALIDARG);
}

TEST_CASE("DXGI_FORMAT_UNKNOWN in a view desc of a typed texture means its format",
          "[object][views]") {
    TestDevice test;
    auto texture = test.texture2d(
        16, 16, DXGI_FORMAT_R8G8B8A8_UNORM,
        D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS);
    D3D11_SHADER_RESOURCE_VIEW_DESC srv_desc{};
    srv_desc.Format = DXGI_FORMAT_UNKNOWN;
    srv_desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2D;
    srv_desc.Texture2D = {0, 1};
    Com<ID3D11ShaderResourceView> srv;
    REQUIRE(test.device->CreateShaderResourceView(texture.get(), &srv_desc, srv.out()) == S_OK);
    D3D11_SHADER_RESOURCE_VIEW_DESC got{};
    srv->GetDesc(&got);
    CHECK(got.Format == DXGI_FORMAT_R8G8B8A8_UNORM);

    D3D11_RENDER_TARGET_VIEW_DESC rtv_desc{};
    rtv_desc.Format = DXGI_FORMAT_UNKNOWN;
    rtv_desc.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2D;
    Com<ID3D11RenderTargetView> rtv;
    REQUIRE(test.device->CreateRenderTargetView(texture.get(), &rtv_desc, rtv.out()) == S_OK);
    D3D11_RENDER_TARGET_VIEW_DESC got_rtv{};
    rtv->GetDesc(&got_rtv);
    CHECK(got_rtv.Format == DXGI_FORMAT_R8G8B8A8_UNORM);

    D3D11_UNORDERED_ACCESS_VIEW_DESC uav_desc{};
    uav_desc.Format = DXGI_FORMAT_UNKNOWN;
    uav_desc.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE2D;
    Com<ID3D11UnorderedAccessView> uav;
    CHECK(test.device->CreateUnorderedAccessView(texture.get(), &uav_desc, uav.out()) == S_OK);

    // A typeless texture has no format to take: the view must name one.
    auto typeless =
        test.texture2d(16, 16, DXGI_FORMAT_R8G8B8A8_TYPELESS, D3D11_BIND_SHADER_RESOURCE);
    CHECK(test.device->CreateShaderResourceView(typeless.get(), &srv_desc, srv.out()) ==
          E_INVALIDARG);
    // An ordinary UNORM texture has no sRGB views (only flip-model back buffers do).
    rtv_desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM_SRGB;
    CHECK(test.device->CreateRenderTargetView(texture.get(), &rtv_desc, rtv.out()) == E_INVALIDARG);
}
