// The SM4/SM5 tokenized program format (the token stream of a DXBC
// container's SHDR/SHEX chunk), as Microsoft's d3d12TokenizedProgramFormat.hpp
// documents it: program types, opcodes, operand types, the bit fields of
// opcode and operand tokens, and the enumerations declarations use. The
// opcode table (opcode_info) says, for every D3D10.0 to D3D11.2 opcode, its
// assembly name, how its tokens after the opcode token are laid out, its
// destination and source operand counts and what its opcode-specific control
// bits (11..23) mean.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace d3dcap::runtime::shader {

// The version token: [3:0] minor, [7:4] major, [31:16] program type.
enum class ProgramType : std::uint16_t {
    Pixel = 0,
    Vertex = 1,
    Geometry = 2,
    Hull = 3,
    Domain = 4,
    Compute = 5,
};
// "ps", "vs", "gs", "hs", "ds", "cs"; empty for an unknown type.
std::string_view program_type_prefix(ProgramType type);
std::optional<ProgramType> parse_program_type_prefix(std::string_view prefix);

// D3D10_SB_OPCODE_TYPE, D3D10_1_SB_*, D3D11_SB_*, D3D11_1_SB_* and
// D3DWDDM1_3_SB_* (the D3D11.2 tiled-resource opcodes), by number. 107, 112,
// 209 and 218 are the RESERVED markers between versions: not opcodes.
enum class Opcode : std::uint16_t {
    Add,
    And,
    Break,
    Breakc,
    Call,
    Callc,
    Case,
    Continue,
    Continuec,
    Cut,
    Default,
    DerivRtx,
    DerivRty,
    Discard,
    Div,
    Dp2,
    Dp3,
    Dp4,
    Else,
    Emit,
    EmitThenCut,
    EndIf,
    EndLoop,
    EndSwitch,
    Eq,
    Exp,
    Frc,
    Ftoi,
    Ftou,
    Ge,
    Iadd,
    If,
    Ieq,
    Ige,
    Ilt,
    Imad,
    Imax,
    Imin,
    Imul,
    Ine,
    Ineg,
    Ishl,
    Ishr,
    Itof,
    Label,
    Ld,
    LdMs,
    Log,
    Loop,
    Lt,
    Mad,
    Min,
    Max,
    CustomData,
    Mov,
    Movc,
    Mul,
    Ne,
    Nop,
    Not,
    Or,
    Resinfo,
    Ret,
    Retc,
    RoundNe,
    RoundNi,
    RoundPi,
    RoundZ,
    Rsq,
    Sample,
    SampleC,
    SampleCLz,
    SampleL,
    SampleD,
    SampleB,
    Sqrt,
    Switch,
    Sincos,
    Udiv,
    Ult,
    Uge,
    Umul,
    Umad,
    Umax,
    Umin,
    Ushr,
    Utof,
    Xor,
    DclResource,
    DclConstantBuffer,
    DclSampler,
    DclIndexRange,
    DclGsOutputPrimitiveTopology,
    DclGsInputPrimitive,
    DclMaxOutputVertexCount,
    DclInput,
    DclInputSgv,
    DclInputSiv,
    DclInputPs,
    DclInputPsSgv,
    DclInputPsSiv,
    DclOutput,
    DclOutputSgv,
    DclOutputSiv,
    DclTemps,
    DclIndexableTemp,
    DclGlobalFlags,
    Reserved10_0,
    Lod,
    Gather4,
    SamplePos,
    SampleInfo,
    Reserved10_1,
    HsDecls,
    HsControlPointPhase,
    HsForkPhase,
    HsJoinPhase,
    EmitStream,
    CutStream,
    EmitThenCutStream,
    InterfaceCall,
    Bufinfo,
    DerivRtxCoarse,
    DerivRtxFine,
    DerivRtyCoarse,
    DerivRtyFine,
    Gather4C,
    Gather4Po,
    Gather4PoC,
    Rcp,
    F32ToF16,
    F16ToF32,
    Uaddc,
    Usubb,
    Countbits,
    FirstbitHi,
    FirstbitLo,
    FirstbitShi,
    Ubfe,
    Ibfe,
    Bfi,
    Bfrev,
    Swapc,
    DclStream,
    DclFunctionBody,
    DclFunctionTable,
    DclInterface,
    DclInputControlPointCount,
    DclOutputControlPointCount,
    DclTessDomain,
    DclTessPartitioning,
    DclTessOutputPrimitive,
    DclHsMaxTessFactor,
    DclHsForkPhaseInstanceCount,
    DclHsJoinPhaseInstanceCount,
    DclThreadGroup,
    DclUavTyped,
    DclUavRaw,
    DclUavStructured,
    DclTgsmRaw,
    DclTgsmStructured,
    DclResourceRaw,
    DclResourceStructured,
    LdUavTyped,
    StoreUavTyped,
    LdRaw,
    StoreRaw,
    LdStructured,
    StoreStructured,
    AtomicAnd,
    AtomicOr,
    AtomicXor,
    AtomicCmpStore,
    AtomicIadd,
    AtomicImax,
    AtomicImin,
    AtomicUmax,
    AtomicUmin,
    ImmAtomicAlloc,
    ImmAtomicConsume,
    ImmAtomicIadd,
    ImmAtomicAnd,
    ImmAtomicOr,
    ImmAtomicXor,
    ImmAtomicExch,
    ImmAtomicCmpExch,
    ImmAtomicImax,
    ImmAtomicImin,
    ImmAtomicUmax,
    ImmAtomicUmin,
    Sync,
    Dadd,
    Dmax,
    Dmin,
    Dmul,
    Deq,
    Dge,
    Dlt,
    Dne,
    Dmov,
    Dmovc,
    Dtof,
    Ftod,
    EvalSnapped,
    EvalSampleIndex,
    EvalCentroid,
    DclGsInstanceCount,
    Abort,
    DebugBreak,
    Reserved11_0,
    Ddiv,
    Dfma,
    Drcp,
    Msad,
    Dtoi,
    Dtou,
    Itod,
    Utod,
    Reserved11_1,
    Gather4Feedback,
    Gather4CFeedback,
    Gather4PoFeedback,
    Gather4PoCFeedback,
    LdFeedback,
    LdMsFeedback,
    LdUavTypedFeedback,
    LdRawFeedback,
    LdStructuredFeedback,
    SampleLFeedback,
    SampleCLzFeedback,
    SampleClampFeedback,
    SampleBClampFeedback,
    SampleDClampFeedback,
    SampleCClampFeedback,
    CheckAccessFullyMapped,
};
inline constexpr std::uint32_t kOpcodeCount = 235;

