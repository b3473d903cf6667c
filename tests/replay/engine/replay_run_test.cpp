// Timed replay runs: HRESULT comparison, frame and marker times, content-hash
// verification, adaptation to a device that packs mips otherwise, and the
// report and comparison text.
#include <sstream>

#include "recorder.h"
#include "replay/report/report.h"
#include "replay/report/run.h"

using namespace engine_tests;

namespace {

replay::RunReport run(const std::string& path, replay::RunOptions options = {}) {
    options.trace = path;
    auto report = replay::run_replay(options);
    INFO((report.ok() ? std::string() : report.error().to_string()));
    REQUIRE(report.ok());
    return std::move(report.value());
}

void frame_boundary(Recorder& rec, std::uint64_t frame) {
    rec.meta(fb::CreateFrameBoundary(rec.b, frame));
}

// The content hashes of every subresource of a resource, as a capture records them.
void content_hashes(Recorder& rec, std::uint64_t frame, std::uint64_t id, ID3D11Resource* resource,
                    UINT subresources) {
    std::vector<fb::SubresourceHash> hashes;
    for (UINT s = 0; s < subresources; ++s) hashes.emplace_back(id, s, hash_of(resource, s));
    rec.meta(fb::CreateContentHashesDirect(rec.b, frame, &hashes));
}

}  // namespace

