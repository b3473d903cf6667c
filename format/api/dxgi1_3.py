"""DXGI 1.3-1.6: dxgi1_3.h, dxgi1_4.h, dxgi1_5.h and dxgi1_6.h.  Call ids 643-647.

Only the factories are recorded (IDXGIFactory3 to IDXGIFactory6: the runtime
implements them, capture records them, replay replays them).  Every other
interface here is declared only: it is in the headers with its real vtable,
but QueryInterface for it answers E_NOINTERFACE.  Their parameters still carry
[out]/[opt]/count= annotations where the SDK documents them, for whoever
records them later.

Left out: the free functions DXGIGetDebugInterface1 (dxgi1_3.h) and
DXGIDeclareAdapterRemovalSupport (dxgi1_6.h), which are not entry points
d3dcap records.  CreateDXGIFactory2, also an SDK dxgi1_3.h function, is
declared in dxgi.py.
"""


def declare(api) -> None:
    _dxgi1_3_types(api)
    _dxgi1_3_interfaces(api)
    _dxgi1_4_types(api)
    _dxgi1_4_interfaces(api)
    _dxgi1_5_types(api)
    _dxgi1_5_interfaces(api)
    _dxgi1_6_types(api)
    _dxgi1_6_interfaces(api)


# ---------------------------------------------------------------------------
# dxgi1_3.h: constants, enums and structs

def _dxgi1_3_types(api) -> None:
    # CreateDXGIFactory2's Flags.
    api.constants_block(header="dxgi1_3", text="""
        DXGI_CREATE_FACTORY_DEBUG 0x1
    """)
    api.struct("DXGI_MATRIX_3X2_F", header="dxgi1_3", fields="""
        FLOAT _11;
        FLOAT _12;
        FLOAT _21;
        FLOAT _22;
        FLOAT _31;
        FLOAT _32;
    """)
    # Flags: 0 or DXGI_SWAP_CHAIN_FLAG_FULLSCREEN_VIDEO / _YUV_VIDEO.
    api.struct("DXGI_DECODE_SWAP_CHAIN_DESC", header="dxgi1_3", fields="""
        [enum=DXGI_SWAP_CHAIN_FLAG] UINT Flags;
    """)
    api.enum("DXGI_MULTIPLANE_OVERLAY_YCbCr_FLAGS", header="dxgi1_3", flags=True, values="""
        DXGI_MULTIPLANE_OVERLAY_YCbCr_FLAG_NOMINAL_RANGE = 0x1,
        DXGI_MULTIPLANE_OVERLAY_YCbCr_FLAG_BT709 = 0x2,
        DXGI_MULTIPLANE_OVERLAY_YCbCr_FLAG_xvYCC = 0x4,
    """)
    api.enum("DXGI_FRAME_PRESENTATION_MODE", header="dxgi1_3", values="""
        DXGI_FRAME_PRESENTATION_MODE_COMPOSED = 0,
        DXGI_FRAME_PRESENTATION_MODE_OVERLAY = 1,
        DXGI_FRAME_PRESENTATION_MODE_NONE = 2,
        DXGI_FRAME_PRESENTATION_MODE_COMPOSITION_FAILURE = 3,
    """)
    api.struct("DXGI_FRAME_STATISTICS_MEDIA", header="dxgi1_3", fields="""
        UINT PresentCount;
        UINT PresentRefreshCount;
        UINT SyncRefreshCount;
        LARGE_INTEGER SyncQPCTime;
        LARGE_INTEGER SyncGPUTime;
        DXGI_FRAME_PRESENTATION_MODE CompositionMode;
        UINT ApprovedPresentDuration;
    """)
    api.enum("DXGI_OVERLAY_SUPPORT_FLAG", header="dxgi1_3", flags=True, values="""
        DXGI_OVERLAY_SUPPORT_FLAG_DIRECT = 0x1,
        DXGI_OVERLAY_SUPPORT_FLAG_SCALING = 0x2,
    """)


