// The context's Set/Get pairs: shader stages, input assembler, output
// merger, rasterizer, stream output, predication, ClearState.
#include <algorithm>
#include <type_traits>

#include "runtime/d3d11/context.h"
#include "runtime/d3d11/device.h"

namespace d3dcap::runtime::d3d11 {

Context::Context(Device& device, bool deferred, UINT flags)
    : ChildObject(ObjectKind::Context, device, deferred), deferred_(deferred), flags_(flags) {}

Context::~Context() = default;

void* Context::find_interface(REFIID riid) {
    if (iid_is<ID3D11DeviceContext, ID3D11DeviceContext1, ID3D11DeviceContext2, ID3D11DeviceChild,
               IUnknown>(riid)) {
        return static_cast<ID3D11DeviceContext2*>(this);
    }
    if (iid_is<ID3DUserDefinedAnnotation>(riid)) return &annotation_;
    return nullptr;
}

// The immediate context is part of the device: its references are the
// device's. Deferred contexts count for themselves.
ULONG Context::AddRef() {
    return deferred_ ? add_ref() : device().add_ref();
}
ULONG Context::Release() {
    return deferred_ ? release() : device().release();
}

MessageLog& Context::log() const {
    return device().log();
}

UINT Context::uav_slots() const {
    return device().uav_slots();
}

D3D11_DEVICE_CONTEXT_TYPE Context::GetType() {
    return deferred_ ? D3D11_DEVICE_CONTEXT_DEFERRED : D3D11_DEVICE_CONTEXT_IMMEDIATE;
}

const char* Context::stage_prefix(Stage stage) {
    static const char* const names[] = {"VS", "HS", "DS", "GS", "PS", "CS"};
    return names[static_cast<int>(stage)];
}

// select(state) names an array of the state; the executing context takes
// the slots [start, start + count) as they are now.
template <class Select>
void Context::record_slots(Select select, UINT start, UINT count) {
    if (!deferred_ || count == 0) return;
    auto& slots = select(state_);
    using Value = typename std::remove_reference_t<decltype(slots)>::value_type;
    std::vector<Value> values(slots.begin() + start, slots.begin() + start + count);
    record([select, start, values = std::move(values)](Context& target) {
        std::copy(values.begin(), values.end(), select(target.state_).begin() + start);
    });
}

void ContextState::unbind(const Resource& resource) {
    auto on = [&](const View* view) { return view && &view->resource() == &resource; };
    for (StageState& stage : stages) {
        for (auto& binding : stage.constant_buffers) {
            if (binding.buffer.get() == &resource) binding = {};
        }
        for (auto& view : stage.shader_resources) {
            if (on(view.get())) view.reset();
        }
    }
    for (auto& binding : vertex_buffers) {
        if (binding.buffer.get() == &resource) binding = {};
    }
    if (index_buffer.get() == &resource) index_buffer.reset();
    for (auto& view : render_targets) {
        if (on(view.get())) view.reset();
    }
    if (on(depth_stencil_view.get())) depth_stencil_view.reset();
    for (auto* slots : {&output_uavs, &compute_uavs}) {
        for (auto& view : *slots) {
            if (on(view.get())) view.reset();
        }
    }
    for (auto& target : stream_output_targets) {
        if (target.get() == &resource) target.reset();
    }
}

void Context::clear_state() {
    state_ = ContextState{};
    all_parts_changed();
}

void Context::ClearState() {
    clear_state();
    if (deferred_) record([](Context& target) { target.clear_state(); });
}

// Shader stages

void Context::set_constant_buffers(Stage stage, const char* call, UINT start, UINT count,
                                   ID3D11Buffer* const* buffers, const UINT* first,
                                   const UINT* counts) {
    stage_changed(stage, backend::kStageConstantsPart);
    const UINT slots = D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT;
    if (stage != Stage::Compute && start < slots && count <= slots - start)
        changed_constant_slots_[static_cast<int>(stage)] |=
            static_cast<std::uint16_t>(((1u << count) - 1) << start);
    if (start >= slots || count > slots - start) {
        log().error(call, "StartSlot/NumBuffers",
                    std::to_string(start) + " + " + std::to_string(count) + " leaves the " +
                        std::to_string(slots) + " constant-buffer slots; the call is dropped");
        return;
    }
    if (!first != !counts) {
        log().error(call, first ? "pNumConstants" : "pFirstConstant",
                    "is NULL while the other is not; the call is dropped");
        return;
    }
    for (UINT i = 0; first && i < count; ++i) {
        // Built only for an error: this runs on every bind.
        const auto index = [i] { return "[" + std::to_string(i) + "]"; };
        if (first[i] % 16 || counts[i] % 16) {
            log().error(call, (first[i] % 16 ? "pFirstConstant" : "pNumConstants") + index(),
                        std::to_string(first[i] % 16 ? first[i] : counts[i]) +
                            " is not a multiple of 16 constants; the call is dropped");
            return;
        }
        if (counts[i] > D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT) {
            log().error(call, "pNumConstants" + index(),
                        std::to_string(counts[i]) +
                            " is more than the 4096 constants a shader can see; the call is "
                            "dropped");
            return;
        }
    }
    auto& bindings = state_.stages[static_cast<int>(stage)].constant_buffers;
    for (UINT i = 0; i < count; ++i) {
        Buffer* buffer = buffers ? to_buffer(buffers[i]) : nullptr;
        if (buffer && !(buffer->info().bind_flags & D3D11_BIND_CONSTANT_BUFFER)) {
            log().error(call, "ppConstantBuffers[" + std::to_string(i) + "]",
                        "was created without D3D11_BIND_CONSTANT_BUFFER; the slot gets NULL");
            buffer = nullptr;
        }
        ConstantBufferBinding& binding = bindings[start + i];
        binding.buffer = Ref<Buffer>(buffer);
        // Without windows (and in an empty slot) the window is [0, 4096).
        binding.first_constant = buffer && first ? first[i] : 0;
        binding.constant_count =
            buffer && first ? counts[i] : UINT{D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT};
    }
    record_slots(
        [stage](ContextState & state) -> auto& {
            return state.stages[static_cast<int>(stage)].constant_buffers;
        },
        start, count);
}

void Context::get_constant_buffers(Stage stage, const char* call, UINT start, UINT count,
                                   ID3D11Buffer** buffers, UINT* first, UINT* counts) {
    const UINT slots = D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT;
    if (start >= slots || count > slots - start) {
        log().error(call, "StartSlot/NumBuffers",
                    std::to_string(start) + " + " + std::to_string(count) + " leaves the " +
                        std::to_string(slots) + " constant-buffer slots");
        return;
    }
    const auto& bindings = state_.stages[static_cast<int>(stage)].constant_buffers;
    for (UINT i = 0; i < count; ++i) {
        const ConstantBufferBinding& binding = bindings[start + i];
        if (buffers) hand_out(&buffers[i], binding.buffer.get());
        if (first) first[i] = binding.first_constant;
        if (counts) counts[i] = binding.constant_count;
    }
}

void Context::set_shader_resources(Stage stage, const char* call, UINT start, UINT count,
                                   ID3D11ShaderResourceView* const* views) {
    stage_changed(stage, backend::kStageViewsPart);
    const UINT slots = D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT;
    if (start >= slots || count > slots - start) {
        log().error(call, "StartSlot/NumViews",
                    std::to_string(start) + " + " + std::to_string(count) +
                        " leaves the 128 shader-resource slots; the call is dropped");
        return;
    }
    auto& bindings = state_.stages[static_cast<int>(stage)].shader_resources;
    for (UINT i = 0; i < count; ++i) {
        bindings[start + i] =
            Ref<ShaderResourceView>(views ? static_cast<ShaderResourceView*>(views[i]) : nullptr);
    }
    record_slots(
        [stage](ContextState & state) -> auto& {
            return state.stages[static_cast<int>(stage)].shader_resources;
        },
        start, count);
}

void Context::get_shader_resources(Stage stage, const char* call, UINT start, UINT count,
                                   ID3D11ShaderResourceView** views) {
    const UINT slots = D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT;
    if (start >= slots || count > slots - start || !views) {
        log().error(call, "StartSlot/NumViews",
                    std::to_string(start) + " + " + std::to_string(count) +
                        " leaves the 128 shader-resource slots or ppShaderResourceViews is NULL");
        return;
    }
    const auto& bindings = state_.stages[static_cast<int>(stage)].shader_resources;
    for (UINT i = 0; i < count; ++i) hand_out(&views[i], bindings[start + i].get());
}

void Context::set_samplers(Stage stage, const char* call, UINT start, UINT count,
                           ID3D11SamplerState* const* samplers) {
    stage_changed(stage, backend::kStageViewsPart);
    const UINT slots = D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT;
    if (start >= slots || count > slots - start) {
        log().error(call, "StartSlot/NumSamplers",
                    std::to_string(start) + " + " + std::to_string(count) +
                        " leaves the 16 sampler slots; the call is dropped");
        return;
    }
    auto& bindings = state_.stages[static_cast<int>(stage)].samplers;
    for (UINT i = 0; i < count; ++i) {
        bindings[start + i] =
            Ref<SamplerState>(samplers ? static_cast<SamplerState*>(samplers[i]) : nullptr);
    }
    record_slots(
        [stage](ContextState & state) -> auto& {
            return state.stages[static_cast<int>(stage)].samplers;
        },
        start, count);
}

void Context::get_samplers(Stage stage, const char* call, UINT start, UINT count,
                           ID3D11SamplerState** samplers) {
    const UINT slots = D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT;
    if (start >= slots || count > slots - start || !samplers) {
        log().error(call, "StartSlot/NumSamplers",
                    std::to_string(start) + " + " + std::to_string(count) +
                        " leaves the 16 sampler slots or ppSamplers is NULL");
        return;
    }
    const auto& bindings = state_.stages[static_cast<int>(stage)].samplers;
    for (UINT i = 0; i < count; ++i) hand_out(&samplers[i], bindings[start + i].get());
}

void Context::set_shader(Stage stage, const char* call, ShaderBase* shader,
                         ID3D11ClassInstance* const* instances, UINT count) {
    stage_changed(stage, backend::kStageShaderPart);
    if (count > 256 || (count && !instances)) {
        log().error(call, "NumClassInstances",
                    std::to_string(count) +
                        " class instances (at most 256, with an array); the "
                        "call is dropped");
        return;
    }
    StageState& state = state_.stages[static_cast<int>(stage)];
    state.shader = Ref<ShaderBase>(shader);
    state.class_instances.clear();
    for (UINT i = 0; i < count; ++i) {
        state.class_instances.emplace_back(static_cast<ClassInstance*>(instances[i]));
    }
    if (deferred_) {
        record(
            [stage, bound = state.shader, instances_now = state.class_instances](Context& target) {
                StageState& to = target.state_.stages[static_cast<int>(stage)];
                to.shader = bound;
                to.class_instances = instances_now;
            });
    }
}

ShaderBase* Context::get_shader(Stage stage, ID3D11ClassInstance** instances, UINT* count) {
    const StageState& state = state_.stages[static_cast<int>(stage)];
    if (count) {
        // With an array, *count says its size on input.
        if (instances) {
            const UINT room = *count;
            for (UINT i = 0; i < room; ++i) {
                hand_out(&instances[i], i < state.class_instances.size()
                                            ? state.class_instances[i].get()
                                            : nullptr);
            }
        }
        *count = static_cast<UINT>(state.class_instances.size());
    }
    return state.shader.get();
}

#define D3DCAP_DEFINE_STAGE(P, STAGE, Interface, Class)                                            \
    void Context::P##SetConstantBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers) {    \
        set_constant_buffers(STAGE, "ID3D11DeviceContext::" #P "SetConstantBuffers", start, count, \
                             buffers, nullptr, nullptr);                                           \
    }                                                                                              \
    void Context::P##GetConstantBuffers(UINT start, UINT count, ID3D11Buffer** buffers) {          \
        get_constant_buffers(STAGE, "ID3D11DeviceContext::" #P "GetConstantBuffers", start, count, \
                             buffers, nullptr, nullptr);                                           \
    }                                                                                              \
    void Context::P##SetConstantBuffers1(UINT start, UINT count, ID3D11Buffer* const* buffers,     \
                                         const UINT* first, const UINT* counts) {                  \
        set_constant_buffers(STAGE, "ID3D11DeviceContext1::" #P "SetConstantBuffers1", start,      \
                             count, buffers, first, counts);                                       \
    }                                                                                              \
    void Context::P##GetConstantBuffers1(UINT start, UINT count, ID3D11Buffer** buffers,           \
                                         UINT* first, UINT* counts) {                              \
        get_constant_buffers(STAGE, "ID3D11DeviceContext1::" #P "GetConstantBuffers1", start,      \
                             count, buffers, first, counts);                                       \
    }                                                                                              \
    void Context::P##SetShaderResources(UINT start, UINT count,                                    \
                                        ID3D11ShaderResourceView* const* views) {                  \
        set_shader_resources(STAGE, "ID3D11DeviceContext::" #P "SetShaderResources", start, count, \
                             views);                                                               \
    }                                                                                              \
    void Context::P##GetShaderResources(UINT start, UINT count,                                    \
                                        ID3D11ShaderResourceView** views) {                        \
        get_shader_resources(STAGE, "ID3D11DeviceContext::" #P "GetShaderResources", start, count, \
                             views);                                                               \
    }                                                                                              \
    void Context::P##SetSamplers(UINT start, UINT count, ID3D11SamplerState* const* samplers) {    \
        set_samplers(STAGE, "ID3D11DeviceContext::" #P "SetSamplers", start, count, samplers);     \
    }                                                                                              \
    void Context::P##GetSamplers(UINT start, UINT count, ID3D11SamplerState** samplers) {          \
        get_samplers(STAGE, "ID3D11DeviceContext::" #P "GetSamplers", start, count, samplers);     \
    }                                                                                              \
    void Context::P##SetShader(Interface* shader, ID3D11ClassInstance* const* instances,           \
                               UINT count) {                                                       \
        set_shader(STAGE, "ID3D11DeviceContext::" #P "SetShader", static_cast<Class*>(shader),     \
                   instances, count);                                                              \
    }                                                                                              \
    void Context::P##GetShader(Interface** shader, ID3D11ClassInstance** instances, UINT* count) { \
        ShaderBase* bound = get_shader(STAGE, instances, count);                                   \
        hand_out(shader, static_cast<Class*>(bound));                                              \
    }

