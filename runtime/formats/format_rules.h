// What D3D11 allows a format to do: cast groups, depth and stencil, views,
// copies, and the CheckFormatSupport answers of the CPU devices. Built on
// formats.h (sizes and kinds); the rules here are the runtime's.
#pragma once

#include <dxgiformat.h>

#include <cstdint>

namespace d3dcap::runtime::formats {

// A value that is a DXGI format D3D11 knows (not UNKNOWN).
bool known(DXGI_FORMAT format);
// The typeless format of a cast group (R8G8B8A8_UNORM -> R8G8B8A8_TYPELESS),
// or the format itself when it belongs to none.
DXGI_FORMAT family(DXGI_FORMAT format);
// Fully typeless: no view may use it (R32_TYPELESS only for raw buffer views).
bool typeless(DXGI_FORMAT format);
bool depth(DXGI_FORMAT format);  // D32_FLOAT, D24_UNORM_S8_UINT, ...
bool stencil(DXGI_FORMAT format);
bool block_compressed(DXGI_FORMAT format);
bool video(DXGI_FORMAT format);
bool integer(DXGI_FORMAT format);  // UINT or SINT channels
// A resource format that can back a depth-stencil view (a depth format or
// the typeless group of one), and the depth format its group uses.
bool depth_capable(DXGI_FORMAT resource_format);
DXGI_FORMAT depth_format_of(DXGI_FORMAT resource_format);

bool render_target(DXGI_FORMAT format);
bool shader_resource(DXGI_FORMAT format);  // typed and readable by a shader
bool unordered_access(DXGI_FORMAT format);
bool vertex_buffer(DXGI_FORMAT format);
bool index_buffer(DXGI_FORMAT format);  // R16_UINT, R32_UINT
bool display(DXGI_FORMAT format);       // back-buffer formats of the swap chain

// A view of `view` on a resource of `resource`: equal, or the resource is
// typeless and the view in its cast group.
bool view_compatible(DXGI_FORMAT resource, DXGI_FORMAT view);
// CopyResource / CopySubresourceRegion: same cast group, or (regions only)
// a block-compressed format and an uncompressed one of the block's size.
bool copy_compatible(DXGI_FORMAT a, DXGI_FORMAT b, bool allow_block_reinterpret);

// D3D11_FORMAT_SUPPORT / D3D11_FORMAT_SUPPORT2 bits of the CPU devices;
// 0 for formats they do not support at all.
std::uint32_t support(DXGI_FORMAT format);
std::uint32_t support2(DXGI_FORMAT format);
// Multisample quality levels for a sample count (0 when unsupported).
std::uint32_t quality_levels(DXGI_FORMAT format, std::uint32_t sample_count);

}  // namespace d3dcap::runtime::formats
