// Instructions: the mnemonic, its modifiers and operands, the opcode token.
#include "runtime/shader/assembler_parser.h"

namespace d3dcap::runtime::shader::assembly {

namespace {

bool apply_suffix(std::string_view word, Mnemonic& m) {
    if (word == "z")
        m.test_zero = true;
    else if (word == "nz")
        m.test_nonzero = true;
    else if (word == "sat")
        m.saturate = true;
    else if (word == "uint")
        m.uint_return = true;
    else if (word == "rcpFloat")
        m.rcp_float = true;
    else if (word == "aoffimmi")
        m.aoffimmi = true;
    else if (word == "indexable") {
    } else if (word == "uglobal")
        m.sync_flags |= token::kSyncUavMemoryGlobal;
    else if (word == "ugroup")
        m.sync_flags |= token::kSyncUavMemoryGroup;
    else if (word == "g")
        m.sync_flags |= token::kSyncGroupSharedMemory;
    else if (word == "t")
        m.sync_flags |= token::kSyncThreadsInGroup;
    else if (word == "glc")
        m.coherent = true;
    else if (word == "rov")
        m.rasterizer_ordered = true;
    else if (word == "opc")
        m.counter = true;
    else if (word == "dynamicindexed")
        m.dynamic_indexed = true;
    else if (const auto dimension = parse_resource_dimension(word);
             dimension && *dimension != ResourceDimension::Unknown && !m.has_suffix_dimension) {
        m.has_suffix_dimension = true;
        m.suffix_dimension = *dimension;
    } else {
        return false;
    }
    return true;
}

std::vector<std::string_view> split_words(std::string_view text) {
    std::vector<std::string_view> words;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i == text.size() || text[i] == '_') {
            words.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    return words;
}

// A parenthesized group after the mnemonic: offsets, dimension, types or a
// sample count. The '(' is already read.
void parse_group(Parser& parser, const Token& open, Mnemonic& m) {
    const Token& first = parser.peek();
    if (first.kind == Token::Kind::Number || first.is('-')) {
        std::vector<std::uint32_t> numbers;
        do {
            numbers.push_back(parser.immediate("a number"));
        } while (parser.accept(','));
        parser.expect(')', "')'");
        const Layout layout = m.info->layout;
        if (numbers.size() == 1 &&
            (layout == Layout::DclResource || layout == Layout::DclUavTyped)) {
            m.has_sample_count = true;
            m.sample_count = numbers[0];
            return;
        }
        if (numbers.size() != 3) parser.fail(open, "texel offsets take three numbers, (u,v,w)");
        for (int i = 0; i < 3; ++i) {
            const auto value = static_cast<std::int32_t>(numbers[i]);
            if (value < -8 || value > 7)
                parser.fail(open, "texel offset " + std::to_string(value) + " is outside -8..7");
            m.offsets[i] = value;
        }
        m.has_offsets = true;
        return;
    }
    const Token& word = parser.peek();
    if (word.kind != Token::Kind::Identifier)
        parser.fail(word, "expected offsets, a resource dimension or return types, found " +
                              describe(word));
    if (const auto dimension = parse_resource_dimension(word.text)) {
        parser.next();
        m.has_dimension = true;
        m.dimension = *dimension;
        if (parser.accept(',')) {
            const Token& key = parser.expect_identifier("stride=");
            if (key.text != "stride") parser.fail(key, "expected stride=, found " + describe(key));
            parser.expect('=', "'='");
            m.stride = parser.unsigned_number("a stride");
            if (m.stride > 0xfff)
                parser.fail(key, "stride " + std::to_string(m.stride) + " does not fit 12 bits");
        }
        parser.expect(')', "')'");
        return;
    }
    if (word.text == "none" || parse_return_type(word.text)) {
        m.has_types = true;
        m.types = parse_types(parser);
        return;
    }
    parser.fail(word,
                "'" + std::string(word.text) + "' is not a resource dimension or return type");
}

Mnemonic parse_mnemonic(Parser& parser, const Token& head) {
    Mnemonic m;
    const std::vector<std::string_view> words = split_words(head.text);
    for (std::size_t count = words.size(); count >= 1 && m.info == nullptr; --count) {
        const std::string_view name = head.text.substr(
            0, static_cast<std::size_t>(words[count - 1].data() + words[count - 1].size() -
                                        head.text.data()));
        const OpcodeInfo* info = find_opcode(name);
        if (info == nullptr) continue;
        Mnemonic candidate;
        candidate.info = info;
        bool all_suffixes = true;
        for (std::size_t i = count; i < words.size() && all_suffixes; ++i)
            all_suffixes = apply_suffix(words[i], candidate);
        if (all_suffixes) m = candidate;
    }
    if (m.info == nullptr)
        parser.fail(head, "unknown instruction '" + std::string(head.text) + "'");
    for (;;) {
        const Token& token = parser.peek();
        if (token.spaced) break;
        if (token.is('(')) {
            parser.next();
            parse_group(parser, token, m);
        } else if (token.kind == Token::Kind::Identifier && token.text.starts_with("_")) {
            parser.next();
            for (const std::string_view word : split_words(token.text.substr(1)))
                if (!apply_suffix(word, m))
                    parser.fail(token, "unknown modifier '_" + std::string(word) + "' on " +
                                           std::string(m.info->name));
        } else {
            break;
        }
    }
    if (parser.peek().is('[') && parser.peek(1).is_word("precise")) {
        const Token& open = parser.next();
        parser.next();
        m.precise = 0xf;
        if (parser.accept('(')) {
            m.precise = parse_mask(parser, parser.expect_identifier("a mask"));
            parser.expect(')', "')'");
        }
        parser.expect(']', "']' closing [precise]");
        if (!m.precise) parser.fail(open, "precise needs components");
    }
    return m;
}

// Refuses modifiers that do not belong to the opcode.
void check_modifiers(const Parser& parser, const Token& head, const Mnemonic& m) {
    const OpcodeInfo& info = *m.info;
    const std::string name(info.name);
    auto refuse = [&](bool wrong, const char* what) {
        if (wrong) parser.fail(head, name + " takes no " + what);
    };
    const bool declaration = info.is_declaration();
    if (info.flags & opcode_flag::kTestBoolean) {
        if (m.test_zero == m.test_nonzero) parser.fail(head, name + " needs _z or _nz");
    } else {
        refuse(m.test_zero || m.test_nonzero, "_z/_nz");
    }
    refuse(m.saturate && (declaration || (info.flags & opcode_flag::kSyncFlags)), "_sat");
    refuse(m.uint_return &&
               !(info.flags & (opcode_flag::kResinfoReturnType | opcode_flag::kUintReturnType)),
           "_uint");
    refuse(m.rcp_float && !(info.flags & opcode_flag::kResinfoReturnType), "_rcpFloat");
    refuse(m.uint_return && m.rcp_float, "_uint with _rcpFloat");
    refuse(m.sync_flags && !(info.flags & opcode_flag::kSyncFlags), "sync flags");
    if (m.aoffimmi && !m.has_offsets) parser.fail(head, name + "_aoffimmi needs (u,v,w) offsets");
    if (m.has_offsets && !m.aoffimmi) parser.fail(head, name + ": texel offsets need _aoffimmi");
    refuse((m.has_offsets || m.has_dimension || m.has_types || m.precise) && declaration,
           "offsets, resource types or precise");
    const bool typed_decl =
        info.layout == Layout::DclResource || info.layout == Layout::DclUavTyped;
    refuse(m.has_suffix_dimension && !typed_decl, "resource dimension");
    if (typed_decl && !m.has_suffix_dimension)
        parser.fail(head, name + " needs a dimension (" + name + "_texture2d, ...)");
    const bool uav_decl = info.layout == Layout::DclUavTyped || info.layout == Layout::DclUavRaw ||
                          info.layout == Layout::DclUavStructured;
    refuse((m.coherent || m.rasterizer_ordered) && !uav_decl, "_glc/_rov");
    refuse(m.counter && info.layout != Layout::DclUavStructured, "_opc");
    refuse(m.dynamic_indexed && info.layout != Layout::DclInterface, "_dynamicindexed");
    refuse(m.has_sample_count && info.layout != Layout::DclResource, "sample count");
}

}  // namespace

void assemble_instruction(Parser& parser, const Token& head, AssemblyState& state,
                          std::vector<std::uint32_t>& out) {
    Mnemonic m = parse_mnemonic(parser, head);
    const OpcodeInfo& info = *m.info;
    if (info.layout == Layout::CustomData) {
        assemble_custom_data(parser, head, out);
        return;
    }
    check_modifiers(parser, head, m);
    const std::string name(info.name);
    std::uint32_t controls = 0;
    std::vector<std::uint32_t> extended, body;
    if (info.is_declaration()) {
        assemble_declaration(parser, head, m, state, controls, body);
    } else {
        if (m.saturate) controls |= token::kSaturate;
        if (m.test_nonzero) controls |= token::kTestNonzero;
        controls |= std::uint32_t{m.precise} << token::kPreciseShift;
        if (m.rcp_float) controls |= static_cast<std::uint32_t>(ResinfoReturnType::RcpFloat) << 11;
        if (m.uint_return)
            controls |= (info.flags & opcode_flag::kResinfoReturnType ? 2u : 1u) << 11;
        controls |= m.sync_flags;
        if (m.has_offsets)
            extended.push_back(static_cast<std::uint32_t>(ExtendedOpcodeType::SampleControls) |
                               (static_cast<std::uint32_t>(m.offsets[0]) & 0xf) << 9 |
                               (static_cast<std::uint32_t>(m.offsets[1]) & 0xf) << 13 |
                               (static_cast<std::uint32_t>(m.offsets[2]) & 0xf) << 17);
        if (m.has_dimension)
            extended.push_back(static_cast<std::uint32_t>(ExtendedOpcodeType::ResourceDim) |
                               static_cast<std::uint32_t>(m.dimension) << 6 | m.stride << 11);
        if (m.has_types)
            extended.push_back(static_cast<std::uint32_t>(ExtendedOpcodeType::ResourceReturnType) |
                               return_type_token(m.types, 6));
        for (std::size_t i = 0; i + 1 < extended.size(); ++i) extended[i] |= token::kExtended;
        if (info.layout == Layout::InterfaceCall) {
            const Token& at = parser.peek();
            Operand called = parse_operand(parser, Role::Source);
            if (called.index_dimension == 0 ||
                called.indices[called.index_dimension - 1].representation !=
                    IndexRepresentation::Immediate32)
                parser.fail(at, "fcall's operand ends in the function index: fp0[0][2]");
            body.push_back(
                static_cast<std::uint32_t>(called.indices[--called.index_dimension].value));
            called.indices[called.index_dimension] = {};
            encode_operand(called, body);
        } else if (info.layout == Layout::Operands) {
            for (std::uint32_t i = 0; i < info.operand_count(); ++i) {
                if (i) {
                    if (parser.at_statement_end())
                        parser.fail(parser.peek(), name + " takes " +
                                                       std::to_string(info.operand_count()) +
                                                       " operands, found " + std::to_string(i));
                    parser.expect(',', "',' between operands");
                }
                if (parser.at_statement_end())
                    parser.fail(parser.peek(), name + " takes " +
                                                   std::to_string(info.operand_count()) +
                                                   " operands, found " + std::to_string(i));
                encode_operand(
                    parse_operand(parser, i < info.destinations ? Role::Destination : Role::Source),
                    body);
            }
        }
    }
    if (!parser.at_statement_end())
        parser.fail(parser.peek(), "expected the end of the line after " + name + ", found " +
                                       describe(parser.peek()));
    const std::size_t length = 1 + extended.size() + body.size();
    std::uint32_t opcode_token = static_cast<std::uint32_t>(info.opcode) | controls;
    if (length > 127) {
        // Tables too long for the length field: the extended bit says the
        // next DWORD holds the length.
        if (info.layout != Layout::DclFunctionTable && info.layout != Layout::DclInterface)
            parser.fail(head, name + " takes " + std::to_string(length) +
                                  " DWORDs, more than the 127 an instruction can hold");
        out.push_back(opcode_token | token::kExtended);
        out.push_back(static_cast<std::uint32_t>(length + 1));
    } else {
        if (!extended.empty()) opcode_token |= token::kExtended;
        out.push_back(opcode_token | static_cast<std::uint32_t>(length) << token::kLengthShift);
        out.insert(out.end(), extended.begin(), extended.end());
    }
    out.insert(out.end(), body.begin(), body.end());
}

}  // namespace d3dcap::runtime::shader::assembly
