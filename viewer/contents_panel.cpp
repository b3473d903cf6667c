#include "viewer/contents_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <optional>

#include "viewer/contents_service.h"
#include "viewer/contents_view.h"
#include "viewer/tile_map_model.h"

namespace d3dcap::viewer {

namespace {

constexpr const char* kChannelNames[4] = {"R", "G", "B", "A"};

// The subresource and depth slice of the tile map's selection: the packed
// entry shows the first packed mip, a 3D texture's slice of tiles its first
// depth slice of texels.
struct Selection {
    std::uint64_t event = 0, resource = 0;
    std::uint32_t subresource = 0, z = 0;
};

std::optional<Selection> selection_of(const TileMapModel& tiles) {
    const auto snapshot = tiles.snapshot();
    if (!snapshot || tiles.resource() == 0) return std::nullopt;
    const tiles::ResourceTiling* tiling = snapshot->after.tiling(tiles.resource());
    if (!tiling) return std::nullopt;
    Selection selection{snapshot->event, tiles.resource()};
    const std::uint32_t mip = std::min(tiles.mip(), tiling->mip_levels - 1);
    if (tiling->shape.DepthInTexels > 1) {
        selection.subresource = mip;
        selection.z = tiles.slice() * tiling->shape.DepthInTexels;
    } else {
        selection.subresource = mip + tiles.slice() * tiling->mip_levels;
    }
    return selection;
}

}  // namespace

ContentsPanel::ContentsPanel(TileMapModel* tiles, QWidget* parent)
    : QWidget(parent), tiles_(tiles) {
    view_ = new ContentsView(tiles_);  // first: the controls below set its display
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* controls = new QHBoxLayout;
    device_box_ = new QComboBox;
    device_box_->addItems(ContentsService::device_names());
    device_box_->setToolTip(QStringLiteral(
        "The device the trace is replayed on to find the contents: auto (a GPU with sparse "
        "residency, else the CPU Vulkan device, else the reference device), hardware, warp "
        "(lavapipe) or reference (exact data, draws not executed)"));
    controls->addWidget(new QLabel(QStringLiteral("Device")));
    controls->addWidget(device_box_);
    for (int c = 0; c < 4; ++c) {
        channel_boxes_[c] = new QCheckBox(QString::fromLatin1(kChannelNames[c]));
        channel_boxes_[c]->setChecked(c < 3);
        controls->addWidget(channel_boxes_[c]);
        connect(channel_boxes_[c], &QCheckBox::toggled, this, [this] { display_changed(); });
    }
    low_box_ = new QDoubleSpinBox;
    high_box_ = new QDoubleSpinBox;
    for (QDoubleSpinBox* box : {low_box_, high_box_}) {
        box->setDecimals(4);
        box->setRange(-1e9, 1e9);
        box->setSingleStep(0.05);
        connect(box, &QDoubleSpinBox::valueChanged, this, [this] {
            range_chosen_ = true;
            display_changed();
        });
    }
    high_box_->setValue(1);
    range_chosen_ = false;
    auto* fit_button = new QPushButton(QStringLiteral("Fit range"));
    fit_button->setToolTip(QStringLiteral("Map the range the shown channels span to black-white"));
    controls->addWidget(new QLabel(QStringLiteral("Range")));
    controls->addWidget(low_box_);
    controls->addWidget(high_box_);
    controls->addWidget(fit_button);
    controls->addStretch(1);
    layout->addLayout(controls);
    layout->addWidget(view_, 1);
    texel_ = new QLabel;
    texel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_ = new QLabel;
    layout->addWidget(texel_);
    layout->addWidget(status_);

    connect(device_box_, &QComboBox::currentTextChanged, this,
            [this](const QString& device) { set_device(device); });
    connect(fit_button, &QPushButton::clicked, this, &ContentsPanel::fit_range);
    connect(view_, &ContentsView::texel_hovered, texel_, &QLabel::setText);
    connect(view_, &ContentsView::last_change_clicked, this, &ContentsPanel::last_change_clicked);
}

ContentsPanel::~ContentsPanel() = default;

void ContentsPanel::open_trace(const QString& trace_path) {
    service_ = std::make_unique<ContentsService>(trace_path);
    service_->set_device(device_);
    connect(service_.get(), &ContentsService::ready, this, &ContentsPanel::show_contents);
    connect(service_.get(), &ContentsService::device_chosen, this,
            [this](const QString& reason) { device_box_->setToolTip(reason); });
    connect(service_.get(), &ContentsService::failed, this,
            [this](std::uint64_t event, const QString& message) {
                view_->set_message(message);
                status_->setText(QStringLiteral("After event %1: %2").arg(event).arg(message));
                emit contents_failed(event, message);
            });
    view_->set_message(QStringLiteral("No contents yet"));
}

bool ContentsPanel::busy() const {
    return pending_ || (service_ && service_->busy());
}

void ContentsPanel::follow_selection() {
    pending_ = true;
    if (isVisible()) request();
}

void ContentsPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (pending_) request();
}

