// Textures in compute shaders on the Vulkan device: loads and samples of
// shader-resource views (formats reinterpreted within their group, array
// slices, depth and stencil of one depth-stencil texture), samplers (point,
// linear, border colours) and typed UAVs of textures, with values the test
// computes exactly.
#include <array>
#include <catch2/catch.hpp>

#include "execution_support.h"

using namespace object_tests;
using namespace execution_tests;

namespace {

Com<ID3D11ShaderResourceView> srv(TestDevice& test, ID3D11Resource* resource,
                                  const D3D11_SHADER_RESOURCE_VIEW_DESC* desc) {
    Com<ID3D11ShaderResourceView> view;
    REQUIRE(test.device->CreateShaderResourceView(resource, desc, view.out()) == S_OK);
    return view;
}

// A Texture2D view of mip 0 in `format`.
Com<ID3D11ShaderResourceView> mip0_view(TestDevice& test, ID3D11Resource* resource,
                                        DXGI_FORMAT format) {
    D3D11_SHADER_RESOURCE_VIEW_DESC desc{};
    desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2D;
    desc.Texture2D = {0, 1};
    desc.Format = format;
    return srv(test, resource, &desc);
}

// Runs `shader` once with t0..tN and s0..sN bound and u0 a raw buffer of
// `words` words, and returns those words.
std::vector<std::uint32_t> run(TestDevice& test, const char* shader_text,
                               std::vector<ID3D11ShaderResourceView*> resources,
                               std::vector<ID3D11SamplerState*> samplers, UINT words,
                               UINT groups_x = 1, UINT groups_y = 1) {
    const auto shader = compute_shader(test, shader_text);
    auto target = test.buffer(words * 4, D3D11_BIND_UNORDERED_ACCESS, D3D11_USAGE_DEFAULT, 0,
                              D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS);
    const auto uav = raw_uav(test, target.get(), words);
    test.context->CSSetShader(shader.get(), nullptr, 0);
    test.context->CSSetShaderResources(0, static_cast<UINT>(resources.size()), resources.data());
    if (!samplers.empty())
        test.context->CSSetSamplers(0, static_cast<UINT>(samplers.size()), samplers.data());
    ID3D11UnorderedAccessView* uavs[] = {uav.get()};
    test.context->CSSetUnorderedAccessViews(0, 1, uavs, nullptr);
    test.clear_messages();
    test.context->Dispatch(groups_x, groups_y, 1);
    INFO(test.last_message());
    CHECK(test.messages().empty());
    return read_words(test, target.get(), words * 4);
}

Com<ID3D11SamplerState> sampler(TestDevice& test, D3D11_FILTER filter,
                                D3D11_TEXTURE_ADDRESS_MODE address,
                                std::array<float, 4> border = {0, 0, 0, 0}) {
    D3D11_SAMPLER_DESC desc{};
    desc.Filter = filter;
    desc.AddressU = desc.AddressV = desc.AddressW = address;
    desc.MaxAnisotropy = 1;
    desc.ComparisonFunc = D3D11_COMPARISON_NEVER;
    for (int i = 0; i < 4; ++i) desc.BorderColor[i] = border[i];
    desc.MaxLOD = D3D11_FLOAT32_MAX;
    Com<ID3D11SamplerState> state;
    REQUIRE(test.device->CreateSamplerState(&desc, state.out()) == S_OK);
    return state;
}

float as_float(std::uint32_t word) {
    float value;
    std::memcpy(&value, &word, 4);
    return value;
}

}  // namespace

