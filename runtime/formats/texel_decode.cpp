// The texel decoder: a plan per format (which layout, which path), one
// texel with its codes, and whole subresources as RGBA floats with tables
// per channel so that common formats decode at memory speed.
#include "runtime/formats/texel_decode.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>

#include "runtime/formats/bc_decode.h"
#include "runtime/formats/format_rules.h"
#include "runtime/formats/formats.h"
#include "runtime/formats/pixels.h"

namespace d3dcap::runtime::formats {
namespace {

using formats::ChannelLayout;
using formats::ChannelType;
using formats::PixelLayout;

// Texels of the largest Direct3D 11 texture (16384 x 16384); more is a mistake.
constexpr std::uint64_t kMaxTexels = std::uint64_t{16384} * 16384;

enum class Path : std::uint8_t {
    Layout,          // channels where formats::pixel_layout puts them
    SharedExponent,  // R9G9B9E5_SHAREDEXP
    Pair,            // R8G8_B8G8_UNORM, G8R8_G8B8_UNORM: two texels share R and B
    Block,           // BC1-BC7
};

// How one format decodes.
struct Plan {
    DXGI_FORMAT format = DXGI_FORMAT_UNKNOWN;
    DXGI_FORMAT decoded_as = DXGI_FORMAT_UNKNOWN;
    Path path = Path::Layout;
    PixelLayout layout;  // Path::Layout
    bool typeless = false;
    bool depth_stencil = false;
    std::uint32_t element_bytes = 0;
    std::uint32_t block_width = 1, block_height = 1;
};

bool fail(std::string* error, std::string message) {
    if (error != nullptr) *error = std::move(message);
    return false;
}

ChannelKind kind_of(ChannelType type) {
    switch (type) {
        case ChannelType::Unorm:
            return ChannelKind::Unorm;
        case ChannelType::Snorm:
            return ChannelKind::Snorm;
        case ChannelType::Uint:
            return ChannelKind::Uint;
        case ChannelType::Sint:
            return ChannelKind::Sint;
        case ChannelType::Float:
            return ChannelKind::Float;
        case ChannelType::Srgb:
            return ChannelKind::Srgb;
        case ChannelType::XrBias:
            return ChannelKind::XrBias;
        case ChannelType::Absent:
            break;
    }
    return ChannelKind::Absent;
}

std::int64_t sign_extend(std::uint64_t code, unsigned bits) {
    const std::uint64_t sign = std::uint64_t{1} << (bits - 1);
    return static_cast<std::int64_t>(code ^ sign) - static_cast<std::int64_t>(sign);
}

// The member of a typeless format's cast group whose layout (or blocks)
// decode it: the first typed one the reference device or the BC decoder knows.
DXGI_FORMAT typed_member(DXGI_FORMAT typeless) {
    for (unsigned value = 1; value <= DXGI_FORMAT_B4G4R4A4_UNORM; ++value) {
        const auto format = static_cast<DXGI_FORMAT>(value);
        if (format == typeless || formats::family(format) != typeless) continue;
        if (formats::block_bytes(format) != 0 || formats::pixel_layout(format).bytes != 0) {
            return format;
        }
    }
    return DXGI_FORMAT_UNKNOWN;
}

bool make_plan(DXGI_FORMAT format, Plan& plan, std::string* error) {
    const formats::FormatInfo& facts = formats::info(format);
    const auto refuse = [&](const char* why) {
        return fail(error, formats::describe(format) + ": " + why);
    };
    if (format == DXGI_FORMAT_UNKNOWN) return refuse("no texels to decode");
    if (facts.format != format || facts.kind == formats::Kind::Unknown) {
        return refuse("not a DXGI format the runtime knows");
    }
    if (facts.kind == formats::Kind::Video) return refuse("video formats are not decoded");
    if (format == DXGI_FORMAT_R1_UNORM) return refuse("1-bit texels are not decoded");

    plan = Plan{};
    plan.format = plan.decoded_as = format;
    plan.element_bytes = facts.bits_per_element / 8u;
    plan.block_width = facts.block_width;
    plan.block_height = facts.block_height;
    plan.typeless = formats::typeless(format);
    const DXGI_FORMAT typed = plan.typeless ? typed_member(format) : format;
    if (typed == DXGI_FORMAT_UNKNOWN) return refuse("a typeless format with no typed member");

    if (facts.kind == formats::Kind::Compressed) {
        plan.path = Path::Block;
        plan.decoded_as = typed;
        return true;
    }
    if (format == DXGI_FORMAT_R9G9B9E5_SHAREDEXP) {
        plan.path = Path::SharedExponent;
        return true;
    }
    if (format == DXGI_FORMAT_R8G8_B8G8_UNORM || format == DXGI_FORMAT_G8R8_G8B8_UNORM) {
        plan.path = Path::Pair;
        return true;
    }
    plan.layout = formats::pixel_layout(typed);
    if (plan.layout.bytes == 0 || plan.layout.bytes != plan.element_bytes) {
        return refuse("no texel layout");
    }
    if (plan.typeless) {
        for (ChannelLayout& channel : plan.layout.channels) {
            if (channel.type != ChannelType::Absent) channel.type = ChannelType::Uint;
        }
    } else {
        // Depth formats, and the views of the two depth-stencil groups' planes.
        const DXGI_FORMAT group_depth = formats::depth_format_of(formats::family(format));
        plan.depth_stencil = facts.kind == formats::Kind::Depth || formats::stencil(group_depth);
    }
    return true;
}

// That `bytes` holds width x height texels at `row_pitch`.
bool check_extent(const Plan& plan, std::size_t size, std::uint64_t row_pitch, std::uint32_t width,
                  std::uint32_t height, std::string* error) {
    if (width == 0 || height == 0) return true;
    const auto what = [&] {
        return std::to_string(width) + "x" + std::to_string(height) + " " +
               formats::describe(plan.format);
    };
    if (std::uint64_t{width} * height > kMaxTexels) {
        return fail(error, what() + ": larger than any Direct3D 11 texture");
    }
    const std::uint64_t row_bytes = formats::row_pitch(plan.format, width);
    const std::uint64_t rows = formats::row_count(plan.format, height);
    if (row_pitch < row_bytes) {
        return fail(error, what() + ": a row pitch of " + std::to_string(row_pitch) +
                               " bytes is less than a row of " + std::to_string(row_bytes));
    }
    const std::uint64_t limit = ~std::uint64_t{0};
    if (rows > 1 && row_pitch > (limit - row_bytes) / (rows - 1)) {
        return fail(error, what() + ": a row pitch of " + std::to_string(row_pitch) +
                               " bytes runs past any buffer");
    }
    const std::uint64_t needed = row_pitch * (rows - 1) + row_bytes;
    if (size < needed) {
        return fail(error, what() + " at a row pitch of " + std::to_string(row_pitch) + " needs " +
                               std::to_string(needed) + " bytes, got " + std::to_string(size));
    }
    return true;
}

ChannelKind block_kind(DXGI_FORMAT typed, unsigned channel) {
    switch (typed) {
        case DXGI_FORMAT_BC1_UNORM_SRGB:
        case DXGI_FORMAT_BC2_UNORM_SRGB:
        case DXGI_FORMAT_BC3_UNORM_SRGB:
        case DXGI_FORMAT_BC7_UNORM_SRGB:
            return channel < 3 ? ChannelKind::Srgb : ChannelKind::Unorm;
        case DXGI_FORMAT_BC4_UNORM:
            return channel < 1 ? ChannelKind::Unorm : ChannelKind::Absent;
        case DXGI_FORMAT_BC4_SNORM:
            return channel < 1 ? ChannelKind::Snorm : ChannelKind::Absent;
        case DXGI_FORMAT_BC5_UNORM:
            return channel < 2 ? ChannelKind::Unorm : ChannelKind::Absent;
        case DXGI_FORMAT_BC5_SNORM:
            return channel < 2 ? ChannelKind::Snorm : ChannelKind::Absent;
        case DXGI_FORMAT_BC6H_UF16:
        case DXGI_FORMAT_BC6H_SF16:
            return channel < 3 ? ChannelKind::Float : ChannelKind::Absent;
        default:
            return ChannelKind::Unorm;
    }
}

void texel_header(const Plan& plan, Texel& texel) {
    texel = Texel{};
    texel.format = plan.format;
    texel.decoded_as = plan.decoded_as;
    texel.typeless = plan.typeless;
    texel.depth_stencil = plan.depth_stencil;
    texel.compressed = plan.path == Path::Block;
}

void block_texel(const Plan& plan, const formats::BlockTexels& block, unsigned index,
                 Texel& texel) {
    texel_header(plan, texel);
    const bool half =
        plan.decoded_as == DXGI_FORMAT_BC6H_UF16 || plan.decoded_as == DXGI_FORMAT_BC6H_SF16;
    for (unsigned c = 0; c < 4; ++c) {
        TexelChannel& channel = texel.channels[c];
        channel.kind = block_kind(plan.decoded_as, c);
        if (!channel.present()) continue;
        channel.bits = half ? 16 : 8;
        const std::int32_t code = block.code[index][c];
        channel.integer = code;
        channel.code = static_cast<std::uint32_t>(code) & (half ? 0xffffu : 0xffu);
        channel.value = block.value[index][c];
    }
}

std::uint32_t load32(const std::uint8_t* bytes) {
    return bytes[0] | (bytes[1] << 8) | (bytes[2] << 16) | (std::uint32_t{bytes[3]} << 24);
}

// A texel of the non-block paths from its element; sub_x picks a pair's texel.
void element_texel(const Plan& plan, const std::uint8_t* element, unsigned sub_x, Texel& texel) {
    texel_header(plan, texel);
    if (plan.path == Path::SharedExponent) {
        const std::uint32_t word = load32(element);
        texel.shared_exponent = word >> 27;
        for (unsigned c = 0; c < 3; ++c) {
            TexelChannel& channel = texel.channels[c];
            channel.kind = ChannelKind::SharedExponent;
            channel.bits = 9;
            channel.code = (word >> (9 * c)) & 511;
            channel.integer = static_cast<std::int64_t>(channel.code);
            channel.value = std::ldexp(static_cast<double>(channel.code),
                                       static_cast<int>(texel.shared_exponent) - 24);
        }
        return;
    }
    if (plan.path == Path::Pair) {
        // R8G8_B8G8 stores R G0 B G1, G8R8_G8B8 G0 R G1 B.
        const bool rgbg = plan.format == DXGI_FORMAT_R8G8_B8G8_UNORM;
        const std::uint8_t codes[3] = {
            element[rgbg ? 0 : 1],
            element[(rgbg ? 1 : 0) + 2 * (sub_x % 2)],
            element[rgbg ? 2 : 3],
        };
        for (unsigned c = 0; c < 3; ++c) {
            TexelChannel& channel = texel.channels[c];
            channel.kind = ChannelKind::Unorm;
            channel.bits = 8;
            channel.code = codes[c];
            channel.integer = codes[c];
            channel.value = formats::convert::unorm_to_float(codes[c], 8);
        }
        return;
    }
    for (unsigned c = 0; c < 4; ++c) {
        const ChannelLayout& layout = plan.layout.channels[c];
        TexelChannel& channel = texel.channels[c];
        channel.kind = kind_of(layout.type);
        if (!channel.present()) continue;
        channel.bits = layout.bits;
        channel.code = formats::get_bits(element, layout.offset, layout.bits);
        const bool is_signed =
            layout.type == ChannelType::Sint || layout.type == ChannelType::Snorm;
        channel.integer = is_signed ? sign_extend(channel.code, layout.bits)
                                    : static_cast<std::int64_t>(channel.code);
        const bool integer = layout.type == ChannelType::Uint || layout.type == ChannelType::Sint;
        channel.value = integer
                            ? static_cast<double>(channel.integer)
                            : static_cast<double>(formats::decode_channel(layout, channel.code));
    }
}

// --- whole subresources ---

// One channel of a Layout format for decode_rgba: a table of every value
// for channels of up to 16 bits, else the conversion itself.
struct Reader {
    enum class Op : std::uint8_t { Constant, Table, Float32, Convert };
    Op op = Op::Constant;
    unsigned offset = 0;
    std::uint64_t mask = 0;
    float constant = 0.0f;
    const float* table = nullptr;
    ChannelLayout layout;
};

// The readers of a layout's four channels; channels of one type and width
// share a table (one 256 KB table stays in cache where four would not).
struct Readers {
    Reader channel[4];
    std::vector<float> tables[4];