// How the tokens after an opcode token (and its extended opcode tokens) are
// laid out, and which opcode-token bits a declaration uses.
enum class Layout : std::uint8_t {
    Operands,                // operands only (every instruction but the four below)
    InterfaceCall,           // fcall: a function index DWORD, then the interface operand
    CustomData,              // DWORD 1 is the block length; the class is in bits 11..31
    HsPhase,                 // hs_decls and the phase markers: nothing
    DclResource,             // t#, return-type token; [15:11] dimension, [22:16] samples
    DclConstantBuffer,       // cb#[size]; [11] dynamically indexed
    DclSampler,              // s#; [14:11] mode
    DclIndexRange,           // v#/o# with mask, register count
    DclGsOutputTopology,     // [17:11] primitive topology
    DclGsInputPrimitive,     // [16:11] primitive
    DclCount,                // one DWORD: maxout, temps, gsinstances, fork/join counts
    DclRegister,             // one operand: dcl_input, dcl_output, dcl_stream
    DclRegisterName,         // operand, name token: _sgv/_siv
    DclInputPs,              // operand; [14:11] interpolation
    DclInputPsName,          // operand, name token; [14:11] interpolation
    DclIndexableTemp,        // register, register count, component count
    DclGlobalFlags,          // [23:11] flags
    DclFunctionBody,         // function body number
    DclFunctionTable,        // table number, length, function bodies
    DclInterface,            // id, table size, lengths, function tables; [11] indexed
    DclControlPointCount,    // [16:11] count
    DclTessDomain,           // [12:11]
    DclTessPartitioning,     // [13:11]
    DclTessOutputPrimitive,  // [13:11]
    DclHsMaxTessFactor,      // one float DWORD
    DclThreadGroup,          // x, y, z
    DclUavTyped,             // u#, return-type token; [15:11] dimension, [17:16] flags
    DclUavRaw,               // u#; [17:16] flags
    DclUavStructured,        // u#, stride; [17:16] flags, [23] counter
    DclTgsmRaw,              // g#, byte count
    DclTgsmStructured,       // g#, stride, structure count
    DclResourceRaw,          // t#
    DclResourceStructured,   // t#, stride
};

// How the disassembler prints an instruction's 32-bit immediates: as floats,
// as integers, as doubles (64-bit immediates), or by the look of the bits.
enum class NumberKind : std::uint8_t { Float, Integer, Double, Untyped };

// Which D3D version introduced an opcode.
enum class Introduced : std::uint8_t { D3D10_0, D3D10_1, D3D11_0, D3D11_1, D3D11_2 };

