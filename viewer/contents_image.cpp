#include "viewer/contents_image.h"

#include <algorithm>
#include <cmath>
#include <span>

#include "runtime/formats.h"
#include "runtime/texel_decode.h"

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

std::uint8_t to_byte(double value, double low, double high) {
    if (!(value == value)) return 0;  // NaN
    const double unit = std::clamp((value - low) / (high - low), 0.0, 1.0);
    return static_cast<std::uint8_t>(std::lround(unit * 255));
}

}  // namespace

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
    const std::uint64_t row_pitch = formats::row_pitch(shape.format, shape.width);
    const std::uint64_t slice_bytes = row_pitch * formats::row_count(shape.format, shape.height);
    const std::vector<std::uint8_t>* bytes = &decoded->contents.bytes;
    if (samples > 1) {
        decoded->first_samples =
            first_samples(*bytes, formats::info(shape.format).bits_per_element / 8, samples);
        bytes = &decoded->first_samples;
    }
    if (slice_bytes == 0 || bytes->size() < slice_bytes * (decoded->z + 1)) {
        decoded->error =
            QStringLiteral("%1 bytes read back, fewer than a %2x%3 %4 subresource needs")
                .arg(bytes->size())
                .arg(shape.width)
                .arg(shape.height)
                .arg(QString::fromStdString(formats::describe(shape.format)));
        return decoded;
    }
    const std::span<const std::uint8_t> slice(bytes->data() + slice_bytes * decoded->z,
                                              slice_bytes);
    while (std::max(shape.width, shape.height) / decoded->step > kMaxShownTexels)
        decoded->step *= 2;
    const std::uint32_t step = decoded->step;
    decoded->shown_width = (shape.width + step - 1) / step;
    decoded->shown_height = (shape.height + step - 1) / step;
    std::string error;
    if (step == 1) {
        if (!runtime::decode_rgba(shape.format, slice, row_pitch, shape.width, shape.height,
                                  decoded->rgba, &error)) {
            decoded->error = QString::fromStdString(error);
            return decoded;
        }
    } else {
        // Row by row: the rows of elements holding each shown row decoded
        // whole, then every step-th texel kept.
        const std::uint32_t block_height = formats::info(shape.format).block_height;
        std::vector<float> row;
        decoded->rgba.resize(std::size_t{decoded->shown_width} * decoded->shown_height * 4);
        for (std::uint32_t shown_y = 0; shown_y < decoded->shown_height; ++shown_y) {
            const std::uint32_t y = shown_y * step;
            const std::uint32_t first = y / block_height * block_height;
            const std::uint32_t rows = std::min(block_height, shape.height - first);
            const std::span<const std::uint8_t> element_row =
                slice.subspan(std::size_t(first / block_height * row_pitch));
            if (!runtime::decode_rgba(shape.format, element_row, row_pitch, shape.width, rows, row,
                                      &error)) {
                decoded->error = QString::fromStdString(error);
                return decoded;
            }
            const float* source = row.data() + std::size_t(y - first) * shape.width * 4;
            float* out = decoded->rgba.data() + std::size_t(shown_y) * decoded->shown_width * 4;
            for (std::uint32_t x = 0; x < decoded->shown_width; ++x)
                std::copy_n(source + std::size_t(x) * step * 4, 4, out + std::size_t(x) * 4);
        }
    }
    decoded->width = shape.width;
    decoded->height = shape.height;
    decoded->lowest.fill(INFINITY);
    decoded->highest.fill(-INFINITY);
    for (std::size_t i = 0; i < decoded->rgba.size(); ++i) {
        const float value = decoded->rgba[i];
        if (!std::isfinite(value)) continue;
        decoded->lowest[i % 4] = std::min(decoded->lowest[i % 4], value);
        decoded->highest[i % 4] = std::max(decoded->highest[i % 4], value);
    }
    for (int c = 0; c < 4; ++c) {
        if (decoded->lowest[c] > decoded->highest[c]) decoded->lowest[c] = decoded->highest[c] = 0;
    }
    return decoded;
}

QImage render_contents(const DecodedContents& decoded, const ContentsDisplay& display) {
    if (decoded.shown_width == 0 || decoded.shown_height == 0) return {};
    QImage image(int(decoded.shown_width), int(decoded.shown_height), QImage::Format_RGB32);
    const double low = display.low;
    const double high = display.high > display.low ? display.high : display.low + 1;
    const auto& on = display.channels;
    const int colours = int(on[0]) + int(on[1]) + int(on[2]);
    // One channel alone (alpha included) shows as grey.
    const int alone =
        colours + int(on[3]) == 1 ? int(std::find(on.begin(), on.end(), true) - on.begin()) : -1;
    const bool blend = on[3] && colours > 0;
    for (std::uint32_t y = 0; y < decoded.shown_height; ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(int(y)));
        const float* texel = decoded.rgba.data() + std::size_t(y) * decoded.shown_width * 4;
        for (std::uint32_t x = 0; x < decoded.shown_width; ++x, texel += 4) {
            if (alone >= 0) {
                const std::uint8_t grey = to_byte(texel[alone], low, high);
                line[x] = qRgb(grey, grey, grey);
                continue;
            }
            int rgb[3];
            for (int c = 0; c < 3; ++c) rgb[c] = on[c] ? to_byte(texel[c], low, high) : 0;
            if (blend) {
                // Over a checkerboard of 8-texel squares, so that alpha shows.
                const int board = ((x / 8 + y / 8) % 2) != 0 ? 200 : 120;
                const double alpha = std::clamp(double(texel[3]), 0.0, 1.0);
                for (int& c : rgb) c = int(std::lround(c * alpha + board * (1 - alpha)));
            }
            line[x] = qRgb(rgb[0], rgb[1], rgb[2]);
        }
    }
    return image;
}

QString describe_texel(const DecodedContents& decoded, std::uint32_t x, std::uint32_t y) {
    const replay::SubresourceShape& shape = decoded.contents.shape;
    if (x >= decoded.width || y >= decoded.height) return {};
    const std::uint64_t row_pitch = formats::row_pitch(shape.format, shape.width);
    const std::uint64_t slice_bytes = row_pitch * formats::row_count(shape.format, shape.height);
    const std::vector<std::uint8_t>& bytes =
        decoded.first_samples.empty() ? decoded.contents.bytes : decoded.first_samples;
    const std::span<const std::uint8_t> slice(bytes.data() + slice_bytes * decoded.z, slice_bytes);
    runtime::Texel texel;
    std::string error;
    if (!runtime::decode_texel(shape.format, slice, row_pitch, shape.width, shape.height, x, y,
                               texel, &error)) {
        return QString::fromStdString(error);
    }
    return QStringLiteral("texel (%1, %2)%3: %4")
        .arg(x)
        .arg(y)
        .arg(decoded.first_samples.empty() ? QString() : QStringLiteral(" sample 0"))
        .arg(QString::fromStdString(runtime::describe_texel(texel)));
}

}  // namespace d3dcap::viewer
