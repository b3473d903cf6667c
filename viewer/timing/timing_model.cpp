#include "viewer/timing/timing_model.h"

#include <utility>

#include "viewer/events/event_tree_model.h"

namespace d3dcap::viewer {

namespace {

TimingModel::Bar bar_of(const EventTreeModel& events, int node, int depth) {
    const OutlineNode& n = events.full_outline()->nodes[std::size_t(node)];
    return TimingModel::Bar{n.label, node, depth, events.cpu_ns(n.event, n.end),
                            events.gpu_ns(n.event, n.end)};
}

QString microseconds(std::uint64_t nanoseconds) {
    return QString::number(double(nanoseconds) / 1000.0, 'f', 1);
}

}  // namespace

TimingModel::TimingModel(QObject* parent) : QAbstractTableModel(parent) {}

void TimingModel::show_frames(const EventTreeModel& events) {
    beginResetModel();
    bars_.clear();
    frame_ = 0;
    if (events.has_report()) {
        for (const OutlineItem& item : events.full_outline()->nodes[0].items) {
            if (item.node >= 0) bars_.push_back(bar_of(events, item.node, 0));
        }
    }
    endResetModel();
}

void TimingModel::show_regions(const EventTreeModel& events, int frame) {
    beginResetModel();
    bars_.clear();
    frame_ = frame;
    const EventOutline& outline = *events.full_outline();
    if (events.has_report() && frame > 0 && std::size_t(frame) < outline.nodes.size()) {
        // Depth first, without recursion: a hostile trace may nest deeply.
        std::vector<std::pair<int, int>> stack;  // (node, depth), next on top
        const auto push_regions = [&](int node, int depth) {
            const auto& items = outline.nodes[std::size_t(node)].items;
            for (auto it = items.rbegin(); it != items.rend(); ++it) {
                if (it->node >= 0 && outline.nodes[std::size_t(it->node)].kind == NodeKind::Region)
                    stack.emplace_back(it->node, depth);
            }
        };
        push_regions(frame, 0);
        while (!stack.empty()) {
            const auto [node, depth] = stack.back();
            stack.pop_back();
            bars_.push_back(bar_of(events, node, depth));
            push_regions(node, depth + 1);
        }
    }
    endResetModel();
}

void TimingModel::clear() {
    beginResetModel();
    bars_.clear();
    frame_ = 0;
    endResetModel();
}

int TimingModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(bars_.size());
}

int TimingModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TimingModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case LabelColumn:
            return frame_ == 0 ? QStringLiteral("Frame") : QStringLiteral("Region");
        case CpuColumn:
            return QStringLiteral("CPU (us)");
        case GpuColumn:
            return QStringLiteral("GPU (us)");
        default:
            return {};
    }
}

QVariant TimingModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Bar& bar = bars_[std::size_t(index.row())];
    if (role == NodeRole) return bar.node;
    const std::uint64_t nanoseconds = index.column() == CpuColumn ? bar.cpu_ns : bar.gpu_ns;
    if (role == NanosecondsRole && index.column() != LabelColumn)
        return QVariant::fromValue<qulonglong>(nanoseconds);
    if (role != Qt::DisplayRole) return {};
    if (index.column() == LabelColumn) return bar.label;
    return microseconds(nanoseconds);
}

}  // namespace d3dcap::viewer
