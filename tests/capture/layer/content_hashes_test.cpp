// D3DCAP_CAPTURE_HASHES: at each frame end the layer records the content
// hash of every subresource of the chosen resources, bit-identical to the
// runtime's own content hash of the live resource.
#define XXH_INLINE_ALL  // header-only: the test links no xxHash
#include <xxhash.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "capture/layer/facet.h"
#include "capture/layer/layer_test.h"
#include "capture/layer/readback.h"
#include "runtime/inspection.h"
#include "runtime/shader/assembler.h"

namespace capture_tests {
namespace {

using Bytes = std::vector<std::uint8_t>;

// resize and copy rather than insert: GCC 12 at -O3 warns falsely
// (-Wstringop-overflow) on insert into a vector it has seen cleared.
void append(Bytes& bytes, const std::uint8_t* data, std::size_t size) {
    const std::size_t at = bytes.size();
    bytes.resize(at + size);
    std::memcpy(bytes.data() + at, data, size);
}
// (resource id, subresource) -> hash
using Hashes = std::map<std::pair<std::uint64_t, std::uint32_t>, std::uint64_t>;

Bytes pattern(std::size_t size, std::uint8_t seed) {
    Bytes out(size);
    for (std::size_t i = 0; i < size; ++i)
        out[i] = static_cast<std::uint8_t>((i * 131) ^ (i >> 8) ^ seed);
    return out;
}

// The real resource behind a layer facet: every facet keeps its header
// right after its vtable pointer (capture/layer/facet.h).
ID3D11Resource* real_of(ID3D11Resource* facet) {
    const auto* header = reinterpret_cast<const capture::FacetHeader*>(
        reinterpret_cast<const char*>(facet) + sizeof(void*));
    auto* real = static_cast<ID3D11Resource*>(header->real);
    REQUIRE(runtime::object_id(real) != 0);  // an object of the runtime, not a facet
    return real;
}

// What the runtime computes for each subresource of the live resources.
void add_live_hashes(Hashes& out, std::uint64_t id, ID3D11Resource* facet, UINT subresources) {
    for (UINT sub = 0; sub < subresources; ++sub)
        out[{id, sub}] = runtime::resource_content_hash(real_of(facet), sub);
}

Hashes recorded(const fb::ContentHashes& content) {
    Hashes out;
    REQUIRE(content.hashes() != nullptr);
    for (const fb::SubresourceHash* h : *content.hashes())
        out[{h->resource(), h->subresource()}] = h->hash();
    return out;
}

std::string header_hashes(TraceRecords& records) {
    const fb::CaptureOptions* options = records.reader().header().options();
    REQUIRE(options != nullptr);
    return options->content_hashes() ? options->content_hashes()->str() : std::string();
}

// A DEFAULT texture (2 mips, odd width), a buffer, a tile pool and a tiled
// texture with two mapped tiles, a NULL tile and an unmapped packed mip. The
// layer numbers them 3 to 6 (the device is 1, its context 2).
struct Scene {
    static constexpr std::uint64_t kTexture = 3, kBuffer = 4, kPool = 5, kTiled = 6;
    Com<ID3D11Texture2D> texture, tiled;
    Com<ID3D11Buffer> buffer, pool;

