// Dispatches on the Vulkan device (lavapipe without a GPU): compute shaders
// written in the project's assembly, with constant-buffer windows, raw,
// structured and typed buffers, checked word for word against values the
// test computes. Devices that do not run shaders count the dispatch as not
// executed and change nothing.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>

#include "execution_support.h"

using namespace object_tests;
using namespace execution_tests;

namespace {

// out[i] = in[i] + cb0[0].x * i, over raw buffers: one word per thread.
constexpr const char* kRawAdd = R"(cs_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[1], immediateIndexed
dcl_resource_raw t0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 64, 1, 1
ishl r0.x, vThreadID.x, l(2)
ld_raw r0.y, r0.x, t0.xxxx
imul null, r0.z, cb0[0].x, vThreadID.x
iadd r0.y, r0.y, r0.z
store_raw u0.x, r0.x, r0.y
ret
)";

}  // namespace

TEST_CASE("Dispatch runs a compute shader over raw buffers with a constant-buffer window",
          "[compute]") {
    TestDevice& test = *hardware_device();
    const auto shader = compute_shader(test, kRawAdd);
    constexpr UINT kWords = 128;
    std::vector<std::uint32_t> input(kWords);
    for (UINT i = 0; i < kWords; ++i) input[i] = 1000 + i * 3;
    auto source = test.buffer(kWords * 4, D3D11_BIND_SHADER_RESOURCE, D3D11_USAGE_DEFAULT, 0,
                              D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0, input.data());
    auto target = test.buffer(kWords * 4, D3D11_BIND_UNORDERED_ACCESS, D3D11_USAGE_DEFAULT, 0,
                              D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS);
    // A window from constant 16: the shader's cb0[0] is constant 16 of the buffer.
    std::vector<std::uint32_t> constants(32 * 4, 0);  // 32 constants of 4 words
    constants[16 * 4] = 7;
    auto cb = test.buffer(32 * 16, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DEFAULT, 0, 0, 0,
                          constants.data());

    D3D11_SHADER_RESOURCE_VIEW_DESC srv_desc{};
    srv_desc.Format = DXGI_FORMAT_R32_TYPELESS;
    srv_desc.ViewDimension = D3D11_SRV_DIMENSION_BUFFEREX;
    srv_desc.BufferEx = {0, kWords, D3D11_BUFFEREX_SRV_FLAG_RAW};
    Com<ID3D11ShaderResourceView> srv;
    REQUIRE(test.device->CreateShaderResourceView(source.get(), &srv_desc, srv.out()) == S_OK);
    const auto uav = raw_uav(test, target.get(), kWords);

    test.context->CSSetShader(shader.get(), nullptr, 0);
    ID3D11ShaderResourceView* srvs[] = {srv.get()};
    test.context->CSSetShaderResources(0, 1, srvs);
    ID3D11UnorderedAccessView* uavs[] = {uav.get()};
    test.context->CSSetUnorderedAccessViews(0, 1, uavs, nullptr);
    ID3D11Buffer* cbs[] = {cb.get()};
    const UINT first = 16, count = 16;
    test.context->CSSetConstantBuffers1(0, 1, cbs, &first, &count);
    test.clear_messages();
    test.context->Dispatch(2, 1, 1);
    INFO(test.last_message());
    CHECK(test.messages().empty());

    const auto words = read_words(test, target.get(), kWords * 4);
    std::vector<std::uint32_t> expected(kWords);
    for (UINT i = 0; i < kWords; ++i) expected[i] = input[i] + 7 * i;
    CHECK(words == expected);
    check_validation_clean();
}

TEST_CASE("Translated modules pass spirv-val and the validation layer reported nothing",
          "[compute]") {
    TestDevice& test = *hardware_device();
    // Translate at least the shader above, then check everything translated so far.
    const auto shader = compute_shader(test, kRawAdd);
    test.context->CSSetShader(shader.get(), nullptr, 0);
    test.context->Dispatch(1, 1, 1);  // not executed (nothing bound); translated
    const char* directory = std::getenv("D3DCAP_SPIRV_DIR");
    std::size_t modules = 0;
    for (const auto& entry : std::filesystem::directory_iterator(directory)) {
        if (entry.path().extension() != ".spv") continue;
        ++modules;
        const std::string command =
            "spirv-val --target-env vulkan1.0 '" + entry.path().string() + "'";
        INFO(command);
        CHECK(std::system(command.c_str()) == 0);
    }
    CHECK(modules >= 1);
    CHECK(d3dcap::runtime::vulkan_validation_messages() == 0);
}

