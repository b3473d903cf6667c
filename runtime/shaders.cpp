// Shaders (bytecode kept, never run), input layouts, class linkage, queries,
// command lists and context-state objects.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "runtime/format_rules.h"
#include "runtime/formats.h"
#include "runtime/shader/container.h"

namespace d3dcap::runtime {

namespace {

// The program type in a DXBC container's SHDR/SHEX chunk (0 pixel, 1 vertex,
// 2 geometry, 3 hull, 4 domain, 5 compute), or -1 with a reason.
std::span<const std::uint8_t> bytes_of(const void* bytecode, SIZE_T length) {
    return {static_cast<const std::uint8_t*>(bytecode), bytecode ? length : 0};
}

int dxbc_program_type(const void* bytecode, SIZE_T length, std::string& problem) {
    const auto chunks = shader::read_container(bytes_of(bytecode, length), problem);
    return chunks ? shader::program_type(*chunks, problem) : -1;
}

const char* program_name(int type) {
    switch (type) {
        case 0:
            return "pixel";
        case 1:
            return "vertex";
        case 2:
            return "geometry";
        case 3:
            return "hull";
        case 4:
            return "domain";
        case 5:
            return "compute";
        default:
            return "unknown";
    }
}

// Writing the render-target array index or viewport index from a shader
// that feeds the rasterizer without a geometry shader (vertex, domain) is a
// D3D11.3 feature (VPAndRTArrayIndexFromAnyShaderFeedingRasterizer in
// D3D11_OPTIONS3), which this D3D11.2 runtime does not report.
std::string d3d11_3_output(const void* bytecode, SIZE_T length, int type) {
    if (type != 1 && type != 4) return {};
    std::string problem;
    const auto chunks = shader::read_container(bytes_of(bytecode, length), problem);
    std::vector<shader::SignatureElement> outputs;
    if (!chunks || !shader::output_signature(*chunks, outputs, problem)) return problem;
    for (const auto& output : outputs) {
        if (output.system_value == D3D_NAME_RENDER_TARGET_ARRAY_INDEX ||
            output.system_value == D3D_NAME_VIEWPORT_ARRAY_INDEX) {
            return std::string("writes ") + output.semantic_name + " from a " + program_name(type) +
                   " shader, a D3D11.3 feature (VPAndRTArrayIndexFromAnyShaderFeedingRasterizer) "
                   "that this device does not report";
        }
    }
    return {};
}

// The program types (D3D10_SB_*_SHADER) a Create* call takes, one bit each.
constexpr unsigned type_bit(int type) {
    return 1u << type;
}

// "a geometry, vertex or domain shader": the types in `accepted`, the first
// one named first.
std::string accepted_names(int first, unsigned accepted) {
    std::string names = program_name(first);
    std::vector<std::string> others;
    for (int type = 0; type <= 5; ++type)
        if (type != first && (accepted & type_bit(type))) others.push_back(program_name(type));
    for (std::size_t i = 0; i < others.size(); ++i)
        names += (i + 1 == others.size() ? " or " : ", ") + others[i];
    return "a " + names + " shader";
}

// expected_type is the call's own stage; `also` adds the other stages whose
// bytecode it takes (stream output after a vertex or domain shader).
template <class T>
HRESULT create_shader(Device& device, const char* call, int expected_type, const void* bytecode,
                      SIZE_T length, T** shader, unsigned also = 0,
                      const StreamOutputDeclaration* stream_output = nullptr) {
    if (shader) *shader = nullptr;
    std::string problem;
    const int type = dxbc_program_type(bytecode, length, problem);
    if (type < 0) {
        device.log().error(call, "pShaderBytecode", problem);
        return E_INVALIDARG;
    }
    if (!((type_bit(expected_type) | also) & type_bit(type))) {
        device.log().error(call, "pShaderBytecode",
                           std::string("holds a ") + program_name(type) + " shader, not " +
                               accepted_names(expected_type, type_bit(expected_type) | also));
        return E_INVALIDARG;
    }
    if (const std::string why = d3d11_3_output(bytecode, length, type); !why.empty()) {
        device.log().error(call, "pShaderBytecode", why);
        return E_INVALIDARG;
    }
    if (!shader) return S_FALSE;
    *shader = new T(device, bytecode, length);
    // Windows takes the shader; say now when this device cannot run it.
    if (device.backend().executes_shaders()) {
        const std::string why =
            device.backend().prepare_shader(bytes_of(bytecode, length), stream_output);
        if (!why.empty())
            device.log().error(
                call, "pShaderBytecode",
                "the device cannot run this shader: " + why + "; work with it is not executed");
    }
    return S_OK;
}

// create_shader for a Create*Shader method, whose out pointer is of the
// interface type.
template <class T, class Interface>
HRESULT create_shader_as(Device& device, const char* call, int expected_type, const void* bytecode,
                         SIZE_T length, Interface** shader) {
    T* created = nullptr;
    HRESULT hr =
        create_shader(device, call, expected_type, bytecode, length, shader ? &created : nullptr);
    if (shader) *shader = created;
    return hr;
}

}  // namespace

HRESULT Device::CreateVertexShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage*,
                                   ID3D11VertexShader** shader) {
    return create_shader_as<VertexShader>(*this, "ID3D11Device::CreateVertexShader", 1, bytecode,
                                          length, shader);
}