// What an opcode's control bits mean (OpcodeInfo::flags).
namespace opcode_flag {
inline constexpr std::uint16_t kDeclaration = 1 << 0;        // a dcl_* (bits 11..23 are its own)
inline constexpr std::uint16_t kTestBoolean = 1 << 1;        // [18] 0 = _z, 1 = _nz
inline constexpr std::uint16_t kSaturate = 1 << 2;           // [13] _sat is meaningful
inline constexpr std::uint16_t kResinfoReturnType = 1 << 3;  // [12:11] float/rcpFloat/uint
inline constexpr std::uint16_t kUintReturnType = 1 << 4;     // [12:11] float/uint (sampleinfo)
inline constexpr std::uint16_t kSyncFlags = 1 << 5;          // [14:11] sync flags
inline constexpr std::uint16_t kTexelOffsets = 1 << 6;       // takes _aoffimmi(u,v,w)
inline constexpr std::uint16_t kResourceTypes = 1 << 7;      // SM5: resource dim/return types
inline constexpr std::uint16_t kControlFlow = 1 << 8;        // opens or closes a block
}  // namespace opcode_flag

struct OpcodeInfo {
    Opcode opcode = Opcode::Nop;
    std::string_view name;  // fxc's assembly name; empty for a reserved number
    Layout layout = Layout::Operands;
    std::uint8_t destinations = 0;  // Layout::Operands: leading destination operands
    std::uint8_t sources = 0;       // Layout::Operands: source operands after them
    NumberKind numbers = NumberKind::Integer;
    std::uint16_t flags = 0;
    Introduced introduced = Introduced::D3D10_0;

    bool is_declaration() const { return flags & opcode_flag::kDeclaration; }
    std::uint32_t operand_count() const { return destinations + std::uint32_t{sources}; }
};

// The table entry of an opcode number, or nullptr when the number is not an
// opcode (reserved or past the last).
const OpcodeInfo* opcode_info(std::uint32_t opcode);
inline const OpcodeInfo& opcode_info(Opcode opcode) {
    return *opcode_info(static_cast<std::uint32_t>(opcode));
}
// The opcode an assembly name stands for: the table's names, plus the
// documentation's spellings (dcl_constantBuffer, dcl_maxOutputVertexCount,
// emitThenCut, ld2dms, ...) and dcl_immediateConstantBuffer for customdata.
const OpcodeInfo* find_opcode(std::string_view name);

// D3D10_SB_OPERAND_TYPE.
enum class OperandType : std::uint8_t {
    Temp = 0,
    Input = 1,
    Output = 2,
    IndexableTemp = 3,
    Immediate32 = 4,
    Immediate64 = 5,
    Sampler = 6,
    Resource = 7,
    ConstantBuffer = 8,
    ImmediateConstantBuffer = 9,
    Label = 10,
    InputPrimitiveId = 11,
    OutputDepth = 12,
    Null = 13,
    Rasterizer = 14,
    OutputCoverageMask = 15,
    Stream = 16,
    FunctionBody = 17,
    FunctionTable = 18,
    Interface = 19,
    FunctionInput = 20,
    FunctionOutput = 21,
    OutputControlPointId = 22,
    InputForkInstanceId = 23,
    InputJoinInstanceId = 24,
    InputControlPoint = 25,
    OutputControlPoint = 26,
    InputPatchConstant = 27,
    InputDomainPoint = 28,
    ThisPointer = 29,
    UnorderedAccessView = 30,
    ThreadGroupSharedMemory = 31,
    InputThreadId = 32,
    InputThreadGroupId = 33,
    InputThreadIdInGroup = 34,
    InputCoverageMask = 35,
    InputThreadIdInGroupFlattened = 36,
    InputGsInstanceId = 37,
    OutputDepthGreaterEqual = 38,
    OutputDepthLessEqual = 39,
    CycleCounter = 40,
    OutputStencilRef = 41,
    InnerCoverage = 42,
};
inline constexpr std::uint32_t kOperandTypeCount = 43;

// How an operand type is written: "r" then indices, or a whole name
// ("vThreadID"); `components` is the component count an operand of the type
// has when written without a suffix (1 for the scalar system values).
struct OperandTypeInfo {
    std::string_view prefix;
    bool named = false;  // prefix is the whole name, no register number
    std::uint8_t components = 0;
};
const OperandTypeInfo& operand_type_info(OperandType type);

