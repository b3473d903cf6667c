#include "viewer/main_window.h"

#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

#include "replay/state/tile_timeline.h"
#include "viewer/common/latest_job_runner.h"
#include "viewer/contents/contents_panel.h"
#include "viewer/contents/contents_view.h"
#include "viewer/events/event_tree_model.h"
#include "viewer/events/parameters_view.h"
#include "viewer/tile_map/state_worker.h"
#include "viewer/tile_map/tile_map_model.h"
#include "viewer/tile_map/tile_map_view.h"
#include "viewer/tile_pool/pool_model.h"
#include "viewer/tile_pool/pool_size_plot.h"
#include "viewer/timing/timing_chart.h"
#include "viewer/timing/timing_model.h"

namespace d3dcap::viewer {

namespace {

// The time columns: a bar of the row's share of its parent's time behind
// the number.
class TimeBarDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override {
        const QVariant share = index.data(EventTreeModel::ShareRole);
        if (share.isValid()) {
            QRectF bar = option.rect.adjusted(1, 2, -1, -2);
            bar.setWidth(bar.width() * std::clamp(share.toDouble(), 0.0, 1.0));
            painter->fillRect(bar, QColor(90, 140, 220, 110));
        }
        QStyledItemDelegate::paint(painter, option, index);
    }
};

// A filter that shows this many rows or fewer opens every node.
constexpr int kExpandAllRows = 5000;

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setAcceptDrops(true);
    setWindowTitle(QStringLiteral("d3dcap viewer"));
    build_ui();
}

MainWindow::~MainWindow() {
    // The view goes before the model and the reader it reads.
    tree_->setModel(nullptr);
}

