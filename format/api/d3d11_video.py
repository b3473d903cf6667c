"""The D3D11 video interfaces of d3d11.h and the types they use (those of
d3d11_1.h and d3d11_4.h are in d3d11_video1.py).

Decoders, video processors, their views, crypto sessions and authenticated
channels.  Every interface here is declared only (no call ids): programs that
use them compile against our headers, but the runtime answers E_NOINTERFACE.

Spelling notes, all ABI-identical to the SDK:
- USHORT and ULONGLONG fields are spelled UINT16 and UINT64, the SDK's
  lower-case int and float are spelled INT and FLOAT (the table and the schema
  generator know those names).
- Arrays of D3D11_OMAC_SIZE bytes are spelled with the number, which the
  FlatBuffers schema needs.
- The table has no bitfield syntax: the few SDK types with bitfields are
  spelled as C in a typedef (see _bitfield_type); the ABI checks do not cover
  those, nothing holds them by value except each other.
- ID3D11VideoDevice2, ID3D11VideoContext3, the d3d11_4.h types only they use
  and D3D11_CONTENT_PROTECTION_CAPS_HARDWARE_DRM_COMMUNICATION_MULTI_THREADED
  are not in mingw-w64's headers: the ABI checks hold them against ours only
  (_MISSING_FROM_MINGW in codegen/abi_checks.py).
- The SDK spells D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_FLAGS as shifts by
  the D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT indices; the table has their
  values.
"""

import textwrap


def declare(api) -> None:
    _d3d11_enums(api)
    _d3d11_structs(api)
    _d3d11_authenticated_structs(api)
    _d3d11_interfaces(api)
    _d3d11_video_context(api)
    _d3d11_video_device(api)


# ---------------------------------------------------------------------------
# d3d11.h: constants and enums.

