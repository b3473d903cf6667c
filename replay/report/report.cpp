#include "replay/report/report.h"

#include <d3dcap/api/calls.h>
#include <d3dcap/fb/trace_generated.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>

namespace d3dcap::replay {

namespace {

using nlohmann::json;

std::string event_name(std::uint16_t call, std::uint8_t meta) {
    if (call == 0) return fb::EnumNameMeta(static_cast<fb::Meta>(meta));
    const api::CallInfo* info = api::find_call(static_cast<api::CallId>(call));
    if (info == nullptr) return "call " + std::to_string(call);
    if (info->interface_name.empty()) return std::string(info->method);
    return std::string(info->interface_name) + "::" + std::string(info->method);
}

std::string hex(std::uint64_t value) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%016" PRIx64, value);
    return text;
}

std::string hresult(std::int64_t value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", static_cast<unsigned>(value));
    return text;
}

json optional_ns(std::int64_t ns) {
    return ns < 0 ? json(nullptr) : json(ns);
}

json spread_json(const std::vector<double>& values) {
    const Spread s = spread_of(values);
    return json{{"min", s.min}, {"median", s.median}, {"p95", s.p95}, {"max", s.max}};
}

std::string label_of(const std::string& label, bool has_data, std::int64_t data) {
    return has_data ? label + " (" + std::to_string(data) + ")" : label;
}

// printf into a string, for the fixed-width tables.
template <typename... Args>
std::string format(const char* pattern, Args... args) {
    char text[512];
    std::snprintf(text, sizeof text, pattern, args...);
    return text;
}

// How far a replayed image is from the recorded one, and on what it was judged.
std::string image_text(const runtime::formats::ImageDistance& image) {
    const std::string copy = image.full_resolution()
                                 ? ""
                                 : format(" on the %ux%u copy of %ux%u means", image.width,
                                          image.height, image.scale, image.scale);
    if (image.max_difference == 0) return "its image is the same" + copy;
    std::string text = format("image max difference %u, %llu texels past %u", image.max_difference,
                              static_cast<unsigned long long>(image.texels_past_bound),
                              runtime::formats::kRoundingBound);
    const runtime::formats::TexelRegion& region = image.past_bound;
    if (image.texels_past_bound > 0)
        text += format(" in x %u-%u y %u-%u", region.x, region.x + region.width - 1, region.y,
                       region.y + region.height - 1);
    return text + copy + (image.within_tolerance() ? " (rounding)" : " (wrong)");
}

}  // namespace

Spread spread_of(std::vector<double> values) {
    if (values.empty()) return {};
    std::sort(values.begin(), values.end());
    const auto at = [&](double q) {
        const auto i = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size())));
        return values[std::min(values.size() - 1, i == 0 ? 0 : i - 1)];
    };
    return Spread{values.front(), at(0.5), at(0.95), values.back()};
}