# ---------------------------------------------------------------------------
# dxgi1_3.h: interfaces (IDXGIFactory3 recorded: id 643)

def _dxgi1_3_interfaces(api) -> None:
    api.interface("IDXGIDevice3", base="IDXGIDevice2", header="dxgi1_3",
                  uuid="6007896c-3244-4afd-bf18-a6d3beda5023", methods=[
        "void Trim()",
    ])
    api.interface("IDXGISwapChain2", base="IDXGISwapChain1", header="dxgi1_3",
                  uuid="a8be2ac4-199f-4946-b331-79599fb98de7", methods=[
        "HRESULT SetSourceSize(UINT Width, UINT Height)",
        "HRESULT GetSourceSize([out] UINT *pWidth, [out] UINT *pHeight)",
        "HRESULT SetMaximumFrameLatency(UINT MaxLatency)",
        "HRESULT GetMaximumFrameLatency([out] UINT *pMaxLatency)",
        "HANDLE GetFrameLatencyWaitableObject()",
        "HRESULT SetMatrixTransform(const DXGI_MATRIX_3X2_F *pMatrix)",
        "HRESULT GetMatrixTransform([out] DXGI_MATRIX_3X2_F *pMatrix)",
    ])
    api.interface("IDXGIOutput2", base="IDXGIOutput1", header="dxgi1_3",
                  uuid="595e39d1-2724-4663-99b1-da969de28364", methods=[
        "BOOL SupportsOverlays()",
    ])
    api.interface("IDXGIFactory3", base="IDXGIFactory2", header="dxgi1_3",
                  uuid="25483823-cd46-4c7d-86ca-47aa95b837bd", methods=[
        # The Flags the factory was created with (DXGI_CREATE_FACTORY_DEBUG).
        (643, "UINT GetCreationFlags()"),
    ])
    api.interface("IDXGIDecodeSwapChain", base="IUnknown", header="dxgi1_3",
                  uuid="2633066b-4514-4c7a-8fd8-12ea98059d18", methods=[
        "HRESULT PresentBuffer(UINT BufferToPresent, UINT SyncInterval, UINT Flags)",
        "HRESULT SetSourceRect(const RECT *pRect)",
        "HRESULT SetTargetRect(const RECT *pRect)",
        "HRESULT SetDestSize(UINT Width, UINT Height)",
        "HRESULT GetSourceRect([out] RECT *pRect)",
        "HRESULT GetTargetRect([out] RECT *pRect)",
        "HRESULT GetDestSize([out] UINT *pWidth, [out] UINT *pHeight)",
        "HRESULT SetColorSpace(DXGI_MULTIPLANE_OVERLAY_YCbCr_FLAGS ColorSpace)",
        "DXGI_MULTIPLANE_OVERLAY_YCbCr_FLAGS GetColorSpace()",
    ])
    # hSurface is a DirectComposition surface handle.
    api.interface("IDXGIFactoryMedia", base="IUnknown", header="dxgi1_3",
                  uuid="41e7d1f2-a591-4f7b-a2e5-fa9c843e1c12", methods=[
        "HRESULT CreateSwapChainForCompositionSurfaceHandle(IUnknown *pDevice, "
        "[opt] HANDLE hSurface, const DXGI_SWAP_CHAIN_DESC1 *pDesc, "
        "[opt] IDXGIOutput *pRestrictToOutput, [out] IDXGISwapChain1 **ppSwapChain)",
        "HRESULT CreateDecodeSwapChainForCompositionSurfaceHandle(IUnknown *pDevice, "
        "[opt] HANDLE hSurface, DXGI_DECODE_SWAP_CHAIN_DESC *pDesc, "
        "IDXGIResource *pYuvDecodeBuffers, [opt] IDXGIOutput *pRestrictToOutput, "
        "[out] IDXGIDecodeSwapChain **ppSwapChain)",
    ])
    api.interface("IDXGISwapChainMedia", base="IUnknown", header="dxgi1_3",
                  uuid="dd95b90b-f05f-4f6a-bd65-25bfb264bd84", methods=[
        "HRESULT GetFrameStatisticsMedia([out] DXGI_FRAME_STATISTICS_MEDIA *pStats)",
        "HRESULT SetPresentDuration(UINT Duration)",
        "HRESULT CheckPresentDurationSupport(UINT DesiredPresentDuration, "
        "[out] UINT *pClosestSmallerPresentDuration, "
        "[out] UINT *pClosestLargerPresentDuration)",
    ])
    api.interface("IDXGIOutput3", base="IDXGIOutput2", header="dxgi1_3",
                  uuid="8a6bb301-7e7e-41f4-a8e0-5b32f7f99b18", methods=[
        "HRESULT CheckOverlaySupport(DXGI_FORMAT EnumFormat, IUnknown *pConcernedDevice, "
        "[out, enum=DXGI_OVERLAY_SUPPORT_FLAG] UINT *pFlags)",
    ])


