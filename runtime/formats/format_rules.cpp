#include "runtime/formats/format_rules.h"

#include <d3d11_2.h>

#include <algorithm>
#include <initializer_list>

#include "runtime/formats/formats.h"

namespace d3dcap::runtime::formats {
namespace {

bool one_of(DXGI_FORMAT format, std::initializer_list<int> values) {
    return std::find(values.begin(), values.end(), static_cast<int>(format)) != values.end();
}

// Cast groups as [first, last] ranges of DXGI_FORMAT values; the first is
// the typeless member.
struct Group {
    int first, last;
};
constexpr Group kGroups[] = {
    {1, 4},   {5, 8},   {9, 14},  {15, 18}, {19, 22}, {23, 25}, {27, 32},
    {33, 38}, {39, 43}, {44, 47}, {48, 52}, {53, 59}, {60, 64}, {70, 72},
    {73, 75}, {76, 78}, {79, 81}, {82, 84}, {94, 96}, {97, 99},
};

// The kind of a format's values: its own, or its blocks' for BC formats.
formats::Kind value_kind(DXGI_FORMAT format) {
    const formats::FormatInfo& facts = formats::info(format);
    return facts.kind == formats::Kind::Compressed ? facts.block_kind : facts.kind;
}

bool srgb(DXGI_FORMAT format) {
    return value_kind(format) == formats::Kind::UnormSrgb;
}

}  // namespace

bool known(DXGI_FORMAT format) {
    return format >= 1 && format <= 115;
}

DXGI_FORMAT family(DXGI_FORMAT format) {
    const int value = format;
    for (const Group& group : kGroups) {
        if (value >= group.first && value <= group.last)
            return static_cast<DXGI_FORMAT>(group.first);
    }
    if (one_of(format, {87, 90, 91})) return DXGI_FORMAT_B8G8R8A8_TYPELESS;
    if (one_of(format, {88, 92, 93})) return DXGI_FORMAT_B8G8R8X8_TYPELESS;
    return format;
}

bool typeless(DXGI_FORMAT format) {
    return value_kind(format) == formats::Kind::Typeless;
}

bool depth(DXGI_FORMAT format) {
    return formats::info(format).kind == formats::Kind::Depth;
}
bool stencil(DXGI_FORMAT format) {
    return depth(format) && formats::info(format).channel_bits[1] > 0;
}
bool block_compressed(DXGI_FORMAT format) {
    return formats::info(format).kind == formats::Kind::Compressed;
}
bool video(DXGI_FORMAT format) {
    return formats::info(format).kind == formats::Kind::Video;
}

bool integer(DXGI_FORMAT format) {
    const formats::Kind kind = formats::info(format).kind;
    return kind == formats::Kind::Uint || kind == formats::Kind::Sint;
}

bool depth_capable(DXGI_FORMAT resource_format) {
    return depth_format_of(resource_format) != DXGI_FORMAT_UNKNOWN;
}

DXGI_FORMAT depth_format_of(DXGI_FORMAT resource_format) {
    switch (resource_format) {
        case DXGI_FORMAT_R32G8X24_TYPELESS:
        case DXGI_FORMAT_D32_FLOAT_S8X24_UINT:
            return DXGI_FORMAT_D32_FLOAT_S8X24_UINT;
        case DXGI_FORMAT_R32_TYPELESS:
        case DXGI_FORMAT_D32_FLOAT:
            return DXGI_FORMAT_D32_FLOAT;
        case DXGI_FORMAT_R24G8_TYPELESS:
        case DXGI_FORMAT_D24_UNORM_S8_UINT:
            return DXGI_FORMAT_D24_UNORM_S8_UINT;
        case DXGI_FORMAT_R16_TYPELESS:
        case DXGI_FORMAT_D16_UNORM:
            return DXGI_FORMAT_D16_UNORM;
        default:
            return DXGI_FORMAT_UNKNOWN;
    }
}

bool render_target(DXGI_FORMAT format) {
    return one_of(format, {2,  3,  4,  10, 11, 12, 13, 14, 16, 17, 18, 24, 25, 26, 28, 29,
                           30, 31, 32, 34, 35, 36, 37, 38, 41, 42, 43, 49, 50, 51, 52, 54,
                           56, 57, 58, 59, 61, 62, 63, 64, 65, 85, 86, 87, 88, 91, 93, 115});
}

bool shader_resource(DXGI_FORMAT format) {
    if (!known(format) || typeless(format) || depth(format) || video(format)) return false;
    return true;
}

bool unordered_access(DXGI_FORMAT format) {
    return render_target(format) && !srgb(format);
}

bool vertex_buffer(DXGI_FORMAT format) {
    return one_of(format, {2,  3,  4,  6,  7,  8,  10, 11, 12, 13, 14, 16, 17, 18, 24,
                           25, 26, 28, 30, 31, 32, 34, 35, 36, 37, 38, 41, 42, 43, 49,
                           50, 51, 52, 54, 56, 57, 58, 59, 61, 62, 63, 64, 87});
}

bool index_buffer(DXGI_FORMAT format) {
    return format == DXGI_FORMAT_R16_UINT || format == DXGI_FORMAT_R32_UINT;
}

bool display(DXGI_FORMAT format) {
    return one_of(format, {10, 24, 28, 29, 87, 89, 91});
}

bool view_compatible(DXGI_FORMAT resource, DXGI_FORMAT view) {
    if (resource == view) return true;
    return typeless(resource) && family(view) == resource;
}

bool copy_compatible(DXGI_FORMAT a, DXGI_FORMAT b, bool allow_block_reinterpret) {
    if (family(a) == family(b)) return true;
    if (!allow_block_reinterpret) return false;
    // A 4x4 block of BC1/BC4 is 64 bits and of the others 128 bits; an
    // uncompressed texel of the same size may stand for it.
    auto block_bits = [](DXGI_FORMAT format) -> int {
        return block_compressed(format) ? formats::info(format).bits_per_element : 0;
    };
    auto texel_bits = [](DXGI_FORMAT format) -> int {
        const formats::FormatInfo& facts = formats::info(format);
        const bool plain =
            !block_compressed(format) && !depth_capable(family(format)) && !video(format);
        return plain && (facts.bits_per_element == 64 || facts.bits_per_element == 128)
                   ? facts.bits_per_element
                   : 0;
    };
    const int a_block = block_bits(a), b_block = block_bits(b);
    if (a_block && !b_block) return a_block == texel_bits(b);
    if (b_block && !a_block) return b_block == texel_bits(a);
    return false;
}

std::uint32_t support(DXGI_FORMAT format) {
    if (!known(format) || video(format)) return 0;
    std::uint32_t bits = 0;
    const bool is_typeless = typeless(format);
    if (depth(format)) {
        return D3D11_FORMAT_SUPPORT_TEXTURE1D | D3D11_FORMAT_SUPPORT_TEXTURE2D |
               D3D11_FORMAT_SUPPORT_TEXTURECUBE | D3D11_FORMAT_SUPPORT_MIP |
               D3D11_FORMAT_SUPPORT_DEPTH_STENCIL | D3D11_FORMAT_SUPPORT_MULTISAMPLE_RENDERTARGET;
    }
    bits |= D3D11_FORMAT_SUPPORT_TEXTURE2D | D3D11_FORMAT_SUPPORT_TEXTURECUBE |
            D3D11_FORMAT_SUPPORT_MIP | D3D11_FORMAT_SUPPORT_CPU_LOCKABLE;
    if (!block_compressed(format)) bits |= D3D11_FORMAT_SUPPORT_TEXTURE1D;
    if (!one_of(format, {19, 20, 21, 22, 44, 45, 46, 47, 66, 68, 69})) {
        bits |= D3D11_FORMAT_SUPPORT_TEXTURE3D;
    }
    if (is_typeless) {
        return bits | D3D11_FORMAT_SUPPORT_CAST_WITHIN_BIT_LAYOUT;
    }
    if (family(format) != format || one_of(format, {90, 92})) {
        bits |= D3D11_FORMAT_SUPPORT_CAST_WITHIN_BIT_LAYOUT;
    }
    if (shader_resource(format)) {
        bits |= D3D11_FORMAT_SUPPORT_SHADER_LOAD;
        if (!integer(format)) {
            bits |= D3D11_FORMAT_SUPPORT_SHADER_SAMPLE | D3D11_FORMAT_SUPPORT_SHADER_GATHER;
        }
        if (one_of(format, {41, 21, 46, 54, 56})) {
            bits |= D3D11_FORMAT_SUPPORT_SHADER_SAMPLE_COMPARISON |
                    D3D11_FORMAT_SUPPORT_SHADER_GATHER_COMPARISON;
        }
    }
    if (!block_compressed(format) && !one_of(format, {21, 22, 46, 47, 66, 67, 68, 69})) {
        bits |= D3D11_FORMAT_SUPPORT_BUFFER;
    }
    if (vertex_buffer(format)) bits |= D3D11_FORMAT_SUPPORT_IA_VERTEX_BUFFER;
    if (index_buffer(format)) bits |= D3D11_FORMAT_SUPPORT_IA_INDEX_BUFFER;
    if (render_target(format)) {
        bits |= D3D11_FORMAT_SUPPORT_RENDER_TARGET | D3D11_FORMAT_SUPPORT_MULTISAMPLE_RENDERTARGET |
                D3D11_FORMAT_SUPPORT_MULTISAMPLE_LOAD | D3D11_FORMAT_SUPPORT_SO_BUFFER;
        if (!integer(format)) {
            bits |= D3D11_FORMAT_SUPPORT_BLENDABLE | D3D11_FORMAT_SUPPORT_MIP_AUTOGEN |
                    D3D11_FORMAT_SUPPORT_MULTISAMPLE_RESOLVE;
        }
    }
    if (unordered_access(format)) bits |= D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW;
    if (display(format)) {
        bits |= D3D11_FORMAT_SUPPORT_DISPLAY | D3D11_FORMAT_SUPPORT_BACK_BUFFER_CAST;
    }
    return bits;
}

std::uint32_t support2(DXGI_FORMAT format) {
    if (!known(format) || video(format)) return 0;
    std::uint32_t bits = 0;
    // Tiled: every format the tile model has a shape for.
    if (!one_of(format, {5, 6, 7, 8, 66, 68, 69})) bits |= D3D11_FORMAT_SUPPORT2_TILED;
    if (unordered_access(format)) bits |= D3D11_FORMAT_SUPPORT2_UAV_TYPED_STORE;
    if (one_of(format, {41, 42, 43})) {
        bits |= D3D11_FORMAT_SUPPORT2_UAV_TYPED_LOAD | D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_ADD |
                D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_BITWISE_OPS |
                D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_COMPARE_STORE_OR_COMPARE_EXCHANGE |
                D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_EXCHANGE;
        if (format != DXGI_FORMAT_R32_FLOAT) {
            bits |= D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_SIGNED_MIN_OR_MAX |
                    D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_UNSIGNED_MIN_OR_MAX;
        }
    }
    return bits;
}

std::uint32_t quality_levels(DXGI_FORMAT format, std::uint32_t sample_count) {
    if (sample_count == 1) return known(format) && !video(format) ? 1 : 0;
    if (sample_count != 2 && sample_count != 4 && sample_count != 8) return 0;
    if (depth(format) || render_target(format)) return 1;
    // A typeless group whose members render or hold depth.
    if (typeless(format) && !block_compressed(format)) return 1;
    return 0;
}

}  // namespace d3dcap::runtime::formats
