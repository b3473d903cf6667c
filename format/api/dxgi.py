"""DXGI 1.0-1.2: dxgitype.h, dxgi.h and dxgi1_2.h.  Call ids 500-699.

Window handles (HWND), event handles (HANDLE) and shared-resource handles do
not survive into a replay process: replay refuses the methods that take one,
naming the parameter (format/codegen/decoders.py).
"""


def declare(api) -> None:
    _dxgitype(api)
    _dxgi_types(api)
    _dxgi_interfaces(api)
    _dxgi1_2_types(api)
    _dxgi1_2_interfaces(api)


# ---------------------------------------------------------------------------
# dxgitype.h (DXGI_JPEG_* left out: nothing in D3D11 uses them)

def _dxgitype(api) -> None:
    api.struct("DXGI_RGB", header="dxgitype", fields="""
        FLOAT Red;
        FLOAT Green;
        FLOAT Blue;
    """)
    # The SDK spells it "typedef D3DCOLORVALUE DXGI_RGBA"; D3DCOLORVALUE is not
    # a platform type here, so the struct is declared with the same layout.
    api.struct("DXGI_RGBA", header="dxgitype", fields="""
        FLOAT r;
        FLOAT g;
        FLOAT b;
        FLOAT a;
    """)
    api.struct("DXGI_GAMMA_CONTROL", header="dxgitype", fields="""
        DXGI_RGB Scale;
        DXGI_RGB Offset;
        DXGI_RGB GammaCurve[1025];
    """)
    api.struct("DXGI_GAMMA_CONTROL_CAPABILITIES", header="dxgitype", fields="""
        BOOL ScaleAndOffsetSupported;
        FLOAT MaxConvertedValue;
        FLOAT MinConvertedValue;
        UINT NumGammaControlPoints;
        FLOAT ControlPointPositions[1025];
    """)
    api.enum("DXGI_MODE_SCANLINE_ORDER", header="dxgitype", values="""
        DXGI_MODE_SCANLINE_ORDER_UNSPECIFIED = 0,
        DXGI_MODE_SCANLINE_ORDER_PROGRESSIVE = 1,
        DXGI_MODE_SCANLINE_ORDER_UPPER_FIELD_FIRST = 2,
        DXGI_MODE_SCANLINE_ORDER_LOWER_FIELD_FIRST = 3,
    """)
    api.enum("DXGI_MODE_SCALING", header="dxgitype", values="""
        DXGI_MODE_SCALING_UNSPECIFIED = 0,
        DXGI_MODE_SCALING_CENTERED = 1,
        DXGI_MODE_SCALING_STRETCHED = 2,
    """)
    api.enum("DXGI_MODE_ROTATION", header="dxgitype", values="""
        DXGI_MODE_ROTATION_UNSPECIFIED = 0,
        DXGI_MODE_ROTATION_IDENTITY = 1,
        DXGI_MODE_ROTATION_ROTATE90 = 2,
        DXGI_MODE_ROTATION_ROTATE180 = 3,
        DXGI_MODE_ROTATION_ROTATE270 = 4,
    """)
    api.struct("DXGI_MODE_DESC", header="dxgitype", fields="""
        UINT Width;
        UINT Height;
        DXGI_RATIONAL RefreshRate;
        DXGI_FORMAT Format;
        DXGI_MODE_SCANLINE_ORDER ScanlineOrdering;
        DXGI_MODE_SCALING Scaling;
    """)


# ---------------------------------------------------------------------------
# dxgi.h: constants, types and structs

