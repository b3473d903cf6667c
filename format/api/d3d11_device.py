"""ID3D11Device(1/2), the device-child interfaces it creates, and the entry points.

Call ids 300-499.  Out-parameters of Create* methods are [opt] because the API
allows NULL there to only validate the other arguments.  LPSTR out-buffers are
spelled "char *" so that they can carry [out, count=...] (the parser counts
pointers in the spelling; the ABI is the same).
"""


def _children(api) -> None:
    """The d3d11.h child interfaces, in vtable and header order."""
    child = "ID3D11DeviceChild"
    api.interface("ID3D11DepthStencilState", base=child, header="d3d11",
                  uuid="03823efb-8d8f-4e1c-9aa2-f64bb2cbfdf1", methods=[
        (300, "void GetDesc([out] D3D11_DEPTH_STENCIL_DESC *pDesc)"),
    ])
    api.interface("ID3D11BlendState", base=child, header="d3d11",
                  uuid="75b68faa-347d-4159-8f45-a0640f01cd9a", methods=[
        (301, "void GetDesc([out] D3D11_BLEND_DESC *pDesc)"),
    ])
    api.interface("ID3D11RasterizerState", base=child, header="d3d11",
                  uuid="9bb4ab81-ab1a-4d8f-b506-fc04200b6ee7", methods=[
        (302, "void GetDesc([out] D3D11_RASTERIZER_DESC *pDesc)"),
    ])
    api.interface("ID3D11Resource", base=child, header="d3d11",
                  uuid="dc8e63f3-d12b-4952-b47b-5e45026a862d", methods=[
        (303, "void GetType([out] D3D11_RESOURCE_DIMENSION *pResourceDimension)"),
        (304, "void SetEvictionPriority(UINT EvictionPriority)"),
        (305, "UINT GetEvictionPriority()"),
    ])
    api.interface("ID3D11Buffer", base="ID3D11Resource", header="d3d11",
                  uuid="48570b85-d1ee-4fcd-a250-eb350722b037", methods=[
        (306, "void GetDesc([out] D3D11_BUFFER_DESC *pDesc)"),
    ])
    api.interface("ID3D11Texture1D", base="ID3D11Resource", header="d3d11",
                  uuid="f8fb5c27-c6b3-4f75-a4c8-439af2ef564c", methods=[
        (307, "void GetDesc([out] D3D11_TEXTURE1D_DESC *pDesc)"),
    ])
    api.interface("ID3D11Texture2D", base="ID3D11Resource", header="d3d11",
                  uuid="6f15aaf2-d208-4e89-9ab4-489535d34f9c", methods=[
        (308, "void GetDesc([out] D3D11_TEXTURE2D_DESC *pDesc)"),
    ])
    api.interface("ID3D11Texture3D", base="ID3D11Resource", header="d3d11",
                  uuid="037e866e-f56d-4357-a8af-9dabbe6e250e", methods=[
        (309, "void GetDesc([out] D3D11_TEXTURE3D_DESC *pDesc)"),
    ])
    # GetResource hands back an existing (AddRef'd) object: its wrapper must
    # be looked up, not created, as for ID3D11DeviceChild::GetDevice.
    api.interface("ID3D11View", base=child, header="d3d11",
                  uuid="839d1216-bb2e-412b-b7f4-a9dbebe08ed1", methods=[
        (310, "void GetResource([out] ID3D11Resource **ppResource)"),
    ])
    api.interface("ID3D11ShaderResourceView", base="ID3D11View", header="d3d11",
                  uuid="b0e06fe0-8192-4e1a-b1ca-36d7414710b2", methods=[
        (311, "void GetDesc([out] D3D11_SHADER_RESOURCE_VIEW_DESC *pDesc)"),
    ])
    api.interface("ID3D11RenderTargetView", base="ID3D11View", header="d3d11",
                  uuid="dfdba067-0b8d-4865-875b-d7b4516cc164", methods=[
        (312, "void GetDesc([out] D3D11_RENDER_TARGET_VIEW_DESC *pDesc)"),
    ])
    api.interface("ID3D11DepthStencilView", base="ID3D11View", header="d3d11",
                  uuid="9fdac92a-1876-48c3-afad-25b94f84a9b6", methods=[
        (313, "void GetDesc([out] D3D11_DEPTH_STENCIL_VIEW_DESC *pDesc)"),
    ])
    api.interface("ID3D11UnorderedAccessView", base="ID3D11View", header="d3d11",
                  uuid="28acf509-7f5c-48f6-8611-f316010a6380", methods=[
        (314, "void GetDesc([out] D3D11_UNORDERED_ACCESS_VIEW_DESC *pDesc)"),
    ])
    # Shaders and input layouts have no methods of their own.
    for name, uuid in (
            ("ID3D11VertexShader", "3b301d64-d678-4289-8897-22f8928b72f3"),
            ("ID3D11HullShader", "8e5c6061-628a-4c8e-8264-bbe45cb3d5dd"),
            ("ID3D11DomainShader", "f582c508-0f36-490c-9977-31eece268cfa"),
            ("ID3D11GeometryShader", "38325b96-effb-4022-ba02-2e795b70275c"),
            ("ID3D11PixelShader", "ea82e40d-51dc-4f33-93d4-db7c9125ae8c"),
            ("ID3D11ComputeShader", "4f5b196e-c2bd-495e-bd01-1fded38e4969"),
            ("ID3D11InputLayout", "e4819ddc-4cf0-4025-bd26-5de82a3e07b7")):
        api.interface(name, base=child, header="d3d11", uuid=uuid, methods=[])
    api.interface("ID3D11SamplerState", base=child, header="d3d11",
                  uuid="da6fea51-564c-4487-9810-f0d0f9b4e3a5", methods=[
        (315, "void GetDesc([out] D3D11_SAMPLER_DESC *pDesc)"),
    ])
    api.interface("ID3D11Asynchronous", base=child, header="d3d11",
                  uuid="4b35d0cd-1e15-4258-9c98-1b1333f6dd3b", methods=[
        (316, "UINT GetDataSize()"),
    ])
    api.interface("ID3D11Query", base="ID3D11Asynchronous", header="d3d11",
                  uuid="d6c00747-87b7-425e-b84d-44d108560afd", methods=[
        (317, "void GetDesc([out] D3D11_QUERY_DESC *pDesc)"),
    ])
    api.interface("ID3D11Predicate", base="ID3D11Query", header="d3d11",
                  uuid="9eb576dd-9f77-4d86-81aa-8bab5fe490e2", methods=[])
    api.interface("ID3D11Counter", base="ID3D11Asynchronous", header="d3d11",
                  uuid="6e8c49fb-a371-4770-b440-29086022b741", methods=[
        (318, "void GetDesc([out] D3D11_COUNTER_DESC *pDesc)"),
    ])
    # The name getters fill a caller buffer of *pBufferLength chars (NUL
    # included); a NULL buffer asks for the length.
    api.interface("ID3D11ClassInstance", base=child, header="d3d11",
                  uuid="a6cd7faa-b0b7-4a2f-9436-8662a65797cb", methods=[
        (319, "void GetClassLinkage([out] ID3D11ClassLinkage **ppLinkage)"),
        (320, "void GetDesc([out] D3D11_CLASS_INSTANCE_DESC *pDesc)"),
        (321, "void GetInstanceName([out, opt, count=*pBufferLength] char *pInstanceName, "
              "[inout] SIZE_T *pBufferLength)"),
        (322, "void GetTypeName([out, opt, count=*pBufferLength] char *pTypeName, "
              "[inout] SIZE_T *pBufferLength)"),
    ])
    api.interface("ID3D11ClassLinkage", base=child, header="d3d11",
                  uuid="ddf57cba-9543-46e4-a12b-f207a0fe7fed", methods=[
        (323, "HRESULT GetClassInstance([string] LPCSTR pClassInstanceName, "
              "UINT InstanceIndex, [out] ID3D11ClassInstance **ppInstance)"),
        (324, "HRESULT CreateClassInstance([string] LPCSTR pClassTypeName, "
              "UINT ConstantBufferOffset, UINT ConstantVectorOffset, UINT TextureOffset, "
              "UINT SamplerOffset, [out] ID3D11ClassInstance **ppInstance)"),
    ])
    api.interface("ID3D11CommandList", base=child, header="d3d11",
                  uuid="a24bc4d1-769e-43f7-8013-98ff566c18e2", methods=[
        (325, "UINT GetContextFlags()"),
    ])


