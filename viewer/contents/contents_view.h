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

#include "viewer/common/pan_zoom.h"
#include "viewer/contents/contents_image.h"

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
    // What hovering at a texel says: the value of the texel its pixel
    // shows, then its tile.
    QString describe_at(std::uint32_t x, std::uint32_t y) const;

    // What to read of a subresource of texels_wide x texels_high for the
    // view as it is: the visible texels with a margin for panning, at most
    // one texel a pixel; the whole subresource as fit() shows it when the
    // contents shown are of another one.
    replay::ContentsWindow wanted_window(std::uint32_t texels_wide, std::uint32_t texels_high,
                                         bool same_subresource) const;
    // The contents shown lack texels of the visible part, or show it
    // coarser than the zoom can show.
    bool needs_detail() const;

  signals:
    // Zoom or pan made needs_detail() true.
    void detail_wanted();
    void view_moved(double pixels_per_tile, QPointF origin);
    // (With Shift, the event that last wrote the contents of its pool tile.)
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
    // The texels of the subresource inside the widget.
    QRect visible_texels() const;
    // Pixels per texel that show the whole of a subresource.
    double fit_scale(std::uint32_t texels_wide, std::uint32_t texels_high) const;
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