def _dxgi_types(api) -> None:
    api.constants_block(header="dxgi", text="""
        DXGI_CPU_ACCESS_NONE 0
        DXGI_CPU_ACCESS_DYNAMIC 1
        DXGI_CPU_ACCESS_READ_WRITE 2
        DXGI_CPU_ACCESS_SCRATCH 3
        DXGI_CPU_ACCESS_FIELD 15
        DXGI_USAGE_SHADER_INPUT 0x00000010UL
        DXGI_USAGE_RENDER_TARGET_OUTPUT 0x00000020UL
        DXGI_USAGE_BACK_BUFFER 0x00000040UL
        DXGI_USAGE_SHARED 0x00000080UL
        DXGI_USAGE_READ_ONLY 0x00000100UL
        DXGI_USAGE_DISCARD_ON_PRESENT 0x00000200UL
        DXGI_USAGE_UNORDERED_ACCESS 0x00000400UL
        DXGI_RESOURCE_PRIORITY_MINIMUM 0x28000000
        DXGI_RESOURCE_PRIORITY_LOW 0x50000000
        DXGI_RESOURCE_PRIORITY_NORMAL 0x78000000
        DXGI_RESOURCE_PRIORITY_HIGH 0xa0000000
        DXGI_RESOURCE_PRIORITY_MAXIMUM 0xc8000000
        DXGI_MAP_READ 1UL
        DXGI_MAP_WRITE 2UL
        DXGI_MAP_DISCARD 4UL
        DXGI_ENUM_MODES_INTERLACED 1UL
        DXGI_ENUM_MODES_SCALING 2UL
        DXGI_MAX_SWAP_CHAIN_BUFFERS 16
        DXGI_PRESENT_TEST 0x00000001UL
        DXGI_PRESENT_DO_NOT_SEQUENCE 0x00000002UL
        DXGI_PRESENT_RESTART 0x00000004UL
        DXGI_PRESENT_DO_NOT_WAIT 0x00000008UL
        DXGI_PRESENT_STEREO_PREFER_RIGHT 0x00000010UL
        DXGI_PRESENT_STEREO_TEMPORARY_MONO 0x00000020UL
        DXGI_PRESENT_RESTRICT_TO_OUTPUT 0x00000040UL
        DXGI_PRESENT_USE_DURATION 0x00000100UL
        DXGI_PRESENT_ALLOW_TEARING 0x00000200UL
        DXGI_MWA_NO_WINDOW_CHANGES 1
        DXGI_MWA_NO_ALT_ENTER 2
        DXGI_MWA_NO_PRINT_SCREEN 4
        DXGI_MWA_VALID 7
    """)
    # winerror.h's DXGI status and error codes that the platform headers
    # (DirectX-Headers' wsl/stubs/basetsd.h) lack; those it has (INVALID_CALL,
    # NOT_FOUND, MORE_DATA, UNSUPPORTED, DEVICE_REMOVED/HUNG/RESET,
    # DRIVER_INTERNAL_ERROR) must not be redefined here.  Later SDKs' codes are
    # kept: a newer runtime may return them.
    api.constants_block(header="dxgi", text="""
        DXGI_STATUS_OCCLUDED ((HRESULT)0x087A0001L)
        DXGI_STATUS_CLIPPED ((HRESULT)0x087A0002L)
        DXGI_STATUS_NO_REDIRECTION ((HRESULT)0x087A0004L)
        DXGI_STATUS_NO_DESKTOP_ACCESS ((HRESULT)0x087A0005L)
        DXGI_STATUS_GRAPHICS_VIDPN_SOURCE_IN_USE ((HRESULT)0x087A0006L)
        DXGI_STATUS_MODE_CHANGED ((HRESULT)0x087A0007L)
        DXGI_STATUS_MODE_CHANGE_IN_PROGRESS ((HRESULT)0x087A0008L)
        DXGI_STATUS_UNOCCLUDED ((HRESULT)0x087A0009L)
        DXGI_STATUS_DDA_WAS_STILL_DRAWING ((HRESULT)0x087A000AL)
        DXGI_STATUS_PRESENT_REQUIRED ((HRESULT)0x087A002FL)
        DXGI_ERROR_WAS_STILL_DRAWING ((HRESULT)0x887A000AL)
        DXGI_ERROR_FRAME_STATISTICS_DISJOINT ((HRESULT)0x887A000BL)
        DXGI_ERROR_GRAPHICS_VIDPN_SOURCE_IN_USE ((HRESULT)0x887A000CL)
        DXGI_ERROR_NONEXCLUSIVE ((HRESULT)0x887A0021L)
        DXGI_ERROR_NOT_CURRENTLY_AVAILABLE ((HRESULT)0x887A0022L)
        DXGI_ERROR_REMOTE_CLIENT_DISCONNECTED ((HRESULT)0x887A0023L)
        DXGI_ERROR_REMOTE_OUTOFMEMORY ((HRESULT)0x887A0024L)
        DXGI_ERROR_MODE_CHANGE_IN_PROGRESS ((HRESULT)0x887A0025L)
        DXGI_ERROR_ACCESS_LOST ((HRESULT)0x887A0026L)
        DXGI_ERROR_WAIT_TIMEOUT ((HRESULT)0x887A0027L)
        DXGI_ERROR_SESSION_DISCONNECTED ((HRESULT)0x887A0028L)
        DXGI_ERROR_RESTRICT_TO_OUTPUT_STALE ((HRESULT)0x887A0029L)
        DXGI_ERROR_CANNOT_PROTECT_CONTENT ((HRESULT)0x887A002AL)
        DXGI_ERROR_ACCESS_DENIED ((HRESULT)0x887A002BL)
        DXGI_ERROR_NAME_ALREADY_EXISTS ((HRESULT)0x887A002CL)
        DXGI_ERROR_SDK_COMPONENT_MISSING ((HRESULT)0x887A002DL)
        DXGI_ERROR_NOT_CURRENT ((HRESULT)0x887A002EL)
        DXGI_ERROR_HW_PROTECTION_OUTOFMEMORY ((HRESULT)0x887A0030L)
        DXGI_ERROR_DYNAMIC_CODE_POLICY_VIOLATION ((HRESULT)0x887A0031L)
        DXGI_ERROR_NON_COMPOSITED_UI ((HRESULT)0x887A0032L)
        DXGI_ERROR_CACHE_CORRUPT ((HRESULT)0x887A0033L)
        DXGI_ERROR_CACHE_FULL ((HRESULT)0x887A0034L)
        DXGI_ERROR_CACHE_HASH_COLLISION ((HRESULT)0x887A0035L)
        DXGI_ERROR_ALREADY_EXISTS ((HRESULT)0x887A0036L)
    """)
    api.typedef("DXGI_USAGE", "UINT", header="dxgi")

    api.struct("DXGI_FRAME_STATISTICS", header="dxgi", fields="""
        UINT PresentCount;
        UINT PresentRefreshCount;
        UINT SyncRefreshCount;
        LARGE_INTEGER SyncQPCTime;
        LARGE_INTEGER SyncGPUTime;
    """)
    # pBits addresses Pitch * rows of the surface: sized by the Map rule.
    api.struct("DXGI_MAPPED_RECT", header="dxgi", fields="""
        INT Pitch;
        BYTE *pBits;
    """)
    api.struct("DXGI_ADAPTER_DESC", header="dxgi", fields="""
        WCHAR Description[128];
        UINT VendorId;
        UINT DeviceId;
        UINT SubSysId;
        UINT Revision;
        SIZE_T DedicatedVideoMemory;
        SIZE_T DedicatedSystemMemory;
        SIZE_T SharedSystemMemory;
        LUID AdapterLuid;
    """)
    api.struct("DXGI_OUTPUT_DESC", header="dxgi", fields="""
        WCHAR DeviceName[32];
        RECT DesktopCoordinates;
        BOOL AttachedToDesktop;
        DXGI_MODE_ROTATION Rotation;
        HMONITOR Monitor;
    """)
    api.struct("DXGI_SHARED_RESOURCE", header="dxgi", fields="""
        HANDLE Handle;
    """)
    api.struct("DXGI_SURFACE_DESC", header="dxgi", fields="""
        UINT Width;
        UINT Height;
        DXGI_FORMAT Format;
        DXGI_SAMPLE_DESC SampleDesc;
    """)
    api.enum("DXGI_RESIDENCY", header="dxgi", values="""
        DXGI_RESIDENCY_FULLY_RESIDENT = 1,
        DXGI_RESIDENCY_RESIDENT_IN_SHARED_MEMORY = 2,
        DXGI_RESIDENCY_EVICTED_TO_DISK = 3,
    """)
    api.enum("DXGI_SWAP_EFFECT", header="dxgi", values="""
        DXGI_SWAP_EFFECT_DISCARD = 0,
        DXGI_SWAP_EFFECT_SEQUENTIAL = 1,
        DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL = 3,
        DXGI_SWAP_EFFECT_FLIP_DISCARD = 4,
    """)
    # Later SDKs' flags are kept: a captured app built against them may pass them.
    api.enum("DXGI_SWAP_CHAIN_FLAG", header="dxgi", flags=True, values="""
        DXGI_SWAP_CHAIN_FLAG_NONPREROTATED = 1,
        DXGI_SWAP_CHAIN_FLAG_ALLOW_MODE_SWITCH = 2,
        DXGI_SWAP_CHAIN_FLAG_GDI_COMPATIBLE = 4,
        DXGI_SWAP_CHAIN_FLAG_RESTRICTED_CONTENT = 8,
        DXGI_SWAP_CHAIN_FLAG_RESTRICT_SHARED_RESOURCE_DRIVER = 16,
        DXGI_SWAP_CHAIN_FLAG_DISPLAY_ONLY = 32,
        DXGI_SWAP_CHAIN_FLAG_FRAME_LATENCY_WAITABLE_OBJECT = 64,
        DXGI_SWAP_CHAIN_FLAG_FOREGROUND_LAYER = 128,
        DXGI_SWAP_CHAIN_FLAG_FULLSCREEN_VIDEO = 256,
        DXGI_SWAP_CHAIN_FLAG_YUV_VIDEO = 512,
        DXGI_SWAP_CHAIN_FLAG_HW_PROTECTED = 1024,
        DXGI_SWAP_CHAIN_FLAG_ALLOW_TEARING = 2048,
    """)
    api.struct("DXGI_SWAP_CHAIN_DESC", header="dxgi", fields="""
        DXGI_MODE_DESC BufferDesc;
        DXGI_SAMPLE_DESC SampleDesc;
        DXGI_USAGE BufferUsage;
        UINT BufferCount;
        HWND OutputWindow;
        BOOL Windowed;
        DXGI_SWAP_EFFECT SwapEffect;
        [enum=DXGI_SWAP_CHAIN_FLAG] UINT Flags;
    """)
    api.enum("DXGI_ADAPTER_FLAG", header="dxgi", flags=True, values="""
        DXGI_ADAPTER_FLAG_NONE = 0,
        DXGI_ADAPTER_FLAG_REMOTE = 1,
        DXGI_ADAPTER_FLAG_SOFTWARE = 2,
        DXGI_ADAPTER_FLAG_FORCE_DWORD = 0xffffffff,
    """)
    api.struct("DXGI_ADAPTER_DESC1", header="dxgi", fields="""
        WCHAR Description[128];
        UINT VendorId;
        UINT DeviceId;
        UINT SubSysId;
        UINT Revision;
        SIZE_T DedicatedVideoMemory;
        SIZE_T DedicatedSystemMemory;
        SIZE_T SharedSystemMemory;
        LUID AdapterLuid;
        [enum=DXGI_ADAPTER_FLAG] UINT Flags;
    """)


