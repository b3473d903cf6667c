// The generated call encoders (src/call_encoders.cpp): C arguments, as the
// capture layer passes them after the real call, become parameter tables
// whose JSON dump matches hand-written text.  Plus: every call of the table
// has either a generated or a hand-written encoder, and the wide-string
// conversion.
#include <d3d11_2.h>
#include <d3dcap/api/call_encoders.h>
#include <d3dcap/api/call_json.h>
#include <dxgi1_2.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "format/trace/records.h"

using namespace d3dcap;

namespace {

// Stands in for the capture layer's wrappers: distinct addresses (never
// dereferenced) with the ids a test gives them.
class FakeObjects final : public api::ObjectIds {
  public:
    template <typename Interface>
    Interface* make(std::uint64_t id) {
        REQUIRE(next_ < storage_.size());
        void* address = &storage_[next_++];
        ids_[address] = id;
        return static_cast<Interface*>(address);
    }

    std::uint64_t id_of(const void* object) override {
        if (object == nullptr) ++null_lookups;
        const auto found = ids_.find(object);
        return found == ids_.end() ? 999 : found->second;
    }

    int null_lookups = 0;

  private:
    std::array<std::uint64_t, 32> storage_{};
    std::size_t next_ = 0;
    std::map<const void*, std::uint64_t> ids_;
};

// Wraps the parameter table in a Record as the trace writer does and prints
// the call's arguments.
template <typename Params>
std::string dump(flatbuffers::FlatBufferBuilder& builder, flatbuffers::Offset<Params> params) {
    trace::finish_call(builder, trace::CallContext{}, params);
    flatbuffers::Verifier verifier(builder.GetBufferPointer(), builder.GetSize());
    REQUIRE(verifier.VerifySizePrefixedBuffer<fb::Record>(nullptr));
    std::string out;
    api::append_args_json(*flatbuffers::GetSizePrefixedRoot<fb::Record>(builder.GetBufferPointer()),
                          out);
    return out;
}

struct Capture {
    FakeObjects objects;

    // encode(builder, ids) calls one generated encoder.
    template <typename Encode>
    std::string json(Encode&& encode) {
        flatbuffers::FlatBufferBuilder builder;
        return dump(builder, encode(builder, objects));
    }
};

// WKPDID_D3DDebugObjectName.
constexpr GUID kDebugObjectName = {
    0x429b8c22, 0x9188, 0x4b0c, {0x87, 0x42, 0xac, 0xb0, 0xbf, 0x85, 0xc2, 0x00}};

}  // namespace

TEST_CASE("VSSetConstantBuffers records the buffers' ids, 0 for NULL slots, null for no array") {
    Capture c;
    ID3D11Buffer* const buffers[] = {c.objects.make<ID3D11Buffer>(11), nullptr,
                                     c.objects.make<ID3D11Buffer>(12)};
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext_VSSetConstantBuffers(b, ids, 2, 3, buffers);
    }) == R"({"StartSlot":2,"NumBuffers":3,"ppConstantBuffers":[11,0,12]})");
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext_VSSetConstantBuffers(b, ids, 0, 14, nullptr);
    }) == R"({"StartSlot":0,"NumBuffers":14,"ppConstantBuffers":null})");
    CHECK(c.objects.null_lookups == 0);
}

TEST_CASE("IASetVertexBuffers records buffers, strides and offsets") {
    Capture c;
    ID3D11Buffer* const buffers[] = {c.objects.make<ID3D11Buffer>(21),
                                     c.objects.make<ID3D11Buffer>(22)};
    const UINT strides[] = {16, 32};
    const UINT offsets[] = {0, 256};
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext_IASetVertexBuffers(b, ids, 1, 2, buffers, strides,
                                                                  offsets);
    }) == R"({"StartSlot":1,"NumBuffers":2,"ppVertexBuffers":[21,22],"pStrides":[16,32],)"
          R"("pOffsets":[0,256]})");
}

