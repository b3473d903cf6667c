// The parameters of the selected call: its record as `d3dcap dump --json`
// prints it, as a tree (blobs are already summarised there as size and
// hash). Long arrays show their first entries.
#pragma once

#include <QTreeWidget>
#include <cstdint>

#include "format/trace/reader.h"

namespace d3dcap::viewer {

class ParametersView : public QTreeWidget {
    Q_OBJECT
  public:
    static constexpr int kMaxArrayEntries = 256;

    explicit ParametersView(QWidget* parent = nullptr);
    // Shows the record of event; the reader's error when it cannot be read.
    void show_record(trace::TraceReader& reader, std::uint64_t event);
};

}  // namespace d3dcap::viewer
