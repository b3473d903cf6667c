// Downscaled copies of 8-bit four-channel render targets, stored beside
// their content hashes, and the distance between two of them: hashes are
// exact, but two GPUs may round filtered or blended texels differently, and
// replay on another GPU tells such rounding from wrong pixels by PSNR.
// Header-only: capture and replay both use it.
#pragma once

#include <dxgiformat.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace d3dcap::runtime {

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

// Copies are at most this wide: the scale is the smallest that gets there.
inline constexpr std::uint32_t kThumbnailWidth = 256;
// At or above this PSNR (dB) two copies differ by rounding; below, they are
// different pictures.
inline constexpr double kThumbnailTolerancePsnr = 40.0;

struct Thumbnail {
    std::uint32_t width = 0, height = 0, scale = 1;
    std::vector<std::uint8_t> rgba;
};

// texels: width x height texels of 4 bytes, rows tightly packed. Each copy
// texel is the rounded mean of its scale x scale block (fewer at the edges).
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

struct ImageDistance {
    bool comparable = false;  // same size
    std::uint32_t max_difference = 0;
    double psnr = std::numeric_limits<double>::infinity();  // dB; infinite when equal
    bool within_tolerance() const { return comparable && psnr >= kThumbnailTolerancePsnr; }
};

inline ImageDistance image_distance(const Thumbnail& a, const Thumbnail& b) {
    ImageDistance d;
    if (a.width != b.width || a.height != b.height || a.rgba.size() != b.rgba.size() ||
        a.rgba.empty())
        return d;
    d.comparable = true;
    double squares = 0;
    for (std::size_t i = 0; i < a.rgba.size(); ++i) {
        const int difference = std::abs(int{a.rgba[i]} - int{b.rgba[i]});
        d.max_difference = std::max<std::uint32_t>(d.max_difference, difference);
        squares += double(difference) * difference;
    }
    if (squares > 0) d.psnr = 10.0 * std::log10(255.0 * 255.0 * double(a.rgba.size()) / squares);
    return d;
}

}  // namespace d3dcap::runtime
