// The contents tab: the device that replays (auto, hardware, warp,
// reference), R/G/B/A toggles, the value range mapped to black and white
// (auto: the range the channels span), the contents view with the tile grid
// over it, and a line that tells the texel under the cursor. It asks for
// contents only while it is shown.
#pragma once

#include <QWidget>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "viewer/contents/contents_image.h"
#include "viewer/contents/contents_service.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QTableView;
class QTreeWidget;

namespace d3dcap::viewer {

class BufferRowsModel;
class ContentsView;
class TileMapModel;

class ContentsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ContentsPanel(TileMapModel* tiles, QWidget* parent = nullptr);

    // Replays this trace from now on (the device choice stays).
    void open_trace(const QString& trace_path);

    // What to show: the subresource of the tile map's selection after the
    // tile map's event. Asked for now if the panel is visible, else once shown.
    void follow_selection();
    // auto, hardware, warp or reference.
    void set_device(const QString& device);
    void set_channels(const std::array<bool, 4>& channels);
    void set_range(double low, double high);
    // Shows a resource of the list replay gives (any texture or buffer),
    // its mip and array slice (a 3D texture: depth slice); 0 follows the
    // tile map's selection. False when the list does not hold it (yet).
    bool select_resource(std::uint64_t id, std::uint32_t mip = 0, std::uint32_t slice = 0);
    // Shows what the selected event draws into (the default where a trace
    // has no tiled resource), or else the tile map's resource.
    void follow_output(bool output);
    bool follows_output() const;
    // Writes what is shown (the whole subresource, read again whole when
    // the view holds a window of it) after the selected event to path: PNG,
    // DDS or raw bytes by the name's ending; texels_exported says how it went.
    void export_texels(const QString& path);
    // The ids the resource list offers, ascending.
    std::vector<std::uint64_t> listed_resources() const;
    // Sets the range to what the shown channels span.
    void fit_range();

    ContentsView* view() const { return view_; }
    // A buffer's rows, shown instead of the view when a buffer is shown.
    BufferRowsModel* buffer_rows() const { return rows_; }
    // The pipeline state after the event, beside the contents: a section a
    // top row (IA, VS... OM, CS), the shaders' disassembly under them.
    QTreeWidget* pipeline() const { return pipeline_; }
    ContentsService* service() const { return service_.get(); }
    bool busy() const;
    ~ContentsPanel() override;

  signals:
    void contents_shown(std::uint64_t event);
    void contents_failed(std::uint64_t event, const QString& message);
    void last_change_clicked(std::uint64_t event);
    // error is empty when the file was written.
    void texels_exported(const QString& path, const QString& error);

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    void request();
    void show_contents(std::shared_ptr<const DecodedContents> contents);
    void display_changed();
    void list_resources(std::uint64_t event,
                        std::shared_ptr<const std::vector<replay::ListedResource>> list);
    void own_resource_chosen();
    void show_pipeline(std::shared_ptr<const std::vector<replay::StateRow>> rows);
    struct Selection {
        std::uint64_t event = 0, resource = 0;
        std::uint32_t subresource = 0, z = 0;
    };
    std::optional<Selection> selection() const;
    // The resource of the last list with this id, or null.
    const replay::ListedResource* listing_of(std::uint64_t id) const;

    // The list's first entries: the event's output, the tile map's resource.
    static constexpr int kFixedChoices = 2;

    TileMapModel* tiles_;
    std::unique_ptr<ContentsService> service_;
    ContentsView* view_;
    BufferRowsModel* rows_;
    QTableView* rows_view_;
    QComboBox* element_box_;
    QTreeWidget* pipeline_;
    QComboBox* device_box_;
    QComboBox* resource_box_;
    QSpinBox* mip_box_;
    QSpinBox* slice_box_;
    std::shared_ptr<const std::vector<replay::ListedResource>> listed_;
    std::array<QCheckBox*, 4> channel_boxes_{};
    QDoubleSpinBox* low_box_;
    QDoubleSpinBox* high_box_;
    QLabel* status_;
    QLabel* texel_;
    QString device_ = QStringLiteral("auto");
    // Asks for the whole subresource of the selection, for export_texels.
    void request_whole();
    // Writes the pending export when contents are the whole subresource.
    void finish_export(const DecodedContents& contents);

    bool pending_ = false;       // the selection changed while hidden
    QString export_path_;        // an export waiting for its contents
    bool range_chosen_ = false;  // the user set the range: keep it across events
};

}  // namespace d3dcap::viewer
