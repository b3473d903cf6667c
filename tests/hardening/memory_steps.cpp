// The peak resident memory of each step a long trace goes through: capture
// (many_calls under `d3dcap capture`), `d3dcap info`, `d3dcap dump` of 100
// events in the middle, and `d3dcap replay` on the null device. Each step
// runs in a child process; its peak (and that of its own children) comes
// from wait4's rusage. With --flat MIB, it fails when a step of the last
// count took more than MIB over the same step of the first count.
// usage: memory_steps [--flat MIB] D3DCAP MANY_CALLS DIR markers|regions COUNT...
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Step {
    int status = -1;
    long peak_kib = 0;
};

// Runs argv with stdout and stderr to log; the exit status and peak RSS.
Step run_step(const std::vector<std::string>& argv, const std::string& log) {
    Step step;
    const pid_t pid = fork();
    if (pid < 0) return step;
    if (pid == 0) {
        const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        std::vector<char*> args;
        for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);
        execv(args[0], args.data());
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid) return step;
    step.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    step.peak_kib = usage.ru_maxrss;
    return step;
}

}  // namespace

int main(int argc, char** argv) {
    long flat_kib = -1;
    if (argc > 2 && std::strcmp(argv[1], "--flat") == 0) {
        flat_kib = std::atol(argv[2]) * 1024;
        argv += 2;
        argc -= 2;
    }
    if (argc < 6) {
        std::fprintf(stderr,
                     "usage: memory_steps [--flat MIB] D3DCAP MANY_CALLS DIR markers|regions "
                     "COUNT...\n");
        return 2;
    }
    const std::string d3dcap = argv[1], many_calls = argv[2], dir = argv[3], markers = argv[4];
    std::printf("%12s  %-8s %10s  %s\n", "events", "step", "peak MiB", "status");
    int failed = 0;
    std::vector<long> first_peaks;  // of each step, at the first count
    for (int i = 5; i < argc; ++i) {
        const unsigned long long count = std::strtoull(argv[i], nullptr, 10);
        const std::string trace = dir + "/many-" + markers + "-" + argv[i] + ".d3dcap";
        const std::string middle = std::to_string(count / 2);
        const std::string end = std::to_string(count / 2 + 99);
        const std::vector<std::pair<const char*, std::vector<std::string>>> steps = {
            {"capture",
             {d3dcap, "capture", "--device", "null", "-o", trace, "--", many_calls, argv[i],
              markers}},
            {"info", {d3dcap, "info", trace}},
            {"dump", {d3dcap, "dump", trace, "--from", middle, "--to", end}},
            {"replay", {d3dcap, "replay", trace, "--device", "null", "--quiet"}},
        };
        for (std::size_t s = 0; s < steps.size(); ++s) {
            const auto& [name, command] = steps[s];
            const Step step = run_step(command, trace + "." + name + ".log");
            std::printf("%12llu  %-8s %10.1f  %d\n", count, name,
                        static_cast<double>(step.peak_kib) / 1024.0, step.status);
            std::fflush(stdout);
            if (step.status != 0) ++failed;
            if (i == 5) first_peaks.push_back(step.peak_kib);
            if (i + 1 == argc && flat_kib >= 0 && step.peak_kib > first_peaks[s] + flat_kib) {
                std::printf("%s: %.1f MiB more than at %s events\n", name,
                            static_cast<double>(step.peak_kib - first_peaks[s]) / 1024.0, argv[5]);
                ++failed;
            }
        }
    }
    return failed == 0 ? 0 : 1;
}
