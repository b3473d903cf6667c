// The streaming side of the example: the tile pool with its free list, the
// residency of the virtual texture's tiles, and the clipmap level whose
// mapping follows the camera.
#pragma once

#include <d3d11_2.h>

#include <compare>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "common/com.h"

namespace tiled_streaming {

using namespace example;

// A tile of a standard mip; ordered by mip, then row, then column, so that
// sorted tiles fall into row runs.
struct TileKey {
    UINT mip = 0;
    UINT y = 0;
    UINT x = 0;
    auto operator<=>(const TileKey&) const = default;
};

// Tiles [x0, x1) x [y0, y1) of one mip.
struct TileRect {
    UINT mip = 0;
    UINT x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool contains(const TileKey& key) const {
        return key.mip == mip && key.x >= x0 && key.x < x1 && key.y >= y0 && key.y < y1;
    }
};

// The tile pool: a buffer with D3D11_RESOURCE_MISC_TILE_POOL. Its first
// `reserved` tiles are permanent (the loading tile, the packed mips); the
// others are handed out lowest first from a free list, so that a falling
// working set leaves the top of the pool free and the pool can shrink.
class TilePool {
  public:
    TilePool(ID3D11Device* device, ID3D11DeviceContext2* context, Markers& markers, UINT reserved,
             UINT chunk);
    ID3D11Buffer* buffer() const { return buffer_.get(); }
    UINT size() const { return size_; }
    UINT peak() const { return peak_; }
    UINT grows() const { return grows_; }
    UINT shrinks() const { return shrinks_; }
    UINT in_use() const { return static_cast<UINT>(used_.size()); }
    // The size the pool could shrink to if the tiles in use were packed at its
    // bottom (one free chunk of headroom kept); tiles at or above it are worth
    // moving down.
    UINT compact_size() const;

    // A free pool tile; grows the pool by a chunk when none is left.
    UINT allocate();
    void release(UINT tile);
    // Gives free chunks at the top back with ResizeTilePool. Tiles are
    // released only once nothing maps them, so nothing is lost.
    void shrink();

  private:
    void resize(UINT tiles);

    ID3D11DeviceContext2* context_;
    Markers& markers_;
    Com<ID3D11Buffer> buffer_;
    UINT reserved_;
    UINT chunk_;
    UINT size_ = 0;
    UINT peak_ = 0;
    UINT grows_ = 0;
    UINT shrinks_ = 0;
    std::set<UINT> free_;
    std::set<UINT> used_;
};

struct Tiling {
    UINT width = 0;  // texels of mip 0
    UINT mip_levels = 0;
    UINT total_tiles = 0;
    D3D11_PACKED_MIP_DESC packed{};
    D3D11_TILE_SHAPE shape{};
    std::vector<D3D11_SUBRESOURCE_TILING> subresources;
};

// Tiles the compaction moves at most per frame (the scratch buffer's size).
constexpr UINT kCompactBudget = 64;

struct StreamStats {
    UINT visible = 0;   // tiles the view needs, all mapped after the update
    UINT loading = 0;   // of those, still mapped to the loading tile
    UINT mapped = 0;    // newly visible this frame
    UINT unmapped = 0;  // left the view this frame
    UINT uploaded = 0;  // given their own pool tile and data this frame
};

// The virtual texture's residency. Newly visible tiles are mapped to the
// loading tile at once, then given their own pool tile and data as the
// upload budget allows (coarse mips first, then nearest to the camera);
// tiles that left the view are unmapped and their pool tiles freed.
class Streamer {
  public:
    Streamer(ID3D11Device* device, ID3D11DeviceContext2* context, ID3D11Texture2D* texture,
             const Tiling& tiling, TilePool& pool, Markers& markers, UINT loading_tile);

    // Maps every packed-mip tile (all of them, as the rules require) to
    // pool tiles [first_pool_tile, ...) and fills the packed mips.
    void map_packed_mips(UINT first_pool_tile);

    // `wanted` rectangles may overlap. (camera_x, camera_y) is in mip-0
    // texels and orders the uploads.
    StreamStats update(const std::vector<TileRect>& wanted, std::int64_t camera_x,
                       std::int64_t camera_y, UINT upload_budget);

    // Moves up to `budget` resident tiles from the top of the pool into free
    // tiles below compact_size(), keeping their contents (CopyTiles out to a
    // scratch buffer and back), so that the pool can shrink. Returns the
    // number of tiles moved; they join changed().
    UINT compact(UINT budget);

    // Tiles whose mapping changed in the last update or compaction.
    const std::vector<TileKey>& changed() const { return changed_; }
    // The pool tile behind a tile, or kNotResident (unmapped or still loading).
    static constexpr UINT kNotResident = 0xffffffffu;
    UINT pool_tile(const TileKey& key) const;
    // Visible and resident tile counts of one mip.
    void residency(UINT mip, UINT& visible, UINT& resident) const;
    // Keys of tiles still loading, in key order.
    std::vector<TileKey> loading_tiles() const;

  private:
    void unmap(const std::vector<TileKey>& tiles);
    void map_to_loading(const std::vector<TileKey>& tiles);
    void upload(std::vector<TileKey> tiles, UINT mapping_flags);

    ID3D11DeviceContext2* context_;
    ID3D11Texture2D* texture_;
    const Tiling& tiling_;
    TilePool& pool_;
    Markers& markers_;
    UINT loading_tile_;
    std::map<TileKey, UINT> tiles_;  // pool tile, or kLoading
    std::vector<TileKey> changed_;
    std::vector<std::uint8_t> upload_bytes_;
    Com<ID3D11Buffer> scratch_;  // tile contents while compaction moves them
};

// A clipmap level: a small tiled texture that shows a 4x4-tile window of one
// mip of the virtual texture around the camera, sharing its pool tiles. When
// the window moves, the clipmap's own mapping is shifted with an overlapping
// CopyTileMappings from itself, and the uncovered tiles are copied from the
// virtual texture; tiles the streamer remapped are copied again.
class Clipmap {
  public:
    static constexpr UINT kTiles = 4;

    Clipmap(ID3D11Device* device, ID3D11DeviceContext2* context, const Tiling& tiling, UINT mip);
    ID3D11Texture2D* texture() const { return texture_.get(); }
    UINT mip() const { return mip_; }
    // The window centred on (camera_x, camera_y) (mip-0 texels), kept inside the mip.
    TileRect window_for(std::int64_t camera_x, std::int64_t camera_y) const;
    // Moves to `window` and brings the mapping up to date. Returns the
    // distance scrolled, in tiles along x plus along y.
    UINT update(ID3D11Texture2D* source, const TileRect& window,
                const std::vector<TileKey>& changed);
    UINT scrolls() const { return scrolls_; }

  private:
    void copy_from_source(ID3D11Texture2D* source, UINT x, UINT y, UINT width, UINT height);

    ID3D11DeviceContext2* context_;
    const Tiling& tiling_;
    UINT mip_;
    Com<ID3D11Texture2D> texture_;
    bool valid_ = false;
    TileRect window_{};
    UINT scrolls_ = 0;
};

}  // namespace tiled_streaming