D3DCAP_DEFINE_STAGE(VS, Stage::Vertex, ID3D11VertexShader, VertexShader)
D3DCAP_DEFINE_STAGE(HS, Stage::Hull, ID3D11HullShader, HullShader)
D3DCAP_DEFINE_STAGE(DS, Stage::Domain, ID3D11DomainShader, DomainShader)
D3DCAP_DEFINE_STAGE(GS, Stage::Geometry, ID3D11GeometryShader, GeometryShader)
D3DCAP_DEFINE_STAGE(PS, Stage::Pixel, ID3D11PixelShader, PixelShader)
D3DCAP_DEFINE_STAGE(CS, Stage::Compute, ID3D11ComputeShader, ComputeShader)

#undef D3DCAP_DEFINE_STAGE

// Input assembler

void Context::IASetInputLayout(ID3D11InputLayout* layout) {
    dirty_ |= backend::kInputLayoutPart;
    state_.input_layout = Ref<InputLayout>(static_cast<InputLayout*>(layout));
    if (deferred_) {
        record(
            [bound = state_.input_layout](Context& target) { target.state_.input_layout = bound; });
    }
}

void Context::IAGetInputLayout(ID3D11InputLayout** layout) {
    hand_out(layout, state_.input_layout.get());
}

void Context::IASetVertexBuffers(UINT start, UINT count, ID3D11Buffer* const* buffers,
                                 const UINT* strides, const UINT* offsets) {
    dirty_ |= backend::kVertexBuffersPart;
    const UINT slots = D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT;
    if (start >= slots || count > slots - start) {
        log().error("ID3D11DeviceContext::IASetVertexBuffers", "StartSlot/NumBuffers",
                    std::to_string(start) + " + " + std::to_string(count) +
                        " leaves the 32 vertex-buffer slots; the call is dropped");
        return;
    }
    for (UINT i = 0; i < count; ++i) {
        VertexBufferBinding& binding = state_.vertex_buffers[start + i];
        binding.buffer = Ref<Buffer>(buffers ? to_buffer(buffers[i]) : nullptr);
        binding.stride = strides ? strides[i] : 0;
        binding.offset = offsets ? offsets[i] : 0;
    }
    record_slots(
        [](ContextState & state) -> auto& { return state.vertex_buffers; }, start, count);
}