TEST_CASE("OMSetRenderTargets records views and the depth-stencil view") {
    Capture c;
    ID3D11RenderTargetView* const views[] = {c.objects.make<ID3D11RenderTargetView>(31),
                                             c.objects.make<ID3D11RenderTargetView>(32)};
    auto* depth = c.objects.make<ID3D11DepthStencilView>(33);
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext_OMSetRenderTargets(b, ids, 2, views, depth);
    }) == R"({"NumViews":2,"ppRenderTargetViews":[31,32],"pDepthStencilView":33})");
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext_OMSetRenderTargets(b, ids, 0, nullptr, nullptr);
    }) == R"({"NumViews":0,"ppRenderTargetViews":null,"pDepthStencilView":0})");
    CHECK(c.objects.null_lookups == 0);
}

TEST_CASE("RSSetViewports records every viewport field") {
    Capture c;
    const D3D11_VIEWPORT viewports[] = {{0, 0, 1280, 720, 0, 1},
                                        {16.5f, 8, 640, 360, 0.25f, 0.75f}};
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext_RSSetViewports(b, ids, 2, viewports);
    }) == R"({"NumViewports":2,"pViewports":[)"
          R"({"TopLeftX":0,"TopLeftY":0,"Width":1280,"Height":720,"MinDepth":0,"MaxDepth":1},)"
          R"({"TopLeftX":16.5,"TopLeftY":8,"Width":640,"Height":360,"MinDepth":0.25,)"
          R"("MaxDepth":0.75}]})");
}

TEST_CASE("UpdateTileMappings with NULL optional arrays leaves them absent") {
    Capture c;
    auto* resource = c.objects.make<ID3D11Resource>(41);
    auto* pool = c.objects.make<ID3D11Buffer>(42);
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext2_UpdateTileMappings(
            b, ids, resource, 1, nullptr, nullptr, pool, 1, nullptr, nullptr, nullptr, 0);
    }) == R"({"pTiledResource":41,"NumTiledResourceRegions":1,)"
          R"("pTiledResourceRegionStartCoordinates":null,"pTiledResourceRegionSizes":null,)"
          R"("pTilePool":42,"NumRanges":1,"pRangeFlags":null,"pTilePoolStartOffsets":null,)"
          R"("pRangeTileCounts":null,"Flags":0})");
}

TEST_CASE("UpdateTileMappings with every array records regions and ranges") {
    Capture c;
    auto* resource = c.objects.make<ID3D11Resource>(41);
    auto* pool = c.objects.make<ID3D11Buffer>(42);
    const D3D11_TILED_RESOURCE_COORDINATE starts[] = {{0, 0, 0, 0}, {2, 1, 0, 3}};
    const D3D11_TILE_REGION_SIZE sizes[] = {{4, FALSE, 0, 0, 0}, {6, TRUE, 3, 2, 1}};
    const UINT range_flags[] = {0, D3D11_TILE_RANGE_NULL, D3D11_TILE_RANGE_REUSE_SINGLE_TILE};
    const UINT pool_offsets[] = {10, 0, 7};
    const UINT tile_counts[] = {4, 1, 5};
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext2_UpdateTileMappings(
            b, ids, resource, 2, starts, sizes, pool, 3, range_flags, pool_offsets, tile_counts,
            D3D11_TILE_MAPPING_NO_OVERWRITE);
    }) == R"({"pTiledResource":41,"NumTiledResourceRegions":2,)"
          R"("pTiledResourceRegionStartCoordinates":[{"X":0,"Y":0,"Z":0,"Subresource":0},)"
          R"({"X":2,"Y":1,"Z":0,"Subresource":3}],)"
          R"("pTiledResourceRegionSizes":[)"
          R"({"NumTiles":4,"bUseBox":0,"Width":0,"Height":0,"Depth":0},)"
          R"({"NumTiles":6,"bUseBox":1,"Width":3,"Height":2,"Depth":1}],)"
          R"("pTilePool":42,"NumRanges":3,)"
          R"("pRangeFlags":[0,"D3D11_TILE_RANGE_NULL","D3D11_TILE_RANGE_REUSE_SINGLE_TILE"],)"
          R"("pTilePoolStartOffsets":[10,0,7],"pRangeTileCounts":[4,1,5],)"
          R"("Flags":"D3D11_TILE_MAPPING_NO_OVERWRITE"})");
}

