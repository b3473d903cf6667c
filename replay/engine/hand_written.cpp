// The calls the API table marks [hand_written=replay(WHY)]
// (api::kHandWrittenReplays): the entry points, which create the device on
// the driver type replay chose; Map and Unmap, which carry the bytes written
// into mapped memory; GetData, which polls; EnqueueSetEvent, whose handle
// belongs to the capturing process; EnumAdapterByLuid, whose LUID belongs to
// the capturing boot; GetDisplayModeList(1), whose modes belong to the
// capturing machine's monitor; and AddRef/Release, which replay leaves to
// ObjectDestroyed records.
#include <d3d11_2.h>
#include <dxgi1_6.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "replay/engine/session.h"
#include "runtime/inspection.h"

namespace d3dcap::replay {

namespace {

using api::Invoked;

Invoked done(std::int64_t result) {
    return Invoked{true, result};
}

template <typename Params>
const Params* params_of(Session& s, const fb::Record& record) {
    const Params* params = api::CallOf<Params>::get(record);
    if (params == nullptr)
        s.ctx.fail("parameters", "the record holds no parameter table for its call");
    return params;
}

template <typename I>
I* self_of(Session& s, const fb::Record& record, const char* name) {
    I* self = nullptr;
    const std::uint64_t id = record.header()->object();
    if (id == 0) {
        s.ctx.fail("this",
                   std::string("the record names no object to call this ") + name + " method on");
        return nullptr;
    }
    if (!api::object_in(s.ctx, id, "this", name, &self)) return nullptr;
    return self;
}

// The feature levels of an entry point: absent is NULL (the runtime's defaults).
bool feature_levels(Session& s, const flatbuffers::Vector<std::uint32_t>* recorded, UINT count,
                    std::vector<D3D_FEATURE_LEVEL>* levels) {
    if (recorded == nullptr) return true;
    const api::Where where("pFeatureLevels");
    if (recorded->size() < count) {
        return s.ctx.fail(where, "the record holds " + std::to_string(recorded->size()) +
                                     " elements, the call reads " + std::to_string(count));
    }
    levels->resize(count);
    for (UINT i = 0; i < count; ++i) {
        if (!api::value_in(s.ctx, recorded->Get(i), api::Where(nullptr, &where, i), &(*levels)[i]))
            return false;
    }
    return true;
}

// A device of another feature level than recorded replays differently.
void compare_level(Session& s, HRESULT hr, std::uint32_t recorded, D3D_FEATURE_LEVEL replayed) {
    if (SUCCEEDED(hr) && recorded != 0 && recorded != static_cast<std::uint32_t>(replayed)) {
        char text[64];
        std::snprintf(text, sizeof text, "pFeatureLevel: recorded 0x%x, replayed 0x%x", recorded,
                      static_cast<unsigned>(replayed));
        s.mismatch(0, 0, text);
    }
}

// A replay calls each device from the one thread that replays: no lock
// per call, whatever threads the program used.
void replayed_from_one_thread(ID3D11Device* device) {
    if (device != nullptr) runtime::set_calls_from_one_thread(device);
}

// The adapter and software module of the recording are replaced by the
// driver type of the options; the recorded flags and levels are kept.
Invoked create_device(Session& s, const fb::Record& record) {
    const auto* p = params_of<fb::D3D11CreateDevice>(s, record);
    if (p == nullptr) return {};
    std::vector<D3D_FEATURE_LEVEL> levels;
    if (!feature_levels(s, p->p_feature_levels(), p->feature_levels(), &levels)) return {};
    ID3D11Device* device = nullptr;
    ID3D11DeviceContext* context = nullptr;
    D3D_FEATURE_LEVEL level{};
    const HRESULT hr = D3D11CreateDevice(nullptr, s.options.driver, nullptr, p->flags(),
                                         p->p_feature_levels() != nullptr ? levels.data() : nullptr,
                                         p->feature_levels(), p->sdk_version(),
                                         p->pp_device() != 0 ? &device : nullptr, &level,
                                         p->pp_immediate_context() != 0 ? &context : nullptr);
    replayed_from_one_thread(device);  // before the table may release it (an id it knows)
    s.objects.add(p->pp_device(), device, "ID3D11Device");
    s.objects.add(p->pp_immediate_context(), context, "ID3D11DeviceContext");
    compare_level(s, hr, p->p_feature_level(), level);
    return done(hr);
}

Invoked create_device_and_swap_chain(Session& s, const fb::Record& record) {
    const auto* p = params_of<fb::D3D11CreateDeviceAndSwapChain>(s, record);
    if (p == nullptr) return {};
    std::vector<D3D_FEATURE_LEVEL> levels;
    if (!feature_levels(s, p->p_feature_levels(), p->feature_levels(), &levels)) return {};
    DXGI_SWAP_CHAIN_DESC desc{};
    if (p->p_swap_chain_desc() != nullptr &&
        !api::from_fb(*p->p_swap_chain_desc(), desc, s.ctx, "pSwapChainDesc"))
        return {};
    IDXGISwapChain* swap_chain = nullptr;
    ID3D11Device* device = nullptr;
    ID3D11DeviceContext* context = nullptr;
    D3D_FEATURE_LEVEL level{};
    const HRESULT hr = D3D11CreateDeviceAndSwapChain(
        nullptr, s.options.driver, nullptr, p->flags(),
        p->p_feature_levels() != nullptr ? levels.data() : nullptr, p->feature_levels(),
        p->sdk_version(), p->p_swap_chain_desc() != nullptr ? &desc : nullptr,
        p->pp_swap_chain() != 0 ? &swap_chain : nullptr, p->pp_device() != 0 ? &device : nullptr,
        &level, p->pp_immediate_context() != 0 ? &context : nullptr);
    replayed_from_one_thread(device);  // before the table may release it (an id it knows)
    s.objects.add(p->pp_swap_chain(), swap_chain, "IDXGISwapChain");
    s.objects.add(p->pp_device(), device, "ID3D11Device");
    s.objects.add(p->pp_immediate_context(), context, "ID3D11DeviceContext");
    compare_level(s, hr, p->p_feature_level(), level);
    return done(hr);
}

// A context call on one resource (pResource): its parameters, context and
// replayed resource, or false with the decode error set.
template <class Params>
struct ResourceCall {
    const Params* params = nullptr;
    ID3D11DeviceContext* self = nullptr;
    ID3D11Resource* resource = nullptr;
};

template <class Params>
bool resource_call(Session& s, const fb::Record& record, ResourceCall<Params>& call) {
    call.params = params_of<Params>(s, record);
    if (call.params == nullptr) return false;
    call.self = self_of<ID3D11DeviceContext>(s, record, "ID3D11DeviceContext");
    return call.self != nullptr && api::object_in(s.ctx, call.params->p_resource(), "pResource",
                                                  "ID3D11Resource", &call.resource);
}

// Map as recorded; the mapping is remembered (also when only the recorded
// Map succeeded) so that Unmap can lay out its recorded writes.
Invoked map(Session& s, const fb::Record& record) {
    ResourceCall<fb::ID3D11DeviceContext_Map> call;
    if (!resource_call(s, record, call)) return {};
    const auto* p = call.params;
    ID3D11DeviceContext* self = call.self;
    ID3D11Resource* resource = call.resource;
    const auto* recorded = p->p_mapped_resource();
    D3D11_MAPPED_SUBRESOURCE mapped{};
    const UINT subresource = p->subresource();
    D3D11_MAP type{};
    if (!api::value_in(s.ctx, p->map_type(), "MapType", &type)) return {};
    const HRESULT hr = self->Map(resource, subresource, type, p->map_flags(),
                                 recorded != nullptr ? &mapped : nullptr);
    const bool recorded_ok = SUCCEEDED(static_cast<HRESULT>(record.header()->result()));
    SubresourceShape shape;
    if (recorded != nullptr && (SUCCEEDED(hr) || recorded_ok) &&
        shape_of(resource, subresource, &shape)) {
        Mapping m;
        m.type = type;
        m.extent = extent_of(shape, shape.width, shape.height, shape.depth);
        m.recorded_row_pitch = recorded->row_pitch();
        m.recorded_depth_pitch = recorded->depth_pitch();
        m.replayed = SUCCEEDED(hr);
        if (m.replayed) m.replay = mapped;
        if (const std::string why = s.mapped.begin(p->p_resource(), subresource, m); !why.empty()) {
            if (SUCCEEDED(hr)) self->Unmap(resource, subresource);
            s.ctx.fail("pMappedResource", why);
            return {};
        }
    }
    return done(hr);
}

Invoked unmap(Session& s, const fb::Record& record) {
    ResourceCall<fb::ID3D11DeviceContext_Unmap> call;
    if (!resource_call(s, record, call)) return {};
    const auto* p = call.params;
    ID3D11DeviceContext* self = call.self;
    ID3D11Resource* resource = call.resource;
    const UINT subresource = p->subresource();
    const Mapping* open = s.mapped.find(p->p_resource(), subresource);
    // A Map that failed in replay has nothing to unmap.
    const bool unmap = open == nullptr || open->replayed;
    const std::string why = s.mapped.end(p->p_resource(), subresource, record.map_writes());
    if (unmap) self->Unmap(resource, subresource);
    if (!why.empty()) {
        s.ctx.fail("map_writes", why);
        return {};
    }
    return done(0);
}

// CPU devices finish every query at once; a recording may have polled
// before its device was done, which is no difference.
Invoked get_data(Session& s, const fb::Record& record) {
    const auto* p = params_of<fb::ID3D11DeviceContext_GetData>(s, record);
    if (p == nullptr) return {};
    auto* self = self_of<ID3D11DeviceContext>(s, record, "ID3D11DeviceContext");
    if (self == nullptr) return {};
    ID3D11Asynchronous* async = nullptr;
    if (!api::object_in(s.ctx, p->p_async(), "pAsync", "ID3D11Asynchronous", &async)) return {};
    const UINT size = p->data_size();
    if (p->p_data() != nullptr && size > api::kMaxOutBytes) {
        s.ctx.fail("pData", "the call would write " + std::to_string(size) +
                                " bytes, more than replay allows");
        return {};
    }
    void* data = p->p_data() != nullptr ? s.arena.allocate(size) : nullptr;
    const HRESULT recorded = static_cast<HRESULT>(record.header()->result());
    HRESULT hr = self->GetData(async, data, size, p->get_data_flags());
    constexpr int kPolls = 1000;
    for (int i = 0; i < kPolls && hr == S_FALSE && recorded == S_OK; ++i) {
        self->Flush();
        hr = self->GetData(async, data, size, p->get_data_flags());
    }
    return done(recorded == S_FALSE && hr == S_OK ? S_FALSE : hr);
}

// The recorded event handle belongs to the capturing process: signal an
// eventfd of replay's own.
Invoked enqueue_set_event(Session& s, const fb::Record& record) {
    if (params_of<fb::IDXGIDevice2_EnqueueSetEvent>(s, record) == nullptr) return {};
    auto* self = self_of<IDXGIDevice2>(s, record, "IDXGIDevice2");
    if (self == nullptr) return {};
    const int fd = eventfd(0, EFD_CLOEXEC);
    const HRESULT hr = self->EnqueueSetEvent(
        fd >= 0 ? reinterpret_cast<HANDLE>(static_cast<std::intptr_t>(fd)) : nullptr);
    if (fd >= 0) close(fd);
    return done(hr);
}

// A LUID names an adapter until the next boot: replay asks for the adapter
// the factory enumerates first, the one replay runs on.
Invoked enum_adapter_by_luid(Session& s, const fb::Record& record) {
    const auto* p = params_of<fb::IDXGIFactory4_EnumAdapterByLuid>(s, record);
    if (p == nullptr) return {};
    auto* self = self_of<IDXGIFactory4>(s, record, "IDXGIFactory4");
    if (self == nullptr) return {};
    GUID riid{};
    if (p->riid() == nullptr || !api::from_fb(*p->riid(), riid, s.ctx, "riid")) {
        if (p->riid() == nullptr) s.ctx.fail("riid", "the record holds no interface id");
        return {};
    }
    if (FAILED(static_cast<HRESULT>(record.header()->result())))
        return done(self->EnumAdapterByLuid(LUID{0xffffffffu, -1}, riid, nullptr));
    IDXGIAdapter1* first = nullptr;
    HRESULT hr = self->EnumAdapters1(0, &first);
    void* adapter = nullptr;
    if (SUCCEEDED(hr)) {
        hr = first->QueryInterface(riid, &adapter);
        first->Release();
    }
    if (SUCCEEDED(hr)) s.objects.add(p->ppv_adapter(), static_cast<IUnknown*>(adapter), "");
    return done(hr);
}

DXGI_MODE_DESC plain_mode(const DXGI_MODE_DESC& mode) {
    return mode;
}
DXGI_MODE_DESC plain_mode(const DXGI_MODE_DESC1& mode) {
    return DXGI_MODE_DESC{mode.Width,  mode.Height,           mode.RefreshRate,
                          mode.Format, mode.ScanlineOrdering, mode.Scaling};
}

// Display modes belong to the capturing machine's monitor: the headless
// output lists, for the format, the modes the trace recorded, so that the
// program's list and the choices it made from it stay what they were.
template <typename Output, typename Params, typename Desc>
Invoked display_mode_list(Session& s, const fb::Record& record, const char* name) {
    const auto* p = params_of<Params>(s, record);
    if (p == nullptr) return {};
    auto* self = self_of<Output>(s, record, name);
    if (self == nullptr) return {};
    const auto format = static_cast<DXGI_FORMAT>(p->enum_format());
    UINT count = p->p_num_modes();
    if (p->p_desc() == nullptr) {
        if constexpr (std::is_same_v<Desc, DXGI_MODE_DESC>)
            return done(self->GetDisplayModeList(format, p->flags(), &count, nullptr));
        else
            return done(self->GetDisplayModeList1(format, p->flags(), &count, nullptr));
    }
    std::vector<Desc> modes(p->p_desc()->size());
    std::vector<DXGI_MODE_DESC> listed;
    for (flatbuffers::uoffset_t i = 0; i < p->p_desc()->size(); ++i) {
        if (!api::from_fb(*p->p_desc()->Get(i), modes[i], s.ctx, "pDesc")) return {};
        listed.push_back(plain_mode(modes[i]));
    }
    if (SUCCEEDED(static_cast<HRESULT>(record.header()->result())))
        runtime::set_output_modes(self, format, listed);
    count = std::min<UINT>(count, static_cast<UINT>(modes.size()));
    if constexpr (std::is_same_v<Desc, DXGI_MODE_DESC>)
        return done(self->GetDisplayModeList(format, p->flags(), &count, modes.data()));
    else
        return done(self->GetDisplayModeList1(format, p->flags(), &count, modes.data()));
}

}  // namespace

api::Invoked replay_by_hand(Session& session, api::CallId id, const fb::Record& record) {
    switch (id) {
        case api::CallId::D3D11CreateDevice:
            return create_device(session, record);
        case api::CallId::D3D11CreateDeviceAndSwapChain:
            return create_device_and_swap_chain(session, record);
        case api::CallId::ID3D11DeviceContext_Map:
            return map(session, record);
        case api::CallId::ID3D11DeviceContext_Unmap:
            return unmap(session, record);
        case api::CallId::ID3D11DeviceContext_GetData:
            return get_data(session, record);
        case api::CallId::IDXGIDevice2_EnqueueSetEvent:
            return enqueue_set_event(session, record);
        case api::CallId::IDXGIFactory4_EnumAdapterByLuid:
            return enum_adapter_by_luid(session, record);
        case api::CallId::IDXGIOutput_GetDisplayModeList:
            return display_mode_list<IDXGIOutput, fb::IDXGIOutput_GetDisplayModeList,
                                     DXGI_MODE_DESC>(session, record, "IDXGIOutput");
        case api::CallId::IDXGIOutput1_GetDisplayModeList1:
            return display_mode_list<IDXGIOutput1, fb::IDXGIOutput1_GetDisplayModeList1,
                                     DXGI_MODE_DESC1>(session, record, "IDXGIOutput1");
        case api::CallId::IUnknown_AddRef:
        case api::CallId::IUnknown_Release:
            return done(0);
        default:
            session.ctx.fail("call", "is listed as replayed by hand but replay has no code for it");
            return {};
    }
}

}  // namespace d3dcap::replay
