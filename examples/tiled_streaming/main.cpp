// tiled_streaming: a headless virtual-texture streamer written against the
// standard Direct3D 11.2 API only. A camera flies over a 16384x16384 tiled
// texture; each frame the tiles it sees are mapped (first to a shared
// "loading" tile, then to their own pool tiles with their data), the tiles it
// left are unmapped, the tile pool grows and shrinks with the working set, a
// clipmap level scrolls its mapping, a decal is painted through an aliasing
// tiled texture, and the composed view is read back for a checksum and
// presented. The output is the same on every run.
#include <d3d11_2.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/com.h"
#include "content.h"
#include "frame.h"
#include "streamer.h"

namespace tiled_streaming {

using namespace example;
namespace {

struct Options {
    UINT frames = 12;
    D3D_DRIVER_TYPE driver = D3D_DRIVER_TYPE_REFERENCE;
    const char* driver_name = "reference";
    UINT size = 16384;
    bool quiet = false;
    bool markers = false;
};

constexpr const char* kUsage =
    "usage: tiled_streaming [--frames N] [--driver reference|hardware|null] [--size N] [--quiet]\n"
    "                       [--markers]\n"
    "  --frames N   frames to run (default 12)\n"
    "  --driver D   D3D_DRIVER_TYPE_REFERENCE (default), _HARDWARE or _NULL\n"
    "  --size N     width and height of the virtual texture, a power of two in 2048..16384\n"
    "               (default 16384)\n"
    "  --quiet      print the summary line only\n"
    "  --markers    emit events and markers even when no tool listens\n";

bool parse_number(const char* text, UINT& value) {
    if (!text || !*text) return false;
    char* end = nullptr;
    const unsigned long number = std::strtoul(text, &end, 10);
    if (*end != '\0' || number > 1000000) return false;
    value = static_cast<UINT>(number);
    return true;
}

// 0: parsed; 1: bad command line; -1: --help.
int parse(int argc, char** argv, Options& options) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
        if (arg == "--help" || arg == "-h") return -1;
        if (arg == "--quiet") {
            options.quiet = true;
        } else if (arg == "--markers") {
            options.markers = true;
        } else if (arg == "--frames") {
            if (!parse_number(value, options.frames) || options.frames == 0) {
                std::fprintf(stderr, "tiled_streaming: --frames needs a number from 1\n");
                return 1;
            }
            ++i;
        } else if (arg == "--size") {
            if (!parse_number(value, options.size) || options.size < 2048 || options.size > 16384 ||
                (options.size & (options.size - 1))) {
                std::fprintf(stderr,
                             "tiled_streaming: --size needs a power of two in 2048..16384\n");
                return 1;
            }
            ++i;
        } else if (arg == "--driver") {
            const std::string name = value ? value : "";
            if (name == "reference") {
                options.driver = D3D_DRIVER_TYPE_REFERENCE;
            } else if (name == "hardware") {
                options.driver = D3D_DRIVER_TYPE_HARDWARE;
            } else if (name == "null") {
                options.driver = D3D_DRIVER_TYPE_NULL;
            } else {
                std::fprintf(stderr,
                             "tiled_streaming: --driver takes reference, hardware or null\n");
                return 1;
            }
            options.driver_name = argv[i + 1];
            ++i;
        } else {
            std::fprintf(stderr, "tiled_streaming: unknown argument '%s'\n", arg.c_str());
            return 1;
        }
    }
    return 0;
}

// The camera path: key points in 1/1024 of the texture and zooms in 1/256,
// four frames apart, looping. Integer arithmetic only, so that every build
// and run flies the same path.
struct KeyPoint {
    int x, y, scale;
};
constexpr KeyPoint kPath[] = {{260, 250, 256}, {330, 300, 352}, {410, 370, 480}, {480, 450, 600},
                              {520, 560, 400}, {470, 660, 272}, {370, 700, 320}, {300, 600, 540}};
constexpr int kFramesPerKey = 4;

Camera camera_at(UINT frame, UINT size, UINT standard_mips) {
    constexpr int keys = static_cast<int>(std::size(kPath));
    const int segment = static_cast<int>(frame / kFramesPerKey) % keys;
    const int step = static_cast<int>(frame % kFramesPerKey);
    const KeyPoint& a = kPath[segment];
    const KeyPoint& b = kPath[(segment + 1) % keys];
    auto along = [step](int from, int to) {
        return std::int64_t{from} * kFramesPerKey + std::int64_t{to - from} * step;
    };
    Camera camera;
    camera.x = std::int64_t{size} * along(a.x, b.x) / (1024 * kFramesPerKey);
    camera.y = std::int64_t{size} * along(a.y, b.y) / (1024 * kFramesPerKey);
    camera.scale = static_cast<UINT>(along(a.scale, b.scale) / kFramesPerKey);
    // The finest mip whose texels are no smaller than a view pixel.
    while (camera.lod + 1 < standard_mips && (256u << (camera.lod + 1)) <= camera.scale) {
        ++camera.lod;
    }
    return camera;
}

