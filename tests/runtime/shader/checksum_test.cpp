// MD5's compression function against RFC 1321's test suite, and the DXBC
// checksum's placement in a container.
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "runtime/shader/assembler.h"
#include "runtime/shader/dxbc_checksum.h"
#include "shader_sources.h"

using namespace d3dcap::runtime::shader;

namespace {

std::string hex_digest(std::string_view text) {
    const auto digest =
        md5(std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
    std::string hex;
    char byte[3];
    for (const std::uint8_t b : digest) {
        std::snprintf(byte, sizeof byte, "%02x", b);
        hex += byte;
    }
    return hex;
}

}  // namespace

TEST_CASE("md5 built on md5_compress gives RFC 1321's test suite digests") {
    CHECK(hex_digest("") == "d41d8cd98f00b204e9800998ecf8427e");
    CHECK(hex_digest("a") == "0cc175b9c0f1b6a831c399e269772661");
    CHECK(hex_digest("abc") == "900150983cd24fb0d6963f7d28e17f72");
    CHECK(hex_digest("message digest") == "f96b697d7cb7938d525a2f31aaf161d0");
    CHECK(hex_digest("abcdefghijklmnopqrstuvwxyz") == "c3fcd3d76192e4007dfb496cca67e13b");
    CHECK(hex_digest("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") ==
          "d174ab98d277d9f5a5611c2c9f419d9f");
    CHECK(hex_digest("1234567890123456789012345678901234567890123456789012345678901234567890123"
                     "4567890") == "57edf4a22be3c955ac49da2e2107b67a");
}

TEST_CASE("MD5 of the empty message is one compression of its padding block") {
    Md5State state = kMd5InitialState;
    const std::uint8_t block[64] = {0x80};  // the padding block of the empty message
    md5_compress(state, std::span<const std::uint8_t, 64>(block, 64));
    // d41d8cd98f00b204e9800998ecf8427e, as four little-endian words.
    CHECK(state == Md5State{0xd98c1dd4u, 0x04b2008fu, 0x980980e9u, 0x7e42f8ecu});
}

TEST_CASE("the checksum is written little-endian at offset 4 and covers bytes 20 on") {
    const AssembleResult assembled = assemble(shader_tests::kComputeShader);
    REQUIRE(assembled.ok());
    std::vector<std::uint8_t> container = assembled.container;
    REQUIRE(container.size() > 20);
    CHECK(dxbc_checksum_matches(container));

    const Md5State state = dxbc_checksum(container);
    for (int word = 0; word < 4; ++word)
        for (int byte = 0; byte < 4; ++byte)
            CHECK(container[4 + 4 * word + byte] ==
                  static_cast<std::uint8_t>(state[word] >> (8 * byte)));

    // Bytes 0..19 (magic and checksum) are not hashed; any later byte is.
    std::vector<std::uint8_t> magic_changed = container;
    magic_changed[0] = 'X';
    CHECK(dxbc_checksum(magic_changed) == state);
    std::vector<std::uint8_t> body_changed = container;
    body_changed[20] ^= 1;
    CHECK(dxbc_checksum(body_changed) != state);
    CHECK_FALSE(dxbc_checksum_matches(body_changed));
    write_dxbc_checksum(body_changed);
    CHECK(dxbc_checksum_matches(body_changed));
}

TEST_CASE("containers too short for a checksum never match") {
    std::vector<std::uint8_t> tiny(19, 0);
    CHECK_FALSE(dxbc_checksum_matches(tiny));
    write_dxbc_checksum(tiny);  // leaves it alone
    CHECK(tiny == std::vector<std::uint8_t>(19, 0));
}