void Context::IAGetVertexBuffers(UINT start, UINT count, ID3D11Buffer** buffers, UINT* strides,
                                 UINT* offsets) {
    const UINT slots = D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT;
    if (start >= slots || count > slots - start) {
        log().error("ID3D11DeviceContext::IAGetVertexBuffers", "StartSlot/NumBuffers",
                    std::to_string(start) + " + " + std::to_string(count) +
                        " leaves the 32 vertex-buffer slots");
        return;
    }
    for (UINT i = 0; i < count; ++i) {
        const VertexBufferBinding& binding = state_.vertex_buffers[start + i];
        if (buffers) hand_out(&buffers[i], binding.buffer.get());
        if (strides) strides[i] = binding.stride;
        if (offsets) offsets[i] = binding.offset;
    }
}

void Context::IASetIndexBuffer(ID3D11Buffer* buffer, DXGI_FORMAT format, UINT offset) {
    dirty_ |= backend::kVertexBuffersPart;
    if (buffer && format != DXGI_FORMAT_R16_UINT && format != DXGI_FORMAT_R32_UINT) {
        log().error("ID3D11DeviceContext::IASetIndexBuffer", "Format",
                    format_name(format) + " is neither R16_UINT nor R32_UINT; the call is dropped");
        return;
    }
    state_.index_buffer = Ref<Buffer>(to_buffer(buffer));
    state_.index_format = format;
    state_.index_offset = offset;
    if (deferred_) {
        record([bound = state_.index_buffer, format, offset](Context& target) {
            target.state_.index_buffer = bound;
            target.state_.index_format = format;
            target.state_.index_offset = offset;
        });
    }
}

