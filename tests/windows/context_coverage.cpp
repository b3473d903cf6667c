// Every ID3D11DeviceContext and ID3D11DeviceContext1 method, called once on
// a Windows D3D11 device (Wine's has no ID3D11DeviceContext2) with the
// arguments of checks/context_calls.inc, after what prepare() sets up.
// Prints, a line each in call order, what the capture layer must record on
// the immediate context: "Call\tfield=text\t..." (field_text.h), the values
// each call was given as the generator wrote them and those it received as
// the program saw them. check-wine-capture compares that with the trace,
// read through FlatBuffers' reflection (tests/tools/compare_recorded_fields).
#include <d3d11_1.h>
#include <windows.h>

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#define D3DCAP_CONTEXT_CALLS_WITHOUT_CONTEXT2
#include "capture/layer/context_fixture.h"

using namespace d3dcap;

namespace {

using ContextFixture = testing::BasicContextFixture<ID3D11Device, ID3D11DeviceContext1>;

using ContextCall = testing::BasicContextCall<ContextFixture>;
const std::vector<ContextCall> kContextCalls = {
#include "context_calls.inc"
};

// Wine 8's d3d11 does not survive DrawIndexed with no index buffer bound,
// nor ExecuteCommandList of NULL (which Windows does not allow either): an
// index buffer is bound first, and a command list recorded for the fixture,
// both through the layer, which records the first on the context too.
std::vector<std::string> prepare(ContextFixture& f) {
    f.context->IASetIndexBuffer(f.buffer, DXGI_FORMAT_R16_UINT, 0);
    // DXGI_FORMAT_R16_UINT is 57.
    std::vector<std::string> lines = {testing::expected_line(
        "ID3D11DeviceContext_IASetIndexBuffer", {{"p_index_buffer", f.id_text(f.buffer), true},
                                                 {"format", "57", true},
                                                 {"offset", "0", true}})};
    ID3D11DeviceContext* deferred = nullptr;
    if (FAILED(f.device->CreateDeferredContext(0, &deferred)))
        throw std::runtime_error("CreateDeferredContext failed");
    f.ids.add(deferred);
    const HRESULT finished = deferred->FinishCommandList(FALSE, &f.command_list);
    deferred->Release();
    if (FAILED(finished)) throw std::runtime_error("FinishCommandList failed");
    f.ids.add(f.command_list);
    f.owned.push_back(f.command_list);
    return lines;
}

}  // namespace

int main() {
    ID3D11Device* device = nullptr;
    ID3D11DeviceContext* immediate = nullptr;
    const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1;
    HRESULT hr = D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, &level, 1,
                                   D3D11_SDK_VERSION, &device, nullptr, &immediate);
    if (FAILED(hr)) {
        std::fprintf(stderr, "context_coverage: D3D11CreateDevice failed: HRESULT 0x%08x\n",
                     static_cast<unsigned>(hr));
        return 1;
    }
    ID3D11DeviceContext1* context = nullptr;
    hr = immediate->QueryInterface(__uuidof(ID3D11DeviceContext1),
                                   reinterpret_cast<void**>(&context));
    immediate->Release();
    if (FAILED(hr)) {
        std::fprintf(stderr, "context_coverage: the device has no ID3D11DeviceContext1\n");
        device->Release();
        return 1;
    }
    try {
        std::vector<std::string> lines;
        {
            ContextFixture f(device, context);
            lines = prepare(f);
            for (const ContextCall& c : kContextCalls) {
                const testing::ExpectedFields fields = c.call(f);
                // The samples must tell the parameters apart for a swap to show.
                const std::string same = testing::same_given_texts(fields);
                if (!same.empty()) throw std::runtime_error(c.table + (": " + same));
                lines.push_back(testing::expected_line(c.table, fields));
            }
        }
        // The fixture's destructor clears the state.
        lines.push_back(testing::expected_line("ID3D11DeviceContext_ClearState", {}));
        for (const std::string& line : lines) std::printf("%s\n", line.c_str());
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "context_coverage: %s\n", error.what());
        return 1;
    }
}
