// Replay never crashes on a hostile trace: records of a valid trace with
// bytes changed (keeping only records the reader's verifier accepts) are
// replayed to an error or to the end.
#include <random>

#include "format/trace/reader.h"
#include "recorder.h"

using namespace engine_tests;

namespace {

// The records of a trace that touches most of the engine's paths.
std::vector<std::vector<std::uint8_t>> sample_records(const std::string& path) {
    Recorder rec(path);
    rec.begin_snapshot();
    DirectDevice direct(rec);
    ID3D11DeviceContext2* context = direct.context.get();
    const auto data = pattern(256, 1, 3);
    const D3D11_BUFFER_DESC buffer_desc{256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0,
                                        0};
    const D3D11_SUBRESOURCE_DATA initial{data.data(), 0, 0};
    Com<ID3D11Buffer> buffer;
    REQUIRE(direct.device->CreateBuffer(&buffer_desc, &initial, buffer.out()) == S_OK);
    rec.track(buffer.get());
    ID3D11Buffer* out = buffer.get();
    rec.call(direct.device.get(),
             api::encode_ID3D11Device_CreateBuffer(rec.b, rec, &buffer_desc, &initial, &out), S_OK);
    const fb::D3D11_TEXTURE2D_DESC texture_desc(
        8, 4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, fb::SampleDesc(1, 0), D3D11_USAGE_DYNAMIC,
        D3D11_BIND_SHADER_RESOURCE, D3D11_CPU_ACCESS_WRITE, 0);
    rec.call(direct.device.get(),
             fb::CreateID3D11Device_CreateTexture2DDirect(rec.b, &texture_desc, nullptr, 20), S_OK);
    rec.call(
        context,
        fb::CreateID3D11DeviceContext_Map(rec.b, 20, 0, D3D11_MAP_WRITE_DISCARD, 0,
                                          fb::CreateD3D11_MAPPED_SUBRESOURCE(rec.b, 0, 32, 128)),
        S_OK, true);
    const auto row = pattern(32, 9);
    const auto write = fb::CreateMappedWriteDirect(rec.b, 32, &row);
    const auto writes = rec.b.CreateVector(&write, 1);
    rec.call(context, fb::CreateID3D11DeviceContext_Unmap(rec.b, 20, 0), std::nullopt, true,
             writes);
    const fb::D3D11_BOX box(0, 0, 0, 64, 1, 1);
    rec.call(context,
             fb::CreateID3D11DeviceContext_UpdateSubresourceDirect(rec.b, rec.id_of(buffer.get()),
                                                                   0, &box, &data, 0, 0),
             std::nullopt, true);
    const D3D11_VIEWPORT viewport{0, 0, 8, 4, 0, 1};
    rec.call(context, api::encode_ID3D11DeviceContext_RSSetViewports(rec.b, rec, 1, &viewport),
             std::nullopt, true);
    UINT count = 1;
    D3D11_VIEWPORT got{};
    rec.call(context, api::encode_ID3D11DeviceContext_RSGetViewports(rec.b, rec, &count, &got),
             std::nullopt, true);
    rec.call(context, api::encode_ID3D11DeviceContext2_SetMarkerInt(rec.b, rec, L"marker", 3),
             std::nullopt, true);
    const D3D11_INPUT_ELEMENT_DESC element{
        "POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0};
    const std::uint8_t bytecode[16] = {'D', 'X', 'B', 'C'};
    ID3D11InputLayout* layout = nullptr;
    rec.call(direct.device.get(),
             api::encode_ID3D11Device_CreateInputLayout(rec.b, rec, &element, 1, bytecode,
                                                        sizeof bytecode, &layout),
             E_INVALIDARG);
    rec.meta(fb::CreateDebugNameDirect(rec.b, rec.id_of(buffer.get()), "buffer"));
    rec.meta(fb::CreateObjectDestroyed(rec.b, 20));
    auto records = rec.take_snapshot();
    rec.close();
    return records;
}

}  // namespace

TEST_CASE("replay survives records with changed bytes", "[replay][engine][hostile]") {
    testing::TempDir dir;
    const auto records = sample_records(dir.file("sample.d3dcap"));
    REQUIRE(records.size() == 12);
    std::mt19937 random(20240611);
    int replayed = 0, failed = 0;
    for (int round = 0; round < 300; ++round) {
        auto mutated = records;
        const std::size_t which = random() % mutated.size();
        std::vector<std::uint8_t> original = mutated[which];
        bool accepted = false;
        for (int attempt = 0; attempt < 50 && !accepted; ++attempt) {
            auto& bytes = mutated[which];
            bytes = original;
            const int changes = 1 + static_cast<int>(random() % 4);
            for (int c = 0; c < changes; ++c) {
                const std::size_t at = 4 + random() % (bytes.size() - 4);
                bytes[at] = static_cast<std::uint8_t>(random());
            }
            accepted = trace::verify_record(bytes.data(), bytes.size());
        }
        if (!accepted) continue;
        Recorder rec(dir.file("mutated.d3dcap"));
        rec.snapshot_of(mutated, 0);
        rec.close();
        auto replay = open_replay(rec.path());
        const replay::Status status = replay->run_all();
        (status.ok() ? replayed : failed) += 1;
    }
    // Both outcomes happen; neither crashes.
    CHECK(replayed > 0);
    CHECK(failed > 0);
}