HRESULT Device::CreatePixelShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage*,
                                  ID3D11PixelShader** shader) {
    return create_shader_as<PixelShader>(*this, "ID3D11Device::CreatePixelShader", 0, bytecode,
                                         length, shader);
}

HRESULT Device::CreateGeometryShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage*,
                                     ID3D11GeometryShader** shader) {
    return create_shader_as<GeometryShader>(*this, "ID3D11Device::CreateGeometryShader", 2,
                                            bytecode, length, shader);
}

HRESULT Device::CreateHullShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage*,
                                 ID3D11HullShader** shader) {
    return create_shader_as<HullShader>(*this, "ID3D11Device::CreateHullShader", 3, bytecode,
                                        length, shader);
}

HRESULT Device::CreateDomainShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage*,
                                   ID3D11DomainShader** shader) {
    return create_shader_as<DomainShader>(*this, "ID3D11Device::CreateDomainShader", 4, bytecode,
                                          length, shader);
}

HRESULT Device::CreateComputeShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage*,
                                    ID3D11ComputeShader** shader) {
    return create_shader_as<ComputeShader>(*this, "ID3D11Device::CreateComputeShader", 5, bytecode,
                                           length, shader);
}

HRESULT Device::CreateGeometryShaderWithStreamOutput(const void* bytecode, SIZE_T length,
                                                     const D3D11_SO_DECLARATION_ENTRY* entries,
                                                     UINT entry_count, const UINT* strides,
                                                     UINT stride_count, UINT rasterized_stream,
                                                     ID3D11ClassLinkage*,
                                                     ID3D11GeometryShader** shader) {
    const char* call = "ID3D11Device::CreateGeometryShaderWithStreamOutput";
    if (shader) *shader = nullptr;
    if (entry_count == 0 || entry_count > 64 || !entries) {
        log_.error(call, "NumEntries",
                   std::to_string(entry_count) + " entries; 1..64 with a declaration are needed");
        return E_INVALIDARG;
    }
    if (stride_count > D3D11_SO_BUFFER_SLOT_COUNT || (stride_count && !strides)) {
        log_.error(call, "NumStrides", std::to_string(stride_count) + " is more than 4");
        return E_INVALIDARG;
    }
    if (rasterized_stream >= 4 && rasterized_stream != D3D11_SO_NO_RASTERIZED_STREAM) {
        log_.error(call, "RasterizedStream", std::to_string(rasterized_stream) + " is not 0..3");
        return E_INVALIDARG;
    }
    for (UINT i = 0; i < entry_count; ++i) {
        if (entries[i].Stream >= 4 || entries[i].OutputSlot >= 4) {
            log_.error(call, "pSODeclaration[" + std::to_string(i) + "]",
                       "has a stream or output slot outside 0..3");
            return E_INVALIDARG;
        }
    }
    StreamOutputDeclaration declaration;
    declaration.entries.assign(entries, entries + entry_count);
    std::copy(strides, strides + stride_count, declaration.strides.begin());
    declaration.rasterized_stream = rasterized_stream;
    GeometryShader* created = nullptr;
    // Stream output with no geometry shader takes the vertex or domain
    // shader's bytecode (its output signature), as Windows does.
    HRESULT hr = create_shader(*this, call, 2, bytecode, length, shader ? &created : nullptr,
                               type_bit(1) | type_bit(4), &declaration);
    if (!created) return hr;
    created->keep_stream_output(declaration);
    *shader = created;
    return hr;
}

