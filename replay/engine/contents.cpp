#include "replay/engine/contents.h"

#include <algorithm>
#include <unordered_map>

#include "replay/engine/checkpoint_process.h"
#include "replay/engine/replayer.h"
#include "runtime/internal.h"
#include "runtime/tiles/describe.h"

namespace d3dcap::replay {

namespace {

// Events replayed between two still_wanted() questions.
constexpr std::uint64_t kEventsPerQuestion = 4096;

}  // namespace

std::string describe(const SubresourceShape& shape) {
    tiles::ResourceShape described;
    described.dimension = shape.dimension;
    described.byte_width = shape.width;
    described.width = shape.width;
    described.height = shape.height;
    described.depth = shape.depth;
    described.mip_levels = shape.mip_levels;
    described.array_size = shape.array_size;
    described.format = shape.format;
    described.sample_count = shape.sample_count;
    return tiles::describe(described,
                           {.tiled = (shape.misc_flags & D3D11_RESOURCE_MISC_TILED) != 0,
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

std::vector<StateRow> ContentsReplay::pipeline() const {
    // Replayed objects by identity (their IUnknown) to the trace's ids.
    std::unordered_map<IUnknown*, std::uint64_t> ids;
    for (const std::uint64_t id : replayer_->object_ids()) {
        IUnknown* identity = nullptr;
        if (SUCCEEDED(replayer_->object(id)->QueryInterface(__uuidof(IUnknown),
                                                            reinterpret_cast<void**>(&identity)))) {
            ids.emplace(identity, id);
            identity->Release();
        }
    }
    const ObjectLabel label = [&](IUnknown* object) -> std::string {
        IUnknown* identity = nullptr;
        if (FAILED(object->QueryInterface(__uuidof(IUnknown), reinterpret_cast<void**>(&identity))))
            return {};
        const auto found = ids.find(identity);
        identity->Release();
        if (found == ids.end()) return {};
        const std::string name = replayer_->debug_name(found->second);
        return (name.empty() ? "" : name + " ") + "#" + std::to_string(found->second);
    };
    return pipeline_rows(replayer_->immediate_context(), label);
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
    auto checkpoint = CheckpointProcess::fork_at(
        event, [this](std::uint64_t at, std::uint64_t resource, std::uint32_t subresource) {
            in_checkpoint_ = true;  // a fork serving a request replays forward only
            return read_after(at, resource, subresource, {});
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
                                                               std::uint64_t resource,
                                                               std::uint32_t subresource,
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
            auto answer = (*nearest)->ask(event, resource, subresource, still_wanted, trace_path_);
            if ((*nearest)->alive()) return answer;
            checkpoints_.erase(std::next(nearest).base());  // it died: the next nearest
        }
        // Before the first checkpoint. The later ones stay: replay is the
        // same every time.
        if (trace::Status started = start(); !started) return started.error();
    }
    return read_after(event, resource, subresource, still_wanted);
}

trace::Result<ResourceContents> ContentsReplay::read_after(std::uint64_t event,
                                                           std::uint64_t resource,
                                                           std::uint32_t subresource,
                                                           const StillWanted& still_wanted) {
    if (trace::Status replayed = replay_to(event, still_wanted); !replayed) {
        return replayed.error();
    }
    ResourceContents contents;
    contents.event = event;
    contents.resources = resources();
    contents.pipeline = pipeline();
    contents.resource = resource;
    contents.subresource = subresource;
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
    const bool read = described && runtime::resource_contents(object, subresource, contents.bytes);
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
