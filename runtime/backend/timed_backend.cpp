// A backend that times the data work of another: the reference device does
// on the CPU, inside each call, what a GPU does later, so the time spent in
// its backend is what it reports as its "GPU" time.
#include <atomic>
#include <chrono>

#include "runtime/backend/backend.h"

namespace d3dcap::runtime::backend {

namespace {

class TimedBackend final : public Backend {
  public:
    explicit TimedBackend(std::unique_ptr<Backend> inner) : inner_(std::move(inner)) {}

  private:
    template <typename Work>
    auto timed(Work&& work) {
        const auto start = std::chrono::steady_clock::now();
        struct Add {
            std::atomic<std::uint64_t>& total;
            std::chrono::steady_clock::time_point start;
            ~Add() {
                const auto spent = std::chrono::steady_clock::now() - start;
                total.fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(spent).count(),
                                std::memory_order_relaxed);
            }
        } add{busy_ns_, start};
        return work();
    }

  public:
    const char* name() const override { return inner_->name(); }
    void attach(const tiles::TileState* tiles) override {
        Backend::attach(tiles);
        inner_->attach(tiles);
    }
    bool gpu_clock_ns(std::uint64_t* ns) const override {
        *ns = busy_ns_.load(std::memory_order_relaxed);
        return true;
    }

