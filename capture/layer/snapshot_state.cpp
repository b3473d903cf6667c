#include "capture/layer/snapshot_state.h"

#include <d3dcap/api/call_encoders.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "capture/layer/facet.h"
#include "capture/layer/layer.h"
#include "format/trace/records.h"

namespace d3dcap::capture {

namespace {

constexpr UINT kMaxClassInstances = 256;
constexpr UINT kRects = D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE;
// Initial UAV count -1 keeps a view's hidden counter; stream-output offset -1
// appends at the buffer's filled size.
constexpr UINT kMinusOne = ~UINT{0};

template <std::size_t N>
const UINT* minus_ones() {
    static const std::array<UINT, N> ones = [] {
        std::array<UINT, N> values{};
        values.fill(kMinusOne);
        return values;
    }();
    return ones.data();
}

// The application's pointer (a wrapper facet) for a real object; NULL when
// the layer does not know the object.
template <class I>
I* wrapper_of(I* real) {
    if (real == nullptr) return nullptr;
    Layer& layer = Layer::get();
    Wrapper* wrapper = layer.find(real);
    if (wrapper == nullptr) {
        // Another interface of a known object is registered by its identity.
        IUnknown* identity = nullptr;
        if (SUCCEEDED(
                real->QueryInterface(__uuidof(IUnknown), reinterpret_cast<void**>(&identity))) &&
            identity != nullptr) {
            wrapper = layer.find(identity);
            identity->Release();
        }
    }
    return wrapper == nullptr ? nullptr : wrapper->as<I>();
}

// Slots [first, first + count) of a binding array; count 0: none.
struct Slots {
    UINT first = 0;
    UINT count = 0;
};

// The objects one Get* call hands out: the real ones, whose references are
// released with this, and the wrappers recorded in their place.
template <class I, std::size_t N>
class Fetched {
  public:
    Fetched() = default;
    Fetched(const Fetched&) = delete;
    Fetched& operator=(const Fetched&) = delete;
    ~Fetched() {
        for (I* object : real_)
            if (object != nullptr) object->Release();
    }

    // Where the Get* call writes.
    I** out() { return real_.data(); }
    I* real() const { return real_[0]; }

    // The wrappers, looked up once the Get* call has written.
    I* const* wrapped() {
        if (!translated_) {
            std::transform(real_.begin(), real_.end(), wrapped_.begin(),
                           [](I* object) { return wrapper_of(object); });
            translated_ = true;
        }
        return wrapped_.data();
    }
    I* one() { return wrapped()[0]; }

    // The smallest range of [begin, N) holding every known object.
    Slots bound(UINT begin = 0) {
        I* const* objects = wrapped();
        Slots slots;
        for (UINT i = begin; i < N; ++i) {
            if (objects[i] == nullptr) continue;
            if (slots.count == 0) slots.first = i;
            slots.count = i - slots.first + 1;
        }
        return slots;
    }

  private:
    std::array<I*, N> real_{};
    std::array<I*, N> wrapped_{};
    bool translated_ = false;
};

// Builds the records, all with the context as their object.
class Emitter {
  public:
    Emitter(std::uint64_t context, SnapshotRecords& out)
        : ids_(Layer::get().ids()), call_{context, context, 0, thread_number(), false}, out_(out) {}

    // One record of the call encode encodes.
    template <typename Encode, typename... Args>
    void operator()(Encode encode, const Args&... args) {
        builder_.Clear();
        trace::finish_call(builder_, call_, encode(builder_, ids_, args...));
        const std::uint8_t* data = builder_.GetBufferPointer();
        out_.push_back(
            std::make_shared<const std::vector<std::uint8_t>>(data, data + builder_.GetSize()));
    }

    // encode(StartSlot, Num, objects, per-slot arrays...) over the bound
    // slots of objects; nothing when none is bound.
    template <typename Encode, class I, std::size_t N, typename... PerSlot>
    void slots(Encode encode, Fetched<I, N>& objects, const PerSlot*... per_slot) {
        const Slots bound = objects.bound();
        if (bound.count != 0)
            (*this)(encode, bound.first, bound.count, objects.wrapped() + bound.first,
                    per_slot + bound.first...);
    }

