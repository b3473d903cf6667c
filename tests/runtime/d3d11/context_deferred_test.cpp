// Deferred contexts, command lists with both RestoreContextState values,
// FinishCommandList's RestoreDeferredContextState, deferred Map and
// UpdateSubresource, draw counts, SwapDeviceContextState.
#include "object_support.h"

using namespace object_tests;
using d3dcap::runtime::context_draw_counts;

namespace {

Com<ID3D11DeviceContext> deferred_context(TestDevice& test) {
    Com<ID3D11DeviceContext> context;
    REQUIRE(test.device->CreateDeferredContext(0, context.out()) == S_OK);
    return context;
}

D3D11_PRIMITIVE_TOPOLOGY topology_of(ID3D11DeviceContext* context) {
    D3D11_PRIMITIVE_TOPOLOGY topology{};
    context->IAGetPrimitiveTopology(&topology);
    return topology;
}

// The bytes of a buffer, through a staging copy and Map on the immediate context.
std::vector<std::uint8_t> read_buffer(TestDevice& test, ID3D11Buffer* buffer, UINT size) {
    auto staging = test.buffer(size, 0, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ);
    test.context->CopyResource(staging.get(), buffer);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(test.context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    const auto* bytes = static_cast<const std::uint8_t*>(mapped.pData);
    std::vector<std::uint8_t> result(bytes, bytes + size);
    test.context->Unmap(staging.get(), 0);
    return result;
}

}  // namespace

TEST_CASE("Deferred contexts: creation rules and FinishCommandList on the wrong context",
          "[context][deferred]") {
    TestDevice test;
    auto deferred = deferred_context(test);
    CHECK(deferred->GetType() == D3D11_DEVICE_CONTEXT_DEFERRED);
    CHECK(deferred->GetContextFlags() == 0);
    Com<ID3D11DeviceContext> bad;
    CHECK(test.device->CreateDeferredContext(1, bad.out()) == E_INVALIDARG);
    CHECK(test.device->CreateDeferredContext(0, nullptr) == S_FALSE);
    Com<ID3D11DeviceContext2> deferred2;
    REQUIRE(test.device->CreateDeferredContext2(0, deferred2.out()) == S_OK);
    CHECK(count_of(deferred2.get()) == 1);

    Com<ID3D11CommandList> list;
    CHECK(test.context->FinishCommandList(FALSE, list.out()) == DXGI_ERROR_INVALID_CALL);
    REQUIRE(deferred->FinishCommandList(FALSE, list.out()) == S_OK);
    CHECK(list->GetContextFlags() == 0);

    TestDevice single(D3D_DRIVER_TYPE_REFERENCE, D3D_FEATURE_LEVEL_11_0,
                      D3D11_CREATE_DEVICE_SINGLETHREADED);
    CHECK(single.device->CreateDeferredContext(0, bad.out()) == DXGI_ERROR_INVALID_CALL);
}

TEST_CASE("ExecuteCommandList clears or restores the immediate context's state",
          "[context][deferred]") {
    TestDevice test;
    auto deferred = deferred_context(test);
    deferred->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_LINELIST);
    deferred->Draw(3, 0);
    Com<ID3D11CommandList> list;
    REQUIRE(deferred->FinishCommandList(FALSE, list.out()) == S_OK);

    test.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_POINTLIST);
    test.context->ExecuteCommandList(list.get(), TRUE);
    CHECK(topology_of(test.context.get()) == D3D11_PRIMITIVE_TOPOLOGY_POINTLIST);
    CHECK(context_draw_counts(test.context.get()).draws == 1);

    test.context->ExecuteCommandList(list.get(), FALSE);
    CHECK(topology_of(test.context.get()) == D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED);
    CHECK(context_draw_counts(test.context.get()).draws == 2);

    test.context->ExecuteCommandList(nullptr, FALSE);
    CHECK(test.messages().back().parameter == "pCommandList");
}

