// Tile states built on a worker thread from the tile timeline, each followed
// by the history of the selected resource and of the pools up to its event.
// The state comes first: the history may take a scan of the whole trace,
// and the tile map should not wait for it. A newer request cancels an older
// one, its history included, through the progress callbacks, and only the
// newest request's state and history reach the window, so the window never
// waits on a rebuild.
#pragma once

#include <QObject>
#include <cstdint>
#include <memory>
#include <optional>

#include "replay/state/tile_timeline.h"
#include "viewer/common/latest_job_runner.h"
#include "viewer/tile_map/tile_history.h"
#include "viewer/tile_map/tile_snapshot.h"

namespace d3dcap::viewer {

// How the viewer names a pool or tiled resource: "Texture2D 64x64
// R8G8B8A8_UNORM tiled, #4", after its debug name where it has one
// ("albedo: Texture2D ..."); "#4" when the trace did not say what it is.
QString object_label(std::uint64_t id, const std::optional<state::ObjectInfo>& info,
                     const std::optional<std::string>& debug_name);
// The same from what describes the object ("" when nothing does).
QString object_label(std::uint64_t id, const std::string& description,
                     const std::optional<std::string>& debug_name);

class StateService : public QObject {
    Q_OBJECT
  public:
    // timeline and history are used only on the worker thread from here on.
    StateService(std::unique_ptr<state::TileTimeline> timeline,
                 std::unique_ptr<TileHistory> history, QObject* parent = nullptr);
    ~StateService() override;

    std::uint64_t event_count() const { return event_count_; }
    // Asks for the state after event, then for the history of resource (or
    // of the first tiled resource when it has none); cancels whatever is
    // being built.
    void request(std::uint64_t event, std::uint64_t resource);
    // The event of the newest request, answered or not.
    std::uint64_t requested_event() const { return requested_event_; }
    // Whether the newest request's state has not arrived yet.
    bool busy() const { return state_pending_; }
    // Whether the newest request's history has not arrived yet.
    bool finding_history() const { return runner_->busy(); }

  signals:
    void ready(std::shared_ptr<const d3dcap::viewer::TileSnapshot> snapshot);
    // After ready, for the same event.
    void history_ready(std::shared_ptr<const d3dcap::viewer::SnapshotHistory> history);
    void failed(std::uint64_t event, const QString& message);

  private:
    struct Built {
        std::shared_ptr<const TileSnapshot> snapshot;
        QString error;
    };
    std::optional<Built> build(std::uint64_t event, std::uint64_t resource,
                               const LatestJobRunner::StillWanted& still_wanted);
    void request_history(const TileSnapshot& snapshot);
    std::optional<std::shared_ptr<const SnapshotHistory>> find_history(
        std::uint64_t event, std::uint64_t resource, std::size_t tiles,
        const LatestJobRunner::StillWanted& still_wanted);

    std::unique_ptr<state::TileTimeline> timeline_;
    std::unique_ptr<TileHistory> history_;
    std::uint64_t event_count_;
    std::uint64_t requested_event_ = 0;
    bool state_pending_ = false;
    // Last: destroyed, and its thread joined, before what its jobs use.
    std::unique_ptr<LatestJobRunner> runner_;
};

}  // namespace d3dcap::viewer
