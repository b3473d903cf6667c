// Blend, depth-stencil, rasterizer and sampler states. As on Windows, a
// device hands out one object per distinct (normalized) desc: creating an
// identical state again returns the same object with another reference.
#include <cmath>
#include <cstring>

#include "runtime/d3d11/device.h"

namespace d3dcap::runtime::d3d11 {

void* BlendState::find_interface(REFIID riid) {
    if (iid_is<ID3D11BlendState1, ID3D11BlendState, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3D11BlendState1*>(this);
    }
    return nullptr;
}

void BlendState::GetDesc(D3D11_BLEND_DESC* desc) {
    if (!desc) return;
    desc->AlphaToCoverageEnable = desc_.AlphaToCoverageEnable;
    desc->IndependentBlendEnable = desc_.IndependentBlendEnable;
    for (int i = 0; i < 8; ++i) {
        const auto& from = desc_.RenderTarget[i];
        auto& to = desc->RenderTarget[i];
        to.BlendEnable = from.BlendEnable;
        to.SrcBlend = from.SrcBlend;
        to.DestBlend = from.DestBlend;
        to.BlendOp = from.BlendOp;
        to.SrcBlendAlpha = from.SrcBlendAlpha;
        to.DestBlendAlpha = from.DestBlendAlpha;
        to.BlendOpAlpha = from.BlendOpAlpha;
        to.RenderTargetWriteMask = from.RenderTargetWriteMask;
    }
}

void* RasterizerState::find_interface(REFIID riid) {
    if (iid_is<ID3D11RasterizerState1, ID3D11RasterizerState, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3D11RasterizerState1*>(this);
    }
    return nullptr;
}

void RasterizerState::GetDesc(D3D11_RASTERIZER_DESC* desc) {
    if (!desc) return;
    desc->FillMode = desc_.FillMode;
    desc->CullMode = desc_.CullMode;
    desc->FrontCounterClockwise = desc_.FrontCounterClockwise;
    desc->DepthBias = desc_.DepthBias;
    desc->DepthBiasClamp = desc_.DepthBiasClamp;
    desc->SlopeScaledDepthBias = desc_.SlopeScaledDepthBias;
    desc->DepthClipEnable = desc_.DepthClipEnable;
    desc->ScissorEnable = desc_.ScissorEnable;
    desc->MultisampleEnable = desc_.MultisampleEnable;
    desc->AntialiasedLineEnable = desc_.AntialiasedLineEnable;
}

void* DepthStencilState::find_interface(REFIID riid) {
    if (iid_is<ID3D11DepthStencilState, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3D11DepthStencilState*>(this);
    }
    return nullptr;
}

void* SamplerState::find_interface(REFIID riid) {
    if (iid_is<ID3D11SamplerState, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3D11SamplerState*>(this);
    }
    return nullptr;
}

namespace {

// The cache key: a kind letter and the normalized desc's bytes (the descs
// are built from memset storage, so padding bytes are zero).
template <class Desc>
std::string state_key(char kind, const Desc& desc) {
    std::string key(1 + sizeof(Desc), '\0');
    key[0] = kind;
    std::memcpy(key.data() + 1, &desc, sizeof(Desc));
    return key;
}

bool blend_value(D3D11_BLEND blend) {
    return (blend >= D3D11_BLEND_ZERO && blend <= D3D11_BLEND_SRC_ALPHA_SAT) ||
           (blend >= D3D11_BLEND_BLEND_FACTOR && blend <= D3D11_BLEND_INV_SRC1_ALPHA);
}
bool color_blend(D3D11_BLEND blend) {
    return blend == D3D11_BLEND_SRC_COLOR || blend == D3D11_BLEND_INV_SRC_COLOR ||
           blend == D3D11_BLEND_DEST_COLOR || blend == D3D11_BLEND_INV_DEST_COLOR ||
           blend == D3D11_BLEND_SRC1_COLOR || blend == D3D11_BLEND_INV_SRC1_COLOR;
}
bool blend_op(D3D11_BLEND_OP op) {
    return op >= D3D11_BLEND_OP_ADD && op <= D3D11_BLEND_OP_MAX;
}
bool comparison(D3D11_COMPARISON_FUNC func) {
    return func >= D3D11_COMPARISON_NEVER && func <= D3D11_COMPARISON_ALWAYS;
}
bool stencil_op(D3D11_STENCIL_OP op) {
    return op >= D3D11_STENCIL_OP_KEEP && op <= D3D11_STENCIL_OP_DECR;
}

// logic_ops: the device applies D3D11_LOGIC_OP (OutputMergerLogicOp).
HRESULT make_blend(MessageLog& log, const char* call, const D3D11_BLEND_DESC1& desc,
                   D3D11_BLEND_DESC1& normalized, bool logic_ops) {
    std::memset(&normalized, 0, sizeof normalized);
    normalized.AlphaToCoverageEnable = desc.AlphaToCoverageEnable ? TRUE : FALSE;
    normalized.IndependentBlendEnable = desc.IndependentBlendEnable ? TRUE : FALSE;
    const int used = desc.IndependentBlendEnable ? 8 : 1;
    for (int i = 0; i < 8; ++i) {
        // Without independent blending every target takes target 0's desc.
        const auto& from = desc.RenderTarget[i < used ? i : 0];
        const std::string where = "pBlendStateDesc->RenderTarget[" + std::to_string(i) + "]";
        if (i < used && from.BlendEnable) {
            if (!blend_value(from.SrcBlend) || !blend_value(from.DestBlend) ||
                !blend_value(from.SrcBlendAlpha) || !blend_value(from.DestBlendAlpha)) {
                log.error(call, where, "has a blend factor that is not a D3D11_BLEND");
                return E_INVALIDARG;
            }
            if (color_blend(from.SrcBlendAlpha) || color_blend(from.DestBlendAlpha)) {
                log.error(call, where + ".SrcBlendAlpha",
                          "alpha blend factors cannot be *_COLOR factors");
                return E_INVALIDARG;
            }
            if (!blend_op(from.BlendOp) || !blend_op(from.BlendOpAlpha)) {
                log.error(call, where + ".BlendOp", "is not a D3D11_BLEND_OP");
                return E_INVALIDARG;
            }
        }
        if (i < used && from.RenderTargetWriteMask & ~D3D11_COLOR_WRITE_ENABLE_ALL) {
            log.error(call, where + ".RenderTargetWriteMask",
                      hex(from.RenderTargetWriteMask) + " has bits beyond RGBA");
            return E_INVALIDARG;
        }
        if (i < used && from.LogicOpEnable) {
            // One logic op for every target, never mixed with blending (the
            // rule of D3D11_BLEND_DESC1).
            const char* why =
                !logic_ops ? "logic operations are not supported (OutputMergerLogicOp is FALSE)"
                : desc.IndependentBlendEnable ? "needs IndependentBlendEnable FALSE"
                : from.BlendEnable            ? "needs BlendEnable FALSE"
                : (from.LogicOp < D3D11_LOGIC_OP_CLEAR || from.LogicOp > D3D11_LOGIC_OP_OR_INVERTED)
                    ? "has a LogicOp that is not a D3D11_LOGIC_OP"
                    : nullptr;
            if (why != nullptr) {
                log.error(call, where + ".LogicOpEnable", why);
                return E_INVALIDARG;
            }
        }
        auto& to = normalized.RenderTarget[i];
        to.BlendEnable = from.BlendEnable ? TRUE : FALSE;
        to.LogicOpEnable = from.LogicOpEnable ? TRUE : FALSE;
        to.SrcBlend = from.SrcBlend;
        to.DestBlend = from.DestBlend;
        to.BlendOp = from.BlendOp;
        to.SrcBlendAlpha = from.SrcBlendAlpha;
        to.DestBlendAlpha = from.DestBlendAlpha;
        to.BlendOpAlpha = from.BlendOpAlpha;
        to.LogicOp = from.LogicOpEnable ? from.LogicOp : D3D11_LOGIC_OP_NOOP;
        to.RenderTargetWriteMask = from.RenderTargetWriteMask;
    }
    return S_OK;
}

HRESULT make_rasterizer(MessageLog& log, const char* call, const D3D11_RASTERIZER_DESC1& desc,
                        D3D11_RASTERIZER_DESC1& normalized) {
    if (desc.FillMode != D3D11_FILL_WIREFRAME && desc.FillMode != D3D11_FILL_SOLID) {
        log.error(call, "pRasterizerDesc->FillMode",
                  std::to_string(desc.FillMode) + " is not a D3D11_FILL_MODE");
        return E_INVALIDARG;
    }
    if (desc.CullMode < D3D11_CULL_NONE || desc.CullMode > D3D11_CULL_BACK) {
        log.error(call, "pRasterizerDesc->CullMode",
                  std::to_string(desc.CullMode) + " is not a D3D11_CULL_MODE");
        return E_INVALIDARG;
    }
    if (std::isnan(desc.DepthBiasClamp) || std::isnan(desc.SlopeScaledDepthBias)) {
        log.error(call, "pRasterizerDesc->DepthBiasClamp", "NaN is not a bias");
        return E_INVALIDARG;
    }
    if (desc.ForcedSampleCount != 0) {
        log.error(call, "pRasterizerDesc->ForcedSampleCount",
                  std::to_string(desc.ForcedSampleCount) +
                      ": forced sample counts are not supported "
                      "(UAVOnlyRenderingForcedSampleCount is FALSE)");
        return E_INVALIDARG;
    }
    std::memset(&normalized, 0, sizeof normalized);
    normalized = desc;
    normalized.FrontCounterClockwise = desc.FrontCounterClockwise ? TRUE : FALSE;
    normalized.DepthClipEnable = desc.DepthClipEnable ? TRUE : FALSE;
    normalized.ScissorEnable = desc.ScissorEnable ? TRUE : FALSE;
    normalized.MultisampleEnable = desc.MultisampleEnable ? TRUE : FALSE;
    normalized.AntialiasedLineEnable = desc.AntialiasedLineEnable ? TRUE : FALSE;
    return S_OK;
}

D3D11_RASTERIZER_DESC1 rasterizer1(const D3D11_RASTERIZER_DESC& desc) {
    D3D11_RASTERIZER_DESC1 result;
    std::memset(&result, 0, sizeof result);
    result.FillMode = desc.FillMode;
    result.CullMode = desc.CullMode;
    result.FrontCounterClockwise = desc.FrontCounterClockwise;
    result.DepthBias = desc.DepthBias;
    result.DepthBiasClamp = desc.DepthBiasClamp;
    result.SlopeScaledDepthBias = desc.SlopeScaledDepthBias;
    result.DepthClipEnable = desc.DepthClipEnable;
    result.ScissorEnable = desc.ScissorEnable;
    result.MultisampleEnable = desc.MultisampleEnable;
    result.AntialiasedLineEnable = desc.AntialiasedLineEnable;
    result.ForcedSampleCount = 0;
    return result;
}

bool filter_value(D3D11_FILTER filter) {
    const UINT value = filter;
    if (value & ~0x1ffu) return false;
    switch (value & 0x7f) {
        case 0x00:
        case 0x01:
        case 0x04:
        case 0x05:
        case 0x10:
        case 0x11:
        case 0x14:
        case 0x15:
        case 0x55:
            return true;
        default:
            return false;
    }
}

}  // namespace

// The common end of the four Create*State methods: the cached state that
// equals the normalized desc, else a new one.
template <class State, class Desc, class Interface>
HRESULT Device::add_state(char kind, const Desc& normalized, Interface** state) {
    if (!state) return S_FALSE;
    const std::string key = state_key(kind, normalized);
    StateBase* found = find_or_add_state(key, [&] { return new State(*this, key, normalized); });
    *state = static_cast<State*>(found);
    return S_OK;
}

template <class State, class Desc, class Interface>
HRESULT Device::create_state(const char* call, const char* parameter, const Desc* desc,
                             HRESULT (*make)(MessageLog&, const char*, const Desc&, Desc&),
                             char kind, Interface** state) {
    if (state) *state = nullptr;
    if (!desc) {
        log_.error(call, parameter, "is NULL");
        return E_INVALIDARG;
    }
    Desc normalized;
    const HRESULT hr = make(log_, call, *desc, normalized);
    if (FAILED(hr)) return hr;
    return add_state<State>(kind, normalized, state);
}

HRESULT Device::CreateBlendState(const D3D11_BLEND_DESC* desc, ID3D11BlendState** state) {
    const char* call = "ID3D11Device::CreateBlendState";
    if (state) *state = nullptr;
    if (!desc) {
        log_.error(call, "pBlendStateDesc", "is NULL");
        return E_INVALIDARG;
    }
    D3D11_BLEND_DESC1 desc1;
    std::memset(&desc1, 0, sizeof desc1);
    desc1.AlphaToCoverageEnable = desc->AlphaToCoverageEnable;
    desc1.IndependentBlendEnable = desc->IndependentBlendEnable;
    for (int i = 0; i < 8; ++i) {
        const auto& from = desc->RenderTarget[i];
        auto& to = desc1.RenderTarget[i];
        to.BlendEnable = from.BlendEnable;
        to.SrcBlend = from.SrcBlend;
        to.DestBlend = from.DestBlend;
        to.BlendOp = from.BlendOp;
        to.SrcBlendAlpha = from.SrcBlendAlpha;
        to.DestBlendAlpha = from.DestBlendAlpha;
        to.BlendOpAlpha = from.BlendOpAlpha;
        to.LogicOp = D3D11_LOGIC_OP_NOOP;
        to.RenderTargetWriteMask = from.RenderTargetWriteMask;
    }
    ID3D11BlendState1* created = nullptr;
    const HRESULT hr = CreateBlendState1(&desc1, state ? &created : nullptr);
    if (state) *state = created;
    return hr;
}

HRESULT Device::CreateBlendState1(const D3D11_BLEND_DESC1* desc, ID3D11BlendState1** state) {
    const char* call = "ID3D11Device1::CreateBlendState1";
    if (state) *state = nullptr;
    if (!desc) {
        log_.error(call, "pBlendStateDesc", "is NULL");
        return E_INVALIDARG;
    }
    D3D11_BLEND_DESC1 normalized;
    const HRESULT hr = make_blend(log_, call, *desc, normalized, backend().logic_ops());
    if (FAILED(hr)) return hr;
    return add_state<BlendState>('B', normalized, state);
}

HRESULT Device::CreateRasterizerState(const D3D11_RASTERIZER_DESC* desc,
                                      ID3D11RasterizerState** state) {
    if (state) *state = nullptr;
    if (!desc) {
        log_.error("ID3D11Device::CreateRasterizerState", "pRasterizerDesc", "is NULL");
        return E_INVALIDARG;
    }
    const D3D11_RASTERIZER_DESC1 desc1 = rasterizer1(*desc);
    ID3D11RasterizerState1* created = nullptr;
    const HRESULT hr = CreateRasterizerState1(&desc1, state ? &created : nullptr);
    if (state) *state = created;
    return hr;
}

HRESULT Device::CreateRasterizerState1(const D3D11_RASTERIZER_DESC1* desc,
                                       ID3D11RasterizerState1** state) {
    return create_state<RasterizerState>("ID3D11Device1::CreateRasterizerState1", "pRasterizerDesc",
                                         desc, make_rasterizer, 'R', state);
}

HRESULT Device::CreateDepthStencilState(const D3D11_DEPTH_STENCIL_DESC* desc,
                                        ID3D11DepthStencilState** state) {
    const char* call = "ID3D11Device::CreateDepthStencilState";
    if (state) *state = nullptr;
    if (!desc) {
        log_.error(call, "pDepthStencilDesc", "is NULL");
        return E_INVALIDARG;
    }
    if (desc->DepthWriteMask != D3D11_DEPTH_WRITE_MASK_ZERO &&
        desc->DepthWriteMask != D3D11_DEPTH_WRITE_MASK_ALL) {
        log_.error(call, "pDepthStencilDesc->DepthWriteMask",
                   std::to_string(desc->DepthWriteMask) + " is neither ZERO nor ALL");
        return E_INVALIDARG;
    }
    if (desc->DepthEnable && !comparison(desc->DepthFunc)) {
        log_.error(call, "pDepthStencilDesc->DepthFunc",
                   std::to_string(desc->DepthFunc) + " is not a D3D11_COMPARISON_FUNC");
        return E_INVALIDARG;
    }
    if (desc->StencilEnable) {
        for (const auto* face : {&desc->FrontFace, &desc->BackFace}) {
            const char* name = face == &desc->FrontFace ? "FrontFace" : "BackFace";
            if (!stencil_op(face->StencilFailOp) || !stencil_op(face->StencilDepthFailOp) ||
                !stencil_op(face->StencilPassOp) || !comparison(face->StencilFunc)) {
                log_.error(call, std::string("pDepthStencilDesc->") + name,
                           "has an operation or function outside its enum");
                return E_INVALIDARG;
            }
        }
    }
    D3D11_DEPTH_STENCIL_DESC normalized;
    std::memset(&normalized, 0, sizeof normalized);
    normalized.DepthEnable = desc->DepthEnable ? TRUE : FALSE;
    normalized.DepthWriteMask = desc->DepthWriteMask;
    normalized.DepthFunc = desc->DepthFunc;
    normalized.StencilEnable = desc->StencilEnable ? TRUE : FALSE;
    normalized.StencilReadMask = desc->StencilReadMask;
    normalized.StencilWriteMask = desc->StencilWriteMask;
    normalized.FrontFace = desc->FrontFace;
    normalized.BackFace = desc->BackFace;
    return add_state<DepthStencilState>('D', normalized, state);
}

HRESULT Device::CreateSamplerState(const D3D11_SAMPLER_DESC* desc, ID3D11SamplerState** state) {
    const char* call = "ID3D11Device::CreateSamplerState";
    if (state) *state = nullptr;
    if (!desc) {
        log_.error(call, "pSamplerDesc", "is NULL");
        return E_INVALIDARG;
    }
    if (!filter_value(desc->Filter)) {
        log_.error(call, "pSamplerDesc->Filter", hex(desc->Filter) + " is not a D3D11_FILTER");
        return E_INVALIDARG;
    }
    for (auto [name, mode] :
         {std::pair{"AddressU", desc->AddressU}, std::pair{"AddressV", desc->AddressV},
          std::pair{"AddressW", desc->AddressW}}) {
        if (mode < D3D11_TEXTURE_ADDRESS_WRAP || mode > D3D11_TEXTURE_ADDRESS_MIRROR_ONCE) {
            log_.error(call, std::string("pSamplerDesc->") + name,
                       std::to_string(mode) + " is not a D3D11_TEXTURE_ADDRESS_MODE");
            return E_INVALIDARG;
        }
    }
    if (!(desc->MipLODBias >= D3D11_MIP_LOD_BIAS_MIN &&
          desc->MipLODBias <= D3D11_MIP_LOD_BIAS_MAX)) {
        log_.error(call, "pSamplerDesc->MipLODBias",
                   std::to_string(desc->MipLODBias) + " is outside -16..15.99");
        return E_INVALIDARG;
    }
    const bool anisotropic = (desc->Filter & 0x7f) == 0x55;
    if (anisotropic && (desc->MaxAnisotropy < 1 || desc->MaxAnisotropy > D3D11_MAX_MAXANISOTROPY)) {
        log_.error(call, "pSamplerDesc->MaxAnisotropy",
                   std::to_string(desc->MaxAnisotropy) + " is outside 1..16");
        return E_INVALIDARG;
    }
    const UINT reduction = (desc->Filter >> 7) & 3;
    if ((reduction == D3D11_FILTER_REDUCTION_TYPE_MINIMUM ||
         reduction == D3D11_FILTER_REDUCTION_TYPE_MAXIMUM) &&
        backend_->tiled_resources_tier() < D3D11_TILED_RESOURCES_TIER_2) {
        log_.error(call, "pSamplerDesc->Filter",
                   hex(desc->Filter) +
                       ": minimum/maximum filtering needs tiled resources tier 2 "
                       "(CheckFeatureSupport D3D11_OPTIONS1 MinMaxFiltering is FALSE here)");
        return E_INVALIDARG;
    }
    const bool compares = reduction == D3D11_FILTER_REDUCTION_TYPE_COMPARISON;
    if (compares && !comparison(desc->ComparisonFunc)) {
        log_.error(call, "pSamplerDesc->ComparisonFunc",
                   std::to_string(desc->ComparisonFunc) + " is not a D3D11_COMPARISON_FUNC");
        return E_INVALIDARG;
    }
    if (std::isnan(desc->MinLOD) || std::isnan(desc->MaxLOD)) {
        log_.error(call, "pSamplerDesc->MinLOD", "NaN is not a level of detail");
        return E_INVALIDARG;
    }
    D3D11_SAMPLER_DESC normalized;
    std::memset(&normalized, 0, sizeof normalized);
    normalized = *desc;
    return add_state<SamplerState>('S', normalized, state);
}

}  // namespace d3dcap::runtime::d3d11
