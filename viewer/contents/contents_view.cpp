#include "viewer/contents/contents_view.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "viewer/tile_map/tile_map_model.h"

namespace d3dcap::viewer {

namespace {

constexpr double kMinScale = 1.0 / 64, kMaxScale = 64;
const QColor kBackground(16, 16, 18);
const QColor kGrid(255, 255, 255, 70);
const QColor kNullHatch(255, 80, 80, 170);
const QColor kSharedMark(255, 210, 0);

}  // namespace

ContentsView::ContentsView(TileMapModel* tiles, QWidget* parent) : QWidget(parent), tiles_(tiles) {
    setMouseTracking(true);
    setMinimumSize(200, 200);
    connect(tiles_, &QAbstractItemModel::modelReset, this, qOverload<>(&QWidget::update));
}

void ContentsView::set_contents(std::shared_ptr<const DecodedContents> contents) {
    // Another resource or size is fitted anew; the same one keeps the zoom.
    const bool new_size = !contents_ || !contents || contents->width != contents_->width ||
                          contents->height != contents_->height ||
                          contents->contents.resource != contents_->contents.resource;
    contents_ = std::move(contents);
    image_ = contents_ ? render_contents(*contents_, display_) : QImage();
    if (contents_ && !contents_->error.isEmpty()) message_ = contents_->error;
    if (new_size) fit();
    update();
}

void ContentsView::set_display(const ContentsDisplay& display) {
    if (display == display_) return;
    display_ = display;
    if (contents_) image_ = render_contents(*contents_, display_);
    update();
}

void ContentsView::set_message(const QString& message) {
    message_ = message;
    contents_.reset();
    image_ = QImage();
    update();
}

int ContentsView::tile_width() const {
    const auto snapshot = tiles_->snapshot();
    const runtime::tiles::ResourceTiling* tiling =
        snapshot ? snapshot->after.tiling(tiles_->resource()) : nullptr;
    if (!tiling || !contents_ || contents_->contents.resource != tiles_->resource()) return 0;
    return static_cast<int>(tiling->shape.WidthInTexels);
}

int ContentsView::tile_height() const {
    const auto snapshot = tiles_->snapshot();
    const runtime::tiles::ResourceTiling* tiling =
        snapshot ? snapshot->after.tiling(tiles_->resource()) : nullptr;
    if (!tiling || tile_width() == 0) return 0;
    return static_cast<int>(tiling->shape.HeightInTexels);
}

double ContentsView::fit_scale(std::uint32_t texels_wide, std::uint32_t texels_high) const {
    const double by_width = (width() - 8) / double(std::max(1u, texels_wide));
    const double by_height = (height() - 8) / double(std::max(1u, texels_high));
    return std::clamp(std::min(by_width, by_height), kMinScale, kMaxScale);
}

void ContentsView::fit() {
    if (!contents_ || contents_->width == 0 || contents_->height == 0) return;
    scale_ = fit_scale(contents_->width, contents_->height);
    origin_ = QPointF(4, 4);
    fitted_ = true;
    moved();
}

void ContentsView::set_view(double pixels_per_tile, QPointF origin) {
    const int tile = tile_width();
    if (tile == 0) return;
    const double scale = std::clamp(pixels_per_tile / tile, kMinScale, kMaxScale);
    if (scale == scale_ && origin == origin_) return;  // our own move coming back
    scale_ = scale;
    origin_ = origin;
    fitted_ = true;
    if (needs_detail()) emit detail_wanted();
    update();
}

void ContentsView::moved() {
    if (const int tile = tile_width()) emit view_moved(scale_ * tile, origin_);
    if (needs_detail()) emit detail_wanted();
    update();
}

namespace {

// Texels a pixel stands for at scale, as a power of two (1 when zoomed in).
std::uint32_t texels_per_pixel(double scale) {
    std::uint32_t step = 1;
    while (step < (1u << 30) && step * 2 * scale <= 1.0) step *= 2;
    return step;
}

}  // namespace

QRect ContentsView::visible_texels() const {
    if (!contents_) return {};
    const auto to_texel = [this](double pixel, double origin, std::uint32_t size, bool up) {
        const double texel = (pixel - origin) / scale_;
        return int(std::clamp(up ? std::ceil(texel) : std::floor(texel), 0.0, double(size)));
    };
    const int left = to_texel(0, origin_.x(), contents_->width, false);
    const int right = to_texel(width(), origin_.x(), contents_->width, true);
    const int top = to_texel(0, origin_.y(), contents_->height, false);
    const int bottom = to_texel(height(), origin_.y(), contents_->height, true);
    return QRect(left, top, right - left, bottom - top);
}

replay::ContentsWindow ContentsView::wanted_window(std::uint32_t texels_wide,
                                                   std::uint32_t texels_high,
                                                   bool same_subresource) const {
    replay::ContentsWindow window;
    if (!same_subresource || !contents_) {
        // Whole, as fit() will show it (at the widget's size when the size
        // is not known yet).
        if (texels_wide == 0 || texels_high == 0) {
            window.max_side = std::uint32_t(std::max({width(), height(), 256}));
            return window;
        }
        const std::uint32_t step = texels_per_pixel(fit_scale(texels_wide, texels_high));
        window.max_side = (std::max({texels_wide, texels_high, 1u}) + step - 1) / step;
        return window;
    }
    const QRect visible = visible_texels();
    if (visible.isEmpty()) return window;
    // Half the visible size again on every side, for panning.
    const QRect wanted =
        visible
            .adjusted(-visible.width() / 2, -visible.height() / 2, visible.width() / 2,
                      visible.height() / 2)
            .intersected(QRect(0, 0, int(contents_->width), int(contents_->height)));
    window.x = std::uint32_t(wanted.x());
    window.y = std::uint32_t(wanted.y());
    window.width = std::uint32_t(wanted.width());
    window.height = std::uint32_t(wanted.height());
    const std::uint32_t step = texels_per_pixel(scale_);
    window.max_side = (std::max(window.width, window.height) + step - 1) / step;
    return window;
}

bool ContentsView::needs_detail() const {
    if (!contents_ || contents_->shown_width == 0) return false;
    const QRect visible = visible_texels();
    if (visible.isEmpty()) return false;
    const replay::TexelWindow& have = contents_->contents.window;
    const QRect held(int(have.x), int(have.y), int(have.width), int(have.height));
    return !held.contains(visible) || contents_->step > texels_per_pixel(scale_);
}

QRectF ContentsView::texel_rect(std::uint32_t x, std::uint32_t y) const {
    return QRectF(origin_.x() + x * scale_, origin_.y() + y * scale_, scale_, scale_);
}

std::optional<QPoint> ContentsView::texel_at(QPointF position) const {
    if (!contents_) return std::nullopt;
    const double fx = (position.x() - origin_.x()) / scale_;
    const double fy = (position.y() - origin_.y()) / scale_;
    if (fx < 0 || fy < 0 || fx >= contents_->width || fy >= contents_->height) return std::nullopt;
    return QPoint(int(fx), int(fy));
}

QString ContentsView::describe_at(std::uint32_t x, std::uint32_t y) const {
    if (!contents_) return {};
    const auto shown = shown_texel(*contents_, x, y);
    QString text = shown ? describe_texel(*contents_, (*shown)[0], (*shown)[1]) : QString();
    const int tw = tile_width(), th = tile_height();
    if (tw > 0 && th > 0 && !tiles_->showing_packed()) {
        const int row = int(y) / th, column = int(x) / tw;
        if (row < tiles_->rowCount() && column < tiles_->columnCount()) {
            text += QStringLiteral("; ") +
                    TileMapModel::describe(tiles_->cell(row, column),
                                           TileMapModel::place(false, row, column));
        }
    }
    return text;
}

void ContentsView::paint_tiles(QPainter& painter) const {
    const int tw = tile_width(), th = tile_height();
    if (tw == 0 || th == 0) return;
    if (tiles_->showing_packed()) {
        painter.setPen(Qt::white);
        painter.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignTop | Qt::AlignLeft,
                         QStringLiteral("packed mip: in the slice's %1 packed tiles")
                             .arg(tiles_->packed().size()));
        return;
    }
    const double cell_w = tw * scale_, cell_h = th * scale_;
    const int rows = tiles_->rowCount(), columns = tiles_->columnCount();
    const int first_column = std::max(0, int(std::floor(-origin_.x() / cell_w)));
    const int last_column =
        std::min(columns - 1, int(std::floor((width() - origin_.x()) / cell_w)));
    const int first_row = std::max(0, int(std::floor(-origin_.y() / cell_h)));
    const int last_row = std::min(rows - 1, int(std::floor((height() - origin_.y()) / cell_h)));
    const bool detailed = cell_w >= 6;
    for (int y = first_row; y <= last_row; ++y) {
        for (int x = first_column; x <= last_column; ++x) {
            const TileMapModel::Cell& cell = tiles_->cell(y, x);
            const QRectF box(origin_.x() + x * cell_w, origin_.y() + y * cell_h, cell_w, cell_h);
            if (cell.pool_tile < 0) painter.fillRect(box, QBrush(kNullHatch, Qt::BDiagPattern));
            if (cell.shared && detailed) {
                const double r = std::clamp(cell_w / 10, 2.0, 6.0);
                painter.setPen(Qt::black);
                painter.setBrush(kSharedMark);
                painter.drawEllipse(box.topLeft() + QPointF(r + 2, r + 2), r, r);
            }
            if (cell.changed) {
                painter.setBrush(Qt::NoBrush);
                painter.setPen(QPen(Qt::white, 2));
                painter.drawRect(box.adjusted(1, 1, -1, -1));
            } else if (detailed) {
                painter.setBrush(Qt::NoBrush);
                painter.setPen(kGrid);
                painter.drawRect(box);
            }
        }
    }
}

