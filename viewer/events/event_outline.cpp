#include "viewer/events/event_outline.h"

#include <unordered_map>
#include <utility>

#include "format/trace/record_json.h"

namespace d3dcap::viewer {

namespace {

QString marker_label(const trace::MarkerList& markers, const trace::Marker& marker) {
    QString label = QString::fromStdString(markers.label(marker));
    if (marker.has_data) label += QStringLiteral(" (%1)").arg(marker.data);
    return label;
}

int add_node(EventOutline& outline, int parent, NodeKind kind, QString label, std::uint64_t event) {
    OutlineNode node;
    node.kind = kind;
    node.label = std::move(label);
    node.event = event;
    node.end = event + 1;
    node.parent = parent;
    outline.nodes.push_back(std::move(node));
    return static_cast<int>(outline.nodes.size() - 1);
}

void add_calls(OutlineNode& node, std::uint64_t first, std::uint64_t end) {
    if (first >= end) return;
    node.items.push_back(OutlineItem{first, end, -1, node.rows});
    node.rows += static_cast<int>(end - first);
}

void add_child(EventOutline& outline, int node, int child, std::uint64_t first) {
    OutlineNode& n = outline.nodes[std::size_t(node)];
    outline.nodes[std::size_t(child)].row = n.rows;
    n.items.push_back(OutlineItem{first, first + 1, child, n.rows});
    n.rows += 1;
}

// Call names by call id (meta records by their type), so that a filter reads
// each record's header only.
class NameMatcher {
  public:
    explicit NameMatcher(QString text) : text_(std::move(text)) {}
    bool matches(const fb::Record& record) {
        const std::uint16_t call = record.header()->call();
        const std::uint32_t key = call != 0 ? call : 0x10000u + std::uint32_t(record.meta_type());
        const auto found = known_.find(key);
        if (found != known_.end()) return found->second;
        const bool match =
            QString::fromStdString(trace::record_name(record)).contains(text_, Qt::CaseInsensitive);
        known_.emplace(key, match);
        return match;
    }

  private:
    QString text_;
    std::unordered_map<std::uint32_t, bool> known_;
};

}  // namespace

EventOutline build_outline(const fb::TraceIndex& index, const trace::MarkerList& markers) {
    EventOutline outline;
    const std::uint64_t count = index.event_count();
    const int root = add_node(outline, -1, NodeKind::Root, {}, 0);

    // Frame i begins at frame_first_events[i]; events before the first
    // boundary (or all of them, without boundaries) get a frame of their own.
    std::vector<std::pair<std::uint64_t, QString>> frames;
    std::vector<std::uint64_t> starts;
    if (index.frame_first_events()) {
        for (const std::uint64_t first : *index.frame_first_events()) {
            if (first < count && (starts.empty() || first > starts.back())) starts.push_back(first);
        }
    }
    if (starts.empty() || starts.front() > 0) {
        frames.emplace_back(0, starts.empty() ? QStringLiteral("All events")
                                              : QStringLiteral("Before the first frame"));
    }
    for (std::size_t i = 0; i < starts.size(); ++i) {
        frames.emplace_back(starts[i], QStringLiteral("Frame %1").arg(i));
    }

    const std::vector<trace::Marker>& entries = markers.entries;
    std::size_t m = 0;
    for (std::size_t f = 0; f < frames.size(); ++f) {
        const std::uint64_t first = frames[f].first;
        const std::uint64_t end = f + 1 < frames.size() ? frames[f + 1].first : count;
        const int frame = add_node(outline, root, NodeKind::Frame, frames[f].second, first);
        add_child(outline, root, frame, first);
        // Regions left open at the end of a frame close there.
        std::vector<int> open{frame};
        std::uint64_t cursor = first;
        for (; m < entries.size() && entries[m].event < end; ++m) {
            const trace::Marker& marker = entries[m];
            const std::uint64_t event = marker.event;
            if (event < cursor) continue;  // out of order: shown as a call
            const int top = open.back();
            add_calls(outline.nodes[std::size_t(top)], cursor, event);
            cursor = event + 1;
            switch (marker.kind) {
                case fb::MarkerKind::Begin: {
                    const int region = add_node(outline, top, NodeKind::Region,
                                                marker_label(markers, marker), event);
                    add_child(outline, top, region, event);
                    open.push_back(region);
                    break;
                }
                case fb::MarkerKind::End:
                    add_calls(outline.nodes[std::size_t(top)], event, event + 1);
                    if (open.size() > 1) {
                        outline.nodes[std::size_t(top)].end = event + 1;
                        open.pop_back();
                    }
                    break;
                case fb::MarkerKind::Marker: {
                    const int leaf = add_node(outline, top, NodeKind::Marker,
                                              marker_label(markers, marker), event);
                    add_child(outline, top, leaf, event);
                    break;
                }
            }
        }
        add_calls(outline.nodes[std::size_t(open.back())], cursor, end);
        for (const int node : open) outline.nodes[std::size_t(node)].end = end;
    }
    outline.nodes[std::size_t(root)].end = count;
    return outline;
}

std::shared_ptr<const EventOutline> filter_outline(const EventOutline& full,
                                                   trace::TraceReader& reader, const QString& text,
                                                   const std::function<bool()>& cancelled) {
    // Which events match, read in event order (one chunk after the other).
    constexpr std::uint64_t kCheckEvery = 4096;
    const std::uint64_t count = reader.event_count();
    std::vector<bool> matches(count, false);
    NameMatcher matcher(text);
    for (std::uint64_t event = 0; event < count; ++event) {
        if (event % kCheckEvery == 0 && cancelled()) return nullptr;
        auto record = reader.record(event);
        matches[event] = record.ok() && matcher.matches(*record.value());
    }

    // A node stays when its label matches or anything inside it stays;
    // children come after their parent, so walk backwards.
    const std::size_t nodes = full.nodes.size();
    std::vector<bool> kept(nodes, false);
    for (std::size_t n = nodes; n-- > 1;) {
        const OutlineNode& node = full.nodes[n];
        bool keep = node.label.contains(text, Qt::CaseInsensitive);
        for (const OutlineItem& item : node.items) {
            if (keep) break;
            if (item.node >= 0) {
                keep = kept[std::size_t(item.node)];
                continue;
            }
            for (std::uint64_t e = item.first; e < item.end && !keep; ++e) keep = matches[e];
        }
        kept[n] = keep;
    }
    if (cancelled()) return nullptr;

    auto filtered = std::make_shared<EventOutline>();
    filtered->nodes.reserve(nodes);
    for (std::size_t n = 0; n < nodes; ++n) {
        // Hidden, and without rows, until the pass below adds them.
        const OutlineNode& node = full.nodes[n];
        filtered->nodes.push_back(OutlineNode{
            node.kind, node.label, node.event, node.end, node.parent, n == 0 ? 0 : -1, {}, 0});
    }
    for (std::size_t n = 0; n < nodes; ++n) {
        if (n != 0 && !kept[n]) continue;
        for (const OutlineItem& item : full.nodes[n].items) {
            if (item.node >= 0) {
                if (kept[std::size_t(item.node)])
                    add_child(*filtered, int(n), item.node, item.first);
                continue;
            }
            // Runs of matching calls.
            for (std::uint64_t e = item.first; e < item.end;) {
                if (!matches[e]) {
                    ++e;
                    continue;
                }
                std::uint64_t run_end = e + 1;
                while (run_end < item.end && matches[run_end]) ++run_end;
                add_calls(filtered->nodes[n], e, run_end);
                e = run_end;
            }
        }
    }
    return filtered;
}

}  // namespace d3dcap::viewer