# ---------------------------------------------------------------------------
# dxgi.h: interfaces and entry points (ids 500-589)

def _dxgi_interfaces(api) -> None:
    api.interface("IDXGIObject", base="IUnknown", header="dxgi",
                  uuid="aec22fb8-76f3-4639-9be0-28eb43a67a2e", methods=[
        (500, "HRESULT SetPrivateData(REFGUID Name, UINT DataSize, "
              "[opt, bytes=DataSize] const void *pData)"),
        (501, "HRESULT SetPrivateDataInterface(REFGUID Name, [opt] const IUnknown *pUnknown)"),
        (502, "HRESULT GetPrivateData(REFGUID Name, [inout] UINT *pDataSize, "
              "[out, opt, bytes=*pDataSize] void *pData)"),
        # Hands out an existing object (adapter, factory, ...): wrapper lookup.
        (503, ""
              "HRESULT GetParent(REFIID riid, [out, iid=riid] void **ppParent)"),
    ])
    api.interface("IDXGIDeviceSubObject", base="IDXGIObject", header="dxgi",
                  uuid="3d3e0379-f9de-4d58-bb6c-18d62992f1a6", methods=[
        (504, ""
              "HRESULT GetDevice(REFIID riid, [out, iid=riid] void **ppDevice)"),
    ])
    api.interface("IDXGIResource", base="IDXGIDeviceSubObject", header="dxgi",
                  uuid="035f3ab4-482e-4e50-b41f-8a7f8bd8960b", methods=[
        (505, "HRESULT GetSharedHandle([out] HANDLE *pSharedHandle)"),
        (506, "HRESULT GetUsage([out] DXGI_USAGE *pUsage)"),
        (507, "HRESULT SetEvictionPriority(UINT EvictionPriority)"),
        (508, "HRESULT GetEvictionPriority([out] UINT *pEvictionPriority)"),
    ])
    api.interface("IDXGIKeyedMutex", base="IDXGIDeviceSubObject", header="dxgi",
                  uuid="9d8e1289-d7b3-465f-8126-250e349af85d", methods=[
        (509, "HRESULT AcquireSync(UINT64 Key, DWORD dwMilliseconds)"),
        (510, "HRESULT ReleaseSync(UINT64 Key)"),
    ])
    api.interface("IDXGISurface", base="IDXGIDeviceSubObject", header="dxgi",
                  uuid="cafcb56c-6ac3-4889-bf47-9e23bbd260ec", methods=[
        (511, "HRESULT GetDesc([out] DXGI_SURFACE_DESC *pDesc)"),
        (512, ""
              "HRESULT Map([out] DXGI_MAPPED_RECT *pLockedRect, UINT MapFlags)"),
        (513, "HRESULT Unmap()"),
    ])
    api.interface("IDXGISurface1", base="IDXGISurface", header="dxgi",
                  uuid="4ae63092-6327-4c1b-80ae-bfe12ea32b86", methods=[
        # GDI drawing happens outside the API: the surface contents need a rule.
        (514, "HRESULT GetDC(BOOL Discard, [out] HDC *phdc)"),
        (515, "HRESULT ReleaseDC([opt] RECT *pDirtyRect)"),
    ])
    api.interface("IDXGIAdapter", base="IDXGIObject", header="dxgi",
                  uuid="2411e7e1-12ac-4ccf-bd14-9798e8534dc0", methods=[
        (516, "HRESULT EnumOutputs(UINT Output, [out] IDXGIOutput **ppOutput)"),
        (517, "HRESULT GetDesc([out] DXGI_ADAPTER_DESC *pDesc)"),
        (518, "HRESULT CheckInterfaceSupport(REFGUID InterfaceName, "
              "[out] LARGE_INTEGER *pUMDVersion)"),
    ])
    api.interface("IDXGIOutput", base="IDXGIObject", header="dxgi",
                  uuid="ae02eedb-c735-4690-8d52-5a8dc20213aa", methods=[
        (519, "HRESULT GetDesc([out] DXGI_OUTPUT_DESC *pDesc)"),
        (520, "[hand_written=replay(lists the modes the trace recorded)] "
              "HRESULT GetDisplayModeList(DXGI_FORMAT EnumFormat, UINT Flags, "
              "[inout] UINT *pNumModes, [out, opt, count=*pNumModes] DXGI_MODE_DESC *pDesc)"),
        (521, "HRESULT FindClosestMatchingMode(const DXGI_MODE_DESC *pModeToMatch, "
              "[out] DXGI_MODE_DESC *pClosestMatch, [opt] IUnknown *pConcernedDevice)"),
        (522, "HRESULT WaitForVBlank()"),
        (523, "HRESULT TakeOwnership(IUnknown *pDevice, BOOL Exclusive)"),
        (524, "void ReleaseOwnership()"),
        (525, "HRESULT GetGammaControlCapabilities("
              "[out] DXGI_GAMMA_CONTROL_CAPABILITIES *pGammaCaps)"),
        (526, "HRESULT SetGammaControl(const DXGI_GAMMA_CONTROL *pArray)"),
        (527, "HRESULT GetGammaControl([out] DXGI_GAMMA_CONTROL *pArray)"),
        (528, "HRESULT SetDisplaySurface(IDXGISurface *pScanoutSurface)"),
        # Writes the screen into a surface: its contents must be recorded.
        (529, "HRESULT GetDisplaySurfaceData(IDXGISurface *pDestination)"),
        (530, "HRESULT GetFrameStatistics([out] DXGI_FRAME_STATISTICS *pStats)"),
    ])
    api.interface("IDXGISwapChain", base="IDXGIDeviceSubObject", header="dxgi",
                  uuid="310d36a0-d2e7-4c0a-aa04-6a9d23b8886a", methods=[
        # Frame boundary: capture snapshots and replay pacing hang off it.
        (531, "[hand_written=capture] HRESULT Present(UINT SyncInterval, UINT Flags)"),
        # Back buffers are owned by the swap chain, not created by a call.
        (532, "HRESULT GetBuffer(UINT Buffer, REFIID riid, "
              "[out, iid=riid] void **ppSurface)"),
        (533, ""
              "HRESULT SetFullscreenState(BOOL Fullscreen, [opt] IDXGIOutput *pTarget)"),
        (534, "HRESULT GetFullscreenState([out, opt] BOOL *pFullscreen, "
              "[out, opt] IDXGIOutput **ppTarget)"),
        (535, "HRESULT GetDesc([out] DXGI_SWAP_CHAIN_DESC *pDesc)"),
        # Invalidates and recreates the back buffers.
        (536, ""
              "HRESULT ResizeBuffers(UINT BufferCount, UINT Width, UINT Height, "
              "DXGI_FORMAT NewFormat, [enum=DXGI_SWAP_CHAIN_FLAG] UINT SwapChainFlags)"),
        (537, ""
              "HRESULT ResizeTarget(const DXGI_MODE_DESC *pNewTargetParameters)"),
        (538, "HRESULT GetContainingOutput([out] IDXGIOutput **ppOutput)"),
        (539, "HRESULT GetFrameStatistics([out] DXGI_FRAME_STATISTICS *pStats)"),
        (540, "HRESULT GetLastPresentCount([out] UINT *pLastPresentCount)"),
    ])
    api.interface("IDXGIFactory", base="IDXGIObject", header="dxgi",
                  uuid="7b7166ec-21c7-44ae-b21a-c9ae321ae369", methods=[
        (541, "HRESULT EnumAdapters(UINT Adapter, [out] IDXGIAdapter **ppAdapter)"),
        (542, "HRESULT MakeWindowAssociation(HWND WindowHandle, UINT Flags)"),
        (543, "HRESULT GetWindowAssociation([out] HWND *pWindowHandle)"),
        # The SDK has pDesc non-const here.  The window is replaced on replay.
        (544, ""
              "HRESULT CreateSwapChain(IUnknown *pDevice, DXGI_SWAP_CHAIN_DESC *pDesc, "
              "[out] IDXGISwapChain **ppSwapChain)"),
        (545, "HRESULT CreateSoftwareAdapter(HMODULE Module, "
              "[out] IDXGIAdapter **ppAdapter)"),
    ])
    api.interface("IDXGIDevice", base="IDXGIObject", header="dxgi",
                  uuid="54ec77fa-1377-44e6-8c32-88fd5f44c84c", methods=[
        (546, "HRESULT GetAdapter([out] IDXGIAdapter **pAdapter)"),
        (547, "HRESULT CreateSurface(const DXGI_SURFACE_DESC *pDesc, UINT NumSurfaces, "
              "DXGI_USAGE Usage, [opt] const DXGI_SHARED_RESOURCE *pSharedResource, "
              "[out, count=NumSurfaces] IDXGISurface **ppSurface)"),
        (548, "HRESULT QueryResourceResidency("
              "[count=NumResources] IUnknown *const *ppResources, "
              "[out, count=NumResources] DXGI_RESIDENCY *pResidencyStatus, UINT NumResources)"),
        (549, "HRESULT SetGPUThreadPriority(INT Priority)"),
        (550, "HRESULT GetGPUThreadPriority([out] INT *pPriority)"),
    ])
    api.interface("IDXGIFactory1", base="IDXGIFactory", header="dxgi",
                  uuid="770aae78-f26f-4dba-a829-253c83d1b387", methods=[
        (551, "HRESULT EnumAdapters1(UINT Adapter, [out] IDXGIAdapter1 **ppAdapter)"),
        (552, "BOOL IsCurrent()"),
    ])
    api.interface("IDXGIAdapter1", base="IDXGIAdapter", header="dxgi",
                  uuid="29038f61-3839-4626-91fd-086879011a05", methods=[
        (553, "HRESULT GetDesc1([out] DXGI_ADAPTER_DESC1 *pDesc)"),
    ])
    api.interface("IDXGIDevice1", base="IDXGIDevice", header="dxgi",
                  uuid="77db970f-6276-48ba-ba28-070143b4392c", methods=[
        (554, "HRESULT SetMaximumFrameLatency(UINT MaxLatency)"),
        (555, "HRESULT GetMaximumFrameLatency([out] UINT *pMaxLatency)"),
    ])

    api.function(590, "[hand_written=capture] "
                      "HRESULT WINAPI CreateDXGIFactory(REFIID riid, "
                      "[out, iid=riid] void **ppFactory)", header="dxgi")
    api.function(591, "[hand_written=capture] "
                      "HRESULT WINAPI CreateDXGIFactory1(REFIID riid, "
                      "[out, iid=riid] void **ppFactory)", header="dxgi")


