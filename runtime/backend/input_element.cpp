// Input layouts as draws read them.
#include "runtime/backend/input_element.h"

#include <algorithm>
#include <array>

#include "runtime/formats/formats.h"

namespace d3dcap::runtime::backend {

std::vector<InputElement> resolve_input_layout(std::span<const D3D11_INPUT_ELEMENT_DESC> elements) {
    std::vector<InputElement> out;
    std::array<std::uint32_t, D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT> ends{};
    for (const D3D11_INPUT_ELEMENT_DESC& e : elements) {
        InputElement element;
        element.semantic = e.SemanticName ? e.SemanticName : "";
        element.semantic_index = e.SemanticIndex;
        element.format = e.Format;
        element.slot = e.InputSlot;
        const std::uint32_t slot = std::min<std::uint32_t>(e.InputSlot, ends.size() - 1);
        element.offset =
            e.AlignedByteOffset == D3D11_APPEND_ALIGNED_ELEMENT ? ends[slot] : e.AlignedByteOffset;
        ends[slot] = element.offset + formats::info(e.Format).bits_per_element / 8;
        element.per_instance = e.InputSlotClass == D3D11_INPUT_PER_INSTANCE_DATA;
        element.step_rate = e.InstanceDataStepRate;
        out.push_back(std::move(element));
    }
    return out;
}

}  // namespace d3dcap::runtime::backend
