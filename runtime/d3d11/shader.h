// Shaders keep a copy of their bytecode, which devices that execute shaders
// translate when the shader is created and at each draw or dispatch.
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/backend/backend.h"
#include "runtime/d3d11/device_child.h"

namespace d3dcap::runtime::d3d11 {

class ShaderBase : public DeviceChildBase {
  public:
    ShaderBase(ObjectKind kind, Device& device, const void* bytecode, SIZE_T length)
        : DeviceChildBase(kind, device),
          bytecode_(static_cast<const std::uint8_t*>(bytecode),
                    static_cast<const std::uint8_t*>(bytecode) + length) {}
    const std::vector<std::uint8_t>& bytecode() const { return bytecode_; }
    // CreateGeometryShaderWithStreamOutput: the declaration, its semantic
    // names kept here (a copy of the caller's).
    const backend::StreamOutputDeclaration& stream_output() const { return stream_output_; }
    void keep_stream_output(const backend::StreamOutputDeclaration& declaration) {
        stream_output_ = declaration;
        stream_output_names_.clear();
        for (const D3D11_SO_DECLARATION_ENTRY& entry : declaration.entries)
            stream_output_names_.emplace_back(entry.SemanticName ? entry.SemanticName : "");
        for (std::size_t i = 0; i < stream_output_.entries.size(); ++i)
            if (stream_output_.entries[i].SemanticName)
                stream_output_.entries[i].SemanticName = stream_output_names_[i].c_str();
    }

  private:
    std::vector<std::uint8_t> bytecode_;
    backend::StreamOutputDeclaration stream_output_;
    std::vector<std::string> stream_output_names_;
};

template <class Interface, ObjectKind Kind>
class ShaderObject final : public ChildObject<ShaderBase, Interface> {
  public:
    ShaderObject(Device& device, const void* bytecode, SIZE_T length)
        : ChildObject<ShaderBase, Interface>(Kind, device, bytecode, length) {}
    void* find_interface(REFIID riid) override {
        if (iid_is<Interface, ID3D11DeviceChild, IUnknown>(riid)) {
            return static_cast<Interface*>(this);
        }
        return nullptr;
    }
};

using VertexShader = ShaderObject<ID3D11VertexShader, ObjectKind::VertexShader>;
using HullShader = ShaderObject<ID3D11HullShader, ObjectKind::HullShader>;
using DomainShader = ShaderObject<ID3D11DomainShader, ObjectKind::DomainShader>;
using GeometryShader = ShaderObject<ID3D11GeometryShader, ObjectKind::GeometryShader>;
using PixelShader = ShaderObject<ID3D11PixelShader, ObjectKind::PixelShader>;
using ComputeShader = ShaderObject<ID3D11ComputeShader, ObjectKind::ComputeShader>;

// The program type in a DXBC container's SHDR/SHEX chunk (0 pixel, 1 vertex,
// 2 geometry, 3 hull, 4 domain, 5 compute), or -1 with a reason.
int dxbc_program_type(const void* bytecode, SIZE_T length, std::string& problem);

}  // namespace d3dcap::runtime::d3d11