    explicit Readers(const PixelLayout& layout) {
        for (unsigned c = 0; c < 4; ++c) {
            const ChannelLayout& source = layout.channels[c];
            Reader& reader = channel[c];
            if (source.type == ChannelType::Absent) {
                reader.constant = c == 3 ? 1.0f : 0.0f;
                continue;
            }
            reader.offset = source.offset;
            reader.mask = (std::uint64_t{1} << source.bits) - 1;
            reader.layout = source;
            if (source.bits > 16) {
                const bool float32 = source.type == ChannelType::Float && source.bits == 32;
                reader.op = float32 ? Reader::Op::Float32 : Reader::Op::Convert;
                continue;
            }
            reader.op = Reader::Op::Table;
            for (unsigned d = 0; d < c && reader.table == nullptr; ++d) {
                const ChannelLayout& other = layout.channels[d];
                if (other.type == source.type && other.bits == source.bits) {
                    reader.table = channel[d].table;
                }
            }
            if (reader.table != nullptr) continue;
            tables[c].resize(std::size_t{1} << source.bits);
            for (std::uint32_t code = 0; code < tables[c].size(); ++code) {
                tables[c][code] = formats::decode_channel(source, code);
            }
            reader.table = tables[c].data();
        }
    }
};

inline float read(const Reader& reader, std::uint64_t code) {
    switch (reader.op) {
        case Reader::Op::Constant:
            return reader.constant;
        case Reader::Op::Table:
            return reader.table[code];
        case Reader::Op::Float32:
            return std::bit_cast<float>(static_cast<std::uint32_t>(code));
        case Reader::Op::Convert:
            return formats::decode_channel(reader.layout, code);
    }
    return 0.0f;
}

struct Rows {
    const std::uint8_t* bytes;
    std::uint64_t row_pitch;
    std::uint32_t width, height;
    float* out;
};

// Channels of whole bytes (R8, R8G8, A8, RGBA8, BGRA8, ...): a table lookup
// per channel and nothing else.
bool decode_byte_channels(const Plan& plan, const Reader (&readers)[4], const Rows& rows) {
    const PixelLayout& layout = plan.layout;
    if (layout.bytes > 4) return false;
    std::vector<float> constants[4];
    const float* tables[4];
    unsigned offsets[4];
    for (unsigned c = 0; c < 4; ++c) {
        const ChannelLayout& channel = layout.channels[c];
        if (channel.type == ChannelType::Absent) {
            constants[c].assign(256, readers[c].constant);
            tables[c] = constants[c].data();
            offsets[c] = 0;
            continue;
        }
        if (channel.bits != 8 || channel.offset % 8 != 0) return false;
        tables[c] = readers[c].table;
        offsets[c] = channel.offset / 8u;
    }
    const unsigned stride = layout.bytes;
    for (std::uint32_t y = 0; y < rows.height; ++y) {
        const std::uint8_t* in = rows.bytes + y * rows.row_pitch;
        float* out = rows.out + std::size_t{y} * rows.width * 4;
        for (std::uint32_t x = 0; x < rows.width; ++x, in += stride, out += 4) {
            out[0] = tables[0][in[offsets[0]]];
            out[1] = tables[1][in[offsets[1]]];
            out[2] = tables[2][in[offsets[2]]];
            out[3] = tables[3][in[offsets[3]]];
        }
    }
    return true;
}

// Texels of 1, 2, 4 or 8 bytes read as one little-endian word.
template <typename Word>
void decode_words(const Reader (&readers)[4], const Rows& rows) {
    for (std::uint32_t y = 0; y < rows.height; ++y) {
        const std::uint8_t* in = rows.bytes + y * rows.row_pitch;
        float* out = rows.out + std::size_t{y} * rows.width * 4;
        for (std::uint32_t x = 0; x < rows.width; ++x, in += sizeof(Word), out += 4) {
            Word word;
            std::memcpy(&word, in, sizeof(Word));
            for (unsigned c = 0; c < 4; ++c) {
                out[c] =
                    read(readers[c], (std::uint64_t{word} >> readers[c].offset) & readers[c].mask);
            }
        }
    }
}

// Any other layout (the 12- and 16-byte ones): each channel on its own.
void decode_channels(const Plan& plan, const Reader (&readers)[4], const Rows& rows) {
    const PixelLayout& layout = plan.layout;
    for (std::uint32_t y = 0; y < rows.height; ++y) {
        const std::uint8_t* in = rows.bytes + y * rows.row_pitch;
        float* out = rows.out + std::size_t{y} * rows.width * 4;
        for (std::uint32_t x = 0; x < rows.width; ++x, in += layout.bytes, out += 4) {
            for (unsigned c = 0; c < 4; ++c) {
                const ChannelLayout& channel = layout.channels[c];
                std::uint64_t code = 0;
                if (channel.type == ChannelType::Absent) {
                } else if (channel.bits == 32 && channel.offset % 8 == 0) {
                    code = load32(in + channel.offset / 8);
                } else {
                    code = formats::get_bits(in, channel.offset, channel.bits);
                }
                out[c] = read(readers[c], code);
            }
        }
    }
}

void decode_layout(const Plan& plan, const Readers& all, const Rows& rows) {
    const Reader(&readers)[4] = all.channel;
    if (decode_byte_channels(plan, readers, rows)) return;
    switch (plan.layout.bytes) {
        case 1:
            return decode_words<std::uint8_t>(readers, rows);
        case 2:
            return decode_words<std::uint16_t>(readers, rows);
        case 4:
            return decode_words<std::uint32_t>(readers, rows);
        case 8:
            return decode_words<std::uint64_t>(readers, rows);
        default:
            return decode_channels(plan, readers, rows);
    }
}

void decode_blocks(const Plan& plan, const Rows& rows) {
    formats::BlockTexels block;
    const std::uint32_t blocks_x = (rows.width + 3) / 4, blocks_y = (rows.height + 3) / 4;
    for (std::uint32_t by = 0; by < blocks_y; ++by) {
        const std::uint8_t* in = rows.bytes + by * rows.row_pitch;
        for (std::uint32_t bx = 0; bx < blocks_x; ++bx, in += plan.element_bytes) {
            formats::decode_block(plan.decoded_as, in, block);
            const std::uint32_t w = std::min(4u, rows.width - bx * 4);
            const std::uint32_t h = std::min(4u, rows.height - by * 4);
            for (std::uint32_t ty = 0; ty < h; ++ty) {
                float* out = rows.out + (std::size_t{by} * 4 + ty) * rows.width * 4 + bx * 16;
                for (std::uint32_t tx = 0; tx < w; ++tx) {
                    for (unsigned c = 0; c < 4; ++c) {
                        *out++ = static_cast<float>(block.value[tx + 4 * ty][c]);
                    }
                }
            }
        }
    }
}

void decode_elements(const Plan& plan, const Rows& rows) {
    Texel texel;
    for (std::uint32_t y = 0; y < rows.height; ++y) {
        const std::uint8_t* in = rows.bytes + y * rows.row_pitch;
        float* out = rows.out + std::size_t{y} * rows.width * 4;
        for (std::uint32_t x = 0; x < rows.width; ++x) {
            element_texel(plan, in + (x / plan.block_width) * plan.element_bytes, x, texel);
            for (unsigned c = 0; c < 4; ++c) {
                const TexelChannel& channel = texel.channels[c];
                *out++ =
                    channel.present() ? static_cast<float>(channel.value) : (c == 3 ? 1.0f : 0.0f);
            }
        }
    }
}

// --- text ---

std::string fixed(double value, int decimals) {
    char buffer[64];
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
    return std::string(buffer, result.ptr);
}

std::string shortest(double value) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value));
    return std::string(buffer, result.ptr);
}

