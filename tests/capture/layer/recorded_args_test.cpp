// Calls of every parameter kind, made through the capture layer with
// distinct values, are recorded with exactly the arguments written out here
// by hand: scalars in parameter order, flags by name, objects by id (absent
// ones as 0), arrays of objects, structs and floats, optional structs given
// and left out, data blobs, strings and BOOLs. The expectations come from the
// arguments and the documented JSON form, not from the encoders or the
// dumper, so a swapped parameter or a misread field fails here.
#include <xxhash.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "capture/support/capture_session.h"
#include "support/temp_dir.h"

using namespace d3dcap;

namespace {

std::string blob(const void* data, std::size_t size) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx",
                  static_cast<unsigned long long>(XXH3_64bits(data, size)));
    return "{\"size\":" + std::to_string(size) + ",\"xxh3\":\"" + hex + "\"}";
}

}  // namespace

TEST_CASE("calls of every parameter kind are recorded with the arguments given") {
    testing::TempDir dir;
    const auto session = testing::CaptureSession::load(dir.file("arguments.d3dcap"));
    std::vector<std::string> expected;
    {
        ID3D11Device2* device = nullptr;          // object 1
        ID3D11DeviceContext2* context = nullptr;  // object 2
        REQUIRE(session.device(D3D_DRIVER_TYPE_REFERENCE, &device, &context) == S_OK);
        D3D11_BUFFER_DESC buffer_desc{256, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0,
                                      0};
        ID3D11Buffer* constants = nullptr;  // object 3
        REQUIRE(device->CreateBuffer(&buffer_desc, nullptr, &constants) == S_OK);
        buffer_desc.BindFlags = D3D11_BIND_VERTEX_BUFFER;
        ID3D11Buffer* vertices = nullptr;  // object 4
        REQUIRE(device->CreateBuffer(&buffer_desc, nullptr, &vertices) == S_OK);
        D3D11_TEXTURE2D_DESC texture_desc{};
        texture_desc.Width = texture_desc.Height = 32;
        texture_desc.MipLevels = texture_desc.ArraySize = 1;
        texture_desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        texture_desc.SampleDesc.Count = 1;
        texture_desc.BindFlags =
            D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS;
        ID3D11Texture2D* texture = nullptr;  // object 5
        REQUIRE(device->CreateTexture2D(&texture_desc, nullptr, &texture) == S_OK);
        ID3D11ShaderResourceView* srv = nullptr;  // object 6
        REQUIRE(device->CreateShaderResourceView(texture, nullptr, &srv) == S_OK);
        ID3D11RenderTargetView* rtv = nullptr;  // object 7
        REQUIRE(device->CreateRenderTargetView(texture, nullptr, &rtv) == S_OK);
        ID3D11UnorderedAccessView* uav = nullptr;  // object 8
        REQUIRE(device->CreateUnorderedAccessView(texture, nullptr, &uav) == S_OK);
        const D3D11_QUERY_DESC predicate_desc{D3D11_QUERY_OCCLUSION_PREDICATE, 0};
        ID3D11Predicate* predicate = nullptr;  // object 9
        REQUIRE(device->CreatePredicate(&predicate_desc, &predicate) == S_OK);

        context->DrawIndexedInstanced(36, 4, 6, -3, 2);
        expected.push_back(
            R"({"IndexCountPerInstance":36,"InstanceCount":4,"StartIndexLocation":6,)"
            R"("BaseVertexLocation":-3,"StartInstanceLocation":2})");

        ID3D11ShaderResourceView* views[2] = {srv, nullptr};
        context->PSSetShaderResources(3, 2, views);
        expected.push_back(R"({"StartSlot":3,"NumViews":2,"ppShaderResourceViews":[6,0]})");

        const D3D11_VIEWPORT viewports[2] = {{0, 0, 640, 480, 0, 1},
                                             {16.5f, 8, 100, 50, 0.25f, 0.75f}};
        context->RSSetViewports(2, viewports);
        expected.push_back(
            R"({"NumViewports":2,"pViewports":[)"
            R"({"TopLeftX":0,"TopLeftY":0,"Width":640,"Height":480,"MinDepth":0,"MaxDepth":1},)"
            R"({"TopLeftX":16.5,"TopLeftY":8,"Width":100,"Height":50,"MinDepth":0.25,"MaxDepth":0.75}]})");

        const float clear_colour[4] = {0.1f, 0.5f, -2.0f, 1.0f};
        context->ClearRenderTargetView(rtv, clear_colour);
        expected.push_back(R"({"pRenderTargetView":7,"ColorRGBA":[0.1,0.5,-2,1]})");

        const UINT clear_values[4] = {1, 2, 3, 0xffffffffu};
        context->ClearUnorderedAccessViewUint(uav, clear_values);
        expected.push_back(R"({"pUnorderedAccessView":8,"Values":[1,2,3,4294967295]})");

        const D3D11_BOX box{16, 0, 0, 48, 1, 1};
        context->CopySubresourceRegion(vertices, 0, 64, 0, 0, constants, 0, &box);
        expected.push_back(
            R"({"pDstResource":4,"DstSubresource":0,"DstX":64,"DstY":0,"DstZ":0,)"
            R"("pSrcResource":3,"SrcSubresource":0,)"
            R"("pSrcBox":{"left":16,"top":0,"front":0,"right":48,"bottom":1,"back":1}})");
        context->CopySubresourceRegion1(constants, 0, 0, 0, 0, vertices, 0, nullptr,
                                        D3D11_COPY_DISCARD);
        expected.push_back(
            R"({"pDstResource":3,"DstSubresource":0,"DstX":0,"DstY":0,"DstZ":0,)"
            R"("pSrcResource":4,"SrcSubresource":0,"pSrcBox":null,"CopyFlags":"D3D11_COPY_DISCARD"})");

        unsigned char data[32];
        for (unsigned i = 0; i < sizeof data; ++i) data[i] = static_cast<unsigned char>(i * 5 + 3);
        const D3D11_BOX update_box{32, 0, 0, 64, 1, 1};
        context->UpdateSubresource(constants, 0, &update_box, data, 0, 0);
        expected.push_back(
            R"({"pDstResource":3,"DstSubresource":0,)"
            R"("pDstBox":{"left":32,"top":0,"front":0,"right":64,"bottom":1,"back":1},)"
            R"("pSrcData":)" +
            blob(data, sizeof data) + R"(,"SrcRowPitch":0,"SrcDepthPitch":0})");

        ID3D11Buffer* buffers[1] = {constants};
        const UINT first_constant = 16, constant_count = 32;
        context->VSSetConstantBuffers1(2, 1, buffers, &first_constant, &constant_count);
        expected.push_back(R"({"StartSlot":2,"NumBuffers":1,"ppConstantBuffers":[3],)"
                           R"("pFirstConstant":[16],"pNumConstants":[32]})");

        context->SetPredication(predicate, TRUE);
        expected.push_back(R"({"pPredicate":9,"PredicateValue":1})");

        context->SetMarkerInt(L"frame \"one\"", 42);
        expected.push_back(R"({"pLabel":"frame \"one\"","Data":42})");

        context->ClearState();
        for (IUnknown* object : std::initializer_list<IUnknown*>{
                 predicate, uav, rtv, srv, texture, vertices, constants, context, device}) {
            object->Release();
        }
    }
    REQUIRE(session.api->stop() == 0);

    const std::vector<testing::RecordedCall> recorded =
        testing::recorded_context_calls(session.trace_path, 2);
    REQUIRE(recorded.size() == expected.size() + 1);  // and the ClearState
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO("call " << i);
        CHECK(recorded[i].args == expected[i]);
    }
    CHECK(recorded.back().args == "{}");
}

