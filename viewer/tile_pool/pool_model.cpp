#include "viewer/tile_pool/pool_model.h"

#include <QBrush>
#include <QColor>

namespace d3dcap::viewer {

namespace {

// Pools past this many tiles are not listed (a row each would be too many).
constexpr std::uint64_t kMaxListedPoolTiles = std::uint64_t{1} << 22;

}  // namespace

PoolModel::PoolModel(QObject* parent) : QAbstractTableModel(parent) {}

void PoolModel::set_pool_of(std::shared_ptr<const TileSnapshot> snapshot, std::uint64_t resource) {
    beginResetModel();
    snapshot_ = std::move(snapshot);
    rows_.clear();
    unused_ = 0;
    pool_ = snapshot_ ? snapshot_->after.pool_of(resource) : 0;
    const std::uint64_t size = pool_ ? snapshot_->after.pool_tiles(pool_) : 0;
    if (size > 0 && size <= kMaxListedPoolTiles) {
        const runtime::tiles::TileState& state = snapshot_->after;
        rows_.resize(size);
        for (const std::uint64_t id : state.tiled_resources()) {
            if (state.pool_of(id) != pool_) continue;
            const std::vector<runtime::tiles::TileMapping> mappings = state.mappings(id);
            for (std::uint32_t tile = 0; tile < mappings.size(); ++tile) {
                const runtime::tiles::TileMapping& m = mappings[tile];
                if (m.pool != pool_ || m.pool_tile >= rows_.size()) continue;
                Row& row = rows_[m.pool_tile];
                ++row.references;
                if (row.first.size() < kListedReferences) row.first.emplace_back(id, tile);
            }
        }
        for (const Row& row : rows_) unused_ += row.references == 0 ? 1 : 0;
    }
    endResetModel();
}

int PoolModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int PoolModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PoolModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case PoolTileColumn:
            return QStringLiteral("Pool tile");
        case ReferenceCountColumn:
            return QStringLiteral("References");
        case MappedByColumn:
            return QStringLiteral("Mapped by (resource: tile)");
        default:
            return {};
    }
}

QVariant PoolModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Row& row = rows_[std::size_t(index.row())];
    if (role == Qt::ForegroundRole && row.references == 0) return QBrush(QColor(128, 128, 128));
    if (role != Qt::DisplayRole) return {};
    switch (index.column()) {
        case PoolTileColumn:
            return index.row();
        case ReferenceCountColumn:
            return row.references;
        case MappedByColumn: {
            if (row.references == 0) return QStringLiteral("unused");
            // "box: Texture2D ..., #12: tiles 5, 6, 9, 10, and 2 more".
            QStringList parts;
            for (std::size_t i = 0; i < row.first.size();) {
                const std::uint64_t resource = row.first[i].first;
                QStringList tiles;
                for (; i < row.first.size() && row.first[i].first == resource; ++i)
                    tiles << QString::number(row.first[i].second);
                const auto label = snapshot_->labels.find(resource);
                parts << QStringLiteral("%1: %2 %3")
                             .arg(label == snapshot_->labels.end()
                                      ? QStringLiteral("#%1").arg(resource)
                                      : label->second)
                             .arg(tiles.size() == 1 ? QStringLiteral("tile")
                                                    : QStringLiteral("tiles"))
                             .arg(tiles.join(QStringLiteral(", ")));
            }
            if (row.references > row.first.size()) {
                parts << QStringLiteral("and %1 more").arg(row.references - row.first.size());
            }
            return parts.join(QStringLiteral("; "));
        }
        default:
            return {};
    }
}

}  // namespace d3dcap::viewer
