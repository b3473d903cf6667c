// The tiling a trace recorded for a tiled resource (its ResourceTiling
// record), as the tile model's ResourceTiling. The record has no mip or slice
// counts: the caller sets mip_levels and array_size from the resource.
#pragma once

#include <d3dcap/fb/records_generated.h>

#include "replay/tiles/tiling.h"

namespace d3dcap::tiles {

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

}  // namespace d3dcap::tiles