void Context::IAGetIndexBuffer(ID3D11Buffer** buffer, DXGI_FORMAT* format, UINT* offset) {
    hand_out(buffer, state_.index_buffer.get());
    if (format) *format = state_.index_format;
    if (offset) *offset = state_.index_offset;
}

void Context::IASetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY topology) {
    dirty_ |= backend::kInputLayoutPart;
    const bool valid = (topology >= D3D_PRIMITIVE_TOPOLOGY_UNDEFINED &&
                        topology <= D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP) ||
                       (topology >= D3D_PRIMITIVE_TOPOLOGY_LINELIST_ADJ &&
                        topology <= D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP_ADJ) ||
                       (topology >= D3D_PRIMITIVE_TOPOLOGY_1_CONTROL_POINT_PATCHLIST &&
                        topology <= D3D_PRIMITIVE_TOPOLOGY_32_CONTROL_POINT_PATCHLIST);
    if (!valid) {
        log().error("ID3D11DeviceContext::IASetPrimitiveTopology", "Topology",
                    std::to_string(topology) + " is not a primitive topology; the call is dropped");
        return;
    }
    state_.topology = topology;
    if (deferred_) record([topology](Context& target) { target.state_.topology = topology; });
}

void Context::IAGetPrimitiveTopology(D3D11_PRIMITIVE_TOPOLOGY* topology) {
    if (topology) *topology = state_.topology;
}

