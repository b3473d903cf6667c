// libFuzzer on the shader token reader: any bytes as a DXBC container (and
// its token stream alone) must decode or fail with a message, and whatever
// decodes must disassemble, never crash or read out of bounds; the same for
// the container's reflection (RDEF).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "runtime/shader/container.h"
#include "runtime/shader/decoder.h"
#include "runtime/shader/disassembler.h"
#include "runtime/shader/reflection.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::span<const std::uint8_t> bytes(data, size);
    std::string error;
    if (const auto program = d3dcap::runtime::shader::decode_container(bytes, error))
        static_cast<void>(d3dcap::runtime::shader::disassemble(*program));
    if (const auto chunks = d3dcap::runtime::shader::read_container(bytes, error)) {
        d3dcap::runtime::shader::Reflection reflection;
        static_cast<void>(d3dcap::runtime::shader::read_reflection(*chunks, reflection, error));
    }
    // The same bytes as a bare SHEX token stream.
    if (const auto program = d3dcap::runtime::shader::decode(bytes, error))
        static_cast<void>(d3dcap::runtime::shader::disassemble(*program));
    return 0;
}
