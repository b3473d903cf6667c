#include "frame.h"

#include <algorithm>
#include <cstring>

#include "content.h"

namespace tiled_streaming {

// FrameConstants

FrameConstants::FrameConstants(ID3D11Device* device, ID3D11DeviceContext2* context)
    : context_(context) {
    D3D11_BUFFER_DESC desc{};
    desc.ByteWidth = kConstants * 16;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = D3D11_BIND_CONSTANT_BUFFER;
    check(device->CreateBuffer(&desc, nullptr, constants_.put()),
          "ID3D11Device::CreateBuffer (constants)");
    const std::vector<std::uint8_t> zeros(desc.ByteWidth);
    context_->UpdateSubresource1(constants_.get(), 0, nullptr, zeros.data(), 0, 0,
                                 D3D11_COPY_DISCARD);

    desc = {};
    desc.ByteWidth = kFeedbackWords * 4;
    desc.Usage = D3D11_USAGE_DYNAMIC;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    desc.CPUAccessFlags = D3D11_CPU_ACCESS_WRITE;
    check(device->CreateBuffer(&desc, nullptr, feedback_.put()),
          "ID3D11Device::CreateBuffer (feedback)");
    D3D11_SHADER_RESOURCE_VIEW_DESC view{};
    view.Format = DXGI_FORMAT_R32_UINT;
    view.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
    view.Buffer.FirstElement = 0;
    view.Buffer.NumElements = kFeedbackWords;
    check(device->CreateShaderResourceView(feedback_.get(), &view, feedback_view_.put()),
          "ID3D11Device::CreateShaderResourceView (feedback)");
}

void FrameConstants::update(const FrameInfo& info) {
    // One record of 32 constants per frame in a ring; the record being
    // written was last used 128 frames ago, so NO_OVERWRITE, except at the
    // wrap, where the whole ring is discarded.
    constexpr UINT kRecords = kConstants / kRecordConstants;
    const UINT record = info.frame % kRecords;
    std::array<std::uint32_t, kRecordConstants * 4> words{};
    words[0] = static_cast<std::uint32_t>(info.camera.x);
    words[1] = static_cast<std::uint32_t>(info.camera.y);
    words[2] = info.camera.scale;
    words[3] = info.camera.lod;
    words[4] = info.frame;
    words[5] = info.stream.visible;
    words[6] = info.stream.loading;
    words[7] = info.pool_tiles;
    words[8] = info.clip_window.x0;
    words[9] = info.clip_window.y0;
    words[10] = info.clip_window.mip;
    words[11] = info.texture_size;
    // Second block: the page-table window of every mip.
    for (const TileRect& rect : info.wanted) {
        if (rect.mip >= 16) continue;
        std::uint32_t* window = &words[(16 + rect.mip) * 4];
        window[0] = rect.x0;
        window[1] = rect.y0;
        window[2] = rect.x1;
        window[3] = rect.y1;
    }
    const UINT bytes = kRecordConstants * 16;
    const D3D11_BOX box{record * bytes, 0, 0, (record + 1) * bytes, 1, 1};
    context_->UpdateSubresource1(constants_.get(), 0, &box, words.data(), 0, 0,
                                 record == 0 ? D3D11_COPY_DISCARD : D3D11_COPY_NO_OVERWRITE);

    // The vertex stage sees the camera block, the pixel stage the whole
    // record in slot 0 and the ring (4096 constants, the most a shader can
    // address) in slot 1.
    ID3D11Buffer* buffer = constants_.get();
    const UINT first = record * kRecordConstants;
    const UINT vs_count = 16, ps_count = kRecordConstants;
    context_->VSSetConstantBuffers1(0, 1, &buffer, &first, &vs_count);
    context_->PSSetConstantBuffers1(0, 1, &buffer, &first, &ps_count);
    const UINT ring_first = 0, ring_count = kConstants;
    context_->PSSetConstantBuffers1(1, 1, &buffer, &ring_first, &ring_count);

    D3D11_MAPPED_SUBRESOURCE mapped{};
    check(context_->Map(feedback_.get(), 0, D3D11_MAP_WRITE_DISCARD, 0, &mapped),
          "ID3D11DeviceContext::Map (feedback, WRITE_DISCARD)");
    std::array<std::uint32_t, kFeedbackWords> feedback{};
    feedback[0] = info.frame;
    feedback[1] = info.camera.lod;
    feedback[2] = info.stream.visible;
    feedback[3] = info.stream.loading;
    const UINT listed = std::min<UINT>(static_cast<UINT>(info.loading.size()), kFeedbackWords - 5);
    feedback[4] = listed;
    for (UINT i = 0; i < listed; ++i) {
        const TileKey& key = info.loading[i];
        feedback[5 + i] = key.mip << 24 | key.y << 12 | key.x;
    }
    std::memcpy(mapped.pData, feedback.data(), sizeof feedback);
    context_->Unmap(feedback_.get(), 0);
    ID3D11ShaderResourceView* view = feedback_view_.get();
    context_->PSSetShaderResources(0, 1, &view);
}

// DecalPainter

DecalPainter::DecalPainter(ID3D11Device* device, ID3D11DeviceContext2* context,
                           ID3D11Texture2D* texture, ID3D11Buffer* pool)
    : context_(context), texture_(texture), pool_(pool) {
    D3D11_TEXTURE2D_DESC desc{};
    texture->GetDesc(&desc);
    check(device->CreateTexture2D(&desc, nullptr, alias_.put()),
          "ID3D11Device::CreateTexture2D (tiled alias texture)");
}

void DecalPainter::map(UINT pool_tile) {
    // The alias's first tile (NULL sizes: one tile) onto the pool tile.
    const D3D11_TILED_RESOURCE_COORDINATE start{0, 0, 0, 0};
    check(context_->UpdateTileMappings(alias_.get(), 1, &start, nullptr, pool_, 1, nullptr,
                                       &pool_tile, nullptr, 0),
          "ID3D11DeviceContext2::UpdateTileMappings (alias texture)");
}

void DecalPainter::write_tile(UINT pool_tile, const std::uint8_t* bytes) {
    context_->TiledResourceBarrier(texture_, alias_.get());
    map(pool_tile);
    const D3D11_TILED_RESOURCE_COORDINATE start{0, 0, 0, 0};
    const D3D11_TILE_REGION_SIZE size{1, FALSE, 0, 0, 0};
    context_->UpdateTiles(alias_.get(), &start, &size, bytes, 0);
    // The texture reads what the buffer wrote.
    context_->TiledResourceBarrier(alias_.get(), texture_);
}

void DecalPainter::paint(UINT pool_tile, UINT x, UINT y, std::uint32_t colour) {
    constexpr UINT kSize = 8;
    // Earlier frames read this tile through the texture.
    context_->TiledResourceBarrier(texture_, alias_.get());
    map(pool_tile);
    std::array<std::uint32_t, kSize * kSize> texels;
    texels.fill(colour);
    const D3D11_BOX box{x, y, 0, x + kSize, y + kSize, 1};
    context_->UpdateSubresource1(alias_.get(), 0, &box, texels.data(), kSize * 4, 0, 0);
    context_->TiledResourceBarrier(alias_.get(), texture_);
}

void DecalPainter::unmap() {
    // NULL coordinates and sizes: the whole texture; one NULL range.
    const UINT flag = D3D11_TILE_RANGE_NULL;
    check(context_->UpdateTileMappings(alias_.get(), 1, nullptr, nullptr, nullptr, 1, &flag,
                                       nullptr, nullptr, 0),
          "ID3D11DeviceContext2::UpdateTileMappings (alias texture unmap)");
}

// ViewRenderer

ViewRenderer::ViewRenderer(ID3D11Device* device, ID3D11DeviceContext2* context,
                           IDXGISwapChain* swap_chain, ID3D11Texture2D* virtual_texture)
    : context_(context) {
    check(swap_chain->GetBuffer(0, __uuidof(ID3D11Texture2D), back_buffer_.put_void()),
          "IDXGISwapChain::GetBuffer");
    D3D11_TEXTURE2D_DESC desc{};
    desc.Width = kViewWidth;
    desc.Height = kViewHeight;
    desc.MipLevels = 1;
    desc.ArraySize = 1;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc.Count = 1;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = D3D11_BIND_RENDER_TARGET | D3D11_BIND_SHADER_RESOURCE;
    check(device->CreateTexture2D(&desc, nullptr, target_.put()),
          "ID3D11Device::CreateTexture2D (view)");
    name(target_.get(), "view");
    check(device->CreateRenderTargetView(target_.get(), nullptr, target_view_.put()),
          "ID3D11Device::CreateRenderTargetView (view)");
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    check(device->CreateTexture2D(&desc, nullptr, staging_.put()),
          "ID3D11Device::CreateTexture2D (staging)");
    scene_ = std::make_unique<SceneRenderer>(device, context, virtual_texture, target_.get());
}

std::uint32_t ViewRenderer::render(const Tiling& tiling, const Camera& camera,
                                   ID3D11Texture2D* clipmap,
                                   const std::vector<std::array<UINT, 2>>& bars,
                                   const std::vector<TileKey>& loading) {
    const LONG width = kViewWidth, height = kViewHeight;
    const FLOAT background[4] = {0.05f, 0.06f, 0.08f, 1.0f};
    const D3D11_RECT whole{0, 0, width, height};
    context_->ClearView(target_view_.get(), background, &whole, 1);

    // The terrain around the camera at its mip, and an overlay on each of
    // its tiles still loading (in view pixels: the view is centred on the camera).
    const UINT mip = camera.lod;
    const float left = static_cast<float>((camera.x >> mip) - width / 2);
    const float top = static_cast<float>((camera.y >> mip) - height / 2);
    const float tile_w = static_cast<float>(tiling.shape.WidthInTexels);
    const float tile_h = static_cast<float>(tiling.shape.HeightInTexels);
    std::vector<std::array<float, 4>> overlays;
    for (const TileKey& key : loading) {
        if (key.mip != mip) continue;
        overlays.push_back({key.x * tile_w - left, key.y * tile_h - top,
                            (key.x + 1) * tile_w - left, (key.y + 1) * tile_h - top});
    }
    scene_->draw(target_view_.get(), overlays);

    // The clipmap's centre as an inset with a frame of four rectangles.
    D3D11_TEXTURE2D_DESC clip{};
    clipmap->GetDesc(&clip);
    constexpr LONG kInset = 256, kMargin = 16;
    const LONG inset_x = width - kMargin - kInset, inset_y = kMargin;
    const D3D11_RECT frame[4] = {
        {inset_x - 2, inset_y - 2, inset_x + kInset + 2, inset_y},
        {inset_x - 2, inset_y + kInset, inset_x + kInset + 2, inset_y + kInset + 2},
        {inset_x - 2, inset_y, inset_x, inset_y + kInset},
        {inset_x + kInset, inset_y, inset_x + kInset + 2, inset_y + kInset}};
    const FLOAT white[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    context_->ClearView(target_view_.get(), white, frame, 4);
    const UINT clip_x = (clip.Width - kInset) / 2, clip_y = (clip.Height - kInset) / 2;
    const D3D11_BOX clip_box{clip_x, clip_y, 0, clip_x + kInset, clip_y + kInset, 1};
    context_->CopySubresourceRegion1(target_.get(), 0, inset_x, inset_y, 0, clipmap, 0, &clip_box,
                                     0);

    // One bar per mip: resident share of the visible tiles.
    constexpr LONG kBarWidth = 200, kBarHeight = 8;
    std::vector<D3D11_RECT> backs, fills;
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const LONG bar_top = height - kMargin - static_cast<LONG>(i + 1) * (kBarHeight + 4);
        const LONG filled =
            bars[i][1] ? static_cast<LONG>(kBarWidth * std::int64_t{bars[i][0]} / bars[i][1]) : 0;
        backs.push_back({kMargin, bar_top, kMargin + kBarWidth, bar_top + kBarHeight});
        fills.push_back({kMargin, bar_top, kMargin + filled, bar_top + kBarHeight});
    }
    if (!backs.empty()) {
        const FLOAT grey[4] = {0.25f, 0.25f, 0.25f, 1.0f};
        const FLOAT green[4] = {0.2f, 0.85f, 0.3f, 1.0f};
        context_->ClearView(target_view_.get(), grey, backs.data(),
                            static_cast<UINT>(backs.size()));
        // An empty rectangle (nothing resident yet) clears nothing.
        context_->ClearView(target_view_.get(), green, fills.data(),
                            static_cast<UINT>(fills.size()));
    }

    const std::array<std::uint32_t, SceneRenderer::kBins> bins = scene_->histogram();

    // Read back for the checksum; the whole staging texture is overwritten.
    context_->CopySubresourceRegion1(staging_.get(), 0, 0, 0, 0, target_.get(), 0, nullptr,
                                     D3D11_COPY_DISCARD);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    check(context_->Map(staging_.get(), 0, D3D11_MAP_READ, 0, &mapped),
          "ID3D11DeviceContext::Map (staging, READ)");
    std::uint32_t checksum = 0x811c9dc5u;
    const auto* bytes = static_cast<const std::uint8_t*>(mapped.pData);
    for (UINT row = 0; row < kViewHeight; ++row) {
        checksum = fnv1a(bytes + std::size_t{row} * mapped.RowPitch, kViewWidth * 4, checksum);
    }
    context_->Unmap(staging_.get(), 0);
    checksum = fnv1a(bins.data(), sizeof bins, checksum);

    context_->CopyResource(back_buffer_.get(), target_.get());
    return checksum;
}

}  // namespace tiled_streaming
