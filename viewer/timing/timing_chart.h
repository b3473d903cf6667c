// A TimingModel as a bar chart: per bar a CPU and a GPU column on one scale,
// the label under them where it fits, the current bar highlighted. Clicking
// a bar reports its row.
#pragma once

#include <QRectF>
#include <QWidget>

namespace d3dcap::viewer {

class TimingModel;

class TimingChart : public QWidget {
    Q_OBJECT
  public:
    TimingChart(TimingModel* model, QString title, QWidget* parent = nullptr);

    void set_title(QString title);
    void set_current(int row);
    int current() const { return current_; }
    // The area of row's two columns (its click target).
    QRectF bar_rect(int row) const;

  signals:
    void bar_clicked(int row);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

  private:
    QRectF chart_area() const;
    int bar_at(QPointF position) const;

    TimingModel* model_;
    QString title_;
    int current_ = -1;
};

}  // namespace d3dcap::viewer