TEST_CASE("ld of an RGBA8 texture through UNORM and UINT views of its typeless group",
          "[compute][texture]") {
    TestDevice& test = *hardware_device();
    // 4x2 texels; texel (x, y) holds bytes {x*40, y*100, x+y, 255}.
    std::vector<std::uint8_t> texels(4 * 2 * 4);
    for (UINT y = 0; y < 2; ++y)
        for (UINT x = 0; x < 4; ++x) {
            std::uint8_t* t = &texels[(y * 4 + x) * 4];
            t[0] = static_cast<std::uint8_t>(x * 40);
            t[1] = static_cast<std::uint8_t>(y * 100);
            t[2] = static_cast<std::uint8_t>(x + y);
            t[3] = 255;
        }
    auto texture = test.texture2d(4, 2, DXGI_FORMAT_R8G8B8A8_TYPELESS, D3D11_BIND_SHADER_RESOURCE);
    test.context->UpdateSubresource(texture.get(), 0, nullptr, texels.data(), 16, 0);
    const auto unorm = mip0_view(test, texture.get(), DXGI_FORMAT_R8G8B8A8_UNORM);
    const auto uint_view = mip0_view(test, texture.get(), DXGI_FORMAT_R8G8B8A8_UINT);
    // Thread (x, y): word 2*(y*4+x) = round(unorm.x * 255) + 1000 * round(unorm.y * 255),
    // the next word = uint.z + 256 * uint.w.
    const auto words = run(test, R"(cs_5_0
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2d (uint,uint,uint,uint) t1
dcl_uav_raw u0
dcl_input vThreadID.xy
dcl_temps 3
dcl_thread_group 4, 2, 1
mov r0.xy, vThreadID.xyxx
mov r0.zw, l(0, 0, 0, 0)
ld_indexable(texture2d)(float,float,float,float) r1.xyzw, r0.xyzw, t0.xyzw
mul r1.xy, r1.xyxx, l(255.000000, 255.000000, 0.000000, 0.000000)
round_ne r1.xy, r1.xyxx
ftou r1.xy, r1.xyxx
imad r2.x, r1.y, l(1000), r1.x
ld_indexable(texture2d)(uint,uint,uint,uint) r1.xyzw, r0.xyzw, t1.xyzw
ishl r1.w, r1.w, l(8)
iadd r2.y, r1.w, r1.z
imad r0.x, vThreadID.y, l(4), vThreadID.x
ishl r0.x, r0.x, l(3)
store_raw u0.xy, r0.x, r2.xyxx
ret
)",
                           {unorm.get(), uint_view.get()}, {}, 16);
    std::vector<std::uint32_t> expected;
    for (UINT y = 0; y < 2; ++y)
        for (UINT x = 0; x < 4; ++x) {
            expected.push_back(x * 40 + 1000 * y * 100);
            expected.push_back((x + y) + 256 * 255);
        }
    CHECK(words == expected);
    check_validation_clean();
}

TEST_CASE("sample_l with point, linear and border samplers", "[compute][texture]") {
    TestDevice& test = *hardware_device();
    // A 4x1 R32_FLOAT texture {0, 2, 4, 8}.
    const float values[4] = {0.0f, 2.0f, 4.0f, 8.0f};
    D3D11_TEXTURE2D_DESC texture_desc{
        4, 1, 1, 1, DXGI_FORMAT_R32_FLOAT, {1, 0}, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE,
        0, 0};
    const D3D11_SUBRESOURCE_DATA initial{values, 16, 0};
    Com<ID3D11Texture2D> texture;
    REQUIRE(test.device->CreateTexture2D(&texture_desc, &initial, texture.out()) == S_OK);
    const auto view = srv(test, texture.get(), nullptr);
    const auto point = sampler(test, D3D11_FILTER_MIN_MAG_MIP_POINT, D3D11_TEXTURE_ADDRESS_CLAMP);
    const auto linear = sampler(test, D3D11_FILTER_MIN_MAG_MIP_LINEAR, D3D11_TEXTURE_ADDRESS_CLAMP);
    const auto border = sampler(test, D3D11_FILTER_MIN_MAG_MIP_POINT, D3D11_TEXTURE_ADDRESS_BORDER,
                                {0.25f, 0.5f, 0.75f, 1.0f});
    // Word 0: point at texel 2's centre (u = 0.625); 1: linear halfway between
    // texels 1 and 2 (u = 0.5); 2: linear between texels 2 and 3 (u = 0.75);
    // 3: the border colour's red left of the texture (u = -0.5).
    const auto words = run(test, R"(cs_5_0
dcl_resource_texture2d (float,float,float,float) t0
dcl_sampler s0, mode_default
dcl_sampler s1, mode_default
dcl_sampler s2, mode_default
dcl_uav_raw u0
dcl_temps 2
dcl_thread_group 1, 1, 1
sample_l_indexable(texture2d)(float,float,float,float) r0.x, l(0.625000, 0.500000, 0.000000, 0.000000), t0.xyzw, s0, l(0.000000)
sample_l_indexable(texture2d)(float,float,float,float) r0.y, l(0.500000, 0.500000, 0.000000, 0.000000), t0.yxzw, s1, l(0.000000)
sample_l_indexable(texture2d)(float,float,float,float) r0.z, l(0.750000, 0.500000, 0.000000, 0.000000), t0.yzxw, s1, l(0.000000)
sample_l_indexable(texture2d)(float,float,float,float) r0.w, l(-0.500000, 0.500000, 0.000000, 0.000000), t0.yzwx, s2, l(0.000000)
store_raw u0.xyzw, l(0), r0.xyzw
ret
)",
                           {view.get()}, {point.get(), linear.get(), border.get()}, 4);
    CHECK(as_float(words[0]) == 4.0f);
    CHECK(as_float(words[1]) == 3.0f);
    CHECK(as_float(words[2]) == 6.0f);
    CHECK(as_float(words[3]) == 0.25f);
    check_validation_clean();
}