    HRESULT create_resource(const ResourceInfo& info,
                            const D3D11_SUBRESOURCE_DATA* initial) override {
        return timed([&] { return inner_->create_resource(info, initial); });
    }
    void destroy_resource(ObjectId resource) override {
        timed([&] { inner_->destroy_resource(resource); });
    }
    D3D11_TILED_RESOURCES_TIER tiled_resources_tier() const override {
        return inner_->tiled_resources_tier();
    }
    std::optional<AdapterIdentity> adapter_identity() const override {
        return inner_->adapter_identity();
    }
    std::string tier_reason() const override { return inner_->tier_reason(); }
    bool logic_ops() const override { return inner_->logic_ops(); }
    bool executes_shaders() const override { return inner_->executes_shaders(); }
    bool draws_samples(DXGI_FORMAT format, std::uint32_t samples) override {
        return inner_->draws_samples(format, samples);
    }
    std::string prepare_shader(std::span<const std::uint8_t> bytecode,
                               const StreamOutputDeclaration* stream_output) override {
        return inner_->prepare_shader(bytecode, stream_output);
    }
    std::string dispatch(const StageWork& compute, const DispatchSize& groups,
                         WorkResults& results) override {
        return timed([&] { return inner_->dispatch(compute, groups, results); });
    }
    std::string draw(const DrawWork& work, const DrawArguments& arguments,
                     WorkResults& results) override {
        return timed([&] { return inner_->draw(work, arguments, results); });
    }
    bool read_results(std::uint64_t ticket, bool wait, WorkResults& out) override {
        return inner_->read_results(ticket, wait, out);
    }
    void forget_results(std::uint64_t ticket) override { inner_->forget_results(ticket); }
    std::uint64_t gpu_predicate(const std::vector<std::uint64_t>& tickets, bool overflow) override {
        return inner_->gpu_predicate(tickets, overflow);
    }
    void forget_predicate(std::uint64_t id) override { inner_->forget_predicate(id); }
    void set_uav_counter(ObjectId view, std::uint32_t value) override {
        timed([&] { inner_->set_uav_counter(view, value); });
    }
    void copy_uav_counter(ObjectId view, std::uint32_t value, ObjectId dest,
                          std::uint32_t offset) override {
        timed([&] { inner_->copy_uav_counter(view, value, dest, offset); });
    }
    void forget_uav_counter(ObjectId view) override { inner_->forget_uav_counter(view); }
    void tile_mappings_changed(ObjectId resource, std::uint32_t flags) override {
        timed([&] { inner_->tile_mappings_changed(resource, flags); });
    }
    void begin_event(const std::string& label) override { inner_->begin_event(label); }
    void end_event() override { inner_->end_event(); }
    void set_marker(const std::string& label) override { inner_->set_marker(label); }
    bool timestamp_frequency(std::uint64_t* frequency) override {
        return inner_->timestamp_frequency(frequency);
    }
    std::uint64_t write_timestamp() override { return inner_->write_timestamp(); }
    void wait_for_work() override {
        timed([&] { inner_->wait_for_work(); });
    }
    void flush() override {
        timed([&] { inner_->flush(); });
    }
    void resize_tile_pool(ObjectId pool, std::uint64_t new_byte_width) override {
        timed([&] { inner_->resize_tile_pool(pool, new_byte_width); });
    }
    void copy_resource(ObjectId dest, ObjectId source) override {
        timed([&] { inner_->copy_resource(dest, source); });
    }
    void copy_subresource_region(ObjectId dest, std::uint32_t dest_subresource, std::uint32_t x,
                                 std::uint32_t y, std::uint32_t z, ObjectId source,
                                 std::uint32_t source_subresource, const D3D11_BOX* source_box,
                                 std::uint32_t copy_flags) override {
        timed([&] {
            inner_->copy_subresource_region(dest, dest_subresource, x, y, z, source,
                                            source_subresource, source_box, copy_flags);
        });
    }
    void update_subresource(ObjectId dest, std::uint32_t subresource, const D3D11_BOX* box,
                            const void* data, std::uint32_t row_pitch, std::uint32_t depth_pitch,
                            std::uint32_t copy_flags) override {
        timed([&] {
            inner_->update_subresource(dest, subresource, box, data, row_pitch, depth_pitch,
                                       copy_flags);
        });
    }
    void update_tiles(ObjectId resource, const std::vector<tiles::TileRef>& tiles,
                      const void* data) override {
        timed([&] { inner_->update_tiles(resource, tiles, data); });
    }
    void copy_tiles(ObjectId resource, const std::vector<tiles::TileRef>& tiles, ObjectId buffer,
                    std::uint64_t buffer_offset, std::uint32_t flags) override {
        timed([&] { inner_->copy_tiles(resource, tiles, buffer, buffer_offset, flags); });
    }
    void clear_render_target(const ViewInfo& view, const float color[4]) override {
        timed([&] { inner_->clear_render_target(view, color); });
    }
    void clear_depth_stencil(const ViewInfo& view, std::uint32_t flags, float depth,
                             std::uint8_t stencil) override {
        timed([&] { inner_->clear_depth_stencil(view, flags, depth, stencil); });
    }
    void clear_unordered_access_uint(const ViewInfo& view, const std::uint32_t values[4]) override {
        timed([&] { inner_->clear_unordered_access_uint(view, values); });
    }
    void clear_unordered_access_float(const ViewInfo& view, const float values[4]) override {
        timed([&] { inner_->clear_unordered_access_float(view, values); });
    }
    void clear_view(const ViewInfo& view, const float color[4], const D3D11_RECT* rects,
                    std::uint32_t rect_count) override {
        timed([&] { inner_->clear_view(view, color, rects, rect_count); });
    }
    void generate_mips(const ViewInfo& view) override {
        timed([&] { inner_->generate_mips(view); });
    }
    void resolve_subresource(ObjectId dest, std::uint32_t dest_subresource, ObjectId source,
                             std::uint32_t source_subresource, DXGI_FORMAT format) override {
        timed([&] {
            inner_->resolve_subresource(dest, dest_subresource, source, source_subresource, format);
        });
    }
    void discard(const ViewInfo& view, const D3D11_RECT* rects, std::uint32_t rect_count) override {
        timed([&] { inner_->discard(view, rects, rect_count); });
    }
    HRESULT map(ObjectId resource, std::uint32_t subresource, D3D11_MAP type,
                D3D11_MAPPED_SUBRESOURCE* mapped) override {
        return timed([&] { return inner_->map(resource, subresource, type, mapped); });
    }
    void unmap(ObjectId resource, std::uint32_t subresource) override {
        timed([&] { inner_->unmap(resource, subresource); });
    }
    // Reading back for hashes and screenshots is the tool's work, not the
    // application's: not timed.
    bool read_subresource(ObjectId resource, std::uint32_t subresource,
                          std::vector<std::uint8_t>& bytes) override {
        return inner_->read_subresource(resource, subresource, bytes);
    }
    bool read_subresource_window(ObjectId resource, std::uint32_t subresource,
                                 const formats::ElementWindow& window,
                                 std::vector<std::uint8_t>& bytes) override {
        return inner_->read_subresource_window(resource, subresource, window, bytes);
    }
    bool read_subresource_pieces(ObjectId resource, std::uint32_t subresource,
                                 const ByteSink& sink) override {
        return inner_->read_subresource_pieces(resource, subresource, sink);
    }
    void offer(ObjectId resource) override { inner_->offer(resource); }
    bool reclaim(ObjectId resource) override { return inner_->reclaim(resource); }

  private:
    std::unique_ptr<Backend> inner_;
    std::atomic<std::uint64_t> busy_ns_{0};
};

}  // namespace

std::unique_ptr<Backend> make_timed_backend(std::unique_ptr<Backend> inner) {
    return std::make_unique<TimedBackend>(std::move(inner));
}

}  // namespace d3dcap::runtime::backend