void MainWindow::build_ui() {
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    file->addAction(QStringLiteral("&Open..."), QKeySequence::Open, this, &MainWindow::open_dialog);
    file->addAction(QStringLiteral("Load replay &report..."), this, &MainWindow::report_dialog);
    file->addAction(QStringLiteral("&Export..."), this, &MainWindow::export_dialog);
    file->addAction(QStringLiteral("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    // Left: the events.
    auto* left = new QWidget;
    auto* left_layout = new QVBoxLayout(left);
    auto* tools = new QHBoxLayout;
    filter_edit_ = new QLineEdit;
    filter_edit_->setPlaceholderText(QStringLiteral("Filter by call or marker"));
    jump_edit_ = new QLineEdit;
    jump_edit_->setPlaceholderText(QStringLiteral("Event"));
    jump_edit_->setMaximumWidth(90);
    auto* previous = new QPushButton(QStringLiteral("< Tile call"));
    auto* next = new QPushButton(QStringLiteral("Tile call >"));
    auto* previous_draw = new QPushButton(QStringLiteral("< Draw"));
    auto* next_draw = new QPushButton(QStringLiteral("Draw >"));
    previous_draw->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
    next_draw->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));
    previous_draw->setToolTip(QStringLiteral("The previous draw or dispatch (Alt+Left)"));
    next_draw->setToolTip(QStringLiteral("The next draw or dispatch (Alt+Right)"));
    tools->addWidget(filter_edit_, 1);
    tools->addWidget(jump_edit_);
    left_layout->addLayout(tools);
    auto* steps = new QHBoxLayout;  // a row of their own: the filter keeps its width
    for (QPushButton* button : {previous_draw, next_draw, previous, next}) steps->addWidget(button);
    left_layout->addLayout(steps);
    tree_ = new QTreeView;
    tree_->setUniformRowHeights(true);  // needed for a million rows
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    auto* bars = new TimeBarDelegate(tree_);
    tree_->setItemDelegateForColumn(EventTreeModel::CpuColumn, bars);
    tree_->setItemDelegateForColumn(EventTreeModel::GpuColumn, bars);
    parameters_ = new ParametersView;
    auto* events_and_parameters = new QSplitter(Qt::Vertical);
    events_and_parameters->addWidget(tree_);
    events_and_parameters->addWidget(parameters_);
    events_and_parameters->setStretchFactor(0, 3);
    events_and_parameters->setStretchFactor(1, 1);
    left_layout->addWidget(events_and_parameters);

    // Right: the tile map.
    auto* right = new QWidget;
    auto* right_layout = new QVBoxLayout(right);
    auto* selectors = new QHBoxLayout;
    resource_box_ = new QComboBox;
    resource_box_->setMinimumContentsLength(16);
    mip_box_ = new QComboBox;
    slice_box_ = new QSpinBox;
    selectors->addWidget(new QLabel(QStringLiteral("Resource")));
    selectors->addWidget(resource_box_, 1);
    selectors->addWidget(new QLabel(QStringLiteral("Mip")));
    selectors->addWidget(mip_box_);
    selectors->addWidget(new QLabel(QStringLiteral("Slice")));
    selectors->addWidget(slice_box_);
    right_layout->addLayout(selectors);
    tiles_ = new TileMapModel(this);
    map_view_ = new TileMapView(tiles_);
    pool_ = new PoolModel(this);
    auto* pool_view = new QTableView;
    pool_view->setModel(pool_);
    pool_view->horizontalHeader()->setStretchLastSection(true);
    pool_view->verticalHeader()->hide();
    pool_plot_ = new PoolSizePlot;
    auto* pool_tab = new QSplitter;
    pool_tab->addWidget(pool_view);
    pool_tab->addWidget(pool_plot_);
    pool_tab->setStretchFactor(0, 3);
    pool_tab->setStretchFactor(1, 2);
    frame_timing_ = new TimingModel(this);
    region_timing_ = new TimingModel(this);
    frame_chart_ = new TimingChart(frame_timing_, QStringLiteral("Frames"));
    region_chart_ = new TimingChart(region_timing_, QStringLiteral("Marker regions"));
    auto* timing = new QSplitter(Qt::Vertical);
    timing->addWidget(frame_chart_);
    timing->addWidget(region_chart_);
    timing_tab_ = timing;
    tabs_ = new QTabWidget;
    auto* map_tab = new QWidget;
    auto* map_layout = new QVBoxLayout(map_tab);
    map_layout->setContentsMargins(0, 0, 0, 0);
    map_layout->setSpacing(0);
    map_layout->addWidget(map_view_, 1);
    map_layout->addWidget(new TileMapLegend);
    tabs_->addTab(map_tab, QStringLiteral("Tile map"));
    contents_ = new ContentsPanel(tiles_);
    tabs_->addTab(contents_, QStringLiteral("Contents"));
    tabs_->addTab(pool_tab, QStringLiteral("Tile pool"));
    tabs_->addTab(timing_tab_, QStringLiteral("Timing"));
    tabs_->setTabEnabled(tabs_->indexOf(timing_tab_), false);
    right_layout->addWidget(tabs_, 1);
    status_ = new QLabel(QStringLiteral("Open a trace (File > Open, or drop it here)"));
    right_layout->addWidget(status_);

    auto* splitter = new QSplitter;
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 1);
    setCentralWidget(splitter);
    resize(1280, 800);

    connect(filter_edit_, &QLineEdit::textChanged, this, &MainWindow::set_filter);
    connect(map_view_, &TileMapView::last_change_clicked, this, &MainWindow::select_event);
    connect(contents_, &ContentsPanel::last_change_clicked, this, &MainWindow::select_event);
    connect(contents_, &ContentsPanel::texels_exported, this,
            [this](const QString& path, const QString& error) {
                status_->setText(error.isEmpty() ? QStringLiteral("Wrote %1").arg(path)
                                                 : QStringLiteral("%1: %2").arg(path, error));
            });
    // The map and the contents zoom and pan together.
    connect(map_view_, &TileMapView::view_moved, contents_->view(), &ContentsView::set_view);
    connect(contents_->view(), &ContentsView::view_moved, map_view_, &TileMapView::set_view);
    connect(frame_chart_, &TimingChart::bar_clicked, this,
            [this](int row) { select_node(frame_timing_->bars()[std::size_t(row)].node); });
    connect(region_chart_, &TimingChart::bar_clicked, this,
            [this](int row) { select_node(region_timing_->bars()[std::size_t(row)].node); });
    connect(jump_edit_, &QLineEdit::returnPressed, this, [this] {
        bool ok = false;
        const qulonglong event = jump_edit_->text().toULongLong(&ok);
        if (ok && event < event_count()) select_event(event);
    });
    connect(previous, &QPushButton::clicked, this, [this] { step_to_call(false, false); });
    connect(next, &QPushButton::clicked, this, [this] { step_to_call(false, true); });
    connect(previous_draw, &QPushButton::clicked, this, [this] { step_to_call(true, false); });
    connect(next_draw, &QPushButton::clicked, this, [this] { step_to_call(true, true); });
    connect(resource_box_, &QComboBox::currentIndexChanged, this, [this] { resource_chosen(); });
    connect(mip_box_, &QComboBox::currentIndexChanged, this, [this] { resource_chosen(); });
    connect(slice_box_, &QSpinBox::valueChanged, this, [this] { resource_chosen(); });
}

