// The generated JSON dumper of call arguments: every call's sample record
// (checks/sample_calls.inc, whose expected text the generator computes on its
// own) prints exactly the expected JSON, plus hand-picked cases for flags,
// escaping, blobs, absent values, floats and HRESULT names.
#include <d3d11_2.h>
#include <d3dcap/api/call_dispatch.h>
#include <d3dcap/api/call_json.h>
#include <dxgi1_2.h>

#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

using namespace d3dcap;

namespace {

// Finishes a Record around a call's parameter table, as the trace writer
// does, and prints the call's arguments.
using Attach = void (*)(fb::RecordBuilder&, flatbuffers::uoffset_t);

std::string finish_and_dump(flatbuffers::FlatBufferBuilder& builder, std::uint16_t call,
                            Attach attach, flatbuffers::uoffset_t params) {
    const fb::RecordHeader header(/*event=*/7, /*object=*/1, /*context=*/0, /*result=*/0,
                                  /*thread=*/1, call, /*flags=*/0);
    fb::RecordBuilder record(builder);
    record.add_header(&header);
    attach(record, params);
    builder.Finish(record.Finish());

    flatbuffers::Verifier verifier(builder.GetBufferPointer(), builder.GetSize());
    REQUIRE(verifier.VerifyBuffer<fb::Record>(nullptr));
    std::string out;
    api::append_args_json(*flatbuffers::GetRoot<fb::Record>(builder.GetBufferPointer()), out);
    return out;
}

template <typename Params>
void attach(fb::RecordBuilder& record, flatbuffers::uoffset_t params) {
    api::CallOf<Params>::add_to(record, flatbuffers::Offset<Params>(params));
}

template <typename Params, typename Build>
std::string dump(Build&& build) {
    flatbuffers::FlatBufferBuilder builder;
    const flatbuffers::Offset<Params> params = build(builder);
    return finish_and_dump(builder, static_cast<std::uint16_t>(api::CallOf<Params>::id),
                           &attach<Params>, params.o);
}

struct SampleRow {
    std::string_view call;
    std::string (*dump)();
    std::string_view expected;
};

#define D3DCAP_SAMPLE(Call, build, expected) \
    SampleRow{#Call, [] { return dump<fb::Call>(build); }, expected},
const std::vector<SampleRow> kSamples = {
#include "sample_calls.inc"
};
#undef D3DCAP_SAMPLE

}  // namespace

TEST_CASE("every call's sample record prints the JSON the generator expects") {
    REQUIRE(kSamples.size() == api::kCalls.size());
    for (const SampleRow& row : kSamples) {
        INFO(row.call);
        CHECK(row.dump() == row.expected);
    }
}

TEST_CASE("tile range flags print each element's flag names") {
    const std::vector<std::uint32_t> range_flags{
        D3D11_TILE_RANGE_NULL, D3D11_TILE_RANGE_SKIP | D3D11_TILE_RANGE_REUSE_SINGLE_TILE};
    const std::string json =
        dump<fb::ID3D11DeviceContext2_UpdateTileMappings>([&](flatbuffers::FlatBufferBuilder& b) {
            return fb::CreateID3D11DeviceContext2_UpdateTileMappingsDirect(
                b, /*p_tiled_resource=*/7, /*num_tiled_resource_regions=*/0, nullptr, nullptr,
                /*p_tile_pool=*/8, /*num_ranges=*/2, &range_flags, nullptr, nullptr, /*flags=*/0);
        });
    CHECK(json == R"({"pTiledResource":7,"NumTiledResourceRegions":0,)"
                  R"("pTiledResourceRegionStartCoordinates":null,"pTiledResourceRegionSizes":null,)"
                  R"("pTilePool":8,"NumRanges":2,)"
                  R"("pRangeFlags":["D3D11_TILE_RANGE_NULL",)"
                  R"("D3D11_TILE_RANGE_SKIP|D3D11_TILE_RANGE_REUSE_SINGLE_TILE"],)"
                  R"("pTilePoolStartOffsets":null,"pRangeTileCounts":null,"Flags":0})");
}

TEST_CASE("unknown flag bits print as hex after the known names") {
    auto clear = [](std::uint32_t flags) {
        return dump<fb::ID3D11DeviceContext_ClearDepthStencilView>(
            [flags](flatbuffers::FlatBufferBuilder& b) {
                return fb::CreateID3D11DeviceContext_ClearDepthStencilView(b, 3, flags, 1.0f, 0);
            });
    };
    CHECK(clear(D3D11_CLEAR_DEPTH | 0x40) ==
          R"({"pDepthStencilView":3,"ClearFlags":"D3D11_CLEAR_DEPTH|0x40","Depth":1,"Stencil":0})");
    CHECK(clear(0x8000'0040) ==
          R"({"pDepthStencilView":3,"ClearFlags":"0x80000040","Depth":1,"Stencil":0})");
    CHECK(clear(D3D11_CLEAR_DEPTH | D3D11_CLEAR_STENCIL) ==
          R"({"pDepthStencilView":3,"ClearFlags":"D3D11_CLEAR_DEPTH|D3D11_CLEAR_STENCIL",)"
          R"("Depth":1,"Stencil":0})");
}

TEST_CASE("enum values print by name, unknown ones as numbers") {
    auto map = [](std::uint32_t type, std::uint32_t flags) {
        return dump<fb::ID3D11DeviceContext_Map>([=](flatbuffers::FlatBufferBuilder& b) {
            return fb::CreateID3D11DeviceContext_Map(b, 5, 0, type, flags);
        });
    };
    CHECK(map(D3D11_MAP_WRITE_DISCARD, 0) ==
          R"({"pResource":5,"Subresource":0,"MapType":"D3D11_MAP_WRITE_DISCARD","MapFlags":0,)"
          R"("pMappedResource":null})");
    CHECK(map(99, D3D11_MAP_FLAG_DO_NOT_WAIT) ==
          R"({"pResource":5,"Subresource":0,"MapType":99,"MapFlags":"D3D11_MAP_FLAG_DO_NOT_WAIT",)"
          R"("pMappedResource":null})");
}

TEST_CASE("strings are escaped and absent strings are null") {
    auto marker = [](const char* name) {
        return dump<fb::ID3DUserDefinedAnnotation_SetMarker>(
            [name](flatbuffers::FlatBufferBuilder& b) {
                return fb::CreateID3DUserDefinedAnnotation_SetMarkerDirect(b, name);
            });
    };
    CHECK(marker("say \"hi\"\\path\n\x01\x1f end") ==
          R"({"Name":"say \"hi\"\\path\u000a\u0001\u001f end"})");
    CHECK(marker("caf\xc3\xa9") == "{\"Name\":\"caf\xc3\xa9\"}");
    CHECK(marker(nullptr) == R"({"Name":null})");
}

TEST_CASE("byte blobs print their size and XXH3 hash, GUIDs print as strings") {
    const std::vector<std::uint8_t> bytes{'d', '3', 'd', 'c', 'a', 'p'};
    const fb::Guid guid(0x12345678, 0x9abc, 0xdef0,
                        std::array<std::uint8_t, 8>{1, 2, 3, 4, 5, 6, 7, 8});
    auto set_private_data = [&](const std::vector<std::uint8_t>* data) {
        return dump<fb::ID3D11DeviceChild_SetPrivateData>([&](flatbuffers::FlatBufferBuilder& b) {
            return fb::CreateID3D11DeviceChild_SetPrivateDataDirect(b, &guid, 6, data);
        });
    };
    // XXH3_64bits("d3dcap", 6), computed once with libxxhash.
    CHECK(set_private_data(&bytes) ==
          R"({"guid":"12345678-9abc-def0-0102-030405060708","DataSize":6,)"
          R"("pData":{"size":6,"xxh3":"b714d7281aa758b9"}})");
    CHECK(set_private_data(nullptr) ==
          R"({"guid":"12345678-9abc-def0-0102-030405060708","DataSize":6,"pData":null})");
    // XXH3_64bits of no bytes.
    const std::vector<std::uint8_t> empty;
    CHECK(set_private_data(&empty) ==
          R"({"guid":"12345678-9abc-def0-0102-030405060708","DataSize":6,)"
          R"("pData":{"size":0,"xxh3":"2d06800538d394c2"}})");
}

TEST_CASE("floats print shortest round-trip, NaN and infinities as strings") {
    const std::vector<fb::D3D11_VIEWPORT> viewports{
        {0.1f, -2.5f, 1e20f, 3.0f, std::numeric_limits<float>::quiet_NaN(),
         std::numeric_limits<float>::infinity()},
        {-std::numeric_limits<float>::infinity(), 0.0f, 1.0f / 3.0f, 16777216.0f, -0.0f, 1e-7f}};
    const std::string json =
        dump<fb::ID3D11DeviceContext_RSSetViewports>([&](flatbuffers::FlatBufferBuilder& b) {
            return fb::CreateID3D11DeviceContext_RSSetViewportsDirect(b, 2, &viewports);
        });
    CHECK(json == R"({"NumViewports":2,"pViewports":[)"
                  R"({"TopLeftX":0.1,"TopLeftY":-2.5,"Width":1e+20,"Height":3,)"
                  R"("MinDepth":"nan","MaxDepth":"inf"},)"
                  R"({"TopLeftX":"-inf","TopLeftY":0,"Width":0.33333334,"Height":16777216,)"
                  R"("MinDepth":-0,"MaxDepth":1e-07}]})");
}

TEST_CASE("a record without a call prints an empty object") {
    flatbuffers::FlatBufferBuilder builder;
    const fb::RecordHeader header(0, 0, 0, 0, 1, /*call=*/0, 0);
    fb::RecordBuilder record(builder);
    record.add_header(&header);
    builder.Finish(record.Finish());
    std::string out = "prefix";
    api::append_args_json(*flatbuffers::GetRoot<fb::Record>(builder.GetBufferPointer()), out);
    CHECK(out == "prefix{}");
}

TEST_CASE("HRESULTs print by name") {
    CHECK(api::hresult_name(E_INVALIDARG) == "E_INVALIDARG");
    CHECK(api::hresult_name(S_OK) == "S_OK");
    CHECK(api::hresult_name(S_FALSE) == "S_FALSE");
    CHECK(api::hresult_name(E_OUTOFMEMORY) == "E_OUTOFMEMORY");
    CHECK(api::hresult_name(DXGI_ERROR_DEVICE_REMOVED) == "DXGI_ERROR_DEVICE_REMOVED");
    CHECK(api::hresult_name(DXGI_ERROR_WAS_STILL_DRAWING) == "DXGI_ERROR_WAS_STILL_DRAWING");
    CHECK(api::hresult_name(DXGI_STATUS_OCCLUDED) == "DXGI_STATUS_OCCLUDED");
    CHECK(api::hresult_name(D3D11_ERROR_FILE_NOT_FOUND) == "D3D11_ERROR_FILE_NOT_FOUND");
    CHECK(api::hresult_name(static_cast<std::int32_t>(0x80001234)).empty());
}