TEST_CASE("CopyTileMappings records both coordinates and the region size") {
    Capture c;
    auto* dest = c.objects.make<ID3D11Resource>(51);
    auto* source = c.objects.make<ID3D11Resource>(52);
    const D3D11_TILED_RESOURCE_COORDINATE dest_start{1, 2, 0, 0};
    const D3D11_TILED_RESOURCE_COORDINATE source_start{0, 0, 0, 1};
    const D3D11_TILE_REGION_SIZE size{8, TRUE, 4, 2, 1};
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext2_CopyTileMappings(b, ids, dest, &dest_start, source,
                                                                 &source_start, &size, 0);
    }) == R"({"pDestTiledResource":51,)"
          R"("pDestRegionStartCoordinate":{"X":1,"Y":2,"Z":0,"Subresource":0},)"
          R"("pSourceTiledResource":52,)"
          R"("pSourceRegionStartCoordinate":{"X":0,"Y":0,"Z":0,"Subresource":1},)"
          R"("pTileRegionSize":{"NumTiles":8,"bUseBox":1,"Width":4,"Height":2,"Depth":1},)"
          R"("Flags":0})");
}

TEST_CASE("SetMarkerInt records a non-ASCII wide label as UTF-8 and keeps the data") {
    Capture c;
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext2_SetMarkerInt(b, ids, L"Frame \u00e9 \U0001F600",
                                                             -7);
    }) == "{\"pLabel\":\"Frame \xc3\xa9 \xf0\x9f\x98\x80\",\"Data\":-7}");
    // A lone surrogate, a unit above U+10FFFF and a negative unit are not
    // Unicode scalar values.
    const wchar_t broken[] = {L'a',
                              static_cast<wchar_t>(0xD800),
                              L'b',
                              static_cast<wchar_t>(0x110000),
                              static_cast<wchar_t>(-1),
                              0};
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext2_BeginEventInt(b, ids, broken, 3);
    }) == "{\"pLabel\":\"a\xef\xbf\xbd"
          "b\xef\xbf\xbd\xef\xbf\xbd\",\"Data\":3}");
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext2_SetMarkerInt(b, ids, nullptr, 0);
    }) == R"({"pLabel":null,"Data":0})");
}

TEST_CASE("WideToUtf8 encodes each length class and replaces invalid units") {
    CHECK(api::WideToUtf8(L"") == "");
    CHECK(api::WideToUtf8(L"\u007f") == "\x7f");
    CHECK(api::WideToUtf8(L"\u0080\u07ff") == "\xc2\x80\xdf\xbf");
    CHECK(api::WideToUtf8(L"\u0800\uffff") == "\xe0\xa0\x80\xef\xbf\xbf");
    CHECK(api::WideToUtf8(L"\U00010000\U0010FFFF") == "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf");
    const wchar_t surrogates[] = {static_cast<wchar_t>(0xDBFF), static_cast<wchar_t>(0xDC00)};
    CHECK(api::WideToUtf8(std::wstring_view(surrogates, 2)) == "\xef\xbf\xbd\xef\xbf\xbd");
}

TEST_CASE("ClearView records the color and the rectangles") {
    Capture c;
    auto* view = c.objects.make<ID3D11View>(61);
    const FLOAT color[4] = {0.25f, 0.5f, 0.75f, 1};
    const D3D11_RECT rects[] = {{0, 0, 64, 32}, {-8, 4, 16, 8}};
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext1_ClearView(b, ids, view, color, rects, 2);
    }) == R"({"pView":61,"Color":[0.25,0.5,0.75,1],)"
          R"("pRect":[{"left":0,"top":0,"right":64,"bottom":32},)"
          R"({"left":-8,"top":4,"right":16,"bottom":8}],"NumRects":2})");
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext1_ClearView(b, ids, view, color, nullptr, 0);
    }) == R"({"pView":61,"Color":[0.25,0.5,0.75,1],"pRect":null,"NumRects":0})");
}

