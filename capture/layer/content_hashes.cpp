// Content hashes at each frame end (D3DCAP_CAPTURE_HASHES): XXH3-64 of every
// subresource of the chosen resources in the runtime's canonical layout, so
// that a replay on another device can check that it reproduces them.
#include <d3dcap/capture/wrappers.h>
#include <xxhash.h>

#include <algorithm>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "capture/layer/layer.h"
#include "capture/layer/readback.h"
#include "capture/layer/resource_info.h"
#include "format/trace/records.h"
#include "runtime/formats/thumbnail.h"
#include "runtime/unexecuted_content.h"

namespace d3dcap::capture {

namespace {

// Large subresources are read in pieces of this size, through one small
// staging resource that stays in cache, rather than in one staging copy of
// their size.
constexpr std::uint64_t kPieceBytes = 4 << 20;

// WKPDID_D3DDebugObjectName.
constexpr GUID kDebugObjectName = {
    0x429b8c22, 0x9188, 0x4b0c, {0x87, 0x42, 0xac, 0xb0, 0xbf, 0x85, 0xc2, 0x00}};

std::string_view trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

std::string debug_name(ID3D11Resource* real) {
    UINT size = 0;
    if (FAILED(real->GetPrivateData(kDebugObjectName, &size, nullptr)) || size == 0) return {};
    std::string name(size, '\0');
    if (FAILED(real->GetPrivateData(kDebugObjectName, &size, name.data()))) return {};
    name.resize(size);
    while (!name.empty() && name.back() == '\0') name.pop_back();  // set with its NUL
    return name;
}

// Resources without a hash: a tile pool's content is what the tiled
// resources that map it show (and a pool cannot be a copy source);
// multisampled resources cannot be copied to a staging resource; a resource
// the application has mapped cannot be copied until its Unmap.
bool hashable(ResourceInfo& info) {
    if ((info.misc_flags & D3D11_RESOURCE_MISC_TILE_POOL) != 0 || info.shape.sample_count > 1)
        return false;
    std::lock_guard lock(info.mutex);
    return info.mappings.empty();
}

// Whether the device says the resource's content came from work it did not
// execute (this project's runtime does, in private data; others never).
bool unexecuted_content(ID3D11Resource* real) {
    std::uint8_t flag = 0;
    UINT size = 1;
    return SUCCEEDED(real->GetPrivateData(runtime::kUnexecutedContentGuid, &size, &flag)) &&
           size == 1 && flag == 1;
}

using Xxh3State = std::unique_ptr<XXH3_state_t, XXH_errorcode (*)(XXH3_state_t*)>;
Xxh3State new_xxh3_state() {
    return Xxh3State(XXH3_createState(), XXH3_freeState);
}

// One Readback per device, through its immediate context.
class Readbacks {
  public:
    Readback* of(ID3D11Resource* real) {
        ID3D11Device* device = nullptr;
        real->GetDevice(&device);
        if (device == nullptr) return nullptr;
        device->Release();  // the resource keeps it alive
        for (auto& [known, readback] : readbacks_)
            if (known == device) return readback.get();
        ID3D11DeviceContext* context = nullptr;
        device->GetImmediateContext(&context);
        if (context == nullptr) return nullptr;
        readbacks_.emplace_back(device, std::make_unique<Readback>(context));
        context->Release();
        return readbacks_.back().second.get();
    }

