// The API table's hand-written size rules, as replay checks them: the
// recorded data must cover every byte the replayed call will read.
#pragma once

#include <d3dcap/api/call_decoders.h>

#include <string>

namespace d3dcap::replay {

class SizeRuleChecks final : public api::SizeRules {
  public:
    // UpdateSubresource(1): the source region with the recorded pitches.
    std::string subresource_data(const fb::ID3D11DeviceContext_UpdateSubresource& params,
                                 ID3D11Resource* pDstResource, UINT DstSubresource,
                                 const D3D11_BOX* pDstBox, const std::uint8_t* pSrcData,
                                 UINT SrcRowPitch, UINT SrcDepthPitch) override;
    std::string subresource_data(const fb::ID3D11DeviceContext1_UpdateSubresource1& params,
                                 ID3D11Resource* pDstResource, UINT DstSubresource,
                                 const D3D11_BOX* pDstBox, const std::uint8_t* pSrcData,
                                 UINT SrcRowPitch, UINT SrcDepthPitch, UINT CopyFlags) override;

    // CreateTexture1D/2D/3D: one entry per subresource, each covering its mip.
    std::string texture_initial_data(const fb::ID3D11Device_CreateTexture1D& params,
                                     const D3D11_TEXTURE1D_DESC* pDesc,
                                     const D3D11_SUBRESOURCE_DATA* pInitialData,
                                     ID3D11Texture1D** ppTexture1D) override;
    std::string texture_initial_data(const fb::ID3D11Device_CreateTexture2D& params,
                                     const D3D11_TEXTURE2D_DESC* pDesc,
                                     const D3D11_SUBRESOURCE_DATA* pInitialData,
                                     ID3D11Texture2D** ppTexture2D) override;
    std::string texture_initial_data(const fb::ID3D11Device_CreateTexture3D& params,
                                     const D3D11_TEXTURE3D_DESC* pDesc,
                                     const D3D11_SUBRESOURCE_DATA* pInitialData,
                                     ID3D11Texture3D** ppTexture3D) override;
};

}  // namespace d3dcap::replay
