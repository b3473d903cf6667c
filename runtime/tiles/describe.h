// How a resource and a format are named for people, one wording for the
// tile timeline, the viewer and the pipeline rows.
#pragma once

#include <dxgiformat.h>

#include <cstdint>
#include <string>

#include "runtime/tiles/tiling.h"

namespace d3dcap::runtime::tiles {

// "Texture2D 16384x16384 R8G8B8A8_UNORM 15 mips tiled", "Texture2D
// 512x512x6 BC1_UNORM 10 mips", "Texture1D 256 R32_FLOAT", "Buffer 64 MiB
// tile pool", "Buffer 48 bytes". mip_levels 0 counts the whole chain.
struct Described {
    bool tiled = false;
    bool pool = false;
};
std::string describe(const ResourceShape& shape, Described as = {});

}  // namespace d3dcap::runtime::tiles