TEST_CASE("Structured and typed buffers: each thread scales a float pair, groups from a buffer",
          "[compute]") {
    TestDevice& test = *hardware_device();
    // out[i].x = in[i] * 2, out[i].y = in[i] + 0.5, out being 8-byte structures;
    // the thread groups come from DispatchIndirect's arguments.
    const auto shader = compute_shader(test, R"(cs_5_0
dcl_resource_buffer (float,float,float,float) t0
dcl_uav_structured u0, 8
dcl_input vThreadID.x
dcl_temps 2
dcl_thread_group 16, 1, 1
ld_indexable(buffer)(float,float,float,float) r0.x, vThreadID.xxxx, t0.xyzw
mul r1.x, r0.x, l(2.000000)
add r1.y, r0.x, l(0.500000)
store_structured u0.xy, vThreadID.x, l(0), r1.xyxx
ret
)");
    constexpr UINT kCount = 48;
    std::vector<float> input(kCount);
    for (UINT i = 0; i < kCount; ++i) input[i] = 1.25f * static_cast<float>(i) - 7.0f;
    auto source = test.buffer(kCount * 4, D3D11_BIND_SHADER_RESOURCE, D3D11_USAGE_DEFAULT, 0, 0, 0,
                              input.data());
    auto target = test.buffer(kCount * 8, D3D11_BIND_UNORDERED_ACCESS, D3D11_USAGE_DEFAULT, 0,
                              D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 8);
    // The whole 16-byte buffer is updated from here: four words, the last unused.
    const UINT groups[4] = {kCount / 16, 1, 1, 0};
    auto arguments = test.buffer(16, 0, D3D11_USAGE_DEFAULT, 0,
                                 D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS, 0, nullptr);
    test.context->UpdateSubresource(arguments.get(), 0, nullptr, groups, 0, 0);

    D3D11_SHADER_RESOURCE_VIEW_DESC srv_desc{};
    srv_desc.Format = DXGI_FORMAT_R32_FLOAT;
    srv_desc.ViewDimension = D3D11_SRV_DIMENSION_BUFFER;
    srv_desc.Buffer.FirstElement = 0;
    srv_desc.Buffer.NumElements = kCount;
    Com<ID3D11ShaderResourceView> srv;
    REQUIRE(test.device->CreateShaderResourceView(source.get(), &srv_desc, srv.out()) == S_OK);
    Com<ID3D11UnorderedAccessView> uav;
    REQUIRE(test.device->CreateUnorderedAccessView(target.get(), nullptr, uav.out()) == S_OK);
    test.context->CSSetShader(shader.get(), nullptr, 0);
    ID3D11ShaderResourceView* srvs[] = {srv.get()};
    test.context->CSSetShaderResources(0, 1, srvs);
    ID3D11UnorderedAccessView* uavs[] = {uav.get()};
    test.context->CSSetUnorderedAccessViews(0, 1, uavs, nullptr);
    test.clear_messages();
    test.context->DispatchIndirect(arguments.get(), 0);
    INFO(test.last_message());
    CHECK(test.messages().empty());

    const auto words = read_words(test, target.get(), kCount * 8);
    std::vector<float> got(words.size());
    std::memcpy(got.data(), words.data(), words.size() * 4);
    std::vector<float> expected(kCount * 2);
    for (UINT i = 0; i < kCount; ++i) {
        expected[2 * i] = input[i] * 2.0f;
        expected[2 * i + 1] = input[i] + 0.5f;
    }
    CHECK(got == expected);  // exact: these products and sums are representable
    check_validation_clean();
}

