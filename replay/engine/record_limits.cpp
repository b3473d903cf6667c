#include "replay/engine/record_limits.h"

#include <d3d11_2.h>
#include <d3dcap/api/call_dispatch.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "runtime/formats/formats.h"

namespace d3dcap::replay {

namespace {

// What replay keeps per tile of a tiled resource, at most: its mapping in the
// tile model and its place in the tiling adaptation's list of tiles (while
// that list grows).
constexpr std::uint64_t kTileStateBytes = 64;

// A texture as its description gives it (1 where a kind has no such size).
struct TextureShape {
    std::uint64_t width = 1, height = 1, depth = 1, slices = 1, samples = 1;
    std::uint32_t mips = 1, format = 0;
    bool tiled = false;
};

// D3D11's limits on a kind of texture, with the parameters that hold them.
struct TextureLimits {
    std::uint64_t width, height, depth, slices;
    const char *width_name, *height_name, *depth_name, *slices_name;
};

constexpr TextureLimits kTexture1D{D3D11_REQ_TEXTURE1D_U_DIMENSION,
                                   1,
                                   1,
                                   D3D11_REQ_TEXTURE1D_ARRAY_AXIS_DIMENSION,
                                   "pDesc->Width",
                                   nullptr,
                                   nullptr,
                                   "pDesc->ArraySize"};
constexpr TextureLimits kTexture2D{D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION,
                                   D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION,
                                   1,
                                   D3D11_REQ_TEXTURE2D_ARRAY_AXIS_DIMENSION,
                                   "pDesc->Width",
                                   "pDesc->Height",
                                   nullptr,
                                   "pDesc->ArraySize"};
constexpr TextureLimits kTexture3D{D3D11_REQ_TEXTURE3D_U_V_OR_W_DIMENSION,
                                   D3D11_REQ_TEXTURE3D_U_V_OR_W_DIMENSION,
                                   D3D11_REQ_TEXTURE3D_U_V_OR_W_DIMENSION,
                                   1,
                                   "pDesc->Width",
                                   "pDesc->Height",
                                   "pDesc->Depth",
                                   nullptr};

std::string check_memory(const char* what, std::uint64_t bytes, std::uint64_t cap) {
    if (bytes <= cap) return {};
    return std::string(what) + " needs " + std::to_string(bytes) +
           " bytes, more than the replay memory cap of " + std::to_string(cap) +
           " (D3DCAP_REPLAY_MEMORY_CAP)";
}

// Bytes of every mip of every array slice, as a device that keeps the texels
// would allocate them (an upper bound: no mip is smaller than one block).
std::uint64_t texture_bytes(const TextureShape& t) {
    const auto format = static_cast<DXGI_FORMAT>(t.format);
    const std::uint32_t mips = t.mips == 0 ? D3D11_REQ_MIP_LEVELS : t.mips;  // 0: a full chain
    std::uint64_t bytes = 0;
    for (std::uint32_t mip = 0; mip < mips && mip < D3D11_REQ_MIP_LEVELS; ++mip) {
        const std::uint64_t w = std::max<std::uint64_t>(1, t.width >> mip);
        const std::uint64_t h = std::max<std::uint64_t>(1, t.height >> mip);
        const std::uint64_t d = std::max<std::uint64_t>(1, t.depth >> mip);
        bytes += runtime::formats::row_pitch(format, static_cast<std::uint32_t>(w)) *
                 runtime::formats::row_count(format, static_cast<std::uint32_t>(h)) * d;
    }
    return bytes * t.slices * std::max<std::uint64_t>(1, t.samples);
}

// At least as many tiles as the texture has: no tile shape is smaller than
// 64x64 texels in 2D or 16x16x16 in 3D, and every mip of every slice takes
// whole tiles.
std::uint64_t tile_bound(const TextureShape& t) {
    const std::uint32_t mips = t.mips == 0 ? D3D11_REQ_MIP_LEVELS : t.mips;
    const std::uint64_t edge = t.depth > 1 ? 16 : 64;
    const auto tiles_across = [&](std::uint64_t size, std::uint32_t mip, std::uint64_t tile) {
        return (std::max<std::uint64_t>(1, size >> mip) + tile - 1) / tile;
    };
    std::uint64_t tiles = 0;
    for (std::uint32_t mip = 0; mip < mips && mip < D3D11_REQ_MIP_LEVELS; ++mip)
        tiles += tiles_across(t.width, mip, edge) * tiles_across(t.height, mip, edge) *
                 tiles_across(t.depth, mip, t.depth > 1 ? 16 : 1);
    return tiles * t.slices;
}

std::string check_texture(const TextureShape& t, const TextureLimits& limits,
                          std::uint64_t memory_cap) {
    const std::pair<std::uint64_t, std::pair<std::uint64_t, const char*>> sizes[] = {
        {t.width, {limits.width, limits.width_name}},
        {t.height, {limits.height, limits.height_name}},
        {t.depth, {limits.depth, limits.depth_name}},
        {t.slices, {limits.slices, limits.slices_name}},
        {t.samples, {D3D11_MAX_MULTISAMPLE_SAMPLE_COUNT, "pDesc->SampleDesc.Count"}}};
    for (const auto& [value, limit] : sizes) {
        if (value > limit.first)
            return std::string(limit.second) + " " + std::to_string(value) + " is more than " +
                   std::to_string(limit.first);
    }
    if (!t.tiled) return check_memory("the texture", texture_bytes(t), memory_cap);
    // A tiled texture's memory is its pool's, but replay keeps state per tile.
    return check_memory("the tile state of the tiled texture", tile_bound(t) * kTileStateBytes,
                        memory_cap);
}

template <class Desc>
bool tiled(const Desc& desc) {
    return (desc.misc_flags() & D3D11_RESOURCE_MISC_TILED) != 0;
}

}  // namespace

std::uint64_t memory_cap_from_environment(std::string& error) {
    const char* text = std::getenv("D3DCAP_REPLAY_MEMORY_CAP");
    if (text == nullptr || *text == 0) return kDefaultMemoryCap;
    char* end = nullptr;
    const unsigned long long mebibytes = std::strtoull(text, &end, 10);
    if (*end != 0 || *text == '-' || mebibytes == 0 || mebibytes > (std::uint64_t{1} << 40)) {
        error = std::string("D3DCAP_REPLAY_MEMORY_CAP: '") + text +
                "' is not a size in MiB (1 to 2^40)";
        return kDefaultMemoryCap;
    }
    return static_cast<std::uint64_t>(mebibytes) << 20;
}

std::string check_record_limits(const fb::Record& record, std::uint64_t memory_cap) {
    using api::CallOf;
    switch (static_cast<api::CallId>(record.header()->call())) {
        case api::CallId::ID3D11Device_CreateBuffer: {
            const auto* p = CallOf<fb::ID3D11Device_CreateBuffer>::get(record);
            if (p == nullptr || p->p_desc() == nullptr) return {};
            return check_memory("a buffer of pDesc->ByteWidth", p->p_desc()->byte_width(),
                                memory_cap);
        }
        case api::CallId::ID3D11Device_CreateTexture1D: {
            const auto* p = CallOf<fb::ID3D11Device_CreateTexture1D>::get(record);
            if (p == nullptr || p->p_desc() == nullptr) return {};
            const auto& d = *p->p_desc();
            return check_texture(
                {d.width(), 1, 1, d.array_size(), 1, d.mip_levels(), d.format(), tiled(d)},
                kTexture1D, memory_cap);
        }
        case api::CallId::ID3D11Device_CreateTexture2D: {
            const auto* p = CallOf<fb::ID3D11Device_CreateTexture2D>::get(record);
            if (p == nullptr || p->p_desc() == nullptr) return {};
            const auto& d = *p->p_desc();
            return check_texture({d.width(), d.height(), 1, d.array_size(), d.sample_desc().count(),
                                  d.mip_levels(), d.format(), tiled(d)},
                                 kTexture2D, memory_cap);
        }
        case api::CallId::ID3D11Device_CreateTexture3D: {
            const auto* p = CallOf<fb::ID3D11Device_CreateTexture3D>::get(record);
            if (p == nullptr || p->p_desc() == nullptr) return {};
            const auto& d = *p->p_desc();
            return check_texture(
                {d.width(), d.height(), d.depth(), 1, 1, d.mip_levels(), d.format(), tiled(d)},
                kTexture3D, memory_cap);
        }
        case api::CallId::ID3D11DeviceContext2_ResizeTilePool: {
            const auto* p = CallOf<fb::ID3D11DeviceContext2_ResizeTilePool>::get(record);
            if (p == nullptr) return {};
            return check_memory("a tile pool of NewSizeInBytes", p->new_size_in_bytes(),
                                memory_cap);
        }
        default:
            return {};
    }
}

}  // namespace d3dcap::replay
