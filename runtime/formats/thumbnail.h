// Downscaled copies of 8-bit four-channel render targets, stored beside
// their content hashes, and the distance between two of them: hashes are
// exact, but two GPUs may round filtered or blended texels differently, and
// replay on another GPU tells such rounding from wrong pixels by the largest
// channel difference. Header-only: capture and replay both use it.
#pragma once

#include <dxgiformat.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace d3dcap::runtime::formats {

// Texels of four 8-bit UNORM channels (RGBA or BGRA, sRGB or not).
inline bool thumbnail_format(DXGI_FORMAT format) {
    switch (format) {
        case DXGI_FORMAT_R8G8B8A8_TYPELESS:
        case DXGI_FORMAT_R8G8B8A8_UNORM:
        case DXGI_FORMAT_R8G8B8A8_UNORM_SRGB:
        case DXGI_FORMAT_B8G8R8A8_TYPELESS:
        case DXGI_FORMAT_B8G8R8A8_UNORM:
        case DXGI_FORMAT_B8G8R8A8_UNORM_SRGB:
        case DXGI_FORMAT_B8G8R8X8_TYPELESS:
        case DXGI_FORMAT_B8G8R8X8_UNORM:
        case DXGI_FORMAT_B8G8R8X8_UNORM_SRGB:
            return true;
        default:
            return false;
    }
}

// The fourth channel of BGRX formats holds nothing a device must keep.
inline std::uint32_t thumbnail_channels(DXGI_FORMAT format) {
    switch (format) {
        case DXGI_FORMAT_B8G8R8X8_TYPELESS:
        case DXGI_FORMAT_B8G8R8X8_UNORM:
        case DXGI_FORMAT_B8G8R8X8_UNORM_SRGB:
            return 3;
        default:
            return 4;
    }
}

// Copies are at most this wide: the scale is the smallest that gets there.
inline constexpr std::uint32_t kThumbnailWidth = 256;
// Two pictures differ by rounding when no channel of any texel is more than
// this many units of 255 apart. Two conformant devices may each round a
// float-to-UNORM conversion, a filter weight or a blend to either neighbour,
// which puts their results 1, at most 2, apart (lavapipe and an H100: 1); a
// wrong texel is further.
inline constexpr std::uint32_t kRoundingBound = 2;

struct Thumbnail {
    std::uint32_t width = 0, height = 0, scale = 1;
    std::vector<std::uint8_t> rgba;
};

// texels: width x height texels of 4 bytes, rows tightly packed. Each copy
// texel is the rounded mean of its scale x scale block (fewer at the edges).
// Texels within kRoundingBound of each other give means within it too.
inline Thumbnail make_thumbnail(const std::uint8_t* texels, std::uint32_t width,
                                std::uint32_t height) {
    Thumbnail out;
    out.scale = std::max<std::uint32_t>(1, (width + kThumbnailWidth - 1) / kThumbnailWidth);
    out.width = (width + out.scale - 1) / out.scale;
    out.height = (height + out.scale - 1) / out.scale;
    out.rgba.resize(std::size_t{out.width} * out.height * 4);
    for (std::uint32_t ty = 0; ty < out.height; ++ty) {
        for (std::uint32_t tx = 0; tx < out.width; ++tx) {
            std::uint32_t sums[4] = {}, count = 0;
            for (std::uint32_t y = ty * out.scale; y < std::min(height, (ty + 1) * out.scale); ++y)
                for (std::uint32_t x = tx * out.scale; x < std::min(width, (tx + 1) * out.scale);
                     ++x, ++count)
                    for (int c = 0; c < 4; ++c)
                        sums[c] += texels[(std::size_t{y} * width + x) * 4 + c];
            for (int c = 0; c < 4; ++c)
                out.rgba[(std::size_t{ty} * out.width + tx) * 4 + c] =
                    static_cast<std::uint8_t>((sums[c] + count / 2) / count);
        }
    }
    return out;
}

// A rectangle of texels of the full picture.
struct TexelRegion {
    std::uint32_t x = 0, y = 0, width = 0, height = 0;
};

// How far apart a recorded and a replayed copy of one picture are. With scale
// 1 the copies are the pictures and every texel was compared; with a larger
// scale each compared texel is the mean of scale x scale texels, so a few
// wrong texels can hide among right ones.
struct ImageDistance {
    bool comparable = false;  // same size and scale
    std::uint32_t scale = 1;
    std::uint32_t width = 0, height = 0;  // of the compared copies
    std::uint32_t max_difference = 0;     // the largest channel difference, of 255
    std::uint64_t texels_past_bound = 0;  // compared texels with a channel past kRoundingBound
    // The full picture's texels that those cover (empty when there are none).
    TexelRegion past_bound;

    bool full_resolution() const { return scale == 1; }
    bool within_tolerance() const { return comparable && texels_past_bound == 0; }
};

// channels: 4, or 3 to leave out the fourth (see thumbnail_channels).
// picture_width and picture_height clip the region of wrong texels to the
// picture (the copies' last column and row may cover fewer texels).
inline ImageDistance image_distance(const Thumbnail& recorded, const Thumbnail& replayed,
                                    std::uint32_t channels, std::uint32_t picture_width,
                                    std::uint32_t picture_height) {
    ImageDistance d;
    if (recorded.width != replayed.width || recorded.height != replayed.height ||
        recorded.scale != replayed.scale || recorded.scale == 0 ||
        recorded.rgba.size() != std::size_t{recorded.width} * recorded.height * 4 ||
        replayed.rgba.size() != recorded.rgba.size() || recorded.rgba.empty())
        return d;
    d.comparable = true;
    d.scale = recorded.scale;
    d.width = recorded.width;
    d.height = recorded.height;
    std::uint32_t left = d.width, top = d.height, right = 0, bottom = 0;  // copy texels, inclusive
    for (std::uint32_t y = 0; y < d.height; ++y) {
        for (std::uint32_t x = 0; x < d.width; ++x) {
            const std::size_t at = (std::size_t{y} * d.width + x) * 4;
            std::uint32_t texel_difference = 0;
            for (std::uint32_t c = 0; c < channels && c < 4; ++c)
                texel_difference = std::max<std::uint32_t>(
                    texel_difference, std::abs(int{recorded.rgba[at + c]} - replayed.rgba[at + c]));
            d.max_difference = std::max(d.max_difference, texel_difference);
            if (texel_difference <= kRoundingBound) continue;
            ++d.texels_past_bound;
            left = std::min(left, x);
            top = std::min(top, y);
            right = std::max(right, x);
            bottom = std::max(bottom, y);
        }
    }
    if (d.texels_past_bound > 0) {
        d.past_bound.x = left * d.scale;
        d.past_bound.y = top * d.scale;
        const std::uint32_t end_x = std::min(picture_width, (right + 1) * d.scale);
        const std::uint32_t end_y = std::min(picture_height, (bottom + 1) * d.scale);
        d.past_bound.width = end_x > d.past_bound.x ? end_x - d.past_bound.x : 0;
        d.past_bound.height = end_y > d.past_bound.y ? end_y - d.past_bound.y : 0;
    }
    return d;
}

}  // namespace d3dcap::runtime::formats