void ContentsView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), kBackground);
    if (image_.isNull()) {
        painter.setPen(Qt::lightGray);
        painter.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
                         message_);
        return;
    }
    // Texels stay sharp when zoomed in; smoothed when many share a pixel.
    painter.setRenderHint(QPainter::SmoothPixmapTransform, scale_ * contents_->step < 1);
    const double shown_scale = scale_ * contents_->step;  // image pixels are step texels wide
    const replay::TexelWindow& window = contents_->contents.window;
    painter.save();
    // The last pixel of a row may stand for texels past the edge.
    painter.setClipRect(
        QRectF(origin_, QSizeF(contents_->width * scale_, contents_->height * scale_)));
    painter.drawImage(QRectF(origin_ + QPointF(window.x * scale_, window.y * scale_),
                             QSizeF(image_.width() * shown_scale, image_.height() * shown_scale)),
                      image_);
    painter.restore();
    paint_tiles(painter);
}

void ContentsView::wheelEvent(QWheelEvent* event) {
    zoom_about(event->position(), event->angleDelta().y(), kMinScale, kMaxScale, scale_, origin_);
    fitted_ = true;
    moved();
    event->accept();
}

void ContentsView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) drag_.press(event->position());
}

void ContentsView::mouseMoveEvent(QMouseEvent* event) {
    if (const auto texel = texel_at(event->position())) {
        emit texel_hovered(describe_at(std::uint32_t(texel->x()), std::uint32_t(texel->y())));
    }
    const std::optional<QPointF> by = drag_.move(event->position());
    if (!by) return;
    origin_ += *by;
    fitted_ = true;
    moved();
}

void ContentsView::mouseReleaseEvent(QMouseEvent* event) {
    const auto texel = drag_.release() ? texel_at(event->position()) : std::nullopt;
    const int tw = tile_width(), th = tile_height();
    if (!texel || tw == 0 || th == 0 || tiles_->showing_packed()) return;
    const int row = texel->y() / th, column = texel->x() / tw;
    if (row >= tiles_->rowCount() || column >= tiles_->columnCount()) return;
    // Shift: the write of the contents, else the last mapping change.
    const TileMapModel::Cell& cell = tiles_->cell(row, column);
    const std::uint64_t last =
        event->modifiers() & Qt::ShiftModifier ? cell.last_written : cell.last_changed;
    if (last != kNoChange) emit last_change_clicked(last);
}

void ContentsView::resizeEvent(QResizeEvent*) {
    if (!fitted_) fit();
    if (needs_detail()) emit detail_wanted();
}

}  // namespace d3dcap::viewer