std::string hex(std::uint64_t code, unsigned bits) {
    char digits[32];
    const auto result = std::to_chars(digits, digits + sizeof digits, code, 16);
    std::string text(digits, result.ptr);
    const std::size_t width = (bits + 3) / 4;
    if (text.size() < width) text.insert(0, width - text.size(), '0');
    return "0x" + text;
}

}  // namespace

bool texel_decodable(DXGI_FORMAT format, std::string* why) {
    Plan plan;
    return make_plan(format, plan, why);
}

bool decode_texel(DXGI_FORMAT format, std::span<const std::uint8_t> bytes, std::uint64_t row_pitch,
                  std::uint32_t width, std::uint32_t height, std::uint32_t x, std::uint32_t y,
                  Texel& texel, std::string* error) {
    Plan plan;
    if (!make_plan(format, plan, error)) return false;
    if (!check_extent(plan, bytes.size(), row_pitch, width, height, error)) return false;
    if (x >= width || y >= height) {
        return fail(error, "texel (" + std::to_string(x) + ", " + std::to_string(y) +
                               ") is outside the " + std::to_string(width) + "x" +
                               std::to_string(height) + " subresource");
    }
    const std::uint8_t* element = bytes.data() + (y / plan.block_height) * row_pitch +
                                  std::uint64_t{x / plan.block_width} * plan.element_bytes;
    if (plan.path == Path::Block) {
        formats::BlockTexels block;
        formats::decode_block(plan.decoded_as, element, block);
        block_texel(plan, block, x % 4 + 4 * (y % 4), texel);
    } else {
        element_texel(plan, element, x, texel);
    }
    return true;
}

