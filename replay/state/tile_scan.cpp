// Applies trace records to the scan state. Records are untrusted: every
// table, struct and vector is checked before use, and a call that cannot be
// read is skipped with a note. Sizes reach TileState only below the limits.
#include "replay/state/tile_scan.h"

#include <d3dcap/api/call_dispatch.h>
#include <d3dcap/fb/trace_generated.h>

#include <algorithm>
#include <cstring>

#include "runtime/tiles/recorded_tiling.h"

namespace d3dcap::state::detail {

namespace {

using api::CallId;
using api::CallOf;

constexpr const char* kCreateBuffer = "ID3D11Device::CreateBuffer";
constexpr const char* kCreateTexture2D = "ID3D11Device::CreateTexture2D";
constexpr const char* kCreateTexture3D = "ID3D11Device::CreateTexture3D";
constexpr const char* kUpdate = "ID3D11DeviceContext2::UpdateTileMappings";
constexpr const char* kCopy = "ID3D11DeviceContext2::CopyTileMappings";
constexpr const char* kResize = "ID3D11DeviceContext2::ResizeTilePool";

// WKPDID_D3DDebugObjectName.
constexpr std::uint32_t kNameData1 = 0x429b8c22;
constexpr std::uint16_t kNameData2 = 0x9188, kNameData3 = 0x4b0c;
constexpr std::uint8_t kNameData4[8] = {0x87, 0x42, 0xac, 0xb0, 0xbf, 0x85, 0xc2, 0x00};

class Collect final : public runtime::MessageSink {
  public:
    void message(const runtime::Message& message) override { messages.push_back(message); }
    std::string text() const {
        std::string out;
        for (const runtime::Message& m : messages) {
            if (!out.empty()) out += "; ";
            out += m.parameter.empty() ? m.text : m.parameter + ": " + m.text;
        }
        return out.empty() ? std::string("refused") : out;
    }
    std::vector<runtime::Message> messages;
};

bool recorded_failure(const fb::Record& record) {
    return FAILED(static_cast<HRESULT>(record.header()->result()));
}

std::uint64_t context_of(const fb::Record& record) {
    const fb::RecordHeader& header = *record.header();
    return header.context() != 0 ? header.context() : header.object();
}

D3D11_TILED_RESOURCE_COORDINATE coordinate(const fb::D3D11_TILED_RESOURCE_COORDINATE& c) {
    return {c.x(), c.y(), c.z(), c.subresource()};
}

D3D11_TILE_REGION_SIZE region_size(const fb::D3D11_TILE_REGION_SIZE& s) {
    return {s.num_tiles(), static_cast<BOOL>(s.b_use_box()), s.width(), s.height(), s.depth()};
}

// The recorded tiling with the mip and slice counts of the resource's shape.
runtime::tiles::ResourceTiling recorded_tiling(const fb::ResourceTiling& recorded,
                                               const runtime::tiles::ResourceShape& shape) {
    runtime::tiles::ResourceTiling tiling = runtime::tiles::tiling_of_record(recorded);
    // MipLevels 0 asked for the whole chain: the recorded subresources count it.
    tiling.array_size = shape.array_size;
    tiling.mip_levels =
        shape.mip_levels != 0 ? shape.mip_levels
        : shape.array_size != 0
            ? static_cast<std::uint32_t>(tiling.subresources.size() / shape.array_size)
            : 0;
    return tiling;
}

// A UINT array of at least count values, or nullptr for an absent one;
// false when the record holds fewer values than the call counted.
bool uint_array(const flatbuffers::Vector<std::uint32_t>* values, UINT count, const UINT*& out) {
    out = nullptr;
    if (values == nullptr) return true;
    if (values->size() < count) return false;
    out = reinterpret_cast<const UINT*>(values->data());
    return true;
}

std::string held(const char* array, std::uint64_t size, const char* count_name,
                 std::uint64_t count) {
    return std::string(array) + " holds " + std::to_string(size) + " values but " + count_name +
           " is " + std::to_string(count) + "; the call is skipped";
}

}  // namespace

Scanner::Scanner(const fb::TraceIndex& index, const Limits& limits) : limits_(limits) {
    if (const auto* tilings = index.tilings()) {
        for (const fb::ResourceTiling* tiling : *tilings) {
            index_tilings_[tiling->resource()].push_back(tiling);
        }
    }
}

// One record's application to the state, at one event.
struct Scanner::Pass {
    const Scanner& scanner;
    ScanState& s;
    std::uint64_t event;
    Metadata* meta;
    std::string where;  // "state snapshot record 3: ", for notes

