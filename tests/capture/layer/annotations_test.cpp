// Annotations through the layer: IsAnnotationEnabled/GetStatus say whether
// the layer records (not what the device says), and markers and events are
// recorded with their labels and data and listed in the trace index.
#include <string>
#include <vector>

#include "capture/layer/layer_test.h"
#include "format/trace/record_json.h"

namespace capture_tests {
namespace {

struct Marker {
    fb::MarkerKind kind;
    std::string label;
    int data;
    std::uint32_t depth;
    bool has_data;
};

std::vector<Marker> markers_of(const TraceRecords& records) {
    std::vector<Marker> out;
    for (const trace::Marker& m : records.markers().entries)
        out.push_back({m.kind, records.markers().label(m), m.data, m.depth, m.has_data});
    return out;
}

DXGI_SWAP_CHAIN_DESC swap_chain_desc() {
    DXGI_SWAP_CHAIN_DESC desc{};
    desc.BufferDesc = {64,
                       32,
                       {60, 1},
                       DXGI_FORMAT_R8G8B8A8_UNORM,
                       DXGI_MODE_SCANLINE_ORDER_UNSPECIFIED,
                       DXGI_MODE_SCALING_UNSPECIFIED};
    desc.SampleDesc = {1, 0};
    desc.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
    desc.BufferCount = 1;
    desc.Windowed = TRUE;
    desc.SwapEffect = DXGI_SWAP_EFFECT_DISCARD;
    return desc;
}

TEST_CASE(
    "IsAnnotationEnabled and GetStatus are TRUE while recording although the device says "
    "FALSE, and are recorded with that value") {
    DirectDevice direct;
    REQUIRE(direct.context->IsAnnotationEnabled() == FALSE);
    REQUIRE(direct.context.as<ID3DUserDefinedAnnotation>()->GetStatus() == FALSE);

    Capture capture;
    REQUIRE(capture.session.api->is_recording() == 1);
    CHECK(capture.context->IsAnnotationEnabled() == TRUE);
    auto annotation = capture.context.as<ID3DUserDefinedAnnotation>();
    REQUIRE(annotation.get() != nullptr);
    CHECK(annotation->GetStatus() == TRUE);
    CHECK(capture.context->IsAnnotationEnabled() == TRUE);
    TraceRecords records = capture.stop();
    // Idle after the capture: the layer is still there, but records nothing.
    CHECK(capture.context->IsAnnotationEnabled() == FALSE);
    CHECK(annotation->GetStatus() == FALSE);

    const auto enabled = records.calls(CallId::ID3D11DeviceContext2_IsAnnotationEnabled);
    REQUIRE(enabled.size() == 2);
    const auto status = records.calls(CallId::ID3DUserDefinedAnnotation_GetStatus);
    REQUIRE(status.size() == 1);
    for (const fb::Record* r : {enabled[0], enabled[1], status[0]}) {
        CHECK(r->header()->result() == TRUE);
        CHECK((r->header()->flags() &
               static_cast<std::uint16_t>(fb::RecordFlags::ResultIsHresult)) == 0);
    }
    CHECK(enabled[0]->header()->event() < status[0]->header()->event());
    CHECK(status[0]->header()->event() < enabled[1]->header()->event());
}

TEST_CASE(
    "IsAnnotationEnabled is FALSE before and after the frame range 2-3 and TRUE inside it, "
    "frames ending at Present") {
    Capture capture("2-3");
    const auto* api = capture.session.api;
    Com<IDXGISwapChain> chain;
    Com<ID3D11Device> device;
    Com<ID3D11DeviceContext> base_context;
    const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1;
    const DXGI_SWAP_CHAIN_DESC desc = swap_chain_desc();
    REQUIRE(capture.session.create_device_and_swap_chain(
                nullptr, D3D_DRIVER_TYPE_REFERENCE, nullptr, 0, &level, 1, D3D11_SDK_VERSION, &desc,
                chain.out(), device.out(), nullptr, base_context.out()) == S_OK);
    auto context = base_context.as<ID3D11DeviceContext2>();
    REQUIRE(context.get() != nullptr);

    std::vector<BOOL> seen;
    std::vector<int> recording;
    for (int frame = 0; frame < 5; ++frame) {
        REQUIRE(api->frame() == static_cast<std::uint64_t>(frame));
        seen.push_back(context->IsAnnotationEnabled());
        recording.push_back(api->is_recording());
        REQUIRE(chain->Present(0, 0) == S_OK);
    }
    CHECK(seen == std::vector<BOOL>{FALSE, FALSE, TRUE, TRUE, FALSE});
    CHECK(recording == std::vector<int>{0, 0, 1, 1, 0});
    // DXGI_PRESENT_TEST shows nothing and ends no frame.
    REQUIRE(chain->Present(0, DXGI_PRESENT_TEST) == S_OK);
    CHECK(api->frame() == 5);
    CHECK(context->IsAnnotationEnabled() == FALSE);

    // The layer closed the trace at the end of frame 3.
    TraceRecords records = capture.stop();
    // The calls and frame boundaries, in order (the snapshot that opens the
    // range may take any number of records).
    std::vector<const fb::Record*> kept;
    for (const fb::Record* r : records.all())
        if (r->header()->call() != 0 || r->meta_type() == fb::Meta::FrameBoundary)
            kept.push_back(r);
    std::vector<std::string> names;
    for (const fb::Record* r : kept) names.push_back(trace::record_name(*r));
    CHECK(names == std::vector<std::string>{
                       "FrameBoundary", "ID3D11DeviceContext2::IsAnnotationEnabled",
                       "IDXGISwapChain::Present", "FrameBoundary",
                       "ID3D11DeviceContext2::IsAnnotationEnabled", "IDXGISwapChain::Present"});
    REQUIRE(kept.size() == 6);
    CHECK(records[0].meta_as_FrameBoundary() == kept[0]->meta_as_FrameBoundary());
    CHECK(kept[0]->meta_as_FrameBoundary()->frame() == 2);
    CHECK(kept[3]->meta_as_FrameBoundary()->frame() == 3);
    CHECK(kept[1]->header()->result() == TRUE);
    CHECK(kept[4]->header()->result() == TRUE);
    CHECK(records.meta(fb::Meta::StateSnapshot).size() == 1);
    const auto* frames = records.index().frame_first_events();
    REQUIRE(frames != nullptr);
    CHECK(std::vector<std::uint64_t>(frames->begin(), frames->end()) ==
          std::vector<std::uint64_t>{0, kept[3]->header()->event()});
}

TEST_CASE("IsAnnotationEnabled follows a manual capture and frames ended by end_frame") {
    Capture capture("", true);
    const auto* api = capture.session.api;
    CHECK(capture.context->IsAnnotationEnabled() == FALSE);
    api->end_frame();
    CHECK(capture.context->IsAnnotationEnabled() == FALSE);
    REQUIRE(api->start() == 0);
    CHECK(capture.context->IsAnnotationEnabled() == TRUE);
    api->end_frame();
    CHECK(capture.context->IsAnnotationEnabled() == TRUE);
    TraceRecords records = capture.stop();
    CHECK(capture.context->IsAnnotationEnabled() == FALSE);
    CHECK(api->frame() == 2);

    const auto enabled = records.calls(CallId::ID3D11DeviceContext2_IsAnnotationEnabled);
    REQUIRE(enabled.size() == 2);
    CHECK(enabled[0]->header()->result() == TRUE);
    CHECK(enabled[1]->header()->result() == TRUE);
    // The capture began in frame 1 and frame 2 began between the two calls.
    const auto boundaries = records.meta(fb::Meta::FrameBoundary);
    REQUIRE(boundaries.size() == 2);
    CHECK(boundaries[0]->meta_as_FrameBoundary()->frame() == 1);
    CHECK(boundaries[1]->meta_as_FrameBoundary()->frame() == 2);
    CHECK(enabled[0]->header()->event() < boundaries[1]->header()->event());
    CHECK(boundaries[1]->header()->event() < enabled[1]->header()->event());
}

TEST_CASE(
    "SetMarkerInt, BeginEventInt and EndEvent are recorded with label and data and indexed "
    "with kind and depth") {
    Capture capture;
    ID3D11DeviceContext2* context = capture.context.get();
    context->BeginEventInt(L"outer", 123456);
    context->SetMarkerInt(L"point", -7);
    context->BeginEventInt(L"caf\u00e9 \u2192 inner", 0);
    context->SetMarkerInt(L"deep", -2147483647 - 1);
    context->EndEvent();
    context->EndEvent();
    context->SetMarkerInt(L"", 2147483647);
    TraceRecords records = capture.stop();

    const auto begins = records.params<fb::ID3D11DeviceContext2_BeginEventInt>();
    REQUIRE(begins.size() == 2);
    CHECK(begins[0]->p_label()->str() == "outer");
    CHECK(begins[0]->data() == 123456);
    CHECK(begins[1]->p_label()->str() == "caf\xc3\xa9 \xe2\x86\x92 inner");
    CHECK(begins[1]->data() == 0);
    const auto markers = records.params<fb::ID3D11DeviceContext2_SetMarkerInt>();
    REQUIRE(markers.size() == 3);
    CHECK(markers[0]->p_label()->str() == "point");
    CHECK(markers[0]->data() == -7);
    CHECK(markers[1]->p_label()->str() == "deep");
    CHECK(markers[1]->data() == -2147483647 - 1);
    CHECK(markers[2]->p_label()->str().empty());
    CHECK(markers[2]->data() == 2147483647);
    CHECK(records.calls(CallId::ID3D11DeviceContext2_EndEvent).size() == 2);

    // All on the immediate context, as object and as context.
    const std::uint64_t context_id =
        records.calls(CallId::ID3D11DeviceContext2_SetMarkerInt)[0]->header()->context();
    CHECK(context_id != 0);
    for (CallId id :
         {CallId::ID3D11DeviceContext2_BeginEventInt, CallId::ID3D11DeviceContext2_SetMarkerInt,
          CallId::ID3D11DeviceContext2_EndEvent})
        for (const fb::Record* r : records.calls(id)) {
            CHECK(r->header()->context() == context_id);
            CHECK(r->header()->object() == context_id);
        }

    const auto indexed = markers_of(records);
    REQUIRE(indexed.size() == 7);
    using K = fb::MarkerKind;
    const std::vector<std::pair<K, std::uint32_t>> kind_depth = {
        {K::Begin, 0}, {K::Marker, 1}, {K::Begin, 1}, {K::Marker, 2},
        {K::End, 1},   {K::End, 0},    {K::Marker, 0}};
    for (std::size_t i = 0; i < indexed.size(); ++i) {
        INFO("marker " << i);
        CHECK(indexed[i].kind == kind_depth[i].first);
        CHECK(indexed[i].depth == kind_depth[i].second);
        CHECK(indexed[i].has_data == (indexed[i].kind != K::End));
    }
    CHECK(indexed[0].label == "outer");
    CHECK(indexed[0].data == 123456);
    CHECK(indexed[1].label == "point");
    CHECK(indexed[1].data == -7);
    CHECK(indexed[2].label == "caf\xc3\xa9 \xe2\x86\x92 inner");
    CHECK(indexed[3].data == -2147483647 - 1);
    CHECK(indexed[6].data == 2147483647);
    // The index points at the records.
    const std::vector<trace::Marker>& entries = records.markers().entries;
    const auto marker_records = records.calls(CallId::ID3D11DeviceContext2_SetMarkerInt);
    CHECK(entries[1].event == marker_records[0]->header()->event());
    CHECK(entries[6].event == marker_records[2]->header()->event());
}

TEST_CASE(
    "ID3DUserDefinedAnnotation BeginEvent, SetMarker and EndEvent are recorded and indexed "
    "without data, nesting with the context's events") {
    DirectDevice direct;
    auto direct_annotation = direct.context.as<ID3DUserDefinedAnnotation>();
    REQUIRE(direct_annotation.get() != nullptr);
    const INT device_begin = direct_annotation->BeginEvent(L"frame");
    const INT device_end = direct_annotation->EndEvent();

    Capture capture;
    auto annotation = capture.context.as<ID3DUserDefinedAnnotation>();
    REQUIRE(annotation.get() != nullptr);
    // What the device returns passes through.
    CHECK(annotation->BeginEvent(L"frame") == device_begin);
    annotation->SetMarker(L"start");
    capture.context->BeginEventInt(L"pass", 5);
    annotation->SetMarker(L"inside pass");
    capture.context->EndEvent();
    CHECK(annotation->EndEvent() == device_end);
    TraceRecords records = capture.stop();

    const auto begins = records.params<fb::ID3DUserDefinedAnnotation_BeginEvent>();
    REQUIRE(begins.size() == 1);
    CHECK(begins[0]->name()->str() == "frame");
    const auto set = records.params<fb::ID3DUserDefinedAnnotation_SetMarker>();
    REQUIRE(set.size() == 2);
    CHECK(set[0]->name()->str() == "start");
    CHECK(set[1]->name()->str() == "inside pass");
    const auto ends = records.calls(CallId::ID3DUserDefinedAnnotation_EndEvent);
    REQUIRE(ends.size() == 1);
    CHECK(ends[0]->header()->result() == device_end);
    const auto begin_records = records.calls(CallId::ID3DUserDefinedAnnotation_BeginEvent);
    CHECK(begin_records[0]->header()->result() == device_begin);
    // The annotation interface is the context's: its calls carry the context id.
    const std::uint64_t context_id =
        records.calls(CallId::ID3D11DeviceContext2_BeginEventInt)[0]->header()->context();
    CHECK(begin_records[0]->header()->context() == context_id);
    CHECK(ends[0]->header()->context() == context_id);

    const auto indexed = markers_of(records);
    REQUIRE(indexed.size() == 6);
    using K = fb::MarkerKind;
    CHECK(indexed[0].kind == K::Begin);
    CHECK(indexed[0].label == "frame");
    CHECK(indexed[0].depth == 0);
    CHECK_FALSE(indexed[0].has_data);
    CHECK(indexed[1].kind == K::Marker);
    CHECK(indexed[1].label == "start");
    CHECK(indexed[1].depth == 1);
    CHECK_FALSE(indexed[1].has_data);
    CHECK(indexed[2].kind == K::Begin);
    CHECK(indexed[2].label == "pass");
    CHECK(indexed[2].data == 5);
    CHECK(indexed[2].depth == 1);
    CHECK(indexed[2].has_data);
    CHECK(indexed[3].kind == K::Marker);
    CHECK(indexed[3].label == "inside pass");
    CHECK(indexed[3].depth == 2);
    CHECK_FALSE(indexed[3].has_data);
    CHECK(indexed[4].kind == K::End);
    CHECK(indexed[4].depth == 1);
    CHECK(indexed[5].kind == K::End);
    CHECK(indexed[5].depth == 0);
    CHECK_FALSE(indexed[5].has_data);
}

}  // namespace
}  // namespace capture_tests