bool decode_block(DXGI_FORMAT format, std::span<const std::uint8_t> block,
                  std::array<Texel, 16>& texels, std::string* error) {
    Plan plan;
    if (!make_plan(format, plan, error)) return false;
    if (plan.path != Path::Block) {
        return fail(error, formats::describe(format) + ": not a block-compressed format");
    }
    if (block.size() < plan.element_bytes) {
        return fail(error, formats::describe(format) + ": a block is " +
                               std::to_string(plan.element_bytes) + " bytes, got " +
                               std::to_string(block.size()));
    }
    formats::BlockTexels decoded;
    formats::decode_block(plan.decoded_as, block.data(), decoded);
    for (unsigned i = 0; i < 16; ++i) block_texel(plan, decoded, i, texels[i]);
    return true;
}

struct RgbaDecoder::Tables {
    Plan plan;
    std::optional<Readers> readers;  // for Path::Layout
};

std::unique_ptr<RgbaDecoder> RgbaDecoder::make(DXGI_FORMAT format, std::string* error) {
    auto tables = std::make_unique<Tables>();
    if (!make_plan(format, tables->plan, error)) return nullptr;
    if (tables->plan.path == Path::Layout) tables->readers.emplace(tables->plan.layout);
    return std::unique_ptr<RgbaDecoder>(new RgbaDecoder(std::move(tables)));
}

