// Tile states built on a worker thread from the tile timeline. A newer
// request cancels an older one through the timeline's progress callback,
// and only the newest request's state reaches the window, so the window
// never waits on a rebuild.
#pragma once

#include <QObject>
#include <QThread>
#include <atomic>
#include <cstdint>
#include <memory>

#include "replay/state/tile_timeline.h"
#include "viewer/tile_snapshot.h"

namespace d3dcap::viewer {

class StateService : public QObject {
    Q_OBJECT
  public:
    // timeline is used only on the worker thread from here on.
    explicit StateService(std::unique_ptr<state::TileTimeline> timeline, QObject* parent = nullptr);
    ~StateService() override;

    std::uint64_t event_count() const { return event_count_; }
    // Asks for the state after event; cancels whatever is being built.
    void request(std::uint64_t event);
    // The event of the newest request, answered or not.
    std::uint64_t requested_event() const { return requested_event_; }
    bool busy() const { return busy_; }

  signals:
    void ready(std::shared_ptr<const d3dcap::viewer::TileSnapshot> snapshot);
    void failed(std::uint64_t event, const QString& message);

  private:
    void build(std::uint64_t generation, std::uint64_t event);
    void deliver(std::uint64_t generation, std::shared_ptr<const TileSnapshot> snapshot,
                 const QString& error);

    std::unique_ptr<state::TileTimeline> timeline_;
    std::uint64_t event_count_;
    QThread thread_;
    QObject* worker_;  // lives on thread_; runs build()
    std::atomic<std::uint64_t> generation_{0};
    std::uint64_t requested_event_ = 0;
    bool busy_ = false;
};

}  // namespace d3dcap::viewer
