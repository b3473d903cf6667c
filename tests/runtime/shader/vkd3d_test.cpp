// vkd3d-shader, which verifies the DXBC checksum and reads the token
// stream itself, compiles every assembled stage to SPIR-V that spirv-val
// accepts; it refuses a container whose checksum is off.
#include <stddef.h>  // vkd3d_shader.h uses size_t without including it
#include <sys/wait.h>
#include <unistd.h>
#include <vkd3d_shader.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "runtime/shader/assembler.h"
#include "runtime/shader/container.h"
#include "runtime/shader/dxbc_checksum.h"
#include "shader_sources.h"
#include "support/skip.h"

using namespace d3dcap::runtime::shader;

namespace {

struct Compiled {
    int result = VKD3D_ERROR;
    std::string messages;
    std::vector<std::uint8_t> spirv;
};

vkd3d_shader_resource_binding binding(vkd3d_shader_descriptor_type type, unsigned reg,
                                      vkd3d_shader_visibility visibility, unsigned flags,
                                      unsigned slot) {
    vkd3d_shader_resource_binding result{};
    result.type = type;
    result.register_space = 0;
    result.register_index = reg;
    result.shader_visibility = visibility;
    result.flags = flags;
    result.binding.set = 0;
    result.binding.binding = slot;
    result.binding.count = 1;
    return result;
}

// Compiles a container with a full binding table for the registers the test
// shaders use, and the domain shader's tessellator state.
Compiled compile(std::span<const std::uint8_t> container, vkd3d_shader_visibility visibility) {
    const vkd3d_shader_resource_binding bindings[] = {
        binding(VKD3D_SHADER_DESCRIPTOR_TYPE_CBV, 0, visibility, VKD3D_SHADER_BINDING_FLAG_BUFFER,
                0),
        binding(VKD3D_SHADER_DESCRIPTOR_TYPE_SRV, 0, visibility, VKD3D_SHADER_BINDING_FLAG_IMAGE,
                1),
        binding(VKD3D_SHADER_DESCRIPTOR_TYPE_SAMPLER, 0, visibility,
                VKD3D_SHADER_BINDING_FLAG_IMAGE, 2),
        binding(VKD3D_SHADER_DESCRIPTOR_TYPE_UAV, 0, visibility, VKD3D_SHADER_BINDING_FLAG_BUFFER,
                3),
    };
    vkd3d_shader_spirv_domain_shader_target_info domain{};
    domain.type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_DOMAIN_SHADER_TARGET_INFO;
    domain.output_primitive = VKD3D_SHADER_TESSELLATOR_OUTPUT_TRIANGLE_CW;
    domain.partitioning = VKD3D_SHADER_TESSELLATOR_PARTITIONING_INTEGER;
    vkd3d_shader_interface_info interface {};
    interface.type = VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO;
    interface.next = visibility == VKD3D_SHADER_VISIBILITY_DOMAIN ? &domain : nullptr;
    interface.bindings = bindings;
    interface.binding_count = sizeof bindings / sizeof bindings[0];
    vkd3d_shader_compile_info info{};
    info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
    info.next = &interface;
    info.source.code = container.data();
    info.source.size = container.size();
    info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
    info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
    info.log_level = VKD3D_SHADER_LOG_WARNING;
    vkd3d_shader_code out{};
    char* messages = nullptr;
    Compiled compiled;
    compiled.result = vkd3d_shader_compile(&info, &out, &messages);
    if (messages) compiled.messages = messages;
    vkd3d_shader_free_messages(messages);
    if (compiled.result == VKD3D_OK) {
        const auto* code = static_cast<const std::uint8_t*>(out.code);
        compiled.spirv.assign(code, code + out.size);
        vkd3d_shader_free_shader_code(&out);
    }
    return compiled;
}

// spirv-val's exit status on the module, or -1 without spirv-val.
int spirv_val(const std::vector<std::uint8_t>& spirv) {
    if (access("/usr/bin/spirv-val", X_OK) != 0) return -1;
    char path[] = "/tmp/d3dcap-shader-XXXXXX";
    const int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    close(fd);
    {
        std::ofstream file(path, std::ios::binary);
        file.write(reinterpret_cast<const char*>(spirv.data()),
                   static_cast<std::streamsize>(spirv.size()));
    }
    const std::string command = std::string("/usr/bin/spirv-val --target-env vulkan1.0 ") + path;
    const int status = std::system(command.c_str());
    std::remove(path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

void check_stage(std::string_view text, vkd3d_shader_visibility visibility) {
    const AssembleResult assembled = assemble(text);
    INFO(assembled.error);
    REQUIRE(assembled.ok());
    const Compiled compiled = compile(assembled.container, visibility);
    INFO(compiled.messages);
    REQUIRE(compiled.result == VKD3D_OK);
    REQUIRE(compiled.spirv.size() > 20);
    CHECK(compiled.spirv[0] == 0x03);  // SPIR-V magic 0x07230203, little-endian
    CHECK(compiled.spirv[3] == 0x07);
    const int validation = spirv_val(compiled.spirv);
    if (validation == -1)
        test_support::missing_dependency(
            "no /usr/bin/spirv-val (spirv-tools): SPIR-V not validated");
    CHECK(validation == 0);
}

}  // namespace

TEST_CASE("vkd3d-shader compiles the vertex shader") {
    check_stage(shader_tests::kVertexShader, VKD3D_SHADER_VISIBILITY_VERTEX);
}
TEST_CASE("vkd3d-shader compiles the pixel shader") {
    check_stage(shader_tests::kPixelShader, VKD3D_SHADER_VISIBILITY_PIXEL);
}
TEST_CASE("vkd3d-shader compiles the compute shader") {
    check_stage(shader_tests::kComputeShader, VKD3D_SHADER_VISIBILITY_COMPUTE);
}
TEST_CASE("vkd3d-shader compiles the geometry shader") {
    check_stage(shader_tests::kGeometryShader, VKD3D_SHADER_VISIBILITY_GEOMETRY);
}
TEST_CASE("vkd3d-shader compiles the hull shader") {
    check_stage(shader_tests::kHullShader, VKD3D_SHADER_VISIBILITY_HULL);
}
TEST_CASE("vkd3d-shader compiles the domain shader") {
    check_stage(shader_tests::kDomainShader, VKD3D_SHADER_VISIBILITY_DOMAIN);
}

TEST_CASE("vkd3d-shader refuses a container whose checksum is off") {
    const AssembleResult assembled = assemble(shader_tests::kComputeShader);
    REQUIRE(assembled.ok());
    std::vector<std::uint8_t> container = assembled.container;
    container[4] ^= 0x01;
    const Compiled compiled = compile(container, VKD3D_SHADER_VISIBILITY_COMPUTE);
    CHECK(compiled.result == VKD3D_ERROR_INVALID_ARGUMENT);
    CHECK(compiled.messages.find("Invalid DXBC checksum") != std::string::npos);
}

TEST_CASE("vkd3d-shader accepts the checksum for every length of the last block") {
    // A filler chunk of 0..63 bytes puts the hashed length (size - 20) at
    // every remainder modulo 64, both sides of the 56-byte boundary.
    const AssembleResult assembled = assemble(shader_tests::kComputeShader);
    REQUIRE(assembled.ok());
    std::string error;
    const auto chunks = read_container(assembled.container, error);
    REQUIRE(chunks);
    std::vector<int> remainders;
    for (std::size_t filler = 0; filler < 64; filler += 4) {
        for (std::size_t extra : {0u, 1u, 2u, 3u}) {
            std::vector<ChunkToWrite> rebuilt;
            for (const ContainerChunk& chunk : *chunks)
                rebuilt.push_back(
                    {std::string_view(chunk.fourcc, 4),
                     std::vector<std::uint8_t>(chunk.data.begin(), chunk.data.end())});
            rebuilt.push_back({"FILL", std::vector<std::uint8_t>(filler, 0xab)});
            std::vector<std::uint8_t> container = write_container(rebuilt);
            // Trailing bytes past the last chunk are hashed too.
            container.resize(container.size() + extra, 0xcd);
            const auto total = static_cast<std::uint32_t>(container.size());
            std::memcpy(container.data() + 24, &total, 4);
            write_dxbc_checksum(container);
            remainders.push_back(static_cast<int>((container.size() - 20) % 64));
            const Compiled compiled = compile(container, VKD3D_SHADER_VISIBILITY_COMPUTE);
            INFO("container of " << container.size() << " bytes: " << compiled.messages);
            CHECK(compiled.result == VKD3D_OK);
        }
    }
    std::sort(remainders.begin(), remainders.end());
    remainders.erase(std::unique(remainders.begin(), remainders.end()), remainders.end());
    CHECK(remainders.size() == 64);
}
