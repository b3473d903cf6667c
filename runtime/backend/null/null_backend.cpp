// The state-only device (driver type NULL): it keeps no texels. Every data
// operation does nothing; Map hands out a scratch buffer with the
// subresource's pitches, zeroed when first mapped and kept until the resource
// goes (what a Map shows is all the contents it has); read_subresource and
// reclaim report false (no contents were kept, so none were discarded).
#include <map>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "runtime/backend/backend.h"
#include "runtime/backend/subresource_layout.h"

namespace d3dcap::runtime::backend {
namespace {

class NullBackend final : public Backend {
  public:
    const char* name() const override { return "null"; }

    HRESULT create_resource(const ResourceInfo& info, const D3D11_SUBRESOURCE_DATA*) override {
        std::lock_guard lock(mutex_);
        resources_[info.id] = info;
        return S_OK;
    }
    void destroy_resource(ObjectId resource) override {
        std::lock_guard lock(mutex_);
        resources_.erase(resource);
        for (auto scratch = scratch_.begin(); scratch != scratch_.end();) {
            scratch =
                scratch->first.first == resource ? scratch_.erase(scratch) : std::next(scratch);
        }
    }
    void resize_tile_pool(ObjectId pool, std::uint64_t new_byte_width) override {
        std::lock_guard lock(mutex_);
        if (auto found = resources_.find(pool); found != resources_.end()) {
            found->second.byte_width = new_byte_width;
        }
    }

    void copy_resource(ObjectId, ObjectId) override {}
    void copy_subresource_region(ObjectId, std::uint32_t, std::uint32_t, std::uint32_t,
                                 std::uint32_t, ObjectId, std::uint32_t, const D3D11_BOX*,
                                 std::uint32_t) override {}
    void update_subresource(ObjectId, std::uint32_t, const D3D11_BOX*, const void*, std::uint32_t,
                            std::uint32_t, std::uint32_t) override {}
    void update_tiles(ObjectId, const std::vector<tiles::TileRef>&, const void*) override {}
    void copy_tiles(ObjectId, const std::vector<tiles::TileRef>&, ObjectId, std::uint64_t,
                    std::uint32_t) override {}

    void clear_render_target(const ViewInfo&, const float[4]) override {}
    void clear_depth_stencil(const ViewInfo&, std::uint32_t, float, std::uint8_t) override {}
    void clear_unordered_access_uint(const ViewInfo&, const std::uint32_t[4]) override {}
    void clear_unordered_access_float(const ViewInfo&, const float[4]) override {}
    void clear_view(const ViewInfo&, const float[4], const D3D11_RECT*, std::uint32_t) override {}
    void generate_mips(const ViewInfo&) override {}
    void resolve_subresource(ObjectId, std::uint32_t, ObjectId, std::uint32_t,
                             DXGI_FORMAT) override {}
    void discard(const ViewInfo&, const D3D11_RECT*, std::uint32_t) override {}

    HRESULT map(ObjectId resource, std::uint32_t subresource, D3D11_MAP,
                D3D11_MAPPED_SUBRESOURCE* mapped) override {
        std::lock_guard lock(mutex_);
        auto found = resources_.find(resource);
        if (found == resources_.end() || mapped == nullptr) return E_INVALIDARG;
        const SubresourceLayout layout = layout_of(found->second, subresource);
        // Kept from an earlier Map: zeroing every Map of a large resource
        // again costs more than the rest of a state-only replay.
        std::vector<std::uint8_t>& scratch = scratch_[{resource, subresource}];
        if (scratch.size() != layout.bytes()) scratch.assign(layout.bytes(), 0);
        mapped->pData = scratch.data();
        mapped->RowPitch = static_cast<UINT>(layout.row_bytes());
        mapped->DepthPitch = static_cast<UINT>(layout.slice_bytes());
        return S_OK;
    }
    void unmap(ObjectId, std::uint32_t) override {}

    bool read_subresource(ObjectId, std::uint32_t, std::vector<std::uint8_t>&) override {
        return false;
    }
    void offer(ObjectId) override {}
    bool reclaim(ObjectId) override { return false; }

  private:
    std::mutex mutex_;
    std::unordered_map<ObjectId, ResourceInfo> resources_;
    std::map<std::pair<ObjectId, std::uint32_t>, std::vector<std::uint8_t>> scratch_;
};

}  // namespace

// Exported so that tests and tools linking libd3dcap can reach the backend.
__attribute__((visibility("default"))) std::unique_ptr<Backend> make_null_backend() {
    return std::make_unique<NullBackend>();
}

}  // namespace d3dcap::runtime::backend
