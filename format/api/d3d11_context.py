"""ID3D11DeviceContext, ID3D11DeviceContext1 and ID3D11DeviceContext2.

Vtable slots 7-143; call ids 100-236 (call id = slot + 93).  The structs and
enums these methods use are declared in d3d11_types.py, the interfaces they
pass around (views, shaders, states, resources) in d3d11_device.py.

Conventions followed here, after the SDK's SAL annotations:
  * xSSet* arrays are [opt, count=Num...]: NULL unbinds the range.
  * xSGet* arrays are [out, opt, count=Num...]; the interfaces they return
    carry a reference the caller must Release.
  * FLOAT/UINT[4] parameters are fixed arrays (passed as pointers).
"""


def declare(api) -> None:
    api.interface("ID3D11DeviceContext", base="ID3D11DeviceChild", header="d3d11",
                  uuid="c0bfa96c-e089-44fb-8eaf-26f8796190da", methods=[
        # slot 7
        (100, "void VSSetConstantBuffers(UINT StartSlot, UINT NumBuffers, "
              "[opt, count=NumBuffers] ID3D11Buffer *const *ppConstantBuffers)"),
        (101, "void PSSetShaderResources(UINT StartSlot, UINT NumViews, "
              "[opt, count=NumViews] ID3D11ShaderResourceView *const *ppShaderResourceViews)"),
        (102, "void PSSetShader([opt] ID3D11PixelShader *pPixelShader, "
              "[opt, count=NumClassInstances] ID3D11ClassInstance *const *ppClassInstances, "
              "UINT NumClassInstances)"),
        (103, "void PSSetSamplers(UINT StartSlot, UINT NumSamplers, "
              "[opt, count=NumSamplers] ID3D11SamplerState *const *ppSamplers)"),
        (104, "void VSSetShader([opt] ID3D11VertexShader *pVertexShader, "
              "[opt, count=NumClassInstances] ID3D11ClassInstance *const *ppClassInstances, "
              "UINT NumClassInstances)"),
        (105, "void DrawIndexed(UINT IndexCount, UINT StartIndexLocation, INT BaseVertexLocation)"),
        (106, "void Draw(UINT VertexCount, UINT StartVertexLocation)"),
        # Map/Unmap: the mapped memory must be tracked and its writes captured.
        (107, "[hand_written=capture+replay(keeps the mapping for the writes recorded at "
              "Unmap)] "
              "HRESULT Map(ID3D11Resource *pResource, UINT Subresource, "
              "D3D11_MAP MapType, [enum=D3D11_MAP_FLAG] UINT MapFlags, "
              "[out, opt] D3D11_MAPPED_SUBRESOURCE *pMappedResource)"),
        (108, "[hand_written=capture+replay(writes the recorded bytes into the mapped "
              "memory)] "
              "void Unmap(ID3D11Resource *pResource, UINT Subresource)"),
        (109, "void PSSetConstantBuffers(UINT StartSlot, UINT NumBuffers, "
              "[opt, count=NumBuffers] ID3D11Buffer *const *ppConstantBuffers)"),
        (110, "void IASetInputLayout([opt] ID3D11InputLayout *pInputLayout)"),
        (111, "void IASetVertexBuffers(UINT StartSlot, UINT NumBuffers, "
              "[opt, count=NumBuffers] ID3D11Buffer *const *ppVertexBuffers, "
              "[opt, count=NumBuffers] const UINT *pStrides, "
              "[opt, count=NumBuffers] const UINT *pOffsets)"),
        (112, "void IASetIndexBuffer([opt] ID3D11Buffer *pIndexBuffer, DXGI_FORMAT Format, "
              "UINT Offset)"),
        (113, "void DrawIndexedInstanced(UINT IndexCountPerInstance, UINT InstanceCount, "
              "UINT StartIndexLocation, INT BaseVertexLocation, UINT StartInstanceLocation)"),
        (114, "void DrawInstanced(UINT VertexCountPerInstance, UINT InstanceCount, "
              "UINT StartVertexLocation, UINT StartInstanceLocation)"),
        (115, "void GSSetConstantBuffers(UINT StartSlot, UINT NumBuffers, "
              "[opt, count=NumBuffers] ID3D11Buffer *const *ppConstantBuffers)"),
        (116, "void GSSetShader([opt] ID3D11GeometryShader *pShader, "
              "[opt, count=NumClassInstances] ID3D11ClassInstance *const *ppClassInstances, "
              "UINT NumClassInstances)"),
        (117, "void IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY Topology)"),
        (118, "void VSSetShaderResources(UINT StartSlot, UINT NumViews, "
              "[opt, count=NumViews] ID3D11ShaderResourceView *const *ppShaderResourceViews)"),
        (119, "void VSSetSamplers(UINT StartSlot, UINT NumSamplers, "
              "[opt, count=NumSamplers] ID3D11SamplerState *const *ppSamplers)"),
        (120, "void Begin(ID3D11Asynchronous *pAsync)"),
        (121, "void End(ID3D11Asynchronous *pAsync)"),
        # GetData: polled results, replay must wait for the recorded outcome.
        (122, "[hand_written=replay(polls until the recorded outcome)] "
              "HRESULT GetData(ID3D11Asynchronous *pAsync, "
              "[out, opt, bytes=DataSize] void *pData, UINT DataSize, "
              "[enum=D3D11_ASYNC_GETDATA_FLAG] UINT GetDataFlags)"),
        (123, "void SetPredication([opt] ID3D11Predicate *pPredicate, BOOL PredicateValue)"),
        (124, "void GSSetShaderResources(UINT StartSlot, UINT NumViews, "
              "[opt, count=NumViews] ID3D11ShaderResourceView *const *ppShaderResourceViews)"),
        (125, "void GSSetSamplers(UINT StartSlot, UINT NumSamplers, "
              "[opt, count=NumSamplers] ID3D11SamplerState *const *ppSamplers)"),
        (126, "void OMSetRenderTargets(UINT NumViews, "
              "[opt, count=NumViews] ID3D11RenderTargetView *const *ppRenderTargetViews, "
              "[opt] ID3D11DepthStencilView *pDepthStencilView)"),
        # NumRTVs / NumUAVs may be the D3D11_KEEP_* sentinels
        # (0xffffffff), in which case the matching arrays are ignored.
        (127, "void OMSetRenderTargetsAndUnorderedAccessViews(UINT NumRTVs, "
              "[opt, count=NumRTVs] ID3D11RenderTargetView *const *ppRenderTargetViews, "
              "[opt] ID3D11DepthStencilView *pDepthStencilView, "
              "UINT UAVStartSlot, UINT NumUAVs, "
              "[opt, count=NumUAVs] ID3D11UnorderedAccessView *const *ppUnorderedAccessViews, "
              "[opt, count=NumUAVs] const UINT *pUAVInitialCounts)"),
        (128, "void OMSetBlendState([opt] ID3D11BlendState *pBlendState, "
              "[opt] const FLOAT BlendFactor[4], UINT SampleMask)"),
        (129, "void OMSetDepthStencilState([opt] ID3D11DepthStencilState *pDepthStencilState, "
              "UINT StencilRef)"),
        (130, "void SOSetTargets(UINT NumBuffers, "
              "[opt, count=NumBuffers] ID3D11Buffer *const *ppSOTargets, "
              "[opt, count=NumBuffers] const UINT *pOffsets)"),
        (131, "void DrawAuto()"),
        (132, "void DrawIndexedInstancedIndirect(ID3D11Buffer *pBufferForArgs, "
              "UINT AlignedByteOffsetForArgs)"),
        (133, "void DrawInstancedIndirect(ID3D11Buffer *pBufferForArgs, "
              "UINT AlignedByteOffsetForArgs)"),
        (134, "void Dispatch(UINT ThreadGroupCountX, UINT ThreadGroupCountY, "
              "UINT ThreadGroupCountZ)"),
        (135, "void DispatchIndirect(ID3D11Buffer *pBufferForArgs, UINT AlignedByteOffsetForArgs)"),
        (136, "void RSSetState([opt] ID3D11RasterizerState *pRasterizerState)"),
        (137, "void RSSetViewports(UINT NumViewports, "
              "[opt, count=NumViewports] const D3D11_VIEWPORT *pViewports)"),
        (138, "void RSSetScissorRects(UINT NumRects, [opt, count=NumRects] const D3D11_RECT *pRects)"),
        (139, "void CopySubresourceRegion(ID3D11Resource *pDstResource, UINT DstSubresource, "
              "UINT DstX, UINT DstY, UINT DstZ, ID3D11Resource *pSrcResource, "
              "UINT SrcSubresource, [opt] const D3D11_BOX *pSrcBox)"),
        (140, "void CopyResource(ID3D11Resource *pDstResource, ID3D11Resource *pSrcResource)"),
        # The source size depends on the resource's format, box and pitches.
        (141, "[hand_written=capture] void UpdateSubresource(ID3D11Resource *pDstResource, "
              "UINT DstSubresource, [opt] const D3D11_BOX *pDstBox, "
              "[size=subresource_data] const void *pSrcData, "
              "UINT SrcRowPitch, UINT SrcDepthPitch)"),
        (142, "void CopyStructureCount(ID3D11Buffer *pDstBuffer, UINT DstAlignedByteOffset, "
              "ID3D11UnorderedAccessView *pSrcView)"),
        (143, "void ClearRenderTargetView(ID3D11RenderTargetView *pRenderTargetView, "
              "const FLOAT ColorRGBA[4])"),
        (144, "void ClearUnorderedAccessViewUint("
              "ID3D11UnorderedAccessView *pUnorderedAccessView, const UINT Values[4])"),
        (145, "void ClearUnorderedAccessViewFloat("
              "ID3D11UnorderedAccessView *pUnorderedAccessView, const FLOAT Values[4])"),
        (146, "void ClearDepthStencilView(ID3D11DepthStencilView *pDepthStencilView, "
              "[enum=D3D11_CLEAR_FLAG] UINT ClearFlags, FLOAT Depth, UINT8 Stencil)"),
        (147, "void GenerateMips(ID3D11ShaderResourceView *pShaderResourceView)"),
        (148, "void SetResourceMinLOD(ID3D11Resource *pResource, FLOAT MinLOD)"),
        (149, "FLOAT GetResourceMinLOD(ID3D11Resource *pResource)"),
        (150, "void ResolveSubresource(ID3D11Resource *pDstResource, UINT DstSubresource, "
              "ID3D11Resource *pSrcResource, UINT SrcSubresource, DXGI_FORMAT Format)"),
        # Replays a recorded command list and may reset the context state.
        (151, "void ExecuteCommandList(ID3D11CommandList *pCommandList, "
              "BOOL RestoreContextState)"),
        (152, "void HSSetShaderResources(UINT StartSlot, UINT NumViews, "
              "[opt, count=NumViews] ID3D11ShaderResourceView *const *ppShaderResourceViews)"),
        (153, "void HSSetShader([opt] ID3D11HullShader *pHullShader, "
              "[opt, count=NumClassInstances] ID3D11ClassInstance *const *ppClassInstances, "
              "UINT NumClassInstances)"),
        (154, "void HSSetSamplers(UINT StartSlot, UINT NumSamplers, "
              "[opt, count=NumSamplers] ID3D11SamplerState *const *ppSamplers)"),
        (155, "void HSSetConstantBuffers(UINT StartSlot, UINT NumBuffers, "
              "[opt, count=NumBuffers] ID3D11Buffer *const *ppConstantBuffers)"),
        (156, "void DSSetShaderResources(UINT StartSlot, UINT NumViews, "
              "[opt, count=NumViews] ID3D11ShaderResourceView *const *ppShaderResourceViews)"),
        (157, "void DSSetShader([opt] ID3D11DomainShader *pDomainShader, "
              "[opt, count=NumClassInstances] ID3D11ClassInstance *const *ppClassInstances, "
              "UINT NumClassInstances)"),
        (158, "void DSSetSamplers(UINT StartSlot, UINT NumSamplers, "
              "[opt, count=NumSamplers] ID3D11SamplerState *const *ppSamplers)"),
        (159, "void DSSetConstantBuffers(UINT StartSlot, UINT NumBuffers, "
              "[opt, count=NumBuffers] ID3D11Buffer *const *ppConstantBuffers)"),
        (160, "void CSSetShaderResources(UINT StartSlot, UINT NumViews, "
              "[opt, count=NumViews] ID3D11ShaderResourceView *const *ppShaderResourceViews)"),
        # pUAVInitialCounts: -1 keeps the current hidden counter.
        (161, "void CSSetUnorderedAccessViews(UINT StartSlot, UINT NumUAVs, "
              "[opt, count=NumUAVs] ID3D11UnorderedAccessView *const *ppUnorderedAccessViews, "
              "[opt, count=NumUAVs] const UINT *pUAVInitialCounts)"),
        (162, "void CSSetShader([opt] ID3D11ComputeShader *pComputeShader, "
              "[opt, count=NumClassInstances] ID3D11ClassInstance *const *ppClassInstances, "
              "UINT NumClassInstances)"),
        (163, "void CSSetSamplers(UINT StartSlot, UINT NumSamplers, "
              "[opt, count=NumSamplers] ID3D11SamplerState *const *ppSamplers)"),
        (164, "void CSSetConstantBuffers(UINT StartSlot, UINT NumBuffers, "
              "[opt, count=NumBuffers] ID3D11Buffer *const *ppConstantBuffers)"),
        # Getters (slots 72-109).
        (165, "void VSGetConstantBuffers(UINT StartSlot, UINT NumBuffers, "
              "[out, opt, count=NumBuffers] ID3D11Buffer **ppConstantBuffers)"),
        (166, "void PSGetShaderResources(UINT StartSlot, UINT NumViews, "
              "[out, opt, count=NumViews] ID3D11ShaderResourceView **ppShaderResourceViews)"),
        (167, "void PSGetShader([out] ID3D11PixelShader **ppPixelShader, "
              "[out, opt, count=*pNumClassInstances] ID3D11ClassInstance **ppClassInstances, "
              "[inout, opt] UINT *pNumClassInstances)"),
        (168, "void PSGetSamplers(UINT StartSlot, UINT NumSamplers, "
              "[out, opt, count=NumSamplers] ID3D11SamplerState **ppSamplers)"),
        (169, "void VSGetShader([out] ID3D11VertexShader **ppVertexShader, "
              "[out, opt, count=*pNumClassInstances] ID3D11ClassInstance **ppClassInstances, "
              "[inout, opt] UINT *pNumClassInstances)"),
        (170, "void PSGetConstantBuffers(UINT StartSlot, UINT NumBuffers, "
              "[out, opt, count=NumBuffers] ID3D11Buffer **ppConstantBuffers)"),
        (171, "void IAGetInputLayout([out] ID3D11InputLayout **ppInputLayout)"),
        (172, "void IAGetVertexBuffers(UINT StartSlot, UINT NumBuffers, "
              "[out, opt, count=NumBuffers] ID3D11Buffer **ppVertexBuffers, "
              "[out, opt, count=NumBuffers] UINT *pStrides, "
              "[out, opt, count=NumBuffers] UINT *pOffsets)"),
        (173, "void IAGetIndexBuffer([out, opt] ID3D11Buffer **pIndexBuffer, "
              "[out, opt] DXGI_FORMAT *Format, [out, opt] UINT *Offset)"),
        (174, "void GSGetConstantBuffers(UINT StartSlot, UINT NumBuffers, "
              "[out, opt, count=NumBuffers] ID3D11Buffer **ppConstantBuffers)"),
        (175, "void GSGetShader([out] ID3D11GeometryShader **ppGeometryShader, "
              "[out, opt, count=*pNumClassInstances] ID3D11ClassInstance **ppClassInstances, "
              "[inout, opt] UINT *pNumClassInstances)"),
        (176, "void IAGetPrimitiveTopology([out] D3D11_PRIMITIVE_TOPOLOGY *pTopology)"),
        (177, "void VSGetShaderResources(UINT StartSlot, UINT NumViews, "
              "[out, opt, count=NumViews] ID3D11ShaderResourceView **ppShaderResourceViews)"),
        (178, "void VSGetSamplers(UINT StartSlot, UINT NumSamplers, "
              "[out, opt, count=NumSamplers] ID3D11SamplerState **ppSamplers)"),
        (179, "void GetPredication([out, opt] ID3D11Predicate **ppPredicate, "
              "[out, opt] BOOL *pPredicateValue)"),
        (180, "void GSGetShaderResources(UINT StartSlot, UINT NumViews, "
              "[out, opt, count=NumViews] ID3D11ShaderResourceView **ppShaderResourceViews)"),
        (181, "void GSGetSamplers(UINT StartSlot, UINT NumSamplers, "
              "[out, opt, count=NumSamplers] ID3D11SamplerState **ppSamplers)"),
        (182, "void OMGetRenderTargets(UINT NumViews, "
              "[out, opt, count=NumViews] ID3D11RenderTargetView **ppRenderTargetViews, "
              "[out, opt] ID3D11DepthStencilView **ppDepthStencilView)"),
        (183, "void OMGetRenderTargetsAndUnorderedAccessViews(UINT NumRTVs, "
              "[out, opt, count=NumRTVs] ID3D11RenderTargetView **ppRenderTargetViews, "
              "[out, opt] ID3D11DepthStencilView **ppDepthStencilView, "
              "UINT UAVStartSlot, UINT NumUAVs, "
              "[out, opt, count=NumUAVs] ID3D11UnorderedAccessView **ppUnorderedAccessViews)"),
        (184, "void OMGetBlendState([out, opt] ID3D11BlendState **ppBlendState, "
              "[out, opt] FLOAT BlendFactor[4], [out, opt] UINT *pSampleMask)"),
        (185, "void OMGetDepthStencilState([out, opt] ID3D11DepthStencilState **ppDepthStencilState, "
              "[out, opt] UINT *pStencilRef)"),
        (186, "void SOGetTargets(UINT NumBuffers, "
              "[out, opt, count=NumBuffers] ID3D11Buffer **ppSOTargets)"),
        (187, "void RSGetState([out] ID3D11RasterizerState **ppRasterizerState)"),
        # pViewports NULL: *pNumViewports receives the number bound.
        (188, "void RSGetViewports([inout] UINT *pNumViewports, "
              "[out, opt, count=*pNumViewports] D3D11_VIEWPORT *pViewports)"),
        (189, "void RSGetScissorRects([inout] UINT *pNumRects, "
              "[out, opt, count=*pNumRects] D3D11_RECT *pRects)"),
        (190, "void HSGetShaderResources(UINT StartSlot, UINT NumViews, "
              "[out, opt, count=NumViews] ID3D11ShaderResourceView **ppShaderResourceViews)"),
        (191, "void HSGetShader([out] ID3D11HullShader **ppHullShader, "
              "[out, opt, count=*pNumClassInstances] ID3D11ClassInstance **ppClassInstances, "
              "[inout, opt] UINT *pNumClassInstances)"),
        (192, "void HSGetSamplers(UINT StartSlot, UINT NumSamplers, "
              "[out, opt, count=NumSamplers] ID3D11SamplerState **ppSamplers)"),
        (193, "void HSGetConstantBuffers(UINT StartSlot, UINT NumBuffers, "
              "[out, opt, count=NumBuffers] ID3D11Buffer **ppConstantBuffers)"),
        (194, "void DSGetShaderResources(UINT StartSlot, UINT NumViews, "
              "[out, opt, count=NumViews] ID3D11ShaderResourceView **ppShaderResourceViews)"),
        (195, "void DSGetShader([out] ID3D11DomainShader **ppDomainShader, "
              "[out, opt, count=*pNumClassInstances] ID3D11ClassInstance **ppClassInstances, "
              "[inout, opt] UINT *pNumClassInstances)"),
        (196, "void DSGetSamplers(UINT StartSlot, UINT NumSamplers, "
              "[out, opt, count=NumSamplers] ID3D11SamplerState **ppSamplers)"),
        (197, "void DSGetConstantBuffers(UINT StartSlot, UINT NumBuffers, "
              "[out, opt, count=NumBuffers] ID3D11Buffer **ppConstantBuffers)"),
        (198, "void CSGetShaderResources(UINT StartSlot, UINT NumViews, "
              "[out, opt, count=NumViews] ID3D11ShaderResourceView **ppShaderResourceViews)"),
        (199, "void CSGetUnorderedAccessViews(UINT StartSlot, UINT NumUAVs, "
              "[out, opt, count=NumUAVs] ID3D11UnorderedAccessView **ppUnorderedAccessViews)"),
        (200, "void CSGetShader([out] ID3D11ComputeShader **ppComputeShader, "
              "[out, opt, count=*pNumClassInstances] ID3D11ClassInstance **ppClassInstances, "
              "[inout, opt] UINT *pNumClassInstances)"),
        (201, "void CSGetSamplers(UINT StartSlot, UINT NumSamplers, "
              "[out, opt, count=NumSamplers] ID3D11SamplerState **ppSamplers)"),
        (202, "void CSGetConstantBuffers(UINT StartSlot, UINT NumBuffers, "
              "[out, opt, count=NumBuffers] ID3D11Buffer **ppConstantBuffers)"),
        (203, "void ClearState()"),
        (204, "void Flush()"),
        (205, "D3D11_DEVICE_CONTEXT_TYPE GetType()"),
        (206, "UINT GetContextFlags()"),
        # slot 114: creates the command list object the capture must wrap.
        (207, "HRESULT FinishCommandList(BOOL RestoreDeferredContextState, "
              "[out, opt] ID3D11CommandList **ppCommandList)"),
    ])

    api.interface("ID3D11DeviceContext1", base="ID3D11DeviceContext", header="d3d11_1",
                  uuid="bb2c6faa-b5fb-4082-8e6b-388b8cfa90e1", methods=[
        # slot 115
        (208, "void CopySubresourceRegion1(ID3D11Resource *pDstResource, UINT DstSubresource, "
              "UINT DstX, UINT DstY, UINT DstZ, ID3D11Resource *pSrcResource, "
              "UINT SrcSubresource, [opt] const D3D11_BOX *pSrcBox, "
              "[enum=D3D11_COPY_FLAGS] UINT CopyFlags)"),
        # Unlike UpdateSubresource, pDstBox never offsets pSrcData.
        (209, "[hand_written=capture] void UpdateSubresource1(ID3D11Resource *pDstResource, "
              "UINT DstSubresource, [opt] const D3D11_BOX *pDstBox, "
              "[size=subresource_data] const void *pSrcData, "
              "UINT SrcRowPitch, UINT SrcDepthPitch, [enum=D3D11_COPY_FLAGS] UINT CopyFlags)"),
        (210, "void DiscardResource(ID3D11Resource *pResource)"),
        (211, "void DiscardView(ID3D11View *pResourceView)"),
        # pFirstConstant / pNumConstants: both NULL or both given, in
        # 16-byte constants; NULL binds the whole buffer.
        (212, "void VSSetConstantBuffers1(UINT StartSlot, UINT NumBuffers, "
              "[opt, count=NumBuffers] ID3D11Buffer *const *ppConstantBuffers, "
              "[opt, count=NumBuffers] const UINT *pFirstConstant, "
              "[opt, count=NumBuffers] const UINT *pNumConstants)"),
        (213, "void HSSetConstantBuffers1(UINT StartSlot, UINT NumBuffers, "
              "[opt, count=NumBuffers] ID3D11Buffer *const *ppConstantBuffers, "
              "[opt, count=NumBuffers] const UINT *pFirstConstant, "
              "[opt, count=NumBuffers] const UINT *pNumConstants)"),
        (214, "void DSSetConstantBuffers1(UINT StartSlot, UINT NumBuffers, "
              "[opt, count=NumBuffers] ID3D11Buffer *const *ppConstantBuffers, "
              "[opt, count=NumBuffers] const UINT *pFirstConstant, "
              "[opt, count=NumBuffers] const UINT *pNumConstants)"),
        (215, "void GSSetConstantBuffers1(UINT StartSlot, UINT NumBuffers, "
              "[opt, count=NumBuffers] ID3D11Buffer *const *ppConstantBuffers, "
              "[opt, count=NumBuffers] const UINT *pFirstConstant, "
              "[opt, count=NumBuffers] const UINT *pNumConstants)"),
        (216, "void PSSetConstantBuffers1(UINT StartSlot, UINT NumBuffers, "
              "[opt, count=NumBuffers] ID3D11Buffer *const *ppConstantBuffers, "
              "[opt, count=NumBuffers] const UINT *pFirstConstant, "
              "[opt, count=NumBuffers] const UINT *pNumConstants)"),
        (217, "void CSSetConstantBuffers1(UINT StartSlot, UINT NumBuffers, "
              "[opt, count=NumBuffers] ID3D11Buffer *const *ppConstantBuffers, "
              "[opt, count=NumBuffers] const UINT *pFirstConstant, "
              "[opt, count=NumBuffers] const UINT *pNumConstants)"),
        (218, "void VSGetConstantBuffers1(UINT StartSlot, UINT NumBuffers, "
              "[out, opt, count=NumBuffers] ID3D11Buffer **ppConstantBuffers, "
              "[out, opt, count=NumBuffers] UINT *pFirstConstant, "
              "[out, opt, count=NumBuffers] UINT *pNumConstants)"),
        (219, "void HSGetConstantBuffers1(UINT StartSlot, UINT NumBuffers, "
              "[out, opt, count=NumBuffers] ID3D11Buffer **ppConstantBuffers, "
              "[out, opt, count=NumBuffers] UINT *pFirstConstant, "
              "[out, opt, count=NumBuffers] UINT *pNumConstants)"),
        (220, "void DSGetConstantBuffers1(UINT StartSlot, UINT NumBuffers, "
              "[out, opt, count=NumBuffers] ID3D11Buffer **ppConstantBuffers, "
              "[out, opt, count=NumBuffers] UINT *pFirstConstant, "
              "[out, opt, count=NumBuffers] UINT *pNumConstants)"),
        (221, "void GSGetConstantBuffers1(UINT StartSlot, UINT NumBuffers, "
              "[out, opt, count=NumBuffers] ID3D11Buffer **ppConstantBuffers, "
              "[out, opt, count=NumBuffers] UINT *pFirstConstant, "
              "[out, opt, count=NumBuffers] UINT *pNumConstants)"),
        (222, "void PSGetConstantBuffers1(UINT StartSlot, UINT NumBuffers, "
              "[out, opt, count=NumBuffers] ID3D11Buffer **ppConstantBuffers, "
              "[out, opt, count=NumBuffers] UINT *pFirstConstant, "
              "[out, opt, count=NumBuffers] UINT *pNumConstants)"),
        (223, "void CSGetConstantBuffers1(UINT StartSlot, UINT NumBuffers, "
              "[out, opt, count=NumBuffers] ID3D11Buffer **ppConstantBuffers, "
              "[out, opt, count=NumBuffers] UINT *pFirstConstant, "
              "[out, opt, count=NumBuffers] UINT *pNumConstants)"),
        # Swaps the whole pipeline state object; capture must track it.
        (224, "void SwapDeviceContextState(ID3DDeviceContextState *pState, "
              "[out, opt] ID3DDeviceContextState **ppPreviousState)"),
        # pRect NULL (or NumRects 0) clears the whole view.
        (225, "void ClearView(ID3D11View *pView, const FLOAT Color[4], "
              "[opt, count=NumRects] const D3D11_RECT *pRect, UINT NumRects)"),
        (226, "void DiscardView1(ID3D11View *pResourceView, "
              "[opt, count=NumRects] const D3D11_RECT *pRects, UINT NumRects)"),
    ])

    api.interface("ID3D11DeviceContext2", base="ID3D11DeviceContext1", header="d3d11_2",
                  uuid="420d5b32-b90c-4da4-bef0-359f6a24a83a", methods=[
        # slot 134.  NULL arrays have documented defaults (whole resource,
        # 1-tile regions, no flags, a single range covering every tile).
        (227, "[hand_written=capture] HRESULT UpdateTileMappings(ID3D11Resource *pTiledResource, "
              "UINT NumTiledResourceRegions, "
              "[opt, count=NumTiledResourceRegions] "
              "const D3D11_TILED_RESOURCE_COORDINATE *pTiledResourceRegionStartCoordinates, "
              "[opt, count=NumTiledResourceRegions] "
              "const D3D11_TILE_REGION_SIZE *pTiledResourceRegionSizes, "
              "[opt] ID3D11Buffer *pTilePool, UINT NumRanges, "
              "[opt, count=NumRanges, enum=D3D11_TILE_RANGE_FLAG] const UINT *pRangeFlags, "
              "[opt, count=NumRanges] const UINT *pTilePoolStartOffsets, "
              "[opt, count=NumRanges] const UINT *pRangeTileCounts, "
              "[enum=D3D11_TILE_MAPPING_FLAG] UINT Flags)"),
        (228, "[hand_written=capture] HRESULT CopyTileMappings(ID3D11Resource *pDestTiledResource, "
              "const D3D11_TILED_RESOURCE_COORDINATE *pDestRegionStartCoordinate, "
              "ID3D11Resource *pSourceTiledResource, "
              "const D3D11_TILED_RESOURCE_COORDINATE *pSourceRegionStartCoordinate, "
              "const D3D11_TILE_REGION_SIZE *pTileRegionSize, "
              "[enum=D3D11_TILE_MAPPING_FLAG] UINT Flags)"),
        (229, "void CopyTiles(ID3D11Resource *pTiledResource, "
              "const D3D11_TILED_RESOURCE_COORDINATE *pTileRegionStartCoordinate, "
              "const D3D11_TILE_REGION_SIZE *pTileRegionSize, ID3D11Buffer *pBuffer, "
              "UINT64 BufferStartOffsetInBytes, [enum=D3D11_TILE_COPY_FLAG] UINT Flags)"),
        # Source data is linear, 64 KiB per tile.
        (230, "[hand_written=capture] void UpdateTiles(ID3D11Resource *pDestTiledResource, "
              "const D3D11_TILED_RESOURCE_COORDINATE *pDestTileRegionStartCoordinate, "
              "const D3D11_TILE_REGION_SIZE *pDestTileRegionSize, "
              "[bytes=pDestTileRegionSize->NumTiles * D3D11_2_TILED_RESOURCE_TILE_SIZE_IN_BYTES] "
              "const void *pSourceTileData, [enum=D3D11_TILE_COPY_FLAG] UINT Flags)"),
        (231, "[hand_written=capture] "
              "HRESULT ResizeTilePool(ID3D11Buffer *pTilePool, UINT64 NewSizeInBytes)"),
        # Each side is a resource, a view, or NULL (meaning all tiled resources).
        (232, "void TiledResourceBarrier("
              "[opt] ID3D11DeviceChild *pTiledResourceOrViewAccessBeforeBarrier, "
              "[opt] ID3D11DeviceChild *pTiledResourceOrViewAccessAfterBarrier)"),
        (233, "[hand_written=capture] BOOL IsAnnotationEnabled()"),
        (234, "void SetMarkerInt([string] LPCWSTR pLabel, INT Data)"),
        (235, "void BeginEventInt([string] LPCWSTR pLabel, INT Data)"),
        (236, "void EndEvent()"),
    ])
