// Resources, copies, updates, maps and reads of the Vulkan device.
#include "runtime/backend/vulkan/vulkan_backend.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "runtime/formats/formats.h"

namespace d3dcap::runtime::backend::vulkan {
namespace {

constexpr VkBufferUsageFlags kBufferUsage =
    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
    VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
    VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT |
    VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |
    VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT;

std::uint64_t tile_bytes() {
    return tiles::kTileBytes;
}

}  // namespace

std::unique_ptr<VulkanBackend> VulkanBackend::create(std::string& error, bool cpu) {
    vulkan::DeviceOptions options;
    options.cpu_adapter = cpu;
    auto device = vulkan::VulkanDevice::create(options);
    if (!device) {
        error = device.error().message;
        return nullptr;
    }
    std::unique_ptr<GpuContext> gpu = GpuContext::create(std::move(*device), error);
    if (!gpu) return nullptr;
    std::unique_ptr<VulkanBackend> backend(new VulkanBackend(std::move(gpu)));
    if (backend->gpu_->device().tier().tier == D3D11_TILED_RESOURCES_NOT_SUPPORTED) {
        // No sparse residency: tiled resources are shadowed, unless
        // D3DCAP_VULKAN_SHADOW_TILES=0 asks for a device without them.
        const char* shadow = std::getenv("D3DCAP_VULKAN_SHADOW_TILES");
        backend->shadow_tiles_ = shadow == nullptr || std::string(shadow) != "0";
    }
    return backend;
}

VulkanBackend::VulkanBackend(std::unique_ptr<GpuContext> gpu)
    : gpu_(std::move(gpu)),
      scratch_(make_reference_backend()),
      descriptors_(*gpu_),
      views_(gpu_->vk()) {
    gpu_->before_rendering_ends([this](VkCommandBuffer commands) {
        if (queries_.running()) queries_.end_run(commands);
    });
}

VulkanBackend::~VulkanBackend() {
    if (vulkan::process_exiting()) {
        // Released from a static destructor: the driver may have torn itself
        // down; the process's end frees the GPU objects. They stay reachable
        // from here, so that leak checkers do not report them.
        static auto* const left_to_exit = new std::vector<std::unique_ptr<GpuContext>>();
        left_to_exit->push_back(std::move(gpu_));
        return;
    }
    gpu_->finish();
    vkDeviceWaitIdle(gpu_->vk());
    destroy_pipelines();
    resources_.each([this](GpuResource& resource) { release(resource); });
    pages_.destroy();
    if (zero_tile_) release(*zero_tile_);
    uav_counters_.destroy();
    stream_output_.destroy();
    queries_.destroy();
    views_.clear();
}

// Every buffer can be a stream-output target and hold its counter where the
// GPU streams out, and hold a predicate's value where the GPU evaluates them.
VkBufferUsageFlags VulkanBackend::buffer_usage() const {
    VkBufferUsageFlags usage = kBufferUsage;
    if (gpu_->device().execution().transform_feedback)
        usage |= VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT |
                 VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT;
    if (gpu_->device().execution().conditional_rendering)
        usage |= VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT;
    return usage;
}

bool VulkanBackend::gpu_clock_ns(std::uint64_t* ns) const {
    *ns = gpu_->gpu_ns();
    return true;
}

void VulkanBackend::tag_work(std::uint64_t tag) {
    const auto lock = lock_calls();
    gpu_->set_tag(tag);
}

RecordingCounts VulkanBackend::recording_counts() {
    const auto lock = lock_calls();
    RecordingCounts counts = gpu_->counts();
    counts.descriptor_sets = descriptors_.sets_written();
    return counts;
}

void VulkanBackend::set_work_timing(WorkTiming timing) {
    const auto lock = lock_calls();
    gpu_->set_timing(timing);
}

std::uint64_t VulkanBackend::take_work_times(bool wait, std::vector<WorkTime>& out) {
    const Operation call(*this);
    return gpu_->take_times(wait, out);
}

// Shadowed tiled resources follow the tile model exactly, Texture3D included.
D3D11_TILED_RESOURCES_TIER VulkanBackend::tiled_resources_tier() const {
    return shadow_tiles_ ? D3D11_TILED_RESOURCES_TIER_3 : gpu_->device().tier().tier;
}

std::optional<AdapterIdentity> VulkanBackend::adapter_identity() const {
    const vulkan::AdapterInfo& adapter = gpu_->device().adapter();
    AdapterIdentity identity;
    identity.name = adapter.name;
    identity.vendor_id = adapter.vendor_id;
    identity.device_id = adapter.device_id;
    identity.dedicated_video_memory = adapter.device_local_bytes;
    std::copy(adapter.luid.begin(), adapter.luid.end(), identity.luid);
    identity.software = adapter.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    identity.sparse_residency =
        !shadow_tiles_ && tiled_resources_tier() >= D3D11_TILED_RESOURCES_TIER_2;
    return identity;
}

// MSAA textures this GPU holds as real multisampled images (what draws
// render into), for a render target or, for depth formats, a depth buffer.
bool VulkanBackend::draws_samples(DXGI_FORMAT format, std::uint32_t samples) {
    ResourceInfo info;
    info.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE2D;
    info.width = info.height = 64;
    info.format = format;
    info.sample_count = samples;
    info.bind_flags = formats::info(format).kind == formats::Kind::Depth ? D3D11_BIND_DEPTH_STENCIL
                                                                         : D3D11_BIND_RENDER_TARGET;
    ImageStorage storage;
    std::string error;
    return choose_image_storage(gpu_->device().physical_device(), info, false, storage, error) &&
           storage.real && storage.samples == static_cast<VkSampleCountFlagBits>(samples);
}

// The device enables logicOp wherever the GPU has it, for the pipelines of
// blend states with LogicOpEnable.
bool VulkanBackend::logic_ops() const {
    return gpu_->device().adapter().logic_op;
}

std::string VulkanBackend::tier_reason() const {
    if (shadow_tiles_)
        return gpu_->device().adapter().name +
               ": no sparse residency; tiled resources are dense copies kept in step with their "
               "tile pools";
    return gpu_->device().adapter().name + ": " + gpu_->device().tier().reason;
}

void VulkanBackend::begin_event(const std::string& label) {
    const Operation call(*this);
    gpu_->label(GpuContext::Label::Begin, label);
}

void VulkanBackend::end_event() {
    const Operation call(*this);
    gpu_->label(GpuContext::Label::End, {});
}

void VulkanBackend::set_marker(const std::string& label) {
    const Operation call(*this);
    gpu_->label(GpuContext::Label::Marker, label);
}

bool VulkanBackend::timestamp_frequency(std::uint64_t* frequency) {
    return gpu_->timestamp_frequency(frequency);
}

HRESULT VulkanBackend::create_resource(const ResourceInfo& info,
                                       const D3D11_SUBRESOURCE_DATA* initial) {
    const Operation call(*this);
    auto resource = std::make_unique<GpuResource>();
    resource->info = info;
    HRESULT hr = S_OK;
    if (info.tile_pool()) {
        hr = create_pool(*resource);
    } else if (resource->is_buffer()) {
        hr = create_buffer(*resource);
    } else {
        hr = create_image(*resource);
    }
    if (FAILED(hr)) {
        release(*resource);
        return hr;
    }
    GpuResource& created = resources_.add(std::move(resource));
    if (initial != nullptr) {
        const std::uint32_t count = created.is_buffer() ? 1 : info.subresource_count();
        for (std::uint32_t sub = 0; sub < count; ++sub) {
            if (initial[sub].pSysMem == nullptr) continue;
            const SubresourceLayout layout = layout_of(info, sub);
            // Pitches of 0 mean tightly packed.
            const std::uint64_t row_pitch =
                initial[sub].SysMemPitch != 0 ? initial[sub].SysMemPitch : layout.row_bytes();
            const std::uint64_t slice_pitch = initial[sub].SysMemSlicePitch != 0
                                                  ? initial[sub].SysMemSlicePitch
                                                  : row_pitch * layout.height;
            upload_box(created, sub, element_box(layout, nullptr),
                       static_cast<const std::uint8_t*>(initial[sub].pSysMem), row_pitch,
                       slice_pitch);
        }
    }
    return S_OK;
}

// A tiled resource's tiling and its tiles, all NULL; shadowed where the GPU
// has no sparse residency.
void VulkanBackend::start_tiles(GpuResource& resource) {
    if (!resource.info.tiled()) return;
    resource.shadowed = shadow_tiles_;
    resource.tiling = *tiles_->tiling(resource.info.id);
    resource.bound.assign(resource.tiling.total_tiles, tiles::TileMapping{});
    resource.on_replica.assign(resource.tiling.total_tiles, 0);
}

HRESULT VulkanBackend::create_buffer(GpuResource& resource) {
    const ResourceInfo& info = resource.info;
    VkBufferCreateInfo create{};
    create.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    create.usage = buffer_usage();
    start_tiles(resource);
    if (info.tiled() && !resource.shadowed) {
        create.flags = VK_BUFFER_CREATE_SPARSE_BINDING_BIT | VK_BUFFER_CREATE_SPARSE_RESIDENCY_BIT |
                       VK_BUFFER_CREATE_SPARSE_ALIASED_BIT;
        create.size = (info.byte_width + tile_bytes() - 1) / tile_bytes() * tile_bytes();
    } else {
        create.size = std::max<std::uint64_t>(info.byte_width, 4);
    }
    if (vkCreateBuffer(gpu_->vk(), &create, nullptr, &resource.buffer) != VK_SUCCESS) {
        std::fprintf(stderr, "d3dcap: Vulkan device: cannot create a buffer of %llu bytes\n",
                     static_cast<unsigned long long>(info.byte_width));
        return E_OUTOFMEMORY;
    }
    if (info.tiled() && !resource.shadowed) return S_OK;  // bound as the tile model maps it
    if (!bind_buffer_memory(resource.info, resource.buffer, resource.memory)) return E_OUTOFMEMORY;
    // New resources read as zeros, as on the reference device.
    if (resource.memory.mapped != nullptr) {
        std::memset(resource.memory.mapped, 0, info.byte_width);
    } else {
        vkCmdFillBuffer(gpu_->commands(), resource.buffer, 0, VK_WHOLE_SIZE, 0);
        gpu_->end_step();
    }
    return S_OK;
}

// Memory for a new buffer: host-visible for DYNAMIC and STAGING, which Map
// hands to the program; `preferred`, where given, the properties to prefer.
bool VulkanBackend::bind_buffer_memory(const ResourceInfo& info, VkBuffer buffer,
                                       Allocation& memory, VkMemoryPropertyFlags preferred) {
    VkMemoryRequirements requirements{};
    vkGetBufferMemoryRequirements(gpu_->vk(), buffer, &requirements);
    const bool host = info.usage == D3D11_USAGE_DYNAMIC || info.usage == D3D11_USAGE_STAGING;
    const VkMemoryPropertyFlags required =
        host ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
             : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    if (preferred == 0)
        preferred = info.usage == D3D11_USAGE_STAGING ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT
                                                      : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    return gpu_->allocator().allocate(requirements, true, required, preferred, memory) ==
               VK_SUCCESS &&
           vkBindBufferMemory(gpu_->vk(), buffer, memory.memory, memory.offset) == VK_SUCCESS;
}

HRESULT VulkanBackend::create_image(GpuResource& resource) {
    const ResourceInfo& info = resource.info;
    std::string error;
    start_tiles(resource);
    const bool sparse = info.tiled() && !resource.shadowed;
    if (!choose_image_storage(gpu_->device().physical_device(), info, sparse, resource.storage,
                              error)) {
        std::fprintf(stderr, "d3dcap: Vulkan device: resource %llu: %s\n",
                     static_cast<unsigned long long>(info.id), error.c_str());
        return E_INVALIDARG;
    }
    if (wants_linear(resource)) return create_linear(resource);
    const ImageStorage& storage = resource.storage;
    resource.image = make_image(gpu_->vk(), storage);
    if (resource.image == VK_NULL_HANDLE) return E_OUTOFMEMORY;
    const VkImageSubresourceRange everything{storage.aspects, 0, VK_REMAINING_MIP_LEVELS, 0,
                                             VK_REMAINING_ARRAY_LAYERS};
    if (sparse) {
        std::uint32_t count = 0;
        vkGetImageSparseMemoryRequirements(gpu_->vk(), resource.image, &count, nullptr);
        std::vector<VkSparseImageMemoryRequirements> requirements(count);
        vkGetImageSparseMemoryRequirements(gpu_->vk(), resource.image, &count, requirements.data());
        if (count > 0) {
            resource.tail = requirements[0];
            resource.has_tail = resource.tail.imageMipTailFirstLod < storage.mip_levels;
        }
        const std::uint32_t standard = resource.tiling.packed.NumStandardMips;
        const bool packs = resource.tiling.packed.NumPackedMips > 0;
        if (packs != resource.has_tail ||
            (packs && resource.tail.imageMipTailFirstLod != standard)) {
            std::fprintf(
                stderr,
                "d3dcap: Vulkan device: resource %llu: the GPU packs mips from %u, the "
                "tile model from %u\n",
                static_cast<unsigned long long>(info.id),
                resource.has_tail ? resource.tail.imageMipTailFirstLod : storage.mip_levels,
                packs ? standard : storage.mip_levels);
            return E_INVALIDARG;
        }
        // Every tile starts NULL: nothing to bind or clear. The layout
        // change does not touch memory.
        to_general_layout(gpu_->commands(), resource.image, storage.aspects);
        gpu_->end_step();
        return S_OK;
    }

    VkMemoryRequirements requirements{};
    vkGetImageMemoryRequirements(gpu_->vk(), resource.image, &requirements);
    if (gpu_->allocator().allocate(requirements, false, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0,
                                   resource.memory) != VK_SUCCESS ||
        vkBindImageMemory(gpu_->vk(), resource.image, resource.memory.memory,
                          resource.memory.offset) != VK_SUCCESS) {
        return E_OUTOFMEMORY;
    }
    to_general_layout(gpu_->commands(), resource.image, storage.aspects);
    // New resources read as zeros, as on the reference device (zero bits are
    // zero in every format).
    if (storage.samples != VK_SAMPLE_COUNT_1_BIT && storage.aspects == VK_IMAGE_ASPECT_COLOR_BIT) {
        const VkClearColorValue zero{};
        vkCmdClearColorImage(gpu_->commands(), resource.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1,
                             &everything);
        gpu_->end_step();
        return S_OK;
    }
    if (storage.aspects != VK_IMAGE_ASPECT_COLOR_BIT) {
        const VkClearDepthStencilValue zero{0.0f, 0};
        vkCmdClearDepthStencilImage(gpu_->commands(), resource.image, VK_IMAGE_LAYOUT_GENERAL,
                                    &zero, 1, &everything);
        gpu_->end_step();
        return S_OK;
    }
    gpu_->end_step();
    for (std::uint32_t sub = 0; sub < info.subresource_count(); ++sub) {
        FillBox zero;
        zero.subresource = sub;
        zero.box = element_box(layout_of(info, sub), nullptr);
        zero.pattern.assign(layout_of(info, sub).element_bytes, 0);
        fill(resource, zero);
    }
    return S_OK;
}

// Objects work not yet done may use go once it is done.
void VulkanBackend::release(GpuResource& resource) {
    if (vulkan::process_exiting()) return;  // see ~VulkanBackend
    release_later(resource.buffer, resource.image, resource.memory);
    resource.buffer = VK_NULL_HANDLE;
    resource.image = VK_NULL_HANDLE;
    resource.memory = {};
    pages_.release(std::move(resource.chunks));
    resource.chunks.clear();
}

void VulkanBackend::release_later(VkBuffer buffer, VkImage image, const Allocation& memory) {
    if (buffer == VK_NULL_HANDLE && image == VK_NULL_HANDLE && memory.memory == VK_NULL_HANDLE)
        return;
    // Kept descriptor sets may name it, and a new object may get its handle.
    descriptors_.invalidate();
    ViewCache::Views buffer_views = views_.forget(handle_key(buffer)),
                     image_views = views_.forget(handle_key(image));
    gpu_->when_done([this, buffer, image, memory, buffer_views = std::move(buffer_views),
                     image_views = std::move(image_views)] {
        const VkDevice dev = gpu_->vk();
        views_.destroy(buffer_views);
        views_.destroy(image_views);
        if (buffer) vkDestroyBuffer(dev, buffer, nullptr);
        if (image) vkDestroyImage(dev, image, nullptr);
        gpu_->allocator().free(memory);
    });
}

void VulkanBackend::destroy_resource(ObjectId id) {
    const Operation call(*this);
    std::unique_ptr<GpuResource> resource = resources_.take(id);
    if (!resource) return;
    stream_output_.forget(id);
    written_.erase(std::remove(written_.begin(), written_.end(), id), written_.end());
    pages_.forget(*resource);
    if (resource->info.tile_pool()) {
        // Its memory stays while tiles map it.
        resources_.retire(std::move(resource));
    } else {
        release(*resource);
    }
    if (!resources_.has_retired()) return;
    flush();  // pending binds may name a retired pool
    for (const std::unique_ptr<GpuResource>& pool : resources_.take_unmapped_retired())
        release(*pool);
}

void VulkanBackend::copy_resource(ObjectId dest_id, ObjectId source_id) {
    const Operation call(*this);
    GpuResource* dest = use(dest_id);
    GpuResource* source = use(source_id);
    if (dest == nullptr || source == nullptr) return;
    const std::uint32_t count = dest->is_buffer() ? 1
                                                  : std::min(dest->info.subresource_count(),
                                                             source->info.subresource_count());
    for (std::uint32_t sub = 0; sub < count; ++sub) {
        copy_box(*dest, sub, 0, 0, 0, *source, sub,
                 element_box(layout_of(source->info, sub), nullptr));
    }
}

void VulkanBackend::copy_subresource_region(ObjectId dest_id, std::uint32_t dest_subresource,
                                            std::uint32_t x, std::uint32_t y, std::uint32_t z,
                                            ObjectId source_id, std::uint32_t source_subresource,
                                            const D3D11_BOX* source_box,
                                            std::uint32_t /*copy_flags: every call waits*/) {
    const Operation call(*this);
    GpuResource* dest = use(dest_id);
    GpuResource* source = use(source_id);
    if (dest == nullptr || source == nullptr) return;
    const std::uint32_t dest_count = dest->is_buffer() ? 1 : dest->info.subresource_count();
    const std::uint32_t source_count = source->is_buffer() ? 1 : source->info.subresource_count();
    if (dest_subresource >= dest_count || source_subresource >= source_count) return;
    const SubresourceLayout in = layout_of(source->info, source_subresource);
    const SubresourceLayout out = layout_of(dest->info, dest_subresource);
    copy_box(*dest, dest_subresource, x / out.block_width, y / out.block_height, z, *source,
             source_subresource, element_box(in, source_box));
}

void VulkanBackend::copy_box(GpuResource& dest, std::uint32_t dest_sub, std::uint32_t x,
                             std::uint32_t y, std::uint32_t z, GpuResource& source,
                             std::uint32_t source_sub, const ElementBox& requested) {
    const SubresourceLayout in = layout_of(source.info, source_sub);
    const SubresourceLayout out = layout_of(dest.info, dest_sub);
    if (in.element_bytes != out.element_bytes || requested.empty()) return;
    if (x >= out.width || y >= out.height || z >= out.depth) return;
    ElementBox box = requested;  // what fits at the destination
    box.right = box.left + std::min(box.width(), out.width - x);
    box.bottom = box.top + std::min(box.height(), out.height - y);
    box.back = box.front + std::min(box.depth(), out.depth - z);
    const ElementBox target{x, y, z, x + box.width(), y + box.height(), z + box.depth()};
    wrote_box(dest, dest_sub, target);

    // Copies that may overlap (one subresource, or two tiled resources that
    // may share pool tiles) go through the host, read first as on the
    // reference device; so do pools, which have no VkBuffer of their own. A
    // tiled source and a private destination (or the reverse) cannot overlap.
    // Images of different types (1D into 2D, 2D into 3D) take the same path:
    // vkCmdCopyImage pairs only 2D with 3D, and that with layer counts.
    const bool may_overlap = (&dest == &source && dest_sub == source_sub) ||
                             (dest.info.tiled() && source.info.tiled()) || dest.info.tile_pool() ||
                             source.info.tile_pool();
    // So do depth-stencil images and other images (vkCmdCopyImage wants
    // one depth format on both sides), and texels of different sizes.
    const ImageStorage& to = dest.storage;
    const ImageStorage& from = source.storage;
    const bool images = !dest.is_buffer() && !source.is_buffer();
    const bool other_type = images && to.type != from.type;
    const bool other_texels =
        images && (to.aspects != from.aspects ||
                   (to.aspects != VK_IMAGE_ASPECT_COLOR_BIT && to.format != from.format) ||
                   (!to.compressed && !from.compressed && to.texels_x != from.texels_x));
    if (may_overlap || other_type || other_texels) {
        const std::vector<std::uint8_t> bytes = download_box(source, source_sub, box);
        const std::uint64_t row = std::uint64_t{box.width()} * in.element_bytes;
        upload_box(dest, dest_sub, target, bytes.data(), row, row * box.height());
        return;
    }
    if (dest.linear || source.linear) {
        if (dest.is_buffer() || source.is_buffer()) return;  // D3D11 refuses these
        copy_linear(dest, dest_sub, target, source, source_sub, box);
        return;
    }
    // Between resources of their own memory, a copy is tracked work: it
    // waits only for the work that uses them.
    const std::uint64_t dest_key = hazard_key(dest), source_key = hazard_key(source);
    const bool tracked =
        dest_key != HazardTracker::kTiledMemory && source_key != HazardTracker::kTiledMemory;
    if (tracked) {
        gpu_->begin_work();
        gpu_->touch(source_key, false, VK_PIPELINE_STAGE_2_COPY_BIT);
        gpu_->touch(dest_key, true, VK_PIPELINE_STAGE_2_COPY_BIT);
    }
    const VkCommandBuffer commands = tracked ? gpu_->transfer() : gpu_->commands();
    if (dest.is_buffer() && source.is_buffer()) {
        const VkBufferCopy region{source.slice + box.left, dest.slice + target.left, box.width()};
        vkCmdCopyBuffer(commands, source.buffer, dest.buffer, 1, &region);
        gpu_->end_step();
        return;
    }
    if (dest.is_buffer() || source.is_buffer()) return;  // D3D11 refuses these
    auto subresource = [](const GpuResource& r, std::uint32_t sub) {
        const std::uint32_t mips = r.storage.mip_levels;
        const bool volume = r.storage.type == VK_IMAGE_TYPE_3D;
        return VkImageSubresourceLayers{r.storage.aspects, sub % mips, volume ? 0 : sub / mips, 1};
    };
    auto offset = [](const GpuResource& r, const ElementBox& b) {
        return VkOffset3D{static_cast<std::int32_t>(b.left * r.storage.texels_x),
                          static_cast<std::int32_t>(b.top * r.storage.texels_y),
                          static_cast<std::int32_t>(b.front)};
    };
    // The extent is in the source's texels; a BC edge block ends at the mip's edge.
    VkExtent3D extent{box.width() * source.storage.texels_x, box.height() * source.storage.texels_y,
                      box.depth()};
    if (source.storage.compressed) {
        extent.width = std::min(extent.width, in.texel_width - box.left * 4);
        extent.height = std::min(extent.height, in.texel_height - box.top * 4);
    }
    VkImageCopy region{};
    region.srcSubresource = subresource(source, source_sub);
    region.srcOffset = offset(source, box);
    region.dstSubresource = subresource(dest, dest_sub);
    region.dstOffset = offset(dest, target);
    region.extent = extent;
    vkCmdCopyImage(commands, source.image, VK_IMAGE_LAYOUT_GENERAL, dest.image,
                   VK_IMAGE_LAYOUT_GENERAL, 1, &region);
    gpu_->end_step();
}

void VulkanBackend::update_subresource(ObjectId dest_id, std::uint32_t subresource,
                                       const D3D11_BOX* dest_box, const void* data,
                                       std::uint32_t row_pitch, std::uint32_t depth_pitch,
                                       std::uint32_t /*copy_flags: every call waits*/) {
    const Operation call(*this);
    GpuResource* dest = use(dest_id);
    if (dest == nullptr || data == nullptr) return;
    if (subresource >= (dest->is_buffer() ? 1 : dest->info.subresource_count())) return;
    const SubresourceLayout layout = layout_of(dest->info, subresource);
    const ElementBox box = element_box(layout, dest_box);
    if (box.empty()) return;
    // The pitches as given: 0 reads every row (slice) from the same bytes,
    // as D3D11 does (and as a capture records the data).
    const std::uint64_t rows_pitch = row_pitch, slices_pitch = depth_pitch;
    upload_box(*dest, subresource, box, static_cast<const std::uint8_t*>(data), rows_pitch,
               slices_pitch);
}

HRESULT VulkanBackend::map(ObjectId id, std::uint32_t subresource, D3D11_MAP type,
                           D3D11_MAPPED_SUBRESOURCE* mapped) {
    const Operation call(*this);
    GpuResource* resource = find(id);
    if (resource == nullptr || mapped == nullptr) return E_INVALIDARG;
    if (subresource >= (resource->is_buffer() ? 1 : resource->info.subresource_count())) {
        return E_INVALIDARG;
    }
    const SubresourceLayout layout = layout_of(resource->info, subresource);
    mapped->RowPitch = static_cast<UINT>(layout.row_bytes());
    mapped->DepthPitch = static_cast<UINT>(layout.slice_bytes());
    if (resource->linear) {  // its memory, once the work using it is done
        mapped->pData = linear_bytes(*resource, subresource);
        return mapped->pData != nullptr ? S_OK : DXGI_ERROR_DEVICE_REMOVED;
    }
    // Buffers bound to kept draws are not marked at each draw: count them used.
    use(*resource);
    if (resource->is_buffer() && resource->memory.mapped != nullptr && !resource->shadowed) {
        // Host-visible memory, once the work using it is done: WRITE_DISCARD
        // takes new memory rather than wait, NO_OVERWRITE promises not to
        // touch what that work uses.
        if (type != D3D11_MAP_WRITE_NO_OVERWRITE && !gpu_->batch_done(resource->used_in)) {
            const bool renamed = type == D3D11_MAP_WRITE_DISCARD &&
                                 (next_slice(*resource) || rename_buffer(*resource));
            if (!renamed && !gpu_->finish()) return DXGI_ERROR_DEVICE_REMOVED;
        }
        mapped->pData = static_cast<std::uint8_t*>(resource->memory.mapped) + resource->slice;
        return S_OK;
    }
    try {
        std::vector<std::uint8_t>& bytes = resource->mapped[subresource];
        bytes = download_box(*resource, subresource, element_box(layout, nullptr));
        resource->map_types[subresource] = type;
        mapped->pData = bytes.data();
        return S_OK;
    } catch (const std::bad_alloc&) {
        resource->mapped.erase(subresource);
        return E_OUTOFMEMORY;
    }
}

void VulkanBackend::unmap(ObjectId id, std::uint32_t subresource) {
    const Operation call(*this);
    GpuResource* resource = find(id);
    if (resource == nullptr || resource->linear) return;  // written in place
    use(*resource);
    const auto bytes = resource->mapped.find(subresource);
    if (bytes == resource->mapped.end()) return;
    if (resource->map_types[subresource] != D3D11_MAP_READ) {
        const SubresourceLayout layout = layout_of(resource->info, subresource);
        upload_box(*resource, subresource, element_box(layout, nullptr), bytes->second.data(),
                   layout.row_bytes(), layout.slice_bytes());
    }
    resource->mapped.erase(bytes);
    resource->map_types.erase(subresource);
}

bool VulkanBackend::read_subresource(ObjectId id, std::uint32_t subresource,
                                     std::vector<std::uint8_t>& bytes) {
    bytes.clear();
    return read_subresource_pieces(id, subresource,
                                   [&](const std::uint8_t* piece, std::size_t size) {
                                       bytes.insert(bytes.end(), piece, piece + size);
                                   });
}

bool VulkanBackend::read_subresource_pieces(ObjectId id, std::uint32_t subresource,
                                            const ByteSink& sink) {
    const Operation call(*this);
    GpuResource* resource = use(id);
    if (resource == nullptr) return false;
    if (subresource >= (resource->is_buffer() ? 1 : resource->info.subresource_count())) {
        return false;
    }
    const SubresourceLayout layout = layout_of(resource->info, subresource);
    download_box(*resource, subresource, element_box(layout, nullptr), sink);
    return true;
}

// As on the reference device: offering fills a resource with the poison
// pattern and Reclaim reports the discard; tiled resources have no memory of
// their own to offer.
void VulkanBackend::offer(ObjectId id) {
    const Operation call(*this);
    GpuResource* resource = find(id);
    if (resource == nullptr) return;
    resource->offered = true;
    if (resource->info.tiled() || resource->info.tile_pool()) return;
    const std::uint32_t count = resource->is_buffer() ? 1 : resource->info.subresource_count();
    for (std::uint32_t sub = 0; sub < count; ++sub) {
        FillBox poison;
        poison.subresource = sub;
        poison.box = element_box(layout_of(resource->info, sub), nullptr);
        poison.pattern = poison_texel().texel;
        fill(*resource, poison);
    }
}

bool VulkanBackend::reclaim(ObjectId id) {
    const Operation call(*this);
    GpuResource* resource = find(id);
    if (resource == nullptr) return false;
    const bool discarded = resource->offered && !resource->info.tiled();
    resource->offered = false;
    return discarded;
}

}  // namespace d3dcap::runtime::backend::vulkan

namespace d3dcap::runtime::backend {

__attribute__((visibility("default"))) std::unique_ptr<Backend> make_vulkan_backend(
    std::string& error, VulkanAdapter adapter) {
    return vulkan::VulkanBackend::create(error, adapter == VulkanAdapter::Cpu);
}

}  // namespace d3dcap::runtime::backend