bool MainWindow::open_trace(const QString& path, QString* error) {
    auto reader = trace::TraceReader::open(path.toStdString());
    if (!reader.ok()) {
        if (error) *error = QString::fromStdString(reader.error().to_string());
        return false;
    }
    auto timeline = state::TileTimeline::open(path.toStdString());
    if (!timeline.ok()) {
        if (error) *error = QString::fromStdString(timeline.error().to_string());
        return false;
    }
    // The history and the filter read the trace on their threads.
    auto history_reader = trace::TraceReader::open(path.toStdString());
    auto filter_reader = trace::TraceReader::open(path.toStdString());
    for (const auto* other : {&history_reader, &filter_reader}) {
        if (!other->ok()) {
            if (error) *error = QString::fromStdString(other->error().to_string());
            return false;
        }
    }
    QItemSelectionModel* old_selection = tree_->selectionModel();
    tree_->setModel(nullptr);
    delete old_selection;  // the view leaves it to us
    delete service_;
    delete filter_runner_;  // no filter of the old trace reaches the new tree
    frame_timing_->clear();
    region_timing_->clear();
    tabs_->setTabEnabled(tabs_->indexOf(timing_tab_), false);
    events_ = std::make_unique<EventTreeModel>(*reader.value());
    connect(events_.get(), &EventTreeModel::report_loaded, this, &MainWindow::show_timing);
    reader_ = std::move(reader.value());
    filter_reader_ = std::move(filter_reader.value());
    filter_runner_ = new LatestJobRunner(this);
    service_ =
        new StateService(std::move(timeline.value()),
                         std::make_unique<TileHistory>(std::move(history_reader.value())), this);
    connect(service_, &StateService::ready, this, &MainWindow::show_snapshot);
    connect(service_, &StateService::history_ready, this, &MainWindow::show_history);
    connect(service_, &StateService::failed, this, [this](std::uint64_t event, const QString& m) {
        status_->setText(QStringLiteral("Event %1: %2").arg(event).arg(m));
        emit state_failed(event, m);
    });
    contents_->open_trace(path);
    tree_->setModel(events_.get());
    tree_->header()->setSectionResizeMode(QHeaderView::Interactive);
    tree_->expandToDepth(0);
    fit_columns();
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid()) return;
                const auto event = current.data(EventTreeModel::EventRole).toULongLong();
                if (!selected_ || *selected_ != event) select_event(event);
            });
    selected_.reset();
    tiles_->set_snapshot(nullptr);
    pool_->set_pool_of(nullptr, 0);
    pool_plot_->set_sizes(0, {}, 0, 0);
    if (!filter_edit_->text().isEmpty()) set_filter(filter_edit_->text());
    setWindowTitle(QStringLiteral("%1 - d3dcap viewer").arg(path));
    status_->setText(QStringLiteral("%1 events").arg(event_count()));
    // A trace without tiled resources opens on its first frame as drawn.
    contents_->follow_output(!has_tiled_resources());
    if (!has_tiled_resources()) show_contents_tab();
    if (event_count() > 0) select_event(opening_event());
    return true;
}

bool MainWindow::has_tiled_resources() const {
    const auto* tilings = reader_ ? reader_->index().tilings() : nullptr;
    return tilings && tilings->size() > 0;
}

std::uint64_t MainWindow::opening_event() const {
    if (has_tiled_resources() || event_count() == 0) return 0;
    const auto* frames = reader_->index().frame_first_events();
    // The first frame's last event (its Present), or, in a trace of one
    // frame, the last.
    if (frames && frames->size() >= 2 && frames->Get(1) > 0) return frames->Get(1) - 1;
    return event_count() - 1;
}

std::uint64_t MainWindow::event_count() const {
    return reader_ ? reader_->event_count() : 0;
}