// The tiles the view covers in every standard mip from the camera's lod,
// with a ring of one tile to prefetch.
std::vector<TileRect> footprint(const Camera& camera, const Tiling& tiling) {
    constexpr std::int64_t kRing = 1;
    const std::int64_t half_w = std::int64_t{kViewWidth} * camera.scale / 512;
    const std::int64_t half_h = std::int64_t{kViewHeight} * camera.scale / 512;
    const std::int64_t size = tiling.width;
    const std::int64_t x0 = std::clamp<std::int64_t>(camera.x - half_w, 0, size - 1);
    const std::int64_t x1 = std::clamp<std::int64_t>(camera.x + half_w, 1, size);
    const std::int64_t y0 = std::clamp<std::int64_t>(camera.y - half_h, 0, size - 1);
    const std::int64_t y1 = std::clamp<std::int64_t>(camera.y + half_h, 1, size);
    std::vector<TileRect> rects;
    for (UINT mip = camera.lod; mip < tiling.packed.NumStandardMips; ++mip) {
        const D3D11_SUBRESOURCE_TILING& level = tiling.subresources[mip];
        const std::int64_t span_x = std::int64_t{tiling.shape.WidthInTexels} << mip;
        const std::int64_t span_y = std::int64_t{tiling.shape.HeightInTexels} << mip;
        TileRect rect;
        rect.mip = mip;
        rect.x0 = static_cast<UINT>(std::max<std::int64_t>(0, x0 / span_x - kRing));
        rect.y0 = static_cast<UINT>(std::max<std::int64_t>(0, y0 / span_y - kRing));
        rect.x1 = static_cast<UINT>(
            std::min<std::int64_t>(level.WidthInTiles, (x1 - 1) / span_x + 1 + kRing));
        rect.y1 = static_cast<UINT>(
            std::min<std::int64_t>(level.HeightInTiles, (y1 - 1) / span_y + 1 + kRing));
        rects.push_back(rect);
    }
    return rects;
}

double mebibytes(std::uint64_t tiles) {
    return static_cast<double>(tiles * kTileBytes) / (1024.0 * 1024.0);
}

