// Copies and updates of the reference device: CopyResource,
// CopySubresourceRegion(1), UpdateSubresource(1). They move raw elements, so
// BC formats move whole 4x4 blocks and depth formats move their bits as they
// are. D3D11_COPY_NO_OVERWRITE and D3D11_COPY_DISCARD only concern
// synchronisation with GPU work, which a CPU device has none of: the copy is
// the same with or without them.
#include <algorithm>
#include <vector>

#include "runtime/backend/clear_plan.h"
#include "runtime/backend/reference/reference_backend.h"
#include "runtime/backend/subresource_layout.h"

namespace d3dcap::runtime::backend::reference {

void ReferenceBackend::copy_box(Resource& dest, std::uint32_t dest_sub, std::uint32_t x,
                                std::uint32_t y, std::uint32_t z, Resource& source,
                                std::uint32_t source_sub, const ElementBox& requested) {
    SubresourceAccess from(*this, source, source_sub);
    SubresourceAccess to(*this, dest, dest_sub);
    const SubresourceLayout& in = from.layout();
    const SubresourceLayout& out = to.layout();
    if (in.element_bytes != out.element_bytes || requested.empty()) return;
    if (x >= out.width || y >= out.height || z >= out.depth) return;
    // What fits at the destination.
    ElementBox box = requested;
    box.right = box.left + std::min(box.width(), out.width - x);
    box.bottom = box.top + std::min(box.height(), out.height - y);
    box.back = box.front + std::min(box.depth(), out.depth - z);

    const std::uint64_t row = std::uint64_t{box.width()} * in.element_bytes;
    if (&dest != &source && dest.contiguous() && source.contiguous()) {
        // Separate private memory: no overlap, so a row at a time.
        std::vector<std::uint8_t> line_bytes(row);
        for (std::uint32_t slice = 0; slice < box.depth(); ++slice) {
            for (std::uint32_t line = 0; line < box.height(); ++line) {
                from.read(box.left, box.top + line, box.front + slice, box.width(),
                          line_bytes.data());
                to.write(x, y + line, z + slice, box.width(), line_bytes.data());
            }
        }
        return;
    }
    // Read everything first: the same subresource, or pool tiles that both
    // sides map, may be the same memory.
    std::vector<std::uint8_t> staging(row * box.height() * box.depth());
    std::uint8_t* cursor = staging.data();
    for (std::uint32_t slice = box.front; slice < box.back; ++slice) {
        for (std::uint32_t line = box.top; line < box.bottom; ++line, cursor += row) {
            from.read(box.left, line, slice, box.width(), cursor);
        }
    }
    cursor = staging.data();
    for (std::uint32_t slice = 0; slice < box.depth(); ++slice) {
        for (std::uint32_t line = 0; line < box.height(); ++line, cursor += row) {
            to.write(x, y + line, z + slice, box.width(), cursor);
        }
    }
}

void ReferenceBackend::copy_resource(ObjectId dest_id, ObjectId source_id) {
    std::lock_guard lock(mutex_);
    Resource* dest = find(dest_id);
    Resource* source = find(source_id);
    if (dest == nullptr || source == nullptr) return;
    const std::uint32_t count = std::min(subresource_count(*dest), subresource_count(*source));
    for (std::uint32_t sub = 0; sub < count; ++sub) {
        copy_box(*dest, sub, 0, 0, 0, *source, sub,
                 element_box(layout_of(source->info, sub), nullptr));
    }
}

void ReferenceBackend::copy_subresource_region(ObjectId dest_id, std::uint32_t dest_subresource,
                                               std::uint32_t x, std::uint32_t y, std::uint32_t z,
                                               ObjectId source_id, std::uint32_t source_subresource,
                                               const D3D11_BOX* source_box,
                                               std::uint32_t /*copy_flags: synchronisation only*/) {
    std::lock_guard lock(mutex_);
    Resource* dest = find(dest_id);
    Resource* source = find(source_id);
    if (dest == nullptr || source == nullptr) return;
    if (dest_subresource >= subresource_count(*dest) ||
        source_subresource >= subresource_count(*source)) {
        return;
    }
    const SubresourceLayout in = layout_of(source->info, source_subresource);
    const SubresourceLayout out = layout_of(dest->info, dest_subresource);
    // Positions in texels become elements: a BC block, or a texel of the
    // uncompressed format a block is reinterpreted as.
    copy_box(*dest, dest_subresource, x / out.block_width, y / out.block_height, z, *source,
             source_subresource, element_box(in, source_box));
}

// For buffers the box is in bytes and data points at the box's first byte
// (the D3D11 rule; UpdateSubresource1 behaves the same).
void ReferenceBackend::update_subresource(ObjectId dest_id, std::uint32_t subresource,
                                          const D3D11_BOX* dest_box, const void* data,
                                          std::uint32_t row_pitch, std::uint32_t depth_pitch,
                                          std::uint32_t /*copy_flags: synchronisation only*/) {
    std::lock_guard lock(mutex_);
    Resource* dest = find(dest_id);
    if (dest == nullptr || data == nullptr || subresource >= subresource_count(*dest)) return;
    SubresourceAccess access(*this, *dest, subresource);
    const SubresourceLayout& layout = access.layout();
    const ElementBox box = element_box(layout, dest_box);
    if (box.empty()) return;
    // The pitches as given: 0 reads every row (slice) from the same bytes,
    // as D3D11 does (and as a capture records the data).
    const std::uint64_t rows_pitch = row_pitch, slices_pitch = depth_pitch;
    const auto* source = static_cast<const std::uint8_t*>(data);
    for (std::uint32_t slice = 0; slice < box.depth(); ++slice) {
        for (std::uint32_t line = 0; line < box.height(); ++line) {
            access.write(box.left, box.top + line, box.front + slice, box.width(),
                         source + slice * slices_pitch + line * rows_pitch);
        }
    }
}

}  // namespace d3dcap::runtime::backend::reference
