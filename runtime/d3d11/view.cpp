// Shader-resource, render-target, depth-stencil and unordered-access views:
// the default desc a NULL desc stands for, validation against the resource,
// and the resolved desc that GetDesc returns.
#include "runtime/d3d11/device.h"
#include "runtime/formats/format_rules.h"
#include "runtime/formats/formats.h"

namespace d3dcap::runtime::d3d11 {

// A UAV's hidden counter lives on devices that execute shaders.
View::~View() {
    if (kind() != ObjectKind::UnorderedAccessView) return;
    auto guard = device().lock();
    device().backend().forget_uav_counter(id());
}

bool has_hidden_counter(const UnorderedAccessView& view) {
    const D3D11_UNORDERED_ACCESS_VIEW_DESC& desc = view.desc();
    return desc.ViewDimension == D3D11_UAV_DIMENSION_BUFFER &&
           (desc.Buffer.Flags & (D3D11_BUFFER_UAV_FLAG_APPEND | D3D11_BUFFER_UAV_FLAG_COUNTER));
}

View* to_view(IUnknown* view) {
    Object* object = object_of(view);
    if (!object) return nullptr;
    switch (object->kind()) {
        case ObjectKind::ShaderResourceView:
        case ObjectKind::RenderTargetView:
        case ObjectKind::DepthStencilView:
        case ObjectKind::UnorderedAccessView:
            return static_cast<View*>(object);
        default:
            return nullptr;
    }
}

namespace {

constexpr UINT kAll = 0xffffffff;  // "the rest" in MipLevels / ArraySize / WSize

// Checks [first, first + count) inside total; count kAll means the rest.
bool check_range(MessageLog& log, const char* call, const std::string& parameter, UINT first,
                 UINT& count, UINT total, bool allow_all) {
    if (first >= total) {
        log.error(call, parameter,
                  "starts at " + std::to_string(first) + " but the resource has " +
                      std::to_string(total));
        return false;
    }
    if (count == kAll && allow_all) count = total - first;
    if (count == 0 || count > total - first) {
        log.error(call, parameter,
                  "covers " + std::to_string(first) + " + " + std::to_string(count) +
                      " but the resource has " + std::to_string(total));
        return false;
    }
    return true;
}

std::uint32_t element_bytes(DXGI_FORMAT format) {
    return formats::info(format).bits_per_element / 8;
}

// Element range of a buffer view.
bool check_elements(MessageLog& log, const char* call, const Resource& resource, UINT first,
                    UINT count, UINT element_size, backend::ViewInfo& info) {
    if (element_size == 0) {
        log.error(call, "pDesc->Format", "has no element size for a buffer view");
        return false;
    }
    const std::uint64_t end = (std::uint64_t{first} + count) * element_size;
    if (count == 0 || end > resource.info().byte_width) {
        log.error(call, "pDesc->Buffer",
                  "elements " + std::to_string(first) + " + " + std::to_string(count) + " of " +
                      std::to_string(element_size) + " bytes leave the " +
                      std::to_string(resource.info().byte_width) + "-byte buffer");
        return false;
    }
    info.first_element = first;
    info.element_count = count;
    return true;
}

bool check_bind(MessageLog& log, const char* call, const Resource* resource, UINT flag,
                const char* flag_name) {
    if (!resource) {
        log.error(call, "pResource", "is NULL or not a resource of this runtime");
        return false;
    }
    if (!(resource->info().bind_flags & flag)) {
        log.error(call, "pResource", std::string("was created without ") + flag_name);
        return false;
    }
    return true;
}

// UNORM_SRGB views of a back buffer's UNORM format.
bool srgb_view_of_back_buffer(const Resource& resource, DXGI_FORMAT format) {
    const DXGI_FORMAT own = resource.info().format;
    return resource.srgb_views &&
           ((own == DXGI_FORMAT_R8G8B8A8_UNORM && format == DXGI_FORMAT_R8G8B8A8_UNORM_SRGB) ||
            (own == DXGI_FORMAT_B8G8R8A8_UNORM && format == DXGI_FORMAT_B8G8R8A8_UNORM_SRGB));
}

bool check_view_format(MessageLog& log, const char* call, const Resource& resource,
                       DXGI_FORMAT format, bool (*usable)(DXGI_FORMAT), const char* use) {
    if (!formats::view_compatible(resource.info().format, format) &&
        !srgb_view_of_back_buffer(resource, format)) {
        log.error(call, "pDesc->Format",
                  format_name(format) + " cannot view a resource of " +
                      format_name(resource.info().format));
        return false;
    }
    if (!usable(format)) {
        log.error(call, "pDesc->Format", format_name(format) + " cannot be used " + use);
        return false;
    }
    return true;
}

bool dimension_mismatch(MessageLog& log, const char* call, int view_dimension) {
    log.error(call, "pDesc->ViewDimension",
              std::to_string(view_dimension) + " does not fit the resource's dimension or samples");
    return false;
}

}  // namespace

// The common path of the four Create*View methods: check the bind flag,
// resolve a NULL desc to the default, validate, then create.
template <class View, class Desc, class Interface>
HRESULT Device::create_view(const char* call, ID3D11Resource* resource, const Desc* desc,
                            Interface** view, UINT bind_flag, const char* bind_name,
                            bool (*make_default)(MessageLog&, const char*, const Resource&, Desc&),
                            bool (*check)(MessageLog&, const char*, const Resource&, Desc&,
                                          backend::ViewInfo&)) {
    if (view) *view = nullptr;
    Resource* target = to_resource(resource);
    if (!check_bind(log_, call, target, bind_flag, bind_name)) return E_INVALIDARG;
    Desc resolved{};
    if (desc) {
        resolved = *desc;
        // DXGI_FORMAT_UNKNOWN in a desc means the format of a typed texture.
        const backend::ResourceInfo& info = target->info();
        if (resolved.Format == DXGI_FORMAT_UNKNOWN &&
            info.dimension != D3D11_RESOURCE_DIMENSION_BUFFER && !formats::typeless(info.format))
            resolved.Format = info.format;
    } else if (!make_default(log_, call, *target, resolved)) {
        return E_INVALIDARG;
    }
    backend::ViewInfo info;
    if (!check(log_, call, *target, resolved, info)) return E_INVALIDARG;
    if (!view) return S_FALSE;
    *view = new View(*this, *target, info, resolved);
    return S_OK;
}
// Shader-resource views

namespace {

bool default_srv(MessageLog& log, const char* call, const Resource& resource,
                 D3D11_SHADER_RESOURCE_VIEW_DESC& desc) {
    const backend::ResourceInfo& info = resource.info();
    desc = {};
    desc.Format = info.format;
    if (info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
        if (!info.structure_stride) {
            log.error(call, "pDesc", "is NULL, which only a structured buffer allows");
            return false;
        }
        desc.Format = DXGI_FORMAT_UNKNOWN;
        desc.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
        desc.Buffer.FirstElement = 0;
        desc.Buffer.NumElements = static_cast<UINT>(info.byte_width / info.structure_stride);
        return true;
    }
    if (formats::typeless(info.format)) {
        log.error(call, "pDesc",
                  "is NULL but the resource is " + format_name(info.format) +
                      "; a typeless resource needs a desc naming the view format");
        return false;
    }
    const bool array = info.array_size > 1;
    switch (info.dimension) {
        case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
            if (array) {
                desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE1DARRAY;
                desc.Texture1DArray = {0, info.mip_levels, 0, info.array_size};
            } else {
                desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE1D;
                desc.Texture1D = {0, info.mip_levels};
            }
            return true;
        case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
            if (info.sample_count > 1) {
                if (array) {
                    desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DMSARRAY;
                    desc.Texture2DMSArray = {0, info.array_size};
                } else {
                    desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DMS;
                }
            } else if (info.misc_flags & D3D11_RESOURCE_MISC_TEXTURECUBE) {
                if (info.array_size > 6) {
                    desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURECUBEARRAY;
                    desc.TextureCubeArray = {0, info.mip_levels, 0, info.array_size / 6};
                } else {
                    desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURECUBE;
                    desc.TextureCube = {0, info.mip_levels};
                }
            } else if (array) {
                desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DARRAY;
                desc.Texture2DArray = {0, info.mip_levels, 0, info.array_size};
            } else {
                desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2D;
                desc.Texture2D = {0, info.mip_levels};
            }
            return true;
        case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
            desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE3D;
            desc.Texture3D = {0, info.mip_levels};
            return true;
        default:
            return false;
    }
}

bool check_srv(MessageLog& log, const char* call, const Resource& resource,
               D3D11_SHADER_RESOURCE_VIEW_DESC& desc, backend::ViewInfo& view) {
    const backend::ResourceInfo& info = resource.info();
    view.resource = resource.id();
    view.format = desc.Format;
    const auto dimension = desc.ViewDimension;
    if (info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
        if (dimension == D3D11_SRV_DIMENSION_BUFFER) {
            UINT size = 0;
            if (info.structure_stride) {
                if (desc.Format != DXGI_FORMAT_UNKNOWN) {
                    log.error(call, "pDesc->Format",
                              format_name(desc.Format) +
                                  "; views of a structured buffer use DXGI_FORMAT_UNKNOWN");
                    return false;
                }
                size = info.structure_stride;
            } else {
                if (!(formats::support(desc.Format) & D3D11_FORMAT_SUPPORT_BUFFER) ||
                    formats::typeless(desc.Format)) {
                    log.error(call, "pDesc->Format",
                              format_name(desc.Format) + " is not a typed buffer format");
                    return false;
                }
                size = element_bytes(desc.Format);
            }
            return check_elements(log, call, resource, desc.Buffer.FirstElement,
                                  desc.Buffer.NumElements, size, view);
        }
        if (dimension == D3D11_SRV_DIMENSION_BUFFEREX) {
            if (desc.BufferEx.Flags & ~UINT{D3D11_BUFFEREX_SRV_FLAG_RAW}) {
                log.error(call, "pDesc->BufferEx.Flags", hex(desc.BufferEx.Flags) + " is unknown");
                return false;
            }
            UINT size = info.structure_stride;
            if (desc.BufferEx.Flags & D3D11_BUFFEREX_SRV_FLAG_RAW) {
                if (desc.Format != DXGI_FORMAT_R32_TYPELESS ||
                    !(info.misc_flags & D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS)) {
                    log.error(call, "pDesc->BufferEx",
                              "raw views need DXGI_FORMAT_R32_TYPELESS and a buffer created with "
                              "BUFFER_ALLOW_RAW_VIEWS");
                    return false;
                }
                size = 4;
            } else if (!size) {
                if (formats::typeless(desc.Format)) {
                    log.error(call, "pDesc->Format", format_name(desc.Format) + " is typeless");
                    return false;
                }
                size = element_bytes(desc.Format);
            }
            return check_elements(log, call, resource, desc.BufferEx.FirstElement,
                                  desc.BufferEx.NumElements, size, view);
        }
        return dimension_mismatch(log, call, dimension);
    }
    if (!check_view_format(log, call, resource, desc.Format, formats::shader_resource,
                           "in a shader-resource view")) {
        return false;
    }
    const UINT mips = info.mip_levels, slices = info.array_size;
    auto mip_range = [&](UINT most, UINT& levels) {
        view.first_mip = most;
        if (!check_range(log, call, "pDesc->MostDetailedMip/MipLevels", most, levels, mips, true)) {
            return false;
        }
        view.mip_count = levels;
        return true;
    };
    auto slice_range = [&](UINT first, UINT& size) {
        view.first_slice = first;
        if (!check_range(log, call, "pDesc->FirstArraySlice/ArraySize", first, size, slices,
                         true)) {
            return false;
        }
        view.slice_count = size;
        return true;
    };
    const bool one_d = info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE1D;
    const bool two_d = info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE2D;
    const bool multisampled = info.sample_count > 1;
    switch (dimension) {
        case D3D11_SRV_DIMENSION_TEXTURE1D:
            if (!one_d) return dimension_mismatch(log, call, dimension);
            return mip_range(desc.Texture1D.MostDetailedMip, desc.Texture1D.MipLevels);
        case D3D11_SRV_DIMENSION_TEXTURE1DARRAY:
            if (!one_d) return dimension_mismatch(log, call, dimension);
            return mip_range(desc.Texture1DArray.MostDetailedMip, desc.Texture1DArray.MipLevels) &&
                   slice_range(desc.Texture1DArray.FirstArraySlice, desc.Texture1DArray.ArraySize);
        case D3D11_SRV_DIMENSION_TEXTURE2D:
            if (!two_d || multisampled) return dimension_mismatch(log, call, dimension);
            return mip_range(desc.Texture2D.MostDetailedMip, desc.Texture2D.MipLevels);
        case D3D11_SRV_DIMENSION_TEXTURE2DARRAY:
            if (!two_d || multisampled) return dimension_mismatch(log, call, dimension);
            return mip_range(desc.Texture2DArray.MostDetailedMip, desc.Texture2DArray.MipLevels) &&
                   slice_range(desc.Texture2DArray.FirstArraySlice, desc.Texture2DArray.ArraySize);
        case D3D11_SRV_DIMENSION_TEXTURE2DMS:
            if (!two_d || !multisampled) return dimension_mismatch(log, call, dimension);
            return true;
        case D3D11_SRV_DIMENSION_TEXTURE2DMSARRAY:
            if (!two_d || !multisampled) return dimension_mismatch(log, call, dimension);
            return slice_range(desc.Texture2DMSArray.FirstArraySlice,
                               desc.Texture2DMSArray.ArraySize);
        case D3D11_SRV_DIMENSION_TEXTURE3D:
            if (info.dimension != D3D11_RESOURCE_DIMENSION_TEXTURE3D) {
                return dimension_mismatch(log, call, dimension);
            }
            if (!mip_range(desc.Texture3D.MostDetailedMip, desc.Texture3D.MipLevels)) return false;
            view.slice_count = resource.mip_depth(view.first_mip);
            return true;
        case D3D11_SRV_DIMENSION_TEXTURECUBE:
        case D3D11_SRV_DIMENSION_TEXTURECUBEARRAY: {
            if (!two_d || multisampled || !(info.misc_flags & D3D11_RESOURCE_MISC_TEXTURECUBE)) {
                log.error(call, "pDesc->ViewDimension",
                          "cube views need a Texture2D created with RESOURCE_MISC_TEXTURECUBE");
                return false;
            }
            if (dimension == D3D11_SRV_DIMENSION_TEXTURECUBE) {
                UINT six = 6;
                return mip_range(desc.TextureCube.MostDetailedMip, desc.TextureCube.MipLevels) &&
                       slice_range(0, six);
            }
            auto& cube = desc.TextureCubeArray;
            if (cube.NumCubes == kAll) cube.NumCubes = (slices - cube.First2DArrayFace) / 6;
            UINT faces = cube.NumCubes * 6;
            return mip_range(cube.MostDetailedMip, cube.MipLevels) &&
                   slice_range(cube.First2DArrayFace, faces);
        }
        default:
            return dimension_mismatch(log, call, dimension);
    }
}

}  // namespace

HRESULT Device::CreateShaderResourceView(ID3D11Resource* resource,
                                         const D3D11_SHADER_RESOURCE_VIEW_DESC* desc,
                                         ID3D11ShaderResourceView** view) {
    return create_view<ShaderResourceView>("ID3D11Device::CreateShaderResourceView", resource, desc,
                                           view, D3D11_BIND_SHADER_RESOURCE,
                                           "D3D11_BIND_SHADER_RESOURCE", default_srv, check_srv);
}

// Render-target views

namespace {

bool default_rtv(MessageLog& log, const char* call, const Resource& resource,
                 D3D11_RENDER_TARGET_VIEW_DESC& desc) {
    const backend::ResourceInfo& info = resource.info();
    desc = {};
    desc.Format = info.format;
    if (info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER || formats::typeless(info.format)) {
        log.error(call, "pDesc",
                  "is NULL; a buffer or a typeless resource needs a desc naming the format");
        return false;
    }
    const bool array = info.array_size > 1;
    switch (info.dimension) {
        case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
            if (array) {
                desc.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE1DARRAY;
                desc.Texture1DArray = {0, 0, info.array_size};
            } else {
                desc.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE1D;
            }
            return true;
        case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
            if (info.sample_count > 1) {
                desc.ViewDimension =
                    array ? D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY : D3D11_RTV_DIMENSION_TEXTURE2DMS;
                if (array) desc.Texture2DMSArray = {0, info.array_size};
            } else if (array) {
                desc.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2DARRAY;
                desc.Texture2DArray = {0, 0, info.array_size};
            } else {
                desc.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE2D;
            }
            return true;
        case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
            desc.ViewDimension = D3D11_RTV_DIMENSION_TEXTURE3D;
            desc.Texture3D = {0, 0, info.depth};
            return true;
        default:
            return false;
    }
}

// The mip + slice checks shared by RTVs, DSVs and UAVs.
struct SliceView {
    MessageLog& log;
    const char* call;
    const Resource& resource;
    backend::ViewInfo& view;

