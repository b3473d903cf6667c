// Helpers for the object-model tests: a small COM pointer, device creation
// through the standard entry point, fake DXBC shaders, message access.
#pragma once

#include <d3d11_2.h>
#include <dxgi1_2.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "runtime/inspection.h"
#include "support/com.h"

namespace object_tests {

using d3dcap::testing::Com;

// A window handle: Linux has no windows; the runtime keeps the value.
inline HWND test_window(std::uintptr_t value) {
    return reinterpret_cast<HWND>(value);
}

// The public count an object has now (AddRef then Release).
inline ULONG count_of(IUnknown* object) {
    object->AddRef();
    return object->Release();
}

struct TestDevice {
    Com<ID3D11Device2> device;
    Com<ID3D11DeviceContext2> context;

    explicit TestDevice(D3D_DRIVER_TYPE type = D3D_DRIVER_TYPE_REFERENCE,
                        D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1, UINT flags = 0) {
        Com<ID3D11Device> base;
        Com<ID3D11DeviceContext> immediate;
        D3D_FEATURE_LEVEL chosen{};
        REQUIRE(D3D11CreateDevice(nullptr, type, nullptr, flags, &level, 1, D3D11_SDK_VERSION,
                                  base.out(), &chosen, immediate.out()) == S_OK);
        REQUIRE(chosen == level);
        device = base.as<ID3D11Device2>();
        context = immediate.as<ID3D11DeviceContext2>();
        REQUIRE(device);
        REQUIRE(context);
    }

    std::vector<d3dcap::runtime::Message> messages() const {
        return d3dcap::runtime::device_messages(device.get());
    }
    std::string last_message() const {
        auto all = messages();
        if (all.empty()) return "";
        const auto& last = all.back();
        return last.call + ": " + last.parameter + ": " + last.text;
    }
    void clear_messages() const { d3dcap::runtime::clear_device_messages(device.get()); }

    Com<ID3D11Buffer> buffer(UINT bytes, UINT bind, D3D11_USAGE usage = D3D11_USAGE_DEFAULT,
                             UINT cpu = 0, UINT misc = 0, UINT stride = 0,
                             const void* initial = nullptr) const {
        const D3D11_BUFFER_DESC desc{bytes, usage, bind, cpu, misc, stride};
        const D3D11_SUBRESOURCE_DATA data{initial, 0, 0};
        Com<ID3D11Buffer> result;
        REQUIRE(device->CreateBuffer(&desc, initial ? &data : nullptr, result.out()) == S_OK);
        return result;
    }

    Com<ID3D11Texture2D> texture2d(UINT width, UINT height, DXGI_FORMAT format, UINT bind,
                                   UINT mips = 1, UINT array_size = 1,
                                   D3D11_USAGE usage = D3D11_USAGE_DEFAULT, UINT cpu = 0,
                                   UINT misc = 0, UINT samples = 1) const {
        D3D11_TEXTURE2D_DESC desc{};
        desc.Width = width;
        desc.Height = height;
        desc.MipLevels = mips;
        desc.ArraySize = array_size;
        desc.Format = format;
        desc.SampleDesc = {samples, 0};
        desc.Usage = usage;
        desc.BindFlags = bind;
        desc.CPUAccessFlags = cpu;
        desc.MiscFlags = misc;
        Com<ID3D11Texture2D> result;
        REQUIRE(device->CreateTexture2D(&desc, nullptr, result.out()) == S_OK);
        return result;
    }
};

// A minimal DXBC container: header, one SHEX chunk holding the version
// token (program type: 0 pixel, 1 vertex, 2 geometry, 3 hull, 4 domain,
// 5 compute) and a length token.
inline std::vector<std::uint8_t> fake_shader(std::uint32_t program_type) {
    std::vector<std::uint8_t> blob(52, 0);
    auto put = [&](std::size_t offset, std::uint32_t value) {
        std::memcpy(blob.data() + offset, &value, 4);
    };
    std::memcpy(blob.data(), "DXBC", 4);
    put(20, 1);   // container version
    put(24, 52);  // total size
    put(28, 1);   // one chunk
    put(32, 36);  // at offset 36
    std::memcpy(blob.data() + 36, "SHEX", 4);
    put(40, 8);                            // chunk size
    put(44, (program_type << 16) | 0x50);  // shader model 5.0
    put(48, 2);                            // length in tokens
    return blob;
}

// fake_shader with an OSGN chunk of one output per (semantic, D3D_NAME).
inline std::vector<std::uint8_t> shader_with_outputs(
    std::uint32_t program_type, const std::vector<std::pair<std::string, std::uint32_t>>& outputs) {
    std::vector<std::uint8_t> blob = fake_shader(program_type);
    auto put = [&](std::size_t offset, std::uint32_t value) {
        std::memcpy(blob.data() + offset, &value, 4);
    };
    // The signature: count, first element, 24-byte elements, then the names.
    std::vector<std::uint8_t> signature(8 + 24 * outputs.size(), 0);
    auto sig_put = [&](std::size_t offset, std::uint32_t value) {
        std::memcpy(signature.data() + offset, &value, 4);
    };
    sig_put(0, static_cast<std::uint32_t>(outputs.size()));
    sig_put(4, 8);
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const std::size_t at = 8 + 24 * i;
        sig_put(at, static_cast<std::uint32_t>(signature.size()));  // name offset
        sig_put(at + 8, outputs[i].second);                         // system value
        sig_put(at + 16, static_cast<std::uint32_t>(i));            // register
        signature.insert(signature.end(), outputs[i].first.begin(), outputs[i].first.end());
        signature.push_back(0);
    }
    while (signature.size() % 4) signature.push_back(0);
    const std::size_t chunk = blob.size();
    blob.resize(chunk + 8 + signature.size());
    std::memcpy(blob.data() + chunk, "OSGN", 4);
    put(chunk + 4, static_cast<std::uint32_t>(signature.size()));
    std::memcpy(blob.data() + chunk + 8, signature.data(), signature.size());
    // Two chunks now: the offset table grows by one entry, moving both.
    blob.insert(blob.begin() + 36, 4, 0);
    put(24, static_cast<std::uint32_t>(blob.size()));
    put(28, 2);
    put(32, 40);
    put(36, static_cast<std::uint32_t>(chunk + 4));
    return blob;
}

}  // namespace object_tests