TEST_CASE("ld of one slice and one mip of a Texture2DArray view", "[compute][texture]") {
    TestDevice& test = *hardware_device();
    // 3 slices x 2 mips of 4x4 R32_UINT; texel value = 1000*slice + 100*mip + 10*y + x.
    auto texture = test.texture2d(4, 4, DXGI_FORMAT_R32_UINT, D3D11_BIND_SHADER_RESOURCE, 2, 3);
    for (UINT slice = 0; slice < 3; ++slice)
        for (UINT mip = 0; mip < 2; ++mip) {
            const UINT size = 4 >> mip;
            std::vector<std::uint32_t> texels;
            for (UINT y = 0; y < size; ++y)
                for (UINT x = 0; x < size; ++x)
                    texels.push_back(1000 * slice + 100 * mip + 10 * y + x);
            test.context->UpdateSubresource(texture.get(), D3D11CalcSubresource(mip, slice, 2),
                                            nullptr, texels.data(), size * 4, 0);
        }
    D3D11_SHADER_RESOURCE_VIEW_DESC desc{};
    desc.Format = DXGI_FORMAT_R32_UINT;
    desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURE2DARRAY;
    desc.Texture2DArray = {1, 1, 1, 2};  // mip 1 only, slices 1 and 2
    const auto view = srv(test, texture.get(), &desc);
    // Thread (x, y) reads texel (x, y) of array index 1 (slice 2) at mip 0 of the view.
    const auto words = run(test, R"(cs_5_0
dcl_resource_texture2darray (uint,uint,uint,uint) t0
dcl_uav_raw u0
dcl_input vThreadID.xy
dcl_temps 2
dcl_thread_group 2, 2, 1
mov r0.xy, vThreadID.xyxx
mov r0.zw, l(0, 0, 0, 1)
ld_indexable(texture2darray)(uint,uint,uint,uint) r1.x, r0.xywz, t0.xyzw
imad r0.x, vThreadID.y, l(2), vThreadID.x
ishl r0.x, r0.x, l(2)
store_raw u0.x, r0.x, r1.x
ret
)",
                           {view.get()}, {}, 4);
    CHECK(words == std::vector<std::uint32_t>{2100, 2101, 2110, 2111});
    check_validation_clean();
}

