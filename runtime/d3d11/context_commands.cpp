// Draws and dispatches (validated and counted), markers, deferred recording,
// command lists and SwapDeviceContextState.
#include <algorithm>
#include <bit>

#include "runtime/d3d11/context.h"
#include "runtime/d3d11/device.h"

namespace d3dcap::runtime::d3d11 {

void Context::execute(CommandList& list, bool restore_state) {
    // A command list inherits nothing: it runs from the cleared state and
    // leaves the context cleared, or as it was when asked to restore.
    ContextState saved;
    if (restore_state) saved = state_;
    clear_state();
    for (const Command& command : list.commands()) {
        command(*this);
        all_parts_changed();  // recorded commands set state_ directly
    }
    if (restore_state) {
        state_ = std::move(saved);
    } else {
        clear_state();
    }
    all_parts_changed();
}

void Context::ExecuteCommandList(ID3D11CommandList* list, BOOL restore) {
    const char* call = "ID3D11DeviceContext::ExecuteCommandList";
    auto* commands = static_cast<CommandList*>(list);
    if (!commands) {
        log().error(call, "pCommandList", "is NULL; the call is dropped");
        return;
    }
    if (&commands->device() != &device()) {
        log().error(call, "pCommandList", "belongs to another device; the call is dropped");
        return;
    }
    if (deferred_) {
        record([ref = Ref<CommandList>(commands), restore](Context& target) {
            target.ExecuteCommandList(ref.get(), restore);
        });
        // The executing context ends the nested list cleared or restored,
        // just as this context's own state does now.
        if (!restore) clear_state();
        return;
    }
    execute(*commands, restore);
}

HRESULT Context::FinishCommandList(BOOL restore, ID3D11CommandList** list) {
    const char* call = "ID3D11DeviceContext::FinishCommandList";
    if (list) *list = nullptr;
    if (!deferred_) {
        log().error(call, "", "only deferred contexts record command lists");
        return DXGI_ERROR_INVALID_CALL;
    }
    for (const auto& [key, mapping] : deferred_maps_) {
        if (mapping.mapped) {
            log().error(call, "", "a subresource mapped on this context is still mapped");
            return DXGI_ERROR_INVALID_CALL;
        }
    }
    std::vector<Command> commands = std::move(commands_);
    commands_.clear();
    deferred_maps_.clear();
    if (restore) {
        // The context keeps its state; the next list sets it first, since
        // the context that runs a list starts cleared.
        auto snapshot = std::make_shared<const ContextState>(state_);
        record([snapshot](Context& target) { target.state_ = *snapshot; });
    } else {
        clear_state();
    }
    if (!list) {
        log().warning(call, "ppCommandList", "is NULL; the recorded commands are dropped");
        return S_OK;
    }
    *list = new CommandList(device(), flags_, std::move(commands));
    return S_OK;
}

// Work a device holds back (the Vulkan device's batched commands and
// sparse binds) goes to the GPU now.
void Context::Flush() {
    if (deferred_) return;
    auto guard = device().lock();
    device().backend().flush();
}

void Context::SwapDeviceContextState(ID3DDeviceContextState* state,
                                     ID3DDeviceContextState** previous) {
    const char* call = "ID3D11DeviceContext1::SwapDeviceContextState";
    if (previous) *previous = nullptr;
    if (deferred_) {
        log().error(call, "", "deferred contexts cannot swap context state; dropped");
        return;
    }
    auto* next = static_cast<DeviceContextState*>(state);
    if (!next) {
        log().error(call, "pState", "is NULL; dropped");
        return;
    }
    if (&next->device() != &device()) {
        log().error(call, "pState", "belongs to another device; dropped");
        return;
    }
    Ref<DeviceContextState> before = device().swap_context_state(*next);
    hand_out(previous, before.get());
}

// Draws and dispatches

bool Context::check_draw_args(const char* call, ID3D11Buffer* args, UINT offset, UINT size) {
    Buffer* buffer = to_buffer(args);
    if (!buffer) {
        log().error(call, "pBufferForArgs", "is NULL; dropped");
        return false;
    }
    if (!(buffer->info().misc_flags & D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS)) {
        log().error(call, "pBufferForArgs",
                    "was created without RESOURCE_MISC_DRAWINDIRECT_ARGS; dropped");
        return false;
    }
    if (offset % 4 || std::uint64_t{offset} + size > buffer->info().byte_width) {
        log().error(call, "AlignedByteOffsetForArgs",
                    std::to_string(offset) +
                        " is not 4-byte aligned or leaves room for fewer than " +
                        std::to_string(size) + " bytes of arguments; dropped");
        return false;
    }
    return true;
}

// On a deferred context a draw is counted there and recorded, so that the
// context that runs the command list counts it again.
void Context::Draw(UINT vertex_count, UINT start_vertex) {
    if (deferred_) record([=](Context& target) { target.Draw(vertex_count, start_vertex); });
    backend::DrawArguments arguments;
    arguments.count = vertex_count;
    arguments.start = start_vertex;
    run_draw("ID3D11DeviceContext::Draw", arguments);
}

void Context::DrawIndexed(UINT index_count, UINT start_index, INT base_vertex) {
    if (deferred_) {
        record([=](Context& target) { target.DrawIndexed(index_count, start_index, base_vertex); });
    }
    backend::DrawArguments arguments;
    arguments.indexed = true;
    arguments.count = index_count;
    arguments.start = start_index;
    arguments.base_vertex = base_vertex;
    run_draw("ID3D11DeviceContext::DrawIndexed", arguments);
}

void Context::DrawInstanced(UINT vertex_count, UINT instance_count, UINT start_vertex,
                            UINT start_instance) {
    if (deferred_) {
        record([=](Context& target) {
            target.DrawInstanced(vertex_count, instance_count, start_vertex, start_instance);
        });
    }
    backend::DrawArguments arguments;
    arguments.count = vertex_count;
    arguments.instances = instance_count;
    arguments.start = start_vertex;
    arguments.start_instance = start_instance;
    run_draw("ID3D11DeviceContext::DrawInstanced", arguments);
}

void Context::DrawIndexedInstanced(UINT index_count, UINT instance_count, UINT start_index,
                                   INT base_vertex, UINT start_instance) {
    if (deferred_) {
        record([=](Context& target) {
            target.DrawIndexedInstanced(index_count, instance_count, start_index, base_vertex,
                                        start_instance);
        });
    }
    backend::DrawArguments arguments;
    arguments.indexed = true;
    arguments.count = index_count;
    arguments.instances = instance_count;
    arguments.start = start_index;
    arguments.base_vertex = base_vertex;
    arguments.start_instance = start_instance;
    run_draw("ID3D11DeviceContext::DrawIndexedInstanced", arguments);
}

void Context::DrawAuto() {
    if (deferred_) record([](Context& target) { target.DrawAuto(); });
    backend::DrawArguments arguments;
    arguments.from_stream_output = true;
    run_draw("ID3D11DeviceContext::DrawAuto", arguments);
}

void Context::DrawIndexedInstancedIndirect(ID3D11Buffer* args, UINT offset) {
    const char* call = "ID3D11DeviceContext::DrawIndexedInstancedIndirect";
    if (!check_draw_args(call, args, offset, sizeof(D3D11_DRAW_INDEXED_INSTANCED_INDIRECT_ARGS))) {
        return;
    }
    if (deferred_) {
        record([ref = Ref<Buffer>(to_buffer(args)), offset](Context& target) {
            target.DrawIndexedInstancedIndirect(ref.get(), offset);
        });
    }
    backend::DrawArguments arguments;
    arguments.indexed = true;
    arguments.arguments = to_buffer(args)->id();
    arguments.offset = offset;
    run_draw(call, arguments);
}

void Context::DrawInstancedIndirect(ID3D11Buffer* args, UINT offset) {
    const char* call = "ID3D11DeviceContext::DrawInstancedIndirect";
    if (!check_draw_args(call, args, offset, sizeof(D3D11_DRAW_INSTANCED_INDIRECT_ARGS))) {
        return;
    }
    if (deferred_) {
        record([ref = Ref<Buffer>(to_buffer(args)), offset](Context& target) {
            target.DrawInstancedIndirect(ref.get(), offset);
        });
    }
    backend::DrawArguments arguments;
    arguments.arguments = to_buffer(args)->id();
    arguments.offset = offset;
    run_draw(call, arguments);
}

void Context::Dispatch(UINT x, UINT y, UINT z) {
    const UINT limit = D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION;
    if (x > limit || y > limit || z > limit) {
        log().error("ID3D11DeviceContext::Dispatch", "ThreadGroupCount",
                    std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(z) +
                        " has a dimension above 65535; dropped");
        return;
    }
    ++counters_.dispatches;
    if (deferred_) {
        record([=](Context& target) { target.Dispatch(x, y, z); });
        return;
    }
    run_dispatch("ID3D11DeviceContext::Dispatch", backend::DispatchSize{x, y, z});
}

void Context::stage_work(Stage stage, backend::StageWork& work, std::uint32_t parts,
                         std::uint16_t constant_slots) const {
    const StageState& bound = state_.stages[static_cast<int>(stage)];
    if (parts & backend::kStageShaderPart) {
        work.bytecode = bound.shader ? bound.shader->bytecode() : std::span<const std::uint8_t>{};
        work.shader = bound.shader ? bound.shader->id() : 0;
    }
    // What a stage without a shader binds is never read.
    if (parts & backend::kStageConstantsPart) {
        if (!bound.shader) constant_slots = kAllConstantSlots;
        // The set bits only: most draws set one slot, if any.
        for (std::uint32_t left = constant_slots; left != 0; left &= left - 1) {
            const auto slot = static_cast<std::size_t>(std::countr_zero(left));
            if (slot >= bound.constant_buffers.size()) break;
            const ConstantBufferBinding& cb = bound.constant_buffers[slot];
            if (!cb.buffer || !bound.shader) {
                work.constant_buffers[slot] = {};
                continue;
            }
            const std::uint64_t size = cb.buffer->info().byte_width;
            const std::uint64_t offset = std::min<std::uint64_t>(16ull * cb.first_constant, size);
            work.constant_buffers[slot] = {
                cb.buffer->id(), offset,
                std::min<std::uint64_t>(16ull * cb.constant_count, size - offset)};
        }
    }
    if (!(parts & backend::kStageViewsPart)) return;
    work.resources.clear();
    work.samplers.clear();
    work.uavs.clear();
    work.uav_counters.clear();
    if (!bound.shader) return;
    for (std::uint32_t slot = 0; slot < bound.shader_resources.size(); ++slot)
        if (bound.shader_resources[slot])
            work.resources.emplace_back(slot, bound.shader_resources[slot]->info());
    for (std::uint32_t slot = 0; slot < bound.samplers.size(); ++slot)
        if (bound.samplers[slot]) work.samplers.emplace_back(slot, bound.samplers[slot]->desc());
    // A draw's UAVs are the output merger's, which draw_work adds.
    const bool compute = stage == Stage::Compute;
    const auto& uavs = compute ? state_.compute_uavs : state_.output_uavs;
    for (std::uint32_t slot = 0; (compute || stage == Stage::Pixel) && slot < uavs.size(); ++slot)
        if (UnorderedAccessView* uav = uavs[slot].get()) {
            work.uavs.emplace_back(slot, uav->info());
            if (has_hidden_counter(*uav)) work.uav_counters.emplace_back(slot, uav->id());
        }
}

namespace {

D3D11_RASTERIZER_DESC1 default_rasterizer() {
    D3D11_RASTERIZER_DESC1 desc{};
    desc.FillMode = D3D11_FILL_SOLID;
    desc.CullMode = D3D11_CULL_BACK;
    desc.DepthClipEnable = TRUE;
    return desc;
}

D3D11_BLEND_DESC1 default_blend() {
    D3D11_BLEND_DESC1 desc{};
    for (auto& target : desc.RenderTarget) {
        target.SrcBlend = target.SrcBlendAlpha = D3D11_BLEND_ONE;
        target.DestBlend = target.DestBlendAlpha = D3D11_BLEND_ZERO;
        target.BlendOp = target.BlendOpAlpha = D3D11_BLEND_OP_ADD;
        target.LogicOp = D3D11_LOGIC_OP_NOOP;
        target.RenderTargetWriteMask = D3D11_COLOR_WRITE_ENABLE_ALL;
    }
    return desc;
}

D3D11_DEPTH_STENCIL_DESC default_depth_stencil() {
    D3D11_DEPTH_STENCIL_DESC desc{};
    desc.DepthEnable = TRUE;
    desc.DepthWriteMask = D3D11_DEPTH_WRITE_MASK_ALL;
    desc.DepthFunc = D3D11_COMPARISON_LESS;
    desc.StencilReadMask = desc.StencilWriteMask = 0xff;
    for (D3D11_DEPTH_STENCILOP_DESC* face : {&desc.FrontFace, &desc.BackFace}) {
        face->StencilFailOp = face->StencilDepthFailOp = face->StencilPassOp =
            D3D11_STENCIL_OP_KEEP;
        face->StencilFunc = D3D11_COMPARISON_ALWAYS;
    }
    return desc;
}

}  // namespace

void Context::draw_work(backend::DrawWork& work) {
    std::uint32_t dirty = dirty_;
    dirty_ = 0;
    constexpr int kPixel = static_cast<int>(Stage::Pixel);
    // The pixel stage's views include the output merger's UAVs.
    if (dirty & backend::kOutputPart) dirty |= backend::kStageViewsPart << kPixel;
    // The stages with a part changed (a changed slot marks its stage's
    // constants part, so the others have none to clear).
    const std::uint32_t stages =
        (dirty / backend::kStageShaderPart | dirty / backend::kStageConstantsPart |
         dirty / backend::kStageViewsPart) &
        0x1fu;
    for (std::uint32_t left = stages; left != 0; left &= left - 1) {
        const int stage = std::countr_zero(left);
        // Another shader (or none) reads all of its stage's slots anew.
        std::uint16_t constant_slots = changed_constant_slots_[stage];
        changed_constant_slots_[stage] = 0;
        if (dirty & (backend::kStageShaderPart << stage)) {
            dirty |= backend::stage_parts(stage);
            constant_slots = kAllConstantSlots;
        }
        const std::uint32_t parts = (dirty >> stage) & backend::stage_parts(0);
        if (parts != 0)
            stage_work(static_cast<Stage>(stage), work.stages[stage], parts, constant_slots);
    }
    work.changed = dirty;
    if (dirty & backend::kInputLayoutPart) {
        work.input_layout =
            state_.input_layout
                ? std::span<const backend::InputElement>(state_.input_layout->resolved())
                : std::span<const backend::InputElement>{};
        work.topology = state_.topology;
    }
    if (dirty & backend::kVertexBuffersPart) {
        for (std::size_t slot = 0; slot < state_.vertex_buffers.size(); ++slot) {
            const VertexBufferBinding& vb = state_.vertex_buffers[slot];
            work.vertex_buffers[slot] =
                vb.buffer ? backend::VertexBufferSlot{vb.buffer->id(), vb.stride, vb.offset}
                          : backend::VertexBufferSlot{};
        }
        work.index_buffer = state_.index_buffer ? state_.index_buffer->id() : 0;
        work.index_format = state_.index_format;
        work.index_offset = state_.index_offset;
    }
    if (dirty & backend::kRasterizerPart)
        work.rasterizer =
            state_.rasterizer_state ? state_.rasterizer_state->desc() : default_rasterizer();
    if (dirty & backend::kViewportsPart) {
        work.viewports.assign(state_.viewports.begin(),
                              state_.viewports.begin() + state_.viewport_count);
        work.scissors.assign(state_.scissors.begin(),
                             state_.scissors.begin() + state_.scissor_count);
    }
    if (dirty & backend::kBlendPart) {
        work.blend = state_.blend_state ? state_.blend_state->desc() : default_blend();
        work.sample_mask = state_.sample_mask;
    }
    if (dirty & backend::kBlendFactorPart) work.blend_factor = state_.blend_factor;
    if (dirty & backend::kDepthStencilPart)
        work.depth_stencil = state_.depth_stencil_state ? state_.depth_stencil_state->desc()
                                                        : default_depth_stencil();
    if (dirty & backend::kStencilRefPart) work.stencil_ref = state_.stencil_ref;
    if (dirty & backend::kOutputPart) {
        work.render_targets.clear();
        for (std::uint32_t slot = 0; slot < state_.render_targets.size(); ++slot)
            if (state_.render_targets[slot])
                work.render_targets.emplace_back(slot, state_.render_targets[slot]->info());
        work.depth_stencil_view.reset();
        if (state_.depth_stencil_view) work.depth_stencil_view = state_.depth_stencil_view->info();
    }
    if (dirty & backend::kStreamOutputPart) {
        work.stream_output = {};
        const ShaderBase* geometry = state_.stages[static_cast<int>(Stage::Geometry)].shader.get();
        if (geometry != nullptr && !geometry->stream_output().entries.empty()) {
            backend::StreamOutputWork& so = work.stream_output;
            so.declaration = &geometry->stream_output();
            for (std::size_t slot = 0; slot < so.targets.size(); ++slot) {
                if (!state_.stream_output_targets[slot]) continue;
                so.targets[slot] = state_.stream_output_targets[slot]->id();
                so.offsets[slot] = state_.stream_output_offsets[slot];
            }
        }
    }
}

void Context::run_draw(const char* call, const backend::DrawArguments& arguments) {
    count_draw();
    if (deferred_) return;
    if (!arguments.arguments && !arguments.from_stream_output &&
        (arguments.count == 0 || arguments.instances == 0))
        return;
    backend::GpuPredicate predicate;
    if (predicated(&predicate)) return;
    if (!state_.stages[static_cast<int>(Stage::Vertex)].shader) return;  // nothing runs
    // Devices that run no shaders skip it without gathering the state.
    if (!device().backend().executes_shaders()) {
        not_executed(false);
        return;
    }
    backend::DrawWork& work = draw_scratch_;
    draw_work(work);
    work.count_samples = !running_occlusion_.empty();
    work.count_statistics = !running_statistics_.empty();
    work.count_stream_output = !running_stream_output_.empty();
    work.counting_epoch = counting_epoch_;
    work.predicate = predicate;
    auto guard = device().lock();
    backend::WorkResults results;
    const std::string why = device().backend().draw(work, arguments, results);
    count_results(results);
    // SOSetTargets' offsets hold for the first draw that streams out; later
    // draws append to what it wrote.
    if (work.stream_output.active()) {
        for (std::size_t slot = 0; slot < work.stream_output.targets.size(); ++slot)
            if (work.stream_output.targets[slot])
                state_.stream_output_offsets[slot] = backend::StreamOutputWork::kAppend;
        dirty_ |= backend::kStreamOutputPart;
    }
    if (why.empty()) return;
    not_executed(false);
    log().error(call, "", "not executed: " + why);
}

void Context::not_executed(bool compute) {
    ++counters_.not_executed;
    // What the work would have written holds something else now.
    auto mark = [](const auto& view) {
        if (view) view->resource().set_unexecuted_content(true);
    };
    if (compute) {
        for (const auto& uav : state_.compute_uavs) mark(uav);
        return;
    }
    for (const auto& target : state_.render_targets) mark(target);
    mark(state_.depth_stencil_view);
    for (const auto& uav : state_.output_uavs) mark(uav);
    for (const auto& buffer : state_.stream_output_targets)
        if (buffer) buffer->set_unexecuted_content(true);
}

void Context::run_dispatch(const char* call, backend::DispatchSize groups) {
    if (!groups.arguments && (groups.x == 0 || groups.y == 0 || groups.z == 0)) return;
    // No compute shader: nothing runs, as on Windows.
    if (!state_.stages[static_cast<int>(Stage::Compute)].shader || predicated(&groups.predicate))
        return;
    if (!device().backend().executes_shaders()) {
        not_executed(true);
        return;
    }
    backend::StageWork work;
    stage_work(Stage::Compute, work, backend::stage_parts(0));
    groups.count_statistics = !running_statistics_.empty();
    auto guard = device().lock();
    backend::WorkResults results;
    const std::string why = device().backend().dispatch(work, groups, results);
    count_results(results);
    if (why.empty()) return;
    not_executed(true);
    log().error(call, "", "not executed: " + why);
}

void Context::DispatchIndirect(ID3D11Buffer* args, UINT offset) {
    const char* call = "ID3D11DeviceContext::DispatchIndirect";
    if (!check_draw_args(call, args, offset, 12)) return;
    ++counters_.dispatches;
    if (deferred_) {
        record([ref = Ref<Buffer>(to_buffer(args)), offset](Context& target) {
            target.DispatchIndirect(ref.get(), offset);
        });
        return;
    }
    run_dispatch(call, backend::DispatchSize{0, 0, 0, to_buffer(args)->id(), offset});
}

// Markers: balanced per context; the immediate context's go to the device
// as labels for GPU tools.

namespace {

std::string label_text(LPCWSTR name) {
    std::string text;
    for (; name != nullptr && *name != 0; ++name) {
        const auto code = static_cast<std::uint32_t>(*name);
        if (code < 0x80) {
            text += static_cast<char>(code);
        } else if (code < 0x800) {
            text += static_cast<char>(0xC0 | code >> 6);
            text += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            text += static_cast<char>(0xE0 | code >> 12);
            text += static_cast<char>(0x80 | (code >> 6 & 0x3F));
            text += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            text += static_cast<char>(0xF0 | (code >> 18 & 0x07));
            text += static_cast<char>(0x80 | (code >> 12 & 0x3F));
            text += static_cast<char>(0x80 | (code >> 6 & 0x3F));
            text += static_cast<char>(0x80 | (code & 0x3F));
        }
    }
    return text;
}

}  // namespace

void Context::label(LabelKind kind, LPCWSTR name) {
    if (kind == LabelKind::Begin) {
        ++event_depth_;
    } else if (kind == LabelKind::End) {
        if (event_depth_ == 0) return;  // unbalanced: nothing to end
        --event_depth_;
    }
    if (deferred_) return;
    auto guard = device().lock();
    backend::Backend& backend = device().backend();
    switch (kind) {
        case LabelKind::Begin:
            backend.begin_event(label_text(name));
            break;
        case LabelKind::End:
            backend.end_event();
            break;
        case LabelKind::Marker:
            backend.set_marker(label_text(name));
            break;
    }
}

void Context::SetMarkerInt(LPCWSTR name, INT) {
    label(LabelKind::Marker, name);
}
void Context::BeginEventInt(LPCWSTR name, INT) {
    label(LabelKind::Begin, name);
}
void Context::EndEvent() {
    label(LabelKind::End, nullptr);
}

HRESULT Annotation::QueryInterface(REFIID riid, void** out) {
    return owner_.QueryInterface(riid, out);
}
ULONG Annotation::AddRef() {
    return owner_.AddRef();
}
ULONG Annotation::Release() {
    return owner_.Release();
}
// -1: "not running under a profiling tool", as the documentation says.
INT Annotation::BeginEvent(LPCWSTR name) {
    owner_.label(Context::LabelKind::Begin, name);
    return -1;
}
INT Annotation::EndEvent() {
    owner_.label(Context::LabelKind::End, nullptr);
    return -1;
}
void Annotation::SetMarker(LPCWSTR name) {
    owner_.label(Context::LabelKind::Marker, name);
}

}  // namespace d3dcap::runtime::d3d11