// Output merger

void Context::OMSetRenderTargets(UINT count, ID3D11RenderTargetView* const* views,
                                 ID3D11DepthStencilView* depth) {
    all_parts_changed();  // views bound here may unbind others
    if (count > D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT) {
        log().error("ID3D11DeviceContext::OMSetRenderTargets", "NumViews",
                    std::to_string(count) + " is more than 8; the call is dropped");
        return;
    }
    for (UINT i = 0; i < D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT; ++i) {
        state_.render_targets[i] = Ref<RenderTargetView>(
            i < count && views ? static_cast<RenderTargetView*>(views[i]) : nullptr);
    }
    state_.depth_stencil_view = Ref<DepthStencilView>(static_cast<DepthStencilView*>(depth));
    record_slots(
        [](ContextState & state) -> auto& { return state.render_targets; }, 0,
        D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT);
    if (deferred_) {
        record([bound = state_.depth_stencil_view](Context& target) {
            target.state_.depth_stencil_view = bound;
        });
    }
}

void Context::OMGetRenderTargets(UINT count, ID3D11RenderTargetView** views,
                                 ID3D11DepthStencilView** depth) {
    if (views) {
        for (UINT i = 0; i < count && i < D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT; ++i) {
            hand_out(&views[i], state_.render_targets[i].get());
        }
    }
    hand_out(depth, state_.depth_stencil_view.get());
}

