// The tile pool of the selected resource at the selected event: one row per
// pool tile with how many resource tiles map it and which (the first few),
// so that unused and shared pool tiles stand out.
#pragma once

#include <QAbstractTableModel>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "viewer/tile_map/tile_snapshot.h"

namespace d3dcap::viewer {

class PoolModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column { PoolTileColumn, ReferenceCountColumn, MappedByColumn, ColumnCount };
    static constexpr int kListedReferences = 4;  // per pool tile, in the last column

    explicit PoolModel(QObject* parent = nullptr);

    // The pool that resource maps, after the snapshot's event.
    void set_pool_of(std::shared_ptr<const TileSnapshot> snapshot, std::uint64_t resource);
    std::uint64_t pool() const { return pool_; }
    int unused_tiles() const { return unused_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    struct Row {
        std::uint32_t references = 0;
        std::vector<std::pair<std::uint64_t, std::uint32_t>> first;  // (resource, tile)
    };
    std::shared_ptr<const TileSnapshot> snapshot_;
    std::uint64_t pool_ = 0;
    std::vector<Row> rows_;
    int unused_ = 0;
};

}  // namespace d3dcap::viewer
