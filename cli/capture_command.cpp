#include "capture_command.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <ostream>

#include "format/trace/reader.h"
#include "frame_range.h"
#include "trace_commands.h"
#include "wine_capture.h"

namespace d3dcap::cli {

namespace {

namespace fs = std::filesystem;

fs::path own_directory(const char* argv0) {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) exe = fs::absolute(argv0);
    return exe.parent_path();
}

// The layer next to this executable: ../lib in the build tree, the library
// directory when installed; D3DCAP_CAPTURE_LIBRARY overrides both.
std::string find_layer(const fs::path& bin, std::string& error) {
    if (const char* path = std::getenv("D3DCAP_CAPTURE_LIBRARY"); path != nullptr && *path)
        return path;
    for (const fs::path& candidate :
         {bin / ".." / "lib" / "libd3dcap_capture.so",
          bin / ".." / D3DCAP_INSTALL_LIBDIR / "libd3dcap_capture.so"}) {
        if (fs::exists(candidate)) return fs::weakly_canonical(candidate).string();
    }
    error = "cannot find libd3dcap_capture.so next to " + bin.string() +
            " (set D3DCAP_CAPTURE_LIBRARY to its path)";
    return {};
}

// The environment that puts the Windows layer between a Windows program of
// this machine type and Wine's d3d11 and dxgi; command gets wine in front.
// Empty with error set when something is missing.
std::vector<std::pair<std::string, std::string>> wine_launch(
    const std::string& program, std::uint16_t machine, const fs::path& bin,
    const std::string& output, std::vector<std::string>& command, PlacedLayer& placed,
    std::string& error) {
    if (!fs::is_regular_file(program)) {
        error = "cannot find the Windows program " + program;
        return {};
    }
    if (machine == 0) {
        error = program + " is not a Windows program (it has no PE header); --wine runs " +
                "Windows programs";
        return {};
    }
    if (machine != kPeMachineAmd64 && machine != kPeMachineI386) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%04x", machine);
        error = program + " is a Windows program for machine " + hex +
                "; the Windows capture layer is built for x86-64 (0x8664) and x86 (0x014c)";
        return {};
    }
    const std::string wine = find_wine(error);
    if (wine.empty()) return {};
    const std::string layer_dir = find_windows_layer(bin, machine, error);
    if (layer_dir.empty()) return {};
    if (!placed.place(layer_dir, fs::absolute(program).parent_path(), error)) return {};
    command.insert(command.begin(), wine);
    return wine_environment(output);
}

// The environment that preloads the Linux layer; empty with error set when
// it cannot be found.
std::vector<std::pair<std::string, std::string>> preload_environment(const fs::path& bin,
                                                                     const std::string& output,
                                                                     std::string& error) {
    const std::string layer = find_layer(bin, error);
    if (layer.empty()) return {};
    std::string preload = layer;
    if (const char* existing = std::getenv("LD_PRELOAD"); existing != nullptr && *existing)
        preload += std::string(":") + existing;
    std::vector<std::pair<std::string, std::string>> env = {{"LD_PRELOAD", preload},
                                                            {"D3DCAP_CAPTURE_OUTPUT", output}};
    // A program built with AddressSanitizer refuses to start when a preloaded
    // library comes before its runtime, which LD_PRELOAD always does.
    std::string asan = "verify_asan_link_order=0";
    if (const char* existing = std::getenv("ASAN_OPTIONS"); existing != nullptr && *existing)
        asan = std::string(existing) + ":" + asan;
    env.emplace_back("ASAN_OPTIONS", asan);
    return env;
}

std::string human_size(std::uintmax_t bytes) {
    char text[32];
    if (bytes >= 1024 * 1024)
        std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1024 * 1024));
    else if (bytes >= 1024)
        std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024);
    else
        std::snprintf(text, sizeof text, "%ju bytes", bytes);
    return text;
}

// Read by the signal handler.
volatile sig_atomic_t g_program = 0;

void forward_signal(int signal_number) {
    if (g_program > 0) ::kill(g_program, signal_number);
}