def _shader(call_id: int, stage: str) -> tuple[int, str]:
    """Create{stage}Shader: all six share one shape."""
    return (call_id, f"HRESULT Create{stage}Shader("
            "[bytes=BytecodeLength] const void *pShaderBytecode, SIZE_T BytecodeLength, "
            "[opt] ID3D11ClassLinkage *pClassLinkage, "
            f"[out, opt] ID3D11{stage}Shader **pp{stage}Shader)")


def _device(api) -> None:
    api.interface("ID3D11Device", base="IUnknown", header="d3d11",
                  uuid="db6f6ddb-ac77-4e88-8253-819df9bbf140", methods=[
        (330, "HRESULT CreateBuffer([in] const D3D11_BUFFER_DESC *pDesc, "
              "[opt, count=1] const D3D11_SUBRESOURCE_DATA *pInitialData, "
              "[out, opt] ID3D11Buffer **ppBuffer)"),
        # One D3D11_SUBRESOURCE_DATA per subresource (mips x array slices),
        # each addressing memory sized from the desc: a hand-written rule.
        (331, "[hand_written=capture] HRESULT CreateTexture1D(const D3D11_TEXTURE1D_DESC *pDesc, "
              "[opt, size=texture_initial_data] const D3D11_SUBRESOURCE_DATA *pInitialData, "
              "[out, opt] ID3D11Texture1D **ppTexture1D)"),
        (332, "[hand_written=capture] HRESULT CreateTexture2D(const D3D11_TEXTURE2D_DESC *pDesc, "
              "[opt, size=texture_initial_data] const D3D11_SUBRESOURCE_DATA *pInitialData, "
              "[out, opt] ID3D11Texture2D **ppTexture2D)"),
        (333, "[hand_written=capture] HRESULT CreateTexture3D(const D3D11_TEXTURE3D_DESC *pDesc, "
              "[opt, size=texture_initial_data] const D3D11_SUBRESOURCE_DATA *pInitialData, "
              "[out, opt] ID3D11Texture3D **ppTexture3D)"),
        (334, "HRESULT CreateShaderResourceView(ID3D11Resource *pResource, "
              "[opt] const D3D11_SHADER_RESOURCE_VIEW_DESC *pDesc, "
              "[out, opt] ID3D11ShaderResourceView **ppSRView)"),
        (335, "HRESULT CreateUnorderedAccessView(ID3D11Resource *pResource, "
              "[opt] const D3D11_UNORDERED_ACCESS_VIEW_DESC *pDesc, "
              "[out, opt] ID3D11UnorderedAccessView **ppUAView)"),
        (336, "HRESULT CreateRenderTargetView(ID3D11Resource *pResource, "
              "[opt] const D3D11_RENDER_TARGET_VIEW_DESC *pDesc, "
              "[out, opt] ID3D11RenderTargetView **ppRTView)"),
        (337, "HRESULT CreateDepthStencilView(ID3D11Resource *pResource, "
              "[opt] const D3D11_DEPTH_STENCIL_VIEW_DESC *pDesc, "
              "[out, opt] ID3D11DepthStencilView **ppDepthStencilView)"),
        (338, "HRESULT CreateInputLayout("
              "[count=NumElements] const D3D11_INPUT_ELEMENT_DESC *pInputElementDescs, "
              "UINT NumElements, "
              "[bytes=BytecodeLength] const void *pShaderBytecodeWithInputSignature, "
              "SIZE_T BytecodeLength, [out, opt] ID3D11InputLayout **ppInputLayout)"),
        _shader(339, "Vertex"),
        _shader(340, "Geometry"),
        (341, "HRESULT CreateGeometryShaderWithStreamOutput("
              "[bytes=BytecodeLength] const void *pShaderBytecode, SIZE_T BytecodeLength, "
              "[opt, count=NumEntries] const D3D11_SO_DECLARATION_ENTRY *pSODeclaration, "
              "UINT NumEntries, [opt, count=NumStrides] const UINT *pBufferStrides, "
              "UINT NumStrides, UINT RasterizedStream, "
              "[opt] ID3D11ClassLinkage *pClassLinkage, "
              "[out, opt] ID3D11GeometryShader **ppGeometryShader)"),
        _shader(342, "Pixel"),
        _shader(343, "Hull"),
        _shader(344, "Domain"),
        _shader(345, "Compute"),
        (346, "HRESULT CreateClassLinkage([out] ID3D11ClassLinkage **ppLinkage)"),
        (347, "HRESULT CreateBlendState(const D3D11_BLEND_DESC *pBlendStateDesc, "
              "[out, opt] ID3D11BlendState **ppBlendState)"),
        (348, "HRESULT CreateDepthStencilState("
              "const D3D11_DEPTH_STENCIL_DESC *pDepthStencilDesc, "
              "[out, opt] ID3D11DepthStencilState **ppDepthStencilState)"),
        (349, "HRESULT CreateRasterizerState(const D3D11_RASTERIZER_DESC *pRasterizerDesc, "
              "[out, opt] ID3D11RasterizerState **ppRasterizerState)"),
        (350, "HRESULT CreateSamplerState(const D3D11_SAMPLER_DESC *pSamplerDesc, "
              "[out, opt] ID3D11SamplerState **ppSamplerState)"),
        (351, "HRESULT CreateQuery(const D3D11_QUERY_DESC *pQueryDesc, "
              "[out, opt] ID3D11Query **ppQuery)"),
        (352, "HRESULT CreatePredicate(const D3D11_QUERY_DESC *pPredicateDesc, "
              "[out, opt] ID3D11Predicate **ppPredicate)"),
        (353, "HRESULT CreateCounter(const D3D11_COUNTER_DESC *pCounterDesc, "
              "[out, opt] ID3D11Counter **ppCounter)"),
        (354, "HRESULT CreateDeferredContext(UINT ContextFlags, "
              "[out, opt] ID3D11DeviceContext **ppDeferredContext)"),
        # Shared handles are process-local: replay needs its own stand-in.
        (355, "HRESULT OpenSharedResource(HANDLE hResource, "
              "REFIID ReturnedInterface, [out, opt, iid=ReturnedInterface] void **ppResource)"),
        (356, "HRESULT CheckFormatSupport(DXGI_FORMAT Format, "
              "[out, enum=D3D11_FORMAT_SUPPORT] UINT *pFormatSupport)"),
        (357, "HRESULT CheckMultisampleQualityLevels(DXGI_FORMAT Format, UINT SampleCount, "
              "[out] UINT *pNumQualityLevels)"),
        (358, "void CheckCounterInfo([out] D3D11_COUNTER_INFO *pCounterInfo)"),
        # Each string buffer holds *pXxxLength chars; NULL asks for the length.
        (359, "HRESULT CheckCounter(const D3D11_COUNTER_DESC *pDesc, "
              "[out] D3D11_COUNTER_TYPE *pType, [out] UINT *pActiveCounters, "
              "[out, opt, count=*pNameLength] char *szName, [inout, opt] UINT *pNameLength, "
              "[out, opt, count=*pUnitsLength] char *szUnits, [inout, opt] UINT *pUnitsLength, "
              "[out, opt, count=*pDescriptionLength] char *szDescription, "
              "[inout, opt] UINT *pDescriptionLength)"),
        # The data struct depends on Feature (and some carry inputs, e.g.
        # D3D11_FEATURE_DATA_FORMAT_SUPPORT::InFormat), hence inout.
        (360, "HRESULT CheckFeatureSupport(D3D11_FEATURE Feature, "
              "[inout, bytes=FeatureSupportDataSize] void *pFeatureSupportData, "
              "UINT FeatureSupportDataSize)"),
        (361, "HRESULT GetPrivateData(REFGUID guid, [inout] UINT *pDataSize, "
              "[out, opt, bytes=*pDataSize] void *pData)"),
        (362, "HRESULT SetPrivateData(REFGUID guid, UINT DataSize, "
              "[opt, bytes=DataSize] const void *pData)"),
        (363, "HRESULT SetPrivateDataInterface(REFGUID guid, [opt] const IUnknown *pData)"),
        (364, "D3D_FEATURE_LEVEL GetFeatureLevel()"),
        (365, "UINT GetCreationFlags()"),
        (366, "HRESULT GetDeviceRemovedReason()"),
        (367, ""
              "void GetImmediateContext([out] ID3D11DeviceContext **ppImmediateContext)"),
        (368, "HRESULT SetExceptionMode([enum=D3D11_RAISE_FLAG] UINT RaiseFlags)"),
        (369, "UINT GetExceptionMode()"),
    ])


