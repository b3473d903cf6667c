// Traces are untrusted: tile calls whose arrays are missing or shorter than
// their counts, records without their parameters, absurd sizes and tilings.
// Each is skipped with a note; nothing large is allocated; the calls around
// them still count.
#include "replay/state/timeline_support.h"
#include "runtime/tiles/tiling_fixtures.h"

using namespace timeline_tests;

namespace {

constexpr std::uint64_t kPool = 100, kTexture = 10, kHuge = 20, kClaimed = 21, kOddTiling = 30,
                        kLarge = 40;
constexpr const char* kUpdate = "ID3D11DeviceContext2::UpdateTileMappings";

// A record of a call with no parameter table.
std::uint64_t bare_call(TraceBuilder& t, api::CallId call) {
    const fb::RecordHeader header(0, kContext, kContext, 0, 1, static_cast<std::uint16_t>(call),
                                  static_cast<std::uint16_t>(fb::RecordFlags::ResultIsHresult));
    fb::RecordBuilder record(t.b);
    record.add_header(&header);
    t.b.FinishSizePrefixed(record.Finish());
    return t.submit_built();
}

struct HostileTrace {
    std::uint64_t short_starts = 0, short_counts = 0, bare = 0, absurd_ranges = 0, bare_copy = 0;
    std::uint64_t huge = 0, claimed = 0, claimed_use = 0, odd_tiling = 0, big_pool = 0,
                  far_tile = 0, large_map = 0, failed = 0, last = 0;
};

HostileTrace write_hostile(TraceBuilder& t) {
    HostileTrace e;
    t.create_pool(kPool, 8);
    t.create_texture(kTexture, 512, 512, 1, 1, tile_tests::flat_texture(4, 4));

    std::vector<fb::D3D11_TILED_RESOURCE_COORDINATE> one_start{{0, 0, 0, 0}};
    std::vector<std::uint32_t> offsets{1};
    e.short_starts = t.on(kContext, fb::CreateID3D11DeviceContext2_UpdateTileMappingsDirect(
                                        t.b, kTexture, 3, &one_start, nullptr, kPool, 1, nullptr,
                                        &offsets, nullptr, 0));
    std::vector<std::uint32_t> two_counts{1, 1};
    e.short_counts = t.on(kContext, fb::CreateID3D11DeviceContext2_UpdateTileMappingsDirect(
                                        t.b, kTexture, 1, nullptr, nullptr, kPool, 5, nullptr,
                                        nullptr, &two_counts, 0));
    e.bare = bare_call(t, api::CallId::ID3D11DeviceContext2_UpdateTileMappings);
    e.absurd_ranges = t.on(kContext, fb::CreateID3D11DeviceContext2_UpdateTileMappingsDirect(
                                         t.b, kTexture, 1, nullptr, nullptr, kPool, 0xffffffff,
                                         nullptr, nullptr, nullptr, 0));
    e.bare_copy = t.on(kContext, fb::CreateID3D11DeviceContext2_CopyTileMappings(
                                     t.b, kTexture, nullptr, kTexture, nullptr, nullptr, 0));

    // 16384x16384 128-bit texels in 2048 slices: 2^27 tiles of mappings.
    e.huge = t.create_texture(kHuge, 16384, 16384, 1, 2048, std::nullopt, S_OK,
                              DXGI_FORMAT_R32G32B32A32_FLOAT);
    // A recorded tiling of 2^32 - 1 tiles.
    runtime::tiles::ResourceTiling claimed = tile_tests::flat_texture(2, 2);
    claimed.total_tiles = 0xffffffff;
    e.claimed = t.create_texture(kClaimed, 256, 256, 1, 1, claimed);
    const UINT zero = 0;
    e.claimed_use =
        t.update(kContext, kClaimed, 1, nullptr, nullptr, kPool, 1, nullptr, &zero, nullptr);

    // A tiling that numbers 2 subresources for a 1-mip texture.
    runtime::tiles::ResourceTiling odd = tile_tests::flat_texture(2, 2);
    odd.subresources.push_back(odd.subresources.front());
    e.odd_tiling = t.create_texture(kOddTiling, 256, 256, 1, 1, odd);

    // A 2^40-byte pool is a size, not an allocation.
    e.big_pool = t.resize(kContext, kPool, std::uint64_t{1} << 40);
    const D3D11_TILED_RESOURCE_COORDINATE origin{0, 0, 0, 0};
    const D3D11_TILE_REGION_SIZE one{1, FALSE, 0, 0, 0};
    const UINT far = (1u << 24) - 1;
    e.far_tile = t.update(kContext, kTexture, 1, &origin, &one, kPool, 1, nullptr, &far, nullptr);

    // The largest 2D texture with every mip, tiled as the reference device does.
    t.create_texture(kLarge, 16384, 16384, 0, 1, std::nullopt);
    const D3D11_TILED_RESOURCE_COORDINATE apart[2] = {{5, 0, 0, 0}, {100, 3, 0, 0}};
    const UINT two_offsets[2] = {2, 6};
    e.large_map =
        t.update(kContext, kLarge, 2, apart, nullptr, kPool, 2, nullptr, two_offsets, nullptr);

    e.failed = t.create_pool(50, 4, E_INVALIDARG);
    const D3D11_TILED_RESOURCE_COORDINATE last{3, 3, 0, 0};
    const UINT three = 3;
    e.last = t.update(kContext, kTexture, 1, &last, &one, kPool, 1, nullptr, &three, nullptr);
    return e;
}

}  // namespace

