// The C++ call table generated from format/api: well-formed and complete.
#include <d3dcap/api/calls.h>

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

using namespace d3dcap::api;

namespace {

const CallInfo& by_name(std::string_view interface_name, std::string_view method) {
    for (const CallInfo& call : kCalls) {
        if (call.interface_name == interface_name && call.method == method) return call;
    }
    FAIL("no call " << interface_name << "::" << method);
    return kCalls[0];
}

const ParamInfo& param(const CallInfo& call, std::string_view name) {
    for (std::size_t i = 0; i < call.param_count; ++i) {
        if (kParams[call.first_param + i].name == name) return kParams[call.first_param + i];
    }
    FAIL("no parameter " << name << " in " << call.method);
    return kParams[0];
}

std::vector<const CallInfo*> context_methods() {
    std::vector<const CallInfo*> methods;
    for (const CallInfo& call : kCalls) {
        if (call.interface_name == "ID3D11DeviceContext" ||
            call.interface_name == "ID3D11DeviceContext1" ||
            call.interface_name == "ID3D11DeviceContext2") {
            methods.push_back(&call);
        }
    }
    return methods;
}

}  // namespace

TEST_CASE("the device-context interfaces have 137 methods in slots 7 to 143") {
    std::vector<const CallInfo*> methods = context_methods();
    REQUIRE(methods.size() == 137);
    std::set<int> slots;
    for (const CallInfo* call : methods) slots.insert(call->slot);
    REQUIRE(slots.size() == 137);
    CHECK(*slots.begin() == 7);
    CHECK(*slots.rbegin() == 143);
}

TEST_CASE("each context interface starts where its base ends") {
    CHECK(by_name("ID3D11DeviceContext", "VSSetConstantBuffers").slot == 7);
    CHECK(by_name("ID3D11DeviceContext", "FinishCommandList").slot == 114);
    CHECK(by_name("ID3D11DeviceContext1", "CopySubresourceRegion1").slot == 115);
    CHECK(by_name("ID3D11DeviceContext1", "DiscardView1").slot == 133);
}

TEST_CASE("ID3D11DeviceContext2 slots 134-143 are the ones the API reference lists") {
    const char* expected[] = {"UpdateTileMappings",  "CopyTileMappings",
                              "CopyTiles",           "UpdateTiles",
                              "ResizeTilePool",      "TiledResourceBarrier",
                              "IsAnnotationEnabled", "SetMarkerInt",
                              "BeginEventInt",       "EndEvent"};
    for (int i = 0; i < 10; ++i) {
        INFO("slot " << 134 + i);
        CHECK(by_name("ID3D11DeviceContext2", expected[i]).slot == 134 + i);
    }
}

TEST_CASE("call ids are unique, sorted, and found by find_call") {
    std::set<int> ids;
    for (std::size_t i = 0; i < kCalls.size(); ++i) {
        ids.insert(static_cast<int>(kCalls[i].id));
        if (i > 0) CHECK(kCalls[i - 1].id < kCalls[i].id);
        CHECK(find_call(kCalls[i].id) == &kCalls[i]);
    }
    CHECK(ids.size() == kCalls.size());
    CHECK(find_call(CallId{0}) == nullptr);
    CHECK(find_call(CallId{0xffff}) == nullptr);
    CHECK(kCalls.size() == kDeclaredCallCount);
}

TEST_CASE("every parameter range lies inside kParams and names are unique per call") {
    for (const CallInfo& call : kCalls) {
        INFO(call.interface_name << "::" << call.method);
        REQUIRE(call.first_param + call.param_count <= kParams.size());
        std::set<std::string_view> names;
        for (std::size_t i = 0; i < call.param_count; ++i) {
            names.insert(kParams[call.first_param + i].name);
        }
        CHECK(names.size() == call.param_count);
    }
}

TEST_CASE("UpdateTileMappings describes its arrays by NumTiledResourceRegions and NumRanges") {
    const CallInfo& call = by_name("ID3D11DeviceContext2", "UpdateTileMappings");
    CHECK(call.returns == "HRESULT");
    CHECK(call.param_count == 10);
    CHECK(param(call, "pTiledResourceRegionStartCoordinates").count == "NumTiledResourceRegions");
    CHECK(param(call, "pTiledResourceRegionSizes").count == "NumTiledResourceRegions");
    for (const char* name : {"pRangeFlags", "pTilePoolStartOffsets", "pRangeTileCounts"}) {
        INFO(name);
        CHECK(param(call, name).count == "NumRanges");
        CHECK(param(call, name).optional);
        CHECK(param(call, name).type == "const UINT *");
    }
    CHECK(param(call, "pTilePool").optional);
}

TEST_CASE("UpdateTiles consumes NumTiles x 64 KiB of source data and is hand-written") {
    const CallInfo& call = by_name("ID3D11DeviceContext2", "UpdateTiles");
    CHECK(call.hand_written);
    CHECK(param(call, "pSourceTileData").bytes ==
          "pDestTileRegionSize->NumTiles * D3D11_2_TILED_RESOURCE_TILE_SIZE_IN_BYTES");
}

TEST_CASE("calls whose capture or replay is written by hand are flagged") {
    CHECK(by_name("ID3D11DeviceContext", "Map").hand_written);
    CHECK(by_name("ID3D11DeviceContext", "Unmap").hand_written);
    CHECK(by_name("ID3D11DeviceContext", "UpdateSubresource").hand_written);
    CHECK(by_name("ID3D11DeviceContext1", "UpdateSubresource1").hand_written);
    CHECK(by_name("ID3D11DeviceContext2", "CopyTileMappings").hand_written);  // capture only
    CHECK(by_name("IDXGIFactory4", "EnumAdapterByLuid").hand_written);        // replay only
    // Generated both ways.
    CHECK_FALSE(by_name("ID3D11DeviceContext1", "SwapDeviceContextState").hand_written);
    CHECK_FALSE(by_name("ID3D11DeviceContext", "ExecuteCommandList").hand_written);
    CHECK_FALSE(by_name("ID3D11DeviceContext", "Draw").hand_written);
}

TEST_CASE("annotation labels are strings and the context-1 constant windows are counted") {
    const ParamInfo& label = param(by_name("ID3D11DeviceContext2", "SetMarkerInt"), "pLabel");
    CHECK(label.type == "LPCWSTR");
    CHECK(label.string);
    CHECK(param(by_name("IUnknown", "QueryInterface"), "ppvObject").iid == "riid");
    const CallInfo& set_cb1 = by_name("ID3D11DeviceContext1", "VSSetConstantBuffers1");
    CHECK(param(set_cb1, "pFirstConstant").count == "NumBuffers");
    CHECK(param(set_cb1, "pNumConstants").count == "NumBuffers");
}

TEST_CASE("the device, DXGI and entry points are in the table too") {
    CHECK(by_name("ID3D11Device2", "GetResourceTiling").slot == 52);
    CHECK(by_name("IDXGIDevice2", "EnqueueSetEvent").slot == 16);
    CHECK(by_name("IDXGIFactory2", "CreateSwapChainForComposition").slot == 24);
    CHECK(by_name("", "D3D11CreateDevice").slot == -1);
    CHECK(by_name("", "CreateDXGIFactory2").slot == -1);
}
