// Input layouts.
#include "runtime/d3d11/input_layout.h"

#include "runtime/backend/input_element.h"
#include "runtime/d3d11/device.h"
#include "runtime/d3d11/shader.h"
#include "runtime/formats/format_rules.h"

namespace d3dcap::runtime::d3d11 {

// Input layouts

InputLayout::InputLayout(Device& device, const D3D11_INPUT_ELEMENT_DESC* elements, UINT count)
    : ChildObject(ObjectKind::InputLayout, device) {
    names_.reserve(count);
    for (UINT i = 0; i < count; ++i) names_.emplace_back(elements[i].SemanticName);
    for (UINT i = 0; i < count; ++i) {
        D3D11_INPUT_ELEMENT_DESC element = elements[i];
        element.SemanticName = names_[i].c_str();
        elements_.push_back(element);
    }
    resolved_ = backend::resolve_input_layout(elements_);
}

void* InputLayout::find_interface(REFIID riid) {
    if (iid_is<ID3D11InputLayout, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3D11InputLayout*>(this);
    }
    return nullptr;
}

HRESULT Device::CreateInputLayout(const D3D11_INPUT_ELEMENT_DESC* elements, UINT count,
                                  const void* bytecode, SIZE_T length, ID3D11InputLayout** layout) {
    const char* call = "ID3D11Device::CreateInputLayout";
    if (layout) *layout = nullptr;
    if (count > D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT || (count && !elements)) {
        log_.error(call, "NumElements", std::to_string(count) + " is more than 32");
        return E_INVALIDARG;
    }
    std::string problem;
    if (dxbc_program_type(bytecode, length, problem) < 0) {
        log_.error(call, "pShaderBytecodeWithInputSignature", problem);
        return E_INVALIDARG;
    }
    for (UINT i = 0; i < count; ++i) {
        const auto& element = elements[i];
        const std::string where = "pInputElementDescs[" + std::to_string(i) + "]";
        if (!element.SemanticName) {
            log_.error(call, where + ".SemanticName", "is NULL");
            return E_INVALIDARG;
        }
        if (!formats::vertex_buffer(element.Format)) {
            log_.error(call, where + ".Format",
                       format_name(element.Format) + " is not a vertex format");
            return E_INVALIDARG;
        }
        if (element.InputSlot >= D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT) {
            log_.error(call, where + ".InputSlot",
                       std::to_string(element.InputSlot) + " is not 0..31");
            return E_INVALIDARG;
        }
        if (element.InputSlotClass != D3D11_INPUT_PER_VERTEX_DATA &&
            element.InputSlotClass != D3D11_INPUT_PER_INSTANCE_DATA) {
            log_.error(call, where + ".InputSlotClass",
                       std::to_string(element.InputSlotClass) + " is not a classification");
            return E_INVALIDARG;
        }
        if (element.InputSlotClass == D3D11_INPUT_PER_VERTEX_DATA && element.InstanceDataStepRate) {
            log_.error(call, where + ".InstanceDataStepRate", "must be 0 for per-vertex data");
            return E_INVALIDARG;
        }
    }
    if (!layout) return S_FALSE;
    *layout = new InputLayout(*this, elements, count);
    return S_OK;
}

}  // namespace d3dcap::runtime::d3d11
