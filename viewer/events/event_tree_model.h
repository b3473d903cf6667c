// The events of a trace as a tree: frames, then the marker regions inside
// them (BeginEvent/EndEvent nesting, SetMarker leaves), then the calls.
//
// Only frames and markers are nodes (see EventOutline); the calls between
// them are ranges of event numbers, so a row for a call exists only while a
// view asks for it and the tree costs memory per marker, not per event. Call rows read their
// record from the trace when shown (the reader keeps the last chunk).
#pragma once

#include <QAbstractItemModel>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "format/trace/reader.h"
#include "viewer/events/event_outline.h"

namespace d3dcap::viewer {

class EventTreeModel : public QAbstractItemModel {
    Q_OBJECT
  public:
    // The time columns stay empty until a replay report is loaded. Calls show
    // the method first ("UpdateTileMappings"), its interface in a column of
    // its own and the whole name as the tooltip.
    enum Column {
        EventColumn,
        CallColumn,
        ObjectColumn,
        ResultColumn,
        InterfaceColumn,
        CpuColumn,
        GpuColumn,
        ColumnCount
    };
    // The event number of any row (frames and regions: their first event).
    static constexpr int EventRole = Qt::UserRole + 1;
    // Time columns: the row's share (0-1) of its parent's time, for the bars.
    static constexpr int ShareRole = Qt::UserRole + 2;

    // reader must outlive the model.
    explicit EventTreeModel(trace::TraceReader& reader, QObject* parent = nullptr);
    ~EventTreeModel() override;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    std::uint64_t event_count() const { return reader_.event_count(); }
    // What is shown for object ids: "Texture2D 64x64 R8G8B8A8_UNORM tiled,
    // #4". The labels come from the tile timeline on the worker thread:
    // asking it here could wait for a query. Other objects show as "#id".
    void set_object_labels(std::map<std::uint64_t, QString> labels);
    // Per-event times of a `d3dcap replay --report` JSON file; a frame or
    // region shows the sum of its events. False with a message when the file
    // is not such a report.
    bool load_report(const QString& path, QString* error);
    // The deepest row that shows event (column 0); invalid past the end.
    QModelIndex index_of_event(std::uint64_t event) const;
    // The calls the window steps through: tile calls (UpdateTileMappings,
    // CopyTileMappings, ResizeTilePool, UpdateTiles, CopyTiles), or draws
    // and dispatches (every Draw* and Dispatch* of a context).
    enum class Step : std::uint8_t { TileCall, Draw };
    static bool is(Step kind, std::uint16_t call_id);
    // The first such call after event, or the last before it.
    std::optional<std::uint64_t> next(Step kind, std::uint64_t event) const;
    std::optional<std::uint64_t> previous(Step kind, std::uint64_t event) const;

    // Every frame and region, built once; a filter reads it on its thread.
    std::shared_ptr<const EventOutline> full_outline() const { return full_; }
    // Shows only the rows of a filter's outline; nullptr shows every row.
    void show_outline(std::shared_ptr<const EventOutline> outline);
    bool filtered() const { return shown_ != full_; }
    const EventOutline& shown_outline() const { return *shown_; }
    // The row of a frame or region node of the outline shown; invalid when
    // the filter hides it.
    QModelIndex index_of_node(int node) const;
    // The report's CPU and GPU nanoseconds of events [first, end); none
    // without a report.
    bool has_report() const { return !cpu_.empty(); }
    std::uint64_t cpu_ns(std::uint64_t first, std::uint64_t end) const;
    std::uint64_t gpu_ns(std::uint64_t first, std::uint64_t end) const;

  signals:
    void report_loaded();

  private:
    // The item of node that holds row, and the event of that row for calls.
    const OutlineItem* item_at(const OutlineNode& node, int row) const;
    QVariant call_data(std::uint64_t event, int column, int role) const;
    QVariant node_data(const OutlineNode& node, int column) const;
    QString object_text(std::uint64_t id) const;
    QVariant time_data(std::uint64_t first, std::uint64_t end, int column) const;
    QVariant time_share(int parent, std::uint64_t first, std::uint64_t end, int column) const;

    trace::TraceReader& reader_;
    std::map<std::uint64_t, QString> labels_;
    // Running sums of the report's times: event e took cpu_[e + 1] - cpu_[e].
    std::vector<std::uint64_t> cpu_, gpu_;
    std::shared_ptr<const EventOutline> full_;
    std::shared_ptr<const EventOutline> shown_;  // full_, or a filter's outline
};

}  // namespace d3dcap::viewer
