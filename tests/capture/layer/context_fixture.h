// The fixture of the context coverage checks (checks/context_calls.inc, one
// call of every device-context method with the arguments its generated
// encoder gives): the Linux coverage test's, and the Windows coverage
// program's under Wine.
#pragma once

#include <d3dcap/api/call_encoders.h>
#include <d3dcap/api/call_json.h>

#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "format/trace/records.h"

namespace d3dcap::testing {

// The layer numbers objects from 1 in the order it first sees them; the
// fixture creates its objects in a known order, so it knows their ids.
class KnownIds final : public api::ObjectIds {
  public:
    void add(const void* object) { ids_[object] = ++last_; }
    std::uint64_t id_of(const void* object) override {
        const auto it = ids_.find(object);
        return it == ids_.end() ? 0 : it->second;
    }

  private:
    std::unordered_map<const void*, std::uint64_t> ids_;
    std::uint64_t last_ = 0;
};

template <class Device, class Context>
struct BasicContextFixture {
    Device* device = nullptr;
    Context* context = nullptr;
    KnownIds ids;
    flatbuffers::FlatBufferBuilder fb_builder;
    std::vector<IUnknown*> owned;
    ID3D11Buffer* buffer = nullptr;
    ID3D11Texture2D* texture = nullptr;
    ID3D11ShaderResourceView* srv = nullptr;
    ID3D11RenderTargetView* rtv = nullptr;
    ID3D11UnorderedAccessView* uav = nullptr;
    ID3D11BlendState* blend = nullptr;
    ID3D11DepthStencilState* depth = nullptr;
    ID3D11RasterizerState* rasterizer = nullptr;
    ID3D11SamplerState* sampler = nullptr;
    ID3D11Query* query = nullptr;
    ID3D11Predicate* predicate = nullptr;
    // Not the fixture's: NULL unless the program sets it (ExecuteCommandList
    // gets it).
    ID3D11CommandList* command_list = nullptr;

    // Takes the references it is given.
    BasicContextFixture(Device* made_device, Context* made_context)
        : device(made_device), context(made_context) {
        ids.add(device);
        ids.add(context);
        D3D11_BUFFER_DESC buffer_desc{256, D3D11_USAGE_DEFAULT, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
        make(device->CreateBuffer(&buffer_desc, nullptr, &buffer), buffer);
        D3D11_TEXTURE2D_DESC texture_desc{};
        texture_desc.Width = texture_desc.Height = 64;
        texture_desc.MipLevels = texture_desc.ArraySize = 1;
        texture_desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        texture_desc.SampleDesc.Count = 1;
        texture_desc.BindFlags =
            D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET | D3D11_BIND_UNORDERED_ACCESS;
        make(device->CreateTexture2D(&texture_desc, nullptr, &texture), texture);
        make(device->CreateShaderResourceView(texture, nullptr, &srv), srv);
        make(device->CreateRenderTargetView(texture, nullptr, &rtv), rtv);
        make(device->CreateUnorderedAccessView(texture, nullptr, &uav), uav);
        const D3D11_BLEND_DESC blend_desc{};
        make(device->CreateBlendState(&blend_desc, &blend), blend);
        const D3D11_DEPTH_STENCIL_DESC depth_desc{};
        make(device->CreateDepthStencilState(&depth_desc, &depth), depth);
        D3D11_RASTERIZER_DESC rasterizer_desc{};
        rasterizer_desc.FillMode = D3D11_FILL_SOLID;
        rasterizer_desc.CullMode = D3D11_CULL_BACK;
        make(device->CreateRasterizerState(&rasterizer_desc, &rasterizer), rasterizer);
        D3D11_SAMPLER_DESC sampler_desc{};
        sampler_desc.AddressU = sampler_desc.AddressV = sampler_desc.AddressW =
            D3D11_TEXTURE_ADDRESS_CLAMP;
        make(device->CreateSamplerState(&sampler_desc, &sampler), sampler);
        const D3D11_QUERY_DESC query_desc{D3D11_QUERY_EVENT, 0};
        make(device->CreateQuery(&query_desc, &query), query);
        const D3D11_QUERY_DESC predicate_desc{D3D11_QUERY_OCCLUSION_PREDICATE, 0};
        make(device->CreatePredicate(&predicate_desc, &predicate), predicate);
    }

    ~BasicContextFixture() {
        context->ClearState();
        for (IUnknown* object : owned) object->Release();
        context->Release();
        device->Release();
    }

    // By reference: the argument is read after the call that sets it.
    template <class T>
    void make(HRESULT hr, T*& object) {
        if (hr != S_OK) throw std::runtime_error("the coverage fixture could not make an object");
        ids.add(object);
        owned.push_back(object);
    }

    // The fixture's object of an interface, or NULL where it has none.
    template <class T>
    T* object() {
        if constexpr (std::is_same_v<T, ID3D11Buffer>) return buffer;
        if constexpr (std::is_same_v<T, ID3D11Resource> || std::is_same_v<T, ID3D11DeviceChild>)
            return texture;
        if constexpr (std::is_same_v<T, ID3D11ShaderResourceView>) return srv;
        if constexpr (std::is_same_v<T, ID3D11RenderTargetView> || std::is_same_v<T, ID3D11View>)
            return rtv;
        if constexpr (std::is_same_v<T, ID3D11UnorderedAccessView>) return uav;
        if constexpr (std::is_same_v<T, ID3D11BlendState>) return blend;
        if constexpr (std::is_same_v<T, ID3D11DepthStencilState>) return depth;
        if constexpr (std::is_same_v<T, ID3D11RasterizerState>) return rasterizer;
        if constexpr (std::is_same_v<T, ID3D11SamplerState>) return sampler;
        if constexpr (std::is_same_v<T, ID3D11Query> || std::is_same_v<T, ID3D11Asynchronous>)
            return query;
        if constexpr (std::is_same_v<T, ID3D11Predicate>) return predicate;
        if constexpr (std::is_same_v<T, ID3D11CommandList>) return command_list;
        return nullptr;
    }

    template <class T>
    void release(T* object) {
        if (object != nullptr) object->Release();
    }

    flatbuffers::FlatBufferBuilder& builder() {
        fb_builder.Clear();
        return fb_builder;
    }

    // The JSON arguments a record of these parameters has.
    template <typename Params>
    std::string expected(flatbuffers::Offset<Params> params) {
        trace::finish_call(fb_builder, trace::CallContext{}, params);
        std::string json;
        api::append_args_json(
            *flatbuffers::GetSizePrefixedRoot<fb::Record>(fb_builder.GetBufferPointer()), json);
        return json;
    }
};

// One entry of checks/context_calls.inc: the call, and what makes it and
// returns the JSON of the arguments the layer must record for it.
template <class Fixture>
struct BasicContextCall {
    api::CallId id;
    std::string (*call)(Fixture& f);
};

}  // namespace d3dcap::testing

// For `const std::vector<ContextCall> calls = {#include "context_calls.inc"};`
// where ContextCall is the BasicContextCall of the file's ContextFixture.
#define D3DCAP_CONTEXT_CALL(Name, ...) ContextCall{api::CallId::Name, __VA_ARGS__},
