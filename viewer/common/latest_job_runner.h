// A worker thread for jobs of which only the newest matters: posting a job
// cancels the one before (its still_wanted() turns false) and only the
// newest job's result is handed back, on the owner's thread, so the window
// never waits on work it no longer wants.
#pragma once

#include <QMetaObject>
#include <QObject>
#include <QThread>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

namespace d3dcap::viewer {

class LatestJobRunner : public QObject {
  public:
    using StillWanted = std::function<bool()>;

    explicit LatestJobRunner(QObject* parent = nullptr) : QObject(parent), worker_(new QObject) {
        worker_->moveToThread(&thread_);
        connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
        thread_.start();
    }
    ~LatestJobRunner() override {
        ++generation_;  // cancels the job in flight
        thread_.quit();
        thread_.wait();
    }

    // Runs work on the thread; a result (none: cancelled) reaches deliver
    // on this object's thread unless a newer job was posted meanwhile.
    template <class Result>
    void post(std::function<std::optional<Result>(const StillWanted&)> work,
              std::function<void(Result)> deliver) {
        const std::uint64_t generation = ++generation_;
        busy_ = true;
        QMetaObject::invokeMethod(
            worker_,
            [this, generation, work = std::move(work), deliver = std::move(deliver)] {
                const StillWanted still_wanted = [this, generation] {
                    return generation == generation_.load();
                };
                if (!still_wanted()) return;
                auto result = std::make_shared<std::optional<Result>>(work(still_wanted));
                if (!result->has_value()) return;
                QMetaObject::invokeMethod(
                    this,
                    [this, generation, result, deliver] {
                        if (generation != generation_.load()) return;  // a newer job is on its way
                        busy_ = false;
                        deliver(std::move(**result));
                    },
                    Qt::QueuedConnection);
            },
            Qt::QueuedConnection);
    }

    // Whether the newest job has not delivered yet.
    bool busy() const { return busy_; }

  private:
    QThread thread_;
    QObject* worker_;  // lives on thread_
    std::atomic<std::uint64_t> generation_{0};
    bool busy_ = false;
};

}  // namespace d3dcap::viewer