    void note(const std::string& call, const std::string& message) const {
        if (meta != nullptr) meta->notes.push_back(Note{event, call, where + message});
    }

    void record(const fb::Record& record, const std::uint8_t* bytes, std::size_t size) {
        switch (static_cast<CallId>(record.header()->call())) {
            case CallId::None:
                return meta_record(record);
            case CallId::ID3D11Device_CreateBuffer:
                return create_buffer(record);
            case CallId::ID3D11Device_CreateTexture2D:
                return create_texture2d(record);
            case CallId::ID3D11Device_CreateTexture3D:
                return create_texture3d(record);
            case CallId::ID3D11DeviceContext2_UpdateTileMappings:
            case CallId::ID3D11DeviceContext2_CopyTileMappings:
            case CallId::ID3D11DeviceContext2_ResizeTilePool:
                return tile_call(record, bytes, size);
            case CallId::ID3D11DeviceContext_FinishCommandList:
                return finish_command_list(record);
            case CallId::ID3D11DeviceContext_ExecuteCommandList:
                return execute_command_list(record);
            case CallId::ID3D11Device_CreateDeferredContext:
                return deferred_context(CallOf<fb::ID3D11Device_CreateDeferredContext>::get(record),
                                        record);
            case CallId::ID3D11Device1_CreateDeferredContext1:
                return deferred_context(
                    CallOf<fb::ID3D11Device1_CreateDeferredContext1>::get(record), record);
            case CallId::ID3D11Device2_CreateDeferredContext2:
                return deferred_context(
                    CallOf<fb::ID3D11Device2_CreateDeferredContext2>::get(record), record);
            case CallId::ID3D11DeviceChild_SetPrivateData: {
                const auto* p = CallOf<fb::ID3D11DeviceChild_SetPrivateData>::get(record);
                if (p != nullptr) private_data(record, p->guid(), p->data_size(), p->p_data());
                return;
            }
            case CallId::IDXGIObject_SetPrivateData: {
                const auto* p = CallOf<fb::IDXGIObject_SetPrivateData>::get(record);
                if (p != nullptr) private_data(record, p->name(), p->data_size(), p->p_data());
                return;
            }
            default:
                return;
        }
    }

    void meta_record(const fb::Record& record) {
        if (record.meta_type() != fb::Meta::NONE && record.meta() == nullptr) {
            note(fb::EnumNameMeta(record.meta_type()), "the record has no table");
            return;
        }
        switch (record.meta_type()) {
            case fb::Meta::ObjectDestroyed:
                return destroyed(record.meta_as_ObjectDestroyed()->id());
            case fb::Meta::DebugName: {
                const auto* name = record.meta_as_DebugName();
                set_name(name->id(), name->name() != nullptr ? name->name()->str() : "");
                return;
            }
            case fb::Meta::ResourceTiling:
                return tiling_arrived(*record.meta_as_ResourceTiling());
            case fb::Meta::StateSnapshot:
                return snapshot(*record.meta_as_StateSnapshot());
            default:
                return;
        }
    }

    void snapshot(const fb::StateSnapshot& snapshot) {
        const auto* records = snapshot.records();
        if (records == nullptr) return;
        if (!where.empty()) {
            note("StateSnapshot", "a state snapshot inside a state snapshot is skipped");
            return;
        }
        std::vector<std::uint64_t> aligned;
        for (flatbuffers::uoffset_t i = 0; i < records->size(); ++i) {
            // The reader verified every nested record with its snapshot; a
            // byte vector is only 4-byte aligned, so each is read from a copy.
            const auto* bytes = records->Get(i)->data();
            if (bytes == nullptr || bytes->size() < sizeof(std::uint32_t)) continue;
            aligned.assign((bytes->size() + 7) / 8, 0);
            std::memcpy(aligned.data(), bytes->data(), bytes->size());
            const auto* nested = reinterpret_cast<const std::uint8_t*>(aligned.data());
            Pass inner{scanner, s, event, meta,
                       "state snapshot record " + std::to_string(i) + ": "};
            inner.record(*flatbuffers::GetSizePrefixedRoot<fb::Record>(nested), nested,
                         bytes->size());
        }
    }

    void destroyed(std::uint64_t id) {
        s.tiles.destroy(id);
        s.awaiting_tiling.erase(id);
        s.recording.erase(id);
        s.command_lists.erase(id);
    }