json report_json(const RunReport& r) {
    json device{{"requested", r.device.requested},
                {"driver", r.device.driver},
                {"adapter", r.device.adapter},
                {"gpu_timing", r.device.gpu_timing},
                {"gpu_timing_mode", r.device.gpu_timing_mode},
                {"reason", r.device.reason},
                {"recorded",
                 {{"adapter", r.recorded.adapter},
                  {"driver", r.recorded.driver},
                  {"feature_level", r.recorded.feature_level},
                  {"tiled_resources_tier", r.recorded.tiled_resources_tier}}}};
    json frames = json::array();
    for (const FrameTime& f : r.frames) {
        json frame{{"frame", f.frame},           {"first_event", f.first_event},
                   {"last_event", f.last_event}, {"cpu_ms", f.cpu_ms},
                   {"gpu_ms", f.gpu_ms},         {"cpu_ms_spread", spread_json(f.cpu_ms)}};
        if (!f.gpu_ms.empty()) frame["gpu_ms_spread"] = spread_json(f.gpu_ms);
        frames.push_back(std::move(frame));
    }
    json events = json::array();
    for (const EventTime& e : r.events) {
        events.push_back({{"event", e.event},
                          {"call", event_name(e.call, e.meta)},
                          {"cpu_ns", e.cpu_ns},
                          {"gpu_ns", optional_ns(e.gpu_ns)}});
    }
    json markers = json::array();
    for (const MarkerTime& m : r.markers) {
        markers.push_back({{"label", m.label},
                           {"data", m.has_data ? json(m.data) : json(nullptr)},
                           {"depth", m.depth},
                           {"first_event", m.first_event},
                           {"last_event", m.last_event},
                           {"cpu_ns", m.cpu_ns},
                           {"self_cpu_ns", m.self_cpu_ns},
                           {"gpu_ns", optional_ns(m.gpu_ns)},
                           {"self_gpu_ns", optional_ns(m.self_gpu_ns)}});
    }
    const auto mismatch_list = [](const std::vector<Mismatch>& list) {
        json entries = json::array();
        for (const Mismatch& m : list) {
            json entry{{"event", m.event}, {"call", m.call}};
            if (m.detail.empty()) {
                entry["recorded"] = hresult(m.recorded);
                entry["replayed"] = hresult(m.replayed);
            } else {
                entry["detail"] = m.detail;
            }
            if (m.snapshot_record >= 0) entry["snapshot_record"] = m.snapshot_record;
            entries.push_back(std::move(entry));
        }
        return entries;
    };
    const json mismatches = mismatch_list(r.mismatches);
    json adaptations = json::array();
    for (const Adaptation& a : r.adaptations) {
        adaptations.push_back({{"event", a.event},
                               {"resource", a.resource},
                               {"what", a.what},
                               {"adapted", a.adapted}});
    }
    json differences = json::array();
    for (const HashDifference& d : r.hash_differences) {
        json entry{{"event", d.event},
                   {"frame", d.frame},
                   {"resource", d.resource},
                   {"subresource", d.subresource},
                   {"recorded", hex(d.recorded)},
                   {"replayed", hex(d.replayed)}};
        if (!d.detail.empty()) entry["detail"] = d.detail;
        if (d.image.comparable) {
            const runtime::formats::TexelRegion& region = d.image.past_bound;
            entry["image"] = {{"full_resolution", d.image.full_resolution()},
                              {"scale", d.image.scale},
                              {"width", d.image.width},
                              {"height", d.image.height},
                              {"max_difference", d.image.max_difference},
                              {"bound", runtime::formats::kRoundingBound},
                              {"texels_past_bound", d.image.texels_past_bound},
                              {"past_bound_region", d.image.texels_past_bound == 0
                                                        ? json(nullptr)
                                                        : json{{"x", region.x},
                                                               {"y", region.y},
                                                               {"width", region.width},
                                                               {"height", region.height}}},
                              {"within_tolerance", d.within_tolerance()}};
        }
        differences.push_back(std::move(entry));
    }
    return json{
        {"trace", r.trace},
        {"device", device},
        {"loops", r.loops},
        {"events_in_trace", r.events_in_trace},
        {"first_event", r.first_event},
        {"last_event", r.last_event},
        {"events_replayed", r.events_replayed},
        {"seconds", r.seconds},
        {"frames", frames},
        {"events", events},
        {"markers", markers},
        {"mismatches", mismatches},
        {"capability_differences", mismatch_list(r.capability_differences)},
        {"adaptations", adaptations},
        {"work",
         {{"draws", r.draws}, {"dispatches", r.dispatches}, {"not_executed", r.not_executed}}},
        {"hashes",
         {{"verified", r.verified},
          {"checked", r.hashes_checked},
          {"not_comparable", r.hashes_not_comparable},
          {"differences", differences}}}};
}