void MainWindow::select_event(std::uint64_t event) {
    if (!service_ || event >= event_count()) return;
    selected_ = event;
    select_row_of(event);
    parameters_->show_record(*reader_, event);
    show_regions_of(event);
    request_state(event);
}

void MainWindow::request_state(std::uint64_t event) {
    status_->setText(QStringLiteral("Event %1: building the tile state...").arg(event));
    service_->request(event, tiles_->resource());
}

bool MainWindow::busy() const {
    return (service_ && service_->busy()) || (filter_runner_ && filter_runner_->busy());
}

bool MainWindow::finding_history() const {
    return service_ && service_->finding_history();
}

void MainWindow::select_row_of(std::uint64_t event) {
    const QModelIndex row = events_->index_of_event(event);
    // A filter may hide the event: then no row is current.
    if (!row.isValid() || row.data(EventTreeModel::EventRole).toULongLong() != event) {
        tree_->selectionModel()->clearCurrentIndex();
        return;
    }
    tree_->setCurrentIndex(row);
    tree_->scrollTo(row);
}

void MainWindow::select_node(int node) {
    if (!events_ || node <= 0 || std::size_t(node) >= events_->full_outline()->nodes.size()) return;
    select_event(events_->full_outline()->nodes[std::size_t(node)].event);
    // A frame's event is also its first call's: the frame's own row then.
    const QModelIndex row = events_->index_of_node(node);
    if (!row.isValid()) return;
    tree_->setCurrentIndex(row);
    tree_->scrollTo(row);
}

void MainWindow::set_filter(const QString& text) {
    if (!events_) return;
    if (filter_edit_->text() != text) {
        const QSignalBlocker quiet(filter_edit_);
        filter_edit_->setText(text);
    }
    // An empty filter goes through the worker too, so that it supersedes
    // the filters before it.
    filter_runner_->post<std::shared_ptr<const EventOutline>>(
        [reader = filter_reader_, full = events_->full_outline(),
         text](const LatestJobRunner::StillWanted& still_wanted)
            -> std::optional<std::shared_ptr<const EventOutline>> {
            if (text.isEmpty()) return std::shared_ptr<const EventOutline>();
            auto outline = filter_outline(*full, *reader, text, [&] { return !still_wanted(); });
            if (!outline) return std::nullopt;
            return outline;
        },
        [this, text](std::shared_ptr<const EventOutline> outline) {
            show_filtered(text, std::move(outline));
        });
}

void MainWindow::show_filtered(const QString& text, std::shared_ptr<const EventOutline> outline) {
    events_->show_outline(std::move(outline));
    int rows = 0;
    for (const OutlineNode& node : events_->shown_outline().nodes) rows += node.rows;
    if (events_->filtered() && rows <= kExpandAllRows) {
        tree_->expandAll();
    } else {
        tree_->expandToDepth(0);
    }
    fit_columns();
    if (selected_) select_row_of(*selected_);
    emit filter_applied(text);
}

void MainWindow::show_timing() {
    frame_timing_->show_frames(*events_);
    tabs_->setTabEnabled(tabs_->indexOf(timing_tab_), events_->has_report());
    region_timing_->clear();
    if (selected_) show_regions_of(*selected_);
}

// The region chart follows the frame of the selected event.
void MainWindow::show_regions_of(std::uint64_t event) {
    if (!events_->has_report()) return;
    const auto& frames = frame_timing_->bars();
    const auto& nodes = events_->full_outline()->nodes;
    for (int row = 0; row < int(frames.size()); ++row) {
        const OutlineNode& frame = nodes[std::size_t(frames[std::size_t(row)].node)];
        if (event < frame.event || event >= frame.end) continue;
        frame_chart_->set_current(row);
        if (region_timing_->frame() != frames[std::size_t(row)].node) {
            region_timing_->show_regions(*events_, frames[std::size_t(row)].node);
            region_chart_->set_title(QStringLiteral("Marker regions of %1").arg(frame.label));
        }
        return;
    }
}

void MainWindow::step_to_call(bool draw, bool forward) {
    if (!events_) return;
    const std::uint64_t from = selected_.value_or(0);
    const auto step = draw ? EventTreeModel::Step::Draw : EventTreeModel::Step::TileCall;
    const auto event = forward ? events_->next(step, from) : events_->previous(step, from);
    if (event) select_event(*event);
}

