#include "tiles_command.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <vector>

namespace d3dcap::cli {

namespace {

using runtime::tiles::ObjectId;
using runtime::tiles::TileState;
using state::TileTimeline;

constexpr std::size_t kMaxWarnings = 20;
constexpr std::size_t kLineWidth = 120;  // text grids are cut to this width
constexpr std::size_t kMaxRows = 32;     // taller grids show the rows with mapped tiles

// A pool tile as the output shows it: its index, or -1 for NULL.
std::int64_t cell(const runtime::tiles::TileMapping& mapping) {
    return mapping.pool_tile == runtime::tiles::kNullTile ? -1 : std::int64_t{mapping.pool_tile};
}

std::string label(const TileTimeline& timeline, ObjectId id, std::uint64_t event) {
    const std::optional<std::string> name = timeline.name_at(id, event);
    return std::to_string(id) + (name ? " \"" + *name + "\"" : std::string());
}

nlohmann::ordered_json name_json(const TileTimeline& timeline, ObjectId id, std::uint64_t event) {
    const std::optional<std::string> name = timeline.name_at(id, event);
    return name ? nlohmann::ordered_json(*name) : nlohmann::ordered_json(nullptr);
}

const char* kind_of(const TileTimeline& timeline, ObjectId id) {
    const std::optional<state::ObjectInfo> info = timeline.object(id);
    return info ? state::kind_name(info->kind) : "unknown";
}

// The resources to show: all, or the one --resource names.
struct Selection {
    std::vector<ObjectId> resources;
    std::vector<ObjectId> pools;
};

// A resource's standard subresources and packed tiles, walked once for
// both outputs.
struct Subresource {
    std::uint32_t index = 0, mip = 0, slice = 0;
    std::uint32_t width = 0, height = 0, depth = 0;
    std::vector<std::int64_t> tiles;  // x, then y, then z
};
struct Packed {
    std::uint32_t slice = 0;
    std::vector<std::int64_t> tiles;
};

void walk(const TileState& state, ObjectId id, std::vector<Subresource>& standard,
          std::vector<Packed>& packed) {
    const runtime::tiles::ResourceTiling& tiling = *state.tiling(id);
    const std::vector<runtime::tiles::TileMapping> mappings = state.mappings(id);
    const auto at = [&](std::uint64_t tile) {
        return tile < mappings.size() ? cell(mappings[tile]) : -1;
    };
    for (std::uint32_t s = 0; s < tiling.subresources.size(); ++s) {
        const D3D11_SUBRESOURCE_TILING& sub = tiling.subresources[s];
        if (sub.StartTileIndexInOverallResource == runtime::tiles::kPackedStart) continue;
        Subresource out{s,
                        s % tiling.mip_levels,
                        s / tiling.mip_levels,
                        sub.WidthInTiles,
                        sub.HeightInTiles,
                        sub.DepthInTiles,
                        {}};
        out.tiles.reserve(std::uint64_t{out.width} * out.height * out.depth);
        for (std::uint64_t t = 0; t < std::uint64_t{out.width} * out.height * out.depth; ++t)
            out.tiles.push_back(at(sub.StartTileIndexInOverallResource + t));
        standard.push_back(std::move(out));
    }
    if (tiling.packed.NumPackedMips == 0) return;
    for (std::uint32_t slice = 0; slice < tiling.array_size; ++slice) {
        Packed out{slice, {}};
        const std::uint64_t start = tiling.packed_start(slice);
        for (std::uint32_t t = 0; t < tiling.packed.NumTilesForPackedMips; ++t)
            out.tiles.push_back(at(start + t));
        packed.push_back(std::move(out));
    }
}

nlohmann::ordered_json to_json(const TileTimeline& timeline, const TileState& state,
                               const Selection& selection, std::uint64_t event) {
    nlohmann::ordered_json root;
    root["event"] = event;
    root["pools"] = nlohmann::ordered_json::array();
    for (const ObjectId pool : selection.pools) {
        root["pools"].push_back(
            {{"id", pool},
             {"name", name_json(timeline, pool, event)},
             {"size_bytes", state.pool_tiles(pool) * runtime::tiles::kTileBytes}});
    }
    root["resources"] = nlohmann::ordered_json::array();
    for (const ObjectId id : selection.resources) {
        const runtime::tiles::ResourceTiling& tiling = *state.tiling(id);
        std::vector<Subresource> standard;
        std::vector<Packed> packed;
        walk(state, id, standard, packed);
        nlohmann::ordered_json resource;
        resource["id"] = id;
        resource["name"] = name_json(timeline, id, event);
        resource["kind"] = kind_of(timeline, id);
        const ObjectId pool = state.pool_of(id);
        resource["pool"] = pool != 0 ? nlohmann::ordered_json(pool) : nullptr;
        resource["tiling"] = {{"total_tiles", tiling.total_tiles},
                              {"standard_mips", tiling.packed.NumStandardMips},
                              {"packed_mips", tiling.packed.NumPackedMips},
                              {"packed_tiles", tiling.packed.NumTilesForPackedMips},
                              {"packed_start", tiling.packed.StartTileIndexInOverallResource}};
        resource["subresources"] = nlohmann::ordered_json::array();
        for (const Subresource& sub : standard) {
            resource["subresources"].push_back({{"index", sub.index},
                                                {"mip", sub.mip},
                                                {"slice", sub.slice},
                                                {"width_tiles", sub.width},
                                                {"height_tiles", sub.height},
                                                {"depth_tiles", sub.depth},
                                                {"tiles", sub.tiles}});
        }
        resource["packed"] = nlohmann::ordered_json::array();
        for (const Packed& slice : packed)
            resource["packed"].push_back({{"slice", slice.slice}, {"tiles", slice.tiles}});
        root["resources"].push_back(std::move(resource));
    }
    return root;
}

std::string padded(const std::string& text, std::size_t width) {
    return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

std::string counted(std::uint64_t count, const char* noun) {
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string cell_text(std::int64_t value) {
    return value < 0 ? "." : std::to_string(value);
}

// One grid per depth slice: a row per y, a column per x. A grid that does
// not fit (wider than a line or taller than kMaxRows) shows the box around
// its mapped tiles, cut to the line width, and says what it shows.
void print_grid(std::ostream& out, const Subresource& sub) {
    std::size_t mapped = 0;
    std::uint32_t x0 = sub.width, x1 = 0, y0 = sub.height, y1 = 0, z0 = sub.depth, z1 = 0;
    std::size_t cell_width = std::to_string(sub.width - 1).size();
    for (std::uint32_t z = 0; z < sub.depth; ++z) {
        for (std::uint32_t y = 0; y < sub.height; ++y) {
            for (std::uint32_t x = 0; x < sub.width; ++x) {
                const std::int64_t t = sub.tiles[(std::size_t{z} * sub.height + y) * sub.width + x];
                if (t < 0) continue;
                ++mapped;
                x0 = std::min(x0, x), x1 = std::max(x1, x);
                y0 = std::min(y0, y), y1 = std::max(y1, y);
                z0 = std::min(z0, z), z1 = std::max(z1, z);
                cell_width = std::max(cell_width, cell_text(t).size());
            }
        }
    }
    out << "  subresource " << sub.index << " (mip " << sub.mip << ", slice " << sub.slice
        << "): " << sub.width << "x" << sub.height << "x" << sub.depth << " tiles, ";
    if (mapped == 0) {
        out << "all NULL\n";
        return;
    }
    out << mapped << " mapped";
    ++cell_width;
    const std::size_t row_label = std::to_string(sub.height - 1).size() + 7;  // "    y N "
    const std::size_t fit = std::max<std::size_t>(1, (kLineWidth - row_label) / cell_width);
    if (sub.width <= fit && sub.height <= kMaxRows) {
        x0 = y0 = z0 = 0;
        x1 = sub.width - 1, y1 = sub.height - 1, z1 = sub.depth - 1;
    } else {
        const std::uint32_t last = x1;
        x1 = static_cast<std::uint32_t>(std::min<std::size_t>(x1, x0 + fit - 1));
        out << "; rows " << y0 << "-" << y1 << ", columns " << x0 << "-" << x1;
        if (sub.depth > 1) out << ", depth " << z0 << "-" << z1;
        if (x1 < last) {
            out << " shown (mapped tiles reach column " << last << "; --json has all)";
        } else {
            out << " shown, the other tiles are NULL";
        }
    }
    out << '\n';
    for (std::uint32_t z = z0; z <= z1; ++z) {
        if (sub.depth > 1) out << "   z " << z << ":\n";
        out << std::string(row_label - 1, ' ');
        for (std::uint32_t x = x0; x <= x1; ++x) out << padded(std::to_string(x), cell_width);
        out << '\n';
        for (std::uint32_t y = y0; y <= y1; ++y) {
            out << padded("y " + std::to_string(y), row_label - 1);
            const std::size_t row = (std::size_t{z} * sub.height + y) * sub.width;
            for (std::uint32_t x = x0; x <= x1; ++x)
                out << padded(cell_text(sub.tiles[row + x]), cell_width);
            out << '\n';
        }
    }
}

void print_text(std::ostream& out, const TileTimeline& timeline, const TileState& state,
                const Selection& selection, std::uint64_t event) {
    out << timeline.path() << " after event " << event << " (of " << timeline.event_count()
        << " events)\n";
    if (selection.pools.empty() && selection.resources.empty())
        out << "no tile pools or tiled resources\n";
    for (const ObjectId pool : selection.pools) {
        out << "pool " << label(timeline, pool, event) << ": "
            << state.pool_tiles(pool) * runtime::tiles::kTileBytes << " bytes, "
            << state.pool_tiles(pool) << " tiles\n";
    }
    for (const ObjectId id : selection.resources) {
        const runtime::tiles::ResourceTiling& tiling = *state.tiling(id);
        const ObjectId pool = state.pool_of(id);
        out << "resource " << label(timeline, id, event) << ": " << kind_of(timeline, id) << ", "
            << (pool != 0 ? "pool " + std::to_string(pool) : std::string("no pool")) << ", "
            << counted(tiling.total_tiles, "tile") << " ("
            << counted(tiling.packed.NumStandardMips, "standard mip");
        if (tiling.packed.NumPackedMips != 0) {
            out << ", " << counted(tiling.packed.NumPackedMips, "packed mip") << " in "
                << counted(tiling.packed.NumTilesForPackedMips, "tile") << " per slice from tile "
                << tiling.packed.StartTileIndexInOverallResource;
        }
        out << ")\n";
        std::vector<Subresource> standard;
        std::vector<Packed> packed;
        walk(state, id, standard, packed);
        for (const Subresource& sub : standard) print_grid(out, sub);
        for (const Packed& slice : packed) {
            out << "  packed mips of slice " << slice.slice << ":";
            for (const std::int64_t t : slice.tiles) out << ' ' << cell_text(t);
            out << '\n';
        }
    }
}

bool all_digits(const std::string& text) {
    return !text.empty() && text.size() <= 19 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The resource --resource names (an id, else a debug name at the event);
// an error message when there is none or more than one.
std::optional<ObjectId> find_resource(const TileTimeline& timeline, const TileState& state,
                                      const std::string& wanted, std::uint64_t event,
                                      std::string& problem) {
    if (all_digits(wanted) && state.is_tiled_resource(std::stoull(wanted)))
        return std::stoull(wanted);
    std::vector<ObjectId> matches;
    for (const ObjectId id : timeline.named(wanted, event))
        if (state.is_tiled_resource(id)) matches.push_back(id);
    if (matches.size() == 1) return matches.front();
    if (matches.size() > 1) {
        problem = std::to_string(matches.size()) + " tiled resources are named '" + wanted +
                  "' after event " + std::to_string(event) + " (ids";
        for (const ObjectId id : matches) problem += " " + std::to_string(id);
        problem += "); name one by its id";
        return std::nullopt;
    }
    problem = "no tiled resource '" + wanted + "' after event " + std::to_string(event) + " of " +
              timeline.path() + " (it has ";
    const std::vector<ObjectId> all = state.tiled_resources();
    if (all.empty()) problem += "none";
    for (std::size_t i = 0; i < all.size(); ++i)
        problem += (i ? ", " : "") + label(timeline, all[i], event);
    problem += ")";
    return std::nullopt;
}

}  // namespace

int run_tiles(const TilesOptions& options, std::ostream& out, std::ostream& err) {
    state::TimelineOptions timeline_options;
    timeline_options.checkpoint_interval = options.checkpoint_interval;
    auto opened = TileTimeline::open(options.trace, timeline_options);
    if (!opened) {
        err << "d3dcap tiles: " << opened.error().to_string() << '\n';
        return 1;
    }
    TileTimeline& timeline = *opened.value();
    if (options.event >= timeline.event_count()) {
        err << "d3dcap tiles: event " << options.event << " is past the end of " << options.trace
            << ": the trace has " << timeline.event_count() << " events";
        if (timeline.event_count() != 0) err << " (0.." << timeline.event_count() - 1 << ")";
        err << '\n';
        return 2;
    }
    trace::Result<TileState> state = timeline.state_at(options.event);
    if (!state) {
        err << "d3dcap tiles: " << state.error().to_string() << '\n';
        return 1;
    }
    const std::vector<state::Note> notes = timeline.notes_until(options.event);
    for (std::size_t i = 0; i < notes.size() && i < kMaxWarnings; ++i) {
        err << "d3dcap tiles: warning: event " << notes[i].event << ": " << notes[i].call << ": "
            << notes[i].message << '\n';
    }
    if (notes.size() > kMaxWarnings)
        err << "d3dcap tiles: warning: " << notes.size() - kMaxWarnings << " more warnings\n";

    Selection selection;
    if (options.resource) {
        std::string problem;
        const std::optional<ObjectId> id =
            find_resource(timeline, *state, *options.resource, options.event, problem);
        if (!id) {
            err << "d3dcap tiles: " << problem << '\n';
            return 2;
        }
        selection.resources = {*id};
        if (state->pool_of(*id) != 0) selection.pools = {state->pool_of(*id)};
    } else {
        selection.resources = state->tiled_resources();
        // Pools the application released stay while a resource maps them.
        std::set<ObjectId> pools;
        for (const ObjectId pool : state->pools()) pools.insert(pool);
        for (const ObjectId id : selection.resources)
            if (state->pool_of(id) != 0) pools.insert(state->pool_of(id));
        selection.pools.assign(pools.begin(), pools.end());
    }
    if (options.json) {
        out << to_json(timeline, *state, selection, options.event).dump() << '\n';
    } else {
        print_text(out, timeline, *state, selection, options.event);
    }
    return out.good() ? 0 : 1;
}

}  // namespace d3dcap::cli