# ---------------------------------------------------------------------------
# dxgi1_4.h: enums and structs

def _dxgi1_4_types(api) -> None:
    api.enum("DXGI_SWAP_CHAIN_COLOR_SPACE_SUPPORT_FLAG", header="dxgi1_4", flags=True,
             values="""
        DXGI_SWAP_CHAIN_COLOR_SPACE_SUPPORT_FLAG_PRESENT = 0x1,
        DXGI_SWAP_CHAIN_COLOR_SPACE_SUPPORT_FLAG_OVERLAY_PRESENT = 0x2,
    """)
    api.enum("DXGI_OVERLAY_COLOR_SPACE_SUPPORT_FLAG", header="dxgi1_4", flags=True,
             values="""
        DXGI_OVERLAY_COLOR_SPACE_SUPPORT_FLAG_PRESENT = 0x1,
    """)
    api.enum("DXGI_MEMORY_SEGMENT_GROUP", header="dxgi1_4", values="""
        DXGI_MEMORY_SEGMENT_GROUP_LOCAL = 0,
        DXGI_MEMORY_SEGMENT_GROUP_NON_LOCAL = 1,
    """)
    api.struct("DXGI_QUERY_VIDEO_MEMORY_INFO", header="dxgi1_4", fields="""
        UINT64 Budget;
        UINT64 CurrentUsage;
        UINT64 AvailableForReservation;
        UINT64 CurrentReservation;
    """)


# ---------------------------------------------------------------------------
# dxgi1_4.h: interfaces (IDXGIFactory4 recorded: ids 644-645)