// Operand token fields.
enum class ComponentSelection : std::uint8_t { Mask = 0, Swizzle = 1, Select1 = 2 };
enum class IndexRepresentation : std::uint8_t {
    Immediate32 = 0,
    Immediate64 = 1,
    Relative = 2,
    Immediate32PlusRelative = 3,
    Immediate64PlusRelative = 4,
};
enum class OperandModifier : std::uint8_t { None = 0, Neg = 1, Abs = 2, AbsNeg = 3 };
enum class ExtendedOperandType : std::uint8_t { Empty = 0, Modifier = 1 };
enum class ExtendedOpcodeType : std::uint8_t {
    Empty = 0,
    SampleControls = 1,
    ResourceDim = 2,
    ResourceReturnType = 3,
};

// Bit fields of the opcode token.
namespace token {
inline constexpr std::uint32_t kOpcodeMask = 0x7ff;
inline constexpr std::uint32_t kControlsMask = 0x00fff800;  // bits 11..23
inline constexpr std::uint32_t kLengthShift = 24;
inline constexpr std::uint32_t kLengthMask = 0x7f000000;
inline constexpr std::uint32_t kExtended = 0x80000000;
inline constexpr std::uint32_t kSaturate = 0x00002000;
inline constexpr std::uint32_t kTestNonzero = 0x00040000;
inline constexpr std::uint32_t kPreciseShift = 19;
inline constexpr std::uint32_t kPreciseMask = 0x00780000;
inline constexpr std::uint32_t kReturnTypeShift = 11;
inline constexpr std::uint32_t kReturnTypeMask = 0x00001800;
// Sync flags (bits 11..14).
inline constexpr std::uint32_t kSyncThreadsInGroup = 0x00000800;
inline constexpr std::uint32_t kSyncGroupSharedMemory = 0x00001000;
inline constexpr std::uint32_t kSyncUavMemoryGroup = 0x00002000;
inline constexpr std::uint32_t kSyncUavMemoryGlobal = 0x00004000;
// UAV declaration flags.
inline constexpr std::uint32_t kUavGloballyCoherent = 0x00010000;
inline constexpr std::uint32_t kUavRasterizerOrdered = 0x00020000;
inline constexpr std::uint32_t kUavHasCounter = 0x00800000;
// dcl_globalFlags bits.
inline constexpr std::uint32_t kGlobalRefactoringAllowed = 1u << 11;
inline constexpr std::uint32_t kGlobalDoublePrecision = 1u << 12;
inline constexpr std::uint32_t kGlobalForceEarlyDepthStencil = 1u << 13;
inline constexpr std::uint32_t kGlobalRawAndStructuredBuffers = 1u << 14;
inline constexpr std::uint32_t kGlobalSkipOptimization = 1u << 15;
inline constexpr std::uint32_t kGlobalMinimumPrecision = 1u << 16;
inline constexpr std::uint32_t kGlobalDoubleExtensions = 1u << 17;
inline constexpr std::uint32_t kGlobalShaderExtensions = 1u << 18;
inline constexpr std::uint32_t kGlobalAllResourcesBound = 1u << 19;
// Custom-data classes.
inline constexpr std::uint32_t kCustomDataComment = 0;
inline constexpr std::uint32_t kCustomDataDebugInfo = 1;
inline constexpr std::uint32_t kCustomDataOpaque = 2;
inline constexpr std::uint32_t kCustomDataImmediateConstantBuffer = 3;
inline constexpr std::uint32_t kCustomDataShaderMessage = 4;
inline constexpr std::uint32_t kCustomDataClipPlaneConstantMappings = 5;
}  // namespace token

