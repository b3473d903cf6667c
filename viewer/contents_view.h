// Paints what the selected subresource holds after the selected event, with
// the tile grid of a tiled resource drawn over it: NULL tiles hatched, tiles
// that share their pool tile with another marked, the tiles the event
// remapped outlined, and a note where the mip lies in the packed tail. Wheel
// zooms about the cursor and drag pans, as on the tile map, and the two
// follow each other (set_view / view_moved in tiles). Hovering tells the
// texel's value decoded in the resource's format and its tile's mapping;
// clicking a tile asks for the event that last mapped it.
#pragma once

#include <QImage>
#include <QPointF>
#include <QWidget>
#include <cstdint>
#include <memory>
#include <optional>

#include "viewer/contents_image.h"
#include "viewer/pan_zoom.h"

namespace d3dcap::viewer {

class TileMapModel;

class ContentsView : public QWidget {
    Q_OBJECT
  public:
    explicit ContentsView(TileMapModel* tiles, QWidget* parent = nullptr);

    // Shows contents (none: only the message) with the display's channels
    // and range.
    void set_contents(std::shared_ptr<const DecodedContents> contents);
    void set_display(const ContentsDisplay& display);
    void set_message(const QString& message);
    std::shared_ptr<const DecodedContents> contents() const { return contents_; }
    const ContentsDisplay& display() const { return display_; }
    const QImage& image() const { return image_; }
    // Texels of one tile of the resource shown (0 when it is not tiled).
    int tile_width() const;
    int tile_height() const;

    double pixels_per_texel() const { return scale_; }
    // Fits the whole subresource in the widget.
    void fit();
    // Zoom and pan given in tiles, as the tile map has them: pixels per
    // tile column, and where tile (0, 0) is drawn.
    void set_view(double pixels_per_tile, QPointF origin);
    // Where a texel is drawn.
    QRectF texel_rect(std::uint32_t x, std::uint32_t y) const;
    // What hovering at a texel says: its value, then its tile.
    QString describe_at(std::uint32_t x, std::uint32_t y) const;

  signals:
    void view_moved(double pixels_per_tile, QPointF origin);
    void last_change_clicked(std::uint64_t event);
    void texel_hovered(const QString& text);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    std::optional<QPoint> texel_at(QPointF position) const;
    void paint_tiles(QPainter& painter) const;
    void moved();

    TileMapModel* tiles_;
    std::shared_ptr<const DecodedContents> contents_;
    ContentsDisplay display_;
    QImage image_;
    QString message_ = QStringLiteral("No contents yet");
    double scale_ = 1;  // pixels per texel
    QPointF origin_;    // widget position of texel (0, 0)
    DragPan drag_;
    bool fitted_ = false;
};

}  // namespace d3dcap::viewer
