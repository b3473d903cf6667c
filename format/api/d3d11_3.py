"""D3D11.3 and D3D11.4 (d3d11_3.h, d3d11_4.h), apart from the video interfaces.

Every interface here is declared only (methods without call ids): programs that
use them compile, but the runtime does not implement them (QueryInterface
answers E_NOINTERFACE).  Types, vtable order, IIDs and parameter names follow
the Windows SDK.  The video interfaces of d3d11_4.h are in d3d11_video.py.
"""


def declare(api) -> None:
    _d3d11_3_types(api)
    _d3d11_3_interfaces(api)
    _d3d11_4(api)


# ---------------------------------------------------------------------------
# d3d11_3.h: enums and structs, each struct after what it uses.

def _d3d11_3_types(api) -> None:
    h = "d3d11_3"
    api.enum("D3D11_CONTEXT_TYPE", header=h, values="""
        D3D11_CONTEXT_TYPE_ALL = 0, D3D11_CONTEXT_TYPE_3D = 1, D3D11_CONTEXT_TYPE_COMPUTE = 2,
        D3D11_CONTEXT_TYPE_COPY = 3, D3D11_CONTEXT_TYPE_VIDEO = 4""")
    api.enum("D3D11_TEXTURE_LAYOUT", header=h, values="""
        D3D11_TEXTURE_LAYOUT_UNDEFINED = 0, D3D11_TEXTURE_LAYOUT_ROW_MAJOR = 1,
        D3D11_TEXTURE_LAYOUT_64K_STANDARD_SWIZZLE = 2""")
    api.enum("D3D11_CONSERVATIVE_RASTERIZATION_MODE", header=h, values="""
        D3D11_CONSERVATIVE_RASTERIZATION_MODE_OFF = 0,
        D3D11_CONSERVATIVE_RASTERIZATION_MODE_ON = 1""")
    # The SDK has D3D11_FENCE_FLAG_NONE = 0; mingw-w64's header says 0x1, so
    # the ABI check skips that one value against mingw-w64.
    api.enum("D3D11_FENCE_FLAG", header=h, flags=True, values="""
        D3D11_FENCE_FLAG_NONE = 0x0, D3D11_FENCE_FLAG_SHARED = 0x2,
        D3D11_FENCE_FLAG_SHARED_CROSS_ADAPTER = 0x4, D3D11_FENCE_FLAG_NON_MONITORED = 0x8""")

    # Resources: the D3D11.0 descs plus a texture layout.
    api.struct("D3D11_TEXTURE2D_DESC1", header=h, fields="""
        UINT Width; UINT Height; UINT MipLevels; UINT ArraySize; DXGI_FORMAT Format;
        DXGI_SAMPLE_DESC SampleDesc; D3D11_USAGE Usage; [enum=D3D11_BIND_FLAG] UINT BindFlags;
        [enum=D3D11_CPU_ACCESS_FLAG] UINT CPUAccessFlags;
        [enum=D3D11_RESOURCE_MISC_FLAG] UINT MiscFlags; D3D11_TEXTURE_LAYOUT TextureLayout;""")
    api.struct("D3D11_TEXTURE3D_DESC1", header=h, fields="""
        UINT Width; UINT Height; UINT Depth; UINT MipLevels; DXGI_FORMAT Format;
        D3D11_USAGE Usage; [enum=D3D11_BIND_FLAG] UINT BindFlags;
        [enum=D3D11_CPU_ACCESS_FLAG] UINT CPUAccessFlags;
        [enum=D3D11_RESOURCE_MISC_FLAG] UINT MiscFlags; D3D11_TEXTURE_LAYOUT TextureLayout;""")

    # Rasterizer state: D3D11_RASTERIZER_DESC1 plus conservative rasterization.
    api.struct("D3D11_RASTERIZER_DESC2", header=h, fields="""
        D3D11_FILL_MODE FillMode; D3D11_CULL_MODE CullMode; BOOL FrontCounterClockwise;
        INT DepthBias; FLOAT DepthBiasClamp; FLOAT SlopeScaledDepthBias;
        BOOL DepthClipEnable; BOOL ScissorEnable; BOOL MultisampleEnable;
        BOOL AntialiasedLineEnable; UINT ForcedSampleCount;
        D3D11_CONSERVATIVE_RASTERIZATION_MODE ConservativeRaster;""")

    # Views: the 2D (array) members gain a PlaneSlice, the rest are unchanged.
    api.struct("D3D11_TEX2D_SRV1", header=h, fields="""
        UINT MostDetailedMip; UINT MipLevels; UINT PlaneSlice;""")
    api.struct("D3D11_TEX2D_ARRAY_SRV1", header=h, fields="""
        UINT MostDetailedMip; UINT MipLevels; UINT FirstArraySlice; UINT ArraySize;
        UINT PlaneSlice;""")
    api.struct("D3D11_SHADER_RESOURCE_VIEW_DESC1", header=h, fields="""
        DXGI_FORMAT Format; D3D11_SRV_DIMENSION ViewDimension;
        union {
            D3D11_BUFFER_SRV Buffer; D3D11_TEX1D_SRV Texture1D;
            D3D11_TEX1D_ARRAY_SRV Texture1DArray; D3D11_TEX2D_SRV1 Texture2D;
            D3D11_TEX2D_ARRAY_SRV1 Texture2DArray; D3D11_TEX2DMS_SRV Texture2DMS;
            D3D11_TEX2DMS_ARRAY_SRV Texture2DMSArray; D3D11_TEX3D_SRV Texture3D;
            D3D11_TEXCUBE_SRV TextureCube; D3D11_TEXCUBE_ARRAY_SRV TextureCubeArray;
            D3D11_BUFFEREX_SRV BufferEx;
        };""")
    api.struct("D3D11_TEX2D_RTV1", header=h, fields="UINT MipSlice; UINT PlaneSlice;")
    api.struct("D3D11_TEX2D_ARRAY_RTV1", header=h, fields="""
        UINT MipSlice; UINT FirstArraySlice; UINT ArraySize; UINT PlaneSlice;""")
    api.struct("D3D11_RENDER_TARGET_VIEW_DESC1", header=h, fields="""
        DXGI_FORMAT Format; D3D11_RTV_DIMENSION ViewDimension;
        union {
            D3D11_BUFFER_RTV Buffer; D3D11_TEX1D_RTV Texture1D;
            D3D11_TEX1D_ARRAY_RTV Texture1DArray; D3D11_TEX2D_RTV1 Texture2D;
            D3D11_TEX2D_ARRAY_RTV1 Texture2DArray; D3D11_TEX2DMS_RTV Texture2DMS;
            D3D11_TEX2DMS_ARRAY_RTV Texture2DMSArray; D3D11_TEX3D_RTV Texture3D;
        };""")
    api.struct("D3D11_TEX2D_UAV1", header=h, fields="UINT MipSlice; UINT PlaneSlice;")
    api.struct("D3D11_TEX2D_ARRAY_UAV1", header=h, fields="""
        UINT MipSlice; UINT FirstArraySlice; UINT ArraySize; UINT PlaneSlice;""")
    api.struct("D3D11_UNORDERED_ACCESS_VIEW_DESC1", header=h, fields="""
        DXGI_FORMAT Format; D3D11_UAV_DIMENSION ViewDimension;
        union {
            D3D11_BUFFER_UAV Buffer; D3D11_TEX1D_UAV Texture1D;
            D3D11_TEX1D_ARRAY_UAV Texture1DArray; D3D11_TEX2D_UAV1 Texture2D;
            D3D11_TEX2D_ARRAY_UAV1 Texture2DArray; D3D11_TEX3D_UAV Texture3D;
        };""")

    # Queries: D3D11_QUERY_DESC plus the queue the query runs on.
    api.struct("D3D11_QUERY_DESC1", header=h, fields="""
        D3D11_QUERY Query; [enum=D3D11_QUERY_MISC_FLAG] UINT MiscFlags;
        D3D11_CONTEXT_TYPE ContextType;""")