TEST_CASE("A compute shader writes a tiled buffer: NULL tiles drop writes and read zero",
          "[compute][tiled]") {
    TestDevice& test = *hardware_device();
    D3D11_FEATURE_DATA_D3D11_OPTIONS1 options{};
    REQUIRE(test.device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS1, &options,
                                             sizeof options) == S_OK);
    if (options.TiledResourcesTier < D3D11_TILED_RESOURCES_TIER_2)
        test_support::skip_test("this GPU has no tiled resources tier 2 (sparse residency)");
    // out[i] = i over two tiles of a tiled buffer whose second tile is NULL.
    const auto shader = compute_shader(test, R"(cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 64, 1, 1
ishl r0.x, vThreadID.x, l(2)
store_raw u0.x, r0.x, vThreadID.x
ret
)");
    constexpr UINT kTile = 65536, kWords = 2 * kTile / 4;
    auto pool = test.buffer(kTile, 0, D3D11_USAGE_DEFAULT, 0, D3D11_RESOURCE_MISC_TILE_POOL);
    auto tiled =
        test.buffer(2 * kTile, D3D11_BIND_UNORDERED_ACCESS, D3D11_USAGE_DEFAULT, 0,
                    D3D11_RESOURCE_MISC_TILED | D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS);
    const D3D11_TILED_RESOURCE_COORDINATE first{0, 0, 0, 0};
    const D3D11_TILE_REGION_SIZE one{1, FALSE, 0, 0, 0};
    const UINT pool_tile = 0;
    REQUIRE(test.context->UpdateTileMappings(tiled.get(), 1, &first, &one, pool.get(), 1, nullptr,
                                             &pool_tile, nullptr, 0) == S_OK);
    const auto uav = raw_uav(test, tiled.get(), kWords);
    test.context->CSSetShader(shader.get(), nullptr, 0);
    ID3D11UnorderedAccessView* uavs[] = {uav.get()};
    test.context->CSSetUnorderedAccessViews(0, 1, uavs, nullptr);
    test.clear_messages();
    test.context->Dispatch(kWords / 64, 1, 1);
    INFO(test.last_message());
    CHECK(test.messages().empty());
    const auto words = read_words(test, tiled.get(), 2 * kTile);
    std::vector<std::uint32_t> expected(kWords, 0);
    for (UINT i = 0; i < kTile / 4; ++i) expected[i] = i;
    CHECK(words == expected);
    check_validation_clean();
}

TEST_CASE("umul without its high half runs as imul, which vkd3d-shader translates", "[compute]") {
    TestDevice& test = *hardware_device();
    // out[i] = i * 0x10001 (the low 32 bits), through umul.
    const auto bytecode = assemble(R"(cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 32, 1, 1
ishl r0.x, vThreadID.x, l(2)
umul null, r0.y, vThreadID.x, l(0x10001)
store_raw u0.x, r0.x, r0.y
ret
)");
    Com<ID3D11ComputeShader> shader;
    test.clear_messages();
    REQUIRE(test.device->CreateComputeShader(bytecode.data(), bytecode.size(), nullptr,
                                             shader.out()) == S_OK);
    CHECK(test.messages().empty());
    auto target = test.buffer(32 * 4, D3D11_BIND_UNORDERED_ACCESS, D3D11_USAGE_DEFAULT, 0,
                              D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS);
    const auto uav = raw_uav(test, target.get(), 32);
    test.context->CSSetShader(shader.get(), nullptr, 0);
    ID3D11UnorderedAccessView* uavs[] = {uav.get()};
    test.context->CSSetUnorderedAccessViews(0, 1, uavs, nullptr);
    test.context->Dispatch(1, 1, 1);
    CHECK(test.messages().empty());
    std::vector<std::uint32_t> expected(32);
    for (std::uint32_t i = 0; i < 32; ++i) expected[i] = i * 0x10001u;
    CHECK(read_words(test, target.get(), 32 * 4) == expected);
    check_validation_clean();
}