    explicit Scene(Capture& capture) {
        ID3D11Device2* device = capture.device.get();
        ID3D11DeviceContext2* context = capture.context.get();
        const D3D11_TEXTURE2D_DESC desc =
            texture2d_desc(37, 20, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT,
                           D3D11_BIND_SHADER_RESOURCE, 0, 2);
        REQUIRE(device->CreateTexture2D(&desc, nullptr, texture.out()) == S_OK);
        const D3D11_BUFFER_DESC buffer_d = buffer_desc(300, D3D11_USAGE_DEFAULT, 0, 0);
        REQUIRE(device->CreateBuffer(&buffer_d, nullptr, buffer.out()) == S_OK);
        D3D11_BUFFER_DESC pool_desc = buffer_desc(4 * 65536, D3D11_USAGE_DEFAULT, 0, 0);
        pool_desc.MiscFlags = D3D11_RESOURCE_MISC_TILE_POOL;
        REQUIRE(device->CreateBuffer(&pool_desc, nullptr, pool.out()) == S_OK);
        // 256x256 RGBA8, 3 mips: mip 0 is 2x2 tiles, mip 1 one tile, mip 2 packed.
        D3D11_TEXTURE2D_DESC tiled_desc =
            texture2d_desc(256, 256, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT,
                           D3D11_BIND_SHADER_RESOURCE, 0, 3);
        tiled_desc.MiscFlags = D3D11_RESOURCE_MISC_TILED;
        REQUIRE(device->CreateTexture2D(&tiled_desc, nullptr, tiled.out()) == S_OK);
        const D3D11_TILED_RESOURCE_COORDINATE starts[2] = {{0, 0, 0, 0}, {0, 0, 0, 1}};
        const D3D11_TILE_REGION_SIZE one[2] = {{1, FALSE, 0, 0, 0}, {1, FALSE, 0, 0, 0}};
        const UINT offsets[2] = {0, 1}, counts[2] = {1, 1};
        REQUIRE(context->UpdateTileMappings(tiled.get(), 2, starts, one, pool.get(), 2, nullptr,
                                            offsets, counts, 0) == S_OK);

        const Bytes mip0 = pattern(37 * 20 * 4, 1), mip1 = pattern(18 * 10 * 4, 2);
        context->UpdateSubresource(texture.get(), 0, nullptr, mip0.data(), 37 * 4, 0);
        context->UpdateSubresource(texture.get(), 1, nullptr, mip1.data(), 18 * 4, 0);
        const Bytes bytes = pattern(300, 3);
        context->UpdateSubresource(buffer.get(), 0, nullptr, bytes.data(), 0, 0);
        const Bytes tile0 = pattern(65536, 4), tile1 = pattern(65536, 5);
        context->UpdateTiles(tiled.get(), &starts[0], &one[0], tile0.data(), 0);
        context->UpdateTiles(tiled.get(), &starts[1], &one[1], tile1.data(), 0);
    }

    // Changes mip 1 of the texture and the first tile of the tiled texture.
    void change(Capture& capture) {
        const Bytes mip1 = pattern(18 * 10 * 4, 6), tile0 = pattern(65536, 7);
        capture.context->UpdateSubresource(texture.get(), 1, nullptr, mip1.data(), 18 * 4, 0);
        const D3D11_TILED_RESOURCE_COORDINATE start{0, 0, 0, 0};
        const D3D11_TILE_REGION_SIZE one{1, FALSE, 0, 0, 0};
        capture.context->UpdateTiles(tiled.get(), &start, &one, tile0.data(), 0);
    }

