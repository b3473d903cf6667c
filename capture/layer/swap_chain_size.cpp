// A swap chain created with a width or height of 0 takes the size of its
// window's client area. Replay has no window, so the size the swap chain
// took goes into the trace right after the call that made it.
#include <d3dcap/capture/wrappers.h>

#include "capture/layer/layer.h"
#include "format/trace/records.h"

namespace d3dcap::capture {

namespace {

// Whether the call that made a swap chain asked for its window's size.
bool sized_by_window(const fb::Record& creation) {
    using api::CallId;
    switch (static_cast<CallId>(creation.header()->call())) {
        case CallId::IDXGIFactory_CreateSwapChain: {
            const auto* p = api::CallOf<fb::IDXGIFactory_CreateSwapChain>::get(creation);
            return p != nullptr && p->p_desc() != nullptr &&
                   (p->p_desc()->buffer_desc().width() == 0 ||
                    p->p_desc()->buffer_desc().height() == 0);
        }
        case CallId::IDXGIFactory2_CreateSwapChainForHwnd: {
            const auto* p = api::CallOf<fb::IDXGIFactory2_CreateSwapChainForHwnd>::get(creation);
            return p != nullptr && p->p_desc() != nullptr &&
                   (p->p_desc()->width() == 0 || p->p_desc()->height() == 0);
        }
        case CallId::D3D11CreateDeviceAndSwapChain: {
            const auto* p = api::CallOf<fb::D3D11CreateDeviceAndSwapChain>::get(creation);
            return p != nullptr && p->p_swap_chain_desc() != nullptr &&
                   (p->p_swap_chain_desc()->buffer_desc().width() == 0 ||
                    p->p_swap_chain_desc()->buffer_desc().height() == 0);
        }
        default:
            return false;
    }
}

}  // namespace

void Layer::record_swap_chain_size(Wrapper& swap_chain, const fb::Record& creation) {
    if (swap_chain.kind != WrapperKind::SwapChain || !sized_by_window(creation)) return;
    auto* real = static_cast<IDXGISwapChain*>(swap_chain.facets()[0]->real);
    DXGI_SWAP_CHAIN_DESC desc{};
    if (FAILED(real->GetDesc(&desc))) return;
    record_meta([&](flatbuffers::FlatBufferBuilder& b) {
        trace::finish_meta(b, thread_number(),
                           fb::CreateSwapChainSize(b, swap_chain.id, desc.BufferDesc.Width,
                                                   desc.BufferDesc.Height));
    });
}

}  // namespace d3dcap::capture
