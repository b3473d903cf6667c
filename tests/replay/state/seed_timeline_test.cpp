// The four worked UpdateTileMappings examples of the API reference, recorded
// in a trace as the capture layer writes one, and read back from the tile
// timeline at each event against the hand-written tables.
#include <nlohmann/json.hpp>

#include "format/trace/reader.h"
#include "replay/state/seed_trace.h"
#include "replay/state/timeline_support.h"
#include "runtime/tiles/worked_examples.h"

using namespace timeline_tests;
using namespace worked_examples;

namespace {

std::vector<std::uint32_t> all_null(std::size_t tiles) {
    return std::vector<std::uint32_t>(tiles, N);
}

}  // namespace

TEST_CASE("the timeline gives each API reference example's table at its event",
          "[state][reference-example]") {
    d3dcap::testing::TempDir dir;
    const SeedTrace e = write_seed_trace(dir.file("seed.d3dcap"));
    // No checkpoint but event 0, checkpoints every 3 events, and none at all.
    for (const std::uint64_t interval : {65536, 3, 0}) {
        INFO("checkpoint interval " << interval);
        auto timeline = open_timeline(dir.file("seed.d3dcap"), interval);
        REQUIRE(timeline->event_count() == e.events);
        // Out of order, so that queries start from checkpoints and the frontier.
        const auto mixed = state_at(*timeline, e.mixed);
        CHECK(pool_tiles(mixed, kMixed) == mixed_expected());
        CHECK(pool_tiles(mixed, kClear) == kClearCleared);
        CHECK(pool_tiles(mixed, kBox) == kBoxExpected);
        CHECK(pool_tiles(mixed, kScattered) == kScatteredExpected);
        CHECK(mixed.pool_of(kMixed) == kPool);

        CHECK(pool_tiles(state_at(*timeline, e.clear_mapped), kClear) == kClearMapped);
        CHECK(pool_tiles(state_at(*timeline, e.clear_cleared), kClear) == kClearCleared);
        CHECK(state_at(*timeline, e.clear_cleared).pool_of(kClear) == kPool);
        CHECK(pool_tiles(state_at(*timeline, e.box - 1), kBox) == all_null(20));
        CHECK_FALSE(state_at(*timeline, e.box_created - 1).is_tiled_resource(kBox));
        CHECK(pool_tiles(state_at(*timeline, e.box), kBox) == kBoxExpected);
        CHECK(pool_tiles(state_at(*timeline, e.scattered), kScattered) == kScatteredExpected);
        CHECK(pool_tiles(state_at(*timeline, e.mixed_filled), kMixed) ==
              std::vector<std::uint32_t>(kMixedWidth * kMixedHeight, F));
        CHECK(pool_tiles(state_at(*timeline, e.mixed - 1), kMixed) ==
              std::vector<std::uint32_t>(kMixedWidth * kMixedHeight, F));
        CHECK(pool_tiles(state_at(*timeline, e.events - 1), kMixed) == mixed_expected());

        CHECK(timeline->notes_until(e.events - 1).empty());
        CHECK(timeline->name_at(kMixed, e.events - 1) == std::optional<std::string>("mixed"));
        CHECK(timeline->name_at(kMixed, e.mixed_filled - 3) == std::nullopt);
        REQUIRE(timeline->object(kBox).has_value());
        CHECK(timeline->object(kBox)->kind == d3dcap::state::ObjectKind::Texture2D);
        CHECK(timeline->object(kBox)->created_event == e.box_created);
        CHECK(timeline->object(kPool)->pool);
    }
}

TEST_CASE("d3dcap tiles --json has the 22-tile example's table", "[state][cli]") {
    d3dcap::testing::TempDir dir;
    const SeedTrace e = write_seed_trace(dir.file("seed.d3dcap"));
    cli::TilesOptions options;
    options.trace = dir.file("seed.d3dcap");
    options.event = e.mixed;
    options.resource = "mixed";
    options.json = true;
    const CommandResult result = run_tiles(options);
    INFO(result.err);
    REQUIRE(result.exit == 0);
    CHECK(result.err.empty());
    const auto json = nlohmann::json::parse(result.out);
    CHECK(json["event"] == e.mixed);
    REQUIRE(json["pools"].size() == 1);
    CHECK(json["pools"][0] ==
          nlohmann::json{{"id", kPool}, {"name", "seed pool"}, {"size_bytes", 32 * 65536}});
    REQUIRE(json["resources"].size() == 1);
    const auto& resource = json["resources"][0];
    CHECK(resource["id"] == kMixed);
    CHECK(resource["name"] == "mixed");
    CHECK(resource["kind"] == "texture2d");
    CHECK(resource["pool"] == kPool);
    CHECK(resource["tiling"] == nlohmann::json{{"total_tiles", 837},
                                               {"standard_mips", 1},
                                               {"packed_mips", 0},
                                               {"packed_tiles", 0},
                                               {"packed_start", 0}});
    CHECK(resource["packed"] == nlohmann::json::array());
    REQUIRE(resource["subresources"].size() == 1);
    const auto& sub = resource["subresources"][0];
    CHECK(sub["index"] == 0);
    CHECK(sub["mip"] == 0);
    CHECK(sub["slice"] == 0);
    CHECK(sub["width_tiles"] == kMixedWidth);
    CHECK(sub["height_tiles"] == kMixedHeight);
    CHECK(sub["depth_tiles"] == 1);
    std::vector<std::int64_t> expected;
    for (const std::uint32_t tile : mixed_expected())
        expected.push_back(tile == N ? -1 : std::int64_t{tile});
    CHECK(sub["tiles"].get<std::vector<std::int64_t>>() == expected);
}