void Context::set_uavs(bool compute, UINT start, UINT count,
                       ID3D11UnorderedAccessView* const* views, const UINT* initial_counts,
                       bool unbind_outside) {
    all_parts_changed();  // views bound here may unbind others
    auto select = [compute](ContextState & state) -> auto& {
        return compute ? state.compute_uavs : state.output_uavs;
    };
    auto& slots = select(state_);
    if (unbind_outside) {
        for (UINT i = 0; i < slots.size(); ++i) {
            if (i < start || i >= start + count) slots[i].reset();
        }
    }
    for (UINT i = 0; i < count; ++i) {
        auto* view = views ? static_cast<UnorderedAccessView*>(views[i]) : nullptr;
        slots[start + i] = Ref<UnorderedAccessView>(view);
        if (view && initial_counts && initial_counts[i] != 0xffffffff &&
            has_hidden_counter(*view)) {
            // The hidden counter is set at bind time, so record it as work.
            const UINT value = initial_counts[i];
            if (deferred_) {
                record([ref = Ref<UnorderedAccessView>(view), value](Context& target) {
                    target.set_uav_counter(*ref, value);
                });
            } else {
                set_uav_counter(*view, value);
            }
        }
    }
    if (unbind_outside) {
        record_slots(select, 0, static_cast<UINT>(slots.size()));
    } else {
        record_slots(select, start, count);
    }
}

void Context::set_uav_counter(UnorderedAccessView& view, UINT value) {
    view.structure_counter = value;
    auto guard = device().lock();
    device().backend().set_uav_counter(view.id(), value);
}

void Context::OMSetRenderTargetsAndUnorderedAccessViews(UINT rtv_count,
                                                        ID3D11RenderTargetView* const* rtvs,
                                                        ID3D11DepthStencilView* depth,
                                                        UINT uav_start, UINT uav_count,
                                                        ID3D11UnorderedAccessView* const* uavs,
                                                        const UINT* initial_counts) {
    all_parts_changed();  // views bound here may unbind others
    const char* call = "ID3D11DeviceContext::OMSetRenderTargetsAndUnorderedAccessViews";
    const bool keep_rtvs = rtv_count == D3D11_KEEP_RENDER_TARGETS_AND_DEPTH_STENCIL;
    const bool keep_uavs = uav_count == D3D11_KEEP_UNORDERED_ACCESS_VIEWS;
    if (!keep_rtvs && rtv_count > D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT) {
        log().error(call, "NumRTVs", std::to_string(rtv_count) + " is more than 8; dropped");
        return;
    }
    if (!keep_uavs) {
        const UINT slots = uav_slots();
        if (uav_start >= slots || uav_count > slots - uav_start) {
            log().error(call, "UAVStartSlot/NumUAVs",
                        std::to_string(uav_start) + " + " + std::to_string(uav_count) +
                            " leaves the " + std::to_string(slots) + " UAV slots; dropped");
            return;
        }
        if (!keep_rtvs && uav_count && uav_start < rtv_count) {
            log().error(call, "UAVStartSlot",
                        std::to_string(uav_start) + " is below NumRTVs " +
                            std::to_string(rtv_count) + "; render targets and UAVs share slots");
            return;
        }
    }
    if (!keep_rtvs) OMSetRenderTargets(rtv_count, rtvs, depth);
    if (!keep_uavs) set_uavs(false, uav_start, uav_count, uavs, initial_counts, true);
}

