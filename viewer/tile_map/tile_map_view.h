// Paints a TileMapModel as a grid: mapped tiles coloured by pool tile on a
// stable colour scale, NULL tiles dark, shared tiles marked with a dot,
// tiles the selected event changed outlined; the packed tiles of the slice
// as a strip under the map. Wheel zooms about the cursor, drag pans, and
// only the visible cells are painted, so 100k+ tiles stay smooth. Hovering
// a tile tells its pool tile and the event that last changed it; clicking
// the tile asks for that event.
#pragma once

#include <QColor>
#include <QPoint>
#include <QPointF>
#include <QRectF>
#include <QStringList>
#include <QWidget>
#include <cstdint>
#include <optional>

#include "viewer/common/pan_zoom.h"
#include "viewer/tile_map/tile_map_model.h"

namespace d3dcap::viewer {

class TileMapView : public QWidget {
    Q_OBJECT
  public:
    explicit TileMapView(TileMapModel* model, QWidget* parent = nullptr);

    // The colour of a pool tile: the same tile always gets the same colour.
    static QColor colour_of(int pool_tile);
    double cell_size() const { return cell_; }
    // Zooms to pixels per tile, keeping tile (0, 0) where it is.
    void set_cell_size(double pixels);
    // Cells this large print their pool tile's number.
    static constexpr double kNumberedCell = 28;
    // Fits the whole map in the widget.
    void fit();
    // Zoom and pan as the contents view has them: pixels per tile, and
    // where tile (0, 0) is drawn.
    void set_view(double cell, QPointF origin);
    // Where a cell of the map (or of the packed strip) is drawn.
    QRectF cell_rect(int row, int column) const;
    QRectF packed_rect(int index) const;

  signals:
    // A click on a tile whose mapping some event changed: that event.
    // (With Shift, the event that last wrote the contents of its pool tile.)
    void last_change_clicked(std::uint64_t event);
    // The user zoomed or panned.
    void view_moved(double cell, QPointF origin);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

  private:
    struct Hit {
        bool packed = false;
        int row = 0, column = 0;
    };
    std::optional<Hit> hit(QPointF position) const;
    const TileMapModel::Cell& cell_at(const Hit& at) const;
    double packed_top() const;

    TileMapModel* model_;
    double cell_ = 16;  // pixels per tile
    QPointF origin_;    // widget position of tile (0, 0)
    DragPan drag_;
    bool fitted_ = false;
};

// What the map's colours and marks mean, drawn with the map's own painting.
class TileMapLegend : public QWidget {
    Q_OBJECT
  public:
    explicit TileMapLegend(QWidget* parent = nullptr);
    // The entries, in order: what each swatch says.
    static QStringList entries();
    QSize sizeHint() const override;

  protected:
    void paintEvent(QPaintEvent* event) override;
};

}  // namespace d3dcap::viewer