TEST_CASE("CreateTexture2D records the desc and the new texture, not its initial data") {
    Capture c;
    D3D11_TEXTURE2D_DESC desc{};
    desc.Width = 256;
    desc.Height = 128;
    desc.MipLevels = 1;
    desc.ArraySize = 1;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc = {1, 0};
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET;
    desc.MiscFlags = D3D11_RESOURCE_MISC_TILED;
    ID3D11Texture2D* texture = c.objects.make<ID3D11Texture2D>(71);
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11Device_CreateTexture2D(b, ids, &desc, nullptr, &texture, {});
    }) == R"({"pDesc":{"Width":256,"Height":128,"MipLevels":1,"ArraySize":1,"Format":28,)"
          R"("SampleDesc":{"Count":1,"Quality":0},"Usage":"D3D11_USAGE_DEFAULT",)"
          R"("BindFlags":"D3D11_BIND_SHADER_RESOURCE|D3D11_BIND_RENDER_TARGET",)"
          R"("CPUAccessFlags":0,"MiscFlags":"D3D11_RESOURCE_MISC_TILED"},)"
          R"("pInitialData":null,"ppTexture2D":71})");
}

TEST_CASE("CreateBuffer records its initial data, ByteWidth bytes of it") {
    Capture c;
    const D3D11_BUFFER_DESC desc{
        16, D3D11_USAGE_DYNAMIC, D3D11_BIND_CONSTANT_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0};
    std::array<std::uint8_t, 16> bytes{};
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i);
    const D3D11_SUBRESOURCE_DATA initial{bytes.data(), 0, 0};
    ID3D11Buffer* buffer = c.objects.make<ID3D11Buffer>(72);
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11Device_CreateBuffer(b, ids, &desc, &initial, &buffer);
    }) == R"({"pDesc":{"ByteWidth":16,"Usage":"D3D11_USAGE_DYNAMIC",)"
          R"("BindFlags":"D3D11_BIND_CONSTANT_BUFFER","CPUAccessFlags":"D3D11_CPU_ACCESS_WRITE",)"
          R"("MiscFlags":0,"StructureByteStride":0},)"
          R"("pInitialData":[{"pSysMem":{"size":16,"xxh3":"8355e3a6f61770db"},)"
          R"("SysMemPitch":0,"SysMemSlicePitch":0}],"ppBuffer":72})");
    // Without a desc the size is unknown: the bytes are left out, the rest kept.
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11Device_CreateBuffer(b, ids, nullptr, &initial, nullptr);
    }) == R"({"pDesc":null,"pInitialData":[{"pSysMem":null,"SysMemPitch":0,)"
          R"("SysMemSlicePitch":0}],"ppBuffer":0})");
}

TEST_CASE("CheckFeatureSupport records the inout data blob as it is after the call") {
    Capture c;
    D3D11_FEATURE_DATA_THREADING threading{TRUE, FALSE};
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11Device_CheckFeatureSupport(b, ids, D3D11_FEATURE_THREADING,
                                                            &threading, sizeof threading);
    }) == R"({"Feature":"D3D11_FEATURE_THREADING",)"
          R"("pFeatureSupportData":{"size":8,"xxh3":"2fbc593564db792e"},)"
          R"("FeatureSupportDataSize":8})");
}

TEST_CASE("GetPrivateData reads its byte count through the inout pointer") {
    Capture c;
    UINT size = 5;
    char data[8] = "hello";
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceChild_GetPrivateData(b, ids, kDebugObjectName, &size, data);
    }) == R"({"guid":"429b8c22-9188-4b0c-8742-acb0bf85c200","pDataSize":5,)"
          R"("pData":{"size":5,"xxh3":"9555e8555c62dcfd"}})");
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceChild_GetPrivateData(b, ids, kDebugObjectName, nullptr,
                                                            data);
    }) == R"({"guid":"429b8c22-9188-4b0c-8742-acb0bf85c200","pDataSize":0,"pData":null})");
}

