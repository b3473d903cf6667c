// Map/Unmap: the application writes into a shadow copy the layer hands out,
// never into the real mapping (often write-combined memory, which must not
// be read). At Unmap the layer compares the shadow with what the
// subresource held before, copies the changes into the real mapping and
// records only the changed byte ranges.
#include <d3dcap/capture/wrappers.h>

#include <cstring>
#include <vector>

#include "capture/layer/layer.h"
#include "capture/layer/map_diff.h"
#include "capture/layer/recorder.h"
#include "capture/layer/resource_info.h"

namespace d3dcap::capture::hand_written {

namespace {

bool reads(D3D11_MAP type) {
    return type == D3D11_MAP_READ || type == D3D11_MAP_READ_WRITE;
}

}  // namespace

HRESULT ID3D11DeviceContext_Map(FacetHeader& self, ID3D11DeviceContext* real,
                                ID3D11Resource* pResource, UINT Subresource, D3D11_MAP MapType,
                                UINT MapFlags, D3D11_MAPPED_SUBRESOURCE* pMappedResource) {
    CallRecorder call(&self, api::CallId::ID3D11DeviceContext_Map);
    const HRESULT result =
        real->Map(unwrap(pResource), Subresource, MapType, MapFlags, pMappedResource);
    ResourceInfo* info = resource_info(pResource);
    if (SUCCEEDED(result) && pMappedResource != nullptr && info != nullptr &&
        MapType != D3D11_MAP_READ) {
        const SizeResult size = mapped_subresource_bytes(
            info->shape, Subresource, pMappedResource->RowPitch, pMappedResource->DepthPitch);
        if (size.ok()) {
            std::lock_guard lock(info->mutex);
            ResourceInfo::Mapping& mapping = info->mappings[{call.object(), Subresource}];
            mapping.real_data = pMappedResource->pData;
            mapping.row_pitch = pMappedResource->RowPitch;
            mapping.depth_pitch = pMappedResource->DepthPitch;
            mapping.type = MapType;
            const auto* data = static_cast<const std::uint8_t*>(pMappedResource->pData);
            if (MapType == D3D11_MAP_WRITE_NO_OVERWRITE && !info->contents.contains(Subresource)) {
                // Content the layer never saw (initial data): the writes land
                // on it, so the shadow starts from it; contents stays unset
                // until Unmap (see there).
                mapping.shadow.assign(data, data + size.bytes);
            } else {
                std::vector<std::uint8_t>& before = info->contents[Subresource];
                if (reads(MapType) || MapType == D3D11_MAP_WRITE) {
                    // The GPU may have written the resource since: start from
                    // its real content (readable memory: the map asked to read,
                    // or a staging resource).
                    before.assign(data, data + size.bytes);
                } else {
                    before.resize(size.bytes);
                }
                mapping.shadow = before;
            }
            pMappedResource->pData = mapping.shadow.data();
        }
    }
    if (call.wanted()) {
        call.finish(
            api::encode_ID3D11DeviceContext_Map(call.builder(), call.ids(), pResource, Subresource,
                                                MapType, MapFlags, pMappedResource),
            result_value(result), true);
        // What the program reads, hashed after the Map that shows it.
        if (SUCCEEDED(result) && reads(MapType) && pMappedResource != nullptr)
            if (const FacetHeader* header = header_of(pResource))
                Layer::get().record_mapped_hash(*header->owner, Subresource, *pMappedResource);
    }
    return result;
}

void ID3D11DeviceContext_Unmap(FacetHeader& self, ID3D11DeviceContext* real,
                               ID3D11Resource* pResource, UINT Subresource) {
    CallRecorder call(&self, api::CallId::ID3D11DeviceContext_Unmap);
    ResourceInfo* info = resource_info(pResource);
    std::vector<ByteRange> ranges;
    std::unique_lock<std::mutex> lock;
    ResourceInfo::Mapping mapping;
    bool shadowed = false;
    if (info != nullptr) {
        lock = std::unique_lock(info->mutex);
        const auto it = info->mappings.find({call.object(), Subresource});
        if (it != info->mappings.end()) {
            mapping = std::move(it->second);
            info->mappings.erase(it);
            shadowed = true;
        }
    }
    if (shadowed) {
        const std::size_t size = mapping.shadow.size();
        auto* target = static_cast<std::uint8_t*>(mapping.real_data);
        const bool unseen = !info->contents.contains(Subresource);
        std::vector<std::uint8_t>& before = info->contents[Subresource];
        if (unseen) {
            // A first WRITE_NO_OVERWRITE: the real mapping still holds what
            // the shadow started from, so what changed is copied against
            // it; the trace gets the content against the zeros replay
            // starts from.
            before.resize(size);
            changed_ranges(target, mapping.shadow.data(), size, ranges);
            for (const ByteRange& r : ranges)
                std::memcpy(target + r.offset, mapping.shadow.data() + r.offset, r.size);
        }
        changed_ranges(before.data(), mapping.shadow.data(), size, ranges);
        if (mapping.type == D3D11_MAP_WRITE_DISCARD) {
            // A discarded mapping holds nothing defined: give it everything.
            std::memcpy(target, mapping.shadow.data(), size);
        } else if (!unseen) {
            for (const ByteRange& r : ranges)
                std::memcpy(target + r.offset, mapping.shadow.data() + r.offset, r.size);
        }
        before.swap(mapping.shadow);
    }
    real->Unmap(unwrap(pResource), Subresource);
    if (!call.wanted()) return;
    flatbuffers::FlatBufferBuilder& b = call.builder();
    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::MappedWrite>>> writes = 0;
    if (shadowed) {
        const std::vector<std::uint8_t>& after = info->contents[Subresource];
        std::vector<flatbuffers::Offset<fb::MappedWrite>> offsets;
        offsets.reserve(ranges.size());
        for (const ByteRange& r : ranges)
            offsets.push_back(fb::CreateMappedWrite(
                b, r.offset, b.CreateVector(after.data() + r.offset, r.size)));
        writes = b.CreateVector(offsets);
    }
    const auto params =
        api::encode_ID3D11DeviceContext_Unmap(b, call.ids(), pResource, Subresource);
    call.finish(params, 0, false, writes);
}

}  // namespace d3dcap::capture::hand_written
