#include "runtime/backend/vulkan/shader_translator.h"

// vkd3d_shader.h uses size_t without including <stddef.h>.
#include <stddef.h>
#include <vkd3d_shader.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/backend/vulkan/stream_output_layout.h"
#include "runtime/backend/vulkan/uav_slices.h"
#include "runtime/shader/container.h"
#include "runtime/shader/decoder.h"
#include "runtime/shader/dxbc_checksum.h"

namespace d3dcap::runtime::backend::vulkan {

namespace {

std::string take_messages(char* messages) {
    std::string text = messages ? messages : "";
    vkd3d_shader_free_messages(messages);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
}

vkd3d_shader_visibility visibility_of(int program_type) {
    switch (program_type) {
        case 0:
            return VKD3D_SHADER_VISIBILITY_PIXEL;
        case 1:
            return VKD3D_SHADER_VISIBILITY_VERTEX;
        case 2:
            return VKD3D_SHADER_VISIBILITY_GEOMETRY;
        case 3:
            return VKD3D_SHADER_VISIBILITY_HULL;
        case 4:
            return VKD3D_SHADER_VISIBILITY_DOMAIN;
        default:
            return VKD3D_SHADER_VISIBILITY_COMPUTE;
    }
}

// The descriptors the shader uses, as vkd3d-shader scans them.
bool scan(const vkd3d_shader_compile_info& base, std::vector<ShaderDescriptor>& out,
          std::string& error) {
    vkd3d_shader_scan_descriptor_info scanned{};
    scanned.type = VKD3D_SHADER_STRUCTURE_TYPE_SCAN_DESCRIPTOR_INFO;
    vkd3d_shader_compile_info info = base;
    info.next = &scanned;
    char* messages = nullptr;
    const int result = vkd3d_shader_scan(&info, &messages);
    const std::string text = take_messages(messages);
    if (result != VKD3D_OK) {
        error = "vkd3d-shader cannot read it (" + std::to_string(result) + ")" +
                (text.empty() ? "" : ": " + text);
        return false;
    }
    for (unsigned i = 0; i < scanned.descriptor_count; ++i) {
        const vkd3d_shader_descriptor_info& d = scanned.descriptors[i];
        ShaderDescriptor descriptor;
        descriptor.reg = d.register_index;
        descriptor.buffer = d.resource_type == VKD3D_SHADER_RESOURCE_BUFFER;
        descriptor.counter = d.flags & VKD3D_SHADER_DESCRIPTOR_INFO_FLAG_UAV_COUNTER;
        if (d.resource_type <= VKD3D_SHADER_RESOURCE_TEXTURE_CUBEARRAY)
            descriptor.shape = static_cast<ResourceShape>(d.resource_type);
        switch (d.type) {
            case VKD3D_SHADER_DESCRIPTOR_TYPE_CBV:
                descriptor.kind = RegisterKind::ConstantBuffer;
                descriptor.binding = BindingSpace::kConstantBuffers + d.register_index;
                break;
            case VKD3D_SHADER_DESCRIPTOR_TYPE_SRV:
                descriptor.kind = RegisterKind::Resource;
                descriptor.binding = BindingSpace::kResources + d.register_index;
                break;
            case VKD3D_SHADER_DESCRIPTOR_TYPE_SAMPLER:
                descriptor.kind = RegisterKind::Sampler;
                descriptor.binding = BindingSpace::kSamplers + d.register_index;
                break;
            default:
                descriptor.kind = RegisterKind::Uav;
                descriptor.binding = BindingSpace::kUavs + d.register_index;
                break;
        }
        const std::uint32_t limits[] = {14, 128, 16, 64};
        if (d.count != 1 || d.register_index >= limits[static_cast<int>(descriptor.kind)]) {
            error = "register " + std::to_string(d.register_index) +
                    " (or an array of registers) is outside D3D11's slots";
            vkd3d_shader_free_scan_descriptor_info(&scanned);
            return false;
        }
        out.push_back(descriptor);
    }
    vkd3d_shader_free_scan_descriptor_info(&scanned);
    return true;
}

// D3DCAP_SPIRV_DIR=DIR: every translated module is written to
// DIR/<bytecode hash>.spv, for spirv-val, spirv-dis and the tests.
void dump_module(std::uint64_t key, const std::vector<std::uint32_t>& spirv) {
    const char* directory = std::getenv("D3DCAP_SPIRV_DIR");
    if (directory == nullptr || *directory == 0) return;
    char name[32];
    std::snprintf(name, sizeof name, "/%016llx.spv", static_cast<unsigned long long>(key));
    if (std::FILE* file = std::fopen((std::string(directory) + name).c_str(), "wb")) {
        std::fwrite(spirv.data(), 4, spirv.size(), file);
        std::fclose(file);
    }
}

using shader::Opcode;

// What vkd3d-shader 1.2 refuses, or accepts and then drops or gets wrong,
// by opcode (pipeline-facts.md); empty for the rest.
const char* unsupported(Opcode op) {
    switch (op) {
        case Opcode::Call:
        case Opcode::Callc:
            return "subroutine calls are refused by vkd3d-shader 1.2";
        case Opcode::InterfaceCall:
        case Opcode::DclFunctionBody:
        case Opcode::DclFunctionTable:
        case Opcode::DclInterface:
            return "class linkage is dropped by vkd3d-shader 1.2";
        case Opcode::EmitThenCut:
        case Opcode::EmitThenCutStream:
            return "emit_then_cut is refused by vkd3d-shader 1.2";
        case Opcode::Umad:
        case Opcode::Uaddc:
        case Opcode::Usubb:
        case Opcode::Msad:
        case Opcode::EvalSnapped:
        case Opcode::Abort:
        case Opcode::DebugBreak:
        case Opcode::DclOutputSgv:
            return "refused by vkd3d-shader 1.2";
        default:
            break;
    }
    const auto number = static_cast<std::uint32_t>(op);
    if ((number >= static_cast<std::uint32_t>(Opcode::Dadd) &&
         number <= static_cast<std::uint32_t>(Opcode::Ftod)) ||
        op == Opcode::Ddiv || op == Opcode::Dfma || op == Opcode::Drcp || op == Opcode::Dtoi ||
        op == Opcode::Dtou || op == Opcode::Itod || op == Opcode::Utod)
        return "double precision is refused by vkd3d-shader 1.2";
    if (number >= static_cast<std::uint32_t>(Opcode::Gather4Feedback))
        return "tiled-resource feedback is not translated by vkd3d-shader";
    return nullptr;
}

bool null_destination(const shader::Instruction& instruction, std::size_t operand) {
    return operand < instruction.operands.size() &&
           instruction.operands[operand].type == shader::OperandType::Null;
}

// Registers an instruction uses must be declared, and addressed with the
// indices and components their kind takes (vkd3d-shader asserts otherwise): r# below the
// dcl_temps count of the program or hull-shader phase, x# by
// dcl_indexableTemp with an immediate index inside it, v# and o# below 32,
// cb# with a buffer and a vector index. Empty, or what is not.
std::string undeclared(const shader::Program& program, std::uint32_t temps,
                       const shader::Operand& operand) {
    using shader::OperandType;
    const std::string prefix(shader::operand_type_info(operand.type).prefix);
    auto immediate = [&](std::uint32_t i) { return !operand.indices[i].has_relative(); };
    const bool componentless =
        operand.type != OperandType::Temp && operand.type != OperandType::Input &&
        operand.type != OperandType::Output && operand.type != OperandType::IndexableTemp &&
        operand.type != OperandType::ConstantBuffer &&
        operand.type != OperandType::ImmediateConstantBuffer;
    if (!componentless && operand.component_count == 0)
        return "uses " + prefix + " without components";
    switch (operand.type) {
        case OperandType::Temp:
            if (operand.index_dimension != 1 || !immediate(0))
                return "uses r without one immediate register number";
            if (operand.register_index() >= temps)
                return "uses r" + std::to_string(operand.register_index()) + " but " +
                       std::to_string(temps) + " temps are declared";
            break;
        case OperandType::IndexableTemp: {
            if (operand.index_dimension != 2 || !immediate(0))
                return "uses x without a register number and an element index";
            const std::uint32_t id = operand.register_index();
            const auto& declared = program.indexable_temps;
            const auto found =
                std::find_if(declared.begin(), declared.end(),
                             [&](const shader::IndexableTemp& t) { return t.reg == id; });
            if (found == declared.end())
                return "uses x" + std::to_string(id) + ", which is not declared";
            const shader::OperandIndex& element = operand.indices[1];
            if (!element.has_relative() && element.value >= found->register_count)
                return "uses x" + std::to_string(id) + "[" + std::to_string(element.value) +
                       "] of " + std::to_string(found->register_count) + " registers";
            break;
        }
        case OperandType::Input:
        case OperandType::Output:
            if (operand.index_dimension == 0)
                return "uses " + prefix + " without a register number";
            if (immediate(operand.index_dimension - 1) &&
                operand.indices[operand.index_dimension - 1].value >= shader::limits::kRegisters)
                return "uses " + prefix +
                       std::to_string(operand.indices[operand.index_dimension - 1].value) +
                       " (at most " + std::to_string(shader::limits::kRegisters) + " registers)";
            break;
        case OperandType::ConstantBuffer:
            if (operand.index_dimension != 2 || !immediate(0))
                return "uses cb without a buffer number and a vector index";
            if (program.constant_buffer(operand.register_index()) == nullptr)
                return "uses cb" + std::to_string(operand.register_index()) +
                       ", which is not declared";
            break;
        case OperandType::Resource:
        case OperandType::Sampler:
        case OperandType::UnorderedAccessView: {
            const std::uint32_t reg = operand.register_index();
            const bool declared =
                operand.type == OperandType::Resource  ? program.resource(reg) != nullptr
                : operand.type == OperandType::Sampler ? program.sampler(reg) != nullptr
                                                       : program.uav(reg) != nullptr;
            if (operand.index_dimension != 1 || !immediate(0) || !declared)
                return "uses " + prefix + std::to_string(reg) + ", which is not declared";
            break;
        }
        default:
            break;
    }
    for (std::uint32_t i = 0; i < operand.index_dimension && i < 3; ++i)
        for (const shader::Operand& relative : operand.indices[i].relative)
            if (std::string why = undeclared(program, temps, relative); !why.empty()) return why;
    return {};
}

// What only takes writes: the outputs and null, as a source.
bool write_only(shader::OperandType type) {
    using shader::OperandType;
    switch (type) {
        case OperandType::Output:
        case OperandType::OutputDepth:
        case OperandType::OutputCoverageMask:
        case OperandType::OutputDepthGreaterEqual:
        case OperandType::OutputDepthLessEqual:
        case OperandType::OutputStencilRef:
        case OperandType::Null:
            return true;
        default:
            return false;
    }
}

// Operands that must name a resource, sampler, UAV or group-shared memory
// (vkd3d-shader asserts on any other register there): by opcode, the
// operand's position and the kinds it takes; kinds 0 where there is none.
enum OperandClass : std::uint8_t {
    kView = 1,
    kUav = 2,
    kShared = 4,
    kSampler = 8,
    kRasterizer = 16
};
struct ObjectOperand {
    std::uint8_t position = 0, kinds = 0;
};
std::array<ObjectOperand, 2> object_operands(Opcode op) {
    const auto number = static_cast<std::uint32_t>(op);
    auto in = [&](Opcode first, Opcode last) {
        return number >= static_cast<std::uint32_t>(first) &&
               number <= static_cast<std::uint32_t>(last);
    };
    if (in(Opcode::Sample, Opcode::SampleB) || op == Opcode::Lod || op == Opcode::Gather4 ||
        op == Opcode::Gather4C)
        return {{{2, kView}, {3, kSampler}}};
    if (op == Opcode::Gather4Po || op == Opcode::Gather4PoC) return {{{3, kView}, {4, kSampler}}};
    if (in(Opcode::AtomicAnd, Opcode::AtomicUmin) || op == Opcode::StoreRaw ||
        op == Opcode::StoreStructured)
        return {{{0, kUav | kShared}, {}}};
    if (in(Opcode::ImmAtomicIadd, Opcode::ImmAtomicUmin)) return {{{1, kUav | kShared}, {}}};
    switch (op) {
        case Opcode::Ld:
        case Opcode::LdMs:
            return {{{2, kView}, {}}};
        case Opcode::Resinfo:
            return {{{2, kView | kUav}, {}}};
        case Opcode::SamplePos:
        case Opcode::SampleInfo:
            return {{{1, kView | kRasterizer}, {}}};
        case Opcode::Bufinfo:
            return {{{1, kView | kUav}, {}}};
        case Opcode::LdUavTyped:
            return {{{2, kUav}, {}}};
        case Opcode::StoreUavTyped:
            return {{{0, kUav}, {}}};
        case Opcode::LdRaw:
            return {{{2, kView | kUav | kShared}, {}}};
        case Opcode::LdStructured:
            return {{{3, kView | kUav | kShared}, {}}};
        case Opcode::ImmAtomicAlloc:
        case Opcode::ImmAtomicConsume:
            return {{{1, kUav}, {}}};
        default:
            return {};
    }
}

// "t# or u#".
std::string kinds_text(std::uint8_t kinds) {
    static constexpr std::pair<std::uint8_t, const char*> kNames[] = {{kView, "t#"},
                                                                      {kUav, "u#"},
                                                                      {kShared, "g#"},
                                                                      {kSampler, "s#"},
                                                                      {kRasterizer, "rasterizer"}};
    std::string text;
    for (const auto& [kind, name] : kNames) {
        if (!(kinds & kind)) continue;
        kinds &= static_cast<std::uint8_t>(~kind);
        text += (text.empty() ? "" : kinds ? ", " : " or ") + std::string(name);
    }
    return text;
}

std::uint8_t object_kind(shader::OperandType type) {
    using shader::OperandType;
    switch (type) {
        case OperandType::Resource:
            return kView;
        case OperandType::UnorderedAccessView:
            return kUav;
        case OperandType::ThreadGroupSharedMemory:
            return kShared;
        case OperandType::Sampler:
            return kSampler;
        case OperandType::Rasterizer:
            return kRasterizer;
        default:
            return 0;
    }
}

// What an instruction can write.
bool writable(shader::OperandType type) {
    using shader::OperandType;
    switch (type) {
        case OperandType::Temp:
        case OperandType::Output:
        case OperandType::IndexableTemp:
        case OperandType::OutputDepth:
        case OperandType::OutputCoverageMask:
        case OperandType::OutputDepthGreaterEqual:
        case OperandType::OutputDepthLessEqual:
        case OperandType::OutputStencilRef:
        case OperandType::Null:
        case OperandType::UnorderedAccessView:
        case OperandType::ThreadGroupSharedMemory:
            return true;
        default:
            return false;
    }
}

// Reads the shader with the project's own token reader before vkd3d-shader
// sees it: what vkd3d-shader would refuse, drop or mistranslate is refused
// here, naming the instruction; umul whose high half goes nowhere becomes
// imul (the low halves are the same), since vkd3d-shader drops umul.
bool lower(std::vector<std::uint8_t>& container, std::string& error) {
    const auto program = shader::decode_container(container, error);
    if (!program) return false;
    const auto chunks = shader::read_container(container, error);
    if (!chunks) return false;
    const shader::ContainerChunk* code = shader::code_chunk(*chunks);
    if (code == nullptr) {
        error = "has no SHDR or SHEX chunk";
        return false;
    }
    const std::size_t code_start = static_cast<std::size_t>(code->data.data() - container.data());
    bool patched = false;
    std::uint32_t temps = 0;  // declared in the program or the hull-shader phase
    for (const shader::Instruction& instruction : program->instructions) {
        auto at = [&](const std::string& why) {
            char offset[16];
            std::snprintf(offset, sizeof offset, "0x%x", instruction.byte_offset);
            error = std::string("instruction at offset ") + offset + ": " +
                    std::string(instruction.info().name) + ": " + why;
            return false;
        };
        if (const char* why = unsupported(instruction.opcode)) return at(why);
        if (instruction.opcode == Opcode::DclTemps) temps = instruction.declaration.count;
        if (instruction.info().layout == shader::Layout::HsPhase) {
            if (program->type != shader::ProgramType::Hull) return at("is not in a hull shader");
            temps = 0;
        }
        // An input or output declaration names a register of those files,
        // with components where the register has them.
        if (static_cast<std::uint32_t>(instruction.opcode) >=
                static_cast<std::uint32_t>(Opcode::DclInput) &&
            static_cast<std::uint32_t>(instruction.opcode) <=
                static_cast<std::uint32_t>(Opcode::DclOutputSiv) &&
            !instruction.operands.empty()) {
            const shader::Operand& declared = instruction.operands[0];
            const bool files = declared.type == shader::OperandType::Input ||
                               declared.type == shader::OperandType::Output ||
                               declared.type == shader::OperandType::InputControlPoint ||
                               declared.type == shader::OperandType::OutputControlPoint ||
                               declared.type == shader::OperandType::InputPatchConstant;
            using shader::OperandType;
            const OperandType t = declared.type;
            if (t == OperandType::Temp || t == OperandType::IndexableTemp ||
                t == OperandType::Null || object_kind(t) != 0 || t == OperandType::ConstantBuffer ||
                t == OperandType::UnorderedAccessView || t == OperandType::Immediate32 ||
                t == OperandType::Immediate64)
                return at("declares " +
                          std::string(shader::operand_type_info(declared.type).prefix) +
                          ", which is no input or output");
            if (files && declared.component_count == 0)
                return at("declares a register without components");
        }
        if (!instruction.info().is_declaration()) {
            for (const shader::Operand& operand : instruction.operands)
                if (std::string why = undeclared(*program, temps, operand); !why.empty())
                    return at(why);
            const shader::OpcodeInfo& info = instruction.info();
            for (std::size_t i = 0; info.layout == shader::Layout::Operands &&
                                    i < info.destinations && i < instruction.operands.size();
                 ++i) {
                const shader::Operand& d = instruction.operands[i];
                if (!writable(d.type))
                    return at("destination " + std::to_string(i + 1) + " is " +
                              std::string(shader::operand_type_info(d.type).prefix) +
                              ", which cannot be written");
                if (d.type == shader::OperandType::Null && info.destinations < 2)
                    return at("its only destination is null");
                if (d.component_count == 4 && d.selection == shader::ComponentSelection::Mask &&
                    d.mask == 0)
                    return at("destination " + std::to_string(i + 1) + " writes no component");
            }
            for (const ObjectOperand& object : object_operands(instruction.opcode)) {
                if (object.kinds == 0) continue;
                if (object.position >= instruction.operands.size() ||
                    !(object_kind(instruction.operands[object.position].type) & object.kinds))
                    return at("operand " + std::to_string(object.position + 1) + " is not " +
                              kinds_text(object.kinds));
            }
            for (std::size_t i = info.destinations;
                 info.layout == shader::Layout::Operands && i < instruction.operands.size(); ++i)
                if (write_only(instruction.operands[i].type))
                    return at("source operand " + std::to_string(i + 1) + " is " +
                              std::string(
                                  shader::operand_type_info(instruction.operands[i].type).prefix) +
                              ", which is written, not read");
            for (const shader::Operand& operand : instruction.operands)
                if (operand.type == shader::OperandType::CycleCounter ||
                    operand.type == shader::OperandType::ThisPointer ||
                    operand.type == shader::OperandType::FunctionInput ||
                    operand.type == shader::OperandType::FunctionOutput)
                    return at(std::string(shader::operand_type_info(operand.type).prefix) +
                              " is not translated by vkd3d-shader 1.2");
        }
        switch (instruction.opcode) {
            case Opcode::Umul:
                if (!null_destination(instruction, 0))
                    return at("its high half is not translated by vkd3d-shader 1.2");
                {
                    std::uint32_t token;
                    std::memcpy(&token, container.data() + code_start + instruction.byte_offset, 4);
                    token = (token & ~0x7ffu) | static_cast<std::uint32_t>(Opcode::Imul);
                    std::memcpy(container.data() + code_start + instruction.byte_offset, &token, 4);
                    patched = true;
                }
                break;
            case Opcode::Imul:
                if (!null_destination(instruction, 0))
                    return at("its high half is not translated by vkd3d-shader 1.2");
                break;
            case Opcode::EmitStream:
            case Opcode::CutStream:
                if (!instruction.operands.empty() && instruction.operands[0].register_index() != 0)
                    return at("streams other than 0 are dropped by vkd3d-shader 1.2");
                break;
            case Opcode::SampleC:
            case Opcode::SampleCLz:
                if (instruction.has_texel_offsets &&
                    (instruction.texel_offsets[0] || instruction.texel_offsets[1] ||
                     instruction.texel_offsets[2]))
                    return at("texel offsets are dropped by vkd3d-shader 1.2");
                break;
            default:
                break;
        }
    }
    if (patched) shader::write_dxbc_checksum(container);
    return true;
}

// Tells declarations apart in the cache key (names by value).
std::uint64_t declaration_hash(const StreamOutputDeclaration& declaration) {
    std::string bytes;
    for (const D3D11_SO_DECLARATION_ENTRY& entry : declaration.entries) {
        bytes += entry.SemanticName != nullptr ? entry.SemanticName : "";
        const std::uint32_t fields[] = {entry.Stream, entry.SemanticIndex, entry.StartComponent,
                                        entry.ComponentCount, entry.OutputSlot};
        bytes.append(reinterpret_cast<const char*>(fields), sizeof fields);
    }
    bytes.append(reinterpret_cast<const char*>(declaration.strides.data()),
                 sizeof declaration.strides);
    return XXH3_64bits(bytes.data(), bytes.size()) | 1;
}

}  // namespace

std::uint32_t descriptor_set_of(int program_type) {
    switch (program_type) {
        case 3:  // hull
            return 1;
        case 4:  // domain
            return 2;
        case 2:  // geometry
            return 3;
        case 0:  // pixel
            return 4;
        default:  // vertex, compute
            return 0;
    }
}

std::shared_ptr<const TranslatedShader> ShaderTranslator::translate(
    std::span<const std::uint8_t> bytecode, std::string& error, const TranslationOptions& options) {
    const TranslatedShader* hull = options.hull;
    const StreamOutputDeclaration* stream_output = options.stream_output;
    const auto uav_first_slices = options.uav_first_slices;
    std::uint64_t key = XXH3_64bits(bytecode.data(), bytecode.size());
    if (!uav_first_slices.empty())
        key ^= XXH3_64bits(uav_first_slices.data(), uav_first_slices.size_bytes()) | 2;
    if (options.dual_source) key ^= std::uint64_t{1} << 40;
    key ^= std::uint64_t{options.alpha_in_red} << 32;
    if (stream_output != nullptr && !stream_output->entries.empty())
        key ^= declaration_hash(*stream_output);
    else
        stream_output = nullptr;
    if (hull != nullptr)
        key ^= std::uint64_t{hull->tess_output_primitive} << 56 |
               std::uint64_t{hull->tess_partitioning} << 48;
    {
        std::lock_guard lock(mutex_);
        if (auto found = cache_.find(key); found != cache_.end()) return found->second;
    }
    auto shader = std::make_shared<TranslatedShader>();
    const auto chunks = shader::read_container(bytecode, error);
    if (!chunks) return nullptr;
    shader->program_type = shader::program_type(*chunks, error);
    if (shader->program_type < 0) return nullptr;
    shader->set = descriptor_set_of(shader->program_type);
    if (shader->program_type == 3) {  // hull: what the tessellator makes
        const auto program = shader::decode_container(bytecode, error);
        if (!program) return nullptr;
        shader->tess_output_primitive = static_cast<std::uint32_t>(program->tess_output_primitive);
        shader->tess_partitioning = static_cast<std::uint32_t>(program->tess_partitioning);
        if (program->tess_partitioning == shader::TessPartitioning::Pow2) {
            error = "pow2 partitioning is approximated by vkd3d-shader 1.2";
            return nullptr;
        }
        // Without a control-point phase the control points pass through:
        // what comes in goes out (vkd3d-shader asserts otherwise).
        const bool passes_through =
            std::none_of(program->hull_phases.begin(), program->hull_phases.end(),
                         [](const shader::HullPhase& phase) {
                             return phase.kind == Opcode::HsControlPointPhase;
                         });
        const auto& in = program->input_signature;
        const auto& out = program->output_signature;
        const bool same =
            in.size() == out.size() &&
            std::equal(in.begin(), in.end(), out.begin(),
                       [](const shader::SignatureElement& a, const shader::SignatureElement& b) {
                           return a.register_index == b.register_index && a.mask == b.mask;
                       });
        if (passes_through && !same) {
            error =
                "a hull shader without a control-point phase whose input and output "
                "signatures differ";
            return nullptr;
        }
    }
    if (shader->program_type == 4 && hull == nullptr) {
        error = "a domain shader without a hull shader";
        return nullptr;
    }
    if (const shader::ContainerChunk* inputs = shader::find_chunk(*chunks, "ISGN"))
        if (!shader::read_signature(*inputs, shader->inputs, error)) return nullptr;
    if (!shader::output_signature(*chunks, shader->outputs, error)) return nullptr;
    // vkd3d-shader asserts on elements of no component type.
    for (const auto* elements : {&shader->inputs, &shader->outputs})
        for (const shader::SignatureElement& e : *elements)
            if (e.component_type == shader::ComponentType::Unknown ||
                static_cast<int>(e.component_type) > 3) {
                error = "signature element " + e.semantic_name + std::to_string(e.semantic_index) +
                        " has no component type (float, int or uint)";
                return nullptr;
            }
    std::vector<std::uint8_t> lowered(bytecode.begin(), bytecode.end());
    if (!lower(lowered, error)) return nullptr;
    if (!uav_first_slices.empty() && !offset_uav_w_slices(lowered, uav_first_slices, error))
        return nullptr;
    XfbLayout xfb_layout;
    if (stream_output != nullptr) {
        if (shader->program_type != 1 && shader->program_type != 2 && shader->program_type != 4) {
            error = "stream output after a shader that is not a vertex, domain or geometry shader";
            return nullptr;
        }
        error = lay_out_stream_output(*stream_output, shader->outputs, xfb_layout);
        if (!error.empty()) return nullptr;
    }

    vkd3d_shader_compile_info info{};
    info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
    info.source = {lowered.data(), lowered.size()};
    info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
    info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
    info.log_level = VKD3D_SHADER_LOG_WARNING;
    if (!scan(info, shader->descriptors, error)) return nullptr;
    for (ShaderDescriptor& d : shader->descriptors)
        for (const auto& [reg, first] : uav_first_slices)
            if (d.kind == RegisterKind::Uav && d.reg == reg) d.first_w_slice = first;

    // The full table for the registers the shader uses; counters beside
    // their UAVs.
    const vkd3d_shader_visibility visibility = visibility_of(shader->program_type);
    std::vector<vkd3d_shader_resource_binding> bindings;
    std::vector<vkd3d_shader_uav_counter_binding> counters;
    for (const ShaderDescriptor& d : shader->descriptors) {
        vkd3d_shader_resource_binding binding{};
        binding.type = d.kind == RegisterKind::ConstantBuffer ? VKD3D_SHADER_DESCRIPTOR_TYPE_CBV
                       : d.kind == RegisterKind::Resource     ? VKD3D_SHADER_DESCRIPTOR_TYPE_SRV
                       : d.kind == RegisterKind::Sampler      ? VKD3D_SHADER_DESCRIPTOR_TYPE_SAMPLER
                                                              : VKD3D_SHADER_DESCRIPTOR_TYPE_UAV;
        binding.register_index = d.reg;
        binding.shader_visibility = visibility;
        // vkd3d-shader matches a binding by this flag for every kind: constant
        // buffers are buffers, samplers go with images.
        const bool buffer =
            d.kind == RegisterKind::ConstantBuffer || (d.kind != RegisterKind::Sampler && d.buffer);
        binding.flags = buffer ? VKD3D_SHADER_BINDING_FLAG_BUFFER : VKD3D_SHADER_BINDING_FLAG_IMAGE;
        binding.binding = {shader->set, d.binding, 1};
        bindings.push_back(binding);
        if (d.counter) {
            vkd3d_shader_uav_counter_binding counter{};
            counter.register_index = d.reg;
            counter.shader_visibility = visibility;
            counter.binding = {shader->set, BindingSpace::kUavCounters + d.reg, 1};
            counters.push_back(counter);
        }
    }
    vkd3d_shader_spirv_target_info target{};
    target.type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO;
    target.environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0;
    target.dual_source_blending = options.dual_source;
    // o# of an alpha-only target: (w, y, z, w), alpha in red and in alpha
    // (blending reads it there).
    std::array<unsigned, 8> swizzles{};
    if (options.alpha_in_red != 0 && shader->program_type == 0) {
        for (unsigned i = 0; i < swizzles.size(); ++i)
            swizzles[i] = options.alpha_in_red >> i & 1 ? VKD3D_SHADER_SWIZZLE(W, Y, Z, W)
                                                        : VKD3D_SHADER_NO_SWIZZLE;
        target.output_swizzles = swizzles.data();
        target.output_swizzle_count = static_cast<unsigned>(swizzles.size());
    }
    vkd3d_shader_parameter sample_count{};
    sample_count.name = VKD3D_SHADER_PARAMETER_NAME_RASTERIZER_SAMPLE_COUNT;
    sample_count.type = VKD3D_SHADER_PARAMETER_TYPE_SPECIALIZATION_CONSTANT;
    sample_count.data_type = VKD3D_SHADER_PARAMETER_DATA_TYPE_UINT32;
    sample_count.u.specialization_constant.id = kRasterizerSampleCountConstant;
    target.parameters = &sample_count;
    target.parameter_count = 1;
    vkd3d_shader_spirv_domain_shader_target_info domain{};
    if (shader->program_type == 4) {
        domain.type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_DOMAIN_SHADER_TARGET_INFO;
        domain.output_primitive =
            static_cast<vkd3d_shader_tessellator_output_primitive>(hull->tess_output_primitive);
        domain.partitioning =
            static_cast<vkd3d_shader_tessellator_partitioning>(hull->tess_partitioning);
        target.next = &domain;
    }
    std::vector<vkd3d_shader_transform_feedback_element> xfb_elements;
    for (const XfbElement& e : xfb_layout.elements)
        xfb_elements.push_back({0, e.semantic.c_str(), e.semantic_index, 0,
                                static_cast<std::uint8_t>(e.component_count),
                                static_cast<std::uint8_t>(e.slot)});
    vkd3d_shader_transform_feedback_info xfb{};
    xfb.type = VKD3D_SHADER_STRUCTURE_TYPE_TRANSFORM_FEEDBACK_INFO;
    xfb.next = &target;
    xfb.elements = xfb_elements.data();
    xfb.element_count = static_cast<unsigned>(xfb_elements.size());
    xfb.buffer_strides = xfb_layout.strides.data();
    xfb.buffer_stride_count = static_cast<unsigned>(xfb_layout.strides.size());
    vkd3d_shader_interface_info shader_interface{};
    shader_interface.type = VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO;
    shader_interface.next = stream_output != nullptr ? static_cast<const void*>(&xfb) : &target;
    shader_interface.bindings = bindings.data();
    shader_interface.binding_count = static_cast<unsigned>(bindings.size());
    shader_interface.uav_counters = counters.data();
    shader_interface.uav_counter_count = static_cast<unsigned>(counters.size());
    info.next = &shader_interface;
    const vkd3d_shader_compile_option strip{VKD3D_SHADER_COMPILE_OPTION_STRIP_DEBUG, 1};
    info.options = &strip;
    info.option_count = 1;

    vkd3d_shader_code spirv{};
    char* messages = nullptr;
    const int result = vkd3d_shader_compile(&info, &spirv, &messages);
    const std::string text = take_messages(messages);
    if (result != VKD3D_OK) {
        error = "vkd3d-shader cannot translate it (" + std::to_string(result) + ")" +
                (text.empty() ? "" : ": " + text);
        return nullptr;
    }
    const auto* words = static_cast<const std::uint32_t*>(spirv.code);
    shader->spirv.assign(words, words + spirv.size / 4);
    vkd3d_shader_free_shader_code(&spirv);
    if (stream_output != nullptr) {
        error = set_xfb_offsets(shader->spirv, xfb_layout);
        if (!error.empty()) return nullptr;
        shader->streams_out = true;
    }
    dump_module(key, shader->spirv);

    std::lock_guard lock(mutex_);
    return cache_.emplace(key, std::move(shader)).first->second;
}

}  // namespace d3dcap::runtime::backend::vulkan
