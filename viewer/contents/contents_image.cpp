#include "viewer/contents/contents_image.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <span>

#include "runtime/formats/formats.h"
#include "runtime/formats/texel_decode.h"

namespace d3dcap::viewer {

namespace {

// Sample 0 of every texel of an MSAA subresource, whose samples sit side
// by side in the canonical layout.
std::vector<std::uint8_t> first_samples(const std::vector<std::uint8_t>& bytes,
                                        std::size_t texel_bytes, std::uint32_t samples) {
    std::vector<std::uint8_t> out(bytes.size() / samples);
    for (std::size_t texel = 0; texel * texel_bytes < out.size(); ++texel) {
        std::copy_n(bytes.begin() + std::ptrdiff_t(texel * texel_bytes * samples), texel_bytes,
                    out.begin() + std::ptrdiff_t(texel * texel_bytes));
    }
    return out;
}

// value in [low, high] to 0-255, rounded half up: low and scale =
// 255 / (high - low) come from the caller, once a picture.
inline std::uint8_t to_byte(float value, float low, float scale) {
    float scaled = (value - low) * scale;
    scaled = scaled > 0.0f ? scaled : 0.0f;  // NaN fails the test and reads 0
    scaled = scaled < 255.0f ? scaled : 255.0f;
    return static_cast<std::uint8_t>(scaled + 0.5f);
}

}  // namespace

namespace {

// Texels of the picture the bytes make: the window's elements.
std::uint32_t bytes_width(const DecodedContents& decoded) {
    return decoded.contents.window.columns();
}
std::uint32_t bytes_height(const DecodedContents& decoded) {
    return decoded.contents.window.rows();
}

std::uint64_t slice_bytes(const DecodedContents& decoded) {
    const DXGI_FORMAT format = decoded.contents.shape.format;
    return runtime::formats::row_pitch(format, bytes_width(decoded)) *
           runtime::formats::row_count(format, bytes_height(decoded));
}

// The bytes of the shown depth slice (sample 0 of MSAA texels).
std::span<const std::uint8_t> shown_slice(const DecodedContents& decoded) {
    const std::vector<std::uint8_t>& bytes =
        decoded.first_samples.empty() ? decoded.contents.bytes : decoded.first_samples;
    const std::uint64_t size = slice_bytes(decoded);
    return {bytes.data() + size * decoded.z, size};
}

// Calls row(shown_y, texels) for every shown row, texels holding 4 floats
// for each of its shown_width texels: each row of elements is decoded
// once, into a buffer of a few rows, so that no float copy of the whole
// subresource is made. False, with why, when the decoder refuses.
template <class Row>
bool for_each_shown_row(const DecodedContents& decoded, Row&& row, std::string& error) {
    const DXGI_FORMAT format = decoded.contents.shape.format;
    const std::uint32_t width = bytes_width(decoded), height = bytes_height(decoded);
    const std::span<const std::uint8_t> slice = shown_slice(decoded);
    const std::uint64_t row_pitch = runtime::formats::row_pitch(format, width);
    const std::uint32_t block_height = runtime::formats::info(format).block_height;
    const std::uint32_t step = decoded.pick;
    const std::unique_ptr<runtime::formats::RgbaDecoder> decoder =
        runtime::formats::RgbaDecoder::make(format, &error);
    if (!decoder) return false;
    std::vector<float> rows(std::size_t{width} * block_height * 4);
    std::vector<float> picked(std::size_t{decoded.shown_width} * 4);
    std::uint32_t decoded_first = UINT32_MAX;  // the first texel row in rows
    for (std::uint32_t shown_y = 0; shown_y < decoded.shown_height; ++shown_y) {
        const std::uint32_t y = shown_y * step;
        const std::uint32_t first = y / block_height * block_height;
        if (first != decoded_first) {
            const std::uint32_t count = std::min(block_height, height - first);
            if (!decoder->decode(slice.subspan(std::size_t(first / block_height * row_pitch)),
                                 row_pitch, width, count, rows, &error))
                return false;
            decoded_first = first;
        }
        const float* texels = rows.data() + std::size_t(y - first) * width * 4;
        if (step > 1) {
            for (std::uint32_t x = 0; x < decoded.shown_width; ++x)
                std::copy_n(texels + std::size_t(x) * step * 4, 4,
                            picked.data() + std::size_t(x) * 4);
            texels = picked.data();
        }
        row(shown_y, texels);
    }
    return true;
}

// One pass over the shown texels.
bool find_range(const DecodedContents& decoded, ChannelRange& range, std::string& error) {
    std::array<float, 4> lowest, highest;
    lowest.fill(INFINITY);
    highest.fill(-INFINITY);
    const std::uint32_t shown_width = decoded.shown_width;
    const bool found = for_each_shown_row(
        decoded,
        [&](std::uint32_t, const float* texels) {
            // Copies of a row's own, which the texels cannot alias.
            std::array<float, 4> low = lowest, high = highest;
            for (std::uint32_t x = 0; x < shown_width; ++x, texels += 4) {
                for (int c = 0; c < 4; ++c) {
                    // Without branches: NaN and infinities fail the first test.
                    const float value = texels[c];
                    const bool finite = std::fabs(value) <= FLT_MAX;
                    low[c] = finite && value < low[c] ? value : low[c];
                    high[c] = finite && value > high[c] ? value : high[c];
                }
            }
            lowest = low;
            highest = high;
        },
        error);
    for (int c = 0; c < 4; ++c) {
        if (lowest[c] > highest[c]) lowest[c] = highest[c] = 0;
    }
    range = ChannelRange{lowest, highest};
    return found;
}

}  // namespace

ChannelRange channel_range(const DecodedContents& decoded) {
    if (decoded.range) return *decoded.range;
    ChannelRange range;
    std::string error;
    find_range(decoded, range, error);
    return range;
}

std::shared_ptr<DecodedContents> decode_contents(replay::ResourceContents contents,
                                                 std::uint32_t z) {
    auto decoded = std::make_shared<DecodedContents>();
    decoded->contents = std::move(contents);
    const replay::SubresourceShape& shape = decoded->contents.shape;
    if (shape.buffer) {
        decoded->error = QStringLiteral("A buffer of %1 bytes").arg(shape.width);
        return decoded;
    }
    decoded->z = std::min(z, std::max<std::uint32_t>(1, shape.depth) - 1);
    const std::uint32_t samples = std::max<UINT>(1, shape.sample_count);
    const replay::TexelWindow& window = decoded->contents.window;
    const std::uint64_t slice = slice_bytes(*decoded);
    if (samples > 1) {
        decoded->first_samples =
            first_samples(decoded->contents.bytes,
                          runtime::formats::info(shape.format).bits_per_element / 8, samples);
    }
    const std::size_t have =
        samples > 1 ? decoded->first_samples.size() : decoded->contents.bytes.size();
    if (slice == 0 || have < slice * (decoded->z + 1)) {
        decoded->error = QStringLiteral("%1 bytes read back, fewer than %2x%3 texels of %4 need")
                             .arg(have)
                             .arg(bytes_width(*decoded))
                             .arg(bytes_height(*decoded))
                             .arg(QString::fromStdString(runtime::formats::describe(shape.format)));
        return decoded;
    }
    const std::uint32_t width = bytes_width(*decoded), height = bytes_height(*decoded);
    while (std::max(width, height) / decoded->pick > kMaxShownTexels) decoded->pick *= 2;
    decoded->step = window.step * decoded->pick;
    decoded->shown_width = (width + decoded->pick - 1) / decoded->pick;
    decoded->shown_height = (height + decoded->pick - 1) / decoded->pick;
    std::string error;
    // UNORM values lie in [0, 1]: their range is found only when asked for.
    const runtime::formats::Kind kind = runtime::formats::info(shape.format).kind;
    const runtime::formats::Kind values = kind == runtime::formats::Kind::Compressed
                                              ? runtime::formats::info(shape.format).block_kind
                                              : kind;
    const bool unit_range =
        values == runtime::formats::Kind::Unorm || values == runtime::formats::Kind::UnormSrgb;
    decoded->width = shape.width;
    decoded->height = shape.height;
    if (!unit_range) {
        ChannelRange range;
        if (!find_range(*decoded, range, error)) {
            decoded->error = QString::fromStdString(error);
            decoded->shown_width = decoded->shown_height = 0;
            return decoded;
        }
        decoded->range = range;
    } else if (!runtime::formats::texel_decodable(shape.format, &error)) {
        decoded->error = QString::fromStdString(error);
        decoded->shown_width = decoded->shown_height = 0;
    }
    return decoded;
}

QImage render_contents(const DecodedContents& decoded, const ContentsDisplay& display) {
    if (decoded.shown_width == 0 || decoded.shown_height == 0) return {};
    QImage image(int(decoded.shown_width), int(decoded.shown_height), QImage::Format_RGB32);
    const auto low = float(display.low);
    const auto scale =
        float(255.0 / (display.high > display.low ? display.high - display.low : 1.0));
    const auto& on = display.channels;
    const int colours = int(on[0]) + int(on[1]) + int(on[2]);
    // One channel alone (alpha included) shows as grey.
    const int alone =
        colours + int(on[3]) == 1 ? int(std::find(on.begin(), on.end(), true) - on.begin()) : -1;
    const bool blend = on[3] && colours > 0;
    // sRGB texels decode to linear values: encoded again, they show as the
    // texture looks on a screen.
    const DXGI_FORMAT format = decoded.contents.shape.format;
    const bool srgb =
        runtime::formats::info(format).kind == runtime::formats::Kind::UnormSrgb ||
        runtime::formats::info(format).block_kind == runtime::formats::Kind::UnormSrgb;
    static const std::vector<float> encoded_srgb = [] {
        std::vector<float> table(4096);
        for (std::size_t i = 0; i < table.size(); ++i) {
            const double linear = double(i) / double(table.size() - 1);
            table[i] = float(linear <= 0.0031308 ? linear * 12.92
                                                 : 1.055 * std::pow(linear, 1 / 2.4) - 0.055);
        }
        return table;
    }();
    std::vector<float> srgb_row(srgb ? std::size_t{decoded.shown_width} * 4 : 0);
    std::string error;
    const bool drawn = for_each_shown_row(
        decoded,
        [&](std::uint32_t y, const float* texel) {
            auto* line = reinterpret_cast<QRgb*>(image.scanLine(int(y)));
            const std::uint32_t width = decoded.shown_width;  // not reread per texel
            if (srgb) {
                for (std::size_t i = 0; i < srgb_row.size(); ++i) {
                    const float value = texel[i] > 0.0f ? std::min(texel[i], 1.0f) : 0.0f;
                    srgb_row[i] =
                        i % 4 == 3 ? value : encoded_srgb[std::size_t(value * 4095 + 0.5f)];
                }
                texel = srgb_row.data();
            }
            if (colours == 3 && !on[3]) {  // the usual picture: no choices per texel
                for (std::uint32_t x = 0; x < width; ++x, texel += 4)
                    line[x] = qRgb(to_byte(texel[0], low, scale), to_byte(texel[1], low, scale),
                                   to_byte(texel[2], low, scale));
                return;
            }
            for (std::uint32_t x = 0; x < decoded.shown_width; ++x, texel += 4) {
                if (alone >= 0) {
                    const std::uint8_t grey = to_byte(texel[alone], low, scale);
                    line[x] = qRgb(grey, grey, grey);
                    continue;
                }
                int rgb[3];
                for (int c = 0; c < 3; ++c) rgb[c] = on[c] ? to_byte(texel[c], low, scale) : 0;
                if (blend) {
                    // Over a checkerboard of 8-pixel squares, so that alpha shows.
                    const int board = ((x / 8 + y / 8) % 2) != 0 ? 200 : 120;
                    const float alpha = std::clamp(texel[3], 0.0f, 1.0f);
                    for (int& c : rgb)
                        c = int(float(c) * alpha + float(board) * (1 - alpha) + 0.5f);
                }
                line[x] = qRgb(rgb[0], rgb[1], rgb[2]);
            }
        },
        error);
    return drawn ? image : QImage();
}

std::optional<std::array<std::uint32_t, 2>> shown_texel(const DecodedContents& decoded,
                                                        std::uint32_t x, std::uint32_t y) {
    const replay::TexelWindow& window = decoded.contents.window;
    if (decoded.shown_width == 0 || x < window.x || y < window.y || x - window.x >= window.width ||
        y - window.y >= window.height)
        return std::nullopt;
    // Thinned when decoded too: the texel of the shown pixel.
    const std::uint32_t step = decoded.step;
    return std::array<std::uint32_t, 2>{window.x + (x - window.x) / step * step,
                                        window.y + (y - window.y) / step * step};
}

QString describe_texel(const DecodedContents& decoded, std::uint32_t x, std::uint32_t y) {
    const replay::SubresourceShape& shape = decoded.contents.shape;
    const replay::TexelWindow& window = decoded.contents.window;
    const auto shown = shown_texel(decoded, x, y);
    if (!shown || (*shown)[0] != x || (*shown)[1] != y) return {};
    const std::uint32_t width = bytes_width(decoded);
    const std::uint64_t row_pitch = runtime::formats::row_pitch(shape.format, width);
    const std::span<const std::uint8_t> slice = shown_slice(decoded);
    runtime::formats::Texel texel;
    std::string error;
    if (!runtime::formats::decode_texel(shape.format, slice, row_pitch, width,
                                        bytes_height(decoded), (x - window.x) / window.step,
                                        (y - window.y) / window.step, texel, &error)) {
        return QString::fromStdString(error);
    }
    return QStringLiteral("texel (%1, %2)%3: %4")
        .arg(x)
        .arg(y)
        .arg(decoded.first_samples.empty() ? QString() : QStringLiteral(" sample 0"))
        .arg(QString::fromStdString(runtime::formats::describe_texel(texel)));
}

}  // namespace d3dcap::viewer