    void set_name(std::uint64_t id, std::string name) const {
        if (meta == nullptr || id == 0) return;
        while (!name.empty() && name.back() == '\0') name.pop_back();
        meta->names[id].emplace_back(event, std::move(name));
    }

    void private_data(const fb::Record& record, const fb::Guid* guid, std::uint32_t size,
                      const flatbuffers::Vector<std::uint8_t>* data) const {
        if (meta == nullptr || guid == nullptr || recorded_failure(record)) return;
        if (guid->data1() != kNameData1 || guid->data2() != kNameData2 ||
            guid->data3() != kNameData3 || guid->data4() == nullptr ||
            !std::equal(kNameData4, kNameData4 + 8, guid->data4()->begin())) {
            return;
        }
        const std::size_t length = data == nullptr ? 0 : std::min<std::size_t>(size, data->size());
        set_name(
            record.header()->object(),
            std::string(reinterpret_cast<const char*>(length ? data->data() : nullptr), length));
    }

    // Objects.

    void remember(std::uint64_t id, ObjectKind kind, bool pool,
                  const runtime::tiles::ResourceShape& shape) const {
        if (meta != nullptr) meta->objects[id] = ObjectInfo{id, kind, pool, event, shape};
    }

    void create_buffer(const fb::Record& record) {
        if (recorded_failure(record)) return;
        const auto* p = CallOf<fb::ID3D11Device_CreateBuffer>::get(record);
        if (p == nullptr || p->p_desc() == nullptr || p->pp_buffer() == 0) {
            note(kCreateBuffer, "the record has no description or no buffer id; skipped");
            return;
        }
        const fb::D3D11_BUFFER_DESC& desc = *p->p_desc();
        const std::uint64_t id = p->pp_buffer();
        const bool pool = (desc.misc_flags() & D3D11_RESOURCE_MISC_TILE_POOL) != 0;
        const bool tiled = (desc.misc_flags() & D3D11_RESOURCE_MISC_TILED) != 0;
        if (pool && tiled) {
            note(kCreateBuffer, "buffer " + std::to_string(id) +
                                    " has both MISC_TILE_POOL and MISC_TILED; skipped");
        } else if (pool) {
            runtime::tiles::ResourceShape shape;
            shape.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
            shape.byte_width = desc.byte_width();
            remember(id, ObjectKind::Buffer, true, shape);
            Collect sink;
            if (FAILED(s.tiles.create_pool(id, desc.byte_width(), &sink)))
                note(kCreateBuffer, sink.text());
        } else if (tiled) {
            runtime::tiles::ResourceShape shape;
            shape.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
            shape.byte_width = desc.byte_width();
            created_tiled(id, shape, ObjectKind::Buffer, kCreateBuffer);
        }
    }

    void create_texture2d(const fb::Record& record) {
        if (recorded_failure(record)) return;
        const auto* p = CallOf<fb::ID3D11Device_CreateTexture2D>::get(record);
        if (p == nullptr || p->p_desc() == nullptr || p->pp_texture2_d() == 0) {
            note(kCreateTexture2D, "the record has no description or no texture id; skipped");
            return;
        }
        const fb::D3D11_TEXTURE2D_DESC& desc = *p->p_desc();
        if ((desc.misc_flags() & D3D11_RESOURCE_MISC_TILED) == 0) return;
        runtime::tiles::ResourceShape shape;
        shape.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
        shape.width = desc.width();
        shape.height = desc.height();
        shape.mip_levels = desc.mip_levels();
        shape.array_size = desc.array_size();
        shape.format = static_cast<DXGI_FORMAT>(desc.format());
        shape.sample_count = desc.sample_desc().count();
        created_tiled(p->pp_texture2_d(), shape, ObjectKind::Texture2D, kCreateTexture2D);
    }

    void create_texture3d(const fb::Record& record) {
        if (recorded_failure(record)) return;
        const auto* p = CallOf<fb::ID3D11Device_CreateTexture3D>::get(record);
        if (p == nullptr || p->p_desc() == nullptr || p->pp_texture3_d() == 0) {
            note(kCreateTexture3D, "the record has no description or no texture id; skipped");
            return;
        }
        const fb::D3D11_TEXTURE3D_DESC& desc = *p->p_desc();
        if ((desc.misc_flags() & D3D11_RESOURCE_MISC_TILED) == 0) return;
        runtime::tiles::ResourceShape shape;
        shape.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D;
        shape.width = desc.width();
        shape.height = desc.height();
        shape.depth = desc.depth();
        shape.mip_levels = desc.mip_levels();
        shape.format = static_cast<DXGI_FORMAT>(desc.format());
        created_tiled(p->pp_texture3_d(), shape, ObjectKind::Texture3D, kCreateTexture3D);
    }