def _dxgi1_4_interfaces(api) -> None:
    # ResizeBuffers1 is for swap chains on D3D12 command queues.
    api.interface("IDXGISwapChain3", base="IDXGISwapChain2", header="dxgi1_4",
                  uuid="94d99bdb-f1f8-4ab0-b236-7da0170edab1", methods=[
        "UINT GetCurrentBackBufferIndex()",
        "HRESULT CheckColorSpaceSupport(DXGI_COLOR_SPACE_TYPE ColorSpace, "
        "[out, enum=DXGI_SWAP_CHAIN_COLOR_SPACE_SUPPORT_FLAG] UINT *pColorSpaceSupport)",
        "HRESULT SetColorSpace1(DXGI_COLOR_SPACE_TYPE ColorSpace)",
        "HRESULT ResizeBuffers1(UINT BufferCount, UINT Width, UINT Height, "
        "DXGI_FORMAT Format, [enum=DXGI_SWAP_CHAIN_FLAG] UINT SwapChainFlags, "
        "[count=BufferCount] const UINT *pCreationNodeMask, "
        "[count=BufferCount] IUnknown *const *ppPresentQueue)",
    ])
    api.interface("IDXGIOutput4", base="IDXGIOutput3", header="dxgi1_4",
                  uuid="dc7dca35-2196-414d-9f53-617884032a60", methods=[
        "HRESULT CheckOverlayColorSpaceSupport(DXGI_FORMAT Format, "
        "DXGI_COLOR_SPACE_TYPE ColorSpace, IUnknown *pConcernedDevice, "
        "[out, enum=DXGI_OVERLAY_COLOR_SPACE_SUPPORT_FLAG] UINT *pFlags)",
    ])
    api.interface("IDXGIFactory4", base="IDXGIFactory3", header="dxgi1_4",
                  uuid="1bc6ea02-ef36-464f-bf0c-21ca39e5168a", methods=[
        (644, "[hand_written=replay(finds replay's adapter: LUIDs change at every boot)] "
              "HRESULT EnumAdapterByLuid(LUID AdapterLuid, REFIID riid, "
              "[out, iid=riid] void **ppvAdapter)"),
        (645, "HRESULT EnumWarpAdapter(REFIID riid, [out, iid=riid] void **ppvAdapter)"),
    ])
    # Events and cookies are process-local handles.
    api.interface("IDXGIAdapter3", base="IDXGIAdapter2", header="dxgi1_4",
                  uuid="645967a4-1392-4310-a798-8053ce3e93fd", methods=[
        "HRESULT RegisterHardwareContentProtectionTeardownStatusEvent(HANDLE hEvent, "
        "[out] DWORD *pdwCookie)",
        "void UnregisterHardwareContentProtectionTeardownStatus(DWORD dwCookie)",
        "HRESULT QueryVideoMemoryInfo(UINT NodeIndex, "
        "DXGI_MEMORY_SEGMENT_GROUP MemorySegmentGroup, "
        "[out] DXGI_QUERY_VIDEO_MEMORY_INFO *pVideoMemoryInfo)",
        "HRESULT SetVideoMemoryReservation(UINT NodeIndex, "
        "DXGI_MEMORY_SEGMENT_GROUP MemorySegmentGroup, UINT64 Reservation)",
        "HRESULT RegisterVideoMemoryBudgetChangeNotificationEvent(HANDLE hEvent, "
        "[out] DWORD *pdwCookie)",
        "void UnregisterVideoMemoryBudgetChangeNotification(DWORD dwCookie)",
    ])


# ---------------------------------------------------------------------------
# dxgi1_5.h: enums and structs

def _dxgi1_5_types(api) -> None:
    api.enum("DXGI_OUTDUPL_FLAG", header="dxgi1_5", flags=True, values="""
        DXGI_OUTDUPL_COMPOSITED_UI_CAPTURE_ONLY = 1,
    """)
    api.enum("DXGI_HDR_METADATA_TYPE", header="dxgi1_5", values="""
        DXGI_HDR_METADATA_TYPE_NONE = 0,
        DXGI_HDR_METADATA_TYPE_HDR10 = 1,
        DXGI_HDR_METADATA_TYPE_HDR10PLUS = 2,
    """)
    api.struct("DXGI_HDR_METADATA_HDR10", header="dxgi1_5", fields="""
        UINT16 RedPrimary[2];
        UINT16 GreenPrimary[2];
        UINT16 BluePrimary[2];
        UINT16 WhitePoint[2];
        UINT MaxMasteringLuminance;
        UINT MinMasteringLuminance;
        UINT16 MaxContentLightLevel;
        UINT16 MaxFrameAverageLightLevel;
    """)
    api.struct("DXGI_HDR_METADATA_HDR10PLUS", header="dxgi1_5", fields="""
        BYTE Data[72];
    """)
    # The SDK's enum tags are _DXGI_OFFER_RESOURCE_FLAGS and
    # _DXGI_RECLAIM_RESOURCE_RESULTS; the typedef names are what code uses.
    api.enum("DXGI_OFFER_RESOURCE_FLAGS", header="dxgi1_5", flags=True, values="""
        DXGI_OFFER_RESOURCE_FLAG_ALLOW_DECOMMIT = 0x1,
    """)
    api.enum("DXGI_RECLAIM_RESOURCE_RESULTS", header="dxgi1_5", values="""
        DXGI_RECLAIM_RESOURCE_RESULT_OK = 0,
        DXGI_RECLAIM_RESOURCE_RESULT_DISCARDED = 1,
        DXGI_RECLAIM_RESOURCE_RESULT_NOT_COMMITTED = 2,
    """)
    api.enum("DXGI_FEATURE", header="dxgi1_5", values="""
        DXGI_FEATURE_PRESENT_ALLOW_TEARING = 0,
    """)