// Runs the command with env added; returns its exit status, or -1 with
// error set when it could not be started. Ctrl-C and termination are passed
// to the program, and this waits for it to end, so that what capture does
// afterwards (the summary, removing what it put next to a Windows program)
// still happens.
int run_program(const std::vector<std::string>& command,
                const std::vector<std::pair<std::string, std::string>>& env, std::string& error) {
    int exec_error[2];
    if (pipe2(exec_error, O_CLOEXEC) != 0) {
        error = std::string("pipe: ") + std::strerror(errno);
        return -1;
    }
    const pid_t pid = fork();
    if (pid < 0) {
        error = std::string("fork: ") + std::strerror(errno);
        return -1;
    }
    if (pid == 0) {
        close(exec_error[0]);
        for (const auto& [name, value] : env) setenv(name.c_str(), value.c_str(), 1);
        std::vector<char*> argv;
        for (const std::string& arg : command) argv.push_back(const_cast<char*>(arg.c_str()));
        argv.push_back(nullptr);
        execvp(argv[0], argv.data());
        const int code = errno;
        [[maybe_unused]] const ssize_t n = write(exec_error[1], &code, sizeof code);
        _exit(127);
    }
    close(exec_error[1]);
    g_program = pid;
    struct sigaction forward {};
    forward.sa_handler = forward_signal;
    sigemptyset(&forward.sa_mask);
    struct sigaction previous[3];
    const int forwarded[3] = {SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 3; ++i) sigaction(forwarded[i], &forward, &previous[i]);
    int code = 0;
    ssize_t got;
    while ((got = read(exec_error[0], &code, sizeof code)) < 0 && errno == EINTR) {
    }
    const bool exec_failed = got == sizeof code;
    close(exec_error[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    for (int i = 0; i < 3; ++i) sigaction(forwarded[i], &previous[i], nullptr);
    g_program = 0;
    if (exec_failed) {
        error = "cannot run " + command[0] + ": " + std::strerror(code);
        return -1;
    }
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

// The layer parses D3DCAP_CAPTURE_HASHES the same way; checked here first so
// that a mistake stops the command before the program runs.
bool valid_hashes(const std::string& text, std::string& error) {
    if (text == "all" || text == "none") return true;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        std::string name = text.substr(start, comma == std::string::npos ? comma : comma - start);
        const auto first = name.find_first_not_of(" \t");
        name = first == std::string::npos
                   ? std::string()
                   : name.substr(first, name.find_last_not_of(" \t") - first + 1);
        if (name.empty()) {
            error = "has an empty name (names and ids are separated by single commas)";
            return false;
        }
        if (name == "all" || name == "none") {
            error = "has '" + name + "' in a list of names";
            return false;
        }
        if (comma == std::string::npos) return true;
        start = comma + 1;
    }
}

// Whether the trace can be created at path (a file made to check is removed).
bool writable(const std::string& path, std::string& error) {
    const bool existed = fs::exists(path);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        error = std::strerror(errno);
        return false;
    }
    ::close(fd);
    std::error_code ec;
    if (!existed) fs::remove(path, ec);
    return true;
}

// Why a trace had to be recovered: the program was killed (status 128 +
// signal), or the reader says what it found (no index after a write error).
std::string recovered_note(const trace::TraceReader& reader, int status) {
    if (!reader.recovered()) return {};
    if (status > 128) return " (recovered: the program was killed before it closed the trace)";
    return " (recovered: " + reader.recovery_note() + ")";
}

}  // namespace

