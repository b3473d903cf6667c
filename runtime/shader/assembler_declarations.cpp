// Declarations: what follows a dcl_* mnemonic, and custom-data blocks.
#include <optional>

#include "runtime/shader/assembler_parser.h"

namespace d3dcap::runtime::shader::assembly {

namespace {

void expect_type(const Parser& parser, const Token& at, const Operand& operand, OperandType type,
                 const std::string& what) {
    if (operand.type != type)
        parser.fail(at, what + " takes " + std::string(operand_type_info(type).prefix) +
                            "#, found " + describe(at));
}

// Numbered names of declarations ("fb3", "ft0", "x2").
std::uint32_t numbered(Parser& parser, std::string_view prefix) {
    const Token& token = parser.expect_identifier(std::string(prefix) + "#");
    if (!token.text.starts_with(prefix) || !is_digits(token.text.substr(prefix.size())))
        parser.fail(token, "expected " + std::string(prefix) + "#, found " + describe(token));
    return digits_value(parser, token, token.text.substr(prefix.size()));
}

std::string_view join_words(Parser& parser, std::initializer_list<std::string_view> words,
                            std::string& storage) {
    storage.clear();
    while (parser.peek().kind == Token::Kind::Identifier) {
        bool known = false;
        for (const std::string_view word : words) known = known || parser.peek().text == word;
        if (!known) break;
        storage += (storage.empty() ? "" : " ") + std::string(parser.next().text);
    }
    return storage;
}

}  // namespace

std::array<ReturnType, 4> parse_types(Parser& parser) {
    std::array<ReturnType, 4> types{};
    for (std::size_t i = 0; i < 4; ++i) {
        if (i) parser.expect(',', "',' between return types");
        const Token& word = parser.expect_identifier("a return type");
        const auto type =
            word.text == "none" ? std::optional(ReturnType::None) : parse_return_type(word.text);
        if (!type) parser.fail(word, "'" + std::string(word.text) + "' is not a return type");
        types[i] = *type;
    }
    parser.expect(')', "')' after the four return types");
    return types;
}

std::uint32_t return_type_token(const std::array<ReturnType, 4>& types, std::uint32_t shift) {
    std::uint32_t token = 0;
    for (int i = 0; i < 4; ++i) token |= static_cast<std::uint32_t>(types[i]) << (shift + 4 * i);
    return token;
}

// Parses a declaration after its mnemonic into its controls and body.
void assemble_declaration(Parser& parser, const Token& head, const Mnemonic& m,
                          AssemblyState& state, std::uint32_t& controls,
                          std::vector<std::uint32_t>& body) {
    const OpcodeInfo& info = *m.info;
    const std::string name(info.name);
    auto operand = [&] { return parse_operand(parser, Role::Declaration); };
    auto comma = [&] { parser.expect(',', "','"); };
    switch (info.layout) {
        case Layout::DclResource:
        case Layout::DclUavTyped: {
            controls |= static_cast<std::uint32_t>(m.suffix_dimension) << 11;
            if (info.layout == Layout::DclResource) {
                if (m.sample_count > 127)
                    parser.fail(head,
                                "sample count " + std::to_string(m.sample_count) + " is past 127");
                controls |= m.sample_count << 16;
            }
            if (m.coherent) controls |= token::kUavGloballyCoherent;
            if (m.rasterizer_ordered) controls |= token::kUavRasterizerOrdered;
            std::array<ReturnType, 4> types = m.types;
            if (!m.has_types) {
                parser.expect('(', "'(' and the return types");
                types = parse_types(parser);
            }
            const Token& at = parser.peek();
            const Operand declared = operand();
            expect_type(parser, at, declared,
                        info.layout == Layout::DclResource ? OperandType::Resource
                                                           : OperandType::UnorderedAccessView,
                        name);
            encode_operand(declared, body);
            body.push_back(return_type_token(types, 0));
            break;
        }
        case Layout::DclConstantBuffer: {
            const Token& at = parser.peek();
            Operand declared = operand();
            expect_type(parser, at, declared, OperandType::ConstantBuffer, name);
            // fxc writes the operand as four components, swizzle xyzw.
            if (declared.component_count == 0) {
                declared.component_count = 4;
                declared.selection = ComponentSelection::Swizzle;
            }
            encode_operand(declared, body);
            if (parser.accept(',')) {
                const Token& pattern =
                    parser.expect_identifier("immediateIndexed or dynamicIndexed");
                if (pattern.text == "dynamicIndexed")
                    controls |= 1u << 11;
                else if (pattern.text != "immediateIndexed")
                    parser.fail(pattern, "expected immediateIndexed or dynamicIndexed, found " +
                                             describe(pattern));
            }
            break;
        }
        case Layout::DclSampler: {
            const Token& at = parser.peek();
            const Operand declared = operand();
            expect_type(parser, at, declared, OperandType::Sampler, name);
            encode_operand(declared, body);
            if (parser.accept(',')) {
                const Token& mode = parser.expect_identifier("a sampler mode");
                const auto value = parse_sampler_mode(mode.text);
                if (!value)
                    parser.fail(
                        mode,
                        "'" + std::string(mode.text) +
                            "' is not a sampler mode (mode_default, mode_comparison, mode_mono)");
                controls |= static_cast<std::uint32_t>(*value) << 11;
            }
            break;
        }
        case Layout::DclIndexRange:
            encode_operand(operand(), body);
            comma();
            body.push_back(parser.unsigned_number("a register count"));
            break;
        case Layout::DclGsOutputTopology: {
            const Token& word = parser.expect_identifier("a primitive topology");
            const auto value = parse_primitive_topology(word.text);
            if (!value)
                parser.fail(word, "'" + std::string(word.text) + "' is not a primitive topology");
            controls |= static_cast<std::uint32_t>(*value) << 11;
            break;
        }
        case Layout::DclGsInputPrimitive: {
            const Token& word = parser.expect_identifier("a primitive");
            const auto value = parse_primitive(word.text);
            if (!value) parser.fail(word, "'" + std::string(word.text) + "' is not a primitive");
            controls |= static_cast<std::uint32_t>(*value) << 11;
            break;
        }
        case Layout::DclCount:
            body.push_back(parser.unsigned_number("a count"));
            break;
        case Layout::DclControlPointCount: {
            const Token& at = parser.peek();
            const std::uint32_t count = parser.unsigned_number("a control point count");
            if (count > 63)
                parser.fail(
                    at, "control point count " + std::to_string(count) + " does not fit 6 bits");
            controls |= count << 11;
            break;
        }
        case Layout::DclRegister: {
            const Token& at = parser.peek();
            const Operand declared = operand();
            if (info.opcode == Opcode::DclStream) {
                expect_type(parser, at, declared, OperandType::Stream, name);
                state.declares_streams = true;
            }
            encode_operand(declared, body);
            break;
        }
        case Layout::DclRegisterName:
        case Layout::DclInputPs:
        case Layout::DclInputPsName: {
            if (info.layout != Layout::DclRegisterName) {
                std::string words;
                join_words(parser, {"constant", "linear", "centroid", "noperspective", "sample"},
                           words);
                if (!words.empty()) {
                    const auto mode = parse_interpolation_mode(words);
                    if (!mode) parser.fail(head, "'" + words + "' is not an interpolation mode");
                    controls |= static_cast<std::uint32_t>(*mode) << 11;
                }
            }
            encode_operand(operand(), body);
            if (info.layout != Layout::DclInputPs) {
                comma();
                const Token& word = parser.expect_identifier("a system value");
                const auto value = parse_system_name(word.text);
                if (!value)
                    parser.fail(word, "'" + std::string(word.text) + "' is not a system value");
                body.push_back(static_cast<std::uint32_t>(*value));
            }
            break;
        }
        case Layout::DclIndexableTemp: {
            body.push_back(numbered(parser, "x"));
            parser.expect('[', "'[' and the register count");
            body.push_back(parser.unsigned_number("a register count"));
            parser.expect(']', "']'");
            comma();
            body.push_back(parser.unsigned_number("a component count"));
            break;
        }
        case Layout::DclGlobalFlags:
            while (!parser.at_statement_end()) {
                const Token& word = parser.peek();
                bool known = false;
                for (const GlobalFlagName& flag : global_flag_names())
                    if (word.is_word(flag.name)) {
                        controls |= flag.bit;
                        known = true;
                    }
                if (known)
                    parser.next();
                else if (word.kind == Token::Kind::Number)
                    controls |= parser.unsigned_number("flags") & token::kControlsMask;
                else
                    parser.fail(word, describe(word) + " is not a global flag");
                if (!parser.accept('|')) break;
            }
            break;
        case Layout::DclFunctionBody:
            body.push_back(numbered(parser, "fb"));
            break;
        case Layout::DclFunctionTable:
        case Layout::DclInterface: {
            const bool table = info.layout == Layout::DclFunctionTable;
            body.push_back(numbered(parser, table ? "ft" : "fp"));
            std::uint32_t array_length = 0, table_size = 0;
            if (!table) {
                parser.expect('[', "'[' and the array length");
                array_length = parser.unsigned_number("an array length");
                parser.expect(']', "']'");
                parser.expect('[', "'[' and the function table size");
                table_size = parser.unsigned_number("a table size");
                parser.expect(']', "']'");
                if (m.dynamic_indexed) controls |= 1u << 11;
            }
            parser.expect('=', "'='");
            parser.expect('{', "'{'");
            std::vector<std::uint32_t> entries;
            parser.skip_newlines();
            if (!parser.accept('}')) {
                do {
                    parser.skip_newlines();
                    entries.push_back(numbered(parser, table ? "fb" : "ft"));
                    parser.skip_newlines();
                } while (parser.accept(','));
                parser.expect('}', "'}'");
            }
            if (table) {
                body.push_back(static_cast<std::uint32_t>(entries.size()));
            } else {
                if (array_length > 0xffff || entries.size() > 0xffff)
                    parser.fail(head, "dcl_interface's lengths do not fit 16 bits");
                body.push_back(table_size);
                body.push_back(static_cast<std::uint32_t>(entries.size()) | array_length << 16);
            }
            body.insert(body.end(), entries.begin(), entries.end());
            break;
        }
        case Layout::DclTessDomain:
        case Layout::DclTessPartitioning:
        case Layout::DclTessOutputPrimitive: {
            const Token& word = parser.expect_identifier("a tessellator setting");
            std::optional<std::uint32_t> value;
            if (info.layout == Layout::DclTessDomain) {
                if (auto v = parse_tess_domain(word.text)) value = static_cast<std::uint32_t>(*v);
            } else if (info.layout == Layout::DclTessPartitioning) {
                if (auto v = parse_tess_partitioning(word.text))
                    value = static_cast<std::uint32_t>(*v);
            } else if (auto v = parse_tess_output_primitive(word.text)) {
                value = static_cast<std::uint32_t>(*v);
            }
            if (!value)
                parser.fail(word, "'" + std::string(word.text) + "' is not a value of " + name);
            controls |= *value << 11;
            break;
        }
        case Layout::DclHsMaxTessFactor: {
            const Token& l = parser.expect_identifier("l(");
            if (l.text != "l") parser.fail(l, "expected l(, found " + describe(l));
            parser.expect('(', "'('");
            body.push_back(parser.immediate("a float"));
            parser.expect(')', "')'");
            break;
        }
        case Layout::DclThreadGroup:
            for (int i = 0; i < 3; ++i) {
                if (i) comma();
                body.push_back(parser.unsigned_number("a thread group size"));
            }
            break;
        case Layout::DclUavRaw:
        case Layout::DclUavStructured:
        case Layout::DclTgsmRaw:
        case Layout::DclTgsmStructured:
        case Layout::DclResourceRaw:
        case Layout::DclResourceStructured: {
            if (m.coherent) controls |= token::kUavGloballyCoherent;
            if (m.rasterizer_ordered) controls |= token::kUavRasterizerOrdered;
            if (m.counter) controls |= token::kUavHasCounter;
            const bool uav =
                info.layout == Layout::DclUavRaw || info.layout == Layout::DclUavStructured;
            const bool tgsm =
                info.layout == Layout::DclTgsmRaw || info.layout == Layout::DclTgsmStructured;
            const Token& at = parser.peek();
            const Operand declared = operand();
            expect_type(parser, at, declared,
                        uav    ? OperandType::UnorderedAccessView
                        : tgsm ? OperandType::ThreadGroupSharedMemory
                               : OperandType::Resource,
                        name);
            encode_operand(declared, body);
            const int numbers =
                info.layout == Layout::DclTgsmStructured                                      ? 2
                : (info.layout == Layout::DclUavRaw || info.layout == Layout::DclResourceRaw) ? 0
                                                                                              : 1;
            for (int i = 0; i < numbers; ++i) {
                comma();
                body.push_back(parser.unsigned_number("a size"));
            }
            break;
        }
        case Layout::Operands:
        case Layout::InterfaceCall:
        case Layout::CustomData:
        case Layout::HsPhase:
            break;
    }
}

void assemble_custom_data(Parser& parser, const Token& head, std::vector<std::uint32_t>& out) {
    std::uint32_t data_class = token::kCustomDataImmediateConstantBuffer;
    const bool buffer = head.text == "dcl_immediateConstantBuffer";
    if (!buffer) data_class = parser.unsigned_number("a custom data class");
    if (data_class >= (1u << 21))
        parser.fail(head,
                    "custom data class " + std::to_string(data_class) + " does not fit 21 bits");
    std::vector<std::uint32_t> data;
    parser.expect('{', "'{'");
    parser.skip_newlines();
    if (!parser.accept('}')) {
        do {
            parser.skip_newlines();
            if (buffer) {
                parser.expect('{', "'{' opening a vec4");
                for (int i = 0; i < 4; ++i) {
                    if (i) parser.expect(',', "',' (four values a vec4)");
                    data.push_back(parser.immediate("a value"));
                }
                parser.expect('}', "'}' closing the vec4 (four values a vec4)");
            } else {
                data.push_back(parser.immediate("a DWORD"));
            }
            parser.skip_newlines();
        } while (parser.accept(','));
        parser.expect('}', "'}'");
    }
    out.push_back(static_cast<std::uint32_t>(Opcode::CustomData) | data_class << 11);
    out.push_back(static_cast<std::uint32_t>(data.size() + 2));
    out.insert(out.end(), data.begin(), data.end());
}

}  // namespace d3dcap::runtime::shader::assembly
