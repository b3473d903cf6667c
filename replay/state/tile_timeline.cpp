// The timeline: one scan in event order (the frontier) that leaves
// checkpoints behind it, and queries that start from the latest checkpoint
// (or the last query's state) at or before their event.
#include "replay/state/tile_timeline.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "format/trace/reader.h"
#include "replay/state/tile_scan.h"
#include "runtime/tiles/describe.h"

namespace d3dcap::state {

namespace {

constexpr const char* kCancelled = "cancelled";

}  // namespace

const char* kind_name(ObjectKind kind) {
    switch (kind) {
        case ObjectKind::Buffer:
            return "buffer";
        case ObjectKind::Texture2D:
            return "texture2d";
        case ObjectKind::Texture3D:
            return "texture3d";
    }
    return "unknown";
}

std::string describe(const ObjectInfo& info) {
    runtime::tiles::ResourceShape shape = info.shape;
    if (info.kind == ObjectKind::Buffer) shape.dimension = D3D11_RESOURCE_DIMENSION_BUFFER;
    if (info.kind == ObjectKind::Texture3D) shape.dimension = D3D11_RESOURCE_DIMENSION_TEXTURE3D;
    return runtime::tiles::describe(shape, {.tiled = !info.pool, .pool = info.pool});
}

namespace detail {

struct Checkpoint {
    std::uint64_t event = 0;  // the state before this event
    ScanState state;
};

struct Engine {
    Engine(std::unique_ptr<trace::TraceReader> trace_reader, const TimelineOptions& timeline)
        : reader(std::move(trace_reader)),
          options(timeline),
          scanner(reader->index(), timeline.limits) {
        if (options.checkpoint_interval != 0) {
            checkpoints.push_back(Checkpoint{0, ScanState{}});
            checkpoint_bytes = checkpoints.back().state.tiles.storage_bytes();
        }
    }

    std::unique_ptr<trace::TraceReader> reader;
    TimelineOptions options;
    Scanner scanner;
    Metadata meta;
    std::uint64_t meta_next = 0;  // events before this one are in meta

    std::vector<Checkpoint> checkpoints;  // ascending events
    ScanState frontier;
    std::uint64_t frontier_next = 0;
    std::size_t frontier_chunk = static_cast<std::size_t>(-1);
    std::uint64_t chunks_since_checkpoint = 0;
    std::uint64_t checkpoint_bytes = 0;  // storage_bytes of every checkpoint
    std::uint64_t spacing = 1;           // multiplies both limits once over budget

    // The state of the last query that did not end at the frontier.
    std::optional<ScanState> cursor;
    std::uint64_t cursor_next = 0;

    std::optional<trace::Chunk> cached;

    trace::TraceError error(std::string message, std::int64_t event = -1) const {
        return trace::TraceError{reader->path(), std::move(message), -1, event, -1};
    }

    trace::Result<const trace::Chunk*> chunk(std::size_t number) {
        if (!cached || cached->number != number) {
            cached.reset();
            trace::Result<trace::Chunk> read = reader->read_chunk(number);
            if (!read) return read.error();
            cached = std::move(read.value());
        }
        return &*cached;
    }

    // Before the frontier applies event (the first of its chunk when
    // chunk_start): a checkpoint when enough events or chunks went by, within
    // the memory budget.
    void maybe_checkpoint(std::uint64_t event, bool chunk_start) {
        const std::uint64_t last = checkpoints.back().event;
        if (event == last) return;
        const auto scaled = [this](std::uint64_t limit) {
            return limit > UINT64_MAX / spacing ? UINT64_MAX : limit * spacing;
        };
        const bool events = event - last >= scaled(options.checkpoint_interval);
        const bool chunks = chunk_start && options.checkpoint_chunks != 0 &&
                            chunks_since_checkpoint >= scaled(options.checkpoint_chunks);
        if (!events && !chunks) return;
        const std::uint64_t bytes = frontier.tiles.storage_bytes();
        while (checkpoint_bytes + bytes > options.max_checkpoint_bytes && checkpoints.size() > 1)
            thin();
        if (checkpoint_bytes + bytes > options.max_checkpoint_bytes) return;
        checkpoints.push_back(Checkpoint{event, frontier});
        checkpoint_bytes += bytes;
        chunks_since_checkpoint = 0;
    }

    // Keeps every other checkpoint (the first among them) and doubles the spacing.
    void thin() {
        std::vector<Checkpoint> kept;
        checkpoint_bytes = 0;
        for (std::size_t i = 0; i < checkpoints.size(); i += 2) {
            checkpoint_bytes += checkpoints[i].state.tiles.storage_bytes();
            kept.push_back(std::move(checkpoints[i]));
        }
        checkpoints = std::move(kept);
        spacing *= 2;
    }

    // Applies events next..last to state; next follows the events applied,
    // also when a chunk cannot be read or the progress callback cancels.
    trace::Status scan(ScanState& state, std::uint64_t& next, std::uint64_t last, bool is_frontier,
                       const Progress& progress, std::uint64_t target) {
        while (next <= last) {
            if (progress && !progress(next, target))
                return error(kCancelled, static_cast<std::int64_t>(next));
            const std::size_t number = reader->chunk_of(next);
            trace::Result<const trace::Chunk*> read = chunk(number);
            if (!read) return read.error();
            const trace::Chunk& c = *read.value();
            const std::uint64_t chunk_end = c.first_event + c.record_count();
            if (next < c.first_event || next >= chunk_end) {
                return error(
                    "event " + std::to_string(next) + " is not in the chunk the index names for it",
                    static_cast<std::int64_t>(next));
            }
            if (is_frontier && number != frontier_chunk) {
                frontier_chunk = number;
                ++chunks_since_checkpoint;
            }
            const std::uint64_t end = std::min(last + 1, chunk_end);
            for (; next < end; ++next) {
                const std::size_t i = next - c.first_event;
                if (is_frontier) maybe_checkpoint(next, i == 0);
                Metadata* learn = next >= meta_next ? &meta : nullptr;
                scanner.apply(state, c.record(i), c.bytes.data() + c.record_offsets[i],
                              c.record_size(i), next, learn);
                if (learn != nullptr) meta_next = next + 1;
            }
        }
        return trace::ok_status();
    }

