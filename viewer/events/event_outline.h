// The shape of the event tree: frames, the marker regions inside them and
// the calls between, as nodes holding ranges of event numbers. The full
// outline is built once from the trace index; a filter builds a second one
// with the same node numbers that lists only what matches, on a worker
// thread, so that the model only swaps outlines.
#pragma once

#include <QString>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "format/trace/reader.h"

namespace d3dcap::viewer {

enum class NodeKind : std::uint8_t { Root, Frame, Region, Marker };

// A child of a node: another node, or calls [first, end) shown as rows.
struct OutlineItem {
    std::uint64_t first = 0;  // first event it covers
    std::uint64_t end = 0;    // one past its last event
    int node = -1;            // -1: a range of calls
    int first_row = 0;        // row of its first entry in the parent
};

struct OutlineNode {
    NodeKind kind = NodeKind::Root;
    QString label;
    std::uint64_t event = 0;  // frame: first event; region/marker: its own event
    std::uint64_t end = 0;    // one past the last event it holds
    int parent = -1;
    int row = 0;  // in the parent; -1 where a filter hides the node
    std::vector<OutlineItem> items;
    int rows = 0;
};

// nodes[0] is the root; a node's children come after it.
struct EventOutline {
    std::vector<OutlineNode> nodes;
};

EventOutline build_outline(const fb::TraceIndex& index, const trace::MarkerList& markers);

// The rows of full whose call name or label contains text (ignoring case),
// with the nodes around them; nullptr when cancelled() said so. reader reads
// the call names and is used only by this call.
std::shared_ptr<const EventOutline> filter_outline(const EventOutline& full,
                                                   trace::TraceReader& reader, const QString& text,
                                                   const std::function<bool()>& cancelled);

}  // namespace d3dcap::viewer
