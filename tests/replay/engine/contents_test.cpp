// What a resource holds after an event, by replay: the bytes after each
// event in the canonical layout, going back by replaying again, and the
// errors that name the event.
#include "replay/engine/contents.h"

#include <random>

#include "recorder.h"

using namespace engine_tests;
using d3dcap::replay::ContentsReplay;

namespace {

std::unique_ptr<ContentsReplay> open_contents(const std::string& path,
                                              D3D_DRIVER_TYPE driver = D3D_DRIVER_TYPE_REFERENCE) {
    auto opened = ContentsReplay::open(path, driver);
    REQUIRE(opened.ok());
    return std::move(opened.value());
}

}  // namespace

TEST_CASE("contents after an event: the subresource's bytes then, forward and back",
          "[replay][engine][contents]") {
    testing::TempDir dir;
    Recorder rec(dir.file("contents.d3dcap"));
    DirectDevice direct(rec);
    ID3D11DeviceContext2* context = direct.context.get();
    // 4x2 RGBA8 with two mips; mip 0 rows padded to 20 bytes in the initial data.
    const D3D11_TEXTURE2D_DESC desc{4,
                                    2,
                                    2,
                                    1,
                                    DXGI_FORMAT_R8G8B8A8_UNORM,
                                    {1, 0},
                                    D3D11_USAGE_DEFAULT,
                                    D3D11_BIND_SHADER_RESOURCE,
                                    0,
                                    0};
    Com<ID3D11Texture2D> texture;
    const auto initial = pattern(40, 1, 1);
    const auto mip1 = pattern(8, 200, 3);
    const std::uint64_t texture_id =
        create_texture(rec, direct, desc, {initial, mip1}, {20, 8}, texture);
    const std::uint64_t created =
        rec.call(context, api::encode_ID3D11DeviceContext2_SetMarkerInt(rec.b, rec, L"created", 1),
                 std::nullopt, true);
    // Texel (1, 1) of mip 0 becomes 9, 8, 7, 6.
    const std::vector<std::uint8_t> texel{9, 8, 7, 6};
    const fb::D3D11_BOX box_fb(1, 1, 0, 2, 2, 1);
    const std::uint64_t updated = rec.call(context,
                                           fb::CreateID3D11DeviceContext_UpdateSubresourceDirect(
                                               rec.b, texture_id, 0, &box_fb, &texel, 4, 0),
                                           std::nullopt, true);
    const std::uint64_t events = rec.close();

    std::vector<std::uint8_t> before(32);  // tight rows of 16 bytes
    for (int row = 0; row < 2; ++row)
        std::copy_n(initial.begin() + row * 20, 16, before.begin() + row * 16);
    std::vector<std::uint8_t> after = before;
    std::copy(texel.begin(), texel.end(), after.begin() + 16 + 4);

    auto contents = open_contents(rec.path());
    CHECK(contents->event_count() == events);
    auto first = contents->contents_after(created, texture_id, 0);
    REQUIRE(first.ok());
    CHECK(first->event == created);
    CHECK(first->shape.format == DXGI_FORMAT_R8G8B8A8_UNORM);
    CHECK(first->shape.width == 4);
    CHECK(first->shape.height == 2);
    CHECK(first->shape.mip_levels == 2);
    CHECK(first->bytes == before);
    CHECK(first->problem.empty());
    const auto& listed = first->resources;
    REQUIRE(listed.size() == 1);
    CHECK(listed[0].id == texture_id);
    CHECK(d3dcap::replay::describe(listed[0].shape) == "Texture2D 4x2 R8G8B8A8_UNORM 2 mips");
    auto second = contents->contents_after(updated, texture_id, 0);
    REQUIRE(second.ok());
    CHECK(second->bytes == after);
    CHECK(contents->starts() == 1);
    auto small = contents->contents_after(updated, texture_id, 1);
    REQUIRE(small.ok());
    CHECK(small->shape.mip == 1);
    CHECK(small->shape.width == 2);
    CHECK(small->shape.height == 1);
    CHECK(small->bytes == mip1);
    // Back before the update: replay starts again.
    auto again = contents->contents_after(created, texture_id, 0);
    REQUIRE(again.ok());
    CHECK(again->bytes == before);
    CHECK(contents->starts() == 2);
}

