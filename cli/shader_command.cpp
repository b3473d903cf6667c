#include "shader_command.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <vector>

#include "runtime/shader/assembler.h"
#include "runtime/shader/container.h"
#include "runtime/shader/decoder.h"
#include "runtime/shader/disassembler.h"
#include "runtime/shader/reflection.h"

namespace d3dcap::cli {

int run_shader(const ShaderOptions& options, std::ostream& out, std::ostream& err) {
    const char* command = options.assemble ? "d3dcap shader asm" : "d3dcap shader disasm";
    std::ifstream file(options.input, std::ios::binary);
    if (!file) {
        err << command << ": " << options.input << ": cannot open\n";
        return 1;
    }
    const std::vector<char> bytes{std::istreambuf_iterator<char>(file), {}};
    if (options.assemble) {
        const auto result = runtime::shader::assemble(std::string_view(bytes.data(), bytes.size()));
        if (!result.ok()) {
            err << command << ": " << options.input << ": " << result.error << "\n";
            return 1;
        }
        std::ofstream written(options.output, std::ios::binary);
        written.write(reinterpret_cast<const char*>(result.container.data()),
                      static_cast<std::streamsize>(result.container.size()));
        if (!written) {
            err << command << ": " << options.output << ": cannot write\n";
            return 1;
        }
        out << options.output << ": " << result.container.size() << " bytes, "
            << result.tokens.size() << " tokens\n";
        return 0;
    }
    std::string error;
    const auto program = runtime::shader::decode_container(
        std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), error);
    if (!program) {
        err << command << ": " << options.input << ": " << error << "\n";
        return 1;
    }
    // The reflection's lines after the version line, as the assembler takes them.
    std::string text = runtime::shader::disassemble(*program);
    const auto chunks = runtime::shader::read_container(
        std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), error);
    runtime::shader::Reflection reflection;
    if (chunks && runtime::shader::read_reflection(*chunks, reflection, error)) {
        text.insert(text.find('\n') + 1, runtime::shader::reflection_text(reflection));
    } else if (!error.empty()) {
        err << command << ": " << options.input << ": " << error << " (no reflection printed)\n";
    }
    out << text;
    return 0;
}

}  // namespace d3dcap::cli
