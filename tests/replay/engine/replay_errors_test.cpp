// What replay reports: HRESULT differences as mismatches with their event,
// and records it cannot replay (unknown ids, data shorter than the call
// reads, hostile counts) as errors naming the event, the call and the
// parameter, without reading past the record.
#include "recorder.h"

using namespace engine_tests;

namespace {

// Replays a trace whose last event is expected to fail; returns the error text.
std::string replay_error(Recorder& rec, std::uint64_t failing_event) {
    rec.close();
    auto replay = open_replay(rec.path());
    const replay::Status status = replay->run_all();
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().event == static_cast<std::int64_t>(failing_event));
    CHECK(replay->next_event() == failing_event);
    return status.error().to_string();
}

// "<path>: event N: " + text.
std::string at(const Recorder& rec, std::uint64_t event, const std::string& text) {
    return rec.path() + ": event " + std::to_string(event) + ": " + text;
}

std::uint64_t record_texture(Recorder& rec, DirectDevice& direct, std::uint64_t id, UINT mips,
                             std::vector<std::vector<std::uint8_t>> data, UINT pitch) {
    const fb::D3D11_TEXTURE2D_DESC desc(8, 4, mips, 1, DXGI_FORMAT_R8G8B8A8_UNORM,
                                        fb::SampleDesc(1, 0), D3D11_USAGE_DEFAULT,
                                        D3D11_BIND_SHADER_RESOURCE, 0, 0);
    std::vector<flatbuffers::Offset<fb::D3D11_SUBRESOURCE_DATA>> entries;
    for (const auto& bytes : data)
        entries.push_back(fb::CreateD3D11_SUBRESOURCE_DATADirect(rec.b, &bytes, pitch, 0));
    return rec.call(direct.device.get(),
                    fb::CreateID3D11Device_CreateTexture2DDirect(
                        rec.b, &desc, data.empty() ? nullptr : &entries, id),
                    S_OK);
}

std::uint64_t record_buffer(Recorder& rec, DirectDevice& direct, std::uint64_t id,
                            D3D11_BUFFER_DESC desc, HRESULT recorded,
                            const std::vector<std::uint8_t>* data = nullptr) {
    const fb::D3D11_BUFFER_DESC desc_fb(desc.ByteWidth, desc.Usage, desc.BindFlags,
                                        desc.CPUAccessFlags, desc.MiscFlags,
                                        desc.StructureByteStride);
    std::vector<flatbuffers::Offset<fb::D3D11_SUBRESOURCE_DATA>> entries;
    if (data != nullptr) entries.push_back(fb::CreateD3D11_SUBRESOURCE_DATADirect(rec.b, data));
    return rec.call(direct.device.get(),
                    fb::CreateID3D11Device_CreateBufferDirect(
                        rec.b, &desc_fb, data != nullptr ? &entries : nullptr, id),
                    recorded);
}

constexpr D3D11_BUFFER_DESC kVertices{64, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};

}  // namespace

TEST_CASE("HRESULT differences are mismatches with their event and failing again is none",
          "[replay][engine]") {
    testing::TempDir dir;
    Recorder rec(dir.file("mismatch.d3dcap"));
    DirectDevice direct(rec);
    const D3D11_BUFFER_DESC empty{0, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
    // The capturing device accepted what the reference device rejects.
    rec.meta(fb::CreateObjectCreatedDirect(rec.b, 50, "ID3D11Buffer", direct.device_id));
    const auto accepted = record_buffer(rec, direct, 50, empty, S_OK);
    // Recorded as failing (with another code): failing again is no difference.
    record_buffer(rec, direct, 0, empty, E_FAIL);
    record_buffer(rec, direct, 0, empty, E_INVALIDARG);
    // A valid buffer recorded as failing: it succeeds in replay.
    const auto refused = record_buffer(rec, direct, 51, kVertices, E_OUTOFMEMORY);
    const auto use =
        rec.call(direct.device.get(), fb::CreateID3D11Resource_SetEvictionPriority(rec.b, 1));
    rec.close();

    auto replay = open_replay(rec.path());
    const replay::Status status = replay->run_all();
    const auto mismatches = replay->mismatches();
    REQUIRE(mismatches.size() == 2);
    CHECK(mismatches[0].event == accepted);
    CHECK(mismatches[0].call == "ID3D11Device::CreateBuffer");
    CHECK(mismatches[0].recorded == S_OK);
    CHECK(mismatches[0].replayed == E_INVALIDARG);
    CHECK(mismatches[0].detail.empty());
    CHECK(mismatches[0].snapshot_record == -1);
    CHECK(mismatches[1].event == refused);
    CHECK(mismatches[1].recorded == E_OUTOFMEMORY);
    CHECK(mismatches[1].replayed == S_OK);
    CHECK(replay->object(51) != nullptr);
    // The device is no resource: the SetEvictionPriority record is refused.
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().to_string() ==
          at(rec, use,
             "ID3D11Resource::SetEvictionPriority: this: object " +
                 std::to_string(direct.device_id) + " (ID3D11Device) is not an ID3D11Resource"));
}