TEST_CASE("contents requests that cannot be answered say why, naming the event",
          "[replay][engine][contents]") {
    testing::TempDir dir;
    Recorder rec(dir.file("errors.d3dcap"));
    DirectDevice direct(rec);
    Com<ID3D11Buffer> buffer;
    const auto data = pattern(64, 5);
    const std::uint64_t buffer_id = create_buffer(
        rec, direct, {64, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0}, &data, buffer);
    const std::uint64_t events = rec.close();

    auto contents = open_contents(rec.path());
    auto read = contents->contents_after(events - 1, buffer_id, 0);
    REQUIRE(read.ok());
    CHECK(read->shape.buffer);
    CHECK(read->bytes == data);
    REQUIRE(read->resources.size() == 1);
    CHECK(d3dcap::replay::describe(read->resources[0].shape) == "Buffer 64 bytes");

    auto past = contents->contents_after(events, buffer_id, 0);
    REQUIRE_FALSE(past.ok());
    CHECK(past.error().message == "no event " + std::to_string(events) + ": the trace has " +
                                      std::to_string(events) + " events");
    // What cannot be shown is a problem of the answer, which still lists
    // the resources.
    auto device = contents->contents_after(events - 1, direct.device_id, 0);
    REQUIRE(device.ok());
    CHECK(device->problem ==
          "object #" + std::to_string(direct.device_id) + " is no resource after this event");
    CHECK(device->resources.size() == 1);
    auto subresource = contents->contents_after(events - 1, buffer_id, 1);
    REQUIRE(subresource.ok());
    CHECK(subresource->problem ==
          "resource #" + std::to_string(buffer_id) + " has no subresource 1");
    auto list_only = contents->contents_after(events - 1, 0, 0);
    REQUIRE(list_only.ok());
    CHECK(list_only->problem.empty());
    CHECK(list_only->bytes.empty());
    CHECK(list_only->resources.size() == 1);
    // Asked to stop: the cancellation is told from other errors.
    auto fresh = open_contents(rec.path());
    auto cancelled = fresh->contents_after(events - 1, buffer_id, 0, [] { return false; });
    REQUIRE_FALSE(cancelled.ok());
    CHECK(ContentsReplay::is_cancelled(cancelled.error()));
    CHECK(fresh->next_event() == 0);

    auto null_device = open_contents(rec.path(), D3D_DRIVER_TYPE_NULL);
    auto nothing = null_device->contents_after(events - 1, buffer_id, 0);
    REQUIRE(nothing.ok());
    CHECK(nothing->problem ==
          "the null device keeps no contents of resource #" + std::to_string(buffer_id));
}

