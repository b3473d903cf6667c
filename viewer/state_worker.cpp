#include "viewer/state_worker.h"

namespace d3dcap::viewer {

StateService::StateService(std::unique_ptr<state::TileTimeline> timeline, QObject* parent)
    : QObject(parent),
      timeline_(std::move(timeline)),
      event_count_(timeline_->event_count()),
      worker_(new QObject) {
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    thread_.start();
}

StateService::~StateService() {
    ++generation_;  // cancels the query in flight
    thread_.quit();
    thread_.wait();
}

void StateService::request(std::uint64_t event) {
    const std::uint64_t generation = ++generation_;
    requested_event_ = event;
    busy_ = true;
    QMetaObject::invokeMethod(
        worker_, [this, generation, event] { build(generation, event); }, Qt::QueuedConnection);
}

// On the worker thread.
void StateService::build(std::uint64_t generation, std::uint64_t event) {
    if (generation != generation_.load()) return;
    const state::Progress still_wanted = [this, generation](std::uint64_t, std::uint64_t) {
        return generation == generation_.load();
    };
    auto snapshot = std::make_shared<TileSnapshot>();
    snapshot->event = event;
    QString error;
    // The state before first: the state after is then one record away.
    if (event > 0) {
        auto before = timeline_->state_at(event - 1, still_wanted);
        if (before.ok())
            snapshot->before = std::move(before.value());
        else if (state::TileTimeline::is_cancelled(before.error()))
            return;
        else
            error = QString::fromStdString(before.error().to_string());
    }
    if (error.isEmpty()) {
        auto after = timeline_->state_at(event, still_wanted);
        if (!after.ok() && state::TileTimeline::is_cancelled(after.error())) return;
        if (after.ok())
            snapshot->after = std::move(after.value());
        else
            error = QString::fromStdString(after.error().to_string());
    }
    if (error.isEmpty()) {
        for (const auto& ids : {snapshot->after.pools(), snapshot->after.tiled_resources()}) {
            for (const std::uint64_t id : ids) {
                if (auto name = timeline_->name_at(id, event)) {
                    snapshot->names[id] = QString::fromStdString(*name);
                }
            }
        }
    }
    QMetaObject::invokeMethod(
        this,
        [this, generation, snapshot = std::shared_ptr<const TileSnapshot>(std::move(snapshot)),
         error] { deliver(generation, snapshot, error); },
        Qt::QueuedConnection);
}

void StateService::deliver(std::uint64_t generation, std::shared_ptr<const TileSnapshot> snapshot,
                           const QString& error) {
    if (generation != generation_.load()) return;  // a newer request is on its way
    busy_ = false;
    if (!error.isEmpty()) {
        emit failed(snapshot->event, error);
        return;
    }
    emit ready(std::move(snapshot));
}

}  // namespace d3dcap::viewer
