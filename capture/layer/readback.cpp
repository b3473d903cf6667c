#include "capture/layer/readback.h"

#include <algorithm>

#include "runtime/formats/formats.h"
#include "runtime/tiles/tiling.h"

namespace d3dcap::capture {

namespace {

template <class T>
void release(T*& p) {
    if (p != nullptr) p->Release();
    p = nullptr;
}

// A staging resource the size of one subresource of shape.
HRESULT create_staging(ID3D11Device* device, const ResourceShape& shape, UINT mip,
                       ID3D11Resource** out) {
    const UINT width = mip_extent(shape.width, mip);
    const UINT height = mip_extent(shape.height, mip);
    switch (shape.dimension) {
        case D3D11_RESOURCE_DIMENSION_BUFFER: {
            const D3D11_BUFFER_DESC desc{
                shape.width, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0};
            return device->CreateBuffer(&desc, nullptr, reinterpret_cast<ID3D11Buffer**>(out));
        }
        case D3D11_RESOURCE_DIMENSION_TEXTURE1D: {
            const D3D11_TEXTURE1D_DESC desc{
                width, 1, 1, shape.format, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0};
            return device->CreateTexture1D(&desc, nullptr,
                                           reinterpret_cast<ID3D11Texture1D**>(out));
        }
        case D3D11_RESOURCE_DIMENSION_TEXTURE2D: {
            const D3D11_TEXTURE2D_DESC desc{width,
                                            height,
                                            1,
                                            1,
                                            shape.format,
                                            {1, 0},
                                            D3D11_USAGE_STAGING,
                                            0,
                                            D3D11_CPU_ACCESS_READ,
                                            0};
            return device->CreateTexture2D(&desc, nullptr,
                                           reinterpret_cast<ID3D11Texture2D**>(out));
        }
        case D3D11_RESOURCE_DIMENSION_TEXTURE3D: {
            const D3D11_TEXTURE3D_DESC desc{width,
                                            height,
                                            mip_extent(shape.depth, mip),
                                            1,
                                            shape.format,
                                            D3D11_USAGE_STAGING,
                                            0,
                                            D3D11_CPU_ACCESS_READ,
                                            0};
            return device->CreateTexture3D(&desc, nullptr,
                                           reinterpret_cast<ID3D11Texture3D**>(out));
        }
        default:
            return E_INVALIDARG;
    }
}

// The program's predicate is off while the layer copies (SetPredication
// skips copies too), and back on after.
class Unpredicated {
  public:
    explicit Unpredicated(ID3D11DeviceContext* context) : context_(context) {
        context_->GetPredication(&predicate_, &value_);
        if (predicate_ != nullptr) context_->SetPredication(nullptr, FALSE);
    }
    ~Unpredicated() {
        if (predicate_ == nullptr) return;
        context_->SetPredication(predicate_, value_);
        predicate_->Release();
    }
    Unpredicated(const Unpredicated&) = delete;
    Unpredicated& operator=(const Unpredicated&) = delete;

