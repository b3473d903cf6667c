#include "runtime/shader/assembler.h"

#include <cctype>

#include "runtime/shader/assembler_parser.h"
#include "runtime/shader/container.h"
#include "runtime/shader/reflection.h"
#include "runtime/shader/signature_names.h"

namespace d3dcap::runtime::shader {

namespace {

using assembly::AssemblyError;
using assembly::AssemblyState;
using assembly::Parser;
using assembly::Token;

bool all_digits(std::string_view text) {
    if (text.empty()) return false;
    for (const char c : text)
        if (c < '0' || c > '9') return false;
    return true;
}

std::uint32_t small_number(const Parser& parser, const Token& at, std::string_view digits) {
    if (!all_digits(digits) || digits.size() > 9)
        parser.fail(at, "'" + std::string(digits) + "' is not a number");
    std::uint32_t value = 0;
    for (const char c : digits) value = value * 10 + static_cast<std::uint32_t>(c - '0');
    return value;
}

// "vs_5_0": the program type and shader model.
void parse_version(Parser& parser, AssemblyState& state) {
    const Token& token = parser.peek();
    const std::string_view text = token.text;
    const auto fail = [&] {
        parser.fail(
            token,
            "the first line must be the shader version (vs_5_0, ps_4_0, cs_5_0, ...), found " +
                assembly::describe(token));
    };
    if (token.kind != Token::Kind::Identifier || text.size() != 6 || text[2] != '_' ||
        text[4] != '_')
        fail();
    const auto type = parse_program_type_prefix(text.substr(0, 2));
    if (!type || !std::isdigit(static_cast<unsigned char>(text[3])) ||
        !std::isdigit(static_cast<unsigned char>(text[5])))
        fail();
    state.type = *type;
    state.major = static_cast<std::uint32_t>(text[3] - '0');
    state.minor = static_cast<std::uint32_t>(text[5] - '0');
    const bool model4 = state.major == 4 && state.minor <= 1;
    const bool model5 = state.major == 5 && state.minor == 0;
    if (!model4 && !model5)
        parser.fail(token, "shader model " + std::to_string(state.major) + "." +
                               std::to_string(state.minor) + " is not 4.0, 4.1 or 5.0");
    if (model4 && (state.type == ProgramType::Hull || state.type == ProgramType::Domain))
        parser.fail(token, "hull and domain shaders need shader model 5.0");
    parser.next();
}

std::uint8_t parse_signature_mask(const Parser& parser, const Token& token) {
    std::uint8_t mask = 0;
    int last = -1;
    for (const char c : token.text) {
        const int component = std::string_view("xyzw").find(c) == std::string_view::npos
                                  ? -1
                                  : static_cast<int>(std::string_view("xyzw").find(c));
        if (component <= last)
            parser.fail(token,
                        "'" + std::string(token.text) + "' is not a mask (x, y, z, w in order)");
        mask |= static_cast<std::uint8_t>(1 << component);
        last = component;
    }
    return mask;
}

// ".input NAME REGISTER[.MASK] [TYPE] [SYSTEM_VALUE] [used MASK] [stream N]"
SignatureElement parse_signature_element(Parser& parser, bool default_used_is_mask) {
    SignatureElement element;
    const Token& name = parser.expect_identifier("a semantic name (TEXCOORD0)");
    std::size_t digits = name.text.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(name.text[digits - 1]))) --digits;
    if (digits == 0) parser.fail(name, "a semantic name needs letters");
    element.semantic_name = std::string(name.text.substr(0, digits));
    if (digits < name.text.size())
        element.semantic_index = small_number(parser, name, name.text.substr(digits));
    const Token& reg = parser.expect_identifier("a register (v0, o1, oDepth, none)");
    std::size_t letters = 0;
    while (letters < reg.text.size() && std::isalpha(static_cast<unsigned char>(reg.text[letters])))
        ++letters;
    element.register_index = letters == reg.text.size()
                                 ? 0xffffffffu
                                 : small_number(parser, reg, reg.text.substr(letters));
    if (parser.accept('.'))
        element.mask = parse_signature_mask(parser, parser.expect_identifier("a mask"));
    static constexpr std::string_view kTypes[] = {"unknown", "uint", "int", "float"};
    element.component_type = ComponentType::Float;
    for (std::size_t i = 0; i < 4; ++i)
        if (parser.peek().is_word(kTypes[i])) {
            element.component_type = static_cast<ComponentType>(i);
            parser.next();
        }
    element.system_value = implied_system_value(element.semantic_name);
    const Token& value = parser.peek();
    if (value.kind == Token::Kind::Number) {
        element.system_value = small_number(parser, value, value.text);
        parser.next();
    } else if (value.is_word("none")) {
        element.system_value = 0;
        parser.next();
    } else if (value.kind == Token::Kind::Identifier && !value.is_word("used") &&
               !value.is_word("stream") && !value.is_word("precision")) {
        const auto parsed = parse_signature_system_value(value.text);
        if (!parsed) parser.fail(value, "'" + std::string(value.text) + "' is not a system value");
        element.system_value = *parsed;
        parser.next();
    }
    element.read_write_mask = default_used_is_mask ? element.mask : 0;
    while (!parser.at_statement_end()) {
        const Token& key = parser.expect_identifier("used, stream or the end of the line");
        if (key.text == "used") {
            const Token& mask = parser.expect_identifier("a mask or none");
            element.read_write_mask = mask.text == "none" ? 0 : parse_signature_mask(parser, mask);
        } else if (key.text == "stream") {
            const Token& number = parser.next();
            element.stream = small_number(parser, number, number.text);
            if (element.stream > 3)
                parser.fail(number, "stream " + std::to_string(element.stream) + " is past 3");
        } else if (key.text == "precision") {
            parser.fail(key, "minimum-precision signatures (ISG1/OSG1) are not written");
        } else {
            parser.fail(key, "expected used, stream or the end of the line, found " +
                                 assembly::describe(key));
        }
    }
    return element;
}

