// Test support for the replay engine: a small capture layer. The tests make
// calls directly on a reference device and record each one with the
// generated encoders (or, for calls whose recording is written by hand, by
// building its table), so that replay can be compared with the direct run.
#pragma once

#include <d3d11_2.h>
#include <d3dcap/api/call_encoders.h>
#include <dxgi1_2.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "replay/engine/replayer.h"
#include "runtime/inspection.h"
#include "support/com.h"
#include "support/record_writer.h"
#include "support/temp_dir.h"
#include "support/trace_fixture.h"

namespace engine_tests {

using namespace d3dcap;

using d3dcap::testing::Com;

// The COM identity of an object.
inline IUnknown* identity(const void* object) {
    auto* unknown = static_cast<IUnknown*>(const_cast<void*>(object));
    IUnknown* out = nullptr;
    REQUIRE(unknown->QueryInterface(__uuidof(IUnknown), reinterpret_cast<void**>(&out)) == S_OK);
    out->Release();
    return out;
}

using testing::MapWrites;

// Writes a trace of calls made on real objects, naming them by ids.
class Recorder final : public testing::RecordWriter, public api::ObjectIds {
  public:
    explicit Recorder(std::string path) : RecordWriter(std::move(path)) {}

    // Gives an object the next id (or the one asked for); NULL is 0.
    std::uint64_t track(const void* object, std::uint64_t id = 0) {
        if (object == nullptr) return 0;
        IUnknown* key = identity(object);
        if (auto it = ids_.find(key); it != ids_.end()) return it->second;
        ids_[key] = id != 0 ? id : next_id_++;
        return ids_[key];
    }

    std::uint64_t id_of(const void* object) override {
        auto it = ids_.find(identity(object));
        return it == ids_.end() ? kUntracked : it->second;
    }

    // A call on self (a context call when context is true) with its result.
    template <typename Params>
    std::uint64_t call(const void* self, flatbuffers::Offset<Params> params,
                       std::optional<HRESULT> result = std::nullopt, bool context = false,
                       MapWrites writes = 0) {
        const std::uint64_t id = self != nullptr ? id_of(self) : 0;
        return call_record(id, context ? id : 0, params, result, writes);
    }

    static constexpr std::uint64_t kUntracked = 999999;

  private:
    std::map<IUnknown*, std::uint64_t> ids_;
    std::uint64_t next_id_ = 1;
};

// A reference device made directly, its creation recorded as the capture
// layer records D3D11CreateDevice (object 0, the out objects' ids).
struct DirectDevice {
    Com<ID3D11Device2> device;
    Com<ID3D11DeviceContext2> context;
    std::uint64_t device_id = 0;
    std::uint64_t context_id = 0;

    explicit DirectDevice(Recorder& recorder) {
        Com<ID3D11Device> base;
        Com<ID3D11DeviceContext> immediate;
        D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1;
        D3D_FEATURE_LEVEL chosen{};
        const HRESULT hr =
            D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_REFERENCE, nullptr, 0, &level, 1,
                              D3D11_SDK_VERSION, base.out(), &chosen, immediate.out());
        REQUIRE(hr == S_OK);
        device = base.as<ID3D11Device2>();
        context = immediate.as<ID3D11DeviceContext2>();
        device_id = recorder.track(base.get());
        context_id = recorder.track(immediate.get());
        const std::vector<std::uint32_t> levels{static_cast<std::uint32_t>(level)};
        recorder.call(
            nullptr,
            fb::CreateD3D11CreateDeviceDirect(recorder.b, 0, D3D_DRIVER_TYPE_REFERENCE, 0, 0,
                                              &levels, 1, D3D11_SDK_VERSION, device_id,
                                              static_cast<std::uint32_t>(chosen), context_id),
            hr);
    }
};

// count bytes, byte i = (seed + i * step) mod 256.
inline std::vector<std::uint8_t> pattern(std::size_t count, unsigned seed, unsigned step = 1) {
    std::vector<std::uint8_t> bytes(count);
    for (std::size_t i = 0; i < count; ++i) bytes[i] = static_cast<std::uint8_t>(seed + i * step);
    return bytes;
}

inline std::uint64_t hash_of(ID3D11Resource* resource, UINT subresource = 0) {
    return runtime::resource_content_hash(resource, subresource);
}

inline std::unique_ptr<replay::Replayer> open_replay(
    const std::string& path, D3D_DRIVER_TYPE driver = D3D_DRIVER_TYPE_REFERENCE) {
    replay::ReplayOptions options;
    options.driver = driver;
    auto replayer = replay::Replayer::open(path, options);
    REQUIRE(replayer.ok());
    return std::move(replayer.value());
}

inline void require_ok(const replay::Status& status) {
    INFO((status.ok() ? std::string() : status.error().to_string()));
    REQUIRE(status.ok());
}

inline fb::D3D11_TEXTURE2D_DESC fb_desc(const D3D11_TEXTURE2D_DESC& d) {
    return fb::D3D11_TEXTURE2D_DESC(d.Width, d.Height, d.MipLevels, d.ArraySize, d.Format,
                                    fb::SampleDesc(d.SampleDesc.Count, d.SampleDesc.Quality),
                                    d.Usage, d.BindFlags, d.CPUAccessFlags, d.MiscFlags);
}

// Creates a 2D texture directly and records it (CreateTexture2D's initial
// data follows a hand-written size rule: its table is built here).
inline std::uint64_t create_texture(Recorder& rec, DirectDevice& direct,
                                    const D3D11_TEXTURE2D_DESC& desc,
                                    const std::vector<std::vector<std::uint8_t>>& data,
                                    const std::vector<UINT>& pitches,
                                    Com<ID3D11Texture2D>& texture) {
    std::vector<D3D11_SUBRESOURCE_DATA> initial;
    for (std::size_t i = 0; i < data.size(); ++i)
        initial.push_back({data[i].data(), pitches[i], 0});
    const HRESULT hr = direct.device->CreateTexture2D(
        &desc, initial.empty() ? nullptr : initial.data(), texture.out());
    REQUIRE(hr == S_OK);
    const std::uint64_t id = rec.track(texture.get());
    std::vector<flatbuffers::Offset<fb::D3D11_SUBRESOURCE_DATA>> entries;
    for (std::size_t i = 0; i < data.size(); ++i)
        entries.push_back(fb::CreateD3D11_SUBRESOURCE_DATADirect(rec.b, &data[i], pitches[i], 0));
    const auto desc_fb = fb_desc(desc);
    rec.call(direct.device.get(),
             fb::CreateID3D11Device_CreateTexture2DDirect(rec.b, &desc_fb,
                                                          data.empty() ? nullptr : &entries, id),
             hr);
    return id;
}

inline std::uint64_t create_buffer(Recorder& rec, DirectDevice& direct,
                                   const D3D11_BUFFER_DESC& desc,
                                   const std::vector<std::uint8_t>* data,
                                   Com<ID3D11Buffer>& buffer) {
    D3D11_SUBRESOURCE_DATA initial{data != nullptr ? data->data() : nullptr, 0, 0};
    const HRESULT hr =
        direct.device->CreateBuffer(&desc, data != nullptr ? &initial : nullptr, buffer.out());
    REQUIRE(hr == S_OK);
    const std::uint64_t id = rec.track(buffer.get());
    ID3D11Buffer* out = buffer.get();
    rec.call(direct.device.get(),
             api::encode_ID3D11Device_CreateBuffer(rec.b, rec, &desc,
                                                   data != nullptr ? &initial : nullptr, &out),
             hr);
    return id;
}

}  // namespace engine_tests