TEST_CASE("a device of another feature level than recorded is a mismatch", "[replay][engine]") {
    testing::TempDir dir;
    Recorder rec(dir.file("level.d3dcap"));
    const std::vector<std::uint32_t> levels{D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_11_0};
    const auto created = rec.call(
        nullptr,
        fb::CreateD3D11CreateDeviceDirect(rec.b, 0, D3D_DRIVER_TYPE_HARDWARE, 0, 0, &levels, 2,
                                          D3D11_SDK_VERSION, 1, D3D_FEATURE_LEVEL_11_0, 2),
        S_OK);
    rec.close();
    auto replay = open_replay(rec.path());
    REQUIRE(replay->run_all().ok());
    const auto mismatches = replay->mismatches();
    REQUIRE(mismatches.size() == 1);
    CHECK(mismatches[0].event == created);
    CHECK(mismatches[0].call == "D3D11CreateDevice");
    CHECK(mismatches[0].detail == "pFeatureLevel: recorded 0xb000, replayed 0xb100");
    CHECK(replay->object(1) != nullptr);
    CHECK(replay->object(2) != nullptr);
}

TEST_CASE("a use of an object whose creation failed in replay names that event",
          "[replay][engine]") {
    testing::TempDir dir;
    Recorder rec(dir.file("failed.d3dcap"));
    DirectDevice direct(rec);
    rec.meta(fb::CreateObjectCreatedDirect(rec.b, 50, "ID3D11Buffer", direct.device_id));
    const auto created = record_buffer(rec, direct, 50, {0, D3D11_USAGE_DEFAULT, 0, 0, 0, 0}, S_OK);
    const auto use =
        rec.call(direct.context.get(), fb::CreateID3D11DeviceContext_CopyResource(rec.b, 50, 50),
                 std::nullopt, true);
    CHECK(replay_error(rec, use) ==
          at(rec, use,
             "ID3D11DeviceContext::CopyResource: pDstResource: object 50 (ID3D11Buffer) does not "
             "exist: the call that created it failed in replay at event " +
                 std::to_string(created)));
}

TEST_CASE("an unknown object id is an error naming the event and call and parameter and id",
          "[replay][engine]") {
    testing::TempDir dir;
    Recorder rec(dir.file("unknown.d3dcap"));
    DirectDevice direct(rec);
    record_buffer(rec, direct, 40, kVertices, S_OK);
    const auto copy =
        rec.call(direct.context.get(), fb::CreateID3D11DeviceContext_CopyResource(rec.b, 40, 77),
                 std::nullopt, true);
    rec.close();
    auto replay = open_replay(rec.path());
    const std::string expected =
        at(rec, copy, "ID3D11DeviceContext::CopyResource: pSrcResource: unknown object id 77");
    for (int attempt = 0; attempt < 2; ++attempt) {
        const replay::Status status = replay->run_all();
        REQUIRE_FALSE(status.ok());
        CHECK(status.error().to_string() == expected);
        CHECK(replay->next_event() == copy);
    }
    CHECK(replay->object(40) != nullptr);
}

