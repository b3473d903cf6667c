// The size of a tile pool over the trace as a small step plot: a point at
// its creation and at every event that resized it, up to the selected
// event, which a vertical line marks.
#pragma once

#include <QWidget>
#include <cstdint>
#include <vector>

#include "viewer/tile_map/tile_snapshot.h"

namespace d3dcap::viewer {

class PoolSizePlot : public QWidget {
    Q_OBJECT
  public:
    explicit PoolSizePlot(QWidget* parent = nullptr);

    // points in event order; the x axis spans events [0, event_count).
    void set_sizes(std::uint64_t pool, std::vector<PoolSize> points, std::uint64_t event_count,
                   std::uint64_t selected_event);
    std::uint64_t pool() const { return pool_; }
    const std::vector<PoolSize>& points() const { return points_; }
    // Where the plot draws a point.
    QPointF position_of(const PoolSize& point) const;

  protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

  private:
    QRectF plot_area() const;
    std::uint64_t largest() const;

    std::uint64_t pool_ = 0;
    std::vector<PoolSize> points_;
    std::uint64_t event_count_ = 0;
    std::uint64_t selected_event_ = 0;
};

}  // namespace d3dcap::viewer