RgbaDecoder::RgbaDecoder(std::unique_ptr<Tables> tables) : tables_(std::move(tables)) {}
RgbaDecoder::~RgbaDecoder() = default;

bool RgbaDecoder::decode(std::span<const std::uint8_t> bytes, std::uint64_t row_pitch,
                         std::uint32_t width, std::uint32_t height, std::span<float> rgba,
                         std::string* error) const {
    const Plan& plan = tables_->plan;
    if (!check_extent(plan, bytes.size(), row_pitch, width, height, error)) return false;
    const std::uint64_t floats = std::uint64_t{width} * height * 4;
    if (rgba.size() < floats) {
        return fail(error, "the output holds " + std::to_string(rgba.size()) + " floats, " +
                               std::to_string(width) + "x" + std::to_string(height) +
                               " texels need " + std::to_string(floats));
    }
    if (floats == 0) return true;
    const Rows rows{bytes.data(), row_pitch, width, height, rgba.data()};
    switch (plan.path) {
        case Path::Layout:
            decode_layout(plan, *tables_->readers, rows);
            break;
        case Path::Block:
            decode_blocks(plan, rows);
            break;
        case Path::SharedExponent:
        case Path::Pair:
            decode_elements(plan, rows);
            break;
    }
    return true;
}

bool decode_rgba(DXGI_FORMAT format, std::span<const std::uint8_t> bytes, std::uint64_t row_pitch,
                 std::uint32_t width, std::uint32_t height, std::span<float> rgba,
                 std::string* error) {
    const std::unique_ptr<RgbaDecoder> decoder = RgbaDecoder::make(format, error);
    return decoder && decoder->decode(bytes, row_pitch, width, height, rgba, error);
}

