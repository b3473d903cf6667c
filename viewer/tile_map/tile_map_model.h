// One cell per tile of the selected subresource of a tiled resource: the
// pool tile it maps (-1 for NULL), whether another tile maps the same pool
// tile, and whether the selected event changed it. A mip in the packed tail
// shows the slice's packed tiles as one row. The event that last changed
// each tile comes with the snapshot's history, after the snapshot.
#pragma once

#include <QAbstractTableModel>
#include <cstdint>
#include <memory>
#include <vector>

#include "viewer/tile_map/tile_snapshot.h"

namespace d3dcap::viewer {

class TileMapModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Role {
        PoolTileRole = Qt::UserRole + 1,  // int, -1 for NULL (DisplayRole too)
        SharedRole,                       // bool: another tile maps the same pool tile
        ChangedRole,                      // bool: the selected event changed the mapping
        // qulonglong: the last event at or before the selected one that
        // changed the mapping; invalid when none did or it is not known yet.
        LastChangedRole,
        // qulonglong: the last event at or before the selected one that
        // wrote the contents of the pool tile; invalid when none did.
        LastWrittenRole,
    };
    struct Cell {
        std::int32_t pool_tile = -1;
        bool shared = false;
        bool changed = false;
        std::uint64_t last_changed = kNoChange;
        std::uint64_t last_written = kNoChange;  // of the pool tile's contents
        bool finding_last_change = false;        // the history is on its way
    };

    explicit TileMapModel(QObject* parent = nullptr);

    // Until its history comes, the last changes are being found.
    void set_snapshot(std::shared_ptr<const TileSnapshot> snapshot);
    // The history of the snapshot's event and resource; any other (of a
    // snapshot no longer shown) is ignored.
    void set_history(std::shared_ptr<const SnapshotHistory> history);
    void set_selection(std::uint64_t resource, std::uint32_t mip, std::uint32_t slice);

    std::shared_ptr<const TileSnapshot> snapshot() const { return snapshot_; }
    std::shared_ptr<const SnapshotHistory> history() const { return history_; }
    std::uint64_t resource() const { return resource_; }
    std::uint32_t mip() const { return mip_; }
    std::uint32_t slice() const { return slice_; }
    // Standard mips plus one entry for the packed tail when there is one.
    std::uint32_t mip_count() const { return mip_count_; }
    // Array slices, or depth in tiles for a 3D texture's mip.
    std::uint32_t slice_count() const { return slice_count_; }
    bool showing_packed() const { return showing_packed_; }
    // The packed tiles of the selected slice (shown as a strip under the map).
    const std::vector<Cell>& packed() const { return packed_; }
    const Cell& cell(int row, int column) const {
        return cells_[std::size_t(row) * columns_ + column];
    }
    // What hovering a cell shows: place ("tile (1, 2)"), then the pool
    // tile, sharing and the event that last changed it.
    static QString describe(const Cell& cell, const QString& place);
    // "tile (column, row)", or "packed tile column" in the packed strip.
    static QString place(bool packed, int row, int column);
    // Whether the history of the resource shown has come.
    bool knows_last_changes() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

  private:
    void rebuild();

    std::shared_ptr<const TileSnapshot> snapshot_;
    std::shared_ptr<const SnapshotHistory> history_;
    std::uint64_t resource_ = 0;
    std::uint32_t mip_ = 0, slice_ = 0;
    std::uint32_t mip_count_ = 0, slice_count_ = 0;
    bool showing_packed_ = false;
    int rows_ = 0, columns_ = 0;
    std::vector<Cell> cells_;
    std::vector<Cell> packed_;
};

}  // namespace d3dcap::viewer