// Input layouts

InputLayout::InputLayout(Device& device, const D3D11_INPUT_ELEMENT_DESC* elements, UINT count)
    : ChildObject(ObjectKind::InputLayout, device) {
    names_.reserve(count);
    for (UINT i = 0; i < count; ++i) names_.emplace_back(elements[i].SemanticName);
    for (UINT i = 0; i < count; ++i) {
        D3D11_INPUT_ELEMENT_DESC element = elements[i];
        element.SemanticName = names_[i].c_str();
        elements_.push_back(element);
    }
}

void* InputLayout::find_interface(REFIID riid) {
    if (iid_is<ID3D11InputLayout, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3D11InputLayout*>(this);
    }
    return nullptr;
}

HRESULT Device::CreateInputLayout(const D3D11_INPUT_ELEMENT_DESC* elements, UINT count,
                                  const void* bytecode, SIZE_T length, ID3D11InputLayout** layout) {
    const char* call = "ID3D11Device::CreateInputLayout";
    if (layout) *layout = nullptr;
    if (count > D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT || (count && !elements)) {
        log_.error(call, "NumElements", std::to_string(count) + " is more than 32");
        return E_INVALIDARG;
    }
    std::string problem;
    if (dxbc_program_type(bytecode, length, problem) < 0) {
        log_.error(call, "pShaderBytecodeWithInputSignature", problem);
        return E_INVALIDARG;
    }
    for (UINT i = 0; i < count; ++i) {
        const auto& element = elements[i];
        const std::string where = "pInputElementDescs[" + std::to_string(i) + "]";
        if (!element.SemanticName) {
            log_.error(call, where + ".SemanticName", "is NULL");
            return E_INVALIDARG;
        }
        if (!format_rules::vertex_buffer(element.Format)) {
            log_.error(call, where + ".Format",
                       format_name(element.Format) + " is not a vertex format");
            return E_INVALIDARG;
        }
        if (element.InputSlot >= D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT) {
            log_.error(call, where + ".InputSlot",
                       std::to_string(element.InputSlot) + " is not 0..31");
            return E_INVALIDARG;
        }
        if (element.InputSlotClass != D3D11_INPUT_PER_VERTEX_DATA &&
            element.InputSlotClass != D3D11_INPUT_PER_INSTANCE_DATA) {
            log_.error(call, where + ".InputSlotClass",
                       std::to_string(element.InputSlotClass) + " is not a classification");
            return E_INVALIDARG;
        }
        if (element.InputSlotClass == D3D11_INPUT_PER_VERTEX_DATA && element.InstanceDataStepRate) {
            log_.error(call, where + ".InstanceDataStepRate", "must be 0 for per-vertex data");
            return E_INVALIDARG;
        }
    }
    if (!layout) return S_FALSE;
    *layout = new InputLayout(*this, elements, count);
    return S_OK;
}

// Class linkage (kept minimal: instances exist, nothing links them)

ClassInstance::ClassInstance(Device& device, ClassLinkage& linkage, std::string type_name,
                             const D3D11_CLASS_INSTANCE_DESC& desc)
    : ChildObject(ObjectKind::ClassInstance, device),
      linkage_(&linkage),
      type_name_(std::move(type_name)),
      desc_(desc) {}

void* ClassInstance::find_interface(REFIID riid) {
    if (iid_is<ID3D11ClassInstance, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3D11ClassInstance*>(this);
    }
    return nullptr;
}

void ClassInstance::GetClassLinkage(ID3D11ClassLinkage** linkage) {
    hand_out(linkage, linkage_.get());
}

namespace {

// The string out-parameter convention of ID3D11ClassInstance.
void copy_name(const std::string& value, char* name, SIZE_T* length) {
    if (!length) return;
    if (!name) {
        *length = value.size() + 1;
        return;
    }
    if (*length == 0) return;
    const SIZE_T count = std::min<SIZE_T>(value.size(), *length - 1);
    std::memcpy(name, value.data(), count);
    name[count] = '\0';
    *length = count + 1;
}

}  // namespace

void ClassInstance::GetInstanceName(char* name, SIZE_T* length) {
    copy_name("", name, length);
}
void ClassInstance::GetTypeName(char* name, SIZE_T* length) {
    copy_name(type_name_, name, length);
}