void ContentsPanel::request() {
    if (!service_) return;
    pending_ = false;
    const std::optional<Selection> selection = selection_of(*tiles_);
    if (!selection) {
        view_->set_message(QStringLiteral("No resource selected"));
        return;
    }
    status_->setText(QStringLiteral("Replaying to event %1 on the %2 device...")
                         .arg(selection->event)
                         .arg(service_->device()));
    service_->request(selection->event, selection->resource, selection->subresource, selection->z);
}

void ContentsPanel::set_device(const QString& device) {
    {
        const QSignalBlocker quiet(device_box_);
        device_box_->setCurrentText(device);  // a name it does not list leaves it as it is
    }
    device_ = device;
    if (service_) service_->set_device(device);
    follow_selection();
}

void ContentsPanel::set_channels(const std::array<bool, 4>& channels) {
    for (int c = 0; c < 4; ++c) channel_boxes_[c]->setChecked(channels[c]);
}

void ContentsPanel::set_range(double low, double high) {
    low_box_->setValue(low);
    high_box_->setValue(high);
}

void ContentsPanel::fit_range() {
    const auto contents = view_->contents();
    if (!contents) return;
    double low = INFINITY, high = -INFINITY;
    for (int c = 0; c < 4; ++c) {
        if (!channel_boxes_[c]->isChecked()) continue;
        low = std::min(low, double(contents->lowest[c]));
        high = std::max(high, double(contents->highest[c]));
    }
    if (!(low <= high)) return;
    if (low == high) high = low + 1;
    set_range(low, high);
}

void ContentsPanel::display_changed() {
    ContentsDisplay display;
    for (int c = 0; c < 4; ++c) display.channels[c] = channel_boxes_[c]->isChecked();
    display.low = low_box_->value();
    display.high = high_box_->value();
    view_->set_display(display);
}

void ContentsPanel::show_contents(std::shared_ptr<const DecodedContents> contents) {
    const replay::SubresourceShape& shape = contents->contents.shape;
    status_->setText(QStringLiteral("After event %1: %2x%3%4, mip %5, slice %6, %7 bytes")
                         .arg(contents->contents.event)
                         .arg(shape.width)
                         .arg(shape.height)
                         .arg(shape.depth > 1
                                  ? QStringLiteral("x%1 (z %2)").arg(shape.depth).arg(contents->z)
                                  : QString())
                         .arg(shape.mip)
                         .arg(shape.slice)
                         .arg(contents->contents.bytes.size()));
    view_->set_contents(contents);
    // Values outside [0, 1] (floats, integers, depth) are fitted unless the
    // user chose a range.
    if (!range_chosen_ && contents->error.isEmpty() &&
        (contents->lowest[0] < 0 || contents->highest[0] > 1)) {
        fit_range();
        range_chosen_ = false;
    }
    emit contents_shown(contents->contents.event);
}

}  // namespace d3dcap::viewer
