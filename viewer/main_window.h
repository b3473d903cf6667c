// The viewer's window: the event tree on the left (filter, jump to an
// event, previous/next tile call), the tile map of the selected resource at
// the selected event on the right.
#pragma once

#include <QMainWindow>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "format/trace/reader.h"
#include "viewer/tile_snapshot.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QSpinBox;
class QTreeView;

namespace d3dcap::viewer {

class EventTreeModel;
class ParametersView;
class PoolModel;
class StateService;
class TileMapModel;
class TileMapView;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a trace and selects its first event; false with a message when
    // it cannot be read.
    bool open_trace(const QString& path, QString* error);
    std::uint64_t event_count() const;
    // Fills the time columns from a `d3dcap replay --report` file.
    bool load_report(const QString& path, QString* error);
    // Shows the state after event (built on the worker thread).
    void select_event(std::uint64_t event);
    std::optional<std::uint64_t> selected_event() const { return selected_; }
    // By object id or debug name, among the tiled resources of the state
    // shown; false when there is none.
    bool select_resource(const QString& id_or_name);
    void select_subresource(std::uint32_t mip, std::uint32_t slice);
    // The tiled resources of the state shown, ascending.
    std::vector<std::uint64_t> resources() const;

    EventTreeModel* event_model() const { return events_.get(); }
    QSortFilterProxyModel* filter_model() const { return filter_; }
    TileMapModel* tile_model() const { return tiles_; }
    TileMapView* tile_view() const { return map_view_; }
    QTreeView* event_view() const { return tree_; }
    PoolModel* pool_model() const { return pool_; }
    ParametersView* parameters_view() const { return parameters_; }

  signals:
    // The tile map shows the state after event.
    void state_shown(std::uint64_t event);
    void state_failed(std::uint64_t event, const QString& message);

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    void build_ui();
    void open_dialog();
    void report_dialog();
    void show_snapshot(std::shared_ptr<const TileSnapshot> snapshot);
    void update_selectors();
    void resource_chosen();
    void jump_to_tile_call(bool forward);
    void select_row_of(std::uint64_t event);

    std::unique_ptr<trace::TraceReader> reader_;
    std::unique_ptr<EventTreeModel> events_;
    StateService* service_ = nullptr;
    QSortFilterProxyModel* filter_ = nullptr;
    QTreeView* tree_ = nullptr;
    QLineEdit* filter_edit_ = nullptr;
    QLineEdit* jump_edit_ = nullptr;
    QComboBox* resource_box_ = nullptr;
    QComboBox* mip_box_ = nullptr;
    QSpinBox* slice_box_ = nullptr;
    QLabel* status_ = nullptr;
    TileMapModel* tiles_ = nullptr;
    TileMapView* map_view_ = nullptr;
    PoolModel* pool_ = nullptr;
    ParametersView* parameters_ = nullptr;
    std::optional<std::uint64_t> selected_;
    bool updating_selectors_ = false;
};

}  // namespace d3dcap::viewer
