// Running a program's Catch2 tests from a main of its own. Catch2's
// implementation (and so its Session) is compiled once, in catch_session.cpp.
#pragma once

#include <functional>

namespace test_support {

// Runs the tests the command line names and gives the program's exit status
// (0 or 1, never the skip code). `prepare` runs first, unless the command
// line only lists tests, tags or reporters (ctest's discovery needs no
// device); it may skip or fail the program.
int run_catch(int argc, char** argv, const std::function<void()>& prepare = {});

}  // namespace test_support