def _d3d11_enums(api) -> None:
    h = "d3d11"
    api.constants_block(header=h, text="""
        D3D11_OMAC_SIZE 16
    """)
    api.enum("D3D11_VIDEO_DECODER_BUFFER_TYPE", header=h, values="""
        D3D11_VIDEO_DECODER_BUFFER_PICTURE_PARAMETERS = 0,
        D3D11_VIDEO_DECODER_BUFFER_MACROBLOCK_CONTROL = 1,
        D3D11_VIDEO_DECODER_BUFFER_RESIDUAL_DIFFERENCE = 2,
        D3D11_VIDEO_DECODER_BUFFER_DEBLOCKING_CONTROL = 3,
        D3D11_VIDEO_DECODER_BUFFER_INVERSE_QUANTIZATION_MATRIX = 4,
        D3D11_VIDEO_DECODER_BUFFER_SLICE_CONTROL = 5, D3D11_VIDEO_DECODER_BUFFER_BITSTREAM = 6,
        D3D11_VIDEO_DECODER_BUFFER_MOTION_VECTOR = 7, D3D11_VIDEO_DECODER_BUFFER_FILM_GRAIN = 8""")
    api.enum("D3D11_VIDEO_FRAME_FORMAT", header=h, values="""
        D3D11_VIDEO_FRAME_FORMAT_PROGRESSIVE = 0,
        D3D11_VIDEO_FRAME_FORMAT_INTERLACED_TOP_FIELD_FIRST = 1,
        D3D11_VIDEO_FRAME_FORMAT_INTERLACED_BOTTOM_FIELD_FIRST = 2""")
    api.enum("D3D11_VIDEO_USAGE", header=h, values="""
        D3D11_VIDEO_USAGE_PLAYBACK_NORMAL = 0, D3D11_VIDEO_USAGE_OPTIMAL_SPEED = 1,
        D3D11_VIDEO_USAGE_OPTIMAL_QUALITY = 2""")

    # Video processor capabilities (D3D11_VIDEO_PROCESSOR_CAPS and friends).
    api.enum("D3D11_VIDEO_PROCESSOR_DEVICE_CAPS", header=h, flags=True, values="""
        D3D11_VIDEO_PROCESSOR_DEVICE_CAPS_LINEAR_SPACE = 0x1,
        D3D11_VIDEO_PROCESSOR_DEVICE_CAPS_xvYCC = 0x2,
        D3D11_VIDEO_PROCESSOR_DEVICE_CAPS_RGB_RANGE_CONVERSION = 0x4,
        D3D11_VIDEO_PROCESSOR_DEVICE_CAPS_YCbCr_MATRIX_CONVERSION = 0x8,
        D3D11_VIDEO_PROCESSOR_DEVICE_CAPS_NOMINAL_RANGE = 0x10""")
    api.enum("D3D11_VIDEO_PROCESSOR_FEATURE_CAPS", header=h, flags=True, values="""
        D3D11_VIDEO_PROCESSOR_FEATURE_CAPS_ALPHA_FILL = 0x1,
        D3D11_VIDEO_PROCESSOR_FEATURE_CAPS_CONSTRICTION = 0x2,
        D3D11_VIDEO_PROCESSOR_FEATURE_CAPS_LUMA_KEY = 0x4,
        D3D11_VIDEO_PROCESSOR_FEATURE_CAPS_ALPHA_PALETTE = 0x8,
        D3D11_VIDEO_PROCESSOR_FEATURE_CAPS_LEGACY = 0x10,
        D3D11_VIDEO_PROCESSOR_FEATURE_CAPS_STEREO = 0x20,
        D3D11_VIDEO_PROCESSOR_FEATURE_CAPS_ROTATION = 0x40,
        D3D11_VIDEO_PROCESSOR_FEATURE_CAPS_ALPHA_STREAM = 0x80,
        D3D11_VIDEO_PROCESSOR_FEATURE_CAPS_PIXEL_ASPECT_RATIO = 0x100,
        D3D11_VIDEO_PROCESSOR_FEATURE_CAPS_MIRROR = 0x200,
        D3D11_VIDEO_PROCESSOR_FEATURE_CAPS_SHADER_USAGE = 0x400,
        D3D11_VIDEO_PROCESSOR_FEATURE_CAPS_METADATA_HDR10 = 0x800""")
    api.enum("D3D11_VIDEO_PROCESSOR_FILTER_CAPS", header=h, flags=True, values="""
        D3D11_VIDEO_PROCESSOR_FILTER_CAPS_BRIGHTNESS = 0x1,
        D3D11_VIDEO_PROCESSOR_FILTER_CAPS_CONTRAST = 0x2,
        D3D11_VIDEO_PROCESSOR_FILTER_CAPS_HUE = 0x4,
        D3D11_VIDEO_PROCESSOR_FILTER_CAPS_SATURATION = 0x8,
        D3D11_VIDEO_PROCESSOR_FILTER_CAPS_NOISE_REDUCTION = 0x10,
        D3D11_VIDEO_PROCESSOR_FILTER_CAPS_EDGE_ENHANCEMENT = 0x20,
        D3D11_VIDEO_PROCESSOR_FILTER_CAPS_ANAMORPHIC_SCALING = 0x40,
        D3D11_VIDEO_PROCESSOR_FILTER_CAPS_STEREO_ADJUSTMENT = 0x80""")
    api.enum("D3D11_VIDEO_PROCESSOR_FORMAT_CAPS", header=h, flags=True, values="""
        D3D11_VIDEO_PROCESSOR_FORMAT_CAPS_RGB_INTERLACED = 0x1,
        D3D11_VIDEO_PROCESSOR_FORMAT_CAPS_RGB_PROCAMP = 0x2,
        D3D11_VIDEO_PROCESSOR_FORMAT_CAPS_RGB_LUMA_KEY = 0x4,
        D3D11_VIDEO_PROCESSOR_FORMAT_CAPS_PALETTE_INTERLACED = 0x8""")
    api.enum("D3D11_VIDEO_PROCESSOR_AUTO_STREAM_CAPS", header=h, flags=True, values="""
        D3D11_VIDEO_PROCESSOR_AUTO_STREAM_CAPS_DENOISE = 0x1,
        D3D11_VIDEO_PROCESSOR_AUTO_STREAM_CAPS_DERINGING = 0x2,
        D3D11_VIDEO_PROCESSOR_AUTO_STREAM_CAPS_EDGE_ENHANCEMENT = 0x4,
        D3D11_VIDEO_PROCESSOR_AUTO_STREAM_CAPS_COLOR_CORRECTION = 0x8,
        D3D11_VIDEO_PROCESSOR_AUTO_STREAM_CAPS_FLESH_TONE_MAPPING = 0x10,
        D3D11_VIDEO_PROCESSOR_AUTO_STREAM_CAPS_IMAGE_STABILIZATION = 0x20,
        D3D11_VIDEO_PROCESSOR_AUTO_STREAM_CAPS_SUPER_RESOLUTION = 0x40,
        D3D11_VIDEO_PROCESSOR_AUTO_STREAM_CAPS_ANAMORPHIC_SCALING = 0x80""")
    api.enum("D3D11_VIDEO_PROCESSOR_STEREO_CAPS", header=h, flags=True, values="""
        D3D11_VIDEO_PROCESSOR_STEREO_CAPS_MONO_OFFSET = 0x1,
        D3D11_VIDEO_PROCESSOR_STEREO_CAPS_ROW_INTERLEAVED = 0x2,
        D3D11_VIDEO_PROCESSOR_STEREO_CAPS_COLUMN_INTERLEAVED = 0x4,
        D3D11_VIDEO_PROCESSOR_STEREO_CAPS_CHECKERBOARD = 0x8,
        D3D11_VIDEO_PROCESSOR_STEREO_CAPS_FLIP_MODE = 0x10""")
    api.enum("D3D11_VIDEO_PROCESSOR_PROCESSOR_CAPS", header=h, flags=True, values="""
        D3D11_VIDEO_PROCESSOR_PROCESSOR_CAPS_DEINTERLACE_BLEND = 0x1,
        D3D11_VIDEO_PROCESSOR_PROCESSOR_CAPS_DEINTERLACE_BOB = 0x2,
        D3D11_VIDEO_PROCESSOR_PROCESSOR_CAPS_DEINTERLACE_ADAPTIVE = 0x4,
        D3D11_VIDEO_PROCESSOR_PROCESSOR_CAPS_DEINTERLACE_MOTION_COMPENSATION = 0x8,
        D3D11_VIDEO_PROCESSOR_PROCESSOR_CAPS_INVERSE_TELECINE = 0x10,
        D3D11_VIDEO_PROCESSOR_PROCESSOR_CAPS_FRAME_RATE_CONVERSION = 0x20""")
    api.enum("D3D11_VIDEO_PROCESSOR_ITELECINE_CAPS", header=h, flags=True, values="""
        D3D11_VIDEO_PROCESSOR_ITELECINE_CAPS_32 = 0x1,
        D3D11_VIDEO_PROCESSOR_ITELECINE_CAPS_22 = 0x2,
        D3D11_VIDEO_PROCESSOR_ITELECINE_CAPS_2224 = 0x4,
        D3D11_VIDEO_PROCESSOR_ITELECINE_CAPS_2332 = 0x8,
        D3D11_VIDEO_PROCESSOR_ITELECINE_CAPS_32322 = 0x10,
        D3D11_VIDEO_PROCESSOR_ITELECINE_CAPS_55 = 0x20,
        D3D11_VIDEO_PROCESSOR_ITELECINE_CAPS_64 = 0x40,
        D3D11_VIDEO_PROCESSOR_ITELECINE_CAPS_87 = 0x80,
        D3D11_VIDEO_PROCESSOR_ITELECINE_CAPS_222222222223 = 0x100,
        D3D11_VIDEO_PROCESSOR_ITELECINE_CAPS_OTHER = 0x80000000""")
    api.enum("D3D11_CONTENT_PROTECTION_CAPS", header=h, flags=True, values="""
        D3D11_CONTENT_PROTECTION_CAPS_SOFTWARE = 0x1, D3D11_CONTENT_PROTECTION_CAPS_HARDWARE = 0x2,
        D3D11_CONTENT_PROTECTION_CAPS_PROTECTION_ALWAYS_ON = 0x4,
        D3D11_CONTENT_PROTECTION_CAPS_PARTIAL_DECRYPTION = 0x8,
        D3D11_CONTENT_PROTECTION_CAPS_CONTENT_KEY = 0x10,
        D3D11_CONTENT_PROTECTION_CAPS_FRESHEN_SESSION_KEY = 0x20,
        D3D11_CONTENT_PROTECTION_CAPS_ENCRYPTED_READ_BACK = 0x40,
        D3D11_CONTENT_PROTECTION_CAPS_ENCRYPTED_READ_BACK_KEY = 0x80,
        D3D11_CONTENT_PROTECTION_CAPS_SEQUENTIAL_CTR_IV = 0x100,
        D3D11_CONTENT_PROTECTION_CAPS_ENCRYPT_SLICEDATA_ONLY = 0x200,
        D3D11_CONTENT_PROTECTION_CAPS_DECRYPTION_BLT = 0x400,
        D3D11_CONTENT_PROTECTION_CAPS_HARDWARE_PROTECT_UNCOMPRESSED = 0x800,
        D3D11_CONTENT_PROTECTION_CAPS_HARDWARE_PROTECTED_MEMORY_PAGEABLE = 0x1000,
        D3D11_CONTENT_PROTECTION_CAPS_HARDWARE_TEARDOWN = 0x2000,
        D3D11_CONTENT_PROTECTION_CAPS_HARDWARE_DRM_COMMUNICATION = 0x4000,
        D3D11_CONTENT_PROTECTION_CAPS_HARDWARE_DRM_COMMUNICATION_MULTI_THREADED = 0x8000""")

    # Video processor state.
    api.enum("D3D11_VIDEO_PROCESSOR_FILTER", header=h, values="""
        D3D11_VIDEO_PROCESSOR_FILTER_BRIGHTNESS = 0, D3D11_VIDEO_PROCESSOR_FILTER_CONTRAST = 1,
        D3D11_VIDEO_PROCESSOR_FILTER_HUE = 2, D3D11_VIDEO_PROCESSOR_FILTER_SATURATION = 3,
        D3D11_VIDEO_PROCESSOR_FILTER_NOISE_REDUCTION = 4,
        D3D11_VIDEO_PROCESSOR_FILTER_EDGE_ENHANCEMENT = 5,
        D3D11_VIDEO_PROCESSOR_FILTER_ANAMORPHIC_SCALING = 6,
        D3D11_VIDEO_PROCESSOR_FILTER_STEREO_ADJUSTMENT = 7""")
    api.enum("D3D11_VIDEO_PROCESSOR_ALPHA_FILL_MODE", header=h, values="""
        D3D11_VIDEO_PROCESSOR_ALPHA_FILL_MODE_OPAQUE = 0,
        D3D11_VIDEO_PROCESSOR_ALPHA_FILL_MODE_BACKGROUND = 1,
        D3D11_VIDEO_PROCESSOR_ALPHA_FILL_MODE_DESTINATION = 2,
        D3D11_VIDEO_PROCESSOR_ALPHA_FILL_MODE_SOURCE_STREAM = 3""")
    api.enum("D3D11_VIDEO_PROCESSOR_OUTPUT_RATE", header=h, values="""
        D3D11_VIDEO_PROCESSOR_OUTPUT_RATE_NORMAL = 0, D3D11_VIDEO_PROCESSOR_OUTPUT_RATE_HALF = 1,
        D3D11_VIDEO_PROCESSOR_OUTPUT_RATE_CUSTOM = 2""")
    api.enum("D3D11_VIDEO_PROCESSOR_STEREO_FORMAT", header=h, values="""
        D3D11_VIDEO_PROCESSOR_STEREO_FORMAT_MONO = 0,
        D3D11_VIDEO_PROCESSOR_STEREO_FORMAT_HORIZONTAL = 1,
        D3D11_VIDEO_PROCESSOR_STEREO_FORMAT_VERTICAL = 2,
        D3D11_VIDEO_PROCESSOR_STEREO_FORMAT_SEPARATE = 3,
        D3D11_VIDEO_PROCESSOR_STEREO_FORMAT_MONO_OFFSET = 4,
        D3D11_VIDEO_PROCESSOR_STEREO_FORMAT_ROW_INTERLEAVED = 5,
        D3D11_VIDEO_PROCESSOR_STEREO_FORMAT_COLUMN_INTERLEAVED = 6,
        D3D11_VIDEO_PROCESSOR_STEREO_FORMAT_CHECKERBOARD = 7""")
    api.enum("D3D11_VIDEO_PROCESSOR_STEREO_FLIP_MODE", header=h, values="""
        D3D11_VIDEO_PROCESSOR_STEREO_FLIP_NONE = 0, D3D11_VIDEO_PROCESSOR_STEREO_FLIP_FRAME0 = 1,
        D3D11_VIDEO_PROCESSOR_STEREO_FLIP_FRAME1 = 2""")
    api.enum("D3D11_VIDEO_PROCESSOR_ROTATION", header=h, values="""
        D3D11_VIDEO_PROCESSOR_ROTATION_IDENTITY = 0, D3D11_VIDEO_PROCESSOR_ROTATION_90 = 1,
        D3D11_VIDEO_PROCESSOR_ROTATION_180 = 2, D3D11_VIDEO_PROCESSOR_ROTATION_270 = 3""")
    api.enum("D3D11_VIDEO_PROCESSOR_NOMINAL_RANGE", header=h, values="""
        D3D11_VIDEO_PROCESSOR_NOMINAL_RANGE_UNDEFINED = 0,
        D3D11_VIDEO_PROCESSOR_NOMINAL_RANGE_16_235 = 1,
        D3D11_VIDEO_PROCESSOR_NOMINAL_RANGE_0_255 = 2""")

    # Content protection.
    api.enum("D3D11_AUTHENTICATED_CHANNEL_TYPE", header=h, values="""
        D3D11_AUTHENTICATED_CHANNEL_D3D11 = 1, D3D11_AUTHENTICATED_CHANNEL_DRIVER_SOFTWARE = 2,
        D3D11_AUTHENTICATED_CHANNEL_DRIVER_HARDWARE = 3""")
    api.enum("D3D11_AUTHENTICATED_PROCESS_IDENTIFIER_TYPE", header=h, values="""
        D3D11_PROCESSIDTYPE_UNKNOWN = 0, D3D11_PROCESSIDTYPE_DWM = 1,
        D3D11_PROCESSIDTYPE_HANDLE = 2""")
    # A bus type in the low bits, or'ed with one implementation modifier.
    api.enum("D3D11_BUS_TYPE", header=h, values="""
        D3D11_BUS_TYPE_OTHER = 0, D3D11_BUS_TYPE_PCI = 0x1, D3D11_BUS_TYPE_PCIX = 0x2,
        D3D11_BUS_TYPE_PCIEXPRESS = 0x3, D3D11_BUS_TYPE_AGP = 0x4,
        D3D11_BUS_IMPL_MODIFIER_INSIDE_OF_CHIPSET = 0x10000,
        D3D11_BUS_IMPL_MODIFIER_TRACKS_ON_MOTHER_BOARD_TO_CHIP = 0x20000,
        D3D11_BUS_IMPL_MODIFIER_TRACKS_ON_MOTHER_BOARD_TO_SOCKET = 0x30000,
        D3D11_BUS_IMPL_MODIFIER_DAUGHTER_BOARD_CONNECTOR = 0x40000,
        D3D11_BUS_IMPL_MODIFIER_DAUGHTER_BOARD_CONNECTOR_INSIDE_OF_NUAE = 0x50000,
        D3D11_BUS_IMPL_MODIFIER_NON_STANDARD = 0x80000000""")

    # View dimensions.
    api.enum("D3D11_VDOV_DIMENSION", header=h, values="""
        D3D11_VDOV_DIMENSION_UNKNOWN = 0, D3D11_VDOV_DIMENSION_TEXTURE2D = 1""")
    api.enum("D3D11_VPIV_DIMENSION", header=h, values="""
        D3D11_VPIV_DIMENSION_UNKNOWN = 0, D3D11_VPIV_DIMENSION_TEXTURE2D = 1""")
    api.enum("D3D11_VPOV_DIMENSION", header=h, values="""
        D3D11_VPOV_DIMENSION_UNKNOWN = 0, D3D11_VPOV_DIMENSION_TEXTURE2D = 1,
        D3D11_VPOV_DIMENSION_TEXTURE2DARRAY = 2""")


