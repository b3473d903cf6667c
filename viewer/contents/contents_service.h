// The contents of the selected resource after the selected event, made on a
// worker thread by replaying the trace on the device the user picked
// (replay::ContentsReplay) and decoding the subresource for display. Only
// the newest request is answered; a newer one cancels an older replay
// between chunks of events. Changing the device starts replay again.
#pragma once

#include <QObject>
#include <QString>
#include <cstdint>
#include <memory>

#include "replay/engine/contents.h"
#include "viewer/common/latest_job_runner.h"
#include "viewer/contents/contents_image.h"

namespace d3dcap::viewer {

class ContentsService : public QObject {
    Q_OBJECT
  public:
    // The device names `d3dcap replay --device` takes.
    static QStringList device_names();

    explicit ContentsService(QString trace_path, QObject* parent = nullptr);
    ~ContentsService() override;

    // auto (the default), hardware, warp or reference. Takes effect at the
    // next request.
    void set_device(const QString& device);
    QString device() const { return device_; }
    // Asks for what replay holds after event (ContentsRequest: resource 0
    // asks only for the list of resources); z picks the depth slice of a 3D
    // texture.
    void request(std::uint64_t event, const replay::ContentsRequest& asked, std::uint32_t z = 0);
    bool busy() const { return runner_->busy(); }

  signals:
    void ready(std::shared_ptr<const d3dcap::viewer::DecodedContents> contents);
    // Contents that cannot be shown, and why ("event 12: object #4 is no
    // resource after this event").
    void failed(std::uint64_t event, const QString& message);
    // The resources replay holds after event (with every answer).
    void resources_found(std::uint64_t event,
                         std::shared_ptr<const std::vector<d3dcap::replay::ListedResource>> list);
    // The pipeline state after event (with every answer).
    void pipeline_found(std::uint64_t event,
                        std::shared_ptr<const std::vector<d3dcap::replay::StateRow>> rows);
    // Which device replays, once it was chosen ("auto: the CPU Vulkan device llvmpipe").
    void device_chosen(const QString& reason);

  private:
    struct Answer {
        std::shared_ptr<const DecodedContents> contents;
        QString error;
        QString device_reason;
        std::shared_ptr<const std::vector<replay::ListedResource>> resources;
        std::shared_ptr<const std::vector<replay::StateRow>> pipeline;
    };
    Answer answer(std::uint64_t event, const replay::ContentsRequest& asked, std::uint32_t z,
                  const QString& device, const LatestJobRunner::StillWanted& still_wanted);

    const QString trace_path_;
    QString device_ = QStringLiteral("auto");
    // Used on the worker thread only.
    std::unique_ptr<replay::ContentsReplay> replay_;
    QString replay_device_;
    // Last: its thread is joined before what its jobs use goes.
    std::unique_ptr<LatestJobRunner> runner_;
};

}  // namespace d3dcap::viewer
