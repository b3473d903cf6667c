// The canonical linear layout of a subresource.
#include "runtime/backend/subresource_layout.h"

#include <algorithm>

#include "runtime/formats/formats.h"

namespace d3dcap::runtime::backend {
namespace {

std::uint32_t mip_size(std::uint32_t size, std::uint32_t mip) {
    return mip >= 32 ? 1 : std::max<std::uint32_t>(1, size >> mip);
}

std::uint32_t divide_round_up(std::uint64_t value, std::uint32_t divisor) {
    return static_cast<std::uint32_t>((value + divisor - 1) / divisor);
}

bool is_buffer(const ResourceInfo& info) {
    return info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER || info.tile_pool();
}

}  // namespace

std::uint32_t mip_levels_of(const ResourceInfo& info) {
    if (is_buffer(info)) return 1;
    if (info.mip_levels != 0) return info.mip_levels;
    std::uint32_t largest = std::max(info.width, info.height);
    if (info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D)
        largest = std::max(largest, info.depth);
    std::uint32_t levels = 1;
    while (largest > 1) {
        largest /= 2;
        ++levels;
    }
    return levels;
}

SubresourceLayout layout_of(const ResourceInfo& info, std::uint32_t subresource) {
    SubresourceLayout layout;
    if (is_buffer(info)) {
        const auto bytes = static_cast<std::uint32_t>(info.byte_width);
        layout.texel_width = layout.width = bytes;
        return layout;
    }
    const std::uint32_t mips = mip_levels_of(info);
    layout.mip = subresource % mips;
    layout.slice = subresource / mips;
    layout.texel_width = mip_size(info.width, layout.mip);
    layout.texel_height = info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE1D
                              ? 1
                              : mip_size(info.height, layout.mip);
    layout.depth =
        info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D ? mip_size(info.depth, layout.mip) : 1;
    const formats::FormatInfo& facts = formats::info(info.format);
    const std::uint32_t samples = std::max<std::uint32_t>(1, info.sample_count);
    if (facts.bits_per_element == 0 || facts.bits_per_element % 8 != 0 ||
        formats::is_planar(info.format)) {
        // R1_UNORM and planar video formats: whole bytes of the documented row pitch.
        layout.width = static_cast<std::uint32_t>(
            std::max<std::uint64_t>(1, formats::row_pitch(info.format, layout.texel_width)));
        layout.height =
            std::max<std::uint32_t>(1, formats::row_count(info.format, layout.texel_height));
        layout.element_bytes = samples;
        return layout;
    }
    layout.block_width = facts.block_width;
    layout.block_height = facts.block_height;
    layout.width = divide_round_up(layout.texel_width, facts.block_width);
    layout.height = divide_round_up(layout.texel_height, facts.block_height);
    layout.element_bytes = facts.bits_per_element / 8 * samples;
    return layout;
}

std::uint64_t total_bytes(const ResourceInfo& info) {
    if (is_buffer(info)) return info.byte_width;
    const std::uint32_t count = mip_levels_of(info) * std::max<std::uint32_t>(1, info.array_size);
    std::uint64_t sum = 0;
    for (std::uint32_t sub = 0; sub < count; ++sub) sum += layout_of(info, sub).bytes();
    return sum;
}

}  // namespace d3dcap::runtime::backend
