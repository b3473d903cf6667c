// libFuzzer on the Vulkan device's shader translation: any bytes as a DXBC
// container go through the project's checks and, where those pass, through
// vkd3d-shader; either refuses with a message or translates, and nothing
// crashes (vkd3d-shader's assertions included: what reaches them is refused
// before it, naming the instruction).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/backend/vulkan/shader_translator.h"
#include "runtime/shader/dxbc_checksum.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // The checksum made right, or vkd3d-shader refuses every mutation at once.
    std::vector<std::uint8_t> container(data, data + size);
    d3dcap::runtime::shader::write_dxbc_checksum(container);
    d3dcap::runtime::backend::vulkan::ShaderTranslator translator;
    std::string error;
    static_cast<void>(translator.translate(container, error));
    return 0;
}