TEST_CASE("CreateShaderResourceView records the new view and only the selected union member") {
    Capture c;
    auto* resource = c.objects.make<ID3D11Resource>(81);
    D3D11_SHADER_RESOURCE_VIEW_DESC desc{};
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2D;
    desc.Texture2D = {2, 3};
    ID3D11ShaderResourceView* view = c.objects.make<ID3D11ShaderResourceView>(82);
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11Device_CreateShaderResourceView(b, ids, resource, &desc, &view);
    }) == R"({"pResource":81,"pDesc":{"Format":28,"ViewDimension":4,)"
          R"("Texture2D":{"MostDetailedMip":2,"MipLevels":3}},"ppSRView":82})");
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11Device_CreateShaderResourceView(b, ids, resource, nullptr,
                                                                 nullptr);
    }) == R"({"pResource":81,"pDesc":null,"ppSRView":0})");
}

TEST_CASE("PSGetShader records the returned shader and class instances") {
    Capture c;
    ID3D11PixelShader* shader = c.objects.make<ID3D11PixelShader>(91);
    ID3D11ClassInstance* instances[4] = {c.objects.make<ID3D11ClassInstance>(92),
                                         c.objects.make<ID3D11ClassInstance>(93)};
    UINT count = 2;
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext_PSGetShader(b, ids, &shader, instances, &count);
    }) == R"({"ppPixelShader":91,"ppClassInstances":[92,93],"pNumClassInstances":2})");
}

TEST_CASE("RSGetViewports counts through *pNumViewports after the call") {
    Capture c;
    D3D11_VIEWPORT viewports[2] = {{1, 2, 3, 4, 0, 1}, {}};
    UINT count = 1;
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext_RSGetViewports(b, ids, &count, viewports);
    }) == R"({"pNumViewports":1,"pViewports":[{"TopLeftX":1,"TopLeftY":2,"Width":3,)"
          R"("Height":4,"MinDepth":0,"MaxDepth":1}]})");
    count = 3;
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext_RSGetViewports(b, ids, &count, nullptr);
    }) == R"({"pNumViewports":3,"pViewports":null})");
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11DeviceContext_RSGetViewports(b, ids, nullptr, viewports);
    }) == R"({"pNumViewports":0,"pViewports":null})");
}

TEST_CASE("IDXGIAdapter::GetDesc records the WCHAR description up to its NUL") {
    Capture c;
    DXGI_ADAPTER_DESC desc{};
    const std::wstring_view name = L"d3dcap r\u00e9f\u00e9rence";
    std::copy(name.begin(), name.end(), desc.Description);
    desc.VendorId = 0x1414;
    desc.DeviceId = 0x8c;
    desc.SharedSystemMemory = SIZE_T{1} << 30;
    desc.AdapterLuid = {7, -1};
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_IDXGIAdapter_GetDesc(b, ids, &desc);
    }) == "{\"pDesc\":{\"Description\":\"d3dcap r\xc3\xa9"
          "f\xc3\xa9rence\",\"VendorId\":5140,\"DeviceId\":140,\"SubSysId\":0,\"Revision\":0,"
          "\"DedicatedVideoMemory\":0,\"DedicatedSystemMemory\":0,"
          "\"SharedSystemMemory\":1073741824,\"AdapterLuid\":{\"LowPart\":7,\"HighPart\":-1}}}");
    // A description without a NUL ends with the array.
    std::fill(std::begin(desc.Description), std::end(desc.Description), L'x');
    const std::string json =
        c.json([&](auto& b, auto& ids) { return api::encode_IDXGIAdapter_GetDesc(b, ids, &desc); });
    CHECK(json.substr(0, 27) == R"({"pDesc":{"Description":"xx)");
    CHECK(json.find("\",\"VendorId\"") == 25 + 128);
}

TEST_CASE("CreateSamplerState records the fixed BorderColor array") {
    Capture c;
    const D3D11_SAMPLER_DESC desc{D3D11_FILTER_ANISOTROPIC,
                                  D3D11_TEXTURE_ADDRESS_WRAP,
                                  D3D11_TEXTURE_ADDRESS_CLAMP,
                                  D3D11_TEXTURE_ADDRESS_BORDER,
                                  0.5f,
                                  8,
                                  D3D11_COMPARISON_NEVER,
                                  {0, 0, 0, 1},
                                  0,
                                  13.5f};
    ID3D11SamplerState* sampler = c.objects.make<ID3D11SamplerState>(95);
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11Device_CreateSamplerState(b, ids, &desc, &sampler);
    }) == R"({"pSamplerDesc":{"Filter":"D3D11_FILTER_ANISOTROPIC",)"
          R"("AddressU":"D3D11_TEXTURE_ADDRESS_WRAP","AddressV":"D3D11_TEXTURE_ADDRESS_CLAMP",)"
          R"("AddressW":"D3D11_TEXTURE_ADDRESS_BORDER","MipLODBias":0.5,"MaxAnisotropy":8,)"
          R"("ComparisonFunc":"D3D11_COMPARISON_NEVER","BorderColor":[0,0,0,1],"MinLOD":0,)"
          R"("MaxLOD":13.5},"ppSamplerState":95})");
}

