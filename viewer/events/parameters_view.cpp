#include "viewer/events/parameters_view.h"

#include <nlohmann/json.hpp>
#include <string>

#include "format/trace/record_json.h"

namespace d3dcap::viewer {

namespace {

void add_json(QTreeWidgetItem* parent, const QString& key, const nlohmann::ordered_json& value) {
    auto* item = new QTreeWidgetItem(parent, QStringList{key});
    if (value.is_object()) {
        for (const auto& [name, child] : value.items()) {
            add_json(item, QString::fromStdString(name), child);
        }
        item->setText(1, QStringLiteral("{%1}").arg(value.size()));
    } else if (value.is_array()) {
        std::size_t i = 0;
        for (const auto& child : value) {
            if (i == ParametersView::kMaxArrayEntries) {
                new QTreeWidgetItem(item,
                                    QStringList{QStringLiteral("..."),
                                                QStringLiteral("%1 more").arg(value.size() - i)});
                break;
            }
            add_json(item, QStringLiteral("[%1]").arg(i++), child);
        }
        item->setText(1, QStringLiteral("[%1]").arg(value.size()));
    } else {
        item->setText(
            1, QString::fromStdString(value.is_string() ? value.get<std::string>() : value.dump()));
    }
}

}  // namespace

ParametersView::ParametersView(QWidget* parent) : QTreeWidget(parent) {
    setColumnCount(2);
    setHeaderLabels({QStringLiteral("Parameter"), QStringLiteral("Value")});
    setUniformRowHeights(true);
}

void ParametersView::show_record(trace::TraceReader& reader, std::uint64_t event) {
    clear();
    auto record = reader.record(event);
    auto* root = new QTreeWidgetItem(this, QStringList{QStringLiteral("event %1").arg(event)});
    if (!record.ok()) {
        root->setText(1, QString::fromStdString(record.error().to_string()));
        return;
    }
    std::string text;
    trace::append_record_json(*record.value(), text);
    // Ordered: the fields in the order `d3dcap dump` writes them.
    const auto json = nlohmann::ordered_json::parse(text, nullptr, false);
    if (json.is_discarded()) {
        root->setText(1, QString::fromStdString(text));
        return;
    }
    delete root;
    for (const auto& [name, value] : json.items()) {
        add_json(invisibleRootItem(), QString::fromStdString(name), value);
    }
    expandAll();
    resizeColumnToContents(0);
}

}  // namespace d3dcap::viewer