# ---------------------------------------------------------------------------
# dxgi1_5.h: interfaces (IDXGIFactory5 recorded: id 646)

def _dxgi1_5_interfaces(api) -> None:
    api.interface("IDXGIOutput5", base="IDXGIOutput4", header="dxgi1_5",
                  uuid="80a07424-ab52-42eb-833c-0c42fd282d98", methods=[
        "HRESULT DuplicateOutput1(IUnknown *pDevice, [enum=DXGI_OUTDUPL_FLAG] UINT Flags, "
        "UINT SupportedFormatsCount, "
        "[count=SupportedFormatsCount] const DXGI_FORMAT *pSupportedFormats, "
        "[out] IDXGIOutputDuplication **ppOutputDuplication)",
    ])
    # pMetaData: a DXGI_HDR_METADATA_HDR10 or _HDR10PLUS as Type says.
    api.interface("IDXGISwapChain4", base="IDXGISwapChain3", header="dxgi1_5",
                  uuid="3d585d5a-bd4a-489e-b1f4-3dbcb6452ffb", methods=[
        "HRESULT SetHDRMetaData(DXGI_HDR_METADATA_TYPE Type, UINT Size, "
        "[opt, bytes=Size] void *pMetaData)",
    ])
    api.interface("IDXGIDevice4", base="IDXGIDevice3", header="dxgi1_5",
                  uuid="95b4f95f-d8da-4ca4-9ee6-3b76d5968a10", methods=[
        "HRESULT OfferResources1(UINT NumResources, "
        "[count=NumResources] IDXGIResource *const *ppResources, "
        "DXGI_OFFER_RESOURCE_PRIORITY Priority, "
        "[enum=DXGI_OFFER_RESOURCE_FLAGS] UINT Flags)",
        "HRESULT ReclaimResources1(UINT NumResources, "
        "[count=NumResources] IDXGIResource *const *ppResources, "
        "[out, opt, count=NumResources] DXGI_RECLAIM_RESOURCE_RESULTS *pResults)",
    ])
    api.interface("IDXGIFactory5", base="IDXGIFactory4", header="dxgi1_5",
                  uuid="7632e1f5-ee65-4dca-87fd-84cd75f8838d", methods=[
        # As ID3D11Device::CheckFeatureSupport: the SDK documents the data as
        # [in, out] (DXGI_FEATURE_PRESENT_ALLOW_TEARING fills in a BOOL).
        (646, "HRESULT CheckFeatureSupport(DXGI_FEATURE Feature, "
              "[inout, bytes=FeatureSupportDataSize] void *pFeatureSupportData, "
              "UINT FeatureSupportDataSize)"),
    ])


# ---------------------------------------------------------------------------
# dxgi1_6.h: enums and structs