    Hashes live() const {
        Hashes out;
        add_live_hashes(out, kTexture, texture.get(), 2);
        add_live_hashes(out, kBuffer, buffer.get(), 1);
        add_live_hashes(out, kTiled, tiled.get(), 3);
        return out;
    }
};

TEST_CASE(
    "With D3DCAP_CAPTURE_HASHES=all each frame end records the runtime's content hash "
    "of every subresource of every resource but tile pools") {
    setenv("D3DCAP_CAPTURE_HASHES", "all", 1);
    Capture capture;
    Scene scene(capture);
    const Hashes first = scene.live();
    capture.session.api->end_frame();
    scene.change(capture);
    const Hashes second = scene.live();
    capture.session.api->end_frame();
    TraceRecords records = capture.stop();

    CHECK(header_hashes(records) == "all");
    CHECK(created_ids(records, "ID3D11Texture2D") ==
          std::vector<std::uint64_t>{Scene::kTexture, Scene::kTiled});
    CHECK(created_ids(records, "ID3D11Buffer") ==
          std::vector<std::uint64_t>{Scene::kBuffer, Scene::kPool});
    const auto content = records.meta(fb::Meta::ContentHashes);
    REQUIRE(content.size() == 2);
    const fb::ContentHashes& frame0 = *content[0]->meta_as_ContentHashes();
    const fb::ContentHashes& frame1 = *content[1]->meta_as_ContentHashes();
    CHECK(frame0.frame() == 0);
    CHECK(frame1.frame() == 1);
    // Sorted by resource, then subresource: 2 + 1 + 3 entries, no pool.
    REQUIRE(frame0.hashes()->size() == 6);
    const std::vector<std::pair<std::uint64_t, std::uint32_t>> order{{3, 0}, {3, 1}, {4, 0},
                                                                     {6, 0}, {6, 1}, {6, 2}};
    for (std::size_t i = 0; i < order.size(); ++i) {
        CHECK(frame0.hashes()->Get(static_cast<flatbuffers::uoffset_t>(i))->resource() ==
              order[i].first);
        CHECK(frame0.hashes()->Get(static_cast<flatbuffers::uoffset_t>(i))->subresource() ==
              order[i].second);
    }
    CHECK(recorded(frame0) == first);
    CHECK(recorded(frame1) == second);
    for (const auto& [key, hash] : first) CHECK(hash != 0);
    // What changed hashes differently; what did not, the same.
    CHECK(second.at({Scene::kTexture, 0}) == first.at({Scene::kTexture, 0}));
    CHECK(second.at({Scene::kTexture, 1}) != first.at({Scene::kTexture, 1}));
    CHECK(second.at({Scene::kBuffer, 0}) == first.at({Scene::kBuffer, 0}));
    CHECK(second.at({Scene::kTiled, 0}) != first.at({Scene::kTiled, 0}));
    CHECK(second.at({Scene::kTiled, 1}) == first.at({Scene::kTiled, 1}));
    CHECK(second.at({Scene::kTiled, 2}) == first.at({Scene::kTiled, 2}));

    // Each record comes right before the boundary of the next frame.
    for (std::size_t i = 0; i + 1 < records.size(); ++i) {
        if (records[i].meta_type() != fb::Meta::ContentHashes) continue;
        REQUIRE(records[i + 1].meta_type() == fb::Meta::FrameBoundary);
        CHECK(records[i + 1].meta_as_FrameBoundary()->frame() ==
              records[i].meta_as_ContentHashes()->frame() + 1);
    }
}

TEST_CASE("With a list of names and ids only those resources get content hashes") {
    setenv("D3DCAP_CAPTURE_HASHES", " albedo, 4", 1);
    Capture capture;
    Scene scene(capture);
    static constexpr char kName[] = "albedo";
    REQUIRE(scene.texture->SetPrivateData(WKPDID_D3DDebugObjectName, sizeof kName - 1, kName) ==
            S_OK);
    Hashes expected;
    add_live_hashes(expected, Scene::kTexture, scene.texture.get(), 2);
    add_live_hashes(expected, Scene::kBuffer, scene.buffer.get(), 1);
    capture.session.api->end_frame();
    TraceRecords records = capture.stop();

    CHECK(header_hashes(records) == "albedo,4");
    const auto content = records.meta(fb::Meta::ContentHashes);
    REQUIRE(content.size() == 1);
    CHECK(content[0]->meta_as_ContentHashes()->frame() == 0);
    CHECK(recorded(*content[0]->meta_as_ContentHashes()) == expected);
}

TEST_CASE("Without D3DCAP_CAPTURE_HASHES no content hashes are recorded") {
    unsetenv("D3DCAP_CAPTURE_HASHES");
    Capture capture;
    Scene scene(capture);
    capture.session.api->end_frame();
    capture.session.api->end_frame();
    TraceRecords records = capture.stop();

    CHECK(header_hashes(records).empty());
    CHECK(records.meta(fb::Meta::ContentHashes).empty());
    CHECK(records.meta(fb::Meta::FrameBoundary).size() == 3);
}

TEST_CASE("Subresources larger than 4 MiB are read in pieces and hash as a whole") {
    setenv("D3DCAP_CAPTURE_HASHES", "all", 1);
    Capture capture;
    ID3D11Device2* device = capture.device.get();
    ID3D11DeviceContext2* context = capture.context.get();
    // 1031x1030 RGBA8: mip 0 is 4.05 MiB in rows of 4124 bytes, 2 pieces.
    const D3D11_TEXTURE2D_DESC desc =
        texture2d_desc(1031, 1030, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, 0, 0, 2);
    Com<ID3D11Texture2D> texture;
    REQUIRE(device->CreateTexture2D(&desc, nullptr, texture.out()) == S_OK);
    const Bytes texels = pattern(1031 * 1030 * 4, 1);
    context->UpdateSubresource(texture.get(), 0, nullptr, texels.data(), 1031 * 4, 0);
    // 5 MiB and 3 bytes: 2 pieces.
    const UINT buffer_bytes = (5 << 20) + 3;
    const D3D11_BUFFER_DESC buffer_d = buffer_desc(buffer_bytes, D3D11_USAGE_DEFAULT, 0, 0);
    const Bytes bytes = pattern(buffer_bytes, 2);
    const D3D11_SUBRESOURCE_DATA init{bytes.data(), 0, 0};
    Com<ID3D11Buffer> buffer;
    REQUIRE(device->CreateBuffer(&buffer_d, &init, buffer.out()) == S_OK);
    // 2048x1024 tiled RGBA8 (16x8 tiles, 8 MiB), two tiles mapped.
    D3D11_BUFFER_DESC pool_desc = buffer_desc(2 * 65536, D3D11_USAGE_DEFAULT, 0, 0);
    pool_desc.MiscFlags = D3D11_RESOURCE_MISC_TILE_POOL;
    Com<ID3D11Buffer> pool;
    REQUIRE(device->CreateBuffer(&pool_desc, nullptr, pool.out()) == S_OK);
    D3D11_TEXTURE2D_DESC tiled_desc = texture2d_desc(
        2048, 1024, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0);
    tiled_desc.MiscFlags = D3D11_RESOURCE_MISC_TILED;
    Com<ID3D11Texture2D> tiled;
    REQUIRE(device->CreateTexture2D(&tiled_desc, nullptr, tiled.out()) == S_OK);
    const D3D11_TILED_RESOURCE_COORDINATE starts[2] = {{3, 1, 0, 0}, {15, 7, 0, 0}};
    const D3D11_TILE_REGION_SIZE one[2] = {{1, FALSE, 0, 0, 0}, {1, FALSE, 0, 0, 0}};
    const UINT offsets[2] = {0, 1}, counts[2] = {1, 1};
    REQUIRE(context->UpdateTileMappings(tiled.get(), 2, starts, one, pool.get(), 2, nullptr,
                                        offsets, counts, 0) == S_OK);
    const Bytes tiles = pattern(2 * 65536, 3);
    context->UpdateTiles(tiled.get(), &starts[0], &one[0], tiles.data(), 0);
    context->UpdateTiles(tiled.get(), &starts[1], &one[1], tiles.data() + 65536, 0);
    Hashes expected;
    add_live_hashes(expected, 3, texture.get(), 2);
    add_live_hashes(expected, 4, buffer.get(), 1);
    add_live_hashes(expected, 6, tiled.get(), 1);
    capture.session.api->end_frame();
    TraceRecords records = capture.stop();

    const auto content = records.meta(fb::Meta::ContentHashes);
    REQUIRE(content.size() == 1);
    CHECK(recorded(*content[0]->meta_as_ContentHashes()) == expected);
    // The whole bytes, as the runtime reads them: the buffer's are known.
    CHECK(expected.at({4, 0}) == XXH3_64bits(bytes.data(), bytes.size()));
}

TEST_CASE(
    "A program without frames gets a content hash where it maps a chosen staging copy for "
    "reading, right after the Map") {
    setenv("D3DCAP_CAPTURE_HASHES", "3,readback", 1);
    Capture capture;
    ID3D11Device2* device = capture.device.get();
    ID3D11DeviceContext2* context = capture.context.get();
    // 5x3 RGBA8: 20-byte rows, which the runtime's mapping pads.
    const Bytes texels = pattern(5 * 3 * 4, 9);
    const D3D11_SUBRESOURCE_DATA init{texels.data(), 5 * 4, 0};
    const D3D11_TEXTURE2D_DESC source_desc = texture2d_desc(
        5, 3, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0);
    Com<ID3D11Texture2D> source, chosen, other;
    REQUIRE(device->CreateTexture2D(&source_desc, &init, source.out()) == S_OK);  // id 3
    const D3D11_TEXTURE2D_DESC staging_desc =
        texture2d_desc(5, 3, DXGI_FORMAT_R8G8B8A8_UNORM, D3D11_USAGE_STAGING, 0,
                       D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE);
    REQUIRE(device->CreateTexture2D(&staging_desc, nullptr, chosen.out()) == S_OK);  // id 4
    REQUIRE(device->CreateTexture2D(&staging_desc, nullptr, other.out()) == S_OK);   // id 5
    static constexpr char kName[] = "readback";
    REQUIRE(chosen->SetPrivateData(WKPDID_D3DDebugObjectName, sizeof kName - 1, kName) == S_OK);
    for (ID3D11Texture2D* staging : {chosen.get(), other.get()}) {
        context->CopyResource(staging, source.get());
        D3D11_MAPPED_SUBRESOURCE mapped{};
        REQUIRE(context->Map(staging, 0, D3D11_MAP_READ, 0, &mapped) == S_OK);
        context->Unmap(staging, 0);
    }
    // Written but never read back through a Map: no hash.
    D3D11_MAPPED_SUBRESOURCE written{};
    REQUIRE(context->Map(chosen.get(), 0, D3D11_MAP_WRITE, 0, &written) == S_OK);
    context->Unmap(chosen.get(), 0);
    TraceRecords records = capture.stop();

    const auto content = records.meta(fb::Meta::ContentHashes);
    REQUIRE(content.size() == 1);
    const fb::ContentHashes& read = *content[0]->meta_as_ContentHashes();
    CHECK(read.frame() == 0);
    CHECK(recorded(read) == Hashes{{{4, 0}, XXH3_64bits(texels.data(), texels.size())}});
    for (std::size_t i = 1; i < records.size(); ++i)
        if (records[i].meta_type() == fb::Meta::ContentHashes)
            CHECK(records[i - 1].header()->call() ==
                  static_cast<std::uint16_t>(CallId::ID3D11DeviceContext_Map));
}

TEST_CASE("Mapped rows are hashed in the canonical layout, without their padding") {
    // 3 rows of 12 bytes in 2 slices, mapped with a 16-byte row pitch and a
    // 64-byte depth pitch: the padding bytes are 0xEE.
    const capture::CanonicalLayout layout{12, 3, 2};
    Bytes mapped(2 * 64, 0xEE);
    Bytes canonical;
    for (std::uint32_t z = 0; z < 2; ++z)
        for (std::uint32_t y = 0; y < 3; ++y)
            for (std::uint32_t x = 0; x < 12; ++x) {
                const auto value = static_cast<std::uint8_t>(z * 100 + y * 20 + x);
                mapped[z * 64 + y * 16 + x] = value;
                canonical.push_back(value);
            }
    Bytes runs;
    std::size_t count = 0;
    capture::for_each_canonical_run(layout, {mapped.data(), 16, 64},
                                    [&](const std::uint8_t* data, std::size_t size) {
                                        append(runs, data, size);
                                        ++count;
                                    });
    CHECK(runs == canonical);
    CHECK(count == 6);
    CHECK(layout.bytes() == 72);

    // Tight pitches: one run of everything.
    runs.clear();
    count = 0;
    capture::for_each_canonical_run(layout, {canonical.data(), 12, 36},
                                    [&](const std::uint8_t* data, std::size_t size) {
                                        append(runs, data, size);
                                        ++count;
                                    });
    CHECK(runs == canonical);
    CHECK(count == 1);
}

}  // namespace

TEST_CASE("Hashes of content from work the device did not run are marked, and copies carry it") {
    setenv("D3DCAP_CAPTURE_HASHES", "all", 1);
    Capture capture;
    ID3D11Device2* device = capture.device.get();
    ID3D11DeviceContext2* context = capture.context.get();
    // Numbered 3 (written by a dispatch), 4 (a copy of it), 5 (untouched).
    D3D11_BUFFER_DESC desc = buffer_desc(16, D3D11_USAGE_DEFAULT, D3D11_BIND_UNORDERED_ACCESS, 0);
    desc.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS;
    Com<ID3D11Buffer> written, copy, untouched;
    REQUIRE(device->CreateBuffer(&desc, nullptr, written.out()) == S_OK);
    REQUIRE(device->CreateBuffer(&desc, nullptr, copy.out()) == S_OK);
    REQUIRE(device->CreateBuffer(&desc, nullptr, untouched.out()) == S_OK);
    D3D11_UNORDERED_ACCESS_VIEW_DESC view_desc{};
    view_desc.Format = DXGI_FORMAT_R32_TYPELESS;
    view_desc.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
    view_desc.Buffer = {0, 4, D3D11_BUFFER_UAV_FLAG_RAW};
    Com<ID3D11UnorderedAccessView> view;
    REQUIRE(device->CreateUnorderedAccessView(written.get(), &view_desc, view.out()) == S_OK);
    const auto shader = runtime::shader::assemble(R"(cs_5_0
dcl_uav_raw u0
dcl_thread_group 1, 1, 1
store_raw u0.x, l(0), l(1)
ret
)");
    REQUIRE(shader.ok());
    Com<ID3D11ComputeShader> cs;
    REQUIRE(device->CreateComputeShader(shader.container.data(), shader.container.size(), nullptr,
                                        cs.out()) == S_OK);
    context->CSSetShader(cs.get(), nullptr, 0);
    ID3D11UnorderedAccessView* views[] = {view.get()};
    context->CSSetUnorderedAccessViews(0, 1, views, nullptr);
    context->Dispatch(1, 1, 1);  // the reference device runs no shaders
    context->CopyResource(copy.get(), written.get());
    capture.session.api->end_frame();
    TraceRecords records = capture.stop();

    const auto content = records.meta(fb::Meta::ContentHashes);
    REQUIRE(content.size() == 1);
    const auto* unexecuted = content[0]->meta_as_ContentHashes()->unexecuted();
    REQUIRE(unexecuted != nullptr);
    CHECK(std::vector<std::uint64_t>(unexecuted->begin(), unexecuted->end()) ==
          std::vector<std::uint64_t>{3, 4});
    CHECK(recorded(*content[0]->meta_as_ContentHashes()).size() == 3);
}

}  // namespace capture_tests
