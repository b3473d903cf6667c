// The fixture of the context coverage checks (checks/context_calls.inc, one
// call of every device-context method, with the fields its record must hold):
// the Linux coverage test's, and the Windows coverage program's under Wine.
// It knows the ids of its objects and writes the text of what calls receive;
// it uses none of the generated encoders.
#pragma once

#include <d3d11_1.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "capture/support/field_text.h"

namespace d3dcap::testing {

// The layer numbers objects from 1 in the order it first sees them; the
// fixture creates its objects in a known order, so it knows their ids.
class KnownIds final {
  public:
    void add(const void* object) { ids_[object] = ++last_; }
    std::uint64_t id_of(const void* object) const {
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
    std::vector<IUnknown*> owned;
    ID3D11Buffer* buffer = nullptr;
    ID3D11Texture2D* texture = nullptr;
    // The second resource of calls that take two (copies, barriers).
    ID3D11Texture2D* second_texture = nullptr;
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
        // The states first: calls take the resources and the query beside
        // small samples (counts, slots, enumerators below 8), and their ids,
        // larger, tell them apart.
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
        const D3D11_QUERY_DESC predicate_desc{D3D11_QUERY_OCCLUSION_PREDICATE, 0};
        make(device->CreatePredicate(&predicate_desc, &predicate), predicate);
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
        make(device->CreateTexture2D(&texture_desc, nullptr, &second_texture), second_texture);
        make(device->CreateShaderResourceView(texture, nullptr, &srv), srv);
        make(device->CreateRenderTargetView(texture, nullptr, &rtv), rtv);
        make(device->CreateUnorderedAccessView(texture, nullptr, &uav), uav);
        const D3D11_QUERY_DESC query_desc{D3D11_QUERY_EVENT, 0};
        make(device->CreateQuery(&query_desc, &query), query);
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

    // The fixture's object of an interface, or NULL where it has none: the
    // first (use 0) or, for a call's second parameter of that interface, the
    // second (use 1), so that the two differ.
    template <class T>
    T* object(int use) {
        if constexpr (std::is_same_v<T, ID3D11Resource> || std::is_same_v<T, ID3D11DeviceChild>)
            return use == 0 ? texture : second_texture;
        if (use != 0) return nullptr;
        if constexpr (std::is_same_v<T, ID3D11Buffer>) return buffer;
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

    // The text of an object's id (0 for NULL and objects the fixture does
    // not know).
    std::string id_text(const void* object) const { return number_text(ids.id_of(object)); }

    template <class T>
    std::string ids_text(T* const* objects, std::size_t count) const {
        return list_text(objects, count, [this](T* object) { return id_text(object); });
    }
};

// One entry of checks/context_calls.inc: the call's parameter table, and
// what makes the call and returns the fields its record must hold.
template <class Fixture>
struct BasicContextCall {
    const char* table;
    ExpectedFields (*call)(Fixture& f);
};

}  // namespace d3dcap::testing

// For `const std::vector<ContextCall> calls = {#include "context_calls.inc"};`
// where ContextCall is the BasicContextCall of the file's ContextFixture.
#define D3DCAP_CONTEXT_CALL(Name, ...) ContextCall{#Name, __VA_ARGS__},
