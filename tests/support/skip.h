// Skipping a test for real: ctest runs each test case in a process of its
// own and reports exit code 77 (SKIP_RETURN_CODE) as skipped, with the reason
// printed here. A case that returned early would count as passed although it
// checked nothing. Test mains cap a failure's exit status at 1 (catch_main.cpp),
// so that 77 failed assertions never read as a skip.
//
// Two reasons to skip, kept apart:
// - skip_test: what no CI machine has (a GPU, sparse residency, a feature of
//   one GPU). Always a skip, with the reason.
// - missing_dependency: something scripts/install-deps installs (lavapipe,
//   the Khronos validation layer, spirv-val, Wine, Xvfb, mingw-w64). A skip
//   on a developer's machine; a failure under CI (CI set) or with
//   D3DCAP_REQUIRE_ALL=1, where it means the install is broken.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace test_support {

inline constexpr int kSkipReturnCode = 77;  // ctest SKIP_RETURN_CODE

// True where every dependency scripts/install-deps installs must be present.
inline bool require_all_dependencies() {
    const char* ci = std::getenv("CI");
    const char* required = std::getenv("D3DCAP_REQUIRE_ALL");
    const bool ci_set = ci && *ci && std::strcmp(ci, "false") != 0 && std::strcmp(ci, "0") != 0;
    return ci_set || (required && std::strcmp(required, "1") == 0);
}

// The exit status of a test run from Catch2's result (the number of failed
// assertions): 0 or 1, never the skip code.
inline int exit_status(int catch_result) {
    return catch_result == 0 ? 0 : 1;
}

[[noreturn]] inline void skip_test(const std::string& reason) {
    std::printf("SKIP: %s\n", reason.c_str());
    std::fflush(stdout);
    std::exit(kSkipReturnCode);
}

[[noreturn]] inline void missing_dependency(const std::string& reason) {
    if (require_all_dependencies()) {
        std::printf(
            "FAIL: %s (scripts/install-deps installs it; CI or D3DCAP_REQUIRE_ALL=1 "
            "needs every dependency)\n",
            reason.c_str());
        std::fflush(stdout);
        std::exit(1);
    }
    skip_test(reason);
}

}  // namespace test_support