def _device1(api) -> None:
    api.interface("ID3D11BlendState1", base="ID3D11BlendState", header="d3d11_1",
                  uuid="cc86fabe-da55-401d-85e7-e3c9de2877e9", methods=[
        (380, "void GetDesc1([out] D3D11_BLEND_DESC1 *pDesc)"),
    ])
    api.interface("ID3D11RasterizerState1", base="ID3D11RasterizerState", header="d3d11_1",
                  uuid="1217d7a6-5039-418c-b042-9cbe256afd6e", methods=[
        (381, "void GetDesc1([out] D3D11_RASTERIZER_DESC1 *pDesc)"),
    ])
    api.interface("ID3DDeviceContextState", base="ID3D11DeviceChild", header="d3d11_1",
                  uuid="5c1e0d8a-7c23-48f9-8c59-a92958ceff11", methods=[])
    api.interface("ID3D11Device1", base="ID3D11Device", header="d3d11_1",
                  uuid="a04bfb29-08ef-43d6-a49c-a9bdbdcbe686", methods=[
        (382, "void GetImmediateContext1("
              "[out] ID3D11DeviceContext1 **ppImmediateContext)"),
        (383, "HRESULT CreateDeferredContext1(UINT ContextFlags, "
              "[out, opt] ID3D11DeviceContext1 **ppDeferredContext)"),
        (384, "HRESULT CreateBlendState1(const D3D11_BLEND_DESC1 *pBlendStateDesc, "
              "[out, opt] ID3D11BlendState1 **ppBlendState)"),
        (385, "HRESULT CreateRasterizerState1(const D3D11_RASTERIZER_DESC1 *pRasterizerDesc, "
              "[out, opt] ID3D11RasterizerState1 **ppRasterizerState)"),
        (386, "HRESULT CreateDeviceContextState("
              "[enum=D3D11_1_CREATE_DEVICE_CONTEXT_STATE_FLAG] UINT Flags, "
              "[count=FeatureLevels] const D3D_FEATURE_LEVEL *pFeatureLevels, "
              "UINT FeatureLevels, UINT SDKVersion, REFIID EmulatedInterface, "
              "[out, opt] D3D_FEATURE_LEVEL *pChosenFeatureLevel, "
              "[out, opt] ID3DDeviceContextState **ppContextState)"),
        (387, "HRESULT OpenSharedResource1(HANDLE hResource, "
              "REFIID returnedInterface, [out, iid=returnedInterface] void **ppResource)"),
        (388, "HRESULT OpenSharedResourceByName([string] LPCWSTR lpName, "
              "DWORD dwDesiredAccess, REFIID returnedInterface, "
              "[out, iid=returnedInterface] void **ppResource)"),
    ])
    # Obtained by QueryInterface on a device context; markers go to tools.
    api.interface("ID3DUserDefinedAnnotation", base="IUnknown", header="d3d11_1",
                  uuid="b2daad8b-03d4-4dbf-95eb-32ab4b63d0ab", methods=[
        (389, "INT BeginEvent([string] LPCWSTR Name)"),
        (390, "INT EndEvent()"),
        (391, "void SetMarker([string] LPCWSTR Name)"),
        (392, "[hand_written=capture] BOOL GetStatus()"),
    ])


