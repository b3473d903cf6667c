// A device whose clears and Discard* all fill what a view selects with one
// texel pattern (clear_plan.h works out the pattern and the boxes): the clear
// calls of the Backend interface in terms of one fill_view.
#pragma once

#include "runtime/backend/backend.h"

namespace d3dcap::runtime::backend {

struct ClearTexel;

class FillingBackend : public Backend {
  public:
    void clear_render_target(const ViewInfo& view, const float color[4]) override;
    void clear_depth_stencil(const ViewInfo& view, std::uint32_t flags, float depth,
                             std::uint8_t stencil) override;
    void clear_unordered_access_uint(const ViewInfo& view, const std::uint32_t values[4]) override;
    void clear_unordered_access_float(const ViewInfo& view, const float values[4]) override;
    void clear_view(const ViewInfo& view, const float color[4], const D3D11_RECT* rects,
                    std::uint32_t rect_count) override;
    void discard(const ViewInfo& view, const D3D11_RECT* rects, std::uint32_t rect_count) override;

  protected:
    // Fills what the view selects (rects in texels of each mip, null for all).
    virtual void fill_view(const ViewInfo& view, const ClearTexel& clear, const D3D11_RECT* rects,
                           std::uint32_t rect_count) = 0;
};

}  // namespace d3dcap::runtime::backend
