#include "viewer/tile_pool/pool_size_plot.h"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>

namespace d3dcap::viewer {

namespace {

constexpr double kMargin = 8, kAxisLabels = 18;  // pixels
constexpr double kPointRadius = 3, kHoverDistance = 6;
const QColor kLine(90, 140, 220);

}  // namespace

PoolSizePlot::PoolSizePlot(QWidget* parent) : QWidget(parent) {
    setMinimumSize(160, 120);
    setMouseTracking(true);
}

void PoolSizePlot::set_sizes(std::uint64_t pool, std::vector<PoolSize> points,
                             std::uint64_t event_count, std::uint64_t selected_event) {
    pool_ = pool;
    points_ = std::move(points);
    event_count_ = event_count;
    selected_event_ = selected_event;
    update();
}

QRectF PoolSizePlot::plot_area() const {
    return QRectF(kMargin, kMargin + kAxisLabels, width() - 2 * kMargin,
                  height() - 2 * kMargin - 2 * kAxisLabels);
}

std::uint64_t PoolSizePlot::largest() const {
    std::uint64_t most = 1;
    for (const PoolSize& point : points_) most = std::max(most, point.tiles);
    return most;
}

QPointF PoolSizePlot::position_of(const PoolSize& point) const {
    const QRectF area = plot_area();
    const double events = double(std::max<std::uint64_t>(event_count_, 1));
    return QPointF(area.left() + area.width() * double(point.event) / events,
                   area.bottom() - area.height() * double(point.tiles) / double(largest()));
}

void PoolSizePlot::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    painter.setPen(palette().text().color());
    const QRectF area = plot_area();
    if (pool_ == 0 || points_.empty()) {
        painter.drawText(rect(), Qt::AlignCenter, QStringLiteral("No tile pool"));
        return;
    }
    painter.drawText(QRectF(kMargin, kMargin, width() - 2 * kMargin, kAxisLabels),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     QStringLiteral("Pool #%1: %2 tiles (most %3)")
                         .arg(pool_)
                         .arg(points_.back().tiles)
                         .arg(largest()));
    painter.drawText(QRectF(area.left(), area.bottom(), area.width(), kAxisLabels),
                     Qt::AlignRight | Qt::AlignVCenter,
                     QStringLiteral("event %1").arg(event_count_ == 0 ? 0 : event_count_ - 1));
    painter.setPen(QPen(palette().mid().color()));
    painter.drawLine(area.bottomLeft(), area.bottomRight());
    painter.drawLine(area.bottomLeft(), area.topLeft());

    // A step at every point, held up to the selected event.
    painter.setRenderHint(QPainter::Antialiasing);
    QPainterPath steps(position_of(points_.front()));
    for (std::size_t i = 1; i < points_.size(); ++i) {
        const QPointF at = position_of(points_[i]);
        steps.lineTo(at.x(), steps.currentPosition().y());
        steps.lineTo(at);
    }
    steps.lineTo(position_of(PoolSize{selected_event_, points_.back().tiles}));
    painter.setPen(QPen(kLine, 2));
    painter.drawPath(steps);
    painter.setBrush(kLine);
    for (const PoolSize& point : points_) {
        painter.drawEllipse(position_of(point), kPointRadius, kPointRadius);
    }
    const double x = position_of(PoolSize{selected_event_, 0}).x();
    painter.setPen(QPen(palette().highlight().color(), 1, Qt::DashLine));
    painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
}

bool PoolSizePlot::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    const auto* help = static_cast<QHelpEvent*>(event);
    for (const PoolSize& point : points_) {
        const QPointF distance = position_of(point) - QPointF(help->pos());
        if (distance.manhattanLength() <= kHoverDistance) {
            QToolTip::showText(
                help->globalPos(),
                QStringLiteral("event %1: %2 tiles").arg(point.event).arg(point.tiles), this);
            return true;
        }
    }
    QToolTip::hideText();
    return true;
}

}  // namespace d3dcap::viewer
