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

#include "runtime/internal.h"
#include "support/com.h"

namespace object_tests {

using d3dcap::testing::Com;

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

}  // namespace object_tests
