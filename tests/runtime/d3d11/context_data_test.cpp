// Map/Unmap rules, queries and GetData, and the validation of copies,
// updates and clears before they reach the backend.
#include "object_support.h"

using namespace object_tests;

TEST_CASE("Map follows usage and CPU access - a mapped subresource cannot be mapped again",
          "[context][map]") {
    TestDevice test;
    D3D11_MAPPED_SUBRESOURCE mapped{};
    auto dynamic =
        test.buffer(64, D3D11_BIND_VERTEX_BUFFER, D3D11_USAGE_DYNAMIC, D3D11_CPU_ACCESS_WRITE);
    CHECK(test.context->Map(dynamic.get(), 0, D3D11_MAP_READ, 0, &mapped) == E_INVALIDARG);
    CHECK(test.context->Map(dynamic.get(), 0, D3D11_MAP_WRITE, 0, &mapped) == E_INVALIDARG);
    REQUIRE(test.context->Map(dynamic.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
    CHECK(mapped.pData != nullptr);
    CHECK(mapped.RowPitch >= 64);
    CHECK(test.context->Map(dynamic.get(), 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &mapped) ==
          E_INVALIDARG);
    CHECK(test.last_message() == "ID3D11DeviceContext::Map: Subresource: 0 is already mapped");
    test.context->Unmap(dynamic.get(), 0);
    REQUIRE(test.context->Map(dynamic.get(), 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &mapped) == S_OK);
    test.context->Unmap(dynamic.get(), 0);
    test.context->Unmap(dynamic.get(), 0);  // not mapped: dropped
    CHECK(test.last_message() ==
          "ID3D11DeviceContext::Unmap: Subresource: 0 is not mapped; dropped");
    CHECK(test.context->Map(dynamic.get(), 0, D3D11_MAP_WRITE_DISCARD, D3D11_MAP_FLAG_DO_NOT_WAIT,
                            &mapped) == E_INVALIDARG);

    auto staging = test.buffer(64, 0, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ);
    CHECK(test.context->Map(staging.get(), 0, D3D11_MAP_WRITE, 0, &mapped) == E_INVALIDARG);
    CHECK(test.context->Map(staging.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == E_INVALIDARG);
    REQUIRE(test.context->Map(staging.get(), 0, D3D11_MAP_READ, D3D11_MAP_FLAG_DO_NOT_WAIT,
                              &mapped) == S_OK);
    test.context->Unmap(staging.get(), 0);
    auto read_write =
        test.buffer(64, 0, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE);
    REQUIRE(test.context->Map(read_write.get(), 0, D3D11_MAP_READ_WRITE, 0, &mapped) == S_OK);
    test.context->Unmap(read_write.get(), 0);

    auto plain = test.buffer(64, D3D11_BIND_VERTEX_BUFFER);
    CHECK(test.context->Map(plain.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == E_INVALIDARG);
    CHECK(mapped.pData == nullptr);
    CHECK(test.context->Map(staging.get(), 1, D3D11_MAP_READ, 0, &mapped) == E_INVALIDARG);
    CHECK(test.messages().back().parameter == "Subresource");

    // Dynamic textures: discard only (no-overwrite is for buffers).
    auto texture = test.texture2d(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE, 1,
                                  1, D3D11_USAGE_DYNAMIC, D3D11_CPU_ACCESS_WRITE);
    CHECK(test.context->Map(texture.get(), 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &mapped) ==
          E_INVALIDARG);
    REQUIRE(test.context->Map(texture.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
    CHECK(mapped.RowPitch >= 16);
    test.context->Unmap(texture.get(), 0);
}

TEST_CASE("Map round-trips data through a staging texture", "[context][map]") {
    TestDevice test;
    auto staging = test.texture2d(2, 2, DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1, 1, D3D11_USAGE_STAGING,
                                  D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(test.context->Map(staging.get(), 0, D3D11_MAP_WRITE, 0, &mapped) == S_OK);
    for (int row = 0; row < 2; ++row) {
        auto* line = static_cast<std::uint8_t*>(mapped.pData) + row * mapped.RowPitch;
        for (int i = 0; i < 8; ++i) line[i] = std::uint8_t(row * 8 + i);
    }
    test.context->Unmap(staging.get(), 0);
    REQUIRE(test.context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    const auto* second = static_cast<const std::uint8_t*>(mapped.pData) + mapped.RowPitch;
    CHECK(second[0] == 8);
    CHECK(second[7] == 15);
    test.context->Unmap(staging.get(), 0);
}

TEST_CASE("Queries: Begin/End pairs / GetData sizes / S_OK once ended", "[context][queries]") {
    TestDevice test;
    const D3D11_QUERY_DESC event_desc{D3D11_QUERY_EVENT, 0};
    Com<ID3D11Query> event;
    REQUIRE(test.device->CreateQuery(&event_desc, event.out()) == S_OK);
    BOOL done = FALSE;
    CHECK(test.context->GetData(event.get(), &done, sizeof done, 0) == DXGI_ERROR_INVALID_CALL);
    test.context->Begin(event.get());  // events take End only
    CHECK(test.messages().back().text == "EVENT and TIMESTAMP queries take End only; dropped");
    test.context->End(event.get());
    CHECK(test.context->GetData(event.get(), nullptr, 0, 0) == S_OK);
    CHECK(test.context->GetData(event.get(), &done, 0, 0) == S_OK);  // size 0 polls too
    CHECK(done == FALSE);                                            // and writes nothing
    CHECK(test.context->GetData(event.get(), &done, 2, 0) == E_INVALIDARG);
    REQUIRE(test.context->GetData(event.get(), &done, sizeof done, 0) == S_OK);
    CHECK(done == TRUE);
    CHECK(test.context->GetData(event.get(), &done, sizeof done, 2) == E_INVALIDARG);

    const D3D11_QUERY_DESC occlusion_desc{D3D11_QUERY_OCCLUSION, 0};
    Com<ID3D11Query> occlusion;
    REQUIRE(test.device->CreateQuery(&occlusion_desc, occlusion.out()) == S_OK);
    test.context->Begin(occlusion.get());
    UINT64 samples = 99;
    CHECK(test.context->GetData(occlusion.get(), &samples, sizeof samples, 0) ==
          DXGI_ERROR_INVALID_CALL);
    test.context->End(occlusion.get());
    REQUIRE(test.context->GetData(occlusion.get(), &samples, sizeof samples, 0) == S_OK);
    CHECK(samples == 0);

    const D3D11_QUERY_DESC disjoint_desc{D3D11_QUERY_TIMESTAMP_DISJOINT, 0};
    const D3D11_QUERY_DESC timestamp_desc{D3D11_QUERY_TIMESTAMP, 0};
    Com<ID3D11Query> disjoint, first, second;
    REQUIRE(test.device->CreateQuery(&disjoint_desc, disjoint.out()) == S_OK);
    REQUIRE(test.device->CreateQuery(&timestamp_desc, first.out()) == S_OK);
    REQUIRE(test.device->CreateQuery(&timestamp_desc, second.out()) == S_OK);
    test.context->Begin(disjoint.get());
    test.context->End(first.get());
    test.context->End(second.get());
    test.context->End(disjoint.get());
    D3D11_QUERY_DATA_TIMESTAMP_DISJOINT frequency{};
    REQUIRE(test.context->GetData(disjoint.get(), &frequency, sizeof frequency, 0) == S_OK);
    CHECK(frequency.Frequency == 1000000000ull);
    CHECK(frequency.Disjoint == FALSE);
    UINT64 t1 = 0, t2 = 0;
    REQUIRE(test.context->GetData(first.get(), &t1, sizeof t1, 0) == S_OK);
    REQUIRE(test.context->GetData(second.get(), &t2, sizeof t2, 0) == S_OK);
    CHECK(t1 > 0);
    CHECK(t2 >= t1);

    const D3D11_QUERY_DESC statistics_desc{D3D11_QUERY_PIPELINE_STATISTICS, 0};
    Com<ID3D11Query> statistics;
    REQUIRE(test.device->CreateQuery(&statistics_desc, statistics.out()) == S_OK);
    test.context->Begin(statistics.get());
    test.context->Draw(3, 0);
    test.context->End(statistics.get());
    D3D11_QUERY_DATA_PIPELINE_STATISTICS stats;
    std::memset(&stats, 0xff, sizeof stats);
    REQUIRE(test.context->GetData(statistics.get(), &stats, sizeof stats, 0) == S_OK);
    CHECK(stats.IAVertices == 0);
    CHECK(stats.CSInvocations == 0);

    Com<ID3D11DeviceContext> deferred;
    REQUIRE(test.device->CreateDeferredContext(0, deferred.out()) == S_OK);
    CHECK(deferred->GetData(event.get(), &done, sizeof done, 0) == DXGI_ERROR_INVALID_CALL);
}

TEST_CASE("Invalid copies and updates are dropped with a message", "[context][data]") {
    TestDevice test;
    auto a = test.texture2d(8, 8, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE);
    auto b = test.texture2d(8, 8, DXGI_FORMAT_R16G16_FLOAT, D3D11_BIND_SHADER_RESOURCE);
    auto c = test.texture2d(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_BIND_SHADER_RESOURCE);
    test.context->CopyResource(a.get(), b.get());
    CHECK(test.last_message() ==
          "ID3D11DeviceContext::CopyResource: pSrcResource: DXGI_FORMAT_R16G16_FLOAT and "
          "DXGI_FORMAT_R8G8B8A8_UNORM are not in one cast group; dropped");
    test.context->CopyResource(a.get(), c.get());
    CHECK(test.messages().back().parameter == "pSrcResource");
    test.context->CopyResource(a.get(), a.get());
    CHECK(test.messages().back().text == "is the destination itself; dropped");

    const D3D11_BOX outside{4, 4, 0, 12, 8, 1};
    test.context->CopySubresourceRegion(a.get(), 0, 0, 0, 0, c.get(), 0, &outside);
    CHECK(test.messages().back().parameter == "pSrcBox");
    const D3D11_BOX inside{0, 0, 0, 4, 4, 1};
    test.clear_messages();
    test.context->CopySubresourceRegion(a.get(), 0, 6, 0, 0, c.get(), 0, &inside);
    CHECK(test.messages().back().parameter == "DstX/DstY/DstZ");
    test.clear_messages();
    test.context->CopySubresourceRegion(a.get(), 0, 4, 4, 0, c.get(), 0, &inside);
    CHECK(test.messages().empty());
    test.context->CopySubresourceRegion(a.get(), 0, 0, 0, 0, a.get(), 0, &inside);
    CHECK(test.messages().back().parameter == "pSrcResource");
    test.clear_messages();
    test.context->CopySubresourceRegion1(a.get(), 0, 4, 4, 0, a.get(), 0, &inside, 0);
    CHECK(test.messages().empty());  // CopyWithOverlap

    auto cb = test.buffer(64, D3D11_BIND_CONSTANT_BUFFER);
    const std::uint8_t data[64] = {};
    const D3D11_BOX unaligned{8, 0, 0, 24, 1, 1};
    test.context->UpdateSubresource1(cb.get(), 0, &unaligned, data, 0, 0, 0);
    CHECK(test.last_message() ==
          "ID3D11DeviceContext1::UpdateSubresource1: pDstBox: (8,0,0)-(24,1,1): constant buffers "
          "update whole 16-byte constants; dropped");
    auto dynamic =
        test.buffer(64, D3D11_BIND_VERTEX_BUFFER, D3D11_USAGE_DYNAMIC, D3D11_CPU_ACCESS_WRITE);
    test.context->UpdateSubresource(dynamic.get(), 0, nullptr, data, 0, 0);
    CHECK(test.messages().back().parameter == "pDstResource");
    test.context->UpdateSubresource(cb.get(), 0, nullptr, nullptr, 0, 0);
    CHECK(test.messages().back().parameter == "pSrcData");
}

TEST_CASE("CopySubresourceRegion copies between texture dimensions, not into buffers",
          "[context][data]") {
    TestDevice test;
    const D3D11_TEXTURE1D_DESC row_desc{4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT,
                                        0, 0, 0};
    const std::uint8_t texels[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    const D3D11_SUBRESOURCE_DATA row_data{texels, 16, 0};
    Com<ID3D11Texture1D> row;
    REQUIRE(test.device->CreateTexture1D(&row_desc, &row_data, row.out()) == S_OK);
    auto flat = test.texture2d(4, 2, DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1, 1, D3D11_USAGE_STAGING,
                               D3D11_CPU_ACCESS_READ);
    const D3D11_TEXTURE3D_DESC volume_desc{
        4, 2, 2, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0};
    Com<ID3D11Texture3D> volume;
    REQUIRE(test.device->CreateTexture3D(&volume_desc, nullptr, volume.out()) == S_OK);

    test.context->CopySubresourceRegion(flat.get(), 0, 0, 1, 0, row.get(), 0, nullptr);
    test.context->CopySubresourceRegion(volume.get(), 0, 0, 0, 1, flat.get(), 0, nullptr);
    CHECK(test.messages().empty());
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(test.context->Map(volume.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    const auto* slice1 = static_cast<const std::uint8_t*>(mapped.pData) + mapped.DepthPitch;
    CHECK(std::vector<std::uint8_t>(slice1, slice1 + 16) == std::vector<std::uint8_t>(16, 0));
    CHECK(std::vector<std::uint8_t>(slice1 + mapped.RowPitch, slice1 + mapped.RowPitch + 16) ==
          std::vector<std::uint8_t>(texels, texels + 16));
    test.context->Unmap(volume.get(), 0);

    // A 2D box taller than one row does not fit a 1D texture; nor DstZ 1 a 2D one.
    test.context->CopySubresourceRegion(row.get(), 0, 0, 0, 0, flat.get(), 0, nullptr);
    CHECK(test.messages().back().parameter == "DstX/DstY/DstZ");
    test.context->CopySubresourceRegion(flat.get(), 0, 0, 0, 1, row.get(), 0, nullptr);
    CHECK(test.messages().back().parameter == "DstX/DstY/DstZ");
    auto bytes = test.buffer(64, 0);
    test.context->CopySubresourceRegion(bytes.get(), 0, 0, 0, 0, row.get(), 0, nullptr);
    CHECK(test.last_message() ==
          "ID3D11DeviceContext::CopySubresourceRegion: pSrcResource: a buffer and a texture "
          "cannot be copied into each other; dropped");
}

TEST_CASE("Clears validate their views and values", "[context][data]") {
    TestDevice test;
    auto target = test.texture2d(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM,
                                 D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE);
    Com<ID3D11RenderTargetView> rtv;
    Com<ID3D11ShaderResourceView> srv;
    REQUIRE(test.device->CreateRenderTargetView(target.get(), nullptr, rtv.out()) == S_OK);
    REQUIRE(test.device->CreateShaderResourceView(target.get(), nullptr, srv.out()) == S_OK);
    const FLOAT color[4] = {1, 0, 0, 1};
    test.clear_messages();
    test.context->ClearRenderTargetView(rtv.get(), color);
    const D3D11_RECT rect{0, 0, 2, 2};
    test.context->ClearView(rtv.get(), color, &rect, 1);
    CHECK(test.messages().empty());
    test.context->ClearView(srv.get(), color, nullptr, 0);
    CHECK(test.messages().back().parameter == "pView");
    test.context->ClearView(rtv.get(), color, nullptr, 2);
    CHECK(test.messages().back().parameter == "pRect");
    test.context->ClearRenderTargetView(nullptr, color);
    CHECK(test.messages().back().parameter == "pRenderTargetView");

    auto depth = test.texture2d(4, 4, DXGI_FORMAT_D24_UNORM_S8_UINT, D3D11_BIND_DEPTH_STENCIL);
    Com<ID3D11DepthStencilView> dsv;
    REQUIRE(test.device->CreateDepthStencilView(depth.get(), nullptr, dsv.out()) == S_OK);
    test.context->ClearDepthStencilView(dsv.get(), 4, 1.0f, 0);
    CHECK(test.messages().back().parameter == "ClearFlags");
    test.context->ClearView(dsv.get(), color, nullptr, 0);
    CHECK(test.messages().back().text ==
          "is a depth-stencil view with stencil; only depth-only formats; dropped");

    test.context->GenerateMips(srv.get());
    CHECK(test.messages().back().text ==
          "views a resource created without RESOURCE_MISC_GENERATE_MIPS; dropped");
    test.context->SetResourceMinLOD(target.get(), 2.5f);
    CHECK(test.context->GetResourceMinLOD(target.get()) == 2.5f);
}