    bool mip(UINT mip_slice) {
        view.first_mip = mip_slice;
        view.mip_count = 1;
        if (mip_slice >= resource.info().mip_levels) {
            log.error(call, "pDesc->MipSlice",
                      std::to_string(mip_slice) + " but the resource has " +
                          std::to_string(resource.info().mip_levels) + " mip levels");
            return false;
        }
        return true;
    }
    bool slices(UINT first, UINT& count) {
        view.first_slice = first;
        if (!check_range(log, call, "pDesc->FirstArraySlice/ArraySize", first, count,
                         resource.info().array_size, true)) {
            return false;
        }
        view.slice_count = count;
        return true;
    }
    bool w_slices(UINT first, UINT& count) {
        view.first_slice = first;
        if (!check_range(log, call, "pDesc->FirstWSlice/WSize", first, count,
                         resource.mip_depth(view.first_mip), true)) {
            return false;
        }
        view.slice_count = count;
        return true;
    }
};

// The part of a view desc's union that an RTV, DSV or UAV dimension uses.
enum class Shape { kNone, k1D, k1DArray, k2D, k2DArray, k2DMS, k2DMSArray, k3D };

Shape shape_of(D3D11_RTV_DIMENSION dimension) {
    switch (dimension) {
        case D3D11_RTV_DIMENSION_TEXTURE1D:
            return Shape::k1D;
        case D3D11_RTV_DIMENSION_TEXTURE1DARRAY:
            return Shape::k1DArray;
        case D3D11_RTV_DIMENSION_TEXTURE2D:
            return Shape::k2D;
        case D3D11_RTV_DIMENSION_TEXTURE2DARRAY:
            return Shape::k2DArray;
        case D3D11_RTV_DIMENSION_TEXTURE2DMS:
            return Shape::k2DMS;
        case D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY:
            return Shape::k2DMSArray;
        case D3D11_RTV_DIMENSION_TEXTURE3D:
            return Shape::k3D;
        default:
            return Shape::kNone;
    }
}

Shape shape_of(D3D11_DSV_DIMENSION dimension) {
    switch (dimension) {
        case D3D11_DSV_DIMENSION_TEXTURE1D:
            return Shape::k1D;
        case D3D11_DSV_DIMENSION_TEXTURE1DARRAY:
            return Shape::k1DArray;
        case D3D11_DSV_DIMENSION_TEXTURE2D:
            return Shape::k2D;
        case D3D11_DSV_DIMENSION_TEXTURE2DARRAY:
            return Shape::k2DArray;
        case D3D11_DSV_DIMENSION_TEXTURE2DMS:
            return Shape::k2DMS;
        case D3D11_DSV_DIMENSION_TEXTURE2DMSARRAY:
            return Shape::k2DMSArray;
        default:
            return Shape::kNone;
    }
}

Shape shape_of(D3D11_UAV_DIMENSION dimension) {
    switch (dimension) {
        case D3D11_UAV_DIMENSION_TEXTURE1D:
            return Shape::k1D;
        case D3D11_UAV_DIMENSION_TEXTURE1DARRAY:
            return Shape::k1DArray;
        case D3D11_UAV_DIMENSION_TEXTURE2D:
            return Shape::k2D;
        case D3D11_UAV_DIMENSION_TEXTURE2DARRAY:
            return Shape::k2DArray;
        case D3D11_UAV_DIMENSION_TEXTURE3D:
            return Shape::k3D;
        default:
            return Shape::kNone;
    }
}

// The texture part of the RTV, DSV and UAV checks: the view dimension must
// fit the resource, then its mip and slices must lie inside it. A desc with
// no multisampled dimensions (a UAV's) lets a 2D dimension view any Texture2D.
template <class Desc>
bool check_texture_dimension(MessageLog& log, const char* call, const Resource& resource,
                             Desc& desc, backend::ViewInfo& view) {
    constexpr bool has_ms = requires {
        desc.Texture2DMSArray;
    };
    const backend::ResourceInfo& info = resource.info();
    SliceView check{log, call, resource, view};
    const bool one_d = info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE1D;
    const bool two_d = info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE2D;
    const bool multisampled = has_ms && info.sample_count > 1;
    const auto dimension = desc.ViewDimension;
    switch (shape_of(dimension)) {
        case Shape::k1D:
            if (!one_d) return dimension_mismatch(log, call, dimension);
            return check.mip(desc.Texture1D.MipSlice);
        case Shape::k1DArray:
            if (!one_d) return dimension_mismatch(log, call, dimension);
            return check.mip(desc.Texture1DArray.MipSlice) &&
                   check.slices(desc.Texture1DArray.FirstArraySlice, desc.Texture1DArray.ArraySize);
        case Shape::k2D:
            if (!two_d || multisampled) return dimension_mismatch(log, call, dimension);
            return check.mip(desc.Texture2D.MipSlice);
        case Shape::k2DArray:
            if (!two_d || multisampled) return dimension_mismatch(log, call, dimension);
            return check.mip(desc.Texture2DArray.MipSlice) &&
                   check.slices(desc.Texture2DArray.FirstArraySlice, desc.Texture2DArray.ArraySize);
        case Shape::k2DMS:
            if (!two_d || !multisampled) return dimension_mismatch(log, call, dimension);
            return check.mip(0);
        case Shape::k2DMSArray:
            if constexpr (has_ms) {
                if (!two_d || !multisampled) return dimension_mismatch(log, call, dimension);
                return check.mip(0) && check.slices(desc.Texture2DMSArray.FirstArraySlice,
                                                    desc.Texture2DMSArray.ArraySize);
            }
            return dimension_mismatch(log, call, dimension);
        case Shape::k3D:
            if constexpr (requires { desc.Texture3D; }) {
                if (info.dimension != D3D11_RESOURCE_DIMENSION_TEXTURE3D) {
                    return dimension_mismatch(log, call, dimension);
                }
                return check.mip(desc.Texture3D.MipSlice) &&
                       check.w_slices(desc.Texture3D.FirstWSlice, desc.Texture3D.WSize);
            }
            return dimension_mismatch(log, call, dimension);
        default:
            return dimension_mismatch(log, call, dimension);
    }
}

bool check_rtv(MessageLog& log, const char* call, const Resource& resource,
               D3D11_RENDER_TARGET_VIEW_DESC& desc, backend::ViewInfo& view) {
    const backend::ResourceInfo& info = resource.info();
    view.resource = resource.id();
    view.format = desc.Format;
    const auto dimension = desc.ViewDimension;
    if (info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
        if (dimension != D3D11_RTV_DIMENSION_BUFFER)
            return dimension_mismatch(log, call, dimension);
        if (!formats::render_target(desc.Format)) {
            log.error(call, "pDesc->Format", format_name(desc.Format) + " cannot be rendered to");
            return false;
        }
        return check_elements(log, call, resource, desc.Buffer.FirstElement,
                              desc.Buffer.NumElements, element_bytes(desc.Format), view);
    }
    if (!check_view_format(log, call, resource, desc.Format, formats::render_target,
                           "as a render target")) {
        return false;
    }
    return check_texture_dimension(log, call, resource, desc, view);
}

}  // namespace

HRESULT Device::CreateRenderTargetView(ID3D11Resource* resource,
                                       const D3D11_RENDER_TARGET_VIEW_DESC* desc,
                                       ID3D11RenderTargetView** view) {
    return create_view<RenderTargetView>("ID3D11Device::CreateRenderTargetView", resource, desc,
                                         view, D3D11_BIND_RENDER_TARGET, "D3D11_BIND_RENDER_TARGET",
                                         default_rtv, check_rtv);
}

// Depth-stencil views

namespace {

bool default_dsv(MessageLog& log, const char* call, const Resource& resource,
                 D3D11_DEPTH_STENCIL_VIEW_DESC& desc) {
    const backend::ResourceInfo& info = resource.info();
    if (!formats::depth(info.format)) {
        log.error(call, "pDesc",
                  "is NULL but the resource is " + format_name(info.format) +
                      "; a typeless resource needs a desc naming the depth format");
        return false;
    }
    desc.Format = info.format;
    const bool array = info.array_size > 1;
    if (info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE1D) {
        desc.ViewDimension =
            array ? D3D11_DSV_DIMENSION_TEXTURE1DARRAY : D3D11_DSV_DIMENSION_TEXTURE1D;
        if (array) desc.Texture1DArray = {0, 0, info.array_size};
    } else if (info.sample_count > 1) {
        desc.ViewDimension =
            array ? D3D11_DSV_DIMENSION_TEXTURE2DMSARRAY : D3D11_DSV_DIMENSION_TEXTURE2DMS;
        if (array) desc.Texture2DMSArray = {0, info.array_size};
    } else {
        desc.ViewDimension =
            array ? D3D11_DSV_DIMENSION_TEXTURE2DARRAY : D3D11_DSV_DIMENSION_TEXTURE2D;
        if (array) desc.Texture2DArray = {0, 0, info.array_size};
    }
    return true;
}

bool check_dsv(MessageLog& log, const char* call, const Resource& resource,
               D3D11_DEPTH_STENCIL_VIEW_DESC& desc, backend::ViewInfo& view) {
    view.resource = resource.id();
    view.format = desc.Format;
    if (!check_view_format(log, call, resource, desc.Format, formats::depth,
                           "as a depth-stencil view")) {
        return false;
    }
    const UINT known_flags = D3D11_DSV_READ_ONLY_DEPTH | D3D11_DSV_READ_ONLY_STENCIL;
    if (desc.Flags & ~known_flags) {
        log.error(call, "pDesc->Flags", hex(desc.Flags) + " has unknown bits");
        return false;
    }
    if ((desc.Flags & D3D11_DSV_READ_ONLY_STENCIL) && !formats::stencil(desc.Format)) {
        log.error(call, "pDesc->Flags",
                  "READ_ONLY_STENCIL on " + format_name(desc.Format) + ", which has no stencil");
        return false;
    }
    return check_texture_dimension(log, call, resource, desc, view);
}

}  // namespace

HRESULT Device::CreateDepthStencilView(ID3D11Resource* resource,
                                       const D3D11_DEPTH_STENCIL_VIEW_DESC* desc,
                                       ID3D11DepthStencilView** view) {
    return create_view<DepthStencilView>("ID3D11Device::CreateDepthStencilView", resource, desc,
                                         view, D3D11_BIND_DEPTH_STENCIL, "D3D11_BIND_DEPTH_STENCIL",
                                         default_dsv, check_dsv);
}

// Unordered-access views

namespace {

bool default_uav(MessageLog& log, const char* call, const Resource& resource,
                 D3D11_UNORDERED_ACCESS_VIEW_DESC& desc) {
    const backend::ResourceInfo& info = resource.info();
    if (info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
        if (!info.structure_stride) {
            log.error(call, "pDesc", "is NULL, which only a structured buffer allows");
            return false;
        }
        desc.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
        desc.Buffer = {0, static_cast<UINT>(info.byte_width / info.structure_stride), 0};
        return true;
    }
    if (formats::typeless(info.format)) {
        log.error(call, "pDesc",
                  "is NULL but the resource is " + format_name(info.format) +
                      "; a typeless resource needs a desc naming the view format");
        return false;
    }
    desc.Format = info.format;
    const bool array = info.array_size > 1;
    if (info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE1D) {
        desc.ViewDimension =
            array ? D3D11_UAV_DIMENSION_TEXTURE1DARRAY : D3D11_UAV_DIMENSION_TEXTURE1D;
        if (array) desc.Texture1DArray = {0, 0, info.array_size};
    } else if (info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE2D) {
        desc.ViewDimension =
            array ? D3D11_UAV_DIMENSION_TEXTURE2DARRAY : D3D11_UAV_DIMENSION_TEXTURE2D;
        if (array) desc.Texture2DArray = {0, 0, info.array_size};
    } else {
        desc.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE3D;
        desc.Texture3D = {0, 0, info.depth};
    }
    return true;
}

bool check_uav_buffer(MessageLog& log, const char* call, const Resource& resource,
                      D3D11_UNORDERED_ACCESS_VIEW_DESC& desc, backend::ViewInfo& view) {
    const backend::ResourceInfo& info = resource.info();
    if (desc.ViewDimension != D3D11_UAV_DIMENSION_BUFFER) {
        return dimension_mismatch(log, call, desc.ViewDimension);
    }
    const UINT flags = desc.Buffer.Flags;
    if (flags & ~UINT{D3D11_BUFFER_UAV_FLAG_RAW | D3D11_BUFFER_UAV_FLAG_APPEND |
                      D3D11_BUFFER_UAV_FLAG_COUNTER}) {
        log.error(call, "pDesc->Buffer.Flags", hex(flags) + " has unknown bits");
        return false;
    }
    UINT size = 0;
    if (flags & D3D11_BUFFER_UAV_FLAG_RAW) {
        if (desc.Format != DXGI_FORMAT_R32_TYPELESS ||
            !(info.misc_flags & D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS) ||
            (flags & ~UINT{D3D11_BUFFER_UAV_FLAG_RAW})) {
            log.error(call, "pDesc->Buffer.Flags",
                      "raw views need DXGI_FORMAT_R32_TYPELESS, a buffer created with "
                      "BUFFER_ALLOW_RAW_VIEWS, and neither APPEND nor COUNTER");
            return false;
        }
        size = 4;
    } else if (info.structure_stride) {
        if (desc.Format != DXGI_FORMAT_UNKNOWN) {
            log.error(call, "pDesc->Format",
                      format_name(desc.Format) +
                          "; views of a structured buffer use DXGI_FORMAT_UNKNOWN");
            return false;
        }
        if ((flags & D3D11_BUFFER_UAV_FLAG_APPEND) && (flags & D3D11_BUFFER_UAV_FLAG_COUNTER)) {
            log.error(call, "pDesc->Buffer.Flags", "APPEND and COUNTER together");
            return false;
        }
        size = info.structure_stride;
    } else {
        if (flags & (D3D11_BUFFER_UAV_FLAG_APPEND | D3D11_BUFFER_UAV_FLAG_COUNTER)) {
            log.error(call, "pDesc->Buffer.Flags", "APPEND and COUNTER need a structured buffer");
            return false;
        }
        if (!formats::unordered_access(desc.Format)) {
            log.error(call, "pDesc->Format",
                      format_name(desc.Format) + " cannot be used for unordered access");
            return false;
        }
        size = element_bytes(desc.Format);
    }
    return check_elements(log, call, resource, desc.Buffer.FirstElement, desc.Buffer.NumElements,
                          size, view);
}

bool check_uav(MessageLog& log, const char* call, const Resource& resource,
               D3D11_UNORDERED_ACCESS_VIEW_DESC& desc, backend::ViewInfo& view) {
    const backend::ResourceInfo& info = resource.info();
    view.resource = resource.id();
    view.format = desc.Format;
    if (info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
        return check_uav_buffer(log, call, resource, desc, view);
    }
    if (!check_view_format(log, call, resource, desc.Format, formats::unordered_access,
                           "for unordered access")) {
        return false;
    }
    return check_texture_dimension(log, call, resource, desc, view);
}

}  // namespace

HRESULT Device::CreateUnorderedAccessView(ID3D11Resource* resource,
                                          const D3D11_UNORDERED_ACCESS_VIEW_DESC* desc,
                                          ID3D11UnorderedAccessView** view) {
    return create_view<UnorderedAccessView>("ID3D11Device::CreateUnorderedAccessView", resource,
                                            desc, view, D3D11_BIND_UNORDERED_ACCESS,
                                            "D3D11_BIND_UNORDERED_ACCESS", default_uav, check_uav);
}

}  // namespace d3dcap::runtime::d3d11
