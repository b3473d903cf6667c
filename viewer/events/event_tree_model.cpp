#include "viewer/events/event_tree_model.h"

#include <d3dcap/api/call_json.h>
#include <d3dcap/api/calls.h>

#include <QFile>
#include <algorithm>
#include <nlohmann/json.hpp>

#include "format/trace/record_json.h"

namespace d3dcap::viewer {

namespace {

// Node rows carry 2 * node, call rows 2 * parent node + 1.
quintptr node_id(int node) {
    return static_cast<quintptr>(node) * 2;
}
quintptr call_id_in(int parent) {
    return static_cast<quintptr>(parent) * 2 + 1;
}

}  // namespace

EventTreeModel::EventTreeModel(trace::TraceReader& reader, QObject* parent)
    : QAbstractItemModel(parent),
      reader_(reader),
      full_(std::make_shared<const EventOutline>(build_outline(reader.index(), reader.markers()))),
      shown_(full_) {}

EventTreeModel::~EventTreeModel() = default;

void EventTreeModel::show_outline(std::shared_ptr<const EventOutline> outline) {
    beginResetModel();
    shown_ = outline ? std::move(outline) : full_;
    endResetModel();
}

QModelIndex EventTreeModel::index_of_node(int node) const {
    if (node <= 0 || std::size_t(node) >= shown_->nodes.size()) return {};
    const int row = shown_->nodes[std::size_t(node)].row;
    return row < 0 ? QModelIndex() : createIndex(row, 0, node_id(node));
}

const OutlineItem* EventTreeModel::item_at(const OutlineNode& node, int row) const {
    auto it = std::upper_bound(node.items.begin(), node.items.end(), row,
                               [](int r, const OutlineItem& item) { return r < item.first_row; });
    if (it == node.items.begin()) return nullptr;
    return &*(it - 1);
}

QModelIndex EventTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount) return {};
    int node = 0;
    if (parent.isValid()) {
        if (parent.internalId() & 1) return {};  // calls have no children
        node = static_cast<int>(parent.internalId() / 2);
    }
    const OutlineNode& n = shown_->nodes[std::size_t(node)];
    if (row >= n.rows) return {};
    const OutlineItem* item = item_at(n, row);
    if (item->node >= 0) return createIndex(row, column, node_id(item->node));
    return createIndex(row, column, call_id_in(node));
}

QModelIndex EventTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid()) return {};
    const quintptr id = child.internalId();
    const int parent = (id & 1) ? static_cast<int>(id / 2) : shown_->nodes[id / 2].parent;
    if (parent <= 0) return {};
    return createIndex(shown_->nodes[std::size_t(parent)].row, 0, node_id(parent));
}

int EventTreeModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return shown_->nodes[0].rows;
    if (parent.column() != 0 || (parent.internalId() & 1)) return 0;
    return shown_->nodes[parent.internalId() / 2].rows;
}

int EventTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QVariant EventTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case EventColumn:
            return QStringLiteral("Event");
        case CallColumn:
            return QStringLiteral("Call");
        case ObjectColumn:
            return QStringLiteral("Object");
        case ResultColumn:
            return QStringLiteral("Result");
        case InterfaceColumn:
            return QStringLiteral("Interface");
        default:
            return {};
    }
}

QVariant EventTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    const quintptr id = index.internalId();
    std::uint64_t event = 0;
    const OutlineNode* node = nullptr;
    if (id & 1) {
        const OutlineNode& parent = shown_->nodes[id / 2];
        const OutlineItem* item = item_at(parent, index.row());
        event = item->first + static_cast<std::uint64_t>(index.row() - item->first_row);
    } else {
        node = &shown_->nodes[id / 2];
        event = node->event;
    }
    if (role == EventRole) return QVariant::fromValue<qulonglong>(event);
    if (role == ShareRole && index.column() >= CpuColumn) {
        if (node) return time_share(node->parent, node->event, node->end, index.column());
        return time_share(static_cast<int>(id / 2), event, event + 1, index.column());
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
    if (index.column() >= CpuColumn) {
        if (node) return time_data(node->event, node->end, index.column());
        return time_data(event, event + 1, index.column());
    }
    if (node) return node_data(*node, index.column());
    return call_data(event, index.column(), role);
}

