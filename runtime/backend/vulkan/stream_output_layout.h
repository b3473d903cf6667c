// Stream output as transform feedback. vkd3d-shader 1.2 decorates the
// outputs of the last stage before the rasterizer from a declaration, but
// sums offsets across buffers, crashes on gaps (entries without a semantic)
// and writes an output register whole whatever part of it an entry names.
// So the declaration is laid out here (D3D11's rules: entries packed in
// declaration order per buffer, gaps included), vkd3d-shader gets only the
// entries it handles, and the module's Offset decorations are set to the
// layout's afterwards; what it cannot carry is refused, naming the entry.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/backend/backend.h"
#include "runtime/shader/program.h"

namespace d3dcap::runtime::backend::vulkan {

struct XfbElement {
    std::string semantic;
    std::uint32_t semantic_index = 0;
    std::uint32_t component_count = 0;
    std::uint32_t slot = 0;    // the SO buffer
    std::uint32_t reg = 0;     // the output register
    bool position = false;     // SV_Position (a built-in, not a location)
    std::uint32_t offset = 0;  // bytes into the buffer's vertex
};

struct XfbLayout {
    std::vector<XfbElement> elements;  // the entries with a semantic, in order
    std::array<std::uint32_t, D3D11_SO_BUFFER_SLOT_COUNT> strides{};
};

// Checks a declaration against the stage's output signature and lays it
// out: empty, or why the device cannot stream it.
std::string lay_out_stream_output(const StreamOutputDeclaration& declaration,
                                  const std::vector<shader::SignatureElement>& outputs,
                                  XfbLayout& layout);

// Sets the Offset decoration of every transform-feedback output of a
// SPIR-V module to the layout's: empty, or why it could not.
std::string set_xfb_offsets(std::vector<std::uint32_t>& spirv, const XfbLayout& layout);

}  // namespace d3dcap::runtime::backend::vulkan
