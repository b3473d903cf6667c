#include "streamer.h"

#include <algorithm>
#include <cstdlib>

#include "content.h"

namespace tiled_streaming {

namespace {

constexpr UINT kLoading = 0xfffffffeu;

// Consecutive tiles of one row of one mip.
struct Run {
    TileKey first;
    UINT length = 0;
};

std::vector<Run> runs_of(const std::vector<TileKey>& sorted) {
    std::vector<Run> runs;
    for (const TileKey& key : sorted) {
        if (!runs.empty()) {
            Run& last = runs.back();
            if (last.first.mip == key.mip && last.first.y == key.y &&
                last.first.x + last.length == key.x) {
                ++last.length;
                continue;
            }
        }
        runs.push_back({key, 1});
    }
    return runs;
}

D3D11_TILED_RESOURCE_COORDINATE coordinate_of(const TileKey& key) {
    return {key.x, key.y, 0, key.mip};
}

D3D11_TILE_REGION_SIZE box_of(UINT width, UINT height) {
    return {width * height, TRUE, width, static_cast<UINT16>(height), 1};
}

UINT round_up(UINT value, UINT multiple) {
    return (value + multiple - 1) / multiple * multiple;
}

}  // namespace

// TilePool

TilePool::TilePool(ID3D11Device* device, ID3D11DeviceContext2* context, Markers& markers,
                   UINT reserved, UINT chunk)
    : context_(context), markers_(markers), reserved_(reserved), chunk_(chunk) {
    size_ = round_up(reserved + 1, chunk);
    D3D11_BUFFER_DESC desc{};
    desc.ByteWidth = size_ * kTileBytes;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.MiscFlags = D3D11_RESOURCE_MISC_TILE_POOL;
    check(device->CreateBuffer(&desc, nullptr, buffer_.put()),
          "ID3D11Device::CreateBuffer (tile pool)");
    name(buffer_.get(), "tile_pool");
    for (UINT tile = reserved; tile < size_; ++tile) free_.insert(tile);
    peak_ = size_;
}

void TilePool::resize(UINT tiles) {
    check(context_->ResizeTilePool(buffer_.get(), UINT64{tiles} * kTileBytes),
          "ID3D11DeviceContext2::ResizeTilePool");
    markers_.marker(L"Tile pool resized (tiles)", static_cast<INT>(tiles));
    size_ = tiles;
    peak_ = std::max(peak_, size_);
}

UINT TilePool::allocate() {
    if (free_.empty()) {
        const UINT old_size = size_;
        resize(size_ + chunk_);
        ++grows_;
        for (UINT tile = old_size; tile < size_; ++tile) free_.insert(tile);
    }
    const UINT tile = *free_.begin();
    free_.erase(free_.begin());
    used_.insert(tile);
    return tile;
}

void TilePool::release(UINT tile) {
    used_.erase(tile);
    free_.insert(tile);
}

UINT TilePool::compact_size() const {
    const UINT live = reserved_ + static_cast<UINT>(used_.size());
    return round_up(live, chunk_) + chunk_;
}

void TilePool::shrink() {
    // Keep one free chunk above the highest tile in use, so that a working
    // set that wobbles does not resize the pool every frame.
    const UINT top = used_.empty() ? reserved_ : *used_.rbegin() + 1;
    const UINT target = round_up(top, chunk_) + chunk_;
    if (target >= size_) return;
    resize(target);
    ++shrinks_;
    free_.erase(free_.lower_bound(target), free_.end());
}

// Streamer

Streamer::Streamer(ID3D11Device* device, ID3D11DeviceContext2* context, ID3D11Texture2D* texture,
                   const Tiling& tiling, TilePool& pool, Markers& markers, UINT loading_tile)
    : context_(context),
      texture_(texture),
      tiling_(tiling),
      pool_(pool),
      markers_(markers),
      loading_tile_(loading_tile) {
    D3D11_BUFFER_DESC desc{};
    desc.ByteWidth = kCompactBudget * kTileBytes;
    desc.Usage = D3D11_USAGE_DEFAULT;
    check(device->CreateBuffer(&desc, nullptr, scratch_.put()),
          "ID3D11Device::CreateBuffer (compaction scratch)");
}

void Streamer::map_packed_mips(UINT first_pool_tile) {
    const D3D11_PACKED_MIP_DESC& packed = tiling_.packed;
    if (packed.NumPackedMips == 0) return;
    // The packed tiles are addressed as a linear run from the first packed mip.
    const D3D11_TILED_RESOURCE_COORDINATE start{0, 0, 0, packed.NumStandardMips};
    const D3D11_TILE_REGION_SIZE size{packed.NumTilesForPackedMips, FALSE, 0, 0, 0};
    // NULL range flags and counts: one range of consecutive pool tiles covering the region.
    check(context_->UpdateTileMappings(texture_, 1, &start, &size, pool_.buffer(), 1, nullptr,
                                       &first_pool_tile, nullptr, D3D11_TILE_MAPPING_NO_OVERWRITE),
          "ID3D11DeviceContext2::UpdateTileMappings (packed mips)");
    for (UINT mip = packed.NumStandardMips; mip < tiling_.mip_levels; ++mip) {
        const UINT width = std::max(1u, tiling_.width >> mip);
        const std::vector<std::uint8_t> bytes = mip_bytes(mip, width, width);
        context_->UpdateSubresource1(texture_, mip, nullptr, bytes.data(), width * 4,
                                     width * width * 4, 0);
    }
}

UINT Streamer::pool_tile(const TileKey& key) const {
    auto found = tiles_.find(key);
    if (found == tiles_.end() || found->second == kLoading) return kNotResident;
    return found->second;
}

void Streamer::residency(UINT mip, UINT& visible, UINT& resident) const {
    visible = resident = 0;
    for (auto it = tiles_.lower_bound(TileKey{mip, 0, 0});
         it != tiles_.end() && it->first.mip == mip; ++it) {
        ++visible;
        if (it->second != kLoading) ++resident;
    }
}

std::vector<TileKey> Streamer::loading_tiles() const {
    std::vector<TileKey> keys;
    for (const auto& [key, tile] : tiles_) {
        if (tile == kLoading) keys.push_back(key);
    }
    return keys;
}

void Streamer::unmap(const std::vector<TileKey>& tiles) {
    // One coordinate per tile (NULL sizes: one tile each) and one NULL range
    // whose count defaults to every tile. No pool is needed to unmap. The
    // previous frame read these tiles, so no NO_OVERWRITE.
    std::vector<D3D11_TILED_RESOURCE_COORDINATE> starts;
    for (const TileKey& key : tiles) starts.push_back(coordinate_of(key));
    const UINT flag = D3D11_TILE_RANGE_NULL;
    check(context_->UpdateTileMappings(texture_, static_cast<UINT>(starts.size()), starts.data(),
                                       nullptr, nullptr, 1, &flag, nullptr, nullptr, 0),
          "ID3D11DeviceContext2::UpdateTileMappings (unmap)");
}

void Streamer::map_to_loading(const std::vector<TileKey>& tiles) {
    // Row runs as boxes, all onto the one loading tile. Nothing in flight
    // can read tiles that were not visible: NO_OVERWRITE.
    std::vector<D3D11_TILED_RESOURCE_COORDINATE> starts;
    std::vector<D3D11_TILE_REGION_SIZE> sizes;
    for (const Run& run : runs_of(tiles)) {
        starts.push_back(coordinate_of(run.first));
        sizes.push_back(box_of(run.length, 1));
    }
    const UINT flag = D3D11_TILE_RANGE_REUSE_SINGLE_TILE;
    check(context_->UpdateTileMappings(texture_, static_cast<UINT>(starts.size()), starts.data(),
                                       sizes.data(), pool_.buffer(), 1, &flag, &loading_tile_,
                                       nullptr, D3D11_TILE_MAPPING_NO_OVERWRITE),
          "ID3D11DeviceContext2::UpdateTileMappings (loading tile)");
}

void Streamer::upload(std::vector<TileKey> tiles, UINT mapping_flags) {
    if (tiles.empty()) return;
    std::sort(tiles.begin(), tiles.end());
    const std::vector<Run> runs = runs_of(tiles);
    // Pool tiles in key order; consecutive ones form one range, whose
    // boundaries need not match the regions'.
    std::vector<UINT> offsets, counts;
    for (const TileKey& key : tiles) {
        const UINT tile = pool_.allocate();
        tiles_[key] = tile;
        if (!offsets.empty() && offsets.back() + counts.back() == tile) {
            ++counts.back();
        } else {
            offsets.push_back(tile);
            counts.push_back(1);
        }
    }
    std::vector<D3D11_TILED_RESOURCE_COORDINATE> starts;
    std::vector<D3D11_TILE_REGION_SIZE> sizes;
    for (const Run& run : runs) {
        starts.push_back(coordinate_of(run.first));
        sizes.push_back(box_of(run.length, 1));
    }
    check(context_->UpdateTileMappings(texture_, static_cast<UINT>(starts.size()), starts.data(),
                                       sizes.data(), pool_.buffer(),
                                       static_cast<UINT>(offsets.size()), nullptr, offsets.data(),
                                       counts.data(), mapping_flags),
          "ID3D11DeviceContext2::UpdateTileMappings (upload)");
    // The data: one UpdateTiles per run. The pool tiles were free until now,
    // so no GPU work can be reading them.
    const UINT tile_width = tiling_.shape.WidthInTexels;
    const UINT tile_height = tiling_.shape.HeightInTexels;
    for (const Run& run : runs) {
        upload_bytes_.resize(std::size_t{run.length} * kTileBytes);
        const UINT mip_width = std::max(1u, tiling_.width >> run.first.mip);
        for (UINT i = 0; i < run.length; ++i) {
            fill_tile(run.first.mip, mip_width, run.first.x + i, run.first.y, tile_width,
                      tile_height, upload_bytes_.data() + std::size_t{i} * kTileBytes);
        }
        const D3D11_TILED_RESOURCE_COORDINATE start = coordinate_of(run.first);
        const D3D11_TILE_REGION_SIZE size = box_of(run.length, 1);
        context_->UpdateTiles(texture_, &start, &size, upload_bytes_.data(),
                              D3D11_TILE_COPY_NO_OVERWRITE);
    }
    changed_.insert(changed_.end(), tiles.begin(), tiles.end());
}

StreamStats Streamer::update(const std::vector<TileRect>& wanted, std::int64_t camera_x,
                             std::int64_t camera_y, UINT upload_budget) {
    StreamStats stats;
    changed_.clear();
    std::set<TileKey> visible;
    for (const TileRect& rect : wanted) {
        for (UINT y = rect.y0; y < rect.y1; ++y) {
            for (UINT x = rect.x0; x < rect.x1; ++x) visible.insert(TileKey{rect.mip, y, x});
        }
    }

    std::vector<TileKey> evicted;
    for (auto it = tiles_.begin(); it != tiles_.end();) {
        if (visible.count(it->first)) {
            ++it;
            continue;
        }
        evicted.push_back(it->first);
        if (it->second != kLoading) pool_.release(it->second);
        it = tiles_.erase(it);
    }
    if (!evicted.empty()) {
        markers_.marker(L"Tiles unmapped", static_cast<INT>(evicted.size()));
        unmap(evicted);
    }

    std::vector<TileKey> fresh;
    for (const TileKey& key : visible) {
        if (tiles_.emplace(key, kLoading).second) fresh.push_back(key);
    }
    if (!fresh.empty()) {
        markers_.marker(L"Tiles mapped to the loading tile", static_cast<INT>(fresh.size()));
        map_to_loading(fresh);
        changed_ = fresh;
    }

    // Uploads: coarse mips first (they stand in for everything finer), then
    // the tiles nearest the camera.
    struct Pending {
        TileKey key;
        std::int64_t distance;
    };
    std::vector<Pending> pending;
    for (const auto& [key, tile] : tiles_) {
        if (tile != kLoading) continue;
        const std::int64_t span_x = std::int64_t{tiling_.shape.WidthInTexels} << key.mip;
        const std::int64_t span_y = std::int64_t{tiling_.shape.HeightInTexels} << key.mip;
        const std::int64_t dx = std::llabs(std::int64_t{key.x} - camera_x / span_x);
        const std::int64_t dy = std::llabs(std::int64_t{key.y} - camera_y / span_y);
        pending.push_back({key, std::max(dx, dy)});
    }
    std::sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
        if (a.key.mip != b.key.mip) return a.key.mip > b.key.mip;
        if (a.distance != b.distance) return a.distance < b.distance;
        return a.key < b.key;
    });
    if (pending.size() > upload_budget) pending.resize(upload_budget);
    // Tiles mapped to the loading tile in this frame were never read, so
    // their remapping can skip synchronisation; the others were read by
    // earlier frames.
    const std::set<TileKey> fresh_set(fresh.begin(), fresh.end());
    std::vector<TileKey> waited, same_frame;
    for (const Pending& entry : pending) {
        (fresh_set.count(entry.key) ? same_frame : waited).push_back(entry.key);
    }
    if (!pending.empty()) {
        markers_.marker(L"Tiles uploaded", static_cast<INT>(pending.size()));
    }
    upload(waited, 0);
    upload(same_frame, D3D11_TILE_MAPPING_NO_OVERWRITE);

    stats.visible = static_cast<UINT>(tiles_.size());
    for (const auto& [key, tile] : tiles_) stats.loading += tile == kLoading;
    stats.mapped = static_cast<UINT>(fresh.size());
    stats.unmapped = static_cast<UINT>(evicted.size());
    stats.uploaded = static_cast<UINT>(pending.size());
    return stats;
}