    // The capture layer writes the capturing device's tiling right after the
    // creation record, and the index holds it too: with one index entry for
    // the id the resource gets it at once (a snapshot's tile calls come
    // before its tilings). Otherwise it starts with the reference device's
    // tiling, which a ResourceTiling record arriving before any mapping
    // replaces; a shape the reference device cannot tile waits for one.
    void created_tiled(std::uint64_t id, const runtime::tiles::ResourceShape& shape,
                       ObjectKind kind, const char* call) {
        remember(id, kind, false, shape);
        const auto found = scanner.index_tilings_.find(id);
        if (found != scanner.index_tilings_.end() && found->second.size() == 1) {
            materialize(id, shape, found->second.front(), call);
        } else if (!materialize(id, shape, nullptr, call)) {
            s.awaiting_tiling[id] = ScanState::Awaiting{shape, call};
        }
    }

    // A tile call names a resource still waiting for its tiling: it gets the
    // index's, if there is one.
    void ensure_created(std::uint64_t id) {
        const auto waiting = s.awaiting_tiling.find(id);
        if (waiting == s.awaiting_tiling.end()) return;
        const auto found = scanner.index_tilings_.find(id);
        if (found == scanner.index_tilings_.end()) return;
        const ScanState::Awaiting awaiting = waiting->second;
        s.awaiting_tiling.erase(waiting);
        materialize(id, awaiting.shape, found->second.front(), awaiting.call);
    }

    void tiling_arrived(const fb::ResourceTiling& recorded) {
        const std::uint64_t id = recorded.resource();
        if (const auto waiting = s.awaiting_tiling.find(id); waiting != s.awaiting_tiling.end()) {
            const ScanState::Awaiting awaiting = waiting->second;
            s.awaiting_tiling.erase(waiting);
            materialize(id, awaiting.shape, &recorded, awaiting.call);
            return;
        }
        // With one index entry, this record is what the creation used or refused.
        const auto indexed = scanner.index_tilings_.find(id);
        if (indexed != scanner.index_tilings_.end() && indexed->second.size() == 1) return;
        const runtime::tiles::ResourceTiling* current = s.tiles.tiling(id);
        if (current == nullptr) return;
        runtime::tiles::ResourceShape shape;
        shape.mip_levels = current->mip_levels;
        shape.array_size = current->array_size;
        const runtime::tiles::ResourceTiling reported = recorded_tiling(recorded, shape);
        if (runtime::tiles::same_tiling(*current, reported)) return;
        if (s.tiles.pool_of(id) != 0) {
            note("ResourceTiling", "object " + std::to_string(id) +
                                       ": the capturing device's tiling arrived after tiles were "
                                       "mapped with another tiling, which stays");
            return;
        }
        // Nothing mapped yet: the resource can take the reported tiling.
        const runtime::tiles::ResourceTiling previous = *current;
        s.tiles.destroy(id);
        Collect sink;
        if (!within_limits(id, reported, "ResourceTiling") ||
            FAILED(s.tiles.create_tiled_resource(id, reported, &sink))) {
            if (!sink.messages.empty()) note("ResourceTiling", sink.text());
            s.tiles.create_tiled_resource(id, previous, nullptr);
        }
    }

    bool within_limits(std::uint64_t id, const runtime::tiles::ResourceTiling& tiling,
                       const char* call) const {
        const Limits& limits = scanner.limits_;
        if (tiling.total_tiles > limits.max_resource_tiles) {
            note(call, "object " + std::to_string(id) + " has " +
                           std::to_string(tiling.total_tiles) + " tiles, more than the " +
                           std::to_string(limits.max_resource_tiles) +
                           " a resource may have here; it is left out");
            return false;
        }
        std::uint64_t live = 0;
        for (const runtime::tiles::ObjectId other : s.tiles.tiled_resources())
            live += s.tiles.tiling(other)->total_tiles;
        if (live + tiling.total_tiles > limits.max_total_tiles) {
            note(call, "object " + std::to_string(id) + " has " +
                           std::to_string(tiling.total_tiles) + " tiles, and with the " +
                           std::to_string(live) + " of the other tiled resources that is more " +
                           "than the " + std::to_string(limits.max_total_tiles) +
                           " tiles allowed here; it is left out");
            return false;
        }
        return true;
    }