// The columns as wide as the rows in view need (the time columns keep
// their width); the user may still drag them.
void MainWindow::fit_columns() {
    for (int column = 0; column < EventTreeModel::CpuColumn; ++column)
        tree_->resizeColumnToContents(column);
    // Event numbers sit under up to four levels of frames and regions, and
    // the rows measured may not be the deepest or the last.
    const int numbers =
        tree_->fontMetrics().horizontalAdvance(QString::number(events_->event_count())) + 16;
    tree_->setColumnWidth(EventTreeModel::EventColumn,
                          std::max(tree_->columnWidth(EventTreeModel::EventColumn),
                                   4 * tree_->indentation() + numbers));
}

void MainWindow::show_snapshot(std::shared_ptr<const TileSnapshot> snapshot) {
    // Objects that got a label widen their column once.
    const bool new_labels = snapshot->labels.size() != labels_shown_;
    labels_shown_ = snapshot->labels.size();
    events_->set_object_labels(snapshot->labels);
    if (new_labels) tree_->resizeColumnToContents(EventTreeModel::ObjectColumn);
    tree_->viewport()->update();
    tiles_->set_snapshot(snapshot);
    update_selectors();
    status_->setText(
        QStringLiteral("After event %1 of %2").arg(snapshot->event).arg(event_count()));
    emit state_shown(snapshot->event);
}

void MainWindow::show_history(std::shared_ptr<const SnapshotHistory> history) {
    tiles_->set_history(history);
    show_pool_sizes();
    if (!history->error.isEmpty()) {
        status_->setText(QStringLiteral("Event %1: last changes not found: %2")
                             .arg(history->event)
                             .arg(history->error));
    }
    emit history_shown(history->event);
}

void MainWindow::show_pool_sizes() {
    const auto snapshot = tiles_->snapshot();
    const auto history = tiles_->history();
    std::vector<PoolSize> sizes;
    if (history) {
        const auto found = history->pool_sizes.find(pool_->pool());
        if (found != history->pool_sizes.end()) sizes = found->second;
    }
    pool_plot_->set_sizes(pool_->pool(), std::move(sizes), event_count(),
                          snapshot ? snapshot->event : 0);
}

std::vector<std::uint64_t> MainWindow::resources() const {
    const auto snapshot = tiles_->snapshot();
    return snapshot ? snapshot->after.tiled_resources() : std::vector<std::uint64_t>{};
}

// Fills the resource, mip and slice selectors from the state shown, keeping
// the current choices where they still exist.
void MainWindow::update_selectors() {
    updating_selectors_ = true;
    const std::uint64_t current = tiles_->resource();
    const auto snapshot = tiles_->snapshot();
    resource_box_->clear();
    for (const std::uint64_t id : resources()) {
        const auto label = snapshot->labels.find(id);
        resource_box_->addItem(
            label == snapshot->labels.end() ? QStringLiteral("#%1").arg(id) : label->second,
            QVariant::fromValue<qulonglong>(id));
    }
    const int keep = resource_box_->findData(QVariant::fromValue<qulonglong>(current));
    resource_box_->setCurrentIndex(keep >= 0 ? keep : 0);
    updating_selectors_ = false;
    resource_chosen();
}

void MainWindow::resource_chosen() {
    if (updating_selectors_) return;
    updating_selectors_ = true;
    const std::uint64_t resource = resource_box_->currentData().toULongLong();
    const bool new_resource = resource != tiles_->resource();
    const auto mip =
        static_cast<std::uint32_t>(std::max(0, new_resource ? 0 : mip_box_->currentIndex()));
    const auto slice = static_cast<std::uint32_t>(new_resource ? 0 : slice_box_->value());
    tiles_->set_selection(resource, mip, slice);
    const auto snapshot = tiles_->snapshot();
    pool_->set_pool_of(snapshot, resource);
    show_pool_sizes();
    // The last-changed events follow the state of the resource asked for.
    if (snapshot && resource != 0 && snapshot->history_resource != resource && !service_->busy())
        request_state(snapshot->event);
    // The selectors show what the model could select.
    mip_box_->clear();
    const bool packed_tail = !tiles_->packed().empty();
    for (std::uint32_t m = 0; m < tiles_->mip_count(); ++m) {
        const bool packed = packed_tail && m + 1 == tiles_->mip_count();
        mip_box_->addItem(packed ? QStringLiteral("packed") : QString::number(m));
    }
    mip_box_->setCurrentIndex(static_cast<int>(tiles_->mip()));
    slice_box_->setRange(0, std::max(0, static_cast<int>(tiles_->slice_count()) - 1));
    slice_box_->setValue(static_cast<int>(tiles_->slice()));
    updating_selectors_ = false;
    if (new_resource) map_view_->fit();
    map_view_->update();
    contents_->follow_selection();
}

