// BC1-BC7 blocks to texels. BC1-BC5 interpolate in double by the documented
// formulas (the specification leaves their precision to the hardware); BC6H
// and BC7 follow their bit-exact integer decoders.
#include "runtime/formats/bc_decode.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

#include "runtime/formats/pixels.h"

namespace d3dcap::runtime::formats {
namespace {

// The partitions of two-subset blocks (BC6H uses the first 32): bit i is the
// subset of texel i.
constexpr std::uint16_t kTwoSubsets[64] = {
    0xCCCC, 0x8888, 0xEEEE, 0xECC8, 0xC880, 0xFEEC, 0xFEC8, 0xEC80, 0xC800, 0xFFEC, 0xFE80,
    0xE800, 0xFFE8, 0xFF00, 0xFFF0, 0xF000, 0xF710, 0x008E, 0x7100, 0x08CE, 0x008C, 0x7310,
    0x3100, 0x8CCE, 0x088C, 0x3110, 0x6666, 0x366C, 0x17E8, 0x0FF0, 0x718E, 0x399C, 0xAAAA,
    0xF0F0, 0x5A5A, 0x33CC, 0x3C3C, 0x55AA, 0x9696, 0xA55A, 0x73CE, 0x13C8, 0x324C, 0x3BDC,
    0x6996, 0xC33C, 0x9966, 0x0660, 0x0272, 0x04E4, 0x4E40, 0x2720, 0xC936, 0x936C, 0x39C6,
    0x639C, 0x9336, 0x9CC6, 0x817E, 0xE718, 0xCCF0, 0x0FCC, 0x7744, 0xEE22};

// The partitions of three-subset blocks: bits 2i and 2i+1 are the subset of texel i.
constexpr std::uint32_t kThreeSubsets[64] = {
    0xAA685050, 0x6A5A5040, 0x5A5A4200, 0x5450A0A8, 0xA5A50000, 0xA0A05050, 0x5555A0A0, 0x5A5A5050,
    0xAA550000, 0xAA555500, 0xAAAA5500, 0x90909090, 0x94949494, 0xA4A4A4A4, 0xA9A59450, 0x2A0A4250,
    0xA5945040, 0x0A425054, 0xA5A5A500, 0x55A0A0A0, 0xA8A85454, 0x6A6A4040, 0xA4A45000, 0x1A1A0500,
    0x0050A4A4, 0xAAA59090, 0x14696914, 0x69691400, 0xA08585A0, 0xAA821414, 0x50A4A450, 0x6A5A0200,
    0xA9A58000, 0x5090A0A8, 0xA8A09050, 0x24242424, 0x00AA5500, 0x24924924, 0x24499224, 0x50A50A50,
    0x500AA550, 0xAAAA4444, 0x66660000, 0xA5A0A5A0, 0x50A050A0, 0x69286928, 0x44AAAA44, 0x66666600,
    0xAA444444, 0x54A854A8, 0x95809580, 0x96969600, 0xA85454A8, 0x80959580, 0xAA141414, 0x96960000,
    0xAAAA1414, 0xA05050A0, 0xA0A5A5A0, 0x96000000, 0x40804080, 0xA9A8A9A8, 0xAAAAAA44, 0x2A4A5254};

// Anchor texels (stored with one index bit less) of subset 1 of two-subset
// partitions, and of subsets 1 and 2 of three-subset partitions; subset 0's
// is always texel 0.
constexpr std::uint8_t kAnchorTwo[64] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2,  8, 2, 2, 8,
    8,  15, 2,  8,  2,  2,  8,  8,  2,  2,  15, 15, 6,  8,  2,  8,  15, 15, 2, 8, 2, 2,
    2,  15, 15, 6,  6,  2,  6,  8,  15, 15, 2,  2,  15, 15, 15, 15, 15, 2,  2, 15};
constexpr std::uint8_t kAnchorThreeSecond[64] = {
    3,  3,  15, 15, 8, 3,  15, 15, 8,  8,  6, 6,  6, 5,  3, 3,  3,  3,  8,  15, 3,  3,
    6,  10, 5,  8,  8, 6,  8,  5,  15, 15, 8, 15, 3, 5,  6, 10, 8,  15, 15, 3,  15, 5,
    15, 15, 15, 15, 3, 15, 5,  5,  5,  8,  5, 10, 5, 10, 8, 13, 15, 12, 3,  3};
constexpr std::uint8_t kAnchorThreeThird[64] = {
    15, 8, 8, 3,  15, 15, 3,  8,  15, 15, 15, 15, 15, 15, 15, 8,  15, 8,  15, 3,  15, 8,
    15, 8, 3, 15, 6,  10, 15, 15, 10, 8,  15, 3,  15, 10, 10, 8,  9,  10, 6,  15, 8,  15,
    3,  6, 6, 8,  15, 3,  15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3,  15, 15, 8};

// Interpolation weights (out of 64) of 2-, 3- and 4-bit indices.
constexpr int kWeights2[4] = {0, 21, 43, 64};
constexpr int kWeights3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
constexpr int kWeights4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

int weight(unsigned index_bits, std::uint32_t index) {
    return index_bits == 2   ? kWeights2[index]
           : index_bits == 3 ? kWeights3[index]
                             : kWeights4[index];
}
int interpolate(int e0, int e1, int w) {
    return ((64 - w) * e0 + w * e1 + 32) >> 6;  // arithmetic shift for BC6H's signed values
}

// The 128 (or 64) bits of a block, little-endian, read from a cursor.
class BitReader {
  public:
    BitReader(const std::uint8_t* block, unsigned bytes) {
        for (unsigned i = 0; i < bytes; ++i)
            words_[i / 8] |= std::uint64_t{block[i]} << (8 * (i % 8));
    }
    std::uint32_t read(unsigned count) {  // count <= 32
        const unsigned word = position_ / 64, shift = position_ % 64;
        position_ += count;
        if (word > 1 || count == 0) return 0;
        std::uint64_t value = words_[word] >> shift;
        if (shift + count > 64 && word == 0) value |= words_[1] << (64 - shift);
        return static_cast<std::uint32_t>(value & ((std::uint64_t{1} << count) - 1));
    }
    void seek(unsigned position) { position_ = position; }

