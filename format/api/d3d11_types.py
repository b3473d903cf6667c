"""D3D11 enums, structs and typedefs (d3d11.h, d3d11_1.h, d3d11_2.h); the
#define constants are in d3d11_constants.py.

What the device and context interfaces use, plus what typical programs need.
Items sit in the header the Windows 8.1 SDK puts them in; within a header each
struct comes after the types it uses.  Enum values are plain numbers so that
every generator can read them.  No interfaces and no call ids here.
"""


def declare(api) -> None:
    _d3d11_enums(api)
    _d3d11_structs(api)
    _d3d11_1(api)
    _d3d11_2(api)


# ---------------------------------------------------------------------------
# d3d11.h: enums and aliases.

def _d3d11_enums(api) -> None:
    h = "d3d11"
    # d3dcommon.h already spells the D3D11_PRIMITIVE_TOPOLOGY_* / D3D11_SRV_DIMENSION_* values.
    api.typedef("D3D11_PRIMITIVE_TOPOLOGY", "D3D_PRIMITIVE_TOPOLOGY", header=h)
    api.typedef("D3D11_PRIMITIVE", "D3D_PRIMITIVE", header=h)
    api.typedef("D3D11_SRV_DIMENSION", "D3D_SRV_DIMENSION", header=h)
    api.typedef("D3D11_RECT", "RECT", header=h)

    api.enum("D3D11_INPUT_CLASSIFICATION", header=h, values="""
        D3D11_INPUT_PER_VERTEX_DATA = 0, D3D11_INPUT_PER_INSTANCE_DATA = 1""")
    api.enum("D3D11_FILL_MODE", header=h, values="""
        D3D11_FILL_WIREFRAME = 2, D3D11_FILL_SOLID = 3""")
    api.enum("D3D11_CULL_MODE", header=h, values="""
        D3D11_CULL_NONE = 1, D3D11_CULL_FRONT = 2, D3D11_CULL_BACK = 3""")
    api.enum("D3D11_RESOURCE_DIMENSION", header=h, values="""
        D3D11_RESOURCE_DIMENSION_UNKNOWN = 0, D3D11_RESOURCE_DIMENSION_BUFFER = 1,
        D3D11_RESOURCE_DIMENSION_TEXTURE1D = 2, D3D11_RESOURCE_DIMENSION_TEXTURE2D = 3,
        D3D11_RESOURCE_DIMENSION_TEXTURE3D = 4""")
    api.enum("D3D11_DSV_DIMENSION", header=h, values="""
        D3D11_DSV_DIMENSION_UNKNOWN = 0, D3D11_DSV_DIMENSION_TEXTURE1D = 1,
        D3D11_DSV_DIMENSION_TEXTURE1DARRAY = 2, D3D11_DSV_DIMENSION_TEXTURE2D = 3,
        D3D11_DSV_DIMENSION_TEXTURE2DARRAY = 4, D3D11_DSV_DIMENSION_TEXTURE2DMS = 5,
        D3D11_DSV_DIMENSION_TEXTURE2DMSARRAY = 6""")
    api.enum("D3D11_RTV_DIMENSION", header=h, values="""
        D3D11_RTV_DIMENSION_UNKNOWN = 0, D3D11_RTV_DIMENSION_BUFFER = 1,
        D3D11_RTV_DIMENSION_TEXTURE1D = 2, D3D11_RTV_DIMENSION_TEXTURE1DARRAY = 3,
        D3D11_RTV_DIMENSION_TEXTURE2D = 4, D3D11_RTV_DIMENSION_TEXTURE2DARRAY = 5,
        D3D11_RTV_DIMENSION_TEXTURE2DMS = 6, D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY = 7,
        D3D11_RTV_DIMENSION_TEXTURE3D = 8""")
    api.enum("D3D11_UAV_DIMENSION", header=h, values="""
        D3D11_UAV_DIMENSION_UNKNOWN = 0, D3D11_UAV_DIMENSION_BUFFER = 1,
        D3D11_UAV_DIMENSION_TEXTURE1D = 2, D3D11_UAV_DIMENSION_TEXTURE1DARRAY = 3,
        D3D11_UAV_DIMENSION_TEXTURE2D = 4, D3D11_UAV_DIMENSION_TEXTURE2DARRAY = 5,
        D3D11_UAV_DIMENSION_TEXTURE3D = 8""")
    api.enum("D3D11_USAGE", header=h, values="""
        D3D11_USAGE_DEFAULT = 0, D3D11_USAGE_IMMUTABLE = 1, D3D11_USAGE_DYNAMIC = 2,
        D3D11_USAGE_STAGING = 3""")
    api.enum("D3D11_BIND_FLAG", header=h, flags=True, values="""
        D3D11_BIND_VERTEX_BUFFER = 0x1, D3D11_BIND_INDEX_BUFFER = 0x2,
        D3D11_BIND_CONSTANT_BUFFER = 0x4, D3D11_BIND_SHADER_RESOURCE = 0x8,
        D3D11_BIND_STREAM_OUTPUT = 0x10, D3D11_BIND_RENDER_TARGET = 0x20,
        D3D11_BIND_DEPTH_STENCIL = 0x40, D3D11_BIND_UNORDERED_ACCESS = 0x80,
        D3D11_BIND_DECODER = 0x200, D3D11_BIND_VIDEO_ENCODER = 0x400""")
    api.enum("D3D11_CPU_ACCESS_FLAG", header=h, flags=True, values="""
        D3D11_CPU_ACCESS_WRITE = 0x10000, D3D11_CPU_ACCESS_READ = 0x20000""")
    api.enum("D3D11_RESOURCE_MISC_FLAG", header=h, flags=True, values="""
        D3D11_RESOURCE_MISC_GENERATE_MIPS = 0x1, D3D11_RESOURCE_MISC_SHARED = 0x2,
        D3D11_RESOURCE_MISC_TEXTURECUBE = 0x4, D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS = 0x10,
        D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS = 0x20,
        D3D11_RESOURCE_MISC_BUFFER_STRUCTURED = 0x40, D3D11_RESOURCE_MISC_RESOURCE_CLAMP = 0x80,
        D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX = 0x100, D3D11_RESOURCE_MISC_GDI_COMPATIBLE = 0x200,
        D3D11_RESOURCE_MISC_SHARED_NTHANDLE = 0x800,
        D3D11_RESOURCE_MISC_RESTRICTED_CONTENT = 0x1000,
        D3D11_RESOURCE_MISC_RESTRICT_SHARED_RESOURCE = 0x2000,
        D3D11_RESOURCE_MISC_RESTRICT_SHARED_RESOURCE_DRIVER = 0x4000,
        D3D11_RESOURCE_MISC_GUARDED = 0x8000, D3D11_RESOURCE_MISC_TILE_POOL = 0x20000,
        D3D11_RESOURCE_MISC_TILED = 0x40000, D3D11_RESOURCE_MISC_HW_PROTECTED = 0x80000""")
    api.enum("D3D11_MAP", header=h, values="""
        D3D11_MAP_READ = 1, D3D11_MAP_WRITE = 2, D3D11_MAP_READ_WRITE = 3,
        D3D11_MAP_WRITE_DISCARD = 4, D3D11_MAP_WRITE_NO_OVERWRITE = 5""")
    api.enum("D3D11_MAP_FLAG", header=h, flags=True, values="""
        D3D11_MAP_FLAG_DO_NOT_WAIT = 0x100000""")
    api.enum("D3D11_RAISE_FLAG", header=h, flags=True, values="""
        D3D11_RAISE_FLAG_DRIVER_INTERNAL_ERROR = 0x1""")
    api.enum("D3D11_CLEAR_FLAG", header=h, flags=True, values="""
        D3D11_CLEAR_DEPTH = 0x1, D3D11_CLEAR_STENCIL = 0x2""")
    api.enum("D3D11_COMPARISON_FUNC", header=h, values="""
        D3D11_COMPARISON_NEVER = 1, D3D11_COMPARISON_LESS = 2, D3D11_COMPARISON_EQUAL = 3,
        D3D11_COMPARISON_LESS_EQUAL = 4, D3D11_COMPARISON_GREATER = 5,
        D3D11_COMPARISON_NOT_EQUAL = 6, D3D11_COMPARISON_GREATER_EQUAL = 7,
        D3D11_COMPARISON_ALWAYS = 8""")
    api.enum("D3D11_DEPTH_WRITE_MASK", header=h, values="""
        D3D11_DEPTH_WRITE_MASK_ZERO = 0, D3D11_DEPTH_WRITE_MASK_ALL = 1""")
    api.enum("D3D11_STENCIL_OP", header=h, values="""
        D3D11_STENCIL_OP_KEEP = 1, D3D11_STENCIL_OP_ZERO = 2, D3D11_STENCIL_OP_REPLACE = 3,
        D3D11_STENCIL_OP_INCR_SAT = 4, D3D11_STENCIL_OP_DECR_SAT = 5,
        D3D11_STENCIL_OP_INVERT = 6, D3D11_STENCIL_OP_INCR = 7, D3D11_STENCIL_OP_DECR = 8""")
    api.enum("D3D11_BLEND", header=h, values="""
        D3D11_BLEND_ZERO = 1, D3D11_BLEND_ONE = 2, D3D11_BLEND_SRC_COLOR = 3,
        D3D11_BLEND_INV_SRC_COLOR = 4, D3D11_BLEND_SRC_ALPHA = 5, D3D11_BLEND_INV_SRC_ALPHA = 6,
        D3D11_BLEND_DEST_ALPHA = 7, D3D11_BLEND_INV_DEST_ALPHA = 8, D3D11_BLEND_DEST_COLOR = 9,
        D3D11_BLEND_INV_DEST_COLOR = 10, D3D11_BLEND_SRC_ALPHA_SAT = 11,
        D3D11_BLEND_BLEND_FACTOR = 14, D3D11_BLEND_INV_BLEND_FACTOR = 15,
        D3D11_BLEND_SRC1_COLOR = 16, D3D11_BLEND_INV_SRC1_COLOR = 17,
        D3D11_BLEND_SRC1_ALPHA = 18, D3D11_BLEND_INV_SRC1_ALPHA = 19""")
    api.enum("D3D11_BLEND_OP", header=h, values="""
        D3D11_BLEND_OP_ADD = 1, D3D11_BLEND_OP_SUBTRACT = 2, D3D11_BLEND_OP_REV_SUBTRACT = 3,
        D3D11_BLEND_OP_MIN = 4, D3D11_BLEND_OP_MAX = 5""")
    api.enum("D3D11_COLOR_WRITE_ENABLE", header=h, flags=True, values="""
        D3D11_COLOR_WRITE_ENABLE_RED = 0x1, D3D11_COLOR_WRITE_ENABLE_GREEN = 0x2,
        D3D11_COLOR_WRITE_ENABLE_BLUE = 0x4, D3D11_COLOR_WRITE_ENABLE_ALPHA = 0x8,
        D3D11_COLOR_WRITE_ENABLE_ALL = 0xf""")
    api.enum("D3D11_TEXTURECUBE_FACE", header=h, values="""
        D3D11_TEXTURECUBE_FACE_POSITIVE_X = 0, D3D11_TEXTURECUBE_FACE_NEGATIVE_X = 1,
        D3D11_TEXTURECUBE_FACE_POSITIVE_Y = 2, D3D11_TEXTURECUBE_FACE_NEGATIVE_Y = 3,
        D3D11_TEXTURECUBE_FACE_POSITIVE_Z = 4, D3D11_TEXTURECUBE_FACE_NEGATIVE_Z = 5""")
    api.enum("D3D11_BUFFEREX_SRV_FLAG", header=h, flags=True, values="""
        D3D11_BUFFEREX_SRV_FLAG_RAW = 0x1""")
    api.enum("D3D11_DSV_FLAG", header=h, flags=True, values="""
        D3D11_DSV_READ_ONLY_DEPTH = 0x1, D3D11_DSV_READ_ONLY_STENCIL = 0x2""")
    api.enum("D3D11_BUFFER_UAV_FLAG", header=h, flags=True, values="""
        D3D11_BUFFER_UAV_FLAG_RAW = 0x1, D3D11_BUFFER_UAV_FLAG_APPEND = 0x2,
        D3D11_BUFFER_UAV_FLAG_COUNTER = 0x4""")

    # D3D11_FILTER: (reduction << 7) | (min << 4) | (mag << 2) | mip, 0x55 for anisotropic.
    kinds = (("MIN_MAG_MIP_POINT", 0x00), ("MIN_MAG_POINT_MIP_LINEAR", 0x01),
             ("MIN_POINT_MAG_LINEAR_MIP_POINT", 0x04), ("MIN_POINT_MAG_MIP_LINEAR", 0x05),
             ("MIN_LINEAR_MAG_MIP_POINT", 0x10), ("MIN_LINEAR_MAG_POINT_MIP_LINEAR", 0x11),
             ("MIN_MAG_LINEAR_MIP_POINT", 0x14), ("MIN_MAG_MIP_LINEAR", 0x15),
             ("ANISOTROPIC", 0x55))
    reductions = (("", 0x000), ("COMPARISON_", 0x080), ("MINIMUM_", 0x100), ("MAXIMUM_", 0x180))
    api.enum("D3D11_FILTER", header=h, values=", ".join(
        f"D3D11_FILTER_{prefix}{kind} = {base + bits:#x}"
        for prefix, base in reductions for kind, bits in kinds))
    api.enum("D3D11_FILTER_TYPE", header=h, values="""
        D3D11_FILTER_TYPE_POINT = 0, D3D11_FILTER_TYPE_LINEAR = 1""")
    api.enum("D3D11_FILTER_REDUCTION_TYPE", header=h, values="""
        D3D11_FILTER_REDUCTION_TYPE_STANDARD = 0, D3D11_FILTER_REDUCTION_TYPE_COMPARISON = 1,
        D3D11_FILTER_REDUCTION_TYPE_MINIMUM = 2, D3D11_FILTER_REDUCTION_TYPE_MAXIMUM = 3""")
    api.enum("D3D11_TEXTURE_ADDRESS_MODE", header=h, values="""
        D3D11_TEXTURE_ADDRESS_WRAP = 1, D3D11_TEXTURE_ADDRESS_MIRROR = 2,
        D3D11_TEXTURE_ADDRESS_CLAMP = 3, D3D11_TEXTURE_ADDRESS_BORDER = 4,
        D3D11_TEXTURE_ADDRESS_MIRROR_ONCE = 5""")
    api.enum("D3D11_FORMAT_SUPPORT", header=h, flags=True, values="""
        D3D11_FORMAT_SUPPORT_BUFFER = 0x1, D3D11_FORMAT_SUPPORT_IA_VERTEX_BUFFER = 0x2,
        D3D11_FORMAT_SUPPORT_IA_INDEX_BUFFER = 0x4, D3D11_FORMAT_SUPPORT_SO_BUFFER = 0x8,
        D3D11_FORMAT_SUPPORT_TEXTURE1D = 0x10, D3D11_FORMAT_SUPPORT_TEXTURE2D = 0x20,
        D3D11_FORMAT_SUPPORT_TEXTURE3D = 0x40, D3D11_FORMAT_SUPPORT_TEXTURECUBE = 0x80,
        D3D11_FORMAT_SUPPORT_SHADER_LOAD = 0x100, D3D11_FORMAT_SUPPORT_SHADER_SAMPLE = 0x200,
        D3D11_FORMAT_SUPPORT_SHADER_SAMPLE_COMPARISON = 0x400,
        D3D11_FORMAT_SUPPORT_SHADER_SAMPLE_MONO_TEXT = 0x800,
        D3D11_FORMAT_SUPPORT_MIP = 0x1000, D3D11_FORMAT_SUPPORT_MIP_AUTOGEN = 0x2000,
        D3D11_FORMAT_SUPPORT_RENDER_TARGET = 0x4000, D3D11_FORMAT_SUPPORT_BLENDABLE = 0x8000,
        D3D11_FORMAT_SUPPORT_DEPTH_STENCIL = 0x10000,
        D3D11_FORMAT_SUPPORT_CPU_LOCKABLE = 0x20000,
        D3D11_FORMAT_SUPPORT_MULTISAMPLE_RESOLVE = 0x40000,
        D3D11_FORMAT_SUPPORT_DISPLAY = 0x80000,
        D3D11_FORMAT_SUPPORT_CAST_WITHIN_BIT_LAYOUT = 0x100000,
        D3D11_FORMAT_SUPPORT_MULTISAMPLE_RENDERTARGET = 0x200000,
        D3D11_FORMAT_SUPPORT_MULTISAMPLE_LOAD = 0x400000,
        D3D11_FORMAT_SUPPORT_SHADER_GATHER = 0x800000,
        D3D11_FORMAT_SUPPORT_BACK_BUFFER_CAST = 0x1000000,
        D3D11_FORMAT_SUPPORT_TYPED_UNORDERED_ACCESS_VIEW = 0x2000000,
        D3D11_FORMAT_SUPPORT_SHADER_GATHER_COMPARISON = 0x4000000,
        D3D11_FORMAT_SUPPORT_DECODER_OUTPUT = 0x8000000,
        D3D11_FORMAT_SUPPORT_VIDEO_PROCESSOR_OUTPUT = 0x10000000,
        D3D11_FORMAT_SUPPORT_VIDEO_PROCESSOR_INPUT = 0x20000000,
        D3D11_FORMAT_SUPPORT_VIDEO_ENCODER = 0x40000000""")
    api.enum("D3D11_FORMAT_SUPPORT2", header=h, flags=True, values="""
        D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_ADD = 0x1,
        D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_BITWISE_OPS = 0x2,
        D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_COMPARE_STORE_OR_COMPARE_EXCHANGE = 0x4,
        D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_EXCHANGE = 0x8,
        D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_SIGNED_MIN_OR_MAX = 0x10,
        D3D11_FORMAT_SUPPORT2_UAV_ATOMIC_UNSIGNED_MIN_OR_MAX = 0x20,
        D3D11_FORMAT_SUPPORT2_UAV_TYPED_LOAD = 0x40, D3D11_FORMAT_SUPPORT2_UAV_TYPED_STORE = 0x80,
        D3D11_FORMAT_SUPPORT2_OUTPUT_MERGER_LOGIC_OP = 0x100,
        D3D11_FORMAT_SUPPORT2_TILED = 0x200, D3D11_FORMAT_SUPPORT2_SHAREABLE = 0x400,
        D3D11_FORMAT_SUPPORT2_MULTIPLANE_OVERLAY = 0x4000""")
    api.enum("D3D11_ASYNC_GETDATA_FLAG", header=h, flags=True, values="""
        D3D11_ASYNC_GETDATA_DONOTFLUSH = 0x1""")
    api.enum("D3D11_QUERY", header=h, values="""
        D3D11_QUERY_EVENT = 0, D3D11_QUERY_OCCLUSION = 1, D3D11_QUERY_TIMESTAMP = 2,
        D3D11_QUERY_TIMESTAMP_DISJOINT = 3, D3D11_QUERY_PIPELINE_STATISTICS = 4,
        D3D11_QUERY_OCCLUSION_PREDICATE = 5, D3D11_QUERY_SO_STATISTICS = 6,
        D3D11_QUERY_SO_OVERFLOW_PREDICATE = 7,
        D3D11_QUERY_SO_STATISTICS_STREAM0 = 8, D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0 = 9,
        D3D11_QUERY_SO_STATISTICS_STREAM1 = 10, D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM1 = 11,
        D3D11_QUERY_SO_STATISTICS_STREAM2 = 12, D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM2 = 13,
        D3D11_QUERY_SO_STATISTICS_STREAM3 = 14, D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3 = 15""")
    api.enum("D3D11_QUERY_MISC_FLAG", header=h, flags=True, values="""
        D3D11_QUERY_MISC_PREDICATEHINT = 0x1""")
    api.enum("D3D11_COUNTER", header=h, values="""
        D3D11_COUNTER_DEVICE_DEPENDENT_0 = 0x40000000""")
    api.enum("D3D11_COUNTER_TYPE", header=h, values="""
        D3D11_COUNTER_TYPE_FLOAT32 = 0, D3D11_COUNTER_TYPE_UINT16 = 1,
        D3D11_COUNTER_TYPE_UINT32 = 2, D3D11_COUNTER_TYPE_UINT64 = 3""")
    api.enum("D3D11_STANDARD_MULTISAMPLE_QUALITY_LEVELS", header=h, values="""
        D3D11_STANDARD_MULTISAMPLE_PATTERN = 0xffffffff,
        D3D11_CENTER_MULTISAMPLE_PATTERN = 0xfffffffe""")
    api.enum("D3D11_DEVICE_CONTEXT_TYPE", header=h, values="""
        D3D11_DEVICE_CONTEXT_IMMEDIATE = 0, D3D11_DEVICE_CONTEXT_DEFERRED = 1""")
    # The SDK's d3d11.h holds the whole D3D11_FEATURE list (11.2's and Windows 10's options);
    # it stops where mingw-w64 does, at OPTIONS5 (DISPLAYABLE and OPTIONS6 are left out).
    api.enum("D3D11_FEATURE", header=h, values="""
        D3D11_FEATURE_THREADING = 0, D3D11_FEATURE_DOUBLES = 1,
        D3D11_FEATURE_FORMAT_SUPPORT = 2, D3D11_FEATURE_FORMAT_SUPPORT2 = 3,
        D3D11_FEATURE_D3D10_X_HARDWARE_OPTIONS = 4, D3D11_FEATURE_D3D11_OPTIONS = 5,
        D3D11_FEATURE_ARCHITECTURE_INFO = 6, D3D11_FEATURE_D3D9_OPTIONS = 7,
        D3D11_FEATURE_SHADER_MIN_PRECISION_SUPPORT = 8, D3D11_FEATURE_D3D9_SHADOW_SUPPORT = 9,
        D3D11_FEATURE_D3D11_OPTIONS1 = 10, D3D11_FEATURE_D3D9_SIMPLE_INSTANCING_SUPPORT = 11,
        D3D11_FEATURE_MARKER_SUPPORT = 12, D3D11_FEATURE_D3D9_OPTIONS1 = 13,
        D3D11_FEATURE_D3D11_OPTIONS2 = 14, D3D11_FEATURE_D3D11_OPTIONS3 = 15,
        D3D11_FEATURE_GPU_VIRTUAL_ADDRESS_SUPPORT = 16, D3D11_FEATURE_D3D11_OPTIONS4 = 17,
        D3D11_FEATURE_SHADER_CACHE = 18, D3D11_FEATURE_D3D11_OPTIONS5 = 19""")
    api.enum("D3D11_SHADER_MIN_PRECISION_SUPPORT", header=h, flags=True, values="""
        D3D11_SHADER_MIN_PRECISION_10_BIT = 0x1, D3D11_SHADER_MIN_PRECISION_16_BIT = 0x2""")
    api.enum("D3D11_TILED_RESOURCES_TIER", header=h, values="""
        D3D11_TILED_RESOURCES_NOT_SUPPORTED = 0, D3D11_TILED_RESOURCES_TIER_1 = 1,
        D3D11_TILED_RESOURCES_TIER_2 = 2, D3D11_TILED_RESOURCES_TIER_3 = 3""")
    # What the Windows 10 feature data (OPTIONS2, SHADER_CACHE, OPTIONS5) report.
    api.enum("D3D11_CONSERVATIVE_RASTERIZATION_TIER", header=h, values="""
        D3D11_CONSERVATIVE_RASTERIZATION_NOT_SUPPORTED = 0,
        D3D11_CONSERVATIVE_RASTERIZATION_TIER_1 = 1, D3D11_CONSERVATIVE_RASTERIZATION_TIER_2 = 2,
        D3D11_CONSERVATIVE_RASTERIZATION_TIER_3 = 3""")
    api.enum("D3D11_SHADER_CACHE_SUPPORT_FLAGS", header=h, flags=True, values="""
        D3D11_SHADER_CACHE_SUPPORT_NONE = 0x0,
        D3D11_SHADER_CACHE_SUPPORT_AUTOMATIC_INPROC_CACHE = 0x1,
        D3D11_SHADER_CACHE_SUPPORT_AUTOMATIC_DISK_CACHE = 0x2""")
    api.enum("D3D11_SHARED_RESOURCE_TIER", header=h, values="""
        D3D11_SHARED_RESOURCE_TIER_0 = 0, D3D11_SHARED_RESOURCE_TIER_1 = 1,
        D3D11_SHARED_RESOURCE_TIER_2 = 2, D3D11_SHARED_RESOURCE_TIER_3 = 3""")
    api.enum("D3D11_CREATE_DEVICE_FLAG", header=h, flags=True, values="""
        D3D11_CREATE_DEVICE_SINGLETHREADED = 0x1, D3D11_CREATE_DEVICE_DEBUG = 0x2,
        D3D11_CREATE_DEVICE_SWITCH_TO_REF = 0x4,
        D3D11_CREATE_DEVICE_PREVENT_INTERNAL_THREADING_OPTIMIZATIONS = 0x8,
        D3D11_CREATE_DEVICE_BGRA_SUPPORT = 0x20, D3D11_CREATE_DEVICE_DEBUGGABLE = 0x40,
        D3D11_CREATE_DEVICE_PREVENT_ALTERING_LAYER_SETTINGS_FROM_REGISTRY = 0x80,
        D3D11_CREATE_DEVICE_DISABLE_GPU_TIMEOUT = 0x100,
        D3D11_CREATE_DEVICE_VIDEO_SUPPORT = 0x800""")


