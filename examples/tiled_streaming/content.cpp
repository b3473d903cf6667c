#include "content.h"

#include <cstring>

namespace tiled_streaming {

namespace {

// A tint per mip, so that a frame shows which mip each area came from.
constexpr std::uint32_t kMipTint[16] = {0x20, 0x48, 0x70, 0x98, 0xc0, 0xe8, 0x30, 0x58,
                                        0x80, 0xa8, 0xd0, 0xf8, 0x40, 0x68, 0x90, 0xb8};

}  // namespace

std::uint32_t texel(std::uint32_t mip, std::uint32_t mip_width, std::uint32_t x, std::uint32_t y) {
    const std::uint32_t width = mip_width == 0 ? 1 : mip_width;
    // A gradient over the whole mip, a 32-texel checker and lines every 128 texels.
    const std::uint32_t u = static_cast<std::uint32_t>(std::uint64_t{x} * 255 / width);
    const std::uint32_t v = static_cast<std::uint32_t>(std::uint64_t{y} * 255 / width);
    const std::uint32_t checker = ((x >> 5) ^ (y >> 5)) & 1;
    if (x % 128 == 0 || y % 128 == 0) return 0xffe0e0e0u;
    const std::uint32_t r = u * 3 / 4 + checker * 48;
    const std::uint32_t g = v * 3 / 4 + checker * 48 + ((x ^ y) & 7);
    const std::uint32_t b = kMipTint[mip & 15];
    return r | g << 8 | b << 16 | 0xffu << 24;
}

void fill_tile(std::uint32_t mip, std::uint32_t mip_width, std::uint32_t tile_x,
               std::uint32_t tile_y, std::uint32_t tile_width, std::uint32_t tile_height,
               std::uint8_t* out) {
    for (std::uint32_t row = 0; row < tile_height; ++row) {
        for (std::uint32_t column = 0; column < tile_width; ++column) {
            const std::uint32_t value =
                texel(mip, mip_width, tile_x * tile_width + column, tile_y * tile_height + row);
            std::memcpy(out + (std::size_t{row} * tile_width + column) * 4, &value, 4);
        }
    }
}

void fill_loading_tile(std::uint32_t tile_width, std::uint32_t tile_height, std::uint8_t* out) {
    for (std::uint32_t row = 0; row < tile_height; ++row) {
        for (std::uint32_t column = 0; column < tile_width; ++column) {
            // Magenta and grey stripes: unmistakably "not loaded yet".
            const bool stripe = ((column + row) / 16) % 2 == 0;
            const std::uint32_t value = stripe ? 0xffc000c0u : 0xff606060u;
            std::memcpy(out + (std::size_t{row} * tile_width + column) * 4, &value, 4);
        }
    }
}

std::vector<std::uint8_t> mip_bytes(std::uint32_t mip, std::uint32_t width, std::uint32_t height) {
    std::vector<std::uint8_t> bytes(std::size_t{width} * height * 4);
    for (std::uint32_t y = 0; y < height; ++y) {
        for (std::uint32_t x = 0; x < width; ++x) {
            const std::uint32_t value = texel(mip, width, x, y);
            std::memcpy(bytes.data() + (std::size_t{y} * width + x) * 4, &value, 4);
        }
    }
    return bytes;
}

std::uint32_t fnv1a(const void* data, std::size_t size, std::uint32_t hash) {
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    for (std::size_t i = 0; i < size; ++i) {
        hash ^= bytes[i];
        hash *= 0x01000193u;
    }
    return hash;
}

}  // namespace tiled_streaming
