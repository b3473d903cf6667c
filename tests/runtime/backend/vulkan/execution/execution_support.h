// Helpers of the tests that execute shaders on the Vulkan device: the
// environment (validation layer, lavapipe threads, SPIR-V kept), shaders
// from the project's assembly, buffers read back word for word.
#pragma once

#include <d3d11_2.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/d3d11/object_support.h"
#include "runtime/inspection.h"
#include "runtime/shader/assembler.h"
#include "support/skip.h"

namespace execution_tests {

using object_tests::Com;
using object_tests::TestDevice;

// Before the first Vulkan instance: the Khronos validation layer with
// synchronization validation (device creation fails without it), lavapipe on
// two threads, and every translated module kept for spirv-val.
inline const bool g_environment = [] {
    setenv("D3DCAP_VULKAN_VALIDATION", "1", 0);
    setenv("LP_NUM_THREADS", "2", 0);
    setenv("D3DCAP_SPIRV_DIR", D3DCAP_TEST_SPIRV_DIR, 0);
    return true;
}();

inline std::vector<std::uint8_t> assemble(const char* text) {
    const auto result = d3dcap::runtime::shader::assemble(text);
    INFO(result.error);
    REQUIRE(result.ok());
    return result.container;
}

// A HARDWARE device (the GPU, or lavapipe without one). Lavapipe and the
// validation layer are installed with the rest, so a device that cannot be
// created is a missing dependency (the reason is on stderr).
inline TestDevice* hardware_device() {
    static TestDevice* device = [] {
        Com<ID3D11Device> base;
        const D3D_FEATURE_LEVEL level = D3D_FEATURE_LEVEL_11_1;
        if (FAILED(D3D11CreateDevice(nullptr, D3D_DRIVER_TYPE_HARDWARE, nullptr, 0, &level, 1,
                                     D3D11_SDK_VERSION, base.out(), nullptr, nullptr)))
            test_support::missing_dependency(
                "no Vulkan device with the validation layer for D3D_DRIVER_TYPE_HARDWARE");
        return new TestDevice(D3D_DRIVER_TYPE_HARDWARE);
    }();
    return device;
}

inline Com<ID3D11ComputeShader> compute_shader(TestDevice& test, const char* text) {
    const auto bytecode = assemble(text);
    Com<ID3D11ComputeShader> shader;
    REQUIRE(test.device->CreateComputeShader(bytecode.data(), bytecode.size(), nullptr,
                                             shader.out()) == S_OK);
    return shader;
}

// A UAV of the first `elements` elements of a buffer.
inline Com<ID3D11UnorderedAccessView> buffer_uav(TestDevice& test, ID3D11Buffer* buffer,
                                                 DXGI_FORMAT format, UINT elements, UINT flags) {
    D3D11_UNORDERED_ACCESS_VIEW_DESC desc{};
    desc.Format = format;
    desc.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
    desc.Buffer = {0, elements, flags};
    Com<ID3D11UnorderedAccessView> uav;
    REQUIRE(test.device->CreateUnorderedAccessView(buffer, &desc, uav.out()) == S_OK);
    return uav;
}

// A raw UAV of a whole buffer of `words` 32-bit words.
inline Com<ID3D11UnorderedAccessView> raw_uav(TestDevice& test, ID3D11Buffer* buffer, UINT words) {
    return buffer_uav(test, buffer, DXGI_FORMAT_R32_TYPELESS, words, D3D11_BUFFER_UAV_FLAG_RAW);
}

// Each of 64 threads appends its id through u0's hidden counter.
constexpr const char* kAppendThreadIdCs = R"(cs_5_0
dcl_uav_structured u0, 4
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 64, 1, 1
imm_atomic_alloc r0.x, u0
store_structured u0.x, r0.x, l(0), vThreadID.x
ret
)";

// An APPEND UAV of a structured buffer of `elements` UINTs.
inline Com<ID3D11UnorderedAccessView> append_uav(TestDevice& test, ID3D11Buffer* buffer,
                                                 UINT elements) {
    return buffer_uav(test, buffer, DXGI_FORMAT_UNKNOWN, elements, D3D11_BUFFER_UAV_FLAG_APPEND);
}

inline std::vector<std::uint32_t> read_words(TestDevice& test, ID3D11Buffer* buffer, UINT bytes) {
    auto staging = test.buffer(bytes, 0, D3D11_USAGE_STAGING, D3D11_CPU_ACCESS_READ);
    test.context->CopyResource(staging.get(), buffer);
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(test.context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    std::vector<std::uint32_t> words(bytes / 4);
    std::memcpy(words.data(), mapped.pData, bytes);
    test.context->Unmap(staging.get(), 0);
    return words;
}

// Every test ends here: the validation layer (where it runs) said nothing.
inline void check_validation_clean() {
    CHECK(d3dcap::runtime::vulkan_validation_messages() == 0);
}

}  // namespace execution_tests