# ---------------------------------------------------------------------------
# d3d11.h: structs, each after what it uses.

def _d3d11_structs(api) -> None:
    h = "d3d11"
    api.struct("D3D11_INPUT_ELEMENT_DESC", header=h, fields="""
        [string] LPCSTR SemanticName; UINT SemanticIndex; DXGI_FORMAT Format;
        UINT InputSlot; UINT AlignedByteOffset; D3D11_INPUT_CLASSIFICATION InputSlotClass;
        UINT InstanceDataStepRate;""")
    api.struct("D3D11_SO_DECLARATION_ENTRY", header=h, fields="""
        UINT Stream; [string] LPCSTR SemanticName; UINT SemanticIndex;
        BYTE StartComponent; BYTE ComponentCount; BYTE OutputSlot;""")
    api.struct("D3D11_VIEWPORT", header=h, fields="""
        FLOAT TopLeftX; FLOAT TopLeftY; FLOAT Width; FLOAT Height;
        FLOAT MinDepth; FLOAT MaxDepth;""")
    api.struct("D3D11_DRAW_INSTANCED_INDIRECT_ARGS", header=h, fields="""
        UINT VertexCountPerInstance; UINT InstanceCount; UINT StartVertexLocation;
        UINT StartInstanceLocation;""")
    api.struct("D3D11_DRAW_INDEXED_INSTANCED_INDIRECT_ARGS", header=h, fields="""
        UINT IndexCountPerInstance; UINT InstanceCount; UINT StartIndexLocation;
        INT BaseVertexLocation; UINT StartInstanceLocation;""")
    api.struct("D3D11_BOX", header=h, fields="""
        UINT left; UINT top; UINT front; UINT right; UINT bottom; UINT back;""")

    # Pipeline state descriptions.
    api.struct("D3D11_DEPTH_STENCILOP_DESC", header=h, fields="""
        D3D11_STENCIL_OP StencilFailOp; D3D11_STENCIL_OP StencilDepthFailOp;
        D3D11_STENCIL_OP StencilPassOp; D3D11_COMPARISON_FUNC StencilFunc;""")
    api.struct("D3D11_DEPTH_STENCIL_DESC", header=h, fields="""
        BOOL DepthEnable; D3D11_DEPTH_WRITE_MASK DepthWriteMask;
        D3D11_COMPARISON_FUNC DepthFunc; BOOL StencilEnable;
        UINT8 StencilReadMask; UINT8 StencilWriteMask;
        D3D11_DEPTH_STENCILOP_DESC FrontFace; D3D11_DEPTH_STENCILOP_DESC BackFace;""")
    api.struct("D3D11_RENDER_TARGET_BLEND_DESC", header=h, fields="""
        BOOL BlendEnable; D3D11_BLEND SrcBlend; D3D11_BLEND DestBlend;
        D3D11_BLEND_OP BlendOp; D3D11_BLEND SrcBlendAlpha; D3D11_BLEND DestBlendAlpha;
        D3D11_BLEND_OP BlendOpAlpha;
        [enum=D3D11_COLOR_WRITE_ENABLE] UINT8 RenderTargetWriteMask;""")
    api.struct("D3D11_BLEND_DESC", header=h, fields="""
        BOOL AlphaToCoverageEnable; BOOL IndependentBlendEnable;
        D3D11_RENDER_TARGET_BLEND_DESC RenderTarget[8];""")
    api.struct("D3D11_RASTERIZER_DESC", header=h, fields="""
        D3D11_FILL_MODE FillMode; D3D11_CULL_MODE CullMode; BOOL FrontCounterClockwise;
        INT DepthBias; FLOAT DepthBiasClamp; FLOAT SlopeScaledDepthBias;
        BOOL DepthClipEnable; BOOL ScissorEnable; BOOL MultisampleEnable;
        BOOL AntialiasedLineEnable;""")
    api.struct("D3D11_SAMPLER_DESC", header=h, fields="""
        D3D11_FILTER Filter; D3D11_TEXTURE_ADDRESS_MODE AddressU;
        D3D11_TEXTURE_ADDRESS_MODE AddressV; D3D11_TEXTURE_ADDRESS_MODE AddressW;
        FLOAT MipLODBias; UINT MaxAnisotropy; D3D11_COMPARISON_FUNC ComparisonFunc;
        FLOAT BorderColor[4]; FLOAT MinLOD; FLOAT MaxLOD;""")

    # Resources.  pSysMem's size follows from the resource it initialises.
    api.struct("D3D11_SUBRESOURCE_DATA", header=h, fields="""
        const void *pSysMem; UINT SysMemPitch; UINT SysMemSlicePitch;""")
    api.struct("D3D11_MAPPED_SUBRESOURCE", header=h, fields="""
        void *pData; UINT RowPitch; UINT DepthPitch;""")
    api.struct("D3D11_BUFFER_DESC", header=h, fields="""
        UINT ByteWidth; D3D11_USAGE Usage; [enum=D3D11_BIND_FLAG] UINT BindFlags;
        [enum=D3D11_CPU_ACCESS_FLAG] UINT CPUAccessFlags;
        [enum=D3D11_RESOURCE_MISC_FLAG] UINT MiscFlags; UINT StructureByteStride;""")
    api.struct("D3D11_TEXTURE1D_DESC", header=h, fields="""
        UINT Width; UINT MipLevels; UINT ArraySize; DXGI_FORMAT Format; D3D11_USAGE Usage;
        [enum=D3D11_BIND_FLAG] UINT BindFlags; [enum=D3D11_CPU_ACCESS_FLAG] UINT CPUAccessFlags;
        [enum=D3D11_RESOURCE_MISC_FLAG] UINT MiscFlags;""")
    api.struct("D3D11_TEXTURE2D_DESC", header=h, fields="""
        UINT Width; UINT Height; UINT MipLevels; UINT ArraySize; DXGI_FORMAT Format;
        DXGI_SAMPLE_DESC SampleDesc; D3D11_USAGE Usage; [enum=D3D11_BIND_FLAG] UINT BindFlags;
        [enum=D3D11_CPU_ACCESS_FLAG] UINT CPUAccessFlags;
        [enum=D3D11_RESOURCE_MISC_FLAG] UINT MiscFlags;""")
    api.struct("D3D11_TEXTURE3D_DESC", header=h, fields="""
        UINT Width; UINT Height; UINT Depth; UINT MipLevels; DXGI_FORMAT Format;
        D3D11_USAGE Usage; [enum=D3D11_BIND_FLAG] UINT BindFlags;
        [enum=D3D11_CPU_ACCESS_FLAG] UINT CPUAccessFlags;
        [enum=D3D11_RESOURCE_MISC_FLAG] UINT MiscFlags;""")

    # Shader resource views.
    api.struct("D3D11_BUFFER_SRV", header=h, fields="""
        union { UINT FirstElement; UINT ElementOffset; };
        union { UINT NumElements; UINT ElementWidth; };""")
    api.struct("D3D11_BUFFEREX_SRV", header=h, fields="""
        UINT FirstElement; UINT NumElements; [enum=D3D11_BUFFEREX_SRV_FLAG] UINT Flags;""")
    api.struct("D3D11_TEX1D_SRV", header=h, fields="UINT MostDetailedMip; UINT MipLevels;")
    api.struct("D3D11_TEX1D_ARRAY_SRV", header=h, fields="""
        UINT MostDetailedMip; UINT MipLevels; UINT FirstArraySlice; UINT ArraySize;""")
    api.struct("D3D11_TEX2D_SRV", header=h, fields="UINT MostDetailedMip; UINT MipLevels;")
    api.struct("D3D11_TEX2D_ARRAY_SRV", header=h, fields="""
        UINT MostDetailedMip; UINT MipLevels; UINT FirstArraySlice; UINT ArraySize;""")
    api.struct("D3D11_TEX3D_SRV", header=h, fields="UINT MostDetailedMip; UINT MipLevels;")
    api.struct("D3D11_TEXCUBE_SRV", header=h, fields="UINT MostDetailedMip; UINT MipLevels;")
    api.struct("D3D11_TEXCUBE_ARRAY_SRV", header=h, fields="""
        UINT MostDetailedMip; UINT MipLevels; UINT First2DArrayFace; UINT NumCubes;""")
    api.struct("D3D11_TEX2DMS_SRV", header=h, fields="UINT UnusedField_NothingToDefine;")
    api.struct("D3D11_TEX2DMS_ARRAY_SRV", header=h, fields="""
        UINT FirstArraySlice; UINT ArraySize;""")
    api.struct("D3D11_SHADER_RESOURCE_VIEW_DESC", header=h, fields="""
        DXGI_FORMAT Format; D3D11_SRV_DIMENSION ViewDimension;
        union {
            D3D11_BUFFER_SRV Buffer; D3D11_TEX1D_SRV Texture1D;
            D3D11_TEX1D_ARRAY_SRV Texture1DArray; D3D11_TEX2D_SRV Texture2D;
            D3D11_TEX2D_ARRAY_SRV Texture2DArray; D3D11_TEX2DMS_SRV Texture2DMS;
            D3D11_TEX2DMS_ARRAY_SRV Texture2DMSArray; D3D11_TEX3D_SRV Texture3D;
            D3D11_TEXCUBE_SRV TextureCube; D3D11_TEXCUBE_ARRAY_SRV TextureCubeArray;
            D3D11_BUFFEREX_SRV BufferEx;
        };""")

    # Render target views.
    api.struct("D3D11_BUFFER_RTV", header=h, fields="""
        union { UINT FirstElement; UINT ElementOffset; };
        union { UINT NumElements; UINT ElementWidth; };""")
    api.struct("D3D11_TEX1D_RTV", header=h, fields="UINT MipSlice;")
    api.struct("D3D11_TEX1D_ARRAY_RTV", header=h, fields="""
        UINT MipSlice; UINT FirstArraySlice; UINT ArraySize;""")
    api.struct("D3D11_TEX2D_RTV", header=h, fields="UINT MipSlice;")
    api.struct("D3D11_TEX2DMS_RTV", header=h, fields="UINT UnusedField_NothingToDefine;")
    api.struct("D3D11_TEX2D_ARRAY_RTV", header=h, fields="""
        UINT MipSlice; UINT FirstArraySlice; UINT ArraySize;""")
    api.struct("D3D11_TEX2DMS_ARRAY_RTV", header=h, fields="""
        UINT FirstArraySlice; UINT ArraySize;""")
    api.struct("D3D11_TEX3D_RTV", header=h, fields="""
        UINT MipSlice; UINT FirstWSlice; UINT WSize;""")
    api.struct("D3D11_RENDER_TARGET_VIEW_DESC", header=h, fields="""
        DXGI_FORMAT Format; D3D11_RTV_DIMENSION ViewDimension;
        union {
            D3D11_BUFFER_RTV Buffer; D3D11_TEX1D_RTV Texture1D;
            D3D11_TEX1D_ARRAY_RTV Texture1DArray; D3D11_TEX2D_RTV Texture2D;
            D3D11_TEX2D_ARRAY_RTV Texture2DArray; D3D11_TEX2DMS_RTV Texture2DMS;
            D3D11_TEX2DMS_ARRAY_RTV Texture2DMSArray; D3D11_TEX3D_RTV Texture3D;
        };""")

    # Depth-stencil views.
    api.struct("D3D11_TEX1D_DSV", header=h, fields="UINT MipSlice;")
    api.struct("D3D11_TEX1D_ARRAY_DSV", header=h, fields="""
        UINT MipSlice; UINT FirstArraySlice; UINT ArraySize;""")
    api.struct("D3D11_TEX2D_DSV", header=h, fields="UINT MipSlice;")
    api.struct("D3D11_TEX2D_ARRAY_DSV", header=h, fields="""
        UINT MipSlice; UINT FirstArraySlice; UINT ArraySize;""")
    api.struct("D3D11_TEX2DMS_DSV", header=h, fields="UINT UnusedField_NothingToDefine;")
    api.struct("D3D11_TEX2DMS_ARRAY_DSV", header=h, fields="""
        UINT FirstArraySlice; UINT ArraySize;""")
    api.struct("D3D11_DEPTH_STENCIL_VIEW_DESC", header=h, fields="""
        DXGI_FORMAT Format; D3D11_DSV_DIMENSION ViewDimension; [enum=D3D11_DSV_FLAG] UINT Flags;
        union {
            D3D11_TEX1D_DSV Texture1D; D3D11_TEX1D_ARRAY_DSV Texture1DArray;
            D3D11_TEX2D_DSV Texture2D; D3D11_TEX2D_ARRAY_DSV Texture2DArray;
            D3D11_TEX2DMS_DSV Texture2DMS; D3D11_TEX2DMS_ARRAY_DSV Texture2DMSArray;
        };""")

    # Unordered access views.
    api.struct("D3D11_BUFFER_UAV", header=h, fields="""
        UINT FirstElement; UINT NumElements; [enum=D3D11_BUFFER_UAV_FLAG] UINT Flags;""")
    api.struct("D3D11_TEX1D_UAV", header=h, fields="UINT MipSlice;")
    api.struct("D3D11_TEX1D_ARRAY_UAV", header=h, fields="""
        UINT MipSlice; UINT FirstArraySlice; UINT ArraySize;""")
    api.struct("D3D11_TEX2D_UAV", header=h, fields="UINT MipSlice;")
    api.struct("D3D11_TEX2D_ARRAY_UAV", header=h, fields="""
        UINT MipSlice; UINT FirstArraySlice; UINT ArraySize;""")
    api.struct("D3D11_TEX3D_UAV", header=h, fields="""
        UINT MipSlice; UINT FirstWSlice; UINT WSize;""")
    api.struct("D3D11_UNORDERED_ACCESS_VIEW_DESC", header=h, fields="""
        DXGI_FORMAT Format; D3D11_UAV_DIMENSION ViewDimension;
        union {
            D3D11_BUFFER_UAV Buffer; D3D11_TEX1D_UAV Texture1D;
            D3D11_TEX1D_ARRAY_UAV Texture1DArray; D3D11_TEX2D_UAV Texture2D;
            D3D11_TEX2D_ARRAY_UAV Texture2DArray; D3D11_TEX3D_UAV Texture3D;
        };""")

    # Queries, predicates and counters.
    api.struct("D3D11_QUERY_DESC", header=h, fields="""
        D3D11_QUERY Query; [enum=D3D11_QUERY_MISC_FLAG] UINT MiscFlags;""")
    api.struct("D3D11_QUERY_DATA_TIMESTAMP_DISJOINT", header=h, fields="""
        UINT64 Frequency; BOOL Disjoint;""")
    api.struct("D3D11_QUERY_DATA_PIPELINE_STATISTICS", header=h, fields="""
        UINT64 IAVertices; UINT64 IAPrimitives; UINT64 VSInvocations; UINT64 GSInvocations;
        UINT64 GSPrimitives; UINT64 CInvocations; UINT64 CPrimitives; UINT64 PSInvocations;
        UINT64 HSInvocations; UINT64 DSInvocations; UINT64 CSInvocations;""")
    api.struct("D3D11_QUERY_DATA_SO_STATISTICS", header=h, fields="""
        UINT64 NumPrimitivesWritten; UINT64 PrimitivesStorageNeeded;""")
    api.struct("D3D11_COUNTER_DESC", header=h, fields="D3D11_COUNTER Counter; UINT MiscFlags;")
    api.struct("D3D11_COUNTER_INFO", header=h, fields="""
        D3D11_COUNTER LastDeviceDependentCounter; UINT NumSimultaneousCounters;
        UINT8 NumDetectableParallelUnits;""")

    # Dynamic shader linkage.
    api.struct("D3D11_CLASS_INSTANCE_DESC", header=h, fields="""
        UINT InstanceId; UINT InstanceIndex; UINT TypeId; UINT ConstantBuffer;
        UINT BaseConstantBufferOffset; UINT BaseTexture; UINT BaseSampler; BOOL Created;""")

    # CheckFeatureSupport data, in D3D11_FEATURE order.
    api.struct("D3D11_FEATURE_DATA_THREADING", header=h, fields="""
        BOOL DriverConcurrentCreates; BOOL DriverCommandLists;""")
    api.struct("D3D11_FEATURE_DATA_DOUBLES", header=h, fields="""
        BOOL DoublePrecisionFloatShaderOps;""")
    api.struct("D3D11_FEATURE_DATA_FORMAT_SUPPORT", header=h, fields="""
        DXGI_FORMAT InFormat; [enum=D3D11_FORMAT_SUPPORT] UINT OutFormatSupport;""")
    api.struct("D3D11_FEATURE_DATA_FORMAT_SUPPORT2", header=h, fields="""
        DXGI_FORMAT InFormat; [enum=D3D11_FORMAT_SUPPORT2] UINT OutFormatSupport2;""")
    api.struct("D3D11_FEATURE_DATA_D3D10_X_HARDWARE_OPTIONS", header=h, fields="""
        BOOL ComputeShaders_Plus_RawAndStructuredBuffers_Via_Shader_4_x;""")
    api.struct("D3D11_FEATURE_DATA_D3D11_OPTIONS", header=h, fields="""
        BOOL OutputMergerLogicOp; BOOL UAVOnlyRenderingForcedSampleCount;
        BOOL DiscardAPIsSeenByDriver; BOOL FlagsForUpdateAndCopySeenByDriver;
        BOOL ClearView; BOOL CopyWithOverlap; BOOL ConstantBufferPartialUpdate;
        BOOL ConstantBufferOffsetting; BOOL MapNoOverwriteOnDynamicConstantBuffer;
        BOOL MapNoOverwriteOnDynamicBufferSRV; BOOL MultisampleRTVWithForcedSampleCountOne;
        BOOL SAD4ShaderInstructions; BOOL ExtendedDoublesShaderInstructions;
        BOOL ExtendedResourceSharing;""")
    api.struct("D3D11_FEATURE_DATA_ARCHITECTURE_INFO", header=h, fields="""
        BOOL TileBasedDeferredRenderer;""")
    api.struct("D3D11_FEATURE_DATA_D3D9_OPTIONS", header=h, fields="""
        BOOL FullNonPow2TextureSupport;""")
    api.struct("D3D11_FEATURE_DATA_SHADER_MIN_PRECISION_SUPPORT", header=h, fields="""
        [enum=D3D11_SHADER_MIN_PRECISION_SUPPORT] UINT PixelShaderMinPrecision;
        [enum=D3D11_SHADER_MIN_PRECISION_SUPPORT] UINT AllOtherShaderStagesMinPrecision;""")
    api.struct("D3D11_FEATURE_DATA_D3D9_SHADOW_SUPPORT", header=h, fields="""
        BOOL SupportsDepthAsTextureWithLessEqualComparisonFilter;""")
    api.struct("D3D11_FEATURE_DATA_D3D11_OPTIONS1", header=h, fields="""
        D3D11_TILED_RESOURCES_TIER TiledResourcesTier; BOOL MinMaxFiltering;
        BOOL ClearViewAlsoSupportsDepthOnlyFormats; BOOL MapOnDefaultBuffers;""")
    api.struct("D3D11_FEATURE_DATA_D3D9_SIMPLE_INSTANCING_SUPPORT", header=h, fields="""
        BOOL SimpleInstancingSupported;""")
    api.struct("D3D11_FEATURE_DATA_MARKER_SUPPORT", header=h, fields="BOOL Profile;")
    api.struct("D3D11_FEATURE_DATA_D3D9_OPTIONS1", header=h, fields="""
        BOOL FullNonPow2TextureSupported;
        BOOL DepthAsTextureWithLessEqualComparisonFilterSupported;
        BOOL SimpleInstancingSupported;
        BOOL TextureCubeFaceRenderTargetWithNonCubeDepthStencilSupported;""")
    # Windows 10.  D3D11_FEATURE_DATA_D3D11_OPTIONS4 is in d3d11_4.h (d3d11_3.py).
    api.struct("D3D11_FEATURE_DATA_D3D11_OPTIONS2", header=h, fields="""
        BOOL PSSpecifiedStencilRefSupported; BOOL TypedUAVLoadAdditionalFormats;
        BOOL ROVsSupported; D3D11_CONSERVATIVE_RASTERIZATION_TIER ConservativeRasterizationTier;
        D3D11_TILED_RESOURCES_TIER TiledResourcesTier; BOOL MapOnDefaultTextures;
        BOOL StandardSwizzle; BOOL UnifiedMemoryArchitecture;""")
    api.struct("D3D11_FEATURE_DATA_D3D11_OPTIONS3", header=h, fields="""
        BOOL VPAndRTArrayIndexFromAnyShaderFeedingRasterizer;""")
    api.struct("D3D11_FEATURE_DATA_GPU_VIRTUAL_ADDRESS_SUPPORT", header=h, fields="""
        UINT MaxGPUVirtualAddressBitsPerResource; UINT MaxGPUVirtualAddressBitsPerProcess;""")
    api.struct("D3D11_FEATURE_DATA_SHADER_CACHE", header=h, fields="""
        [enum=D3D11_SHADER_CACHE_SUPPORT_FLAGS] UINT SupportFlags;""")
    api.struct("D3D11_FEATURE_DATA_D3D11_OPTIONS5", header=h, fields="""
        D3D11_SHARED_RESOURCE_TIER SharedResourceTier;""")