TEST_CASE("A typed UAV of a texture: each thread writes its texel", "[compute][texture]") {
    TestDevice& test = *hardware_device();
    auto texture = test.texture2d(8, 4, DXGI_FORMAT_R32_UINT, D3D11_BIND_UNORDERED_ACCESS);
    Com<ID3D11UnorderedAccessView> uav;
    REQUIRE(test.device->CreateUnorderedAccessView(texture.get(), nullptr, uav.out()) == S_OK);
    const auto shader = compute_shader(test, R"(cs_5_0
dcl_uav_typed_texture2d (uint,uint,uint,uint) u0
dcl_input vThreadID.xy
dcl_temps 1
dcl_thread_group 8, 4, 1
imad r0.x, vThreadID.y, l(256), vThreadID.x
store_uav_typed u0.xyzw, vThreadID.xyyy, r0.xxxx
ret
)");
    test.context->CSSetShader(shader.get(), nullptr, 0);
    ID3D11UnorderedAccessView* uavs[] = {uav.get()};
    test.context->CSSetUnorderedAccessViews(0, 1, uavs, nullptr);
    test.clear_messages();
    test.context->Dispatch(1, 1, 1);
    INFO(test.last_message());
    CHECK(test.messages().empty());
    auto staging = test.texture2d(8, 4, DXGI_FORMAT_R32_UINT, 0, 1, 1, D3D11_USAGE_STAGING,
                                  D3D11_CPU_ACCESS_READ);
    test.context->CopyResource(staging.get(), texture.get());
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(test.context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    for (UINT y = 0; y < 4; ++y)
        for (UINT x = 0; x < 8; ++x) {
            std::uint32_t word;
            std::memcpy(
                &word, static_cast<const std::uint8_t*>(mapped.pData) + y * mapped.RowPitch + x * 4,
                4);
            CHECK(word == y * 256 + x);
        }
    test.context->Unmap(staging.get(), 0);
    check_validation_clean();
}

TEST_CASE("Depth and stencil of a D24S8 texture: cleared, read by views, copied exactly",
          "[compute][texture][depth]") {
    TestDevice& test = *hardware_device();
    auto depth = test.texture2d(4, 4, DXGI_FORMAT_R24G8_TYPELESS,
                                D3D11_BIND_DEPTH_STENCIL | D3D11_BIND_SHADER_RESOURCE);
    D3D11_DEPTH_STENCIL_VIEW_DESC dsv_desc{};
    dsv_desc.Format = DXGI_FORMAT_D24_UNORM_S8_UINT;
    dsv_desc.ViewDimension = D3D11_DSV_DIMENSION_TEXTURE2D;
    Com<ID3D11DepthStencilView> dsv;
    REQUIRE(test.device->CreateDepthStencilView(depth.get(), &dsv_desc, dsv.out()) == S_OK);
    test.context->ClearDepthStencilView(dsv.get(), D3D11_CLEAR_DEPTH | D3D11_CLEAR_STENCIL, 0.5f,
                                        7);
    // Stencil only: the depth bits stay.
    test.context->ClearDepthStencilView(dsv.get(), D3D11_CLEAR_STENCIL, 0.0f, 200);

    // The canonical bits: depth 0.5 as 24-bit UNORM (0x800000), stencil 200 in the top byte.
    auto staging = test.texture2d(4, 4, DXGI_FORMAT_R24G8_TYPELESS, 0, 1, 1, D3D11_USAGE_STAGING,
                                  D3D11_CPU_ACCESS_READ);
    test.context->CopyResource(staging.get(), depth.get());
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(test.context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    std::uint32_t first;
    std::memcpy(&first, mapped.pData, 4);
    test.context->Unmap(staging.get(), 0);
    CHECK(first == (200u << 24 | 0x800000u));

    const auto depth_view = mip0_view(test, depth.get(), DXGI_FORMAT_R24_UNORM_X8_TYPELESS);
    const auto stencil_view = mip0_view(test, depth.get(), DXGI_FORMAT_X24_TYPELESS_G8_UINT);
    // Word 0: round(depth * (2^24 - 1)) of texel (1, 1); word 1: its stencil
    // (the G channel).
    const auto words = run(test, R"(cs_5_0
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2d (uint,uint,uint,uint) t1
dcl_uav_raw u0
dcl_temps 2
dcl_thread_group 1, 1, 1
ld_indexable(texture2d)(float,float,float,float) r0.x, l(1, 1, 0, 0), t0.xyzw
mul r0.x, r0.x, l(16777215.000000)
round_ne r0.x, r0.x
ftou r1.x, r0.x
ld_indexable(texture2d)(uint,uint,uint,uint) r1.y, l(1, 1, 0, 0), t1.xyzw
store_raw u0.xy, l(0), r1.xyxx
ret
)",
                           {depth_view.get(), stencil_view.get()}, {}, 2);
    CHECK(words[0] == 0x800000u);
    CHECK(words[1] == 200u);
    check_validation_clean();
}

TEST_CASE("A shader reads a tiled texture: its pool page where mapped, zero where NULL",
          "[compute][texture][tiled]") {
    TestDevice& test = *hardware_device();
    D3D11_FEATURE_DATA_D3D11_OPTIONS1 options{};
    REQUIRE(test.device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS1, &options,
                                             sizeof options) == S_OK);
    if (options.TiledResourcesTier < D3D11_TILED_RESOURCES_TIER_2)
        test_support::skip_test("this device has no tiled resources tier 2");
    // 256x256 RGBA8 is 2x2 tiles of 128x128; tile (0, 0) maps pool tile 1.
    constexpr UINT kTile = 65536;
    auto pool = test.buffer(2 * kTile, 0, D3D11_USAGE_DEFAULT, 0, D3D11_RESOURCE_MISC_TILE_POOL);
    auto texture = test.texture2d(256, 256, DXGI_FORMAT_R8G8B8A8_UINT, D3D11_BIND_SHADER_RESOURCE,
                                  1, 1, D3D11_USAGE_DEFAULT, 0, D3D11_RESOURCE_MISC_TILED);
    const D3D11_TILED_RESOURCE_COORDINATE first{0, 0, 0, 0};
    const D3D11_TILE_REGION_SIZE one{1, FALSE, 0, 0, 0};
    const UINT pool_tile = 1;
    REQUIRE(test.context->UpdateTileMappings(texture.get(), 1, &first, &one, pool.get(), 1, nullptr,
                                             &pool_tile, nullptr, 0) == S_OK);
    // The tile's texels: x in red, y in green (its 128x128 texels in tile order).
    std::vector<std::uint32_t> tile(kTile / 4);
    for (std::uint32_t y = 0; y < 128; ++y)
        for (std::uint32_t x = 0; x < 128; ++x) tile[y * 128 + x] = x | y << 8 | 7u << 24;
    test.context->UpdateTiles(texture.get(), &first, &one, tile.data(), 0);
    const auto view = srv(test, texture.get(), nullptr);
    // Words: texel (5, 9) of tile (0, 0), then texel (200, 9) of NULL tile (1, 0).
    const auto words = run(test, R"(cs_5_0
dcl_resource_texture2d (uint,uint,uint,uint) t0
dcl_uav_raw u0
dcl_temps 2
dcl_thread_group 1, 1, 1
ld_indexable(texture2d)(uint,uint,uint,uint) r0.xyzw, l(5, 9, 0, 0), t0.xyzw
ishl r0.y, r0.y, l(8)
ishl r0.w, r0.w, l(24)
or r0.x, r0.x, r0.y
or r1.x, r0.x, r0.w
ld_indexable(texture2d)(uint,uint,uint,uint) r0.xyzw, l(200, 9, 0, 0), t0.xyzw
or r0.x, r0.x, r0.y
or r1.y, r0.x, r0.w
store_raw u0.xy, l(0), r1.xyxx
ret
)",
                           {view.get()}, {}, 2);
    CHECK(words[0] == (5u | 9u << 8 | 7u << 24));
    CHECK(words[1] == 0u);
    check_validation_clean();
}

