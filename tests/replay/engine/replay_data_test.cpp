// Replay re-creates resource contents: the same calls made directly on a
// reference device and replayed from their trace give equal content hashes,
// and read-backs of replayed buffers hold the expected bytes.
#include <cstring>

#include "recorder.h"

using namespace engine_tests;

namespace {

// The bytes of a buffer, read through a staging copy on its own device.
std::vector<std::uint8_t> read_buffer(IUnknown* object) {
    Com<ID3D11Buffer> buffer;
    REQUIRE(object->QueryInterface(__uuidof(ID3D11Buffer),
                                   reinterpret_cast<void**>(buffer.out())) == S_OK);
    D3D11_BUFFER_DESC desc{};
    buffer->GetDesc(&desc);
    Com<ID3D11Device> device;
    buffer->GetDevice(device.out());
    Com<ID3D11DeviceContext> context;
    device->GetImmediateContext(context.out());
    D3D11_BUFFER_DESC staging_desc{
        desc.ByteWidth, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0};
    Com<ID3D11Buffer> staging;
    REQUIRE(device->CreateBuffer(&staging_desc, nullptr, staging.out()) == S_OK);
    context->CopyResource(staging.get(), buffer.get());
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    const auto* bytes = static_cast<const std::uint8_t*>(mapped.pData);
    std::vector<std::uint8_t> out(bytes, bytes + desc.ByteWidth);
    context->Unmap(staging.get(), 0);
    return out;
}

}  // namespace

TEST_CASE("initial data and UpdateSubresource(1) and copies give the direct run's contents",
          "[replay][engine]") {
    testing::TempDir dir;
    Recorder rec(dir.file("data.d3dcap"));
    DirectDevice direct(rec);
    ID3D11DeviceContext2* context = direct.context.get();

    const auto initial = pattern(256, 7, 3);
    Com<ID3D11Buffer> buffer;
    const auto buffer_id =
        create_buffer(rec, direct, {256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0},
                      &initial, buffer);

    // Two mips of 8x4 and 4x2 RGBA8 texels, with padded pitches.
    const D3D11_TEXTURE2D_DESC desc{8,
                                    4,
                                    2,
                                    1,
                                    DXGI_FORMAT_R8G8B8A8_UNORM,
                                    {1, 0},
                                    D3D11_USAGE_DEFAULT,
                                    D3D11_BIND_SHADER_RESOURCE,
                                    0,
                                    0};
    Com<ID3D11Texture2D> texture;
    const auto texture_id = create_texture(
        rec, direct, desc, {pattern(160, 1, 7), pattern(40, 99, 11)}, {40, 20}, texture);

    // 4x2 texels into mip 0 at (2, 1), source rows 20 bytes apart: 36 bytes read.
    const D3D11_BOX box{2, 1, 0, 6, 3, 1};
    const auto update = pattern(36, 200, 5);
    context->UpdateSubresource(texture.get(), 0, &box, update.data(), 20, 0);
    const fb::D3D11_BOX box_fb(2, 1, 0, 6, 3, 1);
    rec.call(context,
             fb::CreateID3D11DeviceContext_UpdateSubresourceDirect(rec.b, texture_id, 0, &box_fb,
                                                                   &update, 20, 0),
             std::nullopt, true);

    // Bytes [16, 48) of the buffer through UpdateSubresource1.
    const D3D11_BOX range{16, 0, 0, 48, 1, 1};
    const auto bytes = pattern(32, 0xA0, 1);
    context->UpdateSubresource1(buffer.get(), 0, &range, bytes.data(), 0, 0, 0);
    const fb::D3D11_BOX range_fb(16, 0, 0, 48, 1, 1);
    rec.call(context,
             fb::CreateID3D11DeviceContext1_UpdateSubresource1Direct(rec.b, buffer_id, 0, &range_fb,
                                                                     &bytes, 0, 0, 0),
             std::nullopt, true);

    // The buffer's first 64 bytes copied to offset 32 of a second buffer.
    Com<ID3D11Buffer> copy;
    const auto copy_id = create_buffer(
        rec, direct, {128, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0}, nullptr, copy);
    const D3D11_BOX source{0, 0, 0, 64, 1, 1};
    context->CopySubresourceRegion(copy.get(), 0, 32, 0, 0, buffer.get(), 0, &source);
    rec.call(context,
             api::encode_ID3D11DeviceContext_CopySubresourceRegion(rec.b, rec, copy.get(), 0, 32, 0,
                                                                   0, buffer.get(), 0, &source),
             std::nullopt, true);
    const std::uint64_t events = rec.close();

    auto replay = open_replay(rec.path());
    CHECK(replay->event_count() == events);
    require_ok(replay->run_all());
    CHECK(replay->next_event() == events);
    CHECK(replay->mismatches().empty());
    CHECK(replay->content_hash(texture_id, 0) == hash_of(texture.get(), 0));
    CHECK(replay->content_hash(texture_id, 1) == hash_of(texture.get(), 1));
    CHECK(replay->content_hash(buffer_id, 0) == hash_of(buffer.get()));
    CHECK(replay->content_hash(copy_id, 0) == hash_of(copy.get()));
    // Not trivially equal: the update changed the texture's hash.
    Com<ID3D11Texture2D> plain;
    REQUIRE(direct.device->CreateTexture2D(&desc, nullptr, plain.out()) == S_OK);
    CHECK(replay->content_hash(texture_id, 0) != hash_of(plain.get(), 0));

    std::vector<std::uint8_t> expected = initial;
    std::memcpy(expected.data() + 16, bytes.data(), 32);
    CHECK(read_buffer(replay->object(buffer_id)) == expected);
    std::vector<std::uint8_t> copied(128, 0);
    std::memcpy(copied.data() + 32, expected.data(), 64);
    CHECK(read_buffer(replay->object(copy_id)) == copied);
    CHECK(replay->object(direct.device_id) != nullptr);
    CHECK(replay->object(direct.device_id) != identity(direct.device.get()));
}