TEST_CASE("data shorter than the call reads is an error and not a read past the record",
          "[replay][engine]") {
    testing::TempDir dir;
    Recorder rec(dir.file("short.d3dcap"));
    DirectDevice direct(rec);
    ID3D11DeviceContext2* context = direct.context.get();
    std::string expected;
    std::uint64_t event = 0;

    SECTION("UpdateTiles: NumTiles times 64 KiB") {
        record_texture(rec, direct, 30, 1, {}, 0);
        const fb::D3D11_TILED_RESOURCE_COORDINATE start(0, 0, 0, 0);
        const fb::D3D11_TILE_REGION_SIZE size(2, 0, 0, 0, 0);
        const std::vector<std::uint8_t> data(65536, 1);
        event = rec.call(
            context,
            fb::CreateID3D11DeviceContext2_UpdateTilesDirect(rec.b, 30, &start, &size, &data, 0),
            std::nullopt, true);
        expected =
            "ID3D11DeviceContext2::UpdateTiles: pSourceTileData: the record holds 65536 "
            "bytes, the call reads 131072";
    }
    SECTION("UpdateSubresource: the whole subresource with the recorded pitch") {
        record_texture(rec, direct, 30, 1, {}, 0);
        const std::vector<std::uint8_t> data(100, 1);
        event = rec.call(context,
                         fb::CreateID3D11DeviceContext_UpdateSubresourceDirect(
                             rec.b, 30, 0, nullptr, &data, 32, 0),
                         std::nullopt, true);
        expected =
            "ID3D11DeviceContext::UpdateSubresource: pSrcData: the record holds 100 bytes, "
            "the call reads 128";
    }
    SECTION("CreateBuffer: initial data of ByteWidth bytes") {
        const std::vector<std::uint8_t> data(16, 1);
        event = record_buffer(rec, direct, 30, kVertices, S_OK, &data);
        expected =
            "ID3D11Device::CreateBuffer: pInitialData[0].pSysMem: the record holds 16 "
            "bytes, the call reads 64";
    }
    SECTION("CreateTexture2D: one entry per subresource that covers its mip") {
        event = record_texture(rec, direct, 30, 2, {std::vector<std::uint8_t>(128, 1)}, 32);
        expected =
            "ID3D11Device::CreateTexture2D: pInitialData: the record holds 1 entries, the "
            "texture has 2 subresources";
    }
    SECTION("CreateTexture2D: a mip's rows with the recorded pitch") {
        event = record_texture(rec, direct, 30, 1, {std::vector<std::uint8_t>(150, 1)}, 40);
        expected =
            "ID3D11Device::CreateTexture2D: pInitialData: entry 0 (mip 0, slice 0): the "
            "record holds 150 bytes, the call reads 152";
    }
    SECTION("UpdateTileMappings: fewer range flags than NumRanges") {
        record_texture(rec, direct, 30, 1, {}, 0);
        const std::vector<std::uint32_t> flags{0, 0};
        event = rec.call(context,
                         fb::CreateID3D11DeviceContext2_UpdateTileMappingsDirect(
                             rec.b, 30, 0, nullptr, nullptr, 0, 3, &flags),
                         S_OK, true);
        expected =
            "ID3D11DeviceContext2::UpdateTileMappings: pRangeFlags: the record holds 2 "
            "elements, the call reads 3";
    }
    SECTION("RSGetViewports: a count that would make replay allocate 100 GB") {
        const std::vector<fb::D3D11_VIEWPORT> viewports(1);
        event = rec.call(
            context,
            fb::CreateID3D11DeviceContext_RSGetViewportsDirect(rec.b, 0xFFFFFFFFu, &viewports),
            std::nullopt, true);
        expected =
            "ID3D11DeviceContext::RSGetViewports: pViewports: the call would write "
            "4294967295 elements, more than replay allows";
    }
    SECTION("ClearRenderTargetView: a NULL colour the call would read") {
        event = rec.call(context, fb::CreateID3D11DeviceContext_ClearRenderTargetView(rec.b, 0, 0),
                         std::nullopt, true);
        expected =
            "ID3D11DeviceContext::ClearRenderTargetView: ColorRGBA: is absent (NULL) but "
            "the call reads 4 elements through it";
    }
    SECTION("Unmap: a write past the end of the mapped subresource") {
        record_buffer(
            rec, direct, 30,
            {256, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0},
            S_OK);
        rec.call(context,
                 fb::CreateID3D11DeviceContext_Map(
                     rec.b, 30, 0, D3D11_MAP_WRITE_DISCARD, 0,
                     fb::CreateD3D11_MAPPED_SUBRESOURCE(rec.b, 0, 256, 256)),
                 S_OK, true);
        const std::vector<std::uint8_t> data(8, 1);
        const auto write = fb::CreateMappedWriteDirect(rec.b, 252, &data);
        const auto writes = rec.b.CreateVector(&write, 1);
        event = rec.call(context, fb::CreateID3D11DeviceContext_Unmap(rec.b, 30, 0), std::nullopt,
                         true, writes);
        expected =
            "ID3D11DeviceContext::Unmap: map_writes: map write 0 (8 bytes at offset 252) "
            "leaves the mapped subresource of 256 bytes";
    }
    CHECK(replay_error(rec, event) == at(rec, event, expected));
}