# ---------------------------------------------------------------------------
# d3d11.h: structs, each after what it uses.

def _d3d11_structs(api) -> None:
    h = "d3d11"
    # windef.h's SIZE, which VideoProcessorSetOutputConstriction takes by
    # value: the Linux platform headers do not define it.
    api.struct("SIZE", header=h, fields="LONG cx; LONG cy;")

    # Decoders.
    api.struct("D3D11_VIDEO_DECODER_DESC", header=h, fields="""
        GUID Guid; UINT SampleWidth; UINT SampleHeight; DXGI_FORMAT OutputFormat;""")
    api.struct("D3D11_VIDEO_DECODER_CONFIG", header=h, fields="""
        GUID guidConfigBitstreamEncryption; GUID guidConfigMBcontrolEncryption;
        GUID guidConfigResidDiffEncryption; UINT ConfigBitstreamRaw;
        UINT ConfigMBcontrolRasterOrder; UINT ConfigResidDiffHost; UINT ConfigSpatialResid8;
        UINT ConfigResid8Subtraction; UINT ConfigSpatialHost8or9Clipping;
        UINT ConfigSpatialResidInterleaved; UINT ConfigIntraResidUnsigned;
        UINT ConfigResidDiffAccelerator; UINT ConfigHostInverseScan; UINT ConfigSpecificIDCT;
        UINT Config4GroupedCoefs; UINT16 ConfigMinRenderTargetBuffCount;
        UINT16 ConfigDecoderSpecific;""")

    # Video processor enumeration and capabilities.
    api.struct("D3D11_VIDEO_PROCESSOR_CONTENT_DESC", header=h, fields="""
        D3D11_VIDEO_FRAME_FORMAT InputFrameFormat; DXGI_RATIONAL InputFrameRate;
        UINT InputWidth; UINT InputHeight; DXGI_RATIONAL OutputFrameRate;
        UINT OutputWidth; UINT OutputHeight; D3D11_VIDEO_USAGE Usage;""")
    api.struct("D3D11_VIDEO_PROCESSOR_CAPS", header=h, fields="""
        [enum=D3D11_VIDEO_PROCESSOR_DEVICE_CAPS] UINT DeviceCaps;
        [enum=D3D11_VIDEO_PROCESSOR_FEATURE_CAPS] UINT FeatureCaps;
        [enum=D3D11_VIDEO_PROCESSOR_FILTER_CAPS] UINT FilterCaps;
        [enum=D3D11_VIDEO_PROCESSOR_FORMAT_CAPS] UINT InputFormatCaps;
        [enum=D3D11_VIDEO_PROCESSOR_AUTO_STREAM_CAPS] UINT AutoStreamCaps;
        [enum=D3D11_VIDEO_PROCESSOR_STEREO_CAPS] UINT StereoCaps;
        UINT RateConversionCapsCount; UINT MaxInputStreams; UINT MaxStreamStates;""")
    api.struct("D3D11_VIDEO_PROCESSOR_RATE_CONVERSION_CAPS", header=h, fields="""
        UINT PastFrames; UINT FutureFrames;
        [enum=D3D11_VIDEO_PROCESSOR_PROCESSOR_CAPS] UINT ProcessorCaps;
        [enum=D3D11_VIDEO_PROCESSOR_ITELECINE_CAPS] UINT ITelecineCaps; UINT CustomRateCount;""")
    api.struct("D3D11_VIDEO_CONTENT_PROTECTION_CAPS", header=h, fields="""
        [enum=D3D11_CONTENT_PROTECTION_CAPS] UINT Caps; UINT KeyExchangeTypeCount;
        UINT BlockAlignmentSize; UINT64 ProtectedMemorySize;""")
    api.struct("D3D11_VIDEO_PROCESSOR_CUSTOM_RATE", header=h, fields="""
        DXGI_RATIONAL CustomRate; UINT OutputFrames; BOOL InputInterlaced;
        UINT InputFramesOrFields;""")
    api.struct("D3D11_VIDEO_PROCESSOR_FILTER_RANGE", header=h, fields="""
        INT Minimum; INT Maximum; INT Default; FLOAT Multiplier;""")

    # Decoding.
    api.struct("D3D11_VIDEO_DECODER_EXTENSION", header=h, fields="""
        UINT Function; [bytes=PrivateInputDataSize] void *pPrivateInputData;
        UINT PrivateInputDataSize; [bytes=PrivateOutputDataSize] void *pPrivateOutputData;
        UINT PrivateOutputDataSize; UINT ResourceCount;
        [count=ResourceCount] ID3D11Resource **ppResourceList;""")
    api.struct("D3D11_ENCRYPTED_BLOCK_INFO", header=h, fields="""
        UINT NumEncryptedBytesAtBeginning; UINT NumBytesInSkipPattern;
        UINT NumBytesInEncryptPattern;""")
    api.struct("D3D11_VIDEO_DECODER_BUFFER_DESC", header=h, fields="""
        D3D11_VIDEO_DECODER_BUFFER_TYPE BufferType; UINT BufferIndex; UINT DataOffset;
        UINT DataSize; UINT FirstMBaddress; UINT NumMBsInBuffer; UINT Width; UINT Height;
        UINT Stride; UINT ReservedBits; [bytes=IVSize] void *pIV; UINT IVSize;
        BOOL PartialEncryption; D3D11_ENCRYPTED_BLOCK_INFO EncryptedBlockInfo;""")

    # View descriptions.
    api.struct("D3D11_TEX2D_VDOV", header=h, fields="UINT ArraySlice;")
    api.struct("D3D11_VIDEO_DECODER_OUTPUT_VIEW_DESC", header=h, fields="""
        GUID DecodeProfile; D3D11_VDOV_DIMENSION ViewDimension;
        union { D3D11_TEX2D_VDOV Texture2D; };""")
    api.struct("D3D11_TEX2D_VPIV", header=h, fields="UINT MipSlice; UINT ArraySlice;")
    api.struct("D3D11_VIDEO_PROCESSOR_INPUT_VIEW_DESC", header=h, fields="""
        UINT FourCC; D3D11_VPIV_DIMENSION ViewDimension;
        union { D3D11_TEX2D_VPIV Texture2D; };""")
    api.struct("D3D11_TEX2D_VPOV", header=h, fields="UINT MipSlice;")
    api.struct("D3D11_TEX2D_ARRAY_VPOV", header=h, fields="""
        UINT MipSlice; UINT FirstArraySlice; UINT ArraySize;""")
    api.struct("D3D11_VIDEO_PROCESSOR_OUTPUT_VIEW_DESC", header=h, fields="""
        D3D11_VPOV_DIMENSION ViewDimension;
        union { D3D11_TEX2D_VPOV Texture2D; D3D11_TEX2D_ARRAY_VPOV Texture2DArray; };""")

    # Video processing.
    api.struct("D3D11_VIDEO_COLOR_YCbCrA", header=h, fields="FLOAT Y; FLOAT Cb; FLOAT Cr; FLOAT A;")
    api.struct("D3D11_VIDEO_COLOR_RGBA", header=h, fields="FLOAT R; FLOAT G; FLOAT B; FLOAT A;")
    api.struct("D3D11_VIDEO_COLOR", header=h, fields="""
        union { D3D11_VIDEO_COLOR_YCbCrA YCbCr; D3D11_VIDEO_COLOR_RGBA RGBA; };""")
    _bitfield_type(api, "struct", "D3D11_VIDEO_PROCESSOR_COLOR_SPACE", """
        UINT Usage : 1;
        UINT RGB_Range : 1;
        UINT YCbCr_Matrix : 1;
        UINT YCbCr_xvYCC : 1;
        UINT Nominal_Range : 2;
        UINT Reserved : 26;""")
    api.struct("D3D11_VIDEO_PROCESSOR_STREAM", header=h, fields="""
        BOOL Enable; UINT OutputIndex; UINT InputFrameOrField; UINT PastFrames;
        UINT FutureFrames;
        [count=PastFrames] ID3D11VideoProcessorInputView **ppPastSurfaces;
        ID3D11VideoProcessorInputView *pInputSurface;
        [count=FutureFrames] ID3D11VideoProcessorInputView **ppFutureSurfaces;
        [count=PastFrames] ID3D11VideoProcessorInputView **ppPastSurfacesRight;
        ID3D11VideoProcessorInputView *pInputSurfaceRight;
        [count=FutureFrames] ID3D11VideoProcessorInputView **ppFutureSurfacesRight;""")