TEST_CASE("a call recorded as failing may fail again, a success that fails is a mismatch",
          "[replay][run]") {
    testing::TempDir dir;
    Recorder rec(dir.file("failing.d3dcap"));
    DirectDevice direct(rec);
    // ByteWidth 0 fails on every device.
    const D3D11_BUFFER_DESC empty{0, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
    ID3D11Buffer* none = nullptr;
    REQUIRE(direct.device->CreateBuffer(&empty, nullptr, &none) == E_INVALIDARG);
    rec.call(direct.device.get(),
             api::encode_ID3D11Device_CreateBuffer(rec.b, rec, &empty, nullptr, &none),
             E_INVALIDARG);
    Com<ID3D11Buffer> pool;
    create_buffer(rec, direct, {65536, D3D11_USAGE_DEFAULT, 0, 0, D3D11_RESOURCE_MISC_TILE_POOL, 0},
                  nullptr, pool);
    // Recorded as succeeding, but 1000 bytes is no multiple of 64 KiB.
    rec.call(direct.context.get(),
             api::encode_ID3D11DeviceContext2_ResizeTilePool(rec.b, rec, pool.get(), 1000), S_OK,
             true);
    const std::uint64_t events = rec.close();

    const replay::RunReport report = run(rec.path());
    REQUIRE(report.mismatches.size() == 1);
    CHECK(report.mismatches[0].event == events - 1);
    CHECK(report.mismatches[0].call == "ID3D11DeviceContext2::ResizeTilePool");
    CHECK(report.mismatches[0].recorded == S_OK);
    CHECK(report.mismatches[0].replayed == E_INVALIDARG);
    const auto json = replay::report_json(report);
    CHECK(json["mismatches"][0]["recorded"] == "0x00000000");
    CHECK(json["mismatches"][0]["replayed"] == "0x80070057");
    CHECK(json["events"].size() == events);
}

TEST_CASE("frames, nested marker regions and loops are timed and hashes verified",
          "[replay][run]") {
    testing::TempDir dir;
    Recorder rec(dir.file("frames.d3dcap"));
    frame_boundary(rec, 0);
    DirectDevice direct(rec);
    ID3D11DeviceContext2* context = direct.context.get();
    Com<ID3D11Buffer> buffer;
    const auto buffer_id =
        create_buffer(rec, direct, {256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0},
                      nullptr, buffer);
    std::uint64_t outer_begin = 0, inner_end = 0, outer_end = 0;
    for (std::uint64_t frame = 1; frame <= 2; ++frame) {
        frame_boundary(rec, frame);
        context->BeginEventInt(L"outer", 7);
        outer_begin = rec.call(
            context, api::encode_ID3D11DeviceContext2_BeginEventInt(rec.b, rec, L"outer", 7),
            std::nullopt, true);
        context->BeginEventInt(L"inner", 8);
        rec.call(context, api::encode_ID3D11DeviceContext2_BeginEventInt(rec.b, rec, L"inner", 8),
                 std::nullopt, true);
        const auto data = pattern(256, static_cast<unsigned>(frame));
        context->UpdateSubresource(buffer.get(), 0, nullptr, data.data(), 0, 0);
        rec.call(context,
                 api::encode_ID3D11DeviceContext_UpdateSubresource(rec.b, rec, buffer.get(), 0,
                                                                   nullptr, data.data(), 0, 0, 256),
                 std::nullopt, true);
        context->EndEvent();
        inner_end = rec.call(context, api::encode_ID3D11DeviceContext2_EndEvent(rec.b, rec),
                             std::nullopt, true);
        context->SetMarkerInt(L"mark", 9);
        rec.call(context, api::encode_ID3D11DeviceContext2_SetMarkerInt(rec.b, rec, L"mark", 9),
                 std::nullopt, true);
        context->EndEvent();
        outer_end = rec.call(context, api::encode_ID3D11DeviceContext2_EndEvent(rec.b, rec),
                             std::nullopt, true);
        content_hashes(rec, frame, buffer_id, buffer.get(), 1);
    }
    const std::uint64_t events = rec.close();

    replay::RunOptions options;
    options.loops = 3;
    options.verify = true;
    options.frames = replay::FrameRange{2, 2};
    const replay::RunReport report = run(rec.path(), options);
    CHECK(report.mismatches.empty());
    CHECK(report.hashes_checked == 2);  // both frames: the warm-up pass verifies everything
    CHECK(report.hash_differences.empty());
    CHECK(report.events_replayed == 4 * events);
    REQUIRE(report.frames.size() == 1);
    CHECK(report.frames[0].frame == 2);
    CHECK(report.frames[0].last_event == events - 1);
    CHECK(report.frames[0].cpu_ms.size() == 3);
    CHECK(report.frames[0].gpu_ms.size() == 3);
    CHECK(report.first_event == report.frames[0].first_event);
    CHECK(report.events.size() == events - report.first_event);
    // The second frame's outer region holds its inner one.
    REQUIRE(report.markers.size() == 2);
    const replay::MarkerTime& outer = report.markers[0];
    const replay::MarkerTime& inner = report.markers[1];
    CHECK(outer.label == "outer");
    CHECK(outer.data == 7);
    CHECK(outer.depth == 0);
    CHECK(outer.first_event == outer_begin);
    CHECK(outer.last_event == outer_end);
    CHECK(inner.label == "inner");
    CHECK(inner.depth == 1);
    CHECK(inner.last_event == inner_end);
    CHECK(outer.self_cpu_ns == outer.cpu_ns - inner.cpu_ns);
    std::uint64_t sum = 0;
    for (const replay::EventTime& e : report.events)
        if (e.event >= outer.first_event && e.event <= outer.last_event) sum += e.cpu_ns;
    CHECK(outer.cpu_ns == sum);
}

TEST_CASE("a different content hash is reported with its frame and resource", "[replay][run]") {
    testing::TempDir dir;
    Recorder rec(dir.file("hash.d3dcap"));
    DirectDevice direct(rec);
    Com<ID3D11Buffer> buffer;
    const auto id = create_buffer(
        rec, direct, {64, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0}, nullptr, buffer);
    const std::vector<fb::SubresourceHash> wrong{fb::SubresourceHash(id, 0, 0x1234)};
    rec.meta(fb::CreateContentHashesDirect(rec.b, 4, &wrong));
    rec.close();
    replay::RunOptions options;
    options.verify = true;
    const replay::RunReport report = run(rec.path(), options);
    REQUIRE(report.hash_differences.size() == 1);
    CHECK(report.hash_differences[0].frame == 4);
    CHECK(report.hash_differences[0].resource == id);
    CHECK(report.hash_differences[0].recorded == 0x1234);
    CHECK(report.hash_differences[0].replayed == hash_of(buffer.get()));
}

namespace {

// An RGBA8 render target of width x height texels.
D3D11_TEXTURE2D_DESC target_desc(UINT width, UINT height) {
    return {width,
            height,
            1,
            1,
            DXGI_FORMAT_R8G8B8A8_UNORM,
            {1, 0},
            D3D11_USAGE_DEFAULT,
            D3D11_BIND_RENDER_TARGET,
            0,
            0};
}

// A copy as capture stores it: width x height texels of four channels, all `value`.
runtime::formats::Thumbnail copy_of(std::uint32_t width, std::uint32_t height, std::uint32_t scale,
                                    std::uint8_t value) {
    return {width, height, scale,
            std::vector<std::uint8_t>(std::size_t{width} * height * 4, value)};
}

void set_texel(runtime::formats::Thumbnail& copy, std::uint32_t x, std::uint32_t y,
               std::uint8_t value) {
    for (int c = 0; c < 4; ++c) copy.rgba[(std::size_t{y} * copy.width + x) * 4 + c] = value;
}

}  // namespace

TEST_CASE("capability queries answered otherwise are reported apart from HRESULT mismatches",
          "[replay][run]") {
    testing::TempDir dir;
    Recorder rec(dir.file("capabilities.d3dcap"));
    DirectDevice direct(rec);
    // The capturing device had no R8G8B8A8_UNORM and no 4x MSAA of it; the
    // reference device has both. It also accepted an empty buffer, which the
    // reference device refuses: that one stays a mismatch.
    const auto format = rec.call(
        direct.device.get(),
        fb::CreateID3D11Device_CheckFormatSupport(rec.b, DXGI_FORMAT_R8G8B8A8_UNORM, 0), E_FAIL);
    const auto samples = rec.call(direct.device.get(),
                                  fb::CreateID3D11Device_CheckMultisampleQualityLevels(
                                      rec.b, DXGI_FORMAT_R8G8B8A8_UNORM, 4, 0),
                                  E_FAIL);
    const fb::D3D11_BUFFER_DESC empty(0, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0);
    rec.meta(fb::CreateObjectCreatedDirect(rec.b, 50, "ID3D11Buffer", direct.device_id));
    const auto accepted =
        rec.call(direct.device.get(),
                 fb::CreateID3D11Device_CreateBufferDirect(rec.b, &empty, nullptr, 50), S_OK);
    rec.close();

    const replay::RunReport report = run(rec.path(), replay::RunOptions{});
    REQUIRE(report.capability_differences.size() == 2);
    CHECK(report.capability_differences[0].event == format);
    CHECK(report.capability_differences[0].call == "ID3D11Device::CheckFormatSupport");
    CHECK(report.capability_differences[0].recorded == E_FAIL);
    CHECK(report.capability_differences[0].replayed == S_OK);
    CHECK(report.capability_differences[1].event == samples);
    CHECK(report.capability_differences[1].call == "ID3D11Device::CheckMultisampleQualityLevels");
    REQUIRE(report.mismatches.size() == 1);
    CHECK(report.mismatches[0].event == accepted);
    std::ostringstream text;
    replay::print_summary(report, text, 5);
    CHECK(text.str().find("HRESULT mismatches: 1\n  event " + std::to_string(accepted) +
                          " ID3D11Device::CreateBuffer: recorded 0x00000000, replayed "
                          "0x80070057\nthe replaying device answers 2 capability queries "
                          "differently\n  event " +
                          std::to_string(format) +
                          " ID3D11Device::CheckFormatSupport: recorded 0x80004005, replayed "
                          "0x00000000\n") != std::string::npos);
    const auto json = replay::report_json(report);
    CHECK(json["capability_differences"].size() == 2);
    CHECK(json["mismatches"].size() == 1);
}

TEST_CASE("a render target whose hash differs is measured against its recorded image",
          "[replay][run][image]") {
    testing::TempDir dir;
    Recorder rec(dir.file("image.d3dcap"));
    DirectDevice direct(rec);
    // Two 8x8 RGBA8 render targets of texels 100: the recording says one
    // was 101 (rounding), the other 200 (a wrong picture). 8 texels wide,
    // the recorded images hold every texel.
    const std::vector<std::uint8_t> texels(8 * 8 * 4, 100);
    Com<ID3D11Texture2D> near_target, far_target;
    const auto near_id =
        create_texture(rec, direct, target_desc(8, 8), {texels}, {32}, near_target);
    const auto far_id = create_texture(rec, direct, target_desc(8, 8), {texels}, {32}, far_target);
    const std::vector<fb::SubresourceHash> hashes{fb::SubresourceHash(near_id, 0, 0x1234),
                                                  fb::SubresourceHash(far_id, 0, 0x5678)};
    const std::vector<std::uint8_t> near_image(8 * 8 * 4, 101), far_image(8 * 8 * 4, 200);
    const std::vector<flatbuffers::Offset<fb::SubresourceImage>> images{
        fb::CreateSubresourceImageDirect(rec.b, near_id, 0, 8, 8, 1, &near_image),
        fb::CreateSubresourceImageDirect(rec.b, far_id, 0, 8, 8, 1, &far_image)};
    rec.meta(fb::CreateContentHashesDirect(rec.b, 0, &hashes, &images));
    rec.close();
    replay::RunOptions options;
    options.verify = true;
    const replay::RunReport report = run(rec.path(), options);
    REQUIRE(report.hash_differences.size() == 2);
    const replay::HashDifference& near = report.hash_differences[0];
    CHECK(near.image.comparable);
    CHECK(near.image.full_resolution());
    CHECK(near.image.max_difference == 1);
    CHECK(near.image.texels_past_bound == 0);
    CHECK(near.within_tolerance());
    const replay::HashDifference& far = report.hash_differences[1];
    CHECK(far.image.max_difference == 100);
    CHECK(far.image.texels_past_bound == 64);
    CHECK_FALSE(far.within_tolerance());
    std::ostringstream text;
    replay::print_summary(report, text, 2);
    CHECK(text.str().find("content hashes: 2 checked, 2 differ (1 by rounding only: no channel of "
                          "its image differs by more than 2 of 255, max difference 1)\n") !=
          std::string::npos);
    CHECK(text.str().find("; image max difference 1, 0 texels past 2 (rounding)\n") !=
          std::string::npos);
    CHECK(
        text.str().find("; image max difference 100, 64 texels past 2 in x 0-7 y 0-7 (wrong)\n") !=
        std::string::npos);
    const auto json = replay::report_json(report);
    const auto& far_json = json["hashes"]["differences"][1]["image"];
    CHECK(far_json["full_resolution"] == true);
    CHECK(far_json["scale"] == 1);
    CHECK(far_json["max_difference"] == 100);
    CHECK(far_json["bound"] == 2);
    CHECK(far_json["texels_past_bound"] == 64);
    CHECK(far_json["past_bound_region"] ==
          nlohmann::json{{"x", 0}, {"y", 0}, {"width", 8}, {"height", 8}});
    CHECK(far_json["within_tolerance"] == false);
    CHECK(json["hashes"]["differences"][0]["image"]["past_bound_region"].is_null());
}

TEST_CASE(
    "an 8x8 block of wrong texels in a 1024x1024 target is wrong, one unit everywhere is "
    "rounding",
    "[replay][run][image]") {
    testing::TempDir dir;
    Recorder rec(dir.file("block.d3dcap"));
    DirectDevice direct(rec);
    // Three 1024x1024 targets of texels 100. Capture kept 256x256 copies of
    // 4x4 means. Recorded: the first with texels 510-517 (x and y) at 0, so
    // copy texels 127-129 held 75 50 75 / 50 0 50 / 75 50 75 (12, 8, 0 of 16
    // right); the second with texels 512-519 at 108 (two copy texels a side,
    // 8 units off); the third 101 everywhere. The copies' PSNR, 52.8 and
    // 72.2 dB, would call both rounding.
    const std::vector<std::uint8_t> texels(1024 * 1024 * 4, 100);
    Com<ID3D11Texture2D> block_target, faint_target, near_target;
    const auto desc = target_desc(1024, 1024);
    const auto block_id = create_texture(rec, direct, desc, {texels}, {4096}, block_target);
    const auto faint_id = create_texture(rec, direct, desc, {texels}, {4096}, faint_target);
    const auto near_id = create_texture(rec, direct, desc, {texels}, {4096}, near_target);
    runtime::formats::Thumbnail block = copy_of(256, 256, 4, 100);
    const std::uint8_t block_means[3][3] = {{75, 50, 75}, {50, 0, 50}, {75, 50, 75}};
    for (std::uint32_t y = 0; y < 3; ++y)
        for (std::uint32_t x = 0; x < 3; ++x) set_texel(block, 127 + x, 127 + y, block_means[y][x]);
    runtime::formats::Thumbnail faint = copy_of(256, 256, 4, 100);
    for (std::uint32_t y = 128; y < 130; ++y)
        for (std::uint32_t x = 128; x < 130; ++x) set_texel(faint, x, y, 108);
    const runtime::formats::Thumbnail near = copy_of(256, 256, 4, 101);
    const std::vector<fb::SubresourceHash> hashes{fb::SubresourceHash(block_id, 0, 1),
                                                  fb::SubresourceHash(faint_id, 0, 2),
                                                  fb::SubresourceHash(near_id, 0, 3)};
    const std::vector<flatbuffers::Offset<fb::SubresourceImage>> images{
        fb::CreateSubresourceImageDirect(rec.b, block_id, 0, 256, 256, 4, &block.rgba),
        fb::CreateSubresourceImageDirect(rec.b, faint_id, 0, 256, 256, 4, &faint.rgba),
        fb::CreateSubresourceImageDirect(rec.b, near_id, 0, 256, 256, 4, &near.rgba)};
    rec.meta(fb::CreateContentHashesDirect(rec.b, 0, &hashes, &images));
    rec.close();
    replay::RunOptions options;
    options.verify = true;
    const replay::RunReport report = run(rec.path(), options);
    REQUIRE(report.hash_differences.size() == 3);
    const runtime::formats::ImageDistance& wrong = report.hash_differences[0].image;
    CHECK(wrong.comparable);
    CHECK_FALSE(wrong.full_resolution());
    CHECK(wrong.scale == 4);
    CHECK(wrong.max_difference == 100);
    CHECK(wrong.texels_past_bound == 9);
    CHECK(wrong.past_bound.x == 508);
    CHECK(wrong.past_bound.y == 508);
    CHECK(wrong.past_bound.width == 12);
    CHECK(wrong.past_bound.height == 12);
    CHECK_FALSE(report.hash_differences[0].within_tolerance());
    const runtime::formats::ImageDistance& faint_wrong = report.hash_differences[1].image;
    CHECK(faint_wrong.max_difference == 8);
    CHECK(faint_wrong.texels_past_bound == 4);
    CHECK_FALSE(report.hash_differences[1].within_tolerance());
    const runtime::formats::ImageDistance& rounding = report.hash_differences[2].image;
    CHECK(rounding.max_difference == 1);
    CHECK(rounding.texels_past_bound == 0);
    CHECK(report.hash_differences[2].within_tolerance());
    std::ostringstream text;
    replay::print_summary(report, text, 3);
    CHECK(text.str().find(
              "content hashes: 3 checked, 3 differ (1 by rounding only: no channel of its image "
              "differs by more than 2 of 255, max difference 1; 1 compared only on copies "
              "downscaled at capture, whose means can hide a few wrong texels)\n") !=
          std::string::npos);
    CHECK(text.str().find("; image max difference 100, 9 texels past 2 in x 508-519 y 508-519 on "
                          "the 256x256 copy of 4x4 means (wrong)\n") != std::string::npos);
    CHECK(text.str().find("; image max difference 8, 4 texels past 2 in x 512-519 y 512-519 on the "
                          "256x256 copy of 4x4 means (wrong)\n") != std::string::npos);
    CHECK(text.str().find(
              "; image max difference 1, 0 texels past 2 on the 256x256 copy of 4x4 means "
              "(rounding)\n") != std::string::npos);
    const auto json = replay::report_json(report);
    CHECK(json["hashes"]["differences"][0]["image"]["full_resolution"] == false);
    CHECK(json["hashes"]["differences"][0]["image"]["scale"] == 4);
    CHECK(json["hashes"]["differences"][0]["image"]["width"] == 256);
}

TEST_CASE("images differ by rounding up to 2 units of 255 in every channel, not 3 in one",
          "[replay][image]") {
    // Full resolution: every compared texel is a texel of the picture.
    const runtime::formats::Thumbnail recorded = copy_of(16, 16, 1, 100);
    const runtime::formats::Thumbnail two_everywhere = copy_of(16, 16, 1, 102);
    const runtime::formats::ImageDistance at_bound =
        runtime::formats::image_distance(recorded, two_everywhere, 4, 16, 16);
    CHECK(at_bound.max_difference == 2);
    CHECK(at_bound.texels_past_bound == 0);
    CHECK(at_bound.within_tolerance());
    CHECK(runtime::formats::image_distance(recorded, copy_of(16, 16, 1, 98), 4, 16, 16)
              .within_tolerance());

    // One channel of one texel 3 units off.
    runtime::formats::Thumbnail one_past = recorded;
    one_past.rgba[(5 * 16 + 9) * 4 + 2] = 103;
    const runtime::formats::ImageDistance past =
        runtime::formats::image_distance(recorded, one_past, 4, 16, 16);
    CHECK(past.max_difference == 3);
    CHECK(past.texels_past_bound == 1);
    CHECK(past.past_bound.x == 9);
    CHECK(past.past_bound.y == 5);
    CHECK(past.past_bound.width == 1);
    CHECK(past.past_bound.height == 1);
    CHECK_FALSE(past.within_tolerance());
    // 3 units down counts alike.
    one_past.rgba[(5 * 16 + 9) * 4 + 2] = 97;
    CHECK_FALSE(runtime::formats::image_distance(recorded, one_past, 4, 16, 16).within_tolerance());

    // The same texels equal: the same image.
    const runtime::formats::ImageDistance same =
        runtime::formats::image_distance(recorded, recorded, 4, 16, 16);
    CHECK(same.comparable);
    CHECK(same.max_difference == 0);
    CHECK(same.within_tolerance());
}

TEST_CASE("images of other sizes or scales are not comparable, so not within tolerance",
          "[replay][image]") {
    const runtime::formats::Thumbnail recorded = copy_of(16, 16, 1, 100);
    for (const runtime::formats::Thumbnail& other :
         {copy_of(16, 8, 1, 100), copy_of(8, 16, 1, 100), copy_of(16, 16, 2, 100)}) {
        const runtime::formats::ImageDistance d =
            runtime::formats::image_distance(recorded, other, 4, 16, 16);
        CHECK_FALSE(d.comparable);
        CHECK_FALSE(d.within_tolerance());
    }
    runtime::formats::Thumbnail short_of_texels = recorded;
    short_of_texels.rgba.resize(16 * 15 * 4);
    CHECK_FALSE(runtime::formats::image_distance(short_of_texels, recorded, 4, 16, 16).comparable);
}

TEST_CASE("the fourth channel of a BGRX target is left out", "[replay][image]") {
    CHECK(runtime::formats::thumbnail_channels(DXGI_FORMAT_B8G8R8X8_UNORM) == 3);
    CHECK(runtime::formats::thumbnail_channels(DXGI_FORMAT_B8G8R8X8_UNORM_SRGB) == 3);
    CHECK(runtime::formats::thumbnail_channels(DXGI_FORMAT_B8G8R8A8_UNORM) == 4);
    CHECK(runtime::formats::thumbnail_channels(DXGI_FORMAT_R8G8B8A8_UNORM) == 4);
    const runtime::formats::Thumbnail recorded = copy_of(4, 4, 1, 100);
    runtime::formats::Thumbnail other_x = recorded;
    for (std::size_t i = 3; i < other_x.rgba.size(); i += 4) other_x.rgba[i] = 255;
    CHECK(runtime::formats::image_distance(recorded, other_x, 3, 4, 4).max_difference == 0);
    CHECK(runtime::formats::image_distance(recorded, other_x, 4, 4, 4).max_difference == 155);
}

TEST_CASE("the region past the bound is in texels of the picture, clipped at its edge",
          "[replay][image]") {
    // 1001 texels wide: scale 4, a 251-texel copy whose last column covers
    // texel 1000 alone.
    runtime::formats::Thumbnail recorded = copy_of(251, 2, 4, 100), replayed = recorded;
    set_texel(replayed, 250, 1, 0);
    set_texel(replayed, 248, 1, 0);
    const runtime::formats::ImageDistance d =
        runtime::formats::image_distance(recorded, replayed, 4, 1001, 5);
    CHECK(d.texels_past_bound == 2);
    CHECK(d.past_bound.x == 992);
    CHECK(d.past_bound.y == 4);
    CHECK(d.past_bound.width == 9);
    CHECK(d.past_bound.height == 1);
}

TEST_CASE("copies of pictures within the bound are within it", "[replay][image]") {
    // 1024x8 of a ramp, and the ramp with every channel pushed 2 up or down
    // (as rounding either way could): each 4x4 mean moves at most 2.
    std::vector<std::uint8_t> ramp(1024 * 8 * 4), pushed(ramp.size());
    for (std::size_t i = 0; i < ramp.size(); ++i) {
        ramp[i] = static_cast<std::uint8_t>(2 + (i * 7) % 250);
        pushed[i] = static_cast<std::uint8_t>(i % 3 == 0 ? ramp[i] - 2 : ramp[i] + 2);
    }
    const runtime::formats::ImageDistance d = runtime::formats::image_distance(
        runtime::formats::make_thumbnail(ramp.data(), 1024, 8),
        runtime::formats::make_thumbnail(pushed.data(), 1024, 8), 4, 1024, 8);
    CHECK(d.comparable);
    CHECK(d.scale == 4);
    CHECK(d.max_difference <= 2);
    CHECK(d.within_tolerance());
}

TEST_CASE("thumbnails are box means of scale x scale texels, at most 256 wide", "[replay][image]") {
    // 600x3: scale 3 (600 / 256 rounded up), 200x1 texels; texel x holds x % 256.
    std::vector<std::uint8_t> texels(600 * 3 * 4);
    for (std::size_t i = 0; i < texels.size(); ++i)
        texels[i] = static_cast<std::uint8_t>((i / 4) % 600 % 256);
    const runtime::formats::Thumbnail t = runtime::formats::make_thumbnail(texels.data(), 600, 3);
    CHECK(t.scale == 3);
    CHECK(t.width == 200);
    CHECK(t.height == 1);
    CHECK(t.rgba[0] == 1);        // mean of 0, 1, 2
    CHECK(t.rgba[4 * 85] == 85);  // mean of 255, 0, 1: (256 + 1) / 3
    CHECK(runtime::formats::image_distance(t, t, 4, 600, 3).max_difference == 0);
    CHECK(runtime::formats::image_distance(t, t, 4, 600, 3).within_tolerance());
}

TEST_CASE("spreads and comparisons of reports", "[replay][run]") {
    const replay::Spread s = replay::spread_of({5, 1, 3, 2, 4});
    CHECK(s.min == 1);
    CHECK(s.median == 3);
    CHECK(s.p95 == 5);
    CHECK(s.max == 5);
    const auto report = [](double cpu, double gpu, double marker_ns) {
        return nlohmann::json{{"trace", "t.d3dcap"},
                              {"device", {{"driver", "reference"}, {"adapter", ""}}},
                              {"frames", {{{"frame", 0}, {"cpu_ms", {cpu}}, {"gpu_ms", {gpu}}}}},
                              {"markers",
                               {{{"label", "draw"},
                                 {"data", 1},
                                 {"depth", 0},
                                 {"first_event", 5},
                                 {"cpu_ns", marker_ns},
                                 {"gpu_ns", nullptr}}}}};
    };
    std::ostringstream out;
    std::string error;
    REQUIRE(replay::print_comparison(report(2, 4, 1000), report(1, 8, 3000), out, &error));
    CHECK(out.str().find("    0    2.000    1.000    0.50x    4.000    8.000    2.00x") !=
          std::string::npos);
    CHECK(out.str().find("3.00x") != std::string::npos);
    CHECK_FALSE(replay::print_comparison(nlohmann::json::object(), report(1, 1, 1), out, &error));
    CHECK(error.find("trace") != std::string::npos);
}

namespace {

// 512x512 RGBA8 with 10 mips: the reference device tiles mips 0-2 (4x4, 2x2,
// 1x1 tiles) and packs mips 3-9 into one tile (22 tiles). The "recording
// device" of this trace packed mips 2-9 into two tiles instead.
constexpr D3D11_TEXTURE2D_DESC kPackedDesc{512,
                                           512,
                                           10,
                                           1,
                                           DXGI_FORMAT_R8G8B8A8_UNORM,
                                           {1, 0},
                                           D3D11_USAGE_DEFAULT,
                                           D3D11_BIND_SHADER_RESOURCE,
                                           0,
                                           D3D11_RESOURCE_MISC_TILED};

// The recording device's tiling, as its ResourceTiling record.
void other_device_tiling(Recorder& rec, std::uint64_t id) {
    const fb::D3D11_PACKED_MIP_DESC packed(2, 8, 2, 20);
    const fb::D3D11_TILE_SHAPE shape(128, 128, 1);
    std::vector<fb::D3D11_SUBRESOURCE_TILING> subs{fb::D3D11_SUBRESOURCE_TILING(4, 4, 1, 0),
                                                   fb::D3D11_SUBRESOURCE_TILING(2, 2, 1, 16)};
    for (int mip = 2; mip < 10; ++mip) subs.emplace_back(0, 0, 0, 0xffffffff);
    rec.meta(fb::CreateResourceTilingDirect(rec.b, id, 22, &packed, &shape, &subs));
}

// A trace of a device that packs mips 2-9: mip 0 and the two packed tiles
// mapped (the packed tiles named by their packed coordinates, which this
// device has not), mip 0 written by UpdateTiles and the packed mips by
// UpdateSubresource; the content hashes are those of the same contents on
// the reference device.
std::string packed_mips_trace(testing::TempDir& dir, std::uint64_t* texture_id) {
    Recorder rec(dir.file("packed.d3dcap"));
    DirectDevice direct(rec);
    ID3D11DeviceContext2* context = direct.context.get();
    Com<ID3D11Buffer> pool;
    create_buffer(rec, direct,
                  {32 * 65536, D3D11_USAGE_DEFAULT, 0, 0, D3D11_RESOURCE_MISC_TILE_POOL, 0},
                  nullptr, pool);
    Com<ID3D11Texture2D> texture;
    *texture_id = create_texture(rec, direct, kPackedDesc, {}, {}, texture);
    other_device_tiling(rec, *texture_id);

    // Directly: mip 0 onto pool tiles 0-15, mip 2 and the packed tile onto 20 and 21.
    const D3D11_TILED_RESOURCE_COORDINATE direct_starts[2] = {{0, 0, 0, 0}, {0, 0, 0, 2}};
    const D3D11_TILE_REGION_SIZE direct_sizes[2] = {{16, TRUE, 4, 4, 1}, {2, FALSE, 0, 0, 0}};
    const UINT direct_offsets[2] = {0, 20};
    const UINT direct_counts[2] = {16, 2};
    REQUIRE(context->UpdateTileMappings(texture.get(), 2, direct_starts, direct_sizes, pool.get(),
                                        2, nullptr, direct_offsets, direct_counts, 0) == S_OK);
    // As recorded: mip 0 with the pool first, then (the pool already
    // given, so only the regions' tiles change) packed tile 1 onto pool tile
    // 21 and packed tile 0 onto 20.
    const D3D11_TILED_RESOURCE_COORDINATE mip0_start{0, 0, 0, 0};
    const D3D11_TILE_REGION_SIZE mip0_size{16, TRUE, 4, 4, 1};
    const UINT mip0_offset = 0;
    rec.call(context,
             api::encode_ID3D11DeviceContext2_UpdateTileMappings(
                 rec.b, rec, texture.get(), 1, &mip0_start, &mip0_size, pool.get(), 1, nullptr,
                 &mip0_offset, nullptr, 0),
             S_OK, true);
    const D3D11_TILED_RESOURCE_COORDINATE starts[2] = {{1, 0, 0, 2}, {0, 0, 0, 2}};
    const D3D11_TILE_REGION_SIZE sizes[2] = {{1, FALSE, 0, 0, 0}, {1, FALSE, 0, 0, 0}};
    const UINT offsets[2] = {21, 20};
    const UINT counts[2] = {1, 1};
    rec.call(context,
             api::encode_ID3D11DeviceContext2_UpdateTileMappings(rec.b, rec, texture.get(), 2,
                                                                 starts, sizes, pool.get(), 2,
                                                                 nullptr, offsets, counts, 0),
             S_OK, true);

    const D3D11_TILED_RESOURCE_COORDINATE at{0, 0, 0, 0};
    const D3D11_TILE_REGION_SIZE region{16, FALSE, 0, 0, 0};
    const auto tiles = pattern(16 * 65536, 3, 7);
    context->UpdateTiles(texture.get(), &at, &region, tiles.data(), 0);
    const fb::D3D11_TILED_RESOURCE_COORDINATE at_fb(0, 0, 0, 0);
    const fb::D3D11_TILE_REGION_SIZE region_fb(16, FALSE, 0, 0, 0);
    rec.call(context,
             fb::CreateID3D11DeviceContext2_UpdateTilesDirect(rec.b, *texture_id, &at_fb,
                                                              &region_fb, &tiles, 0),
             std::nullopt, true);
    for (UINT mip = 2; mip < 10; ++mip) {
        const UINT width = 512 >> mip;
        const auto texels = pattern(std::size_t{width} * width * 4, mip, 5);
        context->UpdateSubresource(texture.get(), mip, nullptr, texels.data(), width * 4, 0);
        rec.call(context,
                 api::encode_ID3D11DeviceContext_UpdateSubresource(rec.b, rec, texture.get(), mip,
                                                                   nullptr, texels.data(),
                                                                   width * 4, 0, texels.size()),
                 std::nullopt, true);
    }
    content_hashes(rec, 0, *texture_id, texture.get(), 10);
    rec.close();
    return rec.path();
}

}  // namespace

TEST_CASE("packed mips laid out otherwise by the recording device are remapped, strict refuses",
          "[replay][run][adaptation]") {
    testing::TempDir dir;
    std::uint64_t texture_id = 0;
    const std::string path = packed_mips_trace(dir, &texture_id);

    replay::RunOptions options;
    options.verify = true;
    const replay::RunReport report = run(path, options);
    CHECK(report.mismatches.empty());
    REQUIRE(report.adaptations.size() == 1);
    CHECK(report.adaptations[0].resource == texture_id);
    CHECK(report.adaptations[0].adapted);
    CHECK(report.adaptations[0].what ==
          "packed mips differ (recorded 22 tiles, 2 standard mips, 8 packed mips in 2 tiles per "
          "slice; this device 22 tiles, 3 standard mips, 7 packed mips in 1 tiles per slice): "
          "tiles remapped");
    CHECK(report.hashes_checked == 10);
    CHECK(report.hash_differences.empty());

    options.strict = true;
    options.trace = path;
    const auto strict = replay::run_replay(options);
    REQUIRE_FALSE(strict.ok());
    CHECK(strict.error().message.find("--strict") != std::string::npos);
}

TEST_CASE("a format the replay device supports otherwise is listed as a capability difference",
          "[replay][run]") {
    testing::TempDir dir;
    Recorder rec(dir.file("formats.d3dcap"));
    DirectDevice direct(rec);
    UINT support = 0;
    REQUIRE(direct.device->CheckFormatSupport(DXGI_FORMAT_R8G8B8A8_UNORM, &support) == S_OK);
    // As the same device answered, then as a device without render targets would.
    rec.call(direct.device.get(),
             fb::CreateID3D11Device_CheckFormatSupport(rec.b, DXGI_FORMAT_R8G8B8A8_UNORM, support),
             S_OK);
    const std::uint64_t other = rec.call(
        direct.device.get(),
        fb::CreateID3D11Device_CheckFormatSupport(rec.b, DXGI_FORMAT_R8G8B8A8_UNORM,
                                                  support & ~D3D11_FORMAT_SUPPORT_RENDER_TARGET),
        S_OK);
    rec.close();
    const replay::RunReport report = run(rec.path());
    CHECK(report.adaptations.empty());
    CHECK(report.mismatches.empty());
    REQUIRE(report.capability_differences.size() == 1);
    CHECK(report.capability_differences[0].event == other);
    CHECK(report.capability_differences[0].call == "ID3D11Device::CheckFormatSupport");
    char expected[160];
    std::snprintf(expected, sizeof expected,
                  "DXGI format 28: the recording device's support was 0x%x, this device's is 0x%x",
                  support & ~D3D11_FORMAT_SUPPORT_RENDER_TARGET, support);
    CHECK(report.capability_differences[0].detail == expected);
}