bool decode_rgba(DXGI_FORMAT format, std::span<const std::uint8_t> bytes, std::uint64_t row_pitch,
                 std::uint32_t width, std::uint32_t height, std::vector<float>& rgba,
                 std::string* error) {
    Plan plan;
    if (!make_plan(format, plan, error)) return false;
    if (!check_extent(plan, bytes.size(), row_pitch, width, height, error)) return false;
    rgba.resize(std::size_t{width} * height * 4);
    return decode_rgba(format, bytes, row_pitch, width, height, std::span<float>(rgba), error);
}

std::string describe_texel(const Texel& texel) {
    static constexpr const char* kLabels[4] = {"R", "G", "B", "A"};
    std::string text;
    bool shared_exponent = false;
    for (unsigned c = 0; c < 4; ++c) {
        const TexelChannel& channel = texel.channels[c];
        if (!channel.present()) continue;
        if (!text.empty()) text += ' ';
        text += texel.depth_stencil && c < 2 ? (c == 0 ? "D" : "S") : kLabels[c];
        text += ' ';
        switch (channel.kind) {
            case ChannelKind::Uint:
            case ChannelKind::Sint:
                text += std::to_string(channel.integer);
                break;
            case ChannelKind::Float:
                text += shortest(channel.value) + " (" + hex(channel.code, channel.bits) + ")";
                break;
            case ChannelKind::SharedExponent:
                shared_exponent = true;
                text += shortest(channel.value) + " (" + std::to_string(channel.integer) + ")";
                break;
            case ChannelKind::Unorm:
                if (texel.depth_stencil && c == 0) {
                    text += fixed(channel.value, 6) + " (" + hex(channel.code, channel.bits) + ")";
                    break;
                }
                [[fallthrough]];
            case ChannelKind::Snorm:
            case ChannelKind::Srgb:
            case ChannelKind::XrBias:
                text += fixed(channel.value, 3) + " (" + std::to_string(channel.integer) + ")";
                break;
            case ChannelKind::Absent:
                break;
        }
    }
    if (shared_exponent) text += " E " + std::to_string(texel.shared_exponent);
    if (texel.typeless) {
        if (texel.compressed) {
            text += " (typeless, as " + short_name(texel.decoded_as) + ")";
        } else {
            text += " (typeless)";
        }
    }
    return text;
}

}  // namespace d3dcap::runtime::formats