# ---------------------------------------------------------------------------
# dxgi1_2.h: constants, enums and structs

def _dxgi1_2_types(api) -> None:
    api.constants_block(header="dxgi1_2", text="""
        DXGI_ENUM_MODES_STEREO 4UL
        DXGI_ENUM_MODES_DISABLED_STEREO 8UL
        DXGI_SHARED_RESOURCE_READ 0x80000000
        DXGI_SHARED_RESOURCE_WRITE 1
    """)
    api.enum("DXGI_OFFER_RESOURCE_PRIORITY", header="dxgi1_2", values="""
        DXGI_OFFER_RESOURCE_PRIORITY_LOW = 1,
        DXGI_OFFER_RESOURCE_PRIORITY_NORMAL = 2,
        DXGI_OFFER_RESOURCE_PRIORITY_HIGH = 3,
    """)
    api.enum("DXGI_ALPHA_MODE", header="dxgi1_2", values="""
        DXGI_ALPHA_MODE_UNSPECIFIED = 0,
        DXGI_ALPHA_MODE_PREMULTIPLIED = 1,
        DXGI_ALPHA_MODE_STRAIGHT = 2,
        DXGI_ALPHA_MODE_IGNORE = 3,
        DXGI_ALPHA_MODE_FORCE_DWORD = 0xffffffff,
    """)
    api.enum("DXGI_SCALING", header="dxgi1_2", values="""
        DXGI_SCALING_STRETCH = 0,
        DXGI_SCALING_NONE = 1,
        DXGI_SCALING_ASPECT_RATIO_STRETCH = 2,
    """)
    api.enum("DXGI_GRAPHICS_PREEMPTION_GRANULARITY", header="dxgi1_2", values="""
        DXGI_GRAPHICS_PREEMPTION_DMA_BUFFER_BOUNDARY = 0,
        DXGI_GRAPHICS_PREEMPTION_PRIMITIVE_BOUNDARY = 1,
        DXGI_GRAPHICS_PREEMPTION_TRIANGLE_BOUNDARY = 2,
        DXGI_GRAPHICS_PREEMPTION_PIXEL_BOUNDARY = 3,
        DXGI_GRAPHICS_PREEMPTION_INSTRUCTION_BOUNDARY = 4,
    """)
    api.enum("DXGI_COMPUTE_PREEMPTION_GRANULARITY", header="dxgi1_2", values="""
        DXGI_COMPUTE_PREEMPTION_DMA_BUFFER_BOUNDARY = 0,
        DXGI_COMPUTE_PREEMPTION_DISPATCH_BOUNDARY = 1,
        DXGI_COMPUTE_PREEMPTION_THREAD_GROUP_BOUNDARY = 2,
        DXGI_COMPUTE_PREEMPTION_THREAD_BOUNDARY = 3,
        DXGI_COMPUTE_PREEMPTION_INSTRUCTION_BOUNDARY = 4,
    """)
    api.enum("DXGI_OUTDUPL_POINTER_SHAPE_TYPE", header="dxgi1_2", values="""
        DXGI_OUTDUPL_POINTER_SHAPE_TYPE_MONOCHROME = 1,
        DXGI_OUTDUPL_POINTER_SHAPE_TYPE_COLOR = 2,
        DXGI_OUTDUPL_POINTER_SHAPE_TYPE_MASKED_COLOR = 4,
    """)

    # Desktop duplication (IDXGIOutputDuplication, from IDXGIOutput1).
    api.struct("DXGI_OUTDUPL_MOVE_RECT", header="dxgi1_2", fields="""
        POINT SourcePoint;
        RECT DestinationRect;
    """)
    api.struct("DXGI_OUTDUPL_DESC", header="dxgi1_2", fields="""
        DXGI_MODE_DESC ModeDesc;
        DXGI_MODE_ROTATION Rotation;
        BOOL DesktopImageInSystemMemory;
    """)
    api.struct("DXGI_OUTDUPL_POINTER_POSITION", header="dxgi1_2", fields="""
        POINT Position;
        BOOL Visible;
    """)
    api.struct("DXGI_OUTDUPL_POINTER_SHAPE_INFO", header="dxgi1_2", fields="""
        [enum=DXGI_OUTDUPL_POINTER_SHAPE_TYPE] UINT Type;
        UINT Width;
        UINT Height;
        UINT Pitch;
        POINT HotSpot;
    """)
    api.struct("DXGI_OUTDUPL_FRAME_INFO", header="dxgi1_2", fields="""
        LARGE_INTEGER LastPresentTime;
        LARGE_INTEGER LastMouseUpdateTime;
        UINT AccumulatedFrames;
        BOOL RectsCoalesced;
        BOOL ProtectedContentMaskedOut;
        DXGI_OUTDUPL_POINTER_POSITION PointerPosition;
        UINT TotalMetadataBufferSize;
        UINT PointerShapeBufferSize;
    """)

    api.struct("DXGI_MODE_DESC1", header="dxgi1_2", fields="""
        UINT Width;
        UINT Height;
        DXGI_RATIONAL RefreshRate;
        DXGI_FORMAT Format;
        DXGI_MODE_SCANLINE_ORDER ScanlineOrdering;
        DXGI_MODE_SCALING Scaling;
        BOOL Stereo;
    """)
    api.struct("DXGI_SWAP_CHAIN_DESC1", header="dxgi1_2", fields="""
        UINT Width;
        UINT Height;
        DXGI_FORMAT Format;
        BOOL Stereo;
        DXGI_SAMPLE_DESC SampleDesc;
        DXGI_USAGE BufferUsage;
        UINT BufferCount;
        DXGI_SCALING Scaling;
        DXGI_SWAP_EFFECT SwapEffect;
        DXGI_ALPHA_MODE AlphaMode;
        [enum=DXGI_SWAP_CHAIN_FLAG] UINT Flags;
    """)
    api.struct("DXGI_SWAP_CHAIN_FULLSCREEN_DESC", header="dxgi1_2", fields="""
        DXGI_RATIONAL RefreshRate;
        DXGI_MODE_SCANLINE_ORDER ScanlineOrdering;
        DXGI_MODE_SCALING Scaling;
        BOOL Windowed;
    """)
    # pScrollRect and pScrollOffset may be NULL (no scroll); both point at one item.
    api.struct("DXGI_PRESENT_PARAMETERS", header="dxgi1_2", fields="""
        UINT DirtyRectsCount;
        [count=DirtyRectsCount] RECT *pDirtyRects;
        RECT *pScrollRect;
        POINT *pScrollOffset;
    """)
    api.struct("DXGI_ADAPTER_DESC2", header="dxgi1_2", fields="""
        WCHAR Description[128];
        UINT VendorId;
        UINT DeviceId;
        UINT SubSysId;
        UINT Revision;
        SIZE_T DedicatedVideoMemory;
        SIZE_T DedicatedSystemMemory;
        SIZE_T SharedSystemMemory;
        LUID AdapterLuid;
        [enum=DXGI_ADAPTER_FLAG] UINT Flags;
        DXGI_GRAPHICS_PREEMPTION_GRANULARITY GraphicsPreemptionGranularity;
        DXGI_COMPUTE_PREEMPTION_GRANULARITY ComputePreemptionGranularity;
    """)