QVariant EventTreeModel::node_data(const OutlineNode& node, int column) const {
    switch (column) {
        case EventColumn:
            return QString::number(node.event);
        case CallColumn:
            return node.label;
        default:
            return {};
    }
}

QVariant EventTreeModel::call_data(std::uint64_t event, int column, int role) const {
    if (column == EventColumn) return QString::number(event);
    auto record = reader_.record(event);
    if (!record.ok()) {
        return column == CallColumn ? QString::fromStdString(record.error().to_string())
                                    : QVariant();
    }
    const fb::Record& r = *record.value();
    const fb::RecordHeader& header = *r.header();
    switch (column) {
        case CallColumn:
        case InterfaceColumn: {
            const QString name = QString::fromStdString(trace::record_name(r));
            if (role == Qt::ToolTipRole) return name;
            const qsizetype method = name.indexOf(QStringLiteral("::"));
            if (method < 0) return column == CallColumn ? QVariant(name) : QVariant();
            return column == CallColumn ? name.mid(method + 2) : name.left(method);
        }
        case ObjectColumn:
            return header.object() ? object_text(header.object()) : QVariant();
        case ResultColumn: {
            const api::CallInfo* call = api::find_call(static_cast<api::CallId>(header.call()));
            if (call == nullptr) return {};
            const bool hresult =
                (header.flags() & static_cast<std::uint16_t>(fb::RecordFlags::ResultIsHresult)) ||
                call->returns == "HRESULT";
            if (!hresult) {
                if (call->returns == "void") return {};
                return QVariant::fromValue<qulonglong>(header.result());
            }
            const auto hr = static_cast<std::int32_t>(header.result());
            const std::string_view name = api::hresult_name(hr);
            if (!name.empty()) return QString::fromUtf8(name.data(), qsizetype(name.size()));
            return QStringLiteral("0x%1").arg(static_cast<std::uint32_t>(hr), 8, 16, QChar('0'));
        }
        default:
            return {};
    }
}

QString EventTreeModel::object_text(std::uint64_t id) const {
    const auto label = labels_.find(id);
    return label != labels_.end() ? label->second : QStringLiteral("#%1").arg(id);
}

void EventTreeModel::set_object_labels(std::map<std::uint64_t, QString> labels) {
    labels_ = std::move(labels);
}

QVariant EventTreeModel::time_data(std::uint64_t first, std::uint64_t end, int column) const {
    const std::vector<std::uint64_t>& sums = column == CpuColumn ? cpu_ : gpu_;
    if (sums.empty() || end >= sums.size()) return {};
    return QString::number(double(sums[end] - sums[first]) / 1000.0, 'f', 1);
}

QVariant EventTreeModel::time_share(int parent, std::uint64_t first, std::uint64_t end,
                                    int column) const {
    const std::vector<std::uint64_t>& sums = column == CpuColumn ? cpu_ : gpu_;
    if (sums.empty() || parent < 0) return {};
    const OutlineNode& parent_node = shown_->nodes[std::size_t(parent)];
    const std::uint64_t parent_end = parent_node.end;
    const std::uint64_t parent_first = parent == 0 ? 0 : parent_node.event;
    if (end >= sums.size() || parent_end >= sums.size()) return {};
    const std::uint64_t total = sums[parent_end] - sums[parent_first];
    if (total == 0) return 0.0;
    return double(sums[end] - sums[first]) / double(total);
}

bool EventTreeModel::load_report(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    const QByteArray bytes = file.readAll();
    const auto json = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, false);
    if (json.is_discarded() || !json.contains("events") || !json["events"].is_array()) {
        if (error) *error = QStringLiteral("%1: not a replay report (no \"events\")").arg(path);
        return false;
    }
    const std::uint64_t count = reader_.event_count();
    std::vector<std::uint64_t> cpu(count + 1, 0), gpu(count + 1, 0);
    // A time is a number, or null where the device has none (records without
    // GPU work); anything else counts as nothing.
    const auto number = [](const nlohmann::json& entry, const char* key, std::uint64_t missing) {
        const auto found = entry.find(key);
        return found != entry.end() && found->is_number_unsigned() ? found->get<std::uint64_t>()
                                                                   : missing;
    };
    for (const auto& entry : json["events"]) {
        if (!entry.is_object()) continue;
        const std::uint64_t event = number(entry, "event", count);
        if (event >= count) continue;
        cpu[event + 1] = number(entry, "cpu_ns", 0);
        gpu[event + 1] = number(entry, "gpu_ns", 0);
    }
    for (std::uint64_t e = 0; e < count; ++e) {
        cpu[e + 1] += cpu[e];
        gpu[e + 1] += gpu[e];
    }
    cpu_ = std::move(cpu);
    gpu_ = std::move(gpu);
    if (rowCount() > 0) {
        emit dataChanged(index(0, CpuColumn), index(rowCount() - 1, GpuColumn));
    }
    emit report_loaded();
    return true;
}