  private:
    std::uint64_t words_[2] = {};
    unsigned position_ = 0;
};

std::int32_t unorm8_code(double value) {
    return static_cast<std::int32_t>(std::floor(value * 255.0 + 0.5));
}
std::int32_t snorm8_code(double value) {
    const double scaled = value * 127.0;
    return static_cast<std::int32_t>(scaled >= 0 ? std::floor(scaled + 0.5)
                                                 : std::ceil(scaled - 0.5));
}

// 8-bit codes as UNORM values, linear or through the sRGB curve, by the
// reference device's conversions.
const std::array<double, 256>& unorm8_values(bool srgb) {
    static const auto tables = [] {
        std::array<std::array<double, 256>, 2> result{};
        for (std::uint32_t code = 0; code < 256; ++code) {
            const float unorm = convert::unorm_to_float(code, 8);
            result[0][code] = unorm;
            result[1][code] = convert::srgb_to_linear(unorm);
        }
        return result;
    }();
    return tables[srgb ? 1 : 0];
}

// Half-float bits as values.
double half_value(std::uint32_t bits) {
    static const auto table = [] {
        std::array<float, 65536> result{};
        for (std::uint32_t code = 0; code < result.size(); ++code)
            result[code] = convert::small_float_to_float(code, 10, true);
        return result;
    }();
    return table[bits & 0xffff];
}

void clear(BlockTexels& out, double alpha) {
    for (unsigned i = 0; i < 16; ++i) {
        for (unsigned c = 0; c < 4; ++c) {
            out.value[i][c] = c == 3 ? alpha : 0.0;
            out.code[i][c] = 0;
        }
    }
}

// --- BC1, BC2, BC3, BC4, BC5 ---

// The 5:6:5 color half of BC1-BC3. Only BC1 has the three-color mode
// (color_0 <= color_1): the third color is the mean, the fourth transparent black.
void decode_colors(const std::uint8_t* b, bool bc1, bool srgb, BlockTexels& out) {
    const int c0 = b[0] | (b[1] << 8), c1 = b[2] | (b[3] << 8);
    const int endpoints[2][3] = {{c0 >> 11, (c0 >> 5) & 63, c0 & 31},
                                 {c1 >> 11, (c1 >> 5) & 63, c1 & 31}};
    constexpr int kMax[3] = {31, 63, 31};
    // Weights of the two endpoints and their sum, per palette entry.
    constexpr int kFour[4][3] = {{1, 0, 1}, {0, 1, 1}, {2, 1, 3}, {1, 2, 3}};
    constexpr int kThree[4][3] = {{1, 0, 1}, {0, 1, 1}, {1, 1, 2}, {0, 0, 1}};
    const bool four = !bc1 || c0 > c1;
    double values[4][4];
    std::int32_t codes[4][4];
    for (unsigned k = 0; k < 4; ++k) {
        const int* w = four ? kFour[k] : kThree[k];
        for (unsigned c = 0; c < 3; ++c) {
            const double unorm =
                (w[0] * endpoints[0][c] + w[1] * endpoints[1][c]) / double(w[2] * kMax[c]);
            codes[k][c] = unorm8_code(unorm);
            values[k][c] = srgb ? convert::srgb_to_linear(static_cast<float>(unorm)) : unorm;
        }
        const bool transparent = !four && k == 3;
        values[k][3] = transparent ? 0.0 : 1.0;
        codes[k][3] = transparent ? 0 : 255;
    }
    const std::uint32_t indices = b[4] | (b[5] << 8) | (b[6] << 16) | (std::uint32_t{b[7]} << 24);
    for (unsigned i = 0; i < 16; ++i) {
        const unsigned k = (indices >> (2 * i)) & 3;
        for (unsigned c = 0; c < 4; ++c) {
            out.value[i][c] = values[k][c];
            out.code[i][c] = codes[k][c];
        }
    }
}

// BC2's explicit 4-bit alphas.
void decode_explicit_alpha(const std::uint8_t* b, BlockTexels& out) {
    for (unsigned i = 0; i < 16; ++i) {
        const unsigned alpha = (b[i / 2] >> (4 * (i % 2))) & 15;
        out.value[i][3] = alpha / 15.0;
        out.code[i][3] = static_cast<std::int32_t>(alpha * 17);
    }
}

// One BC4 channel (also BC3's alpha and each half of BC5): two 8-bit
// endpoints, then six interpolated values when red_0 > red_1, else four and
// the two extremes. SNORM's -128 reads as -127 (-1.0). The channel is a
// template argument: with it a run-time value, GCC 12 at -O1 and above drops
// the calls (its loop rewrite stores through a null-based address, which its
// side-effect analysis then ignores).
template <unsigned channel>
void decode_channel(const std::uint8_t* b, bool snorm, BlockTexels& out) {
    const int raw0 = snorm ? static_cast<std::int8_t>(b[0]) : b[0];
    const int raw1 = snorm ? static_cast<std::int8_t>(b[1]) : b[1];
    const bool six = raw0 > raw1;
    const int r0 = std::max(raw0, -127), r1 = std::max(raw1, -127);
    const double max = snorm ? 127.0 : 255.0;
    double values[8];
    std::int32_t codes[8];
    for (int k = 0; k < 8; ++k) {
        double value;
        if (k < 2) {
            value = (k == 0 ? r0 : r1) / max;
        } else if (six) {
            value = ((8 - k) * r0 + (k - 1) * r1) / (7.0 * max);
        } else if (k < 6) {
            value = ((6 - k) * r0 + (k - 1) * r1) / (5.0 * max);
        } else {
            value = k == 7 ? 1.0 : (snorm ? -1.0 : 0.0);
        }
        values[k] = value;
        codes[k] = snorm ? snorm8_code(value) : unorm8_code(value);
    }
    std::uint64_t indices = 0;
    for (unsigned i = 0; i < 6; ++i) indices |= std::uint64_t{b[2 + i]} << (8 * i);
    for (unsigned i = 0; i < 16; ++i) {
        const unsigned k = (indices >> (3 * i)) & 7;
        out.value[i][channel] = values[k];
        out.code[i][channel] = codes[k];
    }
}

// --- BC6H ---

// Endpoint fields of the BC6H block descriptions: R, G, B of endpoints 0-3
// (subset 0's two, then subset 1's), and the partition number.
enum Bc6Var : std::uint8_t { R0, G0, B0, R1, G1, B1, R2, G2, B2, R3, G3, B3, PB, kEnd };

// v^high..low in the specification's notation: the next block bit goes to bit
// `low` of v, the following ones toward `high` (downward when high < low).
struct Bc6Field {
    std::uint8_t var = kEnd, high = 0, low = 0;
};
constexpr Bc6Field f(Bc6Var var, int high, int low) {
    return Bc6Field{var, static_cast<std::uint8_t>(high), static_cast<std::uint8_t>(low)};
}
constexpr Bc6Field f(Bc6Var var, int bit) {
    return f(var, bit, bit);
}

struct Bc6Mode {
    std::uint8_t value;      // the mode field: 2 bits when below 2, else 5
    std::uint8_t precision;  // bits of endpoint 0
    std::uint8_t delta[3];   // bits of the other endpoints, per channel
    bool transformed;        // the others are offsets from endpoint 0
    bool two_subsets;
    Bc6Field fields[24];  // after the mode bits, lowest first
};

constexpr Bc6Mode kBc6Modes[] = {
    {0, 10, {5, 5, 5}, true, true, {f(G2, 4),    f(B2, 4),    f(B3, 4),    f(R0, 9, 0),
                                    f(G0, 9, 0), f(B0, 9, 0), f(R1, 4, 0), f(G3, 4),
                                    f(G2, 3, 0), f(G1, 4, 0), f(B3, 0),    f(G3, 3, 0),
                                    f(B1, 4, 0), f(B3, 1),    f(B2, 3, 0), f(R2, 4, 0),
                                    f(B3, 2),    f(R3, 4, 0), f(B3, 3),    f(PB, 4, 0)}},
    {1, 7, {6, 6, 6}, true, true, {f(G2, 5),    f(G3, 4),    f(G3, 5),    f(R0, 6, 0), f(B3, 0),
                                   f(B3, 1),    f(B2, 4),    f(G0, 6, 0), f(B2, 5),    f(B3, 2),
                                   f(G2, 4),    f(B0, 6, 0), f(B3, 3),    f(B3, 5),    f(B3, 4),
                                   f(R1, 5, 0), f(G2, 3, 0), f(G1, 5, 0), f(G3, 3, 0), f(B1, 5, 0),
                                   f(B2, 3, 0), f(R2, 5, 0), f(R3, 5, 0), f(PB, 4, 0)}},
    {2,
     11,
     {5, 4, 4},
     true,
     true,
     {f(R0, 9, 0), f(G0, 9, 0), f(B0, 9, 0), f(R1, 4, 0), f(R0, 10), f(G2, 3, 0), f(G1, 3, 0),
      f(G0, 10), f(B3, 0), f(G3, 3, 0), f(B1, 3, 0), f(B0, 10), f(B3, 1), f(B2, 3, 0), f(R2, 4, 0),
      f(B3, 2), f(R3, 4, 0), f(B3, 3), f(PB, 4, 0)}},
    {6, 11, {4, 5, 4}, true, true, {f(R0, 9, 0), f(G0, 9, 0), f(B0, 9, 0), f(R1, 3, 0), f(R0, 10),
                                    f(G3, 4),    f(G2, 3, 0), f(G1, 4, 0), f(G0, 10),   f(G3, 3, 0),
                                    f(B1, 3, 0), f(B0, 10),   f(B3, 1),    f(B2, 3, 0), f(R2, 3, 0),
                                    f(B3, 0),    f(B3, 2),    f(R3, 3, 0), f(G2, 4),    f(B3, 3),
                                    f(PB, 4, 0)}},
    {10, 11, {4, 4, 5}, true, true, {f(R0, 9, 0), f(G0, 9, 0), f(B0, 9, 0), f(R1, 3, 0),
                                     f(R0, 10),   f(B2, 4),    f(G2, 3, 0), f(G1, 3, 0),
                                     f(G0, 10),   f(B3, 0),    f(G3, 3, 0), f(B1, 4, 0),
                                     f(B0, 10),   f(B2, 3, 0), f(R2, 3, 0), f(B3, 1),
                                     f(B3, 2),    f(R3, 3, 0), f(B3, 4),    f(B3, 3),
                                     f(PB, 4, 0)}},
    {14, 9, {5, 5, 5}, true, true, {f(R0, 8, 0), f(B2, 4),    f(G0, 8, 0), f(G2, 4),
                                    f(B0, 8, 0), f(B3, 4),    f(R1, 4, 0), f(G3, 4),
                                    f(G2, 3, 0), f(G1, 4, 0), f(B3, 0),    f(G3, 3, 0),
                                    f(B1, 4, 0), f(B3, 1),    f(B2, 3, 0), f(R2, 4, 0),
                                    f(B3, 2),    f(R3, 4, 0), f(B3, 3),    f(PB, 4, 0)}},
    {18, 8, {6, 5, 5}, true, true, {f(R0, 7, 0), f(G3, 4),    f(B2, 4),    f(G0, 7, 0),
                                    f(B3, 2),    f(G2, 4),    f(B0, 7, 0), f(B3, 3),
                                    f(B3, 4),    f(R1, 5, 0), f(G2, 3, 0), f(G1, 4, 0),
                                    f(B3, 0),    f(G3, 3, 0), f(B1, 4, 0), f(B3, 1),
                                    f(B2, 3, 0), f(R2, 5, 0), f(R3, 5, 0), f(PB, 4, 0)}},
    {22, 8, {5, 6, 5}, true, true, {f(R0, 7, 0), f(B3, 0),    f(B2, 4),    f(G0, 7, 0), f(G2, 5),
                                    f(G2, 4),    f(B0, 7, 0), f(G3, 5),    f(B3, 4),    f(R1, 4, 0),
                                    f(G3, 4),    f(G2, 3, 0), f(G1, 5, 0), f(G3, 3, 0), f(B1, 4, 0),
                                    f(B3, 1),    f(B2, 3, 0), f(R2, 4, 0), f(B3, 2),    f(R3, 4, 0),
                                    f(B3, 3),    f(PB, 4, 0)}},
    {26, 8, {5, 5, 6}, true, true, {f(R0, 7, 0), f(B3, 1),    f(B2, 4),    f(G0, 7, 0), f(B2, 5),
                                    f(G2, 4),    f(B0, 7, 0), f(B3, 5),    f(B3, 4),    f(R1, 4, 0),
                                    f(G3, 4),    f(G2, 3, 0), f(G1, 4, 0), f(B3, 0),    f(G3, 3, 0),
                                    f(B1, 5, 0), f(B2, 3, 0), f(R2, 4, 0), f(B3, 2),    f(R3, 4, 0),
                                    f(B3, 3),    f(PB, 4, 0)}},
    {30, 6, {6, 6, 6}, false, true, {f(R0, 5, 0), f(G3, 4),    f(B3, 0),    f(B3, 1),
                                     f(B2, 4),    f(G0, 5, 0), f(G2, 5),    f(B2, 5),
                                     f(B3, 2),    f(G2, 4),    f(B0, 5, 0), f(G3, 5),
                                     f(B3, 3),    f(B3, 5),    f(B3, 4),    f(R1, 5, 0),
                                     f(G2, 3, 0), f(G1, 5, 0), f(G3, 3, 0), f(B1, 5, 0),
                                     f(B2, 3, 0), f(R2, 5, 0), f(R3, 5, 0), f(PB, 4, 0)}},
    {3,
     10,
     {10, 10, 10},
     false,
     false,
     {f(R0, 9, 0), f(G0, 9, 0), f(B0, 9, 0), f(R1, 9, 0), f(G1, 9, 0), f(B1, 9, 0)}},
    {7,
     11,
     {9, 9, 9},
     true,
     false,
     {f(R0, 9, 0), f(G0, 9, 0), f(B0, 9, 0), f(R1, 8, 0), f(R0, 10), f(G1, 8, 0), f(G0, 10),
      f(B1, 8, 0), f(B0, 10)}},
    {11,
     12,
     {8, 8, 8},
     true,
     false,
     {f(R0, 9, 0), f(G0, 9, 0), f(B0, 9, 0), f(R1, 7, 0), f(R0, 10, 11), f(G1, 7, 0), f(G0, 10, 11),
      f(B1, 7, 0), f(B0, 10, 11)}},
    {15,
     16,
     {4, 4, 4},
     true,
     false,
     {f(R0, 9, 0), f(G0, 9, 0), f(B0, 9, 0), f(R1, 3, 0), f(R0, 10, 15), f(G1, 3, 0), f(G0, 10, 15),
      f(B1, 3, 0), f(B0, 10, 15)}},
};

// Each mode's fields fill every bit of every endpoint exactly once (and the
// 5 partition bits of two-subset modes), up to bit 82 (two subsets) or 65.
constexpr bool bc6_mode_consistent(const Bc6Mode& mode) {
    std::uint32_t seen[13] = {};
    unsigned total = mode.value < 2 ? 2 : 5;
    for (const Bc6Field& field : mode.fields) {
        if (field.var == kEnd) break;
        const int step = field.high >= field.low ? 1 : -1;
        for (int bit = field.low;; bit += step) {
            if ((seen[field.var] >> bit) & 1) return false;
            seen[field.var] |= 1u << bit;
            ++total;
            if (bit == field.high) break;
        }
    }
    for (unsigned var = 0; var < 12; ++var) {
        const unsigned endpoint = var / 3, channel = var % 3;
        const bool used = endpoint < (mode.two_subsets ? 4u : 2u);
        const unsigned width = !used ? 0 : endpoint == 0 ? mode.precision : mode.delta[channel];
        if (seen[var] != (std::uint32_t{1} << width) - 1) return false;
    }
    return seen[PB] == (mode.two_subsets ? 31u : 0u) && total == (mode.two_subsets ? 82u : 65u);
}
constexpr bool bc6_modes_consistent() {
    for (const Bc6Mode& mode : kBc6Modes) {
        if (!bc6_mode_consistent(mode)) return false;
    }
    return true;
}
static_assert(bc6_modes_consistent(), "a BC6H block description does not add up");

int sign_extend(std::uint32_t value, unsigned bits) {
    const std::uint32_t sign = 1u << (bits - 1);
    return static_cast<int>((value & ((sign << 1) - 1)) ^ sign) - static_cast<int>(sign);
}

// Endpoints to the 16-bit range before interpolation...
int bc6_unquantize(int value, unsigned bits, bool is_signed) {
    if (!is_signed) {
        if (bits >= 15 || value == 0) return value;
        if (value == (1 << bits) - 1) return 0xFFFF;
        return ((value << 16) + 0x8000) >> bits;
    }
    if (bits >= 16) return value;
    const bool negative = value < 0;
    const int magnitude = negative ? -value : value;
    int result = 0;
    if (magnitude == 0) {
        result = 0;
    } else if (magnitude >= (1 << (bits - 1)) - 1) {
        result = 0x7FFF;
    } else {
        result = ((magnitude << 15) + 0x4000) >> (bits - 1);
    }
    return negative ? -result : result;
}

// ...and the interpolated value to half-float bits (31/64 or 31/32 of it).
std::uint32_t bc6_finish(int value, bool is_signed) {
    if (!is_signed) return static_cast<std::uint32_t>((value * 31) >> 6);
    if (value < 0) return 0x8000u | static_cast<std::uint32_t>(((-value) * 31) >> 5);
    return static_cast<std::uint32_t>((value * 31) >> 5);
}

void decode_bc6h(const std::uint8_t* b, bool is_signed, BlockTexels& out) {
    clear(out, 1.0);
    BitReader reader(b, 16);
    std::uint32_t value = reader.read(2);
    if (value >= 2) {
        reader.seek(0);
        value = reader.read(5);
    }
    const Bc6Mode* mode = nullptr;
    for (const Bc6Mode& candidate : kBc6Modes) {
        if (candidate.value == value) mode = &candidate;
    }
    if (mode == nullptr) return;  // reserved: every texel (0, 0, 0, 1)

    std::uint32_t fields[13] = {};
    for (const Bc6Field& field : mode->fields) {
        if (field.var == kEnd) break;
        const int step = field.high >= field.low ? 1 : -1;
        for (int bit = field.low;; bit += step) {
            fields[field.var] |= reader.read(1) << bit;
            if (bit == field.high) break;
        }
    }
    const unsigned endpoints = mode->two_subsets ? 4 : 2;
    const unsigned precision = mode->precision;
    int e[4][3] = {};
    for (unsigned c = 0; c < 3; ++c) {
        e[0][c] = is_signed ? sign_extend(fields[c], precision) : static_cast<int>(fields[c]);
        for (unsigned k = 1; k < endpoints; ++k) {
            const std::uint32_t raw = fields[k * 3 + c];
            int v = (mode->transformed || is_signed) ? sign_extend(raw, mode->delta[c])
                                                     : static_cast<int>(raw);
            if (mode->transformed) {
                // Offsets from endpoint 0, wrapped to its precision.
                v = (e[0][c] + v) & ((1 << precision) - 1);
                if (is_signed) v = sign_extend(static_cast<std::uint32_t>(v), precision);
            }
            e[k][c] = v;
        }
        for (unsigned k = 0; k < endpoints; ++k) {
            e[k][c] = bc6_unquantize(e[k][c], precision, is_signed);
        }
    }

    const unsigned partition = fields[PB];
    const unsigned index_bits = mode->two_subsets ? 3 : 4;
    reader.seek(mode->two_subsets ? 82 : 65);
    for (unsigned i = 0; i < 16; ++i) {
        const unsigned subset = mode->two_subsets ? (kTwoSubsets[partition] >> i) & 1 : 0;
        const bool anchor = i == 0 || (mode->two_subsets && i == kAnchorTwo[partition]);
        const std::uint32_t index = reader.read(anchor ? index_bits - 1 : index_bits);
        const int w = weight(index_bits, index);
        for (unsigned c = 0; c < 3; ++c) {
            const int mixed = interpolate(e[2 * subset][c], e[2 * subset + 1][c], w);
            const std::uint32_t half = bc6_finish(mixed, is_signed);
            out.code[i][c] = static_cast<std::int32_t>(half);
            out.value[i][c] = half_value(half);
        }
    }
}

// --- BC7 ---

struct Bc7Mode {
    std::uint8_t subsets, partition_bits, rotation_bits, selection_bits;
    std::uint8_t color_bits, alpha_bits;  // per channel of an endpoint
    std::uint8_t endpoint_pbits, shared_pbits;
    std::uint8_t index_bits, index2_bits;  // primary and secondary indices
};
constexpr Bc7Mode kBc7Modes[8] = {{3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0},
                                  {3, 6, 0, 0, 5, 0, 0, 0, 2, 0}, {2, 6, 0, 0, 7, 0, 1, 0, 2, 0},
                                  {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
                                  {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0}};

constexpr bool bc7_modes_fill_blocks() {
    for (unsigned m = 0; m < 8; ++m) {
        const Bc7Mode& mode = kBc7Modes[m];
        const unsigned ns = mode.subsets;
        const unsigned bits = m + 1 + mode.partition_bits + mode.rotation_bits +
                              mode.selection_bits + 6 * ns * mode.color_bits +
                              2 * ns * mode.alpha_bits + 2 * ns * mode.endpoint_pbits +
                              ns * mode.shared_pbits + 16 * mode.index_bits - ns +
                              (mode.index2_bits != 0 ? 16 * mode.index2_bits - 1 : 0);
        if (bits != 128) return false;
    }
    return true;
}
static_assert(bc7_modes_fill_blocks(), "a BC7 mode does not fill 128 bits");

// An endpoint channel of `bits` bits (P-bit included) to 8 bits, its top
// bits repeated below.
int expand_to_8(std::uint32_t value, unsigned bits) {
    if (bits >= 8) return static_cast<int>(value);
    return static_cast<int>((value << (8 - bits)) | (value >> (2 * bits - 8)));
}

void decode_bc7(const std::uint8_t* b, bool srgb, BlockTexels& out) {
    clear(out, 0.0);
    if (b[0] == 0) return;  // reserved: every channel of every texel 0
    const unsigned mode_number = static_cast<unsigned>(std::countr_zero(b[0]));
    const Bc7Mode& mode = kBc7Modes[mode_number];
    BitReader reader(b, 16);
    reader.seek(mode_number + 1);
    const unsigned partition = reader.read(mode.partition_bits);
    const unsigned rotation = reader.read(mode.rotation_bits);
    const unsigned selection = reader.read(mode.selection_bits);

    const unsigned endpoints = 2u * mode.subsets;
    std::uint32_t raw[6][4] = {};
    for (unsigned c = 0; c < 3; ++c) {
        for (unsigned k = 0; k < endpoints; ++k) raw[k][c] = reader.read(mode.color_bits);
    }
    for (unsigned k = 0; k < endpoints && mode.alpha_bits != 0; ++k) {
        raw[k][3] = reader.read(mode.alpha_bits);
    }
    std::uint32_t pbits[6] = {};
    for (unsigned k = 0; k < endpoints && mode.endpoint_pbits != 0; ++k) pbits[k] = reader.read(1);
    for (unsigned s = 0; s < mode.subsets && mode.shared_pbits != 0; ++s) {
        pbits[2 * s] = pbits[2 * s + 1] = reader.read(1);
    }
    const bool has_pbit = mode.endpoint_pbits != 0 || mode.shared_pbits != 0;
    int e[6][4] = {};
    for (unsigned k = 0; k < endpoints; ++k) {
        for (unsigned c = 0; c < 4; ++c) {
            const unsigned bits = c < 3 ? mode.color_bits : mode.alpha_bits;
            if (bits == 0) {
                e[k][c] = 255;  // no alpha in the block
            } else if (has_pbit) {
                e[k][c] = expand_to_8((raw[k][c] << 1) | pbits[k], bits + 1);
            } else {
                e[k][c] = expand_to_8(raw[k][c], bits);
            }
        }
    }

    // Subsets and anchors of the partition.
    unsigned subset_of[16] = {};
    bool anchor[16] = {};
    anchor[0] = true;
    for (unsigned i = 0; i < 16; ++i) {
        if (mode.subsets == 2) subset_of[i] = (kTwoSubsets[partition] >> i) & 1;
        if (mode.subsets == 3) subset_of[i] = (kThreeSubsets[partition] >> (2 * i)) & 3;
    }
    if (mode.subsets == 2) anchor[kAnchorTwo[partition]] = true;
    if (mode.subsets == 3) {
        anchor[kAnchorThreeSecond[partition]] = true;
        anchor[kAnchorThreeThird[partition]] = true;
    }
    std::uint32_t primary[16] = {}, secondary[16] = {};
    for (unsigned i = 0; i < 16; ++i) {
        primary[i] = reader.read(anchor[i] ? mode.index_bits - 1u : mode.index_bits);
    }
    for (unsigned i = 0; i < 16 && mode.index2_bits != 0; ++i) {
        secondary[i] = reader.read(i == 0 ? mode.index2_bits - 1u : mode.index2_bits);
    }

    // Color from the secondary indices when the selection bit says so, alpha
    // from them whenever there are some and it does not.
    const bool color_secondary = selection == 1;
    const bool alpha_secondary = mode.index2_bits != 0 && selection == 0;
    const unsigned color_bits = color_secondary ? mode.index2_bits : mode.index_bits;
    const unsigned alpha_bits = alpha_secondary ? mode.index2_bits : mode.index_bits;
    const std::array<double, 256>& linear = unorm8_values(false);
    const std::array<double, 256>& curve = unorm8_values(srgb);
    for (unsigned i = 0; i < 16; ++i) {
        const unsigned s = subset_of[i];
        const int wc = weight(color_bits, color_secondary ? secondary[i] : primary[i]);
        const int wa = weight(alpha_bits, alpha_secondary ? secondary[i] : primary[i]);
        int texel[4];
        for (unsigned c = 0; c < 4; ++c) {
            texel[c] = interpolate(e[2 * s][c], e[2 * s + 1][c], c < 3 ? wc : wa);
        }
        if (rotation != 0) std::swap(texel[3], texel[rotation - 1]);
        for (unsigned c = 0; c < 4; ++c) {
            out.code[i][c] = texel[c];
            out.value[i][c] = c < 3 ? curve[static_cast<unsigned>(texel[c])]
                                    : linear[static_cast<unsigned>(texel[c])];
        }
    }
}

}  // namespace

unsigned block_bytes(DXGI_FORMAT format) {
    switch (format) {
        case DXGI_FORMAT_BC1_UNORM:
        case DXGI_FORMAT_BC1_UNORM_SRGB:
        case DXGI_FORMAT_BC4_UNORM:
        case DXGI_FORMAT_BC4_SNORM:
            return 8;
        case DXGI_FORMAT_BC2_UNORM:
        case DXGI_FORMAT_BC2_UNORM_SRGB:
        case DXGI_FORMAT_BC3_UNORM:
        case DXGI_FORMAT_BC3_UNORM_SRGB:
        case DXGI_FORMAT_BC5_UNORM:
        case DXGI_FORMAT_BC5_SNORM:
        case DXGI_FORMAT_BC6H_UF16:
        case DXGI_FORMAT_BC6H_SF16:
        case DXGI_FORMAT_BC7_UNORM:
        case DXGI_FORMAT_BC7_UNORM_SRGB:
            return 16;
        default:
            return 0;
    }
}

bool decode_block(DXGI_FORMAT format, const std::uint8_t* block, BlockTexels& out) {
    switch (format) {
        case DXGI_FORMAT_BC1_UNORM:
        case DXGI_FORMAT_BC1_UNORM_SRGB:
            decode_colors(block, true, format == DXGI_FORMAT_BC1_UNORM_SRGB, out);
            return true;
        case DXGI_FORMAT_BC2_UNORM:
        case DXGI_FORMAT_BC2_UNORM_SRGB:
            decode_colors(block + 8, false, format == DXGI_FORMAT_BC2_UNORM_SRGB, out);
            decode_explicit_alpha(block, out);
            return true;
        case DXGI_FORMAT_BC3_UNORM:
        case DXGI_FORMAT_BC3_UNORM_SRGB:
            decode_colors(block + 8, false, format == DXGI_FORMAT_BC3_UNORM_SRGB, out);
            decode_channel<3>(block, false, out);
            return true;
        case DXGI_FORMAT_BC4_UNORM:
        case DXGI_FORMAT_BC4_SNORM:
            clear(out, 1.0);
            decode_channel<0>(block, format == DXGI_FORMAT_BC4_SNORM, out);
            return true;
        case DXGI_FORMAT_BC5_UNORM:
        case DXGI_FORMAT_BC5_SNORM:
            clear(out, 1.0);
            decode_channel<0>(block, format == DXGI_FORMAT_BC5_SNORM, out);
            decode_channel<1>(block + 8, format == DXGI_FORMAT_BC5_SNORM, out);
            return true;
        case DXGI_FORMAT_BC6H_UF16:
        case DXGI_FORMAT_BC6H_SF16:
            decode_bc6h(block, format == DXGI_FORMAT_BC6H_SF16, out);
            return true;
        case DXGI_FORMAT_BC7_UNORM:
        case DXGI_FORMAT_BC7_UNORM_SRGB:
            decode_bc7(block, format == DXGI_FORMAT_BC7_UNORM_SRGB, out);
            return true;
        default:
            return false;
    }
}

}  // namespace d3dcap::runtime::formats