bool MainWindow::select_resource(const QString& id_or_name) {
    const auto snapshot = tiles_->snapshot();
    if (!snapshot) return false;
    bool is_number = false;
    const qulonglong number = id_or_name.toULongLong(&is_number);
    for (const std::uint64_t id : resources()) {
        const auto name = snapshot->names.find(id);
        if ((is_number && id == number) ||
            (name != snapshot->names.end() && name->second == id_or_name)) {
            resource_box_->setCurrentIndex(
                resource_box_->findData(QVariant::fromValue<qulonglong>(id)));
            return true;
        }
    }
    return false;
}

void MainWindow::select_subresource(std::uint32_t mip, std::uint32_t slice) {
    updating_selectors_ = true;
    mip_box_->setCurrentIndex(static_cast<int>(mip));
    slice_box_->setValue(static_cast<int>(slice));
    updating_selectors_ = false;
    tiles_->set_selection(tiles_->resource(), mip, slice);
    map_view_->update();
    contents_->follow_selection();
}

void MainWindow::show_contents_tab() {
    tabs_->setCurrentWidget(contents_);
}

void MainWindow::open_dialog() {
    const QString path =
        QFileDialog::getOpenFileName(this, QStringLiteral("Open a trace"), {},
                                     QStringLiteral("Traces (*.d3dcap);;All files (*)"));
    if (path.isEmpty()) return;
    QString error;
    if (!open_trace(path, &error))
        QMessageBox::warning(this, QStringLiteral("d3dcap viewer"), error);
}

bool MainWindow::load_report(const QString& path, QString* error) {
    if (!events_) {
        if (error) *error = QStringLiteral("open a trace before its replay report");
        return false;
    }
    return events_->load_report(path, error);
}

void MainWindow::report_dialog() {
    const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Load a replay report"),
                                                      {}, QStringLiteral("Reports (*.json)"));
    if (path.isEmpty()) return;
    QString error;
    if (!load_report(path, &error)) {
        QMessageBox::warning(this, QStringLiteral("d3dcap viewer"), error);
    }
}

bool MainWindow::export_picture(const QString& path, QString* error) {
    if (path.endsWith(QStringLiteral(".dds")) || path.endsWith(QStringLiteral(".raw"))) {
        if (tabs_->currentWidget() != contents_) {
            if (error)
                *error = QStringLiteral(
                    "DDS and raw files hold a resource's texels: show it in "
                    "the contents tab");
            return false;
        }
        contents_->export_texels(path);  // written once replay has read it
        return true;
    }
    QImage picture;
    if (tabs_->currentWidget() == contents_) {
        picture = contents_->view()->image();
        if (picture.isNull()) {
            if (error) *error = QStringLiteral("the contents tab shows no picture");
            return false;
        }
    } else {
        picture = tabs_->currentWidget()->grab().toImage();
    }
    if (!picture.save(path, "PNG")) {
        if (error) *error = QStringLiteral("cannot write %1").arg(path);
        return false;
    }
    return true;
}

void MainWindow::export_dialog() {
    const QString path = QFileDialog::getSaveFileName(
        this, QStringLiteral("Export the picture or the texels"), {},
        QStringLiteral("PNG images (*.png);;The subresource as stored, DDS (*.dds);;Its bytes, "
                       "rows tightly packed (*.raw)"));
    if (path.isEmpty()) return;
    QString error;
    if (!export_picture(path, &error)) {
        QMessageBox::warning(this, QStringLiteral("d3dcap viewer"), error);
    }
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile()) return;
    QString error;
    if (!open_trace(urls.front().toLocalFile(), &error)) {
        QMessageBox::warning(this, QStringLiteral("d3dcap viewer"), error);
    }
    event->acceptProposedAction();
}

}  // namespace d3dcap::viewer