TEST_CASE("sample_l of a cube: each axis direction reads its own face", "[compute][texture]") {
    TestDevice& test = *hardware_device();
    // Six 1x1 R32_FLOAT faces (+X, -X, +Y, -Y, +Z, -Z) holding 1 to 6.
    const float faces[6] = {1, 2, 3, 4, 5, 6};
    D3D11_SUBRESOURCE_DATA initial[6];
    for (int face = 0; face < 6; ++face) initial[face] = {&faces[face], 4, 0};
    D3D11_TEXTURE2D_DESC desc{1,
                              1,
                              1,
                              6,
                              DXGI_FORMAT_R32_FLOAT,
                              {1, 0},
                              D3D11_USAGE_DEFAULT,
                              D3D11_BIND_SHADER_RESOURCE,
                              0,
                              D3D11_RESOURCE_MISC_TEXTURECUBE};
    Com<ID3D11Texture2D> cube;
    REQUIRE(test.device->CreateTexture2D(&desc, initial, cube.out()) == S_OK);
    D3D11_SHADER_RESOURCE_VIEW_DESC view_desc{};
    view_desc.Format = DXGI_FORMAT_R32_FLOAT;
    view_desc.ViewDimension = D3D11_SRV_DIMENSION_TEXTURECUBE;
    view_desc.TextureCube = {0, 1};
    const auto view = srv(test, cube.get(), &view_desc);
    const auto point = sampler(test, D3D11_FILTER_MIN_MAG_MIP_POINT, D3D11_TEXTURE_ADDRESS_CLAMP);
    const auto words = run(test, R"(cs_5_0
dcl_resource_texturecube (float,float,float,float) t0
dcl_sampler s0, mode_default
dcl_uav_raw u0
dcl_temps 2
dcl_thread_group 1, 1, 1
sample_l_indexable(texturecube)(float,float,float,float) r0.x, l(1.000000, 0.000000, 0.000000, 0.000000), t0.xyzw, s0, l(0.000000)
sample_l_indexable(texturecube)(float,float,float,float) r0.y, l(-1.000000, 0.000000, 0.000000, 0.000000), t0.yxzw, s0, l(0.000000)
sample_l_indexable(texturecube)(float,float,float,float) r0.z, l(0.000000, 1.000000, 0.000000, 0.000000), t0.yzxw, s0, l(0.000000)
sample_l_indexable(texturecube)(float,float,float,float) r0.w, l(0.000000, -1.000000, 0.000000, 0.000000), t0.yzwx, s0, l(0.000000)
sample_l_indexable(texturecube)(float,float,float,float) r1.x, l(0.000000, 0.000000, 1.000000, 0.000000), t0.xyzw, s0, l(0.000000)
sample_l_indexable(texturecube)(float,float,float,float) r1.y, l(0.000000, 0.000000, -1.000000, 0.000000), t0.yxzw, s0, l(0.000000)
store_raw u0.xyzw, l(0), r0.xyzw
store_raw u0.xy, l(16), r1.xyxx
ret
)",
                           {view.get()}, {point.get()}, 6);
    for (int face = 0; face < 6; ++face) {
        INFO("face " << face);
        CHECK(as_float(words[face]) == faces[face]);
    }
    check_validation_clean();
}