TEST_CASE("FinishCommandList keeps or clears the deferred context's state", "[context][deferred]") {
    TestDevice test;
    auto deferred = deferred_context(test);
    deferred->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    Com<ID3D11CommandList> list;
    REQUIRE(deferred->FinishCommandList(TRUE, list.out()) == S_OK);
    CHECK(topology_of(deferred.get()) == D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    REQUIRE(deferred->FinishCommandList(FALSE, list.out()) == S_OK);
    CHECK(topology_of(deferred.get()) == D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED);
}

TEST_CASE("Draws count on the recording context and again where the list runs",
          "[context][deferred]") {
    TestDevice test;
    auto deferred = deferred_context(test);
    deferred->Draw(3, 0);
    deferred->DrawIndexed(6, 0, 0);
    deferred->DrawInstanced(3, 2, 0, 0);
    deferred->Dispatch(1, 1, 1);
    deferred->Dispatch(70000, 1, 1);  // dropped: above 65535 groups
    CHECK(context_draw_counts(deferred.get()).draws == 3);
    CHECK(context_draw_counts(deferred.get()).dispatches == 1);
    Com<ID3D11CommandList> list;
    REQUIRE(deferred->FinishCommandList(FALSE, list.out()) == S_OK);
    test.context->ExecuteCommandList(list.get(), FALSE);
    test.context->ExecuteCommandList(list.get(), FALSE);
    CHECK(context_draw_counts(test.context.get()).draws == 6);
    CHECK(context_draw_counts(test.context.get()).dispatches == 2);

    // Indirect forms need a DRAWINDIRECT_ARGS buffer with room for the arguments.
    auto args = test.buffer(32, 0, D3D11_USAGE_DEFAULT, 0, D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS);
    auto plain = test.buffer(32, D3D11_BIND_VERTEX_BUFFER);
    test.context->DrawInstancedIndirect(args.get(), 16);
    test.context->DrawIndexedInstancedIndirect(args.get(), 16);  // 20 bytes do not fit
    test.context->DispatchIndirect(plain.get(), 0);
    test.context->DrawInstancedIndirect(args.get(), 2);
    CHECK(context_draw_counts(test.context.get()).draws == 7);
    CHECK(context_draw_counts(test.context.get()).dispatches == 2);
}

TEST_CASE("Nested command lists run with the nesting context's rules", "[context][deferred]") {
    TestDevice test;
    auto inner = deferred_context(test);
    inner->Draw(1, 0);
    Com<ID3D11CommandList> inner_list;
    REQUIRE(inner->FinishCommandList(FALSE, inner_list.out()) == S_OK);
    auto outer = deferred_context(test);
    outer->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_LINESTRIP);
    outer->ExecuteCommandList(inner_list.get(), TRUE);
    CHECK(topology_of(outer.get()) == D3D11_PRIMITIVE_TOPOLOGY_LINESTRIP);
    outer->ExecuteCommandList(inner_list.get(), FALSE);
    CHECK(topology_of(outer.get()) == D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED);
    outer->Draw(1, 0);
    Com<ID3D11CommandList> outer_list;
    REQUIRE(outer->FinishCommandList(FALSE, outer_list.out()) == S_OK);
    test.context->ExecuteCommandList(outer_list.get(), FALSE);
    CHECK(context_draw_counts(test.context.get()).draws == 3);
}

