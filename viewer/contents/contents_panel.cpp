#include "viewer/contents/contents_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "replay/engine/contents_files.h"
#include "viewer/contents/buffer_rows_model.h"
#include "viewer/contents/contents_service.h"
#include "viewer/contents/contents_view.h"
#include "viewer/tile_map/state_worker.h"
#include "viewer/tile_map/tile_map_model.h"

namespace d3dcap::viewer {

namespace {

constexpr const char* kChannelNames[4] = {"R", "G", "B", "A"};

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
    auto* chosen = new QHBoxLayout;
    resource_box_ = new QComboBox;
    resource_box_->setMinimumContentsLength(24);
    resource_box_->addItem(QStringLiteral("What the event draws into"),
                           QVariant::fromValue<qulonglong>(replay::ContentsRequest::kEventOutput));
    resource_box_->addItem(QStringLiteral("The tile map's resource"),
                           QVariant::fromValue<qulonglong>(0));
    resource_box_->setToolTip(QStringLiteral(
        "What the selected event draws into (a Present: the back buffer; else the first render "
        "target bound), any texture or buffer the replay holds after the event, or the one the "
        "tile map shows"));
    mip_box_ = new QSpinBox;
    slice_box_ = new QSpinBox;
    chosen->addWidget(new QLabel(QStringLiteral("Show")));
    chosen->addWidget(resource_box_, 1);
    chosen->addWidget(new QLabel(QStringLiteral("Mip")));
    chosen->addWidget(mip_box_);
    chosen->addWidget(new QLabel(QStringLiteral("Slice")));
    chosen->addWidget(slice_box_);
    element_box_ = new QComboBox;
    element_box_->addItems(BufferRowsModel::element_names());
    element_box_->setToolTip(QStringLiteral("How a buffer's 32-bit words are shown"));
    chosen->addWidget(new QLabel(QStringLiteral("Buffer words")));
    chosen->addWidget(element_box_);
    layout->addLayout(chosen);
    own_resource_chosen();
    rows_ = new BufferRowsModel(this);
    rows_view_ = new QTableView;
    rows_view_->setModel(rows_);
    rows_view_->verticalHeader()->hide();
    rows_view_->verticalHeader()->setDefaultSectionSize(rows_view_->fontMetrics().height() + 4);
    rows_view_->hide();
    pipeline_ = new QTreeWidget;
    pipeline_->setHeaderLabels({QStringLiteral("Pipeline"), QStringLiteral("State")});
    pipeline_->setUniformRowHeights(true);
    auto* shown = new QWidget;
    auto* shown_layout = new QVBoxLayout(shown);
    shown_layout->setContentsMargins(0, 0, 0, 0);
    shown_layout->addWidget(view_, 1);
    shown_layout->addWidget(rows_view_, 1);
    auto* split = new QSplitter;
    split->addWidget(shown);
    split->addWidget(pipeline_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    texel_ = new QLabel;
    texel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_ = new QLabel;
    layout->addWidget(texel_);
    layout->addWidget(status_);

    connect(device_box_, &QComboBox::currentTextChanged, this,
            [this](const QString& device) { set_device(device); });
    connect(fit_button, &QPushButton::clicked, this, &ContentsPanel::fit_range);
    connect(element_box_, &QComboBox::currentIndexChanged, this, [this](int index) {
        rows_->set_element(static_cast<BufferRowsModel::Element>(index));
    });
    connect(resource_box_, &QComboBox::currentIndexChanged, this,
            [this] { own_resource_chosen(); });
    for (QSpinBox* box : {mip_box_, slice_box_})
        connect(box, &QSpinBox::valueChanged, this, [this] { follow_selection(); });
    connect(view_, &ContentsView::texel_hovered, texel_, &QLabel::setText);
    connect(view_, &ContentsView::detail_wanted, this, [this] {
        if (isVisible() && !pending_) request();
    });
    connect(view_, &ContentsView::last_change_clicked, this, &ContentsPanel::last_change_clicked);
}

ContentsPanel::~ContentsPanel() = default;

void ContentsPanel::open_trace(const QString& trace_path) {
    service_ = std::make_unique<ContentsService>(trace_path);
    service_->set_device(device_);
    connect(service_.get(), &ContentsService::ready, this, &ContentsPanel::show_contents);
    connect(service_.get(), &ContentsService::resources_found, this,
            &ContentsPanel::list_resources);
    connect(service_.get(), &ContentsService::pipeline_found, this,
            [this](std::uint64_t, std::shared_ptr<const std::vector<replay::StateRow>> rows) {
                show_pipeline(std::move(rows));
            });
    connect(service_.get(), &ContentsService::device_chosen, this,
            [this](const QString& reason) { device_box_->setToolTip(reason); });
    connect(service_.get(), &ContentsService::failed, this,
            [this](std::uint64_t event, const QString& message) {
                view_->set_message(message);
                view_->show();
                rows_view_->hide();
                status_->setText(QStringLiteral("After event %1: %2").arg(event).arg(message));
                if (!export_path_.isEmpty()) {
                    emit texels_exported(std::exchange(export_path_, QString()), message);
                }
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

const replay::ListedResource* ContentsPanel::listing_of(std::uint64_t id) const {
    if (!listed_) return nullptr;
    for (const replay::ListedResource& listed : *listed_)
        if (listed.id == id) return &listed;
    return nullptr;
}

std::optional<ContentsPanel::Selection> ContentsPanel::selection() const {
    const auto snapshot = tiles_->snapshot();
    if (!snapshot) return std::nullopt;
    Selection selection{snapshot->event, resource_box_->currentData().toULongLong()};
    if (selection.resource == replay::ContentsRequest::kEventOutput) return selection;
    if (selection.resource != 0) {
        // A resource of the list: the mip and slice chosen here.
        const auto mip = static_cast<std::uint32_t>(mip_box_->value());
        const auto slice = static_cast<std::uint32_t>(slice_box_->value());
        const replay::ListedResource* listed = listing_of(selection.resource);
        const bool volume = listed && listed->shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D;
        const std::uint32_t mips = listed ? listed->shape.mip_levels : 1;
        selection.subresource = volume ? mip : mip + slice * mips;
        selection.z = volume ? slice : 0;
        return selection;
    }
    // The tile map's: its packed entry shows the first packed mip, a 3D
    // texture's slice of tiles its first depth slice of texels.
    selection.resource = tiles_->resource();
    const runtime::tiles::ResourceTiling* tiling = snapshot->after.tiling(selection.resource);
    if (!tiling) {
        selection.resource = 0;  // nothing to show: the list of resources still comes
        return selection;
    }
    const std::uint32_t mip = std::min(tiles_->mip(), tiling->mip_levels - 1);
    if (tiling->shape.DepthInTexels > 1) {
        selection.subresource = mip;
        selection.z = tiles_->slice() * tiling->shape.DepthInTexels;
    } else {
        selection.subresource = mip + tiles_->slice() * tiling->mip_levels;
    }
    return selection;
}

void ContentsPanel::request() {
    if (!service_) return;
    pending_ = false;
    const std::optional<Selection> chosen = selection();
    if (!chosen) {
        view_->set_message(QStringLiteral("No event selected"));
        return;
    }
    status_->setText(QStringLiteral("Replaying to event %1 on the %2 device...")
                         .arg(chosen->event)
                         .arg(service_->device()));
    // The texels the view shows: a window of them, seen at its zoom.
    const DecodedContents* shown = view_->contents().get();
    const bool same = shown && shown->contents.resource == chosen->resource &&
                      shown->contents.subresource == chosen->subresource;
    std::uint32_t texels_wide = 0, texels_high = 0;
    if (const replay::ListedResource* listed = listing_of(chosen->resource)) {
        const UINT mip = chosen->subresource % std::max<UINT>(1, listed->shape.mip_levels);
        texels_wide = std::max<UINT>(1, listed->shape.width >> mip);
        texels_high = std::max<UINT>(1, listed->shape.height >> mip);
    }
    const replay::ContentsRequest asked{chosen->resource, chosen->subresource,
                                        view_->wanted_window(texels_wide, texels_high, same)};
    service_->request(chosen->event, asked, chosen->z);
}

void ContentsPanel::list_resources(
    std::uint64_t, std::shared_ptr<const std::vector<replay::ListedResource>> list) {
    listed_ = std::move(list);
    const QSignalBlocker quiet(resource_box_);
    const QVariant current = resource_box_->currentData();
    while (resource_box_->count() > kFixedChoices) resource_box_->removeItem(kFixedChoices);
    for (const replay::ListedResource& listed : *listed_)
        resource_box_->addItem(
            object_label(listed.id, replay::describe(listed.shape), listed.debug_name),
            QVariant::fromValue<qulonglong>(listed.id));
    resource_box_->setCurrentIndex(std::max(0, resource_box_->findData(current)));
    own_resource_chosen();
}

void ContentsPanel::own_resource_chosen() {
    const replay::ListedResource* listed = listing_of(resource_box_->currentData().toULongLong());
    const QSignalBlocker quiet_mip(mip_box_), quiet_slice(slice_box_);
    mip_box_->setEnabled(listed != nullptr);
    slice_box_->setEnabled(listed != nullptr);
    if (listed) {
        const bool volume = listed->shape.dimension == D3D11_RESOURCE_DIMENSION_TEXTURE3D;
        mip_box_->setRange(0, int(listed->shape.mip_levels) - 1);
        slice_box_->setRange(0, int(volume ? listed->shape.depth : listed->shape.array_size) - 1);
    }
    if (sender() == resource_box_) follow_selection();
}

void ContentsPanel::follow_output(bool output) {
    {
        const QSignalBlocker quiet(resource_box_);
        resource_box_->setCurrentIndex(output ? 0 : 1);
    }
    own_resource_chosen();
    follow_selection();
}

bool ContentsPanel::follows_output() const {
    return resource_box_->currentIndex() == 0;
}

bool ContentsPanel::select_resource(std::uint64_t id, std::uint32_t mip, std::uint32_t slice) {
    const int index = resource_box_->findData(QVariant::fromValue<qulonglong>(id));
    if (index < 0) return false;
    {
        const QSignalBlocker quiet(resource_box_);
        resource_box_->setCurrentIndex(index);
    }
    own_resource_chosen();
    {
        const QSignalBlocker quiet_mip(mip_box_), quiet_slice(slice_box_);
        mip_box_->setValue(int(mip));
        slice_box_->setValue(int(slice));
    }
    follow_selection();
    return true;
}

void ContentsPanel::show_pipeline(std::shared_ptr<const std::vector<replay::StateRow>> rows) {
    // Sections open as they were; the shaders' disassembly closed at first.
    std::vector<QString> open;
    for (int i = 0; i < pipeline_->topLevelItemCount(); ++i)
        if (pipeline_->topLevelItem(i)->isExpanded())
            open.push_back(pipeline_->topLevelItem(i)->text(0));
    const bool first = pipeline_->topLevelItemCount() == 0;
    pipeline_->clear();
    QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    std::vector<QTreeWidgetItem*> parents;
    for (const replay::StateRow& row : *rows) {
        const std::size_t depth = std::min<std::size_t>(row.depth, parents.size());
        parents.resize(depth);
        auto* item =
            depth == 0 ? new QTreeWidgetItem(pipeline_) : new QTreeWidgetItem(parents.back());
        item->setText(0, QString::fromStdString(row.name));
        item->setText(1, QString::fromStdString(row.value));
        item->setToolTip(1, item->text(1));
        if (depth == 3) item->setFont(1, fixed);  // disassembly lines
        parents.push_back(item);
    }
    for (int i = 0; i < pipeline_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* section = pipeline_->topLevelItem(i);
        const bool bound = section->text(1) != QStringLiteral("none");
        section->setExpanded(
            first ? bound : std::find(open.begin(), open.end(), section->text(0)) != open.end());
    }
    pipeline_->resizeColumnToContents(0);
}

std::vector<std::uint64_t> ContentsPanel::listed_resources() const {
    std::vector<std::uint64_t> ids;
    if (listed_) {
        for (const replay::ListedResource& listed : *listed_) ids.push_back(listed.id);
    }
    return ids;
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
    {
        // One picture for both ends, not one each.
        const QSignalBlocker quiet_low(low_box_), quiet_high(high_box_);
        low_box_->setValue(low);
        high_box_->setValue(high);
    }
    range_chosen_ = true;
    display_changed();
}

void ContentsPanel::fit_range() {
    const auto contents = view_->contents();
    if (!contents) return;
    const ChannelRange range = channel_range(*contents);
    double low = INFINITY, high = -INFINITY;
    for (int c = 0; c < 4; ++c) {
        if (!channel_boxes_[c]->isChecked()) continue;
        low = std::min(low, double(range.lowest[c]));
        high = std::max(high, double(range.highest[c]));
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

void ContentsPanel::export_texels(const QString& path) {
    if (!replay::is_contents_file_name(path.toStdString())) {
        emit texels_exported(path, QStringLiteral("the name must end in .png, .dds or .raw"));
        return;
    }
    export_path_ = path;
    request_whole();
}

void ContentsPanel::request_whole() {
    const std::optional<Selection> chosen = selection();
    if (!service_ || !chosen || chosen->resource == 0) {
        emit texels_exported(std::exchange(export_path_, QString()),
                             QStringLiteral("no resource is shown"));
        return;
    }
    service_->request(chosen->event, {chosen->resource, chosen->subresource, {}}, chosen->z);
}

void ContentsPanel::finish_export(const DecodedContents& decoded) {
    const replay::ResourceContents& contents = decoded.contents;
    const replay::TexelWindow& window = contents.window;
    const bool whole =
        contents.shape.buffer ||
        (window.x == 0 && window.y == 0 && window.step == 1 &&
         window.width >= contents.shape.width && window.height >= contents.shape.height);
    if (!whole) {
        request_whole();  // a newer request for the view came first
        return;
    }
    std::string error;
    replay::write_contents_file(export_path_.toStdString(), contents, error);
    emit texels_exported(std::exchange(export_path_, QString()), QString::fromStdString(error));
}

void ContentsPanel::show_contents(std::shared_ptr<const DecodedContents> contents) {
    const replay::SubresourceShape& shape = contents->contents.shape;
    status_->setText(QStringLiteral("After event %1: #%8 %2x%3%4, mip %5, slice %6, %7 bytes")
                         .arg(contents->contents.event)
                         .arg(shape.width)
                         .arg(shape.height)
                         .arg(shape.depth > 1
                                  ? QStringLiteral("x%1 (z %2)").arg(shape.depth).arg(contents->z)
                                  : QString())
                         .arg(shape.mip)
                         .arg(shape.slice)
                         .arg(contents->contents.bytes.size())
                         .arg(contents->contents.resource));
    view_->set_contents(contents);
    rows_->set_contents(contents);
    const bool buffer = contents->contents.shape.buffer;
    view_->setVisible(!buffer);
    rows_view_->setVisible(buffer);
    // Values outside [0, 1] (floats, integers, depth) are fitted unless the
    // user chose a range.
    if (!range_chosen_ && contents->error.isEmpty() && contents->range &&
        (contents->range->lowest[0] < 0 || contents->range->highest[0] > 1)) {
        fit_range();
        range_chosen_ = false;
    }
    if (!export_path_.isEmpty()) finish_export(*contents);
    emit contents_shown(contents->contents.event);
}

}  // namespace d3dcap::viewer
