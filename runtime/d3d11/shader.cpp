// Shaders: the bytecode kept (devices that execute shaders translate it), and
// the Create*Shader calls that check its program type.
#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/d3d11/device.h"
#include "runtime/formats/format_rules.h"
#include "runtime/formats/formats.h"
#include "runtime/shader/container.h"

namespace d3dcap::runtime::d3d11 {

namespace {

std::span<const std::uint8_t> bytes_of(const void* bytecode, SIZE_T length) {
    return {static_cast<const std::uint8_t*>(bytecode), bytecode ? length : 0};
}

}  // namespace

int dxbc_program_type(const void* bytecode, SIZE_T length, std::string& problem) {
    const auto chunks = shader::read_container(bytes_of(bytecode, length), problem);
    return chunks ? shader::program_type(*chunks, problem) : -1;
}

namespace {

const char* program_name(int type) {
    switch (type) {
        case 0:
            return "pixel";
        case 1:
            return "vertex";
        case 2:
            return "geometry";
        case 3:
            return "hull";
        case 4:
            return "domain";
        case 5:
            return "compute";
        default:
            return "unknown";
    }
}

// Writing the render-target array index or viewport index from a shader
// that feeds the rasterizer without a geometry shader (vertex, domain) is a
// D3D11.3 feature (VPAndRTArrayIndexFromAnyShaderFeedingRasterizer in
// D3D11_OPTIONS3), which this D3D11.2 runtime does not report.
std::string d3d11_3_output(const void* bytecode, SIZE_T length, int type) {
    if (type != 1 && type != 4) return {};
    std::string problem;
    const auto chunks = shader::read_container(bytes_of(bytecode, length), problem);
    std::vector<shader::SignatureElement> outputs;
    if (!chunks || !shader::output_signature(*chunks, outputs, problem)) return problem;
    for (const auto& output : outputs) {
        if (output.system_value == D3D_NAME_RENDER_TARGET_ARRAY_INDEX ||
            output.system_value == D3D_NAME_VIEWPORT_ARRAY_INDEX) {
            return std::string("writes ") + output.semantic_name + " from a " + program_name(type) +
                   " shader, a D3D11.3 feature (VPAndRTArrayIndexFromAnyShaderFeedingRasterizer) "
                   "that this device does not report";
        }
    }
    return {};
}

// The program types (D3D10_SB_*_SHADER) a Create* call takes, one bit each.
constexpr unsigned type_bit(int type) {
    return 1u << type;
}

// "a geometry, vertex or domain shader": the types in `accepted`, the first
// one named first.
std::string accepted_names(int first, unsigned accepted) {
    std::string names = program_name(first);
    std::vector<std::string> others;
    for (int type = 0; type <= 5; ++type)
        if (type != first && (accepted & type_bit(type))) others.push_back(program_name(type));
    for (std::size_t i = 0; i < others.size(); ++i)
        names += (i + 1 == others.size() ? " or " : ", ") + others[i];
    return "a " + names + " shader";
}

// expected_type is the call's own stage; `also` adds the other stages whose
// bytecode it takes (stream output after a vertex or domain shader).
template <class T>
HRESULT create_shader(Device& device, const char* call, int expected_type, const void* bytecode,
                      SIZE_T length, T** shader, unsigned also = 0,
                      const backend::StreamOutputDeclaration* stream_output = nullptr) {
    if (shader) *shader = nullptr;
    std::string problem;
    const int type = dxbc_program_type(bytecode, length, problem);
    if (type < 0) {
        device.log().error(call, "pShaderBytecode", problem);
        return E_INVALIDARG;
    }
    if (!((type_bit(expected_type) | also) & type_bit(type))) {
        device.log().error(call, "pShaderBytecode",
                           std::string("holds a ") + program_name(type) + " shader, not " +
                               accepted_names(expected_type, type_bit(expected_type) | also));
        return E_INVALIDARG;
    }
    if (const std::string why = d3d11_3_output(bytecode, length, type); !why.empty()) {
        device.log().error(call, "pShaderBytecode", why);
        return E_INVALIDARG;
    }
    if (!shader) return S_FALSE;
    *shader = new T(device, bytecode, length);
    // Windows takes the shader; say now when this device cannot run it.
    if (device.backend().executes_shaders()) {
        const std::string why =
            device.backend().prepare_shader(bytes_of(bytecode, length), stream_output);
        if (!why.empty())
            device.log().error(
                call, "pShaderBytecode",
                "the device cannot run this shader: " + why + "; work with it is not executed");
    }
    return S_OK;
}

// create_shader for a Create*Shader method, whose out pointer is of the
// interface type.
template <class T, class Interface>
HRESULT create_shader_as(Device& device, const char* call, int expected_type, const void* bytecode,
                         SIZE_T length, Interface** shader) {
    T* created = nullptr;
    HRESULT hr =
        create_shader(device, call, expected_type, bytecode, length, shader ? &created : nullptr);
    if (shader) *shader = created;
    return hr;
}

}  // namespace

HRESULT Device::CreateVertexShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage*,
                                   ID3D11VertexShader** shader) {
    return create_shader_as<VertexShader>(*this, "ID3D11Device::CreateVertexShader", 1, bytecode,
                                          length, shader);
}

