// Class linkage (kept minimal: instances exist, nothing links them).
#include "runtime/d3d11/class_linkage.h"

#include <cstring>

#include "runtime/d3d11/device.h"

namespace d3dcap::runtime::d3d11 {

ClassInstance::ClassInstance(Device& device, ClassLinkage& linkage, std::string type_name,
                             const D3D11_CLASS_INSTANCE_DESC& desc)
    : ChildObject(ObjectKind::ClassInstance, device),
      linkage_(&linkage),
      type_name_(std::move(type_name)),
      desc_(desc) {}

void* ClassInstance::find_interface(REFIID riid) {
    if (iid_is<ID3D11ClassInstance, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3D11ClassInstance*>(this);
    }
    return nullptr;
}

void ClassInstance::GetClassLinkage(ID3D11ClassLinkage** linkage) {
    hand_out(linkage, linkage_.get());
}

namespace {

// The string out-parameter convention of ID3D11ClassInstance.
void copy_name(const std::string& value, char* name, SIZE_T* length) {
    if (!length) return;
    if (!name) {
        *length = value.size() + 1;
        return;
    }
    if (*length == 0) return;
    const SIZE_T count = std::min<SIZE_T>(value.size(), *length - 1);
    std::memcpy(name, value.data(), count);
    name[count] = '\0';
    *length = count + 1;
}

}  // namespace

void ClassInstance::GetInstanceName(char* name, SIZE_T* length) {
    copy_name("", name, length);
}
void ClassInstance::GetTypeName(char* name, SIZE_T* length) {
    copy_name(type_name_, name, length);
}

void* ClassLinkage::find_interface(REFIID riid) {
    if (iid_is<ID3D11ClassLinkage, ID3D11DeviceChild, IUnknown>(riid)) {
        return static_cast<ID3D11ClassLinkage*>(this);
    }
    return nullptr;
}

HRESULT ClassLinkage::GetClassInstance(LPCSTR name, UINT, ID3D11ClassInstance** instance) {
    if (instance) *instance = nullptr;
    device().log().error("ID3D11ClassLinkage::GetClassInstance", "pClassInstanceName",
                         std::string(name ? name : "(NULL)") +
                             ": no shader declares instances here (shaders are not linked)");
    return E_INVALIDARG;
}

HRESULT ClassLinkage::CreateClassInstance(LPCSTR type_name, UINT constant_buffer_offset,
                                          UINT constant_vector_offset, UINT texture_offset,
                                          UINT sampler_offset, ID3D11ClassInstance** instance) {
    if (instance) *instance = nullptr;
    if (!type_name || !instance) {
        device().log().error("ID3D11ClassLinkage::CreateClassInstance",
                             !type_name ? "pClassTypeName" : "ppInstance", "is NULL");
        return E_INVALIDARG;
    }
    D3D11_CLASS_INSTANCE_DESC desc{};
    desc.InstanceId = next_instance_id_++;
    desc.ConstantBuffer = constant_buffer_offset;
    desc.BaseConstantBufferOffset = constant_vector_offset;
    desc.BaseTexture = texture_offset;
    desc.BaseSampler = sampler_offset;
    desc.Created = TRUE;
    *instance = new ClassInstance(device(), *this, type_name, desc);
    return S_OK;
}

HRESULT Device::CreateClassLinkage(ID3D11ClassLinkage** linkage) {
    if (!linkage) {
        log_.error("ID3D11Device::CreateClassLinkage", "ppLinkage", "is NULL");
        return E_INVALIDARG;
    }
    *linkage = new ClassLinkage(*this);
    return S_OK;
}

}  // namespace d3dcap::runtime::d3d11
