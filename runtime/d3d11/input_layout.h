// Input layouts: the elements a draw's vertex buffers feed.
#pragma once

#include <d3d11_2.h>

#include <string>
#include <vector>

#include "runtime/backend/input_element.h"
#include "runtime/d3d11/device_child.h"

namespace d3dcap::runtime::d3d11 {

class InputLayout final : public ChildObject<DeviceChildBase, ID3D11InputLayout> {
  public:
    InputLayout(Device& device, const D3D11_INPUT_ELEMENT_DESC* elements, UINT count);
    void* find_interface(REFIID riid) override;
    const std::vector<D3D11_INPUT_ELEMENT_DESC>& elements() const { return elements_; }
    // The elements as draws read them (offsets resolved once).
    const std::vector<backend::InputElement>& resolved() const { return resolved_; }

  private:
    std::vector<std::string> names_;
    std::vector<D3D11_INPUT_ELEMENT_DESC> elements_;
    std::vector<backend::InputElement> resolved_;
};

}  // namespace d3dcap::runtime::d3d11