// Runs the frames; `summary` gets the last line, printed once every object
// has been released.
int run(const Options& options, std::string& summary) {
    // Headless: no window; the runtime's swap chain keeps its buffers as textures.
    DXGI_SWAP_CHAIN_DESC chain{};
    chain.BufferDesc.Width = kViewWidth;
    chain.BufferDesc.Height = kViewHeight;
    chain.BufferDesc.RefreshRate = {60, 1};
    chain.BufferDesc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    chain.SampleDesc.Count = 1;
    chain.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
    chain.BufferCount = 1;
    chain.OutputWindow = HWND{};  // no window
    chain.Windowed = TRUE;
    chain.SwapEffect = DXGI_SWAP_EFFECT_DISCARD;
    const D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_11_0};
    Com<IDXGISwapChain> swap_chain;
    Com<ID3D11Device> device;
    Com<ID3D11DeviceContext> immediate;
    D3D_FEATURE_LEVEL level{};
    check(D3D11CreateDeviceAndSwapChain(nullptr, options.driver, nullptr, 0, levels, 2,
                                        D3D11_SDK_VERSION, &chain, swap_chain.put(), device.put(),
                                        &level, immediate.put()),
          "D3D11CreateDeviceAndSwapChain");
    Com<ID3D11Device2> device2;
    Com<ID3D11DeviceContext2> context;
    Com<ID3DUserDefinedAnnotation> annotation;
    query(device.get(), device2, "ID3D11Device::QueryInterface(ID3D11Device2)");
    query(immediate.get(), context, "ID3D11DeviceContext::QueryInterface(ID3D11DeviceContext2)");
    query(immediate.get(), annotation,
          "ID3D11DeviceContext::QueryInterface(ID3DUserDefinedAnnotation)");

    D3D11_FEATURE_DATA_D3D11_OPTIONS1 features{};
    check(device->CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS1, &features, sizeof features),
          "ID3D11Device::CheckFeatureSupport(D3D11_FEATURE_D3D11_OPTIONS1)");
    if (features.TiledResourcesTier == D3D11_TILED_RESOURCES_NOT_SUPPORTED) {
        std::fprintf(stderr,
                     "tiled_streaming: the %s device does not support tiled resources "
                     "(TiledResourcesTier is D3D11_TILED_RESOURCES_NOT_SUPPORTED)\n",
                     options.driver_name);
        return 2;
    }

    Markers markers(context.get(), annotation.get(), options.markers);
    markers.sample();
    markers.begin(L"Setup", static_cast<INT>(options.size));

    // The virtual texture: the full mip chain, so its coarsest mips are packed.
    UINT mip_levels = 1;
    while ((options.size >> (mip_levels - 1)) > 1) ++mip_levels;
    D3D11_TEXTURE2D_DESC desc{};
    desc.Width = options.size;
    desc.Height = options.size;
    desc.MipLevels = mip_levels;
    desc.ArraySize = 1;
    desc.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    desc.SampleDesc.Count = 1;
    desc.Usage = D3D11_USAGE_DEFAULT;
    desc.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    desc.MiscFlags = D3D11_RESOURCE_MISC_TILED;
    Com<ID3D11Texture2D> texture;
    check(device->CreateTexture2D(&desc, nullptr, texture.put()),
          "ID3D11Device::CreateTexture2D (virtual texture)");
    name(texture.get(), "virtual_texture");

    Tiling tiling;
    tiling.width = options.size;
    tiling.mip_levels = mip_levels;
    tiling.subresources.resize(mip_levels);
    UINT subresource_count = mip_levels;
    device2->GetResourceTiling(texture.get(), &tiling.total_tiles, &tiling.packed, &tiling.shape,
                               &subresource_count, 0, tiling.subresources.data());
    // Tiles are 64 KiB of 4-byte texels; the clipmap window needs 4 tiles of mip 2.
    constexpr UINT kClipMip = 2;
    if (tiling.shape.WidthInTexels * tiling.shape.HeightInTexels * 4 != kTileBytes ||
        tiling.packed.NumStandardMips <= kClipMip) {
        std::fprintf(
            stderr, "tiled_streaming: unexpected tiling: %ux%u-texel tiles, %u standard mips\n",
            tiling.shape.WidthInTexels, tiling.shape.HeightInTexels, tiling.packed.NumStandardMips);
        return 1;
    }
    if (!options.quiet) {
        std::printf(
            "tiled_streaming: %s device, feature level 11_%u, tiled resources tier %u; virtual "
            "texture %ux%u RGBA8, %u mips (%u standard, %u packed into %u tile%s), %u tiles of "
            "%ux%u texels\n",
            options.driver_name, (static_cast<unsigned>(level) >> 8) & 0xf,
            static_cast<unsigned>(features.TiledResourcesTier), options.size, options.size,
            mip_levels, tiling.packed.NumStandardMips, tiling.packed.NumPackedMips,
            tiling.packed.NumTilesForPackedMips,
            tiling.packed.NumTilesForPackedMips == 1 ? "" : "s", tiling.total_tiles,
            tiling.shape.WidthInTexels, tiling.shape.HeightInTexels);
    }

    // Pool tile 0 is the loading tile, the packed mips follow.
    constexpr UINT kLoadingTile = 0, kPoolChunk = 64, kUploadBudget = 96;
    const UINT reserved = 1 + tiling.packed.NumTilesForPackedMips;
    TilePool pool(device.get(), context.get(), markers, reserved, kPoolChunk);
    Streamer streamer(device.get(), context.get(), texture.get(), tiling, pool, markers,
                      kLoadingTile);
    Clipmap clipmap(device.get(), context.get(), tiling, kClipMip);
    DecalPainter painter(device.get(), context.get(), texture.get(), pool.buffer());
    FrameConstants constants(device.get(), context.get());
    ViewRenderer renderer(device.get(), context.get(), swap_chain.get(), texture.get());

    std::vector<std::uint8_t> loading(kTileBytes);
    fill_loading_tile(tiling.shape.WidthInTexels, tiling.shape.HeightInTexels, loading.data());
    streamer.map_packed_mips(1);
    painter.write_tile(kLoadingTile, loading.data());
    painter.unmap();
    markers.end();

    std::uint64_t mapped = 0, unmapped = 0, uploaded = 0, compacted = 0, decals = 0;
    std::uint32_t total = 0x811c9dc5u;
    for (UINT frame = 0; frame < options.frames; ++frame) {
        markers.sample();
        markers.begin(L"Frame", static_cast<INT>(frame));
        const Camera camera = camera_at(frame, options.size, tiling.packed.NumStandardMips);

        FrameInfo info;
        info.frame = frame;
        info.texture_size = options.size;
        info.camera = camera;
        info.wanted = footprint(camera, tiling);
        info.clip_window = clipmap.window_for(camera.x, camera.y);
        std::vector<TileRect> wanted = info.wanted;
        wanted.push_back(info.clip_window);

        markers.begin_named(L"Stream tiles");
        info.stream = streamer.update(wanted, camera.x, camera.y, kUploadBudget);
        const UINT moved = streamer.compact(kCompactBudget);
        markers.end_named();
        compacted += moved;
        mapped += info.stream.mapped;
        unmapped += info.stream.unmapped;
        uploaded += info.stream.uploaded;

        markers.begin(L"Scroll clipmap", static_cast<INT>(info.clip_window.x0));
        const UINT scrolled = clipmap.update(texture.get(), info.clip_window, streamer.changed());
        markers.marker(L"Clipmap tiles scrolled", static_cast<INT>(scrolled));
        markers.end();

        // The decal goes into the tile under the camera, once it has its own data.
        const TileKey centre{
            camera.lod,
            static_cast<UINT>(camera.y / (std::int64_t{tiling.shape.HeightInTexels} << camera.lod)),
            static_cast<UINT>(camera.x / (std::int64_t{tiling.shape.WidthInTexels} << camera.lod))};
        const UINT centre_tile = streamer.pool_tile(centre);
        markers.begin_named(L"Paint decal");
        if (centre_tile != Streamer::kNotResident) {
            const UINT x =
                std::min(static_cast<UINT>(camera.x >> camera.lod) % tiling.shape.WidthInTexels,
                         tiling.shape.WidthInTexels - 8);
            const UINT y =
                std::min(static_cast<UINT>(camera.y >> camera.lod) % tiling.shape.HeightInTexels,
                         tiling.shape.HeightInTexels - 8);
            painter.paint(centre_tile, x, y, 0xff0000ffu | (frame * 40 % 256) << 8);
            ++decals;
        } else {
            markers.marker_named(L"Decal skipped: the tile is still loading");
        }
        markers.end_named();

        info.pool_tiles = pool.size();
        info.loading = streamer.loading_tiles();
        constants.update(info);

        markers.begin(L"Compose view", static_cast<INT>(camera.lod));
        std::vector<std::array<UINT, 2>> bars;
        for (UINT mip = camera.lod; mip < tiling.packed.NumStandardMips; ++mip) {
            UINT visible = 0, resident = 0;
            streamer.residency(mip, visible, resident);
            bars.push_back({resident, visible});
        }
        const std::uint32_t checksum =
            renderer.render(tiling, camera, clipmap.texture(), bars, info.loading);
        markers.end();

        if (centre_tile != Streamer::kNotResident) painter.unmap();
        pool.shrink();
        total = fnv1a(&checksum, sizeof checksum, total);
        check(swap_chain->Present(0, 0), "IDXGISwapChain::Present");
        markers.end();

        if (!options.quiet) {
            std::printf(
                "frame %u: visible %u tiles (%u loading), mapped +%u -%u, pool %u tiles (%.1f "
                "MiB), checksum 0x%08x\n",
                frame, info.stream.visible, info.stream.loading, info.stream.mapped,
                info.stream.unmapped, pool.size(), mebibytes(pool.size()), checksum);
        }
    }

    char line[512];
    std::snprintf(
        line, sizeof line,
        "summary: %u frames, mapped %llu unmapped %llu uploaded %llu tiles (%.1f MiB), %llu "
        "decals, pool peak %u final %u tiles (grown %ux, shrunk %ux, %llu tiles moved), "
        "clipmap scrolled %ux, checksum 0x%08x\n",
        options.frames, static_cast<unsigned long long>(mapped),
        static_cast<unsigned long long>(unmapped), static_cast<unsigned long long>(uploaded),
        mebibytes(uploaded), static_cast<unsigned long long>(decals), pool.peak(), pool.size(),
        pool.grows(), pool.shrinks(), static_cast<unsigned long long>(compacted), clipmap.scrolls(),
        total);
    summary = line;

    // Unbind before the objects go, as an engine shutting down does.
    context->ClearState();
    context->Flush();
    return 0;
}

}  // namespace
}  // namespace tiled_streaming

int main(int argc, char** argv) {
    using namespace tiled_streaming;
    Options options;
    const int parsed = parse(argc, argv, options);
    if (parsed != 0) {
        std::fputs(kUsage, parsed < 0 ? stdout : stderr);
        return parsed < 0 ? 0 : 1;
    }
    return example::run_and_report("tiled_streaming",
                                   [&](std::string& summary) { return run(options, summary); });
}