TEST_CASE("Unmap writes the recorded ranges laid out with the recorded pitches",
          "[replay][engine]") {
    testing::TempDir dir;
    Recorder rec(dir.file("map.d3dcap"));
    DirectDevice direct(rec);
    ID3D11DeviceContext2* context = direct.context.get();

    // A 16x4 RGBA8 dynamic texture: 64-byte rows, recorded as if the
    // capturing device's rows were 256 bytes apart.
    const D3D11_TEXTURE2D_DESC desc{16,
                                    4,
                                    1,
                                    1,
                                    DXGI_FORMAT_R8G8B8A8_UNORM,
                                    {1, 0},
                                    D3D11_USAGE_DYNAMIC,
                                    D3D11_BIND_SHADER_RESOURCE,
                                    D3D11_CPU_ACCESS_WRITE,
                                    0};
    Com<ID3D11Texture2D> texture;
    const auto texture_id = create_texture(rec, direct, desc, {}, {}, texture);
    constexpr UINT kRecordedPitch = 256;
    std::vector<std::vector<std::uint8_t>> rows;
    for (unsigned r = 0; r < 4; ++r) rows.push_back(pattern(64, 16 * r + 1, 3));

    // Writes the rows into a direct mapping, and records Map and Unmap.
    auto map_texture =
        [&](const std::vector<std::pair<std::uint64_t, std::vector<std::uint8_t>>>& writes) {
            D3D11_MAPPED_SUBRESOURCE mapped{};
            REQUIRE(context->Map(texture.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
            for (unsigned r = 0; r < 4; ++r)
                std::memcpy(static_cast<std::uint8_t*>(mapped.pData) + r * mapped.RowPitch,
                            rows[r].data(), 64);
            context->Unmap(texture.get(), 0);
            rec.call(context,
                     fb::CreateID3D11DeviceContext_Map(
                         rec.b, texture_id, 0, D3D11_MAP_WRITE_DISCARD, 0,
                         fb::CreateD3D11_MAPPED_SUBRESOURCE(rec.b, 0, kRecordedPitch,
                                                            4 * kRecordedPitch)),
                     S_OK, true);
            std::vector<flatbuffers::Offset<fb::MappedWrite>> offsets;
            for (const auto& [offset, data] : writes)
                offsets.push_back(fb::CreateMappedWriteDirect(rec.b, offset, &data));
            const auto vector = rec.b.CreateVector(offsets);
            return rec.call(context, fb::CreateID3D11DeviceContext_Unmap(rec.b, texture_id, 0),
                            std::nullopt, true, vector);
        };
    std::vector<std::pair<std::uint64_t, std::vector<std::uint8_t>>> all_rows;
    for (unsigned r = 0; r < 4; ++r) all_rows.emplace_back(r * kRecordedPitch, rows[r]);
    const auto first_unmap = map_texture(all_rows);
    const std::uint64_t first_hash = hash_of(texture.get());
    // WRITE_DISCARD again, the application changing only bytes 8-15 of row 2:
    // the rest of the mapping is what the previous Unmap left.
    for (unsigned i = 8; i < 16; ++i) rows[2][i] = static_cast<std::uint8_t>(0xF0 + i);
    map_texture({{2 * kRecordedPitch + 8,
                  std::vector<std::uint8_t>(rows[2].begin() + 8, rows[2].begin() + 16)}});

    // A dynamic buffer: WRITE_DISCARD of all of it, then NO_OVERWRITE of [100, 110).
    Com<ID3D11Buffer> buffer;
    const auto buffer_id = create_buffer(
        rec, direct,
        {128, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0}, nullptr,
        buffer);
    auto map_buffer = [&](D3D11_MAP type, std::uint64_t offset,
                          const std::vector<std::uint8_t>& data) {
        D3D11_MAPPED_SUBRESOURCE mapped{};
        REQUIRE(context->Map(buffer.get(), 0, type, 0, &mapped) == S_OK);
        std::memcpy(static_cast<std::uint8_t*>(mapped.pData) + offset, data.data(), data.size());
        context->Unmap(buffer.get(), 0);
        rec.call(context,
                 fb::CreateID3D11DeviceContext_Map(
                     rec.b, buffer_id, 0, type, 0,
                     fb::CreateD3D11_MAPPED_SUBRESOURCE(rec.b, 0, 128, 128)),
                 S_OK, true);
        const auto write = fb::CreateMappedWriteDirect(rec.b, offset, &data);
        const auto vector = rec.b.CreateVector(&write, 1);
        rec.call(context, fb::CreateID3D11DeviceContext_Unmap(rec.b, buffer_id, 0), std::nullopt,
                 true, vector);
    };
    const auto whole = pattern(128, 3, 5);
    map_buffer(D3D11_MAP_WRITE_DISCARD, 0, whole);
    const auto part = pattern(10, 0xC0, 1);
    map_buffer(D3D11_MAP_WRITE_NO_OVERWRITE, 100, part);
    rec.close();

    auto replay = open_replay(rec.path());
    require_ok(replay->run_to(first_unmap));
    CHECK(replay->next_event() == first_unmap + 1);
    CHECK(replay->content_hash(texture_id, 0) == first_hash);
    require_ok(replay->run_all());
    CHECK(replay->mismatches().empty());
    CHECK(replay->content_hash(texture_id, 0) == hash_of(texture.get()));
    CHECK(replay->content_hash(texture_id, 0) != first_hash);
    CHECK(replay->content_hash(buffer_id, 0) == hash_of(buffer.get()));
    std::vector<std::uint8_t> expected = whole;
    std::memcpy(expected.data() + 100, part.data(), part.size());
    CHECK(read_buffer(replay->object(buffer_id)) == expected);
}

TEST_CASE("a tile pool and a tiled texture with UpdateTileMappings and UpdateTiles",
          "[replay][engine][tiles]") {
    testing::TempDir dir;
    Recorder rec(dir.file("tiles.d3dcap"));
    DirectDevice direct(rec);
    ID3D11DeviceContext2* context = direct.context.get();

    Com<ID3D11Buffer> pool;
    const auto pool_id = create_buffer(
        rec, direct, {4 * 65536, D3D11_USAGE_DEFAULT, 0, 0, D3D11_RESOURCE_MISC_TILE_POOL, 0},
        nullptr, pool);
    // 256x256 RGBA8: 2x2 tiles of 128x128 texels.
    const D3D11_TEXTURE2D_DESC desc{256,
                                    256,
                                    1,
                                    1,
                                    DXGI_FORMAT_R8G8B8A8_UNORM,
                                    {1, 0},
                                    D3D11_USAGE_DEFAULT,
                                    D3D11_BIND_SHADER_RESOURCE,
                                    0,
                                    D3D11_RESOURCE_MISC_TILED};
    Com<ID3D11Texture2D> texture;
    const auto texture_id = create_texture(rec, direct, desc, {}, {}, texture);

    // The four tiles onto pool tiles 3, 2, 1, 0.
    const D3D11_TILED_RESOURCE_COORDINATE start{0, 0, 0, 0};
    const D3D11_TILE_REGION_SIZE size{4, TRUE, 2, 2, 1};
    const UINT flags[4] = {0, 0, 0, 0};
    const UINT offsets[4] = {3, 2, 1, 0};
    const UINT counts[4] = {1, 1, 1, 1};
    HRESULT hr = context->UpdateTileMappings(texture.get(), 1, &start, &size, pool.get(), 4, flags,
                                             offsets, counts, 0);
    REQUIRE(hr == S_OK);
    rec.call(
        context,
        api::encode_ID3D11DeviceContext2_UpdateTileMappings(
            rec.b, rec, texture.get(), 1, &start, &size, pool.get(), 4, flags, offsets, counts, 0),
        hr, true);

    // Tile (1, 0), then two tiles in a row from (0, 1): 64 KiB of data each.
    auto update_tiles = [&](D3D11_TILED_RESOURCE_COORDINATE at, UINT tiles, unsigned seed) {
        const D3D11_TILE_REGION_SIZE region{tiles, FALSE, 0, 0, 0};
        const auto data = pattern(std::size_t{tiles} * 65536, seed, 13);
        context->UpdateTiles(texture.get(), &at, &region, data.data(), 0);
        const fb::D3D11_TILED_RESOURCE_COORDINATE at_fb(at.X, at.Y, at.Z, at.Subresource);
        const fb::D3D11_TILE_REGION_SIZE region_fb(tiles, FALSE, 0, 0, 0);
        rec.call(context,
                 fb::CreateID3D11DeviceContext2_UpdateTilesDirect(rec.b, texture_id, &at_fb,
                                                                  &region_fb, &data, 0),
                 std::nullopt, true);
    };
    update_tiles({1, 0, 0, 0}, 1, 5);
    update_tiles({0, 1, 0, 0}, 2, 77);
    rec.close();

    auto replay = open_replay(rec.path());
    require_ok(replay->run_all());
    CHECK(replay->mismatches().empty());
    CHECK(replay->content_hash(texture_id, 0) == hash_of(texture.get()));
    CHECK(replay->content_hash(pool_id, 0) == hash_of(pool.get()));
    // Tile (1, 0) sits on pool tile 2.
    const auto pool_bytes = read_buffer(replay->object(pool_id));
    const auto tile = pattern(65536, 5, 13);
    CHECK(std::equal(tile.begin(), tile.end(), pool_bytes.begin() + 2 * 65536));
}

TEST_CASE("a deferred context's Map and copy reach the immediate context through a command list",
          "[replay][engine]") {
    testing::TempDir dir;
    Recorder rec(dir.file("deferred.d3dcap"));
    DirectDevice direct(rec);
    Com<ID3D11Buffer> target, dynamic;
    const auto target_id = create_buffer(
        rec, direct, {64, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0}, nullptr, target);
    const auto dynamic_id = create_buffer(
        rec, direct,
        {64, D3D11_USAGE_DYNAMIC, D3D11_BIND_VERTEX_BUFFER, D3D11_CPU_ACCESS_WRITE, 0, 0}, nullptr,
        dynamic);

    Com<ID3D11DeviceContext> deferred;
    HRESULT hr = direct.device->CreateDeferredContext(0, deferred.out());
    REQUIRE(hr == S_OK);
    const auto deferred_id = rec.track(deferred.get());
    rec.call(direct.device.get(),
             fb::CreateID3D11Device_CreateDeferredContext(rec.b, 0, deferred_id), hr);

    const auto data = pattern(64, 9, 9);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(deferred->Map(dynamic.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped) == S_OK);
    std::memcpy(mapped.pData, data.data(), 64);
    deferred->Unmap(dynamic.get(), 0);
    rec.call(
        deferred.get(),
        fb::CreateID3D11DeviceContext_Map(rec.b, dynamic_id, 0, D3D11_MAP_WRITE_DISCARD, 0,
                                          fb::CreateD3D11_MAPPED_SUBRESOURCE(rec.b, 0, 64, 64)),
        S_OK, true);
    const auto write = fb::CreateMappedWriteDirect(rec.b, 0, &data);
    const auto writes = rec.b.CreateVector(&write, 1);
    rec.call(deferred.get(), fb::CreateID3D11DeviceContext_Unmap(rec.b, dynamic_id, 0),
             std::nullopt, true, writes);
    deferred->CopyResource(target.get(), dynamic.get());
    rec.call(deferred.get(),
             api::encode_ID3D11DeviceContext_CopyResource(rec.b, rec, target.get(), dynamic.get()),
             std::nullopt, true);

    Com<ID3D11CommandList> list;
    hr = deferred->FinishCommandList(FALSE, list.out());
    REQUIRE(hr == S_OK);
    const auto list_id = rec.track(list.get());
    rec.call(deferred.get(), fb::CreateID3D11DeviceContext_FinishCommandList(rec.b, 0, list_id), hr,
             true);
    direct.context->ExecuteCommandList(list.get(), FALSE);
    rec.call(direct.context.get(),
             fb::CreateID3D11DeviceContext_ExecuteCommandList(rec.b, list_id, 0), std::nullopt,
             true);
    rec.close();

    auto replay = open_replay(rec.path());
    require_ok(replay->run_all());
    CHECK(replay->mismatches().empty());
    CHECK(replay->object(list_id) != nullptr);
    CHECK(read_buffer(replay->object(target_id)) == data);
    CHECK(replay->content_hash(target_id, 0) == hash_of(target.get()));
}

TEST_CASE("the state-only device replays the same trace without differences", "[replay][engine]") {
    testing::TempDir dir;
    Recorder rec(dir.file("null.d3dcap"));
    DirectDevice direct(rec);
    Com<ID3D11Buffer> buffer;
    const auto data = pattern(64, 1, 1);
    const auto buffer_id = create_buffer(
        rec, direct, {64, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0}, &data, buffer);
    const std::uint64_t events = rec.close();

    auto replay = open_replay(rec.path(), D3D_DRIVER_TYPE_NULL);
    require_ok(replay->run_all());
    CHECK(replay->next_event() == events);
    CHECK(replay->mismatches().empty());
    Com<ID3D11Device> device;
    REQUIRE(replay->object(direct.device_id)
                ->QueryInterface(__uuidof(ID3D11Device), reinterpret_cast<void**>(device.out())) ==
            S_OK);
    CHECK(device->GetCreationFlags() == 0);
    CHECK(replay->object(buffer_id) != nullptr);
}