def _device2(api) -> None:
    api.interface("ID3D11Device2", base="ID3D11Device1", header="d3d11_2",
                  uuid="9d06dffa-d1e5-4d07-83a8-1bb123f2f841", methods=[
        (400, "void GetImmediateContext2("
              "[out] ID3D11DeviceContext2 **ppImmediateContext)"),
        (401, "HRESULT CreateDeferredContext2(UINT ContextFlags, "
              "[out, opt] ID3D11DeviceContext2 **ppDeferredContext)"),
        # *pNumSubresourceTilings: in, how many entries fit; out, how many
        # were written (starting at FirstSubresourceTilingToGet).
        (402, "void GetResourceTiling(ID3D11Resource *pTiledResource, "
              "[out, opt] UINT *pNumTilesForEntireResource, "
              "[out, opt] D3D11_PACKED_MIP_DESC *pPackedMipDesc, "
              "[out, opt] D3D11_TILE_SHAPE *pStandardTileShapeForNonPackedMips, "
              "[inout, opt] UINT *pNumSubresourceTilings, UINT FirstSubresourceTilingToGet, "
              "[out, opt, count=*pNumSubresourceTilings] "
              "D3D11_SUBRESOURCE_TILING *pSubresourceTilingsForNonPackedMips)"),
        (403, "HRESULT CheckMultisampleQualityLevels1(DXGI_FORMAT Format, UINT SampleCount, "
              "[enum=D3D11_CHECK_MULTISAMPLE_QUALITY_LEVELS_FLAG] UINT Flags, "
              "[out] UINT *pNumQualityLevels)"),
    ])