TEST_CASE("contents from the checkpoints equal a replay from the start at every event",
          "[replay][engine][contents]") {
    testing::TempDir dir;
    Recorder rec(dir.file("checkpoints.d3dcap"));
    DirectDevice direct(rec);
    ID3D11DeviceContext2* context = direct.context.get();
    Com<ID3D11Buffer> buffer;
    const auto data = pattern(64, 5);
    const std::uint64_t buffer_id = create_buffer(
        rec, direct, {64, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0}, &data, buffer);
    // 60 updates, each writing its number into byte (number % 64).
    for (std::uint8_t i = 0; i < 60; ++i) {
        const std::vector<std::uint8_t> one{static_cast<std::uint8_t>(200 + i)};
        const fb::D3D11_BOX box(i % 64u, 0, 0, i % 64u + 1, 1, 1);
        rec.call(context,
                 fb::CreateID3D11DeviceContext_UpdateSubresourceDirect(rec.b, buffer_id, 0, &box,
                                                                       &one, 0, 0),
                 std::nullopt, true);
    }
    const std::uint64_t events = rec.close();
    const std::uint64_t first = events - 60;

    // Paused every 8 events, at most 4 pauses: past that every other one
    // goes and the interval doubles (pauses after events 7, 23, 39 and 47).
    auto paused = open_contents(rec.path());
    paused->set_checkpoints(8, 4);
    REQUIRE(paused->contents_after(events - 1, buffer_id, 0).ok());
    REQUIRE(events == 62);
    CHECK(paused->checkpoint_count() == 4);
    std::mt19937 random(11);
    std::uniform_int_distribution<std::uint64_t> pick(7, events - 1);
    for (int i = 0; i < 40; ++i) {
        const std::uint64_t event = pick(random);
        INFO("event " << event);
        auto from_pause = paused->contents_after(event, buffer_id, 0);
        REQUIRE(from_pause.ok());
        // What a fresh replay to the event reads.
        auto fresh = open_contents(rec.path());
        auto from_start = fresh->contents_after(event, buffer_id, 0);
        REQUIRE(from_start.ok());
        CHECK(from_pause->bytes == from_start->bytes);
        CHECK(from_pause->event == event);
        REQUIRE(from_pause->resources.size() == 1);
        CHECK(from_pause->resources[0].id == buffer_id);
        // The byte of the last update at or before the event.
        if (event >= first) {
            const std::uint64_t number = event - first;
            CHECK(from_pause->bytes[number % 64] == static_cast<std::uint8_t>(200 + number));
        }
    }
    // Every earlier event came from a pause: replay never started again.
    CHECK(paused->starts() == 1);
    // Before the first pause replay starts again; the pauses stay.
    auto early = paused->contents_after(6, buffer_id, 0);
    REQUIRE(early.ok());
    std::vector<std::uint8_t> expected = data;
    for (std::uint64_t number = 0; number + first <= 6; ++number)
        expected[number] = static_cast<std::uint8_t>(200 + number);
    CHECK(early->bytes == expected);
    CHECK(paused->starts() == 2);
    CHECK(paused->checkpoint_count() == 4);
    REQUIRE(paused->contents_after(first + 50, buffer_id, 0).ok());
    CHECK(paused->starts() == 2);
    // A problem comes back from a pause as it would from here.
    auto missing = paused->contents_after(first + 3, direct.device_id, 0);
    REQUIRE(missing.ok());
    CHECK(missing->problem ==
          "object #" + std::to_string(direct.device_id) + " is no resource after this event");
    // A request no longer wanted is read to its end and said to be cancelled.
    auto unwanted = paused->contents_after(first + 5, buffer_id, 0, [] { return false; });
    REQUIRE_FALSE(unwanted.ok());
    CHECK(ContentsReplay::is_cancelled(unwanted.error()));
    CHECK(paused->contents_after(first + 5, buffer_id, 0).ok());
}

