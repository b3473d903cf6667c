// Skipping a test for real: ctest runs each test case in a process of its
// own and reports exit code 77 (SKIP_RETURN_CODE) as skipped, with the reason
// printed here. A case that returned early would count as passed although it
// checked nothing.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace test_support {

inline constexpr int kSkipReturnCode = 77;  // ctest SKIP_RETURN_CODE

[[noreturn]] inline void skip_test(const std::string& reason) {
    std::printf("SKIP: %s\n", reason.c_str());
    std::fflush(stdout);
    std::exit(kSkipReturnCode);
}

}  // namespace test_support