  private:
    flatbuffers::FlatBufferBuilder builder_{1024};
    api::ObjectIds& ids_;
    const trace::CallContext call_;
    SnapshotRecords& out_;
};

void append_input_assembler(ID3D11DeviceContext* real, Emitter& emit) {
    Fetched<ID3D11InputLayout, 1> layout;
    real->IAGetInputLayout(layout.out());
    if (layout.one() != nullptr)
        emit(api::encode_ID3D11DeviceContext_IASetInputLayout, layout.one());

    constexpr UINT kSlots = D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT;
    Fetched<ID3D11Buffer, kSlots> vertex_buffers;
    std::array<UINT, kSlots> strides{};
    std::array<UINT, kSlots> offsets{};
    real->IAGetVertexBuffers(0, kSlots, vertex_buffers.out(), strides.data(), offsets.data());
    emit.slots(api::encode_ID3D11DeviceContext_IASetVertexBuffers, vertex_buffers, strides.data(),
               offsets.data());

    Fetched<ID3D11Buffer, 1> index_buffer;
    DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;
    UINT offset = 0;
    real->IAGetIndexBuffer(index_buffer.out(), &format, &offset);
    if (index_buffer.one() != nullptr)
        emit(api::encode_ID3D11DeviceContext_IASetIndexBuffer, index_buffer.one(), format, offset);

    D3D11_PRIMITIVE_TOPOLOGY topology = D3D11_PRIMITIVE_TOPOLOGY_UNDEFINED;
    real->IAGetPrimitiveTopology(&topology);
    emit(api::encode_ID3D11DeviceContext_IASetPrimitiveTopology, topology);
}

// One shader stage: its shader and class instances, constant buffers (with
// their windows when the context has ID3D11DeviceContext1), shader resources
// and samplers. The template arguments are the stage's Get* methods and the
// encoders of its Set* calls.
template <class Shader, auto get_shader, auto set_shader, auto get_buffers, auto set_buffers,
          auto get_buffers1, auto set_buffers1, auto get_views, auto set_views, auto get_samplers,
          auto set_samplers>
void append_stage(ID3D11DeviceContext* real, ID3D11DeviceContext1* real1, Emitter& emit) {
    Fetched<Shader, 1> shader;
    Fetched<ID3D11ClassInstance, kMaxClassInstances> instances;
    UINT instance_count = kMaxClassInstances;  // in: the array's size
    (real->*get_shader)(shader.out(), instances.out(), &instance_count);
    instance_count = std::min(instance_count, kMaxClassInstances);
    if (shader.one() != nullptr || instance_count != 0)
        emit(set_shader, shader.one(), instances.wrapped(), instance_count);

    constexpr UINT kBuffers = D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT;
    Fetched<ID3D11Buffer, kBuffers> buffers;
    if (real1 != nullptr) {
        std::array<UINT, kBuffers> first{};
        std::array<UINT, kBuffers> count{};
        (real1->*get_buffers1)(0, kBuffers, buffers.out(), first.data(), count.data());
        emit.slots(set_buffers1, buffers, first.data(), count.data());
    } else {
        (real->*get_buffers)(0, kBuffers, buffers.out());
        emit.slots(set_buffers, buffers);
    }

    Fetched<ID3D11ShaderResourceView, D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT> views;
    (real->*get_views)(0, D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT, views.out());
    emit.slots(set_views, views);

    Fetched<ID3D11SamplerState, D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT> samplers;
    (real->*get_samplers)(0, D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT, samplers.out());
    emit.slots(set_samplers, samplers);
}

// The stage's methods and encoders differ only by their prefix.
#define D3DCAP_STAGE(P, Shader)                                              \
    append_stage<Shader, &ID3D11DeviceContext::P##GetShader,                 \
                 &api::encode_ID3D11DeviceContext_##P##SetShader,            \
                 &ID3D11DeviceContext::P##GetConstantBuffers,                \
                 &api::encode_ID3D11DeviceContext_##P##SetConstantBuffers,   \
                 &ID3D11DeviceContext1::P##GetConstantBuffers1,              \
                 &api::encode_ID3D11DeviceContext1_##P##SetConstantBuffers1, \
                 &ID3D11DeviceContext::P##GetShaderResources,                \
                 &api::encode_ID3D11DeviceContext_##P##SetShaderResources,   \
                 &ID3D11DeviceContext::P##GetSamplers,                       \
                 &api::encode_ID3D11DeviceContext_##P##SetSamplers>

void append_stages(ID3D11DeviceContext* real, Emitter& emit) {
    Fetched<ID3D11DeviceContext1, 1> context1;  // NULL: a D3D11.0 context
    if (FAILED(real->QueryInterface(__uuidof(ID3D11DeviceContext1),
                                    reinterpret_cast<void**>(context1.out()))))
        context1.out()[0] = nullptr;
    ID3D11DeviceContext1* real1 = context1.real();
    D3DCAP_STAGE(VS, ID3D11VertexShader)(real, real1, emit);
    D3DCAP_STAGE(HS, ID3D11HullShader)(real, real1, emit);
    D3DCAP_STAGE(DS, ID3D11DomainShader)(real, real1, emit);
    D3DCAP_STAGE(GS, ID3D11GeometryShader)(real, real1, emit);
    D3DCAP_STAGE(PS, ID3D11PixelShader)(real, real1, emit);
    D3DCAP_STAGE(CS, ID3D11ComputeShader)(real, real1, emit);
}

#undef D3DCAP_STAGE

// Below feature level 11_1 a device has 8 UAV slots, and asking for more
// returns nothing.
UINT uav_slot_count(ID3D11DeviceContext* real) {
    ID3D11Device* device = nullptr;
    real->GetDevice(&device);
    if (device == nullptr) return D3D11_PS_CS_UAV_REGISTER_COUNT;
    const bool level_11_1 = device->GetFeatureLevel() >= D3D_FEATURE_LEVEL_11_1;
    device->Release();
    return level_11_1 ? D3D11_1_UAV_SLOT_COUNT : D3D11_PS_CS_UAV_REGISTER_COUNT;
}

void append_output_merger(ID3D11DeviceContext* real, UINT uav_slots, Emitter& emit) {
    Fetched<ID3D11RenderTargetView, D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT> targets;
    Fetched<ID3D11DepthStencilView, 1> depth;
    Fetched<ID3D11UnorderedAccessView, D3D11_1_UAV_SLOT_COUNT> uavs;
    real->OMGetRenderTargetsAndUnorderedAccessViews(D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT,
                                                    targets.out(), depth.out(), 0, uav_slots,
                                                    uavs.out());
    // Render targets always start at slot 0; the UAVs share the slots after them.
    const Slots bound_targets = targets.bound();
    const UINT target_count = bound_targets.first + bound_targets.count;
    const Slots bound_uavs = uavs.bound(target_count);
    // Without UAVs OMSetRenderTargets: UAVStartSlot then has no value that
    // every runtime accepts.
    if (bound_uavs.count != 0)
        emit(api::encode_ID3D11DeviceContext_OMSetRenderTargetsAndUnorderedAccessViews,
             target_count, targets.wrapped(), depth.one(), bound_uavs.first, bound_uavs.count,
             uavs.wrapped() + bound_uavs.first, minus_ones<D3D11_1_UAV_SLOT_COUNT>());
    else if (target_count != 0 || depth.one() != nullptr)
        emit(api::encode_ID3D11DeviceContext_OMSetRenderTargets, target_count, targets.wrapped(),
             depth.one());

    Fetched<ID3D11BlendState, 1> blend;
    std::array<FLOAT, 4> factor{1.0f, 1.0f, 1.0f, 1.0f};
    UINT sample_mask = ~UINT{0};
    real->OMGetBlendState(blend.out(), factor.data(), &sample_mask);
    emit(api::encode_ID3D11DeviceContext_OMSetBlendState, blend.one(),
         static_cast<const FLOAT*>(factor.data()), sample_mask);

    Fetched<ID3D11DepthStencilState, 1> depth_stencil;
    UINT stencil_ref = 0;
    real->OMGetDepthStencilState(depth_stencil.out(), &stencil_ref);
    emit(api::encode_ID3D11DeviceContext_OMSetDepthStencilState, depth_stencil.one(), stencil_ref);
}

// Viewports or scissor rectangles: their count first, then the array.
template <typename Rect, typename Get, typename Encode>
void append_rects(ID3D11DeviceContext* real, Get get, Encode encode, Emitter& emit) {
    UINT count = 0;
    (real->*get)(&count, nullptr);
    count = std::min(count, kRects);
    if (count == 0) return;
    std::array<Rect, kRects> rects{};
    (real->*get)(&count, rects.data());
    count = std::min(count, kRects);
    emit(encode, count, static_cast<const Rect*>(rects.data()));
}

void append_rasterizer(ID3D11DeviceContext* real, Emitter& emit) {
    Fetched<ID3D11RasterizerState, 1> state;
    real->RSGetState(state.out());
    emit(api::encode_ID3D11DeviceContext_RSSetState, state.one());
    append_rects<D3D11_VIEWPORT>(real, &ID3D11DeviceContext::RSGetViewports,
                                 api::encode_ID3D11DeviceContext_RSSetViewports, emit);
    append_rects<D3D11_RECT>(real, &ID3D11DeviceContext::RSGetScissorRects,
                             api::encode_ID3D11DeviceContext_RSSetScissorRects, emit);
}

void append_stream_output(ID3D11DeviceContext* real, Emitter& emit) {
    Fetched<ID3D11Buffer, D3D11_SO_BUFFER_SLOT_COUNT> targets;
    real->SOGetTargets(D3D11_SO_BUFFER_SLOT_COUNT, targets.out());
    const Slots bound = targets.bound();
    // D3D11 cannot read the write offsets back: -1 appends where the
    // buffer's filled size says, which is right only if that size survives.
    if (bound.count != 0)
        emit(api::encode_ID3D11DeviceContext_SOSetTargets, bound.first + bound.count,
             targets.wrapped(), minus_ones<D3D11_SO_BUFFER_SLOT_COUNT>());
}

}  // namespace

void append_pipeline_state(ID3D11DeviceContext* context, SnapshotRecords& out) {
    const FacetHeader* header = header_of(context);
    if (header == nullptr) return;
    // The context chain's facet, whatever facet the caller holds.
    const FacetHeader* chain = header_of(header->owner->as<ID3D11DeviceContext>());
    if (chain == nullptr || chain->real == nullptr) return;
    auto* real = static_cast<ID3D11DeviceContext*>(chain->real);
    Emitter emit(header->owner->id, out);

    append_input_assembler(real, emit);
    append_stages(real, emit);
    const UINT uav_slots = uav_slot_count(real);
    Fetched<ID3D11UnorderedAccessView, D3D11_1_UAV_SLOT_COUNT> compute_uavs;
    real->CSGetUnorderedAccessViews(0, uav_slots, compute_uavs.out());
    emit.slots(api::encode_ID3D11DeviceContext_CSSetUnorderedAccessViews, compute_uavs,
               minus_ones<D3D11_1_UAV_SLOT_COUNT>());
    append_output_merger(real, uav_slots, emit);
    append_rasterizer(real, emit);
    append_stream_output(real, emit);

    Fetched<ID3D11Predicate, 1> predicate;
    BOOL value = FALSE;
    real->GetPredication(predicate.out(), &value);
    if (predicate.one() != nullptr)
        emit(api::encode_ID3D11DeviceContext_SetPredication, predicate.one(), value);
}

}  // namespace d3dcap::capture
