// Per-frame work besides streaming: the constants and feedback buffers, the
// decal painted into the virtual texture through an aliasing tiled texture,
// and the composed view that is read back for a checksum and presented.
#pragma once

#include <d3d11_2.h>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "common/com.h"
#include "scene.h"
#include "streamer.h"

namespace tiled_streaming {

using namespace example;

constexpr UINT kViewWidth = 1024;
constexpr UINT kViewHeight = 576;

// The camera: a point in mip-0 texels and a zoom, in 1/256 mip-0 texels per
// view pixel; `lod` is the finest mip the view needs.
struct Camera {
    std::int64_t x = 0;
    std::int64_t y = 0;
    UINT scale = 256;
    UINT lod = 0;
};

struct FrameInfo {
    UINT frame = 0;
    UINT texture_size = 0;  // the virtual texture's width and height
    Camera camera;
    StreamStats stream;
    UINT pool_tiles = 0;
    TileRect clip_window;
    std::vector<TileRect> wanted;
    std::vector<TileKey> loading;
};

// A 4096-constant buffer holding a ring of per-frame records (camera and
// the page-table window of every mip), written with UpdateSubresource1 and
// bound with first-constant windows; and a small DYNAMIC buffer of
// residency feedback, rewritten with Map(WRITE_DISCARD) every frame.
class FrameConstants {
  public:
    static constexpr UINT kConstants = 4096;
    static constexpr UINT kRecordConstants = 32;  // two blocks of 16
    static constexpr UINT kFeedbackWords = 1024;

    FrameConstants(ID3D11Device* device, ID3D11DeviceContext2* context);
    void update(const FrameInfo& info);

  private:
    ID3D11DeviceContext2* context_;
    Com<ID3D11Buffer> constants_;
    Com<ID3D11Buffer> feedback_;
    Com<ID3D11ShaderResourceView> feedback_view_;
};

// A second tiled texture with the virtual texture's description whose first
// tile aliases pool tiles of the virtual texture: the loading tile is written
// through it, and each frame a marker is painted into the tile under the
// camera. The order of texels inside a tile is the device's own; two
// resources of the same description see a shared tile's texels in the same
// places on every device. TiledResourceBarrier orders the accesses through
// the two resources.
class DecalPainter {
  public:
    DecalPainter(ID3D11Device* device, ID3D11DeviceContext2* context, ID3D11Texture2D* texture,
                 ID3D11Buffer* pool);
    // Writes 64 KiB into a pool tile through the alias.
    void write_tile(UINT pool_tile, const std::uint8_t* bytes);
    // An 8x8 marker at texel (x, y) of the tile in `pool_tile`.
    void paint(UINT pool_tile, UINT x, UINT y, std::uint32_t colour);
    // Drops the alias's mapping, so that it holds no pool tile the streamer may free.
    void unmap();

  private:
    void map(UINT pool_tile);

    ID3D11DeviceContext2* context_;
    ID3D11Resource* texture_;
    ID3D11Buffer* pool_;
    Com<ID3D11Texture2D> alias_;
};

// The view: cleared with ClearView, the terrain and the loading overlays
// drawn (SceneRenderer), the clipmap copied in with CopySubresourceRegion1,
// residency bars drawn with ClearView rectangles, a brightness histogram
// counted by a compute shader; then copied to a STAGING texture and read
// back for the frame checksum, and copied to the swap chain's buffer.
// Devices that do not run shaders show the clears and copies only.
class ViewRenderer {
  public:
    ViewRenderer(ID3D11Device* device, ID3D11DeviceContext2* context, IDXGISwapChain* swap_chain,
                 ID3D11Texture2D* virtual_texture);
    // `bars`: resident and visible tile counts of each mip from the camera's
    // lod; `loading`: the tiles mapped to the loading tile. Returns the
    // checksum of the frame read back and its histogram.
    std::uint32_t render(const Tiling& tiling, const Camera& camera, ID3D11Texture2D* clipmap,
                         const std::vector<std::array<UINT, 2>>& bars,
                         const std::vector<TileKey>& loading);

  private:
    ID3D11DeviceContext2* context_;
    Com<ID3D11Texture2D> target_;
    Com<ID3D11RenderTargetView> target_view_;
    Com<ID3D11Texture2D> staging_;
    Com<ID3D11Texture2D> back_buffer_;
    std::unique_ptr<SceneRenderer> scene_;
};

}  // namespace tiled_streaming
