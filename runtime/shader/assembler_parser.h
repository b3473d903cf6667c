// The assembler's insides (assembler.h is the interface): the tokens of the
// text, a cursor over them that reports errors at a token's line and
// column, and the instruction encoder the statement loop calls.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/shader/program.h"
#include "runtime/shader/tokens.h"

namespace d3dcap::runtime::shader::assembly {

struct Token {
    enum class Kind : std::uint8_t { Identifier, Number, Punct, Newline, End };
    Kind kind = Kind::End;
    std::string_view text;
    std::uint32_t line = 0, column = 0;
    bool spaced = false;  // whitespace comes before it

    bool is(char punct) const {
        return kind == Kind::Punct && text.size() == 1 && text[0] == punct;
    }
    bool is_word(std::string_view word) const { return kind == Kind::Identifier && text == word; }
};

// Thrown with the position of the problem; assemble() turns it into the
// result's error.
struct AssemblyError {
    std::uint32_t line, column;
    std::string message;
};

// The tokens of `text`, ending in an End token.
std::vector<Token> tokenize(std::string_view text);

// A short description of a token for errors ("'movv'", "the end of the line").
std::string describe(const Token& token);

class Parser {
  public:
    explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

    const Token& peek(std::size_t ahead = 0) const;
    const Token& next();
    bool accept(char punct);
    const Token& expect(char punct, std::string_view what);
    const Token& expect_identifier(std::string_view what);
    bool at_statement_end() const;
    // Newlines do not end statements inside braces: callers skip them.
    void skip_newlines();
    [[noreturn]] void fail(const Token& at, std::string message) const;

    // An unsigned decimal or hex number token.
    std::uint32_t unsigned_number(std::string_view what);
    // A 32-bit immediate, possibly with a leading '-'.
    std::uint32_t immediate(std::string_view what);

  private:
    std::vector<Token> tokens_;
    std::size_t position_ = 0;
};

// What statements tell the container builder.
struct AssemblyState {
    ProgramType type = ProgramType::Vertex;
    std::uint32_t major = 5, minor = 0;
    bool declares_streams = false;
};

// What an operand is written for: destinations and declarations take write
// masks, sources and relative indices swizzles.
enum class Role { Destination, Source, Declaration, Relative };

// The mnemonic and everything written around it.
struct Mnemonic {
    const OpcodeInfo* info = nullptr;
    bool test_zero = false, test_nonzero = false, saturate = false;
    bool uint_return = false, rcp_float = false, aoffimmi = false;
    bool coherent = false, rasterizer_ordered = false, counter = false, dynamic_indexed = false;
    std::uint32_t sync_flags = 0;
    bool has_suffix_dimension = false;
    ResourceDimension suffix_dimension = ResourceDimension::Unknown;
    bool has_offsets = false;
    std::array<int, 3> offsets{};
    bool has_dimension = false;
    ResourceDimension dimension = ResourceDimension::Unknown;
    std::uint32_t stride = 0;
    bool has_types = false;
    std::array<ReturnType, 4> types{};
    bool has_sample_count = false;
    std::uint32_t sample_count = 0;
    std::uint8_t precise = 0;
};

// Operands (assembler_operands.cpp).
bool is_digits(std::string_view text);
std::uint32_t digits_value(const Parser& parser, const Token& at, std::string_view digits);
std::uint8_t parse_mask(const Parser& parser, const Token& token);
Operand parse_operand(Parser& parser, Role role);
void encode_operand(const Operand& operand, std::vector<std::uint32_t>& out);

// Declarations (assembler_declarations.cpp).
// Four return types and the closing ')': "float,float,float,float)".
std::array<ReturnType, 4> parse_types(Parser& parser);
// Four return types, four bits each from bit `shift`.
std::uint32_t return_type_token(const std::array<ReturnType, 4>& types, std::uint32_t shift);
// What follows a declaration's mnemonic: its opcode-token controls and body.
void assemble_declaration(Parser& parser, const Token& head, const Mnemonic& m,
                          AssemblyState& state, std::uint32_t& controls,
                          std::vector<std::uint32_t>& body);
// A dcl_immediateConstantBuffer or customdata block, complete.
void assemble_custom_data(Parser& parser, const Token& head, std::vector<std::uint32_t>& out);

// Encodes the instruction or declaration whose mnemonic is `mnemonic` (the
// statement's first token, already read), appending its tokens.
void assemble_instruction(Parser& parser, const Token& mnemonic, AssemblyState& state,
                          std::vector<std::uint32_t>& out);

}  // namespace d3dcap::runtime::shader::assembly