void print_summary(const RunReport& r, std::ostream& out, std::size_t rows) {
    const bool gpu = r.device.gpu_timing;
    out << "replayed " << r.trace << " on the " << r.device.driver << " device";
    if (!r.device.adapter.empty()) out << " (" << r.device.adapter << ")";
    out << ": " << r.events_replayed << " events in " << format("%.3f", r.seconds) << " s ("
        << format("%.0f", r.seconds > 0 ? static_cast<double>(r.events_replayed) / r.seconds : 0.0)
        << " events/s)";
    if (r.loops > 0) out << ", " << r.loops << " timed loops after a warm-up";
    out << "\n";
    out << "timed: events " << r.first_event << "-" << r.last_event << ", " << r.frames.size()
        << " frames\n";
    const auto list = [&](const std::vector<Mismatch>& mismatches) {
        for (std::size_t i = 0; i < mismatches.size() && i < rows; ++i) {
            const Mismatch& m = mismatches[i];
            out << "\n  event " << m.event << " " << m.call << ": "
                << (m.detail.empty()
                        ? "recorded " + hresult(m.recorded) + ", replayed " + hresult(m.replayed)
                        : m.detail);
        }
        out << "\n";
    };
    out << "HRESULT mismatches: " << r.mismatches.size();
    list(r.mismatches);
    if (!r.capability_differences.empty()) {
        out << "the replaying device answers " << r.capability_differences.size()
            << " capability queries differently";
        list(r.capability_differences);
    }
    if (r.draws + r.dispatches > 0) {
        out << "draws " << r.draws << ", dispatches " << r.dispatches;
        if (r.not_executed > 0)
            out << ": " << r.not_executed << " not executed by the " << r.device.driver
                << " device (their results are missing)";
        out << "\n";
    }
    out << "adaptations: " << r.adaptations.size();
    for (std::size_t i = 0; i < r.adaptations.size() && i < rows; ++i) {
        const Adaptation& a = r.adaptations[i];
        out << "\n  event " << a.event << " resource " << a.resource << ": " << a.what
            << (a.adapted ? " (adapted)" : " (not adapted)");
    }
    out << "\n";
    if (r.verified) {
        out << "content hashes: " << r.hashes_checked << " checked, " << r.hash_differences.size()
            << " differ";
        // Textures whose images differ by rounding only, and how many of
        // those were compared on downscaled copies, which can hide wrong texels.
        std::size_t rounding = 0, downscaled = 0;
        std::uint32_t largest = 0;
        for (const HashDifference& d : r.hash_differences) {
            if (!d.within_tolerance()) continue;
            ++rounding;
            if (!d.image.full_resolution()) ++downscaled;
            largest = std::max(largest, d.image.max_difference);
        }
        if (rounding > 0) {
            out << format(
                " (%zu by rounding only: no channel of %s differs by more than %u of 255, "
                "max difference %u",
                rounding, rounding == 1 ? "its image" : "their images",
                runtime::formats::kRoundingBound, largest);
            if (downscaled > 0)
                out << format(
                    "; %zu compared only on copies downscaled at capture, whose means "
                    "can hide a few wrong texels",
                    downscaled);
            out << ")";
        }
        if (r.hashes_not_comparable > 0)
            out << "; " << r.hashes_not_comparable
                << " not comparable (content the capturing device did not compute: work it did "
                   "not execute)";
        for (std::size_t i = 0; i < r.hash_differences.size() && i < rows; ++i) {
            const HashDifference& d = r.hash_differences[i];
            out << "\n  frame " << d.frame << " resource " << d.resource << " subresource "
                << d.subresource << ": recorded " << hex(d.recorded) << ", replayed "
                << hex(d.replayed) << (d.detail.empty() ? "" : " (" + d.detail + ")");
            if (d.image.comparable) out << "; " << image_text(d.image);
        }
        out << "\n";
    }
    if (rows == 0) return;

    out << "\nframe times (ms" << (r.loops > 0 ? ", over the timed loops" : "") << ")";
    if (!r.device.gpu_timing_mode.empty()) out << "; gpu: " << r.device.gpu_timing_mode;
    out << "\n";
    out << (r.loops > 0 ? "  frame     events   cpu min  cpu med  cpu p95  cpu max  gpu med\n"
                        : "  frame     events       cpu      gpu\n");
    for (const FrameTime& f : r.frames) {
        const Spread cpu = spread_of(f.cpu_ms), g = spread_of(f.gpu_ms);
        const std::string gpu_text = gpu ? format("%8.3f", g.median) : "       -";
        if (r.loops > 0) {
            out << format("  %5llu %10llu  %8.3f %8.3f %8.3f %8.3f %s\n",
                          static_cast<unsigned long long>(f.frame),
                          static_cast<unsigned long long>(f.last_event - f.first_event + 1),
                          cpu.min, cpu.median, cpu.p95, cpu.max, gpu_text.c_str());
        } else {
            out << format("  %5llu %10llu  %8.3f %s\n", static_cast<unsigned long long>(f.frame),
                          static_cast<unsigned long long>(f.last_event - f.first_event + 1),
                          cpu.median, gpu_text.c_str());
        }
    }

    std::vector<const EventTime*> slowest;
    for (const EventTime& e : r.events) slowest.push_back(&e);
    const std::size_t n = std::min(rows, slowest.size());
    std::partial_sort(slowest.begin(), slowest.begin() + static_cast<std::ptrdiff_t>(n),
                      slowest.end(),
                      [](const EventTime* a, const EventTime* b) { return a->cpu_ns > b->cpu_ns; });
    out << "\nslowest events (us)\n       event      cpu      gpu  call\n";
    for (std::size_t i = 0; i < n; ++i) {
        const EventTime& e = *slowest[i];
        out << format("  %10llu %8.1f %s  %s\n", static_cast<unsigned long long>(e.event),
                      static_cast<double>(e.cpu_ns) / 1e3,
                      e.gpu_ns < 0 ? "       -"
                                   : format("%8.1f", static_cast<double>(e.gpu_ns) / 1e3).c_str(),
                      event_name(e.call, e.meta).c_str());
    }

    std::vector<const MarkerTime*> regions;
    for (const MarkerTime& m : r.markers) regions.push_back(&m);
    const std::size_t m_rows = std::min(rows, regions.size());
    std::partial_sort(
        regions.begin(), regions.begin() + static_cast<std::ptrdiff_t>(m_rows), regions.end(),
        [](const MarkerTime* a, const MarkerTime* b) { return a->cpu_ns > b->cpu_ns; });
    if (m_rows > 0) {
        out << "\nslowest marker regions (us)\n     events     cpu  self cpu      gpu  self gpu  "
               "region\n";
    }
    for (std::size_t i = 0; i < m_rows; ++i) {
        const MarkerTime& m = *regions[i];
        const auto us = [](std::int64_t ns) {
            return ns < 0 ? std::string("       -")
                          : format("%8.1f", static_cast<double>(ns) / 1e3);
        };
        out << format("  %9llu %7.1f %9.1f %s %s  %s%s\n",
                      static_cast<unsigned long long>(m.last_event - m.first_event + 1),
                      static_cast<double>(m.cpu_ns) / 1e3, static_cast<double>(m.self_cpu_ns) / 1e3,
                      us(m.gpu_ns).c_str(), us(m.self_gpu_ns).c_str(),
                      std::string(2 * m.depth, ' ').c_str(),
                      label_of(m.label, m.has_data, m.data).c_str());
    }
}