# ---------------------------------------------------------------------------
# dxgi1_2.h: interfaces and entry points (ids 600-689)

def _dxgi1_2_interfaces(api) -> None:
    api.interface("IDXGIDisplayControl", base="IUnknown", header="dxgi1_2",
                  uuid="ea9dbf1a-c88e-4486-854a-98aa0138f30c", methods=[
        (600, "BOOL IsStereoEnabled()"),
        (601, "void SetStereoEnabled(BOOL enabled)"),
    ])
    # Everything it returns is a live view of the desktop: all by hand.
    api.interface("IDXGIOutputDuplication", base="IDXGIObject", header="dxgi1_2",
                  uuid="191cfac3-a341-470d-b26e-a864f428319c", methods=[
        (602, "void GetDesc([out] DXGI_OUTDUPL_DESC *pDesc)"),
        (603, "HRESULT AcquireNextFrame(UINT TimeoutInMilliseconds, "
              "[out] DXGI_OUTDUPL_FRAME_INFO *pFrameInfo, "
              "[out] IDXGIResource **ppDesktopResource)"),
        (604, "HRESULT GetFrameDirtyRects(UINT DirtyRectsBufferSize, "
              "[out, opt, bytes=DirtyRectsBufferSize] RECT *pDirtyRectsBuffer, "
              "[out] UINT *pDirtyRectsBufferSizeRequired)"),
        (605, "HRESULT GetFrameMoveRects(UINT MoveRectsBufferSize, "
              "[out, opt, bytes=MoveRectsBufferSize] DXGI_OUTDUPL_MOVE_RECT *pMoveRectBuffer, "
              "[out] UINT *pMoveRectsBufferSizeRequired)"),
        (606, "HRESULT GetFramePointerShape(UINT PointerShapeBufferSize, "
              "[out, opt, bytes=PointerShapeBufferSize] void *pPointerShapeBuffer, "
              "[out] UINT *pPointerShapeBufferSizeRequired, "
              "[out] DXGI_OUTDUPL_POINTER_SHAPE_INFO *pPointerShapeInfo)"),
        (607, ""
              "HRESULT MapDesktopSurface([out] DXGI_MAPPED_RECT *pLockedRect)"),
        (608, "HRESULT UnMapDesktopSurface()"),
        (609, "HRESULT ReleaseFrame()"),
    ])
    api.interface("IDXGISurface2", base="IDXGISurface1", header="dxgi1_2",
                  uuid="aba496dd-b617-4cb8-a866-bc44d7eb1fa2", methods=[
        # Hands out the existing parent resource.
        (610, "HRESULT GetResource(REFIID riid, "
              "[out, iid=riid] void **ppParentResource, [out] UINT *pSubresourceIndex)"),
    ])
    api.interface("IDXGIResource1", base="IDXGIResource", header="dxgi1_2",
                  uuid="30961379-4609-4a41-998e-54fe567ee0c1", methods=[
        (611, "HRESULT CreateSubresourceSurface(UINT index, [out] IDXGISurface2 **ppSurface)"),
        # SECURITY_ATTRIBUTES holds a pointer to a security descriptor: its
        # recording is hand-written (and the schema has no type for it).
        (612, "[hand_written=capture] HRESULT CreateSharedHandle("
              "[opt, size=security_attributes] const SECURITY_ATTRIBUTES *pAttributes, "
              "DWORD dwAccess, "
              "[opt, string] LPCWSTR lpName, [out] HANDLE *pHandle)"),
    ])
    api.interface("IDXGIDevice2", base="IDXGIDevice1", header="dxgi1_2",
                  uuid="05008617-fbfd-4051-a790-144884b4f6a9", methods=[
        (613, "HRESULT OfferResources(UINT NumResources, "
              "[count=NumResources] IDXGIResource *const *ppResources, "
              "DXGI_OFFER_RESOURCE_PRIORITY Priority)"),
        # pDiscarded reports whether the OS threw the contents away; replay
        # must treat discarded resources' contents as undefined.
        (614, "HRESULT ReclaimResources(UINT NumResources, "
              "[count=NumResources] IDXGIResource *const *ppResources, "
              "[out, opt, count=NumResources] BOOL *pDiscarded)"),
        # The event is a process-local handle, signalled when the GPU is done.
        (615, "[hand_written=replay(signals an event of its own, not the recorded handle)] "
              "HRESULT EnqueueSetEvent(HANDLE hEvent)"),
    ])
    api.interface("IDXGISwapChain1", base="IDXGISwapChain", header="dxgi1_2",
                  uuid="790a45f7-0d42-4876-983a-0a55cfe6f4aa", methods=[
        (616, "HRESULT GetDesc1([out] DXGI_SWAP_CHAIN_DESC1 *pDesc)"),
        (617, "HRESULT GetFullscreenDesc([out] DXGI_SWAP_CHAIN_FULLSCREEN_DESC *pDesc)"),
        (618, "HRESULT GetHwnd([out] HWND *pHwnd)"),
        (619, ""
              "HRESULT GetCoreWindow(REFIID refiid, [out, iid=refiid] void **ppUnk)"),
        (620, "[hand_written=capture] "
              "HRESULT Present1(UINT SyncInterval, UINT PresentFlags, "
              "const DXGI_PRESENT_PARAMETERS *pPresentParameters)"),
        (621, "BOOL IsTemporaryMonoSupported()"),
        (622, "HRESULT GetRestrictToOutput([out] IDXGIOutput **ppRestrictToOutput)"),
        (623, "HRESULT SetBackgroundColor(const DXGI_RGBA *pColor)"),
        (624, "HRESULT GetBackgroundColor([out] DXGI_RGBA *pColor)"),
        (625, "HRESULT SetRotation(DXGI_MODE_ROTATION Rotation)"),
        (626, "HRESULT GetRotation([out] DXGI_MODE_ROTATION *pRotation)"),
    ])
    api.interface("IDXGIFactory2", base="IDXGIFactory1", header="dxgi1_2",
                  uuid="50c83a1c-e072-4c48-87b0-3630fa36a6d0", methods=[
        (627, "BOOL IsWindowedStereoEnabled()"),
        # Windows, core windows and composition targets are replaced on replay.
        (628, "HRESULT CreateSwapChainForHwnd(IUnknown *pDevice, HWND hWnd, "
              "const DXGI_SWAP_CHAIN_DESC1 *pDesc, "
              "[opt] const DXGI_SWAP_CHAIN_FULLSCREEN_DESC *pFullscreenDesc, "
              "[opt] IDXGIOutput *pRestrictToOutput, [out] IDXGISwapChain1 **ppSwapChain)"),
        (629, "HRESULT CreateSwapChainForCoreWindow(IUnknown *pDevice, "
              "IUnknown *pWindow, const DXGI_SWAP_CHAIN_DESC1 *pDesc, "
              "[opt] IDXGIOutput *pRestrictToOutput, [out] IDXGISwapChain1 **ppSwapChain)"),
        (630, "HRESULT GetSharedResourceAdapterLuid(HANDLE hResource, "
              "[out] LUID *pLuid)"),
        (631, ""
              "HRESULT RegisterStereoStatusWindow(HWND WindowHandle, UINT wMsg, "
              "[out] DWORD *pdwCookie)"),
        (632, ""
              "HRESULT RegisterStereoStatusEvent(HANDLE hEvent, [out] DWORD *pdwCookie)"),
        (633, "void UnregisterStereoStatus(DWORD dwCookie)"),
        (634, ""
              "HRESULT RegisterOcclusionStatusWindow(HWND WindowHandle, UINT wMsg, "
              "[out] DWORD *pdwCookie)"),
        (635, "HRESULT RegisterOcclusionStatusEvent(HANDLE hEvent, "
              "[out] DWORD *pdwCookie)"),
        (636, "void UnregisterOcclusionStatus(DWORD dwCookie)"),
        (637, "HRESULT CreateSwapChainForComposition(IUnknown *pDevice, "
              "const DXGI_SWAP_CHAIN_DESC1 *pDesc, [opt] IDXGIOutput *pRestrictToOutput, "
              "[out] IDXGISwapChain1 **ppSwapChain)"),
    ])
    api.interface("IDXGIAdapter2", base="IDXGIAdapter1", header="dxgi1_2",
                  uuid="0aa1ae0a-fa0e-4b84-8644-e05ff8e5acb5", methods=[
        (638, "HRESULT GetDesc2([out] DXGI_ADAPTER_DESC2 *pDesc)"),
    ])
    api.interface("IDXGIOutput1", base="IDXGIOutput", header="dxgi1_2",
                  uuid="00cddea8-939b-4b83-a340-a685226666cc", methods=[
        (639, "[hand_written=replay(lists the modes the trace recorded)] "
              "HRESULT GetDisplayModeList1(DXGI_FORMAT EnumFormat, UINT Flags, "
              "[inout] UINT *pNumModes, [out, opt, count=*pNumModes] DXGI_MODE_DESC1 *pDesc)"),
        (640, "HRESULT FindClosestMatchingMode1(const DXGI_MODE_DESC1 *pModeToMatch, "
              "[out] DXGI_MODE_DESC1 *pClosestMatch, [opt] IUnknown *pConcernedDevice)"),
        (641, "HRESULT GetDisplaySurfaceData1(IDXGIResource *pDestination)"),
        (642, "HRESULT DuplicateOutput(IUnknown *pDevice, "
              "[out] IDXGIOutputDuplication **ppOutputDuplication)"),
    ])

    # The Windows SDK declares this one in dxgi1_3.h, which the table has no
    # header for; it lives with the DXGI 1.2 items here.
    api.function(690, "[hand_written=capture] "
                      "HRESULT WINAPI CreateDXGIFactory2(UINT Flags, REFIID riid, "
                      "[out, iid=riid] void **ppFactory)", header="dxgi1_2")