// ".cbuffer NAME bN SIZE": a constant buffer of the reflection, bound at
// register bN, SIZE bytes.
void parse_constant_buffer(Parser& parser, Reflection& reflection) {
    const Token& name = parser.expect_identifier("a constant buffer's name");
    const Token& reg = parser.expect_identifier("a register (b0)");
    if (reg.text.size() < 2 || reg.text[0] != 'b')
        parser.fail(reg, "'" + std::string(reg.text) + "' is not a constant buffer register (b0)");
    const Token& size = parser.next();
    ReflectedConstantBuffer cb;
    cb.name = std::string(name.text);
    cb.size = small_number(parser, size, size.text);
    ReflectedBinding binding;
    binding.name = cb.name;
    binding.bind_point = small_number(parser, reg, reg.text.substr(1));
    reflection.constant_buffers.push_back(std::move(cb));
    reflection.bindings.push_back(std::move(binding));
}

// ".variable NAME OFFSET TYPE[[ELEMENTS]]": a variable of the constant
// buffer declared last; TYPE is bool, int, uint, float or double, then N
// (a vector) or RxC (a column-major matrix), as HLSL names them.
void parse_variable(Parser& parser, Reflection& reflection) {
    const Token& name = parser.expect_identifier("a variable's name");
    if (reflection.constant_buffers.empty())
        parser.fail(name, "a .variable needs a .cbuffer before it");
    const Token& offset = parser.next();
    const Token& type_token = parser.expect_identifier("a type (float4, float4x4, uint ...)");
    ReflectedVariable variable;
    variable.name = std::string(name.text);
    variable.offset = small_number(parser, offset, offset.text);
    ReflectedType& type = variable.type;
    static constexpr std::pair<std::string_view, std::uint16_t> kBases[] = {
        {"double", 39}, {"float", 3}, {"uint", 19}, {"bool", 1}, {"int", 2}};
    std::string_view rest;
    for (const auto& [base, value] : kBases) {
        if (type_token.text.substr(0, base.size()) == base) {
            type.base_type = value;
            rest = type_token.text.substr(base.size());
            break;
        }
    }
    if (type.base_type == 0)
        parser.fail(type_token, "'" + std::string(type_token.text) + "' is not a type");
    auto dimension = [&](std::string_view digit) {
        if (digit.size() != 1 || digit[0] < '1' || digit[0] > '4')
            parser.fail(type_token, "'" + std::string(type_token.text) + "' is not a type");
        return static_cast<std::uint16_t>(digit[0] - '0');
    };
    if (rest.empty()) {
        type.variable_class = 0;
    } else if (rest.size() == 1) {
        type.variable_class = 1;
        type.columns = dimension(rest);
    } else if (rest.size() == 3 && rest[1] == 'x') {
        type.variable_class = 3;
        type.rows = dimension(rest.substr(0, 1));
        type.columns = dimension(rest.substr(2));
    } else {
        parser.fail(type_token, "'" + std::string(type_token.text) + "' is not a type");
    }
    if (parser.accept('[')) {
        const Token& count = parser.next();
        type.elements = static_cast<std::uint16_t>(small_number(parser, count, count.text));
        parser.expect(']', "]");
    }
    const std::uint32_t last = element_bytes(type);
    variable.size = type.elements > 1 ? (type.elements - 1) * element_stride(type) + last : last;
    const ReflectedConstantBuffer& cb = reflection.constant_buffers.back();
    if (std::uint64_t{variable.offset} + variable.size > cb.size)
        parser.fail(name, "'" + variable.name + "' (" + std::to_string(variable.size) +
                              " bytes at " + std::to_string(variable.offset) + ") leaves " +
                              cb.name + " (" + std::to_string(cb.size) + " bytes)");
    reflection.constant_buffers.back().variables.push_back(std::move(variable));
}