void Context::OMGetRenderTargetsAndUnorderedAccessViews(UINT rtv_count,
                                                        ID3D11RenderTargetView** rtvs,
                                                        ID3D11DepthStencilView** depth,
                                                        UINT uav_start, UINT uav_count,
                                                        ID3D11UnorderedAccessView** uavs) {
    OMGetRenderTargets(rtv_count, rtvs, depth);
    if (!uavs) return;
    if (uav_start >= uav_slots() || uav_count > uav_slots() - uav_start) {
        log().error("ID3D11DeviceContext::OMGetRenderTargetsAndUnorderedAccessViews",
                    "UAVStartSlot/NumUAVs", "leaves the UAV slots");
        return;
    }
    for (UINT i = 0; i < uav_count; ++i)
        hand_out(&uavs[i], state_.output_uavs[uav_start + i].get());
}

void Context::CSSetUnorderedAccessViews(UINT start, UINT count,
                                        ID3D11UnorderedAccessView* const* views,
                                        const UINT* initial_counts) {
    all_parts_changed();  // views bound here may unbind others
    const char* call = "ID3D11DeviceContext::CSSetUnorderedAccessViews";
    if (start >= uav_slots() || count > uav_slots() - start) {
        log().error(call, "StartSlot/NumUAVs",
                    std::to_string(start) + " + " + std::to_string(count) + " leaves the " +
                        std::to_string(uav_slots()) + " UAV slots; dropped");
        return;
    }
    set_uavs(true, start, count, views, initial_counts, false);
}

void Context::CSGetUnorderedAccessViews(UINT start, UINT count, ID3D11UnorderedAccessView** views) {
    if (!views || start >= uav_slots() || count > uav_slots() - start) {
        log().error("ID3D11DeviceContext::CSGetUnorderedAccessViews", "StartSlot/NumUAVs",
                    "leaves the UAV slots or ppUnorderedAccessViews is NULL");
        return;
    }
    for (UINT i = 0; i < count; ++i) hand_out(&views[i], state_.compute_uavs[start + i].get());
}

void Context::OMSetBlendState(ID3D11BlendState* state, const FLOAT factor[4], UINT sample_mask) {
    dirty_ |= backend::kBlendPart | backend::kBlendFactorPart;
    state_.blend_state = Ref<BlendState>(static_cast<BlendState*>(state));
    // A NULL factor means {1, 1, 1, 1}.
    for (int i = 0; i < 4; ++i) state_.blend_factor[i] = factor ? factor[i] : 1.0f;
    state_.sample_mask = sample_mask;
    if (deferred_) {
        record([bound = state_.blend_state, factors = state_.blend_factor,
                sample_mask](Context& target) {
            target.state_.blend_state = bound;
            target.state_.blend_factor = factors;
            target.state_.sample_mask = sample_mask;
        });
    }
}

void Context::OMGetBlendState(ID3D11BlendState** state, FLOAT factor[4], UINT* sample_mask) {
    hand_out(state, state_.blend_state.get());
    if (factor) std::copy(state_.blend_factor.begin(), state_.blend_factor.end(), factor);
    if (sample_mask) *sample_mask = state_.sample_mask;
}

void Context::OMSetDepthStencilState(ID3D11DepthStencilState* state, UINT stencil_ref) {
    dirty_ |= backend::kDepthStencilPart | backend::kStencilRefPart;
    state_.depth_stencil_state = Ref<DepthStencilState>(static_cast<DepthStencilState*>(state));
    state_.stencil_ref = stencil_ref;
    if (deferred_) {
        record([bound = state_.depth_stencil_state, stencil_ref](Context& target) {
            target.state_.depth_stencil_state = bound;
            target.state_.stencil_ref = stencil_ref;
        });
    }
}

void Context::OMGetDepthStencilState(ID3D11DepthStencilState** state, UINT* stencil_ref) {
    hand_out(state, state_.depth_stencil_state.get());
    if (stencil_ref) *stencil_ref = state_.stencil_ref;
}

// Rasterizer

void Context::RSSetState(ID3D11RasterizerState* state) {
    dirty_ |= backend::kRasterizerPart;
    state_.rasterizer_state = Ref<RasterizerState>(static_cast<RasterizerState*>(state));
    if (deferred_) {
        record([bound = state_.rasterizer_state](Context& target) {
            target.state_.rasterizer_state = bound;
        });
    }
}

void Context::RSGetState(ID3D11RasterizerState** state) {
    hand_out(state, state_.rasterizer_state.get());
}

