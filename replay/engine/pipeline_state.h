// The pipeline state of a device context as rows of a tree, read through
// the standard Get* calls: the input assembler (layout with its elements,
// vertex and index buffers), each shader stage (the shader by recorded id,
// its disassembly from the project's token reader, constant buffers with
// their windows and values, views, samplers, UAVs), the rasterizer
// (state, viewports, scissors) and the output merger (blend and
// depth-stencil states, render targets, depth-stencil view). What a draw
// or dispatch ran with is this state after its event.
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace d3dcap::replay {

struct StateRow {
    std::uint32_t depth = 0;  // 0: a section; deeper rows belong to the row above
    std::string name, value;
    bool operator==(const StateRow&) const = default;
};

// The trace's name of a replayed object: "#12", or "albedo #12" with a
// debug name; "" for objects replay does not know.
using ObjectLabel = std::function<std::string(IUnknown* object)>;

std::vector<StateRow> pipeline_rows(ID3D11DeviceContext* context, const ObjectLabel& label);

}  // namespace d3dcap::replay
