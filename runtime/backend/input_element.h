// One element of an input layout as draws read it: its APPEND_ALIGNED
// offset resolved.
#pragma once

#include <d3d11.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace d3dcap::runtime::backend {

struct InputElement {
    std::string semantic;
    std::uint32_t semantic_index = 0;
    DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;
    std::uint32_t slot = 0, offset = 0;
    bool per_instance = false;
    std::uint32_t step_rate = 0;
};

// The elements of a layout, each APPEND_ALIGNED offset the end of the
// element before it in its slot.
std::vector<InputElement> resolve_input_layout(std::span<const D3D11_INPUT_ELEMENT_DESC> elements);

}  // namespace d3dcap::runtime::backend