TEST_CASE("sample_c_lz of a depth texture compares the reference against each texel",
          "[compute][texture]") {
    TestDevice& test = *hardware_device();
    // A 2x1 depth texture {0.25, 0.75}, read through an R32_FLOAT view.
    const float depths[2] = {0.25f, 0.75f};
    D3D11_TEXTURE2D_DESC desc{2,
                              1,
                              1,
                              1,
                              DXGI_FORMAT_R32_TYPELESS,
                              {1, 0},
                              D3D11_USAGE_DEFAULT,
                              D3D11_BIND_DEPTH_STENCIL | D3D11_BIND_SHADER_RESOURCE,
                              0,
                              0};
    const D3D11_SUBRESOURCE_DATA initial{depths, 8, 0};
    Com<ID3D11Texture2D> depth;
    REQUIRE(test.device->CreateTexture2D(&desc, &initial, depth.out()) == S_OK);
    const auto view = mip0_view(test, depth.get(), DXGI_FORMAT_R32_FLOAT);
    D3D11_SAMPLER_DESC sampler_desc{};
    sampler_desc.Filter = D3D11_FILTER_COMPARISON_MIN_MAG_MIP_POINT;
    sampler_desc.AddressU = sampler_desc.AddressV = sampler_desc.AddressW =
        D3D11_TEXTURE_ADDRESS_CLAMP;
    sampler_desc.ComparisonFunc = D3D11_COMPARISON_LESS;  // passes where reference < texel
    sampler_desc.MaxLOD = D3D11_FLOAT32_MAX;
    Com<ID3D11SamplerState> comparison;
    REQUIRE(test.device->CreateSamplerState(&sampler_desc, comparison.out()) == S_OK);
    // Reference 0.5 at each texel, then 0 at the first.
    const auto words = run(test, R"(cs_5_0
dcl_resource_texture2d (float,float,float,float) t0
dcl_sampler s0, mode_comparison
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 1, 1, 1
sample_c_lz_indexable(texture2d)(float,float,float,float) r0.x, l(0.250000, 0.500000, 0.000000, 0.000000), t0.xxxx, s0, l(0.500000)
sample_c_lz_indexable(texture2d)(float,float,float,float) r0.y, l(0.750000, 0.500000, 0.000000, 0.000000), t0.xxxx, s0, l(0.500000)
sample_c_lz_indexable(texture2d)(float,float,float,float) r0.z, l(0.250000, 0.500000, 0.000000, 0.000000), t0.xxxx, s0, l(0.000000)
mov r0.w, l(0)
store_raw u0.xyzw, l(0), r0.xyzw
ret
)",
                           {view.get()}, {comparison.get()}, 4);
    CHECK(as_float(words[0]) == 0.0f);
    CHECK(as_float(words[1]) == 1.0f);
    CHECK(as_float(words[2]) == 1.0f);
    check_validation_clean();
}