TEST_CASE("records replay cannot take are errors naming what is wrong", "[replay][engine]") {
    testing::TempDir dir;
    Recorder rec(dir.file("hostile.d3dcap"));
    DirectDevice direct(rec);
    std::string expected;
    std::uint64_t event = 0;

    SECTION("the header names one call and the parameters are of another") {
        const fb::RecordHeader header(
            0, direct.device_id, 0, 0, 1,
            static_cast<std::uint16_t>(api::CallId::ID3D11Device_CreateBuffer), 0);
        const auto params = fb::CreateID3D11DeviceContext_Draw(rec.b, 3, 0);
        fb::RecordBuilder record(rec.b);
        record.add_header(&header);
        api::CallOf<fb::ID3D11DeviceContext_Draw>::add_to(record, params);
        rec.b.FinishSizePrefixed(record.Finish());
        event = rec.submit_built();
        expected =
            "ID3D11Device::CreateBuffer: parameters: the record holds no parameter table "
            "for its call";
    }
    SECTION("a call id this build does not know") {
        const fb::RecordHeader header(0, 0, 0, 0, 1, 9999, 0);
        fb::RecordBuilder record(rec.b);
        record.add_header(&header);
        rec.b.FinishSizePrefixed(record.Finish());
        event = rec.submit_built();
        expected = "call id 9999 is unknown to this build of d3dcap (a newer trace?)";
    }
    SECTION("a call a trace does not hold enough to replay") {
        event = rec.call(direct.device.get(),
                         fb::CreateIDXGIFactory2_RegisterOcclusionStatusEvent(rec.b, 12, 0), S_OK);
        expected =
            "IDXGIFactory2::RegisterOcclusionStatusEvent: not replayed: hEvent is a handle "
            "of the capturing process";
    }
    CHECK(replay_error(rec, event) == at(rec, event, expected));
}

TEST_CASE("a recorded enum value outside its enum is replayed and fails as it did",
          "[replay][engine]") {
    // D3D11_FEATURE ends at 13 in this runtime; a program that asked for 17
    // (D3D11_OPTIONS3 and later) got E_INVALIDARG, and so does its replay.
    testing::TempDir dir;
    Recorder rec(dir.file("feature.d3dcap"));
    DirectDevice direct(rec);
    std::vector<std::uint8_t> data(8);
    const auto asked = rec.call(
        direct.device.get(), fb::CreateID3D11Device_CheckFeatureSupportDirect(rec.b, 17, &data, 8),
        E_INVALIDARG);
    D3D11_FEATURE_DATA_THREADING threading{};
    REQUIRE(direct.device->CheckFeatureSupport(static_cast<D3D11_FEATURE>(17), &threading,
                                               sizeof threading) == E_INVALIDARG);
    rec.close();
    auto replay = open_replay(rec.path());
    require_ok(replay->run_all());
    CHECK(replay->mismatches().empty());
    CHECK(replay->next_event() == asked + 1);
}
