// What a resource holds after an event, by replay: the bytes after each
// event in the canonical layout, going back by replaying again, and the
// errors that name the event.
#include "replay/engine/contents.h"

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
    const auto listed = contents->resources();
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
    REQUIRE(contents->resources().size() == 1);
    CHECK(d3dcap::replay::describe(contents->resources()[0].shape) == "Buffer 64 bytes");

    auto past = contents->contents_after(events, buffer_id, 0);
    REQUIRE_FALSE(past.ok());
    CHECK(past.error().message == "no event " + std::to_string(events) + ": the trace has " +
                                      std::to_string(events) + " events");
    auto device = contents->contents_after(events - 1, direct.device_id, 0);
    REQUIRE_FALSE(device.ok());
    CHECK(device.error().event == std::int64_t(events - 1));
    CHECK(device.error().message ==
          "object #" + std::to_string(direct.device_id) + " is no resource after this event");
    auto subresource = contents->contents_after(events - 1, buffer_id, 1);
    REQUIRE_FALSE(subresource.ok());
    CHECK(subresource.error().message ==
          "resource #" + std::to_string(buffer_id) + " has no subresource 1");
    // Asked to stop: the cancellation is told from other errors.
    auto fresh = open_contents(rec.path());
    auto cancelled = fresh->contents_after(events - 1, buffer_id, 0, [] { return false; });
    REQUIRE_FALSE(cancelled.ok());
    CHECK(ContentsReplay::is_cancelled(cancelled.error()));
    CHECK(fresh->next_event() == 0);

    auto null_device = open_contents(rec.path(), D3D_DRIVER_TYPE_NULL);
    auto nothing = null_device->contents_after(events - 1, buffer_id, 0);
    REQUIRE_FALSE(nothing.ok());
    CHECK(nothing.error().message ==
          "the null device keeps no contents of resource #" + std::to_string(buffer_id));
}
