// The data calls: Map/Unmap, copies, updates, clears, mip generation and
// discards. Each is validated here (invalid void calls are dropped with a
// message) and then handed to the device's backend, or recorded on a
// deferred context.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "runtime/d3d11/context.h"
#include "runtime/d3d11/device.h"
#include "runtime/formats/format_rules.h"
#include "runtime/formats/formats.h"

namespace d3dcap::runtime::d3d11 {

namespace {

// The tightly packed layout of one subresource.
struct Layout {
    std::uint64_t row_bytes = 0;
    std::uint32_t rows = 1;
    std::uint32_t slices = 1;
    std::uint64_t size() const { return row_bytes * rows * slices; }
};

Layout subresource_layout(const Resource& resource, UINT subresource) {
    const backend::ResourceInfo& info = resource.info();
    Layout layout;
    if (info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) {
        layout.row_bytes = info.byte_width;
        return layout;
    }
    const UINT mip = subresource % info.mip_levels;
    layout.row_bytes = formats::row_pitch(info.format, resource.mip_width(mip));
    layout.rows = formats::row_count(info.format, resource.mip_height(mip));
    layout.slices = resource.mip_depth(mip);
    return layout;
}

bool empty_box(const D3D11_BOX& box) {
    return box.left >= box.right || box.top >= box.bottom || box.front >= box.back;
}

std::string box_text(const D3D11_BOX& box) {
    return "(" + std::to_string(box.left) + "," + std::to_string(box.top) + "," +
           std::to_string(box.front) + ")-(" + std::to_string(box.right) + "," +
           std::to_string(box.bottom) + "," + std::to_string(box.back) + ")";
}

// The whole resource as a view, for DiscardResource.
backend::ViewInfo whole_resource(const Resource& resource) {
    const backend::ResourceInfo& info = resource.info();
    backend::ViewInfo view;
    view.resource = resource.id();
    view.format = info.format;
    view.first_mip = 0;
    view.mip_count = info.mip_levels;
    view.first_slice = 0;
    view.slice_count =
        info.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D ? info.depth : info.array_size;
    view.first_element = 0;
    view.element_count = info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER ? info.byte_width : 0;
    return view;
}

}  // namespace

// Map / Unmap

HRESULT Context::Map(ID3D11Resource* target, UINT subresource, D3D11_MAP type, UINT flags,
                     D3D11_MAPPED_SUBRESOURCE* mapped) {
    const char* call = "ID3D11DeviceContext::Map";
    if (mapped) *mapped = {};
    Resource* resource = to_resource(target);
    if (!resource) {
        log().error(call, "pResource", "is NULL or not a resource of this runtime");
        return E_INVALIDARG;
    }
    const backend::ResourceInfo& info = resource->info();
    if (subresource >= info.subresource_count()) {
        log().error(call, "Subresource",
                    std::to_string(subresource) + " but the resource has " +
                        std::to_string(info.subresource_count()));
        return E_INVALIDARG;
    }
    if (type < D3D11_MAP_READ || type > D3D11_MAP_WRITE_NO_OVERWRITE) {
        log().error(call, "MapType", std::to_string(type) + " is not a D3D11_MAP");
        return E_INVALIDARG;
    }
    if (flags & ~UINT{D3D11_MAP_FLAG_DO_NOT_WAIT}) {
        log().error(call, "MapFlags", hex(flags) + " has bits other than DO_NOT_WAIT");
        return E_INVALIDARG;
    }
    const bool discard_or_no_overwrite =
        type == D3D11_MAP_WRITE_DISCARD || type == D3D11_MAP_WRITE_NO_OVERWRITE;
    if ((flags & D3D11_MAP_FLAG_DO_NOT_WAIT) && discard_or_no_overwrite) {
        log().error(call, "MapFlags",
                    "DO_NOT_WAIT cannot be used with WRITE_DISCARD or WRITE_NO_OVERWRITE");
        return E_INVALIDARG;
    }
    if (!mapped) {
        log().error(call, "pMappedResource", "is NULL");
        return E_INVALIDARG;
    }
    if (resource->offered) {
        log().error(call, "pResource",
                    "is offered (IDXGIDevice2::OfferResources); reclaim it first");
        return E_INVALIDARG;
    }
    switch (info.usage) {
        case D3D11_USAGE_DEFAULT:
        case D3D11_USAGE_IMMUTABLE:
            log().error(call, "pResource",
                        "has D3D11_USAGE_DEFAULT or IMMUTABLE; only DYNAMIC and STAGING resources "
                        "can be mapped");
            return E_INVALIDARG;
        case D3D11_USAGE_DYNAMIC:
            if (!discard_or_no_overwrite) {
                log().error(call, "MapType",
                            std::to_string(type) +
                                " on a DYNAMIC resource; use WRITE_DISCARD or WRITE_NO_OVERWRITE");
                return E_INVALIDARG;
            }
            if (type == D3D11_MAP_WRITE_NO_OVERWRITE &&
                info.dimension != D3D11_RESOURCE_DIMENSION_BUFFER) {
                log().error(call, "MapType", "WRITE_NO_OVERWRITE is for buffers, not textures");
                return E_INVALIDARG;
            }
            break;
        case D3D11_USAGE_STAGING: {
            const UINT cpu = info.cpu_access_flags;
            const bool read = type == D3D11_MAP_READ || type == D3D11_MAP_READ_WRITE;
            const bool write = type == D3D11_MAP_WRITE || type == D3D11_MAP_READ_WRITE;
            if (discard_or_no_overwrite || (read && !(cpu & D3D11_CPU_ACCESS_READ)) ||
                (write && !(cpu & D3D11_CPU_ACCESS_WRITE))) {
                log().error(call, "MapType",
                            std::to_string(type) +
                                " does not fit the staging resource's CPU "
                                "access flags " +
                                hex(cpu));
                return E_INVALIDARG;
            }
            break;
        }
    }
    if (deferred_) return map_deferred(*resource, subresource, type, mapped);
    if (resource->mapped(subresource)) {
        log().error(call, "Subresource", std::to_string(subresource) + " is already mapped");
        return E_INVALIDARG;
    }
    HRESULT hr;
    {
        auto guard = device().lock();
        hr = device().backend().map(resource->id(), subresource, type, mapped);
    }
    if (SUCCEEDED(hr)) resource->set_mapped(subresource, type);
    return hr;
}

void Context::Unmap(ID3D11Resource* target, UINT subresource) {
    const char* call = "ID3D11DeviceContext::Unmap";
    Resource* resource = to_resource(target);
    if (!resource || subresource >= resource->info().subresource_count()) {
        log().error(call, "pResource/Subresource", "names no subresource; dropped");
        return;
    }
    if (deferred_) {
        unmap_deferred(*resource, subresource);
        return;
    }
    if (!resource->mapped(subresource)) {
        log().error(call, "Subresource", std::to_string(subresource) + " is not mapped; dropped");
        return;
    }
    {
        auto guard = device().lock();
        device().backend().unmap(resource->id(), subresource);
    }
    resource->set_mapped(subresource, D3D11_MAP{});
}

// A deferred context maps into memory of its own; Unmap records the copy.
HRESULT Context::map_deferred(Resource& resource, UINT subresource, D3D11_MAP type,
                              D3D11_MAPPED_SUBRESOURCE* mapped) {
    const char* call = "ID3D11DeviceContext::Map";
    if (type != D3D11_MAP_WRITE_DISCARD && type != D3D11_MAP_WRITE_NO_OVERWRITE) {
        log().error(call, "MapType",
                    "deferred contexts map with WRITE_DISCARD or WRITE_NO_OVERWRITE");
        return E_INVALIDARG;
    }
    DeferredMapping& mapping = deferred_maps_[{resource.id(), subresource}];
    if (mapping.mapped) {
        log().error(call, "Subresource", std::to_string(subresource) + " is already mapped");
        return E_INVALIDARG;
    }
    const Layout layout = subresource_layout(resource, subresource);
    if (type == D3D11_MAP_WRITE_NO_OVERWRITE && !mapping.bytes) {
        deferred_maps_.erase({resource.id(), subresource});
        log().error(call, "MapType",
                    "WRITE_NO_OVERWRITE before any WRITE_DISCARD of this resource in this command "
                    "list");
        return D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD;
    }
    if (type == D3D11_MAP_WRITE_DISCARD) {
        mapping.bytes = std::make_shared<std::vector<std::uint8_t>>(layout.size());
    }
    mapping.row_pitch = static_cast<UINT>(layout.row_bytes);
    mapping.depth_pitch = static_cast<UINT>(layout.row_bytes * layout.rows);
    mapping.type = type;
    mapping.mapped = true;
    mapped->pData = mapping.bytes->data();
    mapped->RowPitch = mapping.row_pitch;
    mapped->DepthPitch = mapping.depth_pitch;
    return S_OK;
}

void Context::unmap_deferred(Resource& resource, UINT subresource) {
    auto it = deferred_maps_.find({resource.id(), subresource});
    if (it == deferred_maps_.end() || !it->second.mapped) {
        log().error("ID3D11DeviceContext::Unmap", "Subresource",
                    std::to_string(subresource) + " is not mapped on this context; dropped");
        return;
    }
    DeferredMapping& mapping = it->second;
    mapping.mapped = false;
    auto bytes = std::make_shared<const std::vector<std::uint8_t>>(*mapping.bytes);
    const Layout layout = subresource_layout(resource, subresource);
    record([ref = Ref<Resource>(&resource), subresource, type = mapping.type, bytes,
            layout](Context& target) {
        D3D11_MAPPED_SUBRESOURCE mapped{};
        if (FAILED(target.Map(ref->d3d(), subresource, type, 0, &mapped))) return;
        auto* to = static_cast<std::uint8_t*>(mapped.pData);
        const std::uint8_t* from = bytes->data();
        for (std::uint32_t slice = 0; slice < layout.slices; ++slice) {
            for (std::uint32_t row = 0; row < layout.rows; ++row) {
                std::memcpy(to + std::uint64_t{slice} * mapped.DepthPitch +
                                std::uint64_t{row} * mapped.RowPitch,
                            from, layout.row_bytes);
                from += layout.row_bytes;
            }
        }
        target.Unmap(ref->d3d(), subresource);
    });
}

// Copies

void Context::copy_region(const char* call, ID3D11Resource* dst_resource, UINT dst_subresource,
                          UINT x, UINT y, UINT z, ID3D11Resource* src_resource,
                          UINT src_subresource, const D3D11_BOX* box, UINT flags,
                          bool allow_same_subresource) {
    Resource* dst = to_resource(dst_resource);
    Resource* src = to_resource(src_resource);
    if (!dst || !src) {
        log().error(call, dst ? "pSrcResource" : "pDstResource",
                    "is NULL or not a resource of this runtime; dropped");
        return;
    }
    const backend::ResourceInfo& d = dst->info();
    const backend::ResourceInfo& s = src->info();
    auto drop = [&](const char* parameter, const std::string& text) {
        log().error(call, parameter, text + "; dropped");
    };
    if (&dst->device() != &device() || &src->device() != &device()) {
        return drop("pDstResource", "the resources belong to another device");
    }
    if (d.usage == D3D11_USAGE_IMMUTABLE) return drop("pDstResource", "is IMMUTABLE");
    // Textures of different dimensions copy into each other (a 1D row into a
    // row of a 2D texture, a 2D box of depth 1 into a slice of a 3D one): the
    // bounds below keep the region inside both. Buffers copy only to buffers.
    if ((d.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) !=
        (s.dimension == D3D11_RESOURCE_DIMENSION_BUFFER)) {
        return drop("pSrcResource", "a buffer and a texture cannot be copied into each other");
    }
    if (dst_subresource >= d.subresource_count()) {
        return drop("DstSubresource", std::to_string(dst_subresource) + " is out of range");
    }
    if (src_subresource >= s.subresource_count()) {
        return drop("SrcSubresource", std::to_string(src_subresource) + " is out of range");
    }
    if (flags & ~UINT{D3D11_COPY_NO_OVERWRITE | D3D11_COPY_DISCARD}) {
        return drop("CopyFlags", hex(flags) + " has bits other than NO_OVERWRITE and DISCARD");
    }
    if (dst == src && dst_subresource == src_subresource && !allow_same_subresource) {
        return drop("pSrcResource", "is the destination subresource itself");
    }
    const bool buffer = d.dimension == D3D11_RESOURCE_DIMENSION_BUFFER;
    if (!buffer && !formats::copy_compatible(d.format, s.format, true)) {
        return drop("pSrcResource",
                    format_name(s.format) + " cannot be copied to " + format_name(d.format));
    }
    if (d.sample_count != s.sample_count) return drop("pSrcResource", "has another sample count");
    const UINT src_mip = buffer ? 0 : src_subresource % s.mip_levels;
    const UINT dst_mip = buffer ? 0 : dst_subresource % d.mip_levels;
    D3D11_BOX region{
        0, 0, 0, src->mip_width(src_mip), src->mip_height(src_mip), src->mip_depth(src_mip)};
    if (buffer) region.right = static_cast<UINT>(s.byte_width);
    if (box) {
        if (empty_box(*box)) return;  // nothing to copy
        if (box->right > region.right || box->bottom > region.bottom || box->back > region.back) {
            return drop("pSrcBox", box_text(*box) + " leaves the source subresource");
        }
        region = *box;
    }
    const bool whole_only = ((s.bind_flags | d.bind_flags) & D3D11_BIND_DEPTH_STENCIL) ||
                            formats::depth(s.format) || formats::depth(d.format) ||
                            s.sample_count > 1;
    if (whole_only && (box || x || y || z)) {
        return drop("pSrcBox", "depth-stencil and multisampled resources copy whole subresources");
    }
    // Block-compressed sides count in 4x4 blocks.
    const auto& src_format = formats::info(s.format);
    const auto& dst_format = formats::info(d.format);
    const UINT src_bw = buffer ? 1 : std::max<UINT>(1, src_format.block_width);
    const UINT src_bh = buffer ? 1 : std::max<UINT>(1, src_format.block_height);
    const UINT dst_bw = buffer ? 1 : std::max<UINT>(1, dst_format.block_width);
    const UINT dst_bh = buffer ? 1 : std::max<UINT>(1, dst_format.block_height);
    if (region.left % src_bw || region.top % src_bh || x % dst_bw || y % dst_bh) {
        return drop("pSrcBox", "block-compressed copies start on 4x4 block boundaries");
    }
    const UINT width = (region.right - region.left + src_bw - 1) / src_bw * dst_bw;
    const UINT height = (region.bottom - region.top + src_bh - 1) / src_bh * dst_bh;
    const UINT depth = region.back - region.front;
    const UINT dst_width = buffer ? static_cast<UINT>(d.byte_width)
                                  : (dst->mip_width(dst_mip) + dst_bw - 1) / dst_bw * dst_bw;
    const UINT dst_height = (dst->mip_height(dst_mip) + dst_bh - 1) / dst_bh * dst_bh;
    if (std::uint64_t{x} + width > dst_width || std::uint64_t{y} + height > dst_height ||
        std::uint64_t{z} + depth > dst->mip_depth(dst_mip)) {
        return drop("DstX/DstY/DstZ", "the copied region leaves the destination subresource");
    }
    if (deferred_) {
        const bool has_box = box != nullptr;
        record([dref = Ref<Resource>(dst), sref = Ref<Resource>(src), dst_subresource, x, y, z,
                src_subresource, region, has_box, flags](Context& target) {
            target.CopySubresourceRegion1(dref->d3d(), dst_subresource, x, y, z, sref->d3d(),
                                          src_subresource, has_box ? &region : nullptr, flags);
        });
        return;
    }
    if (predicated()) return;  // SetPredication skips it
    if (dst->mapped(dst_subresource) || src->mapped(src_subresource)) {
        return drop("pDstResource", "a subresource of the copy is mapped");
    }
    auto guard = device().lock();
    device().backend().copy_subresource_region(dst->id(), dst_subresource, x, y, z, src->id(),
                                               src_subresource, box ? &region : nullptr, flags);
    if (src->unexecuted_content()) dst->set_unexecuted_content(true);
}

void Context::CopySubresourceRegion(ID3D11Resource* dst, UINT dst_subresource, UINT x, UINT y,
                                    UINT z, ID3D11Resource* src, UINT src_subresource,
                                    const D3D11_BOX* box) {
    copy_region("ID3D11DeviceContext::CopySubresourceRegion", dst, dst_subresource, x, y, z, src,
                src_subresource, box, 0, false);
}

void Context::CopySubresourceRegion1(ID3D11Resource* dst, UINT dst_subresource, UINT x, UINT y,
                                     UINT z, ID3D11Resource* src, UINT src_subresource,
                                     const D3D11_BOX* box, UINT flags) {
    // CopyWithOverlap is TRUE: source and destination may be one subresource.
    copy_region("ID3D11DeviceContext1::CopySubresourceRegion1", dst, dst_subresource, x, y, z, src,
                src_subresource, box, flags, true);
}

void Context::CopyResource(ID3D11Resource* dst_resource, ID3D11Resource* src_resource) {
    const char* call = "ID3D11DeviceContext::CopyResource";
    Resource* dst = to_resource(dst_resource);
    Resource* src = to_resource(src_resource);
    auto drop = [&](const char* parameter, const std::string& text) {
        log().error(call, parameter, text + "; dropped");
    };
    if (!dst || !src) {
        return drop(dst ? "pSrcResource" : "pDstResource",
                    "is NULL or not a resource of this runtime");
    }
    const backend::ResourceInfo& d = dst->info();
    const backend::ResourceInfo& s = src->info();
    if (dst == src) return drop("pSrcResource", "is the destination itself");
    if (d.usage == D3D11_USAGE_IMMUTABLE) return drop("pDstResource", "is IMMUTABLE");
    if (d.dimension != s.dimension || d.byte_width != s.byte_width || d.width != s.width ||
        d.height != s.height || d.depth != s.depth || d.mip_levels != s.mip_levels ||
        d.array_size != s.array_size || d.sample_count != s.sample_count) {
        return drop("pSrcResource",
                    "differs from the destination in dimension, size, mips, "
                    "array size or samples");
    }
    if (d.dimension != D3D11_RESOURCE_DIMENSION_BUFFER &&
        !formats::copy_compatible(d.format, s.format, false)) {
        return drop("pSrcResource", format_name(s.format) + " and " + format_name(d.format) +
                                        " are not in one cast group");
    }
    if (deferred_) {
        record([dref = Ref<Resource>(dst), sref = Ref<Resource>(src)](Context& target) {
            target.CopyResource(dref->d3d(), sref->d3d());
        });
        return;
    }
    if (predicated()) return;  // SetPredication skips it
    if (dst->any_mapped() || src->any_mapped()) return drop("pDstResource", "a resource is mapped");
    auto guard = device().lock();
    device().backend().copy_resource(dst->id(), src->id());
    dst->set_unexecuted_content(src->unexecuted_content());
}

// Updates

void Context::update_subresource(const char* call, ID3D11Resource* dst_resource, UINT subresource,
                                 const D3D11_BOX* box, const void* data, UINT row_pitch,
                                 UINT depth_pitch, UINT flags) {
    auto drop = [&](const char* parameter, const std::string& text) {
        log().error(call, parameter, text + "; dropped");
    };
    Resource* dst = to_resource(dst_resource);
    if (!dst) return drop("pDstResource", "is NULL or not a resource of this runtime");
    const backend::ResourceInfo& info = dst->info();
    if (subresource >= info.subresource_count()) {
        return drop("DstSubresource", std::to_string(subresource) + " is out of range");
    }
    if (!data) return drop("pSrcData", "is NULL");
    if (info.usage != D3D11_USAGE_DEFAULT && info.usage != D3D11_USAGE_STAGING) {
        return drop("pDstResource", "is DYNAMIC or IMMUTABLE; use Map for dynamic resources");
    }
    if ((info.bind_flags & D3D11_BIND_DEPTH_STENCIL) || info.sample_count > 1) {
        return drop("pDstResource", "depth-stencil and multisampled resources cannot be updated");
    }
    if (flags & ~UINT{D3D11_COPY_NO_OVERWRITE | D3D11_COPY_DISCARD}) {
        return drop("CopyFlags", hex(flags) + " has bits other than NO_OVERWRITE and DISCARD");
    }
    const bool buffer = info.dimension == D3D11_RESOURCE_DIMENSION_BUFFER;
    const UINT mip = buffer ? 0 : subresource % info.mip_levels;
    D3D11_BOX region{0,
                     0,
                     0,
                     buffer ? static_cast<UINT>(info.byte_width) : dst->mip_width(mip),
                     dst->mip_height(mip),
                     dst->mip_depth(mip)};
    if (box) {
        if (empty_box(*box)) return;  // nothing to update
        if (box->right > region.right || box->bottom > region.bottom || box->back > region.back) {
            return drop("pDstBox", box_text(*box) + " leaves the subresource");
        }
        if ((info.bind_flags & D3D11_BIND_CONSTANT_BUFFER) && (box->left % 16 || box->right % 16)) {
            return drop("pDstBox",
                        box_text(*box) + ": constant buffers update whole 16-byte constants");
        }
        const auto& format = formats::info(info.format);
        const UINT bw = buffer ? 1 : std::max<UINT>(1, format.block_width);
        const UINT bh = buffer ? 1 : std::max<UINT>(1, format.block_height);
        if (box->left % bw || box->top % bh || (box->right % bw && box->right != region.right) ||
            (box->bottom % bh && box->bottom != region.bottom)) {
            return drop("pDstBox", box_text(*box) + " is not aligned to 4x4 blocks");
        }
        region = *box;
    }
    if (deferred_) {
        // Copy the source now: the app may reuse its memory at once.
        const UINT width = region.right - region.left;
        const std::uint64_t row_bytes = buffer ? width : formats::row_pitch(info.format, width);
        const std::uint32_t rows =
            buffer ? 1 : formats::row_count(info.format, region.bottom - region.top);
        const std::uint32_t slices = region.back - region.front;
        const UINT packed_row = static_cast<UINT>(row_bytes);
        const UINT packed_slice = static_cast<UINT>(row_bytes * rows);
        auto bytes = std::make_shared<std::vector<std::uint8_t>>(row_bytes * rows * slices);
        const auto* from = static_cast<const std::uint8_t*>(data);
        for (std::uint32_t slice = 0; slice < slices; ++slice) {
            for (std::uint32_t row = 0; row < rows; ++row) {
                std::memcpy(
                    bytes->data() + slice * packed_slice + row * row_bytes,
                    from + std::uint64_t{slice} * depth_pitch + std::uint64_t{row} * row_pitch,
                    row_bytes);
            }
        }
        const bool has_box = box != nullptr;
        record([ref = Ref<Resource>(dst), subresource, region, has_box, bytes, packed_row,
                packed_slice, flags](Context& target) {
            target.UpdateSubresource1(ref->d3d(), subresource, has_box ? &region : nullptr,
                                      bytes->data(), packed_row, packed_slice, flags);
        });
        return;
    }
    if (predicated()) return;  // SetPredication skips it
    if (dst->mapped(subresource)) return drop("DstSubresource", "is mapped");
    auto guard = device().lock();
    device().backend().update_subresource(dst->id(), subresource, box ? &region : nullptr, data,
                                          row_pitch, depth_pitch, flags);
}

void Context::UpdateSubresource(ID3D11Resource* dst, UINT subresource, const D3D11_BOX* box,
                                const void* data, UINT row_pitch, UINT depth_pitch) {
    update_subresource("ID3D11DeviceContext::UpdateSubresource", dst, subresource, box, data,
                       row_pitch, depth_pitch, 0);
}

void Context::UpdateSubresource1(ID3D11Resource* dst, UINT subresource, const D3D11_BOX* box,
                                 const void* data, UINT row_pitch, UINT depth_pitch, UINT flags) {
    update_subresource("ID3D11DeviceContext1::UpdateSubresource1", dst, subresource, box, data,
                       row_pitch, depth_pitch, flags);
}

void Context::CopyStructureCount(ID3D11Buffer* dst_buffer, UINT offset,
                                 ID3D11UnorderedAccessView* view) {
    const char* call = "ID3D11DeviceContext::CopyStructureCount";
    Buffer* dst = to_buffer(dst_buffer);
    auto* uav = static_cast<UnorderedAccessView*>(view);
    if (!dst || !uav) {
        log().error(call, dst ? "pSrcView" : "pDstBuffer", "is NULL; dropped");
        return;
    }
    if (!has_hidden_counter(*uav)) {
        log().error(call, "pSrcView", "is not a buffer view with APPEND or COUNTER; dropped");
        return;
    }
    if (offset % 4 || std::uint64_t{offset} + 4 > dst->info().byte_width) {
        log().error(call, "DstAlignedByteOffset",
                    std::to_string(offset) + " is unaligned or leaves the buffer; dropped");
        return;
    }
    if (deferred_) {
        record([dref = Ref<Buffer>(dst), vref = Ref<UnorderedAccessView>(uav), offset](
                   Context& target) { target.CopyStructureCount(dref.get(), offset, vref.get()); });
        return;
    }
    if (predicated()) return;  // SetPredication skips it
    auto guard = device().lock();
    device().backend().copy_uav_counter(uav->id(), uav->structure_counter, dst->id(), offset);
    if (uav->resource().unexecuted_content()) dst->set_unexecuted_content(true);
}

// Clears

void Context::ClearRenderTargetView(ID3D11RenderTargetView* view, const FLOAT color[4]) {
    auto* rtv = static_cast<RenderTargetView*>(view);
    if (!rtv || !color) {
        log().error("ID3D11DeviceContext::ClearRenderTargetView",
                    rtv ? "ColorRGBA" : "pRenderTargetView", "is NULL; dropped");
        return;
    }
    if (deferred_) {
        std::array<FLOAT, 4> value{color[0], color[1], color[2], color[3]};
        record([ref = Ref<RenderTargetView>(rtv), value](Context& target) {
            target.ClearRenderTargetView(ref.get(), value.data());
        });
        return;
    }
    if (predicated()) return;  // SetPredication skips it
    auto guard = device().lock();
    device().backend().clear_render_target(rtv->info(), color);
}

void Context::ClearUnorderedAccessViewUint(ID3D11UnorderedAccessView* view, const UINT values[4]) {
    auto* uav = static_cast<UnorderedAccessView*>(view);
    if (!uav || !values) {
        log().error("ID3D11DeviceContext::ClearUnorderedAccessViewUint",
                    uav ? "Values" : "pUnorderedAccessView", "is NULL; dropped");
        return;
    }
    if (deferred_) {
        std::array<UINT, 4> value{values[0], values[1], values[2], values[3]};
        record([ref = Ref<UnorderedAccessView>(uav), value](Context& target) {
            target.ClearUnorderedAccessViewUint(ref.get(), value.data());
        });
        return;
    }
    if (predicated()) return;  // SetPredication skips it
    const std::uint32_t clear[4] = {values[0], values[1], values[2], values[3]};
    auto guard = device().lock();
    device().backend().clear_unordered_access_uint(uav->info(), clear);
}

void Context::ClearUnorderedAccessViewFloat(ID3D11UnorderedAccessView* view,
                                            const FLOAT values[4]) {
    auto* uav = static_cast<UnorderedAccessView*>(view);
    if (!uav || !values) {
        log().error("ID3D11DeviceContext::ClearUnorderedAccessViewFloat",
                    uav ? "Values" : "pUnorderedAccessView", "is NULL; dropped");
        return;
    }
    if (deferred_) {
        std::array<FLOAT, 4> value{values[0], values[1], values[2], values[3]};
        record([ref = Ref<UnorderedAccessView>(uav), value](Context& target) {
            target.ClearUnorderedAccessViewFloat(ref.get(), value.data());
        });
        return;
    }
    if (predicated()) return;  // SetPredication skips it
    auto guard = device().lock();
    device().backend().clear_unordered_access_float(uav->info(), values);
}

void Context::ClearDepthStencilView(ID3D11DepthStencilView* view, UINT flags, FLOAT depth,
                                    UINT8 stencil) {
    const char* call = "ID3D11DeviceContext::ClearDepthStencilView";
    auto* dsv = static_cast<DepthStencilView*>(view);
    if (!dsv) {
        log().error(call, "pDepthStencilView", "is NULL; dropped");
        return;
    }
    if (flags & ~UINT{D3D11_CLEAR_DEPTH | D3D11_CLEAR_STENCIL}) {
        log().error(call, "ClearFlags",
                    hex(flags) + " has bits other than DEPTH and STENCIL; dropped");
        return;
    }
    if (!flags) return;
    // The depth value is clamped to [0, 1].
    const float clamped = std::isnan(depth) ? 0.0f : std::clamp(depth, 0.0f, 1.0f);
    if (deferred_) {
        record([ref = Ref<DepthStencilView>(dsv), flags, clamped, stencil](Context& target) {
            target.ClearDepthStencilView(ref.get(), flags, clamped, stencil);
        });
        return;
    }
    if (predicated()) return;  // SetPredication skips it
    auto guard = device().lock();
    device().backend().clear_depth_stencil(dsv->info(), flags, clamped, stencil);
}

void Context::ClearView(ID3D11View* target_view, const FLOAT color[4], const D3D11_RECT* rects,
                        UINT rect_count) {
    const char* call = "ID3D11DeviceContext1::ClearView";
    View* view = to_view(target_view);
    auto drop = [&](const char* parameter, const std::string& text) {
        log().error(call, parameter, text + "; dropped");
    };
    if (!view) return drop("pView", "is NULL or not a view of this runtime");
    if (!color) return drop("Color", "is NULL");
    if (view->kind() == ObjectKind::ShaderResourceView) {
        return drop("pView",
                    "is a shader-resource view; ClearView takes RTVs, UAVs and depth-only DSVs");
    }
    if (view->kind() == ObjectKind::DepthStencilView && formats::stencil(view->info().format)) {
        return drop("pView", "is a depth-stencil view with stencil; only depth-only formats");
    }
    if (view->resource().info().dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D) {
        return drop("pView", "views a Texture3D, which ClearView does not support");
    }
    if (rect_count && !rects)
        return drop("pRect", "is NULL with NumRects " + std::to_string(rect_count));
    if (deferred_) {
        std::array<FLOAT, 4> value{color[0], color[1], color[2], color[3]};
        std::vector<D3D11_RECT> copies(rects, rects + rect_count);
        record([ref = Ref<View>(view), value, copies](Context& target) {
            target.ClearView(ref->d3d_view(), value.data(),
                             copies.empty() ? nullptr : copies.data(),
                             static_cast<UINT>(copies.size()));
        });
        return;
    }
    if (predicated()) return;  // SetPredication skips it
    auto guard = device().lock();
    device().backend().clear_view(view->info(), color, rects, rect_count);
}

// Mips, LOD clamps, resolves, discards

void Context::GenerateMips(ID3D11ShaderResourceView* view) {
    const char* call = "ID3D11DeviceContext::GenerateMips";
    auto* srv = static_cast<ShaderResourceView*>(view);
    if (!srv) {
        log().error(call, "pShaderResourceView", "is NULL; dropped");
        return;
    }
    const backend::ResourceInfo& info = srv->resource().info();
    if (!(info.misc_flags & D3D11_RESOURCE_MISC_GENERATE_MIPS)) {
        log().error(call, "pShaderResourceView",
                    "views a resource created without RESOURCE_MISC_GENERATE_MIPS; dropped");
        return;
    }
    if (deferred_) {
        record([ref = Ref<ShaderResourceView>(srv)](Context& target) {
            target.GenerateMips(ref.get());
        });
        return;
    }
    if (predicated()) return;  // SetPredication skips it
    auto guard = device().lock();
    device().backend().generate_mips(srv->info());
}

void Context::SetResourceMinLOD(ID3D11Resource* target, FLOAT min_lod) {
    Resource* resource = to_resource(target);
    if (!resource) {
        log().error("ID3D11DeviceContext::SetResourceMinLOD", "pResource", "is NULL; dropped");
        return;
    }
    if (deferred_) {
        record([ref = Ref<Resource>(resource), min_lod](Context& context) {
            context.SetResourceMinLOD(ref->d3d(), min_lod);
        });
        return;
    }
    resource->min_lod = min_lod;
}

FLOAT Context::GetResourceMinLOD(ID3D11Resource* target) {
    Resource* resource = to_resource(target);
    return resource ? resource->min_lod : 0.0f;
}

void Context::ResolveSubresource(ID3D11Resource* dst_resource, UINT dst_subresource,
                                 ID3D11Resource* src_resource, UINT src_subresource,
                                 DXGI_FORMAT format) {
    const char* call = "ID3D11DeviceContext::ResolveSubresource";
    Resource* dst = to_resource(dst_resource);
    Resource* src = to_resource(src_resource);
    if (!dst || !src || dst_subresource >= dst->info().subresource_count() ||
        src_subresource >= src->info().subresource_count()) {
        log().error(call, "pDstResource/pSrcResource", "names no subresource; dropped");
        return;
    }
    if (src->info().sample_count < 2 || dst->info().sample_count != 1) {
        log().error(call, "pSrcResource",
                    "a resolve goes from a multisampled to a single-sampled resource; dropped");
        return;
    }
    if (!formats::view_compatible(src->info().format, format) ||
        !formats::view_compatible(dst->info().format, format)) {
        log().error(call, "Format", format_name(format) + " does not fit both resources; dropped");
        return;
    }
    if (deferred_) {
        record([dst_ref = Ref<Resource>(dst), src_ref = Ref<Resource>(src), dst_subresource,
                src_subresource, format](Context& target) {
            target.ResolveSubresource(dst_ref->d3d(), dst_subresource, src_ref->d3d(),
                                      src_subresource, format);
        });
        return;
    }
    if (predicated()) return;  // SetPredication skips it
    auto guard = device().lock();
    device().backend().resolve_subresource(dst->info().id, dst_subresource, src->info().id,
                                           src_subresource, format);
    if (src->unexecuted_content()) dst->set_unexecuted_content(true);
}

void Context::discard(const char* call, View* view, const D3D11_RECT* rects, UINT rect_count) {
    if (!view) {
        log().error(call, "pResourceView", "is NULL or not a view of this runtime; dropped");
        return;
    }
    const D3D11_USAGE usage = view->resource().info().usage;
    if (usage != D3D11_USAGE_DEFAULT && usage != D3D11_USAGE_DYNAMIC) {
        log().error(call, "pResourceView", "views a resource that is neither DEFAULT nor DYNAMIC");
        return;
    }
    if (rect_count && !rects) {
        log().error(call, "pRects", "is NULL with NumRects " + std::to_string(rect_count));
        return;
    }
    if (deferred_) {
        std::vector<D3D11_RECT> copies(rects, rects + rect_count);
        record([ref = Ref<View>(view), copies](Context& target) {
            target.DiscardView1(ref->d3d_view(), copies.empty() ? nullptr : copies.data(),
                                static_cast<UINT>(copies.size()));
        });
        return;
    }
    auto guard = device().lock();
    device().backend().discard(view->info(), rects, rect_count);
}

void Context::DiscardResource(ID3D11Resource* target) {
    const char* call = "ID3D11DeviceContext1::DiscardResource";
    Resource* resource = to_resource(target);
    if (!resource) {
        log().error(call, "pResource", "is NULL or not a resource of this runtime; dropped");
        return;
    }
    const D3D11_USAGE usage = resource->info().usage;
    if (usage != D3D11_USAGE_DEFAULT && usage != D3D11_USAGE_DYNAMIC) {
        log().error(call, "pResource", "is neither DEFAULT nor DYNAMIC; dropped");
        return;
    }
    if (deferred_) {
        record([ref = Ref<Resource>(resource)](Context& context) {
            context.DiscardResource(ref->d3d());
        });
        return;
    }
    auto guard = device().lock();
    device().backend().discard(whole_resource(*resource), nullptr, 0);
}

void Context::DiscardView(ID3D11View* view) {
    discard("ID3D11DeviceContext1::DiscardView", to_view(view), nullptr, 0);
}

void Context::DiscardView1(ID3D11View* view, const D3D11_RECT* rects, UINT rect_count) {
    discard("ID3D11DeviceContext1::DiscardView1", to_view(view), rects, rect_count);
}

}  // namespace d3dcap::runtime::d3d11