  private:
    std::vector<std::pair<ID3D11Device*, std::unique_ptr<Readback>>> readbacks_;
};

}  // namespace

bool HashSelection::parse(const std::string& text, HashSelection& out, std::string& error) {
    out = {};
    const std::string_view all = trimmed(text);
    if (all.empty() || all == "none") return true;
    if (all == "all") {
        out.all = true;
        return true;
    }
    std::string_view rest = all;
    while (true) {
        const auto comma = rest.find(',');
        const std::string_view name = trimmed(rest.substr(0, comma));
        if (name.empty()) {
            error = "an empty name in the list (names and ids are separated by single commas)";
            return false;
        }
        if (name == "all" || name == "none") {
            error = "'" + std::string(name) + "' cannot be one of a list of names";
            return false;
        }
        out.names.emplace_back(name);
        if (comma == std::string_view::npos) break;
        rest = rest.substr(comma + 1);
    }
    return true;
}

std::string HashSelection::text() const {
    if (all) return "all";
    std::string joined;
    for (const std::string& name : names) {
        if (!joined.empty()) joined += ',';
        joined += name;
    }
    return joined;
}

bool HashSelection::selects(std::uint64_t id, const std::string& debug_name) const {
    if (all) return true;
    const std::string number = std::to_string(id);
    return std::any_of(names.begin(), names.end(), [&](const std::string& name) {
        return name == number || (!debug_name.empty() && name == debug_name);
    });
}

void Layer::record_content_hashes(std::uint64_t frame) {
    const HashSelection& selection = config_.hashes;
    if (selection.none() || writer() == nullptr) return;
    std::vector<Wrapper*> live;
    {
        std::lock_guard lock(objects_mutex_);
        for (const auto& [key, wrapper] : by_real_)
            if (key == wrapper->identity && wrapper->resource != nullptr) live.push_back(wrapper);
    }
    std::sort(live.begin(), live.end(),
              [](const Wrapper* a, const Wrapper* b) { return a->id < b->id; });
    std::vector<fb::SubresourceHash> hashes;
    std::vector<std::uint64_t> unexecuted;
    std::vector<std::pair<std::uint64_t, runtime::formats::Thumbnail>> images;  // render targets
    Readbacks readbacks;
    const Xxh3State state = new_xxh3_state();
    for (Wrapper* w : live) {
        ResourceInfo& info = *w->resource;
        auto* real = static_cast<ID3D11Resource*>(w->facets()[0]->real);
        if (!hashable(info) || (!selection.all && !selection.selects(w->id, debug_name(real))))
            continue;
        Readback* readback = readbacks.of(real);
        if (readback == nullptr) continue;
        if (unexecuted_content(real)) unexecuted.push_back(w->id);
        // The first subresource of a render target, or of a staging copy of
        // one, also goes down as a small image (up to 4096x4096 texels).
        const bool image = info.shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE2D &&
                           ((info.bind_flags & D3D11_BIND_RENDER_TARGET) != 0 ||
                            info.usage == D3D11_USAGE_STAGING) &&
                           runtime::formats::thumbnail_format(info.shape.format) &&
                           std::uint64_t{info.shape.width} * info.shape.height <= 4096u * 4096u;
        for (UINT sub = 0; sub < subresource_count(info.shape); ++sub) {
            XXH3_64bits_reset(state.get());
            std::vector<std::uint8_t> texels;
            const bool read =
                readback->pieces(real, info, sub, kPieceBytes,
                                 [&](const MappedCopy& copy, const CanonicalLayout& piece) {
                                     for_each_canonical_run(
                                         piece, copy, [&](const std::uint8_t* data, std::size_t n) {
                                             XXH3_64bits_update(state.get(), data, n);
                                             if (image && sub == 0)
                                                 texels.insert(texels.end(), data, data + n);
                                         });
                                 });
            if (!read) continue;
            hashes.emplace_back(w->id, sub, XXH3_64bits_digest(state.get()));
            if (image && sub == 0 &&
                texels.size() == std::size_t{info.shape.width} * info.shape.height * 4)
                images.emplace_back(w->id, runtime::formats::make_thumbnail(
                                               texels.data(), info.shape.width, info.shape.height));
        }
    }
    if (!hashes.empty()) hash_records_.fetch_add(1, std::memory_order_relaxed);
    record_meta([&](flatbuffers::FlatBufferBuilder& b) {
        std::vector<flatbuffers::Offset<fb::SubresourceImage>> image_tables;
        for (const auto& [id, thumbnail] : images)
            image_tables.push_back(fb::CreateSubresourceImageDirect(
                b, id, 0, thumbnail.width, thumbnail.height, thumbnail.scale, &thumbnail.rgba));
        trace::finish_meta(
            b, thread_number(),
            fb::CreateContentHashesDirect(b, frame, &hashes, &image_tables,
                                          unexecuted.empty() ? nullptr : &unexecuted));
    });
}

void Layer::record_mapped_hash(Wrapper& resource, UINT subresource,
                               const D3D11_MAPPED_SUBRESOURCE& mapped) {
    const HashSelection& selection = config_.hashes;
    if (selection.none() || !recording() || resource.resource == nullptr) return;
    const ResourceInfo& info = *resource.resource;
    auto* real = static_cast<ID3D11Resource*>(resource.facets()[0]->real);
    if (info.usage != D3D11_USAGE_STAGING || info.shape.sample_count > 1 ||
        subresource >= subresource_count(info.shape) ||
        (!selection.all && !selection.selects(resource.id, debug_name(real))))
        return;
    const Xxh3State state = new_xxh3_state();
    XXH3_64bits_reset(state.get());
    for_each_canonical_run(
        canonical_layout(info.shape, subresource),
        MappedCopy{static_cast<const std::uint8_t*>(mapped.pData), mapped.RowPitch,
                   mapped.DepthPitch},
        [&](const std::uint8_t* data, std::size_t n) { XXH3_64bits_update(state.get(), data, n); });
    const std::vector<fb::SubresourceHash> hashes = {
        fb::SubresourceHash(resource.id, subresource, XXH3_64bits_digest(state.get()))};
    const std::vector<std::uint64_t> unexecuted = {resource.id};
    const bool not_executed = unexecuted_content(real);
    hash_records_.fetch_add(1, std::memory_order_relaxed);
    record_meta([&](flatbuffers::FlatBufferBuilder& b) {
        trace::finish_meta(b, thread_number(),
                           fb::CreateContentHashesDirect(b, frame(), &hashes, nullptr,
                                                         not_executed ? &unexecuted : nullptr));
    });
}

}  // namespace d3dcap::capture