def _dxgi1_6_types(api) -> None:
    api.enum("DXGI_ADAPTER_FLAG3", header="dxgi1_6", flags=True, values="""
        DXGI_ADAPTER_FLAG3_NONE = 0,
        DXGI_ADAPTER_FLAG3_REMOTE = 1,
        DXGI_ADAPTER_FLAG3_SOFTWARE = 2,
        DXGI_ADAPTER_FLAG3_ACG_COMPATIBLE = 4,
        DXGI_ADAPTER_FLAG3_SUPPORT_MONITORED_FENCES = 8,
        DXGI_ADAPTER_FLAG3_SUPPORT_NON_MONITORED_FENCES = 0x10,
        DXGI_ADAPTER_FLAG3_KEYED_MUTEX_CONFORMANCE = 0x20,
        DXGI_ADAPTER_FLAG3_FORCE_DWORD = 0xffffffff,
    """)
    api.struct("DXGI_ADAPTER_DESC3", header="dxgi1_6", fields="""
        WCHAR Description[128];
        UINT VendorId;
        UINT DeviceId;
        UINT SubSysId;
        UINT Revision;
        SIZE_T DedicatedVideoMemory;
        SIZE_T DedicatedSystemMemory;
        SIZE_T SharedSystemMemory;
        LUID AdapterLuid;
        DXGI_ADAPTER_FLAG3 Flags;
        DXGI_GRAPHICS_PREEMPTION_GRANULARITY GraphicsPreemptionGranularity;
        DXGI_COMPUTE_PREEMPTION_GRANULARITY ComputePreemptionGranularity;
    """)
    api.struct("DXGI_OUTPUT_DESC1", header="dxgi1_6", fields="""
        WCHAR DeviceName[32];
        RECT DesktopCoordinates;
        BOOL AttachedToDesktop;
        DXGI_MODE_ROTATION Rotation;
        HMONITOR Monitor;
        UINT BitsPerColor;
        DXGI_COLOR_SPACE_TYPE ColorSpace;
        FLOAT RedPrimary[2];
        FLOAT GreenPrimary[2];
        FLOAT BluePrimary[2];
        FLOAT WhitePoint[2];
        FLOAT MinLuminance;
        FLOAT MaxLuminance;
        FLOAT MaxFullFrameLuminance;
    """)
    api.enum("DXGI_HARDWARE_COMPOSITION_SUPPORT_FLAGS", header="dxgi1_6", flags=True,
             values="""
        DXGI_HARDWARE_COMPOSITION_SUPPORT_FLAG_FULLSCREEN = 1,
        DXGI_HARDWARE_COMPOSITION_SUPPORT_FLAG_WINDOWED = 2,
        DXGI_HARDWARE_COMPOSITION_SUPPORT_FLAG_CURSOR_STRETCHED = 4,
    """)
    api.enum("DXGI_GPU_PREFERENCE", header="dxgi1_6", values="""
        DXGI_GPU_PREFERENCE_UNSPECIFIED = 0,
        DXGI_GPU_PREFERENCE_MINIMUM_POWER = 1,
        DXGI_GPU_PREFERENCE_HIGH_PERFORMANCE = 2,
    """)


# ---------------------------------------------------------------------------
# dxgi1_6.h: interfaces (IDXGIFactory6 recorded: id 647)

def _dxgi1_6_interfaces(api) -> None:
    api.interface("IDXGIAdapter4", base="IDXGIAdapter3", header="dxgi1_6",
                  uuid="3c8d99d1-4fbf-4181-a82c-af66bf7bd24e", methods=[
        "HRESULT GetDesc3([out] DXGI_ADAPTER_DESC3 *pDesc)",
    ])
    api.interface("IDXGIOutput6", base="IDXGIOutput5", header="dxgi1_6",
                  uuid="068346e8-aaec-4b84-add7-137f513f77a1", methods=[
        "HRESULT GetDesc1([out] DXGI_OUTPUT_DESC1 *pDesc)",
        "HRESULT CheckHardwareCompositionSupport("
        "[out, enum=DXGI_HARDWARE_COMPOSITION_SUPPORT_FLAGS] UINT *pFlags)",
    ])
    api.interface("IDXGIFactory6", base="IDXGIFactory5", header="dxgi1_6",
                  uuid="c1b6694f-ff09-44a9-b03c-77900a0a1d17", methods=[
        (647, "HRESULT EnumAdapterByGpuPreference(UINT Adapter, "
              "DXGI_GPU_PREFERENCE GpuPreference, REFIID riid, "
              "[out, iid=riid] void **ppvAdapter)"),
    ])
    # Declared only: its event is a process-local handle.
    api.interface("IDXGIFactory7", base="IDXGIFactory6", header="dxgi1_6",
                  uuid="a4966eed-76db-44da-84c1-ee9a7afb20a8", methods=[
        "HRESULT RegisterAdaptersChangedEvent(HANDLE hEvent, [out] DWORD *pdwCookie)",
        "HRESULT UnregisterAdaptersChangedEvent(DWORD dwCookie)",
    ])