def _bitfield_type(api, kind: str, name: str, members: str) -> None:
    """A struct or union with bitfields, which the table's field syntax cannot
    spell: declared as a typedef of its C text (members: one a line), so that
    the headers have it as the SDK does.  No layout is computed for it: hold it
    only by pointer, or inside another _bitfield_type."""
    body = "\n".join("    " + line for line in textwrap.dedent(members).strip().splitlines())
    api.typedef(name, f"{kind} {name} {{\n{body}\n}}", header="d3d11")


# ---------------------------------------------------------------------------
# d3d11.h: the input and output structs of QueryAuthenticatedChannel and
# ConfigureAuthenticatedChannel (passed as void *), each after what it uses.

def _d3d11_authenticated_structs(api) -> None:
    h = "d3d11"
    api.struct("D3D11_OMAC", header=h, fields="BYTE Omac[16];")
    api.struct("D3D11_AUTHENTICATED_QUERY_INPUT", header=h, fields="""
        GUID QueryType; HANDLE hChannel; UINT SequenceNumber;""")
    api.struct("D3D11_AUTHENTICATED_QUERY_OUTPUT", header=h, fields="""
        D3D11_OMAC omac; GUID QueryType; HANDLE hChannel; UINT SequenceNumber;
        HRESULT ReturnCode;""")
    _bitfield_type(api, "union", "D3D11_AUTHENTICATED_PROTECTION_FLAGS", """
        struct {
            UINT ProtectionEnabled : 1;
            UINT OverlayOrFullscreenRequired : 1;
            UINT Reserved : 30;
        } Flags;
        UINT Value;""")
    _bitfield_type(api, "struct", "D3D11_AUTHENTICATED_QUERY_PROTECTION_OUTPUT", """
        D3D11_AUTHENTICATED_QUERY_OUTPUT Output;
        D3D11_AUTHENTICATED_PROTECTION_FLAGS ProtectionFlags;""")
    # The other queries: the query's input or output header, then the data.
    queries = (
        ("CHANNEL_TYPE_OUTPUT", "D3D11_AUTHENTICATED_CHANNEL_TYPE ChannelType;"),
        ("DEVICE_HANDLE_OUTPUT", "HANDLE DeviceHandle;"),
        ("CRYPTO_SESSION_INPUT", "HANDLE DecoderHandle;"),
        ("CRYPTO_SESSION_OUTPUT",
         "HANDLE DecoderHandle; HANDLE CryptoSessionHandle; HANDLE DeviceHandle;"),
        ("RESTRICTED_SHARED_RESOURCE_PROCESS_COUNT_OUTPUT",
         "UINT RestrictedSharedResourceProcessCount;"),
        ("RESTRICTED_SHARED_RESOURCE_PROCESS_INPUT", "UINT ProcessIndex;"),
        ("RESTRICTED_SHARED_RESOURCE_PROCESS_OUTPUT",
         "UINT ProcessIndex; D3D11_AUTHENTICATED_PROCESS_IDENTIFIER_TYPE ProcessIdentifier; "
         "HANDLE ProcessHandle;"),
        ("UNRESTRICTED_PROTECTED_SHARED_RESOURCE_COUNT_OUTPUT",
         "UINT UnrestrictedProtectedSharedResourceCount;"),
        ("OUTPUT_ID_COUNT_INPUT", "HANDLE DeviceHandle; HANDLE CryptoSessionHandle;"),
        ("OUTPUT_ID_COUNT_OUTPUT",
         "HANDLE DeviceHandle; HANDLE CryptoSessionHandle; UINT OutputIDCount;"),
        ("OUTPUT_ID_INPUT",
         "HANDLE DeviceHandle; HANDLE CryptoSessionHandle; UINT OutputIDIndex;"),
        ("OUTPUT_ID_OUTPUT", "HANDLE DeviceHandle; HANDLE CryptoSessionHandle; "
         "UINT OutputIDIndex; UINT64 OutputID;"),
        ("ACCESSIBILITY_OUTPUT", "D3D11_BUS_TYPE BusType; BOOL AccessibleInContiguousBlocks; "
         "BOOL AccessibleInNonContiguousBlocks;"),
        ("ACCESSIBILITY_ENCRYPTION_GUID_COUNT_OUTPUT", "UINT EncryptionGuidCount;"),
        ("ACCESSIBILITY_ENCRYPTION_GUID_INPUT", "UINT EncryptionGuidIndex;"),
        ("ACCESSIBILITY_ENCRYPTION_GUID_OUTPUT", "UINT EncryptionGuidIndex; GUID EncryptionGuid;"),
        ("CURRENT_ACCESSIBILITY_ENCRYPTION_OUTPUT", "GUID EncryptionGuid;"),
    )
    for suffix, fields in queries:
        head = ("D3D11_AUTHENTICATED_QUERY_INPUT Input;" if suffix.endswith("_INPUT")
                else "D3D11_AUTHENTICATED_QUERY_OUTPUT Output;")
        api.struct(f"D3D11_AUTHENTICATED_QUERY_{suffix}", header=h, fields=f"{head} {fields}")

    api.struct("D3D11_AUTHENTICATED_CONFIGURE_INPUT", header=h, fields="""
        D3D11_OMAC omac; GUID ConfigureType; HANDLE hChannel; UINT SequenceNumber;""")
    api.struct("D3D11_AUTHENTICATED_CONFIGURE_OUTPUT", header=h, fields="""
        D3D11_OMAC omac; GUID ConfigureType; HANDLE hChannel; UINT SequenceNumber;
        HRESULT ReturnCode;""")
    head = "D3D11_AUTHENTICATED_CONFIGURE_INPUT Parameters;"
    api.struct("D3D11_AUTHENTICATED_CONFIGURE_INITIALIZE_INPUT", header=h, fields=f"""
        {head} UINT StartSequenceQuery; UINT StartSequenceConfigure;""")
    _bitfield_type(api, "struct", "D3D11_AUTHENTICATED_CONFIGURE_PROTECTION_INPUT", """
        D3D11_AUTHENTICATED_CONFIGURE_INPUT Parameters;
        D3D11_AUTHENTICATED_PROTECTION_FLAGS Protections;""")
    api.struct("D3D11_AUTHENTICATED_CONFIGURE_CRYPTO_SESSION_INPUT", header=h, fields=f"""
        {head} HANDLE DecoderHandle; HANDLE CryptoSessionHandle; HANDLE DeviceHandle;""")
    api.struct("D3D11_AUTHENTICATED_CONFIGURE_SHARED_RESOURCE_INPUT", header=h, fields=f"""
        {head} D3D11_AUTHENTICATED_PROCESS_IDENTIFIER_TYPE ProcessType; HANDLE ProcessHandle;
        BOOL AllowAccess;""")
    api.struct("D3D11_AUTHENTICATED_CONFIGURE_ACCESSIBLE_ENCRYPTION_INPUT", header=h, fields=f"""
        {head} GUID EncryptionGuid;""")


