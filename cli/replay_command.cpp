#include "replay_command.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "format/trace/reader.h"
#include "frame_range.h"
#include "replay/engine/device_choice.h"
#include "replay/report/report.h"
#include "replay/report/run.h"
#include "runtime/backend/backend.h"

namespace d3dcap::cli {

namespace {

// Events done, events per second and time left, redrawn in place at most
// ten times a second.
class ProgressBar {
  public:
    explicit ProgressBar(std::ostream& out) : out_(out), start_(Clock::now()) {}

    void update(std::uint64_t done, std::uint64_t total) {
        const Clock::time_point now = Clock::now();
        if (done < total && now - drawn_ < std::chrono::milliseconds(100)) return;
        drawn_ = now;
        const double seconds = std::chrono::duration<double>(now - start_).count();
        const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
        const double left = rate > 0 ? static_cast<double>(total - done) / rate : 0;
        constexpr int kWidth = 30;
        const int filled = total ? static_cast<int>(kWidth * done / total) : kWidth;
        char line[160];
        std::snprintf(line, sizeof line, "\r[%-*s] %llu/%llu events  %.0f events/s  %.0f s left ",
                      kWidth, std::string(static_cast<std::size_t>(filled), '#').c_str(),
                      static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                      rate, left);
        out_ << line << std::flush;
        if (done >= total) out_ << "\n";
    }

