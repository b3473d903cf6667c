// A subresource's contents for display: the range each channel of the
// shown depth slice (sample 0 of MSAA textures) spans, and the image the
// view paints for a choice of channels and a value range. Texels are
// decoded a row of elements at a time, each time a picture is made: no
// float copy of the subresource is kept (a 4096x4096 one would be 256 MiB).
#pragma once

#include <QImage>
#include <QString>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "replay/engine/contents.h"

namespace d3dcap::viewer {

// The smallest and largest finite value of each channel (depth in R,
// stencil in G); 0 and 0 for a channel with none.
struct ChannelRange {
    std::array<float, 4> lowest{}, highest{};
};

struct DecodedContents {
    replay::ResourceContents contents;  // the bytes as read back, for texel values
    // Sample 0 of each texel of an MSAA subresource (whose samples sit side
    // by side in the bytes read back); empty for one sample.
    std::vector<std::uint8_t> first_samples;
    std::uint32_t z = 0;                  // the depth slice shown (3D textures)
    std::uint32_t width = 0, height = 0;  // texels of the subresource
    // The bytes hold contents.window: texels from its corner, every
    // window.step-th one. More than kMaxShownTexels of them a side (whole
    // blocks of a compressed format) are thinned to every pick-th when
    // decoded: a 16384x16384 texture is not 4 GiB of floats. step (a power
    // of two) is what a shown pixel stands for: window.step * pick texels.
    std::uint32_t pick = 1;
    std::uint32_t step = 1;
    std::uint32_t shown_width = 0, shown_height = 0;
    // The range of the values shown, found while decoding for formats whose
    // values may leave [0, 1] (floats, integers, SNORM, depth); UNORM
    // formats find it when asked (channel_range).
    std::optional<ChannelRange> range;
    QString error;  // why the texels cannot be shown (a buffer, a video format)
};

// What the view shows of the channels: which of R, G, B, A, and the values
// that map to black and white. One channel alone shows as grey; alpha with
// colour channels blends them over a checkerboard.
struct ContentsDisplay {
    std::array<bool, 4> channels{true, true, true, false};
    double low = 0, high = 1;
    bool operator==(const ContentsDisplay&) const = default;
};

inline constexpr std::uint32_t kMaxShownTexels = 4096;

// Decodes texels of depth slice z (clamped to the subresource's depth).
std::shared_ptr<DecodedContents> decode_contents(replay::ResourceContents contents,
                                                 std::uint32_t z);
// The range of the values shown: decoded->range, or one pass over the texels.
ChannelRange channel_range(const DecodedContents& decoded);
// The picture for display: shown_width x shown_height, RGB32; sRGB
// formats show their colours encoded, as on a screen.
QImage render_contents(const DecodedContents& decoded, const ContentsDisplay& display);
// The texel of the subresource a shown pixel stands for, at or before
// (x, y); nothing outside what the bytes hold.
std::optional<std::array<std::uint32_t, 2>> shown_texel(const DecodedContents& decoded,
                                                        std::uint32_t x, std::uint32_t y);
// "texel (12, 40): R 0.502 (128) G 0.000 (0) B 1.000 (255) A 1.000 (255)"
// for a texel shown_texel gives; empty for others.
QString describe_texel(const DecodedContents& decoded, std::uint32_t x, std::uint32_t y);

}  // namespace d3dcap::viewer