  private:
    ID3D11DeviceContext* context_;
    ID3D11Predicate* predicate_ = nullptr;
    BOOL value_ = FALSE;
};

}  // namespace

CanonicalLayout canonical_layout(const ResourceShape& shape, UINT subresource) {
    CanonicalLayout layout{shape.width, 1, 1};
    if (shape.dimension == D3D11_RESOURCE_DIMENSION_BUFFER) return layout;
    const UINT mip = subresource % std::max<UINT>(1, shape.mip_levels);
    layout.row_bytes = std::max<std::uint64_t>(
        1, runtime::formats::row_pitch(shape.format, mip_extent(shape.width, mip)));
    layout.rows = std::max<std::uint32_t>(
        1, runtime::formats::row_count(shape.format, mip_extent(shape.height, mip)));
    if (shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D)
        layout.depth = mip_extent(shape.depth, mip);
    return layout;
}

Readback::Readback(ID3D11DeviceContext* context) : context_(context) {
    context_->AddRef();
    context_->GetDevice(&device_);
    context_->QueryInterface(__uuidof(ID3D11DeviceContext2), reinterpret_cast<void**>(&context2_));
}

Readback::~Readback() {
    release(tile_staging_);
    release(tile_scratch_);
    release(context2_);
    release(device_);
    release(context_);
}

bool Readback::subresource(ID3D11Resource* src, const ResourceShape& shape, UINT subresource,
                           const std::function<void(const MappedCopy&)>& visit) {
    if (device_ == nullptr || shape.sample_count > 1 || subresource >= subresource_count(shape))
        return false;
    ID3D11Resource* staging = nullptr;
    if (FAILED(create_staging(device_, shape, subresource % shape.mip_levels, &staging)))
        return false;
    // The whole subresource: depth-stencil resources allow nothing less.
    const Unpredicated unpredicated(context_);
    context_->CopySubresourceRegion(staging, 0, 0, 0, 0, src, subresource, nullptr);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    const bool ok = SUCCEEDED(context_->Map(staging, 0, D3D11_MAP_READ, 0, &mapped));
    if (ok) {
        visit({static_cast<const std::uint8_t*>(mapped.pData), mapped.RowPitch, mapped.DepthPitch});
        context_->Unmap(staging, 0);
    }
    staging->Release();
    return ok;
}

bool Readback::pieces(ID3D11Resource* src, const ResourceInfo& info, UINT sub,
                      std::uint64_t max_bytes,
                      const std::function<void(const MappedCopy&, const CanonicalLayout&)>& visit) {
    const ResourceShape& shape = info.shape;
    if (shape.sample_count > 1 || sub >= subresource_count(shape)) return false;
    const CanonicalLayout whole = canonical_layout(shape, sub);
    const bool buffer = shape.dimension == D3D11_RESOURCE_DIMENSION_BUFFER;
    const runtime::formats::FormatInfo& facts = runtime::formats::info(shape.format);
    const bool rows_boxable = (shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE2D ||
                               shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D) &&
                              (info.bind_flags & D3D11_BIND_DEPTH_STENCIL) == 0 &&
                              facts.kind != runtime::formats::Kind::Depth &&
                              facts.block_width == 1 && facts.block_height == 1 &&
                              !runtime::formats::is_planar(shape.format);
    if (whole.bytes() <= max_bytes || (!buffer && !rows_boxable))
        return subresource(src, shape, sub, [&](const MappedCopy& copy) { visit(copy, whole); });
    // Rows of a slice per piece, or bytes of a buffer.
    const std::uint64_t total = buffer ? whole.row_bytes : whole.rows;
    const auto step = static_cast<std::uint32_t>(
        std::clamp<std::uint64_t>(buffer ? max_bytes : max_bytes / whole.row_bytes, 1, total));
    const UINT mip = sub % shape.mip_levels;
    ResourceShape piece_shape = shape;
    piece_shape.mip_levels = piece_shape.array_size = piece_shape.depth = 1;
    if (buffer) {
        piece_shape.width = step;
    } else {
        piece_shape.width = mip_extent(shape.width, mip);
        piece_shape.height = step;
    }
    ID3D11Resource* staging = nullptr;
    if (device_ == nullptr || FAILED(create_staging(device_, piece_shape, 0, &staging)))
        return false;
    bool ok = true;
    const Unpredicated unpredicated(context_);
    for (UINT z = 0; ok && z < whole.depth; ++z) {
        for (std::uint64_t at = 0; ok && at < total; at += step) {
            const auto first = static_cast<UINT>(at);
            const auto count = static_cast<UINT>(std::min<std::uint64_t>(step, total - at));
            const D3D11_BOX box =
                buffer ? D3D11_BOX{first, 0, 0, first + count, 1, 1}
                       : D3D11_BOX{0, first, z, piece_shape.width, first + count, z + 1};
            context_->CopySubresourceRegion(staging, 0, 0, 0, 0, src, sub, &box);
            D3D11_MAPPED_SUBRESOURCE mapped{};
            ok = SUCCEEDED(context_->Map(staging, 0, D3D11_MAP_READ, 0, &mapped));
            if (!ok) break;
            const CanonicalLayout piece =
                buffer ? CanonicalLayout{count, 1, 1} : CanonicalLayout{whole.row_bytes, count, 1};
            visit({static_cast<const std::uint8_t*>(mapped.pData), mapped.RowPitch,
                   mapped.DepthPitch},
                  piece);
            context_->Unmap(staging, 0);
        }
    }
    staging->Release();
    return ok;
}

bool Readback::tile(ID3D11Resource* src, const D3D11_TILED_RESOURCE_COORDINATE& at,
                    std::vector<std::uint8_t>& out) {
    if (context2_ == nullptr) return false;
    if (tile_scratch_ == nullptr) {
        const D3D11_BUFFER_DESC scratch{
            runtime::tiles::kTileBytes, D3D11_USAGE_DEFAULT, 0, 0, 0, 0};
        const D3D11_BUFFER_DESC staging{
            runtime::tiles::kTileBytes, D3D11_USAGE_STAGING, 0, D3D11_CPU_ACCESS_READ, 0, 0};
        if (FAILED(device_->CreateBuffer(&scratch, nullptr, &tile_scratch_)) ||
            FAILED(device_->CreateBuffer(&staging, nullptr, &tile_staging_))) {
            release(tile_scratch_);
            release(tile_staging_);
            return false;
        }
    }
    const D3D11_TILE_REGION_SIZE one{1, FALSE, 0, 0, 0};
    const Unpredicated unpredicated(context_);
    context2_->CopyTiles(src, &at, &one, tile_scratch_, 0,
                         D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
    context_->CopyResource(tile_staging_, tile_scratch_);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    if (FAILED(context_->Map(tile_staging_, 0, D3D11_MAP_READ, 0, &mapped))) return false;
    const auto* data = static_cast<const std::uint8_t*>(mapped.pData);
    out.assign(data, data + runtime::tiles::kTileBytes);
    context_->Unmap(tile_staging_, 0);
    return true;
}

}  // namespace d3dcap::capture
