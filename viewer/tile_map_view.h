// Paints a TileMapModel as a grid: mapped tiles coloured by pool tile on a
// stable colour scale, NULL tiles dark, shared tiles marked with a dot,
// tiles the selected event changed outlined; the packed tiles of the slice
// as a strip under the map. Wheel zooms about the cursor, drag pans, and
// only the visible cells are painted, so 100k+ tiles stay smooth.
#pragma once

#include <QColor>
#include <QPoint>
#include <QPointF>
#include <QWidget>
#include <optional>

namespace d3dcap::viewer {

class TileMapModel;

class TileMapView : public QWidget {
    Q_OBJECT
  public:
    explicit TileMapView(TileMapModel* model, QWidget* parent = nullptr);

    // The colour of a pool tile: the same tile always gets the same colour.
    static QColor colour_of(int pool_tile);
    double cell_size() const { return cell_; }
    // Fits the whole map in the widget.
    void fit();

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
    double packed_top() const;

    TileMapModel* model_;
    double cell_ = 16;  // pixels per tile
    QPointF origin_;    // widget position of tile (0, 0)
    std::optional<QPoint> drag_from_;
    bool fitted_ = false;
};

}  // namespace d3dcap::viewer
