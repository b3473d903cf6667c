#include "replay/engine/contents_files.h"

#include <png.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <vector>

#include "runtime/formats/formats.h"
#include "runtime/formats/texel_decode.h"

namespace d3dcap::replay {

namespace {

bool ends_with(const std::string& text, const std::string& end) {
    return text.size() >= end.size() &&
           text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// One channel value for an 8-bit picture: sRGB formats decode to linear
// values, so they are encoded again as they were stored.
std::uint8_t picture_byte(float value, bool srgb) {
    if (!(value > 0.0f)) return 0;  // NaN too
    if (value >= 1.0f) return 255;
    if (srgb)
        value =
            value <= 0.0031308f ? value * 12.92f : 1.055f * std::pow(value, 1.0f / 2.4f) - 0.055f;
    return static_cast<std::uint8_t>(std::lround(value * 255.0f));
}

// The first depth slice as an 8-bit RGBA PNG (R, G, B and A as decoded;
// channels a format lacks read 0, alpha 1).
bool write_png(const std::string& path, const ResourceContents& contents, std::string& error) {
    const SubresourceShape& shape = contents.shape;
    if (shape.buffer) {
        error = "a buffer has no picture; export it to .raw";
        return false;
    }
    if (shape.sample_count > 1) {
        error = "a multisampled texture has no single picture; export it to .dds or .raw";
        return false;
    }
    const std::uint64_t row_pitch = runtime::formats::row_pitch(shape.format, shape.width);
    const std::uint64_t slice = row_pitch * runtime::formats::row_count(shape.format, shape.height);
    if (contents.bytes.size() < slice) {
        error = "replay read " + std::to_string(contents.bytes.size()) + " bytes of a " +
                std::to_string(slice) + "-byte slice";
        return false;
    }
    std::vector<float> rgba;
    if (!runtime::formats::decode_rgba(shape.format, {contents.bytes.data(), slice}, row_pitch,
                                       shape.width, shape.height, rgba, &error))
        return false;
    const bool srgb = runtime::formats::describe(shape.format).find("_SRGB") != std::string::npos;
    std::vector<std::uint8_t> picture(rgba.size());
    for (std::size_t i = 0; i < rgba.size(); ++i)
        picture[i] = picture_byte(rgba[i], srgb && i % 4 != 3);
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    image.width = shape.width;
    image.height = shape.height;
    image.format = PNG_FORMAT_RGBA;
    if (png_image_write_to_file(&image, path.c_str(), 0, picture.data(), 0, nullptr) == 0) {
        error = std::string("cannot write it: ") + image.message;
        return false;
    }
    return true;
}

// DDS with the DX10 header: one subresource of the format as stored.
bool write_dds(const std::string& path, const ResourceContents& contents, std::string& error) {
    const SubresourceShape& shape = contents.shape;
    std::uint32_t header[32] = {};  // "DDS " then DDS_HEADER's 31 words
    std::memcpy(&header[0], "DDS ", 4);
    header[1] = 124;                                 // dwSize
    header[2] = 0x1 | 0x2 | 0x4 | 0x1000 | 0x80000;  // CAPS HEIGHT WIDTH PIXELFORMAT LINEARSIZE
    header[3] = shape.height;
    header[4] = shape.width;
    header[5] = static_cast<std::uint32_t>(contents.bytes.size());  // dwPitchOrLinearSize
    header[6] = shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D ? shape.depth : 0;
    if (header[6] != 0) header[2] |= 0x800000;  // DEPTH
    header[7] = 1;                              // dwMipMapCount
    header[19] = 32;                            // DDS_PIXELFORMAT dwSize
    header[20] = 0x4;                           // DDPF_FOURCC
    std::memcpy(&header[21], "DX10", 4);
    header[27] = 0x1000;  // DDSCAPS_TEXTURE
    std::uint32_t dx10[5] = {};
    dx10[0] = shape.format;
    dx10[1] = shape.buffer ? D3D11_RESOURCE_DIMENSION_BUFFER : shape.dimension;
    dx10[3] = 1;  // arraySize: the one subresource
    std::ofstream file(path, std::ios::binary);
    file.write(reinterpret_cast<const char*>(header), sizeof header);
    file.write(reinterpret_cast<const char*>(dx10), sizeof dx10);
    file.write(reinterpret_cast<const char*>(contents.bytes.data()),
               static_cast<std::streamsize>(contents.bytes.size()));
    if (!file) error = "cannot write it";
    return static_cast<bool>(file);
}

bool write_raw(const std::string& path, const ResourceContents& contents, std::string& error) {
    std::ofstream file(path, std::ios::binary);
    file.write(reinterpret_cast<const char*>(contents.bytes.data()),
               static_cast<std::streamsize>(contents.bytes.size()));
    if (!file) error = "cannot write it";
    return static_cast<bool>(file);
}

}  // namespace

bool is_contents_file_name(const std::string& path) {
    return ends_with(path, ".png") || ends_with(path, ".dds") || ends_with(path, ".raw");
}

bool write_contents_file(const std::string& path, const ResourceContents& contents,
                         std::string& error) {
    if (ends_with(path, ".png")) return write_png(path, contents, error);
    if (ends_with(path, ".dds")) return write_dds(path, contents, error);
    if (ends_with(path, ".raw")) return write_raw(path, contents, error);
    error = "the name must end in .png, .dds or .raw";
    return false;
}

}  // namespace d3dcap::replay