TEST_CASE("Shaders vkd3d-shader would get wrong are named at creation with the instruction",
          "[compute]") {
    TestDevice& test = *hardware_device();
    const auto high = assemble(R"(cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 1, 1, 1
umul r0.x, r0.y, vThreadID.x, l(3)
store_raw u0.x, l(0), r0.x
ret
)");
    Com<ID3D11ComputeShader> shader;
    test.clear_messages();
    REQUIRE(test.device->CreateComputeShader(high.data(), high.size(), nullptr, shader.out()) ==
            S_OK);
    CHECK(test.last_message() ==
          "ID3D11Device::CreateComputeShader: pShaderBytecode: the device cannot run this "
          "shader: instruction at offset 0x34: umul: its high half is not translated by "
          "vkd3d-shader 1.2; work with it is not executed");
    test.context->CSSetShader(shader.get(), nullptr, 0);
    test.context->Dispatch(1, 1, 1);
    CHECK(test.messages().back().text ==
          "not executed: instruction at offset 0x34: umul: its high half is not translated by "
          "vkd3d-shader 1.2");

    // Registers used but not declared, even inside a relative index.
    const char* const undeclared[][2] = {
        {"mov r1.x, l(1)", "mov: uses r1 but 1 temps are declared"},
        {"mov r0.x, x0[0].x", "mov: uses x0, which is not declared"},
        {"mov r0.x, x1[4].x", "mov: uses x1[4] of 4 registers"},
        {"mov r0.x, x1[r2.x + 0].x", "mov: uses r2 but 1 temps are declared"},
        {"mov r0.x, t5.x", "mov: uses t5, which is not declared"},
        {"mov null, l(1)", "mov: its only destination is null"},
        {"store_raw r0.x, l(0), l(1)", "store_raw: operand 1 is not u# or g#"},
        {"mov l(1), r0.x", "mov: destination 1 is l, which cannot be written"},
    };
    for (const auto& [line, why] : undeclared) {
        const std::string text = std::string("cs_5_0\ndcl_temps 1\ndcl_indexableTemp x1[4], 4\n") +
                                 "dcl_thread_group 1, 1, 1\n" + line + "\nret\n";
        const auto code = assemble(text.c_str());
        Com<ID3D11ComputeShader> wrong;
        test.clear_messages();
        REQUIRE(test.device->CreateComputeShader(code.data(), code.size(), nullptr, wrong.out()) ==
                S_OK);
        CHECK(test.last_message().ends_with(std::string(why) + "; work with it is not executed"));
    }
}

TEST_CASE("Append through a UAV's hidden counter, from its initial count to CopyStructureCount",
          "[compute][counter]") {
    TestDevice& test = *hardware_device();
    // Each of 64 threads appends its id; the counter starts at 10.
    const auto shader = compute_shader(test, kAppendThreadIdCs);
    constexpr UINT kElements = 128;
    auto target = test.buffer(kElements * 4, D3D11_BIND_UNORDERED_ACCESS, D3D11_USAGE_DEFAULT, 0,
                              D3D11_RESOURCE_MISC_BUFFER_STRUCTURED, 4);
    const auto uav = append_uav(test, target.get(), kElements);
    test.context->CSSetShader(shader.get(), nullptr, 0);
    ID3D11UnorderedAccessView* uavs[] = {uav.get()};
    const UINT initial = 10;
    test.context->CSSetUnorderedAccessViews(0, 1, uavs, &initial);
    test.clear_messages();
    test.context->Dispatch(1, 1, 1);
    INFO(test.last_message());
    CHECK(test.messages().empty());
    auto count = test.buffer(16, 0, D3D11_USAGE_DEFAULT);
    test.context->CopyStructureCount(count.get(), 4, uav.get());
    CHECK(read_words(test, count.get(), 16) == std::vector<std::uint32_t>{0, 74, 0, 0});
    auto words = read_words(test, target.get(), kElements * 4);
    CHECK(std::all_of(words.begin(), words.begin() + 10, [](std::uint32_t w) { return w == 0; }));
    std::sort(words.begin() + 10, words.begin() + 74);
    for (UINT i = 0; i < 64; ++i) CHECK(words[10 + i] == i);
    check_validation_clean();
}

