// What the virtual texture holds: texels computed from their mip and position
// alone, so that a tile streamed out and in again gets the same bytes and
// every run produces the same frames.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tiled_streaming {

constexpr std::uint32_t kTileBytes = 65536;

// One RGBA8 texel (R in the low byte) of mip `mip`, whose width is `mip_width`.
std::uint32_t texel(std::uint32_t mip, std::uint32_t mip_width, std::uint32_t x, std::uint32_t y);

// The 64 KiB of tile (tile_x, tile_y) of a standard mip, texels row by row at
// the tile width (the layout UpdateTiles takes).
void fill_tile(std::uint32_t mip, std::uint32_t mip_width, std::uint32_t tile_x,
               std::uint32_t tile_y, std::uint32_t tile_width, std::uint32_t tile_height,
               std::uint8_t* out);

// The tile shown while a tile's data is on its way.
void fill_loading_tile(std::uint32_t tile_width, std::uint32_t tile_height, std::uint8_t* out);

// A whole mip, tightly packed (for the packed mips, written with UpdateSubresource1).
std::vector<std::uint8_t> mip_bytes(std::uint32_t mip, std::uint32_t width, std::uint32_t height);

// FNV-1a, 32 bits.
std::uint32_t fnv1a(const void* data, std::size_t size, std::uint32_t hash = 0x811c9dc5u);

}  // namespace tiled_streaming
