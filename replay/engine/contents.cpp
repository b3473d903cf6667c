#include "replay/engine/contents.h"

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "replay/engine/checkpoint_process.h"
#include "replay/engine/event_output.h"
#include "replay/engine/replayer.h"
#include "runtime/formats/formats.h"
#include "runtime/inspection.h"
#include "runtime/tiles/describe.h"

namespace d3dcap::replay {

namespace {

// Events replayed between two still_wanted() questions.
constexpr std::uint64_t kEventsPerQuestion = 4096;

// The elements (texels, or blocks) of a subresource, laid out as
// read_subresource lays them out.
struct ElementGrid {
    std::uint32_t columns = 0, rows = 0, depth = 1;
    std::uint32_t block_width = 1, block_height = 1;
    std::uint64_t element_bytes = 0;  // 0: not whole bytes; read whole
};

ElementGrid grid_of(const SubresourceShape& shape) {
    ElementGrid grid;
    if (shape.buffer || runtime::formats::is_planar(shape.format)) return grid;
    const runtime::formats::FormatInfo& facts = runtime::formats::info(shape.format);
    if (facts.bits_per_element == 0 || facts.bits_per_element % 8 != 0) return grid;
    grid.block_width = facts.block_width;
    grid.block_height = facts.block_height;
    grid.columns = (shape.width + grid.block_width - 1) / grid.block_width;
    grid.rows = (shape.height + grid.block_height - 1) / grid.block_height;
    grid.depth = std::max<UINT>(1, shape.depth);
    grid.element_bytes =
        std::uint64_t{facts.bits_per_element} / 8 * std::max<UINT>(1, shape.sample_count);
    return grid;
}

// The elements a window asks for: clamped, whole blocks, the step a power
// of two (1 for blocks) and the corner on a multiple of it, so that panning
// keeps the same texels.
runtime::formats::ElementWindow elements_of(const ContentsWindow& wanted, const ElementGrid& grid) {
    runtime::formats::ElementWindow window;
    const auto clamp_span = [](std::uint32_t start, std::uint32_t length, std::uint32_t block,
                               std::uint32_t count, std::uint32_t& first, std::uint32_t& size) {
        first = std::min(start / block, count - 1);
        const std::uint64_t end =
            std::min<std::uint64_t>((std::uint64_t{start} + length + block - 1) / block, count);
        size = static_cast<std::uint32_t>(std::max<std::uint64_t>(end, first + 1) - first);
    };
    clamp_span(wanted.x, wanted.width, grid.block_width, grid.columns, window.x, window.width);
    clamp_span(wanted.y, wanted.height, grid.block_height, grid.rows, window.y, window.height);
    if (grid.block_width == 1 && grid.block_height == 1) {
        const std::uint32_t side = std::max<std::uint32_t>(1, wanted.max_side);
        while (window.step < (1u << 30) && (window.columns() > side || window.rows() > side))
            window.step *= 2;
        const std::uint32_t x = window.x / window.step * window.step;
        const std::uint32_t y = window.y / window.step * window.step;
        window.width += window.x - x;
        window.height += window.y - y;
        window.x = x;
        window.y = y;
    }
    return window;
}

// The window's elements out of the whole subresource's.
std::vector<std::uint8_t> crop(const std::vector<std::uint8_t>& whole, const ElementGrid& grid,
                               const runtime::formats::ElementWindow& window) {
    const std::uint64_t row = grid.columns * grid.element_bytes;
    if (whole.size() < row * grid.rows * grid.depth) return {};
    std::vector<std::uint8_t> out(std::uint64_t{window.columns()} * window.rows() * grid.depth *
                                  grid.element_bytes);
    std::uint8_t* to = out.data();
    for (std::uint32_t z = 0; z < grid.depth; ++z) {
        for (std::uint32_t y = window.y; y < window.y + window.height; y += window.step) {
            const std::uint8_t* from = whole.data() + (std::uint64_t{z} * grid.rows + y) * row +
                                       std::uint64_t{window.x} * grid.element_bytes;
            for (std::uint32_t x = 0; x < window.width; x += window.step) {
                std::memcpy(to, from + std::uint64_t{x} * grid.element_bytes, grid.element_bytes);
                to += grid.element_bytes;
            }
        }
    }
    return out;
}

// Reads the window asked for of a subresource of the given shape; the
// whole one where the window covers it or its format has no whole-byte
// elements.
bool read_window(ID3D11Resource* resource, std::uint32_t subresource, const ContentsWindow& wanted,
                 ResourceContents& contents) {
    const SubresourceShape& shape = contents.shape;
    const ElementGrid grid = grid_of(shape);
    contents.window = {0, 0, shape.width, shape.height, 1};
    if (grid.element_bytes == 0 || grid.columns == 0 || grid.rows == 0)
        return runtime::resource_contents(resource, subresource, contents.bytes);
    const runtime::formats::ElementWindow window = elements_of(wanted, grid);
    if (window.x == 0 && window.y == 0 && window.width == grid.columns &&
        window.height == grid.rows && window.step == 1)
        return runtime::resource_contents(resource, subresource, contents.bytes);
    contents.window.x = window.x * grid.block_width;
    contents.window.y = window.y * grid.block_height;
    contents.window.width =
        std::min(shape.width - contents.window.x, window.width * grid.block_width);
    contents.window.height =
        std::min(shape.height - contents.window.y, window.height * grid.block_height);
    contents.window.step = window.step;
    if (runtime::resource_contents_window(resource, subresource, window, contents.bytes))
        return true;
    std::vector<std::uint8_t> whole;
    if (!runtime::resource_contents(resource, subresource, whole)) return false;
    contents.bytes = crop(whole, grid, window);
    return !contents.bytes.empty();
}

}  // namespace

std::string describe(const SubresourceShape& shape) {
    runtime::tiles::ResourceShape described;
    described.dimension = shape.dimension;
    described.byte_width = shape.width;
    described.width = shape.width;
    described.height = shape.height;
    described.depth = shape.depth;
    described.mip_levels = shape.mip_levels;
    described.array_size = shape.array_size;
    described.format = shape.format;
    described.sample_count = shape.sample_count;
    return runtime::tiles::describe(
        described, {.tiled = (shape.misc_flags & D3D11_RESOURCE_MISC_TILED) != 0,
                    .pool = (shape.misc_flags & D3D11_RESOURCE_MISC_TILE_POOL) != 0});
}

ContentsReplay::ContentsReplay(std::string trace_path, D3D_DRIVER_TYPE driver)
    : trace_path_(std::move(trace_path)), driver_(driver) {}

ContentsReplay::~ContentsReplay() = default;

trace::Result<std::unique_ptr<ContentsReplay>> ContentsReplay::open(const std::string& trace_path,
                                                                    D3D_DRIVER_TYPE driver) {
    std::unique_ptr<ContentsReplay> contents(new ContentsReplay(trace_path, driver));
    if (trace::Status started = contents->start(); !started) return started.error();
    return contents;
}

trace::Status ContentsReplay::start() {
    ReplayOptions options;
    options.driver = driver_;
    auto replayer = Replayer::open(trace_path_, options);
    if (!replayer) return replayer.error();
    replayer_ = std::move(replayer.value());
    ++starts_;
    return trace::ok_status();
}

std::vector<ListedResource> ContentsReplay::resources() const {
    std::vector<ListedResource> out;
    for (const std::uint64_t id : replayer_->object_ids()) {
        ID3D11Resource* resource = nullptr;
        IUnknown* object = replayer_->object(id);
        if (FAILED(object->QueryInterface(__uuidof(ID3D11Resource),
                                          reinterpret_cast<void**>(&resource))) ||
            resource == nullptr)
            continue;
        ListedResource listed{id, {}, replayer_->debug_name(id)};
        const bool described = shape_of(resource, 0, &listed.shape);
        resource->Release();
        if (described) out.push_back(listed);
    }
    return out;
}

RecordedId ContentsReplay::recorded_ids() const {
    // Replayed objects by identity (their IUnknown) to the trace's ids.
    auto ids = std::make_shared<std::unordered_map<IUnknown*, std::uint64_t>>();
    for (const std::uint64_t id : replayer_->object_ids()) {
        IUnknown* identity = nullptr;
        if (SUCCEEDED(replayer_->object(id)->QueryInterface(__uuidof(IUnknown),
                                                            reinterpret_cast<void**>(&identity)))) {
            ids->emplace(identity, id);
            identity->Release();
        }
    }
    return [ids](IUnknown* object) -> std::uint64_t {
        IUnknown* identity = nullptr;
        if (FAILED(object->QueryInterface(__uuidof(IUnknown), reinterpret_cast<void**>(&identity))))
            return 0;
        const auto found = ids->find(identity);
        identity->Release();
        return found == ids->end() ? 0 : found->second;
    };
}

std::vector<StateRow> ContentsReplay::pipeline(std::uint64_t event, const RecordedId& id_of) const {
    const ObjectLabel label = [&](IUnknown* object) -> std::string {
        const std::uint64_t id = id_of(object);
        if (id == 0) return {};
        const std::string name = replayer_->debug_name(id);
        return (name.empty() ? "" : name + " ") + "#" + std::to_string(id);
    };
    // A call recorded on a deferred context sees that context's state.
    ID3D11DeviceContext* context = replayer_->context_of(event);
    return pipeline_rows(context ? context : replayer_->immediate_context(), label);
}

std::uint64_t ContentsReplay::event_count() const {
    return replayer_->event_count();
}

std::uint64_t ContentsReplay::next_event() const {
    return replayer_->next_event();
}

bool ContentsReplay::is_cancelled(const trace::TraceError& error) {
    return error.message == kCancelledMessage;
}

void ContentsReplay::set_checkpoints(std::uint64_t interval, std::size_t max_checkpoints) {
    // Forks take the calling thread alone: only devices that replay on it.
    const bool one_thread = driver_ == D3D_DRIVER_TYPE_REFERENCE || driver_ == D3D_DRIVER_TYPE_NULL;
    checkpoint_interval_ = one_thread ? interval : 0;
    max_checkpoints_ = std::max<std::size_t>(2, max_checkpoints);
}

std::uint64_t ContentsReplay::usual_checkpoint_interval() const {
    return std::max<std::uint64_t>(256, event_count() / 64);
}

void ContentsReplay::take_checkpoint() {
    const std::uint64_t event = replayer_->next_event() - 1;
    const auto later = std::find_if(checkpoints_.begin(), checkpoints_.end(),
                                    [&](const auto& c) { return c->event() >= event; });
    if (later != checkpoints_.end() && (*later)->event() == event) return;  // kept from before
    auto checkpoint =
        CheckpointProcess::fork_at(event, [this](std::uint64_t at, const ContentsRequest& request) {
            in_checkpoint_ = true;  // a fork serving a request replays forward only
            return read_after(at, request, {});
        });
    if (!checkpoint) return;  // no fork: earlier events replay from the start
    checkpoints_.insert(later, std::move(checkpoint));
    if (checkpoints_.size() > max_checkpoints_) {
        // Every other one goes, oldest kept: the spacing doubles.
        std::vector<std::unique_ptr<CheckpointProcess>> kept;
        for (std::size_t i = 0; i < checkpoints_.size(); i += 2)
            kept.push_back(std::move(checkpoints_[i]));
        checkpoints_ = std::move(kept);
        checkpoint_interval_ *= 2;
    }
}

trace::Status ContentsReplay::replay_to(std::uint64_t event, const StillWanted& still_wanted) {
    while (replayer_->next_event() <= event) {
        if (still_wanted && !still_wanted()) {
            return trace::TraceError{trace_path_, std::string(kCancelledMessage), -1,
                                     static_cast<std::int64_t>(replayer_->next_event()), -1};
        }
        std::uint64_t last = std::min(event, replayer_->next_event() + kEventsPerQuestion - 1);
        const bool pausing = checkpoint_interval_ != 0 && !in_checkpoint_;
        const std::uint64_t boundary =
            pausing ? (replayer_->next_event() / checkpoint_interval_ + 1) * checkpoint_interval_
                    : UINT64_MAX;
        last = std::min(last, boundary - 1);
        if (trace::Status ran = replayer_->run_to(last); !ran) return ran;
        if (pausing && replayer_->next_event() == boundary) take_checkpoint();
    }
    return trace::ok_status();
}

trace::Result<ResourceContents> ContentsReplay::contents_after(std::uint64_t event,
                                                               const ContentsRequest& request,
                                                               const StillWanted& still_wanted) {
    if (event >= event_count()) {
        return trace::TraceError{trace_path_,
                                 "no event " + std::to_string(event) + ": the trace has " +
                                     std::to_string(event_count()) + " events",
                                 -1, static_cast<std::int64_t>(event), -1};
    }
    if (replayer_->next_event() > event + 1) {
        // Behind this replay: the nearest checkpoint before the event
        // answers, else replay starts again.
        while (!checkpoints_.empty()) {
            auto nearest = std::find_if(checkpoints_.rbegin(), checkpoints_.rend(),
                                        [&](const auto& c) { return c->event() <= event; });
            if (nearest == checkpoints_.rend()) break;
            auto answer = (*nearest)->ask(event, request, still_wanted, trace_path_);
            if ((*nearest)->alive()) return answer;
            checkpoints_.erase(std::next(nearest).base());  // it died: the next nearest
        }
        // Before the first checkpoint. The later ones stay: replay is the
        // same every time.
        if (trace::Status started = start(); !started) return started.error();
    }
    return read_after(event, request, still_wanted);
}

trace::Result<ResourceContents> ContentsReplay::read_after(std::uint64_t event,
                                                           const ContentsRequest& request,
                                                           const StillWanted& still_wanted) {
    if (trace::Status replayed = replay_to(event, still_wanted); !replayed) {
        return replayed.error();
    }
    ResourceContents contents;
    contents.event = event;
    contents.resources = resources();
    const RecordedId id_of = recorded_ids();
    contents.pipeline = pipeline(event, id_of);
    contents.resource = request.resource;
    contents.subresource = request.subresource;
    if (request.resource == ContentsRequest::kEventOutput) {
        const std::optional<EventOutput> output = output_of_event(*replayer_, event, id_of);
        contents.resource = output ? output->resource : 0;
        contents.subresource = output ? output->subresource : 0;
        if (!output) {
            contents.problem = "event " + std::to_string(event) +
                               " draws into nothing: no swap chain call, and no render target "
                               "or depth-stencil target bound";
            return contents;
        }
    }
    const std::uint64_t resource = contents.resource;
    const std::uint32_t subresource = contents.subresource;
    if (resource == 0) return contents;
    ID3D11Resource* object = nullptr;
    if (IUnknown* replayed = replayer_->object(resource)) {
        replayed->QueryInterface(__uuidof(ID3D11Resource), reinterpret_cast<void**>(&object));
    }
    if (!object) {
        contents.problem =
            "object #" + std::to_string(resource) + " is no resource after this event";
        return contents;
    }
    const bool described = shape_of(object, subresource, &contents.shape);
    const bool read = described && read_window(object, subresource, request.window, contents);
    object->Release();
    if (!described) {
        contents.problem = "resource #" + std::to_string(resource) + " has no subresource " +
                           std::to_string(subresource);
    } else if (!read) {
        contents.problem = "the " +
                           std::string(driver_ == D3D_DRIVER_TYPE_NULL ? "null" : "replay") +
                           " device keeps no contents of resource #" + std::to_string(resource);
    }
    return contents;
}

}  // namespace d3dcap::replay
