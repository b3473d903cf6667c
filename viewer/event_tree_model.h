// The events of a trace as a tree: frames, then the marker regions inside
// them (BeginEvent/EndEvent nesting, SetMarker leaves), then the calls.
//
// Only frames and markers are nodes; the calls between them are ranges of
// event numbers, so a row for a call exists only while a view asks for it
// and the tree costs memory per marker, not per event. Call rows read their
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

namespace d3dcap::viewer {

class EventTreeModel : public QAbstractItemModel {
    Q_OBJECT
  public:
    // The time columns stay empty until a replay report is loaded.
    enum Column {
        EventColumn,
        CallColumn,
        ObjectColumn,
        ResultColumn,
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
    // Debug names shown next to object ids. The names come from the tile
    // timeline on the worker thread: asking it here could wait for a query.
    void set_object_names(std::map<std::uint64_t, QString> names);
    // Per-event times of a `d3dcap replay --report` JSON file; a frame or
    // region shows the sum of its events. False with a message when the file
    // is not such a report.
    bool load_report(const QString& path, QString* error);
    // The deepest row that shows event (column 0); invalid past the end.
    QModelIndex index_of_event(std::uint64_t event) const;
    // The next (or previous) tile call after (before) event.
    std::optional<std::uint64_t> next_tile_call(std::uint64_t event) const;
    std::optional<std::uint64_t> previous_tile_call(std::uint64_t event) const;
    static bool is_tile_call(std::uint16_t call_id);

  private:
    // A child of a node: another node, or calls [first, end) shown as rows.
    struct Item {
        std::uint64_t first = 0;  // first event it covers
        std::uint64_t end = 0;    // one past its last event
        int node = -1;            // -1: a range of calls
        int first_row = 0;        // row of its first entry in the parent
    };
    enum class NodeKind : std::uint8_t { Root, Frame, Region, Marker };
    struct Node {
        NodeKind kind = NodeKind::Root;
        QString label;
        std::uint64_t event = 0;  // frame: first event; region/marker: its own event
        int parent = -1;
        int row = 0;  // in the parent
        std::vector<Item> items;
        int rows = 0;
    };

    void build();
    int add_node(int parent, NodeKind kind, QString label, std::uint64_t event);
    void add_calls(int node, std::uint64_t first, std::uint64_t end);
    void add_child(int node, int child, std::uint64_t first);
    void close_node(int node, std::uint64_t end);
    // The item of node that holds row, and the event of that row for calls.
    const Item* item_at(const Node& node, int row) const;
    QVariant call_data(std::uint64_t event, int column) const;
    QVariant node_data(const Node& node, int column) const;
    QString object_text(std::uint64_t id) const;

    trace::TraceReader& reader_;
    std::map<std::uint64_t, QString> names_;
    // Running sums of the report's times: event e took cpu_[e + 1] - cpu_[e].
    std::vector<std::uint64_t> cpu_, gpu_;
    QVariant time_data(std::uint64_t first, std::uint64_t end, int column) const;
    QVariant time_share(int parent, std::uint64_t first, std::uint64_t end, int column) const;
    std::vector<Node> nodes_;
    std::vector<std::uint64_t> node_end_;  // one past the last event of each node
};

}  // namespace d3dcap::viewer