TEST_CASE("ld of a BC1 texture decodes its block's end-point colours", "[compute][texture]") {
    TestDevice& test = *hardware_device();
    // One 4x4 block: colour 0 red and colour 1 blue (RGB565, colour 0 the
    // larger: four-colour mode), row 0 index 1, the other rows index 0.
    const std::uint8_t block[8] = {0x00, 0xf8, 0x1f, 0x00, 0x55, 0x00, 0x00, 0x00};
    const D3D11_TEXTURE2D_DESC desc{
        4, 4, 1, 1, DXGI_FORMAT_BC1_UNORM, {1, 0}, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE,
        0, 0};
    const D3D11_SUBRESOURCE_DATA initial{block, 8, 0};
    Com<ID3D11Texture2D> texture;
    REQUIRE(test.device->CreateTexture2D(&desc, &initial, texture.out()) == S_OK);
    const auto view = srv(test, texture.get(), nullptr);
    // Texel (3, 0) and texel (2, 3): RGBA each.
    const auto words = run(test, R"(cs_5_0
dcl_resource_texture2d (float,float,float,float) t0
dcl_uav_raw u0
dcl_temps 2
dcl_thread_group 1, 1, 1
ld_indexable(texture2d)(float,float,float,float) r0.xyzw, l(3, 0, 0, 0), t0.xyzw
ld_indexable(texture2d)(float,float,float,float) r1.xyzw, l(2, 3, 0, 0), t0.xyzw
store_raw u0.xyzw, l(0), r0.xyzw
store_raw u0.xyzw, l(16), r1.xyzw
ret
)",
                           {view.get()}, {}, 8);
    std::vector<float> texels;
    for (std::uint32_t word : words) texels.push_back(as_float(word));
    CHECK(texels == std::vector<float>{0, 0, 1, 1, 1, 0, 0, 1});
    check_validation_clean();
}

