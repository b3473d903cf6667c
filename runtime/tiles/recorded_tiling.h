// The tiling a trace records for a tiled resource (its ResourceTiling record)
// and the tile model's ResourceTiling, one from the other. The record has no
// mip or slice counts: a reader sets mip_levels and array_size from the
// resource.
#pragma once

#include <d3dcap/fb/records_generated.h>

#include <cstdint>
#include <vector>

#include "runtime/tiles/tiling.h"

namespace d3dcap::runtime::tiles {

inline ResourceTiling tiling_of_record(const fb::ResourceTiling& recorded) {
    ResourceTiling tiling;
    tiling.total_tiles = recorded.num_tiles();
    if (const auto* p = recorded.packed_mip_desc()) {
        tiling.packed = {p->num_standard_mips(), p->num_packed_mips(),
                         p->num_tiles_for_packed_mips(), p->start_tile_index_in_overall_resource()};
    }
    if (const auto* s = recorded.tile_shape()) {
        tiling.shape = {s->width_in_texels(), s->height_in_texels(), s->depth_in_texels()};
    }
    if (const auto* subresources = recorded.subresource_tilings()) {
        tiling.subresources.reserve(subresources->size());
        for (const fb::D3D11_SUBRESOURCE_TILING* s : *subresources) {
            tiling.subresources.push_back({s->width_in_tiles(), s->height_in_tiles(),
                                           s->depth_in_tiles(),
                                           s->start_tile_index_in_overall_resource()});
        }
    }
    return tiling;
}

inline flatbuffers::Offset<fb::ResourceTiling> record_of_tiling(flatbuffers::FlatBufferBuilder& b,
                                                                std::uint64_t resource,
                                                                const ResourceTiling& t) {
    std::vector<fb::D3D11_SUBRESOURCE_TILING> subresources;
    for (const auto& s : t.subresources)
        subresources.emplace_back(s.WidthInTiles, s.HeightInTiles, s.DepthInTiles,
                                  s.StartTileIndexInOverallResource);
    const fb::D3D11_PACKED_MIP_DESC packed(t.packed.NumStandardMips, t.packed.NumPackedMips,
                                           t.packed.NumTilesForPackedMips,
                                           t.packed.StartTileIndexInOverallResource);
    const fb::D3D11_TILE_SHAPE shape(t.shape.WidthInTexels, t.shape.HeightInTexels,
                                     t.shape.DepthInTexels);
    return fb::CreateResourceTilingDirect(b, resource, t.total_tiles, &packed, &shape,
                                          &subresources);
}

}  // namespace d3dcap::runtime::tiles
