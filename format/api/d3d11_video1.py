"""The D3D11 video interfaces of d3d11_1.h and d3d11_4.h and their types (the
d3d11.h ones, which these extend, are in d3d11_video.py; its notes apply)."""


def declare(api) -> None:
    _d3d11_1(api)
    _d3d11_4(api)


# ---------------------------------------------------------------------------
# d3d11_1.h: decoder downsampling, color spaces, hardware key exchange.

def _d3d11_1(api) -> None:
    h = "d3d11_1"
    api.enum("D3D11_VIDEO_DECODER_CAPS", header=h, flags=True, values="""
        D3D11_VIDEO_DECODER_CAPS_DOWNSAMPLE = 0x1, D3D11_VIDEO_DECODER_CAPS_NON_REAL_TIME = 0x2,
        D3D11_VIDEO_DECODER_CAPS_DOWNSAMPLE_DYNAMIC = 0x4,
        D3D11_VIDEO_DECODER_CAPS_DOWNSAMPLE_REQUIRED = 0x8,
        D3D11_VIDEO_DECODER_CAPS_UNSUPPORTED = 0x10""")
    api.enum("D3D11_VIDEO_PROCESSOR_BEHAVIOR_HINTS", header=h, flags=True, values="""
        D3D11_VIDEO_PROCESSOR_BEHAVIOR_HINT_MULTIPLANE_OVERLAY_ROTATION = 0x1,
        D3D11_VIDEO_PROCESSOR_BEHAVIOR_HINT_MULTIPLANE_OVERLAY_RESIZE = 0x2,
        D3D11_VIDEO_PROCESSOR_BEHAVIOR_HINT_MULTIPLANE_OVERLAY_COLOR_SPACE_CONVERSION = 0x4,
        D3D11_VIDEO_PROCESSOR_BEHAVIOR_HINT_TRIPLE_BUFFER_OUTPUT = 0x8""")
    api.enum("D3D11_CRYPTO_SESSION_STATUS", header=h, values="""
        D3D11_CRYPTO_SESSION_STATUS_OK = 0, D3D11_CRYPTO_SESSION_STATUS_KEY_LOST = 1,
        D3D11_CRYPTO_SESSION_STATUS_KEY_AND_CONTENT_LOST = 2""")

    # The data of a D3D11_KEY_EXCHANGE_HW_PROTECTION key exchange; the byte
    # arrays are variable-length tails.
    api.struct("D3D11_KEY_EXCHANGE_HW_PROTECTION_INPUT_DATA", header=h, fields="""
        UINT PrivateDataSize; UINT HWProtectionDataSize; BYTE pbInput[4];""")
    api.struct("D3D11_KEY_EXCHANGE_HW_PROTECTION_OUTPUT_DATA", header=h, fields="""
        UINT PrivateDataSize; UINT MaxHWProtectionDataSize; UINT HWProtectionDataSize;
        UINT64 TransportTime; UINT64 ExecutionTime; BYTE pbOutput[4];""")
    api.struct("D3D11_KEY_EXCHANGE_HW_PROTECTION_DATA", header=h, fields="""
        UINT HWProtectionFunctionID;
        D3D11_KEY_EXCHANGE_HW_PROTECTION_INPUT_DATA *pInputData;
        D3D11_KEY_EXCHANGE_HW_PROTECTION_OUTPUT_DATA *pOutputData; HRESULT Status;""")
    api.struct("D3D11_VIDEO_SAMPLE_DESC", header=h, fields="""
        UINT Width; UINT Height; DXGI_FORMAT Format; DXGI_COLOR_SPACE_TYPE ColorSpace;""")
    api.struct("D3D11_VIDEO_DECODER_SUB_SAMPLE_MAPPING_BLOCK", header=h, fields="""
        UINT ClearSize; UINT EncryptedSize;""")
    api.struct("D3D11_VIDEO_DECODER_BUFFER_DESC1", header=h, fields="""
        D3D11_VIDEO_DECODER_BUFFER_TYPE BufferType; UINT DataOffset; UINT DataSize;
        [bytes=IVSize] void *pIV; UINT IVSize;
        [count=SubSampleMappingCount]
        D3D11_VIDEO_DECODER_SUB_SAMPLE_MAPPING_BLOCK *pSubSampleMappingBlock;
        UINT SubSampleMappingCount;""")
    api.struct("D3D11_VIDEO_DECODER_BEGIN_FRAME_CRYPTO_SESSION", header=h, fields="""
        ID3D11CryptoSession *pCryptoSession; UINT BlobSize; [bytes=BlobSize] void *pBlob;
        GUID *pKeyInfoId; UINT PrivateDataSize; [bytes=PrivateDataSize] void *pPrivateData;""")
    api.struct("D3D11_VIDEO_PROCESSOR_STREAM_BEHAVIOR_HINT", header=h, fields="""
        BOOL Enable; UINT Width; UINT Height; DXGI_FORMAT Format;""")

    vp = "ID3D11VideoProcessor *pVideoProcessor"
    api.interface("ID3D11VideoContext1", base="ID3D11VideoContext", header=h,
                  uuid="a7f026da-a5f8-4487-a564-15e34357651e", methods=[
        "HRESULT SubmitDecoderBuffers1(ID3D11VideoDecoder *pDecoder, UINT NumBuffers, "
        "[count=NumBuffers] const D3D11_VIDEO_DECODER_BUFFER_DESC1 *pBufferDesc)",
        # pPrivatInputData: the SDK's spelling.
        "HRESULT GetDataForNewHardwareKey(ID3D11CryptoSession *pCryptoSession, "
        "UINT PrivateInputSize, [bytes=PrivateInputSize] const void *pPrivatInputData, "
        "[out] UINT64 *pPrivateOutputData)",
        "HRESULT CheckCryptoSessionStatus(ID3D11CryptoSession *pCryptoSession, "
        "[out] D3D11_CRYPTO_SESSION_STATUS *pStatus)",
        "HRESULT DecoderEnableDownsampling(ID3D11VideoDecoder *pDecoder, "
        "DXGI_COLOR_SPACE_TYPE InputColorSpace, const D3D11_VIDEO_SAMPLE_DESC *pOutputDesc, "
        "UINT ReferenceFrameCount)",
        "HRESULT DecoderUpdateDownsampling(ID3D11VideoDecoder *pDecoder, "
        "const D3D11_VIDEO_SAMPLE_DESC *pOutputDesc)",
        f"void VideoProcessorSetOutputColorSpace1({vp}, DXGI_COLOR_SPACE_TYPE ColorSpace)",
        f"void VideoProcessorSetOutputShaderUsage({vp}, BOOL ShaderUsage)",
        f"void VideoProcessorGetOutputColorSpace1({vp}, [out] DXGI_COLOR_SPACE_TYPE *pColorSpace)",
        f"void VideoProcessorGetOutputShaderUsage({vp}, [out] BOOL *pShaderUsage)",
        f"void VideoProcessorSetStreamColorSpace1({vp}, UINT StreamIndex, "
        "DXGI_COLOR_SPACE_TYPE ColorSpace)",
        f"void VideoProcessorSetStreamMirror({vp}, UINT StreamIndex, BOOL Enable, "
        "BOOL FlipHorizontal, BOOL FlipVertical)",
        f"void VideoProcessorGetStreamColorSpace1({vp}, UINT StreamIndex, "
        "[out] DXGI_COLOR_SPACE_TYPE *pColorSpace)",
        f"void VideoProcessorGetStreamMirror({vp}, UINT StreamIndex, [out] BOOL *pEnable, "
        "[out] BOOL *pFlipHorizontal, [out] BOOL *pFlipVertical)",
        f"HRESULT VideoProcessorGetBehaviorHints({vp}, UINT OutputWidth, UINT OutputHeight, "
        "DXGI_FORMAT OutputFormat, UINT StreamCount, "
        "[count=StreamCount] const D3D11_VIDEO_PROCESSOR_STREAM_BEHAVIOR_HINT *pStreams, "
        "[out] UINT *pBehaviorHints)",
    ])
    api.interface("ID3D11VideoDevice1", base="ID3D11VideoDevice", header=h,
                  uuid="29da1d51-1321-4454-804b-f5fc9f861f0f", methods=[
        "HRESULT GetCryptoSessionPrivateDataSize(const GUID *pCryptoType, "
        "[opt] const GUID *pDecoderProfile, const GUID *pKeyExchangeType, "
        "[out] UINT *pPrivateInputSize, [out] UINT *pPrivateOutputSize)",
        "HRESULT GetVideoDecoderCaps(const GUID *pDecoderProfile, UINT SampleWidth, "
        "UINT SampleHeight, const DXGI_RATIONAL *pFrameRate, UINT BitRate, "
        "[opt] const GUID *pCryptoType, [out] UINT *pDecoderCaps)",
        "HRESULT CheckVideoDecoderDownsampling(const D3D11_VIDEO_DECODER_DESC *pInputDesc, "
        "DXGI_COLOR_SPACE_TYPE InputColorSpace, const D3D11_VIDEO_DECODER_CONFIG *pInputConfig, "
        "const DXGI_RATIONAL *pFrameRate, const D3D11_VIDEO_SAMPLE_DESC *pOutputDesc, "
        "[out] BOOL *pSupported, [out] BOOL *pRealTimeHint)",
        "HRESULT RecommendVideoDecoderDownsampleParameters("
        "const D3D11_VIDEO_DECODER_DESC *pInputDesc, DXGI_COLOR_SPACE_TYPE InputColorSpace, "
        "const D3D11_VIDEO_DECODER_CONFIG *pInputConfig, const DXGI_RATIONAL *pFrameRate, "
        "[out] D3D11_VIDEO_SAMPLE_DESC *pRecommendedOutputDesc)",
    ])
    api.interface("ID3D11VideoProcessorEnumerator1", base="ID3D11VideoProcessorEnumerator",
                  header=h, uuid="465217f2-5568-43cf-b5b9-f61d54531ca1", methods=[
        "HRESULT CheckVideoProcessorFormatConversion(DXGI_FORMAT InputFormat, "
        "DXGI_COLOR_SPACE_TYPE InputColorSpace, DXGI_FORMAT OutputFormat, "
        "DXGI_COLOR_SPACE_TYPE OutputColorSpace, [out] BOOL *pSupported)",
    ])


