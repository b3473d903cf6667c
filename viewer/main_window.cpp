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
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

#include "replay/state/tile_timeline.h"
#include "viewer/event_tree_model.h"
#include "viewer/parameters_view.h"
#include "viewer/pool_model.h"
#include "viewer/state_worker.h"
#include "viewer/tile_map_model.h"
#include "viewer/tile_map_view.h"

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

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setAcceptDrops(true);
    setWindowTitle(QStringLiteral("d3dcap viewer"));
    build_ui();
}

MainWindow::~MainWindow() {
    // The view and proxy go before the models and the reader they read.
    tree_->setModel(nullptr);
    filter_->setSourceModel(nullptr);
}

void MainWindow::build_ui() {
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    file->addAction(QStringLiteral("&Open..."), QKeySequence::Open, this, &MainWindow::open_dialog);
    file->addAction(QStringLiteral("Load replay &report..."), this, &MainWindow::report_dialog);
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
    tools->addWidget(filter_edit_, 1);
    tools->addWidget(jump_edit_);
    tools->addWidget(previous);
    tools->addWidget(next);
    left_layout->addLayout(tools);
    filter_ = new QSortFilterProxyModel(this);
    filter_->setRecursiveFilteringEnabled(true);
    filter_->setFilterKeyColumn(EventTreeModel::CallColumn);
    filter_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    tree_ = new QTreeView;
    tree_->setUniformRowHeights(true);  // needed for a million rows
    tree_->setModel(filter_);
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
    auto* tabs = new QTabWidget;
    tabs->addTab(map_view_, QStringLiteral("Tile map"));
    tabs->addTab(pool_view, QStringLiteral("Tile pool"));
    right_layout->addWidget(tabs, 1);
    status_ = new QLabel(QStringLiteral("Open a trace (File > Open, or drop it here)"));
    right_layout->addWidget(status_);

    auto* splitter = new QSplitter;
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 1);
    setCentralWidget(splitter);
    resize(1280, 800);

    connect(filter_edit_, &QLineEdit::textChanged, filter_,
            &QSortFilterProxyModel::setFilterFixedString);
    connect(jump_edit_, &QLineEdit::returnPressed, this, [this] {
        bool ok = false;
        const qulonglong event = jump_edit_->text().toULongLong(&ok);
        if (ok && event < event_count()) select_event(event);
    });
    connect(previous, &QPushButton::clicked, this, [this] { jump_to_tile_call(false); });
    connect(next, &QPushButton::clicked, this, [this] { jump_to_tile_call(true); });
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
    QItemSelectionModel* old_selection = tree_->selectionModel();
    tree_->setModel(nullptr);
    delete old_selection;  // the view leaves it to us
    filter_->setSourceModel(nullptr);
    delete service_;
    events_ = std::make_unique<EventTreeModel>(*reader.value());
    reader_ = std::move(reader.value());
    service_ = new StateService(std::move(timeline.value()), this);
    connect(service_, &StateService::ready, this, &MainWindow::show_snapshot);
    connect(service_, &StateService::failed, this, [this](std::uint64_t event, const QString& m) {
        status_->setText(QStringLiteral("Event %1: %2").arg(event).arg(m));
        emit state_failed(event, m);
    });
    filter_->setSourceModel(events_.get());
    tree_->setModel(filter_);
    tree_->header()->setSectionResizeMode(QHeaderView::Interactive);
    tree_->setColumnWidth(EventTreeModel::EventColumn, 150);
    tree_->setColumnWidth(EventTreeModel::CallColumn, 300);
    tree_->expandToDepth(0);
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid()) return;
                const auto event = current.data(EventTreeModel::EventRole).toULongLong();
                if (!selected_ || *selected_ != event) select_event(event);
            });
    selected_.reset();
    tiles_->set_snapshot(nullptr);
    pool_->set_pool_of(nullptr, 0);
    setWindowTitle(QStringLiteral("%1 - d3dcap viewer").arg(path));
    status_->setText(QStringLiteral("%1 events").arg(event_count()));
    if (event_count() > 0) select_event(0);
    return true;
}

std::uint64_t MainWindow::event_count() const {
    return reader_ ? reader_->event_count() : 0;
}

void MainWindow::select_event(std::uint64_t event) {
    if (!service_ || event >= event_count()) return;
    selected_ = event;
    select_row_of(event);
    parameters_->show_record(*reader_, event);
    status_->setText(QStringLiteral("Event %1: building the tile state...").arg(event));
    service_->request(event);
}

void MainWindow::select_row_of(std::uint64_t event) {
    const QModelIndex source = events_->index_of_event(event);
    const QModelIndex row = filter_->mapFromSource(source);
    if (!row.isValid()) return;
    tree_->setCurrentIndex(row);
    tree_->scrollTo(row);
}

void MainWindow::jump_to_tile_call(bool forward) {
    if (!events_) return;
    const std::uint64_t from = selected_.value_or(0);
    const auto event = forward ? events_->next_tile_call(from) : events_->previous_tile_call(from);
    if (event) select_event(*event);
}

void MainWindow::show_snapshot(std::shared_ptr<const TileSnapshot> snapshot) {
    events_->set_object_names(snapshot->names);
    tree_->viewport()->update();
    tiles_->set_snapshot(snapshot);
    update_selectors();
    status_->setText(
        QStringLiteral("After event %1 of %2").arg(snapshot->event).arg(event_count()));
    emit state_shown(snapshot->event);
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
        const auto name = snapshot->names.find(id);
        const QString label = name == snapshot->names.end()
                                  ? QStringLiteral("#%1").arg(id)
                                  : QStringLiteral("#%1 %2").arg(id).arg(name->second);
        resource_box_->addItem(label, QVariant::fromValue<qulonglong>(id));
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
    pool_->set_pool_of(tiles_->snapshot(), resource);
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