TEST_CASE("damaged tile calls and absurd sizes are notes, not crashes", "[state][hostile]") {
    d3dcap::testing::TempDir dir;
    TraceBuilder t(dir.file("hostile.d3dcap"));
    const HostileTrace e = write_hostile(t);
    const std::uint64_t events = t.close();
    auto timeline = open_timeline(dir.file("hostile.d3dcap"));
    const runtime::tiles::TileState state = state_at(*timeline, events - 1);

    std::vector<runtime::tiles::TileMapping> mappings = state.mappings(kTexture);
    REQUIRE(mappings.size() == 16);
    CHECK(mappings[0].pool_tile == (1u << 24) - 1);
    CHECK(mappings[15].pool_tile == 3);
    for (std::size_t i = 1; i < 15; ++i) CHECK(mappings[i].pool_tile == runtime::tiles::kNullTile);
    CHECK(state.pool_tiles(kPool) == std::uint64_t{1} << 24);
    CHECK_FALSE(state.is_tiled_resource(kHuge));
    CHECK_FALSE(state.is_tiled_resource(kClaimed));
    CHECK(state.tiling(kOddTiling)->total_tiles == 4);
    CHECK(state.tiling(kLarge)->total_tiles == 21846);
    CHECK_FALSE(state.is_pool(50));
    CHECK(state.storage_bytes() < 256 * 1024);

    const std::vector<state::Note> notes = timeline->notes_until(events - 1);
    const std::vector<state::Note> expected = {
        {e.short_starts, kUpdate,
         "pTiledResourceRegionStartCoordinates holds 1 values but NumTiledResourceRegions is 3; "
         "the call is skipped"},
        {e.short_counts, kUpdate,
         "pRangeTileCounts holds 2 values but NumRanges is 5; the call is skipped"},
        {e.bare, kUpdate, "the record has no parameters; skipped"},
        {e.absurd_ranges, kUpdate,
         "NumRanges 4294967295 with no range arrays is absurd; the call is skipped"},
        {e.bare_copy, "ID3D11DeviceContext2::CopyTileMappings",
         "the record lacks a parameter; skipped"},
        {e.huge, "ID3D11Device::CreateTexture2D",
         "object 20 has 134217728 tiles, more than the 16777216 a resource may have here; it is "
         "left out"},
        {e.claimed, "ID3D11Device::CreateTexture2D",
         "object 21 has 4294967295 tiles, more than the 16777216 a resource may have here; it is "
         "left out"},
        {e.claimed_use, kUpdate, "pTiledResource: object 21 is not a tiled resource"},
        {e.odd_tiling, "ID3D11Device::CreateTexture2D",
         "the capturing device's tiling of object 30 is refused (tiling: 2 subresource tilings "
         "for 1 mips x 1 slices); using the reference tiling"},
    };
    std::string listed;
    for (const state::Note& note : notes)
        listed += std::to_string(note.event) + " " + note.call + ": " + note.message + "\n";
    INFO(listed);
    REQUIRE(notes.size() == expected.size());
    for (std::size_t i = 0; i < notes.size(); ++i) {
        INFO("note " << i);
        CHECK(notes[i].event == expected[i].event);
        CHECK(notes[i].call == expected[i].call);
        CHECK(notes[i].message == expected[i].message);
    }

    // The command says so on stderr, and still prints the map.
    cli::TilesOptions options;
    options.trace = dir.file("hostile.d3dcap");
    options.event = e.bare;
    options.resource = "10";
    const CommandResult result = run_tiles(options);
    CHECK(result.exit == 0);
    CHECK(result.err ==
          "d3dcap tiles: warning: event " + std::to_string(e.short_starts) +
              ": ID3D11DeviceContext2::UpdateTileMappings: pTiledResourceRegionStartCoordinates "
              "holds 1 values but NumTiledResourceRegions is 3; the call is skipped\n"
              "d3dcap tiles: warning: event " +
              std::to_string(e.short_counts) +
              ": ID3D11DeviceContext2::UpdateTileMappings: pRangeTileCounts holds 2 values but "
              "NumRanges is 5; the call is skipped\n"
              "d3dcap tiles: warning: event " +
              std::to_string(e.bare) +
              ": ID3D11DeviceContext2::UpdateTileMappings: the record has no parameters; "
              "skipped\n");
    CHECK_THAT(result.out, Catch::Contains("4x4x1 tiles, all NULL\n"));

    // A grid that does not fit shows the box around its mapped tiles, cut
    // to the line width, saying so.
    options.event = e.large_map;
    options.resource = "40";
    const CommandResult large = run_tiles(options);
    CHECK(large.exit == 0);
    CHECK_THAT(large.out,
               Catch::Contains("resource 40: texture2d, pool 100, 21846 tiles (8 standard mips, 7 "
                               "packed mips in 1 tile per slice from tile 21845)\n"
                               "  subresource 0 (mip 0, slice 0): 128x128x1 tiles, 2 mapped; rows "
                               "0-3, columns 5-31 shown (mapped tiles reach column 100; --json "
                               "has all)\n"
                               "            5   6   7"));
    CHECK_THAT(large.out, Catch::Contains("\n      y 0   2   .   .   ."));
    CHECK_THAT(large.out, Catch::Contains("\n      y 3   .   .   ."));
    CHECK_THAT(large.out, Catch::Contains("  subresource 1 (mip 1, slice 0): 64x64x1 tiles, all "
                                          "NULL\n"));
    CHECK_THAT(large.out, Catch::Contains("  packed mips of slice 0: .\n"));
}
