// What the layer keeps about a resource: its shape (to size the data calls
// read), and the shadow copies of its mapped subresources.
#pragma once

#include <d3d11_2.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "capture/layer/facet.h"
#include "runtime/formats/data_sizes.h"
#include "runtime/tiles/tiling.h"

namespace d3dcap::capture {

using runtime::formats::initial_data_bytes;
using runtime::formats::mapped_subresource_bytes;
using runtime::formats::mip_extent;
using runtime::formats::ResourceShape;
using runtime::formats::shape_of;
using runtime::formats::SizeResult;
using runtime::formats::subresource_count;
using runtime::formats::update_subresource_bytes;

struct ResourceInfo {
    ResourceShape shape;
    D3D11_USAGE usage = D3D11_USAGE_DEFAULT;
    UINT bind_flags = 0;
    UINT cpu_access_flags = 0;
    UINT misc_flags = 0;
    // Tiled resources: GetResourceTiling as the capturing device answers it.
    runtime::tiles::ResourceTiling tiling;

    bool tiled() const { return (misc_flags & D3D11_RESOURCE_MISC_TILED) != 0; }

    // A subresource the application has mapped: it writes into shadow, never
    // into the real mapping (which may be write-combined memory).
    struct Mapping {
        std::vector<std::uint8_t> shadow;
        void* real_data = nullptr;
        UINT row_pitch = 0;
        UINT depth_pitch = 0;
        D3D11_MAP type = D3D11_MAP_WRITE;
    };

    std::mutex mutex;
    std::map<std::pair<std::uint64_t, UINT>, Mapping> mappings;  // by (context id, subresource)
    // Each subresource's content as of its last Unmap (what the trace has
    // given it), the base its next Map's writes are compared with.
    std::unordered_map<UINT, std::vector<std::uint8_t>> contents;
};

// The description of a buffer or texture wrapper's real resource; nullptr
// for other kinds.
std::unique_ptr<ResourceInfo> describe_resource(Wrapper& wrapper);

// The resource behind an application pointer, or nullptr.
ResourceInfo* resource_info(ID3D11Resource* resource);

// Records what the capturing device answers to GetResourceTiling for a
// tiled resource (replay compares it with the replaying device).
void record_tiling(Wrapper& wrapper);

}  // namespace d3dcap::capture