// D3D10_SB_RESOURCE_DIMENSION.
enum class ResourceDimension : std::uint8_t {
    Unknown = 0,
    Buffer = 1,
    Texture1D = 2,
    Texture2D = 3,
    Texture2DMS = 4,
    Texture3D = 5,
    TextureCube = 6,
    Texture1DArray = 7,
    Texture2DArray = 8,
    Texture2DMSArray = 9,
    TextureCubeArray = 10,
    RawBuffer = 11,
    StructuredBuffer = 12,
};
// D3D10_SB_RESOURCE_RETURN_TYPE (0: none given).
enum class ReturnType : std::uint8_t {
    None = 0,
    Unorm = 1,
    Snorm = 2,
    Sint = 3,
    Uint = 4,
    Float = 5,
    Mixed = 6,
    Double = 7,
    Continued = 8,
    Unused = 9,
};
enum class SamplerMode : std::uint8_t { Default = 0, Comparison = 1, Mono = 2 };
// D3D10_SB_INTERPOLATION_MODE.
enum class InterpolationMode : std::uint8_t {
    Undefined = 0,
    Constant = 1,
    Linear = 2,
    LinearCentroid = 3,
    LinearNoPerspective = 4,
    LinearNoPerspectiveCentroid = 5,
    LinearSample = 6,
    LinearNoPerspectiveSample = 7,
};
// D3D10_SB_PRIMITIVE_TOPOLOGY (GS output).
enum class PrimitiveTopology : std::uint8_t {
    Undefined = 0,
    PointList = 1,
    LineList = 2,
    LineStrip = 3,
    TriangleList = 4,
    TriangleStrip = 5,
    LineListAdj = 10,
    LineStripAdj = 11,
    TriangleListAdj = 12,
    TriangleStripAdj = 13,
};
// D3D10_SB_PRIMITIVE (GS input): 8 + n - 1 is an n-control-point patch.
enum class Primitive : std::uint8_t {
    Undefined = 0,
    Point = 1,
    Line = 2,
    Triangle = 3,
    LineAdj = 6,
    TriangleAdj = 7,
    Patch1 = 8,
    Patch32 = 39,
};
// D3D10_SB_NAME: the system value of a dcl_*_siv/_sgv (not D3D_NAME, which
// signatures use: see signature_system_value()).
enum class SystemName : std::uint16_t {
    Undefined = 0,
    Position = 1,
    ClipDistance = 2,
    CullDistance = 3,
    RenderTargetArrayIndex = 4,
    ViewportArrayIndex = 5,
    VertexId = 6,
    PrimitiveId = 7,
    InstanceId = 8,
    IsFrontFace = 9,
    SampleIndex = 10,
    FinalQuadUEq0EdgeTessFactor = 11,
    FinalQuadVEq0EdgeTessFactor = 12,
    FinalQuadUEq1EdgeTessFactor = 13,
    FinalQuadVEq1EdgeTessFactor = 14,
    FinalQuadUInsideTessFactor = 15,
    FinalQuadVInsideTessFactor = 16,
    FinalTriUEq0EdgeTessFactor = 17,
    FinalTriVEq0EdgeTessFactor = 18,
    FinalTriWEq0EdgeTessFactor = 19,
    FinalTriInsideTessFactor = 20,
    FinalLineDetailTessFactor = 21,
    FinalLineDensityTessFactor = 22,
};
enum class TessDomain : std::uint8_t { Undefined = 0, Isoline = 1, Triangle = 2, Quad = 3 };
enum class TessPartitioning : std::uint8_t {
    Undefined = 0,
    Integer = 1,
    Pow2 = 2,
    FractionalOdd = 3,
    FractionalEven = 4,
};
enum class TessOutputPrimitive : std::uint8_t {
    Undefined = 0,
    Point = 1,
    Line = 2,
    TriangleCw = 3,
    TriangleCcw = 4,
};
enum class ResinfoReturnType : std::uint8_t { Float = 0, RcpFloat = 1, Uint = 2 };

// Assembly names of the enumerations ("texture2d", "float", "mode_default",
// "linear noperspective", "trianglestrip", "patch3", "position",
// "domain_tri", "partitioning_integer", "output_triangle_cw"); empty for a
// value that has none. parse_* take the same names.
std::string_view resource_dimension_name(ResourceDimension value);
std::string_view return_type_name(ReturnType value);
std::string_view sampler_mode_name(SamplerMode value);
std::string_view interpolation_mode_name(InterpolationMode value);
std::string_view primitive_topology_name(PrimitiveTopology value);
std::string primitive_name(Primitive value);
std::string_view system_name_name(SystemName value);
std::string_view tess_domain_name(TessDomain value);
std::string_view tess_partitioning_name(TessPartitioning value);
std::string_view tess_output_primitive_name(TessOutputPrimitive value);
std::optional<ResourceDimension> parse_resource_dimension(std::string_view name);
std::optional<ReturnType> parse_return_type(std::string_view name);
std::optional<SamplerMode> parse_sampler_mode(std::string_view name);
std::optional<InterpolationMode> parse_interpolation_mode(std::string_view name);
std::optional<PrimitiveTopology> parse_primitive_topology(std::string_view name);
std::optional<Primitive> parse_primitive(std::string_view name);
std::optional<SystemName> parse_system_name(std::string_view name);
std::optional<TessDomain> parse_tess_domain(std::string_view name);
std::optional<TessPartitioning> parse_tess_partitioning(std::string_view name);
std::optional<TessOutputPrimitive> parse_tess_output_primitive(std::string_view name);

// dcl_globalFlags names, one per bit from bit 11 ("refactoringAllowed", ...).
struct GlobalFlagName {
    std::uint32_t bit;
    std::string_view name;
};
std::span<const GlobalFlagName> global_flag_names();

}  // namespace d3dcap::runtime::shader