# ---------------------------------------------------------------------------
# d3d11_4.h: HDR metadata, decode histograms (CheckFeatureSupport with
# D3D11_FEATURE_VIDEO, DecoderBeginFrame1), multithreaded key exchange and
# SubmitDecoderBuffers2, in the SDK's order.

def _d3d11_4(api) -> None:
    h = "d3d11_4"
    api.constants_block(header=h, text="""
        D3D11_4_VIDEO_DECODER_MAX_HISTOGRAM_COMPONENTS 4
        D3D11_4_VIDEO_DECODER_HISTOGRAM_OFFSET_ALIGNMENT 256
    """)
    vp = "ID3D11VideoProcessor *pVideoProcessor"
    api.interface("ID3D11VideoContext2", base="ID3D11VideoContext1", header=h,
                  uuid="c4e7374c-6243-4d1b-ae87-52b4f740e261", methods=[
        f"void VideoProcessorSetOutputHDRMetaData({vp}, DXGI_HDR_METADATA_TYPE Type, "
        "UINT Size, [opt, bytes=Size] const void *pHDRMetaData)",
        f"void VideoProcessorGetOutputHDRMetaData({vp}, [out] DXGI_HDR_METADATA_TYPE *pType, "
        "UINT Size, [out, opt, bytes=Size] void *pMetaData)",
        f"void VideoProcessorSetStreamHDRMetaData({vp}, UINT StreamIndex, "
        "DXGI_HDR_METADATA_TYPE Type, UINT Size, [opt, bytes=Size] const void *pHDRMetaData)",
        f"void VideoProcessorGetStreamHDRMetaData({vp}, UINT StreamIndex, "
        "[out] DXGI_HDR_METADATA_TYPE *pType, UINT Size, [out, opt, bytes=Size] void *pMetaData)",
    ])

    api.enum("D3D11_FEATURE_VIDEO", header=h, values="""
        D3D11_FEATURE_VIDEO_DECODER_HISTOGRAM = 0""")
    # Indices into DecoderBeginFrame1's arrays: YUV and RGB components share them.
    api.enum("D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT", header=h, values="""
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_Y = 0,
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_U = 1,
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_V = 2,
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_R = 0,
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_G = 1,
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_B = 2,
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_A = 3""")
    api.enum("D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_FLAGS", header=h, flags=True, values="""
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_FLAG_NONE = 0,
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_FLAG_Y = 0x1,
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_FLAG_U = 0x2,
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_FLAG_V = 0x4,
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_FLAG_R = 0x1,
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_FLAG_G = 0x2,
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_FLAG_B = 0x4,
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_FLAG_A = 0x8""")
    api.struct("D3D11_FEATURE_DATA_VIDEO_DECODER_HISTOGRAM", header=h, fields="""
        D3D11_VIDEO_DECODER_DESC DecoderDesc;
        D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT_FLAGS Components; UINT BinCount;
        UINT CounterBitDepth;""")
    api.enum("D3D11_CRYPTO_SESSION_KEY_EXCHANGE_FLAGS", header=h, flags=True, values="""
        D3D11_CRYPTO_SESSION_KEY_EXCHANGE_FLAG_NONE = 0""")
    api.interface("ID3D11VideoDevice2", base="ID3D11VideoDevice1", header=h,
                  uuid="59c0cb01-35f0-4a70-8f67-87905c906a53", methods=[
        "HRESULT CheckFeatureSupport(D3D11_FEATURE_VIDEO Feature, "
        "[out, bytes=FeatureSupportDataSize] void *pFeatureSupportData, "
        "UINT FeatureSupportDataSize)",
        # flags: the SDK's lower-case spelling.
        "HRESULT NegotiateCryptoSessionKeyExchangeMT(ID3D11CryptoSession *pCryptoSession, "
        "D3D11_CRYPTO_SESSION_KEY_EXCHANGE_FLAGS flags, UINT DataSize, "
        "[inout, bytes=DataSize] void *pData)",
    ])
    # D3D11_VIDEO_DECODER_BUFFER_DESC1 with the encryption pattern's counts of
    # encrypted and clear 16-byte blocks (Common Encryption).
    api.struct("D3D11_VIDEO_DECODER_BUFFER_DESC2", header=h, fields="""
        D3D11_VIDEO_DECODER_BUFFER_TYPE BufferType; UINT DataOffset; UINT DataSize;
        [bytes=IVSize] void *pIV; UINT IVSize;
        [count=SubSampleMappingCount]
        D3D11_VIDEO_DECODER_SUB_SAMPLE_MAPPING_BLOCK *pSubSampleMappingBlock;
        UINT SubSampleMappingCount; UINT cBlocksStripeEncrypted; UINT cBlocksStripeClear;""")
    api.interface("ID3D11VideoContext3", base="ID3D11VideoContext2", header=h,
                  uuid="a9e2faa0-cb39-418f-a0b7-d8aad4de672e", methods=[
        # The histogram arrays are indexed by D3D11_VIDEO_DECODER_HISTOGRAM_COMPONENT.
        "HRESULT DecoderBeginFrame1(ID3D11VideoDecoder *pDecoder, "
        "ID3D11VideoDecoderOutputView *pView, UINT ContentKeySize, "
        "[opt, bytes=ContentKeySize] const void *pContentKey, UINT NumComponentHistograms, "
        "[opt, count=NumComponentHistograms] const UINT *pHistogramOffsets, "
        "[opt, count=NumComponentHistograms] ID3D11Buffer *const *ppHistogramBuffers)",
        "HRESULT SubmitDecoderBuffers2(ID3D11VideoDecoder *pDecoder, UINT NumBuffers, "
        "[count=NumBuffers] const D3D11_VIDEO_DECODER_BUFFER_DESC2 *pBufferDesc)",
    ])