TEST_CASE("CreateBlendState records all eight render target blends") {
    Capture c;
    D3D11_BLEND_DESC desc{};
    desc.IndependentBlendEnable = TRUE;
    desc.RenderTarget[0] = {TRUE,
                            D3D11_BLEND_SRC_ALPHA,
                            D3D11_BLEND_INV_SRC_ALPHA,
                            D3D11_BLEND_OP_ADD,
                            D3D11_BLEND_ONE,
                            D3D11_BLEND_ZERO,
                            D3D11_BLEND_OP_ADD,
                            D3D11_COLOR_WRITE_ENABLE_ALL};
    ID3D11BlendState* state = c.objects.make<ID3D11BlendState>(96);
    std::string unused_target =
        R"({"BlendEnable":0,"SrcBlend":0,"DestBlend":0,"BlendOp":0,"SrcBlendAlpha":0,)"
        R"("DestBlendAlpha":0,"BlendOpAlpha":0,"RenderTargetWriteMask":0})";
    std::string expected =
        R"({"pBlendStateDesc":{"AlphaToCoverageEnable":0,"IndependentBlendEnable":1,)"
        R"("RenderTarget":[{"BlendEnable":1,"SrcBlend":"D3D11_BLEND_SRC_ALPHA",)"
        R"("DestBlend":"D3D11_BLEND_INV_SRC_ALPHA","BlendOp":"D3D11_BLEND_OP_ADD",)"
        R"("SrcBlendAlpha":"D3D11_BLEND_ONE","DestBlendAlpha":"D3D11_BLEND_ZERO",)"
        R"("BlendOpAlpha":"D3D11_BLEND_OP_ADD","RenderTargetWriteMask":)"
        R"("D3D11_COLOR_WRITE_ENABLE_ALL"})";
    for (int i = 1; i < 8; ++i) expected += "," + unused_target;
    expected += R"(]},"ppBlendState":96})";
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11Device_CreateBlendState(b, ids, &desc, &state);
    }) == expected);
}

TEST_CASE("CreateInputLayout records element tables with their semantic names") {
    Capture c;
    const D3D11_INPUT_ELEMENT_DESC elements[] = {
        {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
        {"TEXCOORD", 1, DXGI_FORMAT_R32G32_FLOAT, 1, 12, D3D11_INPUT_PER_INSTANCE_DATA, 1}};
    const char bytecode[] = {'D', 'X', 'B', 'C'};
    ID3D11InputLayout* layout = c.objects.make<ID3D11InputLayout>(97);
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11Device_CreateInputLayout(b, ids, elements, 2, bytecode,
                                                          sizeof bytecode, &layout);
    }) == R"({"pInputElementDescs":[{"SemanticName":"POSITION","SemanticIndex":0,"Format":6,)"
          R"("InputSlot":0,"AlignedByteOffset":0,"InputSlotClass":"D3D11_INPUT_PER_VERTEX_DATA",)"
          R"("InstanceDataStepRate":0},{"SemanticName":"TEXCOORD","SemanticIndex":1,)"
          R"("Format":16,"InputSlot":1,"AlignedByteOffset":12,)"
          R"("InputSlotClass":"D3D11_INPUT_PER_INSTANCE_DATA","InstanceDataStepRate":1}],)"
          R"("NumElements":2,"pShaderBytecodeWithInputSignature":)"
          R"({"size":4,"xxh3":"8794493e06f4109f"},"BytecodeLength":4,"ppInputLayout":97})");
}

