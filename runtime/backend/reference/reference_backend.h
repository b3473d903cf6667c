// The CPU reference device's data side: internal to libd3dcap.
//
// Storage. Every resource's bytes live in 64 KiB tiles:
// - A non-tiled resource owns a private pool of tiles mapped identity
//   (tile i of the resource is its own tile i), kept as one zero-filled
//   allocation so that Map can hand out a pointer into it. Its subresources lie
//   one after another in subresource order (mip + slice * MipLevels), each in
//   the canonical linear layout: rows of elements (texels, or 4x4 blocks for
//   BC formats, MSAA samples of a texel consecutive) packed tightly, then rows
//   of the next depth slice.
// - A tile pool owns its tiles; pool tile i is bytes [i*64K, (i+1)*64K). Tiles
//   are allocated on first write and read as zeros before that.
// - A tiled resource has no storage: each of its tiles resolves through the
//   attached TileState to (pool, pool tile), so aliased and shared tiles behave
//   as on hardware. NULL tiles read as zeros and drop writes.
//   Inside a standard tile, elements are row-major over the tile shape with
//   rows pitched at the full tile width (also at right and bottom edges), then
//   depth slices of the shape. A tiled buffer's tile i is bytes [i*64K, ...).
//   Packed mips: the NumTilesForPackedMips tiles of a slice hold that slice's
//   packed mips one after another, finest first, each in the canonical linear
//   layout, as one byte stream starting at byte 0 of the slice's first packed
//   tile and running on through its following packed tiles.
//
// Contents nobody wrote read as zeros. Discarded and offered contents become
// the poison pattern: every byte 0xDD.
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "runtime/backend/backend.h"
#include "runtime/backend/filling_backend.h"
#include "runtime/backend/subresource_layout.h"
#include "runtime/formats/pixels.h"
#include "runtime/tiles/tiling.h"

namespace d3dcap::runtime::backend {
struct FillBox;
struct ClearTexel;
}  // namespace d3dcap::runtime::backend

namespace d3dcap::runtime::backend::reference {

inline constexpr std::uint32_t kTileBytes = tiles::kTileBytes;

// A zero-filled allocation (calloc, so large untouched resources cost no pages).
struct FreeDeleter {
    void operator()(std::uint8_t* bytes) const { std::free(bytes); }
};
using ZeroedBytes = std::unique_ptr<std::uint8_t, FreeDeleter>;
ZeroedBytes allocate_zeroed(std::uint64_t bytes);

struct Resource {
    ResourceInfo info;
    std::uint32_t mip_levels = 1;
    // Non-tiled, non-pool resources: the identity-mapped private tiles.
    ZeroedBytes bytes;
    std::uint64_t byte_size = 0;  // a whole number of tiles
    std::vector<std::uint64_t> subresource_offsets;
    // Tile pools: pool tile i, or null until first written.
    std::vector<std::unique_ptr<std::uint8_t[]>> pool_tiles;
    std::uint64_t pool_size_tiles = 0;
    // Tiled resources: how the resource is cut into tiles.
    tiles::ResourceTiling tiling;
    // Maps that need a staging copy (resources whose bytes are not contiguous).
    std::map<std::uint32_t, std::vector<std::uint8_t>> staging;
    std::map<std::uint32_t, D3D11_MAP> map_types;
    bool offered = false;

    bool tiled() const { return info.tiled(); }
    bool pool() const { return info.tile_pool(); }
    bool contiguous() const { return !tiled() && !pool(); }
};

class ReferenceBackend;

// Reads and writes runs of elements of one subresource wherever its bytes
// live: private tiles, pool tiles, or the tiles a TileState maps.
// Subresources of a resource (1 for buffers).
std::uint32_t subresource_count(const Resource& resource);

class SubresourceAccess {
  public:
    SubresourceAccess(ReferenceBackend& backend, Resource& resource, std::uint32_t subresource);
    const SubresourceLayout& layout() const { return layout_; }

    // count elements starting at element (x, y, z); NULL tiles read zeros.
    void read(std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t count,
              std::uint8_t* out);
    // Writes to NULL tiles are dropped.
    void write(std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t count,
               const std::uint8_t* in);
    // The whole subresource in the canonical layout.
    void read_all(std::uint8_t* out);
    void write_all(const std::uint8_t* in);

  private:
    struct Run {
        std::uint8_t* data = nullptr;  // null for a NULL (or never written, when reading) tile
        std::uint64_t bytes = 0;       // contiguous bytes from data
    };
    // The bytes at byte offset `offset` of row (y, z), and how many follow in the row.
    Run locate(std::uint64_t offset, std::uint32_t y, std::uint32_t z, bool writing);
    std::uint8_t* tile_bytes(std::uint32_t tile, bool writing);
    template <typename Visit>
    void walk(std::uint32_t x, std::uint32_t y, std::uint32_t z, std::uint32_t count, bool writing,
              Visit&& visit);

