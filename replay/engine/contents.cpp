#include "replay/engine/contents.h"

#include <algorithm>

#include "replay/engine/replayer.h"
#include "runtime/internal.h"

namespace d3dcap::replay {

namespace {

constexpr const char* kCancelled = "cancelled: a newer request came";
// Events replayed between two still_wanted() questions.
constexpr std::uint64_t kEventsPerQuestion = 4096;

}  // namespace

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

std::uint64_t ContentsReplay::event_count() const {
    return replayer_->event_count();
}

std::uint64_t ContentsReplay::next_event() const {
    return replayer_->next_event();
}

bool ContentsReplay::is_cancelled(const trace::TraceError& error) {
    return error.message == kCancelled;
}

trace::Status ContentsReplay::replay_through(std::uint64_t event, const StillWanted& still_wanted) {
    if (replayer_->next_event() > event + 1) {
        if (trace::Status started = start(); !started) return started;
    }
    while (replayer_->next_event() <= event) {
        if (still_wanted && !still_wanted()) {
            return trace::TraceError{trace_path_, kCancelled, -1,
                                     static_cast<std::int64_t>(replayer_->next_event()), -1};
        }
        const std::uint64_t last =
            std::min(event, replayer_->next_event() + kEventsPerQuestion - 1);
        if (trace::Status ran = replayer_->run_to(last); !ran) return ran;
    }
    return trace::ok_status();
}

trace::Result<ResourceContents> ContentsReplay::contents_after(std::uint64_t event,
                                                               std::uint64_t resource,
                                                               std::uint32_t subresource,
                                                               const StillWanted& still_wanted) {
    const auto error = [&](std::string message) {
        return trace::TraceError{trace_path_, std::move(message), -1,
                                 static_cast<std::int64_t>(event), -1};
    };
    if (event >= event_count()) {
        return error("no event " + std::to_string(event) + ": the trace has " +
                     std::to_string(event_count()) + " events");
    }
    if (trace::Status replayed = replay_through(event, still_wanted); !replayed) {
        return replayed.error();
    }
    ResourceContents contents;
    contents.event = event;
    contents.resource = resource;
    contents.subresource = subresource;
    ID3D11Resource* object = nullptr;
    if (IUnknown* replayed = replayer_->object(resource)) {
        replayed->QueryInterface(__uuidof(ID3D11Resource), reinterpret_cast<void**>(&object));
    }
    if (!object) {
        return error("object #" + std::to_string(resource) + " is no resource after this event");
    }
    const bool described = shape_of(object, subresource, &contents.shape);
    const bool read = described && runtime::resource_contents(object, subresource, contents.bytes);
    object->Release();
    if (!described) {
        return error("resource #" + std::to_string(resource) + " has no subresource " +
                     std::to_string(subresource));
    }
    if (!read) {
        return error("the " + std::string(driver_ == D3D_DRIVER_TYPE_NULL ? "null" : "replay") +
                     " device keeps no contents of resource #" + std::to_string(resource));
    }
    return contents;
}

}  // namespace d3dcap::replay
