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

#include "runtime/backend.h"
#include "runtime/filling_backend.h"
#include "runtime/tiles/tiling.h"

namespace d3dcap::runtime {
struct FillBox;
struct ClearTexel;
}  // namespace d3dcap::runtime

namespace d3dcap::runtime::reference {

inline constexpr std::uint8_t kPoisonByte = 0xDD;  // contents after Discard*/OfferResources
inline constexpr std::uint32_t kTileBytes = tiles::kTileBytes;

// One subresource in elements: texels, 4x4 blocks of BC formats, 2x1 pairs of
// packed 4:2:2 formats, or bytes of buffers.
struct SubresourceLayout {
    std::uint32_t mip = 0, slice = 0;
    std::uint32_t texel_width = 1, texel_height = 1;  // of the mip, in texels (bytes for buffers)
    std::uint32_t width = 1, height = 1, depth = 1;   // in elements
    std::uint32_t block_width = 1, block_height = 1;  // texels per element
    std::uint32_t element_bytes = 1;                  // all samples of one element

    std::uint64_t row_bytes() const { return std::uint64_t{width} * element_bytes; }
    std::uint64_t slice_bytes() const { return row_bytes() * height; }
    std::uint64_t bytes() const { return slice_bytes() * depth; }
};

// Mip levels of a resource (0 in a desc means the full chain).
std::uint32_t mip_levels_of(const ResourceInfo& info);
// The layout of one subresource; buffers (and pools) are one row of bytes.
SubresourceLayout layout_of(const ResourceInfo& info, std::uint32_t subresource);
// Sum of the canonical sizes of every subresource.
std::uint64_t total_bytes(const ResourceInfo& info);

// A zero-filled allocation (calloc, so large untouched resources cost no pages).
struct FreeDeleter {
    void operator()(std::uint8_t* bytes) const { std::free(bytes); }
};
using ZeroedBytes = std::unique_ptr<std::uint8_t, FreeDeleter>;
ZeroedBytes allocate_zeroed(std::uint64_t bytes);

// A half-open box in elements.
struct ElementBox {
    std::uint32_t left = 0, top = 0, front = 0, right = 0, bottom = 0, back = 0;
    bool empty() const { return left >= right || top >= bottom || front >= back; }
    std::uint32_t width() const { return right - left; }
    std::uint32_t height() const { return bottom - top; }
    std::uint32_t depth() const { return back - front; }
};

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
                                 const ElementWindow& window,
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

// Per-channel conversions (the D3D conversion rules, as ClearView documents them).
namespace convert {
// Clamped to [0, 1] (NaN to 0), scaled by 2^bits - 1, rounded half up.
std::uint32_t float_to_unorm(float value, unsigned bits);
// Clamped to [-1, 1] (NaN to 0), scaled by 2^(bits-1) - 1, rounded half away from zero.
std::int32_t float_to_snorm(float value, unsigned bits);
// Truncated toward zero and clamped to the channel's range; NaN to 0.
std::uint32_t float_to_uint(float value, unsigned bits);
std::int32_t float_to_sint(float value, unsigned bits);
// Linear to sRGB and back (the sRGB curve, applied before UNORM encoding).
float linear_to_srgb(float value);
float srgb_to_linear(float value);
// A float with a 5-bit exponent: half (sign, 10-bit mantissa) or the unsigned
// 11- and 10-bit floats of R11G11B10 (6- and 5-bit mantissas). Round to nearest
// even, overflow to infinity, NaN stays NaN, negatives to 0 when unsigned.
std::uint32_t float_to_small_float(float value, unsigned mantissa_bits, bool has_sign);
float small_float_to_float(std::uint32_t bits, unsigned mantissa_bits, bool has_sign);
float unorm_to_float(std::uint32_t value, unsigned bits);
float snorm_to_float(std::int32_t value, unsigned bits);
}  // namespace convert

enum class ChannelType : std::uint8_t { Absent, Unorm, Snorm, Uint, Sint, Float, Srgb, XrBias };

struct ChannelLayout {
    std::uint8_t offset = 0, bits = 0;  // bit position in the texel (little-endian)
    ChannelType type = ChannelType::Absent;
};

// Where R, G, B and A (depth and stencil for depth formats) sit in a texel.
struct PixelLayout {
    std::uint32_t bytes = 0;  // 0: a format the reference device cannot convert to
    ChannelLayout channels[4];
};
PixelLayout pixel_layout(DXGI_FORMAT format);

// The `bits` bits at bit `offset` of a texel (little-endian), and one
// channel's code as a float by its type's rules (Uint and Sint as their
// integer value); the texel decoder reads channels through these too.
std::uint64_t get_bits(const std::uint8_t* bytes, unsigned offset, unsigned bits);
float decode_channel(const ChannelLayout& layout, std::uint64_t code);

// One texel from four floats by the conversion rules.
void encode_pixel(const PixelLayout& layout, const float rgba[4], std::uint8_t* out);
// One texel from four integers, each cut to its channel's low bits (ClearUAVUint).
void encode_pixel_bits(const PixelLayout& layout, const std::uint32_t rgba[4], std::uint8_t* out);
// Four floats from one texel (absent channels read 0, alpha 1).
void decode_pixel(const PixelLayout& layout, const std::uint8_t* in, float rgba[4]);

// decode_pixel with a table per channel of up to 16 bits, for whole mips.
class PixelDecoder {
  public:
    explicit PixelDecoder(const PixelLayout& layout);
    void decode(const std::uint8_t* in, float rgba[4]) const;

  private:
    PixelLayout layout_;
    std::vector<float> tables_[4];  // empty: decode that channel directly
};

}  // namespace d3dcap::runtime::reference