HRESULT Device::CreatePixelShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage*,
                                  ID3D11PixelShader** shader) {
    return create_shader_as<PixelShader>(*this, "ID3D11Device::CreatePixelShader", 0, bytecode,
                                         length, shader);
}

HRESULT Device::CreateGeometryShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage*,
                                     ID3D11GeometryShader** shader) {
    return create_shader_as<GeometryShader>(*this, "ID3D11Device::CreateGeometryShader", 2,
                                            bytecode, length, shader);
}

HRESULT Device::CreateHullShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage*,
                                 ID3D11HullShader** shader) {
    return create_shader_as<HullShader>(*this, "ID3D11Device::CreateHullShader", 3, bytecode,
                                        length, shader);
}

HRESULT Device::CreateDomainShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage*,
                                   ID3D11DomainShader** shader) {
    return create_shader_as<DomainShader>(*this, "ID3D11Device::CreateDomainShader", 4, bytecode,
                                          length, shader);
}

HRESULT Device::CreateComputeShader(const void* bytecode, SIZE_T length, ID3D11ClassLinkage*,
                                    ID3D11ComputeShader** shader) {
    return create_shader_as<ComputeShader>(*this, "ID3D11Device::CreateComputeShader", 5, bytecode,
                                           length, shader);
}

HRESULT Device::CreateGeometryShaderWithStreamOutput(const void* bytecode, SIZE_T length,
                                                     const D3D11_SO_DECLARATION_ENTRY* entries,
                                                     UINT entry_count, const UINT* strides,
                                                     UINT stride_count, UINT rasterized_stream,
                                                     ID3D11ClassLinkage*,
                                                     ID3D11GeometryShader** shader) {
    const char* call = "ID3D11Device::CreateGeometryShaderWithStreamOutput";
    if (shader) *shader = nullptr;
    if (entry_count == 0 || entry_count > 64 || !entries) {
        log_.error(call, "NumEntries",
                   std::to_string(entry_count) + " entries; 1..64 with a declaration are needed");
        return E_INVALIDARG;
    }
    if (stride_count > D3D11_SO_BUFFER_SLOT_COUNT || (stride_count && !strides)) {
        log_.error(call, "NumStrides", std::to_string(stride_count) + " is more than 4");
        return E_INVALIDARG;
    }
    if (rasterized_stream >= 4 && rasterized_stream != D3D11_SO_NO_RASTERIZED_STREAM) {
        log_.error(call, "RasterizedStream", std::to_string(rasterized_stream) + " is not 0..3");
        return E_INVALIDARG;
    }
    for (UINT i = 0; i < entry_count; ++i) {
        if (entries[i].Stream >= 4 || entries[i].OutputSlot >= 4) {
            log_.error(call, "pSODeclaration[" + std::to_string(i) + "]",
                       "has a stream or output slot outside 0..3");
            return E_INVALIDARG;
        }
    }
    backend::StreamOutputDeclaration declaration;
    declaration.entries.assign(entries, entries + entry_count);
    std::copy(strides, strides + stride_count, declaration.strides.begin());
    declaration.rasterized_stream = rasterized_stream;
    GeometryShader* created = nullptr;
    // Stream output with no geometry shader takes the vertex or domain
    // shader's bytecode (its output signature), as Windows does.
    HRESULT hr = create_shader(*this, call, 2, bytecode, length, shader ? &created : nullptr,
                               type_bit(1) | type_bit(4), &declaration);
    if (!created) return hr;
    created->keep_stream_output(declaration);
    *shader = created;
    return hr;
}

}  // namespace d3dcap::runtime::d3d11
