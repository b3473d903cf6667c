#include "replay/engine/pipeline_state.h"

#include <d3dcap/api/call_json.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <sstream>

#include "replay/engine/named_constants.h"
#include "runtime/formats/formats.h"
#include "runtime/inspection.h"
#include "runtime/shader/container.h"
#include "runtime/shader/decoder.h"
#include "runtime/shader/disassembler.h"
#include "runtime/tiles/describe.h"

namespace d3dcap::replay {

namespace {

// At most this many constants of a buffer's window are listed.
constexpr UINT kListedConstants = 256;

class Rows {
  public:
    Rows(std::vector<StateRow>& rows, const ObjectLabel& label) : rows_(rows), label_(label) {}
    void add(std::uint32_t depth, std::string name, std::string value = {}) {
        rows_.push_back({depth, std::move(name), std::move(value)});
    }
    std::string label(IUnknown* object) const {
        if (object == nullptr) return "none";
        const std::string text = label_(object);
        return text.empty() ? "an object replay does not know" : text;
    }

  private:
    std::vector<StateRow>& rows_;
    const ObjectLabel& label_;
};

// Releases what a Get* call handed out.
template <class T>
struct Held {
    std::vector<T*> objects;
    explicit Held(std::size_t count) : objects(count, nullptr) {}
    ~Held() {
        for (T* object : objects)
            if (object) object->Release();
    }
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;
    T** data() { return objects.data(); }
};

// D3D_PRIMITIVE_TOPOLOGY lives in d3dcommon.h, outside the API table.
std::string topology_name(D3D11_PRIMITIVE_TOPOLOGY topology) {
    static constexpr const char* kNames[] = {"UNDEFINED", "POINTLIST",    "LINELIST",
                                             "LINESTRIP", "TRIANGLELIST", "TRIANGLESTRIP"};
    const auto value = static_cast<int>(topology);
    if (value >= 0 && value < 6) return kNames[value];
    if (value >= 10 && value <= 13) {
        static constexpr const char* kAdjacent[] = {"LINELIST_ADJ", "LINESTRIP_ADJ",
                                                    "TRIANGLELIST_ADJ", "TRIANGLESTRIP_ADJ"};
        return kAdjacent[value - 10];
    }
    if (value >= 33 && value <= 64) return std::to_string(value - 32) + "_CONTROL_POINT_PATCHLIST";
    return "topology " + std::to_string(value);
}

// An enumerator without its enum's prefix: "BACK" for D3D11_CULL_BACK.
std::string named(std::string_view enum_name, std::int64_t value, std::string_view prefix) {
    std::string text = api::enum_text(enum_name, value);
    if (text.rfind(prefix, 0) == 0) text.erase(0, prefix.size());
    return text;
}

std::string number(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

// "view #7 of resource #4 (R8G8B8A8_UNORM)".
std::string view_of(const Rows& rows, ID3D11View* view, DXGI_FORMAT format) {
    ID3D11Resource* resource = nullptr;
    view->GetResource(&resource);
    std::string text = rows.label(view) + " of " + rows.label(resource) + " (" +
                       runtime::formats::short_name(format) + ")";
    if (resource) resource->Release();
    return text;
}

using Reflection = std::optional<runtime::shader::Reflection>;

// The shader's disassembly rows; its reflection (RDEF), when it has one the
// reader takes, comes back for the rows that name its bindings.
Reflection shader_rows(Rows& rows, ID3D11DeviceChild* shader) {
    std::vector<std::uint8_t> bytecode;
    if (!runtime::shader_bytecode(shader, bytecode)) return std::nullopt;
    std::string error;
    const auto program = runtime::shader::decode_container(bytecode, error);
    if (!program) {
        rows.add(2, "disassembly", "the token reader refuses it: " + error);
        return std::nullopt;
    }
    rows.add(2, "disassembly", std::to_string(bytecode.size()) + " bytes");
    std::istringstream text(runtime::shader::disassemble(*program));
    std::string line;
    for (int n = 0; std::getline(text, line); ++n) rows.add(3, std::to_string(n), line);
    const auto chunks = runtime::shader::read_container(bytecode, error);
    runtime::shader::Reflection reflection;
    if (!chunks || !runtime::shader::read_reflection(*chunks, reflection, error))
        return std::nullopt;
    return reflection;
}

// "albedo: " where the shader's reflection names what it binds there.
std::string named_binding(const Reflection& reflection, char file, std::size_t slot) {
    if (!reflection) return {};
    const std::string name = reflection->binding_name(file, std::uint32_t(slot));
    return name.empty() ? name : name + ": ";
}

void constant_rows(Rows& rows, ID3D11Buffer* buffer, UINT first, UINT count,
                   const runtime::shader::ReflectedConstantBuffer* named) {
    std::vector<std::uint8_t> bytes;
    if (!runtime::resource_contents(buffer, 0, bytes)) return;
    if (named != nullptr) {
        // By the names the shader gives them, from the window's start.
        const std::size_t start = std::min<std::size_t>(std::size_t{first} * 16, bytes.size());
        const std::size_t size =
            std::min<std::size_t>(std::size_t{count} * 16, bytes.size() - start);
        rows.add(2, named->name, "cbuffer, " + std::to_string(named->size) + " bytes");
        for (const NamedConstant& constant : named_constants(*named, {bytes.data() + start, size}))
            rows.add(3, constant.name + " (" + constant.type + ")", constant.value);
        return;
    }
    const UINT listed = std::min(count, kListedConstants);
    for (UINT c = 0; c < listed; ++c) {
        const std::size_t offset = std::size_t{first + c} * 16;
        if (offset + 16 > bytes.size()) break;
        float values[4];
        std::memcpy(values, bytes.data() + offset, sizeof values);
        rows.add(3, "c" + std::to_string(first + c),
                 number(values[0]) + ", " + number(values[1]) + ", " + number(values[2]) + ", " +
                     number(values[3]));
    }
}

// One stage's shader and bindings, through the context's Get calls of
// that stage (VSGet*, PSGet*...).
struct StageCalls {
    const char* name;
    ID3D11DeviceChild* (*shader)(ID3D11DeviceContext1*);
    void (*constants)(ID3D11DeviceContext1*, UINT, ID3D11Buffer**, UINT*, UINT*);
    void (*views)(ID3D11DeviceContext1*, UINT, ID3D11ShaderResourceView**);
    void (*samplers)(ID3D11DeviceContext1*, UINT, ID3D11SamplerState**);
};

#define D3DCAP_STAGE(prefix, Shader)                                                   \
    StageCalls {                                                                       \
#prefix,                                                                             \
            [](ID3D11DeviceContext1* c) -> ID3D11DeviceChild* {                              \
                Shader* s = nullptr;                                                         \
                c->prefix##GetShader(&s, nullptr, nullptr);                                  \
                return s;                                                                    \
            },                                                                               \
            [](ID3D11DeviceContext1* c, UINT n, ID3D11Buffer** b, UINT* f, UINT* k) {        \
                c->prefix##GetConstantBuffers1(0, n, b, f, k);                               \
            },                                                                               \
            [](ID3D11DeviceContext1* c, UINT n, ID3D11ShaderResourceView** v) {              \
                c->prefix##GetShaderResources(0, n, v);                                      \
            },                                                                               \
            [](ID3D11DeviceContext1* c, UINT n, ID3D11SamplerState** s) {                    \
                c->prefix##GetSamplers(0, n, s);                                             \
            } \
    }

// The stage's rows; its shader's reflection comes back for its UAVs.
Reflection stage_rows(Rows& rows, ID3D11DeviceContext1* context, const StageCalls& stage) {
    ID3D11DeviceChild* shader = stage.shader(context);
    rows.add(0, stage.name, rows.label(shader));
    if (!shader) return std::nullopt;
    Reflection reflection = shader_rows(rows, shader);
    shader->Release();
    Held<ID3D11Buffer> buffers(D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT);
    std::vector<UINT> first(buffers.objects.size()), count(buffers.objects.size());
    stage.constants(context, UINT(buffers.objects.size()), buffers.data(), first.data(),
                    count.data());
    for (std::size_t slot = 0; slot < buffers.objects.size(); ++slot) {
        if (!buffers.objects[slot]) continue;
        rows.add(1, "cb" + std::to_string(slot),
                 rows.label(buffers.objects[slot]) + ", constants " + std::to_string(first[slot]) +
                     "-" + std::to_string(first[slot] + count[slot] - 1));
        constant_rows(rows, buffers.objects[slot], first[slot], count[slot],
                      reflection ? reflection->constant_buffer_at(UINT(slot)) : nullptr);
    }
    Held<ID3D11ShaderResourceView> views(D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT);
    stage.views(context, UINT(views.objects.size()), views.data());
    for (std::size_t slot = 0; slot < views.objects.size(); ++slot) {
        if (!views.objects[slot]) continue;
        D3D11_SHADER_RESOURCE_VIEW_DESC desc{};
        views.objects[slot]->GetDesc(&desc);
        rows.add(
            1, "t" + std::to_string(slot),
            named_binding(reflection, 't', slot) + view_of(rows, views.objects[slot], desc.Format));
    }
    Held<ID3D11SamplerState> samplers(D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT);
    stage.samplers(context, UINT(samplers.objects.size()), samplers.data());
    for (std::size_t slot = 0; slot < samplers.objects.size(); ++slot) {
        if (!samplers.objects[slot]) continue;
        D3D11_SAMPLER_DESC desc{};
        samplers.objects[slot]->GetDesc(&desc);
        rows.add(
            1, "s" + std::to_string(slot),
            named_binding(reflection, 's', slot) + rows.label(samplers.objects[slot]) + ": " +
                named("D3D11_FILTER", desc.Filter, "D3D11_FILTER_") + ", address " +
                named("D3D11_TEXTURE_ADDRESS_MODE", desc.AddressU, "D3D11_TEXTURE_ADDRESS_") + " " +
                named("D3D11_TEXTURE_ADDRESS_MODE", desc.AddressV, "D3D11_TEXTURE_ADDRESS_") + " " +
                named("D3D11_TEXTURE_ADDRESS_MODE", desc.AddressW, "D3D11_TEXTURE_ADDRESS_"));
    }
    return reflection;
}

// UAVs, named as the shader that uses them (the pixel or compute shader) names them.
void uav_rows(Rows& rows, ID3D11UnorderedAccessView* const* views, std::size_t count,
              const Reflection& reflection) {
    for (std::size_t i = 0; i < count; ++i) {
        if (!views[i]) continue;
        D3D11_UNORDERED_ACCESS_VIEW_DESC desc{};
        views[i]->GetDesc(&desc);
        rows.add(1, "u" + std::to_string(i),
                 named_binding(reflection, 'u', i) + view_of(rows, views[i], desc.Format));
    }
}

void input_rows(Rows& rows, ID3D11DeviceContext1* context) {
    D3D11_PRIMITIVE_TOPOLOGY topology{};
    context->IAGetPrimitiveTopology(&topology);
    ID3D11InputLayout* layout = nullptr;
    context->IAGetInputLayout(&layout);
    rows.add(0, "IA", topology_name(topology));
    rows.add(1, "input layout", rows.label(layout));
    std::vector<runtime::backend::InputElement> elements;
    if (layout && runtime::input_layout_elements(layout, elements)) {
        for (const runtime::backend::InputElement& e : elements) {
            rows.add(
                2, e.semantic + std::to_string(e.semantic_index),
                runtime::formats::short_name(e.format) + ", slot " + std::to_string(e.slot) +
                    ", offset " +
                    (e.offset == D3D11_APPEND_ALIGNED_ELEMENT ? "appended"
                                                              : std::to_string(e.offset)) +
                    (e.per_instance ? ", per instance (step " + std::to_string(e.step_rate) + ")"
                                    : ", per vertex"));
        }
    }
    if (layout) layout->Release();
    Held<ID3D11Buffer> buffers(D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT);
    std::vector<UINT> strides(buffers.objects.size()), offsets(buffers.objects.size());
    context->IAGetVertexBuffers(0, UINT(buffers.objects.size()), buffers.data(), strides.data(),
                                offsets.data());
    for (std::size_t slot = 0; slot < buffers.objects.size(); ++slot) {
        if (!buffers.objects[slot]) continue;
        rows.add(1, "vb" + std::to_string(slot),
                 rows.label(buffers.objects[slot]) + ", stride " + std::to_string(strides[slot]) +
                     ", offset " + std::to_string(offsets[slot]));
    }
    ID3D11Buffer* indices = nullptr;
    DXGI_FORMAT format{};
    UINT offset = 0;
    context->IAGetIndexBuffer(&indices, &format, &offset);
    if (indices) {
        rows.add(1, "index buffer",
                 rows.label(indices) + ", " + runtime::formats::short_name(format) + ", offset " +
                     std::to_string(offset));
        indices->Release();
    }
}

void rasterizer_rows(Rows& rows, ID3D11DeviceContext1* context) {
    ID3D11RasterizerState* state = nullptr;
    context->RSGetState(&state);
    std::string summary = rows.label(state);
    if (state) {
        D3D11_RASTERIZER_DESC d{};
        state->GetDesc(&d);
        summary += ": fill " + named("D3D11_FILL_MODE", d.FillMode, "D3D11_FILL_") + ", cull " +
                   named("D3D11_CULL_MODE", d.CullMode, "D3D11_CULL_") +
                   (d.FrontCounterClockwise ? ", front counter-clockwise" : "") + ", depth bias " +
                   std::to_string(d.DepthBias) + (d.ScissorEnable ? ", scissor" : "") +
                   (d.DepthClipEnable ? ", depth clip" : "");
        state->Release();
    }
    rows.add(0, "RS", summary);
    UINT count = D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE;
    std::vector<D3D11_VIEWPORT> viewports(count);
    context->RSGetViewports(&count, viewports.data());
    for (UINT i = 0; i < count; ++i) {
        const D3D11_VIEWPORT& v = viewports[i];
        rows.add(1, "viewport " + std::to_string(i),
                 number(v.TopLeftX) + ", " + number(v.TopLeftY) + ", " + number(v.Width) + "x" +
                     number(v.Height) + ", depth " + number(v.MinDepth) + "-" + number(v.MaxDepth));
    }
    count = D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE;
    std::vector<D3D11_RECT> scissors(count);
    context->RSGetScissorRects(&count, scissors.data());
    for (UINT i = 0; i < count; ++i) {
        const D3D11_RECT& r = scissors[i];
        rows.add(1, "scissor " + std::to_string(i),
                 std::to_string(r.left) + ", " + std::to_string(r.top) + " to " +
                     std::to_string(r.right) + ", " + std::to_string(r.bottom));
    }
}

void output_rows(Rows& rows, ID3D11DeviceContext1* context, const Reflection& pixel) {
    ID3D11BlendState* blend = nullptr;
    float factor[4] = {};
    UINT mask = 0;
    context->OMGetBlendState(&blend, factor, &mask);
    ID3D11DepthStencilState* depth = nullptr;
    UINT reference = 0;
    context->OMGetDepthStencilState(&depth, &reference);
    rows.add(0, "OM");
    std::string blending = rows.label(blend);
    if (blend) {
        D3D11_BLEND_DESC d{};
        blend->GetDesc(&d);
        blending += d.RenderTarget[0].BlendEnable ? ": target 0 blends" : ": target 0 writes";
        blend->Release();
    }
    rows.add(1, "blend",
             blending + ", factor " + number(factor[0]) + ", " + number(factor[1]) + ", " +
                 number(factor[2]) + ", " + number(factor[3]) + ", sample mask " +
                 std::to_string(mask));
    std::string depth_text = rows.label(depth);
    if (depth) {
        D3D11_DEPTH_STENCIL_DESC d{};
        depth->GetDesc(&d);
        depth_text += d.DepthEnable ? ": depth test " + named("D3D11_COMPARISON_FUNC", d.DepthFunc,
                                                              "D3D11_COMPARISON_")
                                    : ": no depth test";
        depth_text += d.StencilEnable ? ", stencil" : "";
        depth->Release();
    }
    rows.add(1, "depth-stencil", depth_text + ", reference " + std::to_string(reference));
    Held<ID3D11RenderTargetView> targets(D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT);
    ID3D11DepthStencilView* dsv = nullptr;
    Held<ID3D11UnorderedAccessView> uavs(D3D11_1_UAV_SLOT_COUNT);
    context->OMGetRenderTargetsAndUnorderedAccessViews(UINT(targets.objects.size()), targets.data(),
                                                       &dsv, 0, UINT(uavs.objects.size()),
                                                       uavs.data());
    for (std::size_t slot = 0; slot < targets.objects.size(); ++slot) {
        if (!targets.objects[slot]) continue;
        D3D11_RENDER_TARGET_VIEW_DESC desc{};
        targets.objects[slot]->GetDesc(&desc);
        rows.add(1, "rt" + std::to_string(slot), view_of(rows, targets.objects[slot], desc.Format));
    }
    if (dsv) {
        D3D11_DEPTH_STENCIL_VIEW_DESC desc{};
        dsv->GetDesc(&desc);
        rows.add(1, "depth", view_of(rows, dsv, desc.Format));
        dsv->Release();
    }
    uav_rows(rows, uavs.data(), uavs.objects.size(), pixel);
}

}  // namespace

std::vector<StateRow> pipeline_rows(ID3D11DeviceContext* context, const ObjectLabel& label) {
    std::vector<StateRow> out;
    ID3D11DeviceContext1* context1 = nullptr;
    if (!context || FAILED(context->QueryInterface(__uuidof(ID3D11DeviceContext1),
                                                   reinterpret_cast<void**>(&context1))))
        return out;
    Rows rows(out, label);
    input_rows(rows, context1);
    const StageCalls graphics[] = {
        D3DCAP_STAGE(VS, ID3D11VertexShader), D3DCAP_STAGE(HS, ID3D11HullShader),
        D3DCAP_STAGE(DS, ID3D11DomainShader), D3DCAP_STAGE(GS, ID3D11GeometryShader)};
    for (const StageCalls& stage : graphics) static_cast<void>(stage_rows(rows, context1, stage));
    rasterizer_rows(rows, context1);
    const Reflection pixel = stage_rows(rows, context1, D3DCAP_STAGE(PS, ID3D11PixelShader));
    output_rows(rows, context1, pixel);
    const Reflection compute = stage_rows(rows, context1, D3DCAP_STAGE(CS, ID3D11ComputeShader));
    Held<ID3D11UnorderedAccessView> uavs(D3D11_1_UAV_SLOT_COUNT);
    context1->CSGetUnorderedAccessViews(0, UINT(uavs.objects.size()), uavs.data());
    uav_rows(rows, uavs.data(), uavs.objects.size(), compute);
    context1->Release();
    return out;
}

}  // namespace d3dcap::replay