    trace::Status advance_frontier(std::uint64_t last, const Progress& progress) {
        return scan(frontier, frontier_next, last, true, progress, last);
    }

    trace::Result<runtime::tiles::TileState> state_at(std::uint64_t event,
                                                      const Progress& progress) {
        const std::uint64_t events = reader->event_count();
        if (event >= events) {
            return error("event " + std::to_string(event) + " is past the end: the trace has " +
                         std::to_string(events) + " events (0.." +
                         std::to_string(events == 0 ? 0 : events - 1) + ")");
        }
        if (options.checkpoint_interval == 0) {
            ScanState state;
            std::uint64_t next = 0;
            if (trace::Status s = scan(state, next, event, false, progress, event); !s)
                return s.error();
            return state.tiles;
        }
        if (event >= frontier_next) {
            if (trace::Status s = advance_frontier(event, progress); !s) return s.error();
            return frontier.tiles;
        }
        // The latest checkpoint at or before the state wanted (before event + 1).
        const auto after = std::upper_bound(
            checkpoints.begin(), checkpoints.end(), event + 1,
            [](std::uint64_t at, const Checkpoint& checkpoint) { return at < checkpoint.event; });
        const Checkpoint& from = *std::prev(after);
        if (!cursor || cursor_next > event + 1 || cursor_next < from.event) {
            cursor = from.state;
            cursor_next = from.event;
        }
        if (trace::Status s = scan(*cursor, cursor_next, event, false, progress, event); !s)
            return s.error();
        return cursor->tiles;
    }
};

}  // namespace detail

TileTimeline::TileTimeline(std::unique_ptr<detail::Engine> engine) : engine_(std::move(engine)) {}
TileTimeline::~TileTimeline() = default;

trace::Result<std::unique_ptr<TileTimeline>> TileTimeline::open(const std::string& path,
                                                                const TimelineOptions& options) {
    auto reader = trace::TraceReader::open(path);
    if (!reader) return reader.error();
    auto engine = std::make_unique<detail::Engine>(std::move(reader.value()), options);
    return std::unique_ptr<TileTimeline>(new TileTimeline(std::move(engine)));
}

const std::string& TileTimeline::path() const {
    return engine_->reader->path();
}

std::uint64_t TileTimeline::event_count() const {
    return engine_->reader->event_count();
}

trace::Result<runtime::tiles::TileState> TileTimeline::state_at(std::uint64_t event,
                                                                const Progress& progress) {
    std::lock_guard lock(mutex_);
    return engine_->state_at(event, progress);
}

trace::Status TileTimeline::scan_all(const Progress& progress) {
    std::lock_guard lock(mutex_);
    const std::uint64_t events = engine_->reader->event_count();
    if (events == 0) return trace::ok_status();
    if (engine_->options.checkpoint_interval == 0) {
        trace::Result<runtime::tiles::TileState> state = engine_->state_at(events - 1, progress);
        if (!state) return state.error();
        return trace::ok_status();
    }
    return engine_->advance_frontier(events - 1, progress);
}

bool TileTimeline::is_cancelled(const trace::TraceError& error) {
    return error.message == kCancelled;
}

std::optional<ObjectInfo> TileTimeline::object(std::uint64_t id) const {
    std::lock_guard lock(mutex_);
    const auto found = engine_->meta.objects.find(id);
    if (found == engine_->meta.objects.end()) return std::nullopt;
    return found->second;
}

std::optional<std::string> TileTimeline::name_at(std::uint64_t id, std::uint64_t event) const {
    std::lock_guard lock(mutex_);
    const auto found = engine_->meta.names.find(id);
    if (found == engine_->meta.names.end()) return std::nullopt;
    const auto& names = found->second;
    const auto after =
        std::upper_bound(names.begin(), names.end(), event,
                         [](std::uint64_t at, const auto& named) { return at < named.first; });
    if (after == names.begin() || std::prev(after)->second.empty()) return std::nullopt;
    return std::prev(after)->second;
}

std::vector<std::uint64_t> TileTimeline::named(const std::string& name, std::uint64_t event) const {
    std::vector<std::uint64_t> ids;
    std::vector<std::uint64_t> candidates;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, names] : engine_->meta.names) candidates.push_back(id);
    }
    for (const std::uint64_t id : candidates) {
        if (name_at(id, event) == name) ids.push_back(id);
    }
    return ids;
}

std::vector<Note> TileTimeline::notes_until(std::uint64_t event) const {
    std::lock_guard lock(mutex_);
    std::vector<Note> notes;
    for (const Note& note : engine_->meta.notes) {
        if (note.event > event) break;
        notes.push_back(note);
    }
    return notes;
}

CheckpointStats TileTimeline::checkpoint_stats() const {
    std::lock_guard lock(mutex_);
    CheckpointStats stats;
    stats.count = engine_->checkpoints.size();
    for (const detail::Checkpoint& checkpoint : engine_->checkpoints)
        stats.storage_bytes += checkpoint.state.tiles.storage_bytes();
    stats.scanned_events =
        engine_->options.checkpoint_interval == 0 ? engine_->meta_next : engine_->frontier_next;
    stats.spacing = engine_->spacing;
    return stats;
}

}  // namespace d3dcap::state
