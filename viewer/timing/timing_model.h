// The bars of the timing chart: one per frame, or one per marker region of
// a frame (nested regions after their parent, depth first), with the CPU
// and GPU time a `d3dcap replay --report` file gives the events inside.
#pragma once

#include <QAbstractTableModel>
#include <cstdint>
#include <vector>

namespace d3dcap::viewer {

class EventTreeModel;

class TimingModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { LabelColumn, CpuColumn, GpuColumn, ColumnCount };
    // The bar's node of the event outline (int).
    static constexpr int NodeRole = Qt::UserRole + 1;
    // Time columns: nanoseconds (qulonglong).
    static constexpr int NanosecondsRole = Qt::UserRole + 2;

    struct Bar {
        QString label;
        int node = 0;
        int depth = 0;  // regions inside regions: 1 and more
        std::uint64_t cpu_ns = 0, gpu_ns = 0;
    };

    explicit TimingModel(QObject* parent = nullptr);

    // Every frame of events (none without a report).
    void show_frames(const EventTreeModel& events);
    // The marker regions of frame (a node of the outline).
    void show_regions(const EventTreeModel& events, int frame);
    void clear();
    const std::vector<Bar>& bars() const { return bars_; }
    int frame() const { return frame_; }  // show_regions' frame; 0 otherwise

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    std::vector<Bar> bars_;
    int frame_ = 0;
};

}  // namespace d3dcap::viewer