TEST_CASE("A dispatch the device cannot run yet is reported and changes nothing", "[compute]") {
    TestDevice& test = *hardware_device();
    // A texture of a format Vulkan has no view of: kept as bits only.
    const auto shader = compute_shader(test, R"(cs_5_0
dcl_resource_texture2d (float,float,float,float) t0
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 1, 1, 1
ld_indexable(texture2d)(float,float,float,float) r0.x, l(0, 0, 0, 0), t0.xyzw
store_raw u0.x, l(0), r0.x
ret
)");
    auto texture =
        test.texture2d(4, 4, DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM, D3D11_BIND_SHADER_RESOURCE);
    Com<ID3D11ShaderResourceView> srv;
    REQUIRE(test.device->CreateShaderResourceView(texture.get(), nullptr, srv.out()) == S_OK);
    auto target = test.buffer(16, D3D11_BIND_UNORDERED_ACCESS, D3D11_USAGE_DEFAULT, 0,
                              D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS);
    const auto uav = raw_uav(test, target.get(), 4);
    test.context->CSSetShader(shader.get(), nullptr, 0);
    ID3D11ShaderResourceView* srvs[] = {srv.get()};
    test.context->CSSetShaderResources(0, 1, srvs);
    ID3D11UnorderedAccessView* uavs[] = {uav.get()};
    test.context->CSSetUnorderedAccessViews(0, 1, uavs, nullptr);
    test.clear_messages();
    const auto before = d3dcap::runtime::context_draw_counts(test.context.get()).not_executed;
    test.context->Dispatch(1, 1, 1);
    CHECK(test.last_message() ==
          "ID3D11DeviceContext::Dispatch: : not executed: t0: this device keeps "
          "DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM (89) textures as bits only, which "
          "shaders cannot read yet");
    CHECK(read_words(test, target.get(), 16) == std::vector<std::uint32_t>(4, 0));
    CHECK(d3dcap::runtime::context_draw_counts(test.context.get()).not_executed == before + 1);
}

TEST_CASE("The reference device counts a dispatch it does not run, without a message",
          "[compute]") {
    TestDevice test;
    const auto shader = compute_shader(test, kRawAdd);
    test.context->CSSetShader(shader.get(), nullptr, 0);
    test.clear_messages();
    test.context->Dispatch(1, 1, 1);
    CHECK(test.messages().empty());
    CHECK(d3dcap::runtime::context_draw_counts(test.context.get()).not_executed == 1);
}

TEST_CASE("The last slot of every kind: cb13, t127, s15 and u63 in one dispatch",
          "[compute][slots]") {
    TestDevice& test = *hardware_device();
    const auto shader = compute_shader(test, R"(cs_5_0
dcl_constantbuffer cb13[1], immediateIndexed
dcl_resource_raw t127
dcl_resource_texture2d (float,float,float,float) t126
dcl_sampler s15, mode_default
dcl_uav_raw u63
dcl_temps 1
dcl_thread_group 1, 1, 1
ld_raw r0.x, l(4), t127.xxxx
iadd r0.x, r0.x, cb13[0].y
sample_l_indexable(texture2d)(float,float,float,float) r0.y, l(0.500000, 0.500000, 0.000000, 0.000000), t126.yxzw, s15, l(0.000000)
store_raw u63.xy, l(0), r0.xyxx
ret
)");
    const std::uint32_t raw[2] = {11, 1000};
    auto source = test.buffer(8, D3D11_BIND_SHADER_RESOURCE, D3D11_USAGE_DEFAULT, 0,
                              D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0, raw);
    D3D11_SHADER_RESOURCE_VIEW_DESC raw_desc{};
    raw_desc.Format = DXGI_FORMAT_R32_TYPELESS;
    raw_desc.ViewDimension = D3D11_SRV_DIMENSION_BUFFEREX;
    raw_desc.BufferEx = {0, 2, D3D11_BUFFEREX_SRV_FLAG_RAW};
    Com<ID3D11ShaderResourceView> raw_view, texture_view;
    REQUIRE(test.device->CreateShaderResourceView(source.get(), &raw_desc, raw_view.out()) == S_OK);
    const float texel = 2.5f;
    const D3D11_TEXTURE2D_DESC texture_desc{
        1, 1, 1, 1, DXGI_FORMAT_R32_FLOAT, {1, 0}, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE,
        0, 0};
    const D3D11_SUBRESOURCE_DATA initial{&texel, 4, 0};
    Com<ID3D11Texture2D> texture;
    REQUIRE(test.device->CreateTexture2D(&texture_desc, &initial, texture.out()) == S_OK);
    REQUIRE(test.device->CreateShaderResourceView(texture.get(), nullptr, texture_view.out()) ==
            S_OK);
    const std::uint32_t constants[4] = {0, 31, 0, 0};
    auto cb = test.buffer(16, D3D11_BIND_CONSTANT_BUFFER, D3D11_USAGE_DEFAULT, 0, 0, 0, constants);
    D3D11_SAMPLER_DESC sampler_desc{};
    sampler_desc.Filter = D3D11_FILTER_MIN_MAG_MIP_POINT;
    sampler_desc.AddressU = sampler_desc.AddressV = sampler_desc.AddressW =
        D3D11_TEXTURE_ADDRESS_CLAMP;
    sampler_desc.MaxLOD = D3D11_FLOAT32_MAX;
    Com<ID3D11SamplerState> sampler;
    REQUIRE(test.device->CreateSamplerState(&sampler_desc, sampler.out()) == S_OK);
    auto target = test.buffer(8, D3D11_BIND_UNORDERED_ACCESS, D3D11_USAGE_DEFAULT, 0,
                              D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS);
    const auto uav = raw_uav(test, target.get(), 2);

    test.context->CSSetShader(shader.get(), nullptr, 0);
    ID3D11Buffer* cbs[] = {cb.get()};
    test.context->CSSetConstantBuffers(D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT - 1, 1,
                                       cbs);
    ID3D11ShaderResourceView* views[] = {texture_view.get(), raw_view.get()};
    test.context->CSSetShaderResources(D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT - 2, 2, views);
    ID3D11SamplerState* samplers[] = {sampler.get()};
    test.context->CSSetSamplers(D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT - 1, 1, samplers);
    ID3D11UnorderedAccessView* uavs[] = {uav.get()};
    test.context->CSSetUnorderedAccessViews(D3D11_1_UAV_SLOT_COUNT - 1, 1, uavs, nullptr);
    test.clear_messages();
    test.context->Dispatch(1, 1, 1);
    INFO(test.last_message());
    CHECK(test.messages().empty());
    const auto words = read_words(test, target.get(), 8);
    CHECK(words[0] == 1031u);
    float sampled;
    std::memcpy(&sampled, &words[1], 4);
    CHECK(sampled == 2.5f);
    check_validation_clean();
}

