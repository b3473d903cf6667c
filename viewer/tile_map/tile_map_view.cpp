#include "viewer/tile_map/tile_map_view.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <array>
#include <cmath>

#include "viewer/tile_map/tile_map_model.h"

namespace d3dcap::viewer {

namespace {

constexpr double kMinCell = 0.25, kMaxCell = 128;
constexpr double kPackedGap = 12;  // pixels between the map and the packed strip
const QColor kNullColour(32, 32, 36);
const QColor kBackground(16, 16, 18);

// One cell as the map draws it: the pool tile's colour (dark for NULL), a
// dot where other tiles map the same pool tile, a white frame where the
// selected event changed the mapping, and the pool tile's number (in the
// painter's font, set once by set_numbering_font) when the cell is large enough
// to read it.
void paint_cell(QPainter& painter, const TileMapModel::Cell& c, QRectF box, double cell) {
    const double inset = cell >= 4 ? 1 : 0;
    const QColor colour = TileMapView::colour_of(c.pool_tile);
    painter.fillRect(box.adjusted(0, 0, -inset, -inset), colour);
    const bool numbered = cell >= TileMapView::kNumberedCell && c.pool_tile >= 0;
    if (c.shared && cell >= 6) {
        const double r = cell / 6;
        painter.setPen(Qt::NoPen);
        painter.setBrush(Qt::black);
        // Beside the number, where there is one.
        const QPointF at = numbered ? box.topLeft() + QPointF(cell / 5, cell / 5) : box.center();
        painter.drawEllipse(at, numbered ? r / 2 : r, numbered ? r / 2 : r);
    }
    if (numbered) {
        painter.setPen(colour.lightness() > 140 ? Qt::black : Qt::white);
        painter.drawText(box.adjusted(0, 0, -inset, -inset), Qt::AlignCenter,
                         QString::number(c.pool_tile));
    }
    if (c.changed) {
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(Qt::white, std::max(1.0, cell / 8)));
        painter.drawRect(box.adjusted(0.5, 0.5, -inset - 0.5, -inset - 0.5));
    }
}

void set_numbering_font(QPainter& painter, double cell) {
    QFont font = painter.font();
    font.setPixelSize(static_cast<int>(std::clamp(cell / 3.5, 8.0, 16.0)));
    painter.setFont(font);
}

}  // namespace

TileMapView::TileMapView(TileMapModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    setMouseTracking(true);
    setMinimumSize(200, 200);
    setAutoFillBackground(false);
    connect(model_, &QAbstractItemModel::modelReset, this, [this] {
        if (!fitted_) fit();
        update();
    });
}

QColor TileMapView::colour_of(int pool_tile) {
    if (pool_tile < 0) return kNullColour;
    // Golden-angle hue steps keep neighbouring pool tiles apart; saturation
    // and value cycle slowly so that tiles 360 apart still differ.
    const int hue = static_cast<int>(std::fmod(pool_tile * 137.508, 360.0));
    const int saturation = 150 + (pool_tile / 7) % 4 * 30;
    const int value = 255 - (pool_tile / 3) % 3 * 45;
    return QColor::fromHsv(hue, saturation, value);
}

void TileMapView::fit() {
    const int rows = model_->rowCount(), columns = model_->columnCount();
    if (rows == 0 || columns == 0) return;
    const double strip = model_->packed().empty() || model_->showing_packed() ? 0 : 1 + kPackedGap;
    const double by_width = (width() - 8) / double(columns);
    const double by_height = (height() - 8) / (rows + strip);
    cell_ = std::clamp(std::min(by_width, by_height), kMinCell, kMaxCell);
    origin_ = QPointF(4, 4);
    fitted_ = true;
}

double TileMapView::packed_top() const {
    return origin_.y() + model_->rowCount() * cell_ + kPackedGap;
}

QRectF TileMapView::cell_rect(int row, int column) const {
    return QRectF(origin_.x() + column * cell_, origin_.y() + row * cell_, cell_, cell_);
}

QRectF TileMapView::packed_rect(int index) const {
    return QRectF(origin_.x() + index * cell_, packed_top(), cell_, cell_);
}

const TileMapModel::Cell& TileMapView::cell_at(const Hit& at) const {
    return at.packed ? model_->packed()[std::size_t(at.column)] : model_->cell(at.row, at.column);
}

void TileMapView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), kBackground);
    const int rows = model_->rowCount(), columns = model_->columnCount();
    if (rows == 0 || columns == 0) {
        painter.setPen(Qt::lightGray);
        painter.drawText(rect(), Qt::AlignCenter, QStringLiteral("No tiled resource selected"));
        return;
    }
    // Only the cells inside the widget.
    const int first_column = std::max(0, int(std::floor(-origin_.x() / cell_)));
    const int last_column = std::min(columns - 1, int(std::floor((width() - origin_.x()) / cell_)));
    const int first_row = std::max(0, int(std::floor(-origin_.y() / cell_)));
    const int last_row = std::min(rows - 1, int(std::floor((height() - origin_.y()) / cell_)));
    if (cell_ >= kNumberedCell) set_numbering_font(painter, cell_);
    for (int y = first_row; y <= last_row; ++y) {
        for (int x = first_column; x <= last_column; ++x)
            paint_cell(painter, model_->cell(y, x), cell_rect(y, x), cell_);
    }
    if (!model_->showing_packed()) {
        const std::vector<TileMapModel::Cell>& packed = model_->packed();
        const double top = packed_top();
        for (std::size_t i = 0; i < packed.size(); ++i) {
            const QRectF box = packed_rect(int(i));
            if (box.right() < 0 || box.left() > width()) continue;
            paint_cell(painter, packed[i], box, cell_);
        }
        if (!packed.empty() && cell_ >= 4) {
            painter.setPen(Qt::lightGray);
            painter.drawText(QPointF(origin_.x(), top - 2), QStringLiteral("packed"));
        }
    }
}

