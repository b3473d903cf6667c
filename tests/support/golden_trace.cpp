
#include "format/trace/records.h"
#include "trace_fixture.h"

namespace d3dcap::testing {

namespace {

constexpr std::uint32_t kThread = 1;
constexpr std::uint64_t kDevice = 1, kContext = 2, kPool = 3, kTexture = 4;

}  // namespace

void write_golden_trace(const std::string& path) {
    auto writer = trace::TraceWriter::create(path, sample_header());
    expect(writer.ok(), "writer.ok()");
    flatbuffers::FlatBufferBuilder b;
    auto submit = [&](bool end_of_frame = false) {
        expect(writer.value()->submit(b, end_of_frame).has_value(),
               "writer.value()->submit(b, end_of_frame)");
        b.Clear();
    };
    const trace::CallContext device{kDevice, 0, 0, kThread, true};
    const trace::CallContext context{kContext, kContext, 0, kThread, false};
    trace::CallContext context_hr = context;
    context_hr.result_is_hresult = true;

    trace::finish_meta(b, kThread, fb::CreateFrameBoundary(b, 0));
    submit();
    trace::finish_meta(b, kThread,
                       fb::CreateObjectCreatedDirect(b, kPool, "ID3D11Buffer", kDevice));
    submit();
    trace::finish_meta(b, kThread, fb::CreateDebugNameDirect(b, kPool, "tile pool \"main\""));
    submit();
    std::vector<fb::D3D11_SUBRESOURCE_TILING> mips{{4, 4, 1, 0}, {2, 2, 1, 16}};
    fb::D3D11_PACKED_MIP_DESC packed(2, 3, 1, 20);
    fb::D3D11_TILE_SHAPE shape(128, 128, 1);
    trace::finish_meta(b, kThread,
                       fb::CreateResourceTilingDirect(b, kTexture, 21, &packed, &shape, &mips));
    submit();
    trace::finish_call(b, context_hr,
                       fb::CreateID3D11DeviceContext2_ResizeTilePool(b, kPool, 1 << 20));
    submit();
    std::vector<fb::D3D11_TILED_RESOURCE_COORDINATE> starts{{0, 0, 0, 0}, {1, 1, 0, 0}};
    std::vector<fb::D3D11_TILE_REGION_SIZE> sizes{{4, 1, 2, 2, 1}, {1, 0, 1, 1, 1}};
    std::vector<std::uint32_t> flags{1, 4, 0};  // NULL, REUSE_SINGLE_TILE, none
    std::vector<std::uint32_t> offsets{0, 7, 8};
    std::vector<std::uint32_t> counts{1, 4, 1};
    trace::finish_call(
        b, context_hr,
        fb::CreateID3D11DeviceContext2_UpdateTileMappingsDirect(
            b, kTexture, 2, &starts, &sizes, kPool, 3, &flags, &offsets, &counts, 0));
    submit();
    std::vector<std::uint8_t> tile(65536);
    for (std::size_t i = 0; i < tile.size(); ++i) tile[i] = static_cast<std::uint8_t>(i * 13);
    fb::D3D11_TILE_REGION_SIZE one(1, 0, 1, 1, 1);
    trace::finish_call(
        b, context,
        fb::CreateID3D11DeviceContext2_UpdateTilesDirect(b, kTexture, &starts[1], &one, &tile, 0));
    submit();
    trace::finish_call(b, context,
                       fb::CreateID3D11DeviceContext2_BeginEventIntDirect(b, "shadows", 3));
    submit();
    trace::finish_call(b, context,
                       fb::CreateID3D11DeviceContext2_SetMarkerIntDirect(b, "cascade\t1", -1));
    submit();
    trace::finish_call(b, context, fb::CreateID3D11DeviceContext_Draw(b, 36, 0));
    submit();
    trace::finish_call(b, context, fb::CreateID3D11DeviceContext2_EndEvent(b));
    submit();
    std::vector<std::uint8_t> written{1, 2, 3, 4, 5, 6, 7, 8};
    auto write = fb::CreateMappedWriteDirect(b, 256, &written);
    auto writes = b.CreateVector(&write, 1);
    trace::finish_call(b, context, fb::CreateID3D11DeviceContext_Unmap(b, kPool, 0), writes);
    submit();
    fb::Guid debug_object_name(0x429b8c22, 0x9188, 0x4b0c);  // WKPDID_D3DDebugObjectName
    const std::uint8_t tail[8] = {0x87, 0x42, 0xac, 0xb0, 0xbf, 0x85, 0xc2, 0x00};
    for (int i = 0; i < 8; ++i) debug_object_name.mutable_data4()->Mutate(i, tail[i]);
    std::vector<std::uint8_t> name{'p', 'o', 'o', 'l'};
    trace::finish_call(
        b, device,
        fb::CreateID3D11DeviceChild_SetPrivateDataDirect(b, &debug_object_name, 4, &name));
    submit();
    trace::finish_meta(b, kThread, fb::CreateObjectDestroyed(b, kPool));
    submit(true);
    trace::finish_meta(b, kThread, fb::CreateFrameBoundary(b, 1));
    submit(true);
    expect(writer.value()->close().ok(), "writer.value()->close().ok()");
}

}  // namespace d3dcap::testing
