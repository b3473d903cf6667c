// How the reference device cuts a tiled resource into 64 KiB tiles.
//
// Numbering. Tiles are numbered from 0 across the whole resource, slice by
// slice (Texture3Ds and buffers have one slice). Within a slice come first the
// standard mips in mip order, each walked X, then Y, then Z in tiles, and then
// that slice's packed tiles; the next slice follows. So slice s starts at
// s * tiles_per_slice, and its packed set at that plus
// D3D11_PACKED_MIP_DESC::StartTileIndexInOverallResource (the documented
// meaning: the offset of slice 0's packed tiles, repeated from the start of
// every slice). Subresource mip + slice * MipLevels reports its first tile in
// D3D11_SUBRESOURCE_TILING::StartTileIndexInOverallResource, or 0 tiles and
// kPackedStart (D3D11_PACKED_TILE) when the mip is packed.
//
// Packing (the reference device's choice, allowed by the Tier 2 rule): from
// the first mip smaller than one tile in any dimension, every mip of a slice
// is packed, into ceil(bytes of those mips / 64 KiB) tiles (at least 1).
// With nothing packed, NumTilesForPackedMips and StartTileIndexInOverallResource
// are 0, as documented. With everything packed the tile shape is all zeros,
// as GetResourceTiling documents.
#include "runtime/tiles/tiling.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "runtime/formats/formats.h"

