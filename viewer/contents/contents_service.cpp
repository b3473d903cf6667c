#include "viewer/contents/contents_service.h"

#include "replay/engine/device_choice.h"

namespace d3dcap::viewer {

QStringList ContentsService::device_names() {
    return {QStringLiteral("auto"), QStringLiteral("hardware"), QStringLiteral("warp"),
            QStringLiteral("reference")};
}

ContentsService::ContentsService(QString trace_path, QObject* parent)
    : QObject(parent),
      trace_path_(std::move(trace_path)),
      runner_(std::make_unique<LatestJobRunner>()) {}

ContentsService::~ContentsService() = default;

void ContentsService::set_device(const QString& device) {
    device_ = device;
}

void ContentsService::request(std::uint64_t event, const replay::ContentsRequest& asked,
                              std::uint32_t z) {
    runner_->post<Answer>(
        [this, event, asked, z, device = device_](
            const LatestJobRunner::StillWanted& still_wanted) -> std::optional<Answer> {
            Answer found = answer(event, asked, z, device, still_wanted);
            if (!still_wanted()) return std::nullopt;
            return found;
        },
        [this, event](Answer found) {
            if (!found.device_reason.isEmpty()) emit device_chosen(found.device_reason);
            if (found.resources) emit resources_found(event, found.resources);
            if (found.pipeline) emit pipeline_found(event, found.pipeline);
            if (found.contents) {
                emit ready(std::move(found.contents));
            } else {
                emit failed(event, found.error);
            }
        });
}

ContentsService::Answer ContentsService::answer(std::uint64_t event,
                                                const replay::ContentsRequest& asked,
                                                std::uint32_t z, const QString& device,
                                                const LatestJobRunner::StillWanted& still_wanted) {
    Answer found;
    if (!replay_ || replay_device_ != device) {
        replay_.reset();
        std::string error;
        const auto chosen = replay::choose_device(device.toStdString(), error);
        if (!chosen) {
            found.error = QString::fromStdString(error);
            return found;
        }
        auto opened = replay::ContentsReplay::open(trace_path_.toStdString(), chosen->driver);
        if (!opened) {
            found.error = QString::fromStdString(opened.error().to_string());
            return found;
        }
        replay_ = std::move(opened.value());
        // An earlier event replays from the nearest pause before it.
        replay_->set_checkpoints(replay_->usual_checkpoint_interval());
        replay_device_ = device;
        found.device_reason = QString::fromStdString(
            chosen->reason.empty() ? "the " + device.toStdString() + " device" : chosen->reason);
    }
    auto contents = replay_->contents_after(event, asked, still_wanted);
    if (!contents) {
        found.error = QString::fromStdString(contents.error().to_string());
        return found;
    }
    found.resources =
        std::make_shared<const std::vector<replay::ListedResource>>(std::move(contents->resources));
    found.pipeline =
        std::make_shared<const std::vector<replay::StateRow>>(std::move(contents->pipeline));
    if (asked.resource == 0) {
        found.error = QStringLiteral("No resource selected");
        return found;
    }
    if (!contents->problem.empty()) {
        found.error = QString::fromStdString(trace::TraceError{
            trace_path_.toStdString(), contents->problem, -1, static_cast<std::int64_t>(event), -1}
                                                 .to_string());
        return found;
    }
    found.contents = decode_contents(std::move(contents.value()), z);
    return found;
}

}  // namespace d3dcap::viewer