// ".binding NAME tN|sN|uN": a view, sampler or UAV the reflection names
// (a texture, a sampler, a typed UAV).
void parse_binding(Parser& parser, Reflection& reflection) {
    const Token& name = parser.expect_identifier("a binding's name");
    const Token& reg = parser.expect_identifier("a register (t0, s0, u0)");
    static constexpr std::pair<char, std::uint32_t> kFiles[] = {{'t', 2}, {'s', 3}, {'u', 4}};
    ReflectedBinding binding;
    binding.name = std::string(name.text);
    binding.input_type = UINT32_MAX;
    for (const auto& [file, input_type] : kFiles)
        if (reg.text.size() >= 2 && reg.text[0] == file) binding.input_type = input_type;
    if (binding.input_type == UINT32_MAX)
        parser.fail(reg, "'" + std::string(reg.text) + "' is not a t, s or u register");
    binding.bind_point = small_number(parser, reg, reg.text.substr(1));
    reflection.bindings.push_back(std::move(binding));
}

std::uint16_t rdef_program_type(ProgramType type) {
    switch (type) {
        case ProgramType::Pixel:
            return 0xFFFE;
        case ProgramType::Vertex:
            return 0xFFFF;
        case ProgramType::Geometry:
            return 0x4753;
        case ProgramType::Hull:
            return 0x4853;
        case ProgramType::Domain:
            return 0x4453;
        default:
            return 0x4353;
    }
}

// ".dwords N ...": DWORDs inside the previous instruction's length, after
// its operands (the token format allows them; the runtime skips them).
void append_dwords(Parser& parser, const Token& directive, std::vector<std::uint32_t>& body,
                   std::size_t instruction) {
    if (instruction == SIZE_MAX) parser.fail(directive, "'.dwords' follows no instruction");
    const std::uint32_t length = (body[instruction] & token::kLengthMask) >> token::kLengthShift;
    if (length == 0)
        parser.fail(directive,
                    "'.dwords' cannot follow an instruction whose length is not in "
                    "its opcode token");
    std::uint32_t added = 0;
    do {
        body.push_back(parser.unsigned_number("a DWORD"));
        ++added;
    } while (!parser.at_statement_end());
    if (length + added > 127)
        parser.fail(directive, "'.dwords' makes the instruction " + std::to_string(length + added) +
                                   " DWORDs long (at most 127)");
    body[instruction] += added << token::kLengthShift;
}

}  // namespace