# ---------------------------------------------------------------------------
# d3d11.h: the video objects, in the SDK's order.

def _d3d11_interfaces(api) -> None:
    h, child = "d3d11", "ID3D11DeviceChild"
    api.interface("ID3D11VideoDecoder", base=child, header=h,
                  uuid="3c9c5b51-995d-48d1-9b8d-fa5caeded65c", methods=[
        "HRESULT GetCreationParameters([out] D3D11_VIDEO_DECODER_DESC *pVideoDesc, "
        "[out] D3D11_VIDEO_DECODER_CONFIG *pConfig)",
        "HRESULT GetDriverHandle([out] HANDLE *pDriverHandle)",
    ])
    api.interface("ID3D11VideoProcessorEnumerator", base=child, header=h,
                  uuid="31627037-53ab-4200-9061-05faa9ab45f9", methods=[
        "HRESULT GetVideoProcessorContentDesc("
        "[out] D3D11_VIDEO_PROCESSOR_CONTENT_DESC *pContentDesc)",
        "HRESULT CheckVideoProcessorFormat(DXGI_FORMAT Format, [out] UINT *pFlags)",
        "HRESULT GetVideoProcessorCaps([out] D3D11_VIDEO_PROCESSOR_CAPS *pCaps)",
        "HRESULT GetVideoProcessorRateConversionCaps(UINT TypeIndex, "
        "[out] D3D11_VIDEO_PROCESSOR_RATE_CONVERSION_CAPS *pCaps)",
        "HRESULT GetVideoProcessorCustomRate(UINT TypeIndex, UINT CustomRateIndex, "
        "[out] D3D11_VIDEO_PROCESSOR_CUSTOM_RATE *pRate)",
        "HRESULT GetVideoProcessorFilterRange(D3D11_VIDEO_PROCESSOR_FILTER Filter, "
        "[out] D3D11_VIDEO_PROCESSOR_FILTER_RANGE *pRange)",
    ])
    api.interface("ID3D11VideoProcessor", base=child, header=h,
                  uuid="1d7b0652-185f-41c6-85ce-0c5be3d4ae6c", methods=[
        "void GetContentDesc([out] D3D11_VIDEO_PROCESSOR_CONTENT_DESC *pDesc)",
        "void GetRateConversionCaps([out] D3D11_VIDEO_PROCESSOR_RATE_CONVERSION_CAPS *pCaps)",
    ])
    api.interface("ID3D11AuthenticatedChannel", base=child, header=h,
                  uuid="3015a308-dcbd-47aa-a747-192486d14d4a", methods=[
        "HRESULT GetCertificateSize([out] UINT *pCertificateSize)",
        "HRESULT GetCertificate(UINT CertificateSize, "
        "[out, bytes=CertificateSize] BYTE *pCertificate)",
        "void GetChannelHandle([out] HANDLE *pChannelHandle)",
    ])
    api.interface("ID3D11CryptoSession", base=child, header=h,
                  uuid="9b32f9ad-bdcc-40a6-a39d-d5c865845720", methods=[
        "void GetCryptoType([out] GUID *pCryptoType)",
        "void GetDecoderProfile([out] GUID *pDecoderProfile)",
        "HRESULT GetCertificateSize([out] UINT *pCertificateSize)",
        "HRESULT GetCertificate(UINT CertificateSize, "
        "[out, bytes=CertificateSize] BYTE *pCertificate)",
        "void GetCryptoSessionHandle([out] HANDLE *pCryptoSessionHandle)",
    ])
    api.interface("ID3D11VideoDecoderOutputView", base="ID3D11View", header=h,
                  uuid="c2931aea-2a85-4f20-860f-fba1fd256e18", methods=[
        "void GetDesc([out] D3D11_VIDEO_DECODER_OUTPUT_VIEW_DESC *pDesc)",
    ])
    api.interface("ID3D11VideoProcessorInputView", base="ID3D11View", header=h,
                  uuid="11ec5a5f-51dc-4945-ab34-6e8c21300ea5", methods=[
        "void GetDesc([out] D3D11_VIDEO_PROCESSOR_INPUT_VIEW_DESC *pDesc)",
    ])
    api.interface("ID3D11VideoProcessorOutputView", base="ID3D11View", header=h,
                  uuid="a048285e-25a9-4527-bd93-d68b68c44254", methods=[
        "void GetDesc([out] D3D11_VIDEO_PROCESSOR_OUTPUT_VIEW_DESC *pDesc)",
    ])