void* ClassLinkage::find_interface(REFIID riid) {
    if (iid_is<ID3D11ClassLinkage, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3D11ClassLinkage*>(this);
    }
    return nullptr;
}

HRESULT ClassLinkage::GetClassInstance(LPCSTR name, UINT, ID3D11ClassInstance** instance) {
    if (instance) *instance = nullptr;
    device().log().error("ID3D11ClassLinkage::GetClassInstance", "pClassInstanceName",
                         std::string(name ? name : "(NULL)") +
                             ": no shader declares instances here (shaders are not linked)");
    return E_INVALIDARG;
}

HRESULT ClassLinkage::CreateClassInstance(LPCSTR type_name, UINT constant_buffer_offset,
                                          UINT constant_vector_offset, UINT texture_offset,
                                          UINT sampler_offset, ID3D11ClassInstance** instance) {
    if (instance) *instance = nullptr;
    if (!type_name || !instance) {
        device().log().error("ID3D11ClassLinkage::CreateClassInstance",
                             !type_name ? "pClassTypeName" : "ppInstance", "is NULL");
        return E_INVALIDARG;
    }
    D3D11_CLASS_INSTANCE_DESC desc{};
    desc.InstanceId = next_instance_id_++;
    desc.ConstantBuffer = constant_buffer_offset;
    desc.BaseConstantBufferOffset = constant_vector_offset;
    desc.BaseTexture = texture_offset;
    desc.BaseSampler = sampler_offset;
    desc.Created = TRUE;
    *instance = new ClassInstance(device(), *this, type_name, desc);
    return S_OK;
}

HRESULT Device::CreateClassLinkage(ID3D11ClassLinkage** linkage) {
    if (!linkage) {
        log_.error("ID3D11Device::CreateClassLinkage", "ppLinkage", "is NULL");
        return E_INVALIDARG;
    }
    *linkage = new ClassLinkage(*this);
    return S_OK;
}

// Queries

void* Query::find_interface(REFIID riid) {
    const bool predicate = desc_.Query == D3D11_QUERY_OCCLUSION_PREDICATE ||
                           desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE ||
                           desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0 ||
                           desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM1 ||
                           desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM2 ||
                           desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3;
    if (predicate && iid_is<ID3D11Predicate>(riid)) return static_cast<ID3D11Predicate*>(this);
    if (iid_is<ID3D11Query, ID3D11Asynchronous, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3D11Predicate*>(this);
    }
    return nullptr;
}

UINT Query::data_size(D3D11_QUERY query) {
    switch (query) {
        case D3D11_QUERY_EVENT:
        case D3D11_QUERY_OCCLUSION_PREDICATE:
        case D3D11_QUERY_SO_OVERFLOW_PREDICATE:
        case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0:
        case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM1:
        case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM2:
        case D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3:
            return sizeof(BOOL);
        case D3D11_QUERY_OCCLUSION:
        case D3D11_QUERY_TIMESTAMP:
            return sizeof(UINT64);
        case D3D11_QUERY_TIMESTAMP_DISJOINT:
            return sizeof(D3D11_QUERY_DATA_TIMESTAMP_DISJOINT);
        case D3D11_QUERY_PIPELINE_STATISTICS:
            return sizeof(D3D11_QUERY_DATA_PIPELINE_STATISTICS);
        case D3D11_QUERY_SO_STATISTICS:
        case D3D11_QUERY_SO_STATISTICS_STREAM0:
        case D3D11_QUERY_SO_STATISTICS_STREAM1:
        case D3D11_QUERY_SO_STATISTICS_STREAM2:
        case D3D11_QUERY_SO_STATISTICS_STREAM3:
            return sizeof(D3D11_QUERY_DATA_SO_STATISTICS);
    }
    return 0;
}

UINT Query::GetDataSize() {
    return data_size(desc_.Query);
}

D3D11_QUERY_DATA_SO_STATISTICS Query::stream_output_counts() const {
    if (desc_.Query >= D3D11_QUERY_SO_STATISTICS_STREAM0)
        return stream_output[(desc_.Query - D3D11_QUERY_SO_STATISTICS_STREAM0) / 2];
    D3D11_QUERY_DATA_SO_STATISTICS all{};
    for (const D3D11_QUERY_DATA_SO_STATISTICS& stream : stream_output) {
        all.NumPrimitivesWritten += stream.NumPrimitivesWritten;
        all.PrimitivesStorageNeeded += stream.PrimitivesStorageNeeded;
    }
    return all;
}

