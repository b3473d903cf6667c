#include "trace_fixture.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "format/trace/records.h"

namespace d3dcap::testing {

using api::CallId;

void expect(bool condition, const char* what) {
    if (!condition) throw std::runtime_error(std::string("trace fixture: failed: ") + what);
}

flatbuffers::DetachedBuffer sample_header() {
    flatbuffers::FlatBufferBuilder builder;
    auto options =
        fb::CreateCaptureOptionsDirect(builder, 0, 0, "tile_demo --frames 3", "tile_demo");
    auto device = fb::CreateDeviceDescriptionDirect(builder, "d3dcap reference device", 0x1414,
                                                    0x8c, "0.1.0", 2 /*REFERENCE*/, 0xb100, 2);
    builder.Finish(fb::CreateTraceHeaderDirect(builder, "d3dcap-tests", "0.1.0", 1'796'000'000'000,
                                               options, device));
    return builder.Release();
}

// Frame f is: FrameBoundary, BeginEventInt("frame", f), then calls_per_frame
// calls cycling through UpdateTileMappings (num_ranges = event % 7 + 1),
// SetMarkerInt and Draw, then EndEvent.
ExpectedEvent expected_sample_event(std::uint64_t event, const SampleTraceOptions& options) {
    const std::uint64_t per_frame = options.calls_per_frame + 3;
    const std::uint64_t i = event % per_frame;
    if (i == 0) return {0, 0, 0};
    if (i == 1)
        return {static_cast<std::uint16_t>(CallId::ID3D11DeviceContext2_BeginEventInt), 1, 0};
    if (i == per_frame - 1) {
        return {static_cast<std::uint16_t>(CallId::ID3D11DeviceContext2_EndEvent), 1, 0};
    }
    switch ((i - 2) % 3) {
        case 0:
            return {static_cast<std::uint16_t>(CallId::ID3D11DeviceContext2_UpdateTileMappings), 1,
                    static_cast<std::uint32_t>(event % 7 + 1)};
        case 1:
            return {static_cast<std::uint16_t>(CallId::ID3D11DeviceContext2_SetMarkerInt), 1, 0};
        default:
            return {static_cast<std::uint16_t>(CallId::ID3D11DeviceContext_Draw), 1, 0};
    }
}

std::uint64_t write_sample_trace(const std::string& path, const SampleTraceOptions& options) {
    auto writer = trace::TraceWriter::create(path, sample_header(), options.writer);
    expect(writer.ok(), "writer.ok()");
    flatbuffers::FlatBufferBuilder builder;
    const trace::CallContext context{1, 1, 0, 1, false};
    std::uint64_t event = 0;
    const std::uint64_t total = options.frames * (options.calls_per_frame + 3);
    for (; event < total; ++event) {
        builder.Clear();
        const ExpectedEvent expected = expected_sample_event(event, options);
        bool end_of_frame = false;
        switch (static_cast<CallId>(expected.call)) {
            case CallId::None:
                trace::finish_meta(
                    builder, 1,
                    fb::CreateFrameBoundary(builder, event / (options.calls_per_frame + 3)));
                break;
            case CallId::ID3D11DeviceContext2_BeginEventInt:
                trace::finish_call(builder, context,
                                   fb::CreateID3D11DeviceContext2_BeginEventIntDirect(
                                       builder, "frame", static_cast<std::int32_t>(event)));
                break;
            case CallId::ID3D11DeviceContext2_EndEvent:
                trace::finish_call(builder, context,
                                   fb::CreateID3D11DeviceContext2_EndEvent(builder));
                end_of_frame = true;
                break;
            case CallId::ID3D11DeviceContext2_UpdateTileMappings: {
                std::vector<std::uint32_t> ranges(expected.num_ranges, 1);
                trace::CallContext tiles = context;
                tiles.result_is_hresult = true;
                trace::finish_call(builder, tiles,
                                   fb::CreateID3D11DeviceContext2_UpdateTileMappingsDirect(
                                       builder, 7, 0, nullptr, nullptr, 8, expected.num_ranges,
                                       &ranges, &ranges, &ranges, 0));
                break;
            }
            case CallId::ID3D11DeviceContext2_SetMarkerInt:
                trace::finish_call(
                    builder, context,
                    fb::CreateID3D11DeviceContext2_SetMarkerIntDirect(builder, "tick", 5));
                break;
            default:
                trace::finish_call(builder, context,
                                   fb::CreateID3D11DeviceContext_Draw(builder, 3, 0));
                break;
        }
        expect(writer.value()->submit(builder, end_of_frame) == event,
               "writer.value()->submit(builder, end_of_frame) == event");
    }
    expect(writer.value()->close().ok(), "writer.value()->close().ok()");
    return event;
}

std::vector<std::uint8_t> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
}

}  // namespace d3dcap::testing
