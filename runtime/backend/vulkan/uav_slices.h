// Texture3D UAVs of part of their W slices. Vulkan views a 3D storage image
// whole, so a shader translated for such a view has the view's first W
// slice added to the z coordinate of every access of that u# (an iadd into
// a temp of its own before each access), in the DXBC token stream itself:
// SM4/SM5 control flow is structured, so instructions can be inserted.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace d3dcap::runtime::backend::vulkan {

// (u# register, first W slice) pairs; false with the problem in `error`.
bool offset_uav_w_slices(std::vector<std::uint8_t>& container,
                         std::span<const std::pair<std::uint32_t, std::uint32_t>> first_slices,
                         std::string& error);

}  // namespace d3dcap::runtime::backend::vulkan