# ---------------------------------------------------------------------------
# d3d11_3.h: interfaces, in header order.

def _d3d11_3_interfaces(api) -> None:
    h = "d3d11_3"
    api.interface("ID3D11Texture2D1", base="ID3D11Texture2D", header=h,
                  uuid="51218251-1e33-4617-9ccb-4d3a4367e7bb", methods=[
        "void GetDesc1([out] D3D11_TEXTURE2D_DESC1 *pDesc)",
    ])
    api.interface("ID3D11Texture3D1", base="ID3D11Texture3D", header=h,
                  uuid="0c711683-2853-4846-9bb0-f3e60639e46a", methods=[
        "void GetDesc1([out] D3D11_TEXTURE3D_DESC1 *pDesc)",
    ])
    api.interface("ID3D11RasterizerState2", base="ID3D11RasterizerState1", header=h,
                  uuid="6fbd02fb-209f-46c4-b059-2ed15586a6ac", methods=[
        "void GetDesc2([out] D3D11_RASTERIZER_DESC2 *pDesc)",
    ])
    api.interface("ID3D11ShaderResourceView1", base="ID3D11ShaderResourceView", header=h,
                  uuid="91308b87-9040-411d-8c67-c39253ce3802", methods=[
        "void GetDesc1([out] D3D11_SHADER_RESOURCE_VIEW_DESC1 *pDesc1)",
    ])
    api.interface("ID3D11RenderTargetView1", base="ID3D11RenderTargetView", header=h,
                  uuid="ffbe2e23-f011-418a-ac56-5ceed7c5b94b", methods=[
        "void GetDesc1([out] D3D11_RENDER_TARGET_VIEW_DESC1 *pDesc1)",
    ])
    api.interface("ID3D11UnorderedAccessView1", base="ID3D11UnorderedAccessView", header=h,
                  uuid="7b3b6153-a886-4544-ab37-6537c8500403", methods=[
        "void GetDesc1([out] D3D11_UNORDERED_ACCESS_VIEW_DESC1 *pDesc1)",
    ])
    api.interface("ID3D11Query1", base="ID3D11Query", header=h,
                  uuid="631b4766-36dc-461d-8db6-c47e13e60916", methods=[
        "void GetDesc1([out] D3D11_QUERY_DESC1 *pDesc1)",
    ])
    api.interface("ID3D11DeviceContext3", base="ID3D11DeviceContext2", header=h,
                  uuid="b4e3c01d-e79e-4637-91b2-510e9f4c9b8f", methods=[
        "void Flush1(D3D11_CONTEXT_TYPE ContextType, [opt] HANDLE hEvent)",
        "void SetHardwareProtectionState(BOOL HwProtectionEnable)",
        "void GetHardwareProtectionState([out] BOOL *pHwProtectionEnable)",
    ])
    api.interface("ID3D11Fence", base="ID3D11DeviceChild", header=h,
                  uuid="affde9d1-1df7-4bb7-8a34-0f46251dab80", methods=[
        "HRESULT CreateSharedHandle([opt] const SECURITY_ATTRIBUTES *pAttributes, "
        "DWORD dwAccess, [opt, string] LPCWSTR lpName, [out] HANDLE *pHandle)",
        "UINT64 GetCompletedValue()",
        "HRESULT SetEventOnCompletion(UINT64 Value, HANDLE hEvent)",
    ])
    api.interface("ID3D11DeviceContext4", base="ID3D11DeviceContext3", header=h,
                  uuid="917600da-f58c-4c33-98d8-3e15b390fa24", methods=[
        "HRESULT Signal(ID3D11Fence *pFence, UINT64 Value)",
        "HRESULT Wait(ID3D11Fence *pFence, UINT64 Value)",
    ])
    api.interface("ID3D11Device3", base="ID3D11Device2", header=h,
                  uuid="a05c8c37-d2c6-4732-b3a0-9ce0b0dc9ae6", methods=[
        "HRESULT CreateTexture2D1(const D3D11_TEXTURE2D_DESC1 *pDesc1, "
        "[opt] const D3D11_SUBRESOURCE_DATA *pInitialData, "
        "[out, opt] ID3D11Texture2D1 **ppTexture2D)",
        "HRESULT CreateTexture3D1(const D3D11_TEXTURE3D_DESC1 *pDesc1, "
        "[opt] const D3D11_SUBRESOURCE_DATA *pInitialData, "
        "[out, opt] ID3D11Texture3D1 **ppTexture3D)",
        "HRESULT CreateRasterizerState2(const D3D11_RASTERIZER_DESC2 *pRasterizerDesc, "
        "[out, opt] ID3D11RasterizerState2 **ppRasterizerState)",
        "HRESULT CreateShaderResourceView1(ID3D11Resource *pResource, "
        "[opt] const D3D11_SHADER_RESOURCE_VIEW_DESC1 *pDesc1, "
        "[out, opt] ID3D11ShaderResourceView1 **ppSRView1)",
        "HRESULT CreateUnorderedAccessView1(ID3D11Resource *pResource, "
        "[opt] const D3D11_UNORDERED_ACCESS_VIEW_DESC1 *pDesc1, "
        "[out, opt] ID3D11UnorderedAccessView1 **ppUAView1)",
        "HRESULT CreateRenderTargetView1(ID3D11Resource *pResource, "
        "[opt] const D3D11_RENDER_TARGET_VIEW_DESC1 *pDesc1, "
        "[out, opt] ID3D11RenderTargetView1 **ppRTView1)",
        "HRESULT CreateQuery1(const D3D11_QUERY_DESC1 *pQueryDesc1, "
        "[out, opt] ID3D11Query1 **ppQuery1)",
        "void GetImmediateContext3([out] ID3D11DeviceContext3 **ppImmediateContext)",
        "HRESULT CreateDeferredContext3(UINT ContextFlags, "
        "[out, opt] ID3D11DeviceContext3 **ppDeferredContext)",
        # Both copy between memory and a default-usage texture mapped with a
        # NULL D3D11_MAPPED_SUBRESOURCE.
        "void WriteToSubresource(ID3D11Resource *pDstResource, UINT DstSubresource, "
        "[opt] const D3D11_BOX *pDstBox, const void *pSrcData, UINT SrcRowPitch, "
        "UINT SrcDepthPitch)",
        "void ReadFromSubresource([out] void *pDstData, UINT DstRowPitch, UINT DstDepthPitch, "
        "ID3D11Resource *pSrcResource, UINT SrcSubresource, [opt] const D3D11_BOX *pSrcBox)",
    ])