std::optional<TileMapView::Hit> TileMapView::hit(QPointF position) const {
    const double fx = (position.x() - origin_.x()) / cell_;
    const double fy = (position.y() - origin_.y()) / cell_;
    if (fx < 0) return std::nullopt;
    if (fy >= 0 && fy < model_->rowCount() && fx < model_->columnCount()) {
        return Hit{false, int(fy), int(fx)};
    }
    const double py = (position.y() - packed_top()) / cell_;
    if (!model_->showing_packed() && py >= 0 && py < 1 && fx < double(model_->packed().size())) {
        return Hit{true, 0, int(fx)};
    }
    return std::nullopt;
}

bool TileMapView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const auto at = hit(help->pos());
        if (!at) {
            QToolTip::hideText();
            return true;
        }
        const QString place = TileMapModel::place(at->packed, at->row, at->column);
        QToolTip::showText(help->globalPos(), TileMapModel::describe(cell_at(*at), place), this);
        return true;
    }
    return QWidget::event(event);
}

void TileMapView::set_cell_size(double pixels) {
    cell_ = std::clamp(pixels, kMinCell, kMaxCell);
    fitted_ = true;
    update();
}

void TileMapView::set_view(double cell, QPointF origin) {
    cell_ = std::clamp(cell, kMinCell, kMaxCell);
    origin_ = origin;
    fitted_ = true;
    update();
}

void TileMapView::wheelEvent(QWheelEvent* event) {
    zoom_about(event->position(), event->angleDelta().y(), kMinCell, kMaxCell, cell_, origin_);
    update();
    emit view_moved(cell_, origin_);
    event->accept();
}

void TileMapView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) drag_.press(event->position());
}

void TileMapView::mouseMoveEvent(QMouseEvent* event) {
    const std::optional<QPointF> by = drag_.move(event->position());
    if (!by) return;
    origin_ += *by;
    update();
    emit view_moved(cell_, origin_);
}

void TileMapView::mouseReleaseEvent(QMouseEvent* event) {
    if (!drag_.release()) return;
    const auto at = hit(event->position());
    if (!at) return;
    // Shift: the write of the contents, else the last mapping change.
    const std::uint64_t last = event->modifiers() & Qt::ShiftModifier ? cell_at(*at).last_written
                                                                      : cell_at(*at).last_changed;
    if (last != kNoChange) emit last_change_clicked(last);
}

void TileMapView::resizeEvent(QResizeEvent*) {
    if (!fitted_) fit();
}

namespace {

constexpr double kSwatch = 18;  // pixels

struct LegendEntry {
    TileMapModel::Cell swatch;
    const char* text;
};

TileMapModel::Cell swatch(int pool_tile, bool shared, bool changed) {
    TileMapModel::Cell cell{};
    cell.pool_tile = pool_tile;
    cell.shared = shared;
    cell.changed = changed;
    return cell;
}

const std::array<LegendEntry, 4>& legend() {
    static const std::array<LegendEntry, 4> entries{{
        {swatch(5, false, false), "colour: its pool tile (numbered when zoomed in)"},
        {swatch(-1, false, false), "dark: NULL, no pool tile"},
        {swatch(5, true, false), "dot: other tiles map the same pool tile"},
        {swatch(5, false, true), "white frame: the selected event changed it"},
    }};
    return entries;
}

}  // namespace

TileMapLegend::TileMapLegend(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

QStringList TileMapLegend::entries() {
    QStringList texts;
    for (const LegendEntry& entry : legend()) texts << QString::fromUtf8(entry.text);
    return texts;
}

// Two entries a row: the legend stays narrower than the map.
QSize TileMapLegend::sizeHint() const {
    return {400, 2 * static_cast<int>(kSwatch + 6) + 4};
}

void TileMapLegend::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), kBackground);
    const double column_width = std::max(width() / 2.0, 200.0);
    for (std::size_t i = 0; i < legend().size(); ++i) {
        const double x = 4 + static_cast<double>(i % 2) * column_width;
        const double top = 4 + static_cast<double>(i / 2) * (kSwatch + 6);
        paint_cell(painter, legend()[i].swatch, QRectF(x, top, kSwatch, kSwatch), kSwatch);
        painter.setPen(Qt::lightGray);
        painter.drawText(QRectF(x + kSwatch + 6, top, column_width - kSwatch - 12, kSwatch),
                         Qt::AlignVCenter | Qt::AlignLeft, QString::fromUtf8(legend()[i].text));
    }
}

}  // namespace d3dcap::viewer
