#include "viewer/tile_map/state_worker.h"

namespace d3dcap::viewer {

namespace {

// The timeline's and the history's scans stop once a newer request came.
state::Progress progress_of(const LatestJobRunner::StillWanted& still_wanted) {
    return [&still_wanted](std::uint64_t, std::uint64_t) { return still_wanted(); };
}

}  // namespace

QString object_label(std::uint64_t id, const std::optional<state::ObjectInfo>& info,
                     const std::optional<std::string>& debug_name) {
    return object_label(id, info ? state::describe(*info) : std::string(), debug_name);
}

QString object_label(std::uint64_t id, const std::string& description,
                     const std::optional<std::string>& debug_name) {
    QString label = description.empty()
                        ? QStringLiteral("#%1").arg(id)
                        : QString::fromStdString(description) + QStringLiteral(", #%1").arg(id);
    if (debug_name && !debug_name->empty())
        label = QString::fromStdString(*debug_name) + QStringLiteral(": ") + label;
    return label;
}

StateService::StateService(std::unique_ptr<state::TileTimeline> timeline,
                           std::unique_ptr<TileHistory> history, QObject* parent)
    : QObject(parent),
      timeline_(std::move(timeline)),
      history_(std::move(history)),
      event_count_(timeline_->event_count()),
      runner_(std::make_unique<LatestJobRunner>()) {}

StateService::~StateService() = default;

void StateService::request(std::uint64_t event, std::uint64_t resource) {
    requested_event_ = event;
    state_pending_ = true;
    runner_->post<Built>(
        [this, event, resource](const LatestJobRunner::StillWanted& still_wanted) {
            return build(event, resource, still_wanted);
        },
        [this, event](Built built) {
            state_pending_ = false;
            if (!built.error.isEmpty()) {
                emit failed(event, built.error);
                return;
            }
            // Posted before the state is shown: a request made on seeing it
            // cancels the history, and the scan runs while the map is drawn.
            request_history(*built.snapshot);
            emit ready(std::move(built.snapshot));
        });
}

void StateService::request_history(const TileSnapshot& snapshot) {
    const runtime::tiles::ResourceTiling* tiling = snapshot.after.tiling(snapshot.history_resource);
    const std::size_t tiles = tiling ? tiling->total_tiles : 0;
    runner_->post<std::shared_ptr<const SnapshotHistory>>(
        [this, event = snapshot.event, resource = snapshot.history_resource,
         tiles](const LatestJobRunner::StillWanted& still_wanted) {
            return find_history(event, resource, tiles, still_wanted);
        },
        [this](std::shared_ptr<const SnapshotHistory> history) {
            emit history_ready(std::move(history));
        });
}

// On the worker thread; none when a newer request cancelled this one.
std::optional<StateService::Built> StateService::build(
    std::uint64_t event, std::uint64_t resource, const LatestJobRunner::StillWanted& still_wanted) {
    const state::Progress progress = progress_of(still_wanted);
    auto snapshot = std::make_shared<TileSnapshot>();
    snapshot->event = event;
    const auto failed = [&](const trace::TraceError& error) -> std::optional<Built> {
        if (!still_wanted()) return std::nullopt;
        return Built{nullptr, QString::fromStdString(error.to_string())};
    };
    // The state before first: the state after is then one record away.
    if (event > 0) {
        auto before = timeline_->state_at(event - 1, progress);
        if (!before.ok()) return failed(before.error());
        snapshot->before = std::move(before.value());
    }
    auto after = timeline_->state_at(event, progress);
    if (!after.ok()) return failed(after.error());
    snapshot->after = std::move(after.value());
    const runtime::tiles::TileState& state = snapshot->after;
    for (const auto& ids : {state.pools(), state.tiled_resources()}) {
        for (const std::uint64_t id : ids) {
            const std::optional<std::string> name = timeline_->name_at(id, event);
            if (name) snapshot->names[id] = QString::fromStdString(*name);
            std::optional<state::ObjectInfo> info = timeline_->object(id);
            // A pool by its size after the event, resized or not.
            if (info && info->pool) info->shape.byte_width = state.pool_tiles(id) * 65536;
            snapshot->labels[id] = object_label(id, info, name);
        }
    }

    const std::vector<std::uint64_t> resources = state.tiled_resources();
    const bool known = state.is_tiled_resource(resource);
    snapshot->history_resource = known ? resource : resources.empty() ? 0 : resources.front();
    return Built{std::move(snapshot), {}};
}

// On the worker thread; none when a newer request cancelled this one.
std::optional<std::shared_ptr<const SnapshotHistory>> StateService::find_history(
    std::uint64_t event, std::uint64_t resource, std::size_t tiles,
    const LatestJobRunner::StillWanted& still_wanted) {
    auto history = std::make_shared<SnapshotHistory>();
    history->event = event;
    history->resource = resource;
    history_->follow(resource);
    const trace::Status scanned = history_->scan_to(*timeline_, event, progress_of(still_wanted));
    if (!still_wanted()) return std::nullopt;
    if (!scanned) {
        history->error = QString::fromStdString(scanned.error().to_string());
    } else {
        history->last_changed = history_->last_changed(event, tiles);
        history->pool_sizes = history_->pool_sizes(event);
        auto state = timeline_->state_at(event, progress_of(still_wanted));
        if (!still_wanted()) return std::nullopt;
        if (state) history->last_written = history_->last_written(event, state->mappings(resource));
    }
    return history;
}

}  // namespace d3dcap::viewer