# ---------------------------------------------------------------------------
# d3d11_4.h, less ID3D11VideoContext2/3 and ID3D11VideoDevice2 (d3d11_video.py).

def _d3d11_4(api) -> None:
    h = "d3d11_4"
    # For D3D11_FEATURE_D3D11_OPTIONS4; the SDK puts it here, not in d3d11.h.
    api.struct("D3D11_FEATURE_DATA_D3D11_OPTIONS4", header=h, fields="""
        BOOL ExtendedNV12SharedTextureSupported;""")
    api.interface("ID3D11Device4", base="ID3D11Device3", header=h,
                  uuid="8992ab71-02e6-4b8d-ba48-b056dcda42c4", methods=[
        "HRESULT RegisterDeviceRemovedEvent(HANDLE hEvent, [out] DWORD *pdwCookie)",
        "void UnregisterDeviceRemoved(DWORD dwCookie)",
    ])
    api.interface("ID3D11Device5", base="ID3D11Device4", header=h,
                  uuid="8ffde202-a0e7-45df-9e01-e837801b5ea0", methods=[
        "HRESULT OpenSharedFence(HANDLE hFence, REFIID ReturnedInterface, "
        "[out, iid=ReturnedInterface] void **ppFence)",
        "HRESULT CreateFence(UINT64 InitialValue, D3D11_FENCE_FLAG Flags, "
        "REFIID ReturnedInterface, [out, iid=ReturnedInterface] void **ppFence)",
    ])
    # Obtained by QueryInterface on a device or a device context.
    api.interface("ID3D11Multithread", base="IUnknown", header=h,
                  uuid="9b7e4e00-342c-4106-a19f-4f2704f689f0", methods=[
        "void Enter()",
        "void Leave()",
        "BOOL SetMultithreadProtected(BOOL bMTProtect)",
        "BOOL GetMultithreadProtected()",
    ])
