#include "viewer/timing/timing_chart.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "viewer/timing/timing_model.h"

namespace d3dcap::viewer {

namespace {

constexpr double kMargin = 8, kTitle = 18, kLabels = 16;  // pixels
const QColor kCpu(90, 140, 220), kGpu(230, 150, 60);

}  // namespace

TimingChart::TimingChart(TimingModel* model, QString title, QWidget* parent)
    : QWidget(parent), model_(model), title_(std::move(title)) {
    setMinimumSize(200, 120);
    setMouseTracking(true);
    connect(model_, &QAbstractItemModel::modelReset, this, [this] {
        current_ = -1;
        update();
    });
}

void TimingChart::set_title(QString title) {
    title_ = std::move(title);
    update();
}

void TimingChart::set_current(int row) {
    current_ = row;
    update();
}

QRectF TimingChart::chart_area() const {
    return QRectF(kMargin, kMargin + kTitle, width() - 2 * kMargin,
                  height() - 2 * kMargin - kTitle - kLabels);
}

QRectF TimingChart::bar_rect(int row) const {
    const QRectF area = chart_area();
    const double slot = area.width() / std::max(1, model_->rowCount());
    return QRectF(area.left() + slot * row, area.top(), slot, area.height());
}

int TimingChart::bar_at(QPointF position) const {
    const int rows = model_->rowCount();
    const QRectF area = chart_area();
    if (rows == 0 || !area.adjusted(0, 0, 0, kLabels).contains(position)) return -1;
    const int row = int((position.x() - area.left()) / (area.width() / rows));
    return std::clamp(row, 0, rows - 1);
}

void TimingChart::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    painter.setPen(palette().text().color());
    painter.drawText(QRectF(kMargin, kMargin, width() - 2 * kMargin, kTitle),
                     Qt::AlignLeft | Qt::AlignVCenter, title_);
    const auto& bars = model_->bars();
    if (bars.empty()) {
        painter.drawText(rect(), Qt::AlignCenter, QStringLiteral("No times"));
        return;
    }
    std::uint64_t most = 1;
    for (const TimingModel::Bar& bar : bars) most = std::max({most, bar.cpu_ns, bar.gpu_ns});
    const QRectF area = chart_area();
    const auto column = [&](QRectF slot, double left, std::uint64_t nanoseconds) {
        const double height = area.height() * double(nanoseconds) / double(most);
        return QRectF(slot.left() + slot.width() * left, area.bottom() - height, slot.width() * 0.4,
                      height);
    };
    for (int row = 0; row < int(bars.size()); ++row) {
        const QRectF slot = bar_rect(row);
        if (row == current_) painter.fillRect(slot, palette().alternateBase());
        const TimingModel::Bar& bar = bars[std::size_t(row)];
        painter.fillRect(column(slot, 0.1, bar.cpu_ns), kCpu);
        painter.fillRect(column(slot, 0.5, bar.gpu_ns), kGpu);
        const QRectF label(slot.left(), area.bottom(), slot.width(), kLabels);
        const QString text = painter.fontMetrics().elidedText(
            QString(bar.depth * 2, QChar(' ')) + bar.label, Qt::ElideRight, int(label.width()));
        if (text.size() > 2) painter.drawText(label, Qt::AlignHCenter | Qt::AlignVCenter, text);
    }
    painter.setPen(palette().mid().color());
    painter.drawLine(area.bottomLeft(), area.bottomRight());
    painter.setPen(palette().text().color());
    painter.drawText(
        QRectF(kMargin, kMargin, width() - 2 * kMargin, kTitle), Qt::AlignRight | Qt::AlignVCenter,
        QStringLiteral("CPU / GPU, at most %1 us").arg(double(most) / 1000.0, 0, 'f', 1));
}

void TimingChart::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    const int row = bar_at(event->position());
    if (row < 0) return;
    set_current(row);
    emit bar_clicked(row);
}

bool TimingChart::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    const auto* help = static_cast<QHelpEvent*>(event);
    const int row = bar_at(help->pos());
    if (row < 0) {
        QToolTip::hideText();
        return true;
    }
    const QString label = model_->data(model_->index(row, TimingModel::LabelColumn)).toString();
    QToolTip::showText(
        help->globalPos(),
        QStringLiteral("%1: CPU %2 us, GPU %3 us")
            .arg(label, model_->data(model_->index(row, TimingModel::CpuColumn)).toString(),
                 model_->data(model_->index(row, TimingModel::GpuColumn)).toString()),
        this);
    return true;
}

}  // namespace d3dcap::viewer