UINT Streamer::compact(UINT budget) {
    const UINT limit = pool_.compact_size();
    if (limit >= pool_.size()) return 0;
    std::vector<TileKey> movers;
    for (const auto& [key, tile] : tiles_) {
        if (tile != kLoading && tile >= limit) movers.push_back(key);
    }
    budget = std::min(budget, kCompactBudget);
    if (movers.size() > budget) movers.resize(budget);
    if (movers.empty()) return 0;
    markers_.begin(L"Compact tile pool", static_cast<INT>(movers.size()));
    const std::vector<Run> runs = runs_of(movers);
    // Out to the scratch buffer, run by run, while the old mapping holds.
    UINT64 offset = 0;
    for (const Run& run : runs) {
        const D3D11_TILED_RESOURCE_COORDINATE start = coordinate_of(run.first);
        const D3D11_TILE_REGION_SIZE size = box_of(run.length, 1);
        context_->CopyTiles(texture_, &start, &size, scratch_.get(), offset,
                            D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
        offset += UINT64{run.length} * kTileBytes;
    }
    // New homes: the lowest free tiles, all below the limit; one range per tile.
    std::vector<UINT> old_tiles, new_tiles;
    for (const TileKey& key : movers) {
        old_tiles.push_back(tiles_[key]);
        new_tiles.push_back(pool_.allocate());
        tiles_[key] = new_tiles.back();
    }
    std::vector<D3D11_TILED_RESOURCE_COORDINATE> starts;
    std::vector<D3D11_TILE_REGION_SIZE> sizes;
    for (const Run& run : runs) {
        starts.push_back(coordinate_of(run.first));
        sizes.push_back(box_of(run.length, 1));
    }
    // NULL counts with several ranges: one tile each.
    check(context_->UpdateTileMappings(texture_, static_cast<UINT>(starts.size()), starts.data(),
                                       sizes.data(), pool_.buffer(),
                                       static_cast<UINT>(new_tiles.size()), nullptr,
                                       new_tiles.data(), nullptr, 0),
          "ID3D11DeviceContext2::UpdateTileMappings (compaction)");
    offset = 0;
    for (const Run& run : runs) {
        const D3D11_TILED_RESOURCE_COORDINATE start = coordinate_of(run.first);
        const D3D11_TILE_REGION_SIZE size = box_of(run.length, 1);
        context_->CopyTiles(texture_, &start, &size, scratch_.get(), offset,
                            D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE |
                                D3D11_TILE_COPY_NO_OVERWRITE);
        offset += UINT64{run.length} * kTileBytes;
    }
    for (UINT tile : old_tiles) pool_.release(tile);
    changed_.insert(changed_.end(), movers.begin(), movers.end());
    markers_.end();
    return static_cast<UINT>(movers.size());
}

// Clipmap

Clipmap::Clipmap(ID3D11Device* device, ID3D11DeviceContext2* context, const Tiling& tiling,
                 UINT mip)
    : context_(context), tiling_(tiling), mip_(mip) {
    D3D11_TEXTURE2D_DESC desc{};
    desc.Width = kTiles * tiling.shape.WidthInTexels;
    desc.Height = kTiles * tiling.shape.HeightInTexels;
    desc.MipLevels = 1;
    desc.ArraySize = 1;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc.Count = 1;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    desc.MiscFlags = D3D11_RESOURCE_MISC_TILED;
    check(device->CreateTexture2D(&desc, nullptr, texture_.put()),
          "ID3D11Device::CreateTexture2D (clipmap level)");
    name(texture_.get(), "clipmap");
}

TileRect Clipmap::window_for(std::int64_t camera_x, std::int64_t camera_y) const {
    const D3D11_SUBRESOURCE_TILING& level = tiling_.subresources[mip_];
    auto origin = [](std::int64_t camera, std::int64_t span, UINT tiles) {
        const std::int64_t centre = camera / span - kTiles / 2;
        const std::int64_t last = std::max<std::int64_t>(0, std::int64_t{tiles} - kTiles);
        return static_cast<UINT>(std::clamp<std::int64_t>(centre, 0, last));
    };
    TileRect window;
    window.mip = mip_;
    window.x0 =
        origin(camera_x, std::int64_t{tiling_.shape.WidthInTexels} << mip_, level.WidthInTiles);
    window.y0 =
        origin(camera_y, std::int64_t{tiling_.shape.HeightInTexels} << mip_, level.HeightInTiles);
    window.x1 = window.x0 + kTiles;
    window.y1 = window.y0 + kTiles;
    return window;
}

void Clipmap::copy_from_source(ID3D11Texture2D* source, UINT x, UINT y, UINT width, UINT height) {
    const D3D11_TILED_RESOURCE_COORDINATE destination{x, y, 0, 0};
    const D3D11_TILED_RESOURCE_COORDINATE from{window_.x0 + x, window_.y0 + y, 0, mip_};
    const D3D11_TILE_REGION_SIZE size = box_of(width, height);
    check(context_->CopyTileMappings(texture_.get(), &destination, source, &from, &size, 0),
          "ID3D11DeviceContext2::CopyTileMappings (from the virtual texture)");
}

UINT Clipmap::update(ID3D11Texture2D* source, const TileRect& window,
                     const std::vector<TileKey>& changed) {
    bool fresh[kTiles][kTiles] = {};
    const int dx = static_cast<int>(window.x0) - static_cast<int>(window_.x0);
    const int dy = static_cast<int>(window.y0) - static_cast<int>(window_.y0);
    const UINT step_x = static_cast<UINT>(std::abs(dx));
    const UINT step_y = static_cast<UINT>(std::abs(dy));
    UINT moved = 0;
    if (!valid_ || step_x >= kTiles || step_y >= kTiles) {
        window_ = window;
        copy_from_source(source, 0, 0, kTiles, kTiles);
        for (auto& row : fresh) std::fill(std::begin(row), std::end(row), true);
        moved = valid_ ? step_x + step_y : 0;
        if (valid_) ++scrolls_;
        valid_ = true;
    } else if (dx != 0 || dy != 0) {
        // The tiles both windows share move within the clipmap itself; the
        // regions overlap, which CopyTileMappings resolves as if through a
        // temporary.
        const UINT keep_w = kTiles - step_x, keep_h = kTiles - step_y;
        const D3D11_TILED_RESOURCE_COORDINATE from{dx > 0 ? step_x : 0, dy > 0 ? step_y : 0, 0, 0};
        const D3D11_TILED_RESOURCE_COORDINATE to{dx < 0 ? step_x : 0, dy < 0 ? step_y : 0, 0, 0};
        const D3D11_TILE_REGION_SIZE size = box_of(keep_w, keep_h);
        check(context_->CopyTileMappings(texture_.get(), &to, texture_.get(), &from, &size, 0),
              "ID3D11DeviceContext2::CopyTileMappings (clipmap scroll)");
        window_ = window;
        // The uncovered columns, then the uncovered rows of the other columns.
        if (step_x) {
            const UINT x = dx > 0 ? keep_w : 0;
            copy_from_source(source, x, 0, step_x, kTiles);
            for (UINT i = x; i < x + step_x; ++i) {
                for (UINT j = 0; j < kTiles; ++j) fresh[j][i] = true;
            }
        }
        if (step_y) {
            const UINT x = dx < 0 ? step_x : 0;
            const UINT y = dy > 0 ? keep_h : 0;
            copy_from_source(source, x, y, keep_w, step_y);
            for (UINT j = y; j < y + step_y; ++j) {
                for (UINT i = x; i < x + keep_w; ++i) fresh[j][i] = true;
            }
        }
        moved = step_x + step_y;
        ++scrolls_;
    }
    // Tiles the streamer remapped since the last copy.
    for (const TileKey& key : changed) {
        if (!window_.contains(key)) continue;
        const UINT x = key.x - window_.x0, y = key.y - window_.y0;
        if (fresh[y][x]) continue;
        copy_from_source(source, x, y, 1, 1);
        fresh[y][x] = true;
    }
    return moved;
}

}  // namespace tiled_streaming
