// Wheel zoom about the cursor and drag to pan, as the tile map and the
// contents view share them: a press that moves less than a few pixels is
// a click, not a drag.
#pragma once

#include <QPoint>
#include <QPointF>
#include <algorithm>
#include <cmath>
#include <optional>

namespace d3dcap::viewer {

// Scales scale (pixels per unit) by a wheel turn, within [min, max],
// moving origin (where unit 0 is drawn) so that the point at stays put.
inline void zoom_about(QPointF at, int wheel_delta, double min, double max, double& scale,
                       QPointF& origin) {
    const double next = std::clamp(scale * std::pow(1.0015, wheel_delta), min, max);
    origin = at - (at - origin) * (next / scale);
    scale = next;
}

class DragPan {
  public:
    void press(QPointF at) {
        from_ = at.toPoint();
        dragged_ = false;
    }
    // How far the view moves for the pointer at at; none while it is no drag.
    std::optional<QPointF> move(QPointF at) {
        if (!from_) return std::nullopt;
        const QPoint now = at.toPoint();
        // A hand that shakes a little still clicks.
        if (!dragged_ && (now - *from_).manhattanLength() < kClickSlop) return std::nullopt;
        dragged_ = true;
        const QPointF by(now - *from_);
        from_ = now;
        return by;
    }
    // Whether the press that ends was a click.
    bool release() {
        const bool click = from_ && !dragged_;
        from_.reset();
        return click;
    }

  private:
    static constexpr int kClickSlop = 4;  // pixels
    std::optional<QPoint> from_;
    bool dragged_ = false;
};

}  // namespace d3dcap::viewer
