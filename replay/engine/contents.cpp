#include "replay/engine/contents.h"

#include <algorithm>

#include "replay/engine/replayer.h"
#include "runtime/formats.h"
#include "runtime/internal.h"

namespace d3dcap::replay {

namespace {

constexpr const char* kCancelled = "cancelled: a newer request came";
// Events replayed between two still_wanted() questions.
constexpr std::uint64_t kEventsPerQuestion = 4096;

}  // namespace

std::string describe(const SubresourceShape& shape) {
    std::string text;
    const auto size = [](auto... values) {
        std::string out;
        ((out += (out.empty() ? "" : "x") + std::to_string(values)), ...);
        return out;
    };
    switch (shape.dimension) {
        case D3D11_RESOURCE_DIMENSION_BUFFER:
            return "Buffer " + std::to_string(shape.width) + " bytes" +
                   ((shape.misc_flags & D3D11_RESOURCE_MISC_TILED) ? " tiled" : "") +
                   ((shape.misc_flags & D3D11_RESOURCE_MISC_TILE_POOL) ? " tile pool" : "");
        case D3D11_RESOURCE_DIMENSION_TEXTURE1D:
            text = "Texture1D " + size(shape.width);
            break;
        case D3D11_RESOURCE_DIMENSION_TEXTURE2D:
            text = "Texture2D " + size(shape.width, shape.height);
            break;
        case D3D11_RESOURCE_DIMENSION_TEXTURE3D:
            text = "Texture3D " + size(shape.width, shape.height, shape.depth);
            break;
        default:
            return "resource";
    }
    if (shape.array_size > 1) text += "x" + std::to_string(shape.array_size);
    std::string format = formats::info(shape.format).name;
    if (format.rfind("DXGI_FORMAT_", 0) == 0) format.erase(0, 12);
    text += " " + format;
    if (shape.mip_levels > 1) text += " " + std::to_string(shape.mip_levels) + " mips";
    if (shape.sample_count > 1) text += " " + std::to_string(shape.sample_count) + "x MSAA";
    if (shape.misc_flags & D3D11_RESOURCE_MISC_TILED) text += " tiled";
    return text;
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

std::uint64_t ContentsReplay::event_count() const {
    return replayer_->event_count();
}

std::uint64_t ContentsReplay::next_event() const {
    return replayer_->next_event();
}

bool ContentsReplay::is_cancelled(const trace::TraceError& error) {
    return error.message == kCancelled;
}

trace::Status ContentsReplay::replay_to(std::uint64_t event, const StillWanted& still_wanted) {
    if (event >= event_count()) {
        return trace::TraceError{trace_path_,
                                 "no event " + std::to_string(event) + ": the trace has " +
                                     std::to_string(event_count()) + " events",
                                 -1, static_cast<std::int64_t>(event), -1};
    }
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
    if (trace::Status replayed = replay_to(event, still_wanted); !replayed) {
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