int run_capture(const CaptureOptions& options, const char* argv0, std::ostream& out,
                std::ostream& err) {
    if (options.command.empty()) {
        err << "d3dcap capture: no program given (d3dcap capture [options] -- PROGRAM ARGS...)\n";
        return 2;
    }
    if (!options.frames.empty() && !parse_frame_range(options.frames)) {
        err << "d3dcap capture: --frames '" << options.frames
            << "' is not a frame range (A-B, A- or A; frames count from 0)\n";
        return 2;
    }
    if (!options.device.empty() && options.device != "reference" && options.device != "hardware" &&
        options.device != "warp" && options.device != "null") {
        err << "d3dcap capture: --device '" << options.device
            << "' is not one of reference, hardware, warp, null\n";
        return 2;
    }
    std::string error;
    if (!options.hashes.empty() && !valid_hashes(options.hashes, error)) {
        err << "d3dcap capture: --hashes '" << options.hashes << "' " << error
            << "; give all or NAME[,NAME...] (debug names or object ids)\n";
        return 2;
    }
    // The program may change directory: it gets the absolute path; the user
    // sees the path as given.
    const std::string shown = options.output.empty()
                                  ? fs::path(options.command[0]).filename().string() + ".d3dcap"
                                  : options.output;
    const std::string output = fs::absolute(shown).string();
    // A trace left from an earlier run must not be reported; a device such
    // as /dev/full is written to, never removed.
    std::error_code ec;
    if (fs::is_regular_file(output, ec)) fs::remove(output, ec);
    if (!writable(output, error)) {
        err << "d3dcap capture: cannot write the trace " << output << ": " << error << '\n';
        return 2;
    }
    const std::uint16_t machine = pe_machine(options.command[0]);
    const bool under_wine = options.wine || machine != 0;
    const fs::path bin = own_directory(argv0);
    std::vector<std::string> command = options.command;
    PlacedLayer placed;
    std::vector<std::pair<std::string, std::string>> env =
        under_wine ? wine_launch(options.command[0], machine, bin, output, command, placed, error)
                   : preload_environment(bin, output, error);
    if (env.empty()) {
        err << "d3dcap capture: " << error << '\n';
        return 2;
    }
    if (!options.frames.empty()) env.emplace_back("D3DCAP_CAPTURE_FRAMES", options.frames);
    if (!options.device.empty()) env.emplace_back("D3DCAP_DEVICE", options.device);
    if (!options.hashes.empty()) env.emplace_back("D3DCAP_CAPTURE_HASHES", options.hashes);

    const int status = run_program(command, env, error);
    if (status < 0) {
        err << "d3dcap capture: " << error << '\n';
        return 2;
    }
    if (fs::exists(output, ec) && !fs::is_regular_file(output, ec)) {
        err << "d3dcap capture: " << output << " is not a file, so there is no trace to report; "
            << options.command[0] << " exited with status " << status << '\n';
        return status;
    }
    if (!fs::exists(output)) {
        err << "d3dcap capture: " << options.command[0]
            << " wrote no trace (it created no D3D11 device, or its frames never reached "
               "the range); exit status "
            << status << '\n';
        return status != 0 ? status : 1;
    }
    auto reader = trace::TraceReader::open(output);
    if (!reader.ok()) {
        err << "d3dcap capture: " << reader.error().to_string() << '\n';
        return status != 0 ? status : 1;
    }
    const std::string note = recovered_note(*reader.value(), status);
    if (under_wine && reader.value()->recovered()) {
        // A trace the Windows program cut short: its readable part made a
        // whole trace again, index and all.
        std::ostream discarded(nullptr);
        if (run_repack(RepackOptions{output, output, false}, discarded, err) != 0)
            return status != 0 ? status : 1;
        reader = trace::TraceReader::open(output);
        if (!reader.ok()) {
            err << "d3dcap capture: " << reader.error().to_string() << '\n';
            return status != 0 ? status : 1;
        }
    }
    const fb::TraceIndex& index = reader.value()->index();
    const std::uint64_t events = reader.value()->event_count();
    const std::size_t frames =
        index.frame_first_events() != nullptr ? index.frame_first_events()->size() : 0;
    out << "d3dcap capture: " << shown << ": " << human_size(fs::file_size(output)) << ", "
        << events << " events, " << frames << " frames" << note << "; " << options.command[0]
        << " exited with status " << status << '\n';
    if (note.empty()) return status;
    // What the program did after the last complete chunk is not in the
    // trace: a loss, whatever the program's own status says.
    err << "d3dcap capture: the trace was not finished: its first " << events
        << " events are kept, what " << options.command[0] << " did after them is lost\n";
    return status != 0 ? status : 1;
}

}  // namespace d3dcap::cli