# ---------------------------------------------------------------------------
# d3d11_1.h (Direct3D 11.1).  The video and crypto-session items are left out.

def _d3d11_1(api) -> None:
    h = "d3d11_1"
    api.enum("D3D11_COPY_FLAGS", header=h, flags=True, values="""
        D3D11_COPY_NO_OVERWRITE = 0x1, D3D11_COPY_DISCARD = 0x2""")
    api.enum("D3D11_LOGIC_OP", header=h, values="""
        D3D11_LOGIC_OP_CLEAR = 0, D3D11_LOGIC_OP_SET = 1, D3D11_LOGIC_OP_COPY = 2,
        D3D11_LOGIC_OP_COPY_INVERTED = 3, D3D11_LOGIC_OP_NOOP = 4, D3D11_LOGIC_OP_INVERT = 5,
        D3D11_LOGIC_OP_AND = 6, D3D11_LOGIC_OP_NAND = 7, D3D11_LOGIC_OP_OR = 8,
        D3D11_LOGIC_OP_NOR = 9, D3D11_LOGIC_OP_XOR = 10, D3D11_LOGIC_OP_EQUIV = 11,
        D3D11_LOGIC_OP_AND_REVERSE = 12, D3D11_LOGIC_OP_AND_INVERTED = 13,
        D3D11_LOGIC_OP_OR_REVERSE = 14, D3D11_LOGIC_OP_OR_INVERTED = 15""")
    api.enum("D3D11_1_CREATE_DEVICE_CONTEXT_STATE_FLAG", header=h, flags=True, values="""
        D3D11_1_CREATE_DEVICE_CONTEXT_STATE_SINGLETHREADED = 0x1""")
    api.struct("D3D11_RENDER_TARGET_BLEND_DESC1", header=h, fields="""
        BOOL BlendEnable; BOOL LogicOpEnable; D3D11_BLEND SrcBlend; D3D11_BLEND DestBlend;
        D3D11_BLEND_OP BlendOp; D3D11_BLEND SrcBlendAlpha; D3D11_BLEND DestBlendAlpha;
        D3D11_BLEND_OP BlendOpAlpha; D3D11_LOGIC_OP LogicOp;
        [enum=D3D11_COLOR_WRITE_ENABLE] UINT8 RenderTargetWriteMask;""")
    api.struct("D3D11_BLEND_DESC1", header=h, fields="""
        BOOL AlphaToCoverageEnable; BOOL IndependentBlendEnable;
        D3D11_RENDER_TARGET_BLEND_DESC1 RenderTarget[8];""")
    api.struct("D3D11_RASTERIZER_DESC1", header=h, fields="""
        D3D11_FILL_MODE FillMode; D3D11_CULL_MODE CullMode; BOOL FrontCounterClockwise;
        INT DepthBias; FLOAT DepthBiasClamp; FLOAT SlopeScaledDepthBias;
        BOOL DepthClipEnable; BOOL ScissorEnable; BOOL MultisampleEnable;
        BOOL AntialiasedLineEnable; UINT ForcedSampleCount;""")


