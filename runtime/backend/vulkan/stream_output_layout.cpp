#include "runtime/backend/vulkan/stream_output_layout.h"

#include <bit>

#include "runtime/shader/signature_names.h"

namespace d3dcap::runtime::backend::vulkan {
namespace {

constexpr std::uint32_t kSystemValuePosition = 1;  // D3D_NAME_POSITION

std::string entry_name(std::size_t index, const D3D11_SO_DECLARATION_ENTRY& entry) {
    std::string name = "stream-output entry " + std::to_string(index);
    if (entry.SemanticName != nullptr)
        name += " (" + std::string(entry.SemanticName) + std::to_string(entry.SemanticIndex) + ")";
    return name;
}

// The components the stage writes to a register on a stream: the union of
// the masks of the signature elements packed into it.
std::uint8_t register_mask(const std::vector<shader::SignatureElement>& outputs, std::uint32_t reg,
                           std::uint32_t stream) {
    std::uint8_t mask = 0;
    for (const shader::SignatureElement& e : outputs)
        if (e.register_index == reg && e.stream == stream) mask |= e.mask;
    return mask;
}

}  // namespace

std::string lay_out_stream_output(const StreamOutputDeclaration& declaration,
                                  const std::vector<shader::SignatureElement>& outputs,
                                  XfbLayout& layout) {
    layout = {};
    std::array<std::uint32_t, D3D11_SO_BUFFER_SLOT_COUNT> ends{};
    for (std::size_t i = 0; i < declaration.entries.size(); ++i) {
        const D3D11_SO_DECLARATION_ENTRY& entry = declaration.entries[i];
        const std::string name = entry_name(i, entry);
        if (entry.OutputSlot >= ends.size() || entry.ComponentCount == 0 ||
            entry.StartComponent + entry.ComponentCount > 4)
            return name + " has an output slot or components out of range";
        if (entry.Stream != 0)
            return name + " is on stream " + std::to_string(entry.Stream) +
                   ", and vkd3d-shader 1.2 drops geometry-shader streams other than 0";
        const std::uint32_t offset = ends[entry.OutputSlot];
        ends[entry.OutputSlot] += 4 * entry.ComponentCount;
        if (entry.SemanticName == nullptr) continue;  // a gap: skipped bytes

        const shader::SignatureElement* output = nullptr;
        for (const shader::SignatureElement& e : outputs)
            if (e.stream == entry.Stream && e.semantic_index == entry.SemanticIndex &&
                shader::equal_ignoring_case(e.semantic_name, entry.SemanticName))
                output = &e;
        if (output == nullptr) return name + " names no output of the shader";
        if (output->system_value != 0 && output->system_value != kSystemValuePosition)
            return name + " streams a system value other than SV_Position, which is not carried";
        const std::uint8_t mask = register_mask(outputs, output->register_index, entry.Stream);
        const std::uint32_t width =
            32u - static_cast<std::uint32_t>(std::countl_zero(static_cast<std::uint32_t>(mask)));
        if (entry.StartComponent != 0 || entry.ComponentCount != width ||
            mask != (1u << width) - 1u)
            return name + " streams part of output register o" +
                   std::to_string(output->register_index) + ", which vkd3d-shader 1.2 writes whole";
        for (const XfbElement& earlier : layout.elements)
            if (earlier.reg == output->register_index)
                return name + " streams output register o" +
                       std::to_string(output->register_index) + " a second time";
        XfbElement element;
        element.semantic = entry.SemanticName;
        element.semantic_index = entry.SemanticIndex;
        element.component_count = entry.ComponentCount;
        element.slot = entry.OutputSlot;
        element.reg = output->register_index;
        element.position = output->system_value == kSystemValuePosition;
        element.offset = offset;
        layout.elements.push_back(std::move(element));
    }
    for (std::size_t slot = 0; slot < ends.size(); ++slot) {
        const std::uint32_t stride = declaration.strides[slot];
        if (stride != 0 && stride < ends[slot])
            return "the entries of stream-output buffer " + std::to_string(slot) + " take " +
                   std::to_string(ends[slot]) + " bytes, more than its stride of " +
                   std::to_string(stride);
        layout.strides[slot] = stride != 0 ? stride : ends[slot];
    }
    if (layout.elements.empty()) return "the stream-output declaration streams no output";
    return {};
}

std::string set_xfb_offsets(std::vector<std::uint32_t>& spirv, const XfbLayout& layout) {
    constexpr std::uint32_t kOpDecorate = 71;
    constexpr std::uint32_t kBuiltIn = 11, kLocation = 30, kOffset = 35, kXfbBuffer = 36;
    constexpr std::uint32_t kBuiltInPosition = 0;
    struct Output {
        std::int64_t location = -1;
        bool position = false;
        std::int64_t buffer = -1;
        std::size_t offset_word = 0;  // 0: no Offset decoration
    };
    std::vector<std::pair<std::uint32_t, Output>> outputs;  // by id, in decoration order
    auto output_of = [&](std::uint32_t id) -> Output& {
        for (auto& [known, output] : outputs)
            if (known == id) return output;
        return outputs.emplace_back(id, Output{}).second;
    };
    for (std::size_t at = 5; at < spirv.size();) {
        const std::uint32_t words = spirv[at] >> 16, opcode = spirv[at] & 0xffff;
        if (words == 0 || at + words > spirv.size()) return "the translated module is malformed";
        if (opcode == kOpDecorate && words >= 4) {
            const std::uint32_t decoration = spirv[at + 2], value = spirv[at + 3];
            if (decoration == kLocation) output_of(spirv[at + 1]).location = value;
            if (decoration == kBuiltIn && value == kBuiltInPosition)
                output_of(spirv[at + 1]).position = true;
            if (decoration == kXfbBuffer) output_of(spirv[at + 1]).buffer = value;
            if (decoration == kOffset) output_of(spirv[at + 1]).offset_word = at + 3;
        }
        at += words;
    }
    std::size_t streamed = 0;
    for (const auto& [id, output] : outputs) {
        if (output.buffer < 0 || output.offset_word == 0) continue;
        ++streamed;
        const XfbElement* element = nullptr;
        for (const XfbElement& e : layout.elements)
            if (e.slot == output.buffer &&
                (output.position ? e.position : !e.position && e.reg == output.location))
                element = &e;
        if (element == nullptr)
            return "vkd3d-shader streamed an output the declaration does not name (id " +
                   std::to_string(id) + ")";
        spirv[output.offset_word] = element->offset;
    }
    if (streamed != layout.elements.size())
        return "vkd3d-shader streamed " + std::to_string(streamed) + " of the declaration's " +
               std::to_string(layout.elements.size()) + " outputs";
    return {};
}

}  // namespace d3dcap::runtime::backend::vulkan