def _d3d11_video_context(api) -> None:
    # Obtained by QueryInterface on the immediate context.  Most methods take
    # the video processor (and an input stream index) first.
    vp = "ID3D11VideoProcessor *pVideoProcessor"
    vps = f"{vp}, UINT StreamIndex"
    api.interface("ID3D11VideoContext", base="ID3D11DeviceChild", header="d3d11",
                  uuid="61f21c45-3c0e-4a74-9cea-67100d9ad5e4", methods=[
        # Decoding.
        "HRESULT GetDecoderBuffer(ID3D11VideoDecoder *pDecoder, "
        "D3D11_VIDEO_DECODER_BUFFER_TYPE Type, [out] UINT *pBufferSize, [out] void **ppBuffer)",
        "HRESULT ReleaseDecoderBuffer(ID3D11VideoDecoder *pDecoder, "
        "D3D11_VIDEO_DECODER_BUFFER_TYPE Type)",
        "HRESULT DecoderBeginFrame(ID3D11VideoDecoder *pDecoder, "
        "ID3D11VideoDecoderOutputView *pView, UINT ContentKeySize, "
        "[opt, bytes=ContentKeySize] const void *pContentKey)",
        "HRESULT DecoderEndFrame(ID3D11VideoDecoder *pDecoder)",
        "HRESULT SubmitDecoderBuffers(ID3D11VideoDecoder *pDecoder, UINT NumBuffers, "
        "[count=NumBuffers] const D3D11_VIDEO_DECODER_BUFFER_DESC *pBufferDesc)",
        "HRESULT DecoderExtension(ID3D11VideoDecoder *pDecoder, "
        "const D3D11_VIDEO_DECODER_EXTENSION *pExtensionData)",
        # Video processor output state.
        f"void VideoProcessorSetOutputTargetRect({vp}, BOOL Enable, [opt] const RECT *pRect)",
        f"void VideoProcessorSetOutputBackgroundColor({vp}, BOOL YCbCr, "
        "const D3D11_VIDEO_COLOR *pColor)",
        f"void VideoProcessorSetOutputColorSpace({vp}, "
        "const D3D11_VIDEO_PROCESSOR_COLOR_SPACE *pColorSpace)",
        f"void VideoProcessorSetOutputAlphaFillMode({vp}, "
        "D3D11_VIDEO_PROCESSOR_ALPHA_FILL_MODE AlphaFillMode, UINT StreamIndex)",
        f"void VideoProcessorSetOutputConstriction({vp}, BOOL Enable, SIZE Size)",
        f"void VideoProcessorSetOutputStereoMode({vp}, BOOL Enable)",
        f"HRESULT VideoProcessorSetOutputExtension({vp}, const GUID *pExtensionGuid, "
        "UINT DataSize, [bytes=DataSize] void *pData)",
        f"void VideoProcessorGetOutputTargetRect({vp}, [out] BOOL *Enabled, [out] RECT *pRect)",
        f"void VideoProcessorGetOutputBackgroundColor({vp}, [out] BOOL *pYCbCr, "
        "[out] D3D11_VIDEO_COLOR *pColor)",
        f"void VideoProcessorGetOutputColorSpace({vp}, "
        "[out] D3D11_VIDEO_PROCESSOR_COLOR_SPACE *pColorSpace)",
        f"void VideoProcessorGetOutputAlphaFillMode({vp}, "
        "[out] D3D11_VIDEO_PROCESSOR_ALPHA_FILL_MODE *pAlphaFillMode, [out] UINT *pStreamIndex)",
        f"void VideoProcessorGetOutputConstriction({vp}, [out] BOOL *pEnabled, "
        "[out] SIZE *pSize)",
        f"void VideoProcessorGetOutputStereoMode({vp}, [out] BOOL *pEnabled)",
        f"HRESULT VideoProcessorGetOutputExtension({vp}, const GUID *pExtensionGuid, "
        "UINT DataSize, [out, bytes=DataSize] void *pData)",
        # Video processor input stream state.
        f"void VideoProcessorSetStreamFrameFormat({vps}, D3D11_VIDEO_FRAME_FORMAT FrameFormat)",
        f"void VideoProcessorSetStreamColorSpace({vps}, "
        "const D3D11_VIDEO_PROCESSOR_COLOR_SPACE *pColorSpace)",
        f"void VideoProcessorSetStreamOutputRate({vps}, "
        "D3D11_VIDEO_PROCESSOR_OUTPUT_RATE OutputRate, BOOL RepeatFrame, "
        "[opt] const DXGI_RATIONAL *pCustomRate)",
        f"void VideoProcessorSetStreamSourceRect({vps}, BOOL Enable, [opt] const RECT *pRect)",
        f"void VideoProcessorSetStreamDestRect({vps}, BOOL Enable, [opt] const RECT *pRect)",
        f"void VideoProcessorSetStreamAlpha({vps}, BOOL Enable, FLOAT Alpha)",
        f"void VideoProcessorSetStreamPalette({vps}, UINT Count, "
        "[opt, count=Count] const UINT *pEntries)",
        f"void VideoProcessorSetStreamPixelAspectRatio({vps}, BOOL Enable, "
        "[opt] const DXGI_RATIONAL *pSourceAspectRatio, "
        "[opt] const DXGI_RATIONAL *pDestinationAspectRatio)",
        f"void VideoProcessorSetStreamLumaKey({vps}, BOOL Enable, FLOAT Lower, FLOAT Upper)",
        f"void VideoProcessorSetStreamStereoFormat({vps}, BOOL Enable, "
        "D3D11_VIDEO_PROCESSOR_STEREO_FORMAT Format, BOOL LeftViewFrame0, BOOL BaseViewFrame0, "
        "D3D11_VIDEO_PROCESSOR_STEREO_FLIP_MODE FlipMode, INT MonoOffset)",
        f"void VideoProcessorSetStreamAutoProcessingMode({vps}, BOOL Enable)",
        f"void VideoProcessorSetStreamFilter({vps}, D3D11_VIDEO_PROCESSOR_FILTER Filter, "
        "BOOL Enable, INT Level)",
        f"HRESULT VideoProcessorSetStreamExtension({vps}, const GUID *pExtensionGuid, "
        "UINT DataSize, [bytes=DataSize] void *pData)",
        f"void VideoProcessorGetStreamFrameFormat({vps}, "
        "[out] D3D11_VIDEO_FRAME_FORMAT *pFrameFormat)",
        f"void VideoProcessorGetStreamColorSpace({vps}, "
        "[out] D3D11_VIDEO_PROCESSOR_COLOR_SPACE *pColorSpace)",
        f"void VideoProcessorGetStreamOutputRate({vps}, "
        "[out] D3D11_VIDEO_PROCESSOR_OUTPUT_RATE *pOutputRate, [out] BOOL *pRepeatFrame, "
        "[out] DXGI_RATIONAL *pCustomRate)",
        f"void VideoProcessorGetStreamSourceRect({vps}, [out] BOOL *pEnabled, "
        "[out] RECT *pRect)",
        f"void VideoProcessorGetStreamDestRect({vps}, [out] BOOL *pEnabled, [out] RECT *pRect)",
        f"void VideoProcessorGetStreamAlpha({vps}, [out] BOOL *pEnabled, [out] FLOAT *pAlpha)",
        f"void VideoProcessorGetStreamPalette({vps}, UINT Count, "
        "[out, count=Count] UINT *pEntries)",
        f"void VideoProcessorGetStreamPixelAspectRatio({vps}, [out] BOOL *pEnabled, "
        "[out] DXGI_RATIONAL *pSourceAspectRatio, [out] DXGI_RATIONAL *pDestinationAspectRatio)",
        f"void VideoProcessorGetStreamLumaKey({vps}, [out] BOOL *pEnabled, [out] FLOAT *pLower, "
        "[out] FLOAT *pUpper)",
        f"void VideoProcessorGetStreamStereoFormat({vps}, [out] BOOL *pEnable, "
        "[out] D3D11_VIDEO_PROCESSOR_STEREO_FORMAT *pFormat, [out] BOOL *pLeftViewFrame0, "
        "[out] BOOL *pBaseViewFrame0, [out] D3D11_VIDEO_PROCESSOR_STEREO_FLIP_MODE *pFlipMode, "
        "[out] INT *MonoOffset)",
        f"void VideoProcessorGetStreamAutoProcessingMode({vps}, [out] BOOL *pEnabled)",
        f"void VideoProcessorGetStreamFilter({vps}, D3D11_VIDEO_PROCESSOR_FILTER Filter, "
        "[out] BOOL *pEnabled, [out] INT *pLevel)",
        f"HRESULT VideoProcessorGetStreamExtension({vps}, const GUID *pExtensionGuid, "
        "UINT DataSize, [out, bytes=DataSize] void *pData)",
        # Processing, encryption and authenticated channels.
        f"HRESULT VideoProcessorBlt({vp}, ID3D11VideoProcessorOutputView *pView, "
        "UINT OutputFrame, UINT StreamCount, "
        "[count=StreamCount] const D3D11_VIDEO_PROCESSOR_STREAM *pStreams)",
        "HRESULT NegotiateCryptoSessionKeyExchange(ID3D11CryptoSession *pCryptoSession, "
        "UINT DataSize, [inout, bytes=DataSize] void *pData)",
        "void EncryptionBlt(ID3D11CryptoSession *pCryptoSession, ID3D11Texture2D *pSrcSurface, "
        "ID3D11Texture2D *pDstSurface, UINT IVSize, [out, opt, bytes=IVSize] void *pIV)",
        "void DecryptionBlt(ID3D11CryptoSession *pCryptoSession, ID3D11Texture2D *pSrcSurface, "
        "ID3D11Texture2D *pDstSurface, [opt] D3D11_ENCRYPTED_BLOCK_INFO *pEncryptedBlockInfo, "
        "UINT ContentKeySize, [opt, bytes=ContentKeySize] const void *pContentKey, "
        "UINT IVSize, [opt, bytes=IVSize] void *pIV)",
        "void StartSessionKeyRefresh(ID3D11CryptoSession *pCryptoSession, "
        "UINT RandomNumberSize, [out, bytes=RandomNumberSize] void *pRandomNumber)",
        "void FinishSessionKeyRefresh(ID3D11CryptoSession *pCryptoSession)",
        "HRESULT GetEncryptionBltKey(ID3D11CryptoSession *pCryptoSession, UINT KeySize, "
        "[out, bytes=KeySize] void *pReadbackKey)",
        "HRESULT NegotiateAuthenticatedChannelKeyExchange("
        "ID3D11AuthenticatedChannel *pChannel, UINT DataSize, "
        "[inout, bytes=DataSize] void *pData)",
        "HRESULT QueryAuthenticatedChannel(ID3D11AuthenticatedChannel *pChannel, "
        "UINT InputSize, [bytes=InputSize] const void *pInput, UINT OutputSize, "
        "[out, bytes=OutputSize] void *pOutput)",
        "HRESULT ConfigureAuthenticatedChannel(ID3D11AuthenticatedChannel *pChannel, "
        "UINT InputSize, [bytes=InputSize] const void *pInput, "
        "[out] D3D11_AUTHENTICATED_CONFIGURE_OUTPUT *pOutput)",
        # Added after the rest, hence out of place.
        f"void VideoProcessorSetStreamRotation({vps}, BOOL Enable, "
        "D3D11_VIDEO_PROCESSOR_ROTATION Rotation)",
        f"void VideoProcessorGetStreamRotation({vps}, [out] BOOL *pEnable, "
        "[out] D3D11_VIDEO_PROCESSOR_ROTATION *pRotation)",
    ])