void Context::RSSetViewports(UINT count, const D3D11_VIEWPORT* viewports) {
    dirty_ |= backend::kViewportsPart;
    if (count > D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE || (count && !viewports)) {
        log().error("ID3D11DeviceContext::RSSetViewports", "NumViewports",
                    std::to_string(count) + " viewports (at most 16, with an array); dropped");
        return;
    }
    state_.viewport_count = count;
    std::copy(viewports, viewports + count, state_.viewports.begin());
    if (deferred_) record([count](Context& target) { target.state_.viewport_count = count; });
    record_slots(
        [](ContextState & state) -> auto& { return state.viewports; }, 0, count);
}

// The Get calls fill the array given (zeros past the bound ones) and write
// back how many are bound, as Windows does.
void Context::RSGetViewports(UINT* count, D3D11_VIEWPORT* viewports) {
    if (!count) return;
    const UINT filled =
        std::min<UINT>(*count, D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE);
    for (UINT i = 0; viewports && i < filled; ++i) {
        viewports[i] = i < state_.viewport_count ? state_.viewports[i] : D3D11_VIEWPORT{};
    }
    *count = state_.viewport_count;
}

void Context::RSSetScissorRects(UINT count, const D3D11_RECT* rects) {
    dirty_ |= backend::kViewportsPart;
    if (count > D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE || (count && !rects)) {
        log().error("ID3D11DeviceContext::RSSetScissorRects", "NumRects",
                    std::to_string(count) + " rectangles (at most 16, with an array); dropped");
        return;
    }
    state_.scissor_count = count;
    std::copy(rects, rects + count, state_.scissors.begin());
    if (deferred_) record([count](Context& target) { target.state_.scissor_count = count; });
    record_slots(
        [](ContextState & state) -> auto& { return state.scissors; }, 0, count);
}

void Context::RSGetScissorRects(UINT* count, D3D11_RECT* rects) {
    if (!count) return;
    const UINT filled =
        std::min<UINT>(*count, D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE);
    for (UINT i = 0; rects && i < filled; ++i) {
        rects[i] = i < state_.scissor_count ? state_.scissors[i] : D3D11_RECT{};
    }
    *count = state_.scissor_count;
}

// Stream output

void Context::SOSetTargets(UINT count, ID3D11Buffer* const* buffers, const UINT* offsets) {
    dirty_ |= backend::kStreamOutputPart;
    if (count > D3D11_SO_BUFFER_SLOT_COUNT) {
        log().error("ID3D11DeviceContext::SOSetTargets", "NumBuffers",
                    std::to_string(count) + " is more than 4; dropped");
        return;
    }
    for (UINT i = 0; i < D3D11_SO_BUFFER_SLOT_COUNT; ++i) {
        Buffer* buffer = i < count && buffers ? to_buffer(buffers[i]) : nullptr;
        state_.stream_output_targets[i] = Ref<Buffer>(buffer);
        state_.stream_output_offsets[i] = buffer && offsets ? offsets[i] : 0;
    }
    record_slots(
        [](ContextState & state) -> auto& { return state.stream_output_targets; }, 0,
        D3D11_SO_BUFFER_SLOT_COUNT);
    record_slots(
        [](ContextState & state) -> auto& { return state.stream_output_offsets; }, 0,
        D3D11_SO_BUFFER_SLOT_COUNT);
}

void Context::SOGetTargets(UINT count, ID3D11Buffer** buffers) {
    if (!buffers) return;
    for (UINT i = 0; i < count && i < D3D11_SO_BUFFER_SLOT_COUNT; ++i) {
        hand_out(&buffers[i], state_.stream_output_targets[i].get());
    }
}

// Predication (kept and returned; the CPU devices never skip work for it)

void Context::SetPredication(ID3D11Predicate* predicate, BOOL value) {
    state_.predicate = Ref<Query>(static_cast<Query*>(predicate));
    state_.predicate_value = value;
    if (deferred_) {
        record([bound = state_.predicate, value](Context& target) {
            target.state_.predicate = bound;
            target.state_.predicate_value = value;
        });
    }
}

void Context::GetPredication(ID3D11Predicate** predicate, BOOL* value) {
    hand_out(predicate, state_.predicate.get());
    if (value) *value = state_.predicate_value;
}

}  // namespace d3dcap::runtime::d3d11
