// Class linkage (kept minimal: instances exist, nothing links them).
#pragma once

#include <d3d11_2.h>

#include <string>

#include "runtime/d3d11/device_child.h"

namespace d3dcap::runtime::d3d11 {

class ClassLinkage;

class ClassInstance final : public ChildObject<DeviceChildBase, ID3D11ClassInstance> {
  public:
    ClassInstance(Device& device, ClassLinkage& linkage, std::string type_name,
                  const D3D11_CLASS_INSTANCE_DESC& desc);
    void* find_interface(REFIID riid) override;
    void STDMETHODCALLTYPE GetClassLinkage(ID3D11ClassLinkage** linkage) override;
    void STDMETHODCALLTYPE GetDesc(D3D11_CLASS_INSTANCE_DESC* desc) override {
        if (desc) *desc = desc_;
    }
    void STDMETHODCALLTYPE GetInstanceName(char* name, SIZE_T* length) override;
    void STDMETHODCALLTYPE GetTypeName(char* name, SIZE_T* length) override;

  private:
    Ref<ClassLinkage> linkage_;
    std::string type_name_;
    D3D11_CLASS_INSTANCE_DESC desc_;
};

class ClassLinkage final : public ChildObject<DeviceChildBase, ID3D11ClassLinkage> {
  public:
    explicit ClassLinkage(Device& device) : ChildObject(ObjectKind::ClassLinkage, device) {}
    void* find_interface(REFIID riid) override;
    HRESULT STDMETHODCALLTYPE GetClassInstance(LPCSTR name, UINT index,
                                               ID3D11ClassInstance** instance) override;
    HRESULT STDMETHODCALLTYPE CreateClassInstance(LPCSTR type_name, UINT constant_buffer_offset,
                                                  UINT constant_vector_offset, UINT texture_offset,
                                                  UINT sampler_offset,
                                                  ID3D11ClassInstance** instance) override;

  private:
    UINT next_instance_id_ = 0;
};

// A draw's or dispatch's counts still in the device's command stream (a

}  // namespace d3dcap::runtime::d3d11