TEST_CASE("GetInstanceName records the char buffer of *pBufferLength bytes") {
    Capture c;
    char name[16] = "light";
    SIZE_T length = 6;
    CHECK(c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11ClassInstance_GetInstanceName(b, ids, name, &length);
    }) == R"({"pInstanceName":"light\u0000","pBufferLength":6})");
}

// ---------------------------------------------------------------------------
// Coverage of the call table.

namespace {

bool contains(const auto& ids, api::CallId id) {
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// Pack expansions in initializer lists, not folds: clang limits fold depth to 256.
template <std::size_t... I>
constexpr std::array<bool, sizeof...(I)> generated_flags(std::index_sequence<I...>) {
    return {api::EncoderOf<api::kCalls[I].id>::generated...};
}

constexpr bool generated_for_every_call() {
    constexpr auto generated = generated_flags(std::make_index_sequence<api::kCalls.size()>());
    for (std::size_t i = 0; i < api::kCalls.size(); ++i)
        if (!generated[i]) return false;
    return true;
}
static_assert(generated_for_every_call());

using AnyFunction = void (*)();

template <api::CallId id>
AnyFunction encoder_function() {
    if constexpr (api::EncoderOf<id>::generated)
        return reinterpret_cast<AnyFunction>(api::EncoderOf<id>::function);
    else
        return nullptr;
}

// Takes the address of every generated encoder, so that each must be defined.
template <std::size_t... I>
std::array<AnyFunction, sizeof...(I)> encoder_functions(std::index_sequence<I...>) {
    return {encoder_function<api::kCalls[I].id>()...};
}

}  // namespace

TEST_CASE("every call has a generated encoder") {
    REQUIRE(api::kEncodedCalls.size() == api::kCalls.size());
    for (const api::CallInfo& call : api::kCalls) {
        INFO(call.interface_name << "::" << call.method);
        CHECK(contains(api::kEncodedCalls, call.id));
    }
    const auto functions = encoder_functions(std::make_index_sequence<api::kCalls.size()>());
    std::vector<api::CallId> linked;
    for (std::size_t i = 0; i < functions.size(); ++i)
        if (functions[i] != nullptr) linked.push_back(api::kCalls[i].id);
    CHECK(std::equal(linked.begin(), linked.end(), api::kEncodedCalls.begin(),
                     api::kEncodedCalls.end()));
    CHECK(api::kEncodedCalls.size() == 336);
}

TEST_CASE("every parameter is recorded: size rules take their sizes from the caller") {
    CHECK(api::kUnrecordedParams.empty());
}

TEST_CASE("CreateTexture2D records one initial-data blob per subresource, sized by the caller") {
    Capture c;
    D3D11_TEXTURE2D_DESC desc{};
    desc.Width = 4;
    desc.Height = 2;
    desc.MipLevels = 2;
    desc.ArraySize = 1;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc.Count = 1;
    const std::uint8_t mip0[32] = {1, 2, 3};
    const std::uint8_t mip1[8] = {9};
    const D3D11_SUBRESOURCE_DATA data[2] = {{mip0, 16, 32}, {mip1, 8, 8}};
    const std::size_t sizes[2] = {32, 8};
    ID3D11Texture2D* texture = nullptr;
    const std::string json = c.json([&](auto& b, auto& ids) {
        return api::encode_ID3D11Device_CreateTexture2D(b, ids, &desc, data, &texture, sizes);
    });
    CHECK(json.find(R"("pInitialData":[{"pSysMem":{"size":32,)") != std::string::npos);
    CHECK(json.find(R"("SysMemPitch":16,"SysMemSlicePitch":32},{"pSysMem":{"size":8,)") !=
          std::string::npos);
}

TEST_CASE("UpdateSubresource records the byte count its size rule gave") {
    Capture c;
    const std::uint8_t bytes[64] = {};
    CHECK(c.json([&](auto& b, auto& ids) {
               return api::encode_ID3D11DeviceContext_UpdateSubresource(b, ids, nullptr, 0, nullptr,
                                                                        bytes, 0, 0, 48);
           }).find(R"("pSrcData":{"size":48,)") != std::string::npos);
}