// SO_OVERFLOW_PREDICATE is true when any stream overflowed.
bool Query::stream_output_overflowed() const {
    if (desc_.Query >= D3D11_QUERY_SO_STATISTICS_STREAM0) {
        const D3D11_QUERY_DATA_SO_STATISTICS counts = stream_output_counts();
        return counts.PrimitivesStorageNeeded > counts.NumPrimitivesWritten;
    }
    for (const D3D11_QUERY_DATA_SO_STATISTICS& stream : stream_output)
        if (stream.PrimitivesStorageNeeded > stream.NumPrimitivesWritten) return true;
    return false;
}

const WorkResults* PendingResults::values(bool wait) {
    if (!values_) {
        WorkResults counts;
        if (!backend_.read_results(ticket_, wait, counts)) {
            if (!wait) return nullptr;
            counts = {};
        }
        counts.ticket = 0;
        values_ = counts;
    }
    return &*values_;
}

void Query::add(const WorkResults& results) {
    if (occlusion()) {
        samples_passed += results.samples_passed;
    } else if (counts_stream_output()) {
        for (std::size_t stream = 0; stream < stream_output.size(); ++stream) {
            stream_output[stream].NumPrimitivesWritten +=
                results.stream_output[stream].NumPrimitivesWritten;
            stream_output[stream].PrimitivesStorageNeeded +=
                results.stream_output[stream].PrimitivesStorageNeeded;
        }
    } else if (desc_.Query == D3D11_QUERY_PIPELINE_STATISTICS) {
        // The statistics are eleven UINT64 counters.
        std::array<UINT64, sizeof statistics / sizeof(UINT64)> add{}, sum{};
        std::memcpy(add.data(), &results.statistics, sizeof add);
        std::memcpy(sum.data(), &statistics, sizeof sum);
        for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += add[i];
        std::memcpy(&statistics, sum.data(), sizeof sum);
    } else if (desc_.Query == D3D11_QUERY_TIMESTAMP) {
        timestamp = results.timestamp;
    }
}

void Query::add_later(std::shared_ptr<PendingResults> pending) {
    pending_.push_back(std::move(pending));
    if (pending_.size() < settle_at_) return;
    settle_pending(false);
    settle_at_ = std::max(kSettleAfter, 2 * pending_.size());
}

void Query::settle_pending(bool wait) {
    std::erase_if(pending_, [&](const std::shared_ptr<PendingResults>& pending) {
        const WorkResults* values = pending->values(wait);
        if (values) add(*values);
        return values != nullptr;
    });
}

void Query::restart() {
    samples_passed = 0;
    statistics = {};
    stream_output = {};
    pending_.clear();
    settle_at_ = kSettleAfter;
    forget_gpu_predicate();
}

Query::~Query() {
    forget_gpu_predicate();
}

void Query::forget_gpu_predicate() {
    if (gpu_predicate_ != 0) gpu_predicate_backend_->forget_predicate(gpu_predicate_);
    gpu_predicate_ = 0;
}

// Counts only grow: passed samples, or one draw's overflow (no draw writes
// more than it needs), decide before the rest is in. The device counts
// stream 0 only.
std::optional<bool> Query::known_result() const {
    const bool counted = desc_.Query == D3D11_QUERY_OCCLUSION_PREDICATE
                             ? samples_passed != 0
                             : stream_output_overflowed();
    const bool stream_zero = desc_.Query == D3D11_QUERY_OCCLUSION_PREDICATE ||
                             desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE ||
                             desc_.Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0;
    if (counted || pending_.empty() || !stream_zero) return counted;
    return std::nullopt;
}

std::uint64_t Query::gpu_predicate(Backend& backend) {
    if (gpu_predicate_ == 0) {
        std::vector<std::uint64_t> tickets;
        tickets.reserve(pending_.size());
        for (const std::shared_ptr<PendingResults>& pending : pending_)
            tickets.push_back(pending->ticket());
        gpu_predicate_ = backend.gpu_predicate(tickets, counts_stream_output());
        gpu_predicate_backend_ = &backend;
    }
    return gpu_predicate_;
}

