#include <cctype>

#include "runtime/shader/assembler_parser.h"
#include "runtime/shader/numbers.h"

namespace d3dcap::runtime::shader::assembly {

namespace {

bool identifier_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool identifier_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
bool digit(char c) {
    return c >= '0' && c <= '9';
}

}  // namespace

std::vector<Token> tokenize(std::string_view text) {
    std::vector<Token> tokens;
    std::uint32_t line = 1;
    std::size_t line_start = 0;
    bool spaced = true;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        const auto column = static_cast<std::uint32_t>(i - line_start + 1);
        auto push = [&](Token::Kind kind, std::size_t length) {
            tokens.push_back({kind, text.substr(i, length), line, column, spaced});
            spaced = false;
            i += length;
        };
        if (c == '\n') {
            push(Token::Kind::Newline, 1);
            ++line;
            line_start = i;
            spaced = true;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            ++i;
            spaced = true;
        } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
            while (i < text.size() && text[i] != '\n') ++i;
            spaced = true;
        } else if (identifier_start(c)) {
            std::size_t end = i;
            while (end < text.size() && identifier_char(text[end])) ++end;
            push(Token::Kind::Identifier, end - i);
        } else if (digit(c) || (c == '.' && i + 1 < text.size() && digit(text[i + 1]))) {
            // Numbers: digits, letters (hex, "i64", the doubles' "l"), points
            // and an exponent's sign.
            const bool hex =
                c == '0' && i + 1 < text.size() && (text[i + 1] == 'x' || text[i + 1] == 'X');
            std::size_t end = i;
            while (end < text.size()) {
                const char d = text[end];
                if (identifier_char(d) || d == '.') {
                    ++end;
                } else if ((d == '-' || d == '+') && !hex &&
                           (text[end - 1] == 'e' || text[end - 1] == 'E')) {
                    ++end;
                } else {
                    break;
                }
            }
            push(Token::Kind::Number, end - i);
        } else if (std::string_view(",()[]{}|-+=.:;").find(c) != std::string_view::npos) {
            push(Token::Kind::Punct, 1);
        } else {
            throw AssemblyError{line, column, std::string("unexpected character '") + c + "'"};
        }
    }
    const auto column = static_cast<std::uint32_t>(text.size() - line_start + 1);
    tokens.push_back({Token::Kind::End, {}, line, column, true});
    return tokens;
}

std::string describe(const Token& token) {
    switch (token.kind) {
        case Token::Kind::Newline:
            return "the end of the line";
        case Token::Kind::End:
            return "the end of the text";
        default:
            return "'" + std::string(token.text) + "'";
    }
}

const Token& Parser::peek(std::size_t ahead) const {
    const std::size_t at = position_ + ahead;
    return at < tokens_.size() ? tokens_[at] : tokens_.back();
}

const Token& Parser::next() {
    const Token& token = peek();
    if (position_ < tokens_.size() - 1) ++position_;
    return token;
}

bool Parser::accept(char punct) {
    if (!peek().is(punct)) return false;
    next();
    return true;
}

const Token& Parser::expect(char punct, std::string_view what) {
    if (!peek().is(punct))
        fail(peek(), "expected " + std::string(what) + ", found " + describe(peek()));
    return next();
}

const Token& Parser::expect_identifier(std::string_view what) {
    if (peek().kind != Token::Kind::Identifier)
        fail(peek(), "expected " + std::string(what) + ", found " + describe(peek()));
    return next();
}

bool Parser::at_statement_end() const {
    return peek().kind == Token::Kind::Newline || peek().kind == Token::Kind::End;
}

void Parser::skip_newlines() {
    while (peek().kind == Token::Kind::Newline) next();
}

void Parser::fail(const Token& at, std::string message) const {
    throw AssemblyError{at.line, at.column, std::move(message)};
}

std::uint32_t Parser::unsigned_number(std::string_view what) {
    const Token& token = peek();
    // Decimal digits or hex: no point, exponent or suffix.
    const bool hex = token.text.starts_with("0x") || token.text.starts_with("0X");
    const bool whole = token.text.find_first_not_of(hex ? "0123456789abcdefABCDEFxX"
                                                        : "0123456789") == std::string_view::npos;
    const auto value =
        token.kind == Token::Kind::Number && whole ? parse_immediate(token.text) : std::nullopt;
    if (!value)
        fail(token,
             "expected " + std::string(what) + " (a whole number), found " + describe(token));
    next();
    return *value;
}

std::uint32_t Parser::immediate(std::string_view what) {
    const Token& first = peek();
    const bool negative = accept('-');
    const Token& token = peek();
    std::optional<std::uint32_t> value;
    if (token.kind == Token::Kind::Number)
        value = parse_immediate(negative ? "-" + std::string(token.text) : std::string(token.text));
    if (!value)
        fail(negative ? first : token,
             "expected " + std::string(what) + ", found " + describe(token));
    next();
    return *value;
}

}  // namespace d3dcap::runtime::shader::assembly