    // Creates the tiled resource with the recorded tiling, else (none, or
    // one the model refuses) the reference device's; false when neither.
    bool materialize(std::uint64_t id, const runtime::tiles::ResourceShape& shape,
                     const fb::ResourceTiling* recorded, const char* call) {
        if (recorded != nullptr) {
            const runtime::tiles::ResourceTiling tiling = recorded_tiling(*recorded, shape);
            if (!within_limits(id, tiling, call)) return false;
            Collect sink;
            if (SUCCEEDED(s.tiles.create_tiled_resource(id, tiling, &sink))) return true;
            note(call, "the capturing device's tiling of object " + std::to_string(id) +
                           " is refused (" + sink.text() + "); using the reference tiling");
        }
        runtime::tiles::ResourceTiling tiling;
        Collect sink;
        if (FAILED(runtime::tiles::compute_tiling(shape, tiling, &sink))) {
            note(call, "object " + std::to_string(id) + " cannot be tiled: " + sink.text());
            return false;
        }
        if (!within_limits(id, tiling, call)) return false;
        if (SUCCEEDED(s.tiles.create_tiled_resource(id, tiling, &sink))) return true;
        note(call, sink.text());
        return false;
    }

    // Contexts and command lists. A context is immediate unless a
    // CreateDeferredContext* call made it: D3D11CreateDevice* and
    // GetImmediateContext* only ever hand out the immediate one.

    template <class Params>
    void deferred_context(const Params* p, const fb::Record& record) {
        if (p == nullptr || recorded_failure(record) || p->pp_deferred_context() == 0) return;
        s.deferred_contexts.insert(p->pp_deferred_context());
    }

    void tile_call(const fb::Record& record, const std::uint8_t* bytes, std::size_t size) {
        if (recorded_failure(record)) return;
        const std::uint64_t context = context_of(record);
        if (s.deferred_contexts.count(context) == 0) return apply_tile_call(record);
        // Kept until a command list holding it runs on the immediate context.
        auto copy = std::make_shared<std::vector<std::uint64_t>>((size + 7) / 8, 0);
        std::memcpy(copy->data(), bytes, size);
        s.recording[context].push_back(DeferredCall{std::move(copy), event});
    }

    void finish_command_list(const fb::Record& record) {
        const auto* p = CallOf<fb::ID3D11DeviceContext_FinishCommandList>::get(record);
        if (p == nullptr || recorded_failure(record)) return;
        const auto recording = s.recording.find(context_of(record));
        if (recording == s.recording.end()) return;
        if (p->pp_command_list() != 0 && !recording->second.empty()) {
            s.command_lists[p->pp_command_list()] =
                std::make_shared<const CallList>(std::move(recording->second));
        }
        s.recording.erase(recording);
    }

    void execute_command_list(const fb::Record& record) {
        const auto* p = CallOf<fb::ID3D11DeviceContext_ExecuteCommandList>::get(record);
        if (p == nullptr) return;
        const auto found = s.command_lists.find(p->p_command_list());
        if (found == s.command_lists.end()) return;
        const std::shared_ptr<const CallList> calls = found->second;
        const std::uint64_t context = context_of(record);
        if (s.deferred_contexts.count(context) != 0) {
            // Recorded into another command list: runs when that one runs.
            CallList& into = s.recording[context];
            into.insert(into.end(), calls->begin(), calls->end());
            return;
        }
        for (const DeferredCall& call : *calls) {
            Pass executed{scanner, s, event, meta,
                          where + "command list " + std::to_string(p->p_command_list()) +
                              " (call recorded at event " + std::to_string(call.event) + "): "};
            executed.apply_tile_call(
                *flatbuffers::GetSizePrefixedRoot<fb::Record>(call.record->data()));
        }
    }

    // The tile calls themselves.

    void apply_tile_call(const fb::Record& record) {
        switch (static_cast<CallId>(record.header()->call())) {
            case CallId::ID3D11DeviceContext2_UpdateTileMappings:
                return update_tile_mappings(record);
            case CallId::ID3D11DeviceContext2_CopyTileMappings:
                return copy_tile_mappings(record);
            case CallId::ID3D11DeviceContext2_ResizeTilePool:
                return resize_tile_pool(record);
            default:
                return;
        }
    }

