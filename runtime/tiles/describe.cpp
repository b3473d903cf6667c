#include "runtime/tiles/describe.h"

#include <algorithm>
#include <utility>

#include "runtime/formats/formats.h"

namespace d3dcap::runtime::tiles {

namespace {

std::string byte_size(std::uint64_t bytes) {
    constexpr std::uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
    for (const auto& [unit, name] : {std::pair{kGiB, " GiB"}, {kMiB, " MiB"}, {kKiB, " KiB"}}) {
        if (bytes >= unit && bytes % unit == 0) return std::to_string(bytes / unit) + name;
    }
    return std::to_string(bytes) + " bytes";
}

}  // namespace

std::string describe(const ResourceShape& shape, Described as) {
    std::string text;
    switch (shape.dimension) {
        case D3D11_RESOURCE_DIMENSION_BUFFER:
            return "Buffer " + byte_size(shape.byte_width) +
                   (as.pool    ? " tile pool"
                    : as.tiled ? " tiled"
                               : "");
        case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
            text = "Texture1D " + std::to_string(shape.width);
            break;
        case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
            text = "Texture3D " + std::to_string(shape.width) + "x" + std::to_string(shape.height) +
                   "x" + std::to_string(shape.depth);
            break;
        default:
            text = "Texture2D " + std::to_string(shape.width) + "x" + std::to_string(shape.height);
            break;
    }
    if (shape.array_size > 1) text += "x" + std::to_string(shape.array_size);
    text += " " + formats::short_name(shape.format);
    std::uint32_t mips = shape.mip_levels;
    if (mips == 0) {  // the whole chain
        for (std::uint32_t size = std::max({shape.width, shape.height, shape.depth}); size > 0;
             size >>= 1)
            ++mips;
    }
    if (mips > 1) text += " " + std::to_string(mips) + " mips";
    if (shape.sample_count > 1) text += " " + std::to_string(shape.sample_count) + "x MSAA";
    return as.tiled ? text + " tiled" : text;
}

}  // namespace d3dcap::runtime::tiles
