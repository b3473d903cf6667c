#include "viewer/tile_map/tile_map_model.h"

#include <algorithm>

#include "runtime/tiles/tiling.h"

namespace d3dcap::viewer {

namespace {

// Pools larger than this are not counted for sharing (the count would cost
// more memory than the map shows).
constexpr std::uint64_t kMaxCountedPoolTiles = std::uint64_t{1} << 26;

}  // namespace

TileMapModel::TileMapModel(QObject* parent) : QAbstractTableModel(parent) {}

void TileMapModel::set_snapshot(std::shared_ptr<const TileSnapshot> snapshot) {
    snapshot_ = std::move(snapshot);
    history_.reset();
    rebuild();
}

void TileMapModel::set_history(std::shared_ptr<const SnapshotHistory> history) {
    if (!snapshot_ || !history || history->event != snapshot_->event ||
        history->resource != snapshot_->history_resource)
        return;
    history_ = std::move(history);
    rebuild();
}

void TileMapModel::set_selection(std::uint64_t resource, std::uint32_t mip, std::uint32_t slice) {
    resource_ = resource;
    mip_ = mip;
    slice_ = slice;
    rebuild();
}

void TileMapModel::rebuild() {
    beginResetModel();
    rows_ = columns_ = 0;
    mip_count_ = slice_count_ = 0;
    showing_packed_ = false;
    cells_.clear();
    packed_.clear();
    const runtime::tiles::ResourceTiling* tiling =
        snapshot_ ? snapshot_->after.tiling(resource_) : nullptr;
    if (tiling == nullptr || tiling->subresources.empty()) {
        endResetModel();
        return;
    }
    const runtime::tiles::TileState& state = snapshot_->after;
    const std::vector<runtime::tiles::TileMapping> now = state.mappings(resource_);
    std::vector<runtime::tiles::TileMapping> before;
    if (snapshot_->before && snapshot_->before->is_tiled_resource(resource_)) {
        before = snapshot_->before->mappings(resource_);
    }

    // How many tiles of the pool map each pool tile, over every resource.
    const runtime::tiles::ObjectId pool = state.pool_of(resource_);
    std::vector<std::uint32_t> references;
    const std::uint64_t pool_size = pool ? state.pool_tiles(pool) : 0;
    if (pool_size > 0 && pool_size <= kMaxCountedPoolTiles) {
        references.assign(pool_size, 0);
        for (const runtime::tiles::ObjectId other : state.tiled_resources()) {
            if (state.pool_of(other) != pool) continue;
            for (const runtime::tiles::TileMapping& m :
                 other == resource_ ? now : state.mappings(other)) {
                if (m.pool == pool && m.pool_tile < references.size()) ++references[m.pool_tile];
            }
        }
    }
    const std::vector<std::uint64_t>* last_changed =
        knows_last_changes() ? &history_->last_changed : nullptr;
    const std::vector<std::uint64_t>* last_written =
        knows_last_changes() ? &history_->last_written : nullptr;
    const auto cell_of = [&](std::uint32_t tile) {
        Cell cell;
        cell.finding_last_change = last_changed == nullptr;
        if (last_changed && tile < last_changed->size()) cell.last_changed = (*last_changed)[tile];
        if (last_written && tile < last_written->size()) cell.last_written = (*last_written)[tile];
        if (tile >= now.size()) return cell;
        const runtime::tiles::TileMapping m = now[tile];
        if (m.pool != 0 && m.pool_tile != runtime::tiles::kNullTile) {
            cell.pool_tile = static_cast<std::int32_t>(m.pool_tile);
            cell.shared = m.pool_tile < references.size() && references[m.pool_tile] > 1;
        }
        const runtime::tiles::TileMapping old =
            tile < before.size() ? before[tile] : runtime::tiles::TileMapping{};
        cell.changed = snapshot_->before && (old.pool != m.pool || old.pool_tile != m.pool_tile);
        return cell;
    };

    const std::uint32_t standard = std::min<std::uint32_t>(
        tiling->mip_levels, static_cast<std::uint32_t>(tiling->subresources.size()));
    std::uint32_t standard_mips = 0;
    while (standard_mips < standard &&
           tiling->subresources[standard_mips].StartTileIndexInOverallResource !=
               runtime::tiles::kPackedStart)
        ++standard_mips;
    const bool has_packed =
        tiling->packed.NumPackedMips > 0 && tiling->packed.NumTilesForPackedMips > 0;
    mip_count_ = standard_mips + (has_packed ? 1 : 0);
    mip_ = std::min(mip_, mip_count_ > 0 ? mip_count_ - 1 : 0);
    showing_packed_ = mip_ >= standard_mips;

    if (!showing_packed_) {
        const D3D11_SUBRESOURCE_TILING& first = tiling->subresources[mip_];
        const bool volume = first.DepthInTiles > 1;
        const std::uint32_t slices = std::max(1u, tiling->array_size);
        slice_count_ = volume ? first.DepthInTiles : slices;
        slice_ = std::min(slice_, slice_count_ - 1);
        const std::uint32_t z = volume ? slice_ : 0;
        const std::uint32_t array_slice = volume ? 0 : slice_;
        // Subresource mip + slice * mip_levels, when the tiling lists every
        // slice; else the first slice's, at the stride of one slice's tiles.
        const std::size_t sub = std::size_t(array_slice) * tiling->mip_levels + mip_;
        const bool listed = sub < tiling->subresources.size();
        const D3D11_SUBRESOURCE_TILING& s = listed ? tiling->subresources[sub] : first;
        const std::uint32_t start = s.StartTileIndexInOverallResource +
                                    (listed ? 0 : array_slice * (tiling->total_tiles / slices));
        rows_ = s.HeightInTiles;
        columns_ = s.WidthInTiles;
        cells_.reserve(std::size_t(rows_) * columns_);
        for (int y = 0; y < rows_; ++y) {
            for (int x = 0; x < columns_; ++x) {
                cells_.push_back(cell_of(start +
                                         (z * s.HeightInTiles + std::uint32_t(y)) * s.WidthInTiles +
                                         std::uint32_t(x)));
            }
        }
    } else {
        slice_count_ = std::max(1u, tiling->array_size);
        slice_ = std::min(slice_, slice_count_ - 1);
    }
    if (has_packed) {
        const std::uint32_t start = tiling->packed_start(slice_);
        for (std::uint32_t i = 0; i < tiling->packed.NumTilesForPackedMips; ++i) {
            packed_.push_back(cell_of(start + i));
        }
        if (showing_packed_) {
            rows_ = 1;
            columns_ = static_cast<int>(packed_.size());
            cells_ = packed_;
        }
    }
    endResetModel();
}

bool TileMapModel::knows_last_changes() const {
    return history_ && history_->resource == resource_ && resource_ != 0;
}

QString TileMapModel::describe(const Cell& cell, const QString& place) {
    QString text =
        place + (cell.pool_tile < 0 ? QStringLiteral(": NULL")
                                    : QStringLiteral(": pool tile %1").arg(cell.pool_tile));
    if (cell.shared) text += QStringLiteral(", shared");
    if (cell.changed) {
        text += QStringLiteral(", changed by this event");
    } else if (cell.finding_last_change) {
        text += QStringLiteral(", last change: finding...");
    } else if (cell.last_changed != kNoChange) {
        text += QStringLiteral(", last changed by event %1").arg(cell.last_changed);
    }
    if (cell.pool_tile >= 0 && cell.last_written != kNoChange)
        text += QStringLiteral(", contents written by event %1").arg(cell.last_written);
    return text;
}

QString TileMapModel::place(bool packed, int row, int column) {
    return packed ? QStringLiteral("packed tile %1").arg(column)
                  : QStringLiteral("tile (%1, %2)").arg(column).arg(row);
}

int TileMapModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : rows_;
}

int TileMapModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : columns_;
}

QVariant TileMapModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rows_ || index.column() >= columns_) return {};
    const Cell& c = cell(index.row(), index.column());
    switch (role) {
        case Qt::DisplayRole:
        case PoolTileRole:
            return c.pool_tile;
        case SharedRole:
            return c.shared;
        case ChangedRole:
            return c.changed;
        case LastChangedRole:
            return c.last_changed == kNoChange ? QVariant()
                                               : QVariant::fromValue<qulonglong>(c.last_changed);
        case LastWrittenRole:
            return c.last_written == kNoChange ? QVariant()
                                               : QVariant::fromValue<qulonglong>(c.last_written);
        case Qt::ToolTipRole:
            return describe(c, place(showing_packed_, index.row(), index.column()));
        default:
            return {};
    }
}

}  // namespace d3dcap::viewer
