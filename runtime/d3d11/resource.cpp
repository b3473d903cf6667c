// Buffers and textures: desc validation as the D3D11 runtime does it, tile
// pools and tiled resources through the tile model, then the backend.
#include <algorithm>
#include <bit>

#include "runtime/d3d11/device.h"
#include "runtime/formats/data_sizes.h"
#include "runtime/formats/format_rules.h"
#include "runtime/formats/formats.h"
#include "runtime/unexecuted_content.h"

namespace d3dcap::runtime::d3d11 {

Resource::Resource(ObjectKind kind, Device& device, const backend::ResourceInfo& info)
    : DeviceChildBase(kind, device), info_(info) {
    info_.id = id();
}

Resource::~Resource() {
    if (created_) device().release_resource(*this);
}

bool Resource::any_mapped() const {
    return std::any_of(mapped_.begin(), mapped_.end(), [](std::uint8_t type) { return type; });
}

void Resource::set_unexecuted_content(bool unexecuted) {
    if (unexecuted == unexecuted_content_) return;
    unexecuted_content_ = unexecuted;
    const std::uint8_t flag = unexecuted ? 1 : 0;
    private_data().set(kUnexecutedContentGuid, 1, &flag);
}

std::uint32_t Resource::mip_width(std::uint32_t mip) const {
    return std::max<std::uint32_t>(1, info_.width >> mip);
}
std::uint32_t Resource::mip_height(std::uint32_t mip) const {
    return std::max<std::uint32_t>(1, info_.height >> mip);
}
std::uint32_t Resource::mip_depth(std::uint32_t mip) const {
    return std::max<std::uint32_t>(1, info_.depth >> mip);
}

bool is_resource_kind(ObjectKind kind) {
    return kind == ObjectKind::Buffer || kind == ObjectKind::Texture1D ||
           kind == ObjectKind::Texture2D || kind == ObjectKind::Texture3D;
}

Resource* to_resource(ID3D11Resource* resource) {
    Object* object = object_of(resource);
    if (!object || !is_resource_kind(object->kind())) return nullptr;
    return static_cast<Resource*>(object);
}

void Device::release_resource(Resource& resource) {
    auto guard = lock();
    if (resource.info().tiled() || resource.info().tile_pool()) tiles_.destroy(resource.id());
    backend_->destroy_resource(resource.id());
}

namespace {

constexpr UINT kKnownBindFlags = D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER |
                                 D3D11_BIND_CONSTANT_BUFFER | D3D11_BIND_SHADER_RESOURCE |
                                 D3D11_BIND_STREAM_OUTPUT | D3D11_BIND_RENDER_TARGET |
                                 D3D11_BIND_DEPTH_STENCIL | D3D11_BIND_UNORDERED_ACCESS |
                                 D3D11_BIND_DECODER | D3D11_BIND_VIDEO_ENCODER;
constexpr UINT kSupportedMiscFlags =
    D3D11_RESOURCE_MISC_GENERATE_MIPS | D3D11_RESOURCE_MISC_SHARED |
    D3D11_RESOURCE_MISC_TEXTURECUBE | D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS |
    D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS | D3D11_RESOURCE_MISC_BUFFER_STRUCTURED |
    D3D11_RESOURCE_MISC_RESOURCE_CLAMP | D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX |
    D3D11_RESOURCE_MISC_GDI_COMPATIBLE | D3D11_RESOURCE_MISC_SHARED_NTHANDLE |
    D3D11_RESOURCE_MISC_TILE_POOL | D3D11_RESOURCE_MISC_TILED;
constexpr UINT kSharedFlags = D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX |
                              D3D11_RESOURCE_MISC_SHARED_NTHANDLE |
                              D3D11_RESOURCE_MISC_GDI_COMPATIBLE;
constexpr UINT kOutputBinds = D3D11_BIND_STREAM_OUTPUT | D3D11_BIND_RENDER_TARGET |
                              D3D11_BIND_DEPTH_STENCIL | D3D11_BIND_UNORDERED_ACCESS;

const char* usage_name(D3D11_USAGE usage) {
    switch (usage) {
        case D3D11_USAGE_DEFAULT:
            return "D3D11_USAGE_DEFAULT";
        case D3D11_USAGE_IMMUTABLE:
            return "D3D11_USAGE_IMMUTABLE";
        case D3D11_USAGE_DYNAMIC:
            return "D3D11_USAGE_DYNAMIC";
        case D3D11_USAGE_STAGING:
            return "D3D11_USAGE_STAGING";
    }
    return "?";
}

// The rules every resource shares: usage, CPU access, bind and misc flags.
HRESULT check_common(MessageLog& log, const char* call, D3D11_USAGE usage, UINT cpu, UINT bind,
                     UINT misc, bool has_initial) {
    if (usage > D3D11_USAGE_STAGING) {
        log.error(call, "pDesc->Usage", std::to_string(usage) + " is not a D3D11_USAGE");
        return E_INVALIDARG;
    }
    if (cpu & ~UINT{D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE}) {
        log.error(call, "pDesc->CPUAccessFlags", hex(cpu) + " has bits other than READ and WRITE");
        return E_INVALIDARG;
    }
    if (bind & ~kKnownBindFlags) {
        log.error(call, "pDesc->BindFlags", hex(bind) + " has unknown bits");
        return E_INVALIDARG;
    }
    if (bind & (D3D11_BIND_DECODER | D3D11_BIND_VIDEO_ENCODER)) {
        log.error(call, "pDesc->BindFlags", "video decoder and encoder bindings are not supported");
        return E_INVALIDARG;
    }
    if (misc & ~kSupportedMiscFlags) {
        log.error(call, "pDesc->MiscFlags",
                  hex(misc) +
                      " has bits this runtime does not support (restricted, guarded or "
                      "protected content, or unknown)");
        return E_INVALIDARG;
    }
    const std::string usage_text = usage_name(usage);
    switch (usage) {
        case D3D11_USAGE_DEFAULT:
            if (cpu) {
                log.error(call, "pDesc->CPUAccessFlags",
                          hex(cpu) +
                              " with D3D11_USAGE_DEFAULT; default resources take no CPU "
                              "access (MapOnDefaultBuffers is FALSE)");
                return E_INVALIDARG;
            }
            break;
        case D3D11_USAGE_IMMUTABLE:
            if (cpu) {
                log.error(call, "pDesc->CPUAccessFlags", hex(cpu) + " with " + usage_text);
                return E_INVALIDARG;
            }
            if (!has_initial) {
                log.error(
                    call, "pInitialData",
                    "is NULL; a D3D11_USAGE_IMMUTABLE resource needs its contents at creation");
                return E_INVALIDARG;
            }
            if (bind & kOutputBinds) {
                log.error(call, "pDesc->BindFlags",
                          hex(bind) +
                              ": an immutable resource cannot be a render target, depth "
                              "stencil, unordered access or stream output");
                return E_INVALIDARG;
            }
            break;
        case D3D11_USAGE_DYNAMIC:
            if (cpu != D3D11_CPU_ACCESS_WRITE) {
                log.error(call, "pDesc->CPUAccessFlags",
                          hex(cpu) +
                              " with D3D11_USAGE_DYNAMIC; it must be exactly "
                              "D3D11_CPU_ACCESS_WRITE");
                return E_INVALIDARG;
            }
            if (bind & kOutputBinds) {
                log.error(call, "pDesc->BindFlags",
                          hex(bind) +
                              ": a dynamic resource cannot be a render target, depth "
                              "stencil, unordered access or stream output");
                return E_INVALIDARG;
            }
            break;
        case D3D11_USAGE_STAGING:
            if (!cpu) {
                log.error(call, "pDesc->CPUAccessFlags",
                          "is 0 with D3D11_USAGE_STAGING; staging resources need READ or WRITE");
                return E_INVALIDARG;
            }
            if (bind) {
                log.error(
                    call, "pDesc->BindFlags",
                    hex(bind) + " with D3D11_USAGE_STAGING; staging resources bind to nothing");
                return E_INVALIDARG;
            }
            break;
    }
    if ((misc & (D3D11_RESOURCE_MISC_TILED | D3D11_RESOURCE_MISC_TILE_POOL)) &&
        usage != D3D11_USAGE_DEFAULT) {
        log.error(call, "pDesc->Usage",
                  usage_text + " with a tiled resource or tile pool; only D3D11_USAGE_DEFAULT");
        return E_INVALIDARG;
    }
    if ((misc & D3D11_RESOURCE_MISC_TILED) && (misc & D3D11_RESOURCE_MISC_TILE_POOL)) {
        log.error(call, "pDesc->MiscFlags", "TILED and TILE_POOL together");
        return E_INVALIDARG;
    }
    if ((misc & (D3D11_RESOURCE_MISC_TILED | D3D11_RESOURCE_MISC_TILE_POOL)) &&
        (misc & kSharedFlags)) {
        log.error(call, "pDesc->MiscFlags", "tiled resources and tile pools cannot be shared");
        return E_INVALIDARG;
    }
    if ((misc & (D3D11_RESOURCE_MISC_TILED | D3D11_RESOURCE_MISC_TILE_POOL)) && has_initial) {
        log.error(call, "pInitialData",
                  "is not NULL; tiled resources and tile pools start without contents");
        return E_INVALIDARG;
    }
    return S_OK;
}

// The opening every Create* resource method but CreateTexture2D shares: a
// NULL desc, then check_common.
template <class Desc>
HRESULT check_desc(MessageLog& log, const char* call, const Desc* desc,
                   const D3D11_SUBRESOURCE_DATA* initial) {
    if (!desc) {
        log.error(call, "pDesc", "is NULL");
        return E_INVALIDARG;
    }
    return check_common(log, call, desc->Usage, desc->CPUAccessFlags, desc->BindFlags,
                        desc->MiscFlags, initial != nullptr);
}

HRESULT check_initial_data(MessageLog& log, const char* call, const D3D11_SUBRESOURCE_DATA* initial,
                           std::uint32_t subresources) {
    if (!initial) return S_OK;
    for (std::uint32_t i = 0; i < subresources; ++i) {
        if (!initial[i].pSysMem) {
            log.error(call, "pInitialData[" + std::to_string(i) + "].pSysMem", "is NULL");
            return E_INVALIDARG;
        }
    }
    return S_OK;
}

// Formats and binds of textures.
HRESULT check_texture_format(MessageLog& log, const char* call, DXGI_FORMAT format, UINT bind,
                             UINT misc, UINT mip_levels, UINT support_bit) {
    if (format == DXGI_FORMAT_UNKNOWN || !formats::known(format)) {
        log.error(call, "pDesc->Format", format_name(format) + " is not a texture format");
        return E_INVALIDARG;
    }
    if (!(formats::support(format) & support_bit)) {
        log.error(call, "pDesc->Format",
                  format_name(format) + " is not supported for this texture dimension");
        return E_INVALIDARG;
    }
    if (bind & (D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER | D3D11_BIND_CONSTANT_BUFFER |
                D3D11_BIND_STREAM_OUTPUT)) {
        log.error(call, "pDesc->BindFlags",
                  hex(bind) +
                      ": textures cannot be vertex, index, constant or stream-output "
                      "buffers");
        return E_INVALIDARG;
    }
    const bool typeless = formats::typeless(format);
    if ((bind & D3D11_BIND_DEPTH_STENCIL) && !formats::depth_capable(format)) {
        log.error(
            call, "pDesc->BindFlags",
            "D3D11_BIND_DEPTH_STENCIL with " + format_name(format) + ", which is no depth format");
        return E_INVALIDARG;
    }
    if ((bind & D3D11_BIND_DEPTH_STENCIL) && (bind & D3D11_BIND_RENDER_TARGET)) {
        log.error(call, "pDesc->BindFlags", "RENDER_TARGET and DEPTH_STENCIL together");
        return E_INVALIDARG;
    }
    if ((bind & D3D11_BIND_RENDER_TARGET) && !formats::render_target(format) &&
        !(typeless && !formats::block_compressed(format))) {
        log.error(call, "pDesc->BindFlags",
                  "D3D11_BIND_RENDER_TARGET with " + format_name(format) +
                      ", which cannot be rendered to");
        return E_INVALIDARG;
    }
    if ((bind & D3D11_BIND_SHADER_RESOURCE) && formats::depth(format)) {
        log.error(call, "pDesc->BindFlags",
                  "D3D11_BIND_SHADER_RESOURCE with " + format_name(format) +
                      "; use the typeless format of its group to read depth in a shader");
        return E_INVALIDARG;
    }
    if ((bind & D3D11_BIND_UNORDERED_ACCESS) && !formats::unordered_access(format) &&
        !(typeless && !formats::block_compressed(format))) {
        log.error(call, "pDesc->BindFlags",
                  "D3D11_BIND_UNORDERED_ACCESS with " + format_name(format));
        return E_INVALIDARG;
    }
    if (misc & D3D11_RESOURCE_MISC_GENERATE_MIPS) {
        const UINT needed = D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE;
        if ((bind & needed) != needed) {
            log.error(call, "pDesc->MiscFlags",
                      "GENERATE_MIPS needs both RENDER_TARGET and SHADER_RESOURCE bind flags");
            return E_INVALIDARG;
        }
        if (mip_levels == 1) {
            log.error(call, "pDesc->MiscFlags", "GENERATE_MIPS on a texture with one mip level");
            return E_INVALIDARG;
        }
    }
    if (misc & (D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS | D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS |
                D3D11_RESOURCE_MISC_BUFFER_STRUCTURED | D3D11_RESOURCE_MISC_TILE_POOL)) {
        log.error(call, "pDesc->MiscFlags", hex(misc) + " has buffer-only flags on a texture");
        return E_INVALIDARG;
    }
    if (formats::block_compressed(format) && (bind & D3D11_BIND_DEPTH_STENCIL)) {
        log.error(call, "pDesc->Format", "block-compressed depth is impossible");
        return E_INVALIDARG;
    }
    return S_OK;
}

HRESULT check_mips(MessageLog& log, const char* call, UINT requested, std::uint32_t full,
                   UINT& resolved) {
    if (requested > full) {
        log.error(call, "pDesc->MipLevels",
                  std::to_string(requested) + " is more than the " + std::to_string(full) +
                      " levels of a full chain for this size");
        return E_INVALIDARG;
    }
    resolved = requested == 0 ? full : requested;
    return S_OK;
}

HRESULT check_block_size(MessageLog& log, const char* call, DXGI_FORMAT format, UINT width,
                         UINT height) {
    if (!formats::block_compressed(format)) return S_OK;
    if (width % 4 || height % 4) {
        log.error(call, "pDesc->Width",
                  std::to_string(width) + "x" + std::to_string(height) +
                      ": the top level of a block-compressed texture must be a multiple of 4 in "
                      "width and height");
        return E_INVALIDARG;
    }
    return S_OK;
}

HRESULT check_dynamic_texture(MessageLog& log, const char* call, D3D11_USAGE usage, UINT mips,
                              UINT array_size) {
    if (usage == D3D11_USAGE_DYNAMIC && (mips != 1 || array_size != 1)) {
        log.error(call, "pDesc->Usage",
                  "a D3D11_USAGE_DYNAMIC texture needs MipLevels 1 and ArraySize 1 (has " +
                      std::to_string(mips) + " and " + std::to_string(array_size) + ")");
        return E_INVALIDARG;
    }
    return S_OK;
}

HRESULT check_tiled_shape(MessageLog& log, const char* call, const backend::ResourceInfo& info,
                          std::optional<tiles::ResourceTiling>& tiling) {
    if (!info.tiled()) return S_OK;
    if (info.bind_flags & (D3D11_BIND_CONSTANT_BUFFER | D3D11_BIND_VERTEX_BUFFER |
                           D3D11_BIND_INDEX_BUFFER | D3D11_BIND_STREAM_OUTPUT)) {
        log.error(call, "pDesc->BindFlags",
                  hex(info.bind_flags) +
                      ": tiled resources cannot be constant, vertex, index or "
                      "stream-output buffers");
        return E_INVALIDARG;
    }
    tiles::ResourceShape shape;
    shape.dimension = info.dimension;
    shape.byte_width = info.byte_width;
    shape.width = info.width;
    shape.height = info.height;
    shape.depth = info.depth;
    shape.mip_levels = info.mip_levels;
    shape.array_size = info.array_size;
    shape.format = info.format;
    shape.sample_count = info.sample_count;
    tiling.emplace();
    const HRESULT hr = tiles::compute_tiling(shape, *tiling, &log);
    if (FAILED(hr)) tiling.reset();
    return hr;
}

std::string tiles_tier_text(D3D11_TILED_RESOURCES_TIER tier) {
    return tier == D3D11_TILED_RESOURCES_NOT_SUPPORTED ? "none"
                                                       : "tier " + std::to_string(int{tier});
}

}  // namespace

HRESULT Device::check_tier(const char* call, const backend::ResourceInfo& info) {
    if (!info.tiled() && !info.tile_pool()) return S_OK;
    const D3D11_TILED_RESOURCES_TIER tier = backend_->tiled_resources_tier();
    const bool volume = info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    if (tier != D3D11_TILED_RESOURCES_NOT_SUPPORTED &&
        !(volume && tier < D3D11_TILED_RESOURCES_TIER_3))
        return S_OK;
    log_.error(call, "pDesc->MiscFlags",
               std::string(volume ? "a tiled Texture3D needs" : "tiled resources need") +
                   (volume ? " tiled-resources tier 3" : " a tiled-resources tier") +
                   "; this device has " + tiles_tier_text(tier) + " (" + backend_->tier_reason() +
                   ")");
    return E_INVALIDARG;
}

template <class T, class Desc>
HRESULT Device::create_resource(const char* call, const backend::ResourceInfo& info,
                                const Desc& desc, const D3D11_SUBRESOURCE_DATA* initial,
                                std::optional<tiles::ResourceTiling> tiling, T** created) {
    T* resource = new T(*this, info, desc);
    resource->tiling = std::move(tiling);
    const ObjectId id = resource->id();
    HRESULT hr = S_OK;
    {
        auto guard = lock();
        hr = check_tier(call, info);
        if (SUCCEEDED(hr) && info.tile_pool()) hr = tiles_.create_pool(id, info.byte_width, &log_);
        if (SUCCEEDED(hr) && info.tiled()) {
            hr = tiles_.create_tiled_resource(id, *resource->tiling, &log_);
        }
        if (SUCCEEDED(hr)) {
            hr = backend_->create_resource(resource->info(), initial);
            if (FAILED(hr)) {
                log_.error(call, "",
                           "the " + std::string(backend_->name()) +
                               " backend could not create the resource (" + hex(hr) + ")");
                if (info.tile_pool() || info.tiled()) tiles_.destroy(id);
            }
        }
    }
    if (FAILED(hr)) {
        resource->release();
        return hr;
    }
    resource->mark_created();
    *created = resource;
    return S_OK;
}

HRESULT Device::CreateBuffer(const D3D11_BUFFER_DESC* desc, const D3D11_SUBRESOURCE_DATA* initial,
                             ID3D11Buffer** buffer) {
    const char* call = "ID3D11Device::CreateBuffer";
    if (buffer) *buffer = nullptr;
    HRESULT hr = check_desc(log_, call, desc, initial);
    if (FAILED(hr)) return hr;
    const UINT bind = desc->BindFlags, misc = desc->MiscFlags;
    // A tile pool may start empty and grow with ResizeTilePool.
    if (desc->ByteWidth == 0 && !(misc & D3D11_RESOURCE_MISC_TILE_POOL)) {
        log_.error(call, "pDesc->ByteWidth", "is 0; a buffer needs at least one byte");
        return E_INVALIDARG;
    }
    if (bind & D3D11_BIND_DEPTH_STENCIL) {
        log_.error(call, "pDesc->BindFlags", "a buffer cannot be a depth-stencil target");
        return E_INVALIDARG;
    }
    if (bind & D3D11_BIND_CONSTANT_BUFFER) {
        if (bind != D3D11_BIND_CONSTANT_BUFFER) {
            log_.error(call, "pDesc->BindFlags",
                       hex(bind) +
                           ": D3D11_BIND_CONSTANT_BUFFER cannot be combined with other "
                           "bind flags");
            return E_INVALIDARG;
        }
        if (desc->ByteWidth % 16) {
            log_.error(
                call, "pDesc->ByteWidth",
                std::to_string(desc->ByteWidth) + " is not a multiple of 16 for a constant buffer");
            return E_INVALIDARG;
        }
    }
    if (misc & (D3D11_RESOURCE_MISC_GENERATE_MIPS | D3D11_RESOURCE_MISC_TEXTURECUBE |
                D3D11_RESOURCE_MISC_RESOURCE_CLAMP | D3D11_RESOURCE_MISC_GDI_COMPATIBLE)) {
        log_.error(call, "pDesc->MiscFlags", hex(misc) + " has texture-only flags on a buffer");
        return E_INVALIDARG;
    }
    const bool structured = misc & D3D11_RESOURCE_MISC_BUFFER_STRUCTURED;
    if (structured) {
        const UINT stride = desc->StructureByteStride;
        if (stride == 0 || stride % 4 || stride > D3D11_REQ_MULTI_ELEMENT_STRUCTURE_SIZE_IN_BYTES) {
            log_.error(call, "pDesc->StructureByteStride",
                       std::to_string(stride) +
                           " must be a multiple of 4 in 4..2048 for a structured buffer");
            return E_INVALIDARG;
        }
        if (desc->ByteWidth % stride) {
            log_.error(call, "pDesc->ByteWidth",
                       std::to_string(desc->ByteWidth) + " is not a multiple of the stride " +
                           std::to_string(stride));
            return E_INVALIDARG;
        }
        if (misc &
            (D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS | D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS)) {
            log_.error(call, "pDesc->MiscFlags",
                       "BUFFER_STRUCTURED with ALLOW_RAW_VIEWS or DRAWINDIRECT_ARGS");
            return E_INVALIDARG;
        }
        if (bind & (D3D11_BIND_VERTEX_BUFFER | D3D11_BIND_INDEX_BUFFER |
                    D3D11_BIND_CONSTANT_BUFFER | D3D11_BIND_STREAM_OUTPUT)) {
            log_.error(call, "pDesc->BindFlags",
                       hex(bind) +
                           ": a structured buffer cannot be a vertex, index, constant or "
                           "stream-output buffer");
            return E_INVALIDARG;
        }
    }
    if (misc & D3D11_RESOURCE_MISC_TILE_POOL) {
        if (desc->ByteWidth % tiles::kTileBytes) {
            log_.error(call, "pDesc->ByteWidth",
                       std::to_string(desc->ByteWidth) +
                           " is not a multiple of 65536 (64 KiB) for a tile pool");
            return E_INVALIDARG;
        }
        if (bind || misc != D3D11_RESOURCE_MISC_TILE_POOL) {
            log_.error(call, "pDesc->BindFlags",
                       "a tile pool takes no bind flags and no misc flags besides TILE_POOL");
            return E_INVALIDARG;
        }
    }
    backend::ResourceInfo info;
    info.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
    info.byte_width = desc->ByteWidth;
    info.structure_stride = structured ? desc->StructureByteStride : 0;
    info.width = desc->ByteWidth;
    info.usage = desc->Usage;
    info.bind_flags = bind;
    info.cpu_access_flags = desc->CPUAccessFlags;
    info.misc_flags = misc;
    std::optional<tiles::ResourceTiling> tiling;
    hr = check_tiled_shape(log_, call, info, tiling);
    if (SUCCEEDED(hr)) hr = check_tier(call, info);
    if (FAILED(hr)) return hr;
    if (!buffer) return S_FALSE;
    D3D11_BUFFER_DESC stored = *desc;
    if (!structured) stored.StructureByteStride = 0;
    Buffer* created = nullptr;
    hr = create_resource(call, info, stored, initial, std::move(tiling), &created);
    if (SUCCEEDED(hr)) *buffer = created;
    return hr;
}

HRESULT Device::CreateTexture1D(const D3D11_TEXTURE1D_DESC* desc,
                                const D3D11_SUBRESOURCE_DATA* initial, ID3D11Texture1D** texture) {
    const char* call = "ID3D11Device::CreateTexture1D";
    if (texture) *texture = nullptr;
    HRESULT hr = check_desc(log_, call, desc, initial);
    if (FAILED(hr)) return hr;
    if (desc->Width == 0 || desc->Width > D3D11_REQ_TEXTURE1D_U_DIMENSION) {
        log_.error(call, "pDesc->Width", std::to_string(desc->Width) + " is outside 1..16384");
        return E_INVALIDARG;
    }
    if (desc->ArraySize == 0 || desc->ArraySize > D3D11_REQ_TEXTURE1D_ARRAY_AXIS_DIMENSION) {
        log_.error(call, "pDesc->ArraySize",
                   std::to_string(desc->ArraySize) + " is outside 1..2048");
        return E_INVALIDARG;
    }
    if (desc->MiscFlags & (D3D11_RESOURCE_MISC_TILED | D3D11_RESOURCE_MISC_TEXTURECUBE)) {
        log_.error(call, "pDesc->MiscFlags",
                   "a Texture1D can be neither tiled nor a cube (" + hex(desc->MiscFlags) + ")");
        return E_INVALIDARG;
    }
    UINT mips = 0;
    hr = check_mips(log_, call, desc->MipLevels, formats::full_mip_levels(desc->Width, 1, 1), mips);
    if (FAILED(hr)) return hr;
    hr = check_texture_format(log_, call, desc->Format, desc->BindFlags, desc->MiscFlags, mips,
                              D3D11_FORMAT_SUPPORT_TEXTURE1D);
    if (FAILED(hr)) return hr;
    hr = check_dynamic_texture(log_, call, desc->Usage, mips, desc->ArraySize);
    if (FAILED(hr)) return hr;
    hr = check_initial_data(log_, call, initial, mips * desc->ArraySize);
    if (FAILED(hr)) return hr;
    if (!texture) return S_FALSE;
    backend::ResourceInfo info;
    info.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE1D;
    info.width = desc->Width;
    info.mip_levels = mips;
    info.array_size = desc->ArraySize;
    info.format = desc->Format;
    info.usage = desc->Usage;
    info.bind_flags = desc->BindFlags;
    info.cpu_access_flags = desc->CPUAccessFlags;
    info.misc_flags = desc->MiscFlags;
    D3D11_TEXTURE1D_DESC stored = *desc;
    stored.MipLevels = mips;
    Texture1D* created = nullptr;
    hr = create_resource(call, info, stored, initial, std::nullopt, &created);
    if (SUCCEEDED(hr)) *texture = created;
    return hr;
}

namespace {

HRESULT check_texture2d(MessageLog& log, const char* call, const D3D11_TEXTURE2D_DESC& desc,
                        const D3D11_SUBRESOURCE_DATA* initial, backend::ResourceInfo& info,
                        D3D11_TEXTURE2D_DESC& stored,
                        std::optional<tiles::ResourceTiling>& tiling) {
    HRESULT hr = check_common(log, call, desc.Usage, desc.CPUAccessFlags, desc.BindFlags,
                              desc.MiscFlags, initial != nullptr);
    if (FAILED(hr)) return hr;
    if (desc.Width == 0 || desc.Width > D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION) {
        log.error(call, "pDesc->Width", std::to_string(desc.Width) + " is outside 1..16384");
        return E_INVALIDARG;
    }
    if (desc.Height == 0 || desc.Height > D3D11_REQ_TEXTURE2D_U_OR_V_DIMENSION) {
        log.error(call, "pDesc->Height", std::to_string(desc.Height) + " is outside 1..16384");
        return E_INVALIDARG;
    }
    if (desc.ArraySize == 0 || desc.ArraySize > D3D11_REQ_TEXTURE2D_ARRAY_AXIS_DIMENSION) {
        log.error(call, "pDesc->ArraySize", std::to_string(desc.ArraySize) + " is outside 1..2048");
        return E_INVALIDARG;
    }
    const UINT samples = desc.SampleDesc.Count;
    if (samples == 0) {
        log.error(call, "pDesc->SampleDesc.Count", "is 0; single-sampled textures use 1");
        return E_INVALIDARG;
    }
    UINT mips = 0;
    hr = check_mips(log, call, desc.MipLevels, formats::full_mip_levels(desc.Width, desc.Height, 1),
                    mips);
    if (FAILED(hr)) return hr;
    if (samples > 1) {
        if (desc.MipLevels != 1) {
            log.error(call, "pDesc->MipLevels",
                      std::to_string(desc.MipLevels) + " with " + std::to_string(samples) +
                          " samples; multisampled textures have exactly one mip level");
            return E_INVALIDARG;
        }
        if (desc.Usage != D3D11_USAGE_DEFAULT || (desc.BindFlags & D3D11_BIND_UNORDERED_ACCESS) ||
            (desc.MiscFlags & D3D11_RESOURCE_MISC_TEXTURECUBE)) {
            log.error(call, "pDesc->SampleDesc.Count",
                      std::to_string(samples) +
                          " samples need D3D11_USAGE_DEFAULT, no unordered access and no cube");
            return E_INVALIDARG;
        }
    }
    const UINT levels = formats::quality_levels(desc.Format, samples);
    const UINT quality = desc.SampleDesc.Quality;
    const bool standard_pattern = samples > 1 && (quality == D3D11_STANDARD_MULTISAMPLE_PATTERN ||
                                                  quality == D3D11_CENTER_MULTISAMPLE_PATTERN);
    if (levels == 0 || (quality >= levels && !standard_pattern)) {
        log.error(call, "pDesc->SampleDesc",
                  "Count " + std::to_string(samples) + " Quality " + std::to_string(quality) +
                      " is not supported for " + format_name(desc.Format) +
                      " (CheckMultisampleQualityLevels reports " + std::to_string(levels) + ")");
        return E_INVALIDARG;
    }
    if (desc.MiscFlags & D3D11_RESOURCE_MISC_TEXTURECUBE) {
        if (desc.ArraySize % 6) {
            log.error(call, "pDesc->ArraySize",
                      std::to_string(desc.ArraySize) + " is not a multiple of 6 for a cube");
            return E_INVALIDARG;
        }
        if (desc.Width != desc.Height) {
            log.error(call, "pDesc->Width",
                      std::to_string(desc.Width) + "x" + std::to_string(desc.Height) +
                          ": the faces of a cube are square");
            return E_INVALIDARG;
        }
    }
    hr = check_texture_format(log, call, desc.Format, desc.BindFlags, desc.MiscFlags, mips,
                              D3D11_FORMAT_SUPPORT_TEXTURE2D);
    if (FAILED(hr)) return hr;
    hr = check_block_size(log, call, desc.Format, desc.Width, desc.Height);
    if (FAILED(hr)) return hr;
    hr = check_dynamic_texture(log, call, desc.Usage, mips, desc.ArraySize);
    if (FAILED(hr)) return hr;
    hr = check_initial_data(log, call, initial, mips * desc.ArraySize);
    if (FAILED(hr)) return hr;
    info.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
    info.width = desc.Width;
    info.height = desc.Height;
    info.mip_levels = mips;
    info.array_size = desc.ArraySize;
    info.format = desc.Format;
    info.sample_count = samples;
    info.usage = desc.Usage;
    info.bind_flags = desc.BindFlags;
    info.cpu_access_flags = desc.CPUAccessFlags;
    info.misc_flags = desc.MiscFlags;
    stored = desc;
    stored.MipLevels = mips;
    return check_tiled_shape(log, call, info, tiling);
}

}  // namespace

HRESULT Device::create_texture2d(const char* call, const D3D11_TEXTURE2D_DESC& desc,
                                 Ref<Texture2D>& texture) {
    backend::ResourceInfo info;
    D3D11_TEXTURE2D_DESC stored{};
    std::optional<tiles::ResourceTiling> tiling;
    HRESULT hr = check_texture2d(log_, call, desc, nullptr, info, stored, tiling);
    if (FAILED(hr)) return hr;
    Texture2D* created = nullptr;
    hr = create_resource(call, info, stored, nullptr, std::move(tiling), &created);
    if (SUCCEEDED(hr)) texture = adopt_internal(created);
    return hr;
}

HRESULT Device::CreateTexture2D(const D3D11_TEXTURE2D_DESC* desc,
                                const D3D11_SUBRESOURCE_DATA* initial, ID3D11Texture2D** texture) {
    const char* call = "ID3D11Device::CreateTexture2D";
    if (texture) *texture = nullptr;
    if (!desc) {
        log_.error(call, "pDesc", "is NULL");
        return E_INVALIDARG;
    }
    backend::ResourceInfo info;
    D3D11_TEXTURE2D_DESC stored{};
    std::optional<tiles::ResourceTiling> tiling;
    HRESULT hr = check_texture2d(log_, call, *desc, initial, info, stored, tiling);
    if (SUCCEEDED(hr)) hr = check_tier(call, info);
    if (FAILED(hr)) return hr;
    if (!texture) return S_FALSE;
    Texture2D* created = nullptr;
    hr = create_resource(call, info, stored, initial, std::move(tiling), &created);
    if (SUCCEEDED(hr)) *texture = created;
    return hr;
}

HRESULT Device::CreateTexture3D(const D3D11_TEXTURE3D_DESC* desc,
                                const D3D11_SUBRESOURCE_DATA* initial, ID3D11Texture3D** texture) {
    const char* call = "ID3D11Device::CreateTexture3D";
    if (texture) *texture = nullptr;
    HRESULT hr = check_desc(log_, call, desc, initial);
    if (FAILED(hr)) return hr;
    const UINT limit = D3D11_REQ_TEXTURE3D_U_V_OR_W_DIMENSION;
    const std::pair<const char*, UINT> sizes[] = {{"pDesc->Width", desc->Width},
                                                  {"pDesc->Height", desc->Height},
                                                  {"pDesc->Depth", desc->Depth}};
    for (const auto& [parameter, size] : sizes) {
        if (size == 0 || size > limit) {
            log_.error(call, parameter, std::to_string(size) + " is outside 1..2048");
            return E_INVALIDARG;
        }
    }
    if (desc->BindFlags & D3D11_BIND_DEPTH_STENCIL) {
        log_.error(call, "pDesc->BindFlags", "a Texture3D cannot be a depth-stencil target");
        return E_INVALIDARG;
    }
    if (desc->MiscFlags & D3D11_RESOURCE_MISC_TEXTURECUBE) {
        log_.error(call, "pDesc->MiscFlags", "a Texture3D cannot be a cube");
        return E_INVALIDARG;
    }
    UINT mips = 0;
    hr = check_mips(log_, call, desc->MipLevels,
                    formats::full_mip_levels(desc->Width, desc->Height, desc->Depth), mips);
    if (FAILED(hr)) return hr;
    hr = check_texture_format(log_, call, desc->Format, desc->BindFlags, desc->MiscFlags, mips,
                              D3D11_FORMAT_SUPPORT_TEXTURE3D);
    if (FAILED(hr)) return hr;
    hr = check_block_size(log_, call, desc->Format, desc->Width, desc->Height);
    if (FAILED(hr)) return hr;
    hr = check_dynamic_texture(log_, call, desc->Usage, mips, 1);
    if (FAILED(hr)) return hr;
    hr = check_initial_data(log_, call, initial, mips);
    if (FAILED(hr)) return hr;
    backend::ResourceInfo info;
    info.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    info.width = desc->Width;
    info.height = desc->Height;
    info.depth = desc->Depth;
    info.mip_levels = mips;
    info.format = desc->Format;
    info.usage = desc->Usage;
    info.bind_flags = desc->BindFlags;
    info.cpu_access_flags = desc->CPUAccessFlags;
    info.misc_flags = desc->MiscFlags;
    std::optional<tiles::ResourceTiling> tiling;
    hr = check_tiled_shape(log_, call, info, tiling);
    if (SUCCEEDED(hr)) hr = check_tier(call, info);
    if (FAILED(hr)) return hr;
    if (!texture) return S_FALSE;
    D3D11_TEXTURE3D_DESC stored = *desc;
    stored.MipLevels = mips;
    Texture3D* created = nullptr;
    hr = create_resource(call, info, stored, initial, std::move(tiling), &created);
    if (SUCCEEDED(hr)) *texture = created;
    return hr;
}

}  // namespace d3dcap::runtime::d3d11