TEST_CASE(
    "a window of a subresource holds every step-th texel of a rectangle, from here and from "
    "a pause",
    "[replay][engine][contents]") {
    using d3dcap::replay::ContentsRequest;
    using d3dcap::replay::ContentsWindow;
    testing::TempDir dir;
    Recorder rec(dir.file("windows.d3dcap"));
    DirectDevice direct(rec);
    ID3D11DeviceContext2* context = direct.context.get();
    Com<ID3D11Buffer> pool;
    create_buffer(rec, direct,
                  {2 * 65536, D3D11_USAGE_DEFAULT, 0, 0, D3D11_RESOURCE_MISC_TILE_POOL, 0}, nullptr,
                  pool);
    // 256x256 RGBA8, 2x2 tiles of 128x128: tiles (1, 0) and (0, 1) mapped
    // and written, the other two NULL (zeros).
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
    const std::uint64_t texture_id = create_texture(rec, direct, desc, {}, {}, texture);
    const D3D11_TILED_RESOURCE_COORDINATE starts[2] = {{1, 0, 0, 0}, {0, 1, 0, 0}};
    const UINT offsets[2] = {0, 1};
    REQUIRE(context->UpdateTileMappings(texture.get(), 2, starts, nullptr, pool.get(), 2, nullptr,
                                        offsets, nullptr, 0) == S_OK);
    rec.call(context,
             api::encode_ID3D11DeviceContext2_UpdateTileMappings(rec.b, rec, texture.get(), 2,
                                                                 starts, nullptr, pool.get(), 2,
                                                                 nullptr, offsets, nullptr, 0),
             S_OK, true);
    for (int tile = 0; tile < 2; ++tile) {
        const D3D11_TILE_REGION_SIZE one{1, FALSE, 0, 0, 0};
        const auto data = pattern(65536, 3 + tile, 7);
        context->UpdateTiles(texture.get(), &starts[tile], &one, data.data(), 0);
        const fb::D3D11_TILED_RESOURCE_COORDINATE at(starts[tile].X, starts[tile].Y, 0, 0);
        const fb::D3D11_TILE_REGION_SIZE one_fb(1, FALSE, 0, 0, 0);
        rec.call(context,
                 fb::CreateID3D11DeviceContext2_UpdateTilesDirect(rec.b, texture_id, &at, &one_fb,
                                                                  &data, 0),
                 std::nullopt, true);
    }
    // 16x12 BC1: 4x3 blocks of 8 bytes.
    const D3D11_TEXTURE2D_DESC bc_desc{16,
                                       12,
                                       1,
                                       1,
                                       DXGI_FORMAT_BC1_UNORM,
                                       {1, 0},
                                       D3D11_USAGE_DEFAULT,
                                       D3D11_BIND_SHADER_RESOURCE,
                                       0,
                                       0};
    Com<ID3D11Texture2D> blocks;
    const auto block_bytes = pattern(96, 9);
    const std::uint64_t blocks_id =
        create_texture(rec, direct, bc_desc, {block_bytes}, {32}, blocks);
    const std::uint64_t events = rec.close();

    auto contents = open_contents(rec.path());
    auto whole = contents->contents_after(events - 1, texture_id, 0);
    REQUIRE(whole.ok());
    REQUIRE(whole->bytes.size() == 256 * 256 * 4);
    CHECK(whole->window.step == 1);
    CHECK(whole->window.width == 256);
    // The texels a window should hold, from the whole subresource's bytes.
    const auto expected = [&](const d3dcap::replay::TexelWindow& window) {
        std::vector<std::uint8_t> texels;
        for (std::uint32_t y = window.y; y < window.y + window.height; y += window.step)
            for (std::uint32_t x = window.x; x < window.x + window.width; x += window.step)
                for (int c = 0; c < 4; ++c) texels.push_back(whole->bytes[(y * 256 + x) * 4 + c]);
        return texels;
    };
    struct Case {
        ContentsWindow asked;
        std::uint32_t x, y, width, height, step;
    };
    const Case cases[] = {
        // The whole at most 64 texels a side: every 4th.
        {{0, 0, UINT32_MAX, UINT32_MAX, 64}, 0, 0, 256, 256, 4},
        // A rectangle across all four tiles, every texel.
        {{100, 37, 60, 90, UINT32_MAX}, 100, 37, 60, 90, 1},
        // At most 50 a side of 100x200: every 4th, the corner on a multiple of 4.
        {{130, 5, 100, 200, 50}, 128, 4, 102, 201, 4},
        // Past the edge: the last texel.
        {{300, 300, 10, 10, UINT32_MAX}, 255, 255, 1, 1, 1},
        // Wider than the texture: clamped.
        {{250, 0, 100, 3, 2}, 248, 0, 8, 3, 4},
    };
    for (const Case& c : cases) {
        INFO("window at " << c.asked.x << ", " << c.asked.y);
        auto read = contents->contents_after(events - 1, ContentsRequest{texture_id, 0, c.asked});
        REQUIRE(read.ok());
        CHECK(read->window.x == c.x);
        CHECK(read->window.y == c.y);
        CHECK(read->window.width == c.width);
        CHECK(read->window.height == c.height);
        CHECK(read->window.step == c.step);
        CHECK(read->shape.width == 256);
        CHECK(read->bytes == expected(read->window));
    }
    // NULL tile (0, 0) reads zeros; tile (1, 0) holds its pattern.
    auto corner =
        contents->contents_after(events - 1, ContentsRequest{texture_id, 0, {126, 0, 4, 1}});
    REQUIRE(corner.ok());
    const auto tile = pattern(65536, 3, 7);
    std::vector<std::uint8_t> edge(16, 0);
    std::copy_n(tile.begin(), 8, edge.begin() + 8);
    CHECK(corner->bytes == edge);

    // Compressed: whole blocks, every one of them.
    auto block =
        contents->contents_after(events - 1, ContentsRequest{blocks_id, 0, {5, 5, 3, 3, 1}});
    REQUIRE(block.ok());
    CHECK(block->window.x == 4);
    CHECK(block->window.y == 4);
    CHECK(block->window.width == 4);
    CHECK(block->window.height == 4);
    CHECK(block->window.step == 1);
    CHECK(block->bytes ==
          std::vector<std::uint8_t>(block_bytes.begin() + 40, block_bytes.begin() + 48));

    // A device that reads whole subresources only (lavapipe): cropped alike.
    auto warp = open_contents(rec.path(), D3D_DRIVER_TYPE_WARP);
    auto cropped = warp->contents_after(events - 1, ContentsRequest{texture_id, 0, cases[2].asked});
    REQUIRE(cropped.ok());
    CHECK(cropped->window.x == 128);
    CHECK(cropped->window.step == 4);
    CHECK(cropped->bytes == expected(cropped->window));

    // From a pause, the same bytes.
    auto paused = open_contents(rec.path());
    paused->set_checkpoints(2);
    REQUIRE(paused->contents_after(events - 1, 0, 0).ok());
    REQUIRE(paused->checkpoint_count() > 0);
    auto from_pause =
        paused->contents_after(events - 2, ContentsRequest{texture_id, 0, cases[2].asked});
    REQUIRE(from_pause.ok());
    CHECK(paused->starts() == 1);
    CHECK(from_pause->window.x == 128);
    CHECK(from_pause->window.step == 4);
    CHECK(from_pause->bytes == expected(from_pause->window));
}