TEST_CASE("Deferred Map writes land when the list runs - the first Map must discard",
          "[context][deferred]") {
    TestDevice test;
    auto dynamic =
        test.buffer(16, D3D11_BIND_VERTEX_BUFFER, D3D11_USAGE_DYNAMIC, D3D11_CPU_ACCESS_WRITE);
    auto target = test.buffer(16, D3D11_BIND_VERTEX_BUFFER);
    auto deferred = deferred_context(test);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    CHECK(deferred->Map(dynamic.get(), 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &mapped) ==
          D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD);
    REQUIRE(deferred->Map(dynamic.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
    CHECK(mapped.RowPitch == 16);
    for (int i = 0; i < 16; ++i) static_cast<std::uint8_t*>(mapped.pData)[i] = std::uint8_t(i);
    deferred->Unmap(dynamic.get(), 0);
    deferred->CopyResource(target.get(), dynamic.get());
    REQUIRE(deferred->Map(dynamic.get(), 0, D3D11_MAP_WRITE_NO_OVERWRITE, 0, &mapped) == S_OK);
    static_cast<std::uint8_t*>(mapped.pData)[15] = 0xee;  // keeps bytes 0..14
    deferred->Unmap(dynamic.get(), 0);

    auto staging = test.buffer(16, 0, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ);
    CHECK(deferred->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == E_INVALIDARG);

    Com<ID3D11CommandList> list;
    REQUIRE(deferred->FinishCommandList(FALSE, list.out()) == S_OK);
    test.context->ExecuteCommandList(list.get(), FALSE);
    const auto copied = read_buffer(test, target.get(), 16);
    CHECK(copied[0] == 0);
    CHECK(copied[15] == 15);
    test.context->CopyResource(target.get(), dynamic.get());
    const auto latest = read_buffer(test, target.get(), 16);
    CHECK(latest[14] == 14);
    CHECK(latest[15] == 0xee);
}

TEST_CASE("Deferred UpdateSubresource keeps a copy of the source data", "[context][deferred]") {
    TestDevice test;
    auto target = test.buffer(16, D3D11_BIND_VERTEX_BUFFER);
    auto deferred = deferred_context(test);
    std::uint8_t source[16];
    for (int i = 0; i < 16; ++i) source[i] = std::uint8_t(100 + i);
    deferred->UpdateSubresource(target.get(), 0, nullptr, source, 0, 0);
    std::fill(std::begin(source), std::end(source), std::uint8_t{0});
    Com<ID3D11CommandList> list;
    REQUIRE(deferred->FinishCommandList(FALSE, list.out()) == S_OK);
    // The list keeps what it uses alive.
    ID3D11Buffer* raw = target.release();
    Com<ID3D11Buffer> keep;
    raw->QueryInterface(__uuidof(ID3D11Buffer), keep.out_void());
    CHECK(raw->Release() == 1);
    test.context->ExecuteCommandList(list.get(), FALSE);
    const auto bytes = read_buffer(test, keep.get(), 16);
    CHECK(bytes[0] == 100);
    CHECK(bytes[15] == 115);
}

TEST_CASE("SwapDeviceContextState saves and restores the immediate state", "[context][state]") {
    TestDevice test;
    const D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_1};
    D3D_FEATURE_LEVEL chosen{};
    Com<ID3DDeviceContextState> state;
    REQUIRE(test.device->CreateDeviceContextState(0, levels, 1, D3D11_SDK_VERSION,
                                                  __uuidof(ID3D11Device1), &chosen,
                                                  state.out()) == S_OK);
    CHECK(chosen == D3D_FEATURE_LEVEL_11_1);
    CHECK(test.device->CreateDeviceContextState(0, levels, 1, D3D11_SDK_VERSION,
                                                __uuidof(ID3D11DeviceContext), &chosen,
                                                nullptr) == E_INVALIDARG);
    // A failure clears both outs, whatever they held.
    ID3DDeviceContextState* stale = state.get();
    chosen = D3D_FEATURE_LEVEL_11_1;
    CHECK(test.device->CreateDeviceContextState(0, levels, 1, D3D11_SDK_VERSION,
                                                __uuidof(ID3D11DeviceContext), &chosen,
                                                &stale) == E_INVALIDARG);
    CHECK(chosen == D3D_FEATURE_LEVEL{});
    CHECK(stale == nullptr);
    ID3D11DeviceContext* deferred_out = test.context.get();
    CHECK(test.device->CreateDeferredContext(1, &deferred_out) == E_INVALIDARG);
    CHECK(deferred_out == nullptr);

    test.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_POINTLIST);
    Com<ID3DDeviceContextState> previous;
    test.context->SwapDeviceContextState(state.get(), previous.out());
    REQUIRE(previous);  // the device's default state object
    CHECK(topology_of(test.context.get()) == D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED);
    test.context->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_LINELIST);

    Com<ID3DDeviceContextState> back;
    test.context->SwapDeviceContextState(previous.get(), back.out());
    CHECK(back.get() == state.get());
    CHECK(topology_of(test.context.get()) == D3D11_PRIMITIVE_TOPOLOGY_POINTLIST);
    test.context->SwapDeviceContextState(state.get(), nullptr);
    CHECK(topology_of(test.context.get()) == D3D11_PRIMITIVE_TOPOLOGY_LINELIST);

    auto deferred = deferred_context(test);
    Com<ID3D11DeviceContext1> deferred1 = deferred.as<ID3D11DeviceContext1>();
    deferred1->SwapDeviceContextState(state.get(), nullptr);
    CHECK(test.messages().back().text == "deferred contexts cannot swap context state; dropped");
}

TEST_CASE("UAV initial counts reach CopyStructureCount on both kinds of context",
          "[context][deferred]") {
    TestDevice test;
    auto structured = test.buffer(64, D3D11_BIND_UNORDERED_ACCESS, D3D11_USAGE_DEFAULT, 0,
                                  D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4);
    D3D11_UNORDERED_ACCESS_VIEW_DESC desc{};
    desc.Format = DXGI_FORMAT_UNKNOWN;
    desc.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
    desc.Buffer = {0, 16, D3D11_BUFFER_UAV_FLAG_APPEND};
    Com<ID3D11UnorderedAccessView> uav;
    REQUIRE(test.device->CreateUnorderedAccessView(structured.get(), &desc, uav.out()) == S_OK);
    auto counts = test.buffer(16, D3D11_BIND_VERTEX_BUFFER);
    ID3D11UnorderedAccessView* views[1] = {uav.get()};

    auto deferred = deferred_context(test);
    const UINT seven = 7;
    deferred->CSSetUnorderedAccessViews(0, 1, views, &seven);
    deferred->CopyStructureCount(counts.get(), 4, uav.get());
    Com<ID3D11CommandList> list;
    REQUIRE(deferred->FinishCommandList(FALSE, list.out()) == S_OK);
    const UINT nine = 9;
    test.context->CSSetUnorderedAccessViews(0, 1, views, &nine);
    test.context->CopyStructureCount(counts.get(), 8, uav.get());
    test.context->ExecuteCommandList(list.get(), FALSE);

    const auto bytes = read_buffer(test, counts.get(), 16);
    std::uint32_t values[4];
    std::memcpy(values, bytes.data(), sizeof values);
    CHECK(values[0] == 0);
    CHECK(values[1] == 7);
    CHECK(values[2] == 9);
    test.context->CopyStructureCount(counts.get(), 6, uav.get());
    CHECK(test.messages().back().parameter == "DstAlignedByteOffset");
}