    ReferenceBackend& backend_;
    Resource& resource_;
    SubresourceLayout layout_;
    std::uint64_t packed_offset_ = 0;  // byte offset of this mip inside the packed set
    bool packed_ = false;
    std::uint32_t tile_width_ = 0, tile_height_ = 0, tile_depth_ = 0;  // in elements
    std::uint32_t cached_tile_ = tiles::kNullTile;
    std::uint8_t* cached_bytes_ = nullptr;
};

class ReferenceBackend final : public FillingBackend {
  public:
    const char* name() const override { return "reference"; }

    HRESULT create_resource(const ResourceInfo& info,
                            const D3D11_SUBRESOURCE_DATA* initial) override;
    void destroy_resource(ObjectId resource) override;
    void resize_tile_pool(ObjectId pool, std::uint64_t new_byte_width) override;

    void copy_resource(ObjectId dest, ObjectId source) override;
    void copy_subresource_region(ObjectId dest, std::uint32_t dest_subresource, std::uint32_t x,
                                 std::uint32_t y, std::uint32_t z, ObjectId source,
                                 std::uint32_t source_subresource, const D3D11_BOX* source_box,
                                 std::uint32_t copy_flags) override;
    void update_subresource(ObjectId dest, std::uint32_t subresource, const D3D11_BOX* box,
                            const void* data, std::uint32_t row_pitch, std::uint32_t depth_pitch,
                            std::uint32_t copy_flags) override;
    void update_tiles(ObjectId resource, const std::vector<tiles::TileRef>& tiles,
                      const void* data) override;
    void copy_tiles(ObjectId resource, const std::vector<tiles::TileRef>& tiles, ObjectId buffer,
                    std::uint64_t buffer_offset, std::uint32_t flags) override;

    void generate_mips(const ViewInfo& view) override;
    void resolve_subresource(ObjectId dest, std::uint32_t dest_subresource, ObjectId source,
                             std::uint32_t source_subresource, DXGI_FORMAT format) override;

    HRESULT map(ObjectId resource, std::uint32_t subresource, D3D11_MAP type,
                D3D11_MAPPED_SUBRESOURCE* mapped) override;
    void unmap(ObjectId resource, std::uint32_t subresource) override;
    bool read_subresource(ObjectId resource, std::uint32_t subresource,
                          std::vector<std::uint8_t>& bytes) override;
    bool read_subresource_window(ObjectId resource, std::uint32_t subresource,
                                 const formats::ElementWindow& window,
                                 std::vector<std::uint8_t>& bytes) override;
    bool read_subresource_pieces(ObjectId resource, std::uint32_t subresource,
                                 const ByteSink& sink) override;
    void offer(ObjectId resource) override;
    bool reclaim(ObjectId resource) override;

    // For SubresourceAccess: the storage of a pool tile (allocated when
    // writing), or null. Pools that were destroyed while still mapped count.
    std::uint8_t* pool_tile(ObjectId pool, std::uint32_t tile, bool writing);
    const tiles::TileState* tile_state() const { return tiles_; }

  private:
    Resource* find(ObjectId id);
    // Bytes [offset, offset + size) of a buffer-like resource (buffer or pool).
    void read_bytes(Resource& resource, std::uint64_t offset, std::uint64_t size,
                    std::uint8_t* out);
    void write_bytes(Resource& resource, std::uint64_t offset, std::uint64_t size,
                     const std::uint8_t* in);
    // Copies a box of elements between subresources (through a temporary, so overlap is fine).
    void copy_box(Resource& dest, std::uint32_t dest_sub, std::uint32_t x, std::uint32_t y,
                  std::uint32_t z, Resource& source, std::uint32_t source_sub,
                  const ElementBox& box);
    // Writes a pattern over a box (only the bytes its mask marks, if any).
    void fill_box(Resource& resource, const FillBox& fill);
    void fill_view(const ViewInfo& view, const ClearTexel& clear, const D3D11_RECT* rects,
                   std::uint32_t rect_count) override;
    void fill_resource(Resource& resource, std::uint8_t value);
    void forget_unused_pools();

    std::mutex mutex_;  // the device is free-threaded: creation may race context work
    std::unordered_map<ObjectId, std::unique_ptr<Resource>> resources_;
    // Pools the app destroyed whose tiles resources still map.
    std::unordered_map<ObjectId, std::unique_ptr<Resource>> retired_pools_;
};

}  // namespace d3dcap::runtime::backend::reference
