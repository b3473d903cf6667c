// The viewer's window: the event tree on the left (filter, jump to an
// event, previous/next tile call), and on the right the tile map of the
// selected resource at the selected event, its pool, and the timing charts
// of a replay report.
#pragma once

#include <QMainWindow>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "format/trace/reader.h"
#include "viewer/tile_map/tile_snapshot.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTabWidget;
class QTreeView;

namespace d3dcap::viewer {

struct EventOutline;
class EventTreeModel;
class LatestJobRunner;
class ContentsPanel;
class ParametersView;
class PoolModel;
class PoolSizePlot;
class StateService;
class TileMapModel;
class TileMapView;
class TimingChart;
class TimingModel;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a trace and selects its first event; false with a message when
    // it cannot be read.
    bool open_trace(const QString& path, QString* error);
    std::uint64_t event_count() const;
    // The event a trace opens on: with tiled resources the first, else the
    // first frame's last (its Present), or the last of a trace of one frame.
    std::uint64_t opening_event() const;
    bool has_tiled_resources() const;
    // Fills the time columns and the timing charts from a `d3dcap replay
    // --report` file.
    bool load_report(const QString& path, QString* error);
    // Writes what the tab in front shows as a PNG: the contents tab its
    // picture (one pixel a texel shown, with the channels and range chosen),
    // the tile map tab the map as drawn. A .dds or .raw path takes the
    // contents tab's subresource as stored, written once replay has read
    // it (ContentsPanel::texels_exported). False with why in error.
    bool export_picture(const QString& path, QString* error);
    // Shows the state after event (built on the worker thread).
    void select_event(std::uint64_t event);
    // To the next or previous draw or dispatch (else tile call) from the
    // selected event.
    void step_to_call(bool draw, bool forward);
    // Selects the row of a frame or region of the event outline and its event.
    void select_node(int node);
    // Shows only the events whose call or label contains text (filtered on
    // a worker thread; a newer filter cancels an older one).
    void set_filter(const QString& text);
    // Whether a requested state or filter has not arrived yet.
    bool busy() const;
    // Whether the history of the requested state (the last change of each
    // tile, the pool sizes) has not arrived yet; it follows the state.
    bool finding_history() const;
    std::optional<std::uint64_t> selected_event() const { return selected_; }
    // By object id or debug name, among the tiled resources of the state
    // shown; false when there is none.
    bool select_resource(const QString& id_or_name);
    void select_subresource(std::uint32_t mip, std::uint32_t slice);
    // The tiled resources of the state shown, ascending.
    std::vector<std::uint64_t> resources() const;

    EventTreeModel* event_model() const { return events_.get(); }
    TileMapModel* tile_model() const { return tiles_; }
    TileMapView* tile_view() const { return map_view_; }
    ContentsPanel* contents_panel() const { return contents_; }
    // Brings the contents tab to the front (it replays only while shown).
    void show_contents_tab();
    QTreeView* event_view() const { return tree_; }
    QLineEdit* filter_edit() const { return filter_edit_; }
    PoolModel* pool_model() const { return pool_; }
    PoolSizePlot* pool_plot() const { return pool_plot_; }
    ParametersView* parameters_view() const { return parameters_; }
    TimingModel* frame_timing() const { return frame_timing_; }
    TimingModel* region_timing() const { return region_timing_; }
    TimingChart* frame_chart() const { return frame_chart_; }
    TimingChart* region_chart() const { return region_chart_; }

  signals:
    // The tile map shows the state after event.
    void state_shown(std::uint64_t event);
    // The tile map and the pool plot show the history up to event.
    void history_shown(std::uint64_t event);
    void state_failed(std::uint64_t event, const QString& message);
    // The event tree shows the rows matching text (all of them: empty).
    void filter_applied(const QString& text);

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    void build_ui();
    void open_dialog();
    void report_dialog();
    void export_dialog();
    void show_snapshot(std::shared_ptr<const TileSnapshot> snapshot);
    void show_history(std::shared_ptr<const SnapshotHistory> history);
    void show_pool_sizes();
    void update_selectors();
    void resource_chosen();
    // To the next or previous draw or dispatch (else tile call) from the
    // selected event.

    void select_row_of(std::uint64_t event);
    void show_filtered(const QString& text, std::shared_ptr<const EventOutline> outline);
    void fit_columns();
    void show_timing();
    void show_regions_of(std::uint64_t event);
    void request_state(std::uint64_t event);

    std::unique_ptr<trace::TraceReader> reader_;
    std::unique_ptr<EventTreeModel> events_;
    StateService* service_ = nullptr;
    // The filter's own reader, used on its thread only.
    std::shared_ptr<trace::TraceReader> filter_reader_;
    LatestJobRunner* filter_runner_ = nullptr;
    QTreeView* tree_ = nullptr;
    QLineEdit* filter_edit_ = nullptr;
    QLineEdit* jump_edit_ = nullptr;
    QComboBox* resource_box_ = nullptr;
    QComboBox* mip_box_ = nullptr;
    QSpinBox* slice_box_ = nullptr;
    QLabel* status_ = nullptr;
    TileMapModel* tiles_ = nullptr;
    TileMapView* map_view_ = nullptr;
    ContentsPanel* contents_ = nullptr;
    PoolModel* pool_ = nullptr;
    PoolSizePlot* pool_plot_ = nullptr;
    ParametersView* parameters_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    QWidget* timing_tab_ = nullptr;
    TimingModel* frame_timing_ = nullptr;
    TimingModel* region_timing_ = nullptr;
    TimingChart* frame_chart_ = nullptr;
    TimingChart* region_chart_ = nullptr;
    std::optional<std::uint64_t> selected_;
    std::size_t labels_shown_ = 0;  // how many object labels the event tree has
    bool updating_selectors_ = false;
};

}  // namespace d3dcap::viewer
