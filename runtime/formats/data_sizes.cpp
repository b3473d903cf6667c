// Byte spans of application memory from resource descriptions. Format facts
// (block sizes, bytes per row of blocks) come from runtime/formats.h only.
#include "runtime/formats/data_sizes.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>

#include "runtime/formats/formats.h"

namespace d3dcap::runtime::formats {
namespace {

std::string num(std::uint64_t value) {
    return std::to_string(value);
}

SizeResult failure(const char* parameter, const std::string& text) {
    return SizeResult{0, std::string(parameter) + ": " + text};
}

bool is_buffer(const ResourceShape& shape) {
    return shape.dimension == D3D11_RESOURCE_DIMENSION_BUFFER;
}

// The description itself: anything here makes every size meaningless. Empty
// when the shape is usable.
std::string shape_error(const ResourceShape& shape) {
    switch (shape.dimension) {
        case D3D11_RESOURCE_DIMENSION_BUFFER:
            if (shape.width == 0) return "ByteWidth is 0";
            return {};
        case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
        case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
        case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
            break;
        default:
            return "dimension " + num(static_cast<std::uint32_t>(shape.dimension)) +
                   " is not a buffer or a 1D, 2D or 3D texture";
    }
    if (shape.width == 0 || shape.height == 0 || shape.depth == 0) {
        return "a texture of " + num(shape.width) + "x" + num(shape.height) + "x" +
               num(shape.depth) + " texels has no texels";
    }
    if (shape.array_size == 0) return "ArraySize is 0";
    const UINT full = full_mip_levels(shape.width, shape.height, shape.depth);
    if (shape.mip_levels == 0 || shape.mip_levels > full) {
        return "MipLevels (" + num(shape.mip_levels) + ") is not between 1 and the " + num(full) +
               " levels of the full chain of " + num(shape.width) + "x" + num(shape.height) + "x" +
               num(shape.depth);
    }
    if (shape.sample_count != 1) {
        // UpdateSubresource drops these, initial data is refused and they
        // cannot be mapped: there is no CPU-side layout to size.
        return "SampleDesc.Count is " + num(shape.sample_count) +
               "; only single-sampled textures have CPU-visible data";
    }
    const formats::FormatInfo& facts = formats::info(shape.format);
    if (facts.format != shape.format || facts.bits_per_element == 0) {
        return "format " + formats::describe(shape.format) + " has no texel size";
    }
    if (formats::is_planar(shape.format)) {
        // The chroma planes' rows differ from the luma rows; formats.h has no
        // per-plane layout to size them from.
        return "format " + formats::describe(shape.format) +
               " is not supported by the capture data sizes (planar)";
    }
    return {};
}

std::string subresource_error(const ResourceShape& shape, UINT subresource) {
    const UINT count = subresource_count(shape);
    if (subresource < count) return {};
    return num(subresource) + " is out of range: the resource has " + num(count) +
           (count == 1 ? " subresource" : " subresources") + " (" + num(shape.mip_levels) +
           (shape.mip_levels == 1 ? " mip x " : " mips x ") + num(shape.array_size) +
           (shape.array_size == 1 ? " slice)" : " slices)");
}

// A region of one mip in texels, [left, right) x [top, bottom) x [front, back).
struct Region {
    UINT left = 0, top = 0, front = 0, right = 0, bottom = 0, back = 0;
};

Region whole_mip(const ResourceShape& shape, UINT subresource) {
    if (is_buffer(shape)) return Region{0, 0, 0, shape.width, 1, 1};
    const UINT mip = subresource % shape.mip_levels;
    return Region{0,
                  0,
                  0,
                  mip_extent(shape.width, mip),
                  mip_extent(shape.height, mip),
                  mip_extent(shape.depth, mip)};
}

// (slices - 1) * depth_pitch + (rows - 1) * row_pitch + row_bytes of a region
// whose edges are on element boundaries.
SizeResult span(const ResourceShape& shape, const Region& region, UINT row_pitch, UINT depth_pitch,
                const char* pitches) {
    std::uint64_t row_bytes = region.right - region.left;
    std::uint64_t rows = 1;
    if (!is_buffer(shape)) {
        row_bytes = formats::row_pitch(shape.format, region.right - region.left);
        rows = formats::row_count(shape.format, region.bottom - region.top);
    }
    const std::uint64_t slices = region.back - region.front;
    if (row_bytes == 0 || rows == 0 || slices == 0) return {};
    const std::uint64_t bytes = (slices - 1) * depth_pitch + (rows - 1) * row_pitch + row_bytes;
    if (bytes > std::numeric_limits<std::size_t>::max()) {
        return failure(pitches, "span " + num(bytes) + " does not fit in a size_t");
    }
    return SizeResult{static_cast<std::size_t>(bytes), {}};
}

// The checks of pDstBox against the mip, in the order of its members.
std::string box_error(const ResourceShape& shape, UINT subresource, const D3D11_BOX& box) {
    const Region mip = whole_mip(shape, subresource);
    const std::string of_mip = is_buffer(shape)
                                   ? std::string(" of the buffer (")
                                   : " of mip " + num(subresource % shape.mip_levels) + " (";
    if (box.right > mip.right) {
        return "right (" + num(box.right) + ") is past the " +
               (is_buffer(shape) ? "end" : "width") + of_mip + num(mip.right) +
               (is_buffer(shape) ? " bytes)" : ")");
    }
    if (box.bottom > mip.bottom) {
        return "bottom (" + num(box.bottom) + ") is past the height" + of_mip + num(mip.bottom) +
               ")";
    }
    if (box.back > mip.back) {
        return "back (" + num(box.back) + ") is past the depth" + of_mip + num(mip.back) + ")";
    }
    if (is_buffer(shape)) return {};
    // Block formats (BC, packed 4:2:2) update whole blocks: edges on block
    // boundaries, except a right or bottom edge at the mip's own edge.
    const formats::FormatInfo& facts = formats::info(shape.format);
    const UINT bw = std::max<UINT>(1, facts.block_width);
    const UINT bh = std::max<UINT>(1, facts.block_height);
    const std::string format = formats::describe(shape.format);
    if (box.left % bw) {
        return "left (" + num(box.left) + ") is not a multiple of the block width (" + num(bw) +
               ") of " + format;
    }
    if (box.top % bh) {
        return "top (" + num(box.top) + ") is not a multiple of the block height (" + num(bh) +
               ") of " + format;
    }
    if (box.right % bw && box.right != mip.right) {
        return "right (" + num(box.right) + ") is neither a multiple of the block width (" +
               num(bw) + ") of " + format + " nor the width" + of_mip + num(mip.right) + ")";
    }
    if (box.bottom % bh && box.bottom != mip.bottom) {
        return "bottom (" + num(box.bottom) + ") is neither a multiple of the block height (" +
               num(bh) + ") of " + format + " nor the height" + of_mip + num(mip.bottom) + ")";
    }
    return {};
}

}  // namespace

UINT full_mip_levels(UINT width, UINT height, UINT depth) {
    return static_cast<UINT>(std::bit_width(std::max({width, height, depth, 1u})));
}

UINT mip_extent(UINT extent, UINT mip) {
    return mip >= 32 ? 1 : std::max<UINT>(1, extent >> mip);
}

UINT subresource_count(const ResourceShape& shape) {
    return is_buffer(shape) ? 1 : shape.mip_levels * shape.array_size;
}

ResourceShape shape_of(const D3D11_BUFFER_DESC& desc) {
    return ResourceShape{.dimension = D3D11_RESOURCE_DIMENSION_BUFFER,
                         .format = DXGI_FORMAT_UNKNOWN,
                         .width = desc.ByteWidth};
}

ResourceShape shape_of(const D3D11_TEXTURE1D_DESC& desc) {
    return ResourceShape{
        .dimension = D3D11_RESOURCE_DIMENSION_TEXTURE1D,
        .format = desc.Format,
        .width = desc.Width,
        .mip_levels = desc.MipLevels ? desc.MipLevels : full_mip_levels(desc.Width),
        .array_size = desc.ArraySize};
}

ResourceShape shape_of(const D3D11_TEXTURE2D_DESC& desc) {
    return ResourceShape{
        .dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D,
        .format = desc.Format,
        .width = desc.Width,
        .height = desc.Height,
        .mip_levels = desc.MipLevels ? desc.MipLevels : full_mip_levels(desc.Width, desc.Height),
        .array_size = desc.ArraySize,
        .sample_count = desc.SampleDesc.Count};
}

ResourceShape shape_of(const D3D11_TEXTURE3D_DESC& desc) {
    return ResourceShape{.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D,
                         .format = desc.Format,
                         .width = desc.Width,
                         .height = desc.Height,
                         .depth = desc.Depth,
                         .mip_levels = desc.MipLevels
                                           ? desc.MipLevels
                                           : full_mip_levels(desc.Width, desc.Height, desc.Depth)};
}

SizeResult update_subresource_bytes(const ResourceShape& shape, UINT dst_subresource,
                                    const D3D11_BOX* box, UINT src_row_pitch,
                                    UINT src_depth_pitch) {
    if (std::string error = shape_error(shape); !error.empty()) {
        return failure("pDstResource", error);
    }
    if (std::string error = subresource_error(shape, dst_subresource); !error.empty()) {
        return failure("DstSubresource", error);
    }
    if (!box)
        return span(shape, whole_mip(shape, dst_subresource), src_row_pitch, src_depth_pitch,
                    "SrcRowPitch, SrcDepthPitch");
    if (box->left >= box->right || box->top >= box->bottom || box->front >= box->back) return {};
    if (std::string error = box_error(shape, dst_subresource, *box); !error.empty()) {
        return failure("pDstBox", error);
    }
    const Region region{box->left, box->top, box->front, box->right, box->bottom, box->back};
    return span(shape, region, src_row_pitch, src_depth_pitch, "SrcRowPitch, SrcDepthPitch");
}

SizeResult initial_data_bytes(const ResourceShape& shape, UINT subresource, UINT sys_mem_pitch,
                              UINT sys_mem_slice_pitch) {
    if (std::string error = shape_error(shape); !error.empty()) {
        return failure("pDesc", error);
    }
    if (std::string error = subresource_error(shape, subresource); !error.empty()) {
        return failure("pInitialData", "element " + error);
    }
    return span(shape, whole_mip(shape, subresource), sys_mem_pitch, sys_mem_slice_pitch,
                "SysMemPitch, SysMemSlicePitch");
}

SizeResult mapped_subresource_bytes(const ResourceShape& shape, UINT subresource, UINT row_pitch,
                                    UINT depth_pitch) {
    if (std::string error = shape_error(shape); !error.empty()) {
        return failure("pResource", error);
    }
    if (std::string error = subresource_error(shape, subresource); !error.empty()) {
        return failure("Subresource", error);
    }
    return span(shape, whole_mip(shape, subresource), row_pitch, depth_pitch,
                "RowPitch, DepthPitch");
}

}  // namespace d3dcap::runtime::formats