namespace d3dcap::runtime::tiles {
namespace {

// D3D11 resource limits (D3D11_REQ_*).
constexpr std::uint32_t kMaxTexture2DSize = 16384;
constexpr std::uint32_t kMaxTexture3DSize = 2048;
constexpr std::uint32_t kMaxArraySize = 2048;
constexpr std::uint64_t kMaxBufferBytes = 0xffffffff;  // ByteWidth is a UINT

const char* create_call(D3D11_RESOURCE_DIMENSION dimension) {
    switch (dimension) {
        case D3D11_RESOURCE_DIMENSION_BUFFER:
            return "ID3D11Device::CreateBuffer";
        case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
            return "ID3D11Device::CreateTexture1D";
        case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
            return "ID3D11Device::CreateTexture2D";
        case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
            return "ID3D11Device::CreateTexture3D";
        default:
            return "d3dcap::runtime::tiles::compute_tiling";
    }
}

struct Rejection {
    const char* parameter = "";
    std::string text;
};

HRESULT reject(const ResourceShape& shape, const Rejection& why, runtime::MessageSink* sink) {
    if (sink != nullptr) {
        sink->message(runtime::Message{.severity = runtime::Severity::Error,
                                       .call = create_call(shape.dimension),
                                       .parameter = why.parameter,
                                       .text = why.text});
    }
    return E_INVALIDARG;
}

std::uint64_t divide_round_up(std::uint64_t value, std::uint64_t divisor) {
    return (value + divisor - 1) / divisor;
}

std::uint32_t mip_size(std::uint32_t size, std::uint32_t mip) {
    const std::uint32_t shifted = mip < 32 ? size >> mip : 0;
    return shifted == 0 ? 1 : shifted;
}

std::uint32_t full_mip_chain(std::uint32_t largest_size) {
    std::uint32_t levels = 1;
    while (largest_size > 1) {
        largest_size >>= 1;
        ++levels;
    }
    return levels;
}

bool is_block_compressed(const formats::FormatInfo& facts) {
    return facts.kind == formats::Kind::Compressed;
}

// Why a format has no tile shape, or an empty string when it has one.
std::string untileable_format(DXGI_FORMAT format) {
    const formats::FormatInfo& facts = formats::info(format);
    const std::string name = formats::describe(format);
    switch (facts.kind) {
        case formats::Kind::Unknown:
            return name + " is not a format a tiled texture can have";
        case formats::Kind::Video:
            return name + " cannot be tiled: video formats have no standard tile shape";
        case formats::Kind::Compressed:
            return {};
        default:
            break;
    }
    switch (format) {
        case DXGI_FORMAT_R1_UNORM:
        case DXGI_FORMAT_R8G8_B8G8_UNORM:
        case DXGI_FORMAT_G8R8_G8B8_UNORM:
            return name + " cannot be tiled: it has no standard tile shape";
        default:
            break;
    }
    switch (facts.bits_per_element) {
        case 8:
        case 16:
        case 32:
        case 64:
        case 128:
            return {};
        case 96:
            return name + " cannot be tiled: 96-bit formats have no standard tile shape";
        default:
            return name + " cannot be tiled: " + std::to_string(facts.bits_per_element) +
                   "-bit formats have no standard tile shape";
    }
}

// The standard tile shape at one sample (the documented table of shapes per texel size).
D3D11_TILE_SHAPE single_sample_shape(const formats::FormatInfo& facts, bool volume) {
    if (is_block_compressed(facts)) {
        const bool eight_byte_blocks = facts.bits_per_element == 64;  // BC1, BC4
        if (volume)
            return eight_byte_blocks ? D3D11_TILE_SHAPE{128, 64, 16} : D3D11_TILE_SHAPE{64, 64, 16};
        return eight_byte_blocks ? D3D11_TILE_SHAPE{512, 256, 1} : D3D11_TILE_SHAPE{256, 256, 1};
    }
    switch (facts.bits_per_element) {
        case 8:
            return volume ? D3D11_TILE_SHAPE{64, 32, 32} : D3D11_TILE_SHAPE{256, 256, 1};
        case 16:
            return volume ? D3D11_TILE_SHAPE{32, 32, 32} : D3D11_TILE_SHAPE{256, 128, 1};
        case 32:
            return volume ? D3D11_TILE_SHAPE{32, 32, 16} : D3D11_TILE_SHAPE{128, 128, 1};
        case 64:
            return volume ? D3D11_TILE_SHAPE{32, 16, 16} : D3D11_TILE_SHAPE{128, 64, 1};
        default:  // 128; untileable_format has refused every other size
            return volume ? D3D11_TILE_SHAPE{16, 16, 16} : D3D11_TILE_SHAPE{64, 64, 1};
    }
}

// MSAA shrinks a 2D tile: 2 samples by 2x1, 4 by 2x2, 8 by 4x2, 16 by 4x4.
D3D11_TILE_SHAPE multisampled(D3D11_TILE_SHAPE shape, std::uint32_t samples) {
    switch (samples) {
        case 2:
            return {shape.WidthInTexels / 2, shape.HeightInTexels, 1};
        case 4:
            return {shape.WidthInTexels / 2, shape.HeightInTexels / 2, 1};
        case 8:
            return {shape.WidthInTexels / 4, shape.HeightInTexels / 2, 1};
        case 16:
            return {shape.WidthInTexels / 4, shape.HeightInTexels / 4, 1};
        default:
            return shape;
    }
}

Rejection size_rejection(const char* parameter, std::uint32_t value, std::uint32_t limit) {
    return {parameter, std::to_string(value) + " is outside 1.." + std::to_string(limit)};
}

// Every reason the reference device refuses a tiled texture, in the order a
// caller would fix them; the shape is already known to be 2D or 3D.
bool check_texture(const ResourceShape& shape, Rejection& why) {
    const bool volume = shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    const formats::FormatInfo& facts = formats::info(shape.format);
    if (std::string text = untileable_format(shape.format); !text.empty()) {
        why = {"pDesc->Format", std::move(text)};
        return false;
    }
    const std::uint32_t size_limit = volume ? kMaxTexture3DSize : kMaxTexture2DSize;
    if (shape.width == 0 || shape.width > size_limit) {
        why = size_rejection("pDesc->Width", shape.width, size_limit);
        return false;
    }
    if (shape.height == 0 || shape.height > size_limit) {
        why = size_rejection("pDesc->Height", shape.height, size_limit);
        return false;
    }
    if (volume && (shape.depth == 0 || shape.depth > size_limit)) {
        why = size_rejection("pDesc->Depth", shape.depth, size_limit);
        return false;
    }
    if (is_block_compressed(facts) && (shape.width % 4 != 0 || shape.height % 4 != 0)) {
        why = {shape.width % 4 != 0 ? "pDesc->Width" : "pDesc->Height",
               std::to_string(shape.width) + "x" + std::to_string(shape.height) +
                   " is not a multiple of 4 in both dimensions, as " +
                   formats::describe(shape.format) + " needs"};
        return false;
    }
    if (volume && shape.array_size != 1) {
        why = {"pDesc", "a Texture3D has 1 slice, not " + std::to_string(shape.array_size)};
        return false;
    }
    if (shape.array_size == 0 || shape.array_size > kMaxArraySize) {
        why = size_rejection("pDesc->ArraySize", shape.array_size, kMaxArraySize);
        return false;
    }
    const std::uint32_t largest = volume ? std::max({shape.width, shape.height, shape.depth})
                                         : std::max(shape.width, shape.height);
    const std::uint32_t max_mips = full_mip_chain(largest);
    if (shape.mip_levels > max_mips) {
        why = {"pDesc->MipLevels", std::to_string(shape.mip_levels) + " is more than the " +
                                       std::to_string(max_mips) + " levels of a " +
                                       std::to_string(largest) + "-texel texture"};
        return false;
    }
    if (shape.sample_count == 1) return true;
    const std::string samples = std::to_string(shape.sample_count) + " samples";
    if (shape.sample_count != 4) {
        why = {"pDesc->SampleDesc.Count", samples + ": a tiled resource may have 1 or 4 samples"};
        return false;
    }
    if (volume) {
        why = {"pDesc->SampleDesc.Count", samples + ": a Texture3D has 1 sample"};
        return false;
    }
    if (facts.bits_per_element == 128) {
        why = {"pDesc->SampleDesc.Count",
               samples + ": " + formats::describe(shape.format) +
                   " has 128 bits per texel, and a tiled resource of 128-bit texels cannot be "
                   "multisampled"};
        return false;
    }
    if (is_block_compressed(facts)) {
        why = {"pDesc->SampleDesc.Count",
               samples + ": " + formats::describe(shape.format) + " cannot be multisampled"};
        return false;
    }
    if (shape.mip_levels != 1) {
        why = {"pDesc->MipLevels",
               std::to_string(shape.mip_levels) + " levels: a multisampled texture has exactly 1"};
        return false;
    }
    return true;
}

HRESULT buffer_tiling(const ResourceShape& shape, ResourceTiling& tiling,
                      runtime::MessageSink* sink) {
    if (shape.byte_width == 0 || shape.byte_width > kMaxBufferBytes) {
        return reject(shape,
                      {"pDesc->ByteWidth", std::to_string(shape.byte_width) + " is outside 1.." +
                                               std::to_string(kMaxBufferBytes)},
                      sink);
    }
    const auto tiles = static_cast<std::uint32_t>(divide_round_up(shape.byte_width, kTileBytes));
    ResourceTiling result;
    result.total_tiles = tiles;
    result.packed = D3D11_PACKED_MIP_DESC{1, 0, 0, 0};
    result.shape = D3D11_TILE_SHAPE{kTileBytes, 1, 1};  // a buffer tile is 64 KiB along X
    result.subresources = {D3D11_SUBRESOURCE_TILING{tiles, 1, 1, 0}};
    tiling = std::move(result);
    return S_OK;
}

// Bytes of one mip of one slice, partial blocks counted whole.
std::uint64_t mip_bytes(const ResourceShape& shape, std::uint32_t mip) {
    const std::uint64_t depth =
        shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D ? mip_size(shape.depth, mip) : 1;
    return formats::row_pitch(shape.format, mip_size(shape.width, mip)) *
           formats::row_count(shape.format, mip_size(shape.height, mip)) * depth *
           shape.sample_count;
}

HRESULT texture_tiling(const ResourceShape& requested, ResourceTiling& tiling,
                       runtime::MessageSink* sink) {
    Rejection why;
    if (!check_texture(requested, why)) return reject(requested, why, sink);

    ResourceShape shape = requested;
    const bool volume = shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    if (!volume) shape.depth = 1;
    if (shape.mip_levels == 0) {  // MipLevels 0 asks for the full chain
        shape.mip_levels =
            full_mip_chain(volume ? std::max({shape.width, shape.height, shape.depth})
                                  : std::max(shape.width, shape.height));
    }

    const formats::FormatInfo& facts = formats::info(shape.format);
    const D3D11_TILE_SHAPE tile =
        multisampled(single_sample_shape(facts, volume), shape.sample_count);

    // The first mip smaller than a tile in any dimension starts the packed set.
    std::uint32_t standard_mips = 0;
    while (standard_mips < shape.mip_levels &&
           mip_size(shape.width, standard_mips) >= tile.WidthInTexels &&
           mip_size(shape.height, standard_mips) >= tile.HeightInTexels &&
           (!volume || mip_size(shape.depth, standard_mips) >= tile.DepthInTexels)) {
        ++standard_mips;
    }
    const std::uint32_t packed_mips = shape.mip_levels - standard_mips;

    std::vector<D3D11_SUBRESOURCE_TILING> slice_mips(
        shape.mip_levels, D3D11_SUBRESOURCE_TILING{0, 0, 0, kPackedStart});
    std::uint64_t standard_tiles = 0;
    for (std::uint32_t mip = 0; mip < standard_mips; ++mip) {
        D3D11_SUBRESOURCE_TILING& sub = slice_mips[mip];
        sub.WidthInTiles =
            static_cast<UINT>(divide_round_up(mip_size(shape.width, mip), tile.WidthInTexels));
        sub.HeightInTiles =
            static_cast<UINT16>(divide_round_up(mip_size(shape.height, mip), tile.HeightInTexels));
        sub.DepthInTiles =
            static_cast<UINT16>(divide_round_up(mip_size(shape.depth, mip), tile.DepthInTexels));
        sub.StartTileIndexInOverallResource = static_cast<UINT>(standard_tiles);
        standard_tiles += std::uint64_t{sub.WidthInTiles} * sub.HeightInTiles * sub.DepthInTiles;
    }
    std::uint64_t packed_bytes = 0;
    for (std::uint32_t mip = standard_mips; mip < shape.mip_levels; ++mip) {
        packed_bytes += mip_bytes(shape, mip);
    }
    const std::uint64_t packed_tiles =
        packed_mips == 0 ? 0
                         : std::max<std::uint64_t>(1, divide_round_up(packed_bytes, kTileBytes));
    const std::uint64_t tiles_per_slice = standard_tiles + packed_tiles;

    ResourceTiling result;
    result.mip_levels = shape.mip_levels;
    result.array_size = shape.array_size;
    // The D3D11 limits keep every count far below 2^32 tiles.
    result.total_tiles = static_cast<std::uint32_t>(tiles_per_slice * shape.array_size);
    result.packed.NumStandardMips = static_cast<UINT8>(standard_mips);
    result.packed.NumPackedMips = static_cast<UINT8>(packed_mips);
    result.packed.NumTilesForPackedMips = static_cast<UINT>(packed_tiles);
    result.packed.StartTileIndexInOverallResource =
        packed_mips == 0 ? 0 : static_cast<UINT>(standard_tiles);
    result.shape = standard_mips == 0 ? D3D11_TILE_SHAPE{0, 0, 0} : tile;
    result.subresources.reserve(std::size_t{shape.mip_levels} * shape.array_size);
    for (std::uint32_t slice = 0; slice < shape.array_size; ++slice) {
        const auto slice_start = static_cast<UINT>(tiles_per_slice * slice);
        for (D3D11_SUBRESOURCE_TILING sub : slice_mips) {
            if (sub.StartTileIndexInOverallResource != kPackedStart) {
                sub.StartTileIndexInOverallResource += slice_start;
            }
            result.subresources.push_back(sub);
        }
    }
    tiling = std::move(result);
    return S_OK;
}

}  // namespace

std::uint32_t ResourceTiling::packed_start(std::uint32_t slice) const {
    if (packed.NumPackedMips == 0 || slice >= array_size || array_size == 0) return kPackedStart;
    const std::uint32_t tiles_per_slice = total_tiles / array_size;
    return slice * tiles_per_slice + packed.StartTileIndexInOverallResource;
}

bool same_tiling(const ResourceTiling& a, const ResourceTiling& b) {
    const auto same_sub = [](const D3D11_SUBRESOURCE_TILING& x, const D3D11_SUBRESOURCE_TILING& y) {
        return x.WidthInTiles == y.WidthInTiles && x.HeightInTiles == y.HeightInTiles &&
               x.DepthInTiles == y.DepthInTiles &&
               x.StartTileIndexInOverallResource == y.StartTileIndexInOverallResource;
    };
    return a.total_tiles == b.total_tiles && a.mip_levels == b.mip_levels &&
           a.array_size == b.array_size && a.packed.NumStandardMips == b.packed.NumStandardMips &&
           a.packed.NumPackedMips == b.packed.NumPackedMips &&
           a.packed.NumTilesForPackedMips == b.packed.NumTilesForPackedMips &&
           a.packed.StartTileIndexInOverallResource == b.packed.StartTileIndexInOverallResource &&
           a.shape.WidthInTexels == b.shape.WidthInTexels &&
           a.shape.HeightInTexels == b.shape.HeightInTexels &&
           a.shape.DepthInTexels == b.shape.DepthInTexels &&
           std::equal(a.subresources.begin(), a.subresources.end(), b.subresources.begin(),
                      b.subresources.end(), same_sub);
}

HRESULT compute_tiling(const ResourceShape& shape, ResourceTiling& tiling,
                       runtime::MessageSink* sink) {
    switch (shape.dimension) {
        case D3D11_RESOURCE_DIMENSION_BUFFER:
            return buffer_tiling(shape, tiling, sink);
        case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
        case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
            return texture_tiling(shape, tiling, sink);
        case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
            return reject(shape,
                          {"pDesc->MiscFlags",
                           "D3D11_RESOURCE_MISC_TILED is not allowed on a Texture1D; tiled "
                           "resources are Buffers, Texture2Ds (arrays and cubes too) and "
                           "Texture3Ds"},
                          sink);
        default:
            return reject(
                shape,
                {"shape.dimension", std::to_string(static_cast<int>(shape.dimension)) +
                                        " is not a Buffer, Texture2D or Texture3D dimension"},
                sink);
    }
}

}  // namespace d3dcap::runtime::tiles
