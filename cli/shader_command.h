// d3dcap shader: the project's SM4/SM5 assembler and disassembler from the
// command line.
#pragma once

#include <iosfwd>
#include <string>

namespace d3dcap::cli {

struct ShaderOptions {
    std::string input;
    std::string output;  // asm: the DXBC container to write
    bool assemble = false;
};

// asm: assembly text in, a DXBC container out; disasm: a DXBC container in,
// its signatures and instructions printed. 0, or 1 with the problem on err.
int run_shader(const ShaderOptions& options, std::ostream& out, std::ostream& err);

}  // namespace d3dcap::cli