std::uint64_t EventTreeModel::cpu_ns(std::uint64_t first, std::uint64_t end) const {
    return end < cpu_.size() && first <= end ? cpu_[end] - cpu_[first] : 0;
}

std::uint64_t EventTreeModel::gpu_ns(std::uint64_t first, std::uint64_t end) const {
    return end < gpu_.size() && first <= end ? gpu_[end] - gpu_[first] : 0;
}

QModelIndex EventTreeModel::index_of_event(std::uint64_t event) const {
    if (event >= reader_.event_count()) return {};
    int node = 0;
    QModelIndex parent;
    for (;;) {
        const OutlineNode& n = shown_->nodes[std::size_t(node)];
        auto it = std::upper_bound(
            n.items.begin(), n.items.end(), event,
            [](std::uint64_t e, const OutlineItem& item) { return e < item.first; });
        if (it == n.items.begin()) return parent;
        const OutlineItem& item = *(it - 1);
        if (item.node < 0) {
            if (event >= item.end) return parent;
            return index(item.first_row + static_cast<int>(event - item.first), 0, parent);
        }
        const QModelIndex row = index(item.first_row, 0, parent);
        const OutlineNode& child = shown_->nodes[std::size_t(item.node)];
        if (event >= child.end) return parent;
        // A region or marker row is its own event; a frame holds its first.
        if (child.kind == NodeKind::Marker ||
            (child.kind == NodeKind::Region && event == child.event))
            return row;
        node = item.node;
        parent = row;
    }
}

bool EventTreeModel::is(Step kind, std::uint16_t call_id) {
    using api::CallId;
    switch (static_cast<CallId>(call_id)) {
        case CallId::ID3D11DeviceContext2_UpdateTileMappings:
        case CallId::ID3D11DeviceContext2_CopyTileMappings:
        case CallId::ID3D11DeviceContext2_ResizeTilePool:
        case CallId::ID3D11DeviceContext2_UpdateTiles:
        case CallId::ID3D11DeviceContext2_CopyTiles:
            return kind == Step::TileCall;
        case CallId::ID3D11DeviceContext_Draw:
        case CallId::ID3D11DeviceContext_DrawIndexed:
        case CallId::ID3D11DeviceContext_DrawInstanced:
        case CallId::ID3D11DeviceContext_DrawIndexedInstanced:
        case CallId::ID3D11DeviceContext_DrawAuto:
        case CallId::ID3D11DeviceContext_DrawInstancedIndirect:
        case CallId::ID3D11DeviceContext_DrawIndexedInstancedIndirect:
        case CallId::ID3D11DeviceContext_Dispatch:
        case CallId::ID3D11DeviceContext_DispatchIndirect:
            return kind == Step::Draw;
        default:
            return false;
    }
}

std::optional<std::uint64_t> EventTreeModel::next(Step kind, std::uint64_t event) const {
    for (std::uint64_t e = event + 1; e < reader_.event_count(); ++e) {
        auto record = reader_.record(e);
        if (record.ok() && is(kind, record.value()->header()->call())) return e;
    }
    return std::nullopt;
}

std::optional<std::uint64_t> EventTreeModel::previous(Step kind, std::uint64_t event) const {
    for (std::uint64_t e = std::min(event, reader_.event_count()); e-- > 0;) {
        auto record = reader_.record(e);
        if (record.ok() && is(kind, record.value()->header()->call())) return e;
    }
    return std::nullopt;
}

}  // namespace d3dcap::viewer
