#include "scene.h"

#include <algorithm>
#include <cstring>

#include "frame.h"
#include "histogram_cs.h"
#include "overlay_ps.h"
#include "overlay_vs.h"
#include "terrain_ps.h"
#include "terrain_vs.h"

namespace tiled_streaming {
namespace {

constexpr UINT kCell = 64;  // pixels
constexpr UINT kCellsX = kViewWidth / kCell, kCellsY = kViewHeight / kCell;
constexpr UINT kMaxOverlays = 256;

Com<ID3D11Buffer> vertex_buffer(ID3D11Device* device, const void* data, UINT bytes, bool dynamic) {
    D3D11_BUFFER_DESC desc{};
    desc.ByteWidth = bytes;
    desc.Usage = dynamic ? D3D11_USAGE_DYNAMIC : D3D11_USAGE_IMMUTABLE;
    desc.BindFlags = D3D11_BIND_VERTEX_BUFFER;
    desc.CPUAccessFlags = dynamic ? D3D11_CPU_ACCESS_WRITE : 0;
    const D3D11_SUBRESOURCE_DATA initial{data, 0, 0};
    Com<ID3D11Buffer> buffer;
    check(device->CreateBuffer(&desc, data ? &initial : nullptr, buffer.put()),
          "ID3D11Device::CreateBuffer (vertices)");
    return buffer;
}

}  // namespace

SceneRenderer::SceneRenderer(ID3D11Device* device, ID3D11DeviceContext2* context,
                             ID3D11Texture2D* virtual_texture, ID3D11Texture2D* target)
    : context_(context) {
    check(device->CreateVertexShader(k_terrain_vs, sizeof k_terrain_vs, nullptr, terrain_vs_.put()),
          "ID3D11Device::CreateVertexShader (terrain)");
    check(device->CreatePixelShader(k_terrain_ps, sizeof k_terrain_ps, nullptr, terrain_ps_.put()),
          "ID3D11Device::CreatePixelShader (terrain)");
    check(device->CreateVertexShader(k_overlay_vs, sizeof k_overlay_vs, nullptr, overlay_vs_.put()),
          "ID3D11Device::CreateVertexShader (overlay)");
    check(device->CreatePixelShader(k_overlay_ps, sizeof k_overlay_ps, nullptr, overlay_ps_.put()),
          "ID3D11Device::CreatePixelShader (overlay)");
    check(device->CreateComputeShader(k_histogram_cs, sizeof k_histogram_cs, nullptr,
                                      histogram_cs_.put()),
          "ID3D11Device::CreateComputeShader (histogram)");

    // Slot 0: a quad's corners (a triangle strip); slot 1: one cell or one
    // overlay rectangle per instance.
    const D3D11_INPUT_ELEMENT_DESC terrain[] = {
        {"CORNER", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
        {"CELL", 0, DXGI_FORMAT_R32G32_FLOAT, 1, 0, D3D11_INPUT_PER_INSTANCE_DATA, 1}};
    check(device->CreateInputLayout(terrain, 2, k_terrain_vs, sizeof k_terrain_vs,
                                    terrain_layout_.put()),
          "ID3D11Device::CreateInputLayout (terrain)");
    const D3D11_INPUT_ELEMENT_DESC overlay[] = {
        {"CORNER", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
        {"RECT", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 1, 0, D3D11_INPUT_PER_INSTANCE_DATA, 1}};
    check(device->CreateInputLayout(overlay, 2, k_overlay_vs, sizeof k_overlay_vs,
                                    overlay_layout_.put()),
          "ID3D11Device::CreateInputLayout (overlay)");
    const float corners[8] = {0, 0, 1, 0, 0, 1, 1, 1};
    corners_ = vertex_buffer(device, corners, sizeof corners, false);
    std::vector<float> cells;
    for (UINT y = 0; y < kCellsY; ++y)
        for (UINT x = 0; x < kCellsX; ++x) cells.insert(cells.end(), {float(x), float(y)});
    cells_ = vertex_buffer(device, cells.data(), static_cast<UINT>(cells.size() * 4), false);
    overlays_ = vertex_buffer(device, nullptr, kMaxOverlays * 16, true);

    // The virtual texture, every mip; texels outside it the background.
    check(device->CreateShaderResourceView(virtual_texture, nullptr, texture_view_.put()),
          "ID3D11Device::CreateShaderResourceView (virtual texture)");
    check(device->CreateShaderResourceView(target, nullptr, target_view_.put()),
          "ID3D11Device::CreateShaderResourceView (view)");
    D3D11_SAMPLER_DESC sampler{};
    sampler.Filter = D3D11_FILTER_MIN_MAG_MIP_POINT;
    sampler.AddressU = sampler.AddressV = sampler.AddressW = D3D11_TEXTURE_ADDRESS_BORDER;
    sampler.MaxAnisotropy = 1;
    sampler.ComparisonFunc = D3D11_COMPARISON_NEVER;
    const float background[4] = {0.05f, 0.06f, 0.08f, 1.0f};
    std::memcpy(sampler.BorderColor, background, sizeof background);
    sampler.MaxLOD = D3D11_FLOAT32_MAX;
    check(device->CreateSamplerState(&sampler, sampler_.put()), "ID3D11Device::CreateSamplerState");

    D3D11_TEXTURE2D_DESC depth{};
    depth.Width = kViewWidth;
    depth.Height = kViewHeight;
    depth.MipLevels = depth.ArraySize = 1;
    depth.Format = DXGI_FORMAT_D32_FLOAT;
    depth.SampleDesc.Count = 1;
    depth.Usage = D3D11_USAGE_DEFAULT;
    depth.BindFlags = D3D11_BIND_DEPTH_STENCIL;
    check(device->CreateTexture2D(&depth, nullptr, depth_.put()),
          "ID3D11Device::CreateTexture2D (depth)");
    check(device->CreateDepthStencilView(depth_.get(), nullptr, depth_view_.put()),
          "ID3D11Device::CreateDepthStencilView");
    D3D11_DEPTH_STENCIL_DESC test{};
    test.DepthEnable = TRUE;
    test.DepthWriteMask = D3D11_DEPTH_WRITE_MASK_ALL;
    test.DepthFunc = D3D11_COMPARISON_LESS;
    check(device->CreateDepthStencilState(&test, terrain_depth_.put()),
          "ID3D11Device::CreateDepthStencilState (terrain)");
    test.DepthWriteMask = D3D11_DEPTH_WRITE_MASK_ZERO;
    test.DepthFunc = D3D11_COMPARISON_LESS_EQUAL;
    check(device->CreateDepthStencilState(&test, overlay_depth_.put()),
          "ID3D11Device::CreateDepthStencilState (overlay)");
    D3D11_BLEND_DESC blend{};
    D3D11_RENDER_TARGET_BLEND_DESC& alpha = blend.RenderTarget[0];
    alpha.BlendEnable = TRUE;
    alpha.SrcBlend = D3D11_BLEND_SRC_ALPHA;
    alpha.DestBlend = D3D11_BLEND_INV_SRC_ALPHA;
    alpha.BlendOp = D3D11_BLEND_OP_ADD;
    alpha.SrcBlendAlpha = D3D11_BLEND_ZERO;
    alpha.DestBlendAlpha = D3D11_BLEND_ONE;
    alpha.BlendOpAlpha = D3D11_BLEND_OP_ADD;
    alpha.RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL;
    check(device->CreateBlendState(&blend, blend_.put()), "ID3D11Device::CreateBlendState");
    D3D11_RASTERIZER_DESC rasterizer{};
    rasterizer.FillMode = D3D11_FILL_SOLID;
    rasterizer.CullMode = D3D11_CULL_NONE;
    rasterizer.DepthClipEnable = TRUE;
    check(device->CreateRasterizerState(&rasterizer, rasterizer_.put()),
          "ID3D11Device::CreateRasterizerState");

    D3D11_BUFFER_DESC bins{};
    bins.ByteWidth = kBins * 4;
    bins.Usage = D3D11_USAGE_DEFAULT;
    bins.BindFlags = D3D11_BIND_UNORDERED_ACCESS;
    bins.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS;
    check(device->CreateBuffer(&bins, nullptr, bins_.put()),
          "ID3D11Device::CreateBuffer (histogram)");
    D3D11_UNORDERED_ACCESS_VIEW_DESC raw{};
    raw.Format = DXGI_FORMAT_R32_TYPELESS;
    raw.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
    raw.Buffer = {0, kBins, D3D11_BUFFER_UAV_FLAG_RAW};
    check(device->CreateUnorderedAccessView(bins_.get(), &raw, bins_view_.put()),
          "ID3D11Device::CreateUnorderedAccessView (histogram)");
    bins.Usage = D3D11_USAGE_STAGING;
    bins.BindFlags = bins.MiscFlags = 0;
    bins.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    check(device->CreateBuffer(&bins, nullptr, bins_staging_.put()),
          "ID3D11Device::CreateBuffer (histogram staging)");
}

void SceneRenderer::draw(ID3D11RenderTargetView* target_view,
                         const std::vector<std::array<float, 4>>& overlays) {
    context_->ClearDepthStencilView(depth_view_.get(), D3D11_CLEAR_DEPTH, 1.0f, 0);
    context_->OMSetRenderTargets(1, &target_view, depth_view_.get());
    const D3D11_VIEWPORT viewport{0, 0, kViewWidth, kViewHeight, 0, 1};
    context_->RSSetViewports(1, &viewport);
    context_->RSSetState(rasterizer_.get());
    context_->IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);

    // The terrain: every cell, one instance each.
    ID3D11Buffer* buffers[2] = {corners_.get(), cells_.get()};
    UINT strides[2] = {8, 8};
    const UINT offsets[2] = {0, 0};
    context_->IASetVertexBuffers(0, 2, buffers, strides, offsets);
    context_->IASetInputLayout(terrain_layout_.get());
    context_->VSSetShader(terrain_vs_.get(), nullptr, 0);
    context_->PSSetShader(terrain_ps_.get(), nullptr, 0);
    ID3D11ShaderResourceView* texture = texture_view_.get();
    context_->PSSetShaderResources(1, 1, &texture);
    ID3D11SamplerState* sampler = sampler_.get();
    context_->PSSetSamplers(0, 1, &sampler);
    context_->OMSetDepthStencilState(terrain_depth_.get(), 0);
    context_->OMSetBlendState(nullptr, nullptr, 0xffffffff);
    context_->DrawInstanced(4, kCellsX * kCellsY, 0, 0);

    // The overlays, blended over it.
    const UINT count = std::min<UINT>(static_cast<UINT>(overlays.size()), kMaxOverlays);
    if (count == 0) return;
    D3D11_MAPPED_SUBRESOURCE mapped{};
    check(context_->Map(overlays_.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped),
          "ID3D11DeviceContext::Map (overlays, WRITE_DISCARD)");
    std::memcpy(mapped.pData, overlays.data(), count * 16);
    context_->Unmap(overlays_.get(), 0);
    buffers[1] = overlays_.get();
    strides[1] = 16;
    context_->IASetVertexBuffers(0, 2, buffers, strides, offsets);
    context_->IASetInputLayout(overlay_layout_.get());
    context_->VSSetShader(overlay_vs_.get(), nullptr, 0);
    context_->PSSetShader(overlay_ps_.get(), nullptr, 0);
    context_->OMSetDepthStencilState(overlay_depth_.get(), 0);
    context_->OMSetBlendState(blend_.get(), nullptr, 0xffffffff);
    context_->DrawInstanced(4, count, 0, 0);
    context_->OMSetBlendState(nullptr, nullptr, 0xffffffff);
}

std::array<std::uint32_t, SceneRenderer::kBins> SceneRenderer::histogram() {
    // The view is read in a shader: not bound as a target meanwhile.
    context_->OMSetRenderTargets(0, nullptr, nullptr);
    const UINT zero[4] = {0, 0, 0, 0};
    context_->ClearUnorderedAccessViewUint(bins_view_.get(), zero);
    context_->CSSetShader(histogram_cs_.get(), nullptr, 0);
    ID3D11ShaderResourceView* view = target_view_.get();
    context_->CSSetShaderResources(0, 1, &view);
    ID3D11UnorderedAccessView* uav = bins_view_.get();
    context_->CSSetUnorderedAccessViews(0, 1, &uav, nullptr);
    context_->Dispatch(kViewWidth / 16, kViewHeight / 16, 1);
    ID3D11ShaderResourceView* none = nullptr;
    context_->CSSetShaderResources(0, 1, &none);
    context_->CopyResource(bins_staging_.get(), bins_.get());
    D3D11_MAPPED_SUBRESOURCE mapped{};
    check(context_->Map(bins_staging_.get(), 0, D3D11_MAP_READ, 0, &mapped),
          "ID3D11DeviceContext::Map (histogram, READ)");
    std::array<std::uint32_t, kBins> bins{};
    std::memcpy(bins.data(), mapped.pData, sizeof bins);
    context_->Unmap(bins_staging_.get(), 0);
    return bins;
}

}  // namespace tiled_streaming
