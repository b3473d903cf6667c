// Fills a decoded Program's declaration summary (program.h) from its
// instructions, holding the declarations to the D3D11 limits (decoder.h's
// `limits`). Used by the decoder; errors name the declaration's offset.
#pragma once

#include <string>

#include "runtime/shader/program.h"

namespace d3dcap::runtime::shader {

bool summarize(Program& program, std::string& error);

}  // namespace d3dcap::runtime::shader
