// Printing a decoded Program as assembly text in fxc's style, one
// instruction a line, blocks indented by two spaces:
//
//   cs_5_0
//   dcl_globalFlags refactoringAllowed
//   dcl_uav_raw u0
//   dcl_input vThreadID.x
//   dcl_temps 1
//   dcl_thread_group 8, 8, 1
//   ishl r0.x, vThreadID.x, l(2)
//   store_raw u0.x, r0.x, vThreadID.x
//   ret
//
// A program decoded from a container starts with its signatures, in the
// directive syntax assembler.h documents (".input POSITION0 v0.xyz float").
// The assembler reads this text back to the same tokens.
#pragma once

#include <string>
#include <string_view>

#include "runtime/shader/program.h"

namespace d3dcap::runtime::shader {

// The whole program: version line, signatures, then every instruction, each
// line ending in '\n'.
std::string disassemble(const Program& program);

// One instruction, without indentation or newline ("mov r0.xyzw, v0.xyzw").
std::string disassemble_instruction(const Instruction& instruction);

// One operand, its immediates printed as `numbers` says ("-|r0.xyzx|",
// "cb0[r1.x + 2].xyzw", "l(1.000000, 0, 0, 0)").
std::string format_operand(const Operand& operand, NumberKind numbers);

// A signature directive line without newline (".output SV_Target0 o0.xyzw
// float target"). `is_output` says which read/write mask is the default.
std::string format_signature_element(std::string_view directive, const SignatureElement& element,
                                     std::string_view register_prefix, bool is_output);

}  // namespace d3dcap::runtime::shader
