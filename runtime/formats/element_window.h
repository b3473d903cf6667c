// Part of a subresource in elements (texels, or blocks of compressed
// formats): every step-th element of every step-th row of a rectangle, of
// every depth slice. What a viewer reads of a texture too large to read
// whole at the zoom it shows.
#pragma once

#include <cstdint>

namespace d3dcap::runtime::formats {

struct ElementWindow {
    std::uint32_t x = 0, y = 0, width = 0, height = 0, step = 1;
    std::uint32_t columns() const { return (width + step - 1) / step; }
    std::uint32_t rows() const { return (height + step - 1) / step; }
};

}  // namespace d3dcap::runtime::formats