bool print_comparison(const json& a, const json& b, std::ostream& out, std::string* error) {
    try {
        const auto device = [](const json& report) {
            const json& d = report.at("device");
            const std::string adapter = d.at("adapter").get<std::string>();
            return d.at("driver").get<std::string>() +
                   (adapter.empty() ? "" : " (" + adapter + ")");
        };
        out << "A: " << a.at("trace").get<std::string>() << " on " << device(a) << "\n";
        out << "B: " << b.at("trace").get<std::string>() << " on " << device(b) << "\n";
        const auto median_of = [](const json& values) {
            return spread_of(values.get<std::vector<double>>()).median;
        };
        const auto ratio = [](double x, double y) {
            return x > 0 ? format("%7.2fx", y / x) : std::string("       -");
        };
        out << "\nframe times (median ms)\n  frame    A cpu    B cpu    B/A      A gpu    B gpu    "
               "B/A\n";
        const json& frames_b = b.at("frames");
        for (const json& fa : a.at("frames")) {
            const auto frame = fa.at("frame").get<std::uint64_t>();
            const auto fb_it = std::find_if(frames_b.begin(), frames_b.end(), [&](const json& f) {
                return f.at("frame").get<std::uint64_t>() == frame;
            });
            if (fb_it == frames_b.end()) continue;
            const double ca = median_of(fa.at("cpu_ms")), cb = median_of(fb_it->at("cpu_ms"));
            const double ga = median_of(fa.at("gpu_ms")), gb = median_of(fb_it->at("gpu_ms"));
            out << format("  %5llu %8.3f %8.3f %s %8.3f %8.3f %s\n",
                          static_cast<unsigned long long>(frame), ca, cb, ratio(ca, cb).c_str(), ga,
                          gb, ratio(ga, gb).c_str());
        }
        // Marker regions pair up by label, data and first event: the same
        // region of the same trace replayed on two devices.
        const auto key = [](const json& m) {
            return m.at("label").get<std::string>() + "\x1f" + m.at("data").dump() + "\x1f" +
                   m.at("first_event").dump();
        };
        std::map<std::string, const json*> regions_b;
        for (const json& m : b.at("markers")) regions_b.emplace(key(m), &m);
        out << "\nmarker regions (us)\n     A cpu     B cpu     B/A      A gpu     B gpu     B/A  "
               "region\n";
        const auto number = [](const json& v) { return v.is_null() ? 0.0 : v.get<double>() / 1e3; };
        for (const json& ma : a.at("markers")) {
            auto it = regions_b.find(key(ma));
            if (it == regions_b.end()) continue;
            const json& mb = *it->second;
            const double ca = number(ma.at("cpu_ns")), cb = number(mb.at("cpu_ns"));
            const double ga = number(ma.at("gpu_ns")), gb = number(mb.at("gpu_ns"));
            const std::string data =
                ma.at("data").is_null() ? "" : " (" + ma.at("data").dump() + ")";
            out << format("  %8.1f  %8.1f %s  %8.1f  %8.1f %s  %s%s\n", ca, cb,
                          ratio(ca, cb).c_str(), ga, gb, ratio(ga, gb).c_str(),
                          std::string(2 * ma.at("depth").get<std::size_t>(), ' ').c_str(),
                          (ma.at("label").get<std::string>() + data).c_str());
        }
        return true;
    } catch (const json::exception& e) {
        if (error != nullptr) *error = e.what();
        return false;
    }
}

}  // namespace d3dcap::replay
