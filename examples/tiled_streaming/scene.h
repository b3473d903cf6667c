// The view drawn with shaders (shaders/*.asm, assembled at build time): the
// terrain as 16x9 instanced cells sampling the virtual texture at the
// camera's mip through the frame record's constant-buffer window, depth-
// tested; translucent overlays, instanced and alpha-blended, over the tiles
// still loading; and a compute pass that counts a 16-bin brightness
// histogram of the picture through a UAV.
#pragma once

#include <d3d11_2.h>

#include <array>
#include <cstdint>
#include <vector>

#include "common/com.h"

namespace tiled_streaming {

using namespace example;

class SceneRenderer {
  public:
    static constexpr UINT kBins = 16;

    SceneRenderer(ID3D11Device* device, ID3D11DeviceContext2* context,
                  ID3D11Texture2D* virtual_texture, ID3D11Texture2D* target);
    // The terrain and the overlays (rectangles in view pixels: left, top,
    // right, bottom) into the target. The frame's constant buffers are bound.
    void draw(ID3D11RenderTargetView* target_view,
              const std::vector<std::array<float, 4>>& overlays);
    // The histogram of the target as drawn, read back.
    std::array<std::uint32_t, kBins> histogram();

  private:
    ID3D11DeviceContext2* context_;
    Com<ID3D11VertexShader> terrain_vs_, overlay_vs_;
    Com<ID3D11PixelShader> terrain_ps_, overlay_ps_;
    Com<ID3D11ComputeShader> histogram_cs_;
    Com<ID3D11InputLayout> terrain_layout_, overlay_layout_;
    Com<ID3D11Buffer> corners_, cells_, overlays_;
    Com<ID3D11ShaderResourceView> texture_view_, target_view_;
    Com<ID3D11SamplerState> sampler_;
    Com<ID3D11Texture2D> depth_;
    Com<ID3D11DepthStencilView> depth_view_;
    Com<ID3D11DepthStencilState> terrain_depth_, overlay_depth_;
    Com<ID3D11BlendState> blend_;
    Com<ID3D11RasterizerState> rasterizer_;
    Com<ID3D11Buffer> bins_, bins_staging_;
    Com<ID3D11UnorderedAccessView> bins_view_;
};

}  // namespace tiled_streaming