TEST_CASE("d3dcap tiles --json lists packed tiles and every resource", "[state][cli]") {
    d3dcap::testing::TempDir dir;
    const SeedTrace e = write_seed_trace(dir.file("seed.d3dcap"));
    cli::TilesOptions options;
    options.trace = dir.file("seed.d3dcap");
    options.event = e.clear_mapped;
    options.json = true;
    const CommandResult result = run_tiles(options);
    REQUIRE(result.exit == 0);
    const auto json = nlohmann::json::parse(result.out);
    REQUIRE(json["resources"].size() == 1);  // the others come later
    const auto& clear = json["resources"][0];
    CHECK(clear["id"] == kClear);
    CHECK(clear["name"] == nullptr);
    CHECK(clear["tiling"] == nlohmann::json{{"total_tiles", 9},
                                            {"standard_mips", 2},
                                            {"packed_mips", 2},
                                            {"packed_tiles", 1},
                                            {"packed_start", 8}});
    REQUIRE(clear["subresources"].size() == 2);
    CHECK(clear["subresources"][0]["tiles"] == nlohmann::json{20, 21, 22, 23, 24, 25});
    CHECK(clear["subresources"][1]["mip"] == 1);
    CHECK(clear["subresources"][1]["width_tiles"] == 2);
    CHECK(clear["subresources"][1]["tiles"] == nlohmann::json{26, 27});
    CHECK(clear["packed"] == nlohmann::json{{{"slice", 0}, {"tiles", {28}}}});
}

TEST_CASE("d3dcap tiles prints a text map per subresource", "[state][cli]") {
    d3dcap::testing::TempDir dir;
    const SeedTrace e = write_seed_trace(dir.file("seed.d3dcap"));
    cli::TilesOptions options;
    options.trace = dir.file("seed.d3dcap");
    options.event = e.box;
    options.resource = "12";
    const CommandResult result = run_tiles(options);
    REQUIRE(result.exit == 0);
    CHECK(result.out == dir.file("seed.d3dcap") + " after event " + std::to_string(e.box) +
                            " (of " + std::to_string(e.events) +
                            " events)\n"
                            "pool 100 \"seed pool\": 2097152 bytes, 32 tiles\n"
                            "resource 12 \"box\": texture2d, pool 100, 20 tiles (1 standard mip)\n"
                            "  subresource 0 (mip 0, slice 0): 4x5x1 tiles, 6 mapped\n"
                            "         0  1  2  3\n"
                            "    y 0  .  .  .  .\n"
                            "    y 1  . 12 12  .\n"
                            "    y 2  . 12 12  .\n"
                            "    y 3  . 12 12  .\n"
                            "    y 4  .  .  .  .\n");

    // Rows are labelled; 27 columns fit in the line width.
    options.event = e.mixed;
    options.resource = "mixed";
    const CommandResult wide = run_tiles(options);
    REQUIRE(wide.exit == 0);
    CHECK_THAT(wide.out, Catch::Contains("27x31x1 tiles, 835 mapped\n"));
    CHECK_THAT(wide.out, Catch::Contains("\n     y 9  5  5  5  5  . 17 17  5  5"));
    CHECK_THAT(wide.out, Catch::Contains("  5 17 17 17  2  9  4 17\n"));
}

TEST_CASE("d3dcap tiles names what it cannot show", "[state][cli]") {
    d3dcap::testing::TempDir dir;
    const SeedTrace e = write_seed_trace(dir.file("seed.d3dcap"));
    cli::TilesOptions options;
    options.trace = dir.file("seed.d3dcap");
    options.event = e.box;
    options.resource = "mixed";  // named only later
    const CommandResult unknown = run_tiles(options);
    CHECK(unknown.exit == 2);
    CHECK(unknown.out.empty());
    CHECK(unknown.err == "d3dcap tiles: no tiled resource 'mixed' after event " +
                             std::to_string(e.box) + " of " + dir.file("seed.d3dcap") +
                             " (it has 11, 12 \"box\")\n");

    options.resource.reset();
    options.event = e.events;
    const CommandResult past = run_tiles(options);
    CHECK(past.exit == 2);
    CHECK(past.err == "d3dcap tiles: event " + std::to_string(e.events) + " is past the end of " +
                          dir.file("seed.d3dcap") + ": the trace has " + std::to_string(e.events) +
                          " events (0.." + std::to_string(e.events - 1) + ")\n");

    // A damaged chunk: the reader's error, with the chunk and its offset.
    auto reader = trace::TraceReader::open(dir.file("seed.d3dcap"));
    REQUIRE(reader.ok());
    const std::uint64_t chunk_offset = reader.value()->index().chunks()->Get(0)->offset();
    reader.value().reset();
    std::vector<std::uint8_t> bytes = d3dcap::testing::read_file(dir.file("seed.d3dcap"));
    bytes[chunk_offset + 100] ^= 0x55;
    d3dcap::testing::write_file(dir.file("damaged.d3dcap"), bytes);
    options.trace = dir.file("damaged.d3dcap");
    options.event = 3;
    const CommandResult damaged = run_tiles(options);
    CHECK(damaged.exit == 1);
    CHECK(damaged.out.empty());
    CHECK(damaged.err == "d3dcap tiles: " + dir.file("damaged.d3dcap") + ": chunk 0 (offset " +
                             std::to_string(chunk_offset) + "): bad checksum\n");

    options.trace = dir.file("missing.d3dcap");
    const CommandResult missing = run_tiles(options);
    CHECK(missing.exit == 1);
    CHECK(missing.err == "d3dcap tiles: " + dir.file("missing.d3dcap") +
                             ": cannot open: No such file or directory\n");
}
