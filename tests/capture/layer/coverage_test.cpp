// Every device-context method (slots 7-143), called through the capture
// layer, is recorded exactly once, in call order, with the arguments its
// generated encoder gives for the same C arguments (checks/context_calls.inc
// is generated from the API table).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "capture/layer/context_fixture.h"
#include "capture/support/capture_session.h"
#include "support/temp_dir.h"

using namespace d3dcap;

namespace {

using ContextFixture = testing::BasicContextFixture<ID3D11Device2, ID3D11DeviceContext2>;

using ContextCall = testing::BasicContextCall<ContextFixture>;
const std::vector<ContextCall> kContextCalls = {
#include "context_calls.inc"
};

}  // namespace

TEST_CASE("every context method is recorded once, in order, with its arguments") {
    REQUIRE(kContextCalls.size() == 137);
    testing::TempDir dir;
    const auto session = testing::CaptureSession::load(dir.file("coverage.d3dcap"));
    std::vector<std::string> expected;
    {
        ID3D11Device2* device = nullptr;
        ID3D11DeviceContext2* context = nullptr;
        REQUIRE(session.device(D3D_DRIVER_TYPE_REFERENCE, &device, &context) == S_OK);
        ContextFixture f(device, context);
        for (const ContextCall& c : kContextCalls) expected.push_back(c.call(f));
    }
    REQUIRE(session.api->stop() == 0);

    const std::vector<testing::RecordedCall> records =
        testing::recorded_context_calls(session.trace_path, 2);
    // ClearState in the fixture's destructor is the one call beyond the list.
    REQUIRE(records.size() == kContextCalls.size() + 1);
    for (std::size_t i = 0; i < kContextCalls.size(); ++i) {
        const api::CallInfo* info = api::find_call(kContextCalls[i].id);
        INFO(info->interface_name << "::" << info->method);
        CHECK(records[i].call == static_cast<std::uint16_t>(kContextCalls[i].id));
        CHECK(records[i].args == expected[i]);
    }
}