def _d3d11_video_device(api) -> None:
    # Obtained by QueryInterface on the device; not a device child.
    api.interface("ID3D11VideoDevice", base="IUnknown", header="d3d11",
                  uuid="10ec4d5b-975a-4689-b9e4-d0aac30fe333", methods=[
        "HRESULT CreateVideoDecoder(const D3D11_VIDEO_DECODER_DESC *pVideoDesc, "
        "const D3D11_VIDEO_DECODER_CONFIG *pConfig, [out] ID3D11VideoDecoder **ppDecoder)",
        "HRESULT CreateVideoProcessor(ID3D11VideoProcessorEnumerator *pEnum, "
        "UINT RateConversionIndex, [out] ID3D11VideoProcessor **ppVideoProcessor)",
        "HRESULT CreateAuthenticatedChannel(D3D11_AUTHENTICATED_CHANNEL_TYPE ChannelType, "
        "[out] ID3D11AuthenticatedChannel **ppAuthenticatedChannel)",
        "HRESULT CreateCryptoSession(const GUID *pCryptoType, [opt] const GUID *pDecoderProfile, "
        "const GUID *pKeyExchangeType, [out] ID3D11CryptoSession **ppCryptoSession)",
        "HRESULT CreateVideoDecoderOutputView(ID3D11Resource *pResource, "
        "const D3D11_VIDEO_DECODER_OUTPUT_VIEW_DESC *pDesc, "
        "[out, opt] ID3D11VideoDecoderOutputView **ppVDOVView)",
        "HRESULT CreateVideoProcessorInputView(ID3D11Resource *pResource, "
        "ID3D11VideoProcessorEnumerator *pEnum, "
        "const D3D11_VIDEO_PROCESSOR_INPUT_VIEW_DESC *pDesc, "
        "[out, opt] ID3D11VideoProcessorInputView **ppVPIView)",
        "HRESULT CreateVideoProcessorOutputView(ID3D11Resource *pResource, "
        "ID3D11VideoProcessorEnumerator *pEnum, "
        "const D3D11_VIDEO_PROCESSOR_OUTPUT_VIEW_DESC *pDesc, "
        "[out, opt] ID3D11VideoProcessorOutputView **ppVPOView)",
        "HRESULT CreateVideoProcessorEnumerator(const D3D11_VIDEO_PROCESSOR_CONTENT_DESC *pDesc, "
        "[out] ID3D11VideoProcessorEnumerator **ppEnum)",
        "UINT GetVideoDecoderProfileCount()",
        "HRESULT GetVideoDecoderProfile(UINT Index, [out] GUID *pDecoderProfile)",
        "HRESULT CheckVideoDecoderFormat(const GUID *pDecoderProfile, DXGI_FORMAT Format, "
        "[out] BOOL *pSupported)",
        "HRESULT GetVideoDecoderConfigCount(const D3D11_VIDEO_DECODER_DESC *pDesc, "
        "[out] UINT *pCount)",
        "HRESULT GetVideoDecoderConfig(const D3D11_VIDEO_DECODER_DESC *pDesc, UINT Index, "
        "[out] D3D11_VIDEO_DECODER_CONFIG *pConfig)",
        "HRESULT GetContentProtectionCaps([opt] const GUID *pCryptoType, "
        "[opt] const GUID *pDecoderProfile, [out] D3D11_VIDEO_CONTENT_PROTECTION_CAPS *pCaps)",
        "HRESULT CheckCryptoKeyExchange(const GUID *pCryptoType, "
        "[opt] const GUID *pDecoderProfile, UINT Index, [out] GUID *pKeyExchangeType)",
        "HRESULT SetPrivateData(REFGUID guid, UINT DataSize, "
        "[opt, bytes=DataSize] const void *pData)",
        "HRESULT SetPrivateDataInterface(REFGUID guid, [opt] const IUnknown *pData)",
    ])