    void update_tile_mappings(const fb::Record& record) {
        const auto* p = CallOf<fb::ID3D11DeviceContext2_UpdateTileMappings>::get(record);
        if (p == nullptr) {
            note(kUpdate, "the record has no parameters; skipped");
            return;
        }
        const UINT regions = p->num_tiled_resource_regions();
        const UINT ranges = p->num_ranges();
        std::vector<D3D11_TILED_RESOURCE_COORDINATE> starts;
        std::vector<D3D11_TILE_REGION_SIZE> sizes;
        if (const auto* values = p->p_tiled_resource_region_start_coordinates()) {
            if (values->size() < regions) {
                note(kUpdate, held("pTiledResourceRegionStartCoordinates", values->size(),
                                   "NumTiledResourceRegions", regions));
                return;
            }
            for (UINT i = 0; i < regions; ++i) starts.push_back(coordinate(*values->Get(i)));
        }
        if (const auto* values = p->p_tiled_resource_region_sizes()) {
            if (values->size() < regions) {
                note(kUpdate, held("pTiledResourceRegionSizes", values->size(),
                                   "NumTiledResourceRegions", regions));
                return;
            }
            for (UINT i = 0; i < regions; ++i) sizes.push_back(region_size(*values->Get(i)));
        }
        const UINT* flags = nullptr;
        const UINT* offsets = nullptr;
        const UINT* counts = nullptr;
        if (!uint_array(p->p_range_flags(), ranges, flags)) {
            note(kUpdate, held("pRangeFlags", p->p_range_flags()->size(), "NumRanges", ranges));
            return;
        }
        if (!uint_array(p->p_tile_pool_start_offsets(), ranges, offsets)) {
            note(kUpdate, held("pTilePoolStartOffsets", p->p_tile_pool_start_offsets()->size(),
                               "NumRanges", ranges));
            return;
        }
        if (!uint_array(p->p_range_tile_counts(), ranges, counts)) {
            note(kUpdate,
                 held("pRangeTileCounts", p->p_range_tile_counts()->size(), "NumRanges", ranges));
            return;
        }
        // With every range array NULL the model walks NumRanges defaults.
        if (flags == nullptr && offsets == nullptr && counts == nullptr &&
            ranges > scanner.limits_.max_resource_tiles) {
            note(kUpdate, "NumRanges " + std::to_string(ranges) +
                              " with no range arrays is absurd; the call is skipped");
            return;
        }
        ensure_created(p->p_tiled_resource());
        Collect sink;
        const bool has_starts = p->p_tiled_resource_region_start_coordinates() != nullptr;
        const bool has_sizes = p->p_tiled_resource_region_sizes() != nullptr;
        const HRESULT hr = s.tiles.update_tile_mappings(
            p->p_tiled_resource(), regions, has_starts ? starts.data() : nullptr,
            has_sizes ? sizes.data() : nullptr, p->p_tile_pool(), ranges, flags, offsets, counts,
            p->flags(), &sink);
        if (FAILED(hr)) note(kUpdate, sink.text());
    }

    void copy_tile_mappings(const fb::Record& record) {
        const auto* p = CallOf<fb::ID3D11DeviceContext2_CopyTileMappings>::get(record);
        if (p == nullptr || p->p_dest_region_start_coordinate() == nullptr ||
            p->p_source_region_start_coordinate() == nullptr ||
            p->p_tile_region_size() == nullptr) {
            note(kCopy, "the record lacks a parameter; skipped");
            return;
        }
        ensure_created(p->p_dest_tiled_resource());
        ensure_created(p->p_source_tiled_resource());
        Collect sink;
        const HRESULT hr = s.tiles.copy_tile_mappings(
            p->p_dest_tiled_resource(), coordinate(*p->p_dest_region_start_coordinate()),
            p->p_source_tiled_resource(), coordinate(*p->p_source_region_start_coordinate()),
            region_size(*p->p_tile_region_size()), p->flags(), &sink);
        if (FAILED(hr)) note(kCopy, sink.text());
    }

    void resize_tile_pool(const fb::Record& record) {
        const auto* p = CallOf<fb::ID3D11DeviceContext2_ResizeTilePool>::get(record);
        if (p == nullptr) {
            note(kResize, "the record has no parameters; skipped");
            return;
        }
        Collect sink;
        if (FAILED(s.tiles.resize_tile_pool(p->p_tile_pool(), p->new_size_in_bytes(), &sink)))
            note(kResize, sink.text());
    }
};

void Scanner::apply(ScanState& state, const fb::Record& record, const std::uint8_t* bytes,
                    std::size_t size, std::uint64_t event, Metadata* meta) const {
    Pass pass{*this, state, event, meta, {}};
    pass.record(record, bytes, size);
}

}  // namespace d3dcap::state::detail