def _entry_points(api) -> None:
    api.function(420, "[hand_written=capture+replay(creates the device on the driver type "
                 "replay chose)] "
                 "HRESULT WINAPI D3D11CreateDevice([opt] IDXGIAdapter *pAdapter, "
                 "D3D_DRIVER_TYPE DriverType, HMODULE Software, "
                 "[enum=D3D11_CREATE_DEVICE_FLAG] UINT Flags, "
                 "[opt, count=FeatureLevels] const D3D_FEATURE_LEVEL *pFeatureLevels, "
                 "UINT FeatureLevels, UINT SDKVersion, [out, opt] ID3D11Device **ppDevice, "
                 "[out, opt] D3D_FEATURE_LEVEL *pFeatureLevel, "
                 "[out, opt] ID3D11DeviceContext **ppImmediateContext)", header="d3d11")
    api.function(421, "[hand_written=capture+replay(creates the device on the driver type "
                 "replay chose)] "
                 "HRESULT WINAPI D3D11CreateDeviceAndSwapChain("
                 "[opt] IDXGIAdapter *pAdapter, D3D_DRIVER_TYPE DriverType, "
                 "HMODULE Software, [enum=D3D11_CREATE_DEVICE_FLAG] UINT Flags, "
                 "[opt, count=FeatureLevels] const D3D_FEATURE_LEVEL *pFeatureLevels, "
                 "UINT FeatureLevels, UINT SDKVersion, "
                 "[opt] const DXGI_SWAP_CHAIN_DESC *pSwapChainDesc, "
                 "[out, opt] IDXGISwapChain **ppSwapChain, "
                 "[out, opt] ID3D11Device **ppDevice, "
                 "[out, opt] D3D_FEATURE_LEVEL *pFeatureLevel, "
                 "[out, opt] ID3D11DeviceContext **ppImmediateContext)", header="d3d11")


def declare(api) -> None:
    _children(api)
    _device(api)
    _device1(api)
    _device2(api)
    _entry_points(api)