# ---------------------------------------------------------------------------
# d3d11_2.h (Direct3D 11.2): tiled resources.

def _d3d11_2(api) -> None:
    h = "d3d11_2"
    api.constants_block(header=h, text="D3D11_PACKED_TILE 0xffffffff")
    api.struct("D3D11_TILED_RESOURCE_COORDINATE", header=h, fields="""
        UINT X; UINT Y; UINT Z; UINT Subresource;""")
    api.struct("D3D11_TILE_REGION_SIZE", header=h, fields="""
        UINT NumTiles; BOOL bUseBox; UINT Width; UINT16 Height; UINT16 Depth;""")
    api.enum("D3D11_TILE_MAPPING_FLAG", header=h, flags=True, values="""
        D3D11_TILE_MAPPING_NO_OVERWRITE = 0x1""")
    api.enum("D3D11_TILE_RANGE_FLAG", header=h, flags=True, values="""
        D3D11_TILE_RANGE_NULL = 0x1, D3D11_TILE_RANGE_SKIP = 0x2,
        D3D11_TILE_RANGE_REUSE_SINGLE_TILE = 0x4""")
    api.struct("D3D11_SUBRESOURCE_TILING", header=h, fields="""
        UINT WidthInTiles; UINT16 HeightInTiles; UINT16 DepthInTiles;
        UINT StartTileIndexInOverallResource;""")
    api.struct("D3D11_TILE_SHAPE", header=h, fields="""
        UINT WidthInTexels; UINT HeightInTexels; UINT DepthInTexels;""")
    api.struct("D3D11_PACKED_MIP_DESC", header=h, fields="""
        UINT8 NumStandardMips; UINT8 NumPackedMips; UINT NumTilesForPackedMips;
        UINT StartTileIndexInOverallResource;""")
    api.enum("D3D11_CHECK_MULTISAMPLE_QUALITY_LEVELS_FLAG", header=h, flags=True, values="""
        D3D11_CHECK_MULTISAMPLE_QUALITY_LEVELS_TILED_RESOURCE = 0x1""")
    api.enum("D3D11_TILE_COPY_FLAG", header=h, flags=True, values="""
        D3D11_TILE_COPY_NO_OVERWRITE = 0x1,
        D3D11_TILE_COPY_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE = 0x2,
        D3D11_TILE_COPY_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER = 0x4""")
