// The Vulkan device's table of resources (gpu_resource.h).
#include "runtime/backend/vulkan/gpu_resource.h"

namespace d3dcap::runtime::backend::vulkan {

std::vector<std::unique_ptr<GpuResource>> ResourceTable::take_unmapped_retired() {
    std::vector<std::unique_ptr<GpuResource>> unmapped;
    for (auto pool = retired_.begin(); pool != retired_.end();) {
        bool mapped = false;
        for (const auto& [id, resource] : live_) {
            for (const tiles::TileMapping& tile : resource->bound) {
                if (tile.pool == pool->first) {
                    mapped = true;
                    break;
                }
            }
            if (mapped) break;
        }
        if (mapped) {
            ++pool;
            continue;
        }
        unmapped.push_back(std::move(pool->second));
        pool = retired_.erase(pool);
    }
    return unmapped;
}

}  // namespace d3dcap::runtime::backend::vulkan
