#include "viewer/tile_map/tile_history.h"

#include <d3dcap/api/call_dispatch.h>
#include <d3dcap/fb/trace_generated.h>

#include <algorithm>
#include <iterator>

namespace d3dcap::viewer {

namespace {

using api::CallId;
using api::CallOf;

constexpr std::uint64_t kProgressEvery = 4096;  // events between progress calls

}  // namespace

TileHistory::TileHistory(std::unique_ptr<trace::TraceReader> reader) : reader_(std::move(reader)) {}

void TileHistory::follow(std::uint64_t resource) {
    if (resource == resource_) return;
    *this = TileHistory(std::move(reader_));
    resource_ = resource;
}

trace::Status TileHistory::note_writes(state::TileTimeline& timeline, const fb::Record& record,
                                       const state::Progress& progress) {
    if (!writes_seen_.follow(record)) return trace::ok_status();
    auto state = timeline.state_at(next_, progress);
    if (!state) return state.error();
    for (const state::TileWrite& write : writes_seen_.tiles_written(record, state.value())) {
        for (const std::uint32_t tile : write.tiles) {
            const runtime::tiles::TileMapping m = state.value().mapping(write.resource, tile);
            if (m.pool == 0 || m.pool_tile == runtime::tiles::kNullTile) continue;  // dropped
            std::vector<std::uint64_t>& events = writes_[{m.pool, m.pool_tile}];
            if (events.empty() || events.back() != next_) events.push_back(next_);
        }
    }
    return trace::ok_status();
}

// Every record the tile timeline applies to a pool or to the followed
// resource; a few more (a creation of anything, a command list run) cost
// only a diff that finds nothing.
bool TileHistory::may_change_tiles(const fb::Record& record) const {
    switch (static_cast<CallId>(record.header()->call())) {
        case CallId::None:
            return record.meta_type() == fb::Meta::ObjectDestroyed ||
                   record.meta_type() == fb::Meta::ResourceTiling ||
                   record.meta_type() == fb::Meta::StateSnapshot;
        case CallId::ID3D11Device_CreateBuffer:
        case CallId::ID3D11Device_CreateTexture2D:
        case CallId::ID3D11Device_CreateTexture3D:
        case CallId::ID3D11DeviceContext2_ResizeTilePool:
        case CallId::ID3D11DeviceContext_ExecuteCommandList:
            return true;
        case CallId::ID3D11DeviceContext2_UpdateTileMappings: {
            const auto* p = CallOf<fb::ID3D11DeviceContext2_UpdateTileMappings>::get(record);
            return p != nullptr && p->p_tiled_resource() == resource_;
        }
        case CallId::ID3D11DeviceContext2_CopyTileMappings: {
            const auto* p = CallOf<fb::ID3D11DeviceContext2_CopyTileMappings>::get(record);
            return p != nullptr && p->p_dest_tiled_resource() == resource_;
        }
        default:
            return false;
    }
}

trace::Status TileHistory::scan_to(state::TileTimeline& timeline, std::uint64_t event,
                                   const state::Progress& progress) {
    for (; next_ <= event; ++next_) {
        if (next_ % kProgressEvery == 0 && progress && !progress(next_, event))
            return trace::TraceError{reader_->path(), "cancelled", -1,
                                     static_cast<std::int64_t>(next_), -1};
        auto record = reader_->record(next_);
        if (!record) return record.error();
        if (trace::Status noted = note_writes(timeline, *record.value(), progress); !noted)
            return noted;
        if (!may_change_tiles(*record.value())) continue;
        auto state = timeline.state_at(next_, progress);
        if (!state) return state.error();
        compare(state.value(), next_);
    }
    return trace::ok_status();
}

void TileHistory::compare(const runtime::tiles::TileState& state, std::uint64_t event) {
    if (resource_ != 0) {
        std::vector<runtime::tiles::TileMapping> now = state.mappings(resource_);
        // Tiles past the end of the shorter list compare with NULL.
        const std::size_t common = std::min(now.size(), mappings_.size());
        const runtime::tiles::TileMapping* a = mappings_.data();
        const runtime::tiles::TileMapping* b = now.data();
        for (std::size_t tile = 0; tile < common; ++tile) {
            if (a[tile].pool_tile != b[tile].pool_tile || a[tile].pool != b[tile].pool)
                changed_tiles_.push_back(static_cast<std::uint32_t>(tile));
        }
        const std::vector<runtime::tiles::TileMapping>& longer =
            now.size() > common ? now : mappings_;
        for (std::size_t tile = common; tile < longer.size(); ++tile) {
            if (longer[tile].pool != 0) changed_tiles_.push_back(static_cast<std::uint32_t>(tile));
        }
        if (changed_tiles_.size() != change_starts_.back()) {
            change_events_.push_back(event);
            change_starts_.push_back(changed_tiles_.size());
        }
        mappings_ = std::move(now);
    }
    std::map<std::uint64_t, std::uint64_t> sizes;
    for (const std::uint64_t pool : state.pools()) {
        const std::uint64_t tiles = state.pool_tiles(pool);
        sizes[pool] = tiles;
        const auto known = pool_tiles_.find(pool);
        if (known == pool_tiles_.end() || known->second != tiles)
            pools_[pool].push_back(PoolSize{event, tiles});
    }
    pool_tiles_ = std::move(sizes);
}

std::vector<std::uint64_t> TileHistory::last_changed(std::uint64_t event, std::size_t tiles) const {
    std::vector<std::uint64_t> last(tiles, kNoChange);
    const auto end = std::upper_bound(change_events_.begin(), change_events_.end(), event);
    for (auto it = change_events_.begin(); it != end; ++it) {
        const std::size_t i = std::size_t(it - change_events_.begin());
        for (std::size_t c = change_starts_[i]; c < change_starts_[i + 1]; ++c) {
            if (changed_tiles_[c] < tiles) last[changed_tiles_[c]] = *it;
        }
    }
    return last;
}

std::vector<std::uint64_t> TileHistory::last_written(
    std::uint64_t event, const std::vector<runtime::tiles::TileMapping>& mappings) const {
    std::vector<std::uint64_t> last(mappings.size(), kNoChange);
    for (std::size_t tile = 0; tile < mappings.size(); ++tile) {
        const auto found = writes_.find({mappings[tile].pool, mappings[tile].pool_tile});
        if (found == writes_.end()) continue;
        const auto after = std::upper_bound(found->second.begin(), found->second.end(), event);
        if (after != found->second.begin()) last[tile] = *std::prev(after);
    }
    return last;
}

std::map<std::uint64_t, std::vector<PoolSize>> TileHistory::pool_sizes(std::uint64_t event) const {
    std::map<std::uint64_t, std::vector<PoolSize>> sizes;
    for (const auto& [pool, points] : pools_) {
        const auto end = std::upper_bound(
            points.begin(), points.end(), event,
            [](std::uint64_t at, const PoolSize& point) { return at < point.event; });
        if (end != points.begin()) sizes[pool].assign(points.begin(), end);
    }
    return sizes;
}

}  // namespace d3dcap::viewer