TEST_CASE("the event's output: the render target bound after it, by its view's subresource",
          "[replay][engine][contents]") {
    testing::TempDir dir;
    Recorder rec(dir.file("output.d3dcap"));
    DirectDevice direct(rec);
    ID3D11DeviceContext2* context = direct.context.get();
    // 8x4 RGBA8, 2 mips, 2 slices; the view is mip 1 of slice 1: subresource 1 + 1 * 2.
    const D3D11_TEXTURE2D_DESC desc{8,
                                    4,
                                    2,
                                    2,
                                    DXGI_FORMAT_R8G8B8A8_UNORM,
                                    {1, 0},
                                    D3D11_USAGE_DEFAULT,
                                    D3D11_BIND_RENDER_TARGET,
                                    0,
                                    0};
    Com<ID3D11Texture2D> texture;
    const std::uint64_t texture_id = create_texture(rec, direct, desc, {}, {}, texture);
    D3D11_RENDER_TARGET_VIEW_DESC view_desc{};
    view_desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    view_desc.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DARRAY;
    view_desc.Texture2DArray = {1, 1, 1};
    Com<ID3D11RenderTargetView> view;
    REQUIRE(direct.device->CreateRenderTargetView(texture.get(), &view_desc, view.out()) == S_OK);
    rec.track(view.get());
    ID3D11RenderTargetView* made = view.get();
    rec.call(direct.device.get(),
             api::encode_ID3D11Device_CreateRenderTargetView(rec.b, rec, texture.get(), &view_desc,
                                                             &made),
             S_OK);
    const std::uint64_t unbound =
        rec.call(context, api::encode_ID3D11DeviceContext2_SetMarkerInt(rec.b, rec, L"none", 1),
                 std::nullopt, true);
    rec.call(context,
             api::encode_ID3D11DeviceContext_OMSetRenderTargets(rec.b, rec, 1, &made, nullptr),
             std::nullopt, true);
    const float colour[4] = {1.0f, 0.5f, 0.0f, 1.0f};
    const std::uint64_t cleared = rec.call(
        context, api::encode_ID3D11DeviceContext_ClearRenderTargetView(rec.b, rec, made, colour),
        std::nullopt, true);
    rec.close();

    auto contents = open_contents(rec.path());
    const d3dcap::replay::ContentsRequest output{
        d3dcap::replay::ContentsRequest::kEventOutput, 0, {}};
    auto none = contents->contents_after(unbound, output);
    REQUIRE(none.ok());
    CHECK(none->resource == 0);
    CHECK(none->problem == "event " + std::to_string(unbound) +
                               " draws into nothing: no swap chain call, and no render target or "
                               "depth-stencil target bound");
    auto drawn = contents->contents_after(cleared, output);
    REQUIRE(drawn.ok());
    CHECK(drawn->problem.empty());
    CHECK(drawn->resource == texture_id);
    CHECK(drawn->subresource == 3);
    CHECK(drawn->shape.width == 4);
    CHECK(drawn->shape.height == 2);
    std::vector<std::uint8_t> expected;
    for (int texel = 0; texel < 8; ++texel) expected.insert(expected.end(), {255, 128, 0, 255});
    CHECK(drawn->bytes == expected);
}
