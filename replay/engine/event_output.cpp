#include "replay/engine/event_output.h"

#include "replay/engine/replayer.h"
#include "replay/engine/resource_shape.h"

namespace d3dcap::replay {

namespace {

// The mip and first array slice a view of these dimensions names.
struct ViewSlice {
    UINT mip = 0, slice = 0;
};

ViewSlice slice_of(const D3D11_RENDER_TARGET_VIEW_DESC& d) {
    switch (d.ViewDimension) {
        case D3D11_RTV_DIMENSION_TEXTURE1D:
            return {d.Texture1D.MipSlice, 0};
        case D3D11_RTV_DIMENSION_TEXTURE1DARRAY:
            return {d.Texture1DArray.MipSlice, d.Texture1DArray.FirstArraySlice};
        case D3D11_RTV_DIMENSION_TEXTURE2D:
            return {d.Texture2D.MipSlice, 0};
        case D3D11_RTV_DIMENSION_TEXTURE2DARRAY:
            return {d.Texture2DArray.MipSlice, d.Texture2DArray.FirstArraySlice};
        case D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY:
            return {0, d.Texture2DMSArray.FirstArraySlice};
        case D3D11_RTV_DIMENSION_TEXTURE3D:
            return {d.Texture3D.MipSlice, 0};
        default:
            return {};
    }
}

ViewSlice slice_of(const D3D11_DEPTH_STENCIL_VIEW_DESC& d) {
    switch (d.ViewDimension) {
        case D3D11_DSV_DIMENSION_TEXTURE1D:
            return {d.Texture1D.MipSlice, 0};
        case D3D11_DSV_DIMENSION_TEXTURE1DARRAY:
            return {d.Texture1DArray.MipSlice, d.Texture1DArray.FirstArraySlice};
        case D3D11_DSV_DIMENSION_TEXTURE2D:
            return {d.Texture2D.MipSlice, 0};
        case D3D11_DSV_DIMENSION_TEXTURE2DARRAY:
            return {d.Texture2DArray.MipSlice, d.Texture2DArray.FirstArraySlice};
        case D3D11_DSV_DIMENSION_TEXTURE2DMSARRAY:
            return {0, d.Texture2DMSArray.FirstArraySlice};
        default:
            return {};
    }
}

// The subresource a view's first slice is, by its recorded resource id.
template <class View, class Desc>
std::optional<EventOutput> output_of_view(View* view, const RecordedId& id_of) {
    ID3D11Resource* resource = nullptr;
    view->GetResource(&resource);
    if (resource == nullptr) return std::nullopt;
    Desc desc{};
    view->GetDesc(&desc);
    const ViewSlice slice = slice_of(desc);
    SubresourceShape shape;
    const UINT mips = shape_of(resource, 0, &shape) ? shape.mip_levels : 1;
    EventOutput output{id_of(resource), slice.mip + slice.slice * mips};
    resource->Release();
    if (output.resource == 0) return std::nullopt;
    return output;
}

std::optional<EventOutput> back_buffer_of(IUnknown* object, const RecordedId& id_of) {
    IDXGISwapChain* chain = nullptr;
    if (object == nullptr ||
        FAILED(object->QueryInterface(__uuidof(IDXGISwapChain), reinterpret_cast<void**>(&chain))))
        return std::nullopt;
    ID3D11Resource* buffer = nullptr;
    chain->GetBuffer(0, __uuidof(ID3D11Resource), reinterpret_cast<void**>(&buffer));
    chain->Release();
    if (buffer == nullptr) return std::nullopt;
    const std::uint64_t id = id_of(buffer);
    buffer->Release();
    if (id == 0) return std::nullopt;
    return EventOutput{id, 0};
}

}  // namespace

std::optional<EventOutput> output_of_event(const Replayer& replayer, std::uint64_t event,
                                           const RecordedId& id_of) {
    if (auto back_buffer = back_buffer_of(replayer.object(replayer.called_object(event)), id_of))
        return back_buffer;
    ID3D11DeviceContext* context = replayer.context_of(event);
    if (context == nullptr) context = replayer.immediate_context();
    if (context == nullptr) return std::nullopt;
    ID3D11RenderTargetView* targets[D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT] = {};
    ID3D11DepthStencilView* depth = nullptr;
    context->OMGetRenderTargets(D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT, targets, &depth);
    std::optional<EventOutput> output;
    for (ID3D11RenderTargetView* target : targets) {
        if (target != nullptr && !output)
            output = output_of_view<ID3D11RenderTargetView, D3D11_RENDER_TARGET_VIEW_DESC>(target,
                                                                                           id_of);
        if (target != nullptr) target->Release();
    }
    if (depth != nullptr) {
        if (!output)
            output =
                output_of_view<ID3D11DepthStencilView, D3D11_DEPTH_STENCIL_VIEW_DESC>(depth, id_of);
        depth->Release();
    }
    return output;
}

}  // namespace d3dcap::replay
