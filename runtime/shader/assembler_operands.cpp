// Operands: parsing "-|cb0[r1.x + 2].xyzw|" and friends, and their tokens.
#include <cctype>

#include "runtime/shader/assembler_parser.h"
#include "runtime/shader/numbers.h"

namespace d3dcap::runtime::shader::assembly {

bool is_digits(std::string_view text) {
    if (text.empty()) return false;
    for (const char c : text)
        if (c < '0' || c > '9') return false;
    return true;
}

std::uint32_t digits_value(const Parser& parser, const Token& at, std::string_view digits) {
    std::uint64_t value = 0;
    for (const char c : digits) {
        value = value * 10 + static_cast<std::uint64_t>(c - '0');
        if (value > 0xffffffffu)
            parser.fail(at, "register number " + std::string(digits) + " is too large");
    }
    return static_cast<std::uint32_t>(value);
}

namespace {

int component_of(char c) {
    switch (c) {
        case 'x':
        case 'r':
            return 0;
        case 'y':
        case 'g':
            return 1;
        case 'z':
        case 'b':
            return 2;
        case 'w':
        case 'a':
            return 3;
        default:
            return -1;
    }
}

// A number index, "5" or "5i64".
OperandIndex number_index(Parser& parser) {
    const Token& token = parser.peek();
    std::string_view text = token.text;
    OperandIndex index;
    if (text.ends_with("i64")) {
        text.remove_suffix(3);
        index.representation = IndexRepresentation::Immediate64;
    }
    std::uint64_t value = 0;
    if (!is_digits(text) || text.size() > 19)
        parser.fail(token, "expected an index, found " + describe(token));
    for (const char c : text) value = value * 10 + static_cast<std::uint64_t>(c - '0');
    if (index.representation == IndexRepresentation::Immediate32 && value > 0xffffffffu)
        parser.fail(token, "index " + std::string(text) + " does not fit 32 bits (write " +
                               std::string(text) + "i64)");
    index.value = value;
    parser.next();
    return index;
}

// The operand type a register name stands for ("r" + digits, "vThreadID").
OperandType register_type(const Parser& parser, const Token& name, std::string_view& digits) {
    const std::string_view text = name.text;
    std::size_t letters = 0;
    while (letters < text.size() && std::isalpha(static_cast<unsigned char>(text[letters])))
        ++letters;
    digits = text.substr(letters);
    if (!digits.empty() && !is_digits(digits))
        parser.fail(name, "'" + std::string(text) + "' is not a register");
    for (std::uint32_t i = 0; i < kOperandTypeCount; ++i) {
        const auto type = static_cast<OperandType>(i);
        if (type == OperandType::Immediate32 || type == OperandType::Immediate64) continue;
        const OperandTypeInfo& info = operand_type_info(type);
        // Written without a number or indices, a register file has none (0D).
        if (info.named ? text == info.prefix : text.substr(0, letters) == info.prefix) return type;
    }
    parser.fail(name, "'" + std::string(text) + "' is not a register");
}

}  // namespace

// A write mask (".xz"): components in order, each once.
std::uint8_t parse_mask(const Parser& parser, const Token& token) {
    std::uint8_t mask = 0;
    int last = -1;
    for (const char c : token.text) {
        const int component = component_of(c);
        if (component < 0 || component <= last)
            parser.fail(token, "'" + std::string(token.text) +
                                   "' is not a write mask (x, y, z, w in order, each once)");
        mask |= static_cast<std::uint8_t>(1 << component);
        last = component;
    }
    return mask;
}

Operand parse_operand(Parser& parser, Role role) {
    const bool negate = role != Role::Relative && parser.accept('-');
    const bool absolute = role != Role::Relative && parser.accept('|');
    const Token& name = parser.expect_identifier("an operand");
    Operand operand;
    operand.byte_offset = 0;
    if ((name.text == "l" || name.text == "d") && parser.peek().is('(') && !parser.peek().spaced) {
        parser.next();
        std::vector<std::uint32_t> values;
        if (name.text == "l") {
            operand.type = OperandType::Immediate32;
            do {
                values.push_back(parser.immediate("an immediate value"));
            } while (parser.accept(','));
            if (values.size() != 1 && values.size() != 4)
                parser.fail(name, "l() takes 1 or 4 values, not " + std::to_string(values.size()));
        } else {
            operand.type = OperandType::Immediate64;
            do {
                const bool minus = parser.accept('-');
                const Token& token = parser.peek();
                const auto bits =
                    token.kind == Token::Kind::Number
                        ? parse_double_immediate((minus ? "-" : "") + std::string(token.text))
                        : std::nullopt;
                if (!bits) parser.fail(token, "expected a double, found " + describe(token));
                parser.next();
                values.push_back(static_cast<std::uint32_t>(*bits));
                values.push_back(static_cast<std::uint32_t>(*bits >> 32));
            } while (parser.accept(','));
            if (values.size() != 2 && values.size() != 4)
                parser.fail(name,
                            "d() takes 1 or 2 doubles, not " + std::to_string(values.size() / 2));
        }
        parser.expect(')', "')' after the immediate values");
        operand.component_count =
            (values.size() == 1 || (operand.type == OperandType::Immediate64 && values.size() == 2))
                ? 1
                : 4;
        operand.value_count = static_cast<std::uint8_t>(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) operand.values[i] = values[i];
    } else {
        std::string_view digits;
        operand.type = register_type(parser, name, digits);
        const OperandTypeInfo& info = operand_type_info(operand.type);
        if (!digits.empty()) {
            operand.indices[0].value = digits_value(parser, name, digits);
            operand.index_dimension = 1;
        }
        while (parser.peek().is('[')) {
            const Token& bracket = parser.next();
            if (operand.index_dimension == 3)
                parser.fail(bracket, "an operand has at most 3 indices");
            OperandIndex& index = operand.indices[operand.index_dimension++];
            if (parser.peek().kind == Token::Kind::Number) {
                index = number_index(parser);
            } else {
                index.relative.push_back(parse_operand(parser, Role::Relative));
                index.representation = IndexRepresentation::Relative;
                if (parser.accept('+')) {
                    const OperandIndex offset = number_index(parser);
                    index.value = offset.value;
                    index.representation = offset.representation == IndexRepresentation::Immediate64
                                               ? IndexRepresentation::Immediate64PlusRelative
                                               : IndexRepresentation::Immediate32PlusRelative;
                }
            }
            parser.expect(']', "']'");
        }
        operand.component_count = info.components;
        if (parser.peek().is('.')) {
            parser.next();
            const Token& components = parser.expect_identifier("components after '.'");
            operand.component_count = 4;
            const std::string_view letters = components.text;
            bool in_order = true;
            for (std::size_t i = 0; i < letters.size(); ++i)
                in_order = in_order && component_of(letters[i]) >= 0 &&
                           (i == 0 || component_of(letters[i]) > component_of(letters[i - 1]));
            if ((role == Role::Destination || role == Role::Declaration) &&
                (in_order || letters.size() != 4)) {
                operand.selection = ComponentSelection::Mask;
                operand.mask = parse_mask(parser, components);
            } else {
                // Sources, and destinations written with a swizzle (".xxzw").
                if (letters.size() != 1 && letters.size() != 4)
                    parser.fail(components, "a source takes 1 or 4 components, '." +
                                                std::string(letters) + "' has " +
                                                std::to_string(letters.size()));
                for (std::size_t i = 0; i < 4; ++i) {
                    const int component = component_of(letters[letters.size() == 1 ? 0 : i]);
                    if (component < 0)
                        parser.fail(components, "'" + std::string(letters) + "' is not a swizzle");
                    operand.swizzle[i] = static_cast<std::uint8_t>(component);
                }
                operand.selection =
                    letters.size() == 1 ? ComponentSelection::Select1 : ComponentSelection::Swizzle;
            }
        }
    }
    if (absolute) parser.expect('|', "'|' closing the absolute value");
    operand.modifier = negate && absolute ? OperandModifier::AbsNeg
                       : negate           ? OperandModifier::Neg
                       : absolute         ? OperandModifier::Abs
                                          : OperandModifier::None;
    // Annotations: {min16f} and the like, {nonuniform}.
    static constexpr std::string_view kPrecisions[] = {"", "min16f", "min2_8f",
                                                       "", "min16i", "min16u"};
    while (parser.peek().is('{') && parser.peek(1).kind == Token::Kind::Identifier) {
        const std::string_view word = parser.peek(1).text;
        std::uint8_t precision = 0;
        for (std::uint8_t i = 1; i < 6; ++i)
            if (!kPrecisions[i].empty() && kPrecisions[i] == word) precision = i;
        // Values without a name print as {precisionN}.
        if (word.starts_with("precision") && word.size() == 10 && word[9] >= '0' && word[9] <= '7')
            precision = static_cast<std::uint8_t>(word[9] - '0');
        if (precision == 0 && word != "nonuniform") break;
        parser.next();
        parser.next();
        parser.expect('}', "'}'");
        if (precision)
            operand.min_precision = precision;
        else
            operand.non_uniform = true;
    }
    return operand;
}

void encode_operand(const Operand& operand, std::vector<std::uint32_t>& out) {
    std::uint32_t token = operand.component_count == 4   ? 2u
                          : operand.component_count == 1 ? 1u
                                                         : 0u;
    const bool immediate =
        operand.type == OperandType::Immediate32 || operand.type == OperandType::Immediate64;
    if (operand.component_count == 4 && !immediate) {
        token |= static_cast<std::uint32_t>(operand.selection) << 2;
        switch (operand.selection) {
            case ComponentSelection::Mask:
                token |= std::uint32_t{operand.mask} << 4;
                break;
            case ComponentSelection::Swizzle:
                for (int i = 0; i < 4; ++i)
                    token |= std::uint32_t{operand.swizzle[i]} << (4 + 2 * i);
                break;
            case ComponentSelection::Select1:
                token |= std::uint32_t{operand.swizzle[0]} << 4;
                break;
        }
    }
    token |= static_cast<std::uint32_t>(operand.type) << 12;
    token |= std::uint32_t{operand.index_dimension} << 20;
    for (std::uint32_t i = 0; i < operand.index_dimension; ++i)
        token |= static_cast<std::uint32_t>(operand.indices[i].representation) << (22 + 3 * i);
    const bool extended =
        operand.modifier != OperandModifier::None || operand.min_precision || operand.non_uniform;
    if (extended) token |= token::kExtended;
    out.push_back(token);
    if (extended)
        out.push_back(static_cast<std::uint32_t>(ExtendedOperandType::Modifier) |
                      static_cast<std::uint32_t>(operand.modifier) << 6 |
                      std::uint32_t{operand.min_precision} << 14 |
                      (operand.non_uniform ? 1u << 17 : 0u));
    for (std::uint32_t i = 0; i < operand.value_count; ++i) out.push_back(operand.values[i]);
    for (std::uint32_t i = 0; i < operand.index_dimension; ++i) {
        const OperandIndex& index = operand.indices[i];
        switch (index.representation) {
            case IndexRepresentation::Immediate32:
            case IndexRepresentation::Immediate32PlusRelative:
                out.push_back(static_cast<std::uint32_t>(index.value));
                break;
            case IndexRepresentation::Immediate64:
            case IndexRepresentation::Immediate64PlusRelative:
                out.push_back(static_cast<std::uint32_t>(index.value >> 32));
                out.push_back(static_cast<std::uint32_t>(index.value));
                break;
            case IndexRepresentation::Relative:
                break;
        }
        if (index.has_relative()) encode_operand(index.relative[0], out);
    }
}

}  // namespace d3dcap::runtime::shader::assembly