AssembleResult assemble(std::string_view text) {
    AssembleResult result;
    try {
        Parser parser(assembly::tokenize(text));
        AssemblyState state;
        bool have_version = false;
        std::vector<std::uint32_t> body;
        std::size_t last_instruction = SIZE_MAX;  // where its opcode token is in `body`
        std::vector<SignatureElement> inputs, outputs, patch_constants;
        Reflection reflection;
        for (;;) {
            parser.skip_newlines();
            const Token& first = parser.peek();
            if (first.kind == Token::Kind::End) break;
            if (!have_version) {
                parse_version(parser, state);
                have_version = true;
            } else if (first.is('.')) {
                parser.next();
                const Token& directive =
                    parser.expect_identifier("input, output, patch_constant, cbuffer or variable");
                if (directive.text == "input") {
                    inputs.push_back(parse_signature_element(parser, true));
                } else if (directive.text == "output") {
                    outputs.push_back(parse_signature_element(parser, false));
                } else if (directive.text == "patch_constant") {
                    patch_constants.push_back(
                        parse_signature_element(parser, state.type == ProgramType::Domain));
                } else if (directive.text == "cbuffer") {
                    parse_constant_buffer(parser, reflection);
                } else if (directive.text == "variable") {
                    parse_variable(parser, reflection);
                } else if (directive.text == "binding") {
                    parse_binding(parser, reflection);
                } else if (directive.text == "dwords") {
                    append_dwords(parser, directive, body, last_instruction);
                } else {
                    parser.fail(directive, "unknown directive '." + std::string(directive.text) +
                                               "' (.input, .output, .patch_constant, .cbuffer, "
                                               ".variable, .binding, .dwords)");
                }
            } else if (first.kind == Token::Kind::Identifier) {
                parser.next();
                last_instruction = body.size();
                assembly::assemble_instruction(parser, first, state, body);
            } else {
                parser.fail(first, "expected an instruction, found " + assembly::describe(first));
            }
            if (!parser.at_statement_end())
                parser.fail(parser.peek(), "expected the end of the line, found " +
                                               assembly::describe(parser.peek()));
        }
        if (!have_version) parser.fail(parser.peek(), "the text has no version line (vs_5_0, ...)");

        result.tokens.push_back(static_cast<std::uint32_t>(state.type) << 16 | state.major << 4 |
                                state.minor);
        result.tokens.push_back(static_cast<std::uint32_t>(body.size() + 2));
        result.tokens.insert(result.tokens.end(), body.begin(), body.end());

        bool streams = state.declares_streams;
        for (const SignatureElement& element : outputs) streams = streams || element.stream;
        std::vector<ChunkToWrite> chunks;
        if (!reflection.bindings.empty()) {
            reflection.major = static_cast<std::uint8_t>(state.major);
            reflection.minor = static_cast<std::uint8_t>(state.minor);
            reflection.program_type = rdef_program_type(state.type);
            reflection.creator = "d3dcap assembler";
            chunks.push_back({"RDEF", write_reflection(reflection)});
        }
        chunks.push_back({"ISGN", write_signature(inputs, false)});
        chunks.push_back({streams ? "OSG5" : "OSGN", write_signature(outputs, streams)});
        if (!patch_constants.empty() || state.type == ProgramType::Hull ||
            state.type == ProgramType::Domain)
            chunks.push_back({"PCSG", write_signature(patch_constants, false)});
        std::vector<std::uint8_t> code(result.tokens.size() * 4);
        for (std::size_t i = 0; i < result.tokens.size(); ++i)
            for (std::size_t b = 0; b < 4; ++b)
                code[i * 4 + b] = static_cast<std::uint8_t>(result.tokens[i] >> (8 * b));
        chunks.push_back({state.major == 5 ? "SHEX" : "SHDR", std::move(code)});
        result.container = write_container(chunks);
    } catch (const AssemblyError& error) {
        result = AssembleResult{};
        result.line = error.line;
        result.column = error.column;
        result.error = "line " + std::to_string(error.line) + ", column " +
                       std::to_string(error.column) + ": " + error.message;
    }
    return result;
}

}  // namespace d3dcap::runtime::shader
