// Every device-context method (slots 7-143), called through the capture
// layer, is recorded exactly once, in call order, with the arguments it was
// given and the values it received. The calls and the text of the values
// they are given are generated from the API table in Python
// (checks/context_calls.inc); the records are read through FlatBuffers'
// reflection of the schema, so the generated encoders check against
// neither themselves nor the generated dumper.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "capture/layer/context_fixture.h"
#include "capture/support/capture_session.h"
#include "capture/support/record_fields.h"
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
    std::vector<testing::ExpectedFields> expected;
    {
        ID3D11Device2* device = nullptr;
        ID3D11DeviceContext2* context = nullptr;
        REQUIRE(session.device(D3D_DRIVER_TYPE_REFERENCE, &device, &context) == S_OK);
        ContextFixture f(device, context);
        for (const ContextCall& c : kContextCalls) expected.push_back(c.call(f));
    }
    REQUIRE(session.api->stop() == 0);

    const testing::RecordReflection reflection(D3DCAP_RECORD_BFBS);
    const std::vector<testing::ReflectedCall> records =
        testing::reflected_context_calls(reflection, session.trace_path, 2);
    // ClearState in the fixture's destructor is the one call beyond the list.
    REQUIRE(records.size() == kContextCalls.size() + 1);
    CHECK(records.back().table == "ID3D11DeviceContext_ClearState");
    CHECK(records.back().fields.empty());
    for (std::size_t i = 0; i < kContextCalls.size(); ++i) {
        const std::string call = kContextCalls[i].table;
        // The samples must tell the parameters apart for a swap to show.
        const std::string same = testing::same_given_texts(expected[i]);
        if (!same.empty()) FAIL_CHECK(call << ": " << same);
        for (const std::string& difference :
             testing::field_differences(call, expected[i], records[i]))
            FAIL_CHECK(difference);
    }
}