HRESULT Device::CreateQuery(const D3D11_QUERY_DESC* desc, ID3D11Query** query) {
    const char* call = "ID3D11Device::CreateQuery";
    if (query) *query = nullptr;
    if (!desc) {
        log_.error(call, "pQueryDesc", "is NULL");
        return E_INVALIDARG;
    }
    if (Query::data_size(desc->Query) == 0) {
        log_.error(call, "pQueryDesc->Query",
                   std::to_string(desc->Query) + " is not a D3D11_QUERY");
        return E_INVALIDARG;
    }
    if (desc->MiscFlags & ~UINT{D3D11_QUERY_MISC_PREDICATEHINT}) {
        log_.error(call, "pQueryDesc->MiscFlags", hex(desc->MiscFlags) + " has unknown bits");
        return E_INVALIDARG;
    }
    if (!query) return S_FALSE;
    *query = new Query(*this, *desc);
    return S_OK;
}

HRESULT Device::CreatePredicate(const D3D11_QUERY_DESC* desc, ID3D11Predicate** predicate) {
    const char* call = "ID3D11Device::CreatePredicate";
    if (predicate) *predicate = nullptr;
    if (!desc) {
        log_.error(call, "pPredicateDesc", "is NULL");
        return E_INVALIDARG;
    }
    const bool is_predicate =
        desc->Query == D3D11_QUERY_OCCLUSION_PREDICATE ||
        desc->Query == D3D11_QUERY_SO_OVERFLOW_PREDICATE ||
        (desc->Query >= D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM0 &&
         desc->Query <= D3D11_QUERY_SO_OVERFLOW_PREDICATE_STREAM3 && desc->Query % 2 == 1);
    if (!is_predicate) {
        log_.error(call, "pPredicateDesc->Query",
                   std::to_string(desc->Query) +
                       " is no predicate (OCCLUSION_PREDICATE or SO_OVERFLOW_PREDICATE*)");
        return E_INVALIDARG;
    }
    ID3D11Query* created = nullptr;
    HRESULT hr = CreateQuery(desc, predicate ? &created : nullptr);
    if (predicate) *predicate = static_cast<Query*>(created);
    return hr;
}

HRESULT Device::CreateCounter(const D3D11_COUNTER_DESC* desc, ID3D11Counter** counter) {
    if (counter) *counter = nullptr;
    log_.error("ID3D11Device::CreateCounter", "pCounterDesc",
               desc ? "counter " + hex(desc->Counter) +
                          " does not exist: this device has no counters (CheckCounterInfo)"
                    : std::string("is NULL"));
    return E_INVALIDARG;
}

// Command lists and context-state objects

void* CommandList::find_interface(REFIID riid) {
    if (iid_is<ID3D11CommandList, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3D11CommandList*>(this);
    }
    return nullptr;
}

DeviceContextState::DeviceContextState(Device& device, D3D_FEATURE_LEVEL level, const IID& emulated)
    : ChildObject(ObjectKind::DeviceContextState, device),
      state_(std::make_unique<ContextState>()),
      level_(level),
      emulated_(emulated) {}

DeviceContextState::~DeviceContextState() = default;

void* DeviceContextState::find_interface(REFIID riid) {
    if (iid_is<ID3DDeviceContextState, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3DDeviceContextState*>(this);
    }
    return nullptr;
}

std::vector<InputElement> resolve_input_layout(std::span<const D3D11_INPUT_ELEMENT_DESC> elements) {
    std::vector<InputElement> out;
    std::array<std::uint32_t, D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT> ends{};
    for (const D3D11_INPUT_ELEMENT_DESC& e : elements) {
        InputElement element;
        element.semantic = e.SemanticName ? e.SemanticName : "";
        element.semantic_index = e.SemanticIndex;
        element.format = e.Format;
        element.slot = e.InputSlot;
        const std::uint32_t slot = std::min<std::uint32_t>(e.InputSlot, ends.size() - 1);
        element.offset =
            e.AlignedByteOffset == D3D11_APPEND_ALIGNED_ELEMENT ? ends[slot] : e.AlignedByteOffset;
        ends[slot] = element.offset + formats::info(e.Format).bits_per_element / 8;
        element.per_instance = e.InputSlotClass == D3D11_INPUT_PER_INSTANCE_DATA;
        element.step_rate = e.InstanceDataStepRate;
        out.push_back(std::move(element));
    }
    return out;
}

}  // namespace d3dcap::runtime