TEST_CASE(
    "a call made again with arguments of the same shape is recorded with its new "
    "arguments (its last record patched)") {
    testing::TempDir dir;
    const auto session = testing::CaptureSession::load(dir.file("patched.d3dcap"));
    std::vector<std::string> expected;
    {
        ID3D11Device2* device = nullptr;          // object 1
        ID3D11DeviceContext2* context = nullptr;  // object 2
        REQUIRE(session.device(D3D_DRIVER_TYPE_REFERENCE, &device, &context) == S_OK);
        const D3D11_BUFFER_DESC buffer_desc{
            256, D3D11_USAGE_DEFAULT, D3D11_BIND_CONSTANT_BUFFER, 0, 0, 0};
        ID3D11Buffer* buffers[2] = {};  // objects 3 and 4
        for (ID3D11Buffer*& buffer : buffers)
            REQUIRE(device->CreateBuffer(&buffer_desc, nullptr, &buffer) == S_OK);
        // Each call three times: twice alike in shape (the second patched),
        // then with an array, string or box of another shape (built anew).
        for (int round = 0; round < 3; ++round) {
            const auto r = static_cast<UINT>(round);
            const std::string n = std::to_string(round);
            context->DrawIndexedInstanced(36 + r, 4, 6, -3 - round, r);
            expected.push_back(
                R"({"IndexCountPerInstance":)" + std::to_string(36 + round) +
                R"(,"InstanceCount":4,"StartIndexLocation":6,"BaseVertexLocation":)" +
                std::to_string(-3 - round) + R"(,"StartInstanceLocation":)" + n + "}");

            ID3D11Buffer* bound[2] = {buffers[r % 2], buffers[(r + 1) % 2]};
            const UINT first[2] = {16 * r, 32}, counts[2] = {16, 48 + 16 * r};
            const UINT bound_count = round < 2 ? 2 : 1;
            context->PSSetConstantBuffers1(r, bound_count, bound, first, counts);
            const std::string id0 = std::to_string(3 + round % 2),
                              id1 = std::to_string(3 + (round + 1) % 2);
            expected.push_back(R"({"StartSlot":)" + n + R"(,"NumBuffers":)" +
                               std::to_string(bound_count) + R"(,"ppConstantBuffers":[)" + id0 +
                               (round < 2 ? "," + id1 : "") + R"(],"pFirstConstant":[)" +
                               std::to_string(16 * round) + (round < 2 ? ",32" : "") +
                               R"(],"pNumConstants":[16)" +
                               (round < 2 ? "," + std::to_string(48 + 16 * round) : "") + "]}");

            const D3D11_BOX box{r, 0, 0, 16 + r, 1, 1};
            context->CopySubresourceRegion(buffers[0], 0, 64 + r, 0, 0, buffers[1], 0,
                                           round < 2 ? &box : nullptr);
            expected.push_back(
                R"({"pDstResource":3,"DstSubresource":0,"DstX":)" + std::to_string(64 + round) +
                R"(,"DstY":0,"DstZ":0,"pSrcResource":4,"SrcSubresource":0,"pSrcBox":)" +
                (round < 2 ? R"({"left":)" + n + R"(,"top":0,"front":0,"right":)" +
                                 std::to_string(16 + round) + R"(,"bottom":1,"back":1})"
                           : std::string("null")) +
                "}");

            // The same length twice, then a label that is not ASCII.
            const wchar_t* labels[3] = {L"pass A", L"pass B", L"pass \u00e9"};
            const char* utf8[3] = {"pass A", "pass B", "pass \xc3\xa9"};
            context->SetMarkerInt(labels[round], 40 + round);
            expected.push_back(R"({"pLabel":")" + std::string(utf8[round]) + R"(","Data":)" +
                               std::to_string(40 + round) + "}");
        }
        context->ClearState();
        for (ID3D11Buffer* buffer : buffers) buffer->Release();
        context->Release();
        device->Release();
    }
    REQUIRE(session.api->stop() == 0);

    const std::vector<testing::RecordedCall> recorded =
        testing::recorded_context_calls(session.trace_path, 2);
    REQUIRE(recorded.size() == expected.size() + 1);  // and the ClearState
    for (std::size_t i = 0; i < expected.size(); ++i) {
        INFO("call " << i);
        CHECK(recorded[i].args == expected[i]);
    }
}