TEST_CASE("Loads past the end of a view read zero and stores there are dropped", "[compute]") {
    TestDevice& test = *hardware_device();
    // Views of the first 4 words of 8-word buffers: the shader copies words
    // 0 to 7 from one to the other, and writes 99 at word 6.
    const auto shader = compute_shader(test, R"(cs_5_0
dcl_resource_raw t0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 8, 1, 1
ishl r0.x, vThreadID.x, l(2)
ld_raw r0.y, r0.x, t0.xxxx
store_raw u0.x, r0.x, r0.y
store_raw u0.x, l(24), l(99)
ret
)");
    const std::uint32_t input[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const std::uint32_t before[8] = {50, 51, 52, 53, 54, 55, 56, 57};
    auto source = test.buffer(32, D3D11_BIND_SHADER_RESOURCE, D3D11_USAGE_DEFAULT, 0,
                              D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0, input);
    auto target = test.buffer(32, D3D11_BIND_UNORDERED_ACCESS, D3D11_USAGE_DEFAULT, 0,
                              D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS, 0, before);
    D3D11_SHADER_RESOURCE_VIEW_DESC srv_desc{};
    srv_desc.Format = DXGI_FORMAT_R32_TYPELESS;
    srv_desc.ViewDimension = D3D11_SRV_DIMENSION_BUFFEREX;
    srv_desc.BufferEx = {0, 4, D3D11_BUFFEREX_SRV_FLAG_RAW};
    Com<ID3D11ShaderResourceView> srv;
    REQUIRE(test.device->CreateShaderResourceView(source.get(), &srv_desc, srv.out()) == S_OK);
    const auto uav = raw_uav(test, target.get(), 4);
    test.context->CSSetShader(shader.get(), nullptr, 0);
    ID3D11ShaderResourceView* srvs[] = {srv.get()};
    test.context->CSSetShaderResources(0, 1, srvs);
    ID3D11UnorderedAccessView* uavs[] = {uav.get()};
    test.context->CSSetUnorderedAccessViews(0, 1, uavs, nullptr);
    test.clear_messages();
    test.context->Dispatch(1, 1, 1);
    INFO(test.last_message());
    CHECK(test.messages().empty());
    CHECK(read_words(test, target.get(), 32) ==
          std::vector<std::uint32_t>{1, 2, 3, 4, 54, 55, 56, 57});
    check_validation_clean();
}