  private:
    using Clock = std::chrono::steady_clock;
    std::ostream& out_;
    Clock::time_point start_, drawn_{};
};

bool choose_device(const std::string& choice, replay::RunOptions& run, std::ostream& err) {
    run.device_choice = choice;
    std::string error;
    const std::optional<replay::DeviceChoice> chosen = replay::choose_device(choice, error);
    if (!chosen) {
        err << "d3dcap replay: " << error << "\n";
        return false;
    }
    run.driver = chosen->driver;
    run.device_reason = chosen->reason;
    return true;
}

// Why a trace holds no content hashes: it was captured without --hashes,
// or with them from a program that gave no point to take them at.
std::string why_no_hashes(const std::string& path) {
    auto reader = trace::TraceReader::open(path);
    const fb::CaptureOptions* captured = reader.ok() ? reader.value()->header().options() : nullptr;
    if (captured == nullptr || captured->content_hashes() == nullptr ||
        captured->content_hashes()->size() == 0)
        return "capture with --hashes";
    return "captured with --hashes " + captured->content_hashes()->str() +
           ", but the program presented no frame and mapped no staging copy of those resources "
           "for reading";
}

}  // namespace

int run_replay_command(const ReplayCommandOptions& options, std::ostream& out, std::ostream& err) {
    replay::RunOptions run;
    run.trace = options.trace;
    if (!options.gpu.empty()) {
        // The Vulkan device reads its choice from the environment.
        if (options.gpu.find_first_not_of("0123456789") != std::string::npos) {
            err << "d3dcap replay: --gpu '" << options.gpu << "' is not a device index\n";
            return 2;
        }
        setenv("D3DCAP_GPU", options.gpu.c_str(), 1);
    }
    if (!options.frames.empty()) {
        const auto range = parse_frame_range(options.frames);
        if (!range) {
            err << "d3dcap replay: --frames '" << options.frames
                << "' is not a frame range (A-B, A- or A; frames count from 0)\n";
            return 2;
        }
        run.frames = replay::FrameRange{range->first, range->last.value_or(UINT64_MAX)};
    }
    if (options.verify && options.device == "null") {
        err << "d3dcap replay: --verify needs a device that keeps contents; the null device "
               "keeps none\n";
        return 2;
    }
    // The trace is checked before any device starts.
    auto reader = trace::TraceReader::open(run.trace);
    if (!reader) {
        err << "d3dcap replay: " << reader.error().to_string() << "\n";
        return 1;
    }
    // A frame range past the end of the trace is cut to the trace.
    if (run.frames && run.frames->last == UINT64_MAX) {
        const auto* starts = reader.value()->index().frame_first_events();
        const std::uint64_t frames = starts != nullptr && starts->size() > 0 ? starts->size() : 1;
        run.frames->last = frames - 1;
    }
    reader.value().reset();
    run.loops = options.loops;
    run.verify = options.verify;
    run.strict = options.strict;
    run.screenshot_directory = options.screenshots;
    run.gpu_timestamps = options.gpu_timestamps == "submission"
                             ? runtime::backend::WorkTiming::PerSubmission
                             : runtime::backend::WorkTiming::PerStep;
    // Without a report file only the slowest-events table needs event times.
    if (options.report.empty()) run.slowest_events = std::max<std::size_t>(options.rows, 1);
    if (!options.screenshots.empty()) {
        std::error_code error;
        std::filesystem::create_directories(options.screenshots, error);
        if (error || !std::ofstream(options.screenshots + "/.d3dcap-probe")) {
            err << "d3dcap replay: --screenshots " << options.screenshots
                << ": cannot write into this directory"
                << (error ? ": " + error.message() : std::string()) << "\n";
            return 2;
        }
    }
    if (!options.screenshots.empty()) std::remove((options.screenshots + "/.d3dcap-probe").c_str());
    // A report that could not be written is refused now, not after the replay.
    if (!options.report.empty()) {
        std::error_code error;
        const bool existed = std::filesystem::exists(options.report, error);
        if (!std::ofstream(options.report, std::ios::app)) {
            err << "d3dcap replay: --report " << options.report << ": cannot write the report\n";
            return 2;
        }
        if (!existed) std::remove(options.report.c_str());
    }
    if (!choose_device(options.device, run, err)) return 2;
    std::optional<ProgressBar> bar;
    if (!options.quiet && isatty(STDERR_FILENO)) {
        bar.emplace(err);
        run.progress = [&bar](std::uint64_t done, std::uint64_t total) {
            bar->update(done, total);
        };
    }
    if (!run.device_reason.empty() && !options.quiet) out << run.device_reason << "\n";

    auto report = replay::run_replay(run);
    if (!report) {
        err << "d3dcap replay: " << report.error().to_string() << "\n";
        return 1;
    }
    if (!options.report.empty()) {
        std::ofstream file(options.report);
        file << replay::report_json(report.value()).dump(1) << "\n";
        if (!file) {
            err << "d3dcap replay: --report " << options.report << ": cannot write the report\n";
            return 1;
        }
    }
    replay::print_summary(report.value(), out, options.quiet ? 0 : options.rows);
    const replay::RunReport& r = report.value();
    bool failed_adaptation = false;
    for (const auto& a : r.adaptations) failed_adaptation |= !a.adapted;
    if (options.verify && r.hashes_checked == 0 && r.hashes_not_comparable > 0) {
        err << "d3dcap replay: --verify: nothing was verified; every recorded hash is of "
               "content the capturing device did not compute (capture on a device that runs "
               "draws and dispatches)\n";
        return 3;
    }
    if (options.verify && r.hashes_checked == 0) {
        err << "d3dcap replay: --verify: nothing was verified; the trace records no content "
               "hashes ("
            << why_no_hashes(options.trace) << ")\n";
        return 3;
    }
    // Render targets that differ from the recording by rounding only pass.
    const bool wrong =
        std::any_of(r.hash_differences.begin(), r.hash_differences.end(),
                    [](const replay::HashDifference& d) { return !d.within_tolerance(); });
    return r.mismatches.empty() && !wrong && !failed_adaptation ? 0 : 3;
}

int run_compare(const CompareOptions& options, std::ostream& out, std::ostream& err) {
    nlohmann::json reports[2];
    const std::string* paths[2] = {&options.a, &options.b};
    for (int i = 0; i < 2; ++i) {
        std::ifstream file(*paths[i]);
        if (!file) {
            err << "d3dcap compare: " << *paths[i] << ": cannot open the report\n";
            return 1;
        }
        reports[i] = nlohmann::json::parse(file, nullptr, false);
        if (reports[i].is_discarded()) {
            err << "d3dcap compare: " << *paths[i]
                << ": not JSON (a d3dcap replay --report file?)\n";
            return 1;
        }
    }
    std::string error;
    if (!replay::print_comparison(reports[0], reports[1], out, &error)) {
        err << "d3dcap compare: not a d3dcap replay report: " << error << "\n";
        return 1;
    }
    return 0;
}

}  // namespace d3dcap::cli