TEST_CASE("A Texture3D UAV of W slices 2 and 3: z 0 and 1 reach those slices",
          "[compute][texture]") {
    TestDevice& test = *hardware_device();
    D3D11_TEXTURE3D_DESC desc{
        4, 4, 4, 1, DXGI_FORMAT_R32_UINT, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0, 0};
    Com<ID3D11Texture3D> volume;
    REQUIRE(test.device->CreateTexture3D(&desc, nullptr, volume.out()) == S_OK);
    D3D11_UNORDERED_ACCESS_VIEW_DESC view{};
    view.Format = DXGI_FORMAT_R32_UINT;
    view.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE3D;
    view.Texture3D = {0, 2, 2};
    Com<ID3D11UnorderedAccessView> uav;
    REQUIRE(test.device->CreateUnorderedAccessView(volume.get(), &view, uav.out()) == S_OK);
    // Each thread writes 1000 + 100 z + 10 y + x, then adds 1 atomically.
    const auto shader = compute_shader(test, R"(cs_5_0
dcl_uav_typed_texture3d (uint,uint,uint,uint) u0
dcl_input vThreadID.xyz
dcl_temps 1
dcl_thread_group 4, 4, 2
imad r0.x, vThreadID.z, l(100), l(1000)
imad r0.x, vThreadID.y, l(10), r0.x
iadd r0.x, r0.x, vThreadID.x
store_uav_typed u0.xyzw, vThreadID.xyzz, r0.xxxx
sync_g_t
atomic_iadd u0, vThreadID.xyzx, l(1)
ret
)");
    test.context->CSSetShader(shader.get(), nullptr, 0);
    ID3D11UnorderedAccessView* uavs[] = {uav.get()};
    test.context->CSSetUnorderedAccessViews(0, 1, uavs, nullptr);
    test.clear_messages();
    test.context->Dispatch(1, 1, 1);
    INFO(test.last_message());
    CHECK(test.messages().empty());
    desc.Usage = D3D11_USAGE_STAGING;
    desc.BindFlags = 0;
    desc.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    Com<ID3D11Texture3D> staging;
    REQUIRE(test.device->CreateTexture3D(&desc, nullptr, staging.out()) == S_OK);
    test.context->CopyResource(staging.get(), volume.get());
    D3D11_MAPPED_SUBRESOURCE mapped{};
    REQUIRE(test.context->Map(staging.get(), 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
    for (UINT z = 0; z < 4; ++z)
        for (UINT y = 0; y < 4; ++y)
            for (UINT x = 0; x < 4; ++x) {
                std::uint32_t word;
                std::memcpy(&word,
                            static_cast<const std::uint8_t*>(mapped.pData) + z * mapped.DepthPitch +
                                y * mapped.RowPitch + x * 4,
                            4);
                INFO("x " << x << " y " << y << " z " << z);
                CHECK(word == (z < 2 ? 0 : 1001 + 100 * (z - 2) + 10 * y + x));
            }
    test.context->Unmap(staging.get(), 0);
    check_validation_clean();
}

TEST_CASE("UpdateSubresource with pitches of 0 reads every row and slice from the same bytes",
          "[texture][update]") {
    TestDevice reference;
    for (TestDevice* test : {hardware_device(), &reference}) {
        // One row of four RGBA8 texels for a 4x4 texture.
        const std::uint32_t row[4] = {0x11223344, 0x55667788, 0x99aabbcc, 0xddeeff00};
        auto texture = test->texture2d(4, 4, DXGI_FORMAT_R8G8B8A8_UNORM, 0);
        test->context->UpdateSubresource1(texture.get(), 0, nullptr, row, 0, 0, 0);
        std::vector<std::uint8_t> bytes;
        REQUIRE(d3dcap::runtime::resource_contents(texture.get(), 0, bytes));
        REQUIRE(bytes.size() == 64);
        for (int y = 0; y < 4; ++y) CHECK(std::memcmp(bytes.data() + y * 16, row, 16) == 0);

        // A 2x2x2 volume: row pitch 8, depth pitch 0 (both slices the same).
        D3D11_TEXTURE3D_DESC desc{2, 2, 2, 1, DXGI_FORMAT_R32_UINT, D3D11_USAGE_DEFAULT, 0, 0, 0};
        Com<ID3D11Texture3D> volume;
        REQUIRE(test->device->CreateTexture3D(&desc, nullptr, volume.out()) == S_OK);
        const std::uint32_t slice[4] = {1, 2, 3, 4};
        test->context->UpdateSubresource(volume.get(), 0, nullptr, slice, 8, 0);
        REQUIRE(d3dcap::runtime::resource_contents(volume.get(), 0, bytes));
        std::vector<std::uint32_t> words(bytes.size() / 4);
        std::memcpy(words.data(), bytes.data(), bytes.size());
        CHECK(words == std::vector<std::uint32_t>{1, 2, 3, 4, 1, 2, 3, 4});
    }
    check_validation_clean();
}
